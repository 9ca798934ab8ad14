/*
 * atalab tests: the one fake host of the emulator core (fake-host.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fake-host.h"
#include "trace-read.h"

struct AtalabTimer {
    AtalabTimerFn *fn;
    void *opaque;
    int64_t expire;
};

uint8_t fake_pattern(unsigned drive, uint64_t offset)
{
    uint64_t sector = offset / 512;

    return (uint8_t)(sector * 131 + (offset % 512) * 7 + drive * 61 + 1);
}

/* The 512 bytes of a pattern sector whose first byte is first. */
static const uint8_t *pattern_row(uint8_t first)
{
    static uint8_t rows[256][512];
    static bool ready;

    if (!ready) {
        unsigned k, j;

        for (k = 0; k < 256; k++) {
            for (j = 0; j < 512; j++) {
                rows[k][j] = (uint8_t)(k + j * 7);
            }
        }
        ready = true;
    }
    return rows[first];
}

static void fh_set_irq(void *opaque, unsigned channel, bool level)
{
    FakeHost *fh = opaque;

    g_assert_cmpuint(channel, <, 2);
    g_assert(fh->irq[channel] != level);    /* only changes are reported */
    fh->irq[channel] = level;
    if (level) {
        fh->irq_raises[channel]++;
    }
    g_string_append_printf(fh->log, "irq%u=%d ", channel, level);
}

static bool ram_range_ok(FakeHost *fh, uint64_t addr, size_t len)
{
    return addr <= fh->ram_size && len <= fh->ram_size - addr;
}

static int fh_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    FakeHost *fh = opaque;

    if (fh->on_dma) {
        fh->on_dma(fh->on_dma_opaque, addr, false);
    }
    if (!ram_range_ok(fh, addr, len)) {
        fh->dma_failures++;
        return -1;
    }
    memcpy(buf, fh->ram + addr, len);
    return 0;
}

static int fh_dma_write(void *opaque, uint64_t addr, const void *buf,
                        size_t len)
{
    FakeHost *fh = opaque;

    if (fh->on_dma) {
        fh->on_dma(fh->on_dma_opaque, addr, true);
    }
    if (!ram_range_ok(fh, addr, len)) {
        fh->dma_failures++;
        return -1;
    }
    memcpy(fh->ram + addr, buf, len);
    return 0;
}

/* Fake RAM maps in pieces of at most 64 KiB that never cross 1 MiB. */
static void *fh_dma_map(void *opaque, uint64_t addr, size_t *len,
                        bool to_memory)
{
    FakeHost *fh = opaque;
    size_t n = MIN(*len, 0x10000);

    if (!fh->zero_copy || addr >= fh->ram_size) {
        *len = 0;
        return NULL;
    }
    n = MIN(n, 0x100000 - (addr & 0xFFFFF));
    n = MIN(n, fh->ram_size - addr);
    *len = n;
    fh->maps++;
    fh->mapped_now++;
    return fh->ram + addr;
}

static void fh_dma_unmap(void *opaque, void *ptr, size_t len, bool to_memory,
                         size_t done)
{
    FakeHost *fh = opaque;

    g_assert((uint8_t *)ptr >= fh->ram &&
             (uint8_t *)ptr + len <= fh->ram + fh->ram_size);
    g_assert_cmpuint(done, <=, len);
    g_assert_cmpuint(fh->mapped_now, >, 0);
    fh->unmaps++;
    fh->mapped_now--;
}

static void queue_op(FakeHost *fh, FakeOpKind kind, unsigned drive,
                     uint64_t offset, const AtalabIoVec *iov, unsigned niov,
                     bool fua, AtalabIoDone *done, void *done_opaque)
{
    FakeOp *op = g_new0(FakeOp, 1);
    unsigned i;

    g_assert_cmpuint(drive, <, 4);
    g_assert(fh->disk[drive]);
    g_assert_cmpuint(offset % 512, ==, 0);
    g_assert_cmpuint(niov, <=, FAKE_MAX_IOV);
    op->kind = kind;
    op->drive = drive;
    op->offset = offset;
    op->iov = g_memdup2(iov, sizeof(*iov) * niov);
    op->niov = niov;
    for (i = 0; i < niov; i++) {
        op->len += iov[i].len;
    }
    g_assert_cmpuint(op->len % 512, ==, 0);
    op->fua = fua;
    op->seq = kind == FAKE_WRITE ? ++fh->write_seq[drive] : fh->write_seq[drive];
    op->done = done;
    op->done_opaque = done_opaque;
    if (op->len > fh->max_len) {
        fh->max_len = op->len;
    }
    fh->inflight[drive]++;
    fh->max_inflight[drive] = MAX(fh->max_inflight[drive],
                                  fh->inflight[drive]);
    g_queue_push_tail(&fh->pending, op);
}

static void fh_blk_readv(void *opaque, unsigned drive, uint64_t offset,
                         const AtalabIoVec *iov, unsigned niov,
                         AtalabIoDone *done, void *done_opaque)
{
    FakeHost *fh = opaque;

    fh->reads++;
    queue_op(fh, FAKE_READ, drive, offset, iov, niov, false, done,
             done_opaque);
}

static void fh_blk_writev(void *opaque, unsigned drive, uint64_t offset,
                          const AtalabIoVec *iov, unsigned niov, bool fua,
                          AtalabIoDone *done, void *done_opaque)
{
    FakeHost *fh = opaque;

    fh->writes++;
    if (fua) {
        fh->fua_writes++;
    }
    queue_op(fh, FAKE_WRITE, drive, offset, iov, niov, fua, done,
             done_opaque);
}

static void fh_blk_flush(void *opaque, unsigned drive, AtalabIoDone *done,
                         void *done_opaque)
{
    FakeHost *fh = opaque;

    fh->flushes++;
    queue_op(fh, FAKE_FLUSH, drive, 0, NULL, 0, false, done, done_opaque);
}

static int64_t fh_clock_ns(void *opaque)
{
    FakeHost *fh = opaque;

    return fh->now;
}

static AtalabTimer *fh_timer_new(void *opaque, AtalabTimerFn *fn,
                                 void *fn_opaque)
{
    FakeHost *fh = opaque;
    AtalabTimer *t = g_new0(AtalabTimer, 1);

    t->fn = fn;
    t->opaque = fn_opaque;
    t->expire = -1;
    g_ptr_array_add(fh->timers, t);
    return t;
}

static void fh_timer_mod(void *opaque, AtalabTimer *t, int64_t expire_ns)
{
    t->expire = expire_ns;
}

static void fh_timer_del(void *opaque, AtalabTimer *t)
{
    t->expire = -1;
}

static void fh_timer_free(void *opaque, AtalabTimer *t)
{
    FakeHost *fh = opaque;

    g_assert(g_ptr_array_remove(fh->timers, t));
    g_free(t);
}

static void fh_trace(void *opaque, const char *record)
{
    FakeHost *fh = opaque;
    AtalabTraceRecord rec;
    char *why = NULL;

    if (fh->echo_trace) {
        fprintf(stderr, "%s\n", record);
    }
    g_assert(!strchr(record, '\n'));
    /* A record the core only writes when its own invariants broke. */
    if (strstr(record, " bug ")) {
        g_error("core reports a bug: %s", record);
    }
    /*
     * Every record the core writes is one of the record table's forms
     * (trace-records.h), with no key the table lacks.
     */
    if (fh->check_records) {
        if (!atalab_trace_parse(record, true, &rec, &why)) {
            g_error("the core wrote a record the table lacks: %s: %s", why,
                    record);
        }
        atalab_trace_record_clear(&rec);
    }
    if (fh->keep_trace) {
        g_ptr_array_add(fh->trace, g_strdup(record));
    }
}

/* A write lands: never over a write to the same sector issued after it. */
static void land_write(FakeHost *fh, const FakeOp *op)
{
    uint64_t s;

    for (s = op->offset / 512; s < (op->offset + op->len) / 512; s++) {
        if (fh->landed[op->drive][s] > op->seq) {
            g_error("drive %u sector %" PRIu64 ": write %u landed over "
                    "write %u, issued after it", op->drive, s, op->seq,
                    fh->landed[op->drive][s]);
        }
        fh->landed[op->drive][s] = op->seq;
    }
}

/* A flush completes: no write issued ahead of it is still pending. */
static void check_flush(FakeHost *fh, const FakeOp *flush)
{
    GList *l;

    for (l = fh->pending.head; l; l = l->next) {
        FakeOp *op = l->data;

        if (op->drive == flush->drive && op->kind == FAKE_WRITE &&
            op->seq <= flush->seq) {
            g_error("drive %u: a flush completed before write %u, issued "
                    "ahead of it", op->drive, op->seq);
        }
    }
}

/* The result of the next completion the test did not give one: fail_ret. */
static int take_fail_ret(FakeHost *fh)
{
    int ret = fh->fail_ret;

    fh->fail_ret = 0;
    return ret;
}

static bool complete(FakeHost *fh, FakeOp *op, int ret)
{
    size_t pos = 0;
    unsigned i;

    fh->now += 1000;
    if (!ret && op->kind == FAKE_FLUSH) {
        check_flush(fh, op);
    } else if (!ret) {
        if (op->offset + op->len > fh->disk_bytes[op->drive]) {
            ret = -5;           /* -EIO: beyond the image */
        } else {
            for (i = 0; i < op->niov; i++) {
                uint8_t *disk = fh->disk[op->drive] + op->offset + pos;

                if (op->kind == FAKE_READ) {
                    memcpy(op->iov[i].base, disk, op->iov[i].len);
                } else {
                    memcpy(disk, op->iov[i].base, op->iov[i].len);
                }
                pos += op->iov[i].len;
            }
            if (op->kind == FAKE_WRITE) {
                land_write(fh, op);
            }
        }
    }
    g_string_append_printf(fh->log, "%s%u ",
                           op->kind == FAKE_READ ? "read" :
                           op->kind == FAKE_WRITE ? "write" : "flush",
                           op->drive);
    g_assert_cmpuint(fh->inflight[op->drive], >, 0);
    fh->inflight[op->drive]--;
    op->done(op->done_opaque, ret);
    g_free(op->iov);
    g_free(op);
    return true;
}

/* Complete the drive's requests now: what QEMU's blk_drain does. */
static void fh_blk_drain(void *opaque, unsigned drive)
{
    FakeHost *fh = opaque;
    GList *l;

    fh->drains++;
    for (l = fh->pending.head; l;) {
        FakeOp *op = l->data;
        GList *next = l->next;

        if (op->drive == drive) {
            g_queue_delete_link(&fh->pending, l);
            complete(fh, op, take_fail_ret(fh));
            next = fh->pending.head;    /* the completion may queue more */
        }
        l = next;
    }
}

static void fh_event(void *opaque, const AtalabEvent *ev)
{
    FakeHost *fh = opaque;
    GString *text = g_string_new(NULL);

    /* In the words of the stop reasons atalab-ide prints. */
    atalab_event_describe(ev, text);
    g_ptr_array_add(fh->events, g_string_free(text, FALSE));
    if (atalab_stop_list_matches(fh->stop, fh->ctrl ?
                                 atalab_ctrl_personality(fh->ctrl) : NULL,
                                 ev)) {
        fh->stops++;
        atalab_event_describe(ev, fh->stop_reasons);
        g_string_append_c(fh->stop_reasons, '\n');
    }
}

unsigned fake_host_event_count(FakeHost *fh, const char *prefix)
{
    unsigned i, n = 0;

    for (i = 0; i < fh->events->len; i++) {
        n += g_str_has_prefix(g_ptr_array_index(fh->events, i), prefix);
    }
    return n;
}

static void fh_blk_drain_if_enabled(void *opaque, unsigned drive)
{
    FakeHost *fh = opaque;

    if (fh->drain) {
        fh_blk_drain(opaque, drive);
    }
}

static uint64_t fh_tray_moved(void *opaque, unsigned drive, bool open)
{
    FakeHost *fh = opaque;

    return drive < 4 ? fh->disc_sectors[drive] : 0;
}

void fake_host_init(FakeHost *fh, bool tracing)
{
    fake_host_init_ram(fh, tracing, FAKE_RAM_SIZE);
}

/* The callbacks and the modes' defaults. */
static void init_state(FakeHost *fh, bool tracing)
{
    fh->host = (AtalabHost) {
        .opaque = fh,
        .set_irq = fh_set_irq,
        .dma_read = fh_dma_read,
        .dma_write = fh_dma_write,
        .dma_map = fh_dma_map,
        .dma_unmap = fh_dma_unmap,
        .blk_readv = fh_blk_readv,
        .blk_writev = fh_blk_writev,
        .blk_flush = fh_blk_flush,
        .blk_drain = fh_blk_drain_if_enabled,
        .clock_ns = fh_clock_ns,
        .timer_new = fh_timer_new,
        .timer_mod = fh_timer_mod,
        .timer_del = fh_timer_del,
        .timer_free = fh_timer_free,
        .trace = tracing ? fh_trace : NULL,
        .event = fh_event,
        .tray_moved = fh_tray_moved,
    };
    fh->drain = true;
    fh->zero_copy = true;
    fh->keep_trace = true;
    fh->check_records = true;
}

void fake_host_init_ram(FakeHost *fh, bool tracing, size_t ram_size)
{
    memset(fh, 0, sizeof(*fh));
    init_state(fh, tracing);
    fh->ram_size = ram_size;
    fh->ram = g_malloc0(ram_size);
    g_queue_init(&fh->pending);
    fh->timers = g_ptr_array_new();
    fh->trace = g_ptr_array_new_with_free_func(g_free);
    fh->log = g_string_new(NULL);
    fh->events = g_ptr_array_new_with_free_func(g_free);
    fh->stop_reasons = g_string_new(NULL);
}

void fake_host_cleanup(FakeHost *fh)
{
    unsigned i;

    fake_host_complete_all(fh);
    g_assert_cmpuint(fh->mapped_now, ==, 0);
    for (i = 0; i < 4; i++) {
        g_free(fh->disk[i]);
        g_free(fh->landed[i]);
    }
    g_assert_cmpuint(fh->timers->len, ==, 0);   /* the core freed them */
    g_ptr_array_free(fh->timers, TRUE);
    g_free(fh->ram);
    g_ptr_array_free(fh->trace, TRUE);
    g_string_free(fh->log, TRUE);
    g_ptr_array_free(fh->events, TRUE);
    atalab_stop_list_free(fh->stop);
    g_string_free(fh->stop_reasons, TRUE);
}

void fake_host_add_disk(FakeHost *fh, unsigned drive, uint64_t sectors)
{
    uint64_t i;

    /* A larger drive is backed only this far: reads beyond fail. */
    sectors = MIN(sectors, FAKE_DISK_MAX_SECTORS);
    fh->disk_bytes[drive] = sectors * 512;
    fh->disc_sectors[drive] = sectors;
    fh->disk[drive] = g_malloc(sectors * 512);
    fh->landed[drive] = g_new0(uint32_t, sectors);
    /* A sector of the pattern is one of 256 rows: copied, not computed. */
    for (i = 0; i < sectors; i++) {
        memcpy(fh->disk[drive] + i * 512,
               pattern_row((uint8_t)fake_pattern(drive, i * 512)), 512);
    }
}

void fake_host_reset(FakeHost *fh, bool tracing)
{
    FakeHost keep = *fh;
    unsigned d;
    uint64_t s;

    g_assert(g_queue_is_empty(&fh->pending));
    g_assert_cmpuint(fh->mapped_now, ==, 0);
    g_assert_cmpuint(fh->timers->len, ==, 0);
    for (d = 0; d < 4; d++) {
        for (s = 0; s < fh->disk_bytes[d] / 512; s++) {
            if (fh->landed[d][s]) {
                memcpy(fh->disk[d] + s * 512,
                       pattern_row((uint8_t)fake_pattern(d, s * 512)), 512);
                fh->landed[d][s] = 0;
            }
        }
    }
    memset(fh->ram, 0, fh->ram_size);
    atalab_stop_list_free(fh->stop);
    g_ptr_array_set_size(keep.trace, 0);
    g_string_truncate(keep.log, 0);
    g_ptr_array_set_size(keep.events, 0);
    g_string_truncate(keep.stop_reasons, 0);
    memset(fh, 0, sizeof(*fh));
    init_state(fh, tracing);
    memcpy(fh->disk, keep.disk, sizeof(fh->disk));
    memcpy(fh->disk_bytes, keep.disk_bytes, sizeof(fh->disk_bytes));
    memcpy(fh->landed, keep.landed, sizeof(fh->landed));
    fh->ram = keep.ram;
    fh->ram_size = keep.ram_size;
    fh->timers = keep.timers;
    fh->trace = keep.trace;
    fh->log = keep.log;
    fh->events = keep.events;
    fh->stop_reasons = keep.stop_reasons;
}

unsigned fake_host_pending(FakeHost *fh)
{
    return g_queue_get_length(&fh->pending);
}

FakeOp *fake_host_peek_nth(FakeHost *fh, unsigned n)
{
    return g_queue_peek_nth(&fh->pending, n);
}

FakeOp *fake_host_peek(FakeHost *fh)
{
    return fake_host_peek_nth(fh, 0);
}

bool fake_host_complete_nth_ret(FakeHost *fh, unsigned n, int ret)
{
    FakeOp *op = g_queue_pop_nth(&fh->pending, n);

    return op ? complete(fh, op, ret) : false;
}

bool fake_host_complete_nth(FakeHost *fh, unsigned n)
{
    if (n >= fake_host_pending(fh)) {
        return false;
    }
    return fake_host_complete_nth_ret(fh, n, take_fail_ret(fh));
}

bool fake_host_complete_one(FakeHost *fh)
{
    return fake_host_complete_nth(fh, 0);
}

unsigned fake_host_complete_all(FakeHost *fh)
{
    unsigned n = 0;

    while (fake_host_complete_one(fh)) {
        n++;
        g_assert_cmpuint(n, <, 1000000);
    }
    return n;
}

void fake_host_advance(FakeHost *fh, int64_t ns)
{
    int64_t end = fh->now + ns;

    for (;;) {
        AtalabTimer *next = NULL;
        unsigned i;

        for (i = 0; i < fh->timers->len; i++) {
            AtalabTimer *t = g_ptr_array_index(fh->timers, i);

            if (t->expire >= 0 && t->expire <= end &&
                (!next || t->expire < next->expire)) {
                next = t;
            }
        }
        if (!next) {
            break;
        }
        fh->now = MAX(fh->now, next->expire);
        next->expire = -1;
        next->fn(next->opaque);
    }
    fh->now = end;
}

bool fake_host_trace_has(FakeHost *fh, const char *substr)
{
    return fake_host_trace_count(fh, substr) > 0;
}

void fake_host_trace_flush(FakeHost *fh)
{
    if (fh->ctrl) {
        atalab_ctrl_trace_flush(fh->ctrl);
    }
}

unsigned fake_host_trace_count(FakeHost *fh, const char *substr)
{
    unsigned i, n = 0;

    fake_host_trace_flush(fh);
    for (i = 0; i < fh->trace->len; i++) {
        if (strstr(g_ptr_array_index(fh->trace, i), substr)) {
            n++;
        }
    }
    return n;
}

void fake_host_trace_clear(FakeHost *fh)
{
    fake_host_trace_flush(fh);
    g_ptr_array_set_size(fh->trace, 0);
}
