/*
 * atalab emulator core: faults as an ATA device presents them -- the rules
 * the fault engine fires (atalab-fault.h) turned into status, error,
 * address registers, interrupts and data, as docs/faults.md lists them.
 *
 * A command asks the engine once, when it is accepted; what fired becomes
 * the command's plan (AtaFaultPlan): an error at a sector (data before it
 * moves normally), an error instead of the command, a hung command, a
 * change to its end (lost or early interrupt, ICRC, a delay, DRQ left
 * set), or bit flips in its data.  The data path then asks the plan two
 * questions: per data step (atalab_ata_fault_step) and at the command's
 * end (atalab_ata_fault_end); bit flips (atalab_ata_fault_corrupt) and an
 * early interrupt once busy (atalab_ata_fault_busy) are the only other
 * calls.  Software resets ask about reset-fail rules; timed rules
 * (spurious-irq, remove, power-cut at a virtual time) run from a timer of
 * the bus.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "ata-internal.h"
#include "../host-timer.h"
#include "../trace/trace.h"

static void trace_firing(AtalabDrive *d, const AtalabFaultRule *r,
                         uint64_t lba, bool command)
{
    char cmd[8] = "none";

    if (command) {
        g_snprintf(cmd, sizeof(cmd), "0x%02x", d->cmd);
    }
    atalab_trace(d->host, "ata%u fault d%u rule=%s kind=%s cmd=%s lba=%"
                 PRIu64, d->bus->index, d->unit, r->id,
                 atalab_fault_kind_name(r->kind), cmd, lba);
    atalab_event(d->host, &(AtalabEvent) {
        .kind = ATALAB_EVENT_FAULT, .channel = d->bus->index,
        .drive = d->index, .name = r->id, .value = d->cmd });
}

/* ---- the drive's own timer: delayed completion, reset end, reinsert --- */

static void fault_timer_fired(void *opaque)
{
    AtalabDrive *d = opaque;

    atalab_trace(d->host, "ata%u timer d%u fault", d->bus->index, d->unit);

    switch (d->fault_wait) {
    case ATA_FAULT_WAIT_COMPLETION:
        d->fault_wait = ATA_FAULT_WAIT_NONE;
        if (d->fault_wait_seq == d->seq) {
            atalab_ata_cmd_ok(d);
        }
        break;
    case ATA_FAULT_WAIT_LAST_BLOCK:
        d->fault_wait = ATA_FAULT_WAIT_NONE;
        if (d->fault_wait_seq == d->seq && d->phase == ATA_PHASE_PIO_IN) {
            atalab_ata_pio_in_present(d);
        }
        break;
    case ATA_FAULT_WAIT_RESET:
        d->fault_wait = ATA_FAULT_WAIT_NONE;
        if (d->present && d->phase == ATA_PHASE_IDLE) {
            d->status = atalab_ata_reset_status(d);
            atalab_trace(d->host, "ata%u fault d%u reset-fail over",
                         d->bus->index, d->unit);
        }
        break;
    case ATA_FAULT_WAIT_REINSERT:
        d->fault_wait = ATA_FAULT_WAIT_NONE;
        atalab_trace(d->host, "ata%u fault d%u reinserted", d->bus->index,
                     d->unit);
        atalab_ata_set_present(d, true);
        atalab_ata_drive_power_on(d);
        break;
    case ATA_FAULT_WAIT_NONE:
        break;
    }
}

static void fault_wait(AtalabDrive *d, AtaFaultWait what, int64_t ns)
{
    const AtalabHost *h = d->host;

    d->fault_wait = what;
    d->fault_wait_seq = d->seq;
    if (ns != ATALAB_FAULT_NEVER_ENDS) {
        atalab_timer_mod(h, d->fault_t, atalab_now(h) + ns);
    }
}

static void fault_wait_cancel(AtalabDrive *d)
{
    if (d->fault_wait != ATA_FAULT_WAIT_NONE) {
        atalab_timer_del(d->host, d->fault_t);
    }
    d->fault_wait = ATA_FAULT_WAIT_NONE;
}

void atalab_ata_fault_init(AtalabDrive *d)
{
    d->fault_t = atalab_timer_new(d->host, fault_timer_fired, d);
}

void atalab_ata_fault_fini(AtalabDrive *d)
{
    atalab_timer_free(d->host, &d->fault_t);
    atalab_ata_power_cut_forget(d);
}

/* A reset ends what a fault left behind (not a removal). */
void atalab_ata_fault_reset(AtalabDrive *d, bool power_on)
{
    memset(&d->fault, 0, sizeof(d->fault));
    if (d->fault_wait == ATA_FAULT_WAIT_COMPLETION ||
        d->fault_wait == ATA_FAULT_WAIT_LAST_BLOCK ||
        (power_on && d->fault_wait == ATA_FAULT_WAIT_RESET)) {
        fault_wait_cancel(d);
    }
    d->df_sticky = false;
}

/* ---- removal and power cut -------------------------------------------- */

static void remove_drive(AtalabDrive *d, const AtalabFaultRule *r)
{
    atalab_trace(d->host, "ata%u fault d%u removed", d->bus->index, d->unit);
    atalab_ata_abort_command(d, "removed");
    d->intrq = false;
    atalab_ata_set_present(d, false);
    atalab_ata_update_irq(d->bus);
    fault_wait_cancel(d);
    if (r->duration != ATALAB_FAULT_NEVER_ENDS) {
        fault_wait(d, ATA_FAULT_WAIT_REINSERT, r->duration);
    }
}

/* ---- commands ------------------------------------------------------------ */

/* The error of an error-type plan, as the device reports it. */
static void present_error(AtalabDrive *d, AtalabFaultKind kind, uint64_t lba)
{
    switch (kind) {
    case ATALAB_FAULT_UNC:
        atalab_ata_set_error_address(d, lba);
        atalab_ata_cmd_error(d, ATA_ERR_UNC, "UNC");
        break;
    case ATALAB_FAULT_AMNF:
        atalab_ata_set_error_address(d, lba);
        atalab_ata_cmd_error(d, ATA_ERR_AMNF, "AMNF");
        break;
    case ATALAB_FAULT_IDNF:
        atalab_ata_set_error_address(d, lba);
        atalab_ata_cmd_error(d, ATA_ERR_IDNF, "IDNF");
        break;
    case ATALAB_FAULT_WRITE_FAULT:
        atalab_ata_set_error_address(d, lba);
        atalab_ata_cmd_error_status(d, ATA_STAT_READY | ATA_STAT_DF |
                                    ATA_STAT_ERR, ATA_ERR_ABRT,
                                    "write-fault");
        break;
    case ATALAB_FAULT_ICRC:
        d->icrc_errors++;
        atalab_ata_cmd_error(d, ATA_ERR_ICRC | ATA_ERR_ABRT, "ICRC");
        break;
    default:
        atalab_ata_cmd_abort(d);
        break;
    }
}

static bool is_stop_kind(AtalabFaultKind k)
{
    return k == ATALAB_FAULT_UNC || k == ATALAB_FAULT_AMNF ||
           k == ATALAB_FAULT_WRITE_FAULT || k == ATALAB_FAULT_BM_ERROR;
}

/*
 * A packet device reports an error as CHECK CONDITION: a sense rule's
 * sense data, or the SPC-3 sense closest to the ATA error kind.  Its
 * errors come when the packet arrives, before any data moves.
 */
static void present_packet_error(AtalabDrive *d, const AtalabFaultRule *r)
{
    switch (r->kind) {
    case ATALAB_FAULT_SENSE:
        atalab_atapi_check(d, r->sense_key, r->asc, r->ascq);
        break;
    case ATALAB_FAULT_UNC:      /* unrecovered read error */
        atalab_atapi_check(d, 0x3, 0x11, 0x00);
        break;
    case ATALAB_FAULT_AMNF:     /* address mark not found for data field */
        atalab_atapi_check(d, 0x3, 0x13, 0x00);
        break;
    case ATALAB_FAULT_IDNF:     /* recorded entity not found */
        atalab_atapi_check(d, 0x3, 0x14, 0x00);
        break;
    case ATALAB_FAULT_WRITE_FAULT:      /* write error */
        atalab_atapi_check(d, 0x3, 0x0C, 0x00);
        break;
    default:                    /* ABORTED COMMAND */
        atalab_atapi_check(d, 0xB, 0x00, 0x00);
        break;
    }
}

/* Ask the rules about the command q describes; true: a fault took it. */
static bool fault_apply(AtalabDrive *d, const AtalabFaultQuery *qp)
{
    AtalabFaults *faults = d->bus->faults;
    AtaFaultPlan *plan = &d->fault;
    AtalabFaultQuery q = *qp;
    AtalabFaultHits hits;
    unsigned i;

    memset(plan, 0, sizeof(*plan));
    if (d->df_sticky) {
        /* A device fault stays until a reset (ATA-7 vol. 1, DF). */
        atalab_ata_cmd_error_status(d, ATA_STAT_READY | ATA_STAT_DF |
                                    ATA_STAT_ERR, ATA_ERR_ABRT, "DF");
        return true;
    }
    atalab_faults_match(faults, &q, &hits);
    for (i = 0; i < hits.n; i++) {
        AtalabFaultRule *r = hits.rule[i];
        uint64_t lba = hits.lba[i];

        trace_firing(d, r, q.has_lba ? lba : 0, true);
        if (q.packet && (r->kind == ATALAB_FAULT_SENSE ||
                         r->kind == ATALAB_FAULT_IDNF ||
                         r->kind == ATALAB_FAULT_ABRT ||
                         (is_stop_kind(r->kind) &&
                          r->kind != ATALAB_FAULT_BM_ERROR))) {
            present_packet_error(d, r);
            return true;
        }
        switch (r->kind) {
        case ATALAB_FAULT_IDNF:
        case ATALAB_FAULT_ABRT:
            present_error(d, r->kind, lba);
            return true;
        case ATALAB_FAULT_DF:
            d->df_sticky = true;
            atalab_ata_cmd_error_status(d, ATA_STAT_READY | ATA_STAT_DF |
                                        ATA_STAT_ERR, ATA_ERR_ABRT, "DF");
            return true;
        case ATALAB_FAULT_TIMEOUT:
            /* Accepted, then BSY until a reset: no data, no interrupt. */
            d->phase = ATA_PHASE_NODATA;
            d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
            d->remaining = 0;
            return true;
        case ATALAB_FAULT_REMOVE:
            remove_drive(d, r);
            return true;
        case ATALAB_FAULT_POWER_CUT:
            atalab_ata_power_cut(d, r);
            return true;
        case ATALAB_FAULT_SPURIOUS_IRQ:
            plan->spurious = true;
            break;
        case ATALAB_FAULT_LOST_IRQ:
            plan->lost_irq = true;
            break;
        case ATALAB_FAULT_LATENCY:
            plan->latency += r->duration;
            break;
        case ATALAB_FAULT_CORRUPT:
            if (!plan->corrupt) {
                plan->corrupt = r;
            }
            break;
        case ATALAB_FAULT_PROTOCOL:
            if (!plan->protocol) {
                plan->protocol = r;
            }
            break;
        case ATALAB_FAULT_ICRC:
            /* a packet device's Error register has no ICRC bit */
            if (!plan->end_error && !q.packet) {
                plan->end_error = ATALAB_FAULT_ICRC;
            }
            break;
        default:
            if (is_stop_kind(r->kind) && !plan->stop && !q.packet) {
                plan->stop = r;
                plan->stop_lba = lba;
            }
            break;
        }
    }
    return false;
}

bool atalab_ata_fault_command(AtalabDrive *d)
{
    AtalabFaultQuery q = {
        .drive = d->index,
        .opcode = d->cmd,
        .cls = d->info->fault_class,
        .has_lba = d->info->flags & ATA_CF_RANGE,
        .lba = d->lba,
        .count = d->remaining,
        .udma = d->info->proto == ATA_PROTO_DMA && d->udma_mode >= 0,
        .now = atalab_now(d->host),
    };

    return fault_apply(d, &q);
}

bool atalab_ata_fault_packet(AtalabDrive *d, bool read, uint64_t lba,
                             uint32_t count)
{
    AtalabFaultQuery q = {
        .drive = d->index,
        .opcode = d->cmd,
        .packet = true,
        .packet_op = d->packet.cdb[0],
        .cls = read ? ATALAB_CLASS_READ : ATALAB_CLASS_OTHER,
        .has_lba = read,
        .lba = lba,
        .count = count,
        .udma = d->packet.dma && d->udma_mode >= 0,
        .now = atalab_now(d->host),
    };

    return fault_apply(d, &q);
}

/* At the planned error's sector: present it (true). */
static bool stop_here(AtalabDrive *d)
{
    AtaFaultPlan *plan = &d->fault;
    AtalabFaultRule *r = plan->stop;

    if (!r || plan->stop_lba != d->lba) {
        return false;
    }
    plan->stop = NULL;
    if (r->kind == ATALAB_FAULT_BM_ERROR) {
        /*
         * PCI master abort: BMISX.ERR set and ACTIVE cleared by the
         * engine; with irq=yes the drive still finishes its part and
         * interrupts, else it waits with DRQ until the guest resets it.
         */
        d->bus->port->fail(d->bus->port);
        if (r->irq) {
            d->remaining = 0;
            d->bus->port->finish(d->bus->port);
            atalab_ata_cmd_ok(d);
        } else {
            d->dma_stuck = true;
            atalab_trace(d->host, "ata%u dma-stuck d%u 0x%02x master-abort "
                         "lba=%" PRIu64, d->bus->index, d->unit, d->cmd,
                         d->lba);
        }
        return true;
    }
    present_error(d, r->kind, d->lba);
    return true;
}

bool atalab_ata_fault_step(AtalabDrive *d, uint32_t want, bool medium,
                           AtaStep *step)
{
    const AtaFaultPlan *plan = &d->fault;
    const AtalabFaultRule *p = plan->protocol;

    step->sectors = want;
    step->bounce = false;
    if (medium) {
        if (stop_here(d)) {
            return false;
        }
        /* Data before a planned error moves normally. */
        if (plan->stop && plan->stop_lba >= d->lba &&
            plan->stop_lba - d->lba < want) {
            step->sectors = plan->stop_lba - d->lba;
        }
        /*
         * Bit flips happen in the bounce buffer: on a write they must not
         * reach guest memory, on a read they are made before the data is
         * copied out.
         */
        step->bounce = plan->corrupt != NULL;
    }
    step->pio_bytes = (size_t)step->sectors * ATA_SECTOR_SIZE;
    /* A DRQ block of the wrong size. */
    if (p && p->violation == ATALAB_PROTO_DRQ_COUNT && step->pio_bytes > 2) {
        step->pio_bytes /= 2;
    }
    return true;
}

/* Flip bits of sectors [lba, lba + sectors) in buf, as the rule says. */
void atalab_ata_fault_corrupt(AtalabDrive *d, uint8_t *buf, uint64_t lba,
                              uint32_t sectors, bool writing)
{
    AtalabFaultRule *r = d->fault.corrupt;
    uint32_t s;
    unsigned b;

    if (!r || r->on_write != writing) {
        return;
    }
    for (s = 0; s < sectors; s++) {
        if (r->has_lba && (lba + s < r->lba_first || lba + s > r->lba_last)) {
            continue;
        }
        for (b = 0; b < r->bits; b++) {
            uint64_t bit = atalab_fault_random(r) % (ATA_SECTOR_SIZE * 8);

            buf[(size_t)s * ATA_SECTOR_SIZE + bit / 8] ^= 1u << (bit % 8);
        }
    }
    atalab_trace(d->host, "ata%u fault d%u corrupted lba=%" PRIu64
                 " count=%u bits=%u %s", d->bus->index, d->unit, lba,
                 sectors, r->bits, writing ? "write" : "read");
}

bool atalab_ata_fault_end(AtalabDrive *d, AtaEndAt at, uint8_t status,
                          AtaEnd *end)
{
    AtaFaultPlan *plan = &d->fault;
    const AtalabFaultRule *p = plan->protocol;
    bool completes = at == ATA_END_COMPLETE;

    if (completes && plan->end_error) {
        AtalabFaultKind k = plan->end_error;

        plan->end_error = 0;
        present_error(d, k, d->lba);
        return false;
    }
    if ((completes || at == ATA_END_LAST_BLOCK) && plan->latency) {
        int64_t ns = plan->latency;

        plan->latency = 0;
        d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
        fault_wait(d, completes ? ATA_FAULT_WAIT_COMPLETION :
                   ATA_FAULT_WAIT_LAST_BLOCK, ns);
        return false;
    }
    end->status = status;
    if ((completes || at == ATA_END_DRAINED) &&
        p && p->violation == ATALAB_PROTO_STATUS_PHASE) {
        end->status |= ATA_STAT_DRQ;    /* "data" left when there is none */
    }
    end->irq = at != ATA_END_DRAINED && !plan->lost_irq;
    return true;
}

/* INTRQ before the data is ready, or for nothing. */
void atalab_ata_fault_busy(AtalabDrive *d)
{
    const AtalabFaultRule *p = d->fault.protocol;

    if ((p && p->violation == ATALAB_PROTO_IRQ_EARLY) || d->fault.spurious) {
        d->fault.spurious = false;
        atalab_ata_raise(d);
    }
}

/* ---- resets ------------------------------------------------------------- */

bool atalab_ata_fault_srst_release(AtalabDrive *d)
{
    AtalabFaultQuery q = {
        .drive = d->index,
        .reset = true,
        .now = atalab_now(d->host),
    };
    AtalabFaultHits hits;

    atalab_faults_match(d->bus->faults, &q, &hits);
    if (!hits.n) {
        return false;
    }
    trace_firing(d, hits.rule[0], 0, false);
    d->status = ATA_STAT_BSY;
    fault_wait(d, ATA_FAULT_WAIT_RESET, hits.rule[0]->duration);
    return true;
}

/* ---- timed rules ------------------------------------------------------ */

static void timed_arm(AtalabAtaBus *bus)
{
    const AtalabHost *h = bus->host;
    int64_t next = atalab_faults_next_timed(bus->faults, atalab_now(h));

    if (next < 0) {
        atalab_timer_del(h, bus->timed_t);
    } else {
        atalab_timer_mod(h, bus->timed_t, next);
    }
}

static void timed_fired(void *opaque)
{
    AtalabAtaBus *bus = opaque;
    int64_t now = atalab_now(bus->host);
    unsigned u, i;

    atalab_trace(bus->host, "ata%u fault-timer", bus->index);

    for (u = 0; u < 2; u++) {
        AtalabDrive *d = &bus->drive[u];
        AtalabFaultHits hits;

        atalab_faults_take_timed(bus->faults, now, d->index, &hits);
        for (i = 0; i < hits.n; i++) {
            AtalabFaultRule *r = hits.rule[i];

            trace_firing(d, r, 0, false);
            switch (r->kind) {
            case ATALAB_FAULT_SPURIOUS_IRQ:
                if (d->present) {
                    atalab_ata_raise(d);
                }
                break;
            case ATALAB_FAULT_REMOVE:
                if (d->present) {
                    remove_drive(d, r);
                }
                break;
            case ATALAB_FAULT_POWER_CUT:
                atalab_ata_power_cut(d, r);
                break;
            default:
                break;
            }
        }
    }
    timed_arm(bus);
}

void atalab_ata_faults_init(AtalabAtaBus *bus)
{
    bus->timed_t = atalab_timer_new(bus->host, timed_fired, bus);
}

void atalab_ata_faults_fini(AtalabAtaBus *bus)
{
    atalab_timer_free(bus->host, &bus->timed_t);
}

void atalab_ata_faults_changed(AtalabAtaBus *bus)
{
    timed_arm(bus);
}
