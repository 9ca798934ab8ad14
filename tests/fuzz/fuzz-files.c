/*
 * atalab fuzzers without libFuzzer: the inputs in files and directories
 * (fuzz-files.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz-files.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

unsigned fuzz_files_each(const char *path,
                         void (*fn)(const uint8_t *data, size_t len,
                                    void *opaque),
                         void *opaque)
{
    unsigned n = 0;

    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
        GDir *dir = g_dir_open(path, 0, NULL);
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
            n += fuzz_files_each(g_ptr_array_index(names, i), fn, opaque);
        }
    } else {
        g_autoptr(GError) err = NULL;
        g_autofree gchar *data = NULL;
        gsize len;

        if (!g_file_get_contents(path, &data, &len, &err)) {
            fprintf(stderr, "fuzz: %s\n", err->message);
            exit(2);
        }
        fn((const uint8_t *)data, len, opaque);
        n = 1;
    }
    return n;
}
