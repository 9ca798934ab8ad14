/*
 * atalab trace to VCD: a recorded trace (traces/FORMAT.md) as a Value
 * Change Dump (IEEE 1364-2005 section 18) that a waveform viewer such as
 * GTKWave opens: per channel INTRQ and bus-master ACTIVE, per drive BSY and
 * DRQ as the host read them, the command in progress and the timing the
 * controller decodes for it (docs/trace-vcd.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_VCD_H
#define ATALAB_TRACE_VCD_H

#include <stdio.h>

#include "trace-read.h"

/*
 * Write f's records as VCD to out.  0, or 2 with "FILE:LINE: message" on
 * err (a malformed record, or a trace without times: relative or
 * normalized).  Closes f.
 */
int trace_vcd(AtalabTraceFile *f, FILE *out, FILE *err);

#endif
