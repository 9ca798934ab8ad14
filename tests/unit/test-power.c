/*
 * atalab unit tests: the Power Management feature set -- power modes,
 * CHECK POWER MODE after each command, the standby timer on the virtual
 * clock, the ATA-3 opcodes, SLEEP and the resets that end it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "rig.h"

#define SEC     1000000000ll

#define PM_STANDBY      0x00
#define PM_IDLE         0x80
#define PM_ACTIVE       0xFF

static uint8_t power_mode(Rig *r, uint8_t opcode)
{
    g_assert_cmphex(rig_nodata(r, 0, opcode, 0, 0x12), ==, ST_READY);
    return rig_in(r, 0, R_COUNT);
}

static void read_one(Rig *r, uint32_t lba)
{
    uint8_t buf[512];

    rig_lba28(r, 0, lba, 1);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_read_data(r, 0, buf, 512, false);
}

/* Each command, and its ATA-3 alias, followed by CHECK POWER MODE. */
static void test_modes_and_aliases(void)
{
    static const struct {
        uint8_t op, alias, mode;
    } cmds[] = {
        { 0xE0, 0x94, PM_STANDBY },     /* STANDBY IMMEDIATE */
        { 0xE1, 0x95, PM_IDLE },        /* IDLE IMMEDIATE */
        { 0xE2, 0x96, PM_STANDBY },     /* STANDBY */
        { 0xE3, 0x97, PM_IDLE },        /* IDLE */
    };
    Rig *r = rig_new(0x1);
    unsigned i;

    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_ACTIVE);
    g_assert_cmphex(power_mode(r, 0x98), ==, PM_ACTIVE);
    for (i = 0; i < G_N_ELEMENTS(cmds); i++) {
        g_assert_cmphex(rig_nodata(r, 0, cmds[i].op, 0, 0), ==, ST_READY);
        g_assert_cmphex(power_mode(r, 0xE5), ==, cmds[i].mode);
        read_one(r, 1);
        g_assert_cmphex(power_mode(r, 0xE5), ==, PM_ACTIVE);
        g_assert_cmphex(rig_nodata(r, 0, cmds[i].alias, 0, 0), ==, ST_READY);
        g_assert_cmphex(power_mode(r, 0x98), ==, cmds[i].mode);
        read_one(r, 1);
    }
    /* A command that does not touch the medium does not spin up. */
    rig_nodata(r, 0, 0xE0, 0, 0);
    rig_nodata(r, 0, 0xEF, 0x02, 0);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_STANDBY);
    rig_free(r);
}

/* IDENTIFY words 82 and 85 bit 3: Power Management supported/enabled. */
static void test_identify_bits(void)
{
    Rig *r = rig_new(0x1);
    uint16_t w[256];

    rig_identify(r, 0, w);
    g_assert_true(w[82] & (1 << 3));
    g_assert_true(w[85] & (1 << 3));
    rig_free(r);
}

/*
 * STANDBY/IDLE with a Count set the standby timer (ATA-7 vol. 1,
 * "Automatic Standby timer periods"); it runs on the virtual clock, any
 * command restarts it, and an idle drive goes to Standby when it expires.
 */
static void test_standby_timer(void)
{
    Rig *r = rig_new(0x1);

    /* IDLE, count 2: 10 s */
    g_assert_cmphex(rig_nodata(r, 0, 0xE3, 0, 2), ==, ST_READY);
    fake_host_advance(&r->fh, 9 * SEC);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_IDLE);
    /* That command restarted the timer: 9 s more is not enough */
    fake_host_advance(&r->fh, 9 * SEC);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_IDLE);
    fake_host_advance(&r->fh, 10 * SEC + 1);
    g_assert_true(fake_host_trace_has(&r->fh, "standby-timer d0 expired"));
    /* the timer's firing is a record of its own (replay delivers it) */
    g_assert_true(fake_host_trace_has(&r->fh, " ata0 timer d0 standby "));
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_STANDBY);
    /* A read spins up; the timer then brings it down again. */
    read_one(r, 3);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_ACTIVE);
    fake_host_advance(&r->fh, 11 * SEC);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_STANDBY);
    /* STANDBY, count 0: timer off */
    read_one(r, 3);
    g_assert_cmphex(rig_nodata(r, 0, 0xE2, 0, 0), ==, ST_READY);
    read_one(r, 3);
    fake_host_advance(&r->fh, 3600 * SEC);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_ACTIVE);
    /* 241: 30 minutes; 255: 21 min 15 s */
    g_assert_cmphex(rig_nodata(r, 0, 0x97, 0, 241), ==, ST_READY);
    g_assert_true(fake_host_trace_has(&r->fh, "count=241 period=1800000ms"));
    fake_host_advance(&r->fh, 1799 * SEC);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_IDLE);
    g_assert_cmphex(rig_nodata(r, 0, 0xE3, 0, 255), ==, ST_READY);
    g_assert_true(fake_host_trace_has(&r->fh, "count=255 period=1275000ms"));
    fake_host_advance(&r->fh, 1275 * SEC + 1);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_STANDBY);
    /* A hardware reset turns the timer off */
    g_assert_cmphex(rig_nodata(r, 0, 0xE3, 0, 1), ==, ST_READY);
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    fake_host_advance(&r->fh, 60 * SEC);
    g_assert_cmphex(power_mode(r, 0xE5), ==, PM_ACTIVE);
    rig_free(r);
}

/* SLEEP: ignored commands until a reset; after it the drive is in Standby. */
static void test_sleep(void)
{
    Rig *r = rig_new(0x1);
    unsigned op;

    for (op = 0; op < 3; op++) {
        g_assert_cmphex(rig_nodata(r, 0, op == 1 ? 0x99 : 0xE6, 0, 0), ==,
                        ST_READY);
        rig_select(r, 0);
        rig_command(r, 0, 0xE5);
        g_assert_false(r->fh.irq[0]);
        g_assert_true(fake_host_trace_has(&r->fh, "ignored d0 sleeping"));
        if (op == 2) {
            atalab_ctrl_reset(r->c);
            atalab_ctrl_firmware_init(r->c);
        } else {
            rig_srst(r, 0);
        }
        g_assert_cmphex(power_mode(r, 0xE5), ==, PM_STANDBY);
        read_one(r, 0);
        fake_host_trace_clear(&r->fh);
    }
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/power/modes-and-aliases", test_modes_and_aliases);
    g_test_add_func("/power/identify-bits", test_identify_bits);
    g_test_add_func("/power/standby-timer", test_standby_timer);
    g_test_add_func("/power/sleep", test_sleep);
    return g_test_run();
}
