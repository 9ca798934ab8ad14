/*
 * atalab-scenario: the result table, JUnit XML, and a campaign's rows
 * merged back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "scenario.h"

static char *xml_escape(const char *s)
{
    return g_markup_escape_text(s, -1);
}

unsigned print_table(void)
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

void write_junit(const char *path)
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

int merge_results(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    GPtrArray *names = str_array_new();
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
            row_add(g_ptr_array_index(names, i), "the job left a result",
                    "missing", false);
        } else {
            found++;
            lines = g_strsplit(text, "\n", -1);
            for (k = 0; lines[k]; k++) {
                gchar **f = g_strsplit(lines[k], "\t", 4);

                if (g_strv_length(f) == 4) {
                    row_add(f[0], f[1], f[2], !strcmp(f[3], "pass"));
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
