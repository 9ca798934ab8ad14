/*
 * atalab-ide: what the two halves of the QEMU glue share.  atalab-ide.c is
 * the device (QOM type and properties, configuration space and I/O
 * regions, life cycle, HMP); atalab-ide-host.c is the core's host on QEMU
 * (interrupt lines, guest memory, block requests with their error policy
 * and deterministic completions, virtual-clock timers, the trace sink).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_ATALAB_IDE_H
#define HW_ATALAB_IDE_H

#include "hw/pci/pci.h"
#include "qemu/queue.h"
#include "sysemu/block-backend.h"
#include "sysemu/runstate.h"

#include "core/controller/atalab-ctrl.h"
#include "core/stop-on.h"

typedef struct AtalabIdeBlkReq AtalabIdeBlkReq;

#define TYPE_ATALAB_IDE "atalab-ide"
OBJECT_DECLARE_SIMPLE_TYPE(AtalabIdeState, ATALAB_IDE)

typedef struct AtalabIdeChannel {
    AtalabIdeState *s;
    unsigned index;
    /* legacy mode: the fixed ports, and IRQ 14/15 */
    MemoryRegion cmd_io;
    MemoryRegion ctl_io;
    qemu_irq irq;
    bool irq_out;               /* the level last driven on irq */
    /* native mode: BAR 2n (command block), BAR 2n+1 (control block) */
    MemoryRegion cmd_bar;
    MemoryRegion ctl_bar;
} AtalabIdeChannel;

/* A CD-ROM position, as its BlockBackend's device ops see it. */
typedef struct AtalabIdeCd {
    AtalabIdeState *s;
    unsigned disk;              /* the host's drive number */
    bool closing;               /* the tray is closing: it reads closed */
} AtalabIdeCd;

/* The disc in a CD-ROM's drive now, in 512-byte sectors (0: none). */
uint64_t atalab_cd_disc_sectors(AtalabIdeCd *cd);

struct AtalabIdeState {
    PCIDevice parent_obj;

    /* properties */
    char *model;
    char *mode;                 /* legacy, native, native0, native1 */
    int32_t sata_map;           /* ich5-sata MAP from firmware; -1: none */
    bool sata_ports;            /* firmware enables the ports with drives */
    char *trace_path;
    char *trace_data;           /* "block" (default) or "raw" */
    char *trace_time;           /* "absolute" (default) or "relative" */
    char *trace_info;           /* file of "KEY VALUE" header lines */
    BlockBackend *blk[ATALAB_DRIVES];
    char *drive_model[ATALAB_DRIVES];
    char *drive_serial[ATALAB_DRIVES];
    char *drive_fwrev[ATALAB_DRIVES];
    char *drive_kind[ATALAB_DRIVES];    /* "disk" (default) or "cd" */
    AtalabIdeCd cd[ATALAB_DRIVES];
    uint32_t cable[ATALAB_CHANNELS];    /* 40, 80; 0: personality default */
    bool strict;
    BlockdevOnError rerror, werror;
    char *fault_file;
    uint64_t fault_seed;
    bool deterministic;         /* completions at fixed virtual times */

    /* stop-on: its text, and the conditions parsed from it */
    char *stop_on;
    AtalabStopList *stop;
    /* Why the guest stopped last ("" before the first stop), how often. */
    GString *stop_reason;
    bool stop_pending;          /* requested, the VM has not run since */
    unsigned stops;

    AtalabIdeChannel chan[ATALAB_CHANNELS];
    MemoryRegion bm_io;
    AtalabHost host;
    AtalabCtrl *ctrl;
    FILE *trace;
    GString *trace_early;       /* records before the header is written */
    Notifier exit_notifier;
    Notifier machine_done;
    /* Requests that failed under werror/rerror=stop: retried on resume. */
    QTAILQ_HEAD(, AtalabIdeBlkReq) held;
    /* deterministic: requests submitted whose completion is not delivered */
    QTAILQ_HEAD(, AtalabIdeBlkReq) timed;
    VMChangeStateEntry *vmstate;
    QEMUBH *retry_bh;
    QLIST_ENTRY(AtalabIdeState) next;
};

/*
 * atalab-ide-host.c.  atalab_ide_host_init fills s->host (all but event,
 * which is the device's) and allocates nothing; atalab_ide_host_start,
 * once the device is realized, sets up the retry of requests held by the
 * error policy; atalab_ide_host_stop finishes every request and undoes the
 * start.
 */
void atalab_ide_host_init(AtalabIdeState *s);
void atalab_ide_host_start(AtalabIdeState *s);
void atalab_ide_host_stop(AtalabIdeState *s);
/*
 * Drive IRQ 14/15 and INTA# from the channels' interrupt levels and modes
 * (atalab-ide.c): a level change, a mode switch, a reset.
 */
void atalab_ide_route_irqs(AtalabIdeState *s);
/*
 * Finish every request of drive (all: -1) now, as ide_cancel_dma_sync
 * does (a reset, an abort).
 */
void atalab_blk_drain(AtalabIdeState *s, int drive);

#endif
