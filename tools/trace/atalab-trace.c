/*
 * atalab-trace: register traces (traces/FORMAT.md) read with the trace
 * reader library, for scripts and people (tools/atalab trace ...).
 *
 *   atalab-trace check FILE...        every record parsed strictly; counts
 *   atalab-trace grep [FILTER...] FILE the records that match, as written
 *   atalab-trace header FILE [KEY]    the header, or one key's values
 *   atalab-trace forms                the record table, one form a line
 *   atalab-trace diff [OPTION...] A B two traces compared (trace-diff.h)
 *   atalab-trace normalize FILE       the trace normalized (trace-normalize.h)
 *   atalab-trace replay [OPTION...] FILE  the trace fed to the core alone
 *                                     (trace-replay.h)
 *   atalab-trace vcd FILE [-o OUT]    the trace as a Value Change Dump
 *                                     (trace-vcd.h)
 *   atalab-trace report FILE [-o OUT] [--vcd VCD] [--assets DIR]
 *                                     the trace as an HTML page
 *                                     (trace-report.h)
 *   atalab-trace report A B [-o OUT] [--ignore CLASS,...] [--assets DIR]
 *                                     two runs side by side, lined up
 *                                     as trace diff lines them up
 *
 * grep filters (all must hold): --kind NAME (a form of the table, e.g.
 * ATA_FAULT, ACCESS; or its record kind, e.g. fault, timing-summary;
 * repeatable: any of them), --source SRC (ata0, bm, ...), --dev U,
 * --key K=V (repeatable: every one; K= alone: the key is present),
 * --word W (repeatable: every one is a word after the head).
 * --count prints the number of matches instead, --sum KEY the sum of a
 * numeric key over them, --field KEY the key's value in each (--field @N:
 * the N-th word after the head, from 0).
 *
 * Exit status: 0; 1 when grep matched nothing or replay diverged; 2 for a
 * bad command line or a malformed trace (FILE:LINE: message).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-diff.h"
#include "trace-normalize.h"
#include "trace-read.h"
#include "trace-replay.h"
#include "trace-report.h"
#include "trace-vcd.h"

#define EXIT_NOMATCH    1
#define EXIT_USAGE      2

static int usage(void)
{
    fprintf(stderr, "usage: atalab-trace check FILE...\n"
            "       atalab-trace grep [--kind K]... [--source S] [--dev U] "
            "[--key K=V]... [--word W]... [--count | --sum KEY | --field KEY|@N] "
            "FILE\n"
            "       atalab-trace header FILE [KEY]\n"
            "       atalab-trace forms\n"
            "       atalab-trace diff [OPTION...] A B\n"
            "       atalab-trace normalize FILE\n"
            "       atalab-trace replay [--context N] [--max-accesses N] "
            "[--quiet] FILE\n"
            "       atalab-trace vcd FILE [-o OUT]\n"
            "       atalab-trace report FILE [-o OUT] [--vcd VCD] "
            "[--assets DIR]\n"
            "       atalab-trace report A B [-o OUT] [--ignore CLASS,...] "
            "[--assets DIR]\n");
    return EXIT_USAGE;
}

/* Is @word an option (a dash and more)? */
static bool is_option(const char *word)
{
    return word[0] == '-' && word[1];
}

static int unknown_option(const char *sub, const char *word)
{
    fprintf(stderr, "atalab-trace %s: unknown option '%s'\n", sub, word);
    return usage();
}

/*
 * The first word of @argv that is an option, but for "-o" where @with_out
 * (vcd's only option), or NULL: for the subcommands that take no other.
 */
static const char *stray_option(int argc, char **argv, bool with_out)
{
    int i;

    for (i = 0; i < argc; i++) {
        if (with_out && !strcmp(argv[i], "-o")) {
            i++;
        } else if (is_option(argv[i])) {
            return argv[i];
        }
    }
    return NULL;
}

static int cmd_check(int argc, char **argv)
{
    int i, rc = 0;

    if (argc < 1) {
        return usage();
    }
    for (i = 0; i < argc; i++) {
        g_autoptr(GError) err = NULL;
        AtalabTraceFile *f = atalab_trace_open(argv[i], true, &err);
        AtalabTraceRecord rec = { 0 };
        unsigned count[ATALAB_REC_N] = { 0 }, n = 0, kinds = 0, k;
        int r;

        if (!f) {
            fprintf(stderr, "%s\n", err->message);
            rc = EXIT_USAGE;
            continue;
        }
        while ((r = atalab_trace_next(f, &rec, &err)) > 0) {
            kinds += !count[rec.kind]++;
            n++;
        }
        atalab_trace_record_clear(&rec);
        atalab_trace_close(f);
        if (r < 0) {
            fprintf(stderr, "%s\n", err->message);
            rc = EXIT_USAGE;
            continue;
        }
        printf("%s: %u records of %u kinds\n", argv[i], n, kinds);
        for (k = 0; k < ATALAB_REC_N; k++) {
            if (count[k]) {
                printf("  %-24s %u\n", atalab_trace_forms[k].name, count[k]);
            }
        }
    }
    return rc;
}

typedef struct Filter {
    const char *source;
    int dev;
    GPtrArray *kinds;           /* any of them */
    GPtrArray *keys;            /* "K=V" or "K=", every one */
    GPtrArray *words;           /* every one */
} Filter;

static bool kind_matches(const Filter *flt, const AtalabTraceRecord *rec)
{
    const AtalabTraceForm *f = rec->form;
    unsigned i;

    for (i = 0; i < flt->kinds->len; i++) {
        const char *kind = g_ptr_array_index(flt->kinds, i);

        if (!strcmp(kind, f->name) || (f->kind && !strcmp(kind, f->kind))) {
            return true;
        }
    }
    return !flt->kinds->len;
}

static bool has_word(const AtalabTraceRecord *rec, const char *word)
{
    unsigned i;

    for (i = 0; atalab_trace_word(rec, i); i++) {
        if (!strcmp(atalab_trace_word(rec, i), word)) {
            return true;
        }
    }
    return false;
}

static bool matches(const Filter *flt, const AtalabTraceRecord *rec)
{
    unsigned i;

    if (!kind_matches(flt, rec) ||
        (flt->source && strcmp(flt->source, rec->source)) ||
        (flt->dev >= 0 && atalab_trace_device(rec) != flt->dev)) {
        return false;
    }
    for (i = 0; i < flt->keys->len; i++) {
        const char *kv = g_ptr_array_index(flt->keys, i);
        g_autofree char *key = g_strndup(kv, strcspn(kv, "="));
        const char *want = kv + strlen(key) + 1;
        const char *have = atalab_trace_get(rec, key);

        if (!have || (*want && strcmp(have, want))) {
            return false;
        }
    }
    for (i = 0; i < flt->words->len; i++) {
        if (!has_word(rec, g_ptr_array_index(flt->words, i))) {
            return false;
        }
    }
    return true;
}

static int cmd_grep(int argc, char **argv)
{
    g_autoptr(GPtrArray) kinds = g_ptr_array_new();
    g_autoptr(GPtrArray) keys = g_ptr_array_new();
    g_autoptr(GPtrArray) words = g_ptr_array_new();
    Filter flt = { .dev = -1, .kinds = kinds, .keys = keys, .words = words };
    const char *sum_key = NULL, *field = NULL;
    bool count = false;
    g_autoptr(GError) err = NULL;
    AtalabTraceRecord rec = { 0 };
    AtalabTraceFile *f;
    uint64_t n = 0, sum = 0;
    int i, r;

    for (i = 0; i < argc - 1; i++) {
        const char *o = argv[i], *v = argv[i + 1];

        if (!strcmp(o, "--count")) {
            count = true;
            continue;
        }
        if (is_option(o) && strcmp(o, "--kind") && strcmp(o, "--source") &&
            strcmp(o, "--dev") && strcmp(o, "--key") &&
            strcmp(o, "--word") && strcmp(o, "--sum") &&
            strcmp(o, "--field")) {
            return unknown_option("grep", o);
        }
        if (i + 1 >= argc - 1) {
            return usage();
        }
        if (!strcmp(o, "--kind")) {
            g_ptr_array_add(kinds, (gpointer)v);
        } else if (!strcmp(o, "--source")) {
            flt.source = v;
        } else if (!strcmp(o, "--dev") && (!strcmp(v, "0") ||
                                           !strcmp(v, "1"))) {
            flt.dev = v[0] - '0';
        } else if (!strcmp(o, "--key") && strchr(v, '=') && v[0] != '=') {
            g_ptr_array_add(keys, (gpointer)v);
        } else if (!strcmp(o, "--word")) {
            g_ptr_array_add(words, (gpointer)v);
        } else if (!strcmp(o, "--sum")) {
            sum_key = v;
        } else if (!strcmp(o, "--field")) {
            field = v;
        } else {
            fprintf(stderr, "atalab-trace grep: bad value for %s: '%s'\n",
                    o, v);
            return usage();
        }
        i++;
    }
    if (i != argc - 1) {
        return usage();
    }
    f = atalab_trace_open(argv[argc - 1], false, &err);
    if (!f) {
        fprintf(stderr, "%s\n", err->message);
        return EXIT_USAGE;
    }
    while ((r = atalab_trace_next(f, &rec, &err)) > 0) {
        uint64_t v = 0;

        if (!matches(&flt, &rec)) {
            continue;
        }
        n++;
        if (sum_key) {
            atalab_trace_get_u64(&rec, sum_key, &v);
            sum += v;
        } else if (field) {
            const char *f_val = field[0] == '@' ?
                atalab_trace_word(&rec, strtoul(field + 1, NULL, 10)) :
                atalab_trace_get(&rec, field);

            if (f_val) {
                puts(f_val);
            }
        } else if (!count) {
            puts(rec.text);
        }
    }
    atalab_trace_record_clear(&rec);
    atalab_trace_close(f);
    if (r < 0) {
        fprintf(stderr, "%s\n", err->message);
        return EXIT_USAGE;
    }
    if (sum_key) {
        printf("%" PRIu64 "\n", sum);
    } else if (count) {
        printf("%" PRIu64 "\n", n);
    }
    return n ? 0 : EXIT_NOMATCH;
}

static int cmd_header(int argc, char **argv)
{
    g_autoptr(GError) err = NULL;
    AtalabTraceFile *f;
    const GPtrArray *h;
    unsigned i, n = 0;

    if (argc < 1 || argc > 2) {
        return usage();
    }
    f = atalab_trace_open(argv[0], false, &err);
    if (!f) {
        fprintf(stderr, "%s\n", err->message);
        return EXIT_USAGE;
    }
    h = atalab_trace_header_lines(f);
    for (i = 0; i < h->len; i++) {
        const char *line = g_ptr_array_index(h, i);
        size_t klen = strcspn(line, " ");

        if (argc == 1) {
            puts(line);
            n++;
        } else if (klen == strlen(argv[1]) && !strncmp(line, argv[1], klen)) {
            puts(line[klen] ? line + klen + 1 : "");
            n++;
        }
    }
    atalab_trace_close(f);
    return n ? 0 : EXIT_NOMATCH;
}

static int cmd_normalize(const char *path)
{
    g_autoptr(GError) err = NULL;
    AtalabTraceFile *f = atalab_trace_open(path, true, &err);
    AtalabTraceRecord rec = { 0 };
    const GPtrArray *h;
    unsigned i;
    int r;

    if (!f) {
        fprintf(stderr, "%s\n", err->message);
        return EXIT_USAGE;
    }
    printf("# atalab-trace %d\n", ATALAB_TRACE_VERSION);
    h = atalab_trace_header_lines(f);
    for (i = 0; i < h->len; i++) {
        const char *line = g_ptr_array_index(h, i);

        if (atalab_trace_normalize_keeps(line)) {
            printf("# %s\n", line);
        }
    }
    if (!atalab_trace_header(f, "normalized")) {
        puts("# normalized yes");
    }
    while ((r = atalab_trace_next(f, &rec, &err)) > 0) {
        g_autofree char *line = atalab_trace_normalize(&rec);

        puts(line);
    }
    atalab_trace_record_clear(&rec);
    atalab_trace_close(f);
    if (r < 0) {
        fprintf(stderr, "%s\n", err->message);
        return EXIT_USAGE;
    }
    return 0;
}

static int cmd_forms(void)
{
    unsigned i;

    for (i = 0; i < ATALAB_REC_N; i++) {
        const AtalabTraceForm *f = &atalab_trace_forms[i];

        printf("%s\t%s\t%s\t%s\t%s\t%s\n", f->name, f->source,
               f->kind ? f->kind : "-",
               f->unit == ATALAB_UNIT_DEV ? "dU" :
               f->unit == ATALAB_UNIT_CH ? "chN" : "-", f->words, f->keys);
    }
    return 0;
}

/* --name=value or --name value: the value, advancing *i; NULL if not. */
static const char *option(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);

    if (strncmp(argv[*i], name, n)) {
        return NULL;
    }
    if (argv[*i][n] == '=') {
        return argv[*i] + n + 1;
    }
    if (argv[*i][n] || *i + 1 >= argc) {
        return NULL;
    }
    return argv[++*i];
}

static bool parse_count(const char *v, unsigned *out)
{
    char *end;
    unsigned long x = strtoul(v, &end, 10);

    if (!*v || *end || v[0] == '-' || x > 1000000) {
        return false;
    }
    *out = x;
    return true;
}

static int diff_usage(const char *why, const char *arg)
{
    fprintf(stderr, "atalab-trace diff: %s%s%s%s\n", why, arg ? " '" : "",
            arg ? arg : "", arg ? "'" : "");
    fprintf(stderr, "usage: atalab-trace diff [--format report|unified|json] "
            "[--ignore CLASS[,CLASS...]|none]... [--only SPACE] "
            "[--context N] [--max N] [--stats] A B\n");
    return EXIT_USAGE;
}

/*
 * --ignore CLASS[,CLASS...]|none into o; NULL, or the unknown class (a
 * pointer into a static copy, valid until the next call).
 */
static const char *parse_ignore(const char *v, DiffOptions *o)
{
    static char bad[64];
    g_auto(GStrv) classes = g_strsplit(v, ",", -1);
    unsigned k;

    for (k = 0; classes[k]; k++) {
        int c = diff_class_find(classes[k]);

        if (!strcmp(classes[k], "none")) {
            memset(o->ignore, 0, sizeof(o->ignore));
        } else if (c < 0) {
            g_strlcpy(bad, classes[k], sizeof(bad));
            return bad;
        } else {
            o->ignore[c] = true;
        }
    }
    return NULL;
}

static int cmd_diff(int argc, char **argv)
{
    static const char *const spaces[] = {
        "cfg", "bm", "ata0", "ata1", "ctl0", "ctl1", "irq0", "irq1", NULL
    };
    DiffOptions o;
    const char *files[2], *v;
    int i, n = 0, rc;
    bool stats = false;
    gint64 t0 = g_get_monotonic_time();

    diff_options_init(&o);
    for (i = 0; i < argc; i++) {
        if ((v = option(argc, argv, &i, "--format"))) {
            if (!strcmp(v, "report")) {
                o.format = DIFF_FORMAT_REPORT;
            } else if (!strcmp(v, "unified")) {
                o.format = DIFF_FORMAT_UNIFIED;
            } else if (!strcmp(v, "json")) {
                o.format = DIFF_FORMAT_JSON;
            } else {
                return diff_usage("unknown format", v);
            }
        } else if ((v = option(argc, argv, &i, "--ignore"))) {
            const char *bad = parse_ignore(v, &o);

            if (bad) {
                return diff_usage("unknown class (timing, commands, "
                                  "protocol, errors, faults, violations, "
                                  "data, taskfile, polls, time, addresses, "
                                  "none)", bad);
            }
        } else if ((v = option(argc, argv, &i, "--only"))) {
            unsigned k;

            for (k = 0; spaces[k] && strcmp(spaces[k], v); k++) {
            }
            if (!spaces[k]) {
                return diff_usage("unknown space (cfg, bm, ata0, ata1, ctl0, "
                                  "ctl1, irq0, irq1)", v);
            }
            o.only = v;
        } else if ((v = option(argc, argv, &i, "--context"))) {
            if (!parse_count(v, &o.context)) {
                return diff_usage("not a number", v);
            }
        } else if ((v = option(argc, argv, &i, "--max"))) {
            if (!parse_count(v, &o.max_per_class)) {
                return diff_usage("not a number", v);
            }
        } else if (!strcmp(argv[i], "--stats")) {
            stats = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return diff_usage("unknown option", argv[i]);
        } else if (n < 2) {
            files[n++] = argv[i];
        } else {
            return diff_usage("one trace too many", argv[i]);
        }
    }
    if (n != 2) {
        return diff_usage("two traces wanted", NULL);
    }
    rc = diff_traces(files[0], files[1], &o, stdout, stderr);
    if (stats) {
        struct rusage ru;

        getrusage(RUSAGE_SELF, &ru);
        fflush(stdout);
        fprintf(stderr, "diff: %.2f s, peak memory %ld KiB\n",
                (g_get_monotonic_time() - t0) / 1e6, ru.ru_maxrss);
    }
    return rc;
}

static int cmd_replay(int argc, char **argv)
{
    ReplayOptions o;
    g_autoptr(GError) err = NULL;
    AtalabTraceFile *f;
    const char *path = NULL, *v;
    int i;

    replay_options_init(&o);
    for (i = 0; i < argc; i++) {
        if ((v = option(argc, argv, &i, "--context"))) {
            if (!parse_count(v, &o.context)) {
                fprintf(stderr, "atalab-trace replay: not a number '%s'\n", v);
                return EXIT_USAGE;
            }
        } else if ((v = option(argc, argv, &i, "--max-accesses"))) {
            guint64 n;

            if (!g_ascii_string_to_unsigned(v, 10, 1, G_MAXUINT32, &n,
                                            NULL)) {
                fprintf(stderr, "atalab-trace replay: --max-accesses wants a "
                        "number from 1 to %u, not '%s'\n", G_MAXUINT32, v);
                return EXIT_USAGE;
            }
            o.max_accesses = n;
        } else if (!strcmp(argv[i], "--quiet")) {
            o.quiet = true;
        } else if (is_option(argv[i])) {
            return unknown_option("replay", argv[i]);
        } else if (path) {
            fprintf(stderr, "atalab-trace replay: unexpected '%s'\n",
                    argv[i]);
            return usage();
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        return usage();
    }
    f = atalab_trace_open(path, true, &err);
    if (!f) {
        fprintf(stderr, "%s\n", err->message);
        return EXIT_USAGE;
    }
    return replay_trace(f, &o, stdout, stderr);
}

/* Is path the file one of inputs names (NULL-terminated)? */
static bool same_file(const char *path, const char *const *inputs)
{
    struct stat o, i;

    if (stat(path, &o)) {
        return false;
    }
    for (; *inputs; inputs++) {
        if (!stat(*inputs, &i) && i.st_dev == o.st_dev &&
            i.st_ino == o.st_ino) {
            return true;
        }
    }
    return false;
}

/*
 * Write to path ("-": stdout) with fn, never over one of the inputs: into
 * a temporary file beside it, renamed to path on success and removed on
 * failure, so that a failed run leaves nothing at path (nor loses what
 * was there).
 */
static int write_out(const char *path, const char *const *inputs,
                     int (*fn)(void *, FILE *), void *arg)
{
    g_autofree char *tmp = NULL;
    FILE *out;
    int fd, rc;

    if (!strcmp(path, "-")) {
        return fn(arg, stdout);
    }
    if (same_file(path, inputs)) {
        fprintf(stderr, "atalab-trace: %s is an input: not written over\n",
                path);
        return EXIT_USAGE;
    }
    tmp = g_strdup_printf("%s.XXXXXX", path);
    fd = g_mkstemp(tmp);
    out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        fprintf(stderr, "atalab-trace: %s: %s\n", path, g_strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return EXIT_USAGE;
    }
    rc = fn(arg, out);
    if (fclose(out) && !rc) {
        fprintf(stderr, "atalab-trace: %s: %s\n", path, g_strerror(errno));
        rc = EXIT_USAGE;
    }
    /* g_mkstemp makes the file 0600: give it what a new file gets */
    if (!rc) {
        mode_t mask = umask(0);

        umask(mask);
        chmod(tmp, 0666 & ~mask);
    }
    if (!rc && rename(tmp, path)) {
        fprintf(stderr, "atalab-trace: %s: %s\n", path, g_strerror(errno));
        rc = EXIT_USAGE;
    }
    if (rc) {
        unlink(tmp);
    }
    return rc;
}

static int vcd_to(void *arg, FILE *out)
{
    g_autoptr(GError) err = NULL;
    AtalabTraceFile *f = atalab_trace_open(arg, true, &err);

    if (!f) {
        fprintf(stderr, "%s\n", err->message);
        return EXIT_USAGE;
    }
    return trace_vcd(f, out, stderr);
}

static int cmd_vcd(int argc, char **argv)
{
    const char *inputs[] = { argv[0], NULL };

    if (argc == 3 && !strcmp(argv[1], "-o")) {
        return write_out(argv[2], inputs, vcd_to, argv[0]);
    }
    if (argc != 1) {
        return usage();
    }
    return vcd_to(argv[0], stdout);
}

typedef struct ReportJob {
    const char *trace, *other, *assets;
    DiffOptions o;
} ReportJob;

static int report_page(void *arg, FILE *out)
{
    ReportJob *job = arg;

    if (job->other) {
        return trace_report_pair(job->trace, job->other, &job->o,
                                 job->assets, out, stderr);
    }
    return trace_report(job->trace, job->assets, out, stderr);
}

static int cmd_report(int argc, char **argv)
{
    g_autofree char *assets = NULL;
    const char *out = "-", *vcd = NULL, *v;
    const char *inputs[3] = { NULL };
    ReportJob job = { 0 };
    bool ignore = false;
    int i, rc;

    diff_options_init(&job.o);
    for (i = 0; i < argc; i++) {
        if ((v = option(argc, argv, &i, "-o"))) {
            out = v;
        } else if ((v = option(argc, argv, &i, "--vcd"))) {
            vcd = v;
        } else if ((v = option(argc, argv, &i, "--ignore"))) {
            const char *bad = parse_ignore(v, &job.o);

            if (bad) {
                fprintf(stderr, "atalab-trace report: unknown class '%s'\n",
                        bad);
                return usage();
            }
            ignore = true;
        } else if ((v = option(argc, argv, &i, "--assets"))) {
            assets = g_strdup(v);
        } else if (is_option(argv[i])) {
            return unknown_option("report", argv[i]);
        } else if (job.other) {
            fprintf(stderr, "atalab-trace report: unexpected '%s'\n",
                    argv[i]);
            return usage();
        } else if (job.trace) {
            job.other = argv[i];
        } else {
            job.trace = argv[i];
        }
    }
    if (!job.trace) {
        return usage();
    }
    if (!assets) {
        const char *root = g_getenv("ATALAB_ROOT");

        if (!root) {
            fprintf(stderr, "atalab-trace report: --assets DIR (the page's "
                    "script and style, tools/trace/report) or ATALAB_ROOT "
                    "is needed\n");
            return EXIT_USAGE;
        }
        assets = g_build_filename(root, "tools", "trace", "report", NULL);
    }
    if (job.other && vcd) {
        fprintf(stderr, "atalab-trace report: --vcd goes with one trace\n");
        return EXIT_USAGE;
    }
    if (!job.other && ignore) {
        fprintf(stderr, "atalab-trace report: --ignore goes with two "
                "traces\n");
        return EXIT_USAGE;
    }
    inputs[0] = job.trace;
    inputs[1] = job.other;
    job.assets = assets;
    rc = write_out(out, inputs, report_page, &job);
    if (!rc && vcd) {
        rc = write_out(vcd, inputs, vcd_to, (void *)job.trace);
    }
    return rc;
}

int main(int argc, char **argv)
{
    const char *stray;

    if (argc < 2) {
        return usage();
    }
    if (!strcmp(argv[1], "check") || !strcmp(argv[1], "header") ||
        !strcmp(argv[1], "normalize") || !strcmp(argv[1], "forms") ||
        !strcmp(argv[1], "vcd")) {
        stray = stray_option(argc - 2, argv + 2, !strcmp(argv[1], "vcd"));
        if (stray) {
            return unknown_option(argv[1], stray);
        }
    }
    if (!strcmp(argv[1], "check")) {
        return cmd_check(argc - 2, argv + 2);
    }
    if (!strcmp(argv[1], "grep")) {
        return cmd_grep(argc - 2, argv + 2);
    }
    if (!strcmp(argv[1], "header")) {
        return cmd_header(argc - 2, argv + 2);
    }
    if (!strcmp(argv[1], "normalize") && argc == 3) {
        return cmd_normalize(argv[2]);
    }
    if (!strcmp(argv[1], "forms") && argc == 2) {
        return cmd_forms();
    }
    if (!strcmp(argv[1], "diff")) {
        return cmd_diff(argc - 2, argv + 2);
    }
    if (!strcmp(argv[1], "replay")) {
        return cmd_replay(argc - 2, argv + 2);
    }
    if (!strcmp(argv[1], "vcd")) {
        return cmd_vcd(argc - 2, argv + 2);
    }
    if (!strcmp(argv[1], "report")) {
        return cmd_report(argc - 2, argv + 2);
    }
    return usage();
}
