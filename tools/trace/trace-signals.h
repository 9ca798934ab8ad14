/*
 * atalab trace signals: what a record says about the controller's and the
 * drives' signals as the host saw them -- INTRQ and bus-master ACTIVE per
 * channel; per drive BSY and DRQ, the command in progress and the decoded
 * PIO, MWDMA and UDMA modes.  One reading of the records for every picture
 * of a run (trace-vcd.c, trace-report.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_SIGNALS_H
#define ATALAB_TRACE_SIGNALS_H

#include "trace-read.h"

typedef enum TraceSignal {
    TRACE_SIG_INTRQ,            /* per channel */
    TRACE_SIG_BM_ACTIVE,        /* per channel */
    TRACE_SIG_BSY,              /* per drive, from here on */
    TRACE_SIG_DRQ,
    TRACE_SIG_CMD,              /* opcode in progress, 0: none */
    TRACE_SIG_PIO,              /* decoded mode number, -1 unknown */
    TRACE_SIG_MWDMA,
    TRACE_SIG_UDMA,             /* 255: Ultra DMA off */
} TraceSignal;

typedef struct TraceSignalChange {
    TraceSignal sig;
    int channel;
    int unit;                   /* -1 for a channel's signal */
    int value;
} TraceSignalChange;

#define TRACE_SIGNAL_MAX_CHANGES 3

/*
 * The signal values the record gives (at most TRACE_SIGNAL_MAX_CHANGES,
 * into out); their number.  A value equal to the signal's last one is no
 * change: the caller keeps the last values.
 */
unsigned trace_signal_changes(const AtalabTraceRecord *r,
                              TraceSignalChange *out);

#endif
