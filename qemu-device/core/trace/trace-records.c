/*
 * atalab trace records: the table of trace-records.h, and look-ups the
 * writer and the reader share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "trace-records.h"

const AtalabTraceForm atalab_trace_forms[] = {
#define ATALAB_TRACE_FORM_ROW(id, src, kd, un, wd, ky) \
    { .name = #id, .source = src, .kind = kd, .unit = un, .words = wd, \
      .keys = ky },
    ATALAB_TRACE_RECORDS(ATALAB_TRACE_FORM_ROW)
#undef ATALAB_TRACE_FORM_ROW
};

const unsigned atalab_trace_n_forms =
    sizeof(atalab_trace_forms) / sizeof(atalab_trace_forms[0]);

const AtalabTraceForm *atalab_trace_form_find(const char *source,
                                              const char *kind, size_t len)
{
    unsigned i;

    for (i = 0; i < atalab_trace_n_forms; i++) {
        const AtalabTraceForm *f = &atalab_trace_forms[i];

        if (f->source[0] == source[0] && !strcmp(f->source, source) &&
            (f->kind ? strlen(f->kind) == len && !strncmp(f->kind, kind, len)
                     : len == 0)) {
            return f;
        }
    }
    return NULL;
}

bool atalab_trace_form_has_key(const AtalabTraceForm *f, const char *key)
{
    size_t n = strlen(key);
    const char *p = f->keys;

    while (*p) {
        if (!strncmp(p, key, n) && p[n] == ':') {
            return true;
        }
        p += strcspn(p, " ");
        p += strspn(p, " ");
    }
    return false;
}
