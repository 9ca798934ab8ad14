/*
 * atalab trace diff: the differences found, as a report or as JSON
 * (diff-output.h; the formats: docs/trace-diff.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "diff-output.h"
#include "trace-read.h"

#include <string.h>

/* Header lines that differ, other than comparability ones: what ran. */
static GPtrArray *header_differences(const DiffTrace *a, const DiffTrace *b)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    unsigned i;

    for (i = 0; i < a->header->len; i++) {
        const char *l = g_ptr_array_index(a->header, i);
        g_autofree char *k = diff_header_key(l);
        const char *vb = diff_trace_header(b, k);

        if (!diff_header_decides(l) && g_strcmp0(diff_header_value(l), vb)) {
            g_ptr_array_add(out, g_strdup_printf("%s: %s | %s", k,
                                                 diff_header_value(l),
                                                 vb ? vb : "(none)"));
        }
    }
    for (i = 0; i < b->header->len; i++) {
        const char *l = g_ptr_array_index(b->header, i);
        g_autofree char *k = diff_header_key(l);

        if (!diff_header_decides(l) && !diff_trace_header(a, k)) {
            g_ptr_array_add(out, g_strdup_printf("%s: (none) | %s", k,
                                                 diff_header_value(l)));
        }
    }
    return out;
}

void diff_print_report(const DiffResult *df, FILE *out)
{
    g_autoptr(GPtrArray) hd = header_differences(df->ta, df->tb);
    unsigned count[DIFF_N_CLASSES] = { 0 };
    unsigned i, c, n = df->diffs->len;
    bool any_ignored = false;

    fprintf(out, "A: %s (%" G_GUINT64_FORMAT " records)\n", df->ta->path,
            df->ta->records);
    fprintf(out, "B: %s (%" G_GUINT64_FORMAT " records)\n", df->tb->path,
            df->tb->records);
    for (i = 0; i < hd->len; i++) {
        fprintf(out, "   %s\n", (char *)g_ptr_array_index(hd, i));
    }
    fprintf(out, "ignored:");
    for (c = 0; c < DIFF_N_CLASSES; c++) {
        if (df->o->ignore[c]) {
            fprintf(out, " %s", diff_class_name(c));
            any_ignored = true;
        }
    }
    fprintf(out, "%s%s%s\n", any_ignored ? "" : " nothing",
            df->o->only ? "; only " : "", df->o->only ? df->o->only : "");
    for (c = 0; c < DIFF_N_CLASSES; c++) {
        unsigned shown = 0;

        for (i = 0; i < n; i++) {
            const DiffDifference *d = &g_array_index(df->diffs, DiffDifference, i);

            if (d->cls != c) {
                continue;
            }
            if (!count[c]++) {
                fprintf(out, "\n%s:\n", diff_class_name(c));
            }
            if (shown == df->o->max_per_class) {
                continue;
            }
            shown++;
            if (d->drive >= 0) {
                fprintf(out, "  %s [%s] %s: ", diff_drive_name(d->drive), d->phase,
                        d->what);
            } else {
                fprintf(out, "  %s [%s]: ", d->what, d->phase);
            }
            if (d->a && d->b) {
                fprintf(out, "%s vs %s", d->a, d->b);
            } else {
                fprintf(out, "only in %s: %s", d->a ? "A" : "B",
                        d->a ? d->a : d->b);
            }
            if (d->a_line || d->b_line) {
                fprintf(out, "  (");
            }
            if (d->a_line) {
                fprintf(out, "A:%u", d->a_line);
            }
            if (d->b_line) {
                fprintf(out, "%sB:%u", d->a_line ? " " : "", d->b_line);
            }
            fprintf(out, "%s\n", d->a_line || d->b_line ? ")" : "");
            for (unsigned k = 0; d->detail && k < d->detail->len; k++) {
                fprintf(out, "      %s\n", (char *)g_ptr_array_index(d->detail, k));
            }
        }
        if (count[c] > shown) {
            fprintf(out, "  ... and %u more %s differences (--format=json "
                    "lists every one)\n", count[c] - shown, diff_class_name(c));
        }
    }
    if (!n) {
        fprintf(out, "\nidentical\n");
        return;
    }
    fprintf(out, "\n%u difference%s:", n, n == 1 ? "" : "s");
    for (c = 0, i = 0; c < DIFF_N_CLASSES; c++) {
        if (count[c]) {
            fprintf(out, "%s %s %u", i++ ? "," : "", diff_class_name(c), count[c]);
        }
    }
    fprintf(out, "\n");
}

static void json_string(FILE *out, const char *s)
{
    g_autoptr(GString) g = g_string_new(NULL);

    atalab_json_string(g, s);
    fputs(g->str, out);
}
static void json_side(FILE *out, const DiffTrace *t)
{
    unsigned i;

    fputs("{\"file\": ", out);
    json_string(out, t->path);
    fprintf(out, ", \"records\": %" G_GUINT64_FORMAT ", \"header\": [", t->records);
    for (i = 0; i < t->header->len; i++) {
        const char *l = g_ptr_array_index(t->header, i);
        g_autofree char *k = diff_header_key(l);

        fputs(i ? ", [" : "[", out);
        json_string(out, k);
        fputs(", ", out);
        json_string(out, diff_header_value(l));
        fputs("]", out);
    }
    fputs("]}", out);
}

void diff_print_json(const DiffResult *df, FILE *out)
{
    unsigned i, c, k;
    bool first = true;

    fputs("{\"schema\": \"atalab-trace-diff 1\", \"a\": ", out);
    json_side(out, df->ta);
    fputs(", \"b\": ", out);
    json_side(out, df->tb);
    fputs(", \"ignored\": [", out);
    for (c = 0; c < DIFF_N_CLASSES; c++) {
        if (df->o->ignore[c]) {
            fputs(first ? "" : ", ", out);
            json_string(out, diff_class_name(c));
            first = false;
        }
    }
    fputs("], \"only\": ", out);
    json_string(out, df->o->only);
    fprintf(out, ", \"identical\": %s, \"differences\": [",
            df->diffs->len ? "false" : "true");
    for (i = 0; i < df->diffs->len; i++) {
        const DiffDifference *d = &g_array_index(df->diffs, DiffDifference, i);

        fputs(i ? ",\n  {" : "\n  {", out);
        fputs("\"class\": ", out);
        json_string(out, diff_class_name(d->cls));
        fputs(", \"space\": ", out);
        json_string(out, d->space);
        fputs(", \"drive\": ", out);
        json_string(out, d->drive < 0 ? NULL : diff_drive_name(d->drive));
        fputs(", \"phase\": ", out);
        json_string(out, d->phase);
        fputs(", \"what\": ", out);
        json_string(out, d->what);
        fputs(", \"a\": ", out);
        json_string(out, d->a);
        fputs(", \"b\": ", out);
        json_string(out, d->b);
        fprintf(out, ", \"a_line\": %u, \"b_line\": %u, \"detail\": [",
                d->a_line, d->b_line);
        for (k = 0; d->detail && k < d->detail->len; k++) {
            fputs(k ? ", " : "", out);
            json_string(out, g_ptr_array_index(d->detail, k));
        }
        fputs("]}", out);
    }
    fputs("]}\n", out);
}

