/*
 * atalab unit tests: personalities and PCI configuration registers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

/* PIIX4 datasheet 290562, IDE function configuration registers. */
static const ExpectReg piix4_expect[] = {
    { 0x40, 2, 0x0000, 0xF3FF },        /* IDETIM primary */
    { 0x42, 2, 0x0000, 0xF3FF },        /* IDETIM secondary */
    { 0x44, 1, 0x00, 0xFF },            /* SIDETIM */
    { 0x48, 1, 0x00, 0x0F },            /* UDMACTL */
    { 0x4A, 2, 0x0000, 0x3333 },        /* UDMATIM */
};

static AtalabCtrl *new_bare(FakeHost *fh, const char *name)
{
    fake_host_init(fh, true);
    fh->ctrl = atalab_ctrl_new(atalab_personality_find(name), &fh->host,
                               NULL);
    return fh->ctrl;
}

static void test_identity(void)
{
    const AtalabPersonality *p = atalab_personality_find("piix4");

    g_assert_nonnull(p);
    g_assert_cmphex(p->vendor_id, ==, 0x8086);
    g_assert_cmphex(p->device_id, ==, 0x7111);
    g_assert_cmphex(p->revision, ==, 0x01);
    g_assert_cmphex(p->class_code, ==, 0x0101);
    g_assert_cmphex(p->pi.reset, ==, 0x80);
    g_assert_cmpint(p->max_pio, ==, 4);
    g_assert_cmpint(p->max_mwdma, ==, 2);
    g_assert_cmpint(p->max_udma, ==, 2);
    g_assert_null(atalab_personality_find("nosuch"));
    g_assert_null(atalab_personality_find(NULL));
    g_assert_nonnull(strstr(atalab_personality_names(), "piix4"));

    p = atalab_personality_find("piix3");
    g_assert_nonnull(p);
    g_assert_cmphex(p->device_id, ==, 0x7010);
    g_assert_cmpint(p->max_udma, ==, -1);
}

static void test_piix4_reset_and_masks(void)
{
    FakeHost fh;
    AtalabCtrl *c = new_bare(&fh, "piix4");
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(piix4_expect); i++) {
        const ExpectReg *e = &piix4_expect[i];

        g_assert_cmphex(atalab_ctrl_config_read(c, e->offset, e->size), ==,
                        e->reset);
        atalab_ctrl_config_write(c, e->offset, 0xFFFFFFFF, e->size);
        g_assert_cmphex(atalab_ctrl_config_read(c, e->offset, e->size), ==,
                        e->wmask);
        atalab_ctrl_config_write(c, e->offset, 0, e->size);
        g_assert_cmphex(atalab_ctrl_config_read(c, e->offset, e->size), ==,
                        0);
        atalab_ctrl_config_write(c, e->offset, 0xFFFFFFFF, e->size);
    }
    /* Hardware reset restores every register. */
    atalab_ctrl_reset(c);
    for (i = 0; i < G_N_ELEMENTS(piix4_expect); i++) {
        const ExpectReg *e = &piix4_expect[i];

        g_assert_cmphex(atalab_ctrl_config_read(c, e->offset, e->size), ==,
                        e->reset);
    }
    atalab_ctrl_free(c);
    fake_host_cleanup(&fh);
}

static bool in_table(uint32_t off)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(piix4_expect); i++) {
        if (off >= piix4_expect[i].offset &&
            off < piix4_expect[i].offset + piix4_expect[i].size) {
            return true;
        }
    }
    return false;
}

static void test_piix4_reserved(void)
{
    FakeHost fh;
    AtalabCtrl *c = new_bare(&fh, "piix4");
    uint32_t off;

    for (off = 0x40; off < 0x100; off++) {
        atalab_ctrl_config_write(c, off, 0xFF, 1);
    }
    for (off = 0x40; off < 0x100; off++) {
        if (!in_table(off)) {
            g_assert_cmphex(atalab_ctrl_config_read(c, off, 1), ==, 0);
        }
    }
    /* A dword at the very end does not run past the space. */
    g_assert_cmphex(atalab_ctrl_config_read(c, 0xFC, 4), ==, 0);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0xFE, 4), ==, 0);
    atalab_ctrl_free(c);
    fake_host_cleanup(&fh);
}

static void test_piix4_cross_size(void)
{
    FakeHost fh;
    AtalabCtrl *c = new_bare(&fh, "piix4");
    uint32_t v;

    /* 32-bit write across IDETIM0 and IDETIM1 */
    atalab_ctrl_config_write(c, 0x40, 0xFFFFFFFF, 4);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x40, 4), ==, 0xF3FFF3FF);
    atalab_ctrl_config_write(c, 0x40, 0x12345678, 4);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x40, 2), ==, 0x5678 & 0xF3FF);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x42, 2), ==, 0x1234 & 0xF3FF);
    /* Unaligned word: high byte of IDETIM0, low byte of IDETIM1 */
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x41, 2), ==, 0x3452);
    /* Byte writes */
    atalab_ctrl_config_write(c, 0x43, 0x80, 1);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x42, 2), ==, 0x8034);
    /* Dword over SIDETIM, reserved 0x45-0x47 */
    atalab_ctrl_config_write(c, 0x44, 0xAABBCCDD, 4);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x44, 4), ==, 0x000000DD);
    /* Dword over UDMACTL, reserved 0x49, UDMATIM */
    atalab_ctrl_config_write(c, 0x48, 0xFFFFFFFF, 4);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x48, 4), ==, 0x3333000F);
    g_assert_true(atalab_ctrl_config_reg(c, "UDMATIM", &v));
    g_assert_cmphex(v, ==, 0x3333);
    g_assert_true(atalab_ctrl_config_reg(c, "UDMACTL", &v));
    g_assert_cmphex(v, ==, 0x0F);
    g_assert_false(atalab_ctrl_config_reg(c, "NOSUCH", &v));
    g_assert_cmphex(atalab_ctrl_config_peek(c, 0x4A, 2), ==, 0x3333);
    atalab_ctrl_free(c);
    fake_host_cleanup(&fh);
}

static void test_firmware_init(void)
{
    FakeHost fh;
    AtalabCtrl *c = new_bare(&fh, "piix4");
    uint32_t v;

    g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_OFF);
    g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_OFF);
    atalab_ctrl_firmware_init(c);
    g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_LEGACY);
    g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_LEGACY);
    g_assert_true(atalab_ctrl_config_reg(c, "IDETIM0", &v));
    g_assert_cmphex(v, ==, 0x8000);
    g_assert_true(atalab_ctrl_config_reg(c, "IDETIM1", &v));
    g_assert_cmphex(v, ==, 0x8000);
    /* The guest turns decode off for one channel. */
    atalab_ctrl_config_write(c, 0x43, 0x00, 1);
    g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_LEGACY);
    g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_OFF);
    atalab_ctrl_reset(c);
    g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_OFF);
    atalab_ctrl_free(c);
    fake_host_cleanup(&fh);
}

static void test_piix3(void)
{
    FakeHost fh;
    AtalabCtrl *c = new_bare(&fh, "piix3");

    atalab_ctrl_config_write(c, 0x40, 0xFFFFFFFF, 4);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x40, 4), ==, 0xF3FFF3FF);
    /* No Ultra DMA registers on PIIX3 */
    atalab_ctrl_config_write(c, 0x48, 0xFFFFFFFF, 4);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x48, 4), ==, 0);
    atalab_ctrl_firmware_init(c);
    g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_LEGACY);
    atalab_ctrl_free(c);
    fake_host_cleanup(&fh);
}

static void test_config_trace(void)
{
    FakeHost fh;
    AtalabCtrl *c = new_bare(&fh, "piix4");

    fh.now = 42;
    atalab_ctrl_config_write(c, 0x40, 0x8000, 2);
    atalab_ctrl_config_read(c, 0x40, 4);
    g_assert_cmpuint(fake_host_trace_count(&fh, " cfg r "), ==, 1);
    g_assert_cmpuint(fake_host_trace_count(&fh, " cfg w "), ==, 1);
    g_assert_true(fake_host_trace_has(&fh, "42 cfg w 0x40 2 0x8000"));
    g_assert_true(fake_host_trace_has(&fh, "42 cfg r 0x40 4 0x00008000"));
    atalab_ctrl_free(c);
    fake_host_cleanup(&fh);
}

/*
 * PIIX3/PIIX4: PI reads 80h whatever is written, and no channel can go
 * native, not even from firmware.
 */
static void test_pi_legacy_only(void)
{
    static const char *const names[] = { "piix3", "piix4" };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        FakeHost fh;
        AtalabCtrl *c = new_bare(&fh, names[i]);

        g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x80);
        atalab_ctrl_config_write(c, 0x09, 0xFF, 1);
        g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x80);
        g_assert_false(atalab_ctrl_native(c, 0));
        g_assert_false(atalab_ctrl_set_firmware_native(c, 1));
        g_assert_cmpuint(atalab_ctrl_firmware_native(c), ==, 0);
        atalab_ctrl_firmware_init(c);
        g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_LEGACY);
        g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_LEGACY);
        atalab_ctrl_free(c);
        fake_host_cleanup(&fh);
    }
}

/*
 * ICH5 IDE and SATA: PI resets to 8Ah, PNE and SNE are read/write, and
 * each channel decodes where its bit says, while IDETIM.IDE is set.
 */
static void test_pi_native_switch(void)
{
    static const char *const names[] = { "ich5", "ich5-sata" };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        FakeHost fh;
        AtalabCtrl *c = new_bare(&fh, names[i]);
        uint32_t v;

        g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x8A);
        g_assert_true(atalab_ctrl_config_reg(c, "PI", &v));
        g_assert_cmphex(v, ==, 0x8A);
        atalab_ctrl_config_write(c, 0x09, 0xFF, 1);
        g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x8F);
        g_assert_true(atalab_ctrl_native(c, 0));
        g_assert_true(atalab_ctrl_native(c, 1));
        /* IDETIM.IDE clear: nothing decoded, in either mode */
        g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_OFF);
        atalab_ctrl_firmware_init(c);
        g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_NATIVE);
        g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_NATIVE);
        /* Back to legacy, then the primary alone native */
        atalab_ctrl_config_write(c, 0x09, 0x00, 1);
        g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x8A);
        g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_LEGACY);
        g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_LEGACY);
        atalab_ctrl_config_write(c, 0x09, 0x01, 1);
        g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_NATIVE);
        g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_LEGACY);
        g_assert_false(atalab_ctrl_native(c, 1));
        /* IDETIM0.IDE cleared: the primary decodes nowhere */
        atalab_ctrl_config_write(c, 0x40, 0x0000, 2);
        g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_OFF);
        g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_LEGACY);
        atalab_ctrl_reset(c);
        g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x8A);
        g_assert_false(atalab_ctrl_native(c, 0));
        atalab_ctrl_free(c);
        fake_host_cleanup(&fh);
    }
}

/* Firmware set up for native mode: kept across resets, in the header. */
static void test_pi_firmware_native(void)
{
    FakeHost fh;
    AtalabCtrl *c = new_bare(&fh, "ich5");
    g_autofree char *legacy = atalab_ctrl_trace_header(c, NULL);
    g_autofree char *native = NULL;
    unsigned m;

    g_assert_null(strstr(legacy, "ide-mode"));
    g_assert_false(atalab_ctrl_set_firmware_native(c, 4));
    g_assert_true(atalab_ctrl_set_firmware_native(c, 2));
    atalab_ctrl_firmware_init(c);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x8E);
    g_assert_cmpint(atalab_ctrl_decode(c, 0), ==, ATALAB_DECODE_LEGACY);
    g_assert_cmpint(atalab_ctrl_decode(c, 1), ==, ATALAB_DECODE_NATIVE);
    g_assert_true(atalab_ctrl_set_firmware_native(c, 3));
    atalab_ctrl_reset(c);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x8A);
    atalab_ctrl_firmware_init(c);
    g_assert_cmphex(atalab_ctrl_config_read(c, 0x09, 1), ==, 0x8F);
    native = atalab_ctrl_trace_header(c, NULL);
    g_assert_nonnull(strstr(native, "\n# ide-mode native\n"));
    /* The trace names the register */
    atalab_ctrl_config_write(c, 0x09, 0x8A, 1);
    g_assert_true(fake_host_trace_has(&fh, "cfg w 0x9 1 0x8a reg=PI"));
    /* The names of the channel sets */
    g_assert_cmpstr(atalab_ide_mode_name(0), ==, "legacy");
    g_assert_cmpstr(atalab_ide_mode_name(1), ==, "native0");
    g_assert_null(atalab_ide_mode_name(4));
    g_assert_true(atalab_ide_mode_parse("native1", &m));
    g_assert_cmpuint(m, ==, 2);
    g_assert_false(atalab_ide_mode_parse("Native", &m));
    g_assert_false(atalab_ide_mode_parse(NULL, &m));
    atalab_ctrl_free(c);
    fake_host_cleanup(&fh);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/personality/identity", test_identity);
    g_test_add_func("/personality/piix4/reset-and-masks",
                    test_piix4_reset_and_masks);
    g_test_add_func("/personality/piix4/reserved", test_piix4_reserved);
    g_test_add_func("/personality/piix4/cross-size", test_piix4_cross_size);
    g_test_add_func("/personality/piix4/firmware-init", test_firmware_init);
    g_test_add_func("/personality/piix3", test_piix3);
    g_test_add_func("/personality/trace", test_config_trace);
    g_test_add_func("/personality/pi/legacy-only", test_pi_legacy_only);
    g_test_add_func("/personality/pi/native-switch", test_pi_native_switch);
    g_test_add_func("/personality/pi/firmware-native",
                    test_pi_firmware_native);
    return g_test_run();
}
