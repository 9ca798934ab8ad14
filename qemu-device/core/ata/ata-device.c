/*
 * atalab emulator core: ATA devices -- command block registers, the data
 * port, command dispatch (with the fault rules' say), the software reset,
 * and a drive's set-up.
 *
 * References: ATA/ATAPI-7 volume 1 (T13 1532D) clause 7 (register
 * descriptions) and volume 2 (T13 1532D vol. 2) clauses on the PIO and
 * DMA protocols and on resets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ata-internal.h"
#include "../trace/trace.h"

/*
 * A channel without any device: the bus floats, and the host's pull-down
 * on DD7 (ATA-7 vol. 2, host-side signal requirements) makes every byte
 * register read 7Fh.  The data port reads all ones.
 */
#define ATA_FLOAT_BYTE      0x7F

static void copy_string(char *dst, size_t size, const char *src,
                        const char *dflt)
{
    g_strlcpy(dst, src ? src : dflt, size);
}

void atalab_ata_disk_strings(const AtalabDriveConfig *cfg, unsigned disk,
                             char model[41], char serial[21], char fwrev[9])
{
    char dflt[21];

    /* The default serial number is the disk's, wherever MAP puts it. */
    snprintf(dflt, sizeof(dflt), "ATALAB%04u", disk);
    copy_string(model, 41, cfg->model, cfg->kind == ATALAB_DRIVE_CD ?
                "ATALAB CD-ROM" : "ATALAB HARDDISK");
    copy_string(serial, 21, cfg->serial, dflt);
    copy_string(fwrev, 9, cfg->fwrev, "0.1");
}

/*
 * An abandoned request completed: a diagnostic waiting for it ends, a
 * power cut waiting for it goes on.
 */
static void abandoned_done(AtalabDrive *d)
{
    AtalabAtaBus *bus = d->bus;

    if (bus->diag_pending && !bus->drive[0].req.abandoned &&
        !bus->drive[1].req.abandoned) {
        atalab_ata_diagnostic_done(bus);
    }
    atalab_ata_power_cut_continue(d);
}

static void drive_init(AtalabAtaBus *bus, unsigned unit,
                       const AtalabDriveConfig *cfg, unsigned disk, bool sata)
{
    AtalabDrive *d = &bus->drive[unit];

    d->bus = bus;
    d->host = bus->host;
    d->index = bus->index * 2 + unit;
    d->disk = disk;
    d->unit = unit;
    d->attached = cfg->present;
    d->sata = sata;
    d->atapi = cfg->kind == ATALAB_DRIVE_CD;
    /* A SATA drive answers once its port is enabled (PCS). */
    d->present = cfg->present && !sata;
    d->native_sectors = cfg->present ? cfg->sectors : 0;
    d->sectors = d->sectors_nv = d->native_sectors;
    atalab_ata_disk_strings(cfg, disk, d->model, d->serial, d->fwrev);
    atalab_ata_io_init(d, abandoned_done);
    atalab_ata_power_init(d);
    atalab_ata_smart_init(d);
    atalab_ata_wait_init(d);
    g_queue_init(&d->undo);
    g_queue_init(&d->undo_lost);
}

void atalab_ata_bus_init(AtalabAtaBus *bus, unsigned index,
                         const AtalabHost *host, const AtalabAtaHooks *hooks,
                         AtalabDmaPort *port, AtalabFaults *faults,
                         const AtalabDriveConfig cfg[2], bool sata)
{
    unsigned u;

    memset(bus, 0, sizeof(*bus));
    bus->index = index;
    bus->host = host;
    bus->hooks = hooks;
    bus->port = port;
    bus->faults = faults;
    for (u = 0; u < 2; u++) {
        drive_init(bus, u, &cfg[u], index * 2 + u, sata);
    }
    atalab_ata_faults_init(bus);
}

static void drive_fini(AtalabDrive *d)
{
    atalab_ata_wait_fini(d);
    atalab_ata_undo_forget(d);
    atalab_ata_smart_fini(d);
    atalab_ata_power_fini(d);
    atalab_ata_io_fini(d);
}

bool atalab_ata_drive_idle(const AtalabDrive *d)
{
    return (d->phase == ATA_PHASE_IDLE || d->phase == ATA_PHASE_RESET) &&
           !d->req.inflight && !d->power_cut && d->bus->dma_owner != d;
}

void atalab_ata_drive_release(AtalabDrive *d, const char *why)
{
    atalab_ata_abort_command(d, why);
}

void atalab_ata_drive_reattach(AtalabAtaBus *bus, unsigned unit,
                               const AtalabDriveConfig *cfg, unsigned disk,
                               bool sata)
{
    AtalabDrive *d = &bus->drive[unit];
    uint32_t seq = d->seq;

    drive_fini(d);
    memset(d, 0, sizeof(*d));
    /* Nothing of the old attachment may take a new command for its own */
    d->seq = seq + 1;
    drive_init(bus, unit, cfg, disk, sata);
}

void atalab_ata_bus_fini(AtalabAtaBus *bus)
{
    unsigned u;

    atalab_ata_faults_fini(bus);
    for (u = 0; u < 2; u++) {
        drive_fini(&bus->drive[u]);
    }
}

unsigned atalab_ata_bus_inflight(const AtalabAtaBus *bus)
{
    return bus->drive[0].req.inflight + bus->drive[1].req.inflight;
}

static bool bus_empty(const AtalabAtaBus *bus)
{
    return !bus->drive[0].present && !bus->drive[1].present;
}

/*
 * The drive whose registers the host reads.  When device 1 is absent,
 * device 0 answers for it (ATA-7 vol. 1, "device 0 only" configurations):
 * Status and Alternate Status read 00h, the other registers show device
 * 0's copies.  The same is done for an absent device 0.
 */
static AtalabDrive *responder(AtalabAtaBus *bus)
{
    AtalabDrive *sel = atalab_ata_selected(bus);

    return sel->present ? sel : &bus->drive[sel->unit ^ 1];
}

void atalab_ata_bus_power_on(AtalabAtaBus *bus)
{
    atalab_ata_drive_power_on(&bus->drive[0]);
    atalab_ata_drive_power_on(&bus->drive[1]);
    bus->device = 0;
    bus->devctl = 0;
    bus->diag_pending = false;
    bus->dma_owner = NULL;
    atalab_ata_update_irq(bus);
}

/*
 * Device Control register (ATA-7 vol. 1, Device Control): SRST starts a
 * software reset of both devices, which ends when SRST is cleared
 * (ATA-7 vol. 2, software reset protocol).  Settings survive it unless
 * reverting to defaults was enabled (SET FEATURES CCh).
 */
static void reset_fail_over(AtalabDrive *d)
{
    if (d->present && d->phase == ATA_PHASE_IDLE) {
        d->status = atalab_ata_reset_status(d);
        atalab_trace(d->host, "ata%u fault d%u reset-fail over",
                     d->bus->index, d->unit);
    }
}

void atalab_ata_devctl_write(AtalabAtaBus *bus, uint8_t val)
{
    uint8_t old = bus->devctl;
    int64_t ns;
    unsigned i;

    bus->devctl = val;
    if (!(old & ATA_CTL_SRST) && (val & ATA_CTL_SRST)) {
        atalab_trace(bus->host, "ata%u reset srst=1", bus->index);
        bus->diag_pending = false;
        for (i = 0; i < 2; i++) {
            AtalabDrive *d = &bus->drive[i];

            atalab_ata_abort_command(d, "srst");
            atalab_ata_smart_reset(d);
            atalab_ata_fault_reset(d, false);
            d->phase = ATA_PHASE_RESET;
            d->intrq = false;
            if (d->present) {
                d->status = ATA_STAT_BSY;
            }
        }
    } else if ((old & ATA_CTL_SRST) && !(val & ATA_CTL_SRST)) {
        atalab_trace(bus->host, "ata%u reset srst=0", bus->index);
        for (i = 0; i < 2; i++) {
            AtalabDrive *d = &bus->drive[i];

            d->phase = ATA_PHASE_IDLE;
            if (d->revert_on_reset) {
                atalab_ata_settings_defaults(d);
            }
            atalab_ata_power_reset(d);
            atalab_ata_set_signature(d);
            d->prev_cmd = 0;
            if (!d->present) {
                continue;
            }
            if (atalab_ata_fault_srst_release(d, &ns)) {
                /* reset-fail: BSY a while longer */
                d->status = ATA_STAT_BSY;
                atalab_ata_wait(d, ATA_WAIT_RESET, ns, reset_fail_over);
            } else {
                d->status = atalab_ata_reset_status(d);
            }
        }
        bus->device = 0;
    }
    atalab_ata_update_irq(bus);
}

uint8_t atalab_ata_altstatus(AtalabAtaBus *bus)
{
    AtalabDrive *sel = atalab_ata_selected(bus);

    if (bus_empty(bus)) {
        return ATA_FLOAT_BYTE;
    }
    return sel->present ? atalab_ata_status(sel) : 0x00;
}

uint8_t atalab_ata_peek_status(const AtalabDrive *d)
{
    return d->present ? atalab_ata_status(d) : 0x00;
}

static uint32_t all_ones(unsigned size)
{
    return size >= 4 ? 0xFFFFFFFFu : (1u << (size * 8)) - 1;
}

static const char *const data_port_rule_names[] = {
    [ATALAB_DATA_READ_NO_DRQ] = "data-read-no-drq",
    [ATALAB_DATA_WRITE_NO_DRQ] = "data-write-no-drq",
};

const char *atalab_data_port_rule_name(AtalabDataPortRule rule)
{
    return rule < ATALAB_N_DATA_PORT_RULES ? data_port_rule_names[rule] : "?";
}

static void protocol_violation(AtalabDrive *d, AtalabDataPortRule rule)
{
    const char *what = atalab_data_port_rule_name(rule);

    atalab_trace(d->host, "ata%u violation d%u %s status=0x%02x",
                 d->bus->index, d->unit, what, atalab_ata_status(d));
    atalab_event(d->host, &(AtalabEvent) {
        .kind = ATALAB_EVENT_VIOLATION, .channel = d->bus->index,
        .drive = d->index, .name = what });
}

/* The phase in which the data port takes writes: a packet, or data-out. */
static AtaPhase write_phase(const AtalabDrive *d)
{
    return d->phase == ATA_PHASE_PACKET ? ATA_PHASE_PACKET :
           ATA_PHASE_PIO_OUT;
}

static bool data_port_open(AtalabDrive *d, AtaPhase phase)
{
    return d->present && d->phase == phase &&
           atalab_ata_status(d) == (ATA_STAT_READY | ATA_STAT_DRQ);
}

bool atalab_ata_data_block(AtalabAtaBus *bus, bool write, size_t *pos,
                           size_t *end)
{
    AtalabDrive *sel = atalab_ata_selected(bus);

    if (bus_empty(bus) ||
        !data_port_open(sel, write ? write_phase(sel) : ATA_PHASE_PIO_IN)) {
        return false;
    }
    *pos = sel->data_pos;
    *end = sel->data_end;
    return true;
}

/* First access of a DRQ block: a PIO transfer starts. */
static void pio_block_starts(AtalabDrive *d)
{
    const AtalabAtaHooks *hk = d->bus->hooks;

    hk->check_xfer(hk->opaque, d, false);
}

static uint32_t data_read(AtalabDrive *d, unsigned size)
{
    uint32_t val = 0;
    unsigned i;

    if (!data_port_open(d, ATA_PHASE_PIO_IN)) {
        protocol_violation(d, ATALAB_DATA_READ_NO_DRQ);
        return all_ones(size);
    }
    if (d->data_pos == 0) {
        pio_block_starts(d);
    }
    for (i = 0; i < size; i++) {
        uint8_t b = 0xFF;

        if (d->data_pos < d->data_end) {
            b = d->pio_buf[d->data_pos++];
        }
        val |= (uint32_t)b << (i * 8);
    }
    if (d->data_pos >= d->data_end) {
        if (d->atapi) {
            atalab_atapi_pio_drained(d);
        } else {
            atalab_ata_pio_in_drained(d);
        }
    }
    return val;
}

/*
 * A packet command's packet has come: the fault rules meet the command
 * now that it is known, then it runs.
 */
static void packet_arrived(AtalabDrive *d)
{
    uint32_t lba = 0, blocks = 0;
    uint64_t sectors;
    bool read;
    AtaFaultTake take;

    atalab_atapi_packet_filled(d);
    atalab_atapi_trace_packet(d);
    read = atalab_atapi_cdb_reads(d->packet.cdb, &lba, &blocks);
    sectors = (uint64_t)blocks * ATAPI_BLOCK_SECTORS;
    if (atalab_ata_fault_packet(d, read, (uint64_t)lba * ATAPI_BLOCK_SECTORS,
                                MIN(sectors, UINT32_MAX), &take)) {
        atalab_ata_fault_take(d, &take);
        return;
    }
    atalab_atapi_execute(d);
}

static void data_write(AtalabDrive *d, uint32_t val, unsigned size)
{
    unsigned i;

    AtaPhase phase = write_phase(d);

    if (!data_port_open(d, phase)) {
        protocol_violation(d, ATALAB_DATA_WRITE_NO_DRQ);
        return;
    }
    if (d->data_pos == 0) {
        pio_block_starts(d);
    }
    for (i = 0; i < size && d->data_pos < d->data_end; i++) {
        d->pio_buf[d->data_pos++] = val >> (i * 8);
    }
    if (d->data_pos >= d->data_end) {
        if (phase == ATA_PHASE_PACKET) {
            packet_arrived(d);
        } else {
            atalab_ata_pio_out_filled(d);
        }
    }
}

uint32_t atalab_ata_reg_read(AtalabAtaBus *bus, unsigned reg, unsigned size)
{
    AtalabDrive *sel = atalab_ata_selected(bus);
    AtalabDrive *r;
    bool hob = bus->devctl & ATA_CTL_HOB;

    if (bus_empty(bus)) {
        return reg == ATA_REG_DATA ? all_ones(size) : ATA_FLOAT_BYTE;
    }
    r = responder(bus);
    switch (reg) {
    case ATA_REG_DATA:
        if (!sel->present) {
            return all_ones(size);
        }
        return data_read(sel, size);
    case ATA_REG_FEATURE:
        return r->error;
    case ATA_REG_COUNT:
        return hob ? r->hob_count : r->count;
    case ATA_REG_LBAL:
        return hob ? r->hob_lbal : r->lbal;
    case ATA_REG_LBAM:
        return hob ? r->hob_lbam : r->lbam;
    case ATA_REG_LBAH:
        return hob ? r->hob_lbah : r->lbah;
    case ATA_REG_DEVICE:
        return bus->device;
    case ATA_REG_COMMAND:
        if (!sel->present) {
            return 0x00;
        }
        /* Reading Status acknowledges the interrupt (ATA-7 vol. 1). */
        if (sel->intrq) {
            sel->intrq = false;
            atalab_ata_update_irq(bus);
        }
        return atalab_ata_status(sel);
    }
    return 0xFF;
}

static void latch(uint8_t *reg, uint8_t *hob, uint8_t val)
{
    *hob = *reg;
    *reg = val;
}

static void exec_command(AtalabDrive *d, uint8_t op)
{
    const AtaCmdInfo *info = atalab_ata_drive_cmd_info(d, op);
    AtaFaultTake take;

    d->cmd = op;
    d->info = info;
    d->seq++;
    d->error = 0;
    d->lba48 = info->flags & ATA_CF_LBA48;
    d->writing = info->flags & ATA_CF_WRITE;
    d->fua = info->flags & ATA_CF_FUA;
    d->block_index = 0;
    atalab_ata_power_command(d, info);
    if (!(info->flags & ATA_CF_RANGE)) {
        atalab_trace(d->host, "ata%u cmd d%u 0x%02x %s feature=0x%02x "
                     "count=0x%02x", d->bus->index, d->unit, op,
                     atalab_ata_cmd_name(op), d->feature, d->count);
    }
    /*
     * Commands with a range meet the fault rules once it is decoded, a
     * packet command once its packet has come (packet_arrived); DEVICE
     * RESET, the way out of a fault, meets none.
     */
    if ((info->flags & ATA_CF_RANGE) && !atalab_ata_cmd_range(d)) {
        /* ended with its error */
    } else if (!(info->flags & ATA_CF_ANY_STATE) &&
               info->proto != ATA_PROTO_PACKET &&
               atalab_ata_fault_command(d, &take)) {
        atalab_ata_fault_take(d, &take);
    } else if (!info->handler) {
        atalab_ata_cmd_abort(d);
    } else {
        info->handler(d);
    }
    /* SET MAX ADDRESS needs to know what came right before it. */
    d->prev_cmd = op;
}

static void command_write(AtalabAtaBus *bus, uint8_t val)
{
    AtalabDrive *sel = atalab_ata_selected(bus);
    AtalabDrive *r = responder(bus);
    const AtaCmdInfo *info = atalab_ata_cmd_info(val);
    uint8_t st;

    /* EXECUTE DEVICE DIAGNOSTIC is executed by both devices. */
    if (info->proto == ATA_PROTO_DIAG) {
        if (atalab_ata_status(r) & (ATA_STAT_BSY | ATA_STAT_DRQ)) {
            atalab_trace(bus->host, "ata%u ignored d%u %s cmd=0x%02x",
                         bus->index, r->unit,
                         (atalab_ata_status(r) & ATA_STAT_BSY) ? "busy" :
                         "drq", val);
            return;
        }
        atalab_ata_exec_diagnostic(bus, info, val);
        return;
    }
    if (!sel->present) {
        atalab_trace(bus->host, "ata%u ignored d%u absent cmd=0x%02x",
                     bus->index, sel->unit, val);
        return;
    }
    /*
     * A packet device takes DEVICE RESET whatever its state, even BSY or
     * sleeping (ATA-7 vol. 1, DEVICE RESET): it is how a host gets a stuck
     * packet command back without resetting the other device.
     */
    if ((atalab_ata_drive_cmd_info(sel, val)->flags & ATA_CF_ANY_STATE) &&
        !(bus->devctl & ATA_CTL_SRST)) {
        /* the command in progress is the one the trace names as aborted */
        atalab_ata_abort_command(sel, "device-reset");
        sel->intrq = false;
        atalab_ata_update_irq(bus);
        exec_command(sel, val);
        return;
    }
    st = atalab_ata_status(sel);
    if (st & (ATA_STAT_BSY | ATA_STAT_DRQ)) {
        atalab_trace(bus->host, "ata%u ignored d%u %s cmd=0x%02x",
                     bus->index, sel->unit,
                     (st & ATA_STAT_BSY) ? "busy" : "drq", val);
        return;
    }
    if (sel->power == ATA_POWER_SLEEP) {
        /* Only a reset leaves Sleep mode (ATA-7 vol. 1, SLEEP). */
        atalab_trace(bus->host, "ata%u ignored d%u sleeping cmd=0x%02x",
                     bus->index, sel->unit, val);
        return;
    }
    /*
     * Writing the Command register clears a pending interrupt (ATA-7
     * vol. 1, interrupt pending: cleared by a Status read or a Command
     * write), so the command's own completion gives a new edge.
     */
    if (sel->intrq) {
        sel->intrq = false;
        atalab_ata_update_irq(bus);
    }
    exec_command(sel, val);
}

void atalab_ata_reg_write(AtalabAtaBus *bus, unsigned reg, uint32_t val,
                          unsigned size)
{
    AtalabDrive *sel = atalab_ata_selected(bus);
    AtalabDrive *r;
    unsigned i;

    if (bus_empty(bus)) {
        return;
    }
    if (reg == ATA_REG_DATA) {
        if (sel->present) {
            data_write(sel, val, size);
        }
        return;
    }
    r = responder(bus);
    if (atalab_ata_status(r) & ATA_STAT_BSY && reg == ATA_REG_COMMAND &&
        sel->present && !(bus->devctl & ATA_CTL_SRST) &&
        (atalab_ata_drive_cmd_info(sel, val)->flags & ATA_CF_ANY_STATE)) {
        /* DEVICE RESET reaches a busy packet device (command_write) */
        command_write(bus, val);
        return;
    }
    if (atalab_ata_status(r) & ATA_STAT_BSY) {
        /* Command block writes while BSY are ignored (ATA-7 vol. 1). */
        atalab_trace(bus->host, "ata%u ignored d%u busy reg=%u", bus->index,
                     r->unit, reg);
        return;
    }
    /* A write to any command block register clears HOB. */
    bus->devctl &= ~ATA_CTL_HOB;
    for (i = 0; i < 2; i++) {
        AtalabDrive *d = &bus->drive[i];

        switch (reg) {
        case ATA_REG_FEATURE:
            latch(&d->feature, &d->hob_feature, val);
            break;
        case ATA_REG_COUNT:
            latch(&d->count, &d->hob_count, val);
            break;
        case ATA_REG_LBAL:
            latch(&d->lbal, &d->hob_lbal, val);
            break;
        case ATA_REG_LBAM:
            latch(&d->lbam, &d->hob_lbam, val);
            break;
        case ATA_REG_LBAH:
            latch(&d->lbah, &d->hob_lbah, val);
            break;
        }
    }
    if (reg == ATA_REG_DEVICE) {
        bus->device = val;
        atalab_ata_update_irq(bus);
    } else if (reg == ATA_REG_COMMAND) {
        command_write(bus, val);
    }
}
