/*
 * atalab emulator core: the controller -- life cycle, PCI configuration
 * registers, and the one dispatch point (with its trace record) of every
 * register space.
 *
 * Configuration registers are data from the personality table; each byte
 * has a value, a reset value and a writable mask, so accesses of any size
 * at any offset work bytewise across register boundaries.  Bytes outside
 * the table are reserved: they read 0 and ignore writes (PIIX4 datasheet
 * 290562, "PCI Configuration Registers -- IDE Interface (Function 1)").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "ata-device.h"
#include "bmdma.h"
#include "trace.h"

/* IDETIM bit 15: IDE decode enable of the channel. */
#define IDETIM_IDE      0x8000

/* The timing registers: IDETIM0 .. IDE_CONFIG (0x40-0x57). */
#define CFG_TIMING_FIRST        0x40
#define CFG_TIMING_LAST         0x57
/* ICH5 IDE_CONFIG: bit 4 + drive = PCR0/PCR1/SCR0/SCR1 (80-conductor). */
#define IDE_CONFIG_CABLE_SHIFT  4
/* ICH5 SATA PCS (0x92): bit n PnE port enable, bit 4 + n PnP present. */
#define PCS_PRESENT_SHIFT       4

static const char *const cmd_space[ATALAB_CHANNELS] = { "ata0", "ata1" };
static const char *const ctl_space[ATALAB_CHANNELS] = { "ctl0", "ctl1" };

static const AtalabConfigReg *find_reg(const AtalabCtrl *c, const char *name)
{
    size_t i;

    for (i = 0; i < c->pers->n_regs; i++) {
        if (!strcmp(c->pers->regs[i].name, name)) {
            return &c->pers->regs[i];
        }
    }
    return NULL;
}

AtalabCtrl *atalab_ctrl_new(const AtalabPersonality *personality,
                            const AtalabHost *host,
                            const AtalabDriveConfig drives[ATALAB_DRIVES])
{
    AtalabCtrl *c = g_new0(AtalabCtrl, 1);
    size_t i;
    unsigned b;

    c->pers = personality;
    c->host = host;
    for (i = 0; i < personality->n_regs; i++) {
        const AtalabConfigReg *r = &personality->regs[i];

        for (b = 0; b < r->size && r->offset + b < 256; b++) {
            c->cfg_reset[r->offset + b] = r->reset >> (8 * b);
            c->cfg_wmask[r->offset + b] = r->writable >> (8 * b);
        }
    }
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        c->chan[i].index = i;
        c->chan[i].cable80 = personality->default_cable80;
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        static const AtalabDriveConfig absent = { .present = false };

        const AtalabDriveConfig *cfg = drives ? &drives[i] : &absent;
        bool sata = (personality->caps & ATALAB_CAP_SATA);

        atalab_ata_init(c, i, cfg);
        c->drive[i].attached = cfg->present;
        if (sata) {
            c->drive[i].sata = true;
            /* A position without a SATA port has no device. */
            c->drive[i].attached = cfg->present &&
                                   personality->sata_port[i] >= 0;
            c->drive[i].present = false;
        }
    }
    atalab_ctrl_reset(c);
    return c;
}

static int pcs_offset(const AtalabCtrl *c)
{
    const AtalabConfigReg *r = find_reg(c, "PCS");

    return (c->pers->caps & ATALAB_CAP_SATA) && r ? r->offset : -1;
}

/*
 * ICH5 SATA: a drive answers on its channel only while its port is enabled
 * (PCS PnE); PnP reads 1 for an enabled port with a device.  Enabling a
 * port resets its channel as a COMRESET would.
 */
static void sata_update_ports(AtalabCtrl *c)
{
    int pcs = pcs_offset(c);
    uint8_t present_bits = 0;
    unsigned i;

    if (pcs < 0) {
        return;
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        AtalabDrive *d = &c->drive[i];
        int port = c->pers->sata_port[i];
        bool on;

        if (port < 0) {
            continue;
        }
        on = d->attached && (c->cfg[pcs] & (1u << port));
        if (on) {
            present_bits |= 1u << (PCS_PRESENT_SHIFT + port);
        }
        if (on != d->present) {
            d->present = on;
            atalab_trace(c, "ata%u sata-port d%u port=%d %s", d->chan->index,
                         d->unit, port, on ? "up" : "down");
            atalab_ata_channel_power_on(d->chan);
        }
    }
    c->cfg[pcs] = (c->cfg[pcs] & 0x0F) | present_bits;
}

/* Decode every drive's setting; trace the drives whose setting changed. */
static void timing_update(AtalabCtrl *c)
{
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        AtalabDrive *d = &c->drive[i];
        char str[ATALAB_TIMING_STR_LEN];

        atalab_timing_decode(c->pers, c->cfg, i, &d->timing);
        atalab_timing_format(&d->timing, str, sizeof(str));
        if (strcmp(str, d->timing_str)) {
            g_strlcpy(d->timing_str, str, sizeof(d->timing_str));
            atalab_trace(c, "ata%u timing d%u %s", d->chan->index, d->unit,
                         str);
        }
    }
}

unsigned atalab_ctrl_check_xfer(AtalabDrive *d, AtalabXfer xfer)
{
    AtalabCtrl *c = d->ctrl;
    AtalabViolation v[ATALAB_N_RULES];
    AtalabDriveMode m = {
        .pio_mode = d->pio_mode,
        .mwdma_mode = d->mwdma_mode,
        .udma_mode = d->udma_mode,
        .pio_max = ATA_PIO_MAX,
        .ata = true,
        .sata = d->sata,
    };
    unsigned n, i;

    n = atalab_timing_check(c->pers, d->index, &d->timing, &m,
                            d->chan->cable80, xfer, v, G_N_ELEMENTS(v));
    d->xfer_checks++;
    d->violations += n;
    for (i = 0; i < n && i < G_N_ELEMENTS(v); i++) {
        d->rule_count[v[i].rule]++;
        atalab_trace(c, "ata%u violation d%u %s reg=%s expected=%s "
                     "actual=%s xfer=%s", d->chan->index, d->unit,
                     atalab_rule_name(v[i].rule), v[i].reg, v[i].expected,
                     v[i].actual, xfer == ATALAB_XFER_PIO ? "pio" : "dma");
        atalab_event(c, &(AtalabEvent) {
            .kind = ATALAB_EVENT_VIOLATION, .channel = d->chan->index,
            .drive = d->index, .name = atalab_rule_name(v[i].rule) });
    }
    return n;
}

void atalab_ctrl_free(AtalabCtrl *c)
{
    unsigned i;

    if (!c) {
        return;
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        atalab_ata_fini(&c->drive[i]);
    }
    g_free(c);
}

void atalab_ctrl_reset(AtalabCtrl *c)
{
    unsigned i;

    atalab_trace(c, "cfg reset");
    memcpy(c->cfg, c->cfg_reset, sizeof(c->cfg));
    for (i = 0; i < ATALAB_DRIVES; i++) {
        if (c->drive[i].sata) {
            c->drive[i].present = false;   /* ports disabled (PCS) */
        }
    }
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        atalab_bm_reset(&c->chan[i]);
        atalab_ata_channel_power_on(&c->chan[i]);
    }
    sata_update_ports(c);
    timing_update(c);
}

void atalab_ctrl_firmware_init(AtalabCtrl *c)
{
    static const char *const idetim[] = { "IDETIM0", "IDETIM1" };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(idetim); i++) {
        const AtalabConfigReg *r = find_reg(c, idetim[i]);

        if (r) {
            c->cfg[r->offset + 1] |= IDETIM_IDE >> 8;
        }
    }
    /*
     * ICH PATA: BIOS reports the cable in IDE_CONFIG PCRx/SCRx from each
     * drive's IDENTIFY word 93 bit 13 (ICH5 IDE_CONFIG; ata_piix reads it
     * in ich_pata_cable_detect).
     */
    if ((c->pers->caps & ATALAB_CAP_ICH_CLOCKS) &&
        !(c->pers->caps & ATALAB_CAP_SATA)) {
        const AtalabConfigReg *r = find_reg(c, "IDE_CONFIG");

        for (i = 0; r && i < ATALAB_DRIVES; i++) {
            if (c->drive[i].attached && c->drive[i].chan->cable80) {
                c->cfg[r->offset] |= 1u << (IDE_CONFIG_CABLE_SHIFT + i);
            }
        }
    }
    atalab_trace(c, "cfg firmware-init");
    timing_update(c);
}

bool atalab_ctrl_decode_enabled(const AtalabCtrl *c, unsigned channel)
{
    uint32_t v;

    if (channel >= ATALAB_CHANNELS ||
        !atalab_ctrl_config_reg(c, channel ? "IDETIM1" : "IDETIM0", &v)) {
        return false;
    }
    return v & IDETIM_IDE;
}

uint32_t atalab_ctrl_config_peek(const AtalabCtrl *c, uint32_t addr,
                                 unsigned size)
{
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < size && i < 4; i++) {
        if (addr + i < sizeof(c->cfg)) {
            v |= (uint32_t)c->cfg[addr + i] << (8 * i);
        }
    }
    return v;
}

bool atalab_ctrl_config_reg(const AtalabCtrl *c, const char *name,
                            uint32_t *value)
{
    const AtalabConfigReg *r = find_reg(c, name);

    if (!r) {
        return false;
    }
    *value = atalab_ctrl_config_peek(c, r->offset, r->size);
    return true;
}

uint32_t atalab_ctrl_config_read(AtalabCtrl *c, uint32_t addr, unsigned size)
{
    uint32_t v = atalab_ctrl_config_peek(c, addr, size);

    atalab_trace_access(c, "cfg", false, addr, size, v);
    return v;
}

void atalab_ctrl_config_write(AtalabCtrl *c, uint32_t addr, uint32_t val,
                              unsigned size)
{
    unsigned i;

    atalab_trace_access(c, "cfg", true, addr, size, val);
    for (i = 0; i < size && i < 4; i++) {
        uint32_t a = addr + i;
        uint8_t m;

        if (a >= sizeof(c->cfg)) {
            break;
        }
        m = c->cfg_wmask[a];
        c->cfg[a] = (c->cfg[a] & ~m) | ((val >> (8 * i)) & m);
    }
    if (addr <= CFG_TIMING_LAST && addr + size > CFG_TIMING_FIRST) {
        timing_update(c);
    }
    if (pcs_offset(c) >= 0 && addr <= (unsigned)pcs_offset(c) + 1 &&
        addr + size > (unsigned)pcs_offset(c)) {
        sata_update_ports(c);
    }
    atalab_event(c, &(AtalabEvent) {
        .kind = ATALAB_EVENT_CONFIG_WRITE, .drive = -1, .addr = addr,
        .size = size, .value = val });
}

uint32_t atalab_ctrl_cmd_read(AtalabCtrl *c, unsigned channel, unsigned reg,
                              unsigned size)
{
    uint32_t v = 0xFFFFFFFFu;

    if (channel < ATALAB_CHANNELS && reg < 8) {
        v = atalab_ata_reg_read(&c->chan[channel], reg, size);
    }
    if (size < 4) {
        v &= (1u << (8 * size)) - 1;
    }
    atalab_trace_access(c, cmd_space[channel & 1], false, reg, size, v);
    return v;
}

void atalab_ctrl_cmd_write(AtalabCtrl *c, unsigned channel, unsigned reg,
                           uint32_t val, unsigned size)
{
    atalab_trace_access(c, cmd_space[channel & 1], true, reg, size, val);
    if (channel < ATALAB_CHANNELS && reg == ATA_REG_COMMAND) {
        bool dev1 = c->chan[channel].device & ATA_DEV_DEV;

        atalab_event(c, &(AtalabEvent) {
            .kind = ATALAB_EVENT_COMMAND, .channel = channel,
            .drive = channel * 2 + dev1, .value = val & 0xFF });
    }
    if (channel < ATALAB_CHANNELS && reg < 8) {
        atalab_ata_reg_write(&c->chan[channel], reg, val, size);
    }
}

uint32_t atalab_ctrl_ctl_read(AtalabCtrl *c, unsigned channel)
{
    uint32_t v = 0xFF;

    if (channel < ATALAB_CHANNELS) {
        v = atalab_ata_altstatus(&c->chan[channel]);
    }
    atalab_trace_access(c, ctl_space[channel & 1], false, 0, 1, v);
    return v;
}

void atalab_ctrl_ctl_write(AtalabCtrl *c, unsigned channel, uint32_t val)
{
    atalab_trace_access(c, ctl_space[channel & 1], true, 0, 1, val & 0xFF);
    if (channel < ATALAB_CHANNELS) {
        atalab_ata_devctl_write(&c->chan[channel], val);
    }
}

uint32_t atalab_ctrl_bm_read(AtalabCtrl *c, uint32_t offset, unsigned size)
{
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < size && i < 4; i++) {
        v |= (uint32_t)atalab_bm_read_byte(c, offset + i) << (8 * i);
    }
    atalab_trace_access(c, "bm", false, offset, size, v);
    return v;
}

void atalab_ctrl_bm_write(AtalabCtrl *c, uint32_t offset, uint32_t val,
                          unsigned size)
{
    unsigned i;

    atalab_trace_access(c, "bm", true, offset, size, val);
    for (i = 0; i < size && i < 4; i++) {
        atalab_bm_write_byte(c, offset + i, val >> (8 * i));
    }
}

void atalab_ctrl_set_cable80(AtalabCtrl *c, unsigned channel, bool cable80)
{
    if (channel < ATALAB_CHANNELS) {
        c->chan[channel].cable80 = cable80;
    }
}

bool atalab_ctrl_irq_level(const AtalabCtrl *c, unsigned channel)
{
    return channel < ATALAB_CHANNELS && c->chan[channel].irq_level;
}

const AtalabPersonality *atalab_ctrl_personality(const AtalabCtrl *c)
{
    return c->pers;
}

bool atalab_ctrl_cable80(const AtalabCtrl *c, unsigned channel)
{
    return channel < ATALAB_CHANNELS && c->chan[channel].cable80;
}

void atalab_ctrl_set_strict(AtalabCtrl *c, bool strict)
{
    c->strict = strict;
}

bool atalab_ctrl_timing(const AtalabCtrl *c, unsigned drive,
                        AtalabDriveTiming *t)
{
    if (drive >= ATALAB_DRIVES) {
        return false;
    }
    *t = c->drive[drive].timing;
    return true;
}

const char *atalab_ctrl_timing_string(const AtalabCtrl *c, unsigned drive)
{
    return drive < ATALAB_DRIVES ? c->drive[drive].timing_str : "";
}

unsigned atalab_ctrl_xfer_checks(const AtalabCtrl *c, unsigned drive)
{
    return drive < ATALAB_DRIVES ? c->drive[drive].xfer_checks : 0;
}

unsigned atalab_ctrl_violations(const AtalabCtrl *c, unsigned drive)
{
    return drive < ATALAB_DRIVES ? c->drive[drive].violations : 0;
}

unsigned atalab_ctrl_rule_count(const AtalabCtrl *c, unsigned drive,
                                AtalabRule rule)
{
    if (drive >= ATALAB_DRIVES || rule >= ATALAB_N_RULES) {
        return 0;
    }
    return c->drive[drive].rule_count[rule];
}

void atalab_ctrl_trace_summary(const AtalabCtrl *c)
{
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        const AtalabDrive *d = &c->drive[i];

        atalab_trace(c, "ata%u timing-summary d%u checks=%u violations=%u",
                     d->chan->index, d->unit, d->xfer_checks,
                     d->violations);
    }
}
