/*
 * atalab emulator core: the bus-master IDE engine.
 *
 * PIIX4 datasheet (290562): "Bus Master IDE I/O Registers" (BMICX command,
 * BMISX status, BMIDTPX descriptor table pointer) and the IDE controller
 * functional description, "Bus Master Function" (physical region
 * descriptors, interrupt/activity status combinations).
 *
 * Data moves in chunks of up to ATA_CHUNK_SECTORS through the drive's
 * buffer: one backend request per chunk, then scatter (device to memory)
 * or after a gather (memory to device) across the PRD regions.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "ata-device.h"
#include "bmdma.h"
#include "trace.h"

#define PRD_EOT         0x80000000u
#define PAGE_64K        0x10000u

typedef enum BmResult {
    BM_OK,
    BM_SHORT,                   /* PRD table exhausted before the data */
    BM_ABORT,                   /* PCI master abort */
} BmResult;

static AtalabCtrl *chan_ctrl(AtalabChannel *ch)
{
    return ch->drive[0]->ctrl;
}

void atalab_bm_reset(AtalabChannel *ch)
{
    memset(&ch->bm, 0, sizeof(ch->bm));
}

void atalab_bm_irq_edge(AtalabChannel *ch)
{
    /* BMISX bit 2 is set by an assertion edge of IRQ14/IRQ15. */
    ch->bm.status |= BM_STAT_INTR;
}

/* The drive with a DMA command on the channel, selected device first. */
static AtalabDrive *dma_drive(AtalabChannel *ch)
{
    AtalabDrive *sel = atalab_ata_selected(ch);
    AtalabDrive *other = ch->drive[sel->unit ^ 1];

    if (sel->present && sel->phase == ATA_PHASE_DMA) {
        return sel;
    }
    if (other->present && other->phase == ATA_PHASE_DMA) {
        return other;
    }
    return NULL;
}

/*
 * PCI master abort: BMISX.ERR set, ACTIVE cleared, the transfer stops and
 * the engine raises no interrupt.  The device keeps waiting for data; the
 * guest's timeout handling resets it.
 */
static BmResult master_abort(AtalabChannel *ch, uint32_t addr, size_t len)
{
    AtalabBmdma *bm = &ch->bm;

    bm->status = (bm->status | BM_STAT_ERR) & ~BM_STAT_ACTIVE;
    atalab_trace(chan_ctrl(ch), "bm master-abort ch%u addr=0x%08x len=%zu",
                 ch->index, addr, len);
    return BM_ABORT;
}

/*
 * The PRD table ran out before the device's data: ACTIVE cleared, INTR
 * not set; the device still waits (datasheet status combination
 * ACTIVE=0 INTR=0: "PRD smaller than the transfer").
 */
static BmResult prd_short(AtalabChannel *ch, size_t left)
{
    ch->bm.status &= ~BM_STAT_ACTIVE;
    atalab_trace(chan_ctrl(ch), "bm prd-short ch%u left=%zu", ch->index,
                 left);
    return BM_SHORT;
}

/*
 * Fetch the next descriptor: dword 0 region base (bit 0 ignored), dword 1
 * bits 15:1 byte count (0: 64 KiB) and bit 31 EOT.  The table may not
 * cross a 64 KiB boundary; fetching stops at the end of its page, so a
 * table without EOT always ends.
 */
static BmResult load_prd(AtalabChannel *ch, size_t left)
{
    AtalabCtrl *c = chan_ctrl(ch);
    const AtalabHost *h = c->host;
    AtalabBmdma *bm = &ch->bm;
    uint8_t e[8];
    uint32_t addr = bm->prd_next;
    uint32_t flags;

    if (bm->prd_valid && bm->prd_eot) {
        return prd_short(ch, left);
    }
    if (bm->table_end) {
        atalab_trace(c, "bm prd-no-eot ch%u", ch->index);
        return prd_short(ch, left);
    }
    if (h->dma_read(h->opaque, addr, e, sizeof(e)) < 0) {
        return master_abort(ch, addr, sizeof(e));
    }
    flags = (uint32_t)e[4] | (uint32_t)e[5] << 8 | (uint32_t)e[6] << 16 |
            (uint32_t)e[7] << 24;
    bm->prd_addr = ((uint32_t)e[0] | (uint32_t)e[1] << 8 |
                    (uint32_t)e[2] << 16 | (uint32_t)e[3] << 24) & ~1u;
    bm->prd_len = flags & 0xFFFE;
    if (!bm->prd_len) {
        bm->prd_len = PAGE_64K;
    }
    bm->prd_eot = flags & PRD_EOT;
    bm->prd_off = 0;
    bm->prd_valid = true;
    bm->prd_next = addr + 8;
    if ((bm->prd_next & 0xFFFF) == 0) {
        bm->table_end = true;
    }
    atalab_trace(c, "bm prd ch%u at=0x%08x addr=0x%08x len=%u eot=%d",
                 ch->index, addr, bm->prd_addr, bm->prd_len, bm->prd_eot);
    return BM_OK;
}

/*
 * Move len bytes between buf and the PRD regions.  The region address
 * counter has 16 bits below a fixed upper part: a region that crosses a
 * 64 KiB boundary wraps to the start of its page, as the hardware does.
 */
static BmResult transfer(AtalabChannel *ch, uint8_t *buf, size_t len,
                         bool to_memory)
{
    AtalabCtrl *c = chan_ctrl(ch);
    const AtalabHost *h = c->host;
    AtalabBmdma *bm = &ch->bm;
    size_t done = 0;

    while (done < len) {
        uint32_t lo, addr;
        size_t n;
        int rc;

        if (!bm->prd_valid || bm->prd_off == bm->prd_len) {
            BmResult r = load_prd(ch, len - done);

            if (r != BM_OK) {
                return r;
            }
        }
        lo = (bm->prd_addr + bm->prd_off) & 0xFFFF;
        addr = (bm->prd_addr & ~0xFFFFu) | lo;
        n = MIN(len - done, bm->prd_len - bm->prd_off);
        if (lo + n > PAGE_64K) {
            n = PAGE_64K - lo;
            atalab_trace(c, "bm prd-wrap ch%u addr=0x%08x len=%u", ch->index,
                         bm->prd_addr, bm->prd_len);
        }
        if (to_memory) {
            rc = h->dma_write(h->opaque, addr, buf + done, n);
        } else {
            rc = h->dma_read(h->opaque, addr, buf + done, n);
        }
        if (rc < 0) {
            return master_abort(ch, addr, n);
        }
        done += n;
        bm->prd_off += n;
    }
    return BM_OK;
}

void atalab_bm_kick(AtalabChannel *ch)
{
    AtalabBmdma *bm = &ch->bm;
    AtalabDrive *d = dma_drive(ch);
    bool mem_write;
    unsigned n;

    if (!d || !(bm->status & BM_STAT_ACTIVE) || d->io_inflight ||
        !d->remaining) {
        return;
    }
    mem_write = bm->cmd & BM_CMD_WRITE;
    if (mem_write == d->writing) {
        /* The device's command decides what moves; note the mismatch. */
        atalab_trace(d->ctrl, "bm dir-mismatch ch%u bmicx=0x%02x cmd=0x%02x",
                     ch->index, bm->cmd, d->cmd);
    }
    n = MIN(d->remaining, ATA_CHUNK_SECTORS);
    if (d->writing) {
        uint8_t *buf = atalab_ata_buf(d);

        if (transfer(ch, buf, (size_t)n * ATA_SECTOR_SIZE, false) != BM_OK) {
            return;
        }
        atalab_ata_submit(d, ATA_REQ_DMA_WRITE, d->lba, n);
    } else {
        atalab_ata_submit(d, ATA_REQ_DMA_READ, d->lba, n);
    }
}

void atalab_bm_io_done(AtalabDrive *d, unsigned sectors, int ret)
{
    AtalabChannel *ch = d->chan;
    AtalabBmdma *bm = &ch->bm;

    if (ret < 0) {
        atalab_ata_set_lba_regs(d, d->lba);
        atalab_ata_cmd_error(d, d->writing ? ATA_ERR_ABRT : ATA_ERR_UNC,
                             d->writing ? "ABRT-write" : "UNC");
        return;
    }
    if (!d->writing &&
        transfer(ch, d->buf, (size_t)sectors * ATA_SECTOR_SIZE, true) !=
        BM_OK) {
        return;
    }
    d->lba += sectors;
    d->remaining -= sectors;
    if (d->remaining) {
        atalab_bm_kick(ch);
        return;
    }
    /* PRD table exactly consumed: the engine goes idle with the device. */
    if (bm->prd_valid && bm->prd_eot && bm->prd_off == bm->prd_len) {
        bm->status &= ~BM_STAT_ACTIVE;
    }
    atalab_trace(d->ctrl, "bm done ch%u status=0x%02x", ch->index,
                 bm->status | BM_STAT_INTR);
    atalab_ata_cmd_ok(d);
}

static void start(AtalabChannel *ch)
{
    AtalabBmdma *bm = &ch->bm;

    bm->status |= BM_STAT_ACTIVE;
    bm->prd_next = bm->prdt;
    bm->prd_valid = false;
    bm->prd_eot = false;
    bm->table_end = false;
    atalab_trace(chan_ctrl(ch), "bm start ch%u prdt=0x%08x %s", ch->index,
                 bm->prdt, (bm->cmd & BM_CMD_WRITE) ? "to-memory" :
                 "from-memory");
    atalab_bm_kick(ch);
}

static void stop(AtalabChannel *ch)
{
    AtalabBmdma *bm = &ch->bm;
    AtalabDrive *d = dma_drive(ch);

    if (d && d->io_inflight) {
        /* The chunk in flight is dropped: its completion is stale. */
        d->gen++;
        d->io_inflight = false;
        atalab_trace(d->ctrl, "bm abort ch%u d%u lba=%" PRIu64, ch->index,
                     d->unit, d->lba);
    }
    bm->status &= ~BM_STAT_ACTIVE;
    atalab_trace(chan_ctrl(ch), "bm stop ch%u status=0x%02x", ch->index,
                 bm->status);
}

/* BMICX: bit 0 start/stop, bit 3 read/write control. */
static void cmd_write(AtalabChannel *ch, uint8_t val)
{
    AtalabBmdma *bm = &ch->bm;
    uint8_t old = bm->cmd;
    uint8_t dir = val & BM_CMD_WRITE;

    if (bm->status & BM_STAT_ACTIVE) {
        /* "This bit must not be changed when the bus master is active." */
        dir = old & BM_CMD_WRITE;
    }
    bm->cmd = (val & BM_CMD_START) | dir;
    if (!(old & BM_CMD_START) && (val & BM_CMD_START)) {
        start(ch);
    } else if ((old & BM_CMD_START) && !(val & BM_CMD_START)) {
        stop(ch);
    }
}

uint8_t atalab_bm_read_byte(AtalabCtrl *c, uint32_t offset)
{
    AtalabBmdma *bm;

    if (offset >= 8 * ATALAB_CHANNELS) {
        return 0;
    }
    bm = &c->chan[offset / 8].bm;
    switch (offset % 8) {
    case 0:
        return bm->cmd;
    case 2:
        return bm->status;
    case 4:
    case 5:
    case 6:
    case 7:
        return bm->prdt >> (8 * (offset % 4));
    }
    return 0;                   /* reserved */
}

void atalab_bm_write_byte(AtalabCtrl *c, uint32_t offset, uint8_t val)
{
    AtalabChannel *ch;
    AtalabBmdma *bm;
    unsigned shift;

    if (offset >= 8 * ATALAB_CHANNELS) {
        return;
    }
    ch = &c->chan[offset / 8];
    bm = &ch->bm;
    switch (offset % 8) {
    case 0:
        cmd_write(ch, val);
        break;
    case 2:
        /* ERR and INTR are write-one-to-clear; DMA capable bits r/w. */
        bm->status &= ~(val & (BM_STAT_ERR | BM_STAT_INTR));
        bm->status = (bm->status & ~(BM_STAT_DMA0 | BM_STAT_DMA1)) |
                     (val & (BM_STAT_DMA0 | BM_STAT_DMA1));
        break;
    case 4:
    case 5:
    case 6:
    case 7:
        /* Descriptor table is dword aligned: bits 1:0 read 0. */
        shift = 8 * (offset % 4);
        bm->prdt = (bm->prdt & ~(0xFFu << shift)) | ((uint32_t)val << shift);
        bm->prdt &= ~3u;
        break;
    }
}
