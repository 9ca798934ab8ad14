/*
 * atalab trace diff: what a trace says a driver did, in the terms the diff
 * compares (tools/atalab trace diff; docs/trace-diff.md).  A trace read
 * with the reader library becomes, per drive position, its commands in
 * order (with the protocol path each took, its outcome, its data, the
 * faults and violations in it), the phases the drive went through (probe,
 * mode setting, I/O, error handling, reset) with the decoded timing at the
 * end of each, and its error-handling episodes; and, for the controller,
 * the timing register writes with the configuration space before each.
 *
 * Memory: linear in the commands, writes and events of the trace; no
 * record is kept.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_DIFF_MODEL_H
#define ATALAB_DIFF_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#define DIFF_DRIVES     4       /* ata0 d0, ata0 d1, ata1 d0, ata1 d1 */

typedef enum DiffPhase {
    DIFF_PHASE_PROBE,
    DIFF_PHASE_MODE,
    DIFF_PHASE_IO,
    DIFF_PHASE_EH,
    DIFF_PHASE_RESET,
    DIFF_N_PHASES
} DiffPhase;

const char *diff_phase_name(DiffPhase p);

typedef enum DiffXfer {
    DIFF_XFER_NONE,             /* no data phase */
    DIFF_XFER_PIO,
    DIFF_XFER_DMA,
} DiffXfer;

typedef enum DiffOutcome {
    DIFF_OUT_DONE,              /* done record */
    DIFF_OUT_ERROR,             /* error record */
    DIFF_OUT_ABORT,             /* abort record (reset, diagnostic, ...) */
    DIFF_OUT_STUCK,             /* dma-stuck: the DMA could not go on */
    DIFF_OUT_NONE,              /* no end before the drive's next command
                                 * or a reset: the host gave up on it */
    DIFF_OUT_OPEN,              /* no end before the trace's end */
    DIFF_N_OUTCOMES
} DiffOutcome;

/*
 * An outcome's names, the one vocabulary of the trace tools: key for
 * machines (JSON, HTML classes: "ok", "timed-out"), words for the diff's
 * text ("done", "no completion (timed out)"), meaning for a summary row.
 */
typedef struct DiffOutcomeNames {
    const char *key;
    const char *words;
    const char *meaning;
} DiffOutcomeNames;

const DiffOutcomeNames *diff_outcome_names(DiffOutcome o);

/* An event that is not a command: a fault firing, a violation. */
typedef struct DiffEvent {
    char *text;                 /* the record without time and seq= */
    unsigned cmd;               /* 1 + index of its command; 0: none */
    DiffPhase phase;
    int64_t time;
    unsigned line;
} DiffEvent;

typedef struct DiffCmd {
    unsigned seq;
    unsigned opcode;
    char *name;                 /* READ_DMA */
    char *params;               /* "lba=0 count=8", "feature=0x03 ..." */
    uint64_t key;               /* hash of opcode and params */
    DiffPhase phase;
    unsigned phase_no;          /* index of the drive's phase instance */
    DiffOutcome outcome;
    char *outcome_text;         /* "status=0x50", "UNC error=0x40 ..." */
    DiffXfer xfer;
    bool dir_out;               /* data written to the drive */
    bool polled;                /* nIEN set when it was issued */
    unsigned irqs;              /* interrupt assertions during it */
    unsigned max_block;         /* largest PIO DRQ block, bytes */
    uint64_t pio_bytes;         /* bytes through the data port */
    uint32_t pio_sum;           /* its blocks' sums, h = h * 16777619 + sum */
    uint64_t io_sectors;        /* sectors of its backend requests */
    unsigned polls;             /* Status/AltStatus reads while it ran */
    unsigned faults;            /* fault firings in it */
    char *taskfile;             /* register writes before it: "Features=0x03 ..." */
    int64_t start, end;         /* times of its cmd and its end (the
                                 * record that closed it for
                                 * DIFF_OUT_NONE; its cmd for OPEN) */
    unsigned line;              /* line of its cmd record */
    unsigned end_line;          /* line of its end; 0 while OPEN */
} DiffCmd;

/* One stretch of a drive in one phase. */
typedef struct DiffPhaseRun {
    DiffPhase phase;
    unsigned n_cmds;            /* its commands */
    char *timing_end;           /* decoded setting at its end ("" none) */
    unsigned line;              /* where it starts */
    /* error handling */
    unsigned trigger;           /* 1 + index of the command that began it */
    char *trigger_text;         /* "UNC on READ_DMA lba=... (seq 52)" */
    char *timing_start;         /* setting when it began */
    unsigned resets;            /* SRST or controller resets in it */
    unsigned retries;           /* commands equal to the trigger */
    bool recovered;             /* ended by a successful data command */
} DiffPhaseRun;

typedef struct DiffDrive {
    GArray *cmds;               /* DiffCmd */
    GArray *runs;               /* DiffPhaseRun */
    GArray *faults;             /* DiffEvent: fault firings */
    GArray *violations;         /* DiffEvent: violation, ignored, bug */
    char *timing;               /* current decoded setting (timing record) */
    DiffPhase phase;
    bool present;               /* header says so or records show it */
} DiffDrive;

/*
 * A write to a configuration register (reg= a name of the personality's
 * table).  A channel's bits are those some drive of the channel's
 * decoded setting depends on (docs/trace-diff.md); a write belongs to the
 * channels whose bits it changes, to the controller when it changes only
 * other bits, and is redundant when it changes nothing.
 */
typedef struct DiffCfgWrite {
    char reg[32];               /* IDETIM0, UDMATIM, IDETIM0+IDETIM1 */
    unsigned offset, size;
    uint32_t value;
    uint32_t changed;           /* the bits it changed */
    uint32_t chan_bits[2];      /* each channel's bits in its range */
    uint8_t before[256];        /* the configuration space before it */
    unsigned drives;            /* mask of drives whose setting it changed */
    DiffPhase phase[3];         /* in channel 0, 1, the controller */
    unsigned line;
} DiffCfgWrite;

/* The write's sequence: channel 0, channel 1, or the controller (2). */
bool diff_write_in(const DiffCfgWrite *w, unsigned seq);
/* Its key in that sequence: register, size and the value's bits there. */
uint64_t diff_write_key(const DiffCfgWrite *w, unsigned seq);

typedef struct DiffTrace {
    char *path;
    GPtrArray *header;          /* "KEY VALUE" */
    const char *personality;    /* from the header; NULL when unknown */
    bool folded;                /* trace-data=block */
    DiffDrive drive[DIFF_DRIVES];
    GArray *writes;             /* DiffCfgWrite */
    GHashTable *redundant;      /* register name -> writes changing nothing */
    uint64_t records;
} DiffTrace;

/*
 * Read path into a model.  NULL with *err ("FILE:LINE: message") when it
 * cannot be read.
 */
DiffTrace *diff_trace_load(const char *path, GError **err);
void diff_trace_free(DiffTrace *t);

/* The first header value of key, or NULL. */
const char *diff_trace_header(const DiffTrace *t, const char *key);

/* "ata0 d0" ... "ata1 d1" for drive positions 0-3, else "controller". */
const char *diff_drive_name(int drive);

/*
 * Header lines ("KEY VALUE"): does the line's key decide whether two
 * traces are comparable (personality, cables, drives, fault rules and
 * seed: traces/FORMAT.md, "Header")?  Its key (g_free it), its value.
 */
bool diff_header_decides(const char *line);
char *diff_header_key(const char *line);
const char *diff_header_value(const char *line);

/* FNV-1a, 64-bit, over a string, continuing from h (start: 0). */
uint64_t diff_hash(uint64_t h, const char *s);

#endif
