/*
 * atalab trace diff: the semantic comparison (trace-diff.h); the output is
 * diff-output.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "trace-diff.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "controller/atalab-personality.h"
#include "controller/atalab-timing.h"
#include "diff-align.h"
#include "diff-model.h"
#include "diff-output.h"
#include "diff-unified.h"

static const char *const class_names[DIFF_N_CLASSES] = {
    [DIFF_TIMING] = "timing",
    [DIFF_COMMANDS] = "commands",
    [DIFF_PROTOCOL] = "protocol",
    [DIFF_ERRORS] = "errors",
    [DIFF_FAULTS] = "faults",
    [DIFF_VIOLATIONS] = "violations",
    [DIFF_DATA] = "data",
    [DIFF_TASKFILE] = "taskfile",
    [DIFF_POLLS] = "polls",
    [DIFF_TIME] = "time",
    [DIFF_ADDRESSES] = "addresses",
};

const char *diff_class_name(DiffClass c)
{
    return class_names[c];
}

int diff_class_find(const char *name)
{
    int c;

    for (c = 0; c < DIFF_N_CLASSES; c++) {
        if (!strcmp(name, class_names[c])) {
            return c;
        }
    }
    return -1;
}

void diff_options_init(DiffOptions *o)
{
    memset(o, 0, sizeof(*o));
    o->ignore[DIFF_TIME] = o->ignore[DIFF_POLLS] = true;
    o->ignore[DIFF_ADDRESSES] = true;
    o->format = DIFF_FORMAT_REPORT;
    o->context = 3;
    o->max_per_class = 40;
}

/* ---- differences ------------------------------------------------------- */

static void difference_clear(DiffDifference *d)
{
    g_free(d->what);
    g_free(d->a);
    g_free(d->b);
    if (d->detail) {
        g_ptr_array_free(d->detail, true);
    }
}

/* Does --only keep a difference of this space? */
static bool only_keeps(const DiffOptions *o, const char *space, bool dma)
{
    if (!o->only) {
        return true;
    }
    if (dma && !strcmp(o->only, "bm")) {
        return true;
    }
    if (!strcmp(o->only, space)) {
        return true;
    }
    /* ctlN and irqN are channel N's, as ataN is */
    return (g_str_has_prefix(o->only, "ctl") || g_str_has_prefix(o->only, "irq")) &&
           g_str_has_prefix(space, "ata") && o->only[3] == space[3] &&
           !o->only[4];
}

/* Add a difference (takes what, a and b); NULL when filtered out. */
static DiffDifference *add(DiffResult *df, DiffClass cls, int drive, bool dma,
                       const char *phase, char *what, char *a, char *b,
                       unsigned a_line, unsigned b_line)
{
    DiffDifference d = {
        .cls = cls, .drive = drive, .dma = dma, .phase = phase,
        .what = what, .a = a, .b = b, .a_line = a_line, .b_line = b_line,
    };

    if (drive < 0) {
        strcpy(d.space, "cfg");
    } else {
        strcpy(d.space, drive < 2 ? "ata0" : "ata1");
    }
    if (df->o->ignore[cls] || !only_keeps(df->o, d.space, dma)) {
        difference_clear(&d);
        return NULL;
    }
    g_array_append_val(df->diffs, d);
    return &g_array_index(df->diffs, DiffDifference, df->diffs->len - 1);
}

static void add_detail(DiffDifference *d, char *line)
{
    if (!d) {
        g_free(line);
        return;
    }
    if (!d->detail) {
        d->detail = g_ptr_array_new_with_free_func(g_free);
    }
    g_ptr_array_add(d->detail, line);
}

/* Append to out the fields of x that y lacks or has with another value. */
static void fields_not_in(char **x, char **y, GString *out)
{
    unsigned i, j;

    for (i = 0; x[i]; i++) {
        size_t kl = strcspn(x[i], "=");
        const char *other = NULL;

        for (j = 0; y[j]; j++) {
            if (!strncmp(x[i], y[j], kl + 1)) {
                other = y[j];
            }
        }
        if (!other || strcmp(other, x[i])) {
            g_string_append_printf(out, "%s%s", out->len ? " " : "", x[i]);
        }
    }
}

/*
 * The key=value fields of two decoded settings that differ, as
 * "fa vs fb"; NULL when none do.
 */
static char *fields_that_differ(const char *a, const char *b)
{
    g_auto(GStrv) fa = g_strsplit(a, " ", -1);
    g_auto(GStrv) fb = g_strsplit(b, " ", -1);
    g_autoptr(GString) sa = g_string_new(NULL);
    g_autoptr(GString) sb = g_string_new(NULL);

    fields_not_in(fa, fb, sa);
    fields_not_in(fb, fa, sb);
    if (!sa->len && !sb->len) {
        return NULL;
    }
    return g_strdup_printf("%s vs %s", sa->len ? sa->str : "(none)",
                           sb->len ? sb->str : "(none)");
}

/* ---- one-sided items ------------------------------------------------- */

typedef struct KeyAt {
    uint64_t key;
    size_t at;
} KeyAt;

static int key_at_cmp(const void *x, const void *y)
{
    const KeyAt *a = x, *b = y;

    if (a->key != b->key) {
        return a->key < b->key ? -1 : 1;
    }
    return a->at < b->at ? -1 : a->at > b->at;
}

/*
 * Items left on one side each, keyed: an A item whose key a B item has is
 * the same item reordered.  match[i] is 1 + the index of the first B item
 * with A item i's key not matched before, or 0; used_b[j] says whether B
 * item j was matched.  Time O((na + nb) log nb).
 */
static void match_keys(const uint64_t *ka, size_t na, const uint64_t *kb,
                       size_t nb, size_t *match, bool *used_b)
{
    g_autofree KeyAt *sorted = g_new(KeyAt, nb + 1);
    /* key -> 1 + the position in sorted of its next unmatched B item */
    g_autoptr(GHashTable) next = g_hash_table_new(g_int64_hash,
                                                  g_int64_equal);
    size_t i, j;

    for (j = 0; j < nb; j++) {
        sorted[j] = (KeyAt) { kb[j], j };
        used_b[j] = false;
    }
    qsort(sorted, nb, sizeof(*sorted), key_at_cmp);
    for (j = nb; j-- > 0;) {
        g_hash_table_insert(next, &sorted[j].key, GSIZE_TO_POINTER(j + 1));
    }
    for (i = 0; i < na; i++) {
        size_t pos = GPOINTER_TO_SIZE(g_hash_table_lookup(next, &ka[i]));

        match[i] = 0;
        if (pos && pos <= nb && sorted[pos - 1].key == ka[i]) {
            match[i] = sorted[pos - 1].at + 1;
            used_b[sorted[pos - 1].at] = true;
            g_hash_table_insert(next, &sorted[pos - 1].key,
                                GSIZE_TO_POINTER(pos + 1));
        }
    }
}

/* ---- configuration writes ------------------------------------------------ */

static void apply(uint8_t cfg[256], const DiffCfgWrite *w, uint32_t value)
{
    unsigned i;

    for (i = 0; i < w->size && w->offset + i < 256; i++) {
        cfg[w->offset + i] = value >> (8 * i);
    }
}

static void decode(const AtalabPersonality *p, const uint8_t cfg[256],
                   unsigned drive, char *buf)
{
    AtalabDriveTiming t;

    atalab_timing_decode(p, cfg, drive, &t);
    atalab_timing_format(&t, buf, ATALAB_TIMING_STR_LEN);
}

static char *hexval(const DiffCfgWrite *w)
{
    return g_strdup_printf("0x%0*x", (int)w->size * 2, w->value);
}

/* The drives a write's sequence concerns: a channel's two, or all. */
static bool seq_has_drive(unsigned seq, unsigned drive)
{
    return seq == 2 || drive / 2 == seq;
}

static const char *seq_name(unsigned seq)
{
    return seq == 0 ? "cfg ata0" : seq == 1 ? "cfg ata1" : "cfg";
}

/*
 * Two writes of one register with different values: what the difference
 * of value does to each drive, on A's configuration as it was.
 */
static void write_changed(DiffResult *df, unsigned seq, const DiffCfgWrite *wa,
                          const DiffCfgWrite *wb)
{
    DiffDifference *d;
    unsigned drive;

    d = add(df, DIFF_TIMING, -1, false, diff_phase_name(wa->phase[seq]),
            g_strdup_printf("%s %s", seq_name(seq), wa->reg), hexval(wa),
            hexval(wb), wa->line, wb->line);
    if (d && wa->size != wb->size) {
        add_detail(d, g_strdup_printf("%u-bit vs %u-bit access at 0x%02x vs "
                                      "0x%02x", wa->size * 8, wb->size * 8,
                                      wa->offset, wb->offset));
    }
    if (d && seq < 2 && wa->offset == wb->offset &&
        (wa->value & wa->chan_bits[seq]) == (wb->value & wb->chan_bits[seq])) {
        add_detail(d, g_strdup_printf("the same in ata%u's bits (0x%0*x); "
                                      "the other bits differ", seq,
                                      (int)wa->size * 2,
                                      wa->value & wa->chan_bits[seq]));
    }
    if (!d || !df->pers) {
        return;
    }
    for (drive = 0; drive < DIFF_DRIVES; drive++) {
        uint8_t ca[256], cb[256];
        char sa[ATALAB_TIMING_STR_LEN], sb[ATALAB_TIMING_STR_LEN];
        char *f;

        if (!seq_has_drive(seq, drive)) {
            continue;
        }
        memcpy(ca, wa->before, sizeof(ca));
        memcpy(cb, wa->before, sizeof(cb));
        apply(ca, wa, wa->value);
        apply(cb, wb, wb->value);
        decode(df->pers, ca, drive, sa);
        decode(df->pers, cb, drive, sb);
        f = fields_that_differ(sa, sb);
        if (f) {
            add_detail(d, g_strdup_printf("%s: %s", diff_drive_name(drive), f));
            g_free(f);
        }
    }
}

static void write_alone(DiffResult *df, unsigned seq, const DiffCfgWrite *w,
                        bool in_a)
{
    DiffDifference *d;
    unsigned drive;

    d = add(df, DIFF_TIMING, -1, false, diff_phase_name(w->phase[seq]),
            g_strdup_printf("%s %s", seq_name(seq), w->reg),
            in_a ? hexval(w) : NULL, in_a ? NULL : hexval(w),
            in_a ? w->line : 0, in_a ? 0 : w->line);
    if (!d || !df->pers) {
        return;
    }
    for (drive = 0; drive < DIFF_DRIVES; drive++) {
        uint8_t after[256];
        char sb[ATALAB_TIMING_STR_LEN], sa[ATALAB_TIMING_STR_LEN];
        char *f;

        if (!(w->drives & (1u << drive)) || !seq_has_drive(seq, drive)) {
            continue;
        }
        memcpy(after, w->before, sizeof(after));
        apply(after, w, w->value);
        decode(df->pers, w->before, drive, sb);
        decode(df->pers, after, drive, sa);
        f = fields_that_differ(sb, sa);
        if (f) {
            add_detail(d, g_strdup_printf("%s: sets %s", diff_drive_name(drive),
                                          strstr(f, " vs ") + 4));
            g_free(f);
        }
    }
}

/*
 * Within one stretch of A-only and B-only elements: pair those for which
 * same(a, b) holds, in order (each A element with the first B element
 * left that matches).  pa[i]: 1 + the index of A's i-th element's pair.
 */
static void pair_up(size_t na, size_t nb, size_t a0, size_t b0,
                    bool (*same)(const void *, size_t, size_t),
                    const void *ctx, size_t *pa, bool *paired_b)
{
    size_t i, j, from = 0;

    for (i = 0; i < na; i++) {
        pa[i] = 0;
        for (j = from; j < nb; j++) {
            if (!paired_b[j] && same(ctx, a0 + i, b0 + j)) {
                pa[i] = j + 1;
                paired_b[j] = true;
                from = j + 1;
                break;
            }
        }
    }
}

typedef struct WriteSeq {
    unsigned seq;
    GArray *a, *b;              /* indices into the traces' writes */
    GArray *alone_a, *alone_b;  /* positions in a, b of one-sided writes */
} WriteSeq;

static const DiffCfgWrite *seq_write(const DiffResult *df, const WriteSeq *ws,
                                     bool in_a, size_t i)
{
    const DiffTrace *t = in_a ? df->ta : df->tb;

    return &g_array_index(t->writes, DiffCfgWrite,
                          g_array_index(in_a ? ws->a : ws->b, guint, i));
}

typedef struct SeqPair {
    const DiffResult *df;
    const WriteSeq *ws;
} SeqPair;

static bool same_reg(const void *ctx, size_t i, size_t j)
{
    const SeqPair *p = ctx;

    return !strcmp(seq_write(p->df, p->ws, true, i)->reg,
                   seq_write(p->df, p->ws, false, j)->reg);
}

/*
 * Walk an alignment: equal runs to same(), paired changes, the rest; and,
 * when row is set, every element once in the order of the two sequences
 * merged (a or b -1: that side has none in the row).
 */
typedef struct Walk {
    void (*equal)(DiffResult *, size_t, size_t, void *);
    void (*changed)(DiffResult *, size_t, size_t, void *);
    void (*alone)(DiffResult *, size_t, bool, void *);
    void (*row)(DiffResult *, int, int, void *);
    bool (*pairable)(const void *, size_t, size_t);
    const void *pair_ctx;
    void *opaque;
} Walk;

/*
 * The rows of a stretch of A-only (run) and B-only (next) elements, some
 * paired (pa, pb as pair_up leaves them), in the order of both: a B
 * element alone comes before the pair that follows it in B.
 */
static void rows_merged(DiffResult *df, const Walk *w, const DiffRun *run,
                        const DiffRun *next, const size_t *pa, const bool *pb)
{
    size_t k, j = 0;

    for (k = 0; k < run->len; k++) {
        if (pa[k]) {
            for (; j < pa[k] - 1; j++) {
                if (!pb[j]) {
                    w->row(df, -1, next->b_at + j, w->opaque);
                }
            }
            w->row(df, run->a_at + k, next->b_at + j, w->opaque);
            j++;
        } else {
            w->row(df, run->a_at + k, -1, w->opaque);
        }
    }
    for (; j < next->len; j++) {
        if (!pb[j]) {
            w->row(df, -1, next->b_at + j, w->opaque);
        }
    }
}

static void walk(DiffResult *df, const uint64_t *ka, size_t na, const uint64_t *kb,
                 size_t nb, const Walk *w)
{
    g_autofree bool *del = g_new(bool, na + 1);
    g_autofree bool *ins = g_new(bool, nb + 1);
    g_autofree DiffRun *runs = NULL;
    size_t n, r, k;

    diff_align(ka, na, kb, nb, del, ins);
    n = diff_runs(del, na, ins, nb, &runs);
    for (r = 0; r < n; r++) {
        DiffRun *run = &runs[r];

        if (run->op == DIFF_SAME) {
            for (k = 0; k < run->len; k++) {
                if (w->equal) {
                    w->equal(df, run->a_at + k, run->b_at + k, w->opaque);
                }
                if (w->row) {
                    w->row(df, run->a_at + k, run->b_at + k, w->opaque);
                }
            }
        } else if (run->op == DIFF_DELETE && r + 1 < n &&
                   runs[r + 1].op == DIFF_INSERT && w->pairable) {
            DiffRun *next = &runs[r + 1];
            g_autofree size_t *pa = g_new(size_t, run->len);
            g_autofree bool *pb = g_new0(bool, next->len);

            pair_up(run->len, next->len, run->a_at, next->b_at, w->pairable,
                    w->pair_ctx, pa, pb);
            if (w->row) {
                rows_merged(df, w, run, next, pa, pb);
            }
            for (k = 0; k < run->len; k++) {
                if (pa[k]) {
                    w->changed(df, run->a_at + k, next->b_at + pa[k] - 1,
                               w->opaque);
                } else {
                    w->alone(df, run->a_at + k, true, w->opaque);
                }
            }
            for (k = 0; k < next->len; k++) {
                if (!pb[k]) {
                    w->alone(df, next->b_at + k, false, w->opaque);
                }
            }
            r++;
        } else {
            for (k = 0; k < run->len; k++) {
                size_t at = (run->op == DIFF_DELETE ? run->a_at : run->b_at) + k;

                w->alone(df, at, run->op == DIFF_DELETE, w->opaque);
                if (w->row) {
                    w->row(df, run->op == DIFF_DELETE ? (int)at : -1,
                           run->op == DIFF_DELETE ? -1 : (int)at, w->opaque);
                }
            }
        }
    }
}

static void writes_changed(DiffResult *df, size_t i, size_t j, void *opaque)
{
    const WriteSeq *ws = opaque;

    write_changed(df, ws->seq, seq_write(df, ws, true, i),
                  seq_write(df, ws, false, j));
}

static void writes_alone(DiffResult *df, size_t i, bool in_a, void *opaque)
{
    WriteSeq *ws = opaque;
    guint k = i;

    g_array_append_val(in_a ? ws->alone_a : ws->alone_b, k);
}

/*
 * One-sided writes: a write of A that B has elsewhere in the sequence
 * (same register, size and value) is reordered; the rest are one-sided.
 */
static void report_alone_writes(DiffResult *df, WriteSeq *ws)
{
    size_t na = ws->alone_a->len, nb = ws->alone_b->len, i;
    g_autofree uint64_t *ka = g_new(uint64_t, na + 1);
    g_autofree uint64_t *kb = g_new(uint64_t, nb + 1);
    g_autofree size_t *match = g_new(size_t, na + 1);
    g_autofree bool *used_b = g_new(bool, nb + 1);

    for (i = 0; i < na; i++) {
        ka[i] = diff_write_key(seq_write(df, ws, true,
                                         g_array_index(ws->alone_a, guint, i)),
                               ws->seq);
    }
    for (i = 0; i < nb; i++) {
        kb[i] = diff_write_key(seq_write(df, ws, false,
                                         g_array_index(ws->alone_b, guint, i)),
                               ws->seq);
    }
    match_keys(ka, na, kb, nb, match, used_b);
    for (i = 0; i < na; i++) {
        const DiffCfgWrite *wa = seq_write(df, ws, true,
                                           g_array_index(ws->alone_a, guint, i));

        if (match[i]) {
            const DiffCfgWrite *wb =
                seq_write(df, ws, false,
                          g_array_index(ws->alone_b, guint, match[i] - 1));
            g_autofree char *va = hexval(wa);

            add(df, DIFF_TIMING, -1, false, diff_phase_name(wa->phase[ws->seq]),
                g_strdup_printf("%s %s %s reordered", seq_name(ws->seq),
                                wa->reg, va),
                g_strdup_printf("%s in A", diff_phase_name(wa->phase[ws->seq])),
                g_strdup_printf("%s in B", diff_phase_name(wb->phase[ws->seq])),
                wa->line, wb->line);
        } else {
            write_alone(df, ws->seq, wa, true);
        }
    }
    for (i = 0; i < nb; i++) {
        if (!used_b[i]) {
            write_alone(df, ws->seq,
                        seq_write(df, ws, false,
                                  g_array_index(ws->alone_b, guint, i)),
                        false);
        }
    }
}

/* The writes of one sequence (channel 0, 1, controller) and their keys. */
static GArray *seq_writes(const DiffTrace *t, unsigned seq, uint64_t **keys)
{
    GArray *idx = g_array_new(false, false, sizeof(guint));
    guint i;

    *keys = g_new(uint64_t, t->writes->len + 1);
    for (i = 0; i < t->writes->len; i++) {
        const DiffCfgWrite *w = &g_array_index(t->writes, DiffCfgWrite, i);

        if (diff_write_in(w, seq)) {
            (*keys)[idx->len] = diff_write_key(w, seq);
            g_array_append_val(idx, i);
        }
    }
    return idx;
}

/* Writes that changed nothing, counted per register. */
static void compare_redundant(DiffResult *df)
{
    g_autoptr(GHashTable) regs = g_hash_table_new(g_str_hash, g_str_equal);
    g_autoptr(GList) names = NULL;
    GHashTableIter it;
    gpointer k;
    GList *l;

    g_hash_table_iter_init(&it, df->ta->redundant);
    while (g_hash_table_iter_next(&it, &k, NULL)) {
        g_hash_table_add(regs, k);
    }
    g_hash_table_iter_init(&it, df->tb->redundant);
    while (g_hash_table_iter_next(&it, &k, NULL)) {
        g_hash_table_add(regs, k);
    }
    names = g_list_sort(g_hash_table_get_keys(regs), (GCompareFunc)strcmp);
    for (l = names; l; l = l->next) {
        guint na = GPOINTER_TO_UINT(g_hash_table_lookup(df->ta->redundant, l->data));
        guint nb = GPOINTER_TO_UINT(g_hash_table_lookup(df->tb->redundant, l->data));

        if (na != nb) {
            add(df, DIFF_TIMING, -1, false, "whole run",
                g_strdup_printf("cfg %s writes that change nothing",
                                (char *)l->data),
                g_strdup_printf("%u", na), g_strdup_printf("%u", nb), 0, 0);
        }
    }
}

static void compare_writes(DiffResult *df)
{
    unsigned seq;

    for (seq = 0; seq < 3; seq++) {
        g_autofree uint64_t *ka = NULL;
        g_autofree uint64_t *kb = NULL;
        WriteSeq ws = { .seq = seq };
        SeqPair p = { df, &ws };
        Walk w = {
            .changed = writes_changed, .alone = writes_alone,
            .pairable = same_reg, .pair_ctx = &p, .opaque = &ws,
        };

        ws.a = seq_writes(df->ta, seq, &ka);
        ws.b = seq_writes(df->tb, seq, &kb);
        ws.alone_a = g_array_new(false, false, sizeof(guint));
        ws.alone_b = g_array_new(false, false, sizeof(guint));
        walk(df, ka, ws.a->len, kb, ws.b->len, &w);
        report_alone_writes(df, &ws);
        g_array_free(ws.a, true);
        g_array_free(ws.b, true);
        g_array_free(ws.alone_a, true);
        g_array_free(ws.alone_b, true);
    }
    compare_redundant(df);
}

/* ---- commands ------------------------------------------------------------ */

typedef struct DriveCtx {
    int drive;
    const DiffDrive *a, *b;
    GArray *alone_a, *alone_b;  /* indices of commands only on one side */
} DriveCtx;

static const DiffCmd *cmd_of(const DiffDrive *d, size_t i)
{
    return &g_array_index(d->cmds, DiffCmd, i);
}

static char *cmd_text(const DiffCmd *c)
{
    return g_strdup_printf("seq %u %s%s%s", c->seq, c->name,
                           c->params ? " " : "", c->params ? c->params : "");
}

static char *cmd_subject(const DiffCmd *a, const DiffCmd *b)
{
    if (a->seq == b->seq) {
        return g_strdup_printf("seq %u %s", a->seq, a->name);
    }
    return g_strdup_printf("seq %u/%u %s", a->seq, b->seq, a->name);
}

static const char *xfer_name(const DiffCmd *c)
{
    return c->xfer == DIFF_XFER_DMA ? "DMA" :
           c->xfer == DIFF_XFER_PIO ? "PIO" : "non-data";
}

static char *protocol_text(const DiffCmd *c)
{
    GString *s = g_string_new(xfer_name(c));

    if (c->xfer != DIFF_XFER_NONE) {
        g_string_append(s, c->dir_out ? " out" : " in");
    }
    g_string_append(s, c->polled ? ", polled" : ", interrupt-driven");
    g_string_append_printf(s, ", %u interrupt%s", c->irqs,
                           c->irqs == 1 ? "" : "s");
    if (c->xfer == DIFF_XFER_PIO) {
        g_string_append_printf(s, ", %u-byte DRQ blocks", c->max_block);
    }
    return g_string_free(s, false);
}

static char *outcome_text(const DiffCmd *c)
{
    const char *words = diff_outcome_names(c->outcome)->words;

    return c->outcome_text ? g_strdup_printf("%s %s", words, c->outcome_text) :
                             g_strdup(words);
}

static char *data_text(const DiffResult *df, const DiffCmd *c)
{
    if (df->ta->folded && df->tb->folded) {
        return g_strdup_printf("%" G_GUINT64_FORMAT " PIO bytes (sum 0x%08x), "
                               "%" G_GUINT64_FORMAT " sectors", c->pio_bytes,
                               c->pio_sum, c->io_sectors);
    }
    return g_strdup_printf("%" G_GUINT64_FORMAT " PIO bytes, %" G_GUINT64_FORMAT
                           " sectors", c->pio_bytes, c->io_sectors);
}

/*
 * One command in both traces: how it went.  same_params: the commands
 * are equal (otherwise their data and taskfile differ as a consequence
 * and are not reported again).
 */
static void cmd_pair(DiffResult *df, DriveCtx *dc, const DiffCmd *a,
                     const DiffCmd *b, bool same_params);

/* The alignment's next row: commands i of A and j of B (-1: none). */
static void cmds_row(DiffResult *df, int i, int j, void *opaque)
{
    DiffPair p = { i, j };

    g_array_append_val(df->pairs[((DriveCtx *)opaque)->drive], p);
}

static void cmds_equal(DiffResult *df, size_t i, size_t j, void *opaque)
{
    DriveCtx *dc = opaque;

    cmd_pair(df, dc, cmd_of(dc->a, i), cmd_of(dc->b, j), true);
}

static void cmd_pair(DiffResult *df, DriveCtx *dc, const DiffCmd *a,
                     const DiffCmd *b, bool same_params)
{
    const char *phase = diff_phase_name(a->phase);
    int dr = dc->drive;
    bool dma = a->xfer == DIFF_XFER_DMA || b->xfer == DIFF_XFER_DMA;
    char *pa = protocol_text(a), *pb = protocol_text(b);

    if (strcmp(pa, pb)) {
        add(df, DIFF_PROTOCOL, dr, dma, phase, cmd_subject(a, b), pa, pb,
            a->line, b->line);
    } else {
        g_free(pa);
        g_free(pb);
    }
    if (a->outcome != b->outcome || g_strcmp0(a->outcome_text, b->outcome_text)) {
        add(df, DIFF_ERRORS, dr, dma, phase, cmd_subject(a, b),
            outcome_text(a), outcome_text(b), a->line, b->line);
    }
    if (!same_params) {
        return;
    }
    if (a->pio_bytes != b->pio_bytes || a->io_sectors != b->io_sectors ||
        (df->ta->folded && df->tb->folded && a->pio_sum != b->pio_sum)) {
        add(df, DIFF_DATA, dr, dma, phase, cmd_subject(a, b),
            data_text(df, a), data_text(df, b), a->line, b->line);
    }
    if (strcmp(a->taskfile, b->taskfile)) {
        add(df, DIFF_TASKFILE, dr, false, phase, cmd_subject(a, b),
            g_strdup(a->taskfile), g_strdup(b->taskfile), a->line, b->line);
    }
    if (a->polls != b->polls) {
        add(df, DIFF_POLLS, dr, false, phase, cmd_subject(a, b),
            g_strdup_printf("%u Status reads", a->polls),
            g_strdup_printf("%u Status reads", b->polls), a->line, b->line);
    }
    if (a->end - a->start != b->end - b->start) {
        add(df, DIFF_TIME, dr, false, phase, cmd_subject(a, b),
            g_strdup_printf("%" G_GINT64_FORMAT " ns", a->end - a->start),
            g_strdup_printf("%" G_GINT64_FORMAT " ns", b->end - b->start),
            a->line, b->line);
    }
}

static bool is_read(const DiffCmd *c)
{
    return strstr(c->name, "READ") != NULL;
}

/*
 * Two commands are one step done differently when they have one opcode,
 * or move the same sectors the same way (READ DMA and READ SECTORS: a
 * different protocol path).
 */
static bool same_step(const void *ctx, size_t i, size_t j)
{
    const DriveCtx *dc = ctx;
    const DiffCmd *a = cmd_of(dc->a, i), *b = cmd_of(dc->b, j);

    if (a->opcode == b->opcode) {
        return true;
    }
    return a->params && b->params && g_str_has_prefix(a->params, "lba=") &&
           !strcmp(a->params, b->params) && is_read(a) == is_read(b);
}

static void cmds_changed(DiffResult *df, size_t i, size_t j, void *opaque)
{
    DriveCtx *dc = opaque;
    const DiffCmd *a = cmd_of(dc->a, i), *b = cmd_of(dc->b, j);

    if (a->opcode != b->opcode) {
        /* The protocol difference names both commands. */
        g_autofree char *pa = protocol_text(a);
        g_autofree char *pb = protocol_text(b);
        bool dma = a->xfer == DIFF_XFER_DMA || b->xfer == DIFF_XFER_DMA;

        add(df, DIFF_PROTOCOL, dc->drive, dma, diff_phase_name(a->phase),
            g_strdup_printf("seq %u/%u %s", a->seq, b->seq, a->params),
            g_strdup_printf("%s (%s)", a->name, pa),
            g_strdup_printf("%s (%s)", b->name, pb), a->line, b->line);
        return;
    }
    add(df, DIFF_COMMANDS, dc->drive, false, diff_phase_name(a->phase),
        cmd_subject(a, b), g_strdup(a->params ? a->params : "(no parameters)"),
        g_strdup(b->params ? b->params : "(no parameters)"), a->line, b->line);
    cmd_pair(df, dc, a, b, false);
}

static void cmds_alone(DiffResult *df, size_t i, bool in_a, void *opaque)
{
    DriveCtx *dc = opaque;
    guint idx = i;

    g_array_append_val(in_a ? dc->alone_a : dc->alone_b, idx);
}

static uint64_t *cmd_keys(const DiffDrive *d)
{
    uint64_t *k = g_new(uint64_t, d->cmds->len + 1);
    unsigned i;

    for (i = 0; i < d->cmds->len; i++) {
        k[i] = cmd_of(d, i)->key;
    }
    return k;
}

/* Commands on one side only: reordered when the other side has one too. */
static void report_alone_cmds(DiffResult *df, DriveCtx *dc)
{
    size_t na = dc->alone_a->len, nb = dc->alone_b->len, i;
    g_autofree uint64_t *ka = g_new(uint64_t, na + 1);
    g_autofree uint64_t *kb = g_new(uint64_t, nb + 1);
    g_autofree size_t *match = g_new(size_t, na + 1);
    g_autofree bool *used_b = g_new(bool, nb + 1);

    for (i = 0; i < na; i++) {
        ka[i] = cmd_of(dc->a, g_array_index(dc->alone_a, guint, i))->key;
    }
    for (i = 0; i < nb; i++) {
        kb[i] = cmd_of(dc->b, g_array_index(dc->alone_b, guint, i))->key;
    }
    match_keys(ka, na, kb, nb, match, used_b);
    for (i = 0; i < na; i++) {
        const DiffCmd *a = cmd_of(dc->a, g_array_index(dc->alone_a, guint, i));

        if (match[i]) {
            const DiffCmd *b = cmd_of(dc->b, g_array_index(dc->alone_b, guint,
                                                           match[i] - 1));
            DiffDifference *d = add(df, DIFF_COMMANDS, dc->drive, false,
                                    diff_phase_name(a->phase),
                                    g_strdup_printf("%s reordered", a->name),
                                    cmd_text(a), cmd_text(b), a->line,
                                    b->line);

            add_detail(d, g_strdup_printf("%s in A, %s in B",
                                          diff_phase_name(a->phase),
                                          diff_phase_name(b->phase)));
        } else {
            add(df, DIFF_COMMANDS, dc->drive, false, diff_phase_name(a->phase),
                g_strdup(a->name), cmd_text(a), NULL, a->line, 0);
        }
    }
    for (i = 0; i < nb; i++) {
        const DiffCmd *b = cmd_of(dc->b, g_array_index(dc->alone_b, guint, i));

        if (!used_b[i]) {
            add(df, DIFF_COMMANDS, dc->drive, false, diff_phase_name(b->phase),
                g_strdup(b->name), NULL, cmd_text(b), 0, b->line);
        }
    }
}

static void compare_commands(DiffResult *df, int drive)
{
    const DiffDrive *a = &df->ta->drive[drive], *b = &df->tb->drive[drive];
    g_autofree uint64_t *ka = cmd_keys(a);
    g_autofree uint64_t *kb = cmd_keys(b);
    DriveCtx dc = {
        .drive = drive, .a = a, .b = b,
        .alone_a = g_array_new(false, false, sizeof(guint)),
        .alone_b = g_array_new(false, false, sizeof(guint)),
    };
    Walk w = {
        .equal = cmds_equal, .changed = cmds_changed, .alone = cmds_alone,
        .row = cmds_row, .pairable = same_step, .pair_ctx = &dc, .opaque = &dc,
    };

    walk(df, ka, a->cmds->len, kb, b->cmds->len, &w);
    report_alone_cmds(df, &dc);
    g_array_free(dc.alone_a, true);
    g_array_free(dc.alone_b, true);
}

/* ---- phases and error handling ------------------------------------------ */

static const DiffPhaseRun *run_of(const DiffDrive *d, size_t i)
{
    return &g_array_index(d->runs, DiffPhaseRun, i);
}

static char *eh_summary(const DiffDrive *d, const DiffPhaseRun *r)
{
    GString *s = g_string_new(r->trigger_text ? r->trigger_text : "?");
    char *speed = fields_that_differ(r->timing_start, r->timing_end);

    g_string_append_printf(s, "; %u command%s, %u retr%s, %u reset%s",
                           r->n_cmds, r->n_cmds == 1 ? "" : "s",
                           r->retries, r->retries == 1 ? "y" : "ies",
                           r->resets, r->resets == 1 ? "" : "s");
    if (speed) {
        g_string_append_printf(s, "; timing %s", speed);
        g_free(speed);
    }
    g_string_append(s, r->recovered ? "; recovered" : "; not recovered");
    return g_string_free(s, false);
}

static void runs_equal(DiffResult *df, size_t i, size_t j, void *opaque)
{
    DriveCtx *dc = opaque;
    const DiffPhaseRun *a = run_of(dc->a, i), *b = run_of(dc->b, j);
    const char *phase = diff_phase_name(a->phase);
    char *f = fields_that_differ(a->timing_end, b->timing_end);

    if (f) {
        DiffDifference *d = add(df, DIFF_TIMING, dc->drive, false, phase,
                            g_strdup_printf("setting at the end of %s",
                                            phase),
                            g_strdup(a->timing_end), g_strdup(b->timing_end),
                            a->line, b->line);

        add_detail(d, f);
    }
    if (a->phase == DIFF_PHASE_EH) {
        char *sa = eh_summary(dc->a, a), *sb = eh_summary(dc->b, b);

        if (strcmp(sa, sb)) {
            add(df, DIFF_ERRORS, dc->drive, false, phase,
                g_strdup("error handling"), sa, sb, a->line, b->line);
        } else {
            g_free(sa);
            g_free(sb);
        }
    }
}

static void runs_alone(DiffResult *df, size_t i, bool in_a, void *opaque)
{
    DriveCtx *dc = opaque;
    const DiffDrive *d = in_a ? dc->a : dc->b;
    const DiffPhaseRun *r = run_of(d, i);
    DiffClass cls = r->phase == DIFF_PHASE_EH ? DIFF_ERRORS :
                    r->phase == DIFF_PHASE_MODE ? DIFF_TIMING : DIFF_COMMANDS;
    char *text = r->phase == DIFF_PHASE_EH ? eh_summary(d, r) :
                 g_strdup_printf("%u command%s%s%s", r->n_cmds,
                                 r->n_cmds == 1 ? "" : "s",
                                 *r->timing_end ? "; ends with " : "",
                                 r->timing_end);

    add(df, cls, dc->drive, false, diff_phase_name(r->phase),
        g_strdup_printf("phase %s", diff_phase_name(r->phase)),
        in_a ? text : NULL, in_a ? NULL : text, in_a ? r->line : 0,
        in_a ? 0 : r->line);
}

static uint64_t *run_keys(const DiffDrive *d)
{
    uint64_t *k = g_new(uint64_t, d->runs->len + 1);
    unsigned i;

    for (i = 0; i < d->runs->len; i++) {
        k[i] = run_of(d, i)->phase + 1;
    }
    return k;
}

static void compare_phases(DiffResult *df, int drive)
{
    const DiffDrive *a = &df->ta->drive[drive], *b = &df->tb->drive[drive];
    g_autofree uint64_t *ka = run_keys(a);
    g_autofree uint64_t *kb = run_keys(b);
    DriveCtx dc = { .drive = drive, .a = a, .b = b };
    Walk w = { .equal = runs_equal, .alone = runs_alone, .opaque = &dc };

    walk(df, ka, a->runs->len, kb, b->runs->len, &w);
}

/* ---- fault firings and violations ---------------------------------------- */

typedef struct EventCtx {
    int drive;
    DiffClass cls;
    const DiffDrive *a, *b;
    const GArray *ea, *eb;
} EventCtx;

static void events_alone(DiffResult *df, size_t i, bool in_a, void *opaque)
{
    EventCtx *ec = opaque;
    const DiffEvent *e = &g_array_index(in_a ? ec->ea : ec->eb, DiffEvent, i);
    const DiffDrive *d = in_a ? ec->a : ec->b;
    DiffDifference *diff;

    diff = add(df, ec->cls, ec->drive, false, diff_phase_name(e->phase),
               g_strdup(ec->cls == DIFF_FAULTS ? "fault" : "violation"),
               in_a ? g_strdup(e->text) : NULL, in_a ? NULL : g_strdup(e->text),
               in_a ? e->line : 0, in_a ? 0 : e->line);
    if (e->cmd) {
        g_autofree char *c = cmd_text(cmd_of(d, e->cmd - 1));

        add_detail(diff, g_strdup_printf("during %s", c));
    }
}

static uint64_t *event_keys(const GArray *ev)
{
    uint64_t *k = g_new(uint64_t, ev->len + 1);
    unsigned i;

    for (i = 0; i < ev->len; i++) {
        k[i] = diff_hash(0, g_array_index(ev, DiffEvent, i).text);
    }
    return k;
}

static void compare_events(DiffResult *df, int drive, DiffClass cls)
{
    const DiffDrive *a = &df->ta->drive[drive], *b = &df->tb->drive[drive];
    EventCtx ec = {
        .drive = drive, .cls = cls, .a = a, .b = b,
        .ea = cls == DIFF_FAULTS ? a->faults : a->violations,
        .eb = cls == DIFF_FAULTS ? b->faults : b->violations,
    };
    g_autofree uint64_t *ka = event_keys(ec.ea);
    g_autofree uint64_t *kb = event_keys(ec.eb);
    Walk w = { .alone = events_alone, .opaque = &ec };

    walk(df, ka, ec.ea->len, kb, ec.eb->len, &w);
}

/* ---- headers --------------------------------------------------------------- */

/* Does one of lines have line's key? */
static bool header_has_key(GPtrArray *lines, const char *line)
{
    g_autofree char *k = diff_header_key(line);
    unsigned i;

    for (i = 0; i < lines->len; i++) {
        g_autofree char *other = diff_header_key(g_ptr_array_index(lines, i));

        if (!strcmp(k, other)) {
            return true;
        }
    }
    return false;
}

/*
 * The comparability lines of both headers, in order, must be equal;
 * otherwise a message saying the first that is not.
 */
static char *incomparable(const DiffTrace *a, const DiffTrace *b)
{
    g_autoptr(GPtrArray) la = g_ptr_array_new();
    g_autoptr(GPtrArray) lb = g_ptr_array_new();
    unsigned i;

    for (i = 0; i < a->header->len; i++) {
        if (diff_header_decides(g_ptr_array_index(a->header, i))) {
            g_ptr_array_add(la, g_ptr_array_index(a->header, i));
        }
    }
    for (i = 0; i < b->header->len; i++) {
        if (diff_header_decides(g_ptr_array_index(b->header, i))) {
            g_ptr_array_add(lb, g_ptr_array_index(b->header, i));
        }
    }
    for (i = 0; i < MAX(la->len, lb->len); i++) {
        const char *x = i < la->len ? g_ptr_array_index(la, i) : NULL;
        const char *y = i < lb->len ? g_ptr_array_index(lb, i) : NULL;

        if (!x || !y || strcmp(x, y)) {
            g_autofree char *k = NULL;

            /* A key only one header has: name it, not the next line. */
            if (x && y && !header_has_key(lb, x)) {
                y = NULL;
            } else if (x && y && !header_has_key(la, y)) {
                x = NULL;
            }
            k = diff_header_key(x ? x : y);
            return g_strdup_printf("the traces are not comparable: header "
                                   "'%s' is '%s' in %s and '%s' in %s", k,
                                   x ? diff_header_value(x) : "(none)", a->path,
                                   y ? diff_header_value(y) : "(none)", b->path);
        }
    }
    if (!a->personality) {
        return g_strdup_printf("%s: the header names no personality", a->path);
    }
    return NULL;
}

/* ---- entry -------------------------------------------------------------------- */

DiffResult *diff_compare(const char *a, const char *b, const DiffOptions *o,
                         GError **err)
{
    g_autofree char *why = NULL;
    DiffTrace *ta, *tb = NULL;
    DiffResult *df;
    int drive;

    ta = diff_trace_load(a, err);
    if (ta) {
        tb = diff_trace_load(b, err);
    }
    if (!ta || !tb) {
        diff_trace_free(ta);
        return NULL;
    }
    why = incomparable(ta, tb);
    if (why) {
        g_set_error_literal(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, why);
        diff_trace_free(ta);
        diff_trace_free(tb);
        return NULL;
    }
    df = g_new0(DiffResult, 1);
    df->o = o;
    df->ta = ta;
    df->tb = tb;
    df->pers = atalab_personality_find(ta->personality);
    df->diffs = g_array_new(false, true, sizeof(DiffDifference));
    compare_writes(df);
    for (drive = 0; drive < DIFF_DRIVES; drive++) {
        df->pairs[drive] = g_array_new(false, false, sizeof(DiffPair));
        if (!ta->drive[drive].present && !tb->drive[drive].present) {
            continue;
        }
        compare_phases(df, drive);
        compare_commands(df, drive);
        compare_events(df, drive, DIFF_FAULTS);
        compare_events(df, drive, DIFF_VIOLATIONS);
    }
    return df;
}

void diff_result_free(DiffResult *df)
{
    unsigned i;

    if (!df) {
        return;
    }
    for (i = 0; i < df->diffs->len; i++) {
        difference_clear(&g_array_index(df->diffs, DiffDifference, i));
    }
    g_array_free(df->diffs, true);
    for (i = 0; i < DIFF_DRIVES; i++) {
        g_array_free(df->pairs[i], true);
    }
    diff_trace_free(df->ta);
    diff_trace_free(df->tb);
    g_free(df);
}

int diff_traces(const char *a, const char *b, const DiffOptions *o,
                FILE *out, FILE *err)
{
    g_autoptr(GError) e = NULL;
    DiffResult *df;
    int rc;

    if (o->format == DIFF_FORMAT_UNIFIED) {
        return diff_unified(a, b, o, out, err);
    }
    df = diff_compare(a, b, o, &e);
    if (!df) {
        fprintf(err, "%s\n", e->message);
        return 2;
    }
    if (o->format == DIFF_FORMAT_JSON) {
        diff_print_json(df, out);
    } else {
        diff_print_report(df, out);
    }
    rc = df->diffs->len ? 1 : 0;
    diff_result_free(df);
    return rc;
}
