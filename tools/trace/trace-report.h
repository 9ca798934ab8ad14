/*
 * atalab trace report: a recorded trace (traces/FORMAT.md) as one
 * self-contained HTML page (docs/trace-report.md): the header, a summary
 * table, and a zoomable timeline with a lane per channel (INTRQ, bus-master
 * activity, resets) and per drive (commands coloured by protocol and
 * outcome, fault firings and violations, the decoded timing); a click on a
 * command shows its raw records, which the page carries.  Or two runs of
 * one scenario side by side, lined up as the trace diff lines them up.
 *
 * The page's script and style are ours, read from the assets directory
 * (tools/trace/report/) and inlined: the page needs no network or file
 * when it is viewed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_REPORT_H
#define ATALAB_TRACE_REPORT_H

#include <stdio.h>

#include "trace-diff.h"

/*
 * Write the report of the trace at path (a file: it is read twice) to out.
 * 0, or 2 with "FILE:LINE: message" or "FILE: message" on err (unreadable
 * or malformed, a trace without times: relative or normalized, assets
 * missing).
 */
int trace_report(const char *path, const char *assets, FILE *out, FILE *err);

/*
 * Two runs side by side: the traces at a and b lined up as trace diff
 * lines them up (o: the classes it ignores), every difference it reports
 * listed and marked on the commands it concerns.  0 with the page written
 * (whether the runs differ or not), or 2 as trace_report, or when the
 * traces are not comparable.
 */
int trace_report_pair(const char *a, const char *b, const DiffOptions *o,
                      const char *assets, FILE *out, FILE *err);

#endif
