/*
 * atalab trace diff: the differences the comparison found
 * (trace-diff.c), and their report and JSON forms (diff-output.c;
 * docs/trace-diff.md, "Formats").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_DIFF_OUTPUT_H
#define ATALAB_DIFF_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

#include "atalab-personality.h"
#include "diff-model.h"
#include "trace-diff.h"

typedef struct DiffDifference {
    DiffClass cls;
    char space[8];              /* cfg, ata0, ata1 */
    bool dma;                   /* concerns the bus master too (--only bm) */
    int drive;                  /* 0-3, or -1 */
    const char *phase;
    char *what;
    char *a, *b;                /* NULL: only on the other side */
    GPtrArray *detail;
    unsigned a_line, b_line;
} DiffDifference;

/* Two traces compared: what was asked, and what differs, in order. */
typedef struct DiffResult {
    const DiffOptions *o;
    const DiffTrace *ta, *tb;
    const AtalabPersonality *pers;
    GArray *diffs;              /* DiffDifference */
} DiffResult;

void diff_print_report(const DiffResult *r, FILE *out);
void diff_print_json(const DiffResult *r, FILE *out);

#endif
