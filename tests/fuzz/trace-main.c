/*
 * atalab trace fuzzer without libFuzzer: replay the traces in the files and
 * directories given (the golden traces, the regression inputs), then, with
 * --mutate N SEED, N mutants of them (bytes flipped, lines dropped,
 * doubled or swapped, numbers changed), under ASan and UBSan.  Prints how
 * each replay ended; exit 0 when none crashed (a crash or a broken core
 * invariant aborts).  Files ending in .md are notes, not inputs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fuzz-files.h"
#include "fuzz-trace.h"

static GPtrArray *inputs;       /* GBytes *, from the paths given */

static void keep(const uint8_t *data, size_t len, void *opaque)
{
    (void)opaque;
    g_ptr_array_add(inputs, g_bytes_new(data, len));
}

/* The lines of a text, as offsets: line i is [start[i], start[i+1]). */
static GArray *line_starts(const char *p, size_t len)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(size_t));
    size_t i, z = 0;

    g_array_append_val(a, z);
    for (i = 0; i < len; i++) {
        if (p[i] == '\n') {
            size_t next = i + 1;

            g_array_append_val(a, next);
        }
    }
    if (g_array_index(a, size_t, a->len - 1) != len) {
        g_array_append_val(a, len);
    }
    return a;
}

static GString *mutate(GRand *g, const char *p, size_t len)
{
    g_autoptr(GArray) ls = NULL;
    GString *s = g_string_new_len(p, len);
    unsigned lines, a, b;
    size_t a0, a1, b0, b1, at;

    if (!len) {
        return s;
    }
    ls = line_starts(p, len);
    lines = ls->len - 1;
    a = g_rand_int_range(g, 0, lines);
    b = g_rand_int_range(g, 0, lines);
    a0 = g_array_index(ls, size_t, a);
    a1 = g_array_index(ls, size_t, a + 1);
    b0 = g_array_index(ls, size_t, b);
    b1 = g_array_index(ls, size_t, b + 1);

    switch (g_rand_int_range(g, 0, 6)) {
    case 0:                     /* a byte flipped */
        at = g_rand_int_range(g, 0, len);
        s->str[at] ^= 1 << g_rand_int_range(g, 0, 8);
        break;
    case 1:                     /* a line dropped */
        g_string_erase(s, a0, a1 - a0);
        break;
    case 2:                     /* a line doubled */
        g_string_insert_len(s, a0, p + a0, a1 - a0);
        break;
    case 3:                     /* line b moved before line a */
        if (b0 > a1) {
            g_string_erase(s, b0, b1 - b0);
            g_string_insert_len(s, a0, p + b0, b1 - b0);
        }
        break;
    case 4: {                   /* a number changed */
        static const char *const nums[] = {
            "0", "1", "7", "65535", "4294967295", "-1", "0xff",
            "99999999999999999999", "16777216",
        };
        const char *d = memchr(p + a0, '=', a1 - a0);

        if (d) {
            size_t v = d + 1 - p, e = v;

            while (e < a1 && p[e] != ' ' && p[e] != '\n') {
                e++;
            }
            g_string_erase(s, v, e - v);
            g_string_insert(s, v, nums[g_rand_int_range(g, 0, G_N_ELEMENTS(nums))]);
        }
        break;
    }
    default:                    /* the trace cut short */
        g_string_truncate(s, g_rand_int_range(g, 0, len));
        break;
    }
    return s;
}

int main(int argc, char **argv)
{
    unsigned count = 0, seed = 0, i, k, status[3] = { 0 };
    int a = 1;

    inputs = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
    if (argc > 3 && !strcmp(argv[1], "--mutate")) {
        count = strtoul(argv[2], NULL, 0);
        seed = strtoul(argv[3], NULL, 0);
        a = 4;
    }
    if (a >= argc) {
        fprintf(stderr, "usage: fuzz-trace [--mutate N SEED] PATH...\n");
        return 2;
    }
    for (; a < argc; a++) {
        fuzz_files_each(argv[a], keep, NULL);
    }
    for (i = 0; i < inputs->len; i++) {
        gsize len;
        const uint8_t *d = g_bytes_get_data(g_ptr_array_index(inputs, i), &len);

        status[fuzz_trace_run(d, len) % 3]++;
    }
    printf("%u inputs: %u agree, %u diverge, %u refused\n", inputs->len,
           status[0], status[1], status[2]);
    if (count && inputs->len) {
        GRand *g = g_rand_new_with_seed(seed);
        unsigned m[3] = { 0 };

        for (k = 0; k < count; k++) {
            gsize len;
            const char *d = g_bytes_get_data(
                g_ptr_array_index(inputs, g_rand_int_range(g, 0, inputs->len)),
                &len);
            GString *s = mutate(g, d, len);
            unsigned extra = g_rand_int_range(g, 0, 3);

            while (extra--) {
                GString *t = mutate(g, s->str, s->len);

                g_string_free(s, TRUE);
                s = t;
            }
            m[fuzz_trace_run((const uint8_t *)s->str, s->len) % 3]++;
            g_string_free(s, TRUE);
        }
        g_rand_free(g);
        printf("%u mutants: %u agree, %u diverge, %u refused\n", count, m[0],
               m[1], m[2]);
    }
    g_ptr_array_unref(inputs);
    return 0;
}
