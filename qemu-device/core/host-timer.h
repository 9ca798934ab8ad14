/*
 * atalab emulator core: the host's timers, for the parts of the core that
 * keep one (standby timer, self-tests, fault delays).  A host without
 * timers gives NULL; every helper accepts NULL.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_HOST_TIMER_H
#define ATALAB_HOST_TIMER_H

#include "atalab-host.h"

AtalabTimer *atalab_timer_new(const AtalabHost *h, AtalabTimerFn *fn,
                              void *opaque);
/* Stop and free *t; *t is NULL afterwards. */
void atalab_timer_free(const AtalabHost *h, AtalabTimer **t);
/* Fire at expire_ns on the virtual clock. */
void atalab_timer_mod(const AtalabHost *h, AtalabTimer *t, int64_t expire_ns);
void atalab_timer_del(const AtalabHost *h, AtalabTimer *t);

#endif
