/*
 * atalab unit tests: the trace reader (tools/trace/trace-read.c) -- every
 * form of the record table round-trips (written from its spec, parsed,
 * written again), malformed records and files are refused with where and
 * why, and a trace written by the core reads back record by record.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "rig.h"
#include "trace-read.h"

/* A value of TYPE (trace-records.h) for a sample record. */
static void sample_value(GString *s, const char *type, size_t len,
                         unsigned salt)
{
#define IS(t) (len == strlen(t) && !strncmp(type, t, len))
    if (IS("dec") || IS("num")) {
        g_string_append_printf(s, "%u", 17 + salt);
    } else if (IS("int")) {
        g_string_append_printf(s, "-%u", 5 + salt);
    } else if (IS("hex") || IS("HEX")) {
        g_string_append_printf(s, "0x%02x", 0xa0 + salt);
    } else if (IS("bool")) {
        g_string_append(s, salt % 2 ? "1" : "0");
    } else if (IS("word") || IS("WORD") || IS("REST")) {
        g_string_append_printf(s, "w%u", salt);
    } else {
        /* "a|b": the last alternative */
        const char *bar = g_strrstr_len(type, len, "|");

        if (bar) {
            g_string_append_len(s, bar + 1, type + len - bar - 1);
        } else {
            g_string_append_len(s, type, len);
        }
    }
#undef IS
}

/* Every field of spec (words or keys), optional ones included or not. */
static void sample_fields(GString *s, const char *spec, bool keys,
                          bool optional, unsigned *salt)
{
    g_auto(GStrv) items = g_strsplit(spec, " ", -1);
    unsigned i;

    for (i = 0; items[i]; i++) {
        size_t len = strlen(items[i]);
        const char *type = items[i];

        if (!len || (items[i][len - 1] == '?' && !optional)) {
            continue;
        }
        len -= items[i][len - 1] == '?';
        g_string_append_c(s, ' ');
        if (keys) {
            const char *colon = strchr(items[i], ':');

            g_string_append_len(s, items[i], colon - items[i] + 1);
            s->str[s->len - 1] = '=';
            len -= colon + 1 - type;
            type = colon + 1;
        }
        sample_value(s, type, len, (*salt)++);
    }
}

static char *sample_record(const AtalabTraceForm *f, bool optional)
{
    GString *s = g_string_new("123 ");
    unsigned salt = 0;

    if (!strcmp(f->source, "*")) {
        g_string_append(s, "ata1 w 0x7 1 0xec");
    } else {
        g_string_append(s, f->source);
        if (!strcmp(f->source, "ata") || !strcmp(f->source, "irq")) {
            g_string_append_c(s, '1');
        }
        if (f->kind) {
            g_string_append_printf(s, " %s", f->kind);
        }
        if (f->unit == ATALAB_UNIT_DEV) {
            g_string_append(s, " d1");
        } else if (f->unit == ATALAB_UNIT_CH) {
            g_string_append(s, " ch1");
        }
        sample_fields(s, f->words, false, optional, &salt);
    }
    sample_fields(s, f->keys, true, optional, &salt);
    return g_string_free(s, FALSE);
}

static void test_every_form_round_trips(void)
{
    unsigned i, k;

    for (i = 0; i < ATALAB_REC_N; i++) {
        const AtalabTraceForm *f = &atalab_trace_forms[i];

        for (k = 0; k < 2; k++) {
            g_autofree char *line = sample_record(f, k);
            g_autofree char *again = NULL;
            g_autofree char *why = NULL;
            AtalabTraceRecord rec;

            if (!atalab_trace_parse(line, true, &rec, &why)) {
                g_error("%s: %s: %s", f->name, line, why);
            }
            g_assert_cmpstr(atalab_trace_forms[rec.kind].name, ==, f->name);
            g_assert_cmpint(rec.time, ==, 123);
            g_assert_cmpint(rec.channel, ==,
                            strcmp(f->source, "cfg") ? 1 : -1);
            again = atalab_trace_format(&rec);
            g_assert_cmpstr(again, ==, line);
            atalab_trace_record_clear(&rec);
        }
    }
}

/* The reader's names of the forms are the table's rows, in order. */
static void test_kinds_name_the_table(void)
{
    static const char *const names[] = {
#define NAME_OF(id, source, kind, unit, words, keys) #id,
        ATALAB_TRACE_RECORDS(NAME_OF)
#undef NAME_OF
    };
    unsigned i;

    g_assert_cmpuint(atalab_trace_n_forms, ==, ATALAB_REC_N);
    g_assert_cmpuint(G_N_ELEMENTS(names), ==, ATALAB_REC_N);
    for (i = 0; i < ATALAB_REC_N; i++) {
        g_assert_cmpstr(atalab_trace_forms[i].name, ==, names[i]);
    }
    g_assert_cmpstr(atalab_trace_forms[ATALAB_REC_ATA_FAULT].name, ==,
                    "ATA_FAULT");
}

static void test_fields(void)
{
    AtalabTraceRecord rec;
    char *why = NULL;
    uint64_t v;

    g_assert_true(atalab_trace_parse("5 ata0 io d1 read lba=100 count=8 "
                                     "pre-image seq=4", true, &rec, &why));
    g_assert_cmpint(rec.kind, ==, ATALAB_REC_ATA_IO);
    g_assert_cmpint(atalab_trace_device(&rec), ==, 1);
    g_assert_cmpstr(atalab_trace_word(&rec, 0), ==, "read");
    g_assert_cmpstr(atalab_trace_word(&rec, 1), ==, "pre-image");
    g_assert_null(atalab_trace_word(&rec, 2));
    g_assert_true(atalab_trace_get_u64(&rec, "count", &v));
    g_assert_cmpuint(v, ==, 8);
    g_assert_null(atalab_trace_get(&rec, "fua"));
    atalab_trace_record_clear(&rec);
    g_assert_true(atalab_trace_parse("7 bm w 0xa 1 0x04 reg=BMISX bits=INTR",
                                     true, &rec, &why));
    g_assert_cmpint(rec.kind, ==, ATALAB_REC_ACCESS);
    g_assert_cmpint(rec.channel, ==, 1);
    g_assert_true(rec.write);
    g_assert_cmphex(rec.offset, ==, 0xa);
    g_assert_cmphex(rec.value, ==, 0x04);
    atalab_trace_record_clear(&rec);
    /* The forms of one kind are told apart by their words */
    g_assert_true(atalab_trace_parse("9 ata0 fault d0 power-cut restore "
                                     "failed lba=3 ret=-5 seq=2", true, &rec,
                                     &why));
    g_assert_cmpint(rec.kind, ==, ATALAB_REC_ATA_FAULT_RESTORE_FAILED);
    atalab_trace_record_clear(&rec);
    /* Not strict: a key of a newer writer is kept */
    g_assert_true(atalab_trace_parse("9 irq0 1 dev=0 seq=1 new=x", false,
                                     &rec, &why));
    g_assert_cmpstr(atalab_trace_get(&rec, "new"), ==, "x");
    atalab_trace_record_clear(&rec);
}

static void test_malformed_records(void)
{
    static const struct {
        const char *line, *why;
    } bad[] = {
        { "x cfg reset", "time 'x' is not a number" },
        { "1 sata0 reset", "unknown source 'sata0'" },
        { "1 ata0 explode d0", "unknown record 'ata0 explode'" },
        { "1 ata0 done d0 0xc8 seq=1", "status= missing" },
        { "1 ata0 done d2 0xc8 status=0x50 seq=1", "d0 or d1 missing" },
        { "1 ata0 done d0 200 status=0x50 seq=1",
          "'200' where HEX belongs" },
        { "1 ata0 io d0 read lba=x seq=1", "lba=x is not dec" },
        { "1 ata0 io d0 read seq=1 seq=2", "seq= twice" },
        { "1 ata0 io d0 read seq=1 color=red", "unknown key color=" },
        { "1 ata0 power d0 asleep seq=1", "'asleep' where" },
        { "1 ata0 r 0x7 1 0x5", "value '0x5' is not 0x and 2 hex digits" },
        { "1 ata0 r 0x7 3 0x050505", "size '3' is not 1, 2 or 4" },
        { "1 ata0 r 0x7", "an access needs offset, size and value" },
        { "1  cfg reset", "empty field" },
        { "1 cfg reset ", "empty field" },
        { "1 ata0 fault d0 power-cut seq=1",
          "ata0 fault matches none of its 9 forms" },
    };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *why = NULL;
        AtalabTraceRecord rec;

        g_assert_false(atalab_trace_parse(bad[i].line, true, &rec, &why));
        if (!strstr(why, bad[i].why)) {
            g_error("%s: '%s', wanted '%s'", bad[i].line, why, bad[i].why);
        }
    }
}

static char *write_file(const char *text)
{
    char *path = NULL;
    int fd = g_file_open_tmp("trace-read-XXXXXX", &path, NULL);

    g_assert_cmpint(fd, >=, 0);
    close(fd);
    g_assert_true(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static void test_files(void)
{
    static const struct {
        const char *text, *why;
    } bad[] = {
        { "1 cfg reset\n", ":1: not an atalab trace" },
        { "# atalab-trace 3\n", ":1: trace version 3" },
        { "# atalab-trace 2\n#nokey\n", ":2: a header line is" },
        { "# atalab-trace 2\n# a b\n1 cfg reset\n2 cfg bogus\n",
          ":4: unknown record 'cfg bogus'" },
        { "# atalab-trace 2\n1 cfg reset\n# late x\n",
          ":3: a header line after the records" },
    };
    g_autofree char *good = write_file("# atalab-trace 2\n# personality ich5\n"
                                       "# fault unc id=a drive=0\n"
                                       "# fault abrt id=b drive=1\n"
                                       "1 cfg reset\n2 irq0 1 dev=0 seq=1\n");
    g_autoptr(GError) err = NULL;
    AtalabTraceRecord rec = { 0 };
    AtalabTraceFile *f = atalab_trace_open(good, true, &err);
    unsigned i;

    g_assert_no_error(err);
    g_assert_cmpstr(atalab_trace_header(f, "personality"), ==, "ich5");
    g_assert_cmpstr(atalab_trace_header(f, "fault"), ==, "unc id=a drive=0");
    g_assert_cmpuint(atalab_trace_header_lines(f)->len, ==, 3);
    g_assert_null(atalab_trace_header(f, "person"));
    g_assert_cmpint(atalab_trace_next(f, &rec, &err), ==, 1);
    g_assert_cmpint(rec.kind, ==, ATALAB_REC_CFG_RESET);
    g_assert_cmpint(atalab_trace_next(f, &rec, &err), ==, 1);
    g_assert_cmpint(rec.kind, ==, ATALAB_REC_IRQ);
    g_assert_cmpuint(atalab_trace_line(f), ==, 6);
    g_assert_cmpint(atalab_trace_next(f, &rec, &err), ==, 0);
    atalab_trace_record_clear(&rec);
    atalab_trace_close(f);
    g_unlink(good);

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *path = write_file(bad[i].text);
        g_autoptr(GError) e = NULL;
        int r = 0;

        f = atalab_trace_open(path, true, &e);
        while (f && (r = atalab_trace_next(f, &rec, &e)) > 0) {
        }
        g_assert_nonnull(e);
        if (!g_str_has_prefix(e->message, path) ||
            !strstr(e->message, bad[i].why)) {
            g_error("'%s': got '%s'", bad[i].why, e->message);
        }
        g_assert_true(!f || r < 0);
        atalab_trace_record_clear(&rec);
        atalab_trace_close(f);
        g_unlink(path);
    }
}

/* What the core writes, read back: the same records. */
static void test_core_trace_reads_back(void)
{
    Rig *r = rig_new(0x3);
    g_autofree char *header = atalab_ctrl_trace_header(r->c, NULL);
    GString *text = g_string_new(header);
    g_autofree char *path = NULL;
    g_autoptr(GError) err = NULL;
    AtalabTraceRecord rec = { 0 };
    AtalabTraceFile *f;
    uint16_t w[256];
    unsigned i = 0;

    rig_identify(r, 0, w);
    rig_identify(r, 1, w);
    fake_host_trace_flush(&r->fh);
    for (i = 0; i < r->fh.trace->len; i++) {
        g_string_append_printf(text, "%s\n",
                               (char *)g_ptr_array_index(r->fh.trace, i));
    }
    path = write_file(text->str);
    f = atalab_trace_open(path, true, &err);
    g_assert_no_error(err);
    g_assert_cmpstr(atalab_trace_header(f, "personality"), ==, "piix4");
    g_assert_cmpstr(atalab_trace_header(f, "drive1"), ==, "sectors=8192");
    for (i = 0; atalab_trace_next(f, &rec, &err) > 0; i++) {
        g_autofree char *again = atalab_trace_format(&rec);

        g_assert_cmpstr(again, ==, g_ptr_array_index(r->fh.trace, i));
    }
    g_assert_no_error(err);
    g_assert_cmpuint(i, ==, r->fh.trace->len);
    atalab_trace_record_clear(&rec);
    atalab_trace_close(f);
    g_unlink(path);
    g_string_free(text, TRUE);
    rig_free(r);
}

/* The trace tools' one JSON escaper: valid JSON, safe inside <script>. */
static void test_json_string(void)
{
    GString *g = g_string_new(NULL);

    atalab_json_string(g, NULL);
    g_string_append_c(g, ' ');
    atalab_json_string(g, "");
    g_string_append_c(g, ' ');
    atalab_json_string(g, "a \"q\" b\\c\td\r\n\x01");
    g_string_append_c(g, ' ');
    atalab_json_string(g, "</script><b>&amp;");
    g_string_append_c(g, ' ');
    atalab_json_string(g, "caf\xc3\xa9 \x7f");
    g_assert_cmpstr(g->str, ==,
                    "null \"\" \"a \\\"q\\\" b\\\\c\\u0009d\\u000d"
                    "\\u000a\\u0001\" "
                    "\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026amp;\" "
                    "\"caf\xc3\xa9 \x7f\"");
    g_string_free(g, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/trace-read/every-form-round-trips",
                    test_every_form_round_trips);
    g_test_add_func("/trace-read/kinds-name-the-table",
                    test_kinds_name_the_table);
    g_test_add_func("/trace-read/fields", test_fields);
    g_test_add_func("/trace-read/malformed-records", test_malformed_records);
    g_test_add_func("/trace-read/files", test_files);
    g_test_add_func("/trace-read/json-string", test_json_string);
    g_test_add_func("/trace-read/core-trace-reads-back",
                    test_core_trace_reads_back);
    return g_test_run();
}
