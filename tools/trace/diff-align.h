/*
 * atalab trace diff: aligning two sequences of keys (commands, register
 * writes, phases, normalized lines) by a shortest edit script, Myers'
 * O((N+M)D) algorithm in linear space ("An O(ND) Difference Algorithm
 * and Its Variations", 1986, section 4b).  When a split costs more than a
 * bound the search takes the furthest-reaching diagonal instead of the
 * optimal one, so time stays near-linear for very different inputs (the
 * script is then valid but may be longer than the shortest).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_DIFF_ALIGN_H
#define ATALAB_DIFF_ALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Mark the elements not in the common subsequence: del[i] for a[i] (only
 * in A), ins[j] for b[j] (only in B); both arrays are cleared first.
 * Walking both sequences, unmarked elements pair up in order with equal
 * keys.  Memory: two arrays of na + nb + 3 words while it runs.
 */
void diff_align(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                bool *del, bool *ins);

/* One step of the script, in order: a run of equal, deleted or inserted. */
typedef enum DiffOp {
    DIFF_SAME,
    DIFF_DELETE,                /* a[a_at .. a_at+len) only in A */
    DIFF_INSERT,                /* b[b_at .. b_at+len) only in B */
} DiffOp;

typedef struct DiffRun {
    DiffOp op;
    size_t a_at, b_at, len;
} DiffRun;

/*
 * The marks as runs, deletions before insertions where they meet; returns
 * the number of runs written to *runs (g_free it).
 */
size_t diff_runs(const bool *del, size_t na, const bool *ins, size_t nb,
                 DiffRun **runs);

#endif
