/*
 * atalab emulator core: trace records (format: traces/FORMAT.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_H
#define ATALAB_TRACE_H

#include "ctrl-state.h"

static inline bool atalab_tracing(const AtalabCtrl *c)
{
    return c->host->trace != NULL;
}

/* Report an event to the host (atalab-host.h, AtalabHost.event). */
static inline void atalab_event(const AtalabCtrl *c, const AtalabEvent *ev)
{
    if (c->host->event) {
        c->host->event(c->host->opaque, ev);
    }
}

/* Nanoseconds on the host's virtual clock (0 without a clock). */
int64_t atalab_now(const AtalabCtrl *c);

/*
 * Emit "<time_ns> " followed by the formatted text.  Nothing is formatted
 * when tracing is off.
 */
void atalab_trace(const AtalabCtrl *c, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);

/* One register access: "<space> <r|w> 0x<offset> <size> 0x<value>". */
void atalab_trace_access(const AtalabCtrl *c, const char *space, bool write,
                         uint32_t offset, unsigned size, uint32_t value);

#endif
