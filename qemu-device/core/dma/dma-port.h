/*
 * atalab emulator core: the DMA port, the one boundary between an ATA
 * device's DMA command and the bus-master engine of its channel.
 *
 * The ATA device owns its command: its progress, its backend requests and
 * its status.  When it has data to move it asks the port to move bytes to
 * or from guest memory at the engine's current position in the PRD table,
 * and gets back how many bytes moved and why it stopped.  The engine only
 * walks PRD tables; it never looks at drive state.  In the other direction
 * the engine tells its client (the channel's ATA bus) when the guest starts
 * or stops it.  This is the seam that fault injection attaches to.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_DMA_PORT_H
#define ATALAB_DMA_PORT_H

#include <stdbool.h>
#include <stddef.h>

#include "../atalab-host.h"

typedef enum AtalabDmaStatus {
    ATALAB_DMA_OK,              /* everything asked for moved */
    ATALAB_DMA_SHORT,           /* the PRD table ended first */
    ATALAB_DMA_MASTER_ABORT,    /* a guest memory access failed */
    ATALAB_DMA_STOPPED,         /* the engine is not (or no longer) running */
} AtalabDmaStatus;

typedef struct AtalabDmaResult {
    size_t moved;               /* bytes moved before status happened */
    AtalabDmaStatus status;
} AtalabDmaResult;

/* At most this many pieces of guest memory in one mapping. */
#define ATALAB_DMA_MAX_IOV      256

/* Guest memory lent to one backend request (zero-copy). */
typedef struct AtalabDmaMapping {
    AtalabIoVec iov[ATALAB_DMA_MAX_IOV];
    unsigned niov;
    size_t len;                 /* bytes mapped, the sum of iov[].len */
    bool to_memory;
} AtalabDmaMapping;

typedef struct AtalabDmaPort AtalabDmaPort;

struct AtalabDmaPort {
    /*
     * Move len bytes between buf and guest memory (to_memory: the device's
     * data goes to memory), advancing the PRD position.  The engine's
     * status register shows the outcome as the datasheet says (a short
     * table clears ACTIVE; a master abort sets ERR).  Guest memory accesses
     * can re-enter the device; the result says STOPPED if the engine was
     * stopped or restarted meanwhile.
     */
    AtalabDmaResult (*copy)(AtalabDmaPort *port, void *buf, size_t len,
                            bool to_memory);
    /*
     * Map up to len bytes at the PRD position for a backend request to use
     * directly, advancing the position by what was mapped.  Maps only what
     * the host can map without side effects: it stops early (moved < len)
     * at memory that is not plain RAM, at the end of the table or at a
     * fault, without changing the engine's status; copy() then handles the
     * rest and reports what happened there.  STOPPED when the engine is not
     * running.  A mapping is always released with unmap().
     */
    AtalabDmaResult (*map)(AtalabDmaPort *port, size_t len, bool to_memory,
                           AtalabDmaMapping *m);
    void (*unmap)(AtalabDmaPort *port, AtalabDmaMapping *m, size_t done);
    /*
     * The device's DMA command moved all its data: the engine takes its
     * end-of-transfer state (ACTIVE cleared when the table was used up
     * exactly, kept when the table was larger than the transfer).
     */
    void (*finish)(AtalabDmaPort *port);
    /* Is the engine running (BMISX.ACTIVE)? */
    bool (*active)(AtalabDmaPort *port);
    /*
     * Fault injection: a PCI master abort now (BMISX.ERR set, ACTIVE
     * cleared), as if guest memory had failed.
     */
    void (*fail)(AtalabDmaPort *port);
};

/* What the engine tells its client; installed by the controller. */
typedef struct AtalabDmaClient {
    void *opaque;
    /* The guest set BMICX.START (0 to 1). */
    void (*started)(void *opaque);
    /* The guest cleared BMICX.START (1 to 0). */
    void (*stopped)(void *opaque);
} AtalabDmaClient;

#endif
