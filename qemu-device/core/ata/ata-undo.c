/*
 * atalab emulator core: the undo log of a volatile write cache, which a
 * power cut (ata-powercut.c) uses.
 *
 * While the rule set holds a power-cut rule, a drive whose write cache is
 * on keeps what it needs to undo the writes it acknowledged but has not
 * flushed: before such a write goes to the backend, the sectors it
 * replaces are read (the pre-image, ata-io.c) and logged.  A successful
 * FLUSH CACHE makes everything logged durable and empties the log.  The
 * log holds at most ATA_CACHE_BYTES: older writes leave it as a real
 * cache writes them back.  Writes with the cache off, and FUA writes, are
 * durable at once and never logged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ata-internal.h"

void atalab_ata_undo_free(gpointer p)
{
    UndoEntry *e = p;

    g_free(e->old);
    g_free(e);
}

bool atalab_ata_undo_wanted(const AtalabDrive *d, bool fua)
{
    return d->wcache && !fua &&
           atalab_faults_have_kind(d->bus->faults, ATALAB_FAULT_POWER_CUT);
}

void atalab_ata_undo_log(AtalabDrive *d, uint64_t lba, unsigned sectors,
                         uint8_t *old)
{
    UndoEntry *e = g_new(UndoEntry, 1);

    e->lba = lba;
    e->sectors = sectors;
    e->old = old;
    g_queue_push_tail(&d->undo, e);
    d->undo_bytes += (size_t)sectors * ATA_SECTOR_SIZE;
    /* The oldest writes are on the medium by now: a bounded cache. */
    while (d->undo_bytes > ATA_CACHE_BYTES) {
        UndoEntry *o = g_queue_pop_head(&d->undo);

        d->undo_bytes -= (size_t)o->sectors * ATA_SECTOR_SIZE;
        atalab_ata_undo_free(o);
    }
}

void atalab_ata_undo_flushed(AtalabDrive *d)
{
    g_queue_clear_full(&d->undo, atalab_ata_undo_free);
    d->undo_bytes = 0;
}

void atalab_ata_undo_forget(AtalabDrive *d)
{
    atalab_ata_undo_flushed(d);
    g_queue_clear_full(&d->undo_lost, atalab_ata_undo_free);
}
