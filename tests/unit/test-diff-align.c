/*
 * atalab unit tests: the trace diff's alignment (tools/trace/diff-align.c).
 * Every script it gives is valid (the unmarked elements pair up with equal
 * keys), is a shortest one where the optimal search runs (checked against
 * a dynamic-programming LCS on random inputs), and stays fast and valid
 * for long, very different inputs (the heuristic split).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include <glib.h>

#include "diff-align.h"

/* The unmarked elements of a and b, in order, are equal; returns edits. */
static size_t check_script(const uint64_t *a, size_t na, const uint64_t *b,
                           size_t nb, const bool *del, const bool *ins)
{
    size_t i = 0, j = 0, edits = 0;

    for (;;) {
        while (i < na && del[i]) {
            i++;
            edits++;
        }
        while (j < nb && ins[j]) {
            j++;
            edits++;
        }
        if (i == na || j == nb) {
            break;
        }
        g_assert_cmpuint(a[i], ==, b[j]);
        i++;
        j++;
    }
    /* What is left on one side must all be marked. */
    g_assert_cmpuint(i, ==, na);
    g_assert_cmpuint(j, ==, nb);
    return edits;
}

static size_t lcs_length(const uint64_t *a, size_t na, const uint64_t *b,
                         size_t nb)
{
    g_autofree size_t *row = g_new0(size_t, nb + 1);
    size_t i, j;

    for (i = 1; i <= na; i++) {
        size_t diag = 0;

        for (j = 1; j <= nb; j++) {
            size_t up = row[j];

            row[j] = a[i - 1] == b[j - 1] ? diag + 1 : MAX(row[j], row[j - 1]);
            diag = up;
        }
    }
    return row[nb];
}

static size_t align_checked(const uint64_t *a, size_t na, const uint64_t *b,
                            size_t nb)
{
    g_autofree bool *del = g_new(bool, na + 1);
    g_autofree bool *ins = g_new(bool, nb + 1);

    diff_align(a, na, b, nb, del, ins);
    return check_script(a, na, b, nb, del, ins);
}

static void test_examples(void)
{
    static const uint64_t a[] = { 1, 2, 3, 4, 5, 6 };
    static const uint64_t b[] = { 1, 2, 9, 4, 5, 6, 7 };
    bool del[6], ins[7];
    DiffRun *runs;
    size_t n;

    g_assert_cmpuint(align_checked(a, 6, a, 6), ==, 0);
    g_assert_cmpuint(align_checked(a, 6, b, 7), ==, 3);
    g_assert_cmpuint(align_checked(a, 0, b, 7), ==, 7);
    g_assert_cmpuint(align_checked(a, 6, b, 0), ==, 6);

    diff_align(a, 6, b, 7, del, ins);
    n = diff_runs(del, 6, ins, 7, &runs);
    g_assert_cmpuint(n, ==, 5);
    g_assert_cmpint(runs[0].op, ==, DIFF_SAME);
    g_assert_cmpuint(runs[0].len, ==, 2);
    g_assert_cmpint(runs[1].op, ==, DIFF_DELETE);
    g_assert_cmpuint(runs[1].a_at, ==, 2);
    g_assert_cmpint(runs[2].op, ==, DIFF_INSERT);
    g_assert_cmpuint(runs[2].b_at, ==, 2);
    g_assert_cmpint(runs[3].op, ==, DIFF_SAME);
    g_assert_cmpuint(runs[3].len, ==, 3);
    g_assert_cmpint(runs[4].op, ==, DIFF_INSERT);
    g_assert_cmpuint(runs[4].b_at, ==, 6);
    g_free(runs);
}

/* Random sequences over small alphabets: shortest, as the DP says. */
static void test_random_shortest(void)
{
    GRand *r = g_rand_new_with_seed(7);
    unsigned round;

    for (round = 0; round < 2000; round++) {
        size_t na = g_rand_int_range(r, 0, 60), nb = g_rand_int_range(r, 0, 60);
        unsigned alpha = g_rand_int_range(r, 1, 6);
        g_autofree uint64_t *a = g_new(uint64_t, na + 1);
        g_autofree uint64_t *b = g_new(uint64_t, nb + 1);
        size_t i;

        for (i = 0; i < na; i++) {
            a[i] = g_rand_int_range(r, 0, alpha);
        }
        /* b: a copy of a with edits, or unrelated */
        for (i = 0; i < nb; i++) {
            b[i] = i < na && g_rand_int_range(r, 0, 4) ? a[i] :
                   (uint64_t)g_rand_int_range(r, 0, alpha);
        }
        g_assert_cmpuint(align_checked(a, na, b, nb), ==,
                         na + nb - 2 * lcs_length(a, na, b, nb));
    }
    g_rand_free(r);
}

/* Long and unrelated: the heuristic keeps it fast; the script is valid. */
static void test_long_unrelated(void)
{
    const size_t n = 50000;
    g_autofree uint64_t *a = g_new(uint64_t, n);
    g_autofree uint64_t *b = g_new(uint64_t, n);
    GRand *r = g_rand_new_with_seed(11);
    size_t i, edits;

    for (i = 0; i < n; i++) {
        a[i] = g_rand_int_range(r, 0, 50);
        b[i] = g_rand_int_range(r, 0, 50);
    }
    edits = align_checked(a, n, b, n);
    g_assert_cmpuint(edits, <=, 2 * n);
    g_assert_cmpuint(edits, >, 0);
    /* Nearly equal and long: few edits, found exactly. */
    memcpy(b, a, n * sizeof(*a));
    b[n / 3] = 999;
    b[2 * n / 3] = 998;
    g_assert_cmpuint(align_checked(a, n, b, n), ==, 4);
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/diff-align/examples", test_examples);
    g_test_add_func("/diff-align/random-shortest", test_random_shortest);
    g_test_add_func("/diff-align/long-unrelated", test_long_unrelated);
    return g_test_run();
}
