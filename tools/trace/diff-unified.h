/*
 * atalab trace diff --format=unified: a line diff of the two traces'
 * records, normalized as the ignored classes say (docs/trace-diff.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_DIFF_UNIFIED_H
#define ATALAB_DIFF_UNIFIED_H

#include <stdio.h>

#include "trace-diff.h"

/* As diff_traces(), in the unified format. */
int diff_unified(const char *a, const char *b, const DiffOptions *o,
                 FILE *out, FILE *err);

#endif
