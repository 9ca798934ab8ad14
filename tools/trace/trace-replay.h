/*
 * atalab trace replay: a recorded trace (traces/FORMAT.md) fed back to the
 * emulator core alone, no QEMU and no guest, as a regression test of the
 * core (docs/trace-replay.md).
 *
 * The replay builds the controller the header describes and drives it with
 * the recording's inputs in order: the guest's register accesses (a folded
 * poll as its reads, a data block as its data port accesses, a repeat as
 * its cycles again), the backend's answers (io-done) and the timers'
 * firings.  What the host would have said in between comes from the
 * recording too: PRD entries from the "bm prd" records, zero-copy or not
 * from the "io" record's direct=1, a failed guest memory access from "bm
 * master-abort".  Every record the replayed core writes must equal the
 * recorded one, in order, but for what a recording cannot reproduce: times,
 * and data (a folded block has a hash of its bytes, not the bytes).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_REPLAY_H
#define ATALAB_TRACE_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include "trace-read.h"

#define REPLAY_SAME         0
#define REPLAY_DIVERGED     1
#define REPLAY_BAD_INPUT    2

typedef struct ReplayOptions {
    unsigned context;           /* recorded records shown around a divergence */
    /* Bounds for untrusted input: most guest accesses one record stands for */
    uint64_t max_accesses;
    uint64_t max_data_bytes;    /* data the replay's disk and writes hold */
    bool quiet;                 /* no summary line on success */
} ReplayOptions;

void replay_options_init(ReplayOptions *o);

/*
 * Replay the trace f (opened, header read; its name for messages in
 * atalab_trace_open's path).  Returns REPLAY_SAME (a summary on out),
 * REPLAY_DIVERGED (the first divergence with the records around it on out)
 * or REPLAY_BAD_INPUT ("FILE:LINE: message" on err).  Closes f.
 */
int replay_trace(AtalabTraceFile *f, const ReplayOptions *o, FILE *out,
                 FILE *err);

#endif
