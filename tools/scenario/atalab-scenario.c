/*
 * atalab-scenario: fault-injection runs with a verdict (docs/scenarios.md).
 *
 * A scenario file (GKeyFile: [scenario], [faults], [workload], [expect])
 * names the machine, the fault rules and seed, the guest workload and what
 * must come out: the workload's exit status, kernel log lines that must
 * and must not appear (in order where asked), sysfs values, per-rule
 * firing counts, data that must verify on the disk image afterwards, and
 * timing violations.  This program checks scenario files (errors as
 * FILE:LINE:COLUMN), runs them through `tools/atalab run` (N guests at a
 * time), evaluates every expectation, and prints a table and JUnit XML.
 * Fault rules are checked by the emulator core's own parser (fault.c,
 * fault-parse.c are linked in), located in the scenario file.
 * For campaigns larger than one machine it writes one self-contained job
 * per scenario run and merges the results the jobs leave.
 *
 *   atalab-scenario check FILE...
 *   atalab-scenario run [--jobs N] [--junit FILE] [--driver M] FILE...
 *   atalab-scenario emit-jobs [--driver M] DIR FILE...
 *   atalab-scenario run-one [--driver M] FILE OUTDIR
 *   atalab-scenario merge [--junit FILE] DIR
 *
 * --driver M runs every scenario with module M instead of its own driver
 * (the same expectations for another driver).
 * The atalab command is $ATALAB_ROOT/tools/atalab; ata-pattern (for data
 * checks) is $ATALAB_PATTERN.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "atalab-fault.h"
#include "trace-read.h"

#define MAX_POSITIONS   4

typedef struct Pattern {
    unsigned position;
    char *offset, *size, *seed;
} Pattern;

typedef struct Scenario {
    char *path;
    char *name;
    char *description;
    char *model, *cable, *driver, *append, *disk_size;
    unsigned disks;
    guint64 seed;
    unsigned timeout;
    GPtrArray *rules;           /* char *: rule lines */
    GPtrArray *rule_ids;        /* char *: their ids */
    char *setup;                /* guest commands before the faults */
    char *run;                  /* the workload */
    int scsi_timeout;           /* -1: leave */
    int retries;                /* -1: leave */
    /* expectations */
    bool has_exit;
    int exit_status;
    GPtrArray *log;             /* must appear */
    bool log_in_order;
    GPtrArray *no_log;          /* must not appear */
    GPtrArray *sysfs;           /* "dev1.0/xfer_mode=XFER_UDMA_2" */
    GPtrArray *fired;           /* "id=N", "id>=N" */
    GPtrArray *stdout_has;
    GPtrArray *patterns;        /* Pattern * */
    bool has_violations;
    unsigned violations;
    GPtrArray *effects;         /* Effect *: rules whose effect is checked */
} Scenario;

/*
 * effect = ID: what a firing of the rule does, as the trace shows it
 * (docs/scenarios.md): latency delays its command's end by the rule's
 * delay; spurious-irq raises INTRQ; lost-irq ends its command without.
 */
typedef struct Effect {
    char *id;
    AtalabFaultKind kind;
    int64_t delay;              /* latency: the rule's delay= */
} Effect;

typedef struct Row {
    char *scenario, *expectation, *seen;
    bool pass;
} Row;

static GPtrArray *rows;         /* Row *, of every scenario run */
static const char *atalab_root;
static const char *driver_override; /* --driver: replaces [scenario] driver */

/* ---- small helpers -------------------------------------------------------- */

static void add_row(const char *scenario, const char *expectation,
                    const char *seen, bool pass)
{
    Row *r = g_new0(Row, 1);

    r->scenario = g_strdup(scenario);
    r->expectation = g_strdup(expectation);
    r->seen = g_strdup(seen);
    r->pass = pass;
    g_ptr_array_add(rows, r);
}

static GPtrArray *strv(void)
{
    return g_ptr_array_new_with_free_func(g_free);
}

/* The line and column of "key = value"'s value in the file, for errors. */
static void locate(const char *text, const char *group, const char *key,
                   unsigned *line, unsigned *col)
{
    gchar **lines = g_strsplit(text, "\n", -1);
    bool in_group = false;
    unsigned i;

    *line = 1;
    *col = 1;
    for (i = 0; lines[i]; i++) {
        char *l = g_strstrip(g_strdup(lines[i]));

        if (l[0] == '[') {
            char *want = g_strdup_printf("[%s]", group);

            in_group = !strcmp(l, want);
            g_free(want);
            if (in_group && !key) {
                *line = i + 1;
                g_free(l);
                break;
            }
        } else if (in_group && key) {
            const char *raw = lines[i];
            const char *k = raw + strspn(raw, " \t");
            size_t n = strlen(key);

            if (!strncmp(k, key, n) && (k[n] == '=' || k[n] == ' ' ||
                                        k[n] == '\t')) {
                const char *eq = strchr(k, '=');

                *line = i + 1;
                *col = eq ? (unsigned)(eq + 1 - raw) + 1 : 1;
                if (eq) {
                    *col += strspn(eq + 1, " \t");
                }
                g_free(l);
                break;
            }
        }
        g_free(l);
    }
    g_strfreev(lines);
}

typedef struct Loader {
    const char *path;
    const char *text;
    GKeyFile *kf;
    GString *errors;
} Loader;

static bool bad(Loader *ld, const char *group, const char *key,
                const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static bool bad(Loader *ld, const char *group, const char *key,
                const char *fmt, ...)
{
    va_list ap;
    unsigned line, col;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    locate(ld->text, group, key, &line, &col);
    g_string_append_printf(ld->errors, "%s:%u:%u: %s\n", ld->path, line, col,
                           msg);
    g_free(msg);
    return false;
}

static char *get(Loader *ld, const char *group, const char *key,
                 const char *dflt)
{
    char *v = g_key_file_get_string(ld->kf, group, key, NULL);

    return v ? g_strstrip(v) : g_strdup(dflt);
}

static bool get_uint(Loader *ld, const char *group, const char *key,
                     guint64 dflt, guint64 max, guint64 *out)
{
    char *v = get(ld, group, key, NULL), *end;

    *out = dflt;
    if (!v) {
        return true;
    }
    errno = 0;
    *out = g_ascii_strtoull(v, &end, 10);
    if (!*v || *end || errno || *out > max) {
        bad(ld, group, key, "%s wants a number from 0 to %" G_GUINT64_FORMAT
            ", got '%s'", key, max, v);
        g_free(v);
        return false;
    }
    g_free(v);
    return true;
}

/* "a; b; c" (GKeyFile list syntax) into the array. */
static void get_list(Loader *ld, const char *group, const char *key,
                     GPtrArray *into)
{
    gchar **items = g_key_file_get_string_list(ld->kf, group, key, NULL,
                                               NULL);
    unsigned i;

    for (i = 0; items && items[i]; i++) {
        char *s = g_strstrip(g_strdup(items[i]));

        if (*s) {
            g_ptr_array_add(into, s);
        } else {
            g_free(s);
        }
    }
    g_strfreev(items);
}

static bool known_keys(Loader *ld, const char *group,
                       const char *const *keys)
{
    gchar **have = g_key_file_get_keys(ld->kf, group, NULL, NULL);
    bool ok = true;
    unsigned i, j;

    for (i = 0; have && have[i]; i++) {
        for (j = 0; keys[j] && strcmp(keys[j], have[i]); j++) {
            /* look for it */
        }
        if (!keys[j] && !(keys == NULL)) {
            /* "rule" keys of [faults]: rule, rule.NAME */
            if (!strcmp(group, "faults") &&
                (!strcmp(have[i], "rule") ||
                 g_str_has_prefix(have[i], "rule."))) {
                continue;
            }
            ok = bad(ld, group, have[i], "unknown key '%s' in [%s]", have[i],
                     group);
        }
    }
    g_strfreev(have);
    return ok;
}

/* The id a rule line names, or the one the device will give it. */
static char *rule_id(const char *rule, unsigned index)
{
    const char *p = strstr(rule, " id=");
    size_t n;

    if (!p) {
        return g_strdup_printf("r%u", index + 1);
    }
    p += 4;
    n = strcspn(p, " \t#");
    return g_strndup(p, n);
}

static bool load_effects(Loader *ld, Scenario *s)
{
    g_autoptr(GPtrArray) ids = strv();
    bool ok = true;
    unsigned i, k;

    get_list(ld, "expect", "effect", ids);
    for (i = 0; i < ids->len; i++) {
        const char *id = g_ptr_array_index(ids, i);
        AtalabFaults *f = atalab_faults_new(0);
        const AtalabFaultRule *r;
        Effect *e;
        char *err = NULL;

        for (k = 0; k < s->rule_ids->len &&
             strcmp(id, g_ptr_array_index(s->rule_ids, k)); k++) {
        }
        if (k == s->rule_ids->len) {
            ok = bad(ld, "expect", "effect", "effect names rule '%s', which "
                     "[faults] does not have", id);
            continue;
        }
        if (!atalab_faults_add(f, g_ptr_array_index(s->rules, k), "", 1,
                               &err)) {
            g_free(err);        /* reported by [faults] already */
            atalab_faults_free(f);
            ok = false;
            continue;
        }
        r = atalab_faults_rule(f, 0);
        if (r->kind != ATALAB_FAULT_LATENCY &&
            r->kind != ATALAB_FAULT_SPURIOUS_IRQ &&
            r->kind != ATALAB_FAULT_LOST_IRQ) {
            ok = bad(ld, "expect", "effect", "effect checks latency, "
                     "spurious-irq and lost-irq rules; '%s' is a %s rule",
                     id, atalab_fault_kind_name(r->kind));
        } else {
            e = g_new0(Effect, 1);
            e->id = g_strdup(id);
            e->kind = r->kind;
            e->delay = r->duration;
            g_ptr_array_add(s->effects, e);
        }
        atalab_faults_free(f);
    }
    return ok;
}

static bool load_expect(Loader *ld, Scenario *s)
{
    static const char *const keys[] = {
        "exit", "log", "log-in-order", "no-log", "sysfs", "fired", "stdout",
        "pattern", "violations", "effect", NULL,
    };
    GPtrArray *pats = strv();
    bool ok = known_keys(ld, "expect", keys);
    guint64 v;
    unsigned i;

    if (g_key_file_has_key(ld->kf, "expect", "exit", NULL)) {
        ok &= get_uint(ld, "expect", "exit", 0, 255, &v);
        s->has_exit = true;
        s->exit_status = v;
    }
    get_list(ld, "expect", "log", s->log);
    get_list(ld, "expect", "no-log", s->no_log);
    get_list(ld, "expect", "sysfs", s->sysfs);
    get_list(ld, "expect", "fired", s->fired);
    get_list(ld, "expect", "stdout", s->stdout_has);
    if (g_key_file_has_key(ld->kf, "expect", "log-in-order", NULL)) {
        GError *e = NULL;

        s->log_in_order = g_key_file_get_boolean(ld->kf, "expect",
                                                 "log-in-order", &e);
        if (e) {
            ok = bad(ld, "expect", "log-in-order", "log-in-order wants true "
                     "or false");
            g_error_free(e);
        }
    }
    if (g_key_file_has_key(ld->kf, "expect", "violations", NULL)) {
        ok &= get_uint(ld, "expect", "violations", 0, 1000000, &v);
        s->has_violations = true;
        s->violations = v;
    }
    for (i = 0; i < s->sysfs->len; i++) {
        const char *e = g_ptr_array_index(s->sysfs, i);

        if (!strchr(e, '=') || strstr(e, "..") || e[0] == '/') {
            ok = bad(ld, "expect", "sysfs", "sysfs wants "
                     "DEVICE/ATTRIBUTE=VALUE (under /sys/class/ata_device), "
                     "got '%s'", e);
        }
    }
    for (i = 0; i < s->fired->len; i++) {
        const char *e = g_ptr_array_index(s->fired, i);
        const char *op = strpbrk(e, ">=<");
        char *id;
        unsigned k;
        bool known = false;

        if (!op || !g_ascii_isdigit(op[op[1] == '=' ? 2 : 1])) {
            ok = bad(ld, "expect", "fired", "fired wants ID=N, ID>=N or "
                     "ID<=N, got '%s'", e);
            continue;
        }
        id = g_strndup(e, op - e);
        for (k = 0; k < s->rule_ids->len; k++) {
            known |= !strcmp(id, g_ptr_array_index(s->rule_ids, k));
        }
        if (!known) {
            ok = bad(ld, "expect", "fired", "fired names rule '%s', which "
                     "[faults] does not have", id);
        }
        g_free(id);
    }
    ok &= load_effects(ld, s);
    get_list(ld, "expect", "pattern", pats);
    for (i = 0; i < pats->len; i++) {
        gchar **f = g_strsplit(g_ptr_array_index(pats, i), ":", -1);
        guint64 pos;
        char *end;

        if (g_strv_length(f) != 4 ||
            !(pos = g_ascii_strtoull(f[0], &end, 10), !*end && *f[0]) ||
            pos >= s->disks) {
            ok = bad(ld, "expect", "pattern", "pattern wants POSITION:"
                     "OFFSET:SIZE:SEED with a position below disks=%u, got "
                     "'%s'", s->disks,
                     (const char *)g_ptr_array_index(pats, i));
        } else {
            Pattern *p = g_new0(Pattern, 1);

            p->position = pos;
            p->offset = g_strdup(f[1]);
            p->size = g_strdup(f[2]);
            p->seed = g_strdup(f[3]);
            g_ptr_array_add(s->patterns, p);
        }
        g_strfreev(f);
    }
    g_ptr_array_free(pats, TRUE);
    return ok;
}

static void effect_free(gpointer p)
{
    Effect *e = p;

    g_free(e->id);
    g_free(e);
}

static void scenario_free(Scenario *s)
{
    unsigned i;

    if (!s) {
        return;
    }
    for (i = 0; s->patterns && i < s->patterns->len; i++) {
        Pattern *p = g_ptr_array_index(s->patterns, i);

        g_free(p->offset);
        g_free(p->size);
        g_free(p->seed);
        g_free(p);
    }
    if (s->patterns) {
        g_ptr_array_free(s->patterns, TRUE);
    }
    if (s->effects) {
        g_ptr_array_free(s->effects, TRUE);
    }
    g_free(s->path);
    g_free(s->name);
    g_free(s->description);
    g_free(s->model);
    g_free(s->cable);
    g_free(s->driver);
    g_free(s->append);
    g_free(s->disk_size);
    g_free(s->setup);
    g_free(s->run);
    g_ptr_array_free(s->rules, TRUE);
    g_ptr_array_free(s->rule_ids, TRUE);
    g_ptr_array_free(s->log, TRUE);
    g_ptr_array_free(s->no_log, TRUE);
    g_ptr_array_free(s->sysfs, TRUE);
    g_ptr_array_free(s->fired, TRUE);
    g_ptr_array_free(s->stdout_has, TRUE);
    g_free(s);
}

/* Parse and check a scenario file; NULL with the errors on stderr. */
/*
 * The file's lines before GKeyFile reads them, so that a malformed line is
 * located (GKeyFile's own message names no line): each is blank, a
 * comment, a [group] or a key = value.
 */
static bool syntax_ok(Loader *ld)
{
    gchar **lines = g_strsplit(ld->text, "\n", -1);
    bool ok = true;
    unsigned i;

    for (i = 0; lines[i]; i++) {
        const char *l = lines[i] + strspn(lines[i], " \t");
        size_t n = strlen(l);
        const char *eq = strchr(l, '=');

        while (n && (l[n - 1] == ' ' || l[n - 1] == '\t' ||
                     l[n - 1] == '\r')) {
            n--;
        }
        if (!n || l[0] == '#') {
            continue;
        }
        if (l[0] == '[' ? l[n - 1] == ']' && n > 2 :
            eq && eq > l && !strchr(" \t=[", l[0])) {
            continue;
        }
        g_string_append_printf(ld->errors, "%s:%u:%u: expected [group], "
                               "key = value or # comment, got '%.*s'\n",
                               ld->path, i + 1,
                               (unsigned)(l - lines[i]) + 1, (int)n, l);
        ok = false;
    }
    g_strfreev(lines);
    return ok;
}

/* Each rule through the core's parser, its errors located in the file. */
static bool rules_ok(Loader *ld, const char *key, const char *rule,
                     AtalabFaults *f)
{
    char *err = NULL, *msg;
    unsigned line, col, at = 1;

    if (atalab_faults_add(f, rule, "", 1, &err)) {
        return true;
    }
    /* err is ":1:COLUMN: message", COLUMN in the rule's text */
    msg = strstr(err + 1, ": ");
    sscanf(err, ":1:%u:", &at);
    locate(ld->text, "faults", key, &line, &col);
    g_string_append_printf(ld->errors, "%s:%u:%u: %s\n", ld->path, line,
                           col + at - 1, msg ? msg + 2 : err);
    g_free(err);
    return false;
}

static Scenario *scenario_load(const char *path)
{
    static const char *const groups[] = { "scenario", "faults", "workload",
                                          "expect", NULL };
    static const char *const scenario_keys[] = {
        "description", "model", "cable", "driver", "disks", "disk-size",
        "append", "seed", "timeout", NULL,
    };
    static const char *const workload_keys[] = {
        "setup", "run", "scsi-timeout", "retries", NULL,
    };
    Scenario *s = g_new0(Scenario, 1);
    Loader ld = { path, NULL, g_key_file_new(), g_string_new(NULL) };
    AtalabFaults *faults;
    GError *err = NULL;
    gchar *text = NULL, **have;
    guint64 v;
    bool ok = true;
    unsigned i, j;

    s->path = g_strdup(path);
    s->rules = strv();
    s->rule_ids = strv();
    s->log = strv();
    s->no_log = strv();
    s->sysfs = strv();
    s->fired = strv();
    s->stdout_has = strv();
    s->patterns = g_ptr_array_new();
    s->effects = g_ptr_array_new_with_free_func(effect_free);
    if (!g_file_get_contents(path, &text, NULL, &err)) {
        fprintf(stderr, "%s: %s\n", path, err->message);
        g_error_free(err);
        ok = false;
        goto out;
    }
    ld.text = text;
    if (!syntax_ok(&ld)) {
        ok = false;
        goto out;
    }
    if (!g_key_file_load_from_data(ld.kf, text, -1, G_KEY_FILE_NONE, &err)) {
        /* e.g. a key given twice in a group, or bad UTF-8 */
        fprintf(stderr, "%s:1:1: %s\n", path, err->message);
        g_error_free(err);
        ok = false;
        goto out;
    }
    have = g_key_file_get_groups(ld.kf, NULL);
    for (i = 0; have[i]; i++) {
        for (j = 0; groups[j] && strcmp(groups[j], have[i]); j++) {
            /* look for it */
        }
        if (!groups[j]) {
            ok = bad(&ld, have[i], NULL, "unknown group [%s] (scenario, "
                     "faults, workload, expect)", have[i]);
        }
    }
    g_strfreev(have);
    if (!g_key_file_has_group(ld.kf, "scenario") ||
        !g_key_file_has_key(ld.kf, "workload", "run", NULL)) {
        ok = bad(&ld, "scenario", NULL, "a scenario needs [scenario] and "
                 "[workload] run=");
    }
    ok &= known_keys(&ld, "scenario", scenario_keys);
    ok &= known_keys(&ld, "workload", workload_keys);
    s->name = g_path_get_basename(path);
    if (g_str_has_suffix(s->name, ".scenario")) {
        s->name[strlen(s->name) - strlen(".scenario")] = 0;
    }
    s->description = get(&ld, "scenario", "description", "");
    s->model = get(&ld, "scenario", "model", "piix4");
    s->cable = get(&ld, "scenario", "cable", "");
    s->driver = get(&ld, "scenario", "driver", "ata_piix");
    if (driver_override) {
        g_free(s->driver);
        s->driver = g_strdup(driver_override);
    }
    s->append = get(&ld, "scenario", "append", "");
    s->disk_size = get(&ld, "scenario", "disk-size", "16M");
    if (strcmp(s->model, "piix4") && strcmp(s->model, "piix3") &&
        strcmp(s->model, "ich5") && strcmp(s->model, "ich5-sata")) {
        ok = bad(&ld, "scenario", "model", "model wants piix4, piix3, ich5 "
                 "or ich5-sata, got '%s'", s->model);
    }
    if (*s->cable && strcmp(s->cable, "40") && strcmp(s->cable, "80")) {
        ok = bad(&ld, "scenario", "cable", "cable wants 40 or 80, got '%s'",
                 s->cable);
    }
    if (!g_regex_match_simple("^[A-Za-z0-9_-]+$", s->driver, 0, 0)) {
        ok = bad(&ld, "scenario", "driver", "driver wants a module name, "
                 "got '%s'", s->driver);
    }
    if (!g_regex_match_simple("^[1-9][0-9]*[KMG]?$", s->disk_size, 0, 0)) {
        ok = bad(&ld, "scenario", "disk-size", "disk-size wants a size like "
                 "16M, got '%s'", s->disk_size);
    }
    ok &= get_uint(&ld, "scenario", "disks", 1, MAX_POSITIONS, &v);
    s->disks = v ? v : 1;
    ok &= get_uint(&ld, "scenario", "seed", 0, G_MAXUINT64, &s->seed);
    ok &= get_uint(&ld, "scenario", "timeout", 120, 3600, &v);
    s->timeout = v ? v : 120;
    /* [faults]: rule, rule.NAME, in file order, as the device will get them */
    have = g_key_file_get_keys(ld.kf, "faults", NULL, NULL);
    faults = atalab_faults_new(0);
    for (i = 0; have && have[i]; i++) {
        char *rule = get(&ld, "faults", have[i], "");

        if (!strcmp(have[i], "rule") || g_str_has_prefix(have[i], "rule.")) {
            ok &= rules_ok(&ld, have[i], rule, faults);
            g_ptr_array_add(s->rule_ids, rule_id(rule, s->rules->len));
            g_ptr_array_add(s->rules, rule);
        } else {
            g_free(rule);
        }
    }
    atalab_faults_free(faults);
    g_strfreev(have);
    s->setup = get(&ld, "workload", "setup", "");
    s->run = get(&ld, "workload", "run", "true");
    ok &= get_uint(&ld, "workload", "scsi-timeout", 0, 600, &v);
    s->scsi_timeout = g_key_file_has_key(ld.kf, "workload", "scsi-timeout",
                                         NULL) ? (int)v : -1;
    ok &= get_uint(&ld, "workload", "retries", 0, 100, &v);
    s->retries = g_key_file_has_key(ld.kf, "workload", "retries", NULL) ?
                 (int)v : -1;
    if (g_key_file_has_group(ld.kf, "expect")) {
        ok &= load_expect(&ld, s);
    }
out:
    if (ld.errors->len) {
        fputs(ld.errors->str, stderr);
    }
    g_string_free(ld.errors, TRUE);
    g_key_file_free(ld.kf);
    g_free(text);
    if (!ok) {
        scenario_free(s);
        return NULL;
    }
    return s;
}

/* ---- running ----------------------------------------------------------------- */

/* The guest's script: positions, fast SCSI error handling, the workload. */
static char *guest_script(const Scenario *s)
{
    GString *g = g_string_new(NULL);
    unsigned i;

    for (i = 0; i < s->disks; i++) {
        g_string_append_printf(g, "DISK%u=$(blk-of %u)\n", i, i);
    }
    g_string_append(g, "h=/proc/sys/kernel/hung_task_timeout_secs\n"
                    "[ ! -w $h ] || echo 0 >$h\n");
    if (s->scsi_timeout >= 0) {
        g_string_append_printf(g, "for t in /sys/block/sd*/device/timeout; "
                               "do echo %d >$t; done\n",
                               s->scsi_timeout ? s->scsi_timeout : 1);
    }
    if (s->retries >= 0) {
        g_string_append_printf(g, "for t in /sys/class/scsi_disk/*/"
                               "max_retries; do echo %d >$t; done\n",
                               s->retries);
    }
    if (*s->setup) {
        g_string_append_printf(g, "%s\n", s->setup);
    }
    g_string_append_printf(g, "(\n%s\n)\nrc=$?\n", s->run);
    for (i = 0; i < s->sysfs->len; i++) {
        const char *e = g_ptr_array_index(s->sysfs, i);
        char *attr = g_strndup(e, strchr(e, '=') - e);

        g_string_append_printf(g, "printf '@sysfs %%s=%%s\\n' '%s' "
                               "\"$(cat /sys/class/ata_device/%s 2>&1)\"\n",
                               attr, attr);
        g_free(attr);
    }
    if (g_getenv("ATALAB_COVERAGE")) {
        /* the kernel's gcov counts, for tools/lib/coverage.sh */
        g_string_append(g, "/atalab/gcov-dump >&2\n");
    }
    g_string_append(g, "echo \"@exit $rc\"\n");
    return g_string_free(g, FALSE);
}

static char *atalab_cmd(void)
{
    return g_build_filename(atalab_root, "tools", "atalab", NULL);
}

/* argv of the run: the scenario's machine, its rules, its workload. */
static GPtrArray *run_argv(const Scenario *s, const char *dir)
{
    GPtrArray *a = strv();
    char *rules = g_build_filename(dir, "rules", NULL);
    GString *text = g_string_new(NULL);
    unsigned i;

    for (i = 0; i < s->rules->len; i++) {
        g_string_append_printf(text, "%s\n",
                               (char *)g_ptr_array_index(s->rules, i));
    }
    g_file_set_contents(rules, text->str, -1, NULL);
    g_string_free(text, TRUE);
    g_ptr_array_add(a, atalab_cmd());
    g_ptr_array_add(a, g_strdup("run"));
    g_ptr_array_add(a, g_strdup("--quiet"));
    g_ptr_array_add(a, g_strdup("--model"));
    g_ptr_array_add(a, g_strdup(s->model));
    if (*s->cable) {
        g_ptr_array_add(a, g_strdup("--cable"));
        g_ptr_array_add(a, g_strdup(s->cable));
    }
    g_ptr_array_add(a, g_strdup("--driver"));
    g_ptr_array_add(a, g_strdup(s->driver));
    if (*s->append) {
        g_ptr_array_add(a, g_strdup("--append"));
        g_ptr_array_add(a, g_strdup(s->append));
    }
    g_ptr_array_add(a, g_strdup("--disk-size"));
    g_ptr_array_add(a, g_strdup(s->disk_size));
    for (i = 0; i < s->disks; i++) {
        g_ptr_array_add(a, g_strdup("--disk"));
        g_ptr_array_add(a, g_strdup_printf("%s/disk%u.img", dir, i));
    }
    if (s->rules->len) {
        g_ptr_array_add(a, g_strdup("--faults"));
        g_ptr_array_add(a, g_strdup(rules));
    }
    g_ptr_array_add(a, g_strdup("--fault-seed"));
    g_ptr_array_add(a, g_strdup_printf("%" G_GUINT64_FORMAT, s->seed));
    g_ptr_array_add(a, g_strdup("--timeout"));
    g_ptr_array_add(a, g_strdup_printf("%u", s->timeout));
    g_ptr_array_add(a, g_strdup("--log"));
    g_ptr_array_add(a, g_build_filename(dir, "console.log", NULL));
    g_ptr_array_add(a, g_strdup("--trace"));
    g_ptr_array_add(a, g_build_filename(dir, "trace", NULL));
    g_ptr_array_add(a, g_strdup("--"));
    g_ptr_array_add(a, g_strdup("sh"));
    g_ptr_array_add(a, g_strdup("-c"));
    g_ptr_array_add(a, guest_script(s));
    g_ptr_array_add(a, NULL);
    g_free(rules);
    return a;
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
static void evaluate(const Scenario *s, const char *dir, int run_status)
{
    char *out = read_file(dir, "stdout");
    char *log = read_file(dir, "console.log");
    TraceFacts trace;
    const char *pos = log;
    char *seen, *want;
    unsigned i;

    read_trace(dir, s, &trace);
    if (trace.error && (s->rule_ids->len || s->has_violations)) {
        add_row(s->name, "the trace reads (traces/FORMAT.md)", trace.error,
                false);
    }
    if (s->has_exit) {
        seen = line_at(stdout_value(out, "@exit "));
        want = g_strdup_printf("exit %d", s->exit_status);
        add_row(s->name, want, seen, atoi(seen) == s->exit_status &&
                strcmp(seen, "(none)"));
        g_free(want);
        g_free(seen);
    }
    if (run_status != 0) {
        seen = g_strdup_printf("atalab run exited %d", run_status);
        add_row(s->name, "the run completes", seen, false);
        g_free(seen);
    }
    for (i = 0; i < s->log->len; i++) {
        const char *l = g_ptr_array_index(s->log, i);
        const char *at = strstr(s->log_in_order ? pos : log, l);

        want = g_strdup_printf("log%s: %s", s->log_in_order ? " (in order)" :
                               "", l);
        add_row(s->name, want, at ? "seen" : "missing", at != NULL);
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
        add_row(s->name, want, seen, !at);
        g_free(want);
        g_free(seen);
    }
    for (i = 0; i < s->sysfs->len; i++) {
        const char *e = g_ptr_array_index(s->sysfs, i);
        const char *eq = strchr(e, '=');
        char *key = g_strdup_printf("@sysfs %.*s=", (int)(eq - e), e);

        seen = line_at(stdout_value(out, key));
        want = g_strdup_printf("sysfs %s", e);
        add_row(s->name, want, seen, !strcmp(seen, eq + 1));
        g_free(want);
        g_free(seen);
        g_free(key);
    }
    for (i = 0; i < s->stdout_has->len; i++) {
        const char *l = g_ptr_array_index(s->stdout_has, i);

        want = g_strdup_printf("stdout: %s", l);
        add_row(s->name, want, strstr(out, l) ? "seen" : "missing",
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
            add_row(s->name, want, seen, how == '=' ? n == want_n :
                    how == '>' ? n >= want_n : n <= want_n);
            g_free(want);
            g_free(seen);
        }
    }
    if (s->has_violations) {
        unsigned n = trace.violations;

        want = g_strdup_printf("timing violations %u", s->violations);
        seen = g_strdup_printf("%u", n);
        add_row(s->name, want, seen, n == s->violations);
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
        add_row(s->name, want, seen, pass);
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
        add_row(s->name, want, seen, status == 0);
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
static void save_rows(const char *dir, const char *scenario, unsigned from)
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

typedef struct Job {
    Scenario *s;
    char *dir;
    GPid pid;
    int status;
    bool done;
    gint64 t0;                  /* start, monotonic microseconds */
} Job;

static unsigned running;

static void job_exited(GPid pid, gint status, gpointer opaque)
{
    Job *j = opaque;

    j->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    j->done = true;
    fprintf(stderr, "atalab-scenario: %s: guest run ended (exit %d) after "
            "%.1f s\n", j->s->name, j->status,
            (g_get_monotonic_time() - j->t0) / 1e6);
    running--;
    g_spawn_close_pid(pid);
}

static bool job_start(Job *j)
{
    j->t0 = g_get_monotonic_time();
    GPtrArray *argv = run_argv(j->s, j->dir);
    char *out = g_build_filename(j->dir, "stdout", NULL);
    char *errp = g_build_filename(j->dir, "stderr", NULL);
    GError *err = NULL;
    int fd_out, fd_err;
    bool ok;

    fd_out = g_open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    fd_err = g_open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ok = g_spawn_async_with_fds(NULL, (char **)argv->pdata, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &j->pid, -1, fd_out, fd_err, &err);
    close(fd_out);
    close(fd_err);
    if (!ok) {
        fprintf(stderr, "atalab-scenario: %s\n", err->message);
        g_error_free(err);
        j->status = 127;
        j->done = true;
    } else {
        running++;
        g_child_watch_add(j->pid, job_exited, j);
    }
    g_ptr_array_free(argv, TRUE);
    g_free(out);
    g_free(errp);
    return ok;
}

/* Run the scenarios, N at a time; their outputs under work/NAME. */
static void run_all(GPtrArray *scen, unsigned jobs, const char *work)
{
    GMainContext *ctx = g_main_context_default();
    Job *js = g_new0(Job, scen->len);
    unsigned next = 0, done = 0, i;

    for (i = 0; i < scen->len; i++) {
        js[i].s = g_ptr_array_index(scen, i);
        js[i].dir = g_build_filename(work, js[i].s->name, NULL);
        g_mkdir_with_parents(js[i].dir, 0755);
    }
    while (done < scen->len) {
        while (next < scen->len && running < jobs) {
            fprintf(stderr, "atalab-scenario: running %s\n",
                    js[next].s->name);
            job_start(&js[next++]);
        }
        g_main_context_iteration(ctx, TRUE);
        for (i = 0, done = 0; i < scen->len; i++) {
            done += js[i].done;
        }
    }
    for (i = 0; i < scen->len; i++) {
        unsigned from = rows->len;

        evaluate(js[i].s, js[i].dir, js[i].status);
        save_rows(js[i].dir, js[i].s->name, from);
        g_free(js[i].dir);
    }
    g_free(js);
}

/* ---- reporting ----------------------------------------------------------------- */

static char *xml_escape(const char *s)
{
    return g_markup_escape_text(s, -1);
}

static unsigned print_table(void)
{
    unsigned w0 = strlen("scenario"), w1 = strlen("expectation"), i, failed = 0;

    for (i = 0; i < rows->len; i++) {
        Row *r = g_ptr_array_index(rows, i);

        w0 = MAX(w0, strlen(r->scenario));
        w1 = MAX(w1, MIN(strlen(r->expectation), 70u));
    }
    printf("%-*s  %-*s  %-5s  %s\n", w0, "scenario", w1, "expectation",
           "pass", "seen");
    for (i = 0; i < rows->len; i++) {
        Row *r = g_ptr_array_index(rows, i);

        printf("%-*s  %-*.*s  %-5s  %s\n", w0, r->scenario, w1, w1,
               r->expectation, r->pass ? "yes" : "NO", r->seen);
        failed += !r->pass;
    }
    printf("%u expectations, %u missed\n", rows->len, failed);
    return failed;
}

static void write_junit(const char *path)
{
    GString *x = g_string_new("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    unsigned i, j, failures = 0, cases = 0;
    GString *body = g_string_new(NULL);

    for (i = 0; i < rows->len; i++) {
        Row *r = g_ptr_array_index(rows, i);
        GString *fails = g_string_new(NULL);
        char *name;

        if (g_hash_table_contains(seen, r->scenario)) {
            continue;
        }
        g_hash_table_add(seen, r->scenario);
        cases++;
        for (j = i; j < rows->len; j++) {
            Row *q = g_ptr_array_index(rows, j);

            if (!strcmp(q->scenario, r->scenario) && !q->pass) {
                char *e = xml_escape(q->expectation), *s = xml_escape(q->seen);

                g_string_append_printf(fails, "%s: seen %s\n", e, s);
                g_free(e);
                g_free(s);
            }
        }
        name = xml_escape(r->scenario);
        g_string_append_printf(body, "  <testcase classname=\"atalab.scenario\""
                               " name=\"%s\">\n", name);
        if (fails->len) {
            failures++;
            g_string_append_printf(body, "    <failure message=\"expectations "
                                   "missed\">%s</failure>\n", fails->str);
        }
        g_string_append(body, "  </testcase>\n");
        g_free(name);
        g_string_free(fails, TRUE);
    }
    g_string_append_printf(x, "<testsuite name=\"atalab-scenarios\" "
                           "tests=\"%u\" failures=\"%u\">\n%s</testsuite>\n",
                           cases, failures, body->str);
    if (!g_file_set_contents(path, x->str, -1, NULL)) {
        fprintf(stderr, "atalab-scenario: cannot write %s\n", path);
    }
    g_string_free(body, TRUE);
    g_string_free(x, TRUE);
    g_hash_table_destroy(seen);
}

/* ---- campaigns: jobs for another engine, and their results ------------ */

static char *sha256_file(const char *path)
{
    gchar *data = NULL;
    gsize len = 0;
    char *sum;

    if (!g_file_get_contents(path, &data, &len, NULL)) {
        return g_strdup("missing");
    }
    sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (guchar *)data,
                                      len);
    g_free(data);
    return sum;
}

/*
 * What a job was made for: the cache keys of the kit's builds
 * ($ATALAB_INPUTS, set by tools/atalab scenario).
 */
static const char *kit_inputs(void)
{
    const char *v = g_getenv("ATALAB_INPUTS");

    return v && *v ? v : "unknown";
}

/* A job's checks before it runs (docs/scenarios.md, campaigns). */
static bool job_inputs_ok(const char *path)
{
    const char *want_sum = g_getenv("ATALAB_JOB_SCENARIO_SHA256");
    const char *want_kit = g_getenv("ATALAB_JOB_INPUTS");
    char *sum;
    bool ok = true;

    if (want_sum) {
        sum = sha256_file(path);
        if (!sum || strcmp(sum, want_sum)) {
            fprintf(stderr, "atalab-scenario: %s: the scenario changed since "
                    "the job was made (sha256 %s, job made for %s)\n", path,
                    sum ? sum : "unreadable", want_sum);
            ok = false;
        }
        g_free(sum);
    }
    if (want_kit && strcmp(want_kit, kit_inputs())) {
        fprintf(stderr, "atalab-scenario: this kit's builds are not the ones "
                "the job was made for\n  job: %s\n  kit: %s\n", want_kit,
                kit_inputs());
        ok = false;
    }
    return ok;
}

static int emit_jobs(const char *dir, GPtrArray *scen)
{
    const char *inputs = kit_inputs();
    char *list = g_build_filename(dir, "jobs.txt", NULL);
    GString *jobs = g_string_new(NULL);
    unsigned i;

    g_mkdir_with_parents(dir, 0755);
    for (i = 0; i < scen->len; i++) {
        Scenario *s = g_ptr_array_index(scen, i);
        char *jd = g_build_filename(dir, s->name, NULL);
        char *copy = g_build_filename(jd, "scenario", NULL);
        char *job = g_build_filename(jd, "job.sh", NULL);
        char *text = NULL, *sum, *tool = atalab_cmd(), *qtool, *qcopy, *qjd;
        char *qinputs;
        char *script;

        g_mkdir_with_parents(jd, 0755);
        g_file_get_contents(s->path, &text, NULL, NULL);
        g_file_set_contents(copy, text, -1, NULL);
        sum = sha256_file(copy);
        qtool = g_shell_quote(tool);
        qcopy = g_shell_quote(copy);
        qjd = g_shell_quote(jd);
        qinputs = g_shell_quote(inputs);
        script = g_strdup_printf(
            "#!/bin/sh\n"
            "# atalab scenario job: %s\n"
            "# inputs: scenario sha256 %s\n"
            "# kit: %s\n"
            "# driver: %s\n"
            "# The job refuses to run when the scenario copy or the kit's\n"
            "# builds (their cache keys) differ from these.\n"
            "ATALAB_JOB_SCENARIO_SHA256=%s ATALAB_JOB_INPUTS=%s \\\n"
            "\texec %s scenario --run-one %s %s%s%s%s\n",
            s->name, sum, inputs, s->driver, sum, qinputs, qtool, qcopy, qjd,
            g_getenv("ATALAB_COVERAGE") ? " --coverage" : "",
            driver_override ? " --driver " : "",
            driver_override ? driver_override : "");
        g_free(qinputs);
        g_file_set_contents(job, script, -1, NULL);
        g_chmod(job, 0755);
        g_string_append_printf(jobs, "%s\n", job);
        g_free(script);
        g_free(qtool);
        g_free(qcopy);
        g_free(qjd);
        g_free(sum);
        g_free(text);
        g_free(tool);
        g_free(job);
        g_free(copy);
        g_free(jd);
    }
    g_file_set_contents(list, jobs->str, -1, NULL);
    printf("%u jobs in %s (run each line of %s, e.g. with GNU parallel)\n",
           scen->len, dir, list);
    g_string_free(jobs, TRUE);
    g_free(list);
    return 0;
}

static int merge(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    GPtrArray *names = strv();
    const char *n;
    unsigned i, found = 0;

    while (d && (n = g_dir_read_name(d))) {
        g_ptr_array_add(names, g_strdup(n));
    }
    if (d) {
        g_dir_close(d);
    }
    g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
    for (i = 0; i < names->len; i++) {
        char *jd = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
        char *path = g_build_filename(jd, "result.tsv", NULL);
        char *text = NULL;
        gchar **lines;
        unsigned k;

        if (!g_file_test(jd, G_FILE_TEST_IS_DIR)) {
            g_free(jd);
            g_free(path);
            continue;
        }
        if (!g_file_get_contents(path, &text, NULL, NULL)) {
            add_row(g_ptr_array_index(names, i), "the job left a result",
                    "missing", false);
        } else {
            found++;
            lines = g_strsplit(text, "\n", -1);
            for (k = 0; lines[k]; k++) {
                gchar **f = g_strsplit(lines[k], "\t", 4);

                if (g_strv_length(f) == 4) {
                    add_row(f[0], f[1], f[2], !strcmp(f[3], "pass"));
                }
                g_strfreev(f);
            }
            g_strfreev(lines);
        }
        g_free(text);
        g_free(path);
        g_free(jd);
    }
    g_ptr_array_free(names, TRUE);
    if (!found && !rows->len) {
        fprintf(stderr, "atalab-scenario: no job results in %s\n", dir);
        return 2;
    }
    return 0;
}

/* ---- main --------------------------------------------------------------------- */

static GPtrArray *load_all(int argc, char **argv, int first, bool *ok)
{
    GPtrArray *scen = g_ptr_array_new_with_free_func(
        (GDestroyNotify)scenario_free);
    GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);
    int i;

    *ok = true;
    for (i = first; i < argc; i++) {
        Scenario *s = scenario_load(argv[i]);

        if (!s) {
            *ok = false;
            continue;
        }
        if (g_hash_table_contains(names, s->name)) {
            fprintf(stderr, "%s:1:1: another scenario is named '%s' too\n",
                    argv[i], s->name);
            *ok = false;
            scenario_free(s);
            continue;
        }
        g_hash_table_add(names, s->name);
        g_ptr_array_add(scen, s);
    }
    g_hash_table_destroy(names);
    if (!scen->len) {
        *ok = false;
    }
    return scen;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: atalab-scenario check FILE...\n"
            "       atalab-scenario run [--jobs N] [--junit FILE] "
            "[--work DIR] [--driver M] FILE...\n"
            "       atalab-scenario emit-jobs [--driver M] DIR FILE...\n"
            "       atalab-scenario run-one [--driver M] FILE OUTDIR\n"
            "       atalab-scenario merge [--junit FILE] DIR\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *cmd, *junit = NULL, *work = NULL;
    unsigned jobs = 1;
    int i = 2, rc = 0;
    bool ok;
    GPtrArray *scen;

    rows = g_ptr_array_new();
    atalab_root = g_getenv("ATALAB_ROOT");
    if (argc < 2 || !atalab_root) {
        if (!atalab_root) {
            fprintf(stderr, "atalab-scenario: ATALAB_ROOT is not set "
                    "(run it as tools/atalab scenario)\n");
        }
        usage();
    }
    cmd = argv[1];
    while (i < argc && argv[i][0] == '-' && argv[i][1] == '-') {
        if (!strcmp(argv[i], "--jobs") && i + 1 < argc) {
            jobs = strtoul(argv[i + 1], NULL, 10);
            if (!jobs || jobs > 64) {
                fprintf(stderr, "atalab-scenario: --jobs wants 1-64\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--junit") && i + 1 < argc) {
            junit = argv[i + 1];
        } else if (!strcmp(argv[i], "--work") && i + 1 < argc) {
            work = argv[i + 1];
        } else if (!strcmp(argv[i], "--driver") && i + 1 < argc) {
            driver_override = argv[i + 1];
            if (!g_regex_match_simple("^[A-Za-z0-9_-]+$", driver_override,
                                      0, 0)) {
                fprintf(stderr, "atalab-scenario: --driver wants a module "
                        "name, got '%s'\n", driver_override);
                return 2;
            }
        } else {
            fprintf(stderr, "atalab-scenario: unknown option '%s'\n",
                    argv[i]);
            usage();
        }
        i += 2;
    }
    if (!strcmp(cmd, "check")) {
        scen = load_all(argc, argv, i, &ok);
        if (ok) {
            printf("%u scenario file(s) good\n", scen->len);
        }
        return ok ? 0 : 2;
    }
    if (!strcmp(cmd, "run")) {
        char *tmp = NULL;

        scen = load_all(argc, argv, i, &ok);
        if (!ok) {
            return 2;
        }
        if (!work) {
            tmp = g_dir_make_tmp("atalab-scenarios.XXXXXX", NULL);
            work = tmp;
        }
        if (driver_override) {
            fprintf(stderr, "atalab-scenario: every scenario runs with "
                    "driver %s\n", driver_override);
        }
        run_all(scen, jobs, work);
        rc = print_table() ? 1 : 0;
        if (junit) {
            write_junit(junit);
        }
        fprintf(stderr, "atalab-scenario: outputs in %s\n", work);
        return rc;
    }
    if (!strcmp(cmd, "run-one")) {
        Scenario *s;
        GPtrArray *one;

        if (argc - i != 2) {
            usage();
        }
        if (!job_inputs_ok(argv[i])) {
            return 2;
        }
        s = scenario_load(argv[i]);
        if (!s) {
            return 2;
        }
        g_free(s->name);
        s->name = g_path_get_basename(argv[i + 1]);
        one = g_ptr_array_new();
        g_ptr_array_add(one, s);
        g_mkdir_with_parents(argv[i + 1], 0755);
        /* run in the job's own directory */
        {
            Job j = { .s = s, .dir = argv[i + 1] };
            unsigned from = rows->len;

            job_start(&j);
            while (!j.done) {
                g_main_context_iteration(NULL, TRUE);
            }
            evaluate(s, j.dir, j.status);
            save_rows(j.dir, s->name, from);
        }
        return print_table() ? 1 : 0;
    }
    if (!strcmp(cmd, "emit-jobs")) {
        if (argc - i < 2) {
            usage();
        }
        scen = load_all(argc, argv, i + 1, &ok);
        return ok ? emit_jobs(argv[i], scen) : 2;
    }
    if (!strcmp(cmd, "merge")) {
        if (argc - i != 1) {
            usage();
        }
        rc = merge(argv[i]);
        if (rc) {
            return rc;
        }
        rc = print_table() ? 1 : 0;
        if (junit) {
            write_junit(junit);
        }
        return rc;
    }
    usage();
    return 2;
}
