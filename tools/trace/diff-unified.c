/*
 * atalab trace diff --format=unified (diff-unified.h).
 *
 * Each record becomes one normalized line: without its time when time is
 * ignored, without polls=/last= when polls are, with guest addresses
 * (prdt=, at=, addr=, a PRD run's step=, the BMIDTPX value) replaced by
 * '*' when addresses are.  The lines of the two traces are aligned (diff-align.c) and the
 * differences printed as unified-diff hunks whose line numbers are those
 * of the trace files.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "diff-unified.h"

#include <string.h>

#include <glib.h>

#include "diff-align.h"
#include "diff-model.h"
#include "trace-read.h"

typedef struct Lines {
    GStringChunk *text;
    GPtrArray *line;            /* normalized records */
    GArray *lineno;             /* their lines in the file (guint) */
    GArray *key;                /* their hashes (uint64_t) */
} Lines;

/*
 * --only: cfg and bm keep their own records; ataN, ctlN and irqN keep the
 * channel's records of those three spaces (not the bus master's).
 */
static bool kept_by_only(const DiffOptions *o, const AtalabTraceRecord *rec)
{
    if (!o->only) {
        return true;
    }
    if (!strcmp(o->only, "cfg") || !strcmp(o->only, "bm")) {
        return !strcmp(rec->source, o->only);
    }
    return rec->channel == o->only[3] - '0' &&
           (g_str_has_prefix(rec->source, "ata") ||
            g_str_has_prefix(rec->source, "ctl") ||
            g_str_has_prefix(rec->source, "irq"));
}

static char *normalize(const DiffOptions *o, const AtalabTraceRecord *rec)
{
    GString *s = g_string_new(NULL);
    const char *text = rec->text, *sp = strchr(text, ' ');
    gchar **f, **p;

    /* the head after the time: source and kind, or the access fields */
    if (!o->ignore[DIFF_TIME]) {
        g_string_append_len(s, text, sp - text);
    }
    f = g_strsplit(sp + 1, " ", -1);
    for (p = f; *p; p++) {
        const char *w = *p;

        if ((o->ignore[DIFF_POLLS] && g_str_has_prefix(w, "polls=")) ||
            ((o->ignore[DIFF_POLLS] || o->ignore[DIFF_TIME]) &&
             g_str_has_prefix(w, "last="))) {
            continue;
        }
        if (s->len) {
            g_string_append_c(s, ' ');
        }
        if (o->ignore[DIFF_ADDRESSES] &&
            (g_str_has_prefix(w, "prdt=") || g_str_has_prefix(w, "at=") ||
             g_str_has_prefix(w, "addr=") || g_str_has_prefix(w, "step="))) {
            g_string_append_len(s, w, strcspn(w, "=") + 1);
            g_string_append_c(s, '*');
        } else if (o->ignore[DIFF_ADDRESSES] && p - f == 4 &&
                   rec->kind == ATALAB_REC_ACCESS &&
                   !g_strcmp0(atalab_trace_get(rec, "reg"), "BMIDTPX")) {
            g_string_append_c(s, '*');
        } else {
            g_string_append(s, w);
        }
    }
    g_strfreev(f);
    return g_string_free(s, false);
}

static bool read_lines(const char *path, const DiffOptions *o, Lines *l,
                       FILE *err)
{
    g_autoptr(GError) e = NULL;
    AtalabTraceFile *f = atalab_trace_open(path, false, &e);
    AtalabTraceRecord rec = { 0 };
    int r;

    l->text = g_string_chunk_new(1 << 20);
    l->line = g_ptr_array_new();
    l->lineno = g_array_new(false, false, sizeof(guint));
    l->key = g_array_new(false, false, sizeof(uint64_t));
    if (!f) {
        fprintf(err, "%s\n", e->message);
        return false;
    }
    while ((r = atalab_trace_next(f, &rec, &e)) > 0) {
        g_autofree char *n = NULL;
        guint no = atalab_trace_line(f);
        uint64_t k;

        if (!kept_by_only(o, &rec)) {
            continue;
        }
        n = normalize(o, &rec);
        k = diff_hash(0, n);
        g_ptr_array_add(l->line, g_string_chunk_insert(l->text, n));
        g_array_append_val(l->lineno, no);
        g_array_append_val(l->key, k);
    }
    atalab_trace_record_clear(&rec);
    atalab_trace_close(f);
    if (r < 0) {
        fprintf(err, "%s\n", e->message);
        return false;
    }
    return true;
}

static void free_lines(Lines *l)
{
    if (l->text) {
        g_string_chunk_free(l->text);
        g_ptr_array_free(l->line, true);
        g_array_free(l->lineno, true);
        g_array_free(l->key, true);
    }
}

static guint lineno(const Lines *l, size_t i)
{
    return i < l->lineno->len ? g_array_index(l->lineno, guint, i) :
           (l->lineno->len ? g_array_index(l->lineno, guint,
                                           l->lineno->len - 1) + 1 : 1);
}

static void print_range(const Lines *l, size_t from, size_t len, char mark,
                        FILE *out)
{
    size_t k;

    for (k = from; k < from + len; k++) {
        fprintf(out, "%c%s\n", mark, (char *)g_ptr_array_index(l->line, k));
    }
}

/*
 * Print the changes as hunks: each with up to ctx equal lines around it;
 * changes closer than 2 * ctx equal lines share a hunk.
 */
static void print_hunks(const Lines *a, const Lines *b, const bool *del,
                        const bool *ins, unsigned ctx, FILE *out)
{
    g_autofree DiffRun *runs = NULL;
    size_t n = diff_runs(del, a->line->len, ins, b->line->len, &runs);
    size_t r = 0;

    while (r < n) {
        size_t first, last, k, lead, trail, ai, bi, alen = 0, blen = 0;

        if (runs[r].op == DIFF_SAME) {
            r++;
            continue;
        }
        /* runs[first..last] is the hunk's middle: changes, short sames */
        first = last = r;
        while (last + 1 < n &&
               (runs[last + 1].op != DIFF_SAME ||
                (last + 2 < n && runs[last + 1].len <= 2 * ctx))) {
            last++;
        }
        lead = first > 0 ? MIN(runs[first - 1].len, ctx) : 0;
        trail = last + 1 < n ? MIN(runs[last + 1].len, ctx) : 0;
        ai = runs[first].a_at - lead;
        bi = runs[first].b_at - lead;
        for (k = first; k <= last; k++) {
            alen += runs[k].op != DIFF_INSERT ? runs[k].len : 0;
            blen += runs[k].op != DIFF_DELETE ? runs[k].len : 0;
        }
        fprintf(out, "@@ -%u,%zu +%u,%zu @@\n", lineno(a, ai),
                alen + lead + trail, lineno(b, bi), blen + lead + trail);
        print_range(a, ai, lead, ' ', out);
        for (k = first; k <= last; k++) {
            if (runs[k].op == DIFF_DELETE) {
                print_range(a, runs[k].a_at, runs[k].len, '-', out);
            } else if (runs[k].op == DIFF_INSERT) {
                print_range(b, runs[k].b_at, runs[k].len, '+', out);
            } else {
                print_range(a, runs[k].a_at, runs[k].len, ' ', out);
            }
        }
        if (trail) {
            print_range(a, runs[last + 1].a_at, trail, ' ', out);
        }
        r = last + 1;
    }
}

int diff_unified(const char *a, const char *b, const DiffOptions *o,
                 FILE *out, FILE *err)
{
    Lines la = { 0 }, lb = { 0 };
    g_autofree bool *del = NULL;
    g_autofree bool *ins = NULL;
    int rc = 2;
    size_t i, changes = 0;

    if (!read_lines(a, o, &la, err) || !read_lines(b, o, &lb, err)) {
        goto out;
    }
    del = g_new(bool, la.line->len + 1);
    ins = g_new(bool, lb.line->len + 1);
    diff_align((const uint64_t *)la.key->data, la.key->len,
               (const uint64_t *)lb.key->data, lb.key->len, del, ins);
    for (i = 0; i < la.line->len; i++) {
        changes += del[i];
    }
    for (i = 0; i < lb.line->len; i++) {
        changes += ins[i];
    }
    if (changes) {
        fprintf(out, "--- %s\n+++ %s\n", a, b);
        print_hunks(&la, &lb, del, ins, o->context, out);
    }
    rc = changes ? 1 : 0;
out:
    free_lines(&la);
    free_lines(&lb);
    return rc;
}
