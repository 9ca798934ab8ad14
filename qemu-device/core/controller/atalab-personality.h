/*
 * atalab emulator core: controller personalities.
 *
 * A personality is data: PCI identity, the device-specific configuration
 * registers with reset values and writable masks, and capabilities.  A new
 * chip whose registers and behaviour the existing capabilities cover is a
 * table entry; a new capability (like ICH clocks or SATA ports) is code in
 * timing.c and ctrl.c behind an ATALAB_CAP_* bit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_PERSONALITY_H
#define ATALAB_PERSONALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One configuration register the model owns: the programming interface
 * (0x09) and the device-specific registers (offset >= 0x40).
 */
typedef struct AtalabConfigReg {
    const char *name;           /* datasheet mnemonic, e.g. "IDETIM0" */
    uint8_t offset;
    uint8_t size;               /* bytes: 1, 2 or 4 */
    uint32_t reset;             /* value after PCIRST# */
    uint32_t writable;          /* bits software can change */
} AtalabConfigReg;

typedef struct AtalabPersonality {
    const char *name;           /* "piix4": the model= property value */
    const char *description;
    uint16_t vendor_id;
    uint16_t device_id;
    uint8_t revision;
    uint16_t class_code;        /* 0x0101: mass storage, IDE */
    /*
     * PI (0x09): 0x80 both channels legacy, bus master; writable bits
     * PI_NATIVE_WMASK where the channels can switch to native PCI mode.
     */
    AtalabConfigReg pi;
    const AtalabConfigReg *regs;
    size_t n_regs;
    int max_pio;                /* highest PIO mode the controller times */
    int max_mwdma;              /* highest multiword DMA mode, -1: none */
    int max_udma;               /* highest Ultra DMA mode, -1: none */
    /* ATALAB_CAP_* below */
    unsigned caps;
    /* Cable of a channel unless the host says otherwise: 80-conductor? */
    bool default_cable80;
    /*
     * SATA personalities: for each value of MAP bits 2:0, what is at each
     * drive position (primary master, primary slave, secondary master,
     * secondary slave): a SATA port number, or ATALAB_MAP_*.  Unused
     * without ATALAB_CAP_SATA.
     */
    const int8_t (*sata_map)[4];
} AtalabPersonality;

/* A position with no SATA port and no device */
#define ATALAB_MAP_NONE         (-1)
/* A position of a channel the combined map gives to the PATA side */
#define ATALAB_MAP_PATA         (-2)
/* A reserved MAP value: nothing is routed */
#define ATALAB_MAP_RESERVED     (-3)

/*
 * IDE_CONFIG (0x54) with the ICH per-drive Ultra DMA base clock selects
 * (PCBx/SCBx 66 MHz, FAST_PCBx/FAST_SCBx 100 MHz) and the cable reporting
 * bits (PCRx/SCRx).
 */
#define ATALAB_CAP_ICH_CLOCKS   0x01
/*
 * Native PCI mode (PCI IDE Controller Specification 1.0): a channel whose
 * PI bit is set decodes its command and control blocks through BARs 0/1
 * (primary) and 2/3 (secondary) and interrupts through INTA#, instead of
 * the legacy ports and IRQ 14/15.  The personality's pi.writable says
 * which channels software can switch.
 */
#define ATALAB_CAP_NATIVE       0x04
/*
 * Serial ATA function in IDE mode: MAP (0x90) and PCS (0x92); drives are
 * SATA devices; the PATA timing registers are read/write but have no
 * effect on the SATA ports.
 */
#define ATALAB_CAP_SATA         0x02

/* NULL when there is no personality of that name. */
const AtalabPersonality *atalab_personality_find(const char *name);
/* Comma-separated list of the names, for error messages. */
const char *atalab_personality_names(void);

/*
 * The one register lookup of a personality (PI and the device-specific
 * registers): by datasheet name (any case), or the register that holds
 * configuration byte addr.  NULL: none.
 */
const AtalabConfigReg *atalab_personality_reg(const AtalabPersonality *p,
                                              const char *name);
const AtalabConfigReg *atalab_personality_reg_at(const AtalabPersonality *p,
                                                 unsigned addr);
/*
 * What MAP value map (bits 2:0 used) puts at drive position 0..3: a SATA
 * port number, or ATALAB_MAP_*; ATALAB_MAP_NONE without ATALAB_CAP_SATA.
 */
int atalab_personality_sata_port(const AtalabPersonality *p, unsigned map,
                                 unsigned position);

#endif
