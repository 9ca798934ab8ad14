/*
 * atalab unit tests: a controller on a fake host, and register-level
 * helpers that do what a driver does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef RIG_H
#define RIG_H

#include "controller/atalab-ctrl.h"
#include "fake-host.h"

#define RIG_SECTORS     8192    /* default capacity: 4 MiB */

/* ATA registers */
enum {
    R_DATA, R_ERROR, R_COUNT, R_LBAL, R_LBAM, R_LBAH, R_DEVICE, R_STATUS,
};
#define R_FEATURE       R_ERROR
#define R_COMMAND       R_STATUS

#define ST_BSY  0x80
#define ST_DRDY 0x40
#define ST_DSC  0x10
/* What an idle drive reports: DRDY and DSC (50h) */
#define ST_READY (ST_DRDY | ST_DSC)
#define ST_DRQ  0x08
#define ST_ERR  0x01

typedef struct Rig {
    FakeHost fh;
    AtalabCtrl *c;
} Rig;

/* drive_mask bit n: drive n present with sectors (0: RIG_SECTORS). */
Rig *rig_new_full(const char *personality, unsigned drive_mask,
                  uint64_t sectors, bool tracing);
Rig *rig_new(unsigned drive_mask);
/*
 * piix4 with disks at disk_mask and CD-ROMs at cd_mask, each CD-ROM's disc
 * cd_sectors long (0: empty tray).
 */
Rig *rig_new_cd(unsigned disk_mask, unsigned cd_mask, uint64_t cd_sectors);
void rig_free(Rig *r);

uint8_t rig_in(Rig *r, unsigned ch, unsigned reg);
void rig_out(Rig *r, unsigned ch, unsigned reg, uint8_t val);
uint8_t rig_status(Rig *r, unsigned ch);
uint8_t rig_altstatus(Rig *r, unsigned ch);
void rig_devctl(Rig *r, unsigned ch, uint8_t val);
/* SRST pulse on the channel. */
void rig_srst(Rig *r, unsigned ch);

/* Taskfile for a 28-bit LBA command on drive (0..3), count 0..255. */
void rig_lba28(Rig *r, unsigned drive, uint32_t lba, unsigned count);
/* Taskfile for a 48-bit command (HOB bytes first), count 0..65535. */
void rig_lba48(Rig *r, unsigned drive, uint64_t lba, unsigned count);
void rig_select(Rig *r, unsigned drive);
void rig_command(Rig *r, unsigned drive, uint8_t cmd);
/* Non-data command with feature/count: issue, complete I/O, status. */
uint8_t rig_nodata(Rig *r, unsigned drive, uint8_t cmd, uint8_t feature,
                   uint8_t count);

/* PIO data port, 16 bits per access (4 bytes with wide32). */
void rig_read_data(Rig *r, unsigned ch, void *buf, size_t len, bool wide32);
void rig_write_data(Rig *r, unsigned ch, const void *buf, size_t len,
                    bool wide32);

void rig_identify(Rig *r, unsigned drive, uint16_t words[256]);

/* Bus master */
void rig_prd(Rig *r, uint32_t table, unsigned idx, uint32_t addr,
             uint32_t len, bool eot);
void rig_bm_setup(Rig *r, unsigned ch, uint32_t prdt, bool to_memory);
void rig_bm_start(Rig *r, unsigned ch, bool to_memory);
void rig_bm_stop(Rig *r, unsigned ch);
uint8_t rig_bm_status(Rig *r, unsigned ch);

/* A configuration register as a test expects it from the datasheet. */
typedef struct ExpectReg {
    uint8_t offset;
    uint8_t size;
    uint32_t reset;
    uint32_t wmask;
} ExpectReg;

/* Does guest RAM at addr hold drive's image at disk byte offset? */
bool rig_ram_matches_disk(Rig *r, uint64_t addr, unsigned drive,
                          uint64_t offset, size_t len);

#endif
