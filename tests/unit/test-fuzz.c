/*
 * atalab unit tests: random register traffic, PRD tables and completions
 * with a fixed seed.  Run under ASan/UBSan: it must not crash, leak or
 * read freed memory, and a few invariants must hold throughout.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

#define STEPS       40000

/* Commands worth hitting often; anything else is random. */
static const uint8_t cmds[] = {
    0x20, 0x24, 0x29, 0x30, 0x34, 0x39, 0x25, 0x35, 0x40, 0x42, 0x90, 0x91,
    0xC4, 0xC5, 0xC6, 0xC8, 0xCA, 0xE0, 0xE1, 0xE5, 0xE6, 0xE7, 0xEA, 0xEC,
    0xEF,
};

static uint32_t random_prd_table(Rig *r, GRand *g)
{
    uint32_t table = g_rand_int_range(g, 0, 0x4000) * 0x100;
    unsigned n = g_rand_int_range(g, 1, 8);
    unsigned i;

    if (table + 8 * n > FAKE_RAM_SIZE) {
        table = 0;
    }
    for (i = 0; i < n; i++) {
        uint32_t addr = g_rand_int(g);

        if (g_rand_boolean(g)) {
            addr %= FAKE_RAM_SIZE;
        }
        uint32_t len = g_rand_int_range(g, 0, 0x10000);

        rig_prd(r, table, i, addr, len, i == n - 1 && g_rand_int(g) % 8);
    }
    return table;
}

/* What a driver does for a DMA command, with random parameters. */
static void dma_sequence(Rig *r, GRand *g, unsigned ch)
{
    static const uint8_t dma_cmds[] = { 0xC8, 0xCA, 0x25, 0x35 };
    uint8_t cmd = dma_cmds[g_rand_int_range(g, 0, 4)];
    bool to_memory = cmd == 0xC8 || cmd == 0x25;
    unsigned drive = ch * 2 + g_rand_int_range(g, 0, 2);
    unsigned count = g_rand_int_range(g, 0, 300);
    uint32_t lba = g_rand_int_range(g, 0, RIG_SECTORS);

    rig_bm_stop(r, ch);
    rig_status(r, ch);
    atalab_ctrl_bm_write(r->c, ch * 8 + 4, random_prd_table(r, g), 4);
    atalab_ctrl_bm_write(r->c, ch * 8 + 2, 0x06, 1);
    atalab_ctrl_bm_write(r->c, ch * 8, to_memory ? 0x08 : 0, 1);
    if (cmd == 0x25 || cmd == 0x35) {
        rig_lba48(r, drive, lba, count);
    } else {
        rig_lba28(r, drive, lba, count);
    }
    rig_command(r, drive, cmd);
    rig_bm_start(r, ch, to_memory);
    while (g_rand_int_range(g, 0, 4) && fake_host_complete_one(&r->fh)) {
        /* run some of the transfer */
    }
}

static void step(Rig *r, GRand *g)
{
    unsigned ch = g_rand_int_range(g, 0, 2);
    unsigned sizes[] = { 1, 2, 4 };
    unsigned size = sizes[g_rand_int_range(g, 0, 3)];

    switch (g_rand_int_range(g, 0, 20)) {
    case 0:
    case 1:
        fake_host_complete_one(&r->fh);
        break;
    case 2:
        r->fh.fail_ret = g_rand_int_range(g, 0, 8) ? 0 : -5;
        fake_host_complete_one(&r->fh);
        break;
    case 3:
        rig_lba28(r, ch * 2 + g_rand_int_range(g, 0, 2),
                  g_rand_int_range(g, 0, RIG_SECTORS + 16),
                  g_rand_int_range(g, 0, 40));
        break;
    case 4:
        rig_lba48(r, ch * 2 + g_rand_int_range(g, 0, 2),
                  g_rand_int_range(g, 0, RIG_SECTORS + 16),
                  g_rand_int_range(g, 0, 3000));
        break;
    case 5:
    case 6:
        rig_out(r, ch, R_COMMAND, g_rand_int_range(g, 0, 4) ?
                cmds[g_rand_int_range(g, 0, G_N_ELEMENTS(cmds))] :
                g_rand_int_range(g, 0, 256));
        break;
    case 7:
        atalab_ctrl_cmd_write(r->c, ch, g_rand_int_range(g, 0, 8),
                              g_rand_int(g), 1);
        break;
    case 8:
        atalab_ctrl_cmd_read(r->c, ch, g_rand_int_range(g, 1, 8), 1);
        break;
    case 9: {
        unsigned i, n = g_rand_int_range(g, 1, 300);

        for (i = 0; i < n; i++) {
            atalab_ctrl_cmd_read(r->c, ch, R_DATA, g_rand_boolean(g) ? 2 : 4);
        }
        break;
    }
    case 10: {
        unsigned i, n = g_rand_int_range(g, 1, 300);

        for (i = 0; i < n; i++) {
            atalab_ctrl_cmd_write(r->c, ch, R_DATA, g_rand_int(g),
                                  g_rand_boolean(g) ? 2 : 4);
        }
        break;
    }
    case 11: {
        static const uint8_t ctl[] = { 0x00, 0x02, 0x08, 0x80, 0x04 };
        unsigned i = g_rand_int_range(g, 0, G_N_ELEMENTS(ctl));

        atalab_ctrl_ctl_write(r->c, ch, g_rand_int_range(g, 0, 16) ?
                              ctl[i] : g_rand_int_range(g, 0, 256));
        break;
    }
    case 12:
        atalab_ctrl_ctl_read(r->c, ch);
        break;
    case 13:
        atalab_ctrl_bm_write(r->c, ch * 8 + 4, random_prd_table(r, g), 4);
        break;
    case 14:
    case 15:
        atalab_ctrl_bm_write(r->c, g_rand_int_range(g, 0, 18),
                             g_rand_int(g) & (g_rand_boolean(g) ? 0x09 : ~0u),
                             size);
        break;
    case 16:
        atalab_ctrl_bm_read(r->c, g_rand_int_range(g, 0, 18), size);
        break;
    case 17:
        atalab_ctrl_config_write(r->c, g_rand_int_range(g, 0x38, 0x100),
                                 g_rand_int(g), size);
        atalab_ctrl_config_read(r->c, g_rand_int_range(g, 0x38, 0x100),
                                size);
        break;
    case 18:
        if (g_rand_int_range(g, 0, 200) == 0) {
            atalab_ctrl_reset(r->c);
            atalab_ctrl_firmware_init(r->c);
        }
        break;
    case 19:
        if (g_rand_int_range(g, 0, 8) == 0) {
            fake_host_trace_clear(&r->fh);
        }
        dma_sequence(r, g, ch);
        break;
    }
}

static void run(guint32 seed, unsigned drive_mask, bool tracing)
{
    Rig *r = rig_new_full("piix4", drive_mask, 0, tracing);
    GRand *g = g_rand_new_with_seed(seed);
    unsigned i, ch;

    for (i = 0; i < STEPS; i++) {
        step(r, g);
        for (ch = 0; ch < 2; ch++) {
            g_assert(atalab_ctrl_irq_level(r->c, ch) == r->fh.irq[ch]);
            /* Simplex bit and reserved bits always read 0 */
            g_assert_cmphex(atalab_ctrl_bm_read(r->c, ch * 8 + 2, 1) & 0x98,
                            ==, 0);
            g_assert_cmphex(atalab_ctrl_bm_read(r->c, ch * 8 + 4, 1) & 3,
                            ==, 0);
        }
        g_assert_cmpuint(fake_host_pending(&r->fh), <, 64);
    }
    g_test_message("seed %u: %u reads, %u writes, %u flushes, "
                   "%u failed guest memory accesses", seed, r->fh.reads,
                   r->fh.writes, r->fh.flushes, r->fh.dma_failures);
    /* The run must have reached the backend and the bus master. */
    g_assert_cmpuint(r->fh.reads + r->fh.writes, >, 100);
    g_assert_cmpuint(r->fh.dma_failures, >, 0);
    g_rand_free(g);
    rig_free(r);
}

static void test_fuzz_all(void)
{
    run(0xA7A1AB, 0xF, true);
}

static void test_fuzz_partial(void)
{
    run(0x5EED, 0x5, false);
}

static void test_fuzz_master_only(void)
{
    run(12345, 0x1, true);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/fuzz/four-drives", test_fuzz_all);
    g_test_add_func("/fuzz/masters-only", test_fuzz_partial);
    g_test_add_func("/fuzz/one-drive", test_fuzz_master_only);
    return g_test_run();
}
