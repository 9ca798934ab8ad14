/*
 * atalab emulator core: one channel's ATA bus and its two devices.
 *
 * This is what the controller sees of the ATA side: the command and control
 * block registers, the interrupt line, resets, and the DMA client callbacks.
 * The ATA code reaches the bus-master engine only through the DMA port
 * (dma-port.h) and the controller only through AtalabAtaHooks; it includes
 * neither bmdma.h nor ctrl-state.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_ATA_DEVICE_H
#define ATALAB_ATA_DEVICE_H

#include "../faults/atalab-fault.h"
#include "../atalab-host.h"
#include "../dma/dma-port.h"
#include "drive-config.h"

#include <glib.h>

#define ATA_SECTOR_SIZE         512
#define ATA_MAX_MULT            16      /* IDENTIFY word 47 */
#define ATA_PIO_MAX             4       /* IDENTIFY word 64: PIO 3 and 4 */
/* Largest backend request of a DMA command or READ VERIFY: 1 MiB. */
#define ATA_CHUNK_SECTORS       2048
#define ATA_BOUNCE_SIZE         (ATA_CHUNK_SECTORS * ATA_SECTOR_SIZE)
/* SMART self-test log entries (ATA-7 vol. 1, SMART self-test log) */
#define ATA_SELFTEST_ENTRIES    21
/* The volatile write cache a power cut can lose: 32 MiB. */
#define ATA_CACHE_BYTES         (32u << 20)

/* Device register (ATA-7 vol. 1, register descriptions: Device) */
#define ATA_DEV_LBA             0x40
#define ATA_DEV_DEV             0x10

/* Command block register numbers (offset from 0x1F0 / 0x170). */
enum {
    ATA_REG_DATA = 0,
    ATA_REG_FEATURE = 1,        /* write; read: Error */
    ATA_REG_COUNT = 2,
    ATA_REG_LBAL = 3,
    ATA_REG_LBAM = 4,
    ATA_REG_LBAH = 5,
    ATA_REG_DEVICE = 6,
    ATA_REG_COMMAND = 7,        /* write; read: Status */
};

/*
 * Data-port protocol checks: a violation event and record named by the rule
 * when the guest reads or writes the data register without DRQ.
 */
typedef enum AtalabDataPortRule {
    ATALAB_DATA_READ_NO_DRQ,
    ATALAB_DATA_WRITE_NO_DRQ,
    ATALAB_N_DATA_PORT_RULES,
} AtalabDataPortRule;

/* "data-read-no-drq", ...; "?" out of range. */
const char *atalab_data_port_rule_name(AtalabDataPortRule rule);

typedef struct AtalabAtaBus AtalabAtaBus;
typedef struct AtalabDrive AtalabDrive;
typedef struct AtaCmdInfo AtaCmdInfo;

/* Where a drive is in the protocol of its current command. */
typedef enum AtaPhase {
    ATA_PHASE_IDLE,             /* no command in progress */
    ATA_PHASE_PIO_IN,           /* PIO data-in */
    ATA_PHASE_PIO_OUT,          /* PIO data-out */
    ATA_PHASE_DMA,              /* DMA command, data through the DMA port */
    ATA_PHASE_NODATA,           /* non-data command waiting for the backend */
    ATA_PHASE_RESET,            /* SRST asserted */
    ATA_PHASE_PACKET,           /* PACKET: the host writes the command packet */
} AtaPhase;

/* Power management states (ATA-7 vol. 1, Power Management feature set). */
typedef enum AtaPower {
    ATA_POWER_ACTIVE,
    ATA_POWER_IDLE,
    ATA_POWER_STANDBY,
    ATA_POWER_SLEEP,
} AtaPower;

/*
 * A continuation on the drive, which a lower layer runs for the layer that
 * gave it: when a wait is over, when the engine runs for a DMA command,
 * when an abandoned request is done.
 */
typedef void AtaDriveDone(AtalabDrive *d);
/* Continuation of a command once its backend request completed. */
typedef void AtaIoDone(AtalabDrive *d, int ret);
/* Data of a PIO data-in block that is not on the medium (IDENTIFY, logs). */
typedef void AtaPioSource(AtalabDrive *d, uint32_t block, uint8_t *buf);
/* Consumer of a PIO data-out block that does not go to the medium. */
typedef void AtaPioSink(AtalabDrive *d, uint32_t block, const uint8_t *buf);

/* The one backend request a drive may have in flight. */
typedef struct AtaRequest {
    bool inflight;
    bool abandoned;             /* its command is gone: result discarded */
    AtaDriveDone *abandoned_done;       /* told when such a one is done */
    bool direct;                /* data in guest memory through map */
    const char *what;           /* "read", "write", "flush": for traces */
    uint64_t lba;
    unsigned sectors;
    AtaIoDone *then;
    AtalabIoVec iov;            /* buffer of a request that is not direct */
    AtalabDmaMapping map;       /* guest memory of a direct request */
    /* A write whose pre-image is read first (power-cut undo log) */
    bool preimage;              /* the pre-image read is in flight */
    uint8_t *old;               /* where it goes */
    const AtalabIoVec *wiov;    /* then this write */
    unsigned wniov;
    bool wfua;
    AtalabIoVec old_iov;
} AtaRequest;

/* What the fault rules that fired for a command do to it (ata-fault.c). */
typedef struct AtaFaultPlan {
    AtalabFaultRule *stop;      /* error at stop_lba; data before it moves */
    uint64_t stop_lba;
    int end_error;              /* AtalabFaultKind at the end (ICRC), or 0 */
    bool lost_irq;              /* complete without INTRQ */
    bool spurious;              /* INTRQ while the command is busy */
    int64_t latency;            /* completion delayed by this much */
    AtalabFaultRule *corrupt;   /* bit flips in the data */
    AtalabFaultRule *protocol;  /* a protocol violation */
    AtalabFaultRule *identify;  /* IDENTIFY data changed */
    AtalabFaultRule *end_status; /* the end's Status and Error */
} AtaFaultPlan;

/* What the drive's own timer is waiting for (ata-bus.c). */
typedef enum AtaWait {
    ATA_WAIT_NONE,
    ATA_WAIT_COMPLETION,        /* latency: then the command completes */
    ATA_WAIT_LAST_BLOCK,        /* latency, PIO data-in: then its last block */
    ATA_WAIT_RESET,             /* reset-fail: then BSY clears */
    ATA_WAIT_REINSERT,          /* remove: then the drive is back */
} AtaWait;

/* Command packet size: 12 bytes (IDENTIFY PACKET DEVICE word 0 bits 1:0) */
#define ATAPI_CDB_SIZE          12

/* An ATAPI packet device's state (atapi.c, atapi-mmc.c). */
typedef struct AtapiState {
    uint8_t cdb[ATAPI_CDB_SIZE];        /* the command packet */
    uint16_t limit;             /* byte count limit of a PIO transfer */
    bool dma;                   /* PACKET Features bit 0: data by DMA */
    size_t buf_len;             /* reply bytes in the bounce buffer */
    size_t buf_pos;             /* of which the host has taken these */
    /* The drive (atapi-mmc.c) */
    bool medium;                /* a disc is in the tray */
    bool tray_open;
    bool locked;                /* PREVENT ALLOW MEDIUM REMOVAL */
    uint8_t sense_key, asc, ascq;       /* what REQUEST SENSE reports */
    uint8_t ua_asc;             /* pending unit attention's ASC, 0: none */
    uint8_t media_event;        /* pending GESN media event, 0: none */
} AtapiState;

typedef struct AtaSelfTestEntry {
    uint8_t lba_low;            /* test: 1 short, 2 extended (offline) */
    uint8_t status;             /* execution status << 4 | remaining */
    uint16_t hours;             /* power-on hours at the end */
    uint32_t failing_lba;
} AtaSelfTestEntry;

struct AtalabDrive {
    AtalabAtaBus *bus;
    const AtalabHost *host;
    unsigned index;             /* 0..3: the drive position */
    /*
     * The host's drive number of the disk here (its block requests): the
     * position, except where a SATA MAP routes another port's disk to it.
     */
    unsigned disk;
    unsigned unit;              /* 0: device 0 (master), 1: device 1 */
    bool present;               /* answers on the bus */
    bool attached;              /* has a disk (SATA: present once enabled) */
    bool sata;                  /* behind a SATA port */
    bool atapi;                 /* a packet device (CD-ROM), not a disk */
    uint64_t native_sectors;    /* capacity of the medium (512-byte units) */
    char model[41];
    char serial[21];
    char fwrev[9];

    /* Command block registers; hob_*: previous contents (HOB read-back). */
    uint8_t feature, hob_feature;
    uint8_t count, hob_count;
    uint8_t lbal, hob_lbal;
    uint8_t lbam, hob_lbam;
    uint8_t lbah, hob_lbah;
    uint8_t status;
    uint8_t error;
    bool intrq;                 /* interrupt pending (INTRQ if selected) */

    /* Settings: kept across software reset, defaults after power-on */
    uint16_t cyls, heads, spt;                  /* default geometry */
    uint16_t cur_cyls, cur_heads, cur_spt;      /* INITIALIZE DEVICE PARAMS */
    unsigned mult;              /* sectors per DRQ block; 0: disabled */
    bool wcache;
    bool lookahead;
    bool revert_on_reset;       /* SET FEATURES CCh: SRST reverts settings */
    int pio_mode;               /* -1: PIO default mode */
    int mwdma_mode;             /* -1: none selected */
    int udma_mode;              /* -1: none selected */
    bool iordy_disabled;        /* SET FEATURES 03h, mode 01h */

    /* Power management */
    AtaPower power;
    uint8_t standby_timer;      /* Count of the last STANDBY/IDLE */
    AtalabTimer *standby_t;

    /* Host protected area (SET MAX ADDRESS); sectors = max address + 1 */
    uint64_t sectors;           /* accessible capacity */
    uint64_t sectors_nv;        /* what power-on restores */
    bool native_max_read;       /* the previous command read native max */
    bool max_set_nv;            /* a non-volatile SET MAX since power-on */

    /* SMART (ata-smart.c) */
    bool smart_enabled;
    bool smart_autosave;
    bool smart_auto_offline;
    uint8_t log_address;        /* log of the READ LOG (EXT) in progress */
    uint32_t power_cycles;
    uint32_t icrc_errors;       /* interface CRC errors reported */
    uint8_t selftest_status;    /* SMART data byte 363 */
    uint8_t selftest_running;   /* 0, or the LBA low of the running test */
    AtalabTimer *selftest_t;
    AtaSelfTestEntry selftest_log[ATA_SELFTEST_ENTRIES];
    unsigned selftest_next;     /* index of the next log entry */
    uint32_t selftest_count;
    int64_t power_on_base;      /* virtual time of the first power-on */

    /* Command in progress */
    uint8_t cmd;
    uint8_t prev_cmd;           /* the command before it (SET MAX rule) */
    const AtaCmdInfo *info;
    AtaPhase phase;
    uint32_t seq;               /* bumped at every command and abort */
    bool lba48;
    bool writing;               /* data moves host -> device */
    bool fua;
    uint64_t lba;               /* next sector to transfer */
    uint32_t remaining;         /* sectors still to transfer */
    unsigned block;             /* sectors per DRQ block (PIO) */
    unsigned cur_block;         /* sectors in the current DRQ block */
    size_t block_bytes;         /* bytes the host moves for it */
    uint32_t block_index;       /* DRQ blocks done (generated PIO data) */
    AtaPioSource *pio_source;   /* NULL: the medium */
    AtaPioSink *pio_sink;       /* NULL: the medium */
    bool dma_waiting;           /* DMA command waits for the engine */
    bool dma_stuck;             /* its transfer failed; waits for a reset */
    AtaDriveDone *dma_run;      /* moves its data when the engine runs */
    bool icrc;                  /* strict: end this DMA command with ICRC */

    /* PIO data: one DRQ block */
    uint8_t pio_buf[ATA_MAX_MULT * ATA_SECTOR_SIZE];
    size_t data_pos, data_end;
    /* DMA bounce and READ VERIFY buffer (ATA_BOUNCE_SIZE), on first use */
    uint8_t *bounce;
    /* READ BUFFER / WRITE BUFFER */
    uint8_t rw_buffer[ATA_SECTOR_SIZE];

    AtaRequest req;
    AtapiState packet;          /* atapi: the packet device's state */

    /* Fault injection (ata-fault.c) */
    AtaFaultPlan fault;
    bool df_sticky;             /* a device fault until the next reset */
    /* The drive's own timer (ata-bus.c): a delay a fault rule imposes */
    AtaWait wait;
    uint32_t wait_seq;          /* the command it was set for */
    AtaDriveDone *wait_then;
    AtalabTimer *wait_t;
    /* Power cut (ata-powercut.c): unflushed writes and how to undo them */
    GQueue undo;                /* UndoEntry *, oldest first */
    size_t undo_bytes;
    GQueue undo_lost;           /* being written back at a power cut */
    bool power_cut;             /* off; comes back when undone */
};

/* What the controller provides to the ATA side. */
typedef struct AtalabAtaHooks {
    void *opaque;
    /* The channel's interrupt line (INTRQ) changed. */
    void (*irq)(void *opaque, unsigned channel, bool level);
    /*
     * A data transfer of d starts, by the bus master (dma) or through the
     * data port: check the controller's timing for it.  true: strict mode
     * wants this Ultra DMA transfer to fail with ICRC.
     */
    bool (*check_xfer)(void *opaque, const AtalabDrive *d, bool dma);
} AtalabAtaHooks;

struct AtalabAtaBus {
    unsigned index;             /* channel 0 or 1 */
    const AtalabHost *host;
    const AtalabAtaHooks *hooks;
    AtalabDmaPort *port;
    AtalabDrive drive[2];
    uint8_t device;             /* Device register, latched by both units */
    uint8_t devctl;             /* Device Control register */
    bool irq_level;
    bool cable80;
    AtalabDrive *dma_owner;     /* the DMA command the engine serves */
    bool diag_pending;          /* EXECUTE DEVICE DIAGNOSTIC waits */
    AtalabFaults *faults;       /* the controller's fault rules */
    AtalabTimer *timed_t;       /* the next timed fault rule */
};

/*
 * Set up a channel's bus and its drives (cfg[0], cfg[1]); sata: devices
 * behind SATA ports.  The bus starts powered off: call power_on.
 */
void atalab_ata_bus_init(AtalabAtaBus *bus, unsigned index,
                         const AtalabHost *host, const AtalabAtaHooks *hooks,
                         AtalabDmaPort *port, AtalabFaults *faults,
                         const AtalabDriveConfig cfg[2], bool sata);
/* The host has completed every request (atalab_ctrl_free's contract). */
void atalab_ata_bus_fini(AtalabAtaBus *bus);
/*
 * Hardware reset (PCIRST#, power-on, SATA port change) of the channel's
 * devices: commands aborted, power-on settings.
 */
void atalab_ata_bus_power_on(AtalabAtaBus *bus);
/* A SATA port went up or down: the drive answers or floats. */
void atalab_ata_set_present(AtalabDrive *d, bool present);
/*
 * The IDENTIFY strings of a disk: cfg's, or the defaults (the serial
 * number from disk, the host's drive number).
 */
void atalab_ata_disk_strings(const AtalabDriveConfig *cfg, unsigned disk,
                             char model[41], char serial[21], char fwrev[9]);
/*
 * End what the drive is doing, as a power-on does: its command aborted,
 * a request abandoned (drained, where the host can).
 */
void atalab_ata_drive_release(AtalabDrive *d, const char *why);
/*
 * No command under way (no data of its moving) and nothing with the host
 * (a request, an abandoned one, a power-cut write-back): the drive can be
 * re-attached now, even from inside another drive's DMA.
 */
bool atalab_ata_drive_idle(const AtalabDrive *d);
/*
 * Put another disk at position unit of the bus (SATA MAP): the drive there
 * is set up afresh from cfg, with the host's drive number disk, absent
 * until its port is enabled (sata) or, for a PATA position, as cfg says.
 * Everything the drive held (settings, SMART, power state) starts over,
 * as at power-on.  The drive must be idle (atalab_ata_drive_idle).
 */
void atalab_ata_drive_reattach(AtalabAtaBus *bus, unsigned unit,
                               const AtalabDriveConfig *cfg, unsigned disk,
                               bool sata);

uint32_t atalab_ata_reg_read(AtalabAtaBus *bus, unsigned reg, unsigned size);
void atalab_ata_reg_write(AtalabAtaBus *bus, unsigned reg, uint32_t val,
                          unsigned size);
uint8_t atalab_ata_altstatus(AtalabAtaBus *bus);
/*
 * Drive d's Status register as a read would find it, without the read's
 * effects (INTRQ, trace): 0x00 for an absent drive.  For inspection.
 */
uint8_t atalab_ata_peek_status(const AtalabDrive *d);
/*
 * Does a data port read (write: a data port write) now move data of the
 * selected drive's DRQ block?  Then *pos bytes of the block have moved and
 * *end is its length.  (The trace folds such accesses; traces/FORMAT.md.)
 */
bool atalab_ata_data_block(AtalabAtaBus *bus, bool write, size_t *pos,
                           size_t *end);
void atalab_ata_devctl_write(AtalabAtaBus *bus, uint8_t val);

/* The engine's callbacks (AtalabDmaClient) for this bus. */
void atalab_ata_dma_started(void *bus);
void atalab_ata_dma_stopped(void *bus);

/* The fault rules changed: timed rules are due at other times. */
void atalab_ata_faults_changed(AtalabAtaBus *bus);

/* Requests in flight on the bus's drives (0, 1 or 2). */
unsigned atalab_ata_bus_inflight(const AtalabAtaBus *bus);

/*
 * A CD-ROM's tray, moved from outside the guest (the host's media commands,
 * docs/atapi.md): opened, or closed on a disc of sectors 512-byte sectors
 * (0: no disc).  The guest learns of it by media events and, after a
 * close on a disc, a unit attention.
 */
void atalab_ata_cd_tray(AtalabDrive *d, bool open, uint64_t sectors);
/* The host asks for the disc (eject button): a media event; force unlocks. */
void atalab_ata_cd_eject_request(AtalabDrive *d, bool force);
bool atalab_ata_cd_tray_open(const AtalabDrive *d);
/* PREVENT ALLOW MEDIUM REMOVAL holds the disc in. */
bool atalab_ata_cd_locked(const AtalabDrive *d);

/* Name for traces: every standard opcode has one (RESERVED_xx/VENDOR_xx). */
const char *atalab_ata_cmd_name(uint8_t opcode);

/*
 * The protocol the command table gives an opcode, for tools: "non-data",
 * "pio-in", "pio-out", "dma", "diagnostic", "by-feature" (SMART: the
 * Features register chooses), or "aborted" (not implemented).
 */
const char *atalab_ata_cmd_protocol(uint8_t opcode);

#endif
