/*
 * atalab core fuzzer without libFuzzer: run the inputs in the files and
 * directories given (the regression inputs, a corpus), or, with
 * --random N SEED, N pseudo-random inputs.  Exit 0 when every input ran
 * without breaking an invariant (a broken one aborts).  Files ending in
 * .md in a directory are notes, not inputs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fuzz-core.h"

static unsigned run_path(const char *path)
{
    unsigned n = 0;

    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        GDir *dir = g_dir_open(path, 0, NULL);
        GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
        const char *name;
        unsigned i;

        while (dir && (name = g_dir_read_name(dir))) {
            if (!g_str_has_suffix(name, ".md")) {
                g_ptr_array_add(names, g_build_filename(path, name, NULL));
            }
        }
        if (dir) {
            g_dir_close(dir);
        }
        g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
        for (i = 0; i < names->len; i++) {
            n += run_path(g_ptr_array_index(names, i));
        }
        g_ptr_array_free(names, TRUE);
        return n;
    } else {
        gchar *data;
        gsize len;
        GError *err = NULL;

        if (!g_file_get_contents(path, &data, &len, &err)) {
            fprintf(stderr, "fuzz-replay: %s\n", err->message);
            exit(2);
        }
        fuzz_run((const uint8_t *)data, len);
        g_free(data);
        return 1;
    }
}

int main(int argc, char **argv)
{
    unsigned n = 0;
    int i;

    if (argc == 4 && !strcmp(argv[1], "--random")) {
        unsigned count = strtoul(argv[2], NULL, 0);
        GRand *g = g_rand_new_with_seed(strtoul(argv[3], NULL, 0));
        uint8_t buf[2048];
        unsigned k, j;

        for (k = 0; k < count; k++) {
            unsigned len = g_rand_int_range(g, 2, sizeof(buf));

            for (j = 0; j < len; j++) {
                buf[j] = g_rand_int_range(g, 0, 256);
            }
            fuzz_run(buf, len);
        }
        g_rand_free(g);
        printf("ran %u random inputs\n", count);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz-replay FILE|DIR... | --random N SEED\n");
        return 2;
    }
    for (i = 1; i < argc; i++) {
        n += run_path(argv[i]);
    }
    printf("ran %u inputs\n", n);
    return n ? 0 : 1;
}
