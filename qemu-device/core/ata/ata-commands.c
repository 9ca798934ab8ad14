/*
 * atalab emulator core: media access commands, device settings, IDENTIFY,
 * the data buffer and FLUSH CACHE.  Which opcode runs which handler is
 * ata-cmd-table.c.
 *
 * Command descriptions: ATA/ATAPI-7 volume 1 (T13 1532D), clause 6.
 * Protocols (PIO data-in/data-out, DMA, non-data): volume 2.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "ata-internal.h"
#include "../trace/trace.h"

/* SET FEATURES subcommands (Features register) */
enum {
    SF_WCACHE_ON = 0x02,
    SF_XFER_MODE = 0x03,
    SF_REVERT_OFF = 0x66,
    SF_LOOKAHEAD_OFF = 0x55,
    SF_WCACHE_OFF = 0x82,
    SF_LOOKAHEAD_ON = 0xAA,
    SF_REVERT_ON = 0xCC,
};

/* Sector count: 0 means 256 (28-bit commands) or 65536 (48-bit). */
static uint32_t decode_count(const AtalabDrive *d)
{
    if (d->lba48) {
        uint32_t n = (uint32_t)d->hob_count << 8 | d->count;

        return n ? n : 65536;
    }
    return d->count ? d->count : 256;
}

static bool multiple_ok(AtalabDrive *d)
{
    if ((d->info->flags & ATA_CF_MULTIPLE) && !d->mult) {
        atalab_trace(d->host, "ata%u cmd d%u 0x%02x %s", d->bus->index,
                     d->unit, d->cmd, d->info->name);
        atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT-no-multiple-mode");
        return false;
    }
    d->block = (d->info->flags & ATA_CF_MULTIPLE) ? d->mult : 1;
    return true;
}

/*
 * Validate the range of a media access command against what the command
 * can address (28-bit commands: the first 2^28 - 1 sectors) and the
 * current maximum address; IDNF if outside.
 */
bool atalab_ata_cmd_range(AtalabDrive *d)
{
    uint64_t lba, limit = atalab_ata_addressable(d, d->lba48);
    uint32_t n = decode_count(d);
    bool ok;

    if (!multiple_ok(d)) {
        return false;
    }
    ok = atalab_ata_decode_address(d, false, &lba);
    atalab_trace(d->host, "ata%u cmd d%u 0x%02x %s lba=%" PRIu64 " count=%u",
                 d->bus->index, d->unit, d->cmd, d->info->name,
                 ok ? lba : 0, n);
    if (!ok || lba >= limit || n > limit - lba) {
        atalab_ata_cmd_error(d, ATA_ERR_IDNF, "IDNF");
        return false;
    }
    d->lba = lba;
    d->remaining = n;
    return true;
}

void atalab_ata_cmd_read(AtalabDrive *d)
{
    if (d->info->proto == ATA_PROTO_DMA) {
        atalab_ata_dma_start(d, atalab_ata_dma_sectors);
    } else {
        atalab_ata_pio_in_start(d);
    }
}

void atalab_ata_cmd_write(AtalabDrive *d)
{
    if (d->info->proto == ATA_PROTO_DMA) {
        atalab_ata_dma_start(d, atalab_ata_dma_sectors);
    } else {
        atalab_ata_pio_out_start(d);
    }
}

/* READ VERIFY SECTORS reads the medium without transferring the data. */
static void verify_next(AtalabDrive *d);

static void verify_done(AtalabDrive *d, int ret)
{
    if (ret < 0) {
        atalab_ata_medium_failed(d);
        return;
    }
    d->lba += d->req.sectors;
    d->remaining -= d->req.sectors;
    verify_next(d);
}

static void verify_next(AtalabDrive *d)
{
    AtaStep step;

    if (!d->remaining) {
        atalab_ata_cmd_ok(d);
        return;
    }
    if (!atalab_ata_step(d, MIN(d->remaining, ATA_CHUNK_SECTORS), true,
                         &step)) {
        return;
    }
    atalab_ata_io_read(d, d->lba, step.sectors, atalab_ata_bounce(d),
                       verify_done);
}

void atalab_ata_cmd_read_verify(AtalabDrive *d)
{
    d->phase = ATA_PHASE_NODATA;
    d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
    verify_next(d);
}

/* SEEK: the address must exist; the heads move (instantly here). */
void atalab_ata_cmd_seek(AtalabDrive *d)
{
    uint64_t lba;

    d->lba48 = false;
    if (!atalab_ata_decode_address(d, false, &lba) ||
        lba >= atalab_ata_addressable(d, false)) {
        atalab_ata_cmd_error(d, ATA_ERR_IDNF, "IDNF");
        return;
    }
    atalab_ata_cmd_ok(d);
}

/* RECALIBRATE (ATA-1..ATA-3): the heads go to cylinder 0. */
void atalab_ata_cmd_recalibrate(AtalabDrive *d)
{
    atalab_ata_cmd_ok(d);
}

static void identify_source(AtalabDrive *d, uint32_t block, uint8_t *buf)
{
    uint16_t words[256];
    unsigned i;

    /* IDENTIFY PACKET DEVICE on a packet device (the table's row) */
    if (d->atapi) {
        atalab_ata_identify_packet(d, words);
    } else {
        atalab_ata_identify(d, words);
    }
    atalab_ata_fault_identify(d, words);
    for (i = 0; i < 256; i++) {
        buf[2 * i] = words[i];
        buf[2 * i + 1] = words[i] >> 8;
    }
}

void atalab_ata_cmd_identify(AtalabDrive *d)
{
    atalab_ata_pio_in_generated(d, 1, identify_source);
}

static void buffer_source(AtalabDrive *d, uint32_t block, uint8_t *buf)
{
    memcpy(buf, d->rw_buffer, ATA_SECTOR_SIZE);
}

static void buffer_sink(AtalabDrive *d, uint32_t block, const uint8_t *buf)
{
    memcpy(d->rw_buffer, buf, ATA_SECTOR_SIZE);
}

void atalab_ata_cmd_read_buffer(AtalabDrive *d)
{
    atalab_ata_pio_in_generated(d, 1, buffer_source);
}

void atalab_ata_cmd_write_buffer(AtalabDrive *d)
{
    atalab_ata_pio_out_consumed(d, 1, buffer_sink);
}

/* SET FEATURES 03h: the Count register holds the mode. */
static bool set_xfer_mode(AtalabDrive *d, uint8_t mode)
{
    unsigned n = mode & 0x07;

    switch (mode & 0xF8) {
    case 0x00:                  /* PIO default mode, IORDY on/off */
        if (n > 1 || (n == 1 && !(atalab_ata_identify_word(d, 49) &
                                  ATA_ID49_IORDY_DISABLE))) {
            return false;
        }
        d->pio_mode = -1;
        d->iordy_disabled = n == 1;
        return true;
    case 0x08:                  /* PIO flow control mode n */
        if (n > ATA_PIO_MAX) {
            return false;
        }
        d->pio_mode = n;
        d->iordy_disabled = false;
        return true;
    case 0x20:                  /* Multiword DMA mode n */
        if (n > 2) {
            return false;
        }
        d->mwdma_mode = n;
        d->udma_mode = -1;
        return true;
    case 0x40:                  /* Ultra DMA mode n (SATA: up to 6) */
        if (n > (d->sata ? 6u : 5u)) {
            return false;
        }
        d->udma_mode = n;
        d->mwdma_mode = -1;
        return true;
    }
    return false;
}

/* SET FEATURES 82h: the cache is written back first. */
static void wcache_off_flushed(AtalabDrive *d, int ret)
{
    if (ret < 0) {
        atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT-flush");
        return;
    }
    d->wcache = false;
    atalab_ata_undo_flushed(d);
    atalab_ata_cmd_ok(d);
}

void atalab_ata_cmd_set_features(AtalabDrive *d)
{
    switch (d->feature) {
    case SF_WCACHE_ON:
        d->wcache = true;
        break;
    case SF_WCACHE_OFF:
        d->phase = ATA_PHASE_NODATA;
        d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
        atalab_ata_io_flush(d, wcache_off_flushed);
        return;
    case SF_XFER_MODE:
        if (!set_xfer_mode(d, d->count)) {
            atalab_ata_cmd_abort(d);
            return;
        }
        break;
    case SF_LOOKAHEAD_ON:
    case SF_LOOKAHEAD_OFF:
        d->lookahead = d->feature == SF_LOOKAHEAD_ON;
        break;
    case SF_REVERT_ON:
    case SF_REVERT_OFF:
        d->revert_on_reset = d->feature == SF_REVERT_ON;
        break;
    default:
        atalab_ata_cmd_abort(d);
        return;
    }
    atalab_ata_cmd_ok(d);
}

/*
 * SET MULTIPLE MODE: block sizes are powers of two up to IDENTIFY word 47
 * (16); count 0 disables multiple mode, an unsupported count is aborted
 * and also leaves multiple mode disabled.
 */
void atalab_ata_cmd_set_multiple(AtalabDrive *d)
{
    unsigned n = d->count;

    if (n > ATA_MAX_MULT || (n & (n - 1))) {
        d->mult = 0;
        atalab_ata_cmd_abort(d);
        return;
    }
    d->mult = n;
    atalab_ata_cmd_ok(d);
}

void atalab_ata_cmd_init_dev_params(AtalabDrive *d)
{
    unsigned heads = (d->bus->device & 0x0F) + 1;
    unsigned spt = d->count;
    uint64_t cyls;

    if (spt == 0) {
        atalab_ata_cmd_abort(d);
        return;
    }
    cyls = d->sectors / (heads * spt);
    d->cur_heads = heads;
    d->cur_spt = spt;
    d->cur_cyls = MIN(cyls, 65535);
    atalab_ata_cmd_ok(d);
}

static void flush_done(AtalabDrive *d, int ret)
{
    if (ret < 0) {
        atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT-flush");
        return;
    }
    atalab_ata_undo_flushed(d);
    atalab_ata_cmd_ok(d);
}

void atalab_ata_cmd_flush(AtalabDrive *d)
{
    d->phase = ATA_PHASE_NODATA;
    d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
    atalab_ata_io_flush(d, flush_done);
}
