/*
 * atalab emulator core: the fault engine -- rules that make the emulated
 * drives fail on purpose, the way real drives do, seeded and repeatable.
 *
 * A rule names a fault kind, what it matches (drive, command or command
 * class, LBA range) and a trigger (always, the Nth match, after N matches,
 * every Kth, with probability p, inside a virtual-time window), and how
 * many times it fires.  The text form of a rule, one per line, is
 * docs/faults.md's "Rule files"; a parse error names FILE:LINE:COLUMN and
 * the bad token.  The same rules and seed give the same firings on every
 * run.  Matching looks at one bucket per (drive, command class) and, for
 * rules with an LBA range, a sorted array: its cost does not grow with
 * rules that cannot match.
 *
 * The engine decides only which rules fire; the ATA devices present the
 * fault (ata-fault.c, docs/faults.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_FAULT_H
#define ATALAB_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum AtalabFaultKind {
    ATALAB_FAULT_UNC,           /* "unc": uncorrectable data on a read */
    ATALAB_FAULT_AMNF,          /* "amnf": address mark not found */
    ATALAB_FAULT_IDNF,          /* "idnf": ID not found */
    ATALAB_FAULT_ABRT,          /* "abrt": command aborted */
    ATALAB_FAULT_WRITE_FAULT,   /* "write-fault": DF on a write */
    ATALAB_FAULT_DF,            /* "df": device fault, sticky until reset */
    ATALAB_FAULT_ICRC,          /* "icrc": interface CRC on Ultra DMA */
    ATALAB_FAULT_TIMEOUT,       /* "timeout": BSY until reset */
    ATALAB_FAULT_LOST_IRQ,      /* "lost-irq": completes, no INTRQ */
    ATALAB_FAULT_SPURIOUS_IRQ,  /* "spurious-irq": INTRQ for nothing */
    ATALAB_FAULT_BM_ERROR,      /* "bm-error": PCI master abort */
    ATALAB_FAULT_PROTOCOL,      /* "protocol": a protocol violation */
    ATALAB_FAULT_LATENCY,       /* "latency": completion delayed */
    ATALAB_FAULT_RESET_FAIL,    /* "reset-fail": BSY stays after SRST */
    ATALAB_FAULT_REMOVE,        /* "remove": device removed (reinserted) */
    ATALAB_FAULT_CORRUPT,       /* "corrupt": silent bit flips */
    ATALAB_FAULT_POWER_CUT,     /* "power-cut": volatile cache lost */
    ATALAB_FAULT_SENSE,         /* "sense": CHECK CONDITION, given sense */
    ATALAB_FAULT_IDENTIFY_DATA, /* "identify-data": IDENTIFY words changed */
    ATALAB_FAULT_END_STATUS,    /* "end-status": any Status/Error at the end */
    ATALAB_FAULT_N_KINDS,
} AtalabFaultKind;

/* What a command does, for rules that match a class of commands. */
typedef enum AtalabCmdClass {
    ATALAB_CLASS_READ,          /* media reads (and READ VERIFY) */
    ATALAB_CLASS_WRITE,         /* media writes */
    ATALAB_CLASS_FLUSH,
    ATALAB_CLASS_IDENTIFY,
    ATALAB_CLASS_OTHER,
    ATALAB_N_CLASSES,
} AtalabCmdClass;

/* protocol violations (rule key "violation") */
typedef enum AtalabProtocolFault {
    ATALAB_PROTO_DRQ_COUNT,     /* "drq-count": DRQ block of a wrong size */
    ATALAB_PROTO_STATUS_PHASE,  /* "status-phase": DRQ left set at the end */
    ATALAB_PROTO_IRQ_EARLY,     /* "irq-early": INTRQ before data is ready */
} AtalabProtocolFault;

typedef enum AtalabFaultTrigger {
    ATALAB_TRIGGER_ALWAYS,      /* every match */
    ATALAB_TRIGGER_NTH,         /* the Nth match */
    ATALAB_TRIGGER_AFTER,       /* every match after the first N */
    ATALAB_TRIGGER_EVERY,       /* every Kth match */
    ATALAB_TRIGGER_PROB,        /* each match with probability p */
    ATALAB_TRIGGER_WINDOW,      /* matches inside [t0, t1] of virtual time */
} AtalabFaultTrigger;

#define ATALAB_FAULT_ID_LEN     32
#define ATALAB_FAULT_FOREVER    0       /* times: no limit */
#define ATALAB_FAULT_NEVER_ENDS INT64_MAX /* duration: until a reset */

typedef struct AtalabFaultRule {
    char id[ATALAB_FAULT_ID_LEN];
    AtalabFaultKind kind;
    /* Match: -1 for any */
    int drive;
    int opcode;
    int packet_op;              /* cdb=: a packet's operation code */
    int cls;                    /* AtalabCmdClass or -1 */
    bool has_lba;
    uint64_t lba_first, lba_last;
    /* Trigger */
    AtalabFaultTrigger trigger;
    uint64_t n;                 /* NTH, AFTER, EVERY */
    uint64_t p_scaled;          /* PROB: p * 2^32 (2^32: certain) */
    int64_t t0, t1;             /* WINDOW, ns of virtual time */
    uint64_t times;             /* firings allowed; 0: forever */
    /* Parameters */
    int64_t duration;           /* latency delay; reset-fail/remove time */
    int violation;              /* AtalabProtocolFault */
    unsigned bits;              /* corrupt: flips per sector; identify-data */
    int word;                   /* identify-data: the word, or -1: any */
    int value;                  /* identify-data: its value, or -1: flips */
    int status_value;           /* end-status: Status at the end */
    int error_value;            /* end-status: Error then, or -1: 00h */
    bool on_write;              /* corrupt: data written (else read) */
    bool irq;                   /* bm-error: the device still interrupts */
    /* power-cut: p * 2^32 that the next newest unflushed write is lost */
    uint64_t loss_scaled;
    /* sense: sense key, additional sense code and qualifier (SPC-3) */
    bool has_sense;
    uint8_t sense_key, asc, ascq;
    /* State */
    uint64_t matches;
    uint64_t fired;
    uint64_t rng;
    unsigned order;             /* position in the rule set */
} AtalabFaultRule;

/* A command as the engine sees it. */
typedef struct AtalabFaultQuery {
    unsigned drive;
    uint8_t opcode;
    bool packet;                /* a packet command (ATAPI), whose */
    uint8_t packet_op;          /* operation code this is */
    AtalabCmdClass cls;
    bool has_lba;
    uint64_t lba;
    uint32_t count;
    bool udma;                  /* the command moves data by Ultra DMA */
    bool reset;                 /* not a command: a software reset */
    int64_t now;
} AtalabFaultQuery;

#define ATALAB_FAULT_MAX_HITS   8

/* The rules that fired for one command, in rule order. */
typedef struct AtalabFaultHits {
    AtalabFaultRule *rule[ATALAB_FAULT_MAX_HITS];
    uint64_t lba[ATALAB_FAULT_MAX_HITS];    /* first faulty sector */
    unsigned n;
} AtalabFaultHits;

typedef struct AtalabFaults AtalabFaults;

AtalabFaults *atalab_faults_new(uint64_t seed);
void atalab_faults_free(AtalabFaults *f);
/* Seed of the probability triggers and bit flips; resets their state. */
void atalab_faults_set_seed(AtalabFaults *f, uint64_t seed);
uint64_t atalab_faults_seed(const AtalabFaults *f);

/*
 * Add one rule in text form.  where names the source for messages (a file
 * name, "qmp"); line its line (0: none).  On error returns false and sets
 * *err (g_free it) to "WHERE:LINE:COLUMN: message".
 */
bool atalab_faults_add(AtalabFaults *f, const char *text, const char *where,
                       unsigned line, char **err);
/* Every rule of a rule file; nothing is added when any line is bad. */
bool atalab_faults_load(AtalabFaults *f, const char *path, char **err);
bool atalab_faults_parse_text(AtalabFaults *f, const char *text,
                              const char *where, char **err);
bool atalab_faults_remove(AtalabFaults *f, const char *id);
void atalab_faults_clear(AtalabFaults *f);
unsigned atalab_faults_count(const AtalabFaults *f);
const AtalabFaultRule *atalab_faults_rule(const AtalabFaults *f, unsigned i);
const AtalabFaultRule *atalab_faults_find(const AtalabFaults *f,
                                          const char *id);
/*
 * The rules, one line each in the rule-file form followed by
 * "matches=M fired=F"; g_free the result.
 */
char *atalab_faults_list(const AtalabFaults *f);
/* One rule in the rule-file form; g_free the result. */
char *atalab_fault_rule_text(const AtalabFaultRule *r);

/* Rules that fire for q: counts matches and firings. */
void atalab_faults_match(AtalabFaults *f, const AtalabFaultQuery *q,
                         AtalabFaultHits *hits);
/*
 * Timed rules (a kind that needs no command -- spurious-irq, remove,
 * power-cut -- with a time window and no command filter): the next
 * virtual time one is due after now, or -1.
 */
int64_t atalab_faults_next_timed(const AtalabFaults *f, int64_t now);
/* The timed rules due at now (fired and counted), for drive. */
void atalab_faults_take_timed(AtalabFaults *f, int64_t now, unsigned drive,
                              AtalabFaultHits *hits);
/* Does the rule set hold a rule of kind? */
bool atalab_faults_have_kind(AtalabFaults *f, AtalabFaultKind kind);
/* A 64-bit pseudo-random number from a rule's stream (bit flips, loss). */
uint64_t atalab_fault_random(AtalabFaultRule *rule);

const char *atalab_fault_kind_name(AtalabFaultKind kind);
const char *atalab_cmd_class_name(AtalabCmdClass cls);

#endif
