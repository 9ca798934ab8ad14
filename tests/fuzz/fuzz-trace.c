/*
 * atalab trace fuzzer: the target (fuzz-trace.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz-trace.h"

#include <stdio.h>

#include <glib.h>

#include "trace-read.h"
#include "trace-replay.h"

/* Where the replay's report and errors go: nowhere. */
static FILE *sink(void)
{
    static FILE *null;

    if (!null) {
        null = fopen("/dev/null", "w");
    }
    return null;
}

int fuzz_trace_run(const uint8_t *data, size_t size)
{
    g_autoptr(GError) err = NULL;
    ReplayOptions o;
    AtalabTraceFile *f;
    FILE *fp;

    if (!size) {
        return REPLAY_BAD_INPUT;
    }
    fp = fmemopen((void *)data, size, "r");
    if (!fp) {
        return REPLAY_BAD_INPUT;
    }
    f = atalab_trace_open_stream(fp, "input", true, &err);
    if (!f) {
        return REPLAY_BAD_INPUT;
    }
    replay_options_init(&o);
    /* an input is a few KiB: no record needs to stand for more */
    o.max_accesses = 20000;
    o.max_data_bytes = 8 * 1024 * 1024;
    o.quiet = true;
    return replay_trace(f, &o, sink(), sink());
}
