/*
 * atalab emulator core: the bus-master IDE engine.
 *
 * PIIX4 datasheet (290562): "Bus Master IDE I/O Registers" (BMICX command,
 * BMISX status, BMIDTPX descriptor table pointer) and the IDE controller
 * functional description, "Bus Master Function" (physical region
 * descriptors, interrupt/activity status combinations).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include <glib.h>

#include "bmdma.h"
#include "../controller/pci-ide-regs.h"
#include "../trace/trace.h"

#define PRD_EOT         0x80000000u
#define PAGE_64K        0x10000u

static AtalabBmdma *port_bm(AtalabDmaPort *port)
{
    return (AtalabBmdma *)port;
}

/*
 * PCI master abort: BMISX.ERR set, ACTIVE cleared; the engine raises no
 * interrupt.
 */
static AtalabDmaStatus master_abort(AtalabBmdma *bm, uint32_t addr,
                                    size_t len)
{
    bm->status = (bm->status | BM_STAT_ERR) & ~BM_STAT_ACTIVE;
    atalab_trace(bm->host, "bm master-abort ch%u addr=0x%08x len=%zu",
                 bm->index, addr, len);
    return ATALAB_DMA_MASTER_ABORT;
}

/*
 * The PRD table ran out before the device's data: ACTIVE cleared, INTR not
 * set (datasheet status combination ACTIVE=0 INTR=0: "PRD smaller than the
 * transfer").
 */
static AtalabDmaStatus prd_short(AtalabBmdma *bm, size_t left)
{
    bm->status &= ~BM_STAT_ACTIVE;
    atalab_trace(bm->host, "bm prd-short ch%u left=%zu", bm->index, left);
    return ATALAB_DMA_SHORT;
}

/*
 * Fetch the next descriptor: dword 0 region base (bit 0 ignored), dword 1
 * bits 15:1 byte count (0: 64 KiB) and bit 31 EOT.  The table may not
 * cross a 64 KiB boundary; fetching stops at the end of its page, so a
 * table without EOT always ends.  report: show a failure in BMISX (copy);
 * otherwise only say it (map, which leaves the failure to copy).
 */
static AtalabDmaStatus load_prd(AtalabBmdma *bm, size_t left, bool report)
{
    const AtalabHost *h = bm->host;
    AtalabPrdCursor *cur = &bm->cur;
    uint32_t addr = cur->next, run = bm->run;
    uint8_t e[8];
    uint32_t flags;
    int rc;

    if ((cur->valid && cur->eot) || cur->table_end) {
        if (!report) {
            return ATALAB_DMA_SHORT;
        }
        if (cur->table_end) {
            atalab_trace(h, "bm prd-no-eot ch%u", bm->index);
        }
        return prd_short(bm, left);
    }
    bm->in_host++;
    rc = h->dma_read(h->opaque, addr, e, sizeof(e));
    bm->in_host--;
    if (rc < 0) {
        if (bm->run != run || !report) {
            return bm->run != run ? ATALAB_DMA_STOPPED :
                   ATALAB_DMA_MASTER_ABORT;
        }
        return master_abort(bm, addr, sizeof(e));
    }
    if (bm->run != run) {
        return ATALAB_DMA_STOPPED;
    }
    flags = (uint32_t)e[4] | (uint32_t)e[5] << 8 | (uint32_t)e[6] << 16 |
            (uint32_t)e[7] << 24;
    cur->addr = ((uint32_t)e[0] | (uint32_t)e[1] << 8 |
                 (uint32_t)e[2] << 16 | (uint32_t)e[3] << 24) & ~1u;
    cur->len = flags & 0xFFFE;
    if (!cur->len) {
        cur->len = PAGE_64K;
    }
    cur->eot = flags & PRD_EOT;
    cur->off = 0;
    cur->valid = true;
    cur->next = addr + 8;
    if ((cur->next & 0xFFFF) == 0) {
        cur->table_end = true;
    }
    if (bm->writer) {
        atalab_trace_writer_prd(bm->writer, bm->index, addr, cur->addr,
                                cur->len, cur->eot);
    } else {
        atalab_trace(h, "bm prd ch%u at=0x%08x addr=0x%08x len=%u eot=%d",
                     bm->index, addr, cur->addr, cur->len, cur->eot);
    }
    return ATALAB_DMA_OK;
}

/*
 * The next piece of the current region, at most want bytes.  The region
 * address counter has 16 bits below a fixed upper part: a region that
 * crosses a 64 KiB boundary wraps to the start of its page, as the
 * hardware does.
 */
static size_t next_piece(AtalabBmdma *bm, size_t want, uint32_t *addr)
{
    AtalabPrdCursor *cur = &bm->cur;
    uint32_t lo = (cur->addr + cur->off) & 0xFFFF;
    size_t n = MIN(want, (size_t)(cur->len - cur->off));

    *addr = (cur->addr & ~0xFFFFu) | lo;
    if (lo + n > PAGE_64K) {
        n = PAGE_64K - lo;
        atalab_trace(bm->host, "bm prd-wrap ch%u addr=0x%08x len=%u",
                     bm->index, cur->addr, cur->len);
    }
    return n;
}

static void note_direction(AtalabBmdma *bm, bool to_memory)
{
    if (to_memory != !!(bm->cmd & BM_CMD_WRITE)) {
        /* The device's command decides what moves; note the mismatch. */
        atalab_trace(bm->host, "bm dir-mismatch ch%u bmicx=0x%02x %s",
                     bm->index, bm->cmd,
                     to_memory ? "to-memory" : "from-memory");
    }
}

static AtalabDmaResult bm_copy(AtalabDmaPort *port, void *buf, size_t len,
                               bool to_memory)
{
    AtalabBmdma *bm = port_bm(port);
    const AtalabHost *h = bm->host;
    uint32_t run = bm->run;
    AtalabDmaResult res = { 0, ATALAB_DMA_OK };

    if (!(bm->status & BM_STAT_ACTIVE)) {
        res.status = ATALAB_DMA_STOPPED;
        return res;
    }
    note_direction(bm, to_memory);
    while (res.moved < len) {
        uint32_t addr;
        size_t n;
        int rc;

        if (!bm->cur.valid || bm->cur.off == bm->cur.len) {
            res.status = load_prd(bm, len - res.moved, true);
            if (res.status != ATALAB_DMA_OK) {
                return res;
            }
        }
        n = next_piece(bm, len - res.moved, &addr);
        bm->in_host++;
        if (to_memory) {
            rc = h->dma_write(h->opaque, addr, (uint8_t *)buf + res.moved, n);
        } else {
            rc = h->dma_read(h->opaque, addr, (uint8_t *)buf + res.moved, n);
        }
        bm->in_host--;
        if (bm->run != run) {
            /* The access reached our registers and stopped the engine. */
            res.status = ATALAB_DMA_STOPPED;
            return res;
        }
        if (rc < 0) {
            res.status = master_abort(bm, addr, n);
            return res;
        }
        res.moved += n;
        bm->cur.off += n;
    }
    return res;
}

static void release_mapping(AtalabBmdma *bm, AtalabDmaMapping *m,
                            size_t done)
{
    const AtalabHost *h = bm->host;
    unsigned i;

    for (i = 0; i < m->niov; i++) {
        size_t used = MIN(done, m->iov[i].len);

        bm->in_host++;
        h->dma_unmap(h->opaque, m->iov[i].base, m->iov[i].len, m->to_memory,
                     used);
        bm->in_host--;
        done -= used;
    }
    m->niov = 0;
    m->len = 0;
}

/*
 * All or nothing: either the whole length maps (and the position moves
 * past it), or nothing does and the position is where it was, so that
 * copy() can move the data and report what happens on the way.
 */
static AtalabDmaResult bm_map(AtalabDmaPort *port, size_t len,
                              bool to_memory, AtalabDmaMapping *m)
{
    AtalabBmdma *bm = port_bm(port);
    const AtalabHost *h = bm->host;
    AtalabPrdCursor saved = bm->cur;
    uint32_t run = bm->run;
    AtalabDmaResult res = { 0, ATALAB_DMA_OK };

    m->niov = 0;
    m->len = 0;
    m->to_memory = to_memory;
    if (!(bm->status & BM_STAT_ACTIVE)) {
        res.status = ATALAB_DMA_STOPPED;
        return res;
    }
    if (!h->dma_map || !h->dma_unmap) {
        return res;
    }
    while (m->len < len) {
        uint32_t addr;
        size_t n, got;
        void *p;

        if (!bm->cur.valid || bm->cur.off == bm->cur.len) {
            AtalabDmaStatus st = load_prd(bm, len - m->len, false);

            if (bm->run != run) {
                release_mapping(bm, m, 0);
                res.status = ATALAB_DMA_STOPPED;
                return res;
            }
            if (st != ATALAB_DMA_OK) {
                goto fall_back;
            }
        }
        n = next_piece(bm, len - m->len, &addr);
        if (m->niov == ATALAB_DMA_MAX_IOV) {
            goto fall_back;
        }
        got = n;
        bm->in_host++;
        p = h->dma_map(h->opaque, addr, &got, to_memory);
        bm->in_host--;
        if (!p || !got) {
            goto fall_back;
        }
        m->iov[m->niov].base = p;
        m->iov[m->niov].len = MIN(got, n);
        m->niov++;
        m->len += MIN(got, n);
        bm->cur.off += MIN(got, n);
    }
    note_direction(bm, to_memory);
    res.moved = m->len;
    return res;

fall_back:
    release_mapping(bm, m, 0);
    bm->cur = saved;
    return res;
}

static void bm_unmap(AtalabDmaPort *port, AtalabDmaMapping *m, size_t done)
{
    release_mapping(port_bm(port), m, done);
}

static void bm_finish(AtalabDmaPort *port)
{
    AtalabBmdma *bm = port_bm(port);
    AtalabPrdCursor *cur = &bm->cur;

    /* PRD table exactly consumed: the engine goes idle with the device. */
    if (cur->valid && cur->eot && cur->off == cur->len) {
        bm->status &= ~BM_STAT_ACTIVE;
    }
    atalab_trace(bm->host, "bm done ch%u status=0x%02x", bm->index,
                 bm->status | BM_STAT_INTR);
}

static bool bm_active(AtalabDmaPort *port)
{
    return port_bm(port)->status & BM_STAT_ACTIVE;
}

static void bm_fail(AtalabDmaPort *port)
{
    AtalabBmdma *bm = port_bm(port);

    master_abort(bm, bm->cur.addr + bm->cur.off, 0);
}

void atalab_bm_init(AtalabBmdma *bm, unsigned index, const AtalabHost *host,
                    const AtalabDmaClient *client)
{
    memset(bm, 0, sizeof(*bm));
    bm->port.copy = bm_copy;
    bm->port.map = bm_map;
    bm->port.unmap = bm_unmap;
    bm->port.finish = bm_finish;
    bm->port.active = bm_active;
    bm->port.fail = bm_fail;
    bm->host = host;
    bm->index = index;
    bm->client = *client;
}

void atalab_bm_reset(AtalabBmdma *bm)
{
    bm->cmd = 0;
    bm->status = 0;
    bm->prdt = 0;
    memset(&bm->cur, 0, sizeof(bm->cur));
    bm->run++;
    bm->irq_level = false;
}

void atalab_bm_irq_line(AtalabBmdma *bm, bool level)
{
    /* BMISX bit 2 is set by an assertion edge of IRQ14/IRQ15. */
    if (level && !bm->irq_level) {
        bm->status |= BM_STAT_INTR;
    }
    bm->irq_level = level;
}

static void start(AtalabBmdma *bm)
{
    bm->status |= BM_STAT_ACTIVE;
    memset(&bm->cur, 0, sizeof(bm->cur));
    bm->cur.next = bm->prdt;
    bm->run++;
    atalab_trace(bm->host, "bm start ch%u prdt=0x%08x %s", bm->index,
                 bm->prdt, (bm->cmd & BM_CMD_WRITE) ? "to-memory" :
                 "from-memory");
    bm->client.started(bm->client.opaque);
}

static void stop(AtalabBmdma *bm)
{
    bm->status &= ~BM_STAT_ACTIVE;
    bm->run++;
    atalab_trace(bm->host, "bm stop ch%u status=0x%02x", bm->index,
                 bm->status);
    bm->client.stopped(bm->client.opaque);
}

/* BMICX: bit 0 start/stop, bit 3 read/write control. */
static void cmd_write(AtalabBmdma *bm, uint8_t val)
{
    uint8_t old = bm->cmd;
    uint8_t dir = val & BM_CMD_WRITE;

    if (bm->status & BM_STAT_ACTIVE) {
        /* "This bit must not be changed when the bus master is active." */
        dir = old & BM_CMD_WRITE;
    }
    bm->cmd = (val & BM_CMD_START) | dir;
    if (!(old & BM_CMD_START) && (val & BM_CMD_START)) {
        start(bm);
    } else if ((old & BM_CMD_START) && !(val & BM_CMD_START)) {
        stop(bm);
    }
}

uint8_t atalab_bm_read(const AtalabBmdma *bm, unsigned reg)
{
    switch (reg) {
    case BM_REG_CMD:
        return bm->cmd;
    case BM_REG_STATUS:
        return bm->status;
    case BM_REG_PRDT ... BM_REG_PRDT + 3:
        return bm->prdt >> (8 * (reg - BM_REG_PRDT));
    }
    return 0;                   /* reserved */
}

void atalab_bm_write(AtalabBmdma *bm, unsigned reg, uint8_t val)
{
    unsigned shift;

    switch (reg) {
    case BM_REG_CMD:
        cmd_write(bm, val);
        break;
    case BM_REG_STATUS:
        /* ERR and INTR are write-one-to-clear; DMA capable bits r/w. */
        bm->status &= ~(val & (BM_STAT_ERR | BM_STAT_INTR));
        bm->status = (bm->status & ~(BM_STAT_DMA0 | BM_STAT_DMA1)) |
                     (val & (BM_STAT_DMA0 | BM_STAT_DMA1));
        break;
    case BM_REG_PRDT ... BM_REG_PRDT + 3:
        /* Descriptor table is dword aligned: bits 1:0 read 0. */
        shift = 8 * (reg - BM_REG_PRDT);
        bm->prdt = (bm->prdt & ~(0xFFu << shift)) | ((uint32_t)val << shift);
        bm->prdt &= ~3u;
        break;
    }
}
