/*
 * atalab unit tests: personalities (ich5, ich5-sata, piix3, piix4 register
 * tables), the cable model, the timing decode and the timing rules.
 *
 * The "driver" helpers below program the registers the way Linux ata_piix
 * does for each transfer mode (docs/timing.md, "What ata_piix programs"),
 * so the decode is shown to give back the mode the driver meant.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

#define PRDT    0x1000
#define BUF     0x10000

/* PIIX3 (290550) / PIIX4 (290562) / ICH5 (252516) IDE configuration. */
static const ExpectReg piix3_regs[] = {
    { 0x40, 2, 0x0000, 0xF3FF }, { 0x42, 2, 0x0000, 0xF3FF },
    { 0x44, 1, 0x00, 0xFF },
};
static const ExpectReg piix4_regs[] = {
    { 0x40, 2, 0x0000, 0xF3FF }, { 0x42, 2, 0x0000, 0xF3FF },
    { 0x44, 1, 0x00, 0xFF }, { 0x48, 1, 0x00, 0x0F },
    { 0x4A, 2, 0x0000, 0x3333 },
};
static const ExpectReg ich5_regs[] = {
    { 0x40, 2, 0x0000, 0xF3FF }, { 0x42, 2, 0x0000, 0xF3FF },
    { 0x44, 1, 0x00, 0xFF }, { 0x48, 1, 0x00, 0x0F },
    { 0x4A, 2, 0x0000, 0x3333 }, { 0x54, 4, 0x00000000, 0x000FF4FF },
};
static const ExpectReg ich5_sata_regs[] = {
    { 0x40, 2, 0x0000, 0xF3FF }, { 0x42, 2, 0x0000, 0xF3FF },
    { 0x44, 1, 0x00, 0xFF }, { 0x48, 1, 0x00, 0x0F },
    { 0x4A, 2, 0x0000, 0x3333 }, { 0x54, 4, 0x00000000, 0x000FF4FF },
    { 0x90, 1, 0x00, 0x07 }, { 0x92, 2, 0x0000, 0x0003 },
};

typedef struct PersExpect {
    const char *name;
    uint16_t device_id;
    uint8_t prog_if;
    int max_udma;
    bool cable80;
    const ExpectReg *regs;
    size_t n;
} PersExpect;

static const PersExpect pers_expect[] = {
    { "piix3", 0x7010, 0x80, -1, false, piix3_regs,
      G_N_ELEMENTS(piix3_regs) },
    { "piix4", 0x7111, 0x80, 2, false, piix4_regs,
      G_N_ELEMENTS(piix4_regs) },
    { "ich5", 0x24DB, 0x8A, 5, true, ich5_regs, G_N_ELEMENTS(ich5_regs) },
    { "ich5-sata", 0x24D1, 0x8A, 6, false, ich5_sata_regs,
      G_N_ELEMENTS(ich5_sata_regs) },
};

static bool in_regs(const PersExpect *e, unsigned off)
{
    size_t i;

    for (i = 0; i < e->n; i++) {
        if (off >= e->regs[i].offset &&
            off < e->regs[i].offset + e->regs[i].size) {
            return true;
        }
    }
    return false;
}

static void test_personality_tables(void)
{
    size_t k, i;

    for (k = 0; k < G_N_ELEMENTS(pers_expect); k++) {
        const PersExpect *e = &pers_expect[k];
        const AtalabPersonality *p = atalab_personality_find(e->name);
        FakeHost fh;
        AtalabCtrl *c;
        unsigned off;

        g_assert_nonnull(p);
        g_assert_cmphex(p->vendor_id, ==, 0x8086);
        g_assert_cmphex(p->device_id, ==, e->device_id);
        g_assert_cmphex(p->class_code, ==, 0x0101);
        g_assert_cmphex(p->pi.reset, ==, e->prog_if);
        g_assert_cmpint(p->max_pio, ==, 4);
        g_assert_cmpint(p->max_mwdma, ==, 2);
        g_assert_cmpint(p->max_udma, ==, e->max_udma);
        g_assert_cmpint(p->default_cable80, ==, e->cable80);
        g_assert_nonnull(strstr(atalab_personality_names(), e->name));

        fake_host_init(&fh, false);
        c = atalab_ctrl_new(p, &fh.host, NULL);
        g_assert_cmpint(atalab_ctrl_cable80(c, 0), ==, e->cable80);
        g_assert_cmpint(atalab_ctrl_cable80(c, 1), ==, e->cable80);
        for (i = 0; i < e->n; i++) {
            const ExpectReg *r = &e->regs[i];

            g_assert_cmphex(atalab_ctrl_config_read(c, r->offset, r->size),
                            ==, r->reset);
            atalab_ctrl_config_write(c, r->offset, 0xFFFFFFFF, r->size);
            g_assert_cmphex(atalab_ctrl_config_read(c, r->offset, r->size),
                            ==, r->wmask);
            atalab_ctrl_config_write(c, r->offset, 0, r->size);
            g_assert_cmphex(atalab_ctrl_config_read(c, r->offset, r->size),
                            ==, 0);
            atalab_ctrl_config_write(c, r->offset, 0xFFFFFFFF, r->size);
        }
        /* Everything else is reserved. */
        for (off = 0x40; off < 0x100; off++) {
            if (!in_regs(e, off)) {
                atalab_ctrl_config_write(c, off, 0xFF, 1);
                g_assert_cmphex(atalab_ctrl_config_read(c, off, 1), ==, 0);
            }
        }
        atalab_ctrl_reset(c);
        for (i = 0; i < e->n; i++) {
            const ExpectReg *r = &e->regs[i];

            g_assert_cmphex(atalab_ctrl_config_read(c, r->offset, r->size),
                            ==, r->reset);
        }
        atalab_ctrl_free(c);
        fake_host_cleanup(&fh);
    }
}

/* ---- a driver that programs the registers as ata_piix does ---------- */

/* { ISP field, RTC field } for PIO 0-4 (ata_piix's timing table). */
static const uint8_t piix_pio_fields[5][2] = {
    { 0, 0 }, { 0, 0 }, { 1, 0 }, { 2, 1 }, { 2, 3 },
};

static uint32_t cfg(Rig *r, unsigned off, unsigned size)
{
    return atalab_ctrl_config_read(r->c, off, size);
}

static void cfg_w(Rig *r, unsigned off, uint32_t v, unsigned size)
{
    atalab_ctrl_config_write(r->c, off, v, size);
}

/*
 * Host PIO timing for drive: fast timing for pio >= 2, IORDY for pio > 2,
 * prefetch/posting for ATA disks, DMA-timing-only when the drive's own PIO
 * mode is slower than the timing loaded.  UDMA off for the drive.
 */
static void drv_set_timings(Rig *r, unsigned drive, unsigned pio,
                            unsigned drive_pio)
{
    unsigned ch = drive / 2, unit = drive % 2;
    unsigned idetim_off = ch ? 0x42 : 0x40;
    uint16_t idetim = cfg(r, idetim_off, 2);
    unsigned ctl = 0;

    if (pio >= 2) {
        ctl |= 1;                   /* TIME */
    }
    if (drive_pio > 2) {
        ctl |= 2;                   /* IE */
    }
    ctl |= 4;                       /* PPE: ATA disk */
    if (drive_pio < pio) {
        ctl |= 8;                   /* DTE */
    }
    if (unit) {
        uint8_t sidetim = cfg(r, 0x44, 1);

        idetim = (idetim & 0xFF0F) | ctl << 4;
        sidetim &= ch ? 0x0F : 0xF0;
        sidetim |= (piix_pio_fields[pio][0] << 2 | piix_pio_fields[pio][1])
                   << (ch ? 4 : 0);
        cfg_w(r, idetim_off, idetim | 0x4000, 2);
        cfg_w(r, 0x44, sidetim, 1);
    } else {
        idetim = (idetim & 0xCCF0) | ctl;
        idetim |= piix_pio_fields[pio][0] << 12 | piix_pio_fields[pio][1] << 8;
        cfg_w(r, idetim_off, idetim | 0x4000, 2);
    }
    if (atalab_ctrl_personality(r->c)->max_udma >= 0) {
        cfg_w(r, 0x48, cfg(r, 0x48, 1) & ~(1u << drive), 1);
    }
}

/* Host DMA timing: MWDMA via the PIO timing bank, UDMA via UDMACTL/TIM. */
static void drv_set_mwdma(Rig *r, unsigned drive, unsigned mwdma,
                          unsigned drive_pio)
{
    static const unsigned needed_pio[3] = { 0, 3, 4 };

    drv_set_timings(r, drive, needed_pio[mwdma], drive_pio);
}

static void drv_set_udma(Rig *r, unsigned drive, unsigned udma, bool ich)
{
    unsigned ct = udma == 0 ? 0 : (udma & 1) ? 1 : 2;
    uint16_t tim = cfg(r, 0x4A, 2);

    tim = (tim & ~(3u << (4 * drive))) | ct << (4 * drive);
    cfg_w(r, 0x4A, tim, 2);
    if (ich) {
        uint16_t conf = cfg(r, 0x54, 2);
        unsigned clock = udma == 5 ? 0x1000 : udma > 2 ? 1 : 0;

        conf &= ~(0x1001u << drive);
        conf |= clock << drive;
        cfg_w(r, 0x54, conf, 2);
    }
    cfg_w(r, 0x48, cfg(r, 0x48, 1) | 1u << drive, 1);
}

/* SET FEATURES set transfer mode (03h) with count = mode value. */
static void set_xfer(Rig *r, unsigned drive, uint8_t mode)
{
    g_assert_cmphex(rig_nodata(r, drive, 0xEF, 0x03, mode), ==, ST_READY);
}

static void decode(Rig *r, unsigned drive, AtalabDriveTiming *t)
{
    g_assert_true(atalab_ctrl_timing(r->c, drive, t));
}

/* ---- decode ------------------------------------------------------------ */

static void test_decode_pio(void)
{
    size_t k;

    for (k = 0; k < G_N_ELEMENTS(pers_expect); k++) {
        Rig *r = rig_new_full(pers_expect[k].name, 0, 0, true);
        unsigned drive, pio;

        for (drive = 0; drive < 4; drive++) {
            for (pio = 0; pio <= 4; pio++) {
                AtalabDriveTiming t;
                char s[ATALAB_TIMING_STR_LEN];

                drv_set_timings(r, drive, pio, pio);
                decode(r, drive, &t);
                /* PIO 0 and 1 both run on compatible timing (PIO 0). */
                g_assert_cmpint(t.pio_mode, ==, pio == 1 ? 0 : (int)pio);
                g_assert_cmpuint(t.pio_cycle_ns, >=,
                                 atalab_pio_min_cycle(pio));
                g_assert_cmpint(t.iordy, ==, pio > 2);
                g_assert_true(t.prefetch);
                g_assert_cmpint(t.bank, ==, pio >= 2 ? ATALAB_BANK_FAST :
                                ATALAB_BANK_COMPAT);
                g_assert_cmpint(t.slave_timing, ==, drive % 2);
                g_assert_cmpstr(atalab_ctrl_timing_string(r->c, drive), ==,
                                atalab_timing_format(&t, s, sizeof(s)));
            }
        }
        /* Exact cycles: PIO 2 240 ns, PIO 3 180 ns, PIO 4 120 ns. */
        drv_set_timings(r, 0, 2, 2);
        g_assert_true(g_str_has_prefix(atalab_ctrl_timing_string(r->c, 0),
                      "bank=fast isp=4 rtc=4 iordy=0 prefetch=1 "
                      "pio=240ns/pio2 mwdma=240ns/mwdma1 udma="));
        drv_set_timings(r, 0, 3, 3);
        g_assert_true(g_str_has_prefix(atalab_ctrl_timing_string(r->c, 0),
                      "bank=fast isp=3 rtc=3 iordy=1 prefetch=1 "
                      "pio=180ns/pio3 mwdma=180ns/mwdma1"));
        drv_set_timings(r, 0, 4, 4);
        g_assert_true(g_str_has_prefix(atalab_ctrl_timing_string(r->c, 0),
                      "bank=fast isp=3 rtc=1 iordy=1 prefetch=1 "
                      "pio=120ns/pio4 mwdma=120ns/mwdma2"));
        /* DMA timing only: PIO falls back to compatible timing. */
        drv_set_timings(r, 0, 4, 0);
        g_assert_true(g_str_has_prefix(atalab_ctrl_timing_string(r->c, 0),
                      "bank=dma-only isp=3 rtc=1 iordy=0 prefetch=1 "
                      "pio=600ns/pio0 mwdma=120ns/mwdma2"));
        rig_free(r);
    }
}

static void test_decode_mwdma(void)
{
    size_t k;

    for (k = 0; k < G_N_ELEMENTS(pers_expect); k++) {
        Rig *r = rig_new_full(pers_expect[k].name, 0, 0, false);
        unsigned drive, mw;

        for (drive = 0; drive < 4; drive++) {
            for (mw = 0; mw <= 2; mw++) {
                AtalabDriveTiming t;

                drv_set_mwdma(r, drive, mw, 4);
                decode(r, drive, &t);
                g_assert_cmpint(t.mwdma_mode, ==, mw);
                g_assert_cmpuint(t.dma_cycle_ns, >=,
                                 atalab_mwdma_min_cycle(mw));
                g_assert_false(t.udma_enabled);
            }
        }
        rig_free(r);
    }
}

static void test_decode_udma(void)
{
    size_t k;

    for (k = 0; k < G_N_ELEMENTS(pers_expect); k++) {
        const AtalabPersonality *p =
            atalab_personality_find(pers_expect[k].name);
        bool ich = p->caps & ATALAB_CAP_ICH_CLOCKS;
        Rig *r = rig_new_full(p->name, 0, 0, false);
        unsigned drive;
        int u;

        for (drive = 0; drive < 4; drive++) {
            AtalabDriveTiming t;

            decode(r, drive, &t);
            g_assert_cmpint(t.has_udma, ==, p->max_udma >= 0);
            g_assert_false(t.udma_enabled);
            /* Ultra DMA modes the PATA timing registers can express. */
            for (u = 0; u <= MIN(p->max_udma, 5); u++) {
                drv_set_udma(r, drive, u, ich);
                decode(r, drive, &t);
                g_assert_true(t.udma_enabled);
                g_assert_cmpint(t.udma_mode, ==, u);
                g_assert_cmpuint(t.udma_clock_mhz, ==,
                                 u == 5 ? 100 : u > 2 ? 66 : 33);
                g_assert_cmpuint(t.udma_ct_clocks, >, 0);
            }
            drv_set_timings(r, drive, 4, 4);
            decode(r, drive, &t);
            g_assert_false(t.udma_enabled);
        }
        rig_free(r);
    }
}

static void test_decode_reserved(void)
{
    Rig *r = rig_new_full("piix4", 0, 0, false);
    AtalabDriveTiming t;

    /* PIIX4 UDMATIM PCT0 = 11b is reserved. */
    cfg_w(r, 0x4A, 0x0003, 2);
    cfg_w(r, 0x48, 0x01, 1);
    decode(r, 0, &t);
    g_assert_cmpint(t.udma_mode, ==, -1);
    g_assert_true(g_str_has_suffix(atalab_ctrl_timing_string(r->c, 0),
                                   "udma=on:reserved ct=3 clk=33"));
    rig_free(r);

    r = rig_new_full("ich5", 0, 0, false);
    /* 66 MHz with CT 00b, 100 MHz with CT 10b: reserved */
    cfg_w(r, 0x54, 0x00000001, 4);
    decode(r, 0, &t);
    g_assert_cmpuint(t.udma_clock_mhz, ==, 66);
    g_assert_cmpint(t.udma_mode, ==, -1);
    cfg_w(r, 0x54, 0x00001001, 4);
    cfg_w(r, 0x4A, 0x0002, 2);
    decode(r, 0, &t);
    g_assert_cmpuint(t.udma_clock_mhz, ==, 100);
    g_assert_cmpint(t.udma_mode, ==, -1);
    /* Fast timing with ISP 2 clocks, RTC 1 clock: 90 ns, faster than PIO 4 */
    cfg_w(r, 0x40, 0x8000 | 0x3000 | 0x0300 | 0x1, 2);
    decode(r, 0, &t);
    g_assert_cmpuint(t.pio_cycle_ns, ==, 90);
    g_assert_cmpint(t.pio_mode, ==, -1);
    g_assert_cmpint(t.mwdma_mode, ==, -1);
    rig_free(r);

    r = rig_new_full("piix3", 0, 0, false);
    decode(r, 0, &t);
    g_assert_false(t.has_udma);
    g_assert_true(g_str_has_suffix(atalab_ctrl_timing_string(r->c, 0),
                                   "udma=none"));
    rig_free(r);
}

/* Every write to a timing register re-decodes; a change is traced. */
static void test_decode_trace(void)
{
    Rig *r = rig_new_full("ich5", 1, 0, true);

    fake_host_trace_clear(&r->fh);
    drv_set_timings(r, 0, 4, 4);
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 timing d0 bank=fast "
                                      "isp=3 rtc=1 iordy=1 prefetch=1 "
                                      "pio=120ns/pio4"));
    fake_host_trace_clear(&r->fh);
    drv_set_udma(r, 3, 5, true);
    g_assert_true(fake_host_trace_has(&r->fh, "ata1 timing d1 "));
    g_assert_true(fake_host_trace_has(&r->fh, "udma=on:udma5 ct=1 clk=100"));
    g_assert_false(fake_host_trace_has(&r->fh, "ata0 timing d0"));
    rig_free(r);
}

/* ---- cable ------------------------------------------------------------- */

static void test_cable(void)
{
    uint16_t id[256];
    Rig *r;

    /* ICH5 default 80: word 93 bit 13 and IDE_CONFIG PCR0 (bit 4) agree */
    r = rig_new_full("ich5", 0x5, 0, false);
    rig_identify(r, 0, id);
    g_assert_cmphex(id[93] & 0x6000, ==, 0x6000);
    g_assert_cmphex(cfg(r, 0x54, 4), ==, (1u << 4) | (1u << 6));
    rig_free(r);

    r = rig_new_full("ich5", 0x3, 0, false);
    atalab_ctrl_set_cable80(r->c, 0, false);
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    rig_identify(r, 0, id);
    g_assert_cmphex(id[93] & 0x6000, ==, 0x4000);
    rig_identify(r, 1, id);
    g_assert_cmphex(id[93] & 0x6000, ==, 0x4000);
    g_assert_cmphex(cfg(r, 0x54, 4), ==, 0);
    atalab_ctrl_set_cable80(r->c, 0, true);
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    rig_identify(r, 1, id);
    g_assert_cmphex(id[93] & 0x6000, ==, 0x6000);
    g_assert_cmphex(cfg(r, 0x54, 4), ==, (1u << 4) | (1u << 5));
    rig_free(r);

    /* PIIX4 default 40; no cable register */
    r = rig_new_full("piix4", 0x1, 0, false);
    rig_identify(r, 0, id);
    g_assert_cmphex(id[93] & 0x6000, ==, 0x4000);
    rig_free(r);
}

/* ---- rules ------------------------------------------------------------- */

static uint8_t pio_read(Rig *r, unsigned drive)
{
    unsigned ch = drive / 2;
    uint8_t buf[512];

    rig_lba28(r, drive, 0, 1);
    rig_command(r, drive, 0x20);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_status(r, ch), ==, ST_READY | ST_DRQ);
    rig_read_data(r, ch, buf, sizeof(buf), false);
    return rig_status(r, ch);
}

static uint8_t pio_write(Rig *r, unsigned drive)
{
    unsigned ch = drive / 2;
    uint8_t buf[512] = { 0 };

    rig_lba28(r, drive, 0, 1);
    rig_command(r, drive, 0x30);
    rig_write_data(r, ch, buf, sizeof(buf), false);
    fake_host_complete_all(&r->fh);
    return rig_status(r, ch);
}

static uint8_t dma_read(Rig *r, unsigned drive)
{
    unsigned ch = drive / 2;

    rig_prd(r, PRDT, 0, BUF, 4096, true);
    rig_bm_setup(r, ch, PRDT, true);
    rig_lba28(r, drive, 0, 8);
    rig_command(r, drive, 0xC8);
    rig_bm_start(r, ch, true);
    fake_host_complete_all(&r->fh);
    rig_bm_stop(r, ch);
    return rig_status(r, ch);
}

static unsigned rule(Rig *r, unsigned drive, AtalabRule which)
{
    return atalab_ctrl_rule_count(r->c, drive, which);
}

static void test_rule_pio_overclock(void)
{
    Rig *r = rig_new_full("piix4", 0x2, 0, true);

    /* Drive set to PIO 2: compatible timing is fine, PIO 4 timing not. */
    set_xfer(r, 1, 0x0A);
    drv_set_timings(r, 1, 2, 2);
    g_assert_cmphex(pio_read(r, 1), ==, ST_READY);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 1), ==, 0);
    drv_set_timings(r, 1, 4, 4);
    g_assert_cmphex(pio_read(r, 1), ==, ST_READY);
    g_assert_cmpuint(rule(r, 1, ATALAB_RULE_PIO_OVERCLOCK), ==, 1);
    /* The host hears of the violation and of the timing writes. */
    g_assert_cmpuint(fake_host_event_count(&r->fh, "violation pio-overclock "
                                           "ata0 d1"), ==, 1);
    g_assert_cmpuint(fake_host_event_count(&r->fh, "violation"), ==, 1);
    g_assert_cmpuint(fake_host_event_count(&r->fh, "write cfg 0x4"), >, 0);
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 violation d1 "
                                      "pio-overclock reg=SIDETIM "
                                      "expected=>=240ns(pio2) actual=120ns "
                                      "xfer=pio"));
    g_assert_cmphex(pio_write(r, 1), ==, ST_READY);
    g_assert_cmpuint(rule(r, 1, ATALAB_RULE_PIO_OVERCLOCK), ==, 2);
    /* PIO default mode: the drive takes what IDENTIFY reports (PIO 4). */
    set_xfer(r, 1, 0x00);
    g_assert_cmphex(pio_read(r, 1), ==, ST_READY);
    g_assert_cmpuint(rule(r, 1, ATALAB_RULE_PIO_OVERCLOCK), ==, 2);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 1), ==, 2);
    g_assert_cmpuint(atalab_ctrl_xfer_checks(r->c, 1), ==, 4);
    rig_free(r);
}

static void test_rule_iordy(void)
{
    Rig *r = rig_new_full("ich5", 0x1, 0, true);

    set_xfer(r, 0, 0x0C);
    drv_set_timings(r, 0, 4, 4);
    pio_read(r, 0);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 0);
    /* IE0 off with PIO 4 timing */
    cfg_w(r, 0x40, cfg(r, 0x40, 2) & ~0x2, 2);
    pio_read(r, 0);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_IORDY_OFF), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "iordy-off reg=IDETIM0 "
                                      "expected=IE=1 actual=IE=0(120ns)"));
    /* PIO 2 timing needs no IORDY */
    set_xfer(r, 0, 0x0A);
    drv_set_timings(r, 0, 2, 2);
    pio_read(r, 0);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 1);
    rig_free(r);
}

static void test_rule_prefetch(void)
{
    const AtalabPersonality *p = atalab_personality_find("piix4");
    AtalabDriveMode m = { .pio_mode = -1, .mwdma_mode = -1, .udma_mode = -1,
                          .pio_max = 4, .ata = false };
    uint8_t c[256] = { 0 };
    AtalabDriveTiming t;
    AtalabViolation v[4];

    /* PPE0 set, TIME0 clear: an ATAPI device must not get prefetch. */
    c[0x40] = 0x04;
    atalab_timing_decode(p, c, 0, &t);
    g_assert_cmpuint(atalab_timing_check(p, 0, &t, &m, false,
                                         ATALAB_XFER_PIO, v, 4), ==, 1);
    g_assert_cmpint(v[0].rule, ==, ATALAB_RULE_PREFETCH_NON_ATA);
    g_assert_cmpstr(v[0].reg, ==, "IDETIM0");
    g_assert_cmpstr(v[0].actual, ==, "PPE=1");
    g_assert_cmpstr(atalab_rule_name(v[0].rule), ==, "prefetch-non-ata");
    /* An ATA disk may have it; an ATAPI device without PPE is fine. */
    m.ata = true;
    g_assert_cmpuint(atalab_timing_check(p, 0, &t, &m, false,
                                         ATALAB_XFER_PIO, v, 4), ==, 0);
    m.ata = false;
    c[0x40] = 0x00;
    atalab_timing_decode(p, c, 0, &t);
    g_assert_cmpuint(atalab_timing_check(p, 0, &t, &m, false,
                                         ATALAB_XFER_PIO, v, 4), ==, 0);
}

static void test_rule_mwdma(void)
{
    Rig *r = rig_new_full("piix3", 0x1, 0, true);

    /* MWDMA 2 as ata_piix programs it: clean */
    set_xfer(r, 0, 0x22);
    drv_set_mwdma(r, 0, 2, 4);
    g_assert_cmphex(dma_read(r, 0), ==, ST_READY);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 0);
    /* Drive in MWDMA 1 (150 ns) with 120 ns timing */
    set_xfer(r, 0, 0x21);
    g_assert_cmphex(dma_read(r, 0), ==, ST_READY);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_MWDMA_OVERCLOCK), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "mwdma-overclock reg=IDETIM0 "
                                      "expected=>=150ns(mwdma1) "
                                      "actual=120ns xfer=dma"));
    drv_set_mwdma(r, 0, 1, 4);
    dma_read(r, 0);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 1);
    /* A drive in UDMA mode on PIIX3: the personality has no Ultra DMA */
    set_xfer(r, 0, 0x42);
    dma_read(r, 0);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_MODE_UNSUPPORTED), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "mode-unsupported reg=drive "
                                      "expected=no-udma actual=udma2"));
    rig_free(r);
}

static void test_rule_udma_enable(void)
{
    Rig *r = rig_new_full("piix4", 0x1, 0, true);

    /* Controller in Ultra DMA, drive in MWDMA 2 */
    set_xfer(r, 0, 0x22);
    drv_set_mwdma(r, 0, 2, 4);
    dma_read(r, 0);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 0);
    drv_set_udma(r, 0, 2, false);
    dma_read(r, 0);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_UDMA_NOT_SELECTED), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "udma-on-not-udma "
                                      "reg=UDMACTL expected=off actual=on"));
    /* The reverse: drive in UDMA 2, controller not */
    set_xfer(r, 0, 0x42);
    dma_read(r, 0);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 1);
    drv_set_timings(r, 0, 4, 4);
    dma_read(r, 0);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_UDMA_OFF), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "udma-off-in-udma "
                                      "reg=UDMACTL expected=on actual=off"));
    rig_free(r);
}

static void test_rule_udma_timing(void)
{
    Rig *r = rig_new_full("ich5", 0x8, 0, true);

    set_xfer(r, 3, 0x45);
    drv_set_udma(r, 3, 5, true);
    dma_read(r, 3);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 3), ==, 0);
    /* Clock select wrong: FAST_SCB1 clear, SCB1 set -> UDMA 3 */
    cfg_w(r, 0x54, (cfg(r, 0x54, 4) & ~0x8000u) | 0x8, 4);
    dma_read(r, 3);
    g_assert_cmpuint(rule(r, 3, ATALAB_RULE_UDMA_TIMING), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "ata1 violation d1 "
                                      "udma-timing reg=IDE_CONFIG "
                                      "expected=udma5 "
                                      "actual=udma3(ct=1,clk=66)"));
    /* Right clock (33 MHz for UDMA 2), wrong CT */
    set_xfer(r, 3, 0x42);
    drv_set_udma(r, 3, 2, true);
    dma_read(r, 3);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 3), ==, 1);
    cfg_w(r, 0x4A, 0x1000, 2);
    dma_read(r, 3);
    g_assert_cmpuint(rule(r, 3, ATALAB_RULE_UDMA_TIMING), ==, 2);
    g_assert_true(fake_host_trace_has(&r->fh, "udma-timing reg=UDMATIM "
                                      "expected=udma2 "
                                      "actual=udma1(ct=1,clk=33)"));
    /* Reserved encoding: CT 11b */
    cfg_w(r, 0x4A, 0x3000, 2);
    dma_read(r, 3);
    g_assert_cmpuint(rule(r, 3, ATALAB_RULE_MODE_UNSUPPORTED), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "mode-unsupported "
                                      "reg=UDMATIM expected=udma2 "
                                      "actual=reserved(ct=3,clk=33)"));
    rig_free(r);

    /* PIIX4: UDMA 5 is beyond the personality */
    r = rig_new_full("piix4", 0x1, 0, true);
    set_xfer(r, 0, 0x45);
    drv_set_udma(r, 0, 2, false);
    dma_read(r, 0);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_MODE_UNSUPPORTED), ==, 1);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_UDMA_TIMING), ==, 0);
    g_assert_true(fake_host_trace_has(&r->fh, "mode-unsupported reg=drive "
                                      "expected=<=udma2 actual=udma5"));
    rig_free(r);
}

static void test_rule_cable(void)
{
    Rig *r = rig_new_full("ich5", 0x1, 0, true);

    set_xfer(r, 0, 0x44);
    drv_set_udma(r, 0, 4, true);
    dma_read(r, 0);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 0);
    atalab_ctrl_set_cable80(r->c, 0, false);
    dma_read(r, 0);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_UDMA_CABLE), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "udma-40-wire reg=cable "
                                      "expected=<=udma2 actual=udma4"));
    /* UDMA 2 on 40 wires is fine */
    set_xfer(r, 0, 0x42);
    drv_set_udma(r, 0, 2, true);
    dma_read(r, 0);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 1);
    rig_free(r);
}

static void test_strict_icrc(void)
{
    Rig *r = rig_new_full("ich5", 0x1, 0, true);

    atalab_ctrl_set_strict(r->c, true);
    set_xfer(r, 0, 0x45);
    drv_set_udma(r, 0, 5, true);
    g_assert_cmphex(dma_read(r, 0), ==, ST_READY);
    /* Mis-timed: the command ends with ICRC|ABRT */
    cfg_w(r, 0x55, 0x00, 1);
    g_assert_cmphex(dma_read(r, 0), ==, ST_READY | ST_ERR);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x84);
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 error d0 ICRC cmd=0xc8"));
    /* PIO is unaffected; MWDMA faults are not CRC errors */
    g_assert_cmphex(pio_read(r, 0), ==, ST_READY);
    set_xfer(r, 0, 0x22);
    g_assert_cmphex(dma_read(r, 0), ==, ST_READY);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_UDMA_NOT_SELECTED), ==, 1);
    /* Without strict the mis-timed transfer completes */
    atalab_ctrl_set_strict(r->c, false);
    set_xfer(r, 0, 0x45);
    g_assert_cmphex(dma_read(r, 0), ==, ST_READY);
    g_assert_cmpuint(rule(r, 0, ATALAB_RULE_UDMA_TIMING), ==, 2);
    rig_free(r);
}

/* A transfer on a correctly programmed controller breaks no rule. */
static void test_clean_sequences(void)
{
    size_t k;

    for (k = 0; k < G_N_ELEMENTS(pers_expect); k++) {
        const AtalabPersonality *p =
            atalab_personality_find(pers_expect[k].name);
        bool sata = p->caps & ATALAB_CAP_SATA;
        Rig *r = rig_new_full(p->name, sata ? 0x5 : 0xF, 0, true);
        unsigned drive;
        int mode;

        if (sata) {
            cfg_w(r, 0x92, 0x0003, 2);
        }
        for (drive = 0; drive < 4; drive++) {
            if (sata && drive % 2) {
                continue;
            }
            for (mode = 0; mode <= 4; mode++) {
                set_xfer(r, drive, 0x08 | mode);
                drv_set_timings(r, drive, mode, mode);
                pio_read(r, drive);
            }
            for (mode = 0; mode <= 2; mode++) {
                set_xfer(r, drive, 0x20 | mode);
                drv_set_mwdma(r, drive, mode, 4);
                g_assert_cmphex(dma_read(r, drive), ==, ST_READY);
            }
            for (mode = 0; mode <= MIN(p->max_udma, 5); mode++) {
                if (mode > 2 && !atalab_ctrl_cable80(r->c, drive / 2) &&
                    !sata) {
                    continue;
                }
                set_xfer(r, drive, 0x40 | mode);
                drv_set_udma(r, drive, mode, p->caps & ATALAB_CAP_ICH_CLOCKS);
                g_assert_cmphex(dma_read(r, drive), ==, ST_READY);
            }
            g_assert_cmpuint(atalab_ctrl_xfer_checks(r->c, drive), >=, 8);
            g_assert_cmpuint(atalab_ctrl_violations(r->c, drive), ==, 0);
        }
        g_assert_false(fake_host_trace_has(&r->fh, " violation "));
        rig_free(r);
    }
}

/* ---- ICH5 SATA ----------------------------------------------------------- */

static void test_sata_ports(void)
{
    Rig *r = rig_new_full("ich5-sata", 0x1, 0, true);
    uint16_t id[256];

    /* Ports disabled after reset: nothing answers, nothing present. */
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0000);
    g_assert_cmphex(rig_status(r, 0), ==, 0x7F);
    /* The driver enables both ports; port 0 has a drive. */
    cfg_w(r, 0x92, 0x0003, 2);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0013);
    g_assert_cmphex(cfg(r, 0x90, 1), ==, 0x00);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmphex(rig_status(r, 1), ==, 0x7F);
    /* Present bits are read-only */
    cfg_w(r, 0x92, 0x00F3, 2);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0013);
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 sata-port d0 port=0 up"));
    rig_identify(r, 0, id);
    g_assert_cmphex(id[76], ==, 0x0002);
    g_assert_cmphex(id[93], ==, 0x0000);
    g_assert_cmphex(id[222], ==, 0x1002);
    g_assert_cmphex(id[88] & 0xFF, ==, 0x7F);
    /* UDMA 6 is accepted by a SATA drive */
    set_xfer(r, 0, 0x46);
    /* Timing registers have no effect on SATA: nothing is checked wrong */
    cfg_w(r, 0x48, 0x00, 1);
    cfg_w(r, 0x40, 0x8000 | 0x3300 | 0x1, 2);
    g_assert_cmphex(dma_read(r, 0), ==, ST_READY);
    g_assert_cmphex(pio_read(r, 0), ==, ST_READY);
    g_assert_cmpuint(atalab_ctrl_violations(r->c, 0), ==, 0);
    /* Port disabled again: the drive is gone */
    cfg_w(r, 0x92, 0x0002, 2);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0002);
    g_assert_cmphex(rig_status(r, 0), ==, 0x7F);
    /* Slave positions never answer */
    cfg_w(r, 0x92, 0x0003, 2);
    rig_select(r, 1);
    g_assert_cmphex(rig_status(r, 0), ==, 0x00);
    rig_free(r);

    /* Port 1 (secondary master) only */
    r = rig_new_full("ich5-sata", 0x4, 0, false);
    cfg_w(r, 0x92, 0x0003, 2);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0023);
    g_assert_cmphex(rig_status(r, 0), ==, 0x7F);
    g_assert_cmphex(rig_status(r, 1), ==, ST_READY);
    atalab_ctrl_reset(r->c);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0000);
    g_assert_cmphex(rig_status(r, 1), ==, 0x7F);
    rig_free(r);
}

/*
 * By default the firmware enables the ports that have a disk (PCS PnE,
 * ICH5 252516 section 10.1.34), on every reset; sata-ports=off (0) leaves
 * them off; enables asked of a personality without PCS are refused.
 */
static void test_sata_firmware_ports(void)
{
    Rig *r = rig_new_full("ich5-sata", 0x4, 0, true);

    g_assert_true(atalab_ctrl_set_firmware_ports(r->c, -1));
    g_assert_cmpuint(atalab_ctrl_firmware_ports(r->c), ==, 0x2);
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    /* Port 1 enabled and present; port 0 (no disk) left off */
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0022);
    g_assert_cmphex(rig_status(r, 1), ==, ST_READY);
    g_assert_cmphex(rig_status(r, 0), ==, 0x7F);
    g_assert_true(fake_host_trace_has(&r->fh, "ata1 sata-port d0 port=1 up"));
    /* Off: PCS as at power-on after the next reset */
    g_assert_true(atalab_ctrl_set_firmware_ports(r->c, 0));
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0000);
    g_assert_cmphex(rig_status(r, 1), ==, 0x7F);
    /* An explicit mask; bad values refused */
    g_assert_true(atalab_ctrl_set_firmware_ports(r->c, 0x3));
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0023);
    g_assert_false(atalab_ctrl_set_firmware_ports(r->c, 4));
    g_assert_false(atalab_ctrl_set_firmware_ports(r->c, -2));
    rig_free(r);

    r = rig_new_full("ich5", 0x1, 0, false);
    g_assert_false(atalab_ctrl_set_firmware_ports(r->c, 1));
    g_assert_true(atalab_ctrl_set_firmware_ports(r->c, -1));
    g_assert_cmpuint(atalab_ctrl_firmware_ports(r->c), ==, 0);
    rig_free(r);
}

/* IDENTIFY's serial number (words 10-19) of the drive at a position. */
static void identify_serial(Rig *r, unsigned drive, char out[21])
{
    uint16_t id[256];
    unsigned i;

    rig_identify(r, drive, id);
    for (i = 0; i < 10; i++) {
        out[2 * i] = id[10 + i] >> 8;
        out[2 * i + 1] = id[10 + i] & 0xFF;
    }
    out[20] = '\0';
    g_strchomp(out);
}

/*
 * MAP routes the ports' disks to positions (ich5_sata_map): swapped,
 * combined on either channel (the other one the PATA side's, empty here),
 * reserved (nothing), and back to 000b on reset.  The disks keep their
 * identity and their data: a write at a position lands on the disk MAP put
 * there.
 */
static void test_sata_map(void)
{
    Rig *r = rig_new_full("ich5-sata", 0x5, 0, true);
    char serial[21];
    uint8_t zero[512] = { 0 };

    cfg_w(r, 0x92, 0x0003, 2);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0000");
    identify_serial(r, 2, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0002");
    /* 001b: swapped */
    cfg_w(r, 0x90, 0x01, 1);
    g_assert_cmphex(cfg(r, 0x90, 1), ==, 0x01);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0033);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0002");
    identify_serial(r, 2, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0000");
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 sata-port d0 port=0 down"));
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 sata-port d0 port=1 up"));
    /* The primary master's write lands on port 1's disk (drive 2) */
    g_assert_false(memcmp(r->fh.disk[2], zero, sizeof(zero)) == 0);
    g_assert_cmphex(pio_write(r, 0), ==, ST_READY);
    g_assert_true(memcmp(r->fh.disk[2], zero, sizeof(zero)) == 0);
    g_assert_false(memcmp(r->fh.disk[0], zero, sizeof(zero)) == 0);
    /* A fault rule's drive= is the position, whichever disk is there */
    {
        g_autofree char *err = NULL;

        g_assert_true(atalab_faults_add(atalab_ctrl_faults(r->c),
                                        "abrt drive=2 cmd=0x20", "test", 1,
                                        &err));
        atalab_ctrl_faults_changed(r->c);
        g_assert_cmphex(pio_read(r, 0), ==, ST_READY);
        rig_lba28(r, 2, 0, 1);
        rig_command(r, 2, 0x20);
        fake_host_complete_all(&r->fh);
        g_assert_cmphex(rig_status(r, 1), ==, ST_READY | ST_ERR);
        atalab_faults_clear(atalab_ctrl_faults(r->c));
        atalab_ctrl_faults_changed(r->c);
    }
    /* 100b: both on the primary, port 0 the master; the secondary empty */
    cfg_w(r, 0x90, 0x04, 1);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0000");
    identify_serial(r, 1, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0002");
    g_assert_cmphex(rig_status(r, 1), ==, 0x7F);
    /* 111b: both on the secondary, port 1 the master */
    cfg_w(r, 0x90, 0x07, 1);
    identify_serial(r, 2, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0002");
    identify_serial(r, 3, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0000");
    g_assert_cmphex(rig_status(r, 0), ==, 0x7F);
    /* A port disabled in PCS leaves its position whatever the map */
    cfg_w(r, 0x92, 0x0002, 2);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0022);
    rig_select(r, 3);
    g_assert_cmphex(rig_status(r, 1), ==, 0x00);
    cfg_w(r, 0x92, 0x0003, 2);
    /* 010b is reserved: nothing answers */
    cfg_w(r, 0x90, 0x02, 1);
    g_assert_cmphex(rig_status(r, 0), ==, 0x7F);
    g_assert_cmphex(rig_status(r, 1), ==, 0x7F);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0003);
    /* Reset: MAP 000b, the disks where they started */
    atalab_ctrl_reset(r->c);
    cfg_w(r, 0x92, 0x0003, 2);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0000");
    rig_free(r);

    /* Firmware-set combined mode; MAP needs the SATA personality */
    r = rig_new_full("ich5-sata", 0x5, 0, true);
    g_assert_false(atalab_ctrl_set_firmware_map(r->c, 8));
    g_assert_true(atalab_ctrl_set_firmware_map(r->c, 5));
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmphex(cfg(r, 0x90, 1), ==, 0x05);
    cfg_w(r, 0x92, 0x0003, 2);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0002");
    identify_serial(r, 1, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0000");
    rig_free(r);
    r = rig_new_full("ich5", 0x1, 0, false);
    g_assert_false(atalab_ctrl_set_firmware_map(r->c, 4));
    rig_free(r);

    /*
     * The PATA side's disks (drives 1 and 3): nowhere under 000b; a
     * combined map puts them on its PATA channel, present without PCS
     * and not SATA; the trace header lists them.
     */
    r = rig_new_full("ich5-sata", 0xF, 0, true);
    {
        g_autofree char *header = atalab_ctrl_trace_header(r->c, NULL);
        uint16_t id[256];

        g_assert_nonnull(strstr(header, "# drive1 sectors="));
        g_assert_nonnull(strstr(header, "# drive3 sectors="));
        cfg_w(r, 0x92, 0x0003, 2);
        rig_select(r, 1);
        g_assert_cmphex(rig_status(r, 0), ==, 0x00);
        cfg_w(r, 0x92, 0x0000, 2);
        cfg_w(r, 0x90, 0x06, 1);
        identify_serial(r, 0, serial);
        g_assert_cmpstr(serial, ==, "ATALAB0001");
        identify_serial(r, 1, serial);
        g_assert_cmpstr(serial, ==, "ATALAB0003");
        rig_identify(r, 0, id);
        g_assert_cmphex(id[76], ==, 0x0000);
        /* The ports, disabled in PCS, are not there */
        g_assert_cmphex(rig_status(r, 1), ==, 0x7F);
    }
    rig_free(r);
}

/*
 * A MAP change while a moved drive has a request with the host (no drain)
 * waits: the drive keeps its disk until the request completes, and the
 * next register access applies the map.
 */
static void test_sata_map_busy(void)
{
    Rig *r = rig_new_full("ich5-sata", 0x5, 0, true);
    char serial[21];

    r->fh.drain = false;
    cfg_w(r, 0x92, 0x0003, 2);
    rig_lba28(r, 0, 0, 1);
    rig_command(r, 0, 0x20);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    cfg_w(r, 0x90, 0x01, 1);
    g_assert_cmpuint(atalab_ctrl_inflight(r->c, 0), ==, 1);
    fake_host_complete_all(&r->fh);
    g_assert_cmpuint(atalab_ctrl_inflight(r->c, 0), ==, 0);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0002");
    rig_free(r);
}

/*
 * The fake host's DMA hook: the bus master's data write to memory (not its
 * PRD fetch) writes MAP, as one into MMCONFIG would.
 */
static void map_from_dma(void *opaque, uint64_t addr, bool write)
{
    Rig *r = opaque;

    if (!write) {
        return;
    }
    r->fh.on_dma = NULL;
    atalab_ctrl_config_write(r->c, 0x90, 0x01, 1);
}

/* The same hook, resetting the controller (PCIRST# from the access). */
static void reset_from_dma(void *opaque, uint64_t addr, bool write)
{
    Rig *r = opaque;

    if (!write) {
        return;
    }
    r->fh.on_dma = NULL;
    atalab_ctrl_reset(r->c);
}

/*
 * A MAP write from inside the DMA of a drive it moves: the drive is not
 * pulled from under its own transfer (ASan would see the buffer freed);
 * its command ends, and the next register access moves it.  The same
 * for a reset that moves the disks back.
 */
static void test_sata_map_reentry(void)
{
    Rig *r = rig_new_full("ich5-sata", 0x5, 0, true);
    char serial[21];

    /* Guest memory written through the host's copy, not mapped */
    r->fh.zero_copy = false;
    cfg_w(r, 0x92, 0x0003, 2);
    r->fh.on_dma = map_from_dma;
    r->fh.on_dma_opaque = r;
    dma_read(r, 0);
    g_assert_null(r->fh.on_dma);
    g_assert_cmphex(cfg(r, 0x90, 1), ==, 0x01);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0002");
    g_assert_cmphex(dma_read(r, 0), ==, ST_READY);
    /* A reset from inside the DMA moves the disks back (MAP 000b) later */
    r->fh.on_dma = reset_from_dma;
    dma_read(r, 0);
    g_assert_null(r->fh.on_dma);
    g_assert_cmphex(cfg(r, 0x90, 1), ==, 0x00);
    cfg_w(r, 0x92, 0x0003, 2);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0000");
    rig_free(r);
}

/*
 * The firmware's enables with a combined map (101b: port 1 primary master,
 * port 0 primary slave): the map first, then the ports, both there with no
 * PCS write from the guest.
 */
static void test_sata_firmware_ports_map(void)
{
    Rig *r = rig_new_full("ich5-sata", 0x5, 0, true);
    char serial[21];

    g_assert_true(atalab_ctrl_set_firmware_map(r->c, 5));
    g_assert_true(atalab_ctrl_set_firmware_ports(r->c, -1));
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmphex(cfg(r, 0x90, 1), ==, 0x05);
    g_assert_cmphex(cfg(r, 0x92, 2), ==, 0x0033);
    identify_serial(r, 0, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0002");
    identify_serial(r, 1, serial);
    g_assert_cmpstr(serial, ==, "ATALAB0000");
    rig_free(r);
}

static void test_summary(void)
{
    Rig *r = rig_new_full("piix4", 0x1, 0, true);

    pio_read(r, 0);
    atalab_ctrl_trace_summary(r->c);
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 timing-summary d0 "
                                      "checks=1 violations=0"));
    g_assert_true(fake_host_trace_has(&r->fh, "ata1 timing-summary d1 "
                                      "checks=0 violations=0"));
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/personality/tables", test_personality_tables);
    g_test_add_func("/decode/pio", test_decode_pio);
    g_test_add_func("/decode/mwdma", test_decode_mwdma);
    g_test_add_func("/decode/udma", test_decode_udma);
    g_test_add_func("/decode/reserved", test_decode_reserved);
    g_test_add_func("/decode/trace", test_decode_trace);
    g_test_add_func("/cable/model", test_cable);
    g_test_add_func("/rule/pio-overclock", test_rule_pio_overclock);
    g_test_add_func("/rule/iordy-off", test_rule_iordy);
    g_test_add_func("/rule/prefetch-non-ata", test_rule_prefetch);
    g_test_add_func("/rule/mwdma", test_rule_mwdma);
    g_test_add_func("/rule/udma-enable", test_rule_udma_enable);
    g_test_add_func("/rule/udma-timing", test_rule_udma_timing);
    g_test_add_func("/rule/udma-40-wire", test_rule_cable);
    g_test_add_func("/rule/strict-icrc", test_strict_icrc);
    g_test_add_func("/rule/clean", test_clean_sequences);
    g_test_add_func("/sata/ports", test_sata_ports);
    g_test_add_func("/sata/firmware-ports", test_sata_firmware_ports);
    g_test_add_func("/sata/firmware-ports-map", test_sata_firmware_ports_map);
    g_test_add_func("/sata/map", test_sata_map);
    g_test_add_func("/sata/map-busy", test_sata_map_busy);
    g_test_add_func("/sata/map-reentry", test_sata_map_reentry);
    g_test_add_func("/summary", test_summary);
    return g_test_run();
}
