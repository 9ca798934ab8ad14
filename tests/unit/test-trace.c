/*
 * atalab unit tests: the trace writer (traces/FORMAT.md) -- data port
 * accesses folded per DRQ block with the FNV-1a checksum of their bytes,
 * Status polling folded with a count, the folded and the raw trace of one
 * run decoding to the same events and the same data, command sequence
 * numbers, register decodes, relative times and the header.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rig.h"
#include "trace/trace-writer.h"

/* FNV-1a, 32 bits: the test's own, to check the writer's. */
static uint32_t fnv1a(const uint8_t *p, size_t len)
{
    uint32_t h = 2166136261u;
    size_t i;

    for (i = 0; i < len; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

static const char *record(Rig *r, unsigned i)
{
    return g_ptr_array_index(r->fh.trace, i);
}

/* The records containing substr, in order (a new array of borrowed ones). */
static GPtrArray *records_with(Rig *r, const char *substr)
{
    GPtrArray *a = g_ptr_array_new();
    unsigned i;

    fake_host_trace_flush(&r->fh);
    for (i = 0; i < r->fh.trace->len; i++) {
        if (strstr(record(r, i), substr)) {
            g_ptr_array_add(a, (gpointer)record(r, i));
        }
    }
    return a;
}

/* The value of " key=" in rec as a number (-1: absent). */
static int64_t field(const char *rec, const char *key)
{
    g_autofree char *k = g_strdup_printf(" %s=", key);
    const char *p = strstr(rec, k);

    return p ? strtoll(p + strlen(k), NULL, 0) : -1;
}

static void start_read(Rig *r, unsigned drive, uint8_t cmd, uint32_t lba,
                       unsigned count)
{
    rig_lba28(r, drive, lba, count);
    rig_command(r, drive, cmd);
    fake_host_complete_all(&r->fh);
}

/*
 * The backend completes what is pending, then the driver polls Alternate
 * Status extra times and reads Status, which must show DRQ.
 */
static void poll_drq(Rig *r, unsigned ch, unsigned extra)
{
    unsigned i;
    uint8_t st;

    fake_host_complete_all(&r->fh);
    for (i = 0; i < extra; i++) {
        rig_altstatus(r, ch);
    }
    st = rig_status(r, ch);
    g_assert_cmphex(st & ST_DRQ, ==, ST_DRQ);
}

static void test_pio_read_folds(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[1024];
    g_autoptr(GPtrArray) data = NULL;
    const char *rec;

    rig_select(r, 0);
    start_read(r, 0, 0x20, 100, 2);
    poll_drq(r, 0, 0);
    fake_host_trace_clear(&r->fh);
    rig_read_data(r, 0, buf, 512, false);
    poll_drq(r, 0, 0);
    rig_read_data(r, 0, buf + 512, 512, true);
    data = records_with(r, " data ");
    g_assert_cmpuint(data->len, ==, 2);
    rec = g_ptr_array_index(data, 0);
    g_assert_nonnull(strstr(rec, " ata0 data d0 in bytes=512 width=2 sum="));
    g_assert_cmphex(field(rec, "sum"), ==, fnv1a(buf, 512));
    g_assert_null(strstr(rec, "partial"));
    rec = g_ptr_array_index(data, 1);
    g_assert_nonnull(strstr(rec, " bytes=512 width=4 "));
    g_assert_cmphex(field(rec, "sum"), ==, fnv1a(buf + 512, 512));
    g_assert_cmpint(field(rec, "seq"), ==, 1);
    /* Not one access record of the data port */
    g_assert_cmpuint(fake_host_trace_count(&r->fh, " ata0 r 0x0 "), ==, 0);
    /* The command's end (raised by the last access) comes before it. */
    g_assert_nonnull(strstr(record(r, r->fh.trace->len - 1), " data "));
    g_assert_nonnull(strstr(record(r, r->fh.trace->len - 2),
                            " ata0 done d0 0x20 "));
    rig_free(r);
}

/* The index of the first record containing substr after from, or -1. */
static int record_index(Rig *r, const char *substr, int from)
{
    unsigned i;

    fake_host_trace_flush(&r->fh);
    for (i = from + 1; i < r->fh.trace->len; i++) {
        if (strstr(record(r, i), substr)) {
            return i;
        }
    }
    return -1;
}

/*
 * A backend answer is a record of its own (io-done), written before
 * anything it causes, so that replay can deliver it at the same point.
 */
static void test_io_done_order(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[512];
    int io, done, irq;

    rig_select(r, 0);
    fake_host_trace_clear(&r->fh);
    rig_lba28(r, 0, 100, 1);
    rig_command(r, 0, 0x20);
    io = record_index(r, " ata0 io d0 read lba=100 count=1 seq=1", -1);
    g_assert_cmpint(io, >=, 0);
    /* not before the backend answers */
    g_assert_cmpint(record_index(r, " io-done ", -1), ==, -1);
    fake_host_complete_all(&r->fh);
    done = record_index(r, " ata0 io-done d0 read ret=0 seq=1", io);
    irq = record_index(r, " irq0 1 dev=0 seq=1", io);
    g_assert_cmpint(done, >, io);
    g_assert_cmpint(irq, >, done);
    rig_read_data(r, 0, buf, sizeof(buf), false);
    /* a failed answer: io-done with its errno, then io-error */
    r->fh.fail_ret = -5;
    rig_lba28(r, 0, 7, 1);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    done = record_index(r, " ata0 io-done d0 read ret=-5 seq=2", irq);
    g_assert_cmpint(done, >, irq);
    g_assert_cmpint(record_index(r, " io-error d0 read lba=7 count=1 ret=-5",
                                 irq), ==, done + 1);
    rig_free(r);
}

static void test_partial_block(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[512];
    g_autoptr(GPtrArray) data = NULL;

    rig_select(r, 0);
    start_read(r, 0, 0x20, 7, 1);
    poll_drq(r, 0, 0);
    rig_read_data(r, 0, buf, 256, false);
    /* Another access of the channel in the middle of the block */
    rig_altstatus(r, 0);
    rig_read_data(r, 0, buf + 256, 256, false);
    data = records_with(r, " data ");
    g_assert_cmpuint(data->len, ==, 2);
    g_assert_nonnull(strstr(g_ptr_array_index(data, 0),
                            " bytes=256 width=2 "));
    g_assert_nonnull(strstr(g_ptr_array_index(data, 0), " partial=1"));
    g_assert_cmpint(field(g_ptr_array_index(data, 0), "off"), ==, -1);
    g_assert_cmphex(field(g_ptr_array_index(data, 0), "sum"), ==,
                    fnv1a(buf, 256));
    g_assert_cmpint(field(g_ptr_array_index(data, 1), "off"), ==, 256);
    g_assert_nonnull(strstr(g_ptr_array_index(data, 1), " partial=1"));
    g_assert_cmphex(field(g_ptr_array_index(data, 1), "sum"), ==,
                    fnv1a(buf + 256, 256));
    rig_free(r);
}

/* The other channel's records do not split a block. */
static void test_channels_fold_apart(void)
{
    Rig *r = rig_new(0x5);
    uint8_t a[512], b[512];
    g_autoptr(GPtrArray) data = NULL;
    unsigned i;

    rig_select(r, 0);
    rig_select(r, 2);
    start_read(r, 0, 0x20, 1, 1);
    start_read(r, 2, 0x20, 2, 1);
    poll_drq(r, 0, 0);
    poll_drq(r, 1, 0);
    for (i = 0; i < 512; i += 2) {
        rig_read_data(r, 0, a + i, 2, false);
        rig_read_data(r, 1, b + i, 2, false);
    }
    data = records_with(r, " data ");
    g_assert_cmpuint(data->len, ==, 2);
    for (i = 0; i < 2; i++) {
        const char *rec = g_ptr_array_index(data, i);

        g_assert_null(strstr(rec, "partial"));
        g_assert_cmphex(field(rec, "sum"), ==,
                        fnv1a(strstr(rec, " ata0 ") ? a : b, 512));
    }
    rig_free(r);
}

static void test_pio_write_folds(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[2048];
    g_autoptr(GPtrArray) data = NULL;
    unsigned i, at = 0;

    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = i * 7 + 3;
    }
    rig_select(r, 0);
    g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 2), ==, ST_READY);
    rig_lba28(r, 0, 300, 4);
    rig_command(r, 0, 0xC5);
    for (i = 0; i < 2; i++) {
        poll_drq(r, 0, 2);
        rig_write_data(r, 0, buf + i * 1024, 1024, false);
        fake_host_complete_all(&r->fh);
    }
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmpmem(r->fh.disk[0] + 300 * 512, 2048, buf, 2048);
    data = records_with(r, " data ");
    g_assert_cmpuint(data->len, ==, 2);
    for (i = 0; i < 2; i++) {
        g_assert_nonnull(strstr(g_ptr_array_index(data, i),
                                " ata0 data d0 out bytes=1024 width=2 "));
        g_assert_cmphex(field(g_ptr_array_index(data, i), "sum"), ==,
                        fnv1a(buf + i * 1024, 1024));
    }
    /* A block written comes before what its last access caused. */
    for (i = 0; i < r->fh.trace->len; i++) {
        if (strstr(record(r, i), " data d0 out ")) {
            at = i;
            break;
        }
    }
    g_assert_nonnull(strstr(record(r, at + 1), " ata0 io d0 write "));
    rig_free(r);
}

static void test_polls_fold(void)
{
    Rig *r = rig_new(0x1);
    g_autoptr(GPtrArray) polls = NULL;
    const char *rec;
    unsigned i;

    rig_select(r, 0);
    fake_host_trace_clear(&r->fh);
    for (i = 0; i < 5; i++) {
        rig_status(r, 0);
    }
    for (i = 0; i < 3; i++) {
        rig_altstatus(r, 0);
    }
    rig_lba28(r, 0, 100, 1);
    rig_command(r, 0, 0x20);
    /* BSY now: a new value is a new record. */
    rig_altstatus(r, 0);
    rig_altstatus(r, 0);
    fake_host_complete_all(&r->fh);
    rig_altstatus(r, 0);
    polls = records_with(r, " r 0x");
    rec = g_ptr_array_index(polls, 0);
    g_assert_nonnull(strstr(rec, " ata0 r 0x7 1 0x50 reg=Status "
                            "bits=DRDY|DSC dev=0 seq=0 polls=5 last="));
    rec = g_ptr_array_index(polls, 1);
    g_assert_nonnull(strstr(rec, " ctl0 r 0x0 1 0x50 reg=AltStatus "));
    g_assert_cmpint(field(rec, "polls"), ==, 3);
    /* Folding never hides a change of value or an event. */
    g_assert_cmpuint(polls->len, ==, 4);
    g_assert_nonnull(strstr(g_ptr_array_index(polls, 2), " 0xc0 "));
    g_assert_cmpint(field(g_ptr_array_index(polls, 2), "polls"), ==, 2);
    g_assert_nonnull(strstr(g_ptr_array_index(polls, 3), " 0x58 "));
    g_assert_cmpint(field(g_ptr_array_index(polls, 3), "polls"), ==, -1);
    rig_free(r);
}

/* The writer alone: a new value ends a run even with nothing between. */
static void test_poll_value_change(void)
{
    FakeHost fh;
    AtalabTraceWriter *w;
    static const uint8_t values[] = { 0x80, 0x80, 0xd0, 0x50, 0x50, 0x50 };
    unsigned i;

    fake_host_init(&fh, true);
    w = atalab_trace_writer_new(&fh.host);
    for (i = 0; i < G_N_ELEMENTS(values); i++) {
        atalab_trace_writer_access(w, &(AtalabTraceAccess) {
            .space = ATALAB_SPACE_ATA, .channel = 1, .dev = 0,
            .offset = 7, .size = 1, .value = values[i], .reg = "Status" });
    }
    /* Another device's Status is another run */
    atalab_trace_writer_access(w, &(AtalabTraceAccess) {
        .space = ATALAB_SPACE_ATA, .channel = 1, .dev = 1, .offset = 7,
        .size = 1, .value = 0x50, .reg = "Status" });
    atalab_trace_writer_free(w);
    g_assert_cmpuint(fh.trace->len, ==, 4);
    g_assert_nonnull(strstr(g_ptr_array_index(fh.trace, 0),
                            " ata1 r 0x7 1 0x80 reg=Status dev=0 seq=0 polls=2 "));
    g_assert_nonnull(strstr(g_ptr_array_index(fh.trace, 1), " 0xd0 "));
    g_assert_null(strstr(g_ptr_array_index(fh.trace, 1), "polls"));
    g_assert_nonnull(strstr(g_ptr_array_index(fh.trace, 2),
                            " 0x50 reg=Status dev=0 seq=0 polls=3 "));
    g_assert_nonnull(strstr(g_ptr_array_index(fh.trace, 3),
                            " 0x50 reg=Status dev=1"));
    fake_host_cleanup(&fh);
}

/* The blocks' sums as a repeat record combines them (FORMAT.md "Repeats"). */
static uint32_t block_sums(const uint8_t *p, unsigned blocks, size_t len)
{
    uint32_t h = 0;
    unsigned i;

    for (i = 0; i < blocks; i++) {
        h = h * 16777619u + fnv1a(p + i * len, len);
    }
    return h;
}

/* A PIO read of n blocks, each polled "extra[i]" extra times. */
static void read_blocks(Rig *r, uint32_t lba, unsigned n, uint8_t *buf,
                        const unsigned *extra)
{
    unsigned i;

    rig_select(r, 0);
    start_read(r, 0, 0x20, lba, n);
    for (i = 0; i < n; i++) {
        poll_drq(r, 0, extra[i]);
        rig_read_data(r, 0, buf + 512 * i, 512, true);
    }
}

static void test_cycles_repeat(void)
{
    static const unsigned same[12] = { 0 }, changed[12] = {
        [7] = 1,
    };
    Rig *r = rig_new(0x1);
    uint8_t buf[512 * 12];
    g_autoptr(GPtrArray) rep = NULL;
    g_autoptr(GPtrArray) data = NULL;
    g_autoptr(GPtrArray) io = NULL;
    const char *rec;
    unsigned i, k, n;

    /*
     * Twelve identical cycles: the first after the cmd is not a cycle, the
     * second is written, the next nine repeat it, the last (no io for a
     * next block, the done) ends the repeat.
     */
    read_blocks(r, 1000, 12, buf, same);
    rep = records_with(r, " repeat ");
    g_assert_cmpuint(rep->len, ==, 1);
    rec = g_ptr_array_index(rep, 0);
    g_assert_nonnull(strstr(rec, " ata0 repeat d0 cycles=9 records="));
    g_assert_cmpint(field(rec, "bytes"), ==, 9 * 512);
    g_assert_cmphex(field(rec, "sums"), ==, block_sums(buf + 2 * 512, 9, 512));
    g_assert_cmpint(field(rec, "seq"), ==, 1);
    g_assert_cmpint(field(rec, "last"), >=, strtoll(rec, NULL, 10));
    data = records_with(r, " data d0 ");
    g_assert_cmpuint(data->len, ==, 3);
    /* the written cycle: its io for the block after it, then its data */
    io = records_with(r, " io d0 read ");
    g_assert_cmpuint(io->len, ==, 3);
    g_assert_cmpint(field(g_ptr_array_index(io, 2), "lba"), ==, 1002);
    g_assert_cmphex(field(g_ptr_array_index(data, 1), "sum"), ==,
                    fnv1a(buf + 512, 512));
    g_assert_cmphex(field(g_ptr_array_index(data, 2), "sum"), ==,
                    fnv1a(buf + 11 * 512, 512));
    /* It repeats the records from the data record before it to its data */
    for (i = 0; record(r, i) != rec; i++) {
    }
    n = field(rec, "records");
    g_assert_cmpuint(n, >=, 3);
    g_assert_nonnull(strstr(record(r, i - 1), " data d0 "));
    g_assert_nonnull(strstr(record(r, i - 1 - n), " data d0 "));
    for (k = i - n; k < i - 1; k++) {
        g_assert_null(strstr(record(r, k), " data d0 "));
    }
    rig_free(r);

    /*
     * An extra poll in block 7: a cycle that differs ends the repeat
     * (blocks 2-6), is written, and so is block 8's, which differs from
     * it; blocks 9 and 10 repeat block 8's.
     */
    r = rig_new(0x1);
    read_blocks(r, 1000, 12, buf, changed);
    g_ptr_array_unref(g_steal_pointer(&rep));
    rep = records_with(r, " repeat ");
    g_assert_cmpuint(rep->len, ==, 2);
    g_assert_nonnull(strstr(g_ptr_array_index(rep, 0), " cycles=5 "));
    g_assert_nonnull(strstr(g_ptr_array_index(rep, 1), " cycles=2 "));
    rig_free(r);
}

/* ---- cycles, on the writer alone ---------------------------------------- */

typedef struct LineSink {
    AtalabHost host;
    GPtrArray *lines;
    int64_t clock;
} LineSink;

static void sink_trace(void *opaque, const char *record)
{
    LineSink *k = opaque;

    g_ptr_array_add(k->lines, g_strdup(record));
}

static int64_t sink_clock(void *opaque)
{
    LineSink *k = opaque;

    return k->clock += 10;
}

static AtalabTraceWriter *sink_writer(LineSink *k)
{
    *k = (LineSink) {
        .host = { .opaque = k, .trace = sink_trace, .clock_ns = sink_clock },
        .lines = g_ptr_array_new_with_free_func(g_free),
    };
    return atalab_trace_writer_new(&k->host);
}

static void sink_record(LineSink *k, AtalabTraceWriter *w, const char *text)
{
    g_autofree char *rec = g_strdup_printf("%" PRId64 " %s",
                                           k->clock += 10, text);

    atalab_trace_writer_record(w, rec);
}

/*
 * One block of a PIO read as the writer sees it: polls Alternate Status
 * alternating BSY and DRQ "polls" times, the backend read of sector lba,
 * the 8-byte block.
 */
static void sink_block(LineSink *k, AtalabTraceWriter *w, int64_t lba,
                       unsigned polls)
{
    g_autofree char *io = g_strdup_printf("ata0 io d0 read lba=%" PRId64
                                          " count=1", lba);
    unsigned i;

    for (i = 0; i < polls; i++) {
        atalab_trace_writer_access(w, &(AtalabTraceAccess) {
            .space = ATALAB_SPACE_CTL, .dev = 0, .size = 1,
            .value = i % 2 ? 0x58 : 0xD0, .reg = "AltStatus" });
    }
    sink_record(k, w, io);
    atalab_trace_writer_data(w, 0, 0, false, 4, lba, 0, 8);
    atalab_trace_writer_data(w, 0, 0, false, 4, ~lba, 4, 8);
}

static unsigned sink_count(LineSink *k, const char *substr)
{
    unsigned i, n = 0;

    for (i = 0; i < k->lines->len; i++) {
        n += strstr(g_ptr_array_index(k->lines, i), substr) != NULL;
    }
    return n;
}

static const char *sink_line(LineSink *k, const char *substr, unsigned nth)
{
    unsigned i;

    for (i = 0; i < k->lines->len; i++) {
        if (strstr(g_ptr_array_index(k->lines, i), substr) && !nth--) {
            return g_ptr_array_index(k->lines, i);
        }
    }
    return "";
}

static void test_cycle_edges(void)
{
    static const int64_t jump[6] = { 1, 2, 3, 9, 10, 11 };
    LineSink k;
    AtalabTraceWriter *w;
    unsigned i;

    /* Six blocks, sectors in order: blocks 2-5 repeat block 1's cycle */
    w = sink_writer(&k);
    sink_record(&k, w, "ata0 cmd d0 0x20 READ_SECTORS lba=0 count=6");
    for (i = 0; i < 6; i++) {
        sink_block(&k, w, i + 1, 2);
    }
    /* a command of the same drive: the repeat keeps its command number */
    sink_record(&k, w, "ata0 cmd d0 0x20 READ_SECTORS lba=6 count=1");
    atalab_trace_writer_free(w);
    g_assert_cmpuint(sink_count(&k, " repeat "), ==, 1);
    g_assert_nonnull(strstr(sink_line(&k, " repeat ", 0),
                            " cycles=4 records=4 bytes=32 "));
    g_assert_cmpint(field(sink_line(&k, " repeat ", 0), "seq"), ==, 1);
    g_ptr_array_unref(k.lines);

    /* A backend read that does not go on from the last: no repeat over it */
    w = sink_writer(&k);
    sink_record(&k, w, "ata0 cmd d0 0x20 READ_SECTORS lba=0 count=6");
    for (i = 0; i < 6; i++) {
        sink_block(&k, w, jump[i], 2);
    }
    atalab_trace_writer_free(w);
    g_assert_cmpuint(sink_count(&k, " repeat "), ==, 2);
    g_assert_nonnull(strstr(sink_line(&k, " repeat ", 0), " cycles=1 "));
    g_assert_nonnull(strstr(sink_line(&k, " repeat ", 1), " cycles=2 "));
    g_assert_nonnull(strstr(sink_line(&k, " io d0 read ", 2), " lba=9 "));
    g_ptr_array_unref(k.lines);

    /* Cycles of 17 records, over the limit: written as they are */
    w = sink_writer(&k);
    sink_record(&k, w, "ata0 cmd d0 0x20 READ_SECTORS lba=0 count=4");
    for (i = 0; i < 4; i++) {
        sink_block(&k, w, i + 1, 15);
    }
    atalab_trace_writer_free(w);
    g_assert_cmpuint(sink_count(&k, " repeat "), ==, 0);
    g_assert_cmpuint(sink_count(&k, "reg=AltStatus"), ==, 4 * 15);
    g_assert_cmpuint(sink_count(&k, " data d0 "), ==, 4);
    g_ptr_array_unref(k.lines);
}

/* ---- PRD runs ------------------------------------------------------------ */

/*
 * A DMA read through a table of six descriptors: four 4 KiB regions at
 * descending addresses, then two of 2 KiB.
 */
static void prd_scenario(Rig *r)
{
    static const uint32_t table = 0x1000, buf = 0x100000;
    unsigned i;

    for (i = 0; i < 4; i++) {
        rig_prd(r, table, i, buf + (3 - i) * 0x1000, 4096, false);
    }
    rig_prd(r, table, 4, buf + 0x8000, 2048, false);
    rig_prd(r, table, 5, buf + 0x9000, 2048, true);
    rig_select(r, 0);
    rig_bm_setup(r, 0, table, true);
    rig_lba28(r, 0, 64, 40);
    rig_command(r, 0, 0xC8);
    rig_bm_start(r, 0, true);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_bm_stop(r, 0);
}

/* The descriptor records a folded "bm prd" record stands for, as raw. */
static void expand_prd(GString *out, const char *rec)
{
    uint32_t at = field(rec, "at"), addr = field(rec, "addr");
    int64_t n = MAX(field(rec, "prds"), 1), step = field(rec, "step");
    int64_t i, eot = field(rec, "eot");

    for (i = 0; i < n; i++) {
        g_string_append_printf(out, "bm prd ch0 at=0x%08x addr=0x%08x len=%"
                               PRId64 " eot=%d dev=0 seq=%" PRId64 "\n",
                               at + 8 * (uint32_t)i,
                               addr + (uint32_t)(step * i),
                               field(rec, "len"), i == n - 1 && eot == 1,
                               field(rec, "seq"));
    }
}

static void test_prd_runs_fold(void)
{
    Rig *fold = rig_new(0x1);
    Rig *raw = rig_new(0x1);
    g_autoptr(GPtrArray) runs = NULL;
    g_autoptr(GPtrArray) each = NULL;
    g_autoptr(GString) expanded = g_string_new(NULL);
    g_autoptr(GString) all = g_string_new(NULL);
    unsigned i;

    atalab_ctrl_set_trace_data(raw->c, ATALAB_TRACE_DATA_RAW);
    prd_scenario(fold);
    prd_scenario(raw);
    runs = records_with(fold, " bm prd ");
    g_assert_cmpuint(runs->len, ==, 2);
    g_assert_nonnull(strstr(g_ptr_array_index(runs, 0),
                            " bm prd ch0 at=0x00001000 addr=0x00103000 "
                            "len=4096 eot=0 dev=0 seq=1 prds=4 step=-4096 "
                            "last="));
    g_assert_nonnull(strstr(g_ptr_array_index(runs, 1),
                            " bm prd ch0 at=0x00001020 addr=0x00108000 "
                            "len=2048 eot=1 dev=0 seq=1 prds=2 step=4096 "
                            "last="));
    each = records_with(raw, " bm prd ");
    g_assert_cmpuint(each->len, ==, 6);
    for (i = 0; i < runs->len; i++) {
        expand_prd(expanded, g_ptr_array_index(runs, i));
    }
    for (i = 0; i < each->len; i++) {
        g_string_append_printf(all, "%s\n",
                               strchr(g_ptr_array_index(each, i), ' ') + 1);
    }
    g_assert_cmpstr(expanded->str, ==, all->str);
    rig_free(fold);
    rig_free(raw);
}

/* ---- folded and raw: the same run, the same events and data ---------- */

static void scenario(Rig *r)
{
    static const unsigned extra[6] = { 0 };
    uint8_t buf[2048], many[512 * 6];
    uint16_t w[256];
    unsigned i;

    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = i ^ 0x5A;
    }
    rig_identify(r, 0, w);
    rig_identify(r, 1, w);
    rig_select(r, 0);
    start_read(r, 0, 0x20, 100, 2);
    poll_drq(r, 0, 4);
    rig_read_data(r, 0, buf, 300, false);
    rig_altstatus(r, 0);
    rig_read_data(r, 0, buf, 212, false);
    poll_drq(r, 0, 1);
    rig_read_data(r, 0, buf, 512, true);
    g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 2), ==, ST_READY);
    rig_lba28(r, 0, 40, 3);
    rig_command(r, 0, 0xC5);
    poll_drq(r, 0, 3);
    rig_write_data(r, 0, buf, 1024, false);
    fake_host_complete_all(&r->fh);
    poll_drq(r, 0, 1);
    rig_write_data(r, 0, buf + 1024, 512, true);
    fake_host_complete_all(&r->fh);
    rig_status(r, 0);
    rig_status(r, 0);
    start_read(r, 2, 0x20, 9, 1);
    poll_drq(r, 1, 2);
    rig_read_data(r, 1, buf, 512, false);
    rig_status(r, 1);
    /* blocks 2-4 repeat block 1's cycle */
    read_blocks(r, 500, 6, many, extra);
}

/* rec with its lba= advanced by add (the io records a repeat repeats) */
static char *advance_lba(const char *rec, int64_t add)
{
    const char *p = strstr(rec, " lba=");
    const char *end;
    int64_t lba;

    if (!p) {
        return g_strdup(rec);
    }
    lba = strtoll(p + 5, (char **)&end, 10);
    return g_strdup_printf("%.*s lba=%" PRId64 "%s", (int)(p - rec), rec,
                           lba + add, end);
}

/* Drop the time field and the fold's own keys. */
static char *event_text(const char *rec)
{
    g_autofree char *s = g_strdup(strchr(rec, ' ') + 1);
    char *p = strstr(s, " polls=");

    if (p) {
        *p = '\0';
    }
    return g_steal_pointer(&s);
}

/* The channel a record belongs to: 0, 1, or -1 for the controller's. */
static int record_channel(const char *rec)
{
    const char *bm = strstr(rec, " bm ");

    if (strstr(rec, " ata0 ") || strstr(rec, " ctl0 ") ||
        strstr(rec, " irq0 ") || strstr(rec, " ch0 ")) {
        return 0;
    }
    if (strstr(rec, " ata1 ") || strstr(rec, " ctl1 ") ||
        strstr(rec, " irq1 ") || strstr(rec, " ch1 ")) {
        return 1;
    }
    if (bm && (bm[4] == 'r' || bm[4] == 'w')) {
        return strtoul(bm + 6, NULL, 16) >= 8;
    }
    return -1;
}

/*
 * The events, channel by channel: each channel's records are in order,
 * the two channels' among each other only outside folds (FORMAT.md).
 */
static void add_event(GString *ev[2], const char *rec)
{
    g_autofree char *text = event_text(rec);
    int ch = record_channel(rec);
    unsigned i;

    for (i = 0; i < 2; i++) {
        if (ch < 0 || ch == (int)i) {
            g_string_append_printf(ev[i], "%s\n", text);
        }
    }
}

static bool is_data_access(const char *rec)
{
    return strstr(rec, " r 0x0 ") && strstr(rec, " reg=Data ");
}

static bool is_data_write(const char *rec)
{
    return strstr(rec, " w 0x0 ") && strstr(rec, " reg=Data ");
}

static void test_folded_equals_raw(void)
{
    Rig *fold = rig_new(0x5 | 0x2);
    Rig *raw = rig_new(0x5 | 0x2);
    GString *ev_fold[2] = { g_string_new(NULL), g_string_new(NULL) };
    GString *ev_raw[2] = { g_string_new(NULL), g_string_new(NULL) };
    GByteArray *bytes[2][2];
    size_t used[2][2] = { { 0 } };
    unsigned i, k, blocks = 0, polls = 0, repeats = 0;
    GPtrArray *cycle[2] = { g_ptr_array_new(), g_ptr_array_new() };
    GPtrArray *cycle_prev[2] = { g_ptr_array_new(), g_ptr_array_new() };

    atalab_ctrl_set_trace_data(raw->c, ATALAB_TRACE_DATA_RAW);
    scenario(fold);
    scenario(raw);
    fake_host_trace_flush(&fold->fh);
    fake_host_trace_flush(&raw->fh);
    for (i = 0; i < 2; i++) {
        for (k = 0; k < 2; k++) {
            bytes[i][k] = g_byte_array_new();
        }
    }
    /* The raw trace: its events, and the data bytes per channel and way */
    for (i = 0; i < raw->fh.trace->len; i++) {
        const char *rec = record(raw, i);
        bool out = is_data_write(rec);

        if (is_data_access(rec) || out) {
            unsigned ch = strstr(rec, " ata1 ") != NULL;
            unsigned size = strtoul(strstr(rec, " 0x0 ") + 5, NULL, 10);
            uint32_t v = strtoul(strstr(rec, " 0x0 ") + 7, NULL, 16);

            for (k = 0; k < size; k++) {
                uint8_t b = v >> (8 * k);

                g_byte_array_append(bytes[ch][out], &b, 1);
            }
            continue;
        }
        g_assert_null(strstr(rec, " polls="));
        add_event(ev_raw, rec);
    }
    /*
     * The folded one: polls expanded, repeats expanded, data checked
     * against the raw bytes
     */
    for (i = 0; i < fold->fh.trace->len; i++) {
        const char *rec = record(fold, i);
        int64_t n = field(rec, "polls");
        int rch = record_channel(rec);

        g_assert_false(is_data_access(rec) || is_data_write(rec));
        if (strstr(rec, " repeat d")) {
            GPtrArray *prev = cycle_prev[rch];
            const char *data = g_ptr_array_index(prev, prev->len - 1);
            bool out = strstr(data, " out ") != NULL;
            size_t len = field(data, "bytes");
            GByteArray *b = bytes[rch][out];
            uint32_t sums = 0;
            int64_t c;

            g_assert_cmpint(field(rec, "records"), ==, prev->len);
            g_assert_cmpint(field(rec, "bytes"), ==,
                            field(rec, "cycles") * len);
            for (c = 1; c <= field(rec, "cycles"); c++) {
                for (k = 0; k + 1 < prev->len; k++) {
                    const char *p = g_ptr_array_index(prev, k);
                    g_autofree char *adv =
                        advance_lba(p, c * MAX(field(p, "count"), 0));
                    int64_t np = field(p, "polls");
                    unsigned j;

                    for (j = 0; j < (np > 0 ? np : 1); j++) {
                        add_event(ev_fold, adv);
                    }
                }
                g_assert_cmpuint(used[rch][out] + len, <=, b->len);
                sums = sums * 16777619u + fnv1a(b->data + used[rch][out], len);
                used[rch][out] += len;
                blocks++;
            }
            g_assert_cmphex(field(rec, "sums"), ==, sums);
            repeats++;
            continue;
        }
        if (rch >= 0) {
            g_ptr_array_add(cycle[rch], (gpointer)rec);
        }
        if (strstr(rec, " data d") && !strstr(rec, " partial=1")) {
            GPtrArray *swap = cycle_prev[rch];

            cycle_prev[rch] = cycle[rch];
            cycle[rch] = swap;
            g_ptr_array_set_size(cycle[rch], 0);
        }
        if (strstr(rec, " data d")) {
            unsigned ch = strstr(rec, " ata1 ") != NULL;
            bool out = strstr(rec, " out ") != NULL;
            size_t len = field(rec, "bytes");
            GByteArray *b = bytes[ch][out];

            g_assert_cmpuint(used[ch][out] + len, <=, b->len);
            g_assert_cmphex(field(rec, "sum"), ==,
                            fnv1a(b->data + used[ch][out], len));
            used[ch][out] += len;
            blocks++;
            continue;
        }
        polls += n > 1;
        for (k = 0; k < (n > 0 ? n : 1); k++) {
            add_event(ev_fold, rec);
        }
    }
    for (i = 0; i < 2; i++) {
        for (k = 0; k < 2; k++) {
            g_assert_cmpuint(used[i][k], ==, bytes[i][k]->len);
            g_byte_array_unref(bytes[i][k]);
        }
    }
    /* identify x2, read 2 blocks (one split), write 2, read on ata1, 6 */
    g_assert_cmpuint(blocks, ==, 14);
    g_assert_cmpuint(repeats, ==, 1);
    g_assert_cmpuint(polls, >=, 4);
    g_assert_cmpuint(fold->fh.trace->len * 4, <, raw->fh.trace->len);
    for (i = 0; i < 2; i++) {
        g_assert_cmpstr(ev_fold[i]->str, ==, ev_raw[i]->str);
        g_assert_nonnull(strstr(ev_raw[i]->str, " cmd d0 0x20 READ_SECTORS"));
        g_string_free(ev_fold[i], TRUE);
        g_string_free(ev_raw[i], TRUE);
        g_ptr_array_unref(cycle[i]);
        g_ptr_array_unref(cycle_prev[i]);
    }
    rig_free(fold);
    rig_free(raw);
}

/* ---- annotations -------------------------------------------------------- */

static void test_sequence_numbers(void)
{
    Rig *r = rig_new(0x3);
    uint16_t w[256];

    rig_identify(r, 0, w);
    rig_identify(r, 0, w);
    rig_identify(r, 1, w);
    g_assert_true(fake_host_trace_has(&r->fh,
                  " ata0 cmd d0 0xec IDENTIFY_DEVICE feature=0x00 "
                  "count=0x01 seq=1"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " ata0 cmd d0 0xec IDENTIFY_DEVICE feature=0x00 "
                  "count=0x01 seq=2"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " ata0 cmd d1 0xec IDENTIFY_DEVICE feature=0x00 "
                  "count=0x01 seq=1"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " ata0 w 0x7 1 0xec reg=Command cmd=IDENTIFY_DEVICE "
                  "dev=1 seq=0"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " ata0 w 0x6 1 0xf0 reg=Device bits=LBA|DEV dev=1 seq=0"));
    g_assert_true(fake_host_trace_has(&r->fh, " ata0 data d1 in bytes=512 "));
    g_assert_true(fake_host_trace_has(&r->fh, " irq0 1 dev=1 seq=1"));
    /* Settings of a position are not a command's */
    g_assert_true(fake_host_trace_has(&r->fh, " ata0 timing d0 bank="));
    g_assert_false(fake_host_trace_has(&r->fh, " seq=0 bank="));
    rig_free(r);
}

static void test_register_decodes(void)
{
    Rig *r = rig_new(0x1);

    rig_select(r, 0);
    rig_nodata(r, 0, 0xEF, 0x99, 0);          /* SET FEATURES: invalid */
    rig_in(r, 0, R_ERROR);
    rig_devctl(r, 0, 0x02);
    atalab_ctrl_config_write(r->c, 0x48, 0x1, 1);
    atalab_ctrl_config_write(r->c, 0x40, 0x80008000, 4);
    atalab_ctrl_config_read(r->c, 0x46, 2);
    atalab_ctrl_bm_write(r->c, 0, 0x08, 1);
    atalab_ctrl_bm_read(r->c, 2, 1);
    g_assert_true(fake_host_trace_has(&r->fh,
                  " ata0 r 0x7 1 0x51 reg=Status bits=DRDY|DSC|ERR dev=0"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " ata0 r 0x1 1 0x04 reg=Error bits=ABRT dev=0 seq=1"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " ctl0 w 0x0 1 0x02 reg=DevCtl bits=nIEN dev=0 seq=1"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " cfg w 0x48 1 0x01 reg=UDMACTL"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " cfg w 0x40 4 0x80008000 reg=IDETIM0+IDETIM1"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " cfg r 0x46 2 0x0000 reg=reserved"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " bm w 0x0 1 0x08 reg=BMICX bits=WR dev=0 seq=1"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  " bm r 0x2 1 0x24 reg=BMISX bits=DMA0|INTR dev=0 seq=1"));
    rig_free(r);
}

static void test_relative_time(void)
{
    Rig *r = rig_new(0x1);
    g_autoptr(GPtrArray) done = NULL;

    atalab_ctrl_set_trace_time(r->c, ATALAB_TRACE_TIME_RELATIVE);
    fake_host_advance(&r->fh, 5000000);
    rig_select(r, 0);
    rig_lba28(r, 0, 100, 1);
    rig_command(r, 0, 0x20);
    fake_host_advance(&r->fh, 1234);
    fake_host_complete_all(&r->fh);
    done = records_with(r, " ata0 cmd d0 0x20 ");
    g_assert_cmpuint(done->len, ==, 1);
    g_assert_true(g_str_has_prefix(g_ptr_array_index(done, 0), "0 "));
    g_ptr_array_unref(done);
    done = records_with(r, " irq0 1 ");
    g_assert_cmpuint(done->len, ==, 1);
    /* The completion came at the host's time now. */
    g_assert_cmpint(strtoll(g_ptr_array_index(done, 0), NULL, 10), ==,
                    r->fh.now - 5000000);
    g_assert_cmpint(r->fh.now - 5000000, >=, 1234);
    rig_free(r);
}

static void test_header(void)
{
    Rig *r = rig_new_full("ich5", 0x5, 2048, true);
    static const char *const extra[] = { "run.driver", "ata_piix", NULL };
    g_autofree char *err = NULL;
    g_autofree char *h = NULL;

    g_assert_true(atalab_faults_add(atalab_ctrl_faults(r->c),
                                    "unc id=bad drive=0 lba=20+8", "test", 1,
                                    &err));
    atalab_faults_set_seed(atalab_ctrl_faults(r->c), 42);
    h = atalab_ctrl_trace_header(r->c, extra);
    g_assert_true(g_str_has_prefix(h, "# atalab-trace 2\n"
                                   "# personality ich5\n"
                                   "# cable0 80\n# cable1 80\n"
                                   "# strict off\n"
                                   "# trace-data block\n"
                                   "# trace-time absolute\n"
                                   "# drive0 sectors=2048\n"));
    g_assert_nonnull(strstr(h, "\n# drive1 absent\n"));
    g_assert_nonnull(strstr(h, "\n# drive2 sectors=2048\n"));
    g_assert_nonnull(strstr(h, "\n# drive0.model "));
    g_assert_nonnull(strstr(h, "\n# fault-seed 42\n"));
    g_assert_nonnull(strstr(h, "\n# fault unc id=bad "));
    g_assert_true(g_str_has_suffix(h, "\n# run.driver ata_piix\n"));
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/trace/pio-read-folds", test_pio_read_folds);
    g_test_add_func("/trace/io-done-order", test_io_done_order);
    g_test_add_func("/trace/partial-block", test_partial_block);
    g_test_add_func("/trace/channels-fold-apart", test_channels_fold_apart);
    g_test_add_func("/trace/pio-write-folds", test_pio_write_folds);
    g_test_add_func("/trace/polls-fold", test_polls_fold);
    g_test_add_func("/trace/poll-value-change", test_poll_value_change);
    g_test_add_func("/trace/cycles-repeat", test_cycles_repeat);
    g_test_add_func("/trace/prd-runs-fold", test_prd_runs_fold);
    g_test_add_func("/trace/cycle-edges", test_cycle_edges);
    g_test_add_func("/trace/folded-equals-raw", test_folded_equals_raw);
    g_test_add_func("/trace/sequence-numbers", test_sequence_numbers);
    g_test_add_func("/trace/register-decodes", test_register_decodes);
    g_test_add_func("/trace/relative-time", test_relative_time);
    g_test_add_func("/trace/header", test_header);
    return g_test_run();
}
