/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Coverage sets: the lines of libata and the PIIX drivers that explore's
 * runs executed (atalab-explore cover, count, summary, merge).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"

/* The files explore is about, by the end of their path. */
static const char *const target_files[] = {
    "/drivers/ata/libata-core.c", "/drivers/ata/libata-eh.c", "/drivers/ata/libata-sff.c",
    "/drivers/ata/libata-scsi.c", "/drivers/ata/ata_piix.c", "/atalab_piix.c",
};

static const char *target_name(const char *path)
{
    for (size_t i = 0; i < G_N_ELEMENTS(target_files); i++) {
        if (g_str_has_suffix(path, target_files[i])) {
            return strrchr(target_files[i], '/') + 1;
        }
    }
    return NULL;
}

/* Marks KEY in LINES hit (HIT) or, if it is not there yet, found; true
 * when KEY was not hit before and is now. */
static bool mark_line(GHashTable *lines, const char *key, bool hit)
{
    gpointer old;
    bool known = g_hash_table_lookup_extended(lines, key, NULL, &old);

    if (hit && (!known || !old)) {
        g_hash_table_replace(lines, g_strdup(key), GINT_TO_POINTER(1));
        return true;
    }
    if (!known) {
        g_hash_table_insert(lines, g_strdup(key), GINT_TO_POINTER(0));
    }
    return false;
}

/* SET's lines into LINES ("file:line" -> TRUE for hit, FALSE for found);
 * a line hit in LINES or in SET stays hit.  A SET that does not exist is
 * empty. */
static bool load_set(const char *path, GHashTable *lines)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) v = NULL;

    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        return true;
    }
    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        fprintf(stderr, "atalab-explore: cannot read %s\n", path);
        return false;
    }
    v = g_strsplit(text, "\n", -1);
    for (unsigned i = 0; v[i]; i++) {
        if ((v[i][0] == 'H' || v[i][0] == 'F') && v[i][1] == ' ' && strchr(v[i] + 2, ':')) {
            mark_line(lines, v[i] + 2, v[i][0] == 'H');
        } else if (v[i][0]) {
            fprintf(stderr, "atalab-explore: %s:%u:1: not a coverage line\n", path, i + 1);
            return false;
        }
    }
    return true;
}

/* An lcov tracefile's lines of the target files into LINES; *ADDED counts
 * the lines it hit that LINES had not. */
static bool fold_info(GHashTable *lines, const char *info, unsigned *added)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) v = NULL;
    const char *file = NULL;

    *added = 0;
    if (!g_file_get_contents(info, &text, NULL, NULL)) {
        fprintf(stderr, "atalab-explore: cannot read %s\n", info);
        return false;
    }
    v = g_strsplit(text, "\n", -1);
    for (unsigned i = 0; v[i]; i++) {
        unsigned line;
        unsigned long long count;
        g_autofree char *key = NULL;

        if (g_str_has_prefix(v[i], "SF:")) {
            file = target_name(v[i] + 3);
            continue;
        }
        if (!file || sscanf(v[i], "DA:%u,%llu", &line, &count) != 2) {
            continue;
        }
        key = g_strdup_printf("%s:%u", file, line);
        *added += mark_line(lines, key, count > 0);
    }
    return true;
}

static int compare_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool save_set(const char *path, GHashTable *lines)
{
    g_autofree char *tmp = g_strconcat(path, ".tmp", NULL);
    g_autofree gpointer *keys = NULL;
    guint n;
    GString *g = g_string_new(NULL);
    bool ok;

    keys = g_hash_table_get_keys_as_array(lines, &n);
    qsort(keys, n, sizeof(*keys), compare_str);
    for (guint i = 0; i < n; i++) {
        g_string_append_printf(g, "%c %s\n",
                               g_hash_table_lookup(lines, keys[i]) ? 'H' : 'F',
                               (char *)keys[i]);
    }
    ok = g_file_set_contents(tmp, g->str, g->len, NULL) && !rename(tmp, path);
    g_string_free(g, true);
    if (!ok) {
        fprintf(stderr, "atalab-explore: cannot write %s\n", path);
    }
    return ok;
}

/* The lines of a coverage set some run executed. */
static unsigned count_hit(GHashTable *lines)
{
    GHashTableIter it;
    gpointer value;
    unsigned hit = 0;

    g_hash_table_iter_init(&it, lines);
    while (g_hash_table_iter_next(&it, NULL, &value)) {
        hit += value != NULL;
    }
    return hit;
}

int explore_cover(const char *set, const char *info)
{
    g_autoptr(GHashTable) lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    unsigned added;

    if (!load_set(set, lines) || !fold_info(lines, info, &added) || !save_set(set, lines)) {
        return 2;
    }
    printf("new %u hit %u found %u\n", added, count_hit(lines), g_hash_table_size(lines));
    return 0;
}

int explore_count(const char *set)
{
    g_autoptr(GHashTable) lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    if (!load_set(set, lines)) {
        return 2;
    }
    printf("hit %u found %u\n", count_hit(lines), g_hash_table_size(lines));
    return 0;
}

/* The lines of the target files an lcov tracefile hit. */
bool explore_info_hit(const char *info, unsigned *hit)
{
    g_autoptr(GHashTable) lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    unsigned added;

    if (!fold_info(lines, info, &added)) {
        return false;
    }
    *hit = count_hit(lines);
    return true;
}

/* LINES' hit and found lines per target file, [last] for all of them. */
static void per_file(GHashTable *lines, unsigned *hit, unsigned *found)
{
    GHashTableIter it;
    gpointer key, value;
    size_t n = G_N_ELEMENTS(target_files);

    g_hash_table_iter_init(&it, lines);
    while (g_hash_table_iter_next(&it, &key, &value)) {
        for (size_t i = 0; i < n; i++) {
            const char *name = strrchr(target_files[i], '/') + 1;
            size_t len = strlen(name);

            if (!strncmp(key, name, len) && ((char *)key)[len] == ':') {
                found[i]++;
                hit[i] += value != NULL;
                found[n]++;
                hit[n] += value != NULL;
            }
        }
    }
}

static double share(unsigned hit, unsigned found)
{
    return found ? 100.0 * hit / found : 0.0;
}

/*
 * Lines hit per target file; with AGAINST (an lcov tracefile, e.g. the
 * scenario library's from `tools/atalab scenario --coverage`), its figures
 * for the same files next to them.
 */
int explore_summary(const char *set, const char *against)
{
    g_autoptr(GHashTable) lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GHashTable) other = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    size_t n = G_N_ELEMENTS(target_files);
    unsigned hit[G_N_ELEMENTS(target_files) + 1] = { 0 };
    unsigned found[G_N_ELEMENTS(target_files) + 1] = { 0 };
    unsigned ohit[G_N_ELEMENTS(target_files) + 1] = { 0 };
    unsigned ofound[G_N_ELEMENTS(target_files) + 1] = { 0 };
    unsigned added;

    if (!load_set(set, lines) || (against && !fold_info(other, against, &added))) {
        return 2;
    }
    per_file(lines, hit, found);
    per_file(other, ohit, ofound);
    for (size_t i = 0; i <= n; i++) {
        if (i < n && !found[i] && !ofound[i]) {
            continue;
        }
        printf("coverage: %-14s %5.1f%% of lines (%u of %u)",
               i < n ? strrchr(target_files[i], '/') + 1 : "all", share(hit[i], found[i]),
               hit[i], found[i]);
        if (against) {
            printf("; against %5.1f%% (%u of %u)", share(ohit[i], ofound[i]), ohit[i], ofound[i]);
        }
        printf("\n");
    }
    return 0;
}

/* OUT := the union of SETS (and of OUT, when it exists). */
int explore_merge(const char *out, int n, char **sets)
{
    g_autoptr(GHashTable) lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    if (!load_set(out, lines)) {
        return 2;
    }
    for (int i = 0; i < n; i++) {
        if (!g_file_test(sets[i], G_FILE_TEST_IS_REGULAR)) {
            fprintf(stderr, "atalab-explore: %s: no such coverage set\n", sets[i]);
            return 2;
        }
        if (!load_set(sets[i], lines)) {
            return 2;
        }
    }
    if (!save_set(out, lines)) {
        return 2;
    }
    printf("hit %u found %u\n", count_hit(lines), g_hash_table_size(lines));
    return 0;
}
