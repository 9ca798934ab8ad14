/*
 * atalab emulator core: the bus-master IDE engine of one channel.
 *
 * It implements the DMA port (dma-port.h) and the BMICX/BMISX/BMIDTPX
 * registers, walks PRD tables and reports the datasheet status; it never
 * looks at drive state.  It tells its client (the channel's ATA bus) when
 * the guest starts or stops it, and sets BMISX.INTR when the controller
 * reports a rising edge of the channel's interrupt line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_BMDMA_H
#define ATALAB_BMDMA_H

#include "../atalab-host.h"
#include "dma-port.h"
#include "../trace/trace-writer.h"

/* Where the engine is in its PRD table. */
typedef struct AtalabPrdCursor {
    uint32_t next;              /* address of the next descriptor */
    uint32_t addr;              /* current region base */
    uint32_t len;               /* current region length (bytes) */
    uint32_t off;               /* bytes of the region already used */
    bool valid;                 /* a region is loaded */
    bool eot;                   /* current region is the last one */
    bool table_end;             /* descriptor fetch ran off the table */
} AtalabPrdCursor;

typedef struct AtalabBmdma {
    AtalabDmaPort port;         /* what the ATA device calls */
    const AtalabHost *host;
    unsigned index;             /* channel */
    AtalabDmaClient client;
    uint8_t cmd;                /* BMICX */
    uint8_t status;             /* BMISX */
    uint32_t prdt;              /* BMIDTPX */
    AtalabPrdCursor cur;
    uint32_t run;               /* bumped at every start and stop */
    bool irq_level;             /* last level of the interrupt line seen */
    /*
     * Guest-memory accesses of the engine under way: a register access
     * made while this is not 0 was reached from one of them (MMCONFIG).
     */
    unsigned in_host;
    /* The trace writer, told of each descriptor loaded; NULL: as text */
    AtalabTraceWriter *writer;
} AtalabBmdma;

void atalab_bm_init(AtalabBmdma *bm, unsigned index, const AtalabHost *host,
                    const AtalabDmaClient *client);
/* Registers to their reset values, engine stopped. */
void atalab_bm_reset(AtalabBmdma *bm);
/* The channel's registers, bytewise: reg 0..7 (BMICX, BMISX, BMIDTPX). */
uint8_t atalab_bm_read(const AtalabBmdma *bm, unsigned reg);
void atalab_bm_write(AtalabBmdma *bm, unsigned reg, uint8_t val);
/* The controller saw the channel's interrupt line change to level. */
void atalab_bm_irq_line(AtalabBmdma *bm, bool level);

#endif
