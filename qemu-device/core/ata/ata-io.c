/*
 * atalab emulator core: a drive's backend request and the data phases of
 * its commands (PIO data-in, PIO data-out, DMA).
 *
 * A drive has at most one backend request in flight.  A command that ends
 * without its request (reset, diagnostic, bus master stopped) abandons it:
 * the host drains it at once when it can (blk_drain, as QEMU's
 * ide_cancel_dma_sync), otherwise the drive reads BSY until it completes.
 * Either way no later command of the drive can be issued, written or
 * flushed before the abandoned request is done, so an abandoned write never
 * lands after a later write and never escapes a later FLUSH CACHE.
 *
 * DMA data moves through the DMA port (dma-port.h) in chunks of up to
 * ATA_CHUNK_SECTORS: directly between the backend and guest memory when
 * the whole chunk can be mapped, else through the drive's bounce buffer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "ata-internal.h"
#include "../trace/trace.h"

void atalab_ata_io_init(AtalabDrive *d, AtaDriveDone *abandoned_done)
{
    memset(&d->req, 0, sizeof(d->req));
    d->req.abandoned_done = abandoned_done;
}

void atalab_ata_io_fini(AtalabDrive *d)
{
    g_free(d->bounce);
    d->bounce = NULL;
}

uint8_t *atalab_ata_bounce(AtalabDrive *d)
{
    if (!d->bounce) {
        d->bounce = g_malloc(ATA_BOUNCE_SIZE);
    }
    return d->bounce;
}

static void submit_write_now(AtalabDrive *d, const AtalabIoVec *iov,
                             unsigned niov, bool fua);

/*
 * The pre-image of a logged write arrived: log it and send the write, in
 * the same request slot.
 */
static bool preimage_done(AtalabDrive *d, int ret)
{
    AtaRequest *r = &d->req;

    r->preimage = false;
    if (r->abandoned || ret < 0) {
        g_free(r->old);
        r->old = NULL;
        return false;           /* the write was never sent */
    }
    atalab_ata_undo_log(d, r->lba, r->sectors, r->old);
    r->old = NULL;
    submit_write_now(d, r->wiov, r->wniov, r->wfua);
    return true;
}

static void req_complete(void *opaque, int ret)
{
    AtalabDrive *d = opaque;
    AtaRequest *r = &d->req;
    AtaIoDone *then = r->then;

    if (!r->inflight) {
        atalab_trace(d->host, "ata%u bug d%u completion without a request",
                     d->bus->index, d->unit);
        return;
    }
    /* first, so that replay knows when the backend answered */
    atalab_trace(d->host, "ata%u io-done d%u %s ret=%d", d->bus->index,
                 d->unit, r->preimage ? "read pre-image" : r->what, ret);
    if (r->preimage && preimage_done(d, ret)) {
        return;                 /* the write itself is out now */
    }
    r->inflight = false;
    r->then = NULL;
    if (r->direct) {
        /* Reads may have written any part of it: report it all as used. */
        r->direct = false;
        d->bus->port->unmap(d->bus->port, &r->map, r->map.len);
    }
    if (r->abandoned) {
        r->abandoned = false;
        atalab_trace(d->host, "ata%u stale d%u %s lba=%" PRIu64 " count=%u "
                     "ret=%d", d->bus->index, d->unit, r->what, r->lba,
                     r->sectors, ret);
        r->abandoned_done(d);
        return;
    }
    if (ret < 0) {
        atalab_trace(d->host, "ata%u io-error d%u %s lba=%" PRIu64
                     " count=%u ret=%d", d->bus->index, d->unit, r->what,
                     r->lba, r->sectors, ret);
    }
    then(d, ret);
}

/* Claim the drive's request slot; false (a bug) if it is taken. */
static bool req_begin(AtalabDrive *d, const char *what, uint64_t lba,
                      unsigned sectors, AtaIoDone *then)
{
    AtaRequest *r = &d->req;

    if (r->inflight) {
        atalab_trace(d->host, "ata%u bug d%u request while %s is in flight",
                     d->bus->index, d->unit, r->what);
#ifdef ATALAB_ASSERT_BUGS
        g_error("second request on drive %u", d->index);
#endif
        atalab_ata_cmd_abort(d);
        return false;
    }
    r->inflight = true;
    r->abandoned = false;
    r->direct = false;
    r->preimage = false;
    r->what = what;
    r->lba = lba;
    r->sectors = sectors;
    r->then = then;
    return true;
}

static void submit_read(AtalabDrive *d, const AtalabIoVec *iov,
                        unsigned niov)
{
    const AtalabHost *h = d->host;
    AtaRequest *r = &d->req;

    atalab_trace(h, "ata%u io d%u read lba=%" PRIu64 " count=%u%s",
                 d->bus->index, d->unit, r->lba, r->sectors,
                 r->direct ? " direct=1" : "");
    h->blk_readv(h->opaque, d->disk, r->lba * ATA_SECTOR_SIZE, iov, niov,
                 req_complete, d);
}

static void submit_write_now(AtalabDrive *d, const AtalabIoVec *iov,
                             unsigned niov, bool fua)
{
    const AtalabHost *h = d->host;
    AtaRequest *r = &d->req;

    atalab_trace(h, "ata%u io d%u write lba=%" PRIu64 " count=%u fua=%d%s",
                 d->bus->index, d->unit, r->lba, r->sectors, fua,
                 r->direct ? " direct=1" : "");
    h->blk_writev(h->opaque, d->disk, r->lba * ATA_SECTOR_SIZE, iov, niov,
                  fua, req_complete, d);
}

/*
 * A write; with a power-cut rule and the write cache on, the sectors it
 * replaces are read first so that a power cut can undo it.
 */
static void submit_write(AtalabDrive *d, const AtalabIoVec *iov,
                         unsigned niov, bool fua)
{
    const AtalabHost *h = d->host;
    AtaRequest *r = &d->req;

    if (!atalab_ata_undo_wanted(d, fua)) {
        submit_write_now(d, iov, niov, fua);
        return;
    }
    r->preimage = true;
    r->wiov = iov;
    r->wniov = niov;
    r->wfua = fua;
    r->old = g_malloc((size_t)r->sectors * ATA_SECTOR_SIZE);
    r->old_iov.base = r->old;
    r->old_iov.len = (size_t)r->sectors * ATA_SECTOR_SIZE;
    atalab_trace(h, "ata%u io d%u read lba=%" PRIu64 " count=%u pre-image",
                 d->bus->index, d->unit, r->lba, r->sectors);
    h->blk_readv(h->opaque, d->disk, r->lba * ATA_SECTOR_SIZE, &r->old_iov,
                 1, req_complete, d);
}

void atalab_ata_io_read(AtalabDrive *d, uint64_t lba, unsigned sectors,
                        void *buf, AtaIoDone *then)
{
    AtaRequest *r = &d->req;

    if (!req_begin(d, "read", lba, sectors, then)) {
        return;
    }
    r->iov.base = buf;
    r->iov.len = (size_t)sectors * ATA_SECTOR_SIZE;
    submit_read(d, &r->iov, 1);
}

void atalab_ata_io_write(AtalabDrive *d, uint64_t lba, unsigned sectors,
                         const void *buf, bool fua, AtaIoDone *then)
{
    AtaRequest *r = &d->req;

    if (!req_begin(d, "write", lba, sectors, then)) {
        return;
    }
    r->iov.base = (void *)buf;
    r->iov.len = (size_t)sectors * ATA_SECTOR_SIZE;
    submit_write(d, &r->iov, 1, fua);
}

void atalab_ata_io_flush(AtalabDrive *d, AtaIoDone *then)
{
    const AtalabHost *h = d->host;

    if (!req_begin(d, "flush", 0, 0, then)) {
        return;
    }
    atalab_trace(h, "ata%u io d%u flush", d->bus->index, d->unit);
    h->blk_flush(h->opaque, d->disk, req_complete, d);
}

void atalab_ata_io_abandon(AtalabDrive *d)
{
    const AtalabHost *h = d->host;
    AtaRequest *r = &d->req;

    if (!r->inflight || r->abandoned) {
        return;
    }
    r->abandoned = true;
    atalab_trace(h, "ata%u abandon d%u %s lba=%" PRIu64 " count=%u",
                 d->bus->index, d->unit, r->what, r->lba, r->sectors);
    if (h->blk_drain) {
        /* Its completion (and perhaps others) runs inside. */
        h->blk_drain(h->opaque, d->disk);
    }
}

/* ---- data steps --------------------------------------------------------- */

void atalab_ata_medium_failed(AtalabDrive *d)
{
    atalab_ata_set_error_address(d, d->lba);
    if (d->writing) {
        atalab_ata_cmd_error(d, ATA_ERR_ABRT, "ABRT-write");
    } else {
        atalab_ata_cmd_error(d, ATA_ERR_UNC, "UNC");
    }
}

bool atalab_ata_step(AtalabDrive *d, uint32_t want, bool medium,
                     AtaStep *step)
{
    if (atalab_ata_fault_step(d, want, medium, step)) {
        return true;
    }
    if (step->stop != ATALAB_FAULT_BM_ERROR) {
        atalab_ata_fault_error(d, step->stop, d->lba);
        return false;
    }
    /*
     * PCI master abort: BMISX.ERR set and ACTIVE cleared by the engine;
     * with irq=yes the drive still finishes its part and interrupts, else
     * it waits with DRQ until the guest resets it.
     */
    d->bus->port->fail(d->bus->port);
    if (step->stop_irq) {
        d->remaining = 0;
        d->bus->port->finish(d->bus->port);
        atalab_ata_cmd_ok(d);
    } else {
        d->dma_stuck = true;
        atalab_trace(d->host, "ata%u dma-stuck d%u 0x%02x master-abort "
                     "lba=%" PRIu64, d->bus->index, d->unit, d->cmd, d->lba);
    }
    return false;
}

/* ---- PIO, both directions --------------------------------------------- */

/*
 * Plan the next DRQ block with the fault plan (medium: the data is the
 * disk's, not generated); false when the plan ended the command here.
 */
static bool pio_block_plan(AtalabDrive *d, bool medium)
{
    AtaStep step;

    if (!atalab_ata_step(d, MIN(d->block, d->remaining), medium, &step)) {
        return false;
    }
    d->cur_block = step.sectors;
    d->block_bytes = step.pio_bytes;
    return true;
}

/* The data port's window onto the planned block. */
static void pio_block_open(AtalabDrive *d)
{
    d->data_pos = 0;
    d->data_end = d->block_bytes;
}

/* The current block has moved. */
static void pio_block_done(AtalabDrive *d)
{
    d->lba += d->cur_block;
    d->remaining -= d->cur_block;
    d->block_index++;
}

/* ---- PIO data-in ------------------------------------------------------- */

static void pio_in_present(AtalabDrive *d);

static void pio_in_ready(AtalabDrive *d)
{
    if (!d->pio_source) {
        atalab_ata_fault_corrupt(d, d->pio_buf, d->lba, d->cur_block, false);
    }
    pio_block_done(d);
    pio_block_open(d);
    pio_in_present(d);
}

static void last_block_delayed(AtalabDrive *d)
{
    if (d->wait_seq == d->seq && d->phase == ATA_PHASE_PIO_IN) {
        pio_in_present(d);
    }
}

static void pio_in_present(AtalabDrive *d)
{
    AtaEnd end = { .status = ATA_STAT_READY | ATA_STAT_DRQ, .irq = true };

    /*
     * Data-in: an interrupt for every DRQ block; the last block is the
     * command's end (a latency rule delays it, a lost-irq rule loses its
     * interrupt).
     */
    if (!d->remaining) {
        atalab_ata_fault_end(d, ATA_END_LAST_BLOCK, end.status, &end);
    }
    if (end.delay) {
        d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
        atalab_ata_wait(d, ATA_WAIT_LAST_BLOCK, end.delay,
                        last_block_delayed);
        return;
    }
    d->status = end.status;
    if (end.irq) {
        atalab_ata_raise(d);
    }
}

static void pio_read_done(AtalabDrive *d, int ret)
{
    if (ret < 0) {
        atalab_ata_medium_failed(d);
        return;
    }
    pio_in_ready(d);
}

/* Fetch the next DRQ block (BSY while the backend reads it). */
static void pio_in_next(AtalabDrive *d)
{
    if (!pio_block_plan(d, !d->pio_source)) {
        return;
    }
    if (d->pio_source) {
        d->pio_source(d, d->block_index, d->pio_buf);
        pio_in_ready(d);
        return;
    }
    d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
    atalab_ata_io_read(d, d->lba, d->cur_block, d->pio_buf, pio_read_done);
    atalab_ata_fault_busy(d);
}

void atalab_ata_pio_in_start(AtalabDrive *d)
{
    d->phase = ATA_PHASE_PIO_IN;
    pio_in_next(d);
}

void atalab_ata_pio_in_generated(AtalabDrive *d, uint32_t blocks,
                                 AtaPioSource *source)
{
    d->pio_source = source;
    d->block = 1;
    d->remaining = blocks;
    atalab_ata_pio_in_start(d);
}

void atalab_ata_pio_in_drained(AtalabDrive *d)
{
    AtaEnd end;

    if (d->remaining) {
        pio_in_next(d);
        return;
    }
    /* Last block read: no further interrupt in the data-in protocol. */
    atalab_ata_fault_end(d, ATA_END_DRAINED, ATA_STAT_READY, &end);
    d->status = end.status;
    if (end.set_error) {
        d->error = end.error_reg;
    }
    d->phase = ATA_PHASE_IDLE;
    d->pio_source = NULL;
    d->data_pos = d->data_end = 0;
    atalab_trace(d->host, "ata%u done d%u 0x%02x status=0x%02x",
                 d->bus->index, d->unit, d->cmd, d->status);
}

/* ---- PIO data-out ------------------------------------------------------ */

/* Open the next DRQ block for the host to fill. */
static bool pio_out_next(AtalabDrive *d)
{
    if (!pio_block_plan(d, !d->pio_sink)) {
        return false;
    }
    pio_block_open(d);
    d->status = ATA_STAT_READY | ATA_STAT_DRQ;
    return true;
}

static void pio_out_advance(AtalabDrive *d)
{
    pio_block_done(d);
    if (d->remaining) {
        /* Data-out: an interrupt after each block, DRQ for the next. */
        if (pio_out_next(d)) {
            atalab_ata_raise(d);
        }
        return;
    }
    d->pio_sink = NULL;
    atalab_ata_cmd_ok(d);
}

static void pio_write_done(AtalabDrive *d, int ret)
{
    if (ret < 0) {
        atalab_ata_medium_failed(d);
        return;
    }
    pio_out_advance(d);
}

void atalab_ata_pio_out_start(AtalabDrive *d)
{
    /* Data-out: the first block is requested without an interrupt. */
    d->phase = ATA_PHASE_PIO_OUT;
    pio_out_next(d);
}

void atalab_ata_pio_out_consumed(AtalabDrive *d, uint32_t blocks,
                                 AtaPioSink *sink)
{
    d->pio_sink = sink;
    d->block = 1;
    d->remaining = blocks;
    atalab_ata_pio_out_start(d);
}

void atalab_ata_pio_out_filled(AtalabDrive *d)
{
    if (d->pio_sink) {
        d->pio_sink(d, d->block_index, d->pio_buf);
        pio_out_advance(d);
        return;
    }
    d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
    atalab_ata_fault_corrupt(d, d->pio_buf, d->lba, d->cur_block, true);
    atalab_ata_io_write(d, d->lba, d->cur_block, d->pio_buf,
                        d->fua || !d->wcache, pio_write_done);
    atalab_ata_fault_busy(d);
}

/* ---- DMA --------------------------------------------------------------- */

/*
 * The transfer cannot go on (PRD table too short, PCI master abort, bus
 * master stopped): the drive keeps its DMA command and waits, as a real
 * drive with DMARQ asserted does, until the host resets it.
 */
static void dma_stuck(AtalabDrive *d, const char *why)
{
    d->dma_stuck = true;
    d->dma_waiting = false;
    atalab_trace(d->host, "ata%u dma-stuck d%u 0x%02x %s lba=%" PRIu64,
                 d->bus->index, d->unit, d->cmd, why, d->lba);
}

static const char *dma_status_name(AtalabDmaStatus st)
{
    switch (st) {
    case ATALAB_DMA_OK:
        return "ok";
    case ATALAB_DMA_SHORT:
        return "prd-short";
    case ATALAB_DMA_MASTER_ABORT:
        return "master-abort";
    case ATALAB_DMA_STOPPED:
        break;
    }
    return "stopped";
}

void atalab_ata_dma_failed(AtalabDrive *d, AtalabDmaStatus status)
{
    dma_stuck(d, dma_status_name(status));
}

static void dma_advance(AtalabDrive *d, unsigned sectors)
{
    d->lba += sectors;
    d->remaining -= sectors;
    atalab_ata_dma_sectors(d);
}

/* A direct request, or the backend write of a bounced chunk, is done. */
static void dma_chunk_done(AtalabDrive *d, int ret)
{
    if (ret < 0) {
        atalab_ata_medium_failed(d);
        return;
    }
    dma_advance(d, d->req.sectors);
}

/* The backend read of a bounced chunk is done: copy it to memory. */
static void dma_read_bounced(AtalabDrive *d, int ret)
{
    AtalabDmaPort *port = d->bus->port;
    unsigned sectors = d->req.sectors;
    uint32_t seq = d->seq;
    AtalabDmaResult res;

    if (ret < 0) {
        atalab_ata_medium_failed(d);
        return;
    }
    atalab_ata_fault_corrupt(d, d->bounce, d->lba, sectors, false);
    res = port->copy(port, d->bounce, (size_t)sectors * ATA_SECTOR_SIZE,
                     true);
    if (d->seq != seq) {
        return;             /* the guest's memory access reset the drive */
    }
    if (res.status != ATALAB_DMA_OK) {
        dma_stuck(d, dma_status_name(res.status));
        return;
    }
    dma_advance(d, sectors);
}

static void dma_finish(AtalabDrive *d)
{
    AtalabDmaPort *port = d->bus->port;

    port->finish(port);
    d->bus->dma_owner = NULL;
    atalab_ata_cmd_ok(d);
}

/* Try to move the next chunk directly; false: bounce it instead. */
static bool dma_step_direct(AtalabDrive *d, unsigned sectors)
{
    AtalabDmaPort *port = d->bus->port;
    AtaRequest *r = &d->req;
    size_t len = (size_t)sectors * ATA_SECTOR_SIZE;
    uint32_t seq = d->seq;
    AtalabDmaResult res;

    res = port->map(port, len, !d->writing, &r->map);
    if (d->seq != seq) {
        /* Fetching descriptors re-entered the device and reset it. */
        if (res.status == ATALAB_DMA_OK && res.moved) {
            port->unmap(port, &r->map, 0);
        }
        return true;
    }
    if (res.status != ATALAB_DMA_OK || res.moved != len) {
        return false;
    }
    if (!req_begin(d, d->writing ? "write" : "read", d->lba, sectors,
                   dma_chunk_done)) {
        port->unmap(port, &r->map, 0);
        return true;
    }
    r->direct = true;
    if (d->writing) {
        submit_write(d, r->map.iov, r->map.niov, d->fua || !d->wcache);
    } else {
        submit_read(d, r->map.iov, r->map.niov);
    }
    return true;
}

void atalab_ata_dma_sectors(AtalabDrive *d)
{
    AtalabDmaPort *port = d->bus->port;
    unsigned sectors;
    uint8_t *buf;
    uint32_t seq = d->seq;
    AtalabDmaResult res;
    AtaStep step;

    if (!d->remaining) {
        dma_finish(d);
        return;
    }
    if (!atalab_ata_step(d, MIN(d->remaining, ATA_CHUNK_SECTORS), true,
                         &step)) {
        return;
    }
    sectors = step.sectors;
    if (!step.bounce && dma_step_direct(d, sectors)) {
        return;
    }
    buf = atalab_ata_bounce(d);
    if (!d->writing) {
        atalab_ata_io_read(d, d->lba, sectors, buf, dma_read_bounced);
        return;
    }
    res = port->copy(port, buf, (size_t)sectors * ATA_SECTOR_SIZE, false);
    if (d->seq != seq) {
        return;
    }
    if (res.status != ATALAB_DMA_OK) {
        /* Nothing of an incomplete chunk is written. */
        dma_stuck(d, dma_status_name(res.status));
        return;
    }
    atalab_ata_fault_corrupt(d, buf, d->lba, sectors, true);
    atalab_ata_io_write(d, d->lba, sectors, buf, d->fua || !d->wcache,
                        dma_chunk_done);
}

void atalab_ata_dma_start(AtalabDrive *d, AtaDriveDone *run)
{
    AtalabAtaBus *bus = d->bus;
    const AtalabAtaHooks *hk = bus->hooks;

    /* DMA protocol: DRQ while the bus master moves the data. */
    d->phase = ATA_PHASE_DMA;
    d->status = ATA_STAT_READY | ATA_STAT_DRQ;
    d->dma_stuck = false;
    d->dma_run = run;
    /* In strict mode a mis-timed Ultra DMA transfer ends with ICRC. */
    d->icrc = hk->check_xfer(hk->opaque, d, true);
    if (bus->dma_owner && bus->dma_owner != d) {
        /*
         * Both devices in DMA phase: a guest bug.  The engine serves one
         * command at a time; this one waits for a bus master start after
         * the other's command has ended.
         */
        d->dma_waiting = true;
        atalab_trace(d->host, "ata%u dma-wait d%u other=d%u", bus->index,
                     d->unit, bus->dma_owner->unit);
        return;
    }
    bus->dma_owner = d;
    atalab_ata_fault_busy(d);
    if (!bus->port->active(bus->port)) {
        d->dma_waiting = true;
        return;
    }
    d->dma_waiting = false;
    d->dma_run(d);
}

void atalab_ata_dma_started(void *opaque)
{
    AtalabAtaBus *bus = opaque;
    AtalabDrive *d = bus->dma_owner;
    unsigned u;

    if (!d) {
        /* The selected device first, as a host would expect. */
        for (u = 0; u < 2 && !d; u++) {
            AtalabDrive *c = &bus->drive[(bus->device & ATA_DEV_DEV ? 1 : 0)
                                         ^ u];

            if (c->phase == ATA_PHASE_DMA && c->dma_waiting) {
                d = c;
            }
        }
        if (!d) {
            return;
        }
        bus->dma_owner = d;
    }
    if (d->phase != ATA_PHASE_DMA || !d->dma_waiting || d->dma_stuck) {
        return;
    }
    d->dma_waiting = false;
    d->dma_run(d);
}

void atalab_ata_dma_stopped(void *opaque)
{
    AtalabAtaBus *bus = opaque;
    AtalabDrive *d = bus->dma_owner;

    if (!d || d->phase != ATA_PHASE_DMA || d->dma_stuck || d->dma_waiting) {
        return;             /* the engine was not serving a command */
    }
    /*
     * PIIX4 datasheet, bus master function: bus master operation cannot
     * be stopped and then resumed; the data may be discarded.  The chunk
     * in flight is abandoned and the command moves no more data.
     */
    d->seq++;
    dma_stuck(d, "stopped");
    atalab_ata_io_abandon(d);
}
