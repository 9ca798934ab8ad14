/*
 * atalab emulator core: the bottom of the ATA part -- the selected device,
 * the interrupt line, signatures and reset status, the address registers,
 * and the drive's own timer.  Everything above builds on these; nothing
 * here calls another ATA file.
 *
 * References: ATA/ATAPI-7 volume 1 (T13 1532D) clause 7 (register
 * descriptions) and the signatures of clause 9.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>

#include "ata-internal.h"
#include "../host-timer.h"
#include "../trace/trace.h"

AtalabDrive *atalab_ata_selected(AtalabAtaBus *bus)
{
    return &bus->drive[(bus->device & ATA_DEV_DEV) ? 1 : 0];
}

uint8_t atalab_ata_status(const AtalabDrive *d)
{
    /*
     * A reset or diagnostic does not finish while a request it abandoned
     * is still with the backend: the drive stays busy until then.
     */
    if (d->req.abandoned || d->bus->diag_pending) {
        return ATA_STAT_BSY;
    }
    return d->status;
}

void atalab_ata_update_irq(AtalabAtaBus *bus)
{
    AtalabDrive *sel = atalab_ata_selected(bus);
    bool level = sel->present && sel->intrq &&
                 !(bus->devctl & ATA_CTL_NIEN);

    if (level == bus->irq_level) {
        return;
    }
    bus->irq_level = level;
    bus->hooks->irq(bus->hooks->opaque, bus->index, level);
}

void atalab_ata_raise(AtalabDrive *d)
{
    d->intrq = true;
    atalab_ata_update_irq(d->bus);
}

void atalab_ata_set_signature(AtalabDrive *d)
{
    /*
     * ATA device signature: count 01h, LBA 000001h, Device 00h; a packet
     * device's: LBA Mid 14h, LBA High EBh.
     */
    d->count = 1;
    d->lbal = 1;
    d->lbam = d->atapi ? 0x14 : 0;
    d->lbah = d->atapi ? 0xEB : 0;
    d->hob_count = d->hob_lbal = d->hob_lbam = d->hob_lbah = 0;
    d->hob_feature = d->feature = 0;
    /* Diagnostic code 01h: device 0 passed, device 1 passed or absent. */
    d->error = 0x01;
}

uint8_t atalab_ata_reset_status(const AtalabDrive *d)
{
    /*
     * After a reset or a diagnostic a packet device leaves DRDY clear (ATA-7
     * vol. 1, Status register: DRDY); an ATA device reads 50h.
     */
    if (!d->present) {
        return 0;
    }
    return d->atapi ? 0 : ATA_STAT_READY;
}

void atalab_ata_set_present(AtalabDrive *d, bool present)
{
    /*
     * A drive whose power was cut stays off the bus until its write-back
     * is done (ata-powercut.c brings it back), whatever resets, port
     * enables or reinsertions come meanwhile: a command could otherwise
     * start a request beside a write-back still with the backend.
     */
    d->present = present && !d->power_cut;
}

void atalab_ata_release_dma(AtalabDrive *d)
{
    if (d->bus->dma_owner == d) {
        d->bus->dma_owner = NULL;
    }
    d->dma_waiting = false;
    d->dma_stuck = false;
}

/* ---- addresses ---------------------------------------------------------- */

uint64_t atalab_ata_addressable(const AtalabDrive *d, bool lba48)
{
    return lba48 ? d->sectors : MIN(d->sectors, ATA_LBA28_LIMIT - 1);
}

static bool chs_mode(const AtalabDrive *d)
{
    return !d->lba48 && !(d->bus->device & ATA_DEV_LBA);
}

void atalab_ata_set_error_address(AtalabDrive *d, uint64_t lba)
{
    AtalabAtaBus *bus = d->bus;

    if (chs_mode(d)) {
        /* CHS through the current translation (ATA-7 vol. 1, CHS) */
        unsigned per_cyl = d->cur_heads * d->cur_spt;
        uint64_t cyl = lba / per_cyl;
        unsigned head = (lba / d->cur_spt) % d->cur_heads;

        d->lbal = lba % d->cur_spt + 1;
        d->lbam = cyl;
        d->lbah = cyl >> 8;
        bus->device = (bus->device & 0xF0) | (head & 0x0F);
        return;
    }
    d->lbal = lba;
    d->lbam = lba >> 8;
    d->lbah = lba >> 16;
    if (d->lba48) {
        d->hob_lbal = lba >> 24;
        d->hob_lbam = lba >> 32;
        d->hob_lbah = lba >> 40;
    } else {
        bus->device = (bus->device & 0xF0) | ((lba >> 24) & 0x0F);
    }
}

bool atalab_ata_decode_address(const AtalabDrive *d, bool any_cylinder,
                               uint64_t *lba)
{
    uint8_t dev = d->bus->device;
    unsigned cyl, head, sect;

    if (d->lba48) {
        *lba = (uint64_t)d->hob_lbah << 40 | (uint64_t)d->hob_lbam << 32 |
               (uint64_t)d->hob_lbal << 24 | (uint64_t)d->lbah << 16 |
               (uint64_t)d->lbam << 8 | d->lbal;
        return true;
    }
    if (dev & ATA_DEV_LBA) {
        *lba = (uint64_t)(dev & 0x0F) << 24 | (uint64_t)d->lbah << 16 |
               (uint64_t)d->lbam << 8 | d->lbal;
        return true;
    }
    cyl = d->lbah << 8 | d->lbam;
    head = dev & 0x0F;
    sect = d->lbal;
    if (sect == 0 || sect > d->cur_spt || head >= d->cur_heads ||
        (cyl >= d->cur_cyls && !any_cylinder)) {
        return false;
    }
    *lba = ((uint64_t)cyl * d->cur_heads + head) * d->cur_spt + sect - 1;
    return true;
}

/* ---- the drive's own timer ---------------------------------------------- */

static void wait_fired(void *opaque)
{
    AtalabDrive *d = opaque;
    AtaDriveDone *then = d->wait_then;

    atalab_trace(d->host, "ata%u timer d%u fault", d->bus->index, d->unit);
    if (d->wait == ATA_WAIT_NONE) {
        return;
    }
    d->wait = ATA_WAIT_NONE;
    d->wait_then = NULL;
    then(d);
}

void atalab_ata_wait_init(AtalabDrive *d)
{
    d->wait_t = atalab_timer_new(d->host, wait_fired, d);
}

void atalab_ata_wait_fini(AtalabDrive *d)
{
    atalab_timer_free(d->host, &d->wait_t);
}

void atalab_ata_wait(AtalabDrive *d, AtaWait what, int64_t ns,
                     AtaDriveDone *then)
{
    const AtalabHost *h = d->host;

    d->wait = what;
    d->wait_seq = d->seq;
    d->wait_then = then;
    if (ns != ATALAB_FAULT_NEVER_ENDS) {
        atalab_timer_mod(h, d->wait_t, atalab_now(h) + ns);
    }
}

void atalab_ata_wait_cancel(AtalabDrive *d)
{
    if (d->wait != ATA_WAIT_NONE) {
        atalab_timer_del(d->host, d->wait_t);
    }
    d->wait = ATA_WAIT_NONE;
    d->wait_then = NULL;
}
