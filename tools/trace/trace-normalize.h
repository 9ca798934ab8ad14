/*
 * atalab trace normalize: a trace without what differs between two runs of
 * the same thing (times, poll counts, guest addresses, the atalab version),
 * still a valid trace (traces/FORMAT.md), for golden traces whose changes
 * are reviewed as text (traces/golden/README.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_NORMALIZE_H
#define ATALAB_TRACE_NORMALIZE_H

#include <stdbool.h>

#include "trace-read.h"

/* Is the header line ("KEY VALUE", without "# ") kept? */
bool atalab_trace_normalize_keeps(const char *header_line);

/*
 * rec normalized, as a line (g_free it): time 0; no polls= or last=;
 * prdt=, at=, addr=, a PRD run's step= and the BMIDTPX value zero.
 * rec's fields are changed.
 */
char *atalab_trace_normalize(AtalabTraceRecord *rec);

#endif
