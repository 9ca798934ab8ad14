/*
 * atalab emulator core: the host's timers (host-timer.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>

#include "host-timer.h"

AtalabTimer *atalab_timer_new(const AtalabHost *h, AtalabTimerFn *fn,
                              void *opaque)
{
    return h->timer_new ? h->timer_new(h->opaque, fn, opaque) : NULL;
}

void atalab_timer_free(const AtalabHost *h, AtalabTimer **t)
{
    if (*t) {
        h->timer_del(h->opaque, *t);
        h->timer_free(h->opaque, *t);
        *t = NULL;
    }
}

void atalab_timer_mod(const AtalabHost *h, AtalabTimer *t, int64_t expire_ns)
{
    if (t) {
        h->timer_mod(h->opaque, t, expire_ns);
    }
}

void atalab_timer_del(const AtalabHost *h, AtalabTimer *t)
{
    if (t) {
        h->timer_del(h->opaque, t);
    }
}
