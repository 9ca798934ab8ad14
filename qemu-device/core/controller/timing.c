/*
 * atalab emulator core: timing register decode and the timing rules.
 *
 * Register fields: PIIX4 datasheet (290562), "IDETIM--IDE Timing Register",
 * "SIDETIM--Slave IDE Timing Register", "UDMACTL--Ultra DMA/33 Control
 * Register", "UDMATIM--Ultra DMA/33 Timing Register"; ICH5 datasheet
 * (252516), D31:F1 "IDE_TIM", "SIDETIM", "SDMA_CNT", "SDMA_TIM" and
 * "IDE_CONFIG--IDE I/O Configuration Register".  Mode timings: ATA/ATAPI-7
 * volume 2 (T13 1532D vol. 2), PIO, multiword DMA and Ultra DMA timing
 * tables.  docs/timing.md lists every table and rule with its source.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "atalab-timing.h"
#include "pci-ide-regs.h"

/* ATA/ATAPI-7 vol. 2: PIO timing t0, multiword DMA timing t0 (ns). */
static const unsigned pio_min_cycle[] = { 600, 383, 240, 180, 120 };
static const unsigned mwdma_min_cycle[] = { 480, 150, 120 };

unsigned atalab_pio_min_cycle(int mode)
{
    if (mode < 0) {
        mode = 0;
    }
    if (mode >= (int)G_N_ELEMENTS(pio_min_cycle)) {
        mode = G_N_ELEMENTS(pio_min_cycle) - 1;
    }
    return pio_min_cycle[mode];
}

unsigned atalab_mwdma_min_cycle(int mode)
{
    if (mode < 0) {
        mode = 0;
    }
    if (mode >= (int)G_N_ELEMENTS(mwdma_min_cycle)) {
        mode = G_N_ELEMENTS(mwdma_min_cycle) - 1;
    }
    return mwdma_min_cycle[mode];
}

/*
 * The mode a cycle runs at: the slowest mode whose minimum cycle the cycle
 * meets (600 ns: mode 0, 270 ns: PIO 2); -1 when it is faster than every
 * mode's minimum.
 */
static int cycle_mode(const unsigned *min, int n, unsigned cycle)
{
    int m;

    for (m = 0; m < n; m++) {
        if (cycle >= min[m]) {
            return m;
        }
    }
    return -1;
}

/*
 * UDMATIM CT field and base clock -> Ultra DMA mode (PIIX4 UDMATIM, ICH5
 * SDMA_TIM with IDE_CONFIG PCBx / FAST_PCBx).  CT/RP in clocks of that base
 * clock; 0 = reserved.
 */
typedef struct UdmaCode {
    unsigned ct, rp;
    int mode;
} UdmaCode;

static const UdmaCode udma_33[4] = {
    { 4, 6, 0 }, { 3, 5, 1 }, { 2, 4, 2 }, { 0, 0, -1 },
};
static const UdmaCode udma_66[4] = {
    { 0, 0, -1 }, { 3, 8, 3 }, { 2, 8, 4 }, { 0, 0, -1 },
};
static const UdmaCode udma_100[4] = {
    { 0, 0, -1 }, { 3, 16, 5 }, { 0, 0, -1 }, { 0, 0, -1 },
};

static uint32_t cfg_get(const uint8_t cfg[256], unsigned off, unsigned size)
{
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < size; i++) {
        v |= (uint32_t)cfg[off + i] << (8 * i);
    }
    return v;
}

static bool has_reg(const AtalabPersonality *p, unsigned offset)
{
    const AtalabConfigReg *r = atalab_personality_reg_at(p, offset);

    return r && r->offset == offset;
}

void atalab_timing_decode(const AtalabPersonality *p, const uint8_t cfg[256],
                          unsigned drive, AtalabDriveTiming *t)
{
    unsigned ch = (drive / 2) & 1, unit = drive % 2;
    uint16_t idetim = cfg_get(cfg, CFG_IDETIM0 + 2 * ch, 2);
    unsigned flags = (idetim >> (4 * unit)) & 0xF;
    unsigned fast_ns;
    const UdmaCode *code;

    memset(t, 0, sizeof(*t));
    t->isp_field = (idetim >> IDETIM_ISP_SHIFT) & 3;
    t->rtc_field = (idetim >> IDETIM_RTC_SHIFT) & 3;
    if (unit == 1 && (idetim & IDETIM_SITRE)) {
        /* SIDETIM: 3:2 PISP1, 1:0 PRTC1; 7:6 SISP1, 5:4 SRTC1 */
        uint8_t sidetim = cfg[CFG_SIDETIM] >> (4 * ch);

        t->slave_timing = true;
        t->isp_field = (sidetim >> 2) & 3;
        t->rtc_field = sidetim & 3;
    }
    /* ISP 00b=5, 01b=4, 10b=3, 11b=2 clocks; RTC 00b=4 ... 11b=1 clock */
    t->isp_clocks = 5 - t->isp_field;
    t->rtc_clocks = 4 - t->rtc_field;
    fast_ns = (t->isp_clocks + t->rtc_clocks) * ATALAB_PCI_CLOCK_NS;

    t->iordy = flags & IDETIM_IE;
    t->prefetch = flags & IDETIM_PPE;
    t->dte = flags & IDETIM_DTE;
    if (!(flags & IDETIM_TIME)) {
        t->bank = ATALAB_BANK_COMPAT;
    } else if (t->dte) {
        t->bank = ATALAB_BANK_DMA_ONLY;
    } else {
        t->bank = ATALAB_BANK_FAST;
    }
    t->pio_cycle_ns = t->bank == ATALAB_BANK_FAST ? fast_ns :
                      ATALAB_COMPAT_CYCLE_NS;
    t->dma_cycle_ns = t->bank != ATALAB_BANK_COMPAT ? fast_ns :
                      ATALAB_COMPAT_CYCLE_NS;
    t->pio_mode = cycle_mode(pio_min_cycle, G_N_ELEMENTS(pio_min_cycle),
                               t->pio_cycle_ns);
    t->mwdma_mode = cycle_mode(mwdma_min_cycle,
                                 G_N_ELEMENTS(mwdma_min_cycle),
                                 t->dma_cycle_ns);

    t->udma_mode = -1;
    t->has_udma = p->max_udma >= 0 && has_reg(p, CFG_UDMACTL) &&
                  has_reg(p, CFG_UDMATIM);
    if (!t->has_udma) {
        return;
    }
    t->udma_enabled = cfg[CFG_UDMACTL] & (1u << drive);
    t->udma_ct_field = (cfg_get(cfg, CFG_UDMATIM, 2) >> (4 * drive)) & 3;
    t->udma_clock_mhz = 33;
    code = udma_33;
    if ((p->caps & ATALAB_CAP_ICH_CLOCKS) && has_reg(p, CFG_IDE_CONFIG)) {
        uint32_t ide_config = cfg_get(cfg, CFG_IDE_CONFIG, 4);

        /* FAST_xCBx selects the ATA/100 clock whatever xCBx says. */
        if (ide_config & (1u << (IDE_CONFIG_FAST_SHIFT + drive))) {
            t->udma_clock_mhz = 100;
            code = udma_100;
        } else if (ide_config & (1u << drive)) {
            t->udma_clock_mhz = 66;
            code = udma_66;
        }
    }
    t->udma_ct_clocks = code[t->udma_ct_field].ct;
    t->udma_rp_clocks = code[t->udma_ct_field].rp;
    t->udma_mode = code[t->udma_ct_field].mode;
}

static const char *const bank_names[] = {
    [ATALAB_BANK_COMPAT] = "compat",
    [ATALAB_BANK_FAST] = "fast",
    [ATALAB_BANK_DMA_ONLY] = "dma-only",
};

static void mode_str(char *buf, size_t len, const char *kind, int mode)
{
    if (mode < 0) {
        snprintf(buf, len, "over");
    } else {
        snprintf(buf, len, "%s%d", kind, mode);
    }
}

char *atalab_timing_format(const AtalabDriveTiming *t, char *buf, size_t len)
{
    char pio[16], mw[16], udma[48];

    mode_str(pio, sizeof(pio), "pio", t->pio_mode);
    mode_str(mw, sizeof(mw), "mwdma", t->mwdma_mode);
    if (!t->has_udma) {
        snprintf(udma, sizeof(udma), "none");
    } else if (t->udma_mode < 0) {
        snprintf(udma, sizeof(udma), "%s:reserved ct=%u clk=%u",
                 t->udma_enabled ? "on" : "off", t->udma_ct_field,
                 t->udma_clock_mhz);
    } else {
        snprintf(udma, sizeof(udma), "%s:udma%d ct=%u clk=%u",
                 t->udma_enabled ? "on" : "off", t->udma_mode,
                 t->udma_ct_field, t->udma_clock_mhz);
    }
    snprintf(buf, len, "bank=%s isp=%u rtc=%u iordy=%d prefetch=%d "
             "pio=%uns/%s mwdma=%uns/%s udma=%s", bank_names[t->bank],
             t->isp_clocks, t->rtc_clocks, t->iordy, t->prefetch,
             t->pio_cycle_ns, pio, t->dma_cycle_ns, mw, udma);
    return buf;
}

static const char *const rule_names[ATALAB_N_RULES] = {
    [ATALAB_RULE_PIO_OVERCLOCK] = "pio-overclock",
    [ATALAB_RULE_MWDMA_OVERCLOCK] = "mwdma-overclock",
    [ATALAB_RULE_UDMA_NOT_SELECTED] = "udma-on-not-udma",
    [ATALAB_RULE_UDMA_OFF] = "udma-off-in-udma",
    [ATALAB_RULE_UDMA_TIMING] = "udma-timing",
    [ATALAB_RULE_UDMA_CABLE] = "udma-40-wire",
    [ATALAB_RULE_IORDY_OFF] = "iordy-off",
    [ATALAB_RULE_PREFETCH_NON_ATA] = "prefetch-non-ata",
    [ATALAB_RULE_MODE_UNSUPPORTED] = "mode-unsupported",
};

const char *atalab_rule_name(AtalabRule rule)
{
    return rule < ATALAB_N_RULES ? rule_names[rule] : "unknown";
}

typedef struct CheckOut {
    AtalabViolation *out;
    unsigned max;
    unsigned n;
} CheckOut;

static void G_GNUC_PRINTF(5, 6)
fire(CheckOut *o, AtalabRule rule, const char *reg, const char *expected,
     const char *actual_fmt, ...)
{
    va_list ap;

    if (o->n < o->max) {
        AtalabViolation *v = &o->out[o->n];

        v->rule = rule;
        v->reg = reg;
        g_strlcpy(v->expected, expected, sizeof(v->expected));
        va_start(ap, actual_fmt);
        vsnprintf(v->actual, sizeof(v->actual), actual_fmt, ap);
        va_end(ap);
    }
    o->n++;
}

/* The register holding the drive's PIO/MWDMA cycle. */
static const char *cycle_reg(const AtalabDriveTiming *t, unsigned drive)
{
    if (t->slave_timing) {
        return "SIDETIM";
    }
    return (drive / 2) ? "IDETIM1" : "IDETIM0";
}

static const char *idetim_reg(unsigned drive)
{
    return (drive / 2) ? "IDETIM1" : "IDETIM0";
}

/* Base clock the ICH needs for Ultra DMA mode (ata_piix, ICH5 SDMA_TIM). */
static unsigned udma_clock_for(int mode)
{
    return mode >= 5 ? 100 : mode >= 3 ? 66 : 33;
}

static void check_udma(const AtalabPersonality *p, const AtalabDriveTiming *t,
                       const AtalabDriveMode *m, bool cable80, CheckOut *o)
{
    char want[32];
    int fastest;

    if (m->udma_mode > p->max_udma) {
        snprintf(want, sizeof(want), p->max_udma < 0 ? "no-udma" :
                 "<=udma%d", p->max_udma);
        fire(o, ATALAB_RULE_MODE_UNSUPPORTED, "drive", want, "udma%d",
             m->udma_mode);
    }
    if (!t->has_udma) {
        return;
    }
    if (!t->udma_enabled) {
        fire(o, ATALAB_RULE_UDMA_OFF, "UDMACTL", "on", "off");
    } else if (t->udma_mode < 0) {
        snprintf(want, sizeof(want), "udma%d", m->udma_mode);
        fire(o, ATALAB_RULE_MODE_UNSUPPORTED, (p->caps &
             ATALAB_CAP_ICH_CLOCKS) && t->udma_clock_mhz != 33 ?
             "IDE_CONFIG" : "UDMATIM", want, "reserved(ct=%u,clk=%u)",
             t->udma_ct_field, t->udma_clock_mhz);
    } else if (t->udma_mode != m->udma_mode &&
               m->udma_mode <= p->max_udma) {
        bool clock_wrong = (p->caps & ATALAB_CAP_ICH_CLOCKS) &&
                           udma_clock_for(m->udma_mode) != t->udma_clock_mhz;

        snprintf(want, sizeof(want), "udma%d", m->udma_mode);
        fire(o, ATALAB_RULE_UDMA_TIMING,
             clock_wrong ? "IDE_CONFIG" : "UDMATIM", want,
             "udma%d(ct=%u,clk=%u)", t->udma_mode, t->udma_ct_field,
             t->udma_clock_mhz);
    }
    fastest = m->udma_mode;
    if (t->udma_enabled && t->udma_mode > fastest) {
        fastest = t->udma_mode;
    }
    if (!cable80 && fastest > 2) {
        fire(o, ATALAB_RULE_UDMA_CABLE, "cable", "<=udma2", "udma%d",
             fastest);
    }
}

unsigned atalab_timing_check(const AtalabPersonality *p, unsigned drive,
                             const AtalabDriveTiming *t,
                             const AtalabDriveMode *m, bool cable80,
                             AtalabXfer xfer, AtalabViolation *out,
                             unsigned max)
{
    CheckOut o = { .out = out, .max = max };
    char want[32];

    /* SATA ports: the PATA timing registers have no effect (ICH5 SATA). */
    if (m->sata) {
        return 0;
    }
    if (xfer == ATALAB_XFER_PIO) {
        int limit = m->pio_mode >= 0 ? m->pio_mode : m->pio_max;

        if (m->pio_mode > p->max_pio) {
            snprintf(want, sizeof(want), "<=pio%d", p->max_pio);
            fire(&o, ATALAB_RULE_MODE_UNSUPPORTED, "drive", want, "pio%d",
                 m->pio_mode);
        }
        if (t->pio_cycle_ns < atalab_pio_min_cycle(limit)) {
            snprintf(want, sizeof(want), ">=%uns(pio%d)",
                     atalab_pio_min_cycle(limit), limit);
            fire(&o, ATALAB_RULE_PIO_OVERCLOCK, cycle_reg(t, drive), want,
                 "%uns", t->pio_cycle_ns);
        }
        /* PIO modes 3 and 4 are timed with IORDY flow control. */
        if (t->bank == ATALAB_BANK_FAST &&
            t->pio_cycle_ns < atalab_pio_min_cycle(2) && !t->iordy) {
            fire(&o, ATALAB_RULE_IORDY_OFF, idetim_reg(drive), "IE=1",
                 "IE=0(%uns)", t->pio_cycle_ns);
        }
        if (t->prefetch && !m->ata) {
            fire(&o, ATALAB_RULE_PREFETCH_NON_ATA, idetim_reg(drive),
                 "PPE=0", "PPE=1");
        }
        return o.n;
    }

    if (m->udma_mode >= 0) {
        check_udma(p, t, m, cable80, &o);
        return o.n;
    }
    if (t->has_udma && t->udma_enabled) {
        fire(&o, ATALAB_RULE_UDMA_NOT_SELECTED, "UDMACTL", "off", "on");
    }
    if (m->mwdma_mode >= 0) {
        if (m->mwdma_mode > p->max_mwdma) {
            snprintf(want, sizeof(want), "<=mwdma%d", p->max_mwdma);
            fire(&o, ATALAB_RULE_MODE_UNSUPPORTED, "drive", want, "mwdma%d",
                 m->mwdma_mode);
        }
        if (!(t->has_udma && t->udma_enabled) &&
            t->dma_cycle_ns < atalab_mwdma_min_cycle(m->mwdma_mode)) {
            snprintf(want, sizeof(want), ">=%uns(mwdma%d)",
                     atalab_mwdma_min_cycle(m->mwdma_mode), m->mwdma_mode);
            fire(&o, ATALAB_RULE_MWDMA_OVERCLOCK, cycle_reg(t, drive), want,
                 "%uns", t->dma_cycle_ns);
        }
    }
    return o.n;
}
