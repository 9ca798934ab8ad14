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
 * checks) is $ATALAB_PATTERN.  This file is the command line; the parts
 * (loading, running, evaluating, reporting) are listed in scenario.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "scenario.h"

GPtrArray *rows;
const char *atalab_root;
const char *driver_override;

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
        rc = merge_results(argv[i]);
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
