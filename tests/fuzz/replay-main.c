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
#include "fuzz-files.h"

static void run_one(const uint8_t *data, size_t len, void *opaque)
{
    (void)opaque;
    fuzz_run(data, len);
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
        n += fuzz_files_each(argv[i], run_one, NULL);
    }
    printf("ran %u inputs\n", n);
    return n ? 0 : 1;
}
