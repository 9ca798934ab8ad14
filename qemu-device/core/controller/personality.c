/*
 * atalab emulator core: the table of controller personalities.
 *
 * Register layouts, reset values and writable masks come from the Intel
 * datasheets: 82371AB PIIX4 (290562), "PCI Configuration Registers -- IDE
 * Interface (Function 1)", and 82371SB PIIX3 (290550), "PCI Configuration
 * Registers -- IDE Interface"; Intel 82801EB/ER ICH5 (252516), "IDE
 * Controller Registers (D31:F1)" and "SATA Controller Registers (D31:F2)".
 * Reserved bits read 0 and are not writable.  Register names are the PIIX4
 * mnemonics throughout (the ICH5 datasheet calls IDETIM IDE_TIM, UDMACTL
 * SDMA_CNT and UDMATIM SDMA_TIM); docs/timing.md has the mapping and the
 * values whose datasheet source is uncertain.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include <glib.h>

#include "atalab-personality.h"
#include "pci-ide-regs.h"

/*
 * Each generation adds registers to its predecessor's, at the same offsets
 * with the same reset values and masks, so every personality uses a prefix
 * of this one list.
 */
static const AtalabConfigReg ide_regs[] = {
    /* PIIX3 and later: PIO/MWDMA timing */
    { "IDETIM0", CFG_IDETIM0, 2, 0x0000, IDETIM_WMASK },
    { "IDETIM1", CFG_IDETIM1, 2, 0x0000, IDETIM_WMASK },
    { "SIDETIM", CFG_SIDETIM, 1, 0x00, SIDETIM_WMASK },
    /* PIIX4 and later: Ultra DMA */
    { "UDMACTL", CFG_UDMACTL, 1, 0x00, UDMACTL_WMASK },
    { "UDMATIM", CFG_UDMATIM, 2, 0x0000, UDMATIM_WMASK },
    /* ICH5: clock selects and cable reporting */
    { "IDE_CONFIG", CFG_IDE_CONFIG, 4, 0x00000000, IDE_CONFIG_WMASK },
    /* ICH5 SATA: port mapping and port control/status */
    { "MAP", CFG_MAP, 1, 0x00, MAP_WMASK },
    { "PCS", CFG_PCS, 2, 0x0000, PCS_WMASK },
};

#define N_REGS_PIIX3        3
#define N_REGS_PIIX4        5
#define N_REGS_ICH5         6
#define N_REGS_ICH5_SATA    8
G_STATIC_ASSERT(N_REGS_ICH5_SATA == G_N_ELEMENTS(ide_regs));

/*
 * PI: PIIX3/PIIX4 read 80h (legacy only, bus master); ICH5's IDE and SATA
 * functions reset to 8Ah (legacy, both channels native capable) with PNE
 * and SNE read/write (ICH5 252516, PI of D31:F1 and D31:F2).  The ICH5
 * SATA Programmer's Reference Manual ("Theory of Operation") has firmware
 * write 8Fh to the SATA function in enhanced mode, and calls a function
 * with one channel native and the other legacy undefined; the model
 * decodes each channel as its bit says (docs/timing.md, "Native mode").
 */
#define PI_LEGACY_ONLY \
    { "PI", CFG_PI, 1, PI_BUS_MASTER, 0x00 }
#define PI_NATIVE_SWITCHABLE \
    { "PI", CFG_PI, 1, \
      PI_BUS_MASTER | PI_NATIVE_CAPABLE(0) | PI_NATIVE_CAPABLE(1), \
      PI_NATIVE_WMASK }

/*
 * ICH5 SATA MAP bits 2:0 (252516, MAP of D31:F2; the same table is
 * ich5_map_db in Linux's ata_piix): 000b port 0 primary master and port 1
 * secondary master, 001b the ports swapped; 01xb reserved; 1xxb combined:
 * 10xb both ports on the primary channel (bit 0: port 1 the master), the
 * secondary channel the PATA side's; 11xb the same with the channels
 * exchanged.
 */
#define NA ATALAB_MAP_NONE
#define PATA ATALAB_MAP_PATA
#define RV ATALAB_MAP_RESERVED
static const int8_t ich5_sata_map[8][4] = {
    { 0, NA, 1, NA },           /* 000b */
    { 1, NA, 0, NA },           /* 001b */
    { RV, RV, RV, RV },         /* 010b */
    { RV, RV, RV, RV },         /* 011b */
    { 0, 1, PATA, PATA },       /* 100b */
    { 1, 0, PATA, PATA },       /* 101b */
    { PATA, PATA, 0, 1 },       /* 110b */
    { PATA, PATA, 1, 0 },       /* 111b */
};
#undef NA
#undef PATA
#undef RV

static const AtalabPersonality personalities[] = {
    {
        .name = "piix4",
        .description = "Intel 82371AB/EB PIIX4 IDE",
        .vendor_id = 0x8086,
        .device_id = 0x7111,
        .revision = 0x01,
        .class_code = 0x0101,
        .pi = PI_LEGACY_ONLY,
        .regs = ide_regs,
        .n_regs = N_REGS_PIIX4,
        .max_pio = 4,
        .max_mwdma = 2,
        .max_udma = 2,
    },
    {
        .name = "piix3",
        .description = "Intel 82371SB PIIX3 IDE",
        .vendor_id = 0x8086,
        .device_id = 0x7010,
        .revision = 0x00,
        .class_code = 0x0101,
        .pi = PI_LEGACY_ONLY,
        .regs = ide_regs,
        .n_regs = N_REGS_PIIX3,
        .max_pio = 4,
        .max_mwdma = 2,
        .max_udma = -1,
    },
    {
        .name = "ich5",
        .description = "Intel 82801EB ICH5 Ultra ATA/100 IDE",
        .vendor_id = 0x8086,
        .device_id = 0x24DB,
        .revision = 0x02,
        .class_code = 0x0101,
        .pi = PI_NATIVE_SWITCHABLE,
        .regs = ide_regs,
        .n_regs = N_REGS_ICH5,
        .max_pio = 4,
        .max_mwdma = 2,
        .max_udma = 5,
        .caps = ATALAB_CAP_ICH_CLOCKS | ATALAB_CAP_NATIVE,
        .default_cable80 = true,
    },
    {
        .name = "ich5-sata",
        .description = "Intel 82801EB ICH5 SATA (IDE mode)",
        .vendor_id = 0x8086,
        .device_id = 0x24D1,
        .revision = 0x02,
        .class_code = 0x0101,
        .pi = PI_NATIVE_SWITCHABLE,
        .regs = ide_regs,
        .n_regs = N_REGS_ICH5_SATA,
        .max_pio = 4,
        .max_mwdma = 2,
        .max_udma = 6,
        .caps = ATALAB_CAP_ICH_CLOCKS | ATALAB_CAP_SATA | ATALAB_CAP_NATIVE,
        .default_cable80 = false,
        .sata_map = ich5_sata_map,
    },
};

const AtalabPersonality *atalab_personality_find(const char *name)
{
    size_t i;

    if (!name) {
        return NULL;
    }
    for (i = 0; i < G_N_ELEMENTS(personalities); i++) {
        if (!strcmp(personalities[i].name, name)) {
            return &personalities[i];
        }
    }
    return NULL;
}

const char *atalab_personality_names(void)
{
    static gsize once;
    static const char *names;

    if (g_once_init_enter(&once)) {
        GString *s = g_string_new(NULL);
        size_t i;

        for (i = 0; i < G_N_ELEMENTS(personalities); i++) {
            g_string_append_printf(s, "%s%s", i ? ", " : "",
                                   personalities[i].name);
        }
        names = g_string_free(s, FALSE);
        g_once_init_leave(&once, 1);
    }
    return names;
}

const AtalabConfigReg *atalab_personality_reg(const AtalabPersonality *p,
                                              const char *name)
{
    size_t i;

    if (name && !g_ascii_strcasecmp(p->pi.name, name)) {
        return &p->pi;
    }
    for (i = 0; name && i < p->n_regs; i++) {
        if (!g_ascii_strcasecmp(p->regs[i].name, name)) {
            return &p->regs[i];
        }
    }
    return NULL;
}

const AtalabConfigReg *atalab_personality_reg_at(const AtalabPersonality *p,
                                                 unsigned addr)
{
    size_t i;

    if (addr == p->pi.offset) {
        return &p->pi;
    }
    for (i = 0; i < p->n_regs; i++) {
        const AtalabConfigReg *r = &p->regs[i];

        if (addr >= r->offset && addr < (unsigned)r->offset + r->size) {
            return r;
        }
    }
    return NULL;
}

int atalab_personality_sata_port(const AtalabPersonality *p, unsigned map,
                                 unsigned position)
{
    if (!(p->caps & ATALAB_CAP_SATA) || !p->sata_map || position > 3) {
        return ATALAB_MAP_NONE;
    }
    return p->sata_map[map & MAP_WMASK][position];
}
