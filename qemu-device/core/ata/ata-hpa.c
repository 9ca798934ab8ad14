/*
 * atalab emulator core: the Host Protected Area feature set -- READ NATIVE
 * MAX ADDRESS (EXT) and SET MAX ADDRESS (EXT).
 *
 * ATA/ATAPI-7 volume 1 (T13 1532D): Host Protected Area feature set, READ
 * NATIVE MAX ADDRESS (F8h), READ NATIVE MAX ADDRESS EXT (27h), SET MAX
 * ADDRESS (F9h), SET MAX ADDRESS EXT (37h).  SET MAX must come right after
 * the matching READ NATIVE MAX; Count bit 0 (VV) makes the new maximum
 * survive power-on and hardware reset ("non-volatile"), which here means
 * for the life of the emulator process; one non-volatile SET MAX is taken
 * per power-on.  IDENTIFY capacity words follow the current maximum.  The
 * SET MAX security extension (Features not 0) is not implemented: aborted.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>

#include "ata-internal.h"
#include "../trace/trace.h"

#define SET_MAX_VV      0x01    /* Count bit 0: value volatile */

void atalab_ata_hpa_power_on(AtalabDrive *d)
{
    d->sectors = d->sectors_nv;
    d->max_set_nv = false;
}

/* The address registers of a result (LBA, LBA + HOB, or CHS). */
static void put_address(AtalabDrive *d, uint64_t lba)
{
    atalab_ata_set_error_address(d, lba);
}

void atalab_ata_cmd_read_native_max(AtalabDrive *d)
{
    uint64_t native_max = d->native_sectors - 1;

    if (!d->lba48) {
        native_max = MIN(native_max, ATA_LBA28_LIMIT - 1);
    }
    put_address(d, native_max);
    atalab_ata_cmd_ok(d);
}

void atalab_ata_cmd_set_max(AtalabDrive *d)
{
    uint8_t want_prev = d->lba48 ? 0x27 : 0xF8;
    bool nv = d->count & SET_MAX_VV;
    uint64_t max;

    if (d->feature != 0 || d->prev_cmd != want_prev ||
        (nv && d->max_set_nv)) {
        atalab_ata_cmd_abort(d);
        return;
    }
    if (!atalab_ata_decode_address(d, true, &max) ||
        max >= d->native_sectors ||
        (!d->lba48 && max >= ATA_LBA28_LIMIT)) {
        atalab_ata_cmd_error(d, ATA_ERR_IDNF, "IDNF");
        return;
    }
    d->sectors = max + 1;
    if (nv) {
        d->sectors_nv = d->sectors;
        d->max_set_nv = true;
    }
    /* IDENTIFY's default geometry follows the new capacity. */
    atalab_ata_default_geometry(d->sectors, &d->cyls, &d->heads, &d->spt);
    d->cur_cyls = d->cyls;
    d->cur_heads = d->heads;
    d->cur_spt = d->spt;
    atalab_trace(d->host, "ata%u hpa d%u max=%" PRIu64 " sectors=%" PRIu64
                 " nv=%d", d->bus->index, d->unit, max, d->sectors, nv);
    put_address(d, max);
    atalab_ata_cmd_ok(d);
}
