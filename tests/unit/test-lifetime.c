/*
 * atalab unit tests: request lifetime -- at most one backend request per
 * drive whatever the guest does, abandoned requests (drained, or held with
 * the drive busy), ordering of an abandoned write against later writes and
 * FLUSH CACHE, out-of-order completions across drives, re-entrant guest
 * memory accesses, and both devices of a channel in DMA phase.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

#define PRDT        0x1000
#define BUF         0x100000

static void fill(Rig *r, uint64_t addr, size_t len, uint8_t v)
{
    memset(r->fh.ram + addr, v, len);
}

static bool disk_is(Rig *r, unsigned drive, uint64_t lba, size_t len,
                    uint8_t v)
{
    size_t i;

    for (i = 0; i < len; i++) {
        if (r->fh.disk[drive][lba * 512 + i] != v) {
            return false;
        }
    }
    return true;
}

/* Issue a DMA command on drive 0 and start the engine. */
static void dma_go(Rig *r, uint8_t cmd, uint32_t lba, unsigned count)
{
    bool to_memory = cmd == 0xC8;

    rig_bm_setup(r, 0, PRDT, to_memory);
    rig_lba28(r, 0, lba, count);
    rig_command(r, 0, cmd);
    rig_bm_start(r, 0, to_memory);
}

/*
 * Held mode (no drain): a guest that aborts in a loop -- bus-master stop,
 * SRST, EXECUTE DEVICE DIAGNOSTIC, hardware reset -- never has more than
 * one request per drive with the backend, however slow the backend is.
 */
static void test_abort_loop_bound(void)
{
    Rig *r = rig_new(0x3);
    unsigned i;

    r->fh.drain = false;
    rig_prd(r, PRDT, 0, BUF, 0, true);
    for (i = 0; i < 2000; i++) {
        dma_go(r, i % 2 ? 0xCA : 0xC8, i % 64, 128);
        switch (i % 4) {
        case 0:
            rig_bm_stop(r, 0);
            break;
        case 1:
            rig_srst(r, 0);
            break;
        case 2:
            rig_select(r, 0);
            rig_command(r, 0, 0x90);
            break;
        case 3:
            atalab_ctrl_reset(r->c);
            atalab_ctrl_firmware_init(r->c);
            break;
        }
        rig_bm_stop(r, 0);
        /* The backend is slow: it finishes one request in four rounds. */
        if (i % 4 == 3) {
            fake_host_complete_one(&r->fh);
        }
        g_assert_cmpuint(fake_host_pending(&r->fh), <=, 2);
        g_assert_cmpuint(atalab_ctrl_inflight(r->c, 0), <=, 1);
    }
    g_assert_cmpuint(r->fh.max_inflight[0], ==, 1);
    g_assert_cmpuint(r->fh.max_inflight[1], ==, 0);
    /* Most rounds found the drive still busy with its abandoned request. */
    g_assert_cmpuint(fake_host_trace_count(&r->fh, "ignored d0 busy"), >,
                     1000);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_altstatus(r, 0) & ST_BSY, ==, 0);
    rig_free(r);
}

/* The same loop with a host that drains: every abort finishes at once. */
static void test_abort_loop_drained(void)
{
    Rig *r = rig_new(0x1);
    unsigned i;

    rig_prd(r, PRDT, 0, BUF, 0, true);
    for (i = 0; i < 500; i++) {
        dma_go(r, i % 2 ? 0xCA : 0xC8, i % 64, 128);
        g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
        if (i % 2) {
            rig_bm_stop(r, 0);
            rig_srst(r, 0);
        } else {
            rig_srst(r, 0);
            rig_bm_stop(r, 0);
        }
        g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
        g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    }
    g_assert_cmpuint(r->fh.drains, ==, 500);
    g_assert_cmpuint(r->fh.max_inflight[0], ==, 1);
    rig_free(r);
}

/*
 * An abandoned DMA write (bus master stopped while it is with the backend,
 * then SRST) must not be overtaken by a later write to the same sectors:
 * the later write can only be issued once the abandoned one is done.
 */
static void test_abandoned_write_ordering(void)
{
    Rig *r = rig_new(0x1);
    uint8_t b[512];

    r->fh.drain = false;
    rig_prd(r, PRDT, 0, BUF, 512, true);
    fill(r, BUF, 512, 0xAA);
    dma_go(r, 0xCA, 10, 1);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    rig_bm_stop(r, 0);
    rig_srst(r, 0);
    /* Busy until the abandoned write is done: the new write is refused. */
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY);
    rig_lba28(r, 0, 10, 1);
    rig_command(r, 0, 0x30);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "ignored d0 busy"));
    /* Once it lands, the later write goes out and wins. */
    g_assert_true(fake_host_complete_one(&r->fh));
    g_assert_true(disk_is(r, 0, 10, 512, 0xAA));
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_lba28(r, 0, 10, 1);
    rig_command(r, 0, 0x30);
    memset(b, 0xBB, sizeof(b));
    rig_write_data(r, 0, b, 512, false);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    fake_host_complete_all(&r->fh);
    g_assert_true(disk_is(r, 0, 10, 512, 0xBB));
    g_assert_cmpstr(r->fh.log->str, ==, "write0 write0 irq0=1 ");
    rig_free(r);
}

/* FLUSH CACHE after an abandoned write covers it: write, then flush. */
static void test_abandoned_write_flush(void)
{
    Rig *r = rig_new(0x1);

    r->fh.drain = false;
    rig_prd(r, PRDT, 0, BUF, 0, true);
    fill(r, BUF, 65536, 0xCC);
    dma_go(r, 0xCA, 0, 128);
    rig_srst(r, 0);
    rig_select(r, 0);
    rig_command(r, 0, 0xE7);
    g_assert_cmpuint(r->fh.flushes, ==, 0);
    fake_host_complete_one(&r->fh);
    rig_select(r, 0);
    rig_command(r, 0, 0xE7);
    g_assert_cmpuint(r->fh.flushes, ==, 1);
    fake_host_complete_all(&r->fh);
    g_assert_cmpstr(r->fh.log->str, ==, "write0 flush0 irq0=1 ");
    g_assert_true(disk_is(r, 0, 0, 65536, 0xCC));
    rig_free(r);
}

/* Disk contents after each kind of aborted write. */
static void test_aborted_write_contents(void)
{
    Rig *r = rig_new(0x1);
    uint8_t b[512];

    memset(b, 0x11, sizeof(b));
    /* PIO: SRST before the block is complete: nothing is written. */
    rig_lba28(r, 0, 20, 1);
    rig_command(r, 0, 0x30);
    rig_write_data(r, 0, b, 256, false);
    rig_srst(r, 0);
    fake_host_complete_all(&r->fh);
    g_assert_cmpuint(r->fh.writes, ==, 0);
    g_assert_true(rig_ram_matches_disk(r, 0, 0, 0, 0));
    g_assert_cmphex(r->fh.disk[0][20 * 512], ==, fake_pattern(0, 20 * 512));
    /* DMA: engine stopped before any data moved: nothing is written. */
    rig_prd(r, PRDT, 0, BUF, 512, true);
    fill(r, BUF, 512, 0x22);
    rig_bm_setup(r, 0, PRDT, false);
    rig_lba28(r, 0, 21, 1);
    rig_command(r, 0, 0xCA);
    rig_srst(r, 0);
    rig_bm_start(r, 0, false);
    rig_bm_stop(r, 0);
    fake_host_complete_all(&r->fh);
    g_assert_cmpuint(r->fh.writes, ==, 0);
    /* DMA: SRST once the write is with the backend: it lands whole. */
    dma_go(r, 0xCA, 22, 1);
    rig_srst(r, 0);
    g_assert_cmpuint(r->fh.writes, ==, 1);
    g_assert_true(disk_is(r, 0, 22, 512, 0x22));
    rig_free(r);
}

/* Two drives' requests completing in the opposite order. */
static void test_out_of_order_drives(void)
{
    Rig *r = rig_new(0x5);
    uint8_t a[1024], b[1024];

    rig_lba28(r, 0, 5, 2);
    rig_command(r, 0, 0x20);
    rig_lba28(r, 2, 7, 2);
    rig_command(r, 2, 0x20);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 2);
    g_assert_true(fake_host_complete_nth(&r->fh, 1));
    g_assert_true(r->fh.irq[1]);
    g_assert_false(r->fh.irq[0]);
    g_assert_true(fake_host_complete_nth(&r->fh, 0));
    g_assert_true(r->fh.irq[0]);
    rig_read_data(r, 1, b, 512, false);
    rig_read_data(r, 0, a, 512, false);
    fake_host_complete_all(&r->fh);
    rig_read_data(r, 1, b + 512, 512, false);
    rig_read_data(r, 0, a + 512, 512, false);
    g_assert_cmpmem(a, 1024, r->fh.disk[0] + 5 * 512, 1024);
    g_assert_cmpmem(b, 1024, r->fh.disk[2] + 7 * 512, 1024);
    rig_free(r);
}

/* Held mode: SRST, diagnostic and hardware reset wait for the request. */
static void test_held_resets(void)
{
    Rig *r = rig_new(0x3);
    uint8_t buf[512];

    r->fh.drain = false;
    /* SRST: BSY after the release, then the signature */
    rig_lba28(r, 0, 3, 1);
    rig_command(r, 0, 0x20);
    rig_srst(r, 0);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY);
    fake_host_complete_all(&r->fh);
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 stale d0 read lba=3"));
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 1);
    /* The drive works again */
    rig_lba28(r, 0, 9, 1);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_read_data(r, 0, buf, 512, false);
    g_assert_cmpmem(buf, 512, r->fh.disk[0] + 9 * 512, 512);

    /*
     * Diagnostic while device 1's DMA chunk is with the backend (device 1
     * shows DRQ, so device 0 can be selected): both devices busy until it
     * is done, then device 0 interrupts.
     */
    rig_prd(r, PRDT, 0, BUF, 512, true);
    rig_bm_setup(r, 0, PRDT, true);
    rig_lba28(r, 1, 3, 1);
    rig_command(r, 1, 0xC8);
    rig_bm_start(r, 0, true);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    rig_select(r, 0);
    rig_command(r, 0, 0x90);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY);
    g_assert_false(r->fh.irq[0]);
    fake_host_complete_all(&r->fh);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x01);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);

    /* Hardware reset */
    rig_lba28(r, 0, 4, 1);
    rig_command(r, 0, 0x20);
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_false(r->fh.irq[0]);
    rig_free(r);
}

/* ---- re-entrant guest memory accesses --------------------------------- */

typedef struct Reenter {
    Rig *r;
    unsigned what;              /* which register access to make */
    unsigned fired;
} Reenter;

static void reenter(void *opaque, uint64_t addr, bool write)
{
    Reenter *re = opaque;
    Rig *r = re->r;

    if (re->fired++) {
        return;
    }
    switch (re->what) {
    case 0:
        rig_bm_stop(r, 0);
        break;
    case 1:
        rig_srst(r, 0);
        break;
    case 2:
        atalab_ctrl_reset(r->c);
        break;
    case 3:
        /* Stop and restart with the same table */
        rig_bm_stop(r, 0);
        rig_bm_start(r, 0, true);
        break;
    case 4:
        rig_select(r, 0);
        rig_command(r, 0, 0x90);
        break;
    }
}

/*
 * A bus-master transfer that reaches the device's own registers (MMCONFIG,
 * say) in the middle of a DMA command: whatever the access does, the
 * engine and the drive notice, nothing underflows or is used after it
 * changed, and the drive is usable after a reset.
 */
static void test_reentrant_dma(void)
{
    unsigned what, dir;

    for (what = 0; what < 5; what++) {
        for (dir = 0; dir < 2; dir++) {
            Rig *r = rig_new(0x1);
            Reenter re = { .r = r, .what = what };
            uint8_t cmd = dir ? 0xCA : 0xC8;

            r->fh.zero_copy = false;    /* copies go through dma_* */
            rig_prd(r, PRDT, 0, BUF, 0x4000, false);
            rig_prd(r, PRDT, 1, BUF + 0x10000, 0x4000, true);
            r->fh.on_dma = reenter;
            r->fh.on_dma_opaque = &re;
            dma_go(r, cmd, 0, 64);
            fake_host_complete_all(&r->fh);
            r->fh.on_dma = NULL;
            g_assert_cmpuint(re.fired, >, 0);
            g_assert_cmpuint(r->fh.max_inflight[0], <=, 1);
            /* Afterwards the drive still works. */
            rig_bm_stop(r, 0);
            rig_srst(r, 0);
            dma_go(r, 0xC8, 0, 64);
            fake_host_complete_all(&r->fh);
            g_assert_true(rig_ram_matches_disk(r, BUF, 0, 0, 0x4000));
            g_assert_true(rig_ram_matches_disk(r, BUF + 0x10000, 0, 0x4000,
                                               0x4000));
            rig_free(r);
        }
    }
}

/*
 * Both devices of a channel in DMA phase (a guest bug): the engine serves
 * the first command; the other waits for a bus-master start after the
 * first has ended, and then runs from the new table.
 */
static void test_both_devices_dma(void)
{
    Rig *r = rig_new(0x3);

    rig_prd(r, PRDT, 0, BUF, 1024, true);
    rig_prd(r, PRDT + 0x100, 0, BUF + 0x10000, 1024, true);
    rig_bm_setup(r, 0, PRDT, true);
    rig_lba28(r, 0, 30, 2);
    rig_command(r, 0, 0xC8);
    rig_lba28(r, 1, 40, 2);
    rig_command(r, 1, 0xC8);
    g_assert_true(fake_host_trace_has(&r->fh, "dma-wait d1 other=d0"));
    rig_bm_start(r, 0, true);
    fake_host_complete_all(&r->fh);
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 30 * 512, 1024));
    g_assert_cmpuint(r->fh.reads, ==, 1);
    /* Device 1 is selected and has no interrupt yet; device 0 has one. */
    g_assert_false(r->fh.irq[0]);
    rig_select(r, 0);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    /* Device 1 still waits, with DRQ */
    rig_select(r, 1);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY | ST_DRQ);
    rig_bm_stop(r, 0);
    rig_bm_setup(r, 0, PRDT + 0x100, true);
    rig_bm_start(r, 0, true);
    fake_host_complete_all(&r->fh);
    g_assert_true(rig_ram_matches_disk(r, BUF + 0x10000, 1, 40 * 512, 1024));
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmpuint(r->fh.max_inflight[0], ==, 1);
    g_assert_cmpuint(r->fh.max_inflight[1], ==, 1);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/lifetime/abort-loop-bound", test_abort_loop_bound);
    g_test_add_func("/lifetime/abort-loop-drained", test_abort_loop_drained);
    g_test_add_func("/lifetime/abandoned-write-ordering",
                    test_abandoned_write_ordering);
    g_test_add_func("/lifetime/abandoned-write-flush",
                    test_abandoned_write_flush);
    g_test_add_func("/lifetime/aborted-write-contents",
                    test_aborted_write_contents);
    g_test_add_func("/lifetime/out-of-order-drives",
                    test_out_of_order_drives);
    g_test_add_func("/lifetime/held-resets", test_held_resets);
    g_test_add_func("/lifetime/reentrant-dma", test_reentrant_dma);
    g_test_add_func("/lifetime/both-devices-dma", test_both_devices_dma);
    return g_test_run();
}
