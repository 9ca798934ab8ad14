/*
 * atalab emulator core: the bus-master IDE engine of a channel.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_BMDMA_H
#define ATALAB_BMDMA_H

#include "ctrl-state.h"

void atalab_bm_reset(AtalabChannel *ch);
/* BAR4 registers, bytewise; offset 0..15 (8 bytes per channel). */
uint8_t atalab_bm_read_byte(AtalabCtrl *c, uint32_t offset);
void atalab_bm_write_byte(AtalabCtrl *c, uint32_t offset, uint8_t val);

/* A DMA command is ready, or a chunk finished: move the next chunk. */
void atalab_bm_kick(AtalabChannel *ch);
/* Completion of a DMA chunk of the drive's current command. */
void atalab_bm_io_done(AtalabDrive *d, unsigned sectors, int ret);
/* Rising edge of the channel's interrupt line (sets BMISX.INTR). */
void atalab_bm_irq_edge(AtalabChannel *ch);

#endif
