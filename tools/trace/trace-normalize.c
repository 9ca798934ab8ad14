/*
 * atalab trace normalize (trace-normalize.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "trace-normalize.h"

#include <string.h>

bool atalab_trace_normalize_keeps(const char *header_line)
{
    /* git describe of the tree that ran: another for every commit */
    return !g_str_has_prefix(header_line, "run.atalab ");
}

static bool is_address_key(const char *key)
{
    return !strcmp(key, "prdt") || !strcmp(key, "at") ||
           !strcmp(key, "addr");
}

char *atalab_trace_normalize(AtalabTraceRecord *rec)
{
    unsigned i, n = 0;

    rec->time = 0;
    for (i = 0; i < rec->n_fields; i++) {
        AtalabTraceField *f = &rec->field[i];

        if (f->key && (!strcmp(f->key, "polls") || !strcmp(f->key, "last"))) {
            continue;
        }
        if (f->key && is_address_key(f->key)) {
            f->value = "0x00000000";
        } else if (f->key && !strcmp(f->key, "step")) {
            f->value = "0";
        }
        rec->field[n++] = *f;
    }
    rec->n_fields = n;
    if (rec->kind == ATALAB_REC_ACCESS &&
        !g_strcmp0(atalab_trace_get(rec, "reg"), "BMIDTPX")) {
        rec->value = 0;
    }
    return atalab_trace_format(rec);
}
