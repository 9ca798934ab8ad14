/*
 * atalab emulator core: the fault engine -- the rule set, its index, the
 * triggers and the seeded random streams (atalab-fault.h).
 *
 * Index: a rule sits in the bucket of every (drive, command class) it can
 * match; inside a bucket, rules without an LBA range in a list, rules with
 * one in an array sorted by first sector with a running maximum of the
 * last sector, so a lookup is a binary search plus the rules that overlap.
 * The index is rebuilt when the rule set changes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include <glib.h>

#include "fault-internal.h"

#define N_DRIVES        4

typedef struct Bucket {
    GPtrArray *plain;           /* AtalabFaultRule *, no LBA range */
    GPtrArray *ranged;          /* sorted by lba_first */
    uint64_t *max_last;         /* max lba_last of ranged[0..i] */
} Bucket;

struct AtalabFaults {
    uint64_t seed;
    GPtrArray *rules;           /* owned, in order */
    unsigned next_id;
    bool dirty;
    Bucket cmd[N_DRIVES][ATALAB_N_CLASSES];
    Bucket reset[N_DRIVES];
    GPtrArray *timed;
    unsigned kind_count[ATALAB_FAULT_N_KINDS];
};

static void bucket_init(Bucket *b)
{
    b->plain = g_ptr_array_new();
    b->ranged = g_ptr_array_new();
    b->max_last = NULL;
}

static void bucket_clear(Bucket *b)
{
    g_ptr_array_set_size(b->plain, 0);
    g_ptr_array_set_size(b->ranged, 0);
    g_free(b->max_last);
    b->max_last = NULL;
}

static void bucket_fini(Bucket *b)
{
    g_ptr_array_free(b->plain, TRUE);
    g_ptr_array_free(b->ranged, TRUE);
    g_free(b->max_last);
}

static Bucket *each_bucket(AtalabFaults *f, unsigned i)
{
    unsigned n_cmd = N_DRIVES * ATALAB_N_CLASSES;

    if (i < n_cmd) {
        return &f->cmd[i / ATALAB_N_CLASSES][i % ATALAB_N_CLASSES];
    }
    return i < n_cmd + N_DRIVES ? &f->reset[i - n_cmd] : NULL;
}

AtalabFaults *atalab_faults_new(uint64_t seed)
{
    AtalabFaults *f = g_new0(AtalabFaults, 1);
    Bucket *b;
    unsigned i;

    f->seed = seed;
    f->rules = g_ptr_array_new_with_free_func(g_free);
    f->timed = g_ptr_array_new();
    for (i = 0; (b = each_bucket(f, i)); i++) {
        bucket_init(b);
    }
    return f;
}

void atalab_faults_free(AtalabFaults *f)
{
    Bucket *b;
    unsigned i;

    if (!f) {
        return;
    }
    for (i = 0; (b = each_bucket(f, i)); i++) {
        bucket_fini(b);
    }
    g_ptr_array_free(f->timed, TRUE);
    g_ptr_array_free(f->rules, TRUE);
    g_free(f);
}

/* A rule's random stream depends on the seed and its id only. */
static void seed_rule(AtalabFaults *f, AtalabFaultRule *r)
{
    uint64_t h = 14695981039346656037ull;
    const char *c;

    for (c = r->id; *c; c++) {
        h = (h ^ (uint8_t)*c) * 1099511628211ull;
    }
    r->rng = h ^ (f->seed * 0x9E3779B97F4A7C15ull);
}

uint64_t atalab_fault_random(AtalabFaultRule *r)
{
    /* splitmix64 */
    uint64_t z = (r->rng += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void atalab_faults_set_seed(AtalabFaults *f, uint64_t seed)
{
    unsigned i;

    f->seed = seed;
    for (i = 0; i < f->rules->len; i++) {
        seed_rule(f, g_ptr_array_index(f->rules, i));
    }
}

uint64_t atalab_faults_seed(const AtalabFaults *f)
{
    return f->seed;
}

/* Kinds that need no command: due at a virtual time. */
static bool is_timed(const AtalabFaultRule *r)
{
    return (r->kind == ATALAB_FAULT_SPURIOUS_IRQ ||
            r->kind == ATALAB_FAULT_REMOVE ||
            r->kind == ATALAB_FAULT_POWER_CUT) &&
           r->trigger == ATALAB_TRIGGER_WINDOW && r->opcode < 0 &&
           r->packet_op < 0 &&
           r->cls < 0 && !r->has_lba;
}

static gint by_first(gconstpointer a, gconstpointer b)
{
    const AtalabFaultRule *x = *(AtalabFaultRule * const *)a;
    const AtalabFaultRule *y = *(AtalabFaultRule * const *)b;

    if (x->lba_first != y->lba_first) {
        return x->lba_first < y->lba_first ? -1 : 1;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

static void bucket_add(Bucket *b, AtalabFaultRule *r)
{
    g_ptr_array_add(r->has_lba ? b->ranged : b->plain, r);
}

static void bucket_sort(Bucket *b)
{
    unsigned i;
    uint64_t max = 0;

    g_ptr_array_sort(b->ranged, by_first);
    b->max_last = g_new(uint64_t, b->ranged->len + 1);
    for (i = 0; i < b->ranged->len; i++) {
        AtalabFaultRule *r = g_ptr_array_index(b->ranged, i);

        max = MAX(max, r->lba_last);
        b->max_last[i] = max;
    }
}

static void rebuild(AtalabFaults *f)
{
    Bucket *b;
    unsigned i, d, c;

    for (i = 0; (b = each_bucket(f, i)); i++) {
        bucket_clear(b);
    }
    g_ptr_array_set_size(f->timed, 0);
    memset(f->kind_count, 0, sizeof(f->kind_count));
    for (i = 0; i < f->rules->len; i++) {
        AtalabFaultRule *r = g_ptr_array_index(f->rules, i);

        r->order = i;
        f->kind_count[r->kind]++;
        if (is_timed(r)) {
            g_ptr_array_add(f->timed, r);
            continue;
        }
        for (d = 0; d < N_DRIVES; d++) {
            if (r->drive >= 0 && r->drive != (int)d) {
                continue;
            }
            if (r->kind == ATALAB_FAULT_RESET_FAIL) {
                bucket_add(&f->reset[d], r);
                continue;
            }
            for (c = 0; c < ATALAB_N_CLASSES; c++) {
                if (r->cls < 0 || r->cls == (int)c) {
                    bucket_add(&f->cmd[d][c], r);
                }
            }
        }
    }
    for (i = 0; (b = each_bucket(f, i)); i++) {
        bucket_sort(b);
    }
    f->dirty = false;
}

static bool add_rule(AtalabFaults *f, AtalabFaultRule *r, const char *where,
                     unsigned line, char **err)
{
    if (!r->id[0]) {
        do {
            g_snprintf(r->id, sizeof(r->id), "r%u", ++f->next_id);
        } while (atalab_faults_find(f, r->id));
    } else if (atalab_faults_find(f, r->id)) {
        *err = g_strdup_printf("%s:%u:1: a rule with id '%s' exists already",
                               where, line, r->id);
        return false;
    }
    seed_rule(f, r);
    g_ptr_array_add(f->rules, g_memdup2(r, sizeof(*r)));
    f->dirty = true;
    return true;
}

bool atalab_faults_add(AtalabFaults *f, const char *text, const char *where,
                       unsigned line, char **err)
{
    AtalabFaultRule r;
    bool empty;

    if (!atalab_fault_parse_rule(text, where, line, &r, &empty, err)) {
        return false;
    }
    if (empty) {
        *err = g_strdup_printf("%s:%u:1: no rule", where, line);
        return false;
    }
    return add_rule(f, &r, where, line, err);
}

bool atalab_faults_parse_text(AtalabFaults *f, const char *text,
                              const char *where, char **err)
{
    gchar **lines = g_strsplit(text, "\n", -1);
    GArray *parsed = g_array_new(FALSE, FALSE, sizeof(AtalabFaultRule));
    GArray *at = g_array_new(FALSE, FALSE, sizeof(unsigned));
    bool ok = true;
    unsigned i, n = f->rules->len;

    for (i = 0; lines[i] && ok; i++) {
        AtalabFaultRule r;
        bool empty;

        ok = atalab_fault_parse_rule(lines[i], where, i + 1, &r, &empty, err);
        if (ok && !empty) {
            unsigned line = i + 1;

            g_array_append_val(parsed, r);
            g_array_append_val(at, line);
        }
    }
    for (i = 0; ok && i < parsed->len; i++) {
        ok = add_rule(f, &g_array_index(parsed, AtalabFaultRule, i), where,
                      g_array_index(at, unsigned, i), err);
    }
    if (!ok) {
        /* All or nothing: drop what this file added. */
        g_ptr_array_set_size(f->rules, n);
        f->dirty = true;
    }
    g_array_free(parsed, TRUE);
    g_array_free(at, TRUE);
    g_strfreev(lines);
    return ok;
}

bool atalab_faults_load(AtalabFaults *f, const char *path, char **err)
{
    gchar *text;
    GError *gerr = NULL;
    bool ok;

    if (!g_file_get_contents(path, &text, NULL, &gerr)) {
        *err = g_strdup_printf("%s: %s", path, gerr->message);
        g_error_free(gerr);
        return false;
    }
    ok = atalab_faults_parse_text(f, text, path, err);
    g_free(text);
    return ok;
}

bool atalab_faults_remove(AtalabFaults *f, const char *id)
{
    unsigned i;

    for (i = 0; i < f->rules->len; i++) {
        AtalabFaultRule *r = g_ptr_array_index(f->rules, i);

        if (!strcmp(r->id, id)) {
            g_ptr_array_remove_index(f->rules, i);
            f->dirty = true;
            return true;
        }
    }
    return false;
}

void atalab_faults_clear(AtalabFaults *f)
{
    g_ptr_array_set_size(f->rules, 0);
    f->dirty = true;
}

bool atalab_faults_have_kind(AtalabFaults *f, AtalabFaultKind kind)
{
    if (!f || !f->rules->len) {
        return false;
    }
    if (f->dirty) {
        rebuild(f);
    }
    return f->kind_count[kind] > 0;
}

unsigned atalab_faults_count(const AtalabFaults *f)
{
    return f->rules->len;
}

const AtalabFaultRule *atalab_faults_rule(const AtalabFaults *f, unsigned i)
{
    return i < f->rules->len ? g_ptr_array_index(f->rules, i) : NULL;
}

const AtalabFaultRule *atalab_faults_find(const AtalabFaults *f,
                                          const char *id)
{
    unsigned i;

    for (i = 0; i < f->rules->len; i++) {
        const AtalabFaultRule *r = g_ptr_array_index(f->rules, i);

        if (!strcmp(r->id, id)) {
            return r;
        }
    }
    return NULL;
}

static void append_duration(GString *s, const char *key, int64_t ns)
{
    if (ns == ATALAB_FAULT_NEVER_ENDS) {
        g_string_append_printf(s, " %s=forever", key);
    } else if (ns % 1000000 == 0) {
        g_string_append_printf(s, " %s=%" PRId64 "ms", key, ns / 1000000);
    } else {
        g_string_append_printf(s, " %s=%" PRId64 "ns", key, ns);
    }
}

static void append_rule(GString *s, const AtalabFaultRule *r)
{
    static const char *const triggers[] = {
        [ATALAB_TRIGGER_ALWAYS] = "always",
        [ATALAB_TRIGGER_NTH] = "nth",
        [ATALAB_TRIGGER_AFTER] = "after",
        [ATALAB_TRIGGER_EVERY] = "every",
        [ATALAB_TRIGGER_PROB] = "prob",
        [ATALAB_TRIGGER_WINDOW] = "time",
    };

    g_string_append_printf(s, "%s id=%s", atalab_fault_kind_name(r->kind),
                           r->id);
    if (r->drive >= 0) {
        g_string_append_printf(s, " drive=%d", r->drive);
    }
    if (r->opcode >= 0) {
        g_string_append_printf(s, " cmd=0x%02x", r->opcode);
    }
    if (r->packet_op >= 0) {
        g_string_append_printf(s, " cdb=0x%02x", r->packet_op);
    }
    if (r->cls >= 0) {
        g_string_append_printf(s, " class=%s", atalab_cmd_class_name(r->cls));
    }
    if (r->has_lba) {
        g_string_append_printf(s, " lba=%" PRIu64 "-%" PRIu64, r->lba_first,
                               r->lba_last);
    }
    g_string_append_printf(s, " on=%s", triggers[r->trigger]);
    switch (r->trigger) {
    case ATALAB_TRIGGER_NTH:
    case ATALAB_TRIGGER_AFTER:
    case ATALAB_TRIGGER_EVERY:
        g_string_append_printf(s, ":%" PRIu64, r->n);
        break;
    case ATALAB_TRIGGER_PROB:
        g_string_append_printf(s, ":%.6g", r->p_scaled / 4294967296.0);
        break;
    case ATALAB_TRIGGER_WINDOW:
        g_string_append_printf(s, ":%" PRId64 "ms-", r->t0 / 1000000);
        if (r->t1 == ATALAB_FAULT_NEVER_ENDS) {
            g_string_append(s, "forever");
        } else {
            g_string_append_printf(s, "%" PRId64 "ms", r->t1 / 1000000);
        }
        break;
    case ATALAB_TRIGGER_ALWAYS:
        break;
    }
    if (r->times) {
        g_string_append_printf(s, " times=%" PRIu64, r->times);
    } else {
        g_string_append(s, " times=forever");
    }
    if (r->duration) {
        append_duration(s, r->kind == ATALAB_FAULT_LATENCY ? "delay" : "for",
                        r->duration);
    }
    if (r->kind == ATALAB_FAULT_PROTOCOL) {
        g_string_append_printf(s, " violation=%s",
                               atalab_fault_violation_name(r->violation));
    }
    if (r->kind == ATALAB_FAULT_CORRUPT) {
        g_string_append_printf(s, " bits=%u dir=%s", r->bits,
                               r->on_write ? "write" : "read");
    }
    if (r->kind == ATALAB_FAULT_IDENTIFY_DATA) {
        if (r->word >= 0) {
            g_string_append_printf(s, " word=%d", r->word);
        }
        if (r->value >= 0) {
            g_string_append_printf(s, " value=0x%04x", r->value);
        } else {
            g_string_append_printf(s, " bits=%u", r->bits);
        }
    }
    if (r->kind == ATALAB_FAULT_END_STATUS) {
        g_string_append_printf(s, " status=0x%02x error=0x%02x",
                               r->status_value,
                               r->error_value >= 0 ? r->error_value : 0);
    }
    if (r->kind == ATALAB_FAULT_BM_ERROR) {
        g_string_append_printf(s, " irq=%s", r->irq ? "yes" : "no");
    }
    if (r->kind == ATALAB_FAULT_POWER_CUT) {
        g_string_append_printf(s, " loss=%.6g",
                               r->loss_scaled / 4294967296.0);
    }
    if (r->has_sense) {
        g_string_append_printf(s, " sense=%x/%02x/%02x", r->sense_key, r->asc,
                               r->ascq);
    }
}

char *atalab_fault_rule_text(const AtalabFaultRule *r)
{
    GString *s = g_string_new(NULL);

    append_rule(s, r);
    return g_string_free(s, FALSE);
}

char *atalab_faults_list(const AtalabFaults *f)
{
    GString *s = g_string_new(NULL);
    unsigned i;

    for (i = 0; i < f->rules->len; i++) {
        const AtalabFaultRule *r = g_ptr_array_index(f->rules, i);

        append_rule(s, r);
        g_string_append_printf(s, " matches=%" PRIu64 " fired=%" PRIu64 "\n",
                               r->matches, r->fired);
    }
    return g_string_free(s, FALSE);
}

/* A rule that passed the filters: count the match, decide on firing. */
static bool triggers(AtalabFaultRule *r, int64_t now)
{
    bool fire = false;

    r->matches++;
    if (r->times && r->fired >= r->times) {
        return false;
    }
    switch (r->trigger) {
    case ATALAB_TRIGGER_ALWAYS:
        fire = true;
        break;
    case ATALAB_TRIGGER_NTH:
        fire = r->matches == r->n;
        break;
    case ATALAB_TRIGGER_AFTER:
        fire = r->matches > r->n;
        break;
    case ATALAB_TRIGGER_EVERY:
        fire = r->matches % r->n == 0;
        break;
    case ATALAB_TRIGGER_PROB:
        fire = (atalab_fault_random(r) >> 32) < r->p_scaled;
        break;
    case ATALAB_TRIGGER_WINDOW:
        fire = now >= r->t0 && now <= r->t1;
        break;
    }
    if (fire) {
        r->fired++;
    }
    return fire;
}

static void add_hit(AtalabFaultHits *hits, AtalabFaultRule *r, uint64_t lba)
{
    unsigned i;

    if (hits->n == ATALAB_FAULT_MAX_HITS) {
        return;
    }
    /* Keep rule order. */
    for (i = hits->n; i > 0 && hits->rule[i - 1]->order > r->order; i--) {
        hits->rule[i] = hits->rule[i - 1];
        hits->lba[i] = hits->lba[i - 1];
    }
    hits->rule[i] = r;
    hits->lba[i] = lba;
    hits->n++;
}

static void consider(AtalabFaultRule *r, const AtalabFaultQuery *q,
                     AtalabFaultHits *hits)
{
    if (r->opcode >= 0 && r->opcode != q->opcode) {
        return;
    }
    /* cdb= and sense rules match packet commands only */
    if ((r->packet_op >= 0 || r->kind == ATALAB_FAULT_SENSE) &&
        (!q->packet || (r->packet_op >= 0 &&
                        r->packet_op != q->packet_op))) {
        return;
    }
    if (r->kind == ATALAB_FAULT_ICRC && !q->udma) {
        return;                 /* only an Ultra DMA burst has a CRC */
    }
    if (triggers(r, q->now)) {
        uint64_t lba = q->lba;

        if (r->has_lba && lba < r->lba_first) {
            lba = r->lba_first;
        }
        add_hit(hits, r, lba);
    }
}

static void lookup_bucket(Bucket *b, const AtalabFaultQuery *q,
                          AtalabFaultHits *hits)
{
    uint64_t q0 = q->lba, q1 = q->lba + (q->count ? q->count - 1 : 0);
    unsigned i, lo = 0, hi = b->ranged->len;

    for (i = 0; i < b->plain->len; i++) {
        consider(g_ptr_array_index(b->plain, i), q, hits);
    }
    if (!q->has_lba || !b->ranged->len) {
        return;
    }
    /* The first rule starting after q1: everything before may overlap. */
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        AtalabFaultRule *r = g_ptr_array_index(b->ranged, mid);

        if (r->lba_first <= q1) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (i = lo; i > 0 && b->max_last[i - 1] >= q0; i--) {
        AtalabFaultRule *r = g_ptr_array_index(b->ranged, i - 1);

        if (r->lba_last >= q0) {
            consider(r, q, hits);
        }
    }
}

void atalab_faults_match(AtalabFaults *f, const AtalabFaultQuery *q,
                         AtalabFaultHits *hits)
{
    hits->n = 0;
    if (!f || !f->rules->len || q->drive >= N_DRIVES) {
        return;
    }
    if (f->dirty) {
        rebuild(f);
    }
    if (q->reset) {
        lookup_bucket(&f->reset[q->drive], q, hits);
    } else {
        lookup_bucket(&f->cmd[q->drive][q->cls % ATALAB_N_CLASSES], q, hits);
    }
}

int64_t atalab_faults_next_timed(const AtalabFaults *f, int64_t now)
{
    int64_t next = -1;
    unsigned i;

    if (!f) {
        return -1;
    }
    for (i = 0; i < f->rules->len; i++) {
        const AtalabFaultRule *r = g_ptr_array_index(f->rules, i);
        int64_t t;

        if (!is_timed(r) || r->fired || now > r->t1) {
            continue;
        }
        t = MAX(r->t0, now);
        if (next < 0 || t < next) {
            next = t;
        }
    }
    return next;
}

void atalab_faults_take_timed(AtalabFaults *f, int64_t now, unsigned drive,
                              AtalabFaultHits *hits)
{
    unsigned i;

    hits->n = 0;
    if (!f) {
        return;
    }
    for (i = 0; i < f->rules->len; i++) {
        AtalabFaultRule *r = g_ptr_array_index(f->rules, i);

        if (!is_timed(r) || (r->drive >= 0 && r->drive != (int)drive) ||
            now < r->t0 || now > r->t1) {
            continue;
        }
        /* A drive=any rule fires on each drive, once. */
        if (r->fired >= (r->drive < 0 ? N_DRIVES : 1u)) {
            continue;
        }
        r->matches++;
        r->fired++;
        add_hit(hits, r, 0);
    }
}
