/*
 * atalab trace report: a recorded trace (traces/FORMAT.md) as one
 * self-contained HTML page (docs/trace-report.md): the header, a summary
 * table, and a zoomable timeline with a lane per channel (INTRQ, bus-master
 * activity, resets) and per drive (commands coloured by protocol and
 * outcome, fault firings and violations, the decoded timing); a click on a
 * command shows its raw records, which the page carries.
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

/*
 * Write the report of the trace at path (a file: it is read twice) to out.
 * 0, or 2 with "FILE:LINE: message" or "FILE: message" on err (unreadable
 * or malformed, a trace without times: relative or normalized, assets
 * missing).
 */
int trace_report(const char *path, const char *assets, FILE *out, FILE *err);

#endif
