/*
 * atalab emulator core: trace records (format: traces/FORMAT.md).
 *
 * Every part of the core traces through its host pointer, so the ATA
 * devices, the bus-master engine and the controller need nothing of each
 * other to do it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_H
#define ATALAB_TRACE_H

#include <glib.h>

#include "../atalab-host.h"

static inline bool atalab_tracing(const AtalabHost *h)
{
    return h->trace != NULL;
}

/* Report an event to the host (atalab-host.h, AtalabHost.event). */
static inline void atalab_event(const AtalabHost *h, const AtalabEvent *ev)
{
    if (h->event) {
        h->event(h->opaque, ev);
    }
}

/* Nanoseconds on the host's virtual clock (0 without a clock). */
int64_t atalab_now(const AtalabHost *h);

/*
 * Emit "<time_ns> " followed by the formatted text.  Nothing is formatted
 * when tracing is off.
 */
void atalab_trace(const AtalabHost *h, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);
/* The same, timed t instead of now. */
void atalab_trace_at(const AtalabHost *h, int64_t t, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

#endif
