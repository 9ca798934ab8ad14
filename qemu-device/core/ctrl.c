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
#include <string.h>

#include "ata-device.h"
#include "bmdma.h"
#include "trace.h"

/* IDETIM bit 15: IDE decode enable of the channel. */
#define IDETIM_IDE      0x8000

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
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        static const AtalabDriveConfig absent = { .present = false };

        atalab_ata_init(c, i, drives ? &drives[i] : &absent);
    }
    atalab_ctrl_reset(c);
    return c;
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
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        atalab_bm_reset(&c->chan[i]);
        atalab_ata_channel_power_on(&c->chan[i]);
    }
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
    atalab_trace(c, "cfg firmware-init");
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
