/*
 * atalab emulator core: the controller's private state.
 *
 * The host only sees the opaque AtalabCtrl of atalab-ctrl.h.  A channel is
 * its ATA bus (ata-device.h) plus its bus-master engine (bmdma.h); the
 * controller wires the two together (the DMA port and client, the
 * interrupt line) and owns configuration space and timing validation.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_CTRL_STATE_H
#define ATALAB_CTRL_STATE_H

#include <glib.h>

#include "../ata/ata-device.h"
#include "atalab-ctrl.h"
#include "atalab-timing.h"
#include "../dma/bmdma.h"
#include "../trace/trace-writer.h"

typedef struct AtalabChannel {
    AtalabCtrl *ctrl;
    AtalabAtaBus bus;
    AtalabBmdma bm;
} AtalabChannel;

/* Timing decode and validation of one drive position. */
typedef struct AtalabDriveCheck {
    AtalabDriveTiming timing;   /* the controller's setting for the drive */
    char timing_str[ATALAB_TIMING_STR_LEN];
    unsigned xfer_checks;       /* transfers checked */
    unsigned violations;        /* rules broken, all transfers */
    unsigned rule_count[ATALAB_N_RULES];
} AtalabDriveCheck;

struct AtalabCtrl {
    const AtalabPersonality *pers;
    const AtalabHost *host;     /* &inner */
    AtalabHost inner;           /* the host's, tracing through writer */
    AtalabTraceWriter *writer;  /* NULL: tracing off */
    uint8_t cfg[256];
    uint8_t cfg_wmask[256];
    uint8_t cfg_reset[256];
    AtalabAtaHooks ata_hooks;
    AtalabChannel chan[ATALAB_CHANNELS];
    AtalabDriveCheck check[ATALAB_DRIVES];
    bool strict;                /* mis-timed Ultra DMA fails with ICRC */
    unsigned firmware_native;   /* channels firmware_init makes native */
    /*
     * SATA: the disks by the host's drive number (copies, strings owned):
     * port 0's is drive 0, port 1's drive 2, and the PATA side's master
     * and slave (behind a combined map) drives 1 and 3; what is at each
     * position now (atalab_personality_sata_port of the MAP in effect); a
     * MAP change waiting for the drives it moves to be free.
     */
    AtalabDriveConfig disk[ATALAB_DRIVES];
    int8_t route[ATALAB_DRIVES];
    bool map_pending;
    int firmware_map;           /* MAP firmware_init writes; -1: none */
    int firmware_ports;         /* PCS enables it sets; -1: ports with drives */
    AtalabFaults *faults;       /* fault injection rules */
};

/* ctrl-trace.c: one register access record. */
void atalab_ctrl_trace_access(AtalabCtrl *c, AtalabTraceSpace space,
                              unsigned channel, bool write, uint32_t offset,
                              unsigned size, uint32_t value);
/* Does a data port access of the channel move DRQ block data now? */
bool atalab_ctrl_data_block(AtalabCtrl *c, unsigned channel, bool write,
                            unsigned *dev, size_t *pos, size_t *end);

#endif
