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

static void trace_va(const AtalabHost *h, int64_t t, const char *fmt,
                     va_list ap)
{
    char record[256];
    int n;

    n = snprintf(record, sizeof(record), "%" PRId64 " ", t);
    vsnprintf(record + n, sizeof(record) - n, fmt, ap);
    h->trace(h->trace_opaque ? h->trace_opaque : h->opaque, record);
}

void atalab_trace(const AtalabHost *h, const char *fmt, ...)
{
    va_list ap;

    if (!h->trace) {
        return;
    }
    va_start(ap, fmt);
    trace_va(h, atalab_now(h), fmt, ap);
    va_end(ap);
}

void atalab_trace_at(const AtalabHost *h, int64_t t, const char *fmt, ...)
{
    va_list ap;

    if (!h->trace) {
        return;
    }
    va_start(ap, fmt);
    trace_va(h, t, fmt, ap);
    va_end(ap);
}
