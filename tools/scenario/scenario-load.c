/*
 * atalab-scenario: scenario files, parsed and checked (errors as
 * FILE:LINE:COLUMN; fault rules by the core's own parser).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "scenario.h"

GPtrArray *str_array_new(void)
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

/* A true/false key (GKeyFile's booleans); false when absent. */
static bool get_bool(Loader *ld, const char *group, const char *key,
                     bool *out)
{
    GError *e = NULL;

    *out = false;
    if (!g_key_file_has_key(ld->kf, group, key, NULL)) {
        return true;
    }
    *out = g_key_file_get_boolean(ld->kf, group, key, &e);
    if (e) {
        g_error_free(e);
        return bad(ld, group, key, "%s wants true or false", key);
    }
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
    g_autoptr(GPtrArray) ids = str_array_new();
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
    GPtrArray *pats = str_array_new();
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
    ok &= get_bool(ld, "expect", "log-in-order", &s->log_in_order);
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

void scenario_free(Scenario *s)
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
    g_free(s->ide_mode);
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

Scenario *scenario_load(const char *path)
{
    static const char *const groups[] = { "scenario", "faults", "workload",
                                          "expect", NULL };
    static const char *const scenario_keys[] = {
        "description", "model", "cable", "ide-mode", "driver", "disks", "disk-size",
        "append", "seed", "timeout", "deterministic", "cdrom", NULL,
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
    s->rules = str_array_new();
    s->rule_ids = str_array_new();
    s->log = str_array_new();
    s->no_log = str_array_new();
    s->sysfs = str_array_new();
    s->fired = str_array_new();
    s->stdout_has = str_array_new();
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
    s->ide_mode = get(&ld, "scenario", "ide-mode", "");
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
    /* tools/atalab run --ide-mode: ICH5's channels in native PCI mode */
    if (*s->ide_mode && strcmp(s->ide_mode, "legacy") && strcmp(s->ide_mode, "native") &&
        strcmp(s->ide_mode, "native0") && strcmp(s->ide_mode, "native1")) {
        ok = bad(&ld, "scenario", "ide-mode", "ide-mode wants legacy, native, native0 or "
                 "native1, got '%s'", s->ide_mode);
    } else if (*s->ide_mode && strcmp(s->ide_mode, "legacy") &&
               strcmp(s->model, "ich5") && strcmp(s->model, "ich5-sata")) {
        ok = bad(&ld, "scenario", "ide-mode", "ide-mode %s wants model ich5 or ich5-sata "
                 "(the PIIX channels are legacy only), got model %s", s->ide_mode, s->model);
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
    ok &= get_bool(&ld, "scenario", "deterministic", &s->deterministic);
    ok &= get_bool(&ld, "scenario", "cdrom", &s->cdrom);
    if (s->cdrom && s->disks > 2) {
        ok = bad(&ld, "scenario", "cdrom", "cdrom takes the secondary "
                 "master: disks wants 1 or 2 with it, got %u", s->disks);
    }
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
