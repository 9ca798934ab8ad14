/*
 * atalab emulator core: the PIIX/ICH IDE function as its host sees it.
 *
 * One AtalabCtrl is one PCI IDE function: the device-specific PCI
 * configuration registers (0x40-0xFF), two ATA channels in legacy
 * (compatibility) mode with two drives each, and the bus-master IDE
 * registers of BAR4.  Every guest access enters through one of the
 * *_read/_write functions below: one dispatch point per register space,
 * which is where tracing happens.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_CTRL_H
#define ATALAB_CTRL_H

#include "../faults/atalab-fault.h"
#include "../atalab-host.h"
#include "atalab-personality.h"
#include "atalab-timing.h"
#include "../ata/drive-config.h"
#include "../trace/trace-writer.h"

typedef struct AtalabCtrl AtalabCtrl;

/*
 * drives[] is copied (strings included).  host must outlive the controller.
 * The new controller is in its hardware-reset state.
 */
AtalabCtrl *atalab_ctrl_new(const AtalabPersonality *personality,
                            const AtalabHost *host,
                            const AtalabDriveConfig drives[ATALAB_DRIVES]);
/* The host must have completed (drained) all block I/O first. */
void atalab_ctrl_free(AtalabCtrl *c);

/*
 * Hardware reset (PCIRST#): configuration registers to their datasheet reset
 * values, bus masters stopped, drives through power-on reset.  The host
 * should drain block I/O first (QEMU's glue does); a request still in flight
 * is abandoned (drained through blk_drain when the host has it), and its
 * drive reads BSY until it has completed.
 */
void atalab_ctrl_reset(AtalabCtrl *c);
/*
 * Leave the registers as PC firmware does after POST: IDE decode enabled,
 * the channels of atalab_ctrl_set_firmware_native() in native mode, the
 * MAP and the SATA ports of atalab_ctrl_set_firmware_map() and _ports().
 */
void atalab_ctrl_firmware_init(AtalabCtrl *c);
/*
 * The channels (bit 0 primary, bit 1 secondary) firmware_init leaves in
 * native PCI mode, as a BIOS set up for it does; kept across resets.
 * false (nothing changed) when the personality cannot switch one of them.
 */
bool atalab_ctrl_set_firmware_native(AtalabCtrl *c, unsigned channels);
unsigned atalab_ctrl_firmware_native(const AtalabCtrl *c);
/*
 * ICH5 SATA: the MAP value (bits 2:0) firmware_init writes, as a BIOS set
 * up for a combined mode does; -1 (the default): MAP stays 000b.  Kept
 * across resets.  false for a personality without MAP or a bad value.
 */
bool atalab_ctrl_set_firmware_map(AtalabCtrl *c, int map);
int atalab_ctrl_firmware_map(const AtalabCtrl *c);
/*
 * ICH5 SATA: the PCS port enables (bit 0 port 0, bit 1 port 1)
 * firmware_init sets, as a BIOS does before it boots from a SATA drive;
 * -1 (the default): each port with a drive (disk or CD-ROM); 0: none,
 * PCS as at power-on.
 * Kept across resets.  false for a bad value, or enables asked of a
 * personality without PCS.  atalab_ctrl_firmware_ports: the enables
 * firmware_init sets (-1 resolved; 0 without PCS).
 */
bool atalab_ctrl_set_firmware_ports(AtalabCtrl *c, int ports);
unsigned atalab_ctrl_firmware_ports(const AtalabCtrl *c);
/*
 * The names of those channel sets: "legacy" (none), "native0" (primary),
 * "native1" (secondary), "native" (both); the mode= property and the
 * trace header's ide-mode.  name: NULL for a mask above 3; parse: false
 * for an unknown name.
 */
const char *atalab_ide_mode_name(unsigned channels);
bool atalab_ide_mode_parse(const char *name, unsigned *channels);

/*
 * PCI configuration space the model owns: the programming interface
 * (0x09, where the host's PCI code leaves that byte to the model) and the
 * device-specific registers 0x40..0xFF; size 1/2/4.
 */
uint32_t atalab_ctrl_config_read(AtalabCtrl *c, uint32_t addr, unsigned size);
void atalab_ctrl_config_write(AtalabCtrl *c, uint32_t addr, uint32_t val,
                              unsigned size);
/*
 * Where the channel's command and control blocks are decoded: nowhere
 * (IDETIM.IDE clear), at the legacy ports (0x1F0/0x3F6, 0x170/0x376), or
 * through its BARs (native mode: 0 and 1 primary, 2 and 3 secondary; the
 * control block BAR is 4 bytes with the register at offset 2).  The host
 * still gates either on PCICMD's I/O space enable.
 */
typedef enum AtalabDecode {
    ATALAB_DECODE_OFF,
    ATALAB_DECODE_LEGACY,
    ATALAB_DECODE_NATIVE,
} AtalabDecode;

AtalabDecode atalab_ctrl_decode(const AtalabCtrl *c, unsigned channel);
/*
 * Is the channel in native PCI mode (PI)?  Its interrupt is then INTA#
 * (shared by the native channels), otherwise IRQ 14 or 15.
 */
bool atalab_ctrl_native(const AtalabCtrl *c, unsigned channel);

/*
 * ATA command block, reg 0..7 (0x1F0-0x1F7 / 0x170-0x177).  Size 2 or 4
 * only for the data register, 1 otherwise.
 */
uint32_t atalab_ctrl_cmd_read(AtalabCtrl *c, unsigned channel, unsigned reg,
                              unsigned size);
void atalab_ctrl_cmd_write(AtalabCtrl *c, unsigned channel, unsigned reg,
                           uint32_t val, unsigned size);
/* ATA control block (0x3F6 / 0x376): alternate status / device control. */
uint32_t atalab_ctrl_ctl_read(AtalabCtrl *c, unsigned channel);
void atalab_ctrl_ctl_write(AtalabCtrl *c, unsigned channel, uint32_t val);

/* Bus-master IDE registers, BAR4 offset 0..15, size 1/2/4. */
uint32_t atalab_ctrl_bm_read(AtalabCtrl *c, uint32_t offset, unsigned size);
void atalab_ctrl_bm_write(AtalabCtrl *c, uint32_t offset, uint32_t val,
                          unsigned size);

/*
 * Additions beyond the first contract (all optional for the glue).
 */

/* Read config bytes like config_read, without a trace record. */
uint32_t atalab_ctrl_config_peek(const AtalabCtrl *c, uint32_t addr,
                                 unsigned size);
/*
 * Raw value of a personality register by datasheet name ("IDETIM0",
 * "UDMATIM", ...), for inspection (tests, monitor).  false when the
 * personality has no such register.
 */
bool atalab_ctrl_config_reg(const AtalabCtrl *c, const char *name,
                            uint32_t *value);
/*
 * An 80-conductor cable on the channel: IDENTIFY word 93 bit 13 of its
 * drives, and (ICH PATA) the IDE_CONFIG cable reporting bits that
 * atalab_ctrl_firmware_init() sets.  Default: the personality's
 * default_cable80.  Call before the guest runs (e.g. right after
 * atalab_ctrl_new(), from a device property); survives reset.
 */
void atalab_ctrl_set_cable80(AtalabCtrl *c, unsigned channel, bool cable80);
/* Current level of a channel's interrupt line. */
bool atalab_ctrl_irq_level(const AtalabCtrl *c, unsigned channel);
/*
 * The host's drive number of the disk at position 0..3: the position,
 * except where ICH5 SATA's MAP has put another port's disk there.
 */
unsigned atalab_ctrl_drive_disk(const AtalabCtrl *c, unsigned position);
/*
 * Backend requests of the host's drive 0..3 in flight: 0 or 1.  (On ICH5
 * SATA, MAP may put the disk at another position.)
 */
unsigned atalab_ctrl_inflight(const AtalabCtrl *c, unsigned drive);
/*
 * Drive 0..3's Status register, as a read would find it but with no
 * effect (INTRQ stays, no trace record); 0x00 for an absent drive.
 */
uint8_t atalab_ctrl_drive_status(const AtalabCtrl *c, unsigned drive);
/*
 * The CD-ROM that is the host's drive number disk (docs/atapi.md): its
 * tray opened, or closed on a disc of sectors (0: none); an eject request;
 * its state.  false / nothing for a disk, or a disk MAP routes nowhere.
 */
bool atalab_ctrl_cd_tray(AtalabCtrl *c, unsigned disk, bool open,
                         uint64_t sectors);
bool atalab_ctrl_cd_eject_request(AtalabCtrl *c, unsigned disk, bool force);
bool atalab_ctrl_cd_tray_open(const AtalabCtrl *c, unsigned disk);
bool atalab_ctrl_cd_locked(const AtalabCtrl *c, unsigned disk);
const AtalabPersonality *atalab_ctrl_personality(const AtalabCtrl *c);

/*
 * Timing decode and validation (docs/timing.md).
 */

/* The channel's cable: true for 80 conductors. */
bool atalab_ctrl_cable80(const AtalabCtrl *c, unsigned channel);
/* strict: a mis-timed Ultra DMA command ends with ICRC|ABRT; kept on reset */
void atalab_ctrl_set_strict(AtalabCtrl *c, bool strict);
/* The controller's current setting for drive 0..3 (false: no such drive). */
bool atalab_ctrl_timing(const AtalabCtrl *c, unsigned drive,
                        AtalabDriveTiming *t);
/* The same as one line of text (docs/timing.md, "Decoded form"). */
const char *atalab_ctrl_timing_string(const AtalabCtrl *c, unsigned drive);
/* Transfers of drive checked, rules broken (all / one rule) since creation. */
unsigned atalab_ctrl_xfer_checks(const AtalabCtrl *c, unsigned drive);
unsigned atalab_ctrl_violations(const AtalabCtrl *c, unsigned drive);
unsigned atalab_ctrl_rule_count(const AtalabCtrl *c, unsigned drive,
                                AtalabRule rule);
/*
 * Fault injection (docs/faults.md): the controller's rule set, and the
 * notice that it changed (rules added, removed or cleared, the seed set).
 */
AtalabFaults *atalab_ctrl_faults(AtalabCtrl *c);
void atalab_ctrl_faults_changed(AtalabCtrl *c);

/*
 * The trace (traces/FORMAT.md; nothing happens when the host has no trace
 * sink).  Data port accesses folded per DRQ block (default) or one record
 * each; times absolute (default) or relative to the command start.
 */
void atalab_ctrl_set_trace_data(AtalabCtrl *c, AtalabTraceData mode);
void atalab_ctrl_set_trace_time(AtalabCtrl *c, AtalabTraceTime mode);
/* Write the records the writer holds back (a pending fold per channel). */
void atalab_ctrl_trace_flush(AtalabCtrl *c);
/*
 * The trace header: "# atalab-trace 2" and "# KEY VALUE" lines of the
 * controller's configuration, then extra's pairs (KEY, VALUE, ..., NULL).
 * Newline-terminated lines; g_free the result.
 */
char *atalab_ctrl_trace_header(const AtalabCtrl *c,
                               const char *const *extra);
/* Flush, then trace one "timing-summary" record per drive (at exit). */
void atalab_ctrl_trace_summary(AtalabCtrl *c);

#endif
