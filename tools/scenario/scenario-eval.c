/*
 * atalab-scenario: every expectation of a scenario run, checked against
 * its outputs and trace, as result rows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "trace-read.h"
#include "scenario.h"

void row_add(const char *scenario, const char *expectation,
             const char *seen, bool pass)
{
    Row *r = g_new0(Row, 1);

    r->scenario = g_strdup(scenario);
    r->expectation = g_strdup(expectation);
    r->seen = g_strdup(seen);
    r->pass = pass;
    g_ptr_array_add(rows, r);
}

static char *read_file(const char *dir, const char *name)
{
    char *path = g_build_filename(dir, name, NULL), *text = NULL;

    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        text = g_strdup("");
    }
    g_free(path);
    return text;
}

/* What a rule's firings did (effect =), from the trace. */
typedef struct EffectSeen {
    unsigned firings;
    unsigned ended;             /* their commands that ended */
    int64_t min_delay;          /* latency: firing to end, the least */
    unsigned irqs;              /* firings INTRQ rose after */
    unsigned quiet;             /* lost-irq: commands ended without INTRQ */
} EffectSeen;

/* A firing whose command has not ended yet. */
typedef struct Firing {
    EffectSeen *seen;
    int64_t time;
    int drive, seq;
    bool irq;                   /* INTRQ rose since, before another command
                                 * of the channel began */
    bool cmd;                   /* another command of the channel began */
} Firing;

/* What the expectations read from a run's trace. */
typedef struct TraceFacts {
    GHashTable *fired;          /* rule id -> firings (fault records) */
    unsigned violations;        /* the timing-summary records' sum */
    GHashTable *effects;        /* rule id -> EffectSeen (effect = ids) */
    char *error;                /* the trace could not be read: why */
} TraceFacts;

/* Follow the firings of rules with an effect through the records. */
static void effect_record(TraceFacts *t, GArray *open,
                          const AtalabTraceRecord *rec)
{
    int ch = rec->channel, drive = ch >= 0 && rec->unit >= 0 ?
                                   ch * 2 + rec->unit : -1;
    uint64_t seq = 0;
    unsigned i;

    atalab_trace_get_u64(rec, "seq", &seq);
    if (rec->kind == ATALAB_REC_ATA_FAULT) {
        EffectSeen *e = g_hash_table_lookup(t->effects,
                                            atalab_trace_get(rec, "rule"));
        Firing f = { e, rec->time, drive, seq, false, false };

        if (!e) {
            return;
        }
        e->firings++;
        g_array_append_val(open, f);
        return;
    }
    if (rec->kind == ATALAB_REC_IRQ || rec->kind == ATALAB_REC_ATA_CMD) {
        bool up = rec->kind == ATALAB_REC_IRQ &&
                  !strcmp(atalab_trace_word(rec, 0), "1");

        for (i = 0; i < open->len; i++) {
            Firing *f = &g_array_index(open, Firing, i);

            if (f->drive / 2 != ch) {
                continue;
            }
            if (rec->kind == ATALAB_REC_ATA_CMD) {
                f->cmd = true;
            } else if (up && !f->irq && !f->cmd) {
                f->irq = true;
                f->seen->irqs++;
            }
        }
        return;
    }
    if (rec->kind != ATALAB_REC_ATA_DONE && rec->kind != ATALAB_REC_ATA_ERROR &&
        rec->kind != ATALAB_REC_ATA_ABORT) {
        return;
    }
    for (i = 0; i < open->len; i++) {
        Firing *f = &g_array_index(open, Firing, i);

        if (f->drive == drive && f->seq == (int)seq) {
            int64_t d = rec->time - f->time;

            if (!f->seen->ended || d < f->seen->min_delay) {
                f->seen->min_delay = d;
            }
            f->seen->ended++;
            f->seen->quiet += !f->irq;
            g_array_remove_index(open, i--);
        }
    }
}

static void read_trace(const char *dir, const Scenario *s, TraceFacts *t)
{
    g_autofree char *path = g_build_filename(dir, "trace", NULL);
    g_autoptr(GError) err = NULL;
    g_autoptr(GArray) open = g_array_new(false, false, sizeof(Firing));
    AtalabTraceFile *f = atalab_trace_open(path, false, &err);
    AtalabTraceRecord rec = { 0 };
    uint64_t v;
    unsigned i;

    t->fired = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    t->effects = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
    for (i = 0; i < s->effects->len; i++) {
        const Effect *e = g_ptr_array_index(s->effects, i);

        g_hash_table_replace(t->effects, e->id, g_new0(EffectSeen, 1));
    }
    t->violations = 0;
    t->error = NULL;
    if (!f) {
        t->error = g_strdup(err->message);
        return;
    }
    while (atalab_trace_next(f, &rec, &err) > 0) {
        if (s->effects->len) {
            effect_record(t, open, &rec);
        }
        const char *id = atalab_trace_get(&rec, "rule");

        if (rec.kind == ATALAB_REC_ATA_FAULT && id) {
            gpointer n = g_hash_table_lookup(t->fired, id);

            g_hash_table_replace(t->fired, g_strdup(id),
                                 GUINT_TO_POINTER(GPOINTER_TO_UINT(n) + 1));
        } else if (rec.kind == ATALAB_REC_ATA_TIMING_SUMMARY &&
                   atalab_trace_get_u64(&rec, "violations", &v)) {
            t->violations += v;
        }
    }
    if (err) {
        t->error = g_strdup(err->message);
    }
    atalab_trace_record_clear(&rec);
    atalab_trace_close(f);
}

static unsigned count_firings(const TraceFacts *t, const char *id)
{
    return GPOINTER_TO_UINT(g_hash_table_lookup(t->fired, id));
}

static const char *stdout_value(const char *out, const char *prefix)
{
    const char *p = strstr(out, prefix);

    return p ? p + strlen(prefix) : NULL;
}

static char *line_at(const char *p)
{
    return p ? g_strndup(p, strcspn(p, "\n")) : g_strdup("(none)");
}

/* Evaluate every expectation of s against what its run left in dir. */
void evaluate(const Scenario *s, const char *dir, int run_status)
{
    char *out = read_file(dir, "stdout");
    char *log = read_file(dir, "console.log");
    TraceFacts trace;
    const char *pos = log;
    char *seen, *want;
    unsigned i;

    read_trace(dir, s, &trace);
    if (trace.error && (s->rule_ids->len || s->has_violations)) {
        row_add(s->name, "the trace reads (traces/FORMAT.md)", trace.error,
                false);
    }
    if (s->has_exit) {
        seen = line_at(stdout_value(out, "@exit "));
        want = g_strdup_printf("exit %d", s->exit_status);
        row_add(s->name, want, seen, atoi(seen) == s->exit_status &&
                strcmp(seen, "(none)"));
        g_free(want);
        g_free(seen);
    }
    if (run_status != 0) {
        seen = g_strdup_printf("atalab run exited %d", run_status);
        row_add(s->name, "the run completes", seen, false);
        g_free(seen);
    }
    for (i = 0; i < s->log->len; i++) {
        const char *l = g_ptr_array_index(s->log, i);
        const char *at = strstr(s->log_in_order ? pos : log, l);

        want = g_strdup_printf("log%s: %s", s->log_in_order ? " (in order)" :
                               "", l);
        row_add(s->name, want, at ? "seen" : "missing", at != NULL);
        if (at) {
            pos = at + strlen(l);
        }
        g_free(want);
    }
    for (i = 0; i < s->no_log->len; i++) {
        const char *l = g_ptr_array_index(s->no_log, i);
        const char *at = strstr(log, l);

        want = g_strdup_printf("no log: %s", l);
        seen = at ? line_at(at) : g_strdup("absent");
        row_add(s->name, want, seen, !at);
        g_free(want);
        g_free(seen);
    }
    for (i = 0; i < s->sysfs->len; i++) {
        const char *e = g_ptr_array_index(s->sysfs, i);
        const char *eq = strchr(e, '=');
        char *key = g_strdup_printf("@sysfs %.*s=", (int)(eq - e), e);

        seen = line_at(stdout_value(out, key));
        want = g_strdup_printf("sysfs %s", e);
        row_add(s->name, want, seen, !strcmp(seen, eq + 1));
        g_free(want);
        g_free(seen);
        g_free(key);
    }
    for (i = 0; i < s->stdout_has->len; i++) {
        const char *l = g_ptr_array_index(s->stdout_has, i);

        want = g_strdup_printf("stdout: %s", l);
        row_add(s->name, want, strstr(out, l) ? "seen" : "missing",
                strstr(out, l) != NULL);
        g_free(want);
    }
    /*
     * Per-rule firings: every bound the fired key gives (a row each), and
     * at least once for a rule it does not mention.
     */
    for (i = 0; i < s->rule_ids->len; i++) {
        const char *id = g_ptr_array_index(s->rule_ids, i);
        size_t idlen = strlen(id);
        unsigned n = count_firings(&trace, id), k, bounds = 0;

        for (k = 0; k <= s->fired->len; k++) {
            const char *e = k < s->fired->len ?
                            g_ptr_array_index(s->fired, k) : NULL;
            unsigned want_n = 1;
            char how = '>';

            if (e && !(!strncmp(e, id, idlen) && strchr(">=<", e[idlen]))) {
                continue;
            }
            if (!e && bounds) {
                break;
            }
            if (e) {
                bounds++;
                how = e[idlen];
                want_n = strtoul(e + idlen + (e[idlen + 1] == '=' ? 2 : 1),
                                 NULL, 10);
            }
            want = g_strdup_printf("rule %s fired %s %u", id,
                                   how == '=' ? "=" : how == '>' ? ">=" :
                                   "<=", want_n);
            seen = g_strdup_printf("%u%s", n, e ? "" : " (unsaid: >= 1)");
            row_add(s->name, want, seen, how == '=' ? n == want_n :
                    how == '>' ? n >= want_n : n <= want_n);
            g_free(want);
            g_free(seen);
        }
    }
    if (s->has_violations) {
        unsigned n = trace.violations;

        want = g_strdup_printf("timing violations %u", s->violations);
        seen = g_strdup_printf("%u", n);
        row_add(s->name, want, seen, n == s->violations);
        g_free(want);
        g_free(seen);
    }
    for (i = 0; i < s->effects->len; i++) {
        const Effect *e = g_ptr_array_index(s->effects, i);
        const EffectSeen *es = g_hash_table_lookup(trace.effects, e->id);
        bool pass;

        if (e->kind == ATALAB_FAULT_LATENCY) {
            want = g_strdup_printf("rule %s: its commands end %.1f ms or more "
                                   "after it fires", e->id, e->delay / 1e6);
            seen = es->ended ?
                   g_strdup_printf("%u ended, the soonest after %.1f ms",
                                   es->ended, es->min_delay / 1e6) :
                   g_strdup_printf("%u firings, no command ended",
                                   es->firings);
            pass = es->ended && es->min_delay >= e->delay;
        } else if (e->kind == ATALAB_FAULT_SPURIOUS_IRQ) {
            want = g_strdup_printf("rule %s: INTRQ rises after each firing",
                                   e->id);
            seen = g_strdup_printf("after %u of %u", es->irqs, es->firings);
            pass = es->firings && es->irqs == es->firings;
        } else {
            want = g_strdup_printf("rule %s: its commands end without INTRQ",
                                   e->id);
            seen = g_strdup_printf("%u of %u ended without", es->quiet,
                                   es->firings);
            pass = es->firings && es->quiet == es->firings;
        }
        row_add(s->name, want, seen, pass);
        g_free(want);
        g_free(seen);
    }
    for (i = 0; i < s->patterns->len; i++) {
        const Pattern *p = g_ptr_array_index(s->patterns, i);
        char *img = g_strdup_printf("%s/disk%u.img", dir, p->position);
        const char *tool = g_getenv("ATALAB_PATTERN");
        char *argv[] = { (char *)(tool ? tool : "ata-pattern"),
                         (char *)"verify", img, (char *)"--offset", p->offset,
                         (char *)"--size", p->size, (char *)"--seed", p->seed,
                         NULL };
        char *err = NULL;
        int status = -1;

        g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
                     G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                     &status, NULL);
        want = g_strdup_printf("data on disk %u: %s bytes at %s, seed %s",
                               p->position, p->size, p->offset, p->seed);
        seen = status == 0 ? g_strdup("verified") :
               g_strstrip(g_strdup(err && *err ? err : "not verified"));
        row_add(s->name, want, seen, status == 0);
        g_free(want);
        g_free(seen);
        g_free(err);
        g_free(img);
    }
    g_free(out);
    g_free(log);
    g_hash_table_unref(trace.fired);
    g_hash_table_unref(trace.effects);
    g_free(trace.error);
}

/* Rows of one scenario, written so that merge can read them back. */
void save_rows(const char *dir, const char *scenario, unsigned from)
{
    GString *s = g_string_new(NULL);
    char *path = g_build_filename(dir, "result.tsv", NULL);
    unsigned i;

    for (i = from; i < rows->len; i++) {
        Row *r = g_ptr_array_index(rows, i);

        g_string_append_printf(s, "%s\t%s\t%s\t%s\n", scenario,
                               r->expectation, r->seen,
                               r->pass ? "pass" : "FAIL");
    }
    g_file_set_contents(path, s->str, -1, NULL);
    g_string_free(s, TRUE);
    g_free(path);
}
