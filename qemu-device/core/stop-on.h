/*
 * Stop conditions: which core events (AtalabEvent) should stop the guest,
 * parsed from the text of atalab-ide's stop-on property
 * (docs/debugging.md).  The host asks for each event whether a condition
 * holds and stops the guest itself.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_STOP_ON_H
#define ATALAB_STOP_ON_H

#include <glib.h>
#include <stdbool.h>

#include "atalab-host.h"
#include "controller/atalab-personality.h"

#define ATALAB_STOP_MAX 16      /* conditions in one list */

typedef struct AtalabStopList AtalabStopList;

/*
 * The conditions of text, ';'-separated: violation[=RULE], cmd=OPCODE,
 * write=REGISTER, fault[=RULE-ID]; empty items and "none" add nothing.
 * Register names are checked against p, and taken as they are when p is
 * NULL (no personality yet).  NULL with *err set (to be g_free'd) when
 * text is not a valid list.
 */
AtalabStopList *atalab_stop_list_parse(const char *text,
                                       const AtalabPersonality *p,
                                       char **err);
void atalab_stop_list_free(AtalabStopList *l);
unsigned atalab_stop_list_len(const AtalabStopList *l);

/* Does ev meet a condition of l (NULL: no conditions)?  p: the controller's. */
bool atalab_stop_list_matches(const AtalabStopList *l,
                              const AtalabPersonality *p,
                              const AtalabEvent *ev);

/* Append what ev was, e.g. "violation udma-timing ata0 d1", to out. */
void atalab_event_describe(const AtalabEvent *ev, GString *out);

/* The rules a violation event can name, ", "-separated; static. */
const char *atalab_violation_names(void);

#endif
