/*
 * atalab emulator core: what the fault plan's decisions do to a drive --
 * a command taken by a fault (an error instead of it, a hang, the drive
 * removed or its power cut), a removed drive's reinsertion, and the timed
 * rules (spurious-irq, remove, power-cut at a virtual time), which run
 * from a timer of the bus.  ata-fault.c decides; this file acts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ata-internal.h"
#include "../host-timer.h"
#include "../trace/trace.h"

/* ---- removal ------------------------------------------------------------ */

static void reinsert(AtalabDrive *d)
{
    atalab_trace(d->host, "ata%u fault d%u reinserted", d->bus->index,
                 d->unit);
    atalab_ata_set_present(d, true);
    atalab_ata_drive_power_on(d);
}

static void remove_drive(AtalabDrive *d, const AtalabFaultRule *r)
{
    atalab_trace(d->host, "ata%u fault d%u removed", d->bus->index, d->unit);
    atalab_ata_abort_command(d, "removed");
    d->intrq = false;
    atalab_ata_set_present(d, false);
    atalab_ata_update_irq(d->bus);
    atalab_ata_wait_cancel(d);
    if (r->duration != ATALAB_FAULT_NEVER_ENDS) {
        atalab_ata_wait(d, ATA_WAIT_REINSERT, r->duration, reinsert);
    }
}

/* ---- commands ------------------------------------------------------------ */

void atalab_ata_fault_take(AtalabDrive *d, const AtaFaultTake *take)
{
    switch (take->what) {
    case ATA_TAKE_ERROR:
        atalab_ata_fault_error(d, take->kind, take->lba);
        break;
    case ATA_TAKE_CHECK:
        atalab_atapi_fault_error(d, take->rule);
        break;
    case ATA_TAKE_HANG:
        /* Accepted, then BSY until a reset: no data, no interrupt. */
        d->phase = ATA_PHASE_NODATA;
        d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
        d->remaining = 0;
        break;
    case ATA_TAKE_REMOVE:
        remove_drive(d, take->rule);
        break;
    case ATA_TAKE_POWER_CUT:
        atalab_ata_power_cut(d, take->rule);
        break;
    case ATA_TAKE_NONE:
        break;
    }
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

            atalab_ata_fault_fired(d, r, 0, false);
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
