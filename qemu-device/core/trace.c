/*
 * atalab emulator core: trace records (format: traces/FORMAT.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "trace.h"

int64_t atalab_now(const AtalabHost *h)
{
    return h->clock_ns ? h->clock_ns(h->opaque) : 0;
}

void atalab_trace(const AtalabHost *h, const char *fmt, ...)
{
    char record[256];
    int n;
    va_list ap;

    if (!h->trace) {
        return;
    }
    n = snprintf(record, sizeof(record), "%" PRId64 " ", atalab_now(h));
    va_start(ap, fmt);
    vsnprintf(record + n, sizeof(record) - n, fmt, ap);
    va_end(ap);
    h->trace(h->trace_opaque ? h->trace_opaque : h->opaque, record);
}
