/*
 * atalab emulator core: ATA devices -- command block registers, the data
 * port, interrupts, resets and backend requests.
 *
 * References: ATA/ATAPI-7 volume 1 (T13 1532D) clause 7 (register
 * descriptions) and volume 2 (T13 1532D vol. 2) clauses on the PIO and
 * DMA protocols and on resets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ata-device.h"
#include "bmdma.h"
#include "trace.h"

/*
 * A channel without any device: the bus floats, and the host's pull-down
 * on DD7 (ATA-7 vol. 2, host-side signal requirements) makes every byte
 * register read 7Fh.  The data port reads all ones.
 */
#define ATA_FLOAT_BYTE      0x7F

typedef struct AtaReq {
    AtalabDrive *d;
    uint32_t gen;               /* d->gen when submitted */
    AtaReqKind kind;
    uint8_t *buf;               /* owned by the request while in flight */
    uint64_t lba;
    unsigned sectors;
} AtaReq;

static void copy_string(char *dst, size_t size, const char *src,
                        const char *dflt)
{
    g_strlcpy(dst, src ? src : dflt, size);
}

void atalab_ata_init(AtalabCtrl *c, unsigned index,
                     const AtalabDriveConfig *cfg)
{
    AtalabDrive *d = &c->drive[index];
    char serial[21];

    memset(d, 0, sizeof(*d));
    d->ctrl = c;
    d->chan = &c->chan[index / 2];
    d->index = index;
    d->unit = index % 2;
    d->present = cfg->present;
    d->sectors = cfg->present ? cfg->sectors : 0;
    snprintf(serial, sizeof(serial), "ATALAB%04u", index);
    copy_string(d->model, sizeof(d->model), cfg->model, "ATALAB HARDDISK");
    copy_string(d->serial, sizeof(d->serial), cfg->serial, serial);
    copy_string(d->fwrev, sizeof(d->fwrev), cfg->fwrev, "0.1");
    atalab_ata_default_geometry(d->sectors, &d->cyls, &d->heads, &d->spt);
    d->chan->drive[d->unit] = d;
}

void atalab_ata_fini(AtalabDrive *d)
{
    g_free(d->buf);
    d->buf = NULL;
}

uint8_t *atalab_ata_buf(AtalabDrive *d)
{
    if (!d->buf) {
        d->buf = g_malloc(ATA_BUF_SIZE);
    }
    return d->buf;
}

AtalabDrive *atalab_ata_selected(AtalabChannel *ch)
{
    return ch->drive[(ch->device & ATA_DEV_DEV) ? 1 : 0];
}

static bool channel_empty(const AtalabChannel *ch)
{
    return !ch->drive[0]->present && !ch->drive[1]->present;
}

/*
 * The drive whose registers the host reads.  When device 1 is absent,
 * device 0 answers for it (ATA-7 vol. 1, "device 0 only" configurations):
 * Status and Alternate Status read 00h, the other registers show device
 * 0's copies.  The same is done for an absent device 0.
 */
static AtalabDrive *responder(AtalabChannel *ch)
{
    AtalabDrive *sel = atalab_ata_selected(ch);

    return sel->present ? sel : ch->drive[sel->unit ^ 1];
}

void atalab_ata_update_irq(AtalabChannel *ch)
{
    AtalabCtrl *c = ch->drive[0]->ctrl;
    AtalabDrive *sel = atalab_ata_selected(ch);
    bool level = sel->present && sel->intrq &&
                 !(ch->devctl & ATA_CTL_NIEN);

    if (level == ch->irq_level) {
        return;
    }
    ch->irq_level = level;
    atalab_trace(c, "irq%u %d", ch->index, level);
    if (level) {
        atalab_bm_irq_edge(ch);
    }
    if (c->host->set_irq) {
        c->host->set_irq(c->host->opaque, ch->index, level);
    }
}

void atalab_ata_raise(AtalabDrive *d)
{
    d->intrq = true;
    atalab_ata_update_irq(d->chan);
}

void atalab_ata_abort(AtalabDrive *d)
{
    d->gen++;
    d->icrc = false;
    d->io_inflight = false;
    d->phase = ATA_PHASE_IDLE;
    d->remaining = 0;
    d->data_pos = d->data_end = 0;
}

void atalab_ata_set_signature(AtalabDrive *d)
{
    /* ATA device signature: count 01h, LBA 000001h, Device 00h. */
    d->count = 1;
    d->lbal = 1;
    d->lbam = 0;
    d->lbah = 0;
    d->hob_count = d->hob_lbal = d->hob_lbam = d->hob_lbah = 0;
    d->hob_feature = d->feature = 0;
    /* Diagnostic code 01h: device 0 passed, device 1 passed or absent. */
    d->error = 0x01;
}

void atalab_ata_set_lba_regs(AtalabDrive *d, uint64_t lba)
{
    AtalabChannel *ch = d->chan;

    d->lbal = lba;
    d->lbam = lba >> 8;
    d->lbah = lba >> 16;
    if (d->lba48) {
        d->hob_lbal = lba >> 24;
        d->hob_lbam = lba >> 32;
        d->hob_lbah = lba >> 40;
    } else if (ch->device & ATA_DEV_LBA) {
        ch->device = (ch->device & 0xF0) | ((lba >> 24) & 0x0F);
    }
}

/* Power-on defaults of a drive's settings and registers. */
static void drive_power_on(AtalabDrive *d)
{
    atalab_ata_abort(d);
    d->intrq = false;
    d->cur_cyls = d->cyls;
    d->cur_heads = d->heads;
    d->cur_spt = d->spt;
    d->mult = 0;
    d->wcache = true;
    d->pio_mode = -1;
    d->mwdma_mode = -1;
    d->udma_mode = -1;
    d->standby = false;
    d->sleeping = false;
    atalab_ata_set_signature(d);
    d->status = d->present ? ATA_STAT_DRDY : 0;
}

void atalab_ata_channel_power_on(AtalabChannel *ch)
{
    AtalabCtrl *c = ch->drive[0]->ctrl;

    drive_power_on(ch->drive[0]);
    drive_power_on(ch->drive[1]);
    ch->device = 0;
    ch->devctl = 0;
    if (ch->irq_level) {
        ch->irq_level = false;
        atalab_trace(c, "irq%u 0", ch->index);
        if (c->host->set_irq) {
            c->host->set_irq(c->host->opaque, ch->index, false);
        }
    }
}

/*
 * Device Control register (ATA-7 vol. 1, Device Control): SRST starts a
 * software reset of both devices, which ends when SRST is cleared
 * (ATA-7 vol. 2, software reset protocol).  Settings survive it.
 */
void atalab_ata_devctl_write(AtalabChannel *ch, uint8_t val)
{
    AtalabCtrl *c = ch->drive[0]->ctrl;
    uint8_t old = ch->devctl;
    unsigned i;

    ch->devctl = val;
    if (!(old & ATA_CTL_SRST) && (val & ATA_CTL_SRST)) {
        atalab_trace(c, "ata%u reset srst=1", ch->index);
        for (i = 0; i < 2; i++) {
            AtalabDrive *d = ch->drive[i];

            if (d->io_inflight && atalab_tracing(c)) {
                atalab_trace(c, "ata%u abort d%u 0x%02x in-flight",
                             ch->index, i, d->cmd);
            }
            atalab_ata_abort(d);
            d->phase = ATA_PHASE_RESET;
            d->intrq = false;
            if (d->present) {
                d->status = ATA_STAT_BSY;
            }
        }
    } else if ((old & ATA_CTL_SRST) && !(val & ATA_CTL_SRST)) {
        atalab_trace(c, "ata%u reset srst=0", ch->index);
        for (i = 0; i < 2; i++) {
            AtalabDrive *d = ch->drive[i];

            d->phase = ATA_PHASE_IDLE;
            d->sleeping = false;
            atalab_ata_set_signature(d);
            if (d->present) {
                d->status = ATA_STAT_DRDY;
            }
        }
        ch->device = 0;
    }
    atalab_ata_update_irq(ch);
}

uint8_t atalab_ata_altstatus(AtalabChannel *ch)
{
    AtalabDrive *sel = atalab_ata_selected(ch);

    if (channel_empty(ch)) {
        return ATA_FLOAT_BYTE;
    }
    return sel->present ? sel->status : 0x00;
}

static uint32_t all_ones(unsigned size)
{
    return size >= 4 ? 0xFFFFFFFFu : (1u << (size * 8)) - 1;
}

static void protocol_violation(AtalabDrive *d, const char *what)
{
    atalab_trace(d->ctrl, "ata%u violation d%u %s status=0x%02x",
                 d->chan->index, d->unit, what, d->status);
    atalab_event(d->ctrl, &(AtalabEvent) {
        .kind = ATALAB_EVENT_VIOLATION, .channel = d->chan->index,
        .drive = d->index, .name = what });
}

static bool data_port_open(AtalabDrive *d, AtaPhase phase)
{
    return d->present && (d->status & ATA_STAT_DRQ) &&
           !(d->status & ATA_STAT_BSY) && d->phase == phase &&
           !d->io_inflight;
}

static uint32_t data_read(AtalabDrive *d, unsigned size)
{
    uint32_t val = 0;
    unsigned i;

    if (!data_port_open(d, ATA_PHASE_PIO_IN)) {
        protocol_violation(d, "data-read-no-drq");
        return all_ones(size);
    }
    if (d->data_pos == 0) {
        /* First access of a DRQ block: a PIO transfer starts. */
        atalab_ctrl_check_xfer(d, ATALAB_XFER_PIO);
    }
    for (i = 0; i < size; i++) {
        uint8_t b = 0xFF;

        if (d->data_pos < d->data_end) {
            b = d->buf[d->data_pos++];
        }
        val |= (uint32_t)b << (i * 8);
    }
    if (d->data_pos >= d->data_end) {
        atalab_ata_pio_in_drained(d);
    }
    return val;
}

static void data_write(AtalabDrive *d, uint32_t val, unsigned size)
{
    unsigned i;

    if (!data_port_open(d, ATA_PHASE_PIO_OUT)) {
        protocol_violation(d, "data-write-no-drq");
        return;
    }
    if (d->data_pos == 0) {
        atalab_ctrl_check_xfer(d, ATALAB_XFER_PIO);
    }
    for (i = 0; i < size && d->data_pos < d->data_end; i++) {
        d->buf[d->data_pos++] = val >> (i * 8);
    }
    if (d->data_pos >= d->data_end) {
        atalab_ata_pio_out_filled(d);
    }
}

uint32_t atalab_ata_reg_read(AtalabChannel *ch, unsigned reg, unsigned size)
{
    AtalabDrive *sel = atalab_ata_selected(ch);
    AtalabDrive *r;
    bool hob = ch->devctl & ATA_CTL_HOB;

    if (channel_empty(ch)) {
        return reg == ATA_REG_DATA ? all_ones(size) : ATA_FLOAT_BYTE;
    }
    r = responder(ch);
    switch (reg) {
    case ATA_REG_DATA:
        if (!sel->present) {
            return all_ones(size);
        }
        return data_read(sel, size);
    case ATA_REG_FEATURE:
        return r->error;
    case ATA_REG_COUNT:
        return hob ? r->hob_count : r->count;
    case ATA_REG_LBAL:
        return hob ? r->hob_lbal : r->lbal;
    case ATA_REG_LBAM:
        return hob ? r->hob_lbam : r->lbam;
    case ATA_REG_LBAH:
        return hob ? r->hob_lbah : r->lbah;
    case ATA_REG_DEVICE:
        return ch->device;
    case ATA_REG_COMMAND:
        if (!sel->present) {
            return 0x00;
        }
        /* Reading Status acknowledges the interrupt (ATA-7 vol. 1). */
        if (sel->intrq) {
            sel->intrq = false;
            atalab_ata_update_irq(ch);
        }
        return sel->status;
    }
    return 0xFF;
}

static void latch(uint8_t *reg, uint8_t *hob, uint8_t val)
{
    *hob = *reg;
    *reg = val;
}

void atalab_ata_reg_write(AtalabChannel *ch, unsigned reg, uint32_t val,
                          unsigned size)
{
    AtalabCtrl *c = ch->drive[0]->ctrl;
    AtalabDrive *sel = atalab_ata_selected(ch);
    AtalabDrive *r;
    unsigned i;

    if (channel_empty(ch)) {
        return;
    }
    if (reg == ATA_REG_DATA) {
        if (sel->present) {
            data_write(sel, val, size);
        }
        return;
    }
    r = responder(ch);
    if (r->status & ATA_STAT_BSY) {
        /* Command block writes while BSY are ignored (ATA-7 vol. 1). */
        atalab_trace(c, "ata%u ignored d%u busy reg=%u", ch->index,
                     r->unit, reg);
        return;
    }
    /* A write to any command block register clears HOB. */
    ch->devctl &= ~ATA_CTL_HOB;
    for (i = 0; i < 2; i++) {
        AtalabDrive *d = ch->drive[i];

        switch (reg) {
        case ATA_REG_FEATURE:
            latch(&d->feature, &d->hob_feature, val);
            break;
        case ATA_REG_COUNT:
            latch(&d->count, &d->hob_count, val);
            break;
        case ATA_REG_LBAL:
            latch(&d->lbal, &d->hob_lbal, val);
            break;
        case ATA_REG_LBAM:
            latch(&d->lbam, &d->hob_lbam, val);
            break;
        case ATA_REG_LBAH:
            latch(&d->lbah, &d->hob_lbah, val);
            break;
        }
    }
    if (reg == ATA_REG_DEVICE) {
        ch->device = val;
        atalab_ata_update_irq(ch);
        return;
    }
    if (reg != ATA_REG_COMMAND) {
        return;
    }

    /* EXECUTE DEVICE DIAGNOSTIC is executed by both devices. */
    if (val == 0x90) {
        if (r->status & ATA_STAT_DRQ) {
            atalab_trace(c, "ata%u ignored d%u drq cmd=0x90", ch->index,
                         r->unit);
            return;
        }
        atalab_ata_exec_diagnostic(ch);
        return;
    }
    if (!sel->present) {
        atalab_trace(c, "ata%u ignored d%u absent cmd=0x%02x", ch->index,
                     sel->unit, val);
        return;
    }
    if (sel->status & (ATA_STAT_BSY | ATA_STAT_DRQ)) {
        atalab_trace(c, "ata%u ignored d%u %s cmd=0x%02x", ch->index,
                     sel->unit,
                     (sel->status & ATA_STAT_BSY) ? "busy" : "drq", val);
        return;
    }
    if (sel->sleeping) {
        /* Only a reset leaves Sleep mode (ATA-7 vol. 1, SLEEP). */
        atalab_trace(c, "ata%u ignored d%u sleeping cmd=0x%02x", ch->index,
                     sel->unit, val);
        return;
    }
    atalab_ata_exec(sel, val);
}

/* Backend requests */

static const char *const req_names[] = {
    [ATA_REQ_PIO_READ] = "read",
    [ATA_REQ_PIO_WRITE] = "write",
    [ATA_REQ_DMA_READ] = "dma-read",
    [ATA_REQ_DMA_WRITE] = "dma-write",
    [ATA_REQ_FLUSH] = "flush",
};

static void req_done(void *opaque, int ret)
{
    AtaReq *req = opaque;
    AtalabDrive *d = req->d;
    AtalabCtrl *c = d->ctrl;

    if (req->gen != d->gen) {
        atalab_trace(c, "ata%u stale d%u %s lba=%" PRIu64 " count=%u "
                     "ret=%d", d->chan->index, d->unit,
                     req_names[req->kind], req->lba, req->sectors, ret);
        g_free(req->buf);
        g_free(req);
        return;
    }
    d->io_inflight = false;
    if (req->buf) {
        if (d->buf) {
            g_free(req->buf);
        } else {
            d->buf = req->buf;
        }
    }
    if (ret < 0) {
        atalab_trace(c, "ata%u io-error d%u %s lba=%" PRIu64 " count=%u "
                     "ret=%d", d->chan->index, d->unit,
                     req_names[req->kind], req->lba, req->sectors, ret);
    }
    switch (req->kind) {
    case ATA_REQ_PIO_READ:
        atalab_ata_pio_read_done(d, req->sectors, ret);
        break;
    case ATA_REQ_PIO_WRITE:
        atalab_ata_pio_write_done(d, req->sectors, ret);
        break;
    case ATA_REQ_DMA_READ:
    case ATA_REQ_DMA_WRITE:
        atalab_bm_io_done(d, req->sectors, ret);
        break;
    case ATA_REQ_FLUSH:
        atalab_ata_flush_done(d, ret);
        break;
    }
    g_free(req);
}

void atalab_ata_submit(AtalabDrive *d, AtaReqKind kind, uint64_t lba,
                       unsigned sectors)
{
    AtalabCtrl *c = d->ctrl;
    const AtalabHost *h = c->host;
    AtaReq *req = g_new0(AtaReq, 1);
    bool fua = !d->wcache;

    req->d = d;
    req->gen = d->gen;
    req->kind = kind;
    req->lba = lba;
    req->sectors = sectors;
    d->io_inflight = true;

    if (kind == ATA_REQ_FLUSH) {
        atalab_trace(c, "ata%u io d%u flush", d->chan->index, d->unit);
        h->blk_flush(h->opaque, d->index, req_done, req);
        return;
    }
    /* The request owns the buffer until it completes. */
    req->buf = atalab_ata_buf(d);
    d->buf = NULL;
    if (kind == ATA_REQ_PIO_READ || kind == ATA_REQ_DMA_READ) {
        atalab_trace(c, "ata%u io d%u read lba=%" PRIu64 " count=%u",
                     d->chan->index, d->unit, lba, sectors);
        h->blk_read(h->opaque, d->index, lba * ATA_SECTOR_SIZE, req->buf,
                    (size_t)sectors * ATA_SECTOR_SIZE, req_done, req);
    } else {
        atalab_trace(c, "ata%u io d%u write lba=%" PRIu64 " count=%u fua=%d",
                     d->chan->index, d->unit, lba, sectors, fua);
        h->blk_write(h->opaque, d->index, lba * ATA_SECTOR_SIZE, req->buf,
                     (size_t)sectors * ATA_SECTOR_SIZE, fua, req_done, req);
    }
}
