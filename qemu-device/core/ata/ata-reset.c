/*
 * atalab emulator core: how a drive's command is ended without a result,
 * and the resets that do it -- power-on, EXECUTE DEVICE DIAGNOSTIC, and a
 * packet device's DEVICE RESET.  (The software reset, SRST, is a register
 * write: ata-device.c.)
 *
 * References: ATA/ATAPI-7 volume 1 (T13 1532D), EXECUTE DEVICE DIAGNOSTIC
 * and DEVICE RESET; volume 2, the reset protocols.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ata-internal.h"
#include "../trace/trace.h"

void atalab_ata_abort_command(AtalabDrive *d, const char *why)
{
    AtalabAtaBus *bus = d->bus;

    if (d->phase != ATA_PHASE_IDLE && d->phase != ATA_PHASE_RESET) {
        atalab_trace(d->host, "ata%u abort d%u 0x%02x %s", bus->index,
                     d->unit, d->cmd, why);
    }
    /* Everything that refers to the command goes before the drain. */
    d->seq++;
    d->phase = ATA_PHASE_IDLE;
    d->remaining = 0;
    d->data_pos = d->data_end = 0;
    d->pio_source = NULL;
    d->pio_sink = NULL;
    /*
     * A packet command's reply goes with it: the data-in path of the next
     * PIO command (IDENTIFY PACKET DEVICE) must not find what is left.
     */
    d->packet.buf_len = d->packet.buf_pos = 0;
    d->icrc = false;
    atalab_ata_release_dma(d);
    atalab_ata_io_abandon(d);
}

void atalab_ata_settings_defaults(AtalabDrive *d)
{
    d->cur_cyls = d->cyls;
    d->cur_heads = d->heads;
    d->cur_spt = d->spt;
    d->mult = 0;
    d->wcache = true;
    d->lookahead = true;
    d->revert_on_reset = false;
    d->pio_mode = -1;
    d->mwdma_mode = -1;
    d->udma_mode = -1;
    d->iordy_disabled = false;
}

void atalab_ata_drive_power_on(AtalabDrive *d)
{
    atalab_ata_abort_command(d, "power-on");
    d->intrq = false;
    atalab_ata_fault_reset(d, true);
    /* A reset is no power cut: the drive writes its cache back. */
    atalab_ata_undo_flushed(d);
    atalab_ata_hpa_power_on(d);
    atalab_ata_default_geometry(d->sectors, &d->cyls, &d->heads, &d->spt);
    atalab_ata_settings_defaults(d);
    atalab_ata_power_on_defaults(d);
    atalab_ata_smart_power_on(d);
    atalab_ata_set_signature(d);
    if (d->atapi) {
        atalab_atapi_mmc_power_on(d);
    }
    d->prev_cmd = 0;
    d->status = atalab_ata_reset_status(d);
}

void atalab_ata_exec_diagnostic(AtalabAtaBus *bus, const AtaCmdInfo *info,
                                uint8_t op)
{
    unsigned i;

    atalab_trace(bus->host, "ata%u cmd d%u 0x%02x %s", bus->index,
                 atalab_ata_selected(bus)->unit, op, info->name);
    for (i = 0; i < 2; i++) {
        AtalabDrive *d = &bus->drive[i];

        /* Writing the Command register clears both interrupts. */
        d->intrq = false;
        atalab_ata_abort_command(d, "diagnostic");
        atalab_ata_fault_reset(d, false);
        d->cmd = op;
        d->info = info;
        d->prev_cmd = op;
        atalab_ata_power_reset(d);
        atalab_ata_set_signature(d);
    }
    bus->device = 0;
    atalab_ata_update_irq(bus);
    if (bus->drive[0].req.abandoned || bus->drive[1].req.abandoned) {
        /* Finished by the last abandoned request's completion. */
        bus->diag_pending = true;
        return;
    }
    atalab_ata_diagnostic_done(bus);
}

void atalab_ata_diagnostic_done(AtalabAtaBus *bus)
{
    AtalabDrive *d0 = &bus->drive[0];
    AtalabDrive *d1 = &bus->drive[1];

    bus->diag_pending = false;
    if (d1->present) {
        d1->status = atalab_ata_reset_status(d1);
    }
    /* Device 0 reports for both and asserts INTRQ; a reset's status. */
    atalab_ata_cmd_ok_reset(d0->present ? d0 : d1);
}

void atalab_atapi_device_reset(AtalabDrive *d)
{
    /*
     * DEVICE RESET: the command in progress ends (ata-device.c has aborted
     * it before this runs), the device resets as a software reset does
     * (settings kept), shows the signature and clears BSY without an
     * interrupt (ATA-7 vol. 2, DEVICE RESET protocol).
     */
    atalab_ata_fault_reset(d, false);
    atalab_ata_power_reset(d);
    atalab_ata_set_signature(d);
    d->packet.buf_len = d->packet.buf_pos = 0;
    d->status = atalab_ata_reset_status(d);
    atalab_trace(d->host, "ata%u done d%u 0x%02x status=0x%02x",
                 d->bus->index, d->unit, d->cmd, d->status);
}
