/*
 * atalab unit tests: the fake host's own checks (tests/host/fake-host.h),
 * which the unit tests and the core fuzzer rely on to catch a core that
 * loses or reorders writes: a write landing over a newer one, a flush
 * completing ahead of a write issued before it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "fake-host.h"

static unsigned done_count;

static void done(void *opaque, int ret)
{
    g_assert_cmpint(ret, ==, 0);
    done_count++;
}

static void write_sector(FakeHost *fh, uint64_t lba, uint8_t *buf)
{
    AtalabIoVec iov = { .base = buf, .len = 512 };

    fh->host.blk_writev(fh->host.opaque, 0, lba * 512, &iov, 1, false, done,
                        NULL);
}

static void flush(FakeHost *fh)
{
    fh->host.blk_flush(fh->host.opaque, 0, done, NULL);
}

/* order: which pending request to complete first (0: the oldest). */
static void run(const char *what)
{
    static uint8_t a[512], b[512];
    FakeHost fh;

    memset(a, 0xAA, sizeof(a));
    memset(b, 0xBB, sizeof(b));
    fake_host_init(&fh, false);
    fake_host_add_disk(&fh, 0, 64);
    done_count = 0;
    if (!strcmp(what, "in-order")) {
        write_sector(&fh, 5, a);
        write_sector(&fh, 5, b);
        flush(&fh);
        g_assert_cmpuint(fake_host_complete_all(&fh), ==, 3);
        g_assert_cmphex(fh.disk[0][5 * 512], ==, 0xBB);
    } else if (!strcmp(what, "newer-first")) {
        write_sector(&fh, 5, a);
        write_sector(&fh, 5, b);
        fake_host_complete_nth(&fh, 1);     /* b lands */
        fake_host_complete_nth(&fh, 0);     /* a over it: data lost */
    } else if (!strcmp(what, "other-sectors")) {
        write_sector(&fh, 5, a);
        write_sector(&fh, 6, b);
        fake_host_complete_nth(&fh, 1);     /* no overlap: fine */
        fake_host_complete_nth(&fh, 0);
        g_assert_cmpuint(done_count, ==, 2);
    } else if (!strcmp(what, "flush-first")) {
        write_sector(&fh, 5, a);
        flush(&fh);
        fake_host_complete_nth(&fh, 1);     /* the flush, write pending */
    }
    fake_host_cleanup(&fh);
}

static void test_order(void)
{
    if (g_test_subprocess()) {
        run(g_getenv("FAKE_HOST_CASE"));
        return;
    }
    g_setenv("FAKE_HOST_CASE", "in-order", TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed();
    g_setenv("FAKE_HOST_CASE", "other-sectors", TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed();
    g_setenv("FAKE_HOST_CASE", "newer-first", TRUE);
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*write 1 landed over write 2, issued after it*");
    g_setenv("FAKE_HOST_CASE", "flush-first", TRUE);
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*a flush completed before write 1*");
}

/* A reset host is a fresh one, its disk back to the pattern. */
static void test_reset(void)
{
    static uint8_t a[512];
    FakeHost fh;

    memset(a, 0xAA, sizeof(a));
    fake_host_init(&fh, true);
    fake_host_add_disk(&fh, 0, 64);
    write_sector(&fh, 7, a);
    fake_host_complete_all(&fh);
    fh.ram[100] = 1;
    g_assert_cmphex(fh.disk[0][7 * 512], ==, 0xAA);
    fake_host_reset(&fh, false);
    g_assert_cmphex(fh.disk[0][7 * 512], ==, fake_pattern(0, 7 * 512));
    g_assert_cmphex(fh.disk[0][7 * 512 + 3], ==, fake_pattern(0, 7 * 512 + 3));
    g_assert_cmphex(fh.ram[100], ==, 0);
    g_assert_cmpuint(fh.writes, ==, 0);
    g_assert_null(fh.host.trace);
    /* the write numbers start again: the first write is 1 */
    write_sector(&fh, 7, a);
    write_sector(&fh, 7, a);
    g_assert_cmpuint(fake_host_peek_nth(&fh, 0)->seq, ==, 1);
    fake_host_complete_all(&fh);
    fake_host_cleanup(&fh);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/host/write-order", test_order);
    g_test_add_func("/host/reset", test_reset);
    return g_test_run();
}
