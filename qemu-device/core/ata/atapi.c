/*
 * atalab emulator core: a packet device -- the PACKET command and its
 * protocol, and the ATA commands peculiar to packet devices.  How a packet
 * command ends (status, interrupt reason, sense) is ata-end.c, what the
 * packets mean atapi-mmc.c, DEVICE RESET ata-reset.c.
 *
 * References: ATA/ATAPI-7 volume 1 (T13 1532D), PACKET, IDENTIFY PACKET
 * DEVICE and DEVICE RESET commands, and the Sector Count register of a
 * packet device (interrupt reason); volume 2, the PACKET PIO data-in,
 * non-data and DMA protocols.
 *
 * A reply (a buffer of the command's data, or blocks read from the disc)
 * is staged in the drive's bounce buffer and moves to the host either in
 * DRQ blocks through the data port, each at most the byte count limit the
 * host gave with PACKET, or by the bus master.  Medium reads are staged a
 * chunk (ATA_CHUNK_SECTORS) at a time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "ata-internal.h"
#include "../trace/trace.h"

/* PACKET Features register */
#define PACKET_FEATURE_DMA      0x01

/* ---- ATA commands of a packet device ----------------------------------- */

void atalab_atapi_cmd_identify_device(AtalabDrive *d)
{
    /*
     * A packet device aborts IDENTIFY DEVICE and shows its signature, so
     * that a host that did not look at the signature after reset learns
     * what it talks to (ATA-7 vol. 1, IDENTIFY DEVICE).
     */
    atalab_ata_set_signature(d);
    atalab_ata_cmd_abort(d);
}

void atalab_atapi_cmd_packet(AtalabDrive *d)
{
    AtapiState *p = &d->packet;

    p->dma = d->feature & PACKET_FEATURE_DMA;
    /*
     * The byte count limit (LBA Mid/High).  The host shall not give 0 or
     * FFFFh (ATA-7 vol. 1, PACKET); a DRQ block is an even number of
     * bytes unless it is the last, so an odd limit is taken one lower (1
     * as 2) and 0 or FFFFh as FFFEh: every block moves at least a word.
     */
    p->limit = d->lbam | (uint16_t)d->lbah << 8;
    if (p->limit == 0 || p->limit == 0xFFFF) {
        p->limit = 0xFFFE;
    }
    p->limit &= ~1u;
    if (!p->limit) {
        p->limit = 2;           /* a limit of 1: one word per block */
    }
    p->buf_len = p->buf_pos = 0;
    /* The packet comes through the data port: DRQ, CoD, no interrupt */
    d->phase = ATA_PHASE_PACKET;
    d->count = ATAPI_IR_COD;
    d->data_pos = 0;
    d->data_end = ATAPI_CDB_SIZE;
    d->status = ATA_STAT_READY | ATA_STAT_DRQ;
}

void atalab_atapi_packet_filled(AtalabDrive *d)
{
    memcpy(d->packet.cdb, d->pio_buf, ATAPI_CDB_SIZE);
    d->data_pos = d->data_end = 0;
    d->phase = ATA_PHASE_NODATA;
    d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
}

/* ---- data-in ------------------------------------------------------------ */

static void stage_next_chunk(AtalabDrive *d);

/* PIO: the next DRQ block of the staged reply, with its interrupt. */
static void present_block(AtalabDrive *d)
{
    AtapiState *p = &d->packet;
    size_t n = MIN(MIN(p->buf_len - p->buf_pos, (size_t)p->limit),
                   sizeof(d->pio_buf));

    memcpy(d->pio_buf, d->bounce + p->buf_pos, n);
    p->buf_pos += n;
    d->phase = ATA_PHASE_PIO_IN;
    d->data_pos = 0;
    d->data_end = n;
    /* The byte count of this block; IO set, CoD clear: data to the host */
    d->lbam = n;
    d->lbah = n >> 8;
    d->count = ATAPI_IR_IO;
    d->status = ATA_STAT_READY | ATA_STAT_DRQ;
    atalab_ata_raise(d);
}

/* DMA: what is staged goes to memory; false when the command is over. */
static bool dma_staged(AtalabDrive *d)
{
    AtalabDmaPort *port = d->bus->port;
    AtapiState *p = &d->packet;
    uint32_t seq = d->seq;
    AtalabDmaResult res;

    res = port->copy(port, d->bounce + p->buf_pos, p->buf_len - p->buf_pos,
                     true);
    if (d->seq != seq) {
        return false;           /* the guest's memory access reset it */
    }
    if (res.status != ATALAB_DMA_OK) {
        atalab_ata_dma_failed(d, res.status);
        return false;
    }
    p->buf_pos = p->buf_len;
    return true;
}

static void dma_finish(AtalabDrive *d)
{
    AtalabDmaPort *port = d->bus->port;

    port->finish(port);
    d->bus->dma_owner = NULL;
    atalab_atapi_good(d);
}

/* Where the transfer is now: more to stage, to send, or its end. */
static void transfer_next(AtalabDrive *d)
{
    AtapiState *p = &d->packet;

    if (d->phase == ATA_PHASE_DMA) {
        if (p->buf_pos < p->buf_len && !dma_staged(d)) {
            return;
        }
        if (d->remaining) {
            stage_next_chunk(d);
        } else {
            dma_finish(d);
        }
        return;
    }
    if (p->buf_pos < p->buf_len) {
        present_block(d);
    } else if (d->remaining) {
        stage_next_chunk(d);
    } else {
        atalab_atapi_good(d);
    }
}

static void chunk_read(AtalabDrive *d, int ret)
{
    AtapiState *p = &d->packet;

    if (ret < 0) {
        /* MEDIUM ERROR, UNRECOVERED READ ERROR (SPC-3 annex, ASC 11h) */
        atalab_atapi_check(d, 0x3, 0x11, 0x00);
        return;
    }
    /* the chunk just read ends where d->lba now is */
    atalab_ata_fault_corrupt(d, d->bounce,
                             d->lba - p->buf_len / ATA_SECTOR_SIZE,
                             p->buf_len / ATA_SECTOR_SIZE, false);
    p->buf_pos = 0;
    transfer_next(d);
}

/* Read the next chunk of the disc into the bounce buffer (BSY). */
static void stage_next_chunk(AtalabDrive *d)
{
    AtapiState *p = &d->packet;
    unsigned sectors = MIN(d->remaining, ATA_CHUNK_SECTORS);
    uint64_t lba = d->lba;

    p->buf_len = (size_t)sectors * ATA_SECTOR_SIZE;
    p->buf_pos = p->buf_len;    /* nothing of it is there yet */
    d->lba += sectors;
    d->remaining -= sectors;
    if (d->phase != ATA_PHASE_DMA) {
        d->phase = ATA_PHASE_NODATA;
        d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
    }
    atalab_ata_io_read(d, lba, sectors, atalab_ata_bounce(d), chunk_read);
    atalab_ata_fault_busy(d);
}

/* The data phase starts: by DMA if PACKET asked for it, else PIO. */
static void transfer_start(AtalabDrive *d)
{
    if (d->packet.dma) {
        /* The bus master then runs transfer_next. */
        atalab_ata_dma_start(d, transfer_next);
        return;
    }
    transfer_next(d);
}

void atalab_atapi_send(AtalabDrive *d, size_t len)
{
    AtapiState *p = &d->packet;

    p->buf_len = MIN(len, (size_t)ATA_BOUNCE_SIZE);
    p->buf_pos = 0;
    d->remaining = 0;
    if (!p->buf_len) {
        atalab_atapi_good(d);
        return;
    }
    transfer_start(d);
}

void atalab_atapi_send_medium(AtalabDrive *d, uint32_t lba, uint32_t blocks)
{
    AtapiState *p = &d->packet;

    p->buf_len = p->buf_pos = 0;
    d->writing = false;
    d->lba = (uint64_t)lba * ATAPI_BLOCK_SECTORS;
    d->remaining = blocks * ATAPI_BLOCK_SECTORS;
    if (!blocks) {
        atalab_atapi_good(d);
        return;
    }
    transfer_start(d);
}

void atalab_atapi_pio_drained(AtalabDrive *d)
{
    d->data_pos = d->data_end = 0;
    transfer_next(d);
}
