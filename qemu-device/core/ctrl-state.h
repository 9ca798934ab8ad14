/*
 * atalab emulator core: controller, channel and drive state.
 *
 * Private to the core: the host only sees the opaque AtalabCtrl of
 * atalab-ctrl.h.  Register bit names follow ATA/ATAPI-7 volume 1 (T13
 * 1532D), register descriptions, and the PIIX4 datasheet
 * (290562), "Bus Master IDE I/O Registers".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_CTRL_STATE_H
#define ATALAB_CTRL_STATE_H

#include <glib.h>

#include "atalab-ctrl.h"
#include "atalab-timing.h"

#define ATA_SECTOR_SIZE         512
#define ATA_MAX_MULT            16      /* IDENTIFY word 47 */
#define ATA_PIO_MAX             4       /* IDENTIFY word 64: PIO 3 and 4 */
/* Sectors per backend request of a DMA transfer: 1 MiB. */
#define ATA_CHUNK_SECTORS       2048
#define ATA_BUF_SIZE            (ATA_CHUNK_SECTORS * ATA_SECTOR_SIZE)

/* Status register (ATA-7 vol. 1, register descriptions: Status) */
#define ATA_STAT_BSY            0x80
#define ATA_STAT_DRDY           0x40
#define ATA_STAT_DF             0x20
#define ATA_STAT_DRQ            0x08
#define ATA_STAT_ERR            0x01

/* Error register (ATA-7 vol. 1, register descriptions: Error) */
#define ATA_ERR_ICRC            0x80    /* interface CRC (Ultra DMA) */
#define ATA_ERR_UNC             0x40
#define ATA_ERR_IDNF            0x10
#define ATA_ERR_ABRT            0x04

/* Device Control register (ATA-7 vol. 1: Device Control) */
#define ATA_CTL_HOB             0x80
#define ATA_CTL_SRST            0x04
#define ATA_CTL_NIEN            0x02

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

/* Bus Master IDE Command register (BMICX) */
#define BM_CMD_START            0x01
#define BM_CMD_WRITE            0x08    /* bus master writes to memory */
/* Bus Master IDE Status register (BMISX) */
#define BM_STAT_ACTIVE          0x01
#define BM_STAT_ERR             0x02
#define BM_STAT_INTR            0x04
#define BM_STAT_DMA0            0x20
#define BM_STAT_DMA1            0x40

/* Where a drive is in the protocol of its current command. */
typedef enum AtaPhase {
    ATA_PHASE_IDLE,             /* no command in progress */
    ATA_PHASE_PIO_IN,           /* PIO data-in */
    ATA_PHASE_PIO_OUT,          /* PIO data-out */
    ATA_PHASE_DMA,              /* DMA command, served by the bus master */
    ATA_PHASE_NODATA,           /* non-data command waiting for the backend */
    ATA_PHASE_RESET,            /* SRST asserted */
} AtaPhase;

typedef struct AtalabChannel AtalabChannel;

typedef struct AtalabDrive {
    AtalabCtrl *ctrl;
    AtalabChannel *chan;
    unsigned index;             /* 0..3: the host's drive number */
    unsigned unit;              /* 0: device 0 (master), 1: device 1 */
    bool present;               /* answers on the bus */
    bool attached;              /* has a disk (SATA: present once enabled) */
    bool sata;                  /* behind a SATA port */
    uint64_t sectors;
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
    int pio_mode;               /* -1: PIO default mode */
    int mwdma_mode;             /* -1: none selected */
    int udma_mode;              /* -1: none selected */
    bool standby;
    bool sleeping;

    /* Command in progress */
    uint8_t cmd;
    AtaPhase phase;
    bool io_inflight;           /* a current (non-stale) request is out */
    bool lba48;
    bool writing;               /* data moves host -> device */
    uint64_t lba;               /* next sector to transfer */
    uint32_t remaining;         /* sectors still to transfer */
    unsigned block;             /* sectors per DRQ block (PIO) */
    unsigned cur_block;         /* sectors in the current DRQ block */
    uint32_t gen;               /* bumped whenever the command is aborted */

    /* Data buffer: owned by the drive, lent to the request in flight. */
    uint8_t *buf;
    size_t data_pos, data_end;

    /* Timing decode and validation (ctrl.c, timing.c) */
    AtalabDriveTiming timing;   /* the controller's setting for the drive */
    char timing_str[ATALAB_TIMING_STR_LEN];
    unsigned xfer_checks;       /* transfers checked */
    unsigned violations;        /* rules broken, all transfers */
    unsigned rule_count[ATALAB_N_RULES];
    bool icrc;                  /* strict: end this DMA command with ICRC */
} AtalabDrive;

/* Bus-master engine of one channel. */
typedef struct AtalabBmdma {
    uint8_t cmd;
    uint8_t status;
    uint32_t prdt;              /* descriptor table pointer register */

    uint32_t prd_next;          /* address of the next descriptor */
    uint32_t prd_addr;          /* current region base */
    uint32_t prd_len;           /* current region length (bytes) */
    uint32_t prd_off;           /* bytes of the region already used */
    bool prd_valid;             /* a region is loaded */
    bool prd_eot;               /* current region is the last one */
    bool table_end;             /* descriptor fetch ran off the table */
} AtalabBmdma;

struct AtalabChannel {
    unsigned index;
    AtalabDrive *drive[2];
    uint8_t device;             /* Device register, latched by both units */
    uint8_t devctl;             /* Device Control register */
    bool irq_level;
    bool cable80;
    AtalabBmdma bm;
};

struct AtalabCtrl {
    const AtalabPersonality *pers;
    const AtalabHost *host;
    uint8_t cfg[256];
    uint8_t cfg_wmask[256];
    uint8_t cfg_reset[256];
    AtalabChannel chan[ATALAB_CHANNELS];
    AtalabDrive drive[ATALAB_DRIVES];
    bool strict;                /* mis-timed Ultra DMA fails with ICRC */
};

/*
 * ctrl.c: check a data transfer of d against the timing rules (counts,
 * traces); returns how many rules it breaks.
 */
unsigned atalab_ctrl_check_xfer(AtalabDrive *d, AtalabXfer xfer);

#endif
