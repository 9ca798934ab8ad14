/*
 * atalab unit tests: a trace as a Value Change Dump (tools/trace/trace-vcd.c),
 * read back by a small VCD parser of our own (IEEE 1364-2005 section 18:
 * declarations, then #time and value changes): every change names a
 * declared signal with a value of its width, times only go forward, and
 * the signals hold the values the records say, when they say.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "trace-vcd.h"

typedef struct Change {
    int64_t t;
    char *value;                /* "0", "1", "x", or the bits of a vector */
} Change;

typedef struct Signal {
    char *name;                 /* "ide.ch0.d0.bsy" */
    unsigned width;
    GArray *changes;            /* Change */
} Signal;

typedef struct Dump {
    GHashTable *by_id;          /* id -> Signal */
    GHashTable *by_name;        /* name -> Signal (borrowed) */
    unsigned changes;
} Dump;

static void signal_free(gpointer p)
{
    Signal *s = p;
    unsigned i;

    for (i = 0; i < s->changes->len; i++) {
        g_free(g_array_index(s->changes, Change, i).value);
    }
    g_array_unref(s->changes);
    g_free(s->name);
    g_free(s);
}

static void dump_free(Dump *d)
{
    g_hash_table_unref(d->by_name);
    g_hash_table_unref(d->by_id);
    g_free(d);
}

static void change(Dump *d, const char *id, const char *value, int64_t t)
{
    Signal *s = g_hash_table_lookup(d->by_id, id);
    Change c = { t, g_strdup(value) };

    g_assert_nonnull(s);        /* a change of a declared signal */
    if (s->width == 1) {
        g_assert_true(!strcmp(value, "0") || !strcmp(value, "1") ||
                      !strcmp(value, "x"));
    } else {
        g_assert_true(!strcmp(value, "x") || strlen(value) == s->width);
        g_assert_cmpuint(strspn(value, "01x"), ==, strlen(value));
    }
    g_array_append_val(s->changes, c);
    d->changes++;
}

/* Parse text as VCD; fails the test on anything the format does not allow. */
static Dump *parse(const char *text)
{
    Dump *d = g_new0(Dump, 1);
    g_auto(GStrv) tok = g_strsplit_set(text, " \n", -1);
    g_autoptr(GPtrArray) scope = g_ptr_array_new();
    bool defs = true;
    int64_t t = -1;
    unsigned i;

    d->by_id = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                     signal_free);
    d->by_name = g_hash_table_new(g_str_hash, g_str_equal);
    for (i = 0; tok[i]; i++) {
        const char *w = tok[i];

        if (!*w) {
            continue;
        }
        if (defs) {
            if (!strcmp(w, "$scope")) {
                g_assert_cmpstr(tok[i + 1], ==, "module");
                g_ptr_array_add(scope, tok[i + 2]);
                g_assert_cmpstr(tok[i + 3], ==, "$end");
                i += 3;
            } else if (!strcmp(w, "$upscope")) {
                g_assert_cmpuint(scope->len, >, 0);
                g_ptr_array_remove_index(scope, scope->len - 1);
                i++;
            } else if (!strcmp(w, "$var")) {
                Signal *s = g_new0(Signal, 1);
                GString *name = g_string_new(NULL);
                unsigned k;

                for (k = 0; k < scope->len; k++) {
                    g_string_append_printf(name, "%s.",
                                           (char *)g_ptr_array_index(scope, k));
                }
                g_string_append(name, tok[i + 4]);
                s->name = g_string_free(name, FALSE);
                s->width = atoi(tok[i + 2]);
                s->changes = g_array_new(FALSE, FALSE, sizeof(Change));
                g_assert_false(g_hash_table_contains(d->by_id, tok[i + 3]));
                g_hash_table_insert(d->by_id, g_strdup(tok[i + 3]), s);
                g_hash_table_insert(d->by_name, s->name, s);
                g_assert_cmpstr(tok[i + 5], ==, "$end");
                i += 5;
            } else if (!strcmp(w, "$enddefinitions")) {
                g_assert_cmpuint(scope->len, ==, 0);
                defs = false;
                i++;
            } else if (w[0] == '$') {
                while (tok[i] && strcmp(tok[i], "$end")) {
                    i++;        /* $comment, $timescale: skipped */
                }
                g_assert_nonnull(tok[i]);
            } else {
                g_assert_not_reached();
            }
            continue;
        }
        if (w[0] == '#') {
            int64_t nt = g_ascii_strtoll(w + 1, NULL, 10);

            g_assert_cmpint(nt, >, t);  /* times only go forward */
            t = nt;
        } else if (!strcmp(w, "$dumpvars") || !strcmp(w, "$end")) {
            continue;
        } else if (w[0] == 'b') {
            g_assert_cmpint(t, >=, 0);
            change(d, tok[i + 1], w + 1, t);
            i++;
        } else {
            g_assert_cmpint(t, >=, 0);
            g_assert_true(strchr("01x", w[0]));
            change(d, w + 1, (char[2]) { w[0], 0 }, t);
        }
    }
    g_assert_false(defs);
    return d;
}

/* The value of signal name at time t ("0", "1", "x", bits). */
static const char *value_at(Dump *d, const char *name, int64_t t)
{
    Signal *s = g_hash_table_lookup(d->by_name, name);
    const char *v = NULL;
    unsigned i;

    g_assert_nonnull(s);
    for (i = 0; i < s->changes->len; i++) {
        Change *c = &g_array_index(s->changes, Change, i);

        if (c->t > t) {
            break;
        }
        v = c->value;
    }
    g_assert_nonnull(v);
    return v;
}

static const char *HEADER =
    "# atalab-trace 2\n# personality piix4\n# cable0 40\n# cable1 40\n"
    "# trace-data block\n# trace-time absolute\n# drive0 sectors=32768\n"
    "# drive1 absent\n# drive2 absent\n# drive3 absent\n";

/* The VCD of a trace text: exit status, the dump text. */
static int to_vcd(const char *trace, char **vcd, char **errors)
{
    g_autofree char *path = NULL;
    g_autoptr(GError) err = NULL;
    int fd = g_file_open_tmp("vcd-XXXXXX.trace", &path, NULL);
    AtalabTraceFile *f;
    size_t len, elen;
    FILE *out = open_memstream(vcd, &len), *e = open_memstream(errors, &elen);
    int rc;

    g_assert_cmpint(fd, >=, 0);
    g_assert_true(g_file_set_contents(path, trace, -1, NULL));
    close(fd);
    f = atalab_trace_open(path, true, &err);
    g_assert_no_error(err);
    rc = trace_vcd(f, out, e);
    fclose(out);
    fclose(e);
    g_unlink(path);
    return rc;
}

static void test_signals(void)
{
    g_autofree char *trace = g_strconcat(HEADER,
        "100 ata0 timing d0 bank=fast isp=3 rtc=1 iordy=1 prefetch=1 "
        "pio=120ns/pio4 mwdma=120ns/mwdma2 udma=on:udma2 ct=2 clk=33\n"
        "200 ata0 cmd d0 0xc8 READ_DMA lba=0 count=8 seq=1\n"
        "210 bm start ch0 prdt=0x00001000 to-memory dev=0 seq=1\n"
        "220 ctl0 r 0x0 1 0xd0 reg=AltStatus bits=BSY|DRDY|DSC dev=0 seq=1\n"
        "300 bm done ch0 status=0x24 dev=0 seq=1\n"
        "305 ata0 done d0 0xc8 status=0x50 seq=1\n"
        "310 irq0 1 dev=0 seq=1\n"
        /* written late by a fold: drawn at the latest time, 310 */
        "250 ata0 r 0x7 1 0x58 reg=Status bits=DRDY|DSC|DRQ dev=0 seq=1\n"
        "400 irq0 0 dev=0 seq=1\n"
        "410 bm r 0x2 1 0x04 reg=BMISX bits=INTR dev=0 seq=1\n"
        "500 ata0 timing d0 bank=fast isp=3 rtc=1 iordy=1 prefetch=1 "
        "pio=120ns/pio4 mwdma=120ns/mwdma2 udma=off:udma2 ct=2 clk=33\n",
        NULL);
    g_autofree char *vcd = NULL, *errors = NULL;
    Dump *d;

    g_assert_cmpint(to_vcd(trace, &vcd, &errors), ==, 0);
    d = parse(vcd);
    /* an absent drive has no signals */
    g_assert_null(g_hash_table_lookup(d->by_name, "ide.ch0.d1.bsy"));
    g_assert_cmpstr(value_at(d, "ide.ch0.intrq", 0), ==, "x");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.udma", 99), ==, "x");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.udma", 100), ==, "00000010");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.pio", 100), ==, "00000100");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.mwdma", 100), ==, "00000010");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.cmd", 200), ==, "11001000");
    g_assert_cmpstr(value_at(d, "ide.ch0.bm_active", 209), ==, "x");
    g_assert_cmpstr(value_at(d, "ide.ch0.bm_active", 210), ==, "1");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.bsy", 220), ==, "1");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.drq", 220), ==, "0");
    g_assert_cmpstr(value_at(d, "ide.ch0.bm_active", 300), ==, "0");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.bsy", 305), ==, "0");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.cmd", 305), ==, "00000000");
    g_assert_cmpstr(value_at(d, "ide.ch0.intrq", 310), ==, "1");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.drq", 309), ==, "0");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.drq", 310), ==, "1");
    g_assert_cmpstr(value_at(d, "ide.ch0.intrq", 400), ==, "0");
    g_assert_cmpstr(value_at(d, "ide.ch0.d0.udma", 500), ==, "11111111");
    g_assert_cmpstr(value_at(d, "ide.ch1.intrq", 500), ==, "x");
    dump_free(d);
}

/* A repeat's cycles are drawn again between its first and last time. */
static void test_repeat(void)
{
    g_autofree char *trace = g_strconcat(HEADER,
        "100 irq0 1 dev=0 seq=1\n"
        "110 ata0 r 0x7 1 0x58 reg=Status bits=DRDY|DSC|DRQ dev=0 seq=1\n"
        "120 irq0 0 dev=0 seq=1\n"
        "130 ata0 data d0 in bytes=512 width=2 sum=0x00000001 seq=1\n"
        "200 ata0 repeat d0 cycles=3 records=4 bytes=1536 sums=0x00000002 "
        "last=500 seq=1\n", NULL);
    g_autofree char *vcd = NULL, *errors = NULL;
    Dump *d;
    Signal *irq;
    unsigned i, rises = 0;

    g_assert_cmpint(to_vcd(trace, &vcd, &errors), ==, 0);
    d = parse(vcd);
    irq = g_hash_table_lookup(d->by_name, "ide.ch0.intrq");
    for (i = 0; i < irq->changes->len; i++) {
        Change *c = &g_array_index(irq->changes, Change, i);

        rises += !strcmp(c->value, "1");
        g_assert_cmpint(c->t, <=, 500);
    }
    g_assert_cmpuint(rises, ==, 4);     /* the cycle and 3 repeats */
    g_assert_cmpstr(value_at(d, "ide.ch0.intrq", 499), ==, "0");
    dump_free(d);
}

static void test_refusals(void)
{
    g_autofree char *rel = g_strconcat("# atalab-trace 2\n# personality piix4\n"
                                       "# trace-time relative\n# drive0 absent\n"
                                       "5 irq0 1\n", NULL);
    g_autofree char *norm = g_strconcat(HEADER, "# normalized yes\n",
                                        "0 irq0 1\n", NULL);
    g_autofree char *bad = g_strconcat(HEADER, "5 irq0 1\n6 irq0 7\n", NULL);
    char *vcd, *errors;

    g_assert_cmpint(to_vcd(rel, &vcd, &errors), ==, 2);
    g_assert_nonnull(strstr(errors, "relative to each command"));
    g_free(vcd);
    g_free(errors);
    g_assert_cmpint(to_vcd(norm, &vcd, &errors), ==, 2);
    g_assert_nonnull(strstr(errors, "normalized to 0"));
    g_free(vcd);
    g_free(errors);
    g_assert_cmpint(to_vcd(bad, &vcd, &errors), ==, 2);
    g_assert_nonnull(strstr(errors, ".trace:12: "));
    g_free(vcd);
    g_free(errors);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/trace-vcd/signals", test_signals);
    g_test_add_func("/trace-vcd/repeat", test_repeat);
    g_test_add_func("/trace-vcd/refusals", test_refusals);
    return g_test_run();
}
