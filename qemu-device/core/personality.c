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

/*
 * ICH5 IDE_CONFIG (0x54, 32 bits): 3:0 PCB0/PCB1/SCB0/SCB1 (66 MHz Ultra DMA
 * base clock per drive), 7:4 PCR0/PCR1/SCR0/SCR1 (80-conductor cable
 * reporting, written by BIOS), 10 WR_PingPong_EN, 15:12 FAST_PCB0/
 * FAST_PCB1/FAST_SCB0/FAST_SCB1 (100 MHz base clock), 17:16 PRIM_SIG_MODE,
 * 19:18 SEC_SIG_MODE; 11, 9:8 and 31:20 reserved.
 */
#define IDE_CONFIG_WMASK 0x000FF4FFu

/*
 * ICH5 SATA (D31:F2) in IDE mode: the same timing registers (read/write for
 * software compatibility, no effect on the SATA ports), IDE_CONFIG, and
 * MAP (0x90: 2:0 map value; 000b non-combined, port 0 primary master, port 1
 * secondary master) and PCS (0x92: 1:0 P1E/P0E port enable, written by
 * software; 5:4 P1P/P0P port present, read-only, computed by the model).
 */
#define MAP_WMASK       0x07
#define PCS_WMASK       0x0003

/*
 * Each generation adds registers to its predecessor's, at the same offsets
 * with the same reset values and masks, so every personality uses a prefix
 * of this one list.
 */
static const AtalabConfigReg ide_regs[] = {
    /* PIIX3 and later: PIO/MWDMA timing */
    { "IDETIM0", 0x40, 2, 0x0000, IDETIM_WMASK },
    { "IDETIM1", 0x42, 2, 0x0000, IDETIM_WMASK },
    { "SIDETIM", 0x44, 1, 0x00, SIDETIM_WMASK },
    /* PIIX4 and later: Ultra DMA */
    { "UDMACTL", 0x48, 1, 0x00, UDMACTL_WMASK },
    { "UDMATIM", 0x4A, 2, 0x0000, UDMATIM_WMASK },
    /* ICH5: clock selects and cable reporting */
    { "IDE_CONFIG", 0x54, 4, 0x00000000, IDE_CONFIG_WMASK },
    /* ICH5 SATA: port mapping and port control/status */
    { "MAP", 0x90, 1, 0x00, MAP_WMASK },
    { "PCS", 0x92, 2, 0x0000, PCS_WMASK },
};

#define N_REGS_PIIX3        3
#define N_REGS_PIIX4        5
#define N_REGS_ICH5         6
#define N_REGS_ICH5_SATA    8
G_STATIC_ASSERT(N_REGS_ICH5_SATA == G_N_ELEMENTS(ide_regs));

static const AtalabPersonality personalities[] = {
    {
        .name = "piix4",
        .description = "Intel 82371AB/EB PIIX4 IDE",
        .vendor_id = 0x8086,
        .device_id = 0x7111,
        .revision = 0x01,
        .class_code = 0x0101,
        .prog_if = 0x80,
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
        .prog_if = 0x80,
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
        .prog_if = 0x8A,        /* legacy mode, native capable */
        .regs = ide_regs,
        .n_regs = N_REGS_ICH5,
        .max_pio = 4,
        .max_mwdma = 2,
        .max_udma = 5,
        .caps = ATALAB_CAP_ICH_CLOCKS,
        .default_cable80 = true,
    },
    {
        .name = "ich5-sata",
        .description = "Intel 82801EB ICH5 SATA (IDE mode)",
        .vendor_id = 0x8086,
        .device_id = 0x24D1,
        .revision = 0x02,
        .class_code = 0x0101,
        .prog_if = 0x8A,
        .regs = ide_regs,
        .n_regs = N_REGS_ICH5_SATA,
        .max_pio = 4,
        .max_mwdma = 2,
        .max_udma = 6,
        .caps = ATALAB_CAP_ICH_CLOCKS | ATALAB_CAP_SATA,
        .default_cable80 = false,
        /* MAP = 000b: port 0 primary master, port 1 secondary master */
        .sata_port = { 0, -1, 1, -1 },
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
