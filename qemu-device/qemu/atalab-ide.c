/*
 * atalab-ide: QEMU glue for the atalab PIIX/ICH IDE controller model.
 *
 * The model itself lives in core/ (plain C, no QEMU headers).  This file is
 * the device: the QOM type and its properties, the PCI function and its
 * configuration space, the command/control blocks of each channel (legacy
 * ports and IRQ 14/15, or native-mode BARs 0-3 and INTA#), the bus-master
 * BAR, the life cycle (drives, trace file, fault rules, stop-on)
 * and HMP 'info atalab'.  The core's host (interrupts, guest memory, block
 * requests, timers, the trace sink) is atalab-ide-host.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/cutils.h"
#include "qemu/range.h"
#include "qemu/error-report.h"
#include "qemu/module.h"
#include "hw/pci/pci.h"
#include "hw/isa/isa.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "monitor/monitor.h"
#include "sysemu/block-backend.h"
#include "sysemu/cpus.h"
#include "sysemu/runstate.h"
#include "sysemu/sysemu.h"
#include "qemu/queue.h"
#include "exec/memory.h"

#include "atalab-ide.h"

#define ATALAB_CFG_DEVSPEC 0x40     /* first device-specific config byte */

/* Legacy (compatibility mode) resources of the two channels. */
static const struct {
    uint16_t cmd_base;
    uint16_t ctl_base;
    unsigned irq;
} atalab_legacy[ATALAB_CHANNELS] = {
    { 0x1f0, 0x3f6, 14 },
    { 0x170, 0x376, 15 },
};

/* Every realized controller: two would decode the same legacy ports. */
static QLIST_HEAD(, AtalabIdeState) atalab_instances =
    QLIST_HEAD_INITIALIZER(atalab_instances);

/* ---- stop on events ---------------------------------------------------- */

/* Replace the conditions by those of text (core/stop-on.h). */
static bool atalab_stop_parse(AtalabIdeState *s, const char *text,
                              const AtalabPersonality *p, Error **errp)
{
    char *err = NULL;
    AtalabStopList *l = atalab_stop_list_parse(text, p, &err);

    if (!l) {
        error_setg(errp, "%s", err);
        g_free(err);
        return false;
    }
    atalab_stop_list_free(s->stop);
    s->stop = l;
    return true;
}

/*
 * Stop the guest at the access that caused the event: the vCPU leaves its
 * translation block and the VM enters RUN_STATE_DEBUG, which the gdbstub
 * reports to gdb as SIGTRAP.  The access itself completes normally.
 */
static void atalab_request_stop(void)
{
    if (qemu_in_vcpu_thread()) {
        vm_stop(RUN_STATE_DEBUG);
    } else {
        qemu_system_vmstop_request_prepare();
        qemu_system_vmstop_request(RUN_STATE_DEBUG);
    }
}

static void atalab_host_event(void *opaque, const AtalabEvent *ev)
{
    AtalabIdeState *s = opaque;

    if (!atalab_stop_list_matches(s->stop, atalab_ctrl_personality(s->ctrl),
                                  ev)) {
        return;
    }
    if (!s->stop_pending) {
        g_string_truncate(s->stop_reason, 0);
        s->stop_pending = true;
        s->stops++;
    } else {
        g_string_append(s->stop_reason, "; ");
    }
    atalab_event_describe(ev, s->stop_reason);
    info_report("atalab-ide: stopping the guest: %s", s->stop_reason->str);
    atalab_request_stop();
}

static char *atalab_get_stop_on(Object *obj, Error **errp)
{
    AtalabIdeState *s = ATALAB_IDE(obj);

    return g_strdup(s->stop_on ? s->stop_on : "none");
}

/* Settable at any time, e.g. qom-set from the monitor. */
static void atalab_set_stop_on(Object *obj, const char *value, Error **errp)
{
    AtalabIdeState *s = ATALAB_IDE(obj);
    const AtalabPersonality *p = s->ctrl ? atalab_ctrl_personality(s->ctrl)
                                         : NULL;

    if (!atalab_stop_parse(s, value, p, errp)) {
        return;
    }
    g_free(s->stop_on);
    s->stop_on = g_strdup(value);
}

static char *atalab_get_last_stop(Object *obj, Error **errp)
{
    AtalabIdeState *s = ATALAB_IDE(obj);

    return g_strdup(s->stop_reason->str);
}

/* ---- guest-visible register spaces ------------------------------------- */

static uint64_t atalab_cmd_read(void *opaque, hwaddr addr, unsigned size)
{
    AtalabIdeChannel *ch = opaque;
    uint64_t val = 0;
    unsigned i;

    if (addr == 0) {
        return atalab_ctrl_cmd_read(ch->s->ctrl, ch->index, 0, size);
    }
    /* Only the data register is wider than a byte: split the rest. */
    for (i = 0; i < size && addr + i < 8; i++) {
        val |= (uint64_t)atalab_ctrl_cmd_read(ch->s->ctrl, ch->index,
                                              addr + i, 1) << (8 * i);
    }
    return val;
}

static void atalab_cmd_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    AtalabIdeChannel *ch = opaque;
    unsigned i;

    if (addr == 0) {
        atalab_ctrl_cmd_write(ch->s->ctrl, ch->index, 0, val, size);
        return;
    }
    for (i = 0; i < size && addr + i < 8; i++) {
        atalab_ctrl_cmd_write(ch->s->ctrl, ch->index, addr + i,
                              (val >> (8 * i)) & 0xff, 1);
    }
}

static const MemoryRegionOps atalab_cmd_ops = {
    .read = atalab_cmd_read,
    .write = atalab_cmd_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

static uint64_t atalab_ctl_read(void *opaque, hwaddr addr, unsigned size)
{
    AtalabIdeChannel *ch = opaque;

    return atalab_ctrl_ctl_read(ch->s->ctrl, ch->index);
}

static void atalab_ctl_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    AtalabIdeChannel *ch = opaque;

    atalab_ctrl_ctl_write(ch->s->ctrl, ch->index, val & 0xff);
}

static const MemoryRegionOps atalab_ctl_ops = {
    .read = atalab_ctl_read,
    .write = atalab_ctl_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 1 },
};

/*
 * A native-mode control block BAR is 4 bytes; the alternate status and
 * device control register is its byte 2 (PCI IDE Controller Specification
 * 1.0, "Native-PCI Mode"), the legacy 0x3F6/0x376.  The other bytes read
 * all ones and ignore writes, as nothing drives them.
 */
static uint64_t atalab_ctl_bar_read(void *opaque, hwaddr addr, unsigned size)
{
    return addr == 2 ? atalab_ctl_read(opaque, 0, 1) : 0xFF;
}

static void atalab_ctl_bar_write(void *opaque, hwaddr addr, uint64_t val,
                                 unsigned size)
{
    if (addr == 2) {
        atalab_ctl_write(opaque, 0, val, 1);
    }
}

/* A wider access is split into bytes: byte 2 of it is the register. */
static const MemoryRegionOps atalab_ctl_bar_ops = {
    .read = atalab_ctl_bar_read,
    .write = atalab_ctl_bar_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 1 },
};

static uint64_t atalab_bm_read(void *opaque, hwaddr addr, unsigned size)
{
    AtalabIdeState *s = opaque;

    return atalab_ctrl_bm_read(s->ctrl, addr, size);
}

static void atalab_bm_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    AtalabIdeState *s = opaque;

    atalab_ctrl_bm_write(s->ctrl, addr, val, size);
}

static const MemoryRegionOps atalab_bm_ops = {
    .read = atalab_bm_read,
    .write = atalab_bm_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

static bool atalab_has_native(AtalabIdeState *s)
{
    return atalab_ctrl_personality(s->ctrl)->caps & ATALAB_CAP_NATIVE;
}

/*
 * A channel's blocks are decoded where atalab_ctrl_decode says (IDETIM.IDE,
 * PI): the legacy ports when I/O space is enabled in PCICMD too; the BARs,
 * which the PCI core maps only while I/O space is enabled.
 */
static void atalab_set_decode(AtalabIdeState *s, bool io)
{
    unsigned i;

    for (i = 0; i < ATALAB_CHANNELS; i++) {
        AtalabDecode where = atalab_ctrl_decode(s->ctrl, i);
        bool legacy = io && where == ATALAB_DECODE_LEGACY;

        memory_region_set_enabled(&s->chan[i].cmd_io, legacy);
        memory_region_set_enabled(&s->chan[i].ctl_io, legacy);
        if (atalab_has_native(s)) {
            memory_region_set_enabled(&s->chan[i].cmd_bar,
                                      where == ATALAB_DECODE_NATIVE);
            memory_region_set_enabled(&s->chan[i].ctl_bar,
                                      where == ATALAB_DECODE_NATIVE);
        }
    }
}

/*
 * A legacy channel drives IRQ 14 or 15; the native channels share INTA#
 * (PCI IDE Controller Specification 1.0).  A line is driven only when its
 * level changes: an edge-triggered input would take a repeated level as a
 * new interrupt.  A switch of mode with the interrupt pending moves it.
 */
void atalab_ide_route_irqs(AtalabIdeState *s)
{
    bool inta = false;
    unsigned i;

    for (i = 0; i < ATALAB_CHANNELS; i++) {
        AtalabIdeChannel *ch = &s->chan[i];
        bool level = atalab_ctrl_irq_level(s->ctrl, i);
        bool native = atalab_ctrl_native(s->ctrl, i);

        inta |= level && native;
        if (ch->irq_out != (level && !native)) {
            ch->irq_out = level && !native;
            qemu_set_irq(ch->irq, ch->irq_out);
        }
    }
    if (atalab_has_native(s)) {
        pci_set_irq(PCI_DEVICE(s), inta);
    }
}

/* PI is the model's: the PCI header shows its value. */
static void atalab_sync_prog_if(AtalabIdeState *s)
{
    pci_config_set_prog_interface(PCI_DEVICE(s)->config,
                                  atalab_ctrl_config_peek(s->ctrl,
                                                          PCI_CLASS_PROG, 1));
}

static void atalab_update_decode(AtalabIdeState *s)
{
    PCIDevice *d = PCI_DEVICE(s);

    atalab_set_decode(s, pci_get_word(d->config + PCI_COMMAND) &
                      PCI_COMMAND_IO);
}

static uint32_t atalab_config_read(PCIDevice *d, uint32_t addr, int len)
{
    AtalabIdeState *s = ATALAB_IDE(d);

    if (addr >= ATALAB_CFG_DEVSPEC) {
        return atalab_ctrl_config_read(s->ctrl, addr, len);
    }
    return pci_default_read_config(d, addr, len);
}

static void atalab_config_write(PCIDevice *d, uint32_t addr, uint32_t val,
                                int len)
{
    AtalabIdeState *s = ATALAB_IDE(d);

    if (addr >= ATALAB_CFG_DEVSPEC) {
        atalab_ctrl_config_write(s->ctrl, addr, val, len);
    } else {
        if (ranges_overlap(addr, len, PCI_CLASS_PROG, 1)) {
            atalab_ctrl_config_write(s->ctrl, PCI_CLASS_PROG,
                                     val >> (8 * (PCI_CLASS_PROG - addr)), 1);
            atalab_sync_prog_if(s);
            /* A channel that changed mode interrupts on its other line */
            atalab_ide_route_irqs(s);
        }
        /* The PCI core leaves PI alone: it is not in its write mask. */
        pci_default_write_config(d, addr, val, len);
    }
    atalab_update_decode(s);
}

/* ---- device lifecycle --------------------------------------------------- */

static void atalab_trace_flush(Notifier *n, void *data)
{
    AtalabIdeState *s = container_of(n, AtalabIdeState, exit_notifier);

    if (s->trace) {
        /* Checks and violations per drive: what the guest tests assert. */
        if (s->ctrl) {
            atalab_ctrl_trace_summary(s->ctrl);
        }
        fflush(s->trace);
    }
}

/*
 * A CD-ROM's removable medium, for the monitor's eject, change and
 * blockdev-open-tray/-close-tray (docs/atapi.md): the core's tray follows.
 */
uint64_t atalab_cd_disc_sectors(AtalabIdeCd *cd)
{
    BlockBackend *blk = cd->s->blk[cd->disk];
    int64_t len;

    if (!blk || !blk_is_inserted(blk)) {
        return 0;
    }
    /* The block layer sizes only a medium behind a closed tray. */
    cd->closing = true;
    len = blk_getlength(blk);
    cd->closing = false;
    return len > 0 ? len / 512 : 0;
}

static void atalab_cd_change_media(void *opaque, bool load, Error **errp)
{
    AtalabIdeCd *cd = opaque;
    uint64_t sectors = load ? atalab_cd_disc_sectors(cd) : 0;

    if (cd->s->ctrl) {
        atalab_ctrl_cd_tray(cd->s->ctrl, cd->disk, !load, sectors);
    }
}

static void atalab_cd_eject_request(void *opaque, bool force)
{
    AtalabIdeCd *cd = opaque;

    if (cd->s->ctrl) {
        atalab_ctrl_cd_eject_request(cd->s->ctrl, cd->disk, force);
    }
}

static bool atalab_cd_is_tray_open(void *opaque)
{
    AtalabIdeCd *cd = opaque;

    return !cd->closing && cd->s->ctrl &&
           atalab_ctrl_cd_tray_open(cd->s->ctrl, cd->disk);
}

static bool atalab_cd_is_medium_locked(void *opaque)
{
    AtalabIdeCd *cd = opaque;

    return cd->s->ctrl && atalab_ctrl_cd_locked(cd->s->ctrl, cd->disk);
}

static const BlockDevOps atalab_cd_ops = {
    .change_media_cb = atalab_cd_change_media,
    .eject_request_cb = atalab_cd_eject_request,
    .is_tray_open = atalab_cd_is_tray_open,
    .is_medium_locked = atalab_cd_is_medium_locked,
};

/*
 * A CD-ROM at position i: read-only, its disc the drive's medium (none: an
 * empty tray, from a -drive without a file).
 */
/*
 * A drive's backend error policy.  "auto" keeps the policy the backend has
 * from -drive rerror= and werror= (report and enospc unless set there), as
 * QEMU's block devices do (hw/block/block.c, blkconf_apply_backend_options);
 * a device property set to anything else overrides it.  A drive that is
 * never written (a CD-ROM) reports write errors.  The I/O status records
 * the errors that stop the VM.
 */
static void atalab_apply_error_policy(AtalabIdeState *s, BlockBackend *blk,
                                      bool writable)
{
    BlockdevOnError rerror = s->rerror, werror = BLOCKDEV_ON_ERROR_REPORT;

    if (rerror == BLOCKDEV_ON_ERROR_AUTO) {
        rerror = blk_get_on_error(blk, true);
    }
    if (writable) {
        werror = s->werror == BLOCKDEV_ON_ERROR_AUTO ?
                 blk_get_on_error(blk, false) : s->werror;
    }
    blk_set_on_error(blk, rerror, werror);
    blk_iostatus_enable(blk);
}

static bool atalab_attach_cd(AtalabIdeState *s, unsigned i,
                             AtalabDriveConfig *cfg, Error **errp)
{
    BlockBackend *blk = s->blk[i];
    int64_t len;

    if (!blk) {
        error_setg(errp, "kind%u=cd needs drive%u: a -drive if=none with the "
                   "disc image, or without a file for an empty tray", i, i);
        return false;
    }
    /* Reads follow rerror, as ide-cd's DMA reads do; discs are not written */
    atalab_apply_error_policy(s, blk, false);
    if (blk_set_perm(blk, BLK_PERM_CONSISTENT_READ, BLK_PERM_ALL,
                     errp) < 0) {
        return false;
    }
    s->cd[i] = (AtalabIdeCd) { .s = s, .disk = i };
    blk_set_dev_ops(blk, &atalab_cd_ops, &s->cd[i]);
    cfg->present = true;
    if (!blk_is_inserted(blk)) {
        return true;
    }
    len = blk_getlength(blk);
    if (len < 0) {
        error_setg_errno(errp, -len, "drive%u: cannot get size", i);
        return false;
    }
    if (len < 2048) {
        error_setg(errp, "drive%u: a disc image has 2048-byte blocks; this "
                   "one is smaller than one", i);
        return false;
    }
    cfg->sectors = len / 512;
    return true;
}

static bool atalab_attach_drives(AtalabIdeState *s,
                                 AtalabDriveConfig cfg[ATALAB_DRIVES],
                                 Error **errp)
{
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        BlockBackend *blk = s->blk[i];
        uint64_t perm = BLK_PERM_CONSISTENT_READ;
        int64_t len;

        cfg[i] = (AtalabDriveConfig) {
            .model = s->drive_model[i],
            .serial = s->drive_serial[i],
            .fwrev = s->drive_fwrev[i],
        };
        if (s->drive_kind[i] && !strcmp(s->drive_kind[i], "cd")) {
            cfg[i].kind = ATALAB_DRIVE_CD;
        } else if (s->drive_kind[i] && strcmp(s->drive_kind[i], "disk")) {
            error_setg(errp, "kind%u must be disk or cd, not '%s'", i,
                       s->drive_kind[i]);
            return false;
        }
        if (cfg[i].kind == ATALAB_DRIVE_CD) {
            if (!atalab_attach_cd(s, i, &cfg[i], errp)) {
                return false;
            }
            continue;
        }
        if (!blk) {
            continue;
        }
        if (!blk_is_inserted(blk)) {
            error_setg(errp, "drive%u: no medium", i);
            return false;
        }
        /* An ATA disk has no write protection to show: refuse it. */
        if (!blk_supports_write_perm(blk)) {
            error_setg(errp, "drive%u: read-only backend; atalab-ide disks "
                       "are writable (use a writable image, or "
                       "snapshot=on)", i);
            return false;
        }
        perm |= BLK_PERM_WRITE;
        atalab_apply_error_policy(s, blk, true);
        if (blk_set_perm(blk, perm, BLK_PERM_CONSISTENT_READ |
                         BLK_PERM_WRITE_UNCHANGED, errp) < 0) {
            return false;
        }
        len = blk_getlength(blk);
        if (len < 0) {
            error_setg_errno(errp, -len, "drive%u: cannot get size", i);
            return false;
        }
        if (len < 512) {
            error_setg(errp, "drive%u: image smaller than one sector", i);
            return false;
        }
        cfg[i].present = true;
        cfg[i].sectors = len / 512;
    }
    return true;
}

/*
 * The legacy command and control blocks belong to one IDE controller.
 * Another one (the pc machine's built-in piix3-ide, a -device piix4-ide,
 * a second atalab-ide) would decode the same ports and drive the same
 * IRQs: refuse the configuration, naming what is already there.
 */
static bool atalab_find_io_conflict(AtalabIdeState *s, Error **errp)
{
    MemoryRegion *io = pci_address_space_io(PCI_DEVICE(s));
    unsigned i, j;

    for (i = 0; i < ATALAB_CHANNELS; i++) {
        static const unsigned len[2] = { 8, 1 };
        uint16_t base[2] = { atalab_legacy[i].cmd_base,
                             atalab_legacy[i].ctl_base };

        for (j = 0; j < 2; j++) {
            MemoryRegionSection sec = memory_region_find(io, base[j],
                                                         len[j]);
            Object *owner;

            if (!sec.mr) {
                continue;
            }
            /* Nothing mapped there (the space itself), or our own ports */
            if (sec.mr == io || sec.mr == &s->chan[i].cmd_io ||
                sec.mr == &s->chan[i].ctl_io) {
                memory_region_unref(sec.mr);
                continue;
            }
            owner = memory_region_owner(sec.mr);
            error_setg(errp, "legacy I/O ports 0x%x-0x%x (IRQ %u) are "
                       "already used by I/O region '%s'%s%s: only one IDE "
                       "controller can use the legacy ports", base[j],
                       base[j] + len[j] - 1, atalab_legacy[i].irq,
                       memory_region_name(sec.mr),
                       object_dynamic_cast(owner, TYPE_DEVICE) ?
                       " of device " : "",
                       object_dynamic_cast(owner, TYPE_DEVICE) ?
                       object_get_typename(owner) : "");
            memory_region_unref(sec.mr);
            return true;
        }
    }
    return false;
}

/* A controller realized after us: found once the machine is complete. */
static void atalab_machine_done(Notifier *n, void *data)
{
    AtalabIdeState *s = container_of(n, AtalabIdeState, machine_done);
    Error *err = NULL;

    if (atalab_find_io_conflict(s, &err)) {
        error_reportf_err(err, "atalab-ide: ");
        exit(1);
    }
}

/* Realize failed: no trace file is left behind open. */
static void atalab_trace_abandon(AtalabIdeState *s)
{
    if (s->trace) {
        fclose(s->trace);
        s->trace = NULL;
    }
    if (s->trace_early) {
        g_string_free(s->trace_early, TRUE);
        s->trace_early = NULL;
    }
}

/* The trace-data and trace-time properties. */
static bool atalab_trace_modes(AtalabIdeState *s, Error **errp)
{
    const char *data = s->trace_data ? s->trace_data : "block";
    const char *time = s->trace_time ? s->trace_time : "absolute";

    if (strcmp(data, "block") && strcmp(data, "raw")) {
        error_setg(errp, "trace-data must be block or raw, not '%s'", data);
        return false;
    }
    if (strcmp(time, "absolute") && strcmp(time, "relative")) {
        error_setg(errp, "trace-time must be absolute or relative, not '%s'",
                   time);
        return false;
    }
    atalab_ctrl_set_trace_data(s->ctrl, strcmp(data, "raw") ?
                               ATALAB_TRACE_DATA_BLOCK :
                               ATALAB_TRACE_DATA_RAW);
    atalab_ctrl_set_trace_time(s->ctrl, strcmp(time, "relative") ?
                               ATALAB_TRACE_TIME_ABSOLUTE :
                               ATALAB_TRACE_TIME_RELATIVE);
    return true;
}

/*
 * The trace header (traces/FORMAT.md): the controller's lines, the QEMU
 * version and the trace-info file's "KEY VALUE" lines; then the records
 * the controller wrote while it was being set up.
 */
static bool atalab_trace_start(AtalabIdeState *s, Error **errp)
{
    g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *info = NULL;
    g_autofree char *header = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(GError) err = NULL;
    unsigned i;

    g_ptr_array_add(extra, g_strdup("qemu"));
    g_ptr_array_add(extra, g_strdup(QEMU_VERSION));
    if (s->trace_info) {
        if (!g_file_get_contents(s->trace_info, &info, NULL, &err)) {
            error_setg(errp, "trace-info: %s", err->message);
            return false;
        }
        lines = g_strsplit(info, "\n", -1);
        for (i = 0; lines[i]; i++) {
            char *sp = strchr(lines[i], ' ');

            if (!lines[i][0]) {
                continue;
            }
            if (!sp || sp == lines[i]) {
                error_setg(errp, "%s:%u: not a 'KEY VALUE' line",
                           s->trace_info, i + 1);
                return false;
            }
            g_ptr_array_add(extra, g_strndup(lines[i], sp - lines[i]));
            g_ptr_array_add(extra, g_strdup(sp + 1));
        }
    }
    g_ptr_array_add(extra, NULL);
    header = atalab_ctrl_trace_header(s->ctrl,
                                      (const char *const *)extra->pdata);
    fputs(header, s->trace);
    fputs(s->trace_early->str, s->trace);
    g_string_free(s->trace_early, TRUE);
    s->trace_early = NULL;
    return true;
}

static void atalab_ide_realize(PCIDevice *d, Error **errp)
{
    AtalabIdeState *s = ATALAB_IDE(d);
    const AtalabPersonality *p = atalab_personality_find(s->model);
    AtalabDriveConfig cfg[ATALAB_DRIVES];
    unsigned i, native;

    if (!p) {
        error_setg(errp, "unknown model '%s' (known: %s)", s->model,
                   atalab_personality_names());
        return;
    }
    if (!QLIST_EMPTY(&atalab_instances)) {
        error_setg(errp, "only one atalab-ide per machine: both would "
                   "decode the legacy ports 0x1f0/0x170 and IRQ 14/15");
        return;
    }
    if (atalab_find_io_conflict(s, errp)) {
        return;
    }
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        if (s->cable[i] != 0 && s->cable[i] != 40 && s->cable[i] != 80) {
            error_setg(errp, "cable%u must be 40 or 80, not %" PRIu32, i,
                       s->cable[i]);
            return;
        }
    }
    if (!atalab_ide_mode_parse(s->mode, &native)) {
        error_setg(errp, "mode must be legacy, native, native0 or native1, "
                   "not '%s'", s->mode);
        return;
    }
    if (native && !(p->caps & ATALAB_CAP_NATIVE)) {
        error_setg(errp, "model %s has no native PCI mode (its programming "
                   "interface reads %02Xh only): mode=%s needs ich5 or "
                   "ich5-sata", p->name, p->pi.reset, s->mode);
        return;
    }
    if (s->sata_map != -1 && (!(p->caps & ATALAB_CAP_SATA) ||
                              s->sata_map < 0 || s->sata_map > 7)) {
        error_setg(errp, "sata-map is a MAP value 0-7 of ich5-sata, not %d "
                   "on model %s", s->sata_map, p->name);
        return;
    }
    /*
     * ich5-sata: drive0 and drive2 are the SATA ports' disks, drive1 and
     * drive3 the PATA side's master and slave, which only a combined MAP
     * routes to this function's channels.
     */
    if (p->caps & ATALAB_CAP_SATA) {
        for (i = 1; i < ATALAB_DRIVES; i += 2) {
            if (s->blk[i] && s->sata_map < 4) {
                warn_report("atalab-ide: drive%u is the PATA side's %s: "
                            "the guest sees it only under a combined MAP "
                            "(sata-map=4..7, or MAP written so)", i,
                            i == 1 ? "master" : "slave");
            }
        }
    }
    if (s->stop_on && !atalab_stop_parse(s, s->stop_on, p, errp)) {
        return;
    }
    if (!atalab_attach_drives(s, cfg, errp)) {
        return;
    }

    pci_config_set_vendor_id(d->config, p->vendor_id);
    pci_config_set_device_id(d->config, p->device_id);
    pci_config_set_revision(d->config, p->revision);
    pci_config_set_class(d->config, p->class_code);
    /*
     * ICH5 reports INTA# (INT_PN 01h), which its native channels use;
     * PIIX3/PIIX4 have legacy mode only, IRQ 14/15, and no pin.
     */
    pci_config_set_interrupt_pin(d->config,
                                 p->caps & ATALAB_CAP_NATIVE ? 1 : 0);

    if (s->trace_path) {
        s->trace = fopen(s->trace_path, "w");
        if (!s->trace) {
            error_setg_errno(errp, errno, "cannot open trace file '%s'",
                             s->trace_path);
            return;
        }
        s->trace_early = g_string_new(NULL);
    }

    atalab_ide_host_init(s);
    s->host.event = atalab_host_event;
    s->ctrl = atalab_ctrl_new(p, &s->host, cfg);
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        if (s->cable[i]) {
            atalab_ctrl_set_cable80(s->ctrl, i, s->cable[i] == 80);
        }
        /* qom-get shows the cable in effect. */
        s->cable[i] = atalab_ctrl_cable80(s->ctrl, i) ? 80 : 40;
    }
    atalab_ctrl_set_strict(s->ctrl, s->strict);
    atalab_ctrl_set_firmware_native(s->ctrl, native);
    atalab_ctrl_set_firmware_map(s->ctrl, s->sata_map);
    atalab_ctrl_set_firmware_ports(s->ctrl, s->sata_ports ? -1 : 0);
    atalab_sync_prog_if(s);
    atalab_faults_set_seed(atalab_ctrl_faults(s->ctrl), s->fault_seed);
    if (s->fault_file) {
        g_autofree char *err = NULL;

        if (!atalab_faults_load(atalab_ctrl_faults(s->ctrl), s->fault_file,
                                &err)) {
            error_setg(errp, "%s", err);
            atalab_ctrl_free(s->ctrl);
            s->ctrl = NULL;
            atalab_trace_abandon(s);
            return;
        }
        atalab_ctrl_faults_changed(s->ctrl);
    }
    if (s->trace) {
        if (!atalab_trace_modes(s, errp) || !atalab_trace_start(s, errp)) {
            atalab_ctrl_free(s->ctrl);
            s->ctrl = NULL;
            atalab_trace_abandon(s);
            return;
        }
        s->exit_notifier.notify = atalab_trace_flush;
        qemu_add_exit_notifier(&s->exit_notifier);
    }

    for (i = 0; i < ATALAB_CHANNELS; i++) {
        AtalabIdeChannel *ch = &s->chan[i];

        ch->s = s;
        ch->index = i;
        ch->irq = isa_get_irq(NULL, atalab_legacy[i].irq);
        memory_region_init_io(&ch->cmd_io, OBJECT(s), &atalab_cmd_ops, ch,
                              i ? "atalab-ide-cmd1" : "atalab-ide-cmd0", 8);
        memory_region_init_io(&ch->ctl_io, OBJECT(s), &atalab_ctl_ops, ch,
                              i ? "atalab-ide-ctl1" : "atalab-ide-ctl0", 1);
        memory_region_add_subregion(pci_address_space_io(d),
                                    atalab_legacy[i].cmd_base, &ch->cmd_io);
        memory_region_add_subregion(pci_address_space_io(d),
                                    atalab_legacy[i].ctl_base, &ch->ctl_io);
        if (p->caps & ATALAB_CAP_NATIVE) {
            memory_region_init_io(&ch->cmd_bar, OBJECT(s), &atalab_cmd_ops,
                                  ch, i ? "atalab-ide-bar-cmd1" :
                                  "atalab-ide-bar-cmd0", 8);
            memory_region_init_io(&ch->ctl_bar, OBJECT(s),
                                  &atalab_ctl_bar_ops, ch,
                                  i ? "atalab-ide-bar-ctl1" :
                                  "atalab-ide-bar-ctl0", 4);
            pci_register_bar(d, 2 * i, PCI_BASE_ADDRESS_SPACE_IO,
                             &ch->cmd_bar);
            pci_register_bar(d, 2 * i + 1, PCI_BASE_ADDRESS_SPACE_IO,
                             &ch->ctl_bar);
        }
    }
    memory_region_init_io(&s->bm_io, OBJECT(s), &atalab_bm_ops, s,
                          "atalab-ide-bmdma", 16);
    pci_register_bar(d, 4, PCI_BASE_ADDRESS_SPACE_IO, &s->bm_io);
    atalab_update_decode(s);

    atalab_ide_host_start(s);
    s->machine_done.notify = atalab_machine_done;
    qemu_add_machine_init_done_notifier(&s->machine_done);
    QLIST_INSERT_HEAD(&atalab_instances, s, next);
}

static void atalab_ide_exit(PCIDevice *d)
{
    AtalabIdeState *s = ATALAB_IDE(d);
    unsigned i;

    atalab_ide_host_stop(s);
    qemu_remove_machine_init_done_notifier(&s->machine_done);
    QLIST_REMOVE(s, next);
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        memory_region_del_subregion(pci_address_space_io(d),
                                    &s->chan[i].cmd_io);
        memory_region_del_subregion(pci_address_space_io(d),
                                    &s->chan[i].ctl_io);
    }
    atalab_ctrl_free(s->ctrl);
    s->ctrl = NULL;
    if (s->trace) {
        notifier_remove(&s->exit_notifier);
        fclose(s->trace);
        s->trace = NULL;
    }
}

static void atalab_ide_reset(DeviceState *dev)
{
    AtalabIdeState *s = ATALAB_IDE(dev);

    /* The model's requests finish before the reset: nothing lands after. */
    atalab_blk_drain(s, -1);
    atalab_ctrl_reset(s->ctrl);
    /*
     * What the BIOS leaves behind: IDE decode enabled on both channels,
     * the channels of mode= native.
     */
    atalab_ctrl_firmware_init(s->ctrl);
    atalab_sync_prog_if(s);
    atalab_ide_route_irqs(s);
    /*
     * A reset clears PCICMD (I/O space disabled), whether or not the PCI
     * core has cleared our copy yet: the legacy ports stay off until the
     * firmware enables I/O decoding again.
     */
    atalab_set_decode(s, false);
}

/* The model keeps its state outside QEMU's vmstate: no migration. */
static const VMStateDescription vmstate_atalab_ide = {
    .name = TYPE_ATALAB_IDE,
    .unmigratable = 1,
};

static Property atalab_ide_properties[] = {
    DEFINE_PROP_STRING("model", AtalabIdeState, model),
    DEFINE_PROP_STRING("mode", AtalabIdeState, mode),
    DEFINE_PROP_INT32("sata-map", AtalabIdeState, sata_map, -1),
    DEFINE_PROP_BOOL("sata-ports", AtalabIdeState, sata_ports, true),
    DEFINE_PROP_STRING("trace", AtalabIdeState, trace_path),
    DEFINE_PROP_STRING("trace-data", AtalabIdeState, trace_data),
    DEFINE_PROP_STRING("trace-time", AtalabIdeState, trace_time),
    DEFINE_PROP_STRING("trace-info", AtalabIdeState, trace_info),
    /*
     * Cable per channel: 40 or 80 conductors; 0 (unset) = personality
     * default.  Reads back the cable in effect once realized.
     */
    DEFINE_PROP_UINT32("cable0", AtalabIdeState, cable[0], 0),
    DEFINE_PROP_UINT32("cable1", AtalabIdeState, cable[1], 0),
    /* Mis-timed Ultra DMA commands end with ICRC|ABRT (docs/timing.md). */
    DEFINE_PROP_BOOL("strict", AtalabIdeState, strict, false),
    /* Fault injection (docs/faults.md): a rule file and the seed. */
    DEFINE_PROP_STRING("faults", AtalabIdeState, fault_file),
    DEFINE_PROP_UINT64("fault-seed", AtalabIdeState, fault_seed, 0),
    DEFINE_PROP_BOOL("deterministic", AtalabIdeState, deterministic, false),
    /* Backend error policy of every drive, as ide-hd's properties. */
    DEFINE_PROP_BLOCKDEV_ON_ERROR("rerror", AtalabIdeState, rerror,
                                  BLOCKDEV_ON_ERROR_AUTO),
    DEFINE_PROP_BLOCKDEV_ON_ERROR("werror", AtalabIdeState, werror,
                                  BLOCKDEV_ON_ERROR_AUTO),
    /* Drives: 0 primary master, 1 primary slave, 2/3 secondary. */
    DEFINE_PROP_DRIVE("drive0", AtalabIdeState, blk[0]),
    DEFINE_PROP_STRING("model0", AtalabIdeState, drive_model[0]),
    DEFINE_PROP_STRING("serial0", AtalabIdeState, drive_serial[0]),
    DEFINE_PROP_STRING("fwrev0", AtalabIdeState, drive_fwrev[0]),
    DEFINE_PROP_STRING("kind0", AtalabIdeState, drive_kind[0]),
    DEFINE_PROP_DRIVE("drive1", AtalabIdeState, blk[1]),
    DEFINE_PROP_STRING("model1", AtalabIdeState, drive_model[1]),
    DEFINE_PROP_STRING("serial1", AtalabIdeState, drive_serial[1]),
    DEFINE_PROP_STRING("fwrev1", AtalabIdeState, drive_fwrev[1]),
    DEFINE_PROP_STRING("kind1", AtalabIdeState, drive_kind[1]),
    DEFINE_PROP_DRIVE("drive2", AtalabIdeState, blk[2]),
    DEFINE_PROP_STRING("model2", AtalabIdeState, drive_model[2]),
    DEFINE_PROP_STRING("serial2", AtalabIdeState, drive_serial[2]),
    DEFINE_PROP_STRING("fwrev2", AtalabIdeState, drive_fwrev[2]),
    DEFINE_PROP_STRING("kind2", AtalabIdeState, drive_kind[2]),
    DEFINE_PROP_DRIVE("drive3", AtalabIdeState, blk[3]),
    DEFINE_PROP_STRING("model3", AtalabIdeState, drive_model[3]),
    DEFINE_PROP_STRING("serial3", AtalabIdeState, drive_serial[3]),
    DEFINE_PROP_STRING("fwrev3", AtalabIdeState, drive_fwrev[3]),
    DEFINE_PROP_STRING("kind3", AtalabIdeState, drive_kind[3]),
    DEFINE_PROP_END_OF_LIST(),
};

static void atalab_ide_instance_init(Object *obj)
{
    AtalabIdeState *s = ATALAB_IDE(obj);

    s->model = g_strdup("piix4");
    s->mode = g_strdup("legacy");
    s->stop_reason = g_string_new(NULL);
}

static void atalab_ide_instance_finalize(Object *obj)
{
    AtalabIdeState *s = ATALAB_IDE(obj);

    atalab_stop_list_free(s->stop);
    g_free(s->stop_on);
    g_string_free(s->stop_reason, true);
}

/*
 * Read-only views of the timing decode and validation (docs/timing.md):
 * timingN (string), violationsN (uint32) for drive N, violations (total).
 * From the monitor: qom-get /machine/peripheral/<id> timing0.
 */
static void atalab_get_timing(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    AtalabIdeState *s = ATALAB_IDE(obj);
    unsigned drive = (uintptr_t)opaque;
    char *str = g_strdup(s->ctrl ?
                         atalab_ctrl_timing_string(s->ctrl, drive) : "");

    visit_type_str(v, name, &str, errp);
    g_free(str);
}

static void atalab_get_violations(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    AtalabIdeState *s = ATALAB_IDE(obj);
    uintptr_t which = (uintptr_t)opaque;
    uint32_t n = 0;
    unsigned i;

    for (i = 0; s->ctrl && i < ATALAB_DRIVES; i++) {
        if (which == ATALAB_DRIVES || which == i) {
            n += atalab_ctrl_violations(s->ctrl, i);
        }
    }
    visit_type_uint32(v, name, &n, errp);
}

/*
 * Fault rules at run time (docs/faults.md), through qom-set/qom-get:
 * fault-add (a rule line), fault-remove (an id), fault-clear (true), and
 * fault-list (the rules with their match and firing counts).
 */
static AtalabFaults *atalab_faults_of(Object *obj, Error **errp)
{
    AtalabIdeState *s = ATALAB_IDE(obj);

    if (!s->ctrl) {
        error_setg(errp, "atalab-ide: fault rules are set at run time "
                   "once the device exists (use the faults property "
                   "before that)");
        return NULL;
    }
    return atalab_ctrl_faults(s->ctrl);
}

static char *atalab_get_empty(Object *obj, Error **errp)
{
    return g_strdup("");
}

static void atalab_set_fault_add(Object *obj, const char *value,
                                 Error **errp)
{
    AtalabFaults *f = atalab_faults_of(obj, errp);
    g_autofree char *err = NULL;

    if (!f) {
        return;
    }
    if (!atalab_faults_add(f, value, "fault-add", 1, &err)) {
        error_setg(errp, "%s", err);
        return;
    }
    atalab_ctrl_faults_changed(ATALAB_IDE(obj)->ctrl);
}

static void atalab_set_fault_remove(Object *obj, const char *value,
                                    Error **errp)
{
    AtalabFaults *f = atalab_faults_of(obj, errp);

    if (f && !atalab_faults_remove(f, value)) {
        error_setg(errp, "no fault rule with id '%s'", value);
        return;
    }
    if (f) {
        atalab_ctrl_faults_changed(ATALAB_IDE(obj)->ctrl);
    }
}

static bool atalab_get_false(Object *obj, Error **errp)
{
    return false;
}

static void atalab_set_fault_clear(Object *obj, bool value, Error **errp)
{
    AtalabFaults *f = atalab_faults_of(obj, errp);

    if (f && value) {
        atalab_faults_clear(f);
        atalab_ctrl_faults_changed(ATALAB_IDE(obj)->ctrl);
    }
}

static char *atalab_get_fault_list(Object *obj, Error **errp)
{
    AtalabFaults *f = atalab_faults_of(obj, errp);

    return f ? atalab_faults_list(f) : NULL;
}

/* What -device atalab-ide,help shows (tools/atalab run --list-device-opts). */
static void atalab_ide_describe_properties(ObjectClass *klass)
{
    static const char *const what[][2] = {
        { "trace", "file to write the register trace to "
          "(traces/FORMAT.md)" },
        { "trace-data", "block: fold data port accesses per DRQ block and "
          "repeated Status reads (default); raw: a record per access" },
        { "trace-time", "absolute: the virtual clock (default); relative: "
          "since the channel's latest command" },
        { "trace-info", "file of 'KEY VALUE' lines for the trace header "
          "(tools/atalab run writes it)" },
        { "mode", "legacy (default), native, native0 (primary only) or "
          "native1: the channels the firmware leaves in native PCI mode "
          "(ich5, ich5-sata; docs/timing.md)" },
        { "sata-ports", "ich5-sata: on (default): the firmware enables the "
          "SATA ports that have a drive in PCS, as boards do before "
          "booting from one; off: it leaves PCS as at power-on "
          "(docs/timing.md)" },
        { "sata-map", "ich5-sata: the MAP value (0-7) the firmware leaves, "
          "e.g. 4: both ports on the primary channel, the secondary the "
          "PATA side's (combined mode); -1: MAP 000b (docs/timing.md)" },
        { "cable0", "primary channel cable: 40 or 80 conductors; "
          "0: the model's" },
        { "cable1", "secondary channel cable: 40 or 80 conductors; "
          "0: the model's" },
        { "strict", "a mis-timed Ultra DMA command fails with ICRC|ABRT "
          "(docs/timing.md)" },
        { "violations", "timing and protocol violations of all drives "
          "(read-only)" },
        { "stop-on", "stop the guest (for gdb) at: violation[=RULE], "
          "cmd=OPCODE, write=REGISTER, fault[=RULE-ID]; ';'-separated "
          "(docs/debugging.md)" },
        { "last-stop", "why stop-on last stopped the guest (read-only)" },
        { "faults", "fault rule file (docs/faults.md)" },
        { "fault-seed", "seed of the fault rules' random triggers" },
        { "deterministic", "every backend request completes 100 us of "
          "virtual time after it was issued (with -icount: identical "
          "runs; tools/atalab run --deterministic)" },
        { "fault-add", "add a fault rule at run time (docs/faults.md)" },
        { "fault-remove", "remove the fault rule with this id" },
        { "fault-clear", "true: remove every fault rule" },
        { "fault-list", "the fault rules with their counts (read-only)" },
        { "rerror", "backend read error policy, as ide-hd's (auto: "
          "-drive's rerror, default report)" },
        { "werror", "backend write error policy, as ide-hd's (auto: "
          "-drive's werror, default enospc)" },
    };
    g_autofree char *models = g_strdup_printf("controller personality: %s",
                                              atalab_personality_names());
    unsigned i;

    object_class_property_set_description(klass, "model", models);
    for (i = 0; i < ARRAY_SIZE(what); i++) {
        object_class_property_set_description(klass, what[i][0], what[i][1]);
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        static const char *const pos[ATALAB_DRIVES] = {
            "primary master", "primary slave", "secondary master",
            "secondary slave",
        };
        g_autofree char *drive = g_strdup_printf("drive%u", i);
        g_autofree char *model = g_strdup_printf("model%u", i);
        g_autofree char *serial = g_strdup_printf("serial%u", i);
        g_autofree char *fwrev = g_strdup_printf("fwrev%u", i);
        g_autofree char *timing = g_strdup_printf("timing%u", i);
        g_autofree char *viol = g_strdup_printf("violations%u", i);
        g_autofree char *d_drive = g_strdup_printf("disk of the %s", pos[i]);
        g_autofree char *d_model = g_strdup_printf("IDENTIFY model string "
                                                   "of the %s", pos[i]);
        g_autofree char *d_serial = g_strdup_printf("IDENTIFY serial number "
                                                    "of the %s", pos[i]);
        g_autofree char *d_fwrev = g_strdup_printf("IDENTIFY firmware "
                                                   "revision of the %s",
                                                   pos[i]);
        g_autofree char *d_timing = g_strdup_printf("decoded timing of the "
                                                    "%s (read-only)", pos[i]);
        g_autofree char *d_viol = g_strdup_printf("violations of the %s "
                                                  "(read-only)", pos[i]);

        object_class_property_set_description(klass, drive, d_drive);
        object_class_property_set_description(klass, model, d_model);
        object_class_property_set_description(klass, serial, d_serial);
        object_class_property_set_description(klass, fwrev, d_fwrev);
        object_class_property_set_description(klass, timing, d_timing);
        object_class_property_set_description(klass, viol, d_viol);
    }
}

static void atalab_ide_class_init(ObjectClass *klass, void *data)
{
    uintptr_t i;
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = atalab_ide_realize;
    k->exit = atalab_ide_exit;
    k->config_read = atalab_config_read;
    k->config_write = atalab_config_write;
    /* Identity comes from the personality at realize time. */
    k->vendor_id = PCI_VENDOR_ID_INTEL;
    k->device_id = PCI_DEVICE_ID_INTEL_82371AB;
    k->class_id = PCI_CLASS_STORAGE_IDE;
    dc->reset = atalab_ide_reset;
    dc->vmsd = &vmstate_atalab_ide;
    dc->desc = "atalab PIIX/ICH IDE controller model";
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
    device_class_set_props(dc, atalab_ide_properties);
    for (i = 0; i < ATALAB_DRIVES; i++) {
        g_autofree char *timing = g_strdup_printf("timing%u", (unsigned)i);
        g_autofree char *viol = g_strdup_printf("violations%u", (unsigned)i);

        object_class_property_add(klass, timing, "str", atalab_get_timing,
                                  NULL, NULL, (void *)i);
        object_class_property_add(klass, viol, "uint32",
                                  atalab_get_violations, NULL, NULL,
                                  (void *)i);
    }
    object_class_property_add(klass, "violations", "uint32",
                              atalab_get_violations, NULL, NULL,
                              (void *)(uintptr_t)ATALAB_DRIVES);
    object_class_property_add_str(klass, "fault-add", atalab_get_empty,
                                  atalab_set_fault_add);
    object_class_property_add_str(klass, "fault-remove", atalab_get_empty,
                                  atalab_set_fault_remove);
    object_class_property_add_bool(klass, "fault-clear", atalab_get_false,
                                   atalab_set_fault_clear);
    object_class_property_add_str(klass, "fault-list",
                                  atalab_get_fault_list, NULL);
    object_class_property_add_str(klass, "stop-on", atalab_get_stop_on,
                                  atalab_set_stop_on);
    object_class_property_add_str(klass, "last-stop", atalab_get_last_stop,
                                  NULL);
    atalab_ide_describe_properties(klass);
}

static const TypeInfo atalab_ide_info = {
    .name = TYPE_ATALAB_IDE,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(AtalabIdeState),
    .instance_init = atalab_ide_instance_init,
    .instance_finalize = atalab_ide_instance_finalize,
    .class_init = atalab_ide_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

/* Where a channel's blocks are decoded and where it interrupts. */
static void atalab_hmp_info_channel(Monitor *mon, AtalabIdeState *s,
                                    unsigned i)
{
    PCIDevice *d = PCI_DEVICE(s);

    switch (atalab_ctrl_decode(s->ctrl, i)) {
    case ATALAB_DECODE_OFF:
        monitor_printf(mon, "  channel%u: %s mode, not decoded (IDETIM.IDE "
                       "clear)\n", i,
                       atalab_ctrl_native(s->ctrl, i) ? "native" : "legacy");
        break;
    case ATALAB_DECODE_LEGACY:
        monitor_printf(mon, "  channel%u: legacy mode, command 0x%x, control "
                       "0x%x, IRQ %u\n", i, atalab_legacy[i].cmd_base,
                       atalab_legacy[i].ctl_base, atalab_legacy[i].irq);
        break;
    case ATALAB_DECODE_NATIVE:
        monitor_printf(mon, "  channel%u: native mode, command 0x%" PRIx64
                       ", control 0x%" PRIx64 " (+2), INTA# (IRQ %u)\n", i,
                       pci_get_bar_addr(d, 2 * i),
                       pci_get_bar_addr(d, 2 * i + 1),
                       d->config[PCI_INTERRUPT_LINE]);
        break;
    }
}

/* "info atalab": the timing decode and validation of every controller. */
static int atalab_hmp_info_one(Object *obj, void *opaque)
{
    Monitor *mon = opaque;
    AtalabIdeState *s;
    g_autofree char *path = NULL;
    unsigned i;

    if (!object_dynamic_cast(obj, TYPE_ATALAB_IDE)) {
        return 0;
    }
    s = ATALAB_IDE(obj);
    if (!s->ctrl) {
        return 0;
    }
    path = object_get_canonical_path(obj);
    monitor_printf(mon, "%s: model %s, cable0 %u, cable1 %u, strict %s\n",
                   path, atalab_ctrl_personality(s->ctrl)->name,
                   atalab_ctrl_cable80(s->ctrl, 0) ? 80 : 40,
                   atalab_ctrl_cable80(s->ctrl, 1) ? 80 : 40,
                   s->strict ? "on" : "off");
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        atalab_hmp_info_channel(mon, s, i);
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        monitor_printf(mon, "  drive%u: status=0x%02x %s checks=%u "
                       "violations=%u\n", i,
                       atalab_ctrl_drive_status(s->ctrl, i),
                       atalab_ctrl_timing_string(s->ctrl, i),
                       atalab_ctrl_xfer_checks(s->ctrl, i),
                       atalab_ctrl_violations(s->ctrl, i));
    }
    /*
     * The backends by their drive property (drive0..3): on ICH5 SATA MAP
     * may put a drive at another position than its number.
     */
    for (i = 0; i < ATALAB_DRIVES; i++) {
        if (s->blk[i]) {
            monitor_printf(mon, "  drive%u backend: rerror=%s werror=%s\n", i,
                           BlockdevOnError_str(blk_get_on_error(s->blk[i],
                                                                true)),
                           BlockdevOnError_str(blk_get_on_error(s->blk[i],
                                                                false)));
        }
    }
    {
        g_autofree char *rules = atalab_faults_list(
            atalab_ctrl_faults(s->ctrl));
        g_auto(GStrv) lines = g_strsplit(rules, "\n", -1);

        monitor_printf(mon, "  fault rules (seed %" PRIu64 "): %u\n",
                       atalab_faults_seed(atalab_ctrl_faults(s->ctrl)),
                       atalab_faults_count(atalab_ctrl_faults(s->ctrl)));
        for (i = 0; lines[i] && lines[i][0]; i++) {
            monitor_printf(mon, "    %s\n", lines[i]);
        }
    }
    monitor_printf(mon, "  stop-on: %s, stops=%u, last stop: %s\n",
                   s->stop_on && atalab_stop_list_len(s->stop) ? s->stop_on
                                                               : "none",
                   s->stops, s->stops ? s->stop_reason->str : "none");
    return 0;
}

static void atalab_hmp_info(Monitor *mon, const QDict *qdict)
{
    object_child_foreach_recursive(object_get_root(), atalab_hmp_info_one,
                                   mon);
}

static void atalab_ide_register_types(void)
{
    type_register_static(&atalab_ide_info);
    monitor_register_hmp("atalab", true, atalab_hmp_info);
}

type_init(atalab_ide_register_types)
