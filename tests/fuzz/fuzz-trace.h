/*
 * atalab trace fuzzer: one input is a trace file's text, read by the trace
 * reader and replayed on the core (tools/trace/trace-replay.h).  A hostile
 * trace must get a located error or a divergence, never a crash, a leak, a
 * hang or a broken core invariant.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FUZZ_TRACE_H
#define FUZZ_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* Read and replay one input; returns the replay's exit status. */
int fuzz_trace_run(const uint8_t *data, size_t size);

#endif
