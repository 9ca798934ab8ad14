/*
 * atalab emulator core: what the timing registers mean, and whether they
 * fit the drive.
 *
 * Decode: from the raw configuration bytes of a personality, the setting
 * the controller applies to one drive (PIO command cycle, IORDY sampling,
 * prefetch/posting, DMA-timing-only, multiword DMA cycle, Ultra DMA mode).
 * Check: the named timing rules (docs/timing.md) for one data transfer,
 * given the drive's transfer mode (SET FEATURES) and the cable.
 *
 * Both are pure functions of their arguments: unit tests call them
 * directly, the controller calls them after every timing register write
 * and at every data transfer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TIMING_H
#define ATALAB_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atalab-personality.h"

/* PCI clock period of the PIIX/ICH timing counters (33 MHz). */
#define ATALAB_PCI_CLOCK_NS     30
/* Cycle of "compatible" timing (TIME clear): PIO mode 0 timing. */
#define ATALAB_COMPAT_CYCLE_NS  600

/* How the data port of a drive is timed (IDETIM TIMEx / DTEx). */
typedef enum AtalabTimingBank {
    ATALAB_BANK_COMPAT,         /* TIME=0: compatible timing for all */
    ATALAB_BANK_FAST,           /* TIME=1, DTE=0: fast timing, PIO and DMA */
    ATALAB_BANK_DMA_ONLY,       /* TIME=1, DTE=1: fast for DMA, PIO compat */
} AtalabTimingBank;

typedef struct AtalabDriveTiming {
    /* From IDETIM (and SIDETIM for a slave with SITRE set). */
    AtalabTimingBank bank;
    bool slave_timing;          /* ISP/RTC come from SIDETIM */
    unsigned isp_field, rtc_field;      /* raw 2-bit fields */
    unsigned isp_clocks, rtc_clocks;    /* their meaning in PCI clocks */
    bool iordy;                 /* IEx: IORDY sampled */
    bool prefetch;              /* PPEx: prefetch and posting */
    bool dte;                   /* DTEx as written */
    unsigned pio_cycle_ns;      /* data-port PIO cycle */
    int pio_mode;               /* fastest PIO mode it satisfies; -1: none */
    unsigned dma_cycle_ns;      /* multiword DMA cycle */
    int mwdma_mode;             /* fastest MWDMA mode it satisfies; -1 */
    /* From UDMACTL, UDMATIM and (ICH) IDE_CONFIG. */
    bool has_udma;              /* the personality has Ultra DMA registers */
    bool udma_enabled;          /* UDMACTL PSDEx/SSDEx */
    unsigned udma_ct_field;     /* UDMATIM PCTx/SCTx */
    unsigned udma_clock_mhz;    /* 33, 66 (PCBx/SCBx) or 100 (FAST_*) */
    unsigned udma_ct_clocks, udma_rp_clocks;    /* 0 when reserved */
    int udma_mode;              /* mode of CT + clock; -1: reserved */
} AtalabDriveTiming;

/*
 * Decode the setting for drive (0 primary master, 1 primary slave, 2
 * secondary master, 3 secondary slave) from the 256 configuration bytes.
 */
void atalab_timing_decode(const AtalabPersonality *p, const uint8_t cfg[256],
                          unsigned drive, AtalabDriveTiming *t);
/*
 * One line of "key=value" fields (docs/timing.md, "Decoded form"); returns
 * buf.  ATALAB_TIMING_STR_LEN bytes hold any line.
 */
#define ATALAB_TIMING_STR_LEN   192
char *atalab_timing_format(const AtalabDriveTiming *t, char *buf,
                           size_t len);

/* ATA/ATAPI-7 vol. 2 minimum cycle times (t0), ns; -1 mode: 0. */
unsigned atalab_pio_min_cycle(int mode);
unsigned atalab_mwdma_min_cycle(int mode);

/* The timing rules (docs/timing.md has the sources). */
typedef enum AtalabRule {
    ATALAB_RULE_PIO_OVERCLOCK,          /* "pio-overclock" */
    ATALAB_RULE_MWDMA_OVERCLOCK,        /* "mwdma-overclock" */
    ATALAB_RULE_UDMA_NOT_SELECTED,      /* "udma-on-not-udma" */
    ATALAB_RULE_UDMA_OFF,               /* "udma-off-in-udma" */
    ATALAB_RULE_UDMA_TIMING,            /* "udma-timing" */
    ATALAB_RULE_UDMA_CABLE,             /* "udma-40-wire" */
    ATALAB_RULE_IORDY_OFF,              /* "iordy-off" */
    ATALAB_RULE_PREFETCH_NON_ATA,       /* "prefetch-non-ata" */
    ATALAB_RULE_MODE_UNSUPPORTED,       /* "mode-unsupported" */
    ATALAB_N_RULES,
} AtalabRule;

const char *atalab_rule_name(AtalabRule rule);

/* The drive side of a transfer. */
typedef struct AtalabDriveMode {
    int pio_mode;               /* SET FEATURES PIO flow control mode; -1 */
    int mwdma_mode;             /* -1: none selected */
    int udma_mode;              /* -1: none selected */
    int pio_max;                /* fastest PIO mode IDENTIFY reports */
    bool ata;                   /* an ATA (not ATAPI) device */
    bool sata;                  /* behind a SATA port: no PATA timing */
} AtalabDriveMode;

typedef enum AtalabXfer {
    ATALAB_XFER_PIO,            /* data port */
    ATALAB_XFER_DMA,            /* bus master */
} AtalabXfer;

typedef struct AtalabViolation {
    AtalabRule rule;
    const char *reg;            /* register (or "cable"/"drive") at fault */
    char expected[32];
    char actual[32];
} AtalabViolation;

/*
 * The rules broken by one transfer of kind xfer with the controller set as
 * t (drive drive of personality p), the drive in mode m, the channel's
 * cable cable80.  Fills up to max entries of out; returns how many rules
 * fired (may exceed max).
 */
unsigned atalab_timing_check(const AtalabPersonality *p, unsigned drive,
                             const AtalabDriveTiming *t,
                             const AtalabDriveMode *m, bool cable80,
                             AtalabXfer xfer, AtalabViolation *out,
                             unsigned max);

#endif
