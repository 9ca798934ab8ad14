/*
 * atalab emulator core: how a command ends -- its status, error and
 * interrupt, for an ATA device and for a packet device (CHECK CONDITION
 * and its sense) -- and the errors fault rules make, as the device
 * reports them.
 *
 * A good end asks the fault plan once (atalab_ata_fault_end) and applies
 * what it says: the end error it plans (ICRC), a delay (the drive's timer,
 * then the end again), DRQ left set, a lost interrupt.
 *
 * References: ATA/ATAPI-7 volume 1 (T13 1532D), Status and Error
 * registers; the PACKET command's interrupt reason; SPC-3 sense codes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "ata-internal.h"
#include "../trace/trace.h"

static void cmd_ok_delayed(AtalabDrive *d)
{
    if (d->wait_seq == d->seq) {
        atalab_ata_cmd_ok(d);
    }
}

/* A good end, reporting status @good unless the plan changes it. */
static void cmd_end_ok(AtalabDrive *d, uint8_t good)
{
    AtaEnd end;

    atalab_ata_fault_end(d, ATA_END_COMPLETE, good, &end);
    if (end.error) {
        atalab_ata_fault_error(d, end.error, d->lba);
        return;
    }
    if (end.delay) {
        d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
        atalab_ata_wait(d, ATA_WAIT_COMPLETION, end.delay, cmd_ok_delayed);
        return;
    }
    if (d->phase == ATA_PHASE_DMA && d->icrc) {
        /*
         * strict: the Ultra DMA burst ran with a timing the drive was not
         * set for; the CRC at the end of the burst does not match (ATA-7
         * vol. 2, Ultra DMA CRC; vol. 1 Error register ICRC).
         */
        d->icrc = false;
        d->icrc_errors++;
        atalab_ata_cmd_error(d, ATA_ERR_ICRC | ATA_ERR_ABRT, "ICRC");
        return;
    }
    atalab_ata_release_dma(d);
    d->status = end.status;
    if (end.set_error) {
        d->error = end.error_reg;
    }
    d->phase = ATA_PHASE_IDLE;
    d->remaining = 0;
    atalab_trace(d->host, "ata%u done d%u 0x%02x status=0x%02x",
                 d->bus->index, d->unit, d->cmd, d->status);
    if (end.irq) {
        atalab_ata_raise(d);
    }
    memset(&d->fault, 0, sizeof(d->fault));
}

void atalab_ata_cmd_ok(AtalabDrive *d)
{
    cmd_end_ok(d, ATA_STAT_READY);
}

void atalab_ata_cmd_ok_reset(AtalabDrive *d)
{
    /*
     * A diagnostic meets no fault rule (its plan was cleared), so this end
     * is never delayed to come back through atalab_ata_cmd_ok.
     */
    cmd_end_ok(d, atalab_ata_reset_status(d));
}

void atalab_ata_cmd_error(AtalabDrive *d, uint8_t error, const char *name)
{
    atalab_ata_cmd_error_status(d, ATA_STAT_READY | ATA_STAT_ERR, error,
                                name);
}

void atalab_ata_cmd_error_status(AtalabDrive *d, uint8_t status,
                                 uint8_t error, const char *name)
{
    AtaEnd end;

    atalab_ata_fault_end(d, ATA_END_ERROR, status, &end);
    memset(&d->fault, 0, sizeof(d->fault));
    atalab_ata_release_dma(d);
    d->error = error;
    d->status = status;
    d->phase = ATA_PHASE_IDLE;
    d->remaining = 0;
    d->pio_source = NULL;
    d->pio_sink = NULL;
    d->icrc = false;
    atalab_trace(d->host, "ata%u error d%u %s cmd=0x%02x status=0x%02x "
                 "error=0x%02x", d->bus->index, d->unit, name, d->cmd,
                 d->status, d->error);
    if (end.irq) {
        atalab_ata_raise(d);
    }
}

void atalab_ata_cmd_abort(AtalabDrive *d)
{
    atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT");
}

/* ---- a packet device's ends ---------------------------------------------- */

static void packet_end(AtalabDrive *d)
{
    AtapiState *p = &d->packet;

    p->buf_len = p->buf_pos = 0;
    /* CoD and IO: the status phase (ATA-7 vol. 2, PACKET protocols) */
    d->count = ATAPI_IR_COD | ATAPI_IR_IO;
}

void atalab_atapi_good(AtalabDrive *d)
{
    packet_end(d);
    atalab_ata_cmd_ok(d);
}

void atalab_atapi_check(AtalabDrive *d, uint8_t key, uint8_t asc,
                        uint8_t ascq)
{
    AtapiState *p = &d->packet;

    p->sense_key = key;
    p->asc = asc;
    p->ascq = ascq;
    atalab_trace(d->host, "ata%u check d%u 0x%02x key=0x%x asc=0x%02x "
                 "ascq=0x%02x", d->bus->index, d->unit, p->cdb[0], key,
                 asc, ascq);
    packet_end(d);
    /* CHECK CONDITION: ERR, and the sense key in Error bits 7:4 */
    atalab_ata_cmd_error(d, key << 4, "CHECK");
}

/* ---- errors of fault rules ---------------------------------------------- */

void atalab_ata_fault_error(AtalabDrive *d, AtalabFaultKind kind,
                            uint64_t lba)
{
    switch (kind) {
    case ATALAB_FAULT_UNC:
        atalab_ata_set_error_address(d, lba);
        atalab_ata_cmd_error(d, ATA_ERR_UNC, "UNC");
        break;
    case ATALAB_FAULT_AMNF:
        atalab_ata_set_error_address(d, lba);
        atalab_ata_cmd_error(d, ATA_ERR_AMNF, "AMNF");
        break;
    case ATALAB_FAULT_IDNF:
        atalab_ata_set_error_address(d, lba);
        atalab_ata_cmd_error(d, ATA_ERR_IDNF, "IDNF");
        break;
    case ATALAB_FAULT_WRITE_FAULT:
        atalab_ata_set_error_address(d, lba);
        atalab_ata_cmd_error_status(d, ATA_STAT_READY | ATA_STAT_DF |
                                    ATA_STAT_ERR, ATA_ERR_ABRT,
                                    "write-fault");
        break;
    case ATALAB_FAULT_DF:
        /* A device fault stays until a reset (ATA-7 vol. 1, DF). */
        atalab_ata_cmd_error_status(d, ATA_STAT_READY | ATA_STAT_DF |
                                    ATA_STAT_ERR, ATA_ERR_ABRT, "DF");
        break;
    case ATALAB_FAULT_ICRC:
        d->icrc_errors++;
        atalab_ata_cmd_error(d, ATA_ERR_ICRC | ATA_ERR_ABRT, "ICRC");
        break;
    default:
        atalab_ata_cmd_abort(d);
        break;
    }
}

/*
 * A packet device reports an error as CHECK CONDITION: a sense rule's
 * sense data, or the SPC-3 sense closest to the ATA error kind.
 */
void atalab_atapi_fault_error(AtalabDrive *d, const AtalabFaultRule *r)
{
    switch (r->kind) {
    case ATALAB_FAULT_SENSE:
        atalab_atapi_check(d, r->sense_key, r->asc, r->ascq);
        break;
    case ATALAB_FAULT_UNC:      /* unrecovered read error */
        atalab_atapi_check(d, 0x3, 0x11, 0x00);
        break;
    case ATALAB_FAULT_AMNF:     /* address mark not found for data field */
        atalab_atapi_check(d, 0x3, 0x13, 0x00);
        break;
    case ATALAB_FAULT_IDNF:     /* recorded entity not found */
        atalab_atapi_check(d, 0x3, 0x14, 0x00);
        break;
    case ATALAB_FAULT_WRITE_FAULT:      /* write error */
        atalab_atapi_check(d, 0x3, 0x0C, 0x00);
        break;
    default:                    /* ABORTED COMMAND */
        atalab_atapi_check(d, 0xB, 0x00, 0x00);
        break;
    }
}
