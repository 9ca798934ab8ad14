/*
 * atalab emulator core: power cut with a volatile write cache.
 *
 * When a power-cut rule fires, the drive loses power: its command is gone,
 * it floats on the bus, and the newest writes in its undo log (ata-undo.c)
 * are lost -- walking from the newest back, each one further with the
 * rule's probability "loss" (a seeded pattern, the same on every run) --
 * by writing their pre-images back, newest first.  Then the drive powers
 * on again.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>

#include "ata-internal.h"
#include "../trace/trace.h"

static void restore_next(AtalabDrive *d);

static void restore_done(AtalabDrive *d, int ret)
{
    UndoEntry *e = g_queue_pop_head(&d->undo_lost);

    if (ret < 0) {
        atalab_trace(d->host, "ata%u fault d%u power-cut restore failed "
                     "lba=%" PRIu64 " ret=%d", d->bus->index, d->unit,
                     e->lba, ret);
    }
    atalab_ata_undo_free(e);
    restore_next(d);
}

/* Write the lost writes' pre-images back, newest first; then power on. */
static void restore_next(AtalabDrive *d)
{
    UndoEntry *e = g_queue_peek_head(&d->undo_lost);

    if (e) {
        atalab_ata_io_write(d, e->lba, e->sectors, e->old, true,
                            restore_done);
        return;
    }
    d->power_cut = false;
    atalab_trace(d->host, "ata%u fault d%u power back", d->bus->index,
                 d->unit);
    atalab_ata_set_present(d, d->attached);
    atalab_ata_drive_power_on(d);
}

/* The drive's own request is done (or was never there): restore. */
void atalab_ata_power_cut_continue(AtalabDrive *d)
{
    if (d->power_cut && !d->req.inflight) {
        restore_next(d);
    }
}

void atalab_ata_power_cut(AtalabDrive *d, AtalabFaultRule *rule)
{
    unsigned lost = 0, kept;

    if (d->power_cut) {
        return;
    }
    /* From the newest write back, each one lost with probability loss. */
    while (!g_queue_is_empty(&d->undo) &&
           (atalab_fault_random(rule) >> 32) < rule->loss_scaled) {
        g_queue_push_tail(&d->undo_lost, g_queue_pop_tail(&d->undo));
        lost++;
    }
    kept = g_queue_get_length(&d->undo);
    atalab_ata_undo_flushed(d);
    atalab_trace(d->host, "ata%u fault d%u power-cut lost=%u kept=%u",
                 d->bus->index, d->unit, lost, kept);
    d->power_cut = true;
    atalab_ata_abort_command(d, "power-cut");
    d->intrq = false;
    atalab_ata_set_present(d, false);
    atalab_ata_update_irq(d->bus);
    /* With an abandoned request still out, its completion continues. */
    atalab_ata_power_cut_continue(d);
}
