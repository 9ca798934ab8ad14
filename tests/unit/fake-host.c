/*
 * atalab unit tests: a fake host for the emulator core.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "fake-host.h"

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

static bool ram_range_ok(uint64_t addr, size_t len)
{
    return addr <= FAKE_RAM_SIZE && len <= FAKE_RAM_SIZE - addr;
}

static int fh_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    FakeHost *fh = opaque;

    if (!ram_range_ok(addr, len)) {
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

    if (!ram_range_ok(addr, len)) {
        fh->dma_failures++;
        return -1;
    }
    memcpy(fh->ram + addr, buf, len);
    return 0;
}

static void queue_op(FakeHost *fh, FakeOpKind kind, unsigned drive,
                     uint64_t offset, void *buf, size_t len, bool fua,
                     AtalabIoDone *done, void *done_opaque)
{
    FakeOp *op = g_new0(FakeOp, 1);

    g_assert_cmpuint(drive, <, 4);
    g_assert(fh->disk[drive]);
    g_assert_cmpuint(offset % 512, ==, 0);
    g_assert_cmpuint(len % 512, ==, 0);
    op->kind = kind;
    op->drive = drive;
    op->offset = offset;
    op->buf = buf;
    op->len = len;
    op->fua = fua;
    op->done = done;
    op->done_opaque = done_opaque;
    if (len > fh->max_len) {
        fh->max_len = len;
    }
    g_queue_push_tail(&fh->pending, op);
}

static void fh_blk_read(void *opaque, unsigned drive, uint64_t offset,
                        void *buf, size_t len, AtalabIoDone *done,
                        void *done_opaque)
{
    FakeHost *fh = opaque;

    fh->reads++;
    queue_op(fh, FAKE_READ, drive, offset, buf, len, false, done,
             done_opaque);
}

static void fh_blk_write(void *opaque, unsigned drive, uint64_t offset,
                         const void *buf, size_t len, bool fua,
                         AtalabIoDone *done, void *done_opaque)
{
    FakeHost *fh = opaque;

    fh->writes++;
    if (fua) {
        fh->fua_writes++;
    }
    queue_op(fh, FAKE_WRITE, drive, offset, (void *)buf, len, fua, done,
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
    AtalabTimer *t = g_new0(AtalabTimer, 1);

    t->fn = fn;
    t->opaque = fn_opaque;
    t->expire = -1;
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
    g_free(t);
}

static void fh_trace(void *opaque, const char *record)
{
    FakeHost *fh = opaque;

    g_assert(!strchr(record, '\n'));
    g_ptr_array_add(fh->trace, g_strdup(record));
}

void fake_host_init(FakeHost *fh, bool tracing)
{
    memset(fh, 0, sizeof(*fh));
    fh->host = (AtalabHost) {
        .opaque = fh,
        .set_irq = fh_set_irq,
        .dma_read = fh_dma_read,
        .dma_write = fh_dma_write,
        .blk_read = fh_blk_read,
        .blk_write = fh_blk_write,
        .blk_flush = fh_blk_flush,
        .clock_ns = fh_clock_ns,
        .timer_new = fh_timer_new,
        .timer_mod = fh_timer_mod,
        .timer_del = fh_timer_del,
        .timer_free = fh_timer_free,
        .trace = tracing ? fh_trace : NULL,
    };
    fh->ram = g_malloc0(FAKE_RAM_SIZE);
    g_queue_init(&fh->pending);
    fh->trace = g_ptr_array_new_with_free_func(g_free);
    fh->log = g_string_new(NULL);
}

void fake_host_cleanup(FakeHost *fh)
{
    unsigned i;

    fake_host_complete_all(fh);
    for (i = 0; i < 4; i++) {
        g_free(fh->disk[i]);
    }
    g_free(fh->ram);
    g_ptr_array_free(fh->trace, TRUE);
    g_string_free(fh->log, TRUE);
}

void fake_host_add_disk(FakeHost *fh, unsigned drive, uint64_t sectors)
{
    uint64_t i;

    fh->disk_bytes[drive] = sectors * 512;
    fh->disk[drive] = g_malloc(sectors * 512);
    for (i = 0; i < sectors * 512; i++) {
        fh->disk[drive][i] = fake_pattern(drive, i);
    }
}

unsigned fake_host_pending(FakeHost *fh)
{
    return g_queue_get_length(&fh->pending);
}

FakeOp *fake_host_peek(FakeHost *fh)
{
    return g_queue_peek_head(&fh->pending);
}

bool fake_host_complete_one(FakeHost *fh)
{
    FakeOp *op = g_queue_pop_head(&fh->pending);
    int ret = 0;

    if (!op) {
        return false;
    }
    fh->now += 1000;
    if (fh->fail_ret) {
        ret = fh->fail_ret;
        fh->fail_ret = 0;
    } else if (op->kind != FAKE_FLUSH) {
        if (op->offset + op->len > fh->disk_bytes[op->drive]) {
            ret = -5;           /* -EIO: beyond the image */
        } else if (op->kind == FAKE_READ) {
            memcpy(op->buf, fh->disk[op->drive] + op->offset, op->len);
        } else {
            memcpy(fh->disk[op->drive] + op->offset, op->buf, op->len);
        }
    }
    g_string_append_printf(fh->log, "%s%u ",
                           op->kind == FAKE_READ ? "read" :
                           op->kind == FAKE_WRITE ? "write" : "flush",
                           op->drive);
    op->done(op->done_opaque, ret);
    g_free(op);
    return true;
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

bool fake_host_trace_has(FakeHost *fh, const char *substr)
{
    return fake_host_trace_count(fh, substr) > 0;
}

unsigned fake_host_trace_count(FakeHost *fh, const char *substr)
{
    unsigned i, n = 0;

    for (i = 0; i < fh->trace->len; i++) {
        if (strstr(g_ptr_array_index(fh->trace, i), substr)) {
            n++;
        }
    }
    return n;
}

void fake_host_trace_clear(FakeHost *fh)
{
    g_ptr_array_set_size(fh->trace, 0);
}
