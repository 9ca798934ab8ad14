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
    h->trace(h->opaque, record);
}

void atalab_trace_access(const AtalabHost *h, const char *space, bool write,
                         uint32_t offset, unsigned size, uint32_t value)
{
    if (!atalab_tracing(h)) {
        return;
    }
    if (size < 4) {
        value &= (1u << (8 * size)) - 1;
    }
    atalab_trace(h, "%s %c 0x%x %u 0x%0*x", space, write ? 'w' : 'r',
                 offset, size, (int)(size * 2), value);
}
