/*
 * atalab emulator core: the ATA command set of the emulated disks.
 *
 * Command descriptions: ATA/ATAPI-7 volume 1 (T13 1532D), clause 6.
 * Protocols (PIO data-in/data-out, DMA, non-data): volume 2, clause on
 * protocols.  Any opcode not handled here is aborted (ABRT).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>

#include "ata-device.h"
#include "bmdma.h"
#include "trace.h"

enum {
    CMD_NOP = 0x00,
    CMD_READ_SECTORS = 0x20,
    CMD_READ_SECTORS_EXT = 0x24,
    CMD_READ_DMA_EXT = 0x25,
    CMD_READ_MULTIPLE_EXT = 0x29,
    CMD_WRITE_SECTORS = 0x30,
    CMD_WRITE_SECTORS_EXT = 0x34,
    CMD_WRITE_DMA_EXT = 0x35,
    CMD_WRITE_MULTIPLE_EXT = 0x39,
    CMD_READ_VERIFY = 0x40,
    CMD_READ_VERIFY_EXT = 0x42,
    CMD_DIAGNOSTIC = 0x90,
    CMD_INIT_DEV_PARAMS = 0x91,
    CMD_READ_MULTIPLE = 0xC4,
    CMD_WRITE_MULTIPLE = 0xC5,
    CMD_SET_MULTIPLE = 0xC6,
    CMD_READ_DMA = 0xC8,
    CMD_WRITE_DMA = 0xCA,
    CMD_STANDBY_IMMEDIATE = 0xE0,
    CMD_IDLE_IMMEDIATE = 0xE1,
    CMD_CHECK_POWER_MODE = 0xE5,
    CMD_SLEEP = 0xE6,
    CMD_FLUSH_CACHE = 0xE7,
    CMD_FLUSH_CACHE_EXT = 0xEA,
    CMD_IDENTIFY = 0xEC,
    CMD_SET_FEATURES = 0xEF,
};

/* SET FEATURES subcommands (Features register) */
enum {
    SF_WCACHE_ON = 0x02,
    SF_XFER_MODE = 0x03,
    SF_WCACHE_OFF = 0x82,
};

const char *atalab_ata_cmd_name(uint8_t cmd)
{
    switch (cmd) {
    case CMD_READ_SECTORS: return "READ_SECTORS";
    case CMD_READ_SECTORS_EXT: return "READ_SECTORS_EXT";
    case CMD_READ_DMA_EXT: return "READ_DMA_EXT";
    case CMD_READ_MULTIPLE_EXT: return "READ_MULTIPLE_EXT";
    case CMD_WRITE_SECTORS: return "WRITE_SECTORS";
    case CMD_WRITE_SECTORS_EXT: return "WRITE_SECTORS_EXT";
    case CMD_WRITE_DMA_EXT: return "WRITE_DMA_EXT";
    case CMD_WRITE_MULTIPLE_EXT: return "WRITE_MULTIPLE_EXT";
    case CMD_READ_VERIFY: return "READ_VERIFY";
    case CMD_READ_VERIFY_EXT: return "READ_VERIFY_EXT";
    case CMD_DIAGNOSTIC: return "EXECUTE_DEVICE_DIAGNOSTIC";
    case CMD_INIT_DEV_PARAMS: return "INITIALIZE_DEVICE_PARAMETERS";
    case CMD_READ_MULTIPLE: return "READ_MULTIPLE";
    case CMD_WRITE_MULTIPLE: return "WRITE_MULTIPLE";
    case CMD_SET_MULTIPLE: return "SET_MULTIPLE_MODE";
    case CMD_READ_DMA: return "READ_DMA";
    case CMD_WRITE_DMA: return "WRITE_DMA";
    case CMD_STANDBY_IMMEDIATE: return "STANDBY_IMMEDIATE";
    case CMD_IDLE_IMMEDIATE: return "IDLE_IMMEDIATE";
    case CMD_CHECK_POWER_MODE: return "CHECK_POWER_MODE";
    case CMD_SLEEP: return "SLEEP";
    case CMD_FLUSH_CACHE: return "FLUSH_CACHE";
    case CMD_FLUSH_CACHE_EXT: return "FLUSH_CACHE_EXT";
    case CMD_IDENTIFY: return "IDENTIFY_DEVICE";
    case CMD_SET_FEATURES: return "SET_FEATURES";
    default: return "UNKNOWN";
    }
}

void atalab_ata_cmd_ok(AtalabDrive *d)
{
    if (d->phase == ATA_PHASE_DMA && d->icrc) {
        /*
         * strict: the Ultra DMA burst ran with a timing the drive was not
         * set for; the CRC at the end of the burst does not match (ATA-7
         * vol. 2, Ultra DMA CRC; vol. 1 Error register ICRC).
         */
        d->icrc = false;
        atalab_ata_cmd_error(d, ATA_ERR_ICRC | ATA_ERR_ABRT, "ICRC");
        return;
    }
    d->status = ATA_STAT_DRDY;
    d->phase = ATA_PHASE_IDLE;
    atalab_trace(d->ctrl, "ata%u done d%u 0x%02x status=0x%02x",
                 d->chan->index, d->unit, d->cmd, d->status);
    atalab_ata_raise(d);
}

void atalab_ata_cmd_error(AtalabDrive *d, uint8_t error, const char *name)
{
    d->error = error;
    d->status = ATA_STAT_DRDY | ATA_STAT_ERR;
    d->phase = ATA_PHASE_IDLE;
    d->remaining = 0;
    atalab_trace(d->ctrl, "ata%u error d%u %s cmd=0x%02x status=0x%02x "
                 "error=0x%02x", d->chan->index, d->unit, name, d->cmd,
                 d->status, d->error);
    atalab_ata_raise(d);
}

static void cmd_abort(AtalabDrive *d)
{
    atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT");
}

/*
 * The address of the first sector: 48-bit LBA, 28-bit LBA, or CHS through
 * the current translation (INITIALIZE DEVICE PARAMETERS).  false: the CHS
 * address does not exist.
 */
static bool decode_address(AtalabDrive *d, bool lba48, uint64_t *lba)
{
    uint8_t dev = d->chan->device;
    unsigned cyl, head, sect;

    if (lba48) {
        *lba = (uint64_t)d->hob_lbah << 40 | (uint64_t)d->hob_lbam << 32 |
               (uint64_t)d->hob_lbal << 24 | (uint64_t)d->lbah << 16 |
               (uint64_t)d->lbam << 8 | d->lbal;
        return true;
    }
    if (dev & ATA_DEV_LBA) {
        *lba = (uint64_t)(dev & 0x0F) << 24 | (uint64_t)d->lbah << 16 |
               (uint64_t)d->lbam << 8 | d->lbal;
        return true;
    }
    cyl = d->lbah << 8 | d->lbam;
    head = dev & 0x0F;
    sect = d->lbal;
    if (sect == 0 || sect > d->cur_spt || head >= d->cur_heads ||
        cyl >= d->cur_cyls) {
        return false;
    }
    *lba = ((uint64_t)cyl * d->cur_heads + head) * d->cur_spt + sect - 1;
    return true;
}

/* Sector count: 0 means 256 (28-bit commands) or 65536 (48-bit). */
static uint32_t decode_count(AtalabDrive *d, bool lba48)
{
    if (lba48) {
        uint32_t n = (uint32_t)d->hob_count << 8 | d->count;

        return n ? n : 65536;
    }
    return d->count ? d->count : 256;
}

/* Validate the range of a media access command; IDNF if outside. */
static bool setup_range(AtalabDrive *d, bool lba48)
{
    uint64_t lba;
    uint32_t n = decode_count(d, lba48);
    bool ok = decode_address(d, lba48, &lba);

    atalab_trace(d->ctrl, "ata%u cmd d%u 0x%02x %s lba=%" PRIu64 " count=%u",
                 d->chan->index, d->unit, d->cmd,
                 atalab_ata_cmd_name(d->cmd), ok ? lba : 0, n);
    if (!ok || lba >= d->sectors || n > d->sectors - lba) {
        atalab_ata_cmd_error(d, ATA_ERR_IDNF, "IDNF");
        return false;
    }
    d->lba48 = lba48;
    d->lba = lba;
    d->remaining = n;
    d->standby = false;
    return true;
}

/* PIO data-in: read the next DRQ block from the backend (BSY meanwhile). */
static void pio_in_next(AtalabDrive *d)
{
    d->cur_block = MIN(d->block, d->remaining);
    d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
    atalab_ata_submit(d, ATA_REQ_PIO_READ, d->lba, d->cur_block);
}

void atalab_ata_pio_read_done(AtalabDrive *d, unsigned sectors, int ret)
{
    if (ret < 0) {
        atalab_ata_set_lba_regs(d, d->lba);
        atalab_ata_cmd_error(d, ATA_ERR_UNC, "UNC");
        return;
    }
    d->lba += sectors;
    d->remaining -= sectors;
    d->data_pos = 0;
    d->data_end = (size_t)sectors * ATA_SECTOR_SIZE;
    d->status = ATA_STAT_DRDY | ATA_STAT_DRQ;
    /* Data-in: an interrupt for every DRQ block. */
    atalab_ata_raise(d);
}

void atalab_ata_pio_in_drained(AtalabDrive *d)
{
    if (d->remaining) {
        pio_in_next(d);
        return;
    }
    /* Last block read: no further interrupt in the data-in protocol. */
    d->status = ATA_STAT_DRDY;
    d->phase = ATA_PHASE_IDLE;
    d->data_pos = d->data_end = 0;
    atalab_trace(d->ctrl, "ata%u done d%u 0x%02x status=0x%02x",
                 d->chan->index, d->unit, d->cmd, d->status);
}

/* PIO data-out: open the next DRQ block for the host to fill. */
static void pio_out_next(AtalabDrive *d)
{
    d->cur_block = MIN(d->block, d->remaining);
    atalab_ata_buf(d);
    d->data_pos = 0;
    d->data_end = (size_t)d->cur_block * ATA_SECTOR_SIZE;
    d->status = ATA_STAT_DRDY | ATA_STAT_DRQ;
}

void atalab_ata_pio_out_filled(AtalabDrive *d)
{
    d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
    atalab_ata_submit(d, ATA_REQ_PIO_WRITE, d->lba, d->cur_block);
}

void atalab_ata_pio_write_done(AtalabDrive *d, unsigned sectors, int ret)
{
    if (ret < 0) {
        atalab_ata_set_lba_regs(d, d->lba);
        atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT-write");
        return;
    }
    d->lba += sectors;
    d->remaining -= sectors;
    if (d->remaining) {
        /* Data-out: interrupt after each block, DRQ for the next. */
        pio_out_next(d);
        atalab_ata_raise(d);
        return;
    }
    atalab_ata_cmd_ok(d);
}

static void start_rw(AtalabDrive *d, bool lba48, bool write, bool dma,
                     unsigned block)
{
    if (!setup_range(d, lba48)) {
        return;
    }
    d->writing = write;
    d->block = block;
    if (dma) {
        /* DMA protocol: DRQ while the bus master moves the data. */
        d->phase = ATA_PHASE_DMA;
        /*
         * Check the controller's setting for this transfer; in strict
         * mode a mis-timed Ultra DMA transfer ends with ICRC.
         */
        d->icrc = atalab_ctrl_check_xfer(d, ATALAB_XFER_DMA) &&
                  d->ctrl->strict && d->udma_mode >= 0;
        d->status = ATA_STAT_DRDY | ATA_STAT_DRQ;
        atalab_bm_kick(d->chan);
    } else if (write) {
        /* Data-out: the first block is requested without an interrupt. */
        d->phase = ATA_PHASE_PIO_OUT;
        pio_out_next(d);
    } else {
        d->phase = ATA_PHASE_PIO_IN;
        pio_in_next(d);
    }
}

static void start_multiple(AtalabDrive *d, bool lba48, bool write)
{
    if (!d->mult) {
        atalab_trace(d->ctrl, "ata%u cmd d%u 0x%02x %s", d->chan->index,
                     d->unit, d->cmd, atalab_ata_cmd_name(d->cmd));
        atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT-no-multiple-mode");
        return;
    }
    start_rw(d, lba48, write, false, d->mult);
}

static void read_verify(AtalabDrive *d, bool lba48)
{
    if (setup_range(d, lba48)) {
        d->remaining = 0;
        atalab_ata_cmd_ok(d);
    }
}

static void identify(AtalabDrive *d)
{
    uint16_t words[256];
    uint8_t *buf = atalab_ata_buf(d);
    unsigned i;

    atalab_ata_identify(d, words);
    for (i = 0; i < 256; i++) {
        buf[2 * i] = words[i];
        buf[2 * i + 1] = words[i] >> 8;
    }
    d->phase = ATA_PHASE_PIO_IN;
    d->remaining = 0;
    d->data_pos = 0;
    d->data_end = ATA_SECTOR_SIZE;
    d->status = ATA_STAT_DRDY | ATA_STAT_DRQ;
    atalab_ata_raise(d);
}

/* SET FEATURES 03h: the Sector Count register holds the mode. */
static bool set_xfer_mode(AtalabDrive *d, uint8_t mode)
{
    unsigned n = mode & 0x07;

    switch (mode & 0xF8) {
    case 0x00:                  /* PIO default mode (IORDY on/off) */
        if (n > 1) {
            return false;
        }
        d->pio_mode = -1;
        return true;
    case 0x08:                  /* PIO flow control mode n */
        if (n > 4) {
            return false;
        }
        d->pio_mode = n;
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

static void set_features(AtalabDrive *d)
{
    switch (d->feature) {
    case SF_WCACHE_ON:
        d->wcache = true;
        break;
    case SF_WCACHE_OFF:
        d->wcache = false;
        break;
    case SF_XFER_MODE:
        if (!set_xfer_mode(d, d->count)) {
            cmd_abort(d);
            return;
        }
        break;
    default:
        cmd_abort(d);
        return;
    }
    atalab_ata_cmd_ok(d);
}

static void set_multiple(AtalabDrive *d)
{
    unsigned n = d->count;

    /* Block sizes: powers of two up to IDENTIFY word 47 (16). */
    if (n == 0 || n > ATA_MAX_MULT || (n & (n - 1))) {
        cmd_abort(d);
        return;
    }
    d->mult = n;
    atalab_ata_cmd_ok(d);
}

static void init_dev_params(AtalabDrive *d)
{
    unsigned heads = (d->chan->device & 0x0F) + 1;
    unsigned spt = d->count;
    uint64_t cyls;

    if (spt == 0) {
        cmd_abort(d);
        return;
    }
    cyls = d->sectors / (heads * spt);
    d->cur_heads = heads;
    d->cur_spt = spt;
    d->cur_cyls = MIN(cyls, 65535);
    atalab_ata_cmd_ok(d);
}

static void flush_cache(AtalabDrive *d)
{
    d->phase = ATA_PHASE_NODATA;
    d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
    atalab_ata_submit(d, ATA_REQ_FLUSH, 0, 0);
}

void atalab_ata_flush_done(AtalabDrive *d, int ret)
{
    if (ret < 0) {
        atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT-flush");
        return;
    }
    atalab_ata_cmd_ok(d);
}

void atalab_ata_exec_diagnostic(AtalabChannel *ch)
{
    AtalabDrive *d0 = ch->drive[0];
    AtalabDrive *d1 = ch->drive[1];
    unsigned i;

    atalab_trace(d0->ctrl, "ata%u cmd d%u 0x90 %s", ch->index,
                 atalab_ata_selected(ch)->unit,
                 atalab_ata_cmd_name(CMD_DIAGNOSTIC));
    for (i = 0; i < 2; i++) {
        AtalabDrive *d = ch->drive[i];

        atalab_ata_abort(d);
        d->cmd = CMD_DIAGNOSTIC;
        d->sleeping = false;
        atalab_ata_set_signature(d);
    }
    ch->device = 0;
    /* Device 0 reports for both and asserts INTRQ. */
    if (d1->present) {
        d1->status = ATA_STAT_DRDY;
    }
    if (d0->present) {
        atalab_ata_cmd_ok(d0);
    } else {
        atalab_ata_cmd_ok(d1);
    }
}

void atalab_ata_exec(AtalabDrive *d, uint8_t cmd)
{
    d->cmd = cmd;
    d->error = 0;

    switch (cmd) {
    case CMD_READ_SECTORS:
        start_rw(d, false, false, false, 1);
        return;
    case CMD_READ_SECTORS_EXT:
        start_rw(d, true, false, false, 1);
        return;
    case CMD_WRITE_SECTORS:
        start_rw(d, false, true, false, 1);
        return;
    case CMD_WRITE_SECTORS_EXT:
        start_rw(d, true, true, false, 1);
        return;
    case CMD_READ_MULTIPLE:
        start_multiple(d, false, false);
        return;
    case CMD_READ_MULTIPLE_EXT:
        start_multiple(d, true, false);
        return;
    case CMD_WRITE_MULTIPLE:
        start_multiple(d, false, true);
        return;
    case CMD_WRITE_MULTIPLE_EXT:
        start_multiple(d, true, true);
        return;
    case CMD_READ_DMA:
        start_rw(d, false, false, true, 0);
        return;
    case CMD_READ_DMA_EXT:
        start_rw(d, true, false, true, 0);
        return;
    case CMD_WRITE_DMA:
        start_rw(d, false, true, true, 0);
        return;
    case CMD_WRITE_DMA_EXT:
        start_rw(d, true, true, true, 0);
        return;
    case CMD_READ_VERIFY:
        read_verify(d, false);
        return;
    case CMD_READ_VERIFY_EXT:
        read_verify(d, true);
        return;
    }

    atalab_trace(d->ctrl, "ata%u cmd d%u 0x%02x %s feature=0x%02x "
                 "count=0x%02x", d->chan->index, d->unit, cmd,
                 atalab_ata_cmd_name(cmd), d->feature, d->count);
    switch (cmd) {
    case CMD_IDENTIFY:
        identify(d);
        break;
    case CMD_SET_FEATURES:
        set_features(d);
        break;
    case CMD_SET_MULTIPLE:
        set_multiple(d);
        break;
    case CMD_FLUSH_CACHE:
    case CMD_FLUSH_CACHE_EXT:
        flush_cache(d);
        break;
    case CMD_INIT_DEV_PARAMS:
        init_dev_params(d);
        break;
    case CMD_CHECK_POWER_MODE:
        /* Count: 00h standby, FFh active or idle. */
        d->count = d->standby ? 0x00 : 0xFF;
        atalab_ata_cmd_ok(d);
        break;
    case CMD_IDLE_IMMEDIATE:
        d->standby = false;
        atalab_ata_cmd_ok(d);
        break;
    case CMD_STANDBY_IMMEDIATE:
        d->standby = true;
        atalab_ata_cmd_ok(d);
        break;
    case CMD_SLEEP:
        d->sleeping = true;
        atalab_ata_cmd_ok(d);
        break;
    default:
        cmd_abort(d);
        break;
    }
}
