/*
 * atalab-ide: the emulator core's host (core/atalab-host.h) on QEMU:
 * interrupt lines, guest memory through pci_dma_*, the drives through
 * BlockBackend with their rerror/werror policy and deterministic
 * completions, virtual-clock timers and the trace sink.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "hw/irq.h"
#include "sysemu/dma.h"

#include "atalab-ide.h"

/* The core has the new level (atalab_ctrl_irq_level); its mode routes it. */
static void atalab_host_set_irq(void *opaque, unsigned channel, bool level)
{
    atalab_ide_route_irqs(opaque);
}

static int atalab_host_dma_read(void *opaque, uint64_t addr, void *buf,
                                size_t len)
{
    AtalabIdeState *s = opaque;

    return pci_dma_read(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK ? 0 : -1;
}

static int atalab_host_dma_write(void *opaque, uint64_t addr, const void *buf,
                                 size_t len)
{
    AtalabIdeState *s = opaque;

    return pci_dma_write(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK ? 0 : -1;
}

/*
 * Zero-copy DMA: map guest RAM for a block request.  Only plain RAM is
 * mapped; anything else (MMIO, or QEMU's single bounce buffer) is handed
 * back at once and the core copies through pci_dma_read/write instead.
 */
static void *atalab_host_dma_map(void *opaque, uint64_t addr, size_t *len,
                                 bool to_memory)
{
    AtalabIdeState *s = opaque;
    DMADirection dir = to_memory ? DMA_DIRECTION_FROM_DEVICE :
                       DMA_DIRECTION_TO_DEVICE;
    dma_addr_t plen = *len;
    ram_addr_t offset;
    void *p;

    p = pci_dma_map(PCI_DEVICE(s), addr, &plen, dir);
    if (p && !memory_region_from_host(p, &offset)) {
        pci_dma_unmap(PCI_DEVICE(s), p, plen, dir, 0);
        p = NULL;
    }
    *len = p ? plen : 0;
    return p;
}

static void atalab_host_dma_unmap(void *opaque, void *ptr, size_t len,
                                  bool to_memory, size_t done)
{
    AtalabIdeState *s = opaque;

    pci_dma_unmap(PCI_DEVICE(s), ptr, len,
                  to_memory ? DMA_DIRECTION_FROM_DEVICE :
                  DMA_DIRECTION_TO_DEVICE, done);
}

typedef enum AtalabIdeBlkOp {
    ATALAB_BLK_READ,
    ATALAB_BLK_WRITE,
    ATALAB_BLK_FLUSH,
} AtalabIdeBlkOp;

/*
 * One block request: owns the I/O vector until it completes, and is kept
 * (and later submitted again) when the drive's error policy stops the VM.
 */
struct AtalabIdeBlkReq {
    AtalabIdeState *s;
    unsigned drive;
    AtalabIdeBlkOp op;
    uint64_t offset;
    bool fua;
    int ret;
    QEMUIOVector qiov;
    AtalabIoDone *done;
    void *done_opaque;
    QTAILQ_ENTRY(AtalabIdeBlkReq) next;
    /* deterministic: the completion waits for this virtual-clock timer */
    QEMUTimer *deadline;
    bool arrived;               /* the backend has completed (ret) */
};

/*
 * deterministic=on: every backend request completes, as the guest sees it,
 * this long after its submission on QEMU_CLOCK_VIRTUAL, whenever the host
 * finished it.  Under -icount the guest then sees the same completion
 * times in every run (docs/trace-diff.md, "Deterministic runs").
 */
#define ATALAB_DETERMINISTIC_LATENCY_NS 100000

static void atalab_blk_submit(AtalabIdeBlkReq *req);

static void atalab_blk_finish(AtalabIdeBlkReq *req, int ret)
{
    qemu_iovec_destroy(&req->qiov);
    req->done(req->done_opaque, ret);
    g_free(req);
}

/*
 * A backend error goes through the drive's rerror/werror policy, as
 * ide-hd does: report it to the model (ATA error), ignore it, or stop the
 * VM and submit the request again when it runs.
 */
static void atalab_blk_deliver(AtalabIdeBlkReq *req, int ret);

/*
 * The backend's completion.  deterministic=on: noted, and delivered when
 * the request's deadline comes (atalab_blk_deadline).
 */
static void atalab_blk_complete(void *opaque, int ret)
{
    AtalabIdeBlkReq *req = opaque;

    if (req->deadline) {
        req->arrived = true;
        req->ret = ret;
        return;
    }
    atalab_blk_deliver(req, ret);
}

/* A request's deadline: its completion goes to the model now. */
static void atalab_blk_deadline(void *opaque)
{
    AtalabIdeBlkReq *req = opaque;
    AtalabIdeState *s = req->s;

    if (!req->arrived) {
        /* The host is late: the guest waits (its clock stands still). */
        blk_drain(s->blk[req->drive]);
    }
    assert(req->arrived);
    QTAILQ_REMOVE(&s->timed, req, next);
    timer_free(req->deadline);
    req->deadline = NULL;
    atalab_blk_deliver(req, req->ret);
}

static void atalab_blk_deliver(AtalabIdeBlkReq *req, int ret)
{
    AtalabIdeState *s = req->s;
    BlockBackend *blk = s->blk[req->drive];
    bool is_read = req->op == ATALAB_BLK_READ;
    BlockErrorAction action;

    if (ret < 0) {
        action = blk_get_error_action(blk, is_read, -ret);
        if (action == BLOCK_ERROR_ACTION_STOP) {
            req->ret = ret;
            QTAILQ_INSERT_TAIL(&s->held, req, next);
        }
        blk_error_action(blk, action, is_read, -ret);
        if (action == BLOCK_ERROR_ACTION_STOP) {
            return;
        }
        if (action == BLOCK_ERROR_ACTION_IGNORE) {
            ret = 0;
        }
    }
    atalab_blk_finish(req, ret);
}

static void atalab_blk_submit(AtalabIdeBlkReq *req)
{
    AtalabIdeState *s = req->s;
    BlockBackend *blk = s->blk[req->drive];

    if (s->deterministic) {
        req->arrived = false;
        req->deadline = timer_new_ns(QEMU_CLOCK_VIRTUAL, atalab_blk_deadline,
                                     req);
        timer_mod(req->deadline, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  ATALAB_DETERMINISTIC_LATENCY_NS);
        QTAILQ_INSERT_TAIL(&s->timed, req, next);
    }

    switch (req->op) {
    case ATALAB_BLK_READ:
        blk_aio_preadv(blk, req->offset, &req->qiov, 0, atalab_blk_complete,
                       req);
        break;
    case ATALAB_BLK_WRITE:
        blk_aio_pwritev(blk, req->offset, &req->qiov,
                        req->fua ? BDRV_REQ_FUA : 0, atalab_blk_complete,
                        req);
        break;
    case ATALAB_BLK_FLUSH:
        blk_aio_flush(blk, atalab_blk_complete, req);
        break;
    }
}

static void atalab_retry_bh(void *opaque)
{
    AtalabIdeState *s = opaque;
    AtalabIdeBlkReq *req;

    while ((req = QTAILQ_FIRST(&s->held))) {
        QTAILQ_REMOVE(&s->held, req, next);
        atalab_blk_submit(req);
    }
}

/*
 * The VM runs again: a stop the device requested is over, and requests
 * held by werror/rerror=stop are retried.
 */
static void atalab_vm_state_change(void *opaque, bool running,
                                   RunState state)
{
    AtalabIdeState *s = opaque;

    if (!running) {
        return;
    }
    s->stop_pending = false;
    if (!QTAILQ_EMPTY(&s->held)) {
        qemu_bh_schedule(s->retry_bh);
    }
}

/* Give up the held requests of drive (all: -1) with their errors. */
static void atalab_blk_drop_held(AtalabIdeState *s, int drive)
{
    AtalabIdeBlkReq *req, *tmp;

    QTAILQ_FOREACH_SAFE(req, &s->held, next, tmp) {
        if (drive < 0 || req->drive == drive) {
            QTAILQ_REMOVE(&s->held, req, next);
            atalab_blk_finish(req, req->ret);
        }
    }
}

/*
 * Finish every request of drive (all: -1) now, as ide_cancel_dma_sync
 * does: the backend's are drained, those deterministic=on still holds for
 * their deadline are delivered at once (a reset or an abort does not
 * wait), and those held for a retry by the error policy are given up.
 */
void atalab_blk_drain(AtalabIdeState *s, int drive)
{
    AtalabIdeBlkReq *req, *tmp;
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        if (s->blk[i] && (drive < 0 || i == (unsigned)drive)) {
            blk_drain(s->blk[i]);
        }
    }

    QTAILQ_FOREACH_SAFE(req, &s->timed, next, tmp) {
        /* (a delivery may issue a new request: it waits for its time) */
        if ((drive < 0 || req->drive == drive) && req->arrived) {
            QTAILQ_REMOVE(&s->timed, req, next);
            timer_free(req->deadline);
            req->deadline = NULL;
            atalab_blk_deliver(req, req->ret);
        }
    }
    atalab_blk_drop_held(s, drive);
}

static AtalabIdeBlkReq *atalab_blk_req_new(AtalabIdeState *s, unsigned drive,
                                           AtalabIdeBlkOp op, uint64_t offset,
                                           const AtalabIoVec *iov,
                                           unsigned niov, AtalabIoDone *done,
                                           void *done_opaque)
{
    AtalabIdeBlkReq *req = g_new0(AtalabIdeBlkReq, 1);
    unsigned i;

    req->s = s;
    req->drive = drive;
    req->op = op;
    req->offset = offset;
    qemu_iovec_init(&req->qiov, MAX(niov, 1));
    for (i = 0; i < niov; i++) {
        qemu_iovec_add(&req->qiov, iov[i].base, iov[i].len);
    }
    req->done = done;
    req->done_opaque = done_opaque;
    return req;
}

static void atalab_host_blk_readv(void *opaque, unsigned drive,
                                  uint64_t offset, const AtalabIoVec *iov,
                                  unsigned niov, AtalabIoDone *done,
                                  void *done_opaque)
{
    atalab_blk_submit(atalab_blk_req_new(opaque, drive, ATALAB_BLK_READ,
                                         offset, iov, niov, done,
                                         done_opaque));
}

static void atalab_host_blk_writev(void *opaque, unsigned drive,
                                   uint64_t offset, const AtalabIoVec *iov,
                                   unsigned niov, bool fua,
                                   AtalabIoDone *done, void *done_opaque)
{
    AtalabIdeBlkReq *req = atalab_blk_req_new(opaque, drive,
                                              ATALAB_BLK_WRITE, offset, iov,
                                              niov, done, done_opaque);

    req->fua = fua;
    atalab_blk_submit(req);
}

static void atalab_host_blk_flush(void *opaque, unsigned drive,
                                  AtalabIoDone *done, void *done_opaque)
{
    atalab_blk_submit(atalab_blk_req_new(opaque, drive, ATALAB_BLK_FLUSH, 0,
                                         NULL, 0, done, done_opaque));
}

/*
 * As ide_cancel_dma_sync: the request's completion runs inside.  A request
 * held for a retry (VM stopped by the error policy) is given up.
 */
static void atalab_host_blk_drain(void *opaque, unsigned drive)
{
    AtalabIdeState *s = opaque;

    atalab_blk_drain(s, drive);
}

static int64_t atalab_host_clock_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static AtalabTimer *atalab_host_timer_new(void *opaque, AtalabTimerFn *fn,
                                          void *fn_opaque)
{
    return (AtalabTimer *)timer_new_ns(QEMU_CLOCK_VIRTUAL, fn, fn_opaque);
}

static void atalab_host_timer_mod(void *opaque, AtalabTimer *t,
                                  int64_t expire_ns)
{
    timer_mod((QEMUTimer *)t, expire_ns);
}

static void atalab_host_timer_del(void *opaque, AtalabTimer *t)
{
    timer_del((QEMUTimer *)t);
}

static void atalab_host_timer_free(void *opaque, AtalabTimer *t)
{
    timer_free((QEMUTimer *)t);
}

static void atalab_host_trace(void *opaque, const char *record)
{
    AtalabIdeState *s = opaque;

    if (s->trace_early) {
        g_string_append_printf(s->trace_early, "%s\n", record);
        return;
    }
    fputs(record, s->trace);
    fputc('\n', s->trace);
}


/*
 * The guest moved a CD-ROM's tray: QEMU's tray event (and a host CD-ROM's
 * own tray, blk_eject), and on a close the disc the monitor left there.
 */
static uint64_t atalab_host_tray_moved(void *opaque, unsigned drive,
                                       bool open)
{
    AtalabIdeState *s = opaque;

    if (drive >= ATALAB_DRIVES || !s->blk[drive]) {
        return 0;
    }
    blk_eject(s->blk[drive], open);
    return open ? 0 : atalab_cd_disc_sectors(&s->cd[drive]);
}

void atalab_ide_host_init(AtalabIdeState *s)
{
    s->host = (AtalabHost) {
        .opaque = s,
        .set_irq = atalab_host_set_irq,
        .dma_read = atalab_host_dma_read,
        .dma_write = atalab_host_dma_write,
        .dma_map = atalab_host_dma_map,
        .dma_unmap = atalab_host_dma_unmap,
        .blk_readv = atalab_host_blk_readv,
        .blk_writev = atalab_host_blk_writev,
        .blk_flush = atalab_host_blk_flush,
        .blk_drain = atalab_host_blk_drain,
        .clock_ns = atalab_host_clock_ns,
        .timer_new = atalab_host_timer_new,
        .timer_mod = atalab_host_timer_mod,
        .timer_del = atalab_host_timer_del,
        .timer_free = atalab_host_timer_free,
        .trace = s->trace ? atalab_host_trace : NULL,
        .tray_moved = atalab_host_tray_moved,
    };
}

void atalab_ide_host_start(AtalabIdeState *s)
{
    QTAILQ_INIT(&s->held);
    QTAILQ_INIT(&s->timed);
    s->retry_bh = qemu_bh_new(atalab_retry_bh, s);
    s->vmstate = qemu_add_vm_change_state_handler(atalab_vm_state_change, s);
}

void atalab_ide_host_stop(AtalabIdeState *s)
{
    atalab_blk_drain(s, -1);
    qemu_del_vm_change_state_handler(s->vmstate);
    qemu_bh_delete(s->retry_bh);
}
