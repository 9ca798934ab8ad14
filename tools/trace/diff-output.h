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

#include "controller/atalab-personality.h"
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

/* Two commands lined up by the alignment; -1: none on that side. */
typedef struct DiffPair {
    int a, b;                   /* indices into the drive's cmds */
} DiffPair;

/* Two traces compared: what was asked, and what differs, in order. */
typedef struct DiffResult {
    const DiffOptions *o;
    DiffTrace *ta, *tb;
    const AtalabPersonality *pers;
    GArray *diffs;              /* DiffDifference */
    GArray *pairs[DIFF_DRIVES]; /* DiffPair: each drive's commands as
                                 * aligned, in order */
} DiffResult;

/*
 * Load and compare the traces at paths a and b (the semantic comparison:
 * trace diff --format report or json).  NULL with *err when either cannot
 * be read or they are not comparable.
 */
DiffResult *diff_compare(const char *a, const char *b, const DiffOptions *o,
                         GError **err);
void diff_result_free(DiffResult *r);

void diff_print_report(const DiffResult *r, FILE *out);
void diff_print_json(const DiffResult *r, FILE *out);

#endif
