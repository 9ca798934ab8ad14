/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atalab-explore gen and shrink: a run's scenario drawn at random or
 * mutated from a corpus scenario, and a finding's smaller variants.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"

/* The guest workloads: what the guest does while the rules are loaded. */
typedef struct {
    const char *name;
    const char *run;
    const char *append;     /* extra kernel command line, or NULL */
    const char *pattern;    /* the pattern it writes, POSITION:OFFSET:SIZE:SEED */
    bool guest_fuzz;        /* run is a format of guest-fuzz's seed and calls */
} Workload;

/* A workload as drawn: guest-fuzz's seed and number of calls with it. */
typedef struct {
    const Workload *w;
    unsigned seed, ops;
    const char *model;      /* the personality */
    const char *ide_mode;   /* ich5's native channels, or NULL: legacy */
} Work;

#define GUEST_OPS 60
/*
 * guest-fuzz (tools/guest-fuzz) on the disk and the CD-ROM: a seeded
 * stream of calls of some classes, stopped at 45 s so that a run whose
 * calls keep timing out still ends inside the guest's timeout.
 */
#define GUEST_FUZZ(classes) \
    "guest-fuzz --seed %u --ops %u --classes " classes " --time-limit 45 " \
    "/dev/$DISK0 /dev/$CDROM"

/*
 * A pattern written, acknowledged (EXPLORE_WRITTEN on stdout) and read back
 * in the guest; the scenario's `pattern =` expectation then checks the
 * disk image on the host (the lost-write oracle, tools/lib/explore.sh).
 */
#define EXPLORE_WRITTEN "explore: pattern written"
#define WRITE_VERIFY(where) \
    "ata-pattern write /dev/$DISK0 " where " --direct && echo '" EXPLORE_WRITTEN "' && " \
    "ata-pattern verify /dev/$DISK0 " where " --direct"

static const Workload workloads[] = {
    { "probe", "true", NULL },
    { "read-dma", "dd if=/dev/$DISK0 of=/dev/null bs=64k count=128 iflag=direct", NULL },
    { "read-pio", "dd if=/dev/$DISK0 of=/dev/null bs=64k count=16 iflag=direct",
      "libata.dma=0" },
    { "write-dma", WRITE_VERIFY("--offset 4M --size 2M --seed 9"), NULL, "0:4M:2M:9" },
    { "write-flush", "dd if=/dev/zero of=/dev/$DISK0 bs=4k count=16 seek=900 conv=fsync",
      NULL },
    { "pattern", WRITE_VERIFY("--size 1M --seed 5"), NULL, "0:0:1M:5" },
    { "pattern-pio", WRITE_VERIFY("--size 256K --seed 6"), "libata.dma=0", "0:0:256K:6" },
    { "smart", "smartctl -a /dev/$DISK0; hdparm -I /dev/$DISK0", NULL },
    { "mixed", "dd if=/dev/$DISK0 of=/dev/null bs=4k count=64 skip=2000 iflag=direct; "
      "dd if=/dev/zero of=/dev/$DISK0 bs=4k count=8 seek=3000 oflag=direct conv=fsync; "
      "hdparm -f /dev/$DISK0", NULL },
    { "passthrough", GUEST_FUZZ("passthrough,scsi"), NULL, NULL, true },
    { "ioctl", GUEST_FUZZ("ioctl,sysfs"), NULL, NULL, true },
};

/* Fault kinds (docs/faults.md) and the keys each one takes. */
enum { K_CLASS = 1, K_LBA = 2, K_DELAY = 4, K_FOR = 8, K_VIOLATION = 16,
       K_BITS = 32, K_DIR = 64, K_IRQ = 128, K_LOSS = 256, K_TIMED = 512,
       K_WORD = 1024, K_STATUS = 2048 };

typedef struct {
    const char *kind;
    unsigned keys;
    const char *classes;    /* the classes it applies to, ';'-separated */
} Kind;

static const Kind kinds[] = {
    { "unc", K_CLASS | K_LBA, "read" },
    { "amnf", K_CLASS | K_LBA, "read" },
    { "idnf", K_CLASS | K_LBA, "read;write;any" },
    { "abrt", K_CLASS | K_LBA, "read;write;flush;identify;other;any" },
    { "write-fault", K_CLASS | K_LBA, "write" },
    { "df", K_CLASS | K_LBA, "read;write;flush;any" },
    { "icrc", K_CLASS | K_LBA, "read;write" },
    { "timeout", K_CLASS | K_LBA, "read;write;flush;identify;other;any" },
    { "lost-irq", K_CLASS | K_LBA, "read;write;flush;identify;other;any" },
    { "spurious-irq", K_CLASS | K_LBA | K_TIMED, "read;write;flush;any" },
    { "bm-error", K_CLASS | K_LBA | K_IRQ, "read;write" },
    { "protocol", K_CLASS | K_LBA | K_VIOLATION, "read;write;identify;any" },
    { "latency", K_CLASS | K_LBA | K_DELAY, "read;write;flush;any" },
    { "reset-fail", K_FOR, NULL },
    { "remove", K_CLASS | K_LBA | K_FOR | K_TIMED, "read;write;flush;any" },
    { "corrupt", K_LBA | K_BITS | K_DIR, NULL },
    { "power-cut", K_CLASS | K_LBA | K_LOSS | K_TIMED, "write;flush;any" },
    { "identify-data", K_WORD, NULL },
    { "end-status", K_CLASS | K_LBA | K_STATUS, "read;write;flush;identify;other;any" },
};

/*
 * Status values a command may end with that no good end has: ERR, DF,
 * DRQ with no data, BSY, none of DRDY, the bus floating (ATA-7 vol. 1,
 * Status); and Error bits (ABRT, IDNF, UNC, ICRC, AMNF, none).
 */
static const unsigned end_statuses[] = { 0x51, 0x71, 0x41, 0x01, 0x58, 0x59, 0x50, 0x00,
                                         0xd0, 0x80, 0x7f, 0xff };
static const unsigned end_errors[] = { 0x04, 0x10, 0x40, 0x84, 0x01, 0x00 };

/*
 * IDENTIFY words a driver reads (ATA8-ACS table 22): configuration,
 * geometry, capabilities, validity, multiple, LBA28 capacity, DMA and PIO
 * modes, ATA version, command sets, Ultra DMA, reset result (cable),
 * LBA48 capacity, sector size, rotation rate; any other word drawn too.
 */
static const unsigned identify_words[] = {
    0, 1, 3, 6, 47, 49, 53, 59, 60, 61, 63, 64, 80, 82, 83, 84, 85, 86, 87, 88,
    93, 100, 101, 102, 103, 106, 117, 118, 217, 222,
};

#define DISK_SECTORS 32768      /* disk-size 16M */
#define MAX_RULES 4

/* What a draw may use (gen's options). */
typedef struct {
    const Kind *kinds[G_N_ELEMENTS(kinds)];
    unsigned n_kinds;
    const Workload *workloads[G_N_ELEMENTS(workloads)];
    unsigned n_workloads;
    unsigned timeout;
    const char *append;
    const char *model;      /* the personality, or NULL: drawn per run */
} DrawLimits;

/*
 * The personalities, and ICH5's firmware leaving both channels native.
 * Not one channel: Intel calls mixed mode undefined and Linux answers only
 * IRQ 14 and 15 then (docs/timing.md), so its runs would be lost
 * interrupts of a configuration no driver should meet.
 */
static const char *const models[] = { "piix3", "piix4", "ich5", "ich5-sata" };
static const char *const ide_modes[] = { "native" };

static const char *pick(GRand *r, const char *list)
{
    g_auto(GStrv) v = g_strsplit(list, ";", -1);
    static char buf[32];

    g_strlcpy(buf, v[g_rand_int_range(r, 0, g_strv_length(v))], sizeof(buf));
    return buf;
}

/* The trigger: which of a rule's matches fire, and how many times. */
static void gen_trigger(GRand *r, GString *g)
{
    switch (g_rand_int_range(r, 0, 5)) {
    case 0:
        g_string_append_printf(g, " on=nth:%d", g_rand_int_range(r, 1, 6));
        return;
    case 1:
        g_string_append_printf(g, " on=after:%d", g_rand_int_range(r, 1, 30));
        break;
    case 2:
        g_string_append_printf(g, " on=every:%d", g_rand_int_range(r, 2, 6));
        break;
    case 3:
        g_string_append_printf(g, " on=prob:0.%d", g_rand_int_range(r, 1, 6));
        break;
    default:
        break;
    }
    switch (g_rand_int_range(r, 0, 3)) {
    case 0:
        g_string_append(g, " times=once");
        break;
    case 1:
        g_string_append_printf(g, " times=%d", g_rand_int_range(r, 2, 8));
        break;
    default:
        g_string_append(g, " times=forever");
        break;
    }
}

/* One rule of KIND with id ID, in the rule-file syntax. */
static char *gen_rule(GRand *r, const Kind *k, const char *id)
{
    GString *g = g_string_new(k->kind);
    static const char *const violations[] = { "drq-count", "status-phase", "irq-early" };
    /* A timed rule (docs/faults.md) fires once at a time of the virtual
     * clock, whatever the drive is doing: idle, too. */
    bool timed = (k->keys & K_TIMED) && !g_rand_int_range(r, 0, 4);

    g_string_append_printf(g, " id=%s drive=0", id);
    if ((k->keys & K_CLASS) && k->classes && !timed) {
        g_string_append_printf(g, " class=%s", pick(r, k->classes));
    }
    /* Half the rules leave probing alone: a range where the workloads go. */
    if ((k->keys & K_LBA) && !timed && g_rand_boolean(r)) {
        g_string_append_printf(g, " lba=%d+%d", g_rand_int_range(r, 0, DISK_SECTORS - 64),
                               g_rand_int_range(r, 1, 65));
    }
    if (k->keys & K_DELAY) {
        g_string_append_printf(g, " delay=%dms", g_rand_int_range(r, 1, 3000));
    }
    if (k->keys & K_FOR) {
        if (g_rand_int_range(r, 0, 4)) {
            g_string_append_printf(g, " for=%dms", g_rand_int_range(r, 10, 4000));
        } else {
            g_string_append(g, " for=forever");
        }
    }
    if (k->keys & K_VIOLATION) {
        g_string_append_printf(g, " violation=%s",
                               violations[g_rand_int_range(r, 0, 3)]);
    }
    if (k->keys & K_BITS) {
        g_string_append_printf(g, " bits=%d", g_rand_int_range(r, 1, 17));
    }
    if (k->keys & K_DIR) {
        g_string_append_printf(g, " dir=%s", g_rand_boolean(r) ? "read" : "write");
    }
    if (k->keys & K_IRQ) {
        g_string_append_printf(g, " irq=%s", g_rand_boolean(r) ? "yes" : "no");
    }
    if (k->keys & K_LOSS) {
        g_string_append_printf(g, " loss=0.%d", g_rand_int_range(r, 1, 10));
    }
    if (k->keys & K_STATUS) {
        g_string_append_printf(g, " status=0x%02x error=0x%02x",
                               end_statuses[g_rand_int_range(r, 0, G_N_ELEMENTS(end_statuses))],
                               end_errors[g_rand_int_range(r, 0, G_N_ELEMENTS(end_errors))]);
    }
    if (k->keys & K_WORD) {
        /* a word set to 0, all ones or anything; or bits flipped */
        int w = g_rand_int_range(r, 0, 4) ?
            (int)identify_words[g_rand_int_range(r, 0, G_N_ELEMENTS(identify_words))] :
            g_rand_int_range(r, 0, 255);

        switch (g_rand_int_range(r, 0, 4)) {
        case 0:
            g_string_append_printf(g, " word=%d value=0x0000", w);
            break;
        case 1:
            g_string_append_printf(g, " word=%d value=0xffff", w);
            break;
        case 2:
            g_string_append_printf(g, " word=%d value=0x%04x", w, g_rand_int_range(r, 0, 0x10000));
            break;
        default:
            g_string_append_printf(g, " bits=%d", g_rand_int_range(r, 1, 9));
            break;
        }
    }
    if (timed) {
        int t0 = g_rand_int_range(r, 1, 41);

        g_string_append_printf(g, " on=time:%ds-%ds", t0, t0 + 1);
    } else {
        gen_trigger(r, g);
    }
    return g_string_free(g, false);
}

static const Workload *workload_named(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(workloads); i++) {
        if (!strcmp(workloads[i].name, name)) {
            return &workloads[i];
        }
    }
    return NULL;
}

static char *random_rule(GRand *r, const DrawLimits *lim, unsigned n)
{
    g_autofree char *id = g_strdup_printf("r%u", n);

    return gen_rule(r, lim->kinds[g_rand_int_range(r, 0, lim->n_kinds)], id);
}

/* The controller drawn: the personality (unless the search has one) and,
 * on ICH5, in half the runs a channel or both in native PCI mode. */
static void draw_controller(GRand *r, const DrawLimits *lim, Work *work)
{
    int m = g_rand_int_range(r, 0, G_N_ELEMENTS(models));
    int native = g_rand_int_range(r, 0, 2 * G_N_ELEMENTS(ide_modes));

    work->model = lim->model ? lim->model : models[m];
    work->ide_mode = g_str_has_prefix(work->model, "ich5") &&
        native < (int)G_N_ELEMENTS(ide_modes) ? ide_modes[native] : NULL;
}

/* WORK drawn afresh: a guest-fuzz seed (from 1) and the default calls. */
static void draw_work(GRand *r, const DrawLimits *lim, Work *work)
{
    work->w = lim->workloads[g_rand_int_range(r, 0, lim->n_workloads)];
    work->seed = work->w->guest_fuzz ? (unsigned)g_rand_int_range(r, 1, G_MAXINT32) : 0;
    work->ops = GUEST_OPS;
}

/* The scenario's description: what load_parent reads back. */
static char *work_description(const Work *work)
{
    if (work->w->guest_fuzz) {
        return g_strdup_printf("explore workload=%s guest-seed=%u guest-ops=%u", work->w->name,
                               work->seed, work->ops);
    }
    return g_strdup_printf("explore workload=%s", work->w->name);
}

static char *work_run(const Work *work)
{
    if (work->w->guest_fuzz) {
        return g_strdup_printf(work->w->run, work->seed, work->ops);
    }
    return g_strdup(work->w->run);
}

static void print_scenario(const Work *work, GPtrArray *rules, const DrawLimits *lim,
                           const char *from)
{
    const Workload *w = work->w;
    g_autofree char *desc = work_description(work);
    g_autofree char *run = work_run(work);

    printf("# Drawn by tools/atalab explore%s%s.\n", from ? " from " : "", from ? from : "");
    printf("[scenario]\ndescription = %s\nmodel = %s\n", desc, work->model);
    if (work->ide_mode) {
        printf("ide-mode = %s\n", work->ide_mode);
    }
    printf("disks = 1\ntimeout = %u\n", lim->timeout);
    if (w->guest_fuzz) {
        printf("cdrom = true\n");
    }
    if (w->append || lim->append) {
        printf("append = %s%s%s\n", w->append ? w->append : "",
               w->append && lim->append ? " " : "", lim->append ? lim->append : "");
    }
    printf("\n[faults]\n");
    for (unsigned i = 0; i < rules->len; i++) {
        if (i) {
            printf("rule.%u = %s\n", i + 1, (char *)rules->pdata[i]);
        } else {
            printf("rule = %s\n", (char *)rules->pdata[i]);
        }
    }
    printf("\n[workload]\nscsi-timeout = 2\nretries = 1\nrun = %s\n\n[expect]\n", run);
    if (w->pattern) {
        printf("pattern = %s\n", w->pattern);
    }
}

/* The [faults] rules of a scenario, in file order, comments dropped. */
static void read_rules(GKeyFile *kf, GPtrArray *rules)
{
    g_auto(GStrv) keys = g_key_file_get_keys(kf, "faults", NULL, NULL);

    for (unsigned i = 0; keys && keys[i]; i++) {
        char *v = g_key_file_get_string(kf, "faults", keys[i], NULL);
        char *hash = v ? strchr(v, '#') : NULL;

        if (hash) {
            *hash = 0;
        }
        g_ptr_array_add(rules, g_strdup(g_strstrip(v)));
        g_free(v);
    }
}

/* The workload a description names (workload=NAME [guest-seed=S
 * guest-ops=N]); false when it names none explore knows. */
static bool parse_work(const char *desc, Work *work)
{
    const char *name = desc ? strstr(desc, "workload=") : NULL;
    const char *seed = desc ? strstr(desc, " guest-seed=") : NULL;
    const char *ops = desc ? strstr(desc, " guest-ops=") : NULL;
    g_autofree char *n = NULL;

    if (!name) {
        return false;
    }
    name += strlen("workload=");
    n = g_strndup(name, strcspn(name, " "));
    work->w = workload_named(n);
    if (!work->w) {
        return false;
    }
    work->seed = seed ? (unsigned)strtoul(seed + strlen(" guest-seed="), NULL, 10) : 0;
    work->ops = ops ? (unsigned)strtoul(ops + strlen(" guest-ops="), NULL, 10) : GUEST_OPS;
    return !work->w->guest_fuzz || (seed && work->ops);
}

/* S as one of the N strings of LIST, or NULL. */
static const char *one_of(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; s && i < n; i++) {
        if (!strcmp(s, list[i])) {
            return list[i];
        }
    }
    return NULL;
}

/* A parent's workload, controller and rules: what gen mutates.  A search
 * with a personality of its own keeps it (a corpus of another search). */
static bool load_parent(const char *path, const DrawLimits *lim, Work *work, GPtrArray *rules)
{
    g_autofree char *model = NULL;
    g_autofree char *ide_mode = NULL;
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_autoptr(GError) err = NULL;
    g_autofree char *desc = NULL;

    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &err)) {
        fprintf(stderr, "atalab-explore: %s: %s\n", path, err->message);
        return false;
    }
    desc = g_key_file_get_string(kf, "scenario", "description", NULL);
    if (!parse_work(desc, work)) {
        fprintf(stderr, "atalab-explore: %s: not a scenario explore drew "
                "(no known workload= in its description)\n", path);
        return false;
    }
    model = g_key_file_get_string(kf, "scenario", "model", NULL);
    ide_mode = g_key_file_get_string(kf, "scenario", "ide-mode", NULL);
    work->model = lim->model ? lim->model : one_of(model ? model : "piix4", models,
                                                   G_N_ELEMENTS(models));
    if (!work->model) {
        fprintf(stderr, "atalab-explore: %s: model %s is none explore draws\n", path, model);
        return false;
    }
    work->ide_mode = g_str_has_prefix(work->model, "ich5") ?
        one_of(ide_mode, ide_modes, G_N_ELEMENTS(ide_modes)) : NULL;
    read_rules(kf, rules);
    return true;
}

/* Rule ids r1..rN in order, after a mutation added or dropped one. */
static void renumber(GPtrArray *rules)
{
    for (unsigned i = 0; i < rules->len; i++) {
        g_auto(GStrv) t = g_strsplit(rules->pdata[i], " ", -1);

        for (unsigned j = 0; t[j]; j++) {
            if (g_str_has_prefix(t[j], "id=")) {
                g_free(t[j]);
                t[j] = g_strdup_printf("id=r%u", i + 1);
            }
        }
        g_free(rules->pdata[i]);
        rules->pdata[i] = g_strjoinv(" ", t);
    }
}

/* One mutation of a parent: a rule redrawn, added or dropped, a trigger
 * redrawn, another workload, or the controller drawn again. */
static void mutate(GRand *r, const DrawLimits *lim, Work *work, GPtrArray *rules)
{
    unsigned i = rules->len ? g_rand_int_range(r, 0, rules->len) : 0;

    switch (g_rand_int_range(r, 0, 6)) {
    case 5:
        draw_controller(r, lim, work);
        return;
    case 0:
        draw_work(r, lim, work);
        return;
    case 1:
        if (rules->len < MAX_RULES) {
            g_ptr_array_add(rules, random_rule(r, lim, rules->len + 1));
            return;
        }
        /* fall through */
    case 2:
        if (rules->len > 1) {
            g_ptr_array_remove_index(rules, i);
            renumber(rules);
            return;
        }
        /* fall through */
    case 3: {
        /* The same kind and keys, the trigger drawn again. */
        g_auto(GStrv) t = g_strsplit(rules->pdata[i], " ", -1);
        GString *g = g_string_new(NULL);

        for (unsigned j = 0; t[j]; j++) {
            if (!g_str_has_prefix(t[j], "on=") && !g_str_has_prefix(t[j], "times=")) {
                g_string_append_printf(g, "%s%s", j ? " " : "", t[j]);
            }
        }
        gen_trigger(r, g);
        g_free(rules->pdata[i]);
        rules->pdata[i] = g_string_free(g, false);
        return;
    }
    default:
        g_free(rules->pdata[i]);
        rules->pdata[i] = random_rule(r, lim, i + 1);
        return;
    }
}

static int draw_scenario(guint64 seed, const DrawLimits *lim, const char *parent)
{
    GRand *r = g_rand_new_with_seed_array((const guint32[]) { seed, seed >> 32 }, 2);
    g_autoptr(GPtrArray) rules = g_ptr_array_new_with_free_func(g_free);
    Work work;

    if (parent) {
        if (!load_parent(parent, lim, &work, rules)) {
            return 2;
        }
        for (int n = g_rand_int_range(r, 1, 3); n > 0; n--) {
            mutate(r, lim, &work, rules);
        }
    } else {
        draw_work(r, lim, &work);
        draw_controller(r, lim, &work);
        for (int n = g_rand_int_range(r, 1, 3); n > 0; n--) {
            g_ptr_array_add(rules, random_rule(r, lim, rules->len + 1));
        }
    }
    print_scenario(&work, rules, lim, parent);
    g_rand_free(r);
    return 0;
}

/* RULE with its KEY= token replaced by KEY=VALUE (added when absent); NULL
 * when the rule already says so. */
static char *rule_with(const char *rule, const char *key, const char *value)
{
    g_auto(GStrv) t = g_strsplit(rule, " ", -1);
    g_autofree char *want = g_strdup_printf("%s=%s", key, value);
    size_t klen = strlen(key);
    bool found = false;

    for (unsigned j = 0; t[j]; j++) {
        if (!strncmp(t[j], key, klen) && t[j][klen] == '=') {
            if (!strcmp(t[j], want)) {
                return NULL;
            }
            g_free(t[j]);
            t[j] = g_strdup(want);
            found = true;
        }
    }
    if (!found) {
        return g_strdup_printf("%s %s", rule, want);
    }
    return g_strjoinv(" ", t);
}

/* RULE with the first (HALF 0) or second half of its lba=START+COUNT
 * range, or NULL when it has no range of two sectors or more. */
static char *rule_lba_half(const char *rule, unsigned half)
{
    const char *at = strstr(rule, " lba=");
    unsigned long long start, count;
    g_autofree char *range = NULL;

    if (!at || sscanf(at, " lba=%llu+%llu", &start, &count) != 2 || count < 2) {
        return NULL;
    }
    range = half ? g_strdup_printf("%llu+%llu", start + count / 2, count - count / 2)
                 : g_strdup_printf("%llu+%llu", start, count / 2);
    return rule_with(rule, "lba", range);
}

static void free_variant(gpointer v)
{
    if (v) {
        g_ptr_array_unref(v);
    }
}

/* A variant to VARIANTS: RULES with rule I replaced by CHANGED (taken). */
static void add_variant(GPtrArray *variants, GPtrArray *rules, unsigned i, char *changed)
{
    GPtrArray *v = g_ptr_array_new_with_free_func(g_free);

    for (unsigned j = 0; j < rules->len; j++) {
        g_ptr_array_add(v, j == i ? changed : g_strdup(rules->pdata[j]));
    }
    g_ptr_array_add(variants, v);
}

/*
 * The Kth smaller variant of a scenario, in the order a minimizer tries
 * them: each rule dropped (while more than one is left), the probe
 * workload, guest-fuzz's first half of its calls, then each rule firing
 * once, then each rule at its first match, then each rule's LBA range
 * halved (its first half, its second).
 * Variants that change nothing are skipped.
 */
int explore_shrink(const char *path, unsigned k)
{
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_autoptr(GError) err = NULL;
    g_autoptr(GPtrArray) rules = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) what = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) variants = g_ptr_array_new_with_free_func(free_variant);
    g_autofree char *desc = NULL;
    g_autofree char *text = NULL;
    bool probe;
    Work work = { 0 };
    int halve = -1;     /* the variant that keeps guest-fuzz's first half */

    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_KEEP_COMMENTS, &err)) {
        fprintf(stderr, "atalab-explore: %s: %s\n", path, err->message);
        return 2;
    }
    read_rules(kf, rules);
    desc = g_key_file_get_string(kf, "scenario", "description", NULL);
    probe = desc && strstr(desc, "workload=probe");

    /* Each variant: its rule list (NULL: the workload becomes probe). */
    for (unsigned i = 0; rules->len > 1 && i < rules->len; i++) {
        GPtrArray *v = g_ptr_array_new_with_free_func(g_free);

        for (unsigned j = 0; j < rules->len; j++) {
            if (j != i) {
                g_ptr_array_add(v, g_strdup(rules->pdata[j]));
            }
        }
        g_ptr_array_add(variants, v);
        g_ptr_array_add(what, g_strdup_printf("rule %u dropped", i + 1));
    }
    if (!probe) {
        g_ptr_array_add(variants, NULL);
        g_ptr_array_add(what, g_strdup("the probe workload"));
    }
    /* guest-fuzz's calls come from its seed alone: its first half is the
     * same calls, fewer. */
    if (parse_work(desc, &work) && work.w->guest_fuzz && work.ops > 1) {
        halve = (int)variants->len;
        g_ptr_array_add(variants, NULL);
        g_ptr_array_add(what, g_strdup_printf("guest-fuzz's first %u calls", work.ops / 2));
    }
    for (unsigned pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < rules->len; i++) {
            char *changed;

            /* An nth:N rule fires once, at one match, already. */
            if (strstr(rules->pdata[i], " on=nth:")) {
                continue;
            }
            changed = pass ? rule_with(rules->pdata[i], "on", "nth:1")
                           : rule_with(rules->pdata[i], "times", "once");
            if (changed) {
                add_variant(variants, rules, i, changed);
                g_ptr_array_add(what, g_strdup_printf("rule %u %s", i + 1,
                                                      pass ? "at its first match" : "firing once"));
            }
        }
    }
    for (unsigned i = 0; i < rules->len; i++) {
        for (unsigned half = 0; half < 2; half++) {
            char *changed = rule_lba_half(rules->pdata[i], half);

            if (!changed) {
                break;
            }
            add_variant(variants, rules, i, changed);
            g_ptr_array_add(what, g_strdup_printf("rule %u's LBA range, its %s half", i + 1,
                                                  half ? "second" : "first"));
        }
    }
    if (k >= variants->len) {
        return 1;
    }
    if ((int)k == halve) {
        g_autofree char *d = NULL;
        g_autofree char *run = NULL;

        work.ops /= 2;
        d = work_description(&work);
        run = work_run(&work);
        g_key_file_set_string(kf, "scenario", "description", d);
        g_key_file_set_string(kf, "workload", "run", run);
    } else if (variants->pdata[k]) {
        GPtrArray *v = variants->pdata[k];

        g_key_file_remove_group(kf, "faults", NULL);
        for (unsigned j = 0; j < v->len; j++) {
            g_autofree char *key = j ? g_strdup_printf("rule.%u", j + 1) : g_strdup("rule");

            g_key_file_set_string(kf, "faults", key, v->pdata[j]);
        }
    } else {
        g_key_file_set_string(kf, "scenario", "description", "explore workload=probe");
        g_key_file_set_string(kf, "workload", "run", "true");
        /* The probe writes no pattern for the image to hold. */
        g_key_file_remove_key(kf, "expect", "pattern", NULL);
    }
    /* [faults] back between [scenario] and [workload]: GKeyFile appends it. */
    text = g_key_file_to_data(kf, NULL, NULL);
    printf("# Shrunk by tools/atalab explore: %s.\n%s", (char *)what->pdata[k], text);
    return 0;
}

/* gen's options after SEED; false (and a message) on a bad one. */
static bool parse_limits(int argc, char **argv, DrawLimits *lim, const char **parent)
{
    g_auto(GStrv) names = NULL;

    *lim = (DrawLimits) { .timeout = 90 };
    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
        lim->kinds[lim->n_kinds++] = &kinds[i];
    }
    for (size_t i = 0; i < G_N_ELEMENTS(workloads); i++) {
        lim->workloads[lim->n_workloads++] = &workloads[i];
    }
    for (int i = 0; i < argc; i++) {
        char *end;

        if (!strcmp(argv[i], "--kinds") && i + 1 < argc) {
            g_strfreev(names);
            names = g_strsplit(argv[++i], ",", -1);
            lim->n_kinds = 0;
            for (unsigned j = 0; names[j]; j++) {
                size_t k;

                for (k = 0; k < G_N_ELEMENTS(kinds) && strcmp(kinds[k].kind, names[j]); k++) {
                }
                if (k == G_N_ELEMENTS(kinds)) {
                    fprintf(stderr, "atalab-explore: --kinds: unknown fault kind '%s' "
                            "(docs/faults.md)\n", names[j]);
                    return false;
                }
                lim->kinds[lim->n_kinds++] = &kinds[k];
                if (lim->n_kinds == G_N_ELEMENTS(kinds)) {
                    break;
                }
            }
        } else if (!strcmp(argv[i], "--workloads") && i + 1 < argc) {
            g_strfreev(names);
            names = g_strsplit(argv[++i], ",", -1);
            lim->n_workloads = 0;
            for (unsigned j = 0; names[j] && lim->n_workloads < G_N_ELEMENTS(workloads); j++) {
                const Workload *w = workload_named(names[j]);

                if (!w) {
                    GString *known = g_string_new(NULL);

                    for (size_t k = 0; k < G_N_ELEMENTS(workloads); k++) {
                        g_string_append_printf(known, "%s%s", k ? " " : "", workloads[k].name);
                    }
                    fprintf(stderr, "atalab-explore: --workloads: unknown workload '%s' "
                            "(known: %s)\n", names[j], known->str);
                    g_string_free(known, true);
                    return false;
                }
                lim->workloads[lim->n_workloads++] = w;
            }
        } else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
            lim->timeout = strtoul(argv[++i], &end, 10);
            if (*end || lim->timeout < 10 || lim->timeout > 3600) {
                fprintf(stderr, "atalab-explore: --timeout wants 10 to 3600 seconds, "
                        "got '%s'\n", argv[i]);
                return false;
            }
        } else if (!strcmp(argv[i], "--model") && i + 1 < argc) {
            lim->model = one_of(argv[++i], models, G_N_ELEMENTS(models));
            if (!lim->model) {
                fprintf(stderr, "atalab-explore: --model: unknown model '%s'\n", argv[i]);
                return false;
            }
        } else if (!strcmp(argv[i], "--append") && i + 1 < argc) {
            lim->append = argv[++i];
            if (strchr(lim->append, '\n')) {
                fprintf(stderr, "atalab-explore: --append: one line\n");
                return false;
            }
        } else if (argv[i][0] != '-' && !*parent) {
            *parent = argv[i];
        } else {
            fprintf(stderr, "atalab-explore: gen: unexpected '%s'\n", argv[i]);
            return false;
        }
    }
    if (!lim->n_kinds || !lim->n_workloads) {
        fprintf(stderr, "atalab-explore: --%s: none named\n", lim->n_kinds ? "workloads" : "kinds");
        return false;
    }
    return true;
}

int explore_gen(guint64 seed, int argc, char **argv)
{
    const char *parent = NULL;
    DrawLimits lim;

    if (!parse_limits(argc, argv, &lim, &parent)) {
        return 2;
    }
    return draw_scenario(seed, &lim, parent);
}
