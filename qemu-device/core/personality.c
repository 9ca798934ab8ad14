/*
 * atalab emulator core: the table of controller personalities.
 *
 * Register layouts, reset values and writable masks come from the Intel
 * datasheets: 82371AB PIIX4 (290562), "PCI Configuration Registers -- IDE
 * Interface (Function 1)", and 82371SB PIIX3 (290550), "PCI Configuration
 * Registers -- IDE Interface".  Reserved bits read 0 and are not writable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>
#include <glib.h>

#include "atalab-personality.h"

/*
 * IDETIM (one per channel): 15 IDE decode enable, 14 SITRE, 13:12 ISP,
 * 11:10 reserved, 9:8 RTC, 7:0 DTE/PPE/IE/TIME for drives 1 and 0.
 */
#define IDETIM_WMASK    0xF3FF
/* SIDETIM: 7:6 SISP1, 5:4 SRTC1, 3:2 PISP1, 1:0 PRTC1, all read/write. */
#define SIDETIM_WMASK   0xFF
/* UDMACTL: 3 SSDE1, 2 SSDE0, 1 PSDE1, 0 PSDE0; 7:4 reserved. */
#define UDMACTL_WMASK   0x0F
/* UDMATIM: 13:12 SCT1, 9:8 SCT0, 5:4 PCT1, 1:0 PCT0; others reserved. */
#define UDMATIM_WMASK   0x3333

static const AtalabConfigReg piix4_regs[] = {
    { "IDETIM0", 0x40, 2, 0x0000, IDETIM_WMASK },
    { "IDETIM1", 0x42, 2, 0x0000, IDETIM_WMASK },
    { "SIDETIM", 0x44, 1, 0x00, SIDETIM_WMASK },
    { "UDMACTL", 0x48, 1, 0x00, UDMACTL_WMASK },
    { "UDMATIM", 0x4A, 2, 0x0000, UDMATIM_WMASK },
};

/* PIIX3 has the same PIO/MWDMA timing registers and no Ultra DMA. */
static const AtalabConfigReg piix3_regs[] = {
    { "IDETIM0", 0x40, 2, 0x0000, IDETIM_WMASK },
    { "IDETIM1", 0x42, 2, 0x0000, IDETIM_WMASK },
    { "SIDETIM", 0x44, 1, 0x00, SIDETIM_WMASK },
};

/*
 * ICH5 PATA (8086:24DB, IDE_CONFIG at 0x54, UDMA 0-5) and ICH5 SATA
 * (8086:24D1, MAP 0x90, PCS 0x92) are further entries of this table; they
 * are not added yet because their reset values and masks still have to be
 * checked against the ICH5 datasheet (252516).
 */
static const AtalabPersonality personalities[] = {
    {
        .name = "piix4",
        .description = "Intel 82371AB/EB PIIX4 IDE",
        .vendor_id = 0x8086,
        .device_id = 0x7111,
        .revision = 0x01,
        .class_code = 0x0101,
        .prog_if = 0x80,
        .regs = piix4_regs,
        .n_regs = G_N_ELEMENTS(piix4_regs),
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
        .prog_if = 0x80,
        .regs = piix3_regs,
        .n_regs = G_N_ELEMENTS(piix3_regs),
        .max_pio = 4,
        .max_mwdma = 2,
        .max_udma = -1,
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
