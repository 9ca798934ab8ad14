/*
 * atalab emulator core: ATA devices -- registers, protocol, interrupts,
 * resets and backend requests (ata-device.c), the command set
 * (ata-commands.c) and IDENTIFY DEVICE data (ata-identify.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_ATA_DEVICE_H
#define ATALAB_ATA_DEVICE_H

#include "ctrl-state.h"

/* ata-device.c */
void atalab_ata_init(AtalabCtrl *c, unsigned index,
                     const AtalabDriveConfig *cfg);
void atalab_ata_fini(AtalabDrive *d);
/* Hardware reset of one channel and its drives (PCIRST#, power-on). */
void atalab_ata_channel_power_on(AtalabChannel *ch);

uint32_t atalab_ata_reg_read(AtalabChannel *ch, unsigned reg, unsigned size);
void atalab_ata_reg_write(AtalabChannel *ch, unsigned reg, uint32_t val,
                          unsigned size);
uint8_t atalab_ata_altstatus(AtalabChannel *ch);
void atalab_ata_devctl_write(AtalabChannel *ch, uint8_t val);

AtalabDrive *atalab_ata_selected(AtalabChannel *ch);
/* Drive the channel's INTRQ from the selected device and nIEN. */
void atalab_ata_update_irq(AtalabChannel *ch);
/* The drive has an interrupt pending. */
void atalab_ata_raise(AtalabDrive *d);
/* The drive's data buffer (ATA_BUF_SIZE bytes), allocated on first use. */
uint8_t *atalab_ata_buf(AtalabDrive *d);
/* Forget the command in progress; a request in flight becomes stale. */
void atalab_ata_abort(AtalabDrive *d);
/* Reset signature and diagnostic code (ATA-7 vol. 1, signatures). */
void atalab_ata_set_signature(AtalabDrive *d);
/* Put the LBA of a failed sector into the command block registers. */
void atalab_ata_set_lba_regs(AtalabDrive *d, uint64_t lba);

/* Backend requests; the completion handlers below run when current. */
typedef enum AtaReqKind {
    ATA_REQ_PIO_READ,
    ATA_REQ_PIO_WRITE,
    ATA_REQ_DMA_READ,
    ATA_REQ_DMA_WRITE,
    ATA_REQ_FLUSH,
} AtaReqKind;

void atalab_ata_submit(AtalabDrive *d, AtaReqKind kind, uint64_t lba,
                       unsigned sectors);

/* ata-commands.c */
void atalab_ata_exec(AtalabDrive *d, uint8_t cmd);
void atalab_ata_exec_diagnostic(AtalabChannel *ch);
void atalab_ata_cmd_ok(AtalabDrive *d);
void atalab_ata_cmd_error(AtalabDrive *d, uint8_t error, const char *name);
/* The host has read the whole DRQ block / filled the whole DRQ block. */
void atalab_ata_pio_in_drained(AtalabDrive *d);
void atalab_ata_pio_out_filled(AtalabDrive *d);
void atalab_ata_pio_read_done(AtalabDrive *d, unsigned sectors, int ret);
void atalab_ata_pio_write_done(AtalabDrive *d, unsigned sectors, int ret);
void atalab_ata_flush_done(AtalabDrive *d, int ret);
const char *atalab_ata_cmd_name(uint8_t cmd);

/* ata-identify.c */
void atalab_ata_identify(AtalabDrive *d, uint16_t words[256]);
/* Default CHS geometry for a capacity (IDENTIFY words 1, 3, 6). */
void atalab_ata_default_geometry(uint64_t sectors, uint16_t *cyls,
                                 uint16_t *heads, uint16_t *spt);

#endif
