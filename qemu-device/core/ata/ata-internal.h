/*
 * atalab emulator core: what the ATA files share among themselves --
 * register bits, the command table, and the helpers commands are built of.
 *
 * The files are layers.  Each calls only files listed before it (lower),
 * never one after it; a lower file reaches a higher one only through a
 * continuation the higher one gave it (AtaIoDone, AtaDriveDone, the
 * table's handlers).  tests/style/ata-layers.sh checks this order:
 *
 * ata-bus.c         selected device, INTRQ, signature, address registers,
 *                   the drive's own timer
 * ata-identify.c    IDENTIFY DEVICE and IDENTIFY PACKET DEVICE data
 * ata-undo.c        the write cache's undo log (for power cuts)
 * ata-fault.c       the fault plan: decides, acts on nothing
 * ata-end.c         how a command ends: status, error, interrupt, sense
 * ata-io.c          the drive's one backend request; PIO and DMA data phases
 * ata-power.c       power modes and the standby timer
 * ata-smart.c       SMART and the general purpose logs
 * ata-hpa.c         READ NATIVE MAX ADDRESS / SET MAX ADDRESS (HPA)
 * ata-commands.c    media access, settings, IDENTIFY, buffers, flush
 * atapi.c           a packet device: the PACKET protocol and its data
 * atapi-mmc.c       the packet commands of the CD-ROM (MMC/SPC)
 * ata-reset.c       abort, power-on, diagnostic, DEVICE RESET
 * ata-powercut.c    a power cut: lost writes, then power-on
 * ata-fault-take.c  faults that take a command or the drive; timed rules
 * ata-cmd-table.c   one row per opcode: name, protocol, flags, handler
 * ata-device.c      registers, data port, command dispatch, SRST
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_ATA_INTERNAL_H
#define ATALAB_ATA_INTERNAL_H

#include <glib.h>

#include "ata-device.h"

/* Status register (ATA-7 vol. 1, register descriptions: Status) */
#define ATA_STAT_BSY            0x80
#define ATA_STAT_DRDY           0x40
#define ATA_STAT_DF             0x20
#define ATA_STAT_DSC            0x10    /* seek complete (obsolete bit 4) */
#define ATA_STAT_DRQ            0x08
#define ATA_STAT_ERR            0x01
/* What an idle drive reports, as real drives do: 50h */
#define ATA_STAT_READY          (ATA_STAT_DRDY | ATA_STAT_DSC)

/* Error register (ATA-7 vol. 1, register descriptions: Error) */
#define ATA_ERR_ICRC            0x80    /* interface CRC (Ultra DMA) */
#define ATA_ERR_UNC             0x40
#define ATA_ERR_IDNF            0x10
#define ATA_ERR_ABRT            0x04
#define ATA_ERR_AMNF            0x01    /* address mark not found */

/* Device Control register (ATA-7 vol. 1: Device Control) */
#define ATA_CTL_HOB             0x80
#define ATA_CTL_SRST            0x04
#define ATA_CTL_NIEN            0x02


#define ATA_LBA28_LIMIT         0x10000000ull   /* sectors 28-bit reaches */

/* The protocol a command follows (ATA-7 vol. 2, protocols). */
typedef enum AtaProto {
    ATA_PROTO_NONE,             /* not an ATA device command: aborted */
    ATA_PROTO_NONDATA,
    ATA_PROTO_PIO_IN,
    ATA_PROTO_PIO_OUT,
    ATA_PROTO_DMA,
    ATA_PROTO_DIAG,             /* EXECUTE DEVICE DIAGNOSTIC */
    ATA_PROTO_BY_FEATURE,       /* chosen by the Features register (SMART) */
    ATA_PROTO_PACKET,           /* PACKET: a command packet, then its data */
} AtaProto;

/* AtaCmdInfo.flags */
#define ATA_CF_LBA48            0x01    /* 48-bit taskfile */
#define ATA_CF_WRITE            0x02    /* data to the device */
#define ATA_CF_FUA              0x04    /* forced unit access */
#define ATA_CF_MULTIPLE         0x08    /* DRQ blocks of the multiple count */
#define ATA_CF_MEDIA            0x10    /* accesses the medium: spins up */
#define ATA_CF_ANY_STATE        0x20    /* taken even BSY, DRQ or asleep */
#define ATA_CF_OBSOLETE         0x40    /* retired opcode real drives take */
#define ATA_CF_RANGE            0x80    /* has an LBA and a sector count */

struct AtaCmdInfo {
    const char *name;           /* NULL: reserved/vendor opcode */
    AtaProto proto;
    unsigned flags;
    void (*handler)(AtalabDrive *d);    /* NULL: aborted */
    AtalabCmdClass fault_class; /* what fault rules' class= matches */
};

/* ata-bus.c */
AtalabDrive *atalab_ata_selected(AtalabAtaBus *bus);
void atalab_ata_update_irq(AtalabAtaBus *bus);
/* The drive has an interrupt pending. */
void atalab_ata_raise(AtalabDrive *d);
/* Reset signature and diagnostic code (ATA-7 vol. 1, signatures). */
void atalab_ata_set_signature(AtalabDrive *d);
/* Status after a reset or diagnostic: 50h, a packet device's 00h. */
uint8_t atalab_ata_reset_status(const AtalabDrive *d);
/* Status as the host reads it (BSY while an abandoned request finishes). */
uint8_t atalab_ata_status(const AtalabDrive *d);
/* The drive no longer owns or waits for the bus master. */
void atalab_ata_release_dma(AtalabDrive *d);
/* Report the failed sector in the LBA (or CHS) registers. */
void atalab_ata_set_error_address(AtalabDrive *d, uint64_t lba);
/*
 * The address in the taskfile: 48-bit LBA, 28-bit LBA, or CHS through the
 * current translation (INITIALIZE DEVICE PARAMETERS).  false: the CHS
 * address does not exist (any_cylinder: only its head or sector).
 */
bool atalab_ata_decode_address(const AtalabDrive *d, bool any_cylinder,
                               uint64_t *lba);
/* The limit a command's address is checked against. */
uint64_t atalab_ata_addressable(const AtalabDrive *d, bool lba48);
/*
 * The drive's own timer: after ns (ATALAB_FAULT_NEVER_ENDS: never), then
 * runs, unless the wait is cancelled or replaced first.  d->wait_seq is
 * the command it was set in.
 */
void atalab_ata_wait_init(AtalabDrive *d);
void atalab_ata_wait_fini(AtalabDrive *d);
void atalab_ata_wait(AtalabDrive *d, AtaWait what, int64_t ns,
                     AtaDriveDone *then);
void atalab_ata_wait_cancel(AtalabDrive *d);

/* ata-identify.c */
void atalab_ata_identify(const AtalabDrive *d, uint16_t words[256]);
void atalab_ata_identify_packet(const AtalabDrive *d, uint16_t words[256]);
void atalab_ata_default_geometry(uint64_t sectors, uint16_t *cyls,
                                 uint16_t *heads, uint16_t *spt);
/* IDENTIFY word 49 bit 10: IORDY may be disabled (SET FEATURES 03h/01h) */
#define ATA_ID49_IORDY_DISABLE  (1u << 10)
uint16_t atalab_ata_identify_word(const AtalabDrive *d, unsigned word);

/* ata-undo.c: what a power cut can undo (d->undo) */
typedef struct UndoEntry {
    uint64_t lba;
    unsigned sectors;
    uint8_t *old;               /* the sectors before the write */
} UndoEntry;
void atalab_ata_undo_free(gpointer entry);
/* Is a pre-image needed before this write? */
bool atalab_ata_undo_wanted(const AtalabDrive *d, bool fua);
void atalab_ata_undo_log(AtalabDrive *d, uint64_t lba, unsigned sectors,
                         uint8_t *old);
/* A FLUSH CACHE succeeded: everything logged is durable. */
void atalab_ata_undo_flushed(AtalabDrive *d);
/* The drive goes: the log and a write-back in progress are dropped. */
void atalab_ata_undo_forget(AtalabDrive *d);

/* ata-fault.c: the fault plan */
/* A reset clears the plan, a sticky DF, a delayed completion. */
void atalab_ata_fault_reset(AtalabDrive *d, bool power_on);
/* Trace and report a rule that fired (command: for d->cmd). */
void atalab_ata_fault_fired(AtalabDrive *d, const AtalabFaultRule *r,
                            uint64_t lba, bool command);
/* What takes a command instead of running it (ata-fault-take.c acts). */
typedef enum AtaTake {
    ATA_TAKE_NONE,
    ATA_TAKE_ERROR,             /* the error of kind at lba, no data */
    ATA_TAKE_CHECK,             /* a packet command: rule's CHECK CONDITION */
    ATA_TAKE_HANG,              /* timeout: BSY until a reset */
    ATA_TAKE_REMOVE,            /* the drive is removed (rule) */
    ATA_TAKE_POWER_CUT,         /* its power is cut (rule) */
} AtaTake;
typedef struct AtaFaultTake {
    AtaTake what;
    AtalabFaultKind kind;
    uint64_t lba;
    AtalabFaultRule *rule;      /* NULL for a sticky DF */
} AtaFaultTake;
/*
 * Ask the rules about the command just accepted: true when something takes
 * it (*take); else the command runs under the plan made for it.
 */
bool atalab_ata_fault_command(AtalabDrive *d, AtaFaultTake *take);
/*
 * The same for a packet command, when its packet has arrived (d->packet):
 * read, with the 512-byte sectors lba, count it reads, or another command.
 */
bool atalab_ata_fault_packet(AtalabDrive *d, bool read, uint64_t lba,
                             uint32_t count, AtaFaultTake *take);
/* One data step of a command (PIO DRQ block, DMA chunk, verify chunk). */
typedef struct AtaStep {
    uint32_t sectors;           /* to move now */
    size_t pio_bytes;           /* of a PIO DRQ block of them */
    bool bounce;                /* through the bounce buffer: bit flips */
    AtalabFaultKind stop;       /* the step does not go: this error here */
    bool stop_irq;              /* bm-error: the drive still interrupts */
} AtaStep;
/*
 * The next data step, up to @want sectors at d->lba, as the plan has it;
 * @medium: the data is the medium's (not generated, as IDENTIFY's).  False
 * when the plan ends the command at this sector (step->stop: its error, or
 * a bus master abort); else a planned error further on shortens the step
 * and a drq-count violation halves its PIO block.  ata-io.c acts on it
 * (atalab_ata_step).
 */
bool atalab_ata_fault_step(AtalabDrive *d, uint32_t want, bool medium,
                           AtaStep *step);
/* IDENTIFY data changed as an identify-data rule that fired says. */
void atalab_ata_fault_identify(AtalabDrive *d, uint16_t words[256]);
void atalab_ata_fault_corrupt(AtalabDrive *d, uint8_t *buf, uint64_t lba,
                              uint32_t sectors, bool writing);
/*
 * Where a command ends.  LAST_BLOCK: PIO data-in presents its last block,
 * whose interrupt is the command's.
 */
typedef enum AtaEndAt {
    ATA_END_COMPLETE,           /* it completes: status and interrupt */
    ATA_END_LAST_BLOCK,         /* its last PIO data-in block is ready */
    ATA_END_DRAINED,            /* the host read that block: status only */
    ATA_END_ERROR,              /* it ends with an error */
} AtaEndAt;
typedef struct AtaEnd {
    AtalabFaultKind error;      /* not this end: that error instead (ICRC) */
    int64_t delay;              /* not yet: BSY this long, then again */
    uint8_t status;             /* else this status */
    bool set_error;             /* and this Error (end-status) */
    uint8_t error_reg;
    bool irq;                   /* and INTRQ rises */
} AtaEnd;
/*
 * The command's end, as the plan has it, for an end at @at with @status:
 * an end error instead, a delay, or the status (DRQ left set by a
 * status-phase violation) and whether INTRQ rises (a lost-irq rule loses
 * it).  The one place the data path asks the plan about an end.
 */
void atalab_ata_fault_end(AtalabDrive *d, AtaEndAt at, uint8_t status,
                          AtaEnd *end);
/* The command is busy now: an early or spurious interrupt comes here. */
void atalab_ata_fault_busy(AtalabDrive *d);
/* SRST released: true when a reset-fail rule keeps the drive busy *ns. */
bool atalab_ata_fault_srst_release(AtalabDrive *d, int64_t *ns);

/* ata-end.c: command results */
void atalab_ata_cmd_ok(AtalabDrive *d);
/* The good end of EXECUTE DEVICE DIAGNOSTIC: a reset's status (00h, 50h) */
void atalab_ata_cmd_ok_reset(AtalabDrive *d);
void atalab_ata_cmd_error(AtalabDrive *d, uint8_t error, const char *name);
void atalab_ata_cmd_abort(AtalabDrive *d);
/* An error with a status other than 51h (DF: 61h). */
void atalab_ata_cmd_error_status(AtalabDrive *d, uint8_t status,
                                 uint8_t error, const char *name);
/* The error a fault rule of kind makes, at sector lba, as an ATA device. */
void atalab_ata_fault_error(AtalabDrive *d, AtalabFaultKind kind,
                            uint64_t lba);
/*
 * A packet device (atapi.c): its interrupt reason is the Sector Count
 * register: CoD (bit 0) and IO (bit 1).
 */
#define ATAPI_IR_COD            0x01
#define ATAPI_IR_IO             0x02
/* Ends of a packet command: good, or CHECK CONDITION with this sense. */
void atalab_atapi_good(AtalabDrive *d);
void atalab_atapi_check(AtalabDrive *d, uint8_t key, uint8_t asc,
                        uint8_t ascq);
/* The CHECK CONDITION a fault rule makes on a packet device. */
void atalab_atapi_fault_error(AtalabDrive *d, const AtalabFaultRule *r);

/* ata-io.c */
void atalab_ata_io_init(AtalabDrive *d, AtaDriveDone *abandoned_done);
void atalab_ata_io_fini(AtalabDrive *d);
/* Backend requests: at most one in flight; then() runs at completion. */
void atalab_ata_io_read(AtalabDrive *d, uint64_t lba, unsigned sectors,
                        void *buf, AtaIoDone *then);
void atalab_ata_io_write(AtalabDrive *d, uint64_t lba, unsigned sectors,
                         const void *buf, bool fua, AtaIoDone *then);
void atalab_ata_io_flush(AtalabDrive *d, AtaIoDone *then);
/*
 * Abandon the request in flight (if any), draining it when the host can;
 * its completion runs the abandoned_done io_init was given.
 */
void atalab_ata_io_abandon(AtalabDrive *d);
uint8_t *atalab_ata_bounce(AtalabDrive *d);
/*
 * The backend failed the medium transfer at d->lba: the command ends with
 * UNC (a read) or ABRT (a write), the sector in the address registers.
 */
void atalab_ata_medium_failed(AtalabDrive *d);
/*
 * The next data step, as the plan has it (atalab_ata_fault_step); false
 * when it ended the command here, which this has carried out.
 */
bool atalab_ata_step(AtalabDrive *d, uint32_t want, bool medium,
                     AtaStep *step);
/* Start the data phase of a read/write command set up in d. */
void atalab_ata_pio_in_start(AtalabDrive *d);
void atalab_ata_pio_out_start(AtalabDrive *d);
/*
 * The DMA protocol starts; run moves the data whenever the engine runs
 * for the command (atalab_ata_dma_sectors: d's sectors on the medium).
 */
void atalab_ata_dma_start(AtalabDrive *d, AtaDriveDone *run);
void atalab_ata_dma_sectors(AtalabDrive *d);
/* The bus master cannot go on (status): the command waits for a reset. */
void atalab_ata_dma_failed(AtalabDrive *d, AtalabDmaStatus status);
/* The host has read / filled the whole DRQ block. */
void atalab_ata_pio_in_drained(AtalabDrive *d);
void atalab_ata_pio_out_filled(AtalabDrive *d);
/* A PIO data-in command whose blocks are generated, not read. */
void atalab_ata_pio_in_generated(AtalabDrive *d, uint32_t blocks,
                                 AtaPioSource *source);
/* A PIO data-out command whose blocks are consumed, not written. */
void atalab_ata_pio_out_consumed(AtalabDrive *d, uint32_t blocks,
                                 AtaPioSink *sink);

/* ata-power.c */
void atalab_ata_power_init(AtalabDrive *d);
void atalab_ata_power_fini(AtalabDrive *d);
void atalab_ata_power_on_defaults(AtalabDrive *d);
/* A command arrives: restart the standby timer; media access spins up. */
void atalab_ata_power_command(AtalabDrive *d, const AtaCmdInfo *info);
/* Leave Sleep after a reset: the drive is then in Standby. */
void atalab_ata_power_reset(AtalabDrive *d);
void atalab_ata_cmd_standby(AtalabDrive *d);
void atalab_ata_cmd_standby_immediate(AtalabDrive *d);
void atalab_ata_cmd_idle(AtalabDrive *d);
void atalab_ata_cmd_idle_immediate(AtalabDrive *d);
void atalab_ata_cmd_check_power_mode(AtalabDrive *d);
void atalab_ata_cmd_sleep(AtalabDrive *d);

/* ata-smart.c */
void atalab_ata_smart_init(AtalabDrive *d);
void atalab_ata_smart_fini(AtalabDrive *d);
void atalab_ata_smart_power_on(AtalabDrive *d);
/* A software reset interrupts a running self-test. */
void atalab_ata_smart_reset(AtalabDrive *d);
void atalab_ata_cmd_smart(AtalabDrive *d);
void atalab_ata_cmd_read_log_ext(AtalabDrive *d);

/* ata-hpa.c */
void atalab_ata_hpa_power_on(AtalabDrive *d);
void atalab_ata_cmd_read_native_max(AtalabDrive *d);
void atalab_ata_cmd_set_max(AtalabDrive *d);

/* ata-commands.c */
/*
 * A media access command's sector range (ATA_CF_RANGE): its multiple
 * count, address and count checked (the command ended with its error
 * when not: false), d->lba and d->remaining set.
 */
bool atalab_ata_cmd_range(AtalabDrive *d);
/* The table's handlers; those with a range run after cmd_range. */
void atalab_ata_cmd_read(AtalabDrive *d);
void atalab_ata_cmd_write(AtalabDrive *d);
void atalab_ata_cmd_read_verify(AtalabDrive *d);
void atalab_ata_cmd_seek(AtalabDrive *d);
void atalab_ata_cmd_recalibrate(AtalabDrive *d);
void atalab_ata_cmd_identify(AtalabDrive *d);
void atalab_ata_cmd_set_features(AtalabDrive *d);
void atalab_ata_cmd_set_multiple(AtalabDrive *d);
void atalab_ata_cmd_init_dev_params(AtalabDrive *d);
void atalab_ata_cmd_flush(AtalabDrive *d);
void atalab_ata_cmd_read_buffer(AtalabDrive *d);
void atalab_ata_cmd_write_buffer(AtalabDrive *d);

/*
 * atapi.c: a packet device (ATA-7 vol. 1, PACKET command; vol. 2, PACKET
 * protocols).
 */
#define ATAPI_BLOCK_SIZE        2048    /* CD-ROM logical block */
#define ATAPI_BLOCK_SECTORS     (ATAPI_BLOCK_SIZE / ATA_SECTOR_SIZE)
void atalab_atapi_cmd_packet(AtalabDrive *d);
/* IDENTIFY DEVICE: aborted, with the packet signature in the registers */
void atalab_atapi_cmd_identify_device(AtalabDrive *d);
/* The host wrote the whole command packet: it is d->packet.cdb now. */
void atalab_atapi_packet_filled(AtalabDrive *d);
/* The host read the whole DRQ data block of a packet command. */
void atalab_atapi_pio_drained(AtalabDrive *d);
/* Send the first len bytes of the bounce buffer (reply) to the host. */
void atalab_atapi_send(AtalabDrive *d, size_t len);
/* Read blocks from the disc, from block lba, and send them. */
void atalab_atapi_send_medium(AtalabDrive *d, uint32_t lba, uint32_t blocks);

/* atapi-mmc.c: the packet commands of the CD-ROM (MMC-3, SPC-3) */
void atalab_atapi_mmc_power_on(AtalabDrive *d);
/* Trace the packet that arrived (the whole of it: for diff and replay). */
void atalab_atapi_trace_packet(AtalabDrive *d);
/* Execute d->packet.cdb. */
void atalab_atapi_execute(AtalabDrive *d);
/* Name for traces: "READ_10", ...; "OP_xx" for others. */
const char *atalab_atapi_cdb_name(uint8_t opcode);
/*
 * Does the packet read the disc?  Then *lba and *blocks: its range, in
 * logical blocks (not checked against the disc).
 */
bool atalab_atapi_cdb_reads(const uint8_t *cdb, uint32_t *lba,
                            uint32_t *blocks);
/* Logical blocks on the disc in the tray (0: none). */
uint32_t atalab_atapi_blocks(const AtalabDrive *d);

/* ata-reset.c */
/*
 * End the command in progress without a result: its request in flight (if
 * any) is abandoned, and the drive reads busy until that request is done.
 */
void atalab_ata_abort_command(AtalabDrive *d, const char *why);
/* Settings that power-on (and SRST with reverting enabled) restore. */
void atalab_ata_settings_defaults(AtalabDrive *d);
/* Power-on reset of one drive (also a reinserted drive). */
void atalab_ata_drive_power_on(AtalabDrive *d);
/* EXECUTE DEVICE DIAGNOSTIC (info): run by both devices of the bus */
void atalab_ata_exec_diagnostic(AtalabAtaBus *bus, const AtaCmdInfo *info,
                                uint8_t op);
void atalab_ata_diagnostic_done(AtalabAtaBus *bus);
/* DEVICE RESET: taken even while BSY (ata-device.c aborts first) */
void atalab_atapi_device_reset(AtalabDrive *d);

/* ata-powercut.c: power-cut, with unflushed writes lost */
void atalab_ata_power_cut(AtalabDrive *d, AtalabFaultRule *rule);
/* After an abandoned request: a pending power cut goes on. */
void atalab_ata_power_cut_continue(AtalabDrive *d);

/* ata-fault-take.c */
/* Carry out what took a command (atalab_ata_fault_command/_packet). */
void atalab_ata_fault_take(AtalabDrive *d, const AtaFaultTake *take);
/* The bus's timer of timed rules (atalab_ata_faults_changed re-arms it). */
void atalab_ata_faults_init(AtalabAtaBus *bus);
void atalab_ata_faults_fini(AtalabAtaBus *bus);

/* ata-cmd-table.c */
const AtaCmdInfo *atalab_ata_cmd_info(uint8_t opcode);
/* The row of a packet device's ATA command set (the disk's: above). */
const AtaCmdInfo *atalab_ata_packet_cmd_info(uint8_t opcode);
/* The row d uses for opcode: its own command set's. */
const AtaCmdInfo *atalab_ata_drive_cmd_info(const AtalabDrive *d,
                                            uint8_t opcode);

#endif
