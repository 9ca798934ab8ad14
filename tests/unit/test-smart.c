/*
 * atalab unit tests: SMART (data, thresholds, status, enable/disable,
 * self-tests and their logs), READ LOG EXT with the general purpose log
 * directory, and the Host Protected Area (READ NATIVE MAX / SET MAX).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

#define SEC     1000000000ll
#define ABRT    0x04
#define IDNF    0x10

/* Issue SMART subcommand feature with LBA low/count; the right key. */
static void smart(Rig *r, uint8_t feature, uint8_t lbal, uint8_t count)
{
    rig_select(r, 0);
    rig_out(r, 0, R_FEATURE, feature);
    rig_out(r, 0, R_COUNT, count);
    rig_out(r, 0, R_LBAL, lbal);
    rig_out(r, 0, R_LBAM, 0x4F);
    rig_out(r, 0, R_LBAH, 0xC2);
    rig_command(r, 0, 0xB0);
}

static uint8_t sum512(const uint8_t *b)
{
    uint8_t s = 0;
    unsigned i;

    for (i = 0; i < 512; i++) {
        s += b[i];
    }
    return s;
}

/* Read n data-in blocks of the command just issued. */
static void read_blocks(Rig *r, uint8_t *buf, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        g_assert_true(r->fh.irq[0]);
        g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
        rig_read_data(r, 0, buf + 512 * i, 512, false);
    }
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
}

static void assert_aborted(Rig *r)
{
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_ERR);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ABRT);
}

static const uint8_t *attr(const uint8_t *data, uint8_t id)
{
    unsigned i;

    for (i = 0; i < 30; i++) {
        if (data[2 + 12 * i] == id) {
            return data + 2 + 12 * i;
        }
    }
    return NULL;
}

static void test_smart_data(void)
{
    Rig *r = rig_new(0x1);
    uint8_t data[512], thr[512];
    uint16_t w[256];
    unsigned i, n = 0;

    rig_identify(r, 0, w);
    g_assert_true(w[82] & 1);                   /* SMART supported */
    g_assert_true(w[85] & 1);                   /* and enabled */
    g_assert_cmphex(w[84] & 0x23, ==, 0x23);    /* logs, self-test, GPL */
    g_assert_cmphex(w[87] & 0x23, ==, 0x23);
    fake_host_advance(&r->fh, 7200 * SEC + 5);
    smart(r, 0xD0, 0, 1);
    read_blocks(r, data, 1);
    smart(r, 0xD1, 0, 1);
    read_blocks(r, thr, 1);
    g_assert_cmphex(sum512(data), ==, 0);
    g_assert_cmphex(sum512(thr), ==, 0);
    g_assert_cmphex(data[0] | data[1] << 8, ==, 0x0010);
    /* Every attribute is above its threshold */
    for (i = 0; i < 30; i++) {
        const uint8_t *a = data + 2 + 12 * i;
        const uint8_t *t = thr + 2 + 12 * i;

        if (!a[0]) {
            continue;
        }
        n++;
        g_assert_cmpuint(t[0], ==, a[0]);
        g_assert_cmpuint(a[3], >, t[1]);
    }
    g_assert_cmpuint(n, >=, 5);
    g_assert_cmpuint(attr(data, 9)[5], ==, 2);      /* power-on hours */
    g_assert_cmpuint(attr(data, 12)[5], ==, 1);     /* power cycles */
    g_assert_cmpuint(attr(data, 194)[5], ==, 36);   /* temperature */
    g_assert_cmphex(data[367] & 0x11, ==, 0x11);    /* self-test */
    g_assert_cmpuint(data[372], >=, 1);             /* short: minutes */
    g_assert_cmphex(data[363], ==, 0);              /* never run */
    /* RETURN STATUS: no threshold exceeded keeps 4Fh/C2h */
    smart(r, 0xDA, 0, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmphex(rig_in(r, 0, R_LBAM), ==, 0x4F);
    g_assert_cmphex(rig_in(r, 0, R_LBAH), ==, 0xC2);
    /* A power cycle counts */
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    smart(r, 0xD0, 0, 1);
    read_blocks(r, data, 1);
    g_assert_cmpuint(attr(data, 12)[5], ==, 2);
    rig_free(r);
}

static void test_smart_enable(void)
{
    Rig *r = rig_new(0x1);
    uint8_t data[512];
    uint16_t w[256];

    /* The wrong key is aborted */
    rig_select(r, 0);
    rig_out(r, 0, R_FEATURE, 0xDA);
    rig_out(r, 0, R_LBAM, 0x4F);
    rig_out(r, 0, R_LBAH, 0x00);
    rig_command(r, 0, 0xB0);
    assert_aborted(r);
    /* Unknown subcommand */
    smart(r, 0xEE, 0, 0);
    assert_aborted(r);
    /* Disabled: everything but ENABLE OPERATIONS is aborted */
    smart(r, 0xD9, 0, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_identify(r, 0, w);
    g_assert_true(w[82] & 1);
    g_assert_false(w[85] & 1);
    smart(r, 0xD0, 0, 1);
    assert_aborted(r);
    smart(r, 0xDA, 0, 0);
    assert_aborted(r);
    smart(r, 0xD8, 0, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    smart(r, 0xD0, 0, 1);
    read_blocks(r, data, 1);
    /* Attribute autosave and automatic off-line are accepted */
    smart(r, 0xD2, 0, 0xF1);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    smart(r, 0xDB, 0, 0xF8);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_free(r);
}

static void test_selftest(void)
{
    Rig *r = rig_new(0x1);
    uint8_t data[512], log[512], xlog[512];

    /* Short self-test in off-line mode */
    smart(r, 0xD4, 0x01, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    smart(r, 0xD0, 0, 1);
    read_blocks(r, data, 1);
    g_assert_cmphex(data[363] >> 4, ==, 0xF);       /* in progress */
    /* A second one while it runs is refused */
    smart(r, 0xD4, 0x02, 0);
    assert_aborted(r);
    fake_host_advance(&r->fh, 3 * SEC);
    smart(r, 0xD0, 0, 1);
    read_blocks(r, data, 1);
    g_assert_cmphex(data[363], ==, 0x00);           /* completed */
    /* Extended, aborted by the host */
    smart(r, 0xD4, 0x02, 0);
    smart(r, 0xD4, 0x7F, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    smart(r, 0xD0, 0, 1);
    read_blocks(r, data, 1);
    g_assert_cmphex(data[363] >> 4, ==, 0x1);
    /* Short, interrupted by a software reset */
    smart(r, 0xD4, 0x01, 0);
    rig_srst(r, 0);
    /* Captive extended: BSY until it is over, then the interrupt */
    smart(r, 0xD4, 0x82, 0);
    g_assert_cmphex(rig_altstatus(r, 0) & ST_BSY, ==, ST_BSY);
    g_assert_false(r->fh.irq[0]);
    fake_host_advance(&r->fh, 11 * SEC);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    /* The self-test log, most recent last */
    smart(r, 0xD5, 0x06, 1);
    read_blocks(r, log, 1);
    g_assert_cmphex(sum512(log), ==, 0);
    g_assert_cmpuint(log[508], ==, 4);
    g_assert_cmphex(log[2 + 0 * 24], ==, 0x01);
    g_assert_cmphex(log[2 + 0 * 24 + 1], ==, 0x00);
    g_assert_cmphex(log[2 + 1 * 24], ==, 0x02);
    g_assert_cmphex(log[2 + 1 * 24 + 1] >> 4, ==, 0x1);
    g_assert_cmphex(log[2 + 2 * 24 + 1] >> 4, ==, 0x2);
    g_assert_cmphex(log[2 + 3 * 24], ==, 0x82);
    g_assert_cmphex(log[2 + 3 * 24 + 1], ==, 0x00);
    /* The same tests in the extended self-test log (READ LOG EXT 07h) */
    rig_lba48(r, 0, 0x07, 1);
    rig_command(r, 0, 0x2F);
    read_blocks(r, xlog, 1);
    g_assert_cmphex(sum512(xlog), ==, 0);
    g_assert_cmpuint(xlog[2], ==, 4);
    g_assert_cmphex(xlog[4 + 3 * 26], ==, 0x82);
    rig_free(r);
}

static void test_logs(void)
{
    Rig *r = rig_new(0x1);
    uint8_t b[512];

    /* SMART log directory: summary error log and self-test log */
    smart(r, 0xD5, 0x00, 1);
    read_blocks(r, b, 1);
    g_assert_cmphex(b[0] | b[1] << 8, ==, 0x0001);
    g_assert_cmpuint(b[2 * 0x01], ==, 1);
    g_assert_cmpuint(b[2 * 0x06], ==, 1);
    g_assert_cmpuint(b[2 * 0x03], ==, 0);
    smart(r, 0xD5, 0x01, 1);
    read_blocks(r, b, 1);
    g_assert_cmphex(b[0], ==, 0x01);
    g_assert_cmphex(b[1], ==, 0x00);                /* no error yet */
    g_assert_cmphex(sum512(b), ==, 0);
    /* No such log, too many pages */
    smart(r, 0xD5, 0x09, 1);
    assert_aborted(r);
    smart(r, 0xD5, 0x06, 2);
    assert_aborted(r);
    /* GP log directory through READ LOG EXT */
    rig_lba48(r, 0, 0x00, 1);
    rig_command(r, 0, 0x2F);
    read_blocks(r, b, 1);
    g_assert_cmphex(b[0] | b[1] << 8, ==, 0x0001);
    g_assert_cmpuint(b[2 * 0x03], ==, 1);
    g_assert_cmpuint(b[2 * 0x07], ==, 1);
    g_assert_cmpuint(b[2 * 0x01], ==, 0);
    /* Extended comprehensive error log */
    rig_lba48(r, 0, 0x03, 1);
    rig_command(r, 0, 0x2F);
    read_blocks(r, b, 1);
    g_assert_cmphex(b[0], ==, 0x01);
    g_assert_cmphex(sum512(b), ==, 0);
    /* Page 1 of a one-page log, count 0, a log it lacks */
    rig_lba48(r, 0, 0x03 | 1 << 8, 1);
    rig_command(r, 0, 0x2F);
    assert_aborted(r);
    rig_lba48(r, 0, 0x03, 0);
    rig_command(r, 0, 0x2F);
    assert_aborted(r);
    rig_lba48(r, 0, 0x10, 1);
    rig_command(r, 0, 0x2F);
    assert_aborted(r);
    rig_free(r);
}

/* ---- Host Protected Area ---------------------------------------------- */

static uint64_t lba48_regs(Rig *r)
{
    uint64_t v;

    rig_devctl(r, 0, 0x80);
    v = (uint64_t)rig_in(r, 0, R_LBAH) << 40 |
        (uint64_t)rig_in(r, 0, R_LBAM) << 32 |
        (uint64_t)rig_in(r, 0, R_LBAL) << 24;
    rig_devctl(r, 0, 0x00);
    return v | rig_in(r, 0, R_LBAH) << 16 | rig_in(r, 0, R_LBAM) << 8 |
           rig_in(r, 0, R_LBAL);
}

static uint64_t native_max_ext(Rig *r)
{
    rig_lba48(r, 0, 0, 0);
    rig_command(r, 0, 0x27);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    return lba48_regs(r);
}

static uint8_t set_max_ext(Rig *r, uint64_t max, bool nv)
{
    rig_lba48(r, 0, max, nv ? 1 : 0);
    rig_command(r, 0, 0x37);
    return rig_status(r, 0);
}

static uint64_t identify_sectors(Rig *r, unsigned word)
{
    uint16_t w[256];

    rig_identify(r, 0, w);
    if (word == 60) {
        return w[60] | (uint32_t)w[61] << 16;
    }
    return w[100] | (uint64_t)w[101] << 16 | (uint64_t)w[102] << 32;
}

static void test_hpa(void)
{
    Rig *r = rig_new(0x1);
    uint16_t w[256];
    uint8_t buf[512];

    rig_identify(r, 0, w);
    g_assert_true(w[82] & (1 << 10));
    g_assert_true(w[85] & (1 << 10));
    g_assert_cmpuint(native_max_ext(r), ==, RIG_SECTORS - 1);
    /* SET MAX must follow READ NATIVE MAX directly */
    set_max_ext(r, 999, false);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    native_max_ext(r);
    rig_select(r, 0);
    rig_command(r, 0, 0xE5);
    rig_status(r, 0);
    g_assert_cmphex(set_max_ext(r, 999, false), ==, ST_READY | ST_ERR);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ABRT);
    /* Beyond the native maximum: IDNF */
    native_max_ext(r);
    g_assert_cmphex(set_max_ext(r, RIG_SECTORS, false), ==,
                    ST_READY | ST_ERR);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, IDNF);
    /* Volatile: capacity 1000, reads beyond are IDNF */
    native_max_ext(r);
    g_assert_cmphex(set_max_ext(r, 999, false), ==, ST_READY);
    g_assert_cmpuint(identify_sectors(r, 100), ==, 1000);
    g_assert_cmpuint(identify_sectors(r, 60), ==, 1000);
    rig_lba28(r, 0, 999, 1);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_read_data(r, 0, buf, 512, false);
    rig_lba28(r, 0, 1000, 1);
    rig_command(r, 0, 0x20);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, IDNF);
    /* The native maximum stays what the medium has */
    g_assert_cmpuint(native_max_ext(r), ==, RIG_SECTORS - 1);
    /* A hardware reset forgets a volatile maximum */
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmpuint(identify_sectors(r, 100), ==, RIG_SECTORS);
    /* Non-volatile: kept across reset; a second one per power-on: ABRT */
    native_max_ext(r);
    g_assert_cmphex(set_max_ext(r, 4095, true), ==, ST_READY);
    native_max_ext(r);
    g_assert_cmphex(set_max_ext(r, 2047, true), ==, ST_READY | ST_ERR);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ABRT);
    native_max_ext(r);
    g_assert_cmphex(set_max_ext(r, 2047, false), ==, ST_READY);
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmpuint(identify_sectors(r, 100), ==, 4096);
    rig_free(r);
}

/* 28-bit forms: LBA in the registers and the Device low nibble. */
static void test_hpa_28bit(void)
{
    Rig *r = rig_new_full("piix4", 0x1, 0x10000100, false);

    rig_lba28(r, 0, 0, 0);
    rig_command(r, 0, 0xF8);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    /* Larger than 28 bits: the 28-bit form reports 0FFFFFFFh */
    g_assert_cmphex(rig_in(r, 0, R_DEVICE) & 0x0F, ==, 0x0F);
    g_assert_cmphex(rig_in(r, 0, R_LBAH), ==, 0xFF);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 0xFF);
    rig_lba28(r, 0, 0x00ABCDEF, 0);
    rig_command(r, 0, 0xF9);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmpuint(identify_sectors(r, 60), ==, 0x00ABCDF0);
    g_assert_cmpuint(identify_sectors(r, 100), ==, 0x00ABCDF0);
    /* A Features value selects the (absent) security extension */
    rig_lba28(r, 0, 0, 0);
    rig_command(r, 0, 0xF8);
    rig_out(r, 0, R_FEATURE, 0x01);
    rig_command(r, 0, 0xF9);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ABRT);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/smart/data", test_smart_data);
    g_test_add_func("/smart/enable", test_smart_enable);
    g_test_add_func("/smart/self-test", test_selftest);
    g_test_add_func("/smart/logs", test_logs);
    g_test_add_func("/hpa/ext", test_hpa);
    g_test_add_func("/hpa/28bit", test_hpa_28bit);
    return g_test_run();
}
