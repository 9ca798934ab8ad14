/*
 * atalab trace diff: two register traces compared (tools/atalab trace diff;
 * docs/trace-diff.md).  The semantic comparison aligns the traces by drive
 * and command sequence, by phase and by configuration write, and reports
 * what differs in words a driver developer reads; the unified one is a
 * line diff of the normalized records.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_DIFF_H
#define ATALAB_TRACE_DIFF_H

#include <stdbool.h>
#include <stdio.h>

/* What a difference is about; --ignore takes these names. */
typedef enum DiffClass {
    DIFF_TIMING,                /* configuration writes, decoded settings */
    DIFF_COMMANDS,              /* the command sequence */
    DIFF_PROTOCOL,              /* PIO/DMA, polled/interrupt, block size */
    DIFF_ERRORS,                /* outcomes, error handling */
    DIFF_FAULTS,                /* fault firings */
    DIFF_VIOLATIONS,            /* violations, ignored commands, bugs */
    DIFF_DATA,                  /* bytes moved and their checksums */
    DIFF_TASKFILE,              /* register writes before a command */
    DIFF_POLLS,                 /* Status reads per command */
    DIFF_TIME,                  /* times and durations */
    DIFF_ADDRESSES,             /* guest addresses (PRD tables, buffers) */
    DIFF_N_CLASSES
} DiffClass;

typedef enum DiffFormat {
    DIFF_FORMAT_REPORT,
    DIFF_FORMAT_UNIFIED,
    DIFF_FORMAT_JSON,
} DiffFormat;

typedef struct DiffOptions {
    bool ignore[DIFF_N_CLASSES];
    const char *only;           /* a space (cfg, ata0, bm, ...) or NULL */
    DiffFormat format;
    unsigned context;           /* unified: lines of context */
    unsigned max_per_class;     /* report: differences shown per class */
} DiffOptions;

const char *diff_class_name(DiffClass c);
/* The class of a name; -1 when there is none. */
int diff_class_find(const char *name);
/* The defaults: time, polls and addresses ignored; the report format. */
void diff_options_init(DiffOptions *o);

/*
 * Compare the traces at paths a and b and write the result to out.
 * Returns 0 when they are the same, 1 when they differ, 2 when either
 * cannot be read or they are not comparable (the reason on err).
 */
int diff_traces(const char *a, const char *b, const DiffOptions *o,
                FILE *out, FILE *err);

#endif
