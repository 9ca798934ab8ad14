/*
 * atalab unit tests: fault injection -- the rule text and its errors,
 * triggers and counts, the index against a brute-force reference, the
 * determinism of seeded rules, and each fault kind's exact presentation
 * in status, error, address registers, interrupts and data.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

#define PRDT    0x1000
#define BUF     0x100000
#define SEC     1000000000ll

#define ERR_ICRC 0x80
#define ERR_UNC  0x40
#define ERR_IDNF 0x10
#define ERR_ABRT 0x04
#define ERR_AMNF 0x01
#define ST_DF    0x20

#define BM_ACTIVE 0x01
#define BM_ERR    0x02
#define BM_INTR   0x04

static AtalabFaults *faults(Rig *r)
{
    return atalab_ctrl_faults(r->c);
}

static void rule(Rig *r, const char *text)
{
    char *err = NULL;

    if (!atalab_faults_add(faults(r), text, "test", 1, &err)) {
        g_error("rule '%s': %s", text, err);
    }
    atalab_ctrl_faults_changed(r->c);
}

static uint64_t fired(Rig *r, const char *id)
{
    const AtalabFaultRule *x = atalab_faults_find(faults(r), id);

    g_assert_nonnull(x);
    return x->fired;
}

/* ---- the rule text ------------------------------------------------------- */

static void test_parse_errors(void)
{
    static const struct {
        const char *line;
        const char *msg;        /* "test:7:COL: ..." prefix expected */
    } bad[] = {
        { "uncc drive=0", "test:7:1: unknown fault kind 'uncc'" },
        { "unc  drive=4", "test:7:12: drive wants 0-3 or any, got '4'" },
        { "unc drive=0 lbx=5", "test:7:13: unknown key 'lbx'" },
        { "unc lba=9-3", "test:7:9: lba wants N, N-M (M >= N) or N+COUNT" },
        { "unc lba=", "test:7:9: lba has no value" },
        { "abrt on=nth:0", "test:7:13: nth wants a positive count, got '0'" },
        { "abrt on=prob:1.5", "test:7:14: prob wants a probability in (0, 1]" },
        { "abrt on=sometimes", "test:7:9: on wants always, nth:N" },
        { "abrt on=time:5s-2s", "test:7:14: time wants T0-T1" },
        { "abrt cmd=0x100", "test:7:10: cmd wants an opcode (0x00-0xff)" },
        { "abrt class=reed", "test:7:12: class wants read, write, flush" },
        { "abrt times=0", "test:7:12: times wants once, a positive number" },
        { "unc class=write", "test:7:1: unc happens on reads" },
        { "write-fault class=read", "test:7:1: write-fault happens on writes" },
        { "latency drive=1", "test:7:1: latency needs delay=DURATION" },
        { "latency delay=5parsecs", "test:7:15: delay wants a duration" },
        { "protocol", "test:7:1: protocol needs violation=" },
        { "protocol violation=loud", "test:7:20: violation wants drq-count" },
        { "abrt violation=drq-count", "test:7:1: violation= is for protocol" },
        { "reset-fail cmd=0xec",
          "test:7:1: reset-fail matches software resets" },
        { "abrt id=has space", "test:7:13: expected key=value, got 'space'" },
        { "abrt id=a/b", "test:7:10: id may hold letters" },
        { "abrt drive", "test:7:6: expected key=value, got 'drive'" },
        { "corrupt dir=sideways", "test:7:13: dir wants read or write" },
        { "power-cut loss=2", "test:7:16: loss wants a probability in [0, 1]" },
        { "identify-data word=255", "test:7:20: word wants an IDENTIFY word 0-254" },
        { "identify-data word=83 value=0x10000", "test:7:29: value wants a 16-bit word" },
        { "identify-data value=3", "test:7:1: identify-data value= needs word=" },
        { "identify-data word=3 value=3 bits=2", "test:7:1: identify-data value= needs word=" },
        { "identify-data word=3 bits=17", "test:7:1: identify-data word= has 16 bits" },
        { "identify-data class=read", "test:7:1: identify-data changes IDENTIFY data" },
        { "abrt word=3", "test:7:1: word= and value= are for identify-data" },
        { "end-status", "test:7:1: end-status needs status=0xSS" },
        { "end-status status=0x100", "test:7:19: status wants a register value" },
        { "end-status status=0x51 error=x", "test:7:30: error wants a register value" },
        { "abrt error=0x04", "test:7:1: status= and error= are for end-status" },
        { "abrt bits=3", "test:7:1: bits= is for corrupt and identify-data" },
    };
    AtalabFaults *f = atalab_faults_new(1);
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *err = NULL;

        g_assert_false(atalab_faults_add(f, bad[i].line, "test", 7, &err));
        if (!g_str_has_prefix(err, bad[i].msg)) {
            g_error("'%s': got '%s', want '%s...'", bad[i].line, err,
                    bad[i].msg);
        }
        g_free(err);
    }
    g_assert_cmpuint(atalab_faults_count(f), ==, 0);
    atalab_faults_free(f);
}

static void test_parse_file(void)
{
    AtalabFaults *f = atalab_faults_new(1);
    char *err = NULL, *list;
    const char *good =
        "# a rule file\n"
        "\n"
        "unc id=bad drive=0 class=read lba=100+8 on=nth:2   # comment\n"
        "abrt cmd=0xec times=3\n"
        "latency delay=250ms on=every:4\n"
        "spurious-irq drive=1 on=time:1s-forever\n";

    g_assert_true(atalab_faults_parse_text(f, good, "f.rules", &err));
    g_assert_cmpuint(atalab_faults_count(f), ==, 4);
    list = atalab_faults_list(f);
    g_assert_nonnull(strstr(list, "unc id=bad drive=0 class=read "
                            "lba=100-107 on=nth:2 times=1 matches=0 "
                            "fired=0\n"));
    g_assert_nonnull(strstr(list, "abrt id=r1 cmd=0xec on=always times=3"));
    g_assert_nonnull(strstr(list, "latency id=r2 on=every:4 times=forever "
                            "delay=250ms"));
    g_assert_nonnull(strstr(list, "spurious-irq id=r3 drive=1 "
                            "on=time:1000ms-forever"));
    g_free(list);
    /* A bad line: nothing of that file is added */
    g_assert_false(atalab_faults_parse_text(f, "abrt\nabrt cmd=zz\n",
                                            "g.rules", &err));
    g_assert_cmpstr(err, ==, "g.rules:2:10: cmd wants an opcode "
                    "(0x00-0xff), got 'zz'");
    g_free(err);
    g_assert_cmpuint(atalab_faults_count(f), ==, 4);
    /* Ids are unique */
    g_assert_false(atalab_faults_add(f, "abrt id=bad", "qmp", 0, &err));
    g_assert_cmpstr(err, ==, "qmp:0:1: a rule with id 'bad' exists already");
    g_free(err);
    g_assert_true(atalab_faults_remove(f, "bad"));
    g_assert_false(atalab_faults_remove(f, "bad"));
    atalab_faults_clear(f);
    g_assert_cmpuint(atalab_faults_count(f), ==, 0);
    atalab_faults_free(f);
}

/* ---- triggers, index and determinism --------------------------------- */

static unsigned match_count(AtalabFaults *f, unsigned drive, uint8_t op,
                            AtalabCmdClass cls, uint64_t lba, uint32_t count,
                            int64_t now)
{
    AtalabFaultQuery q = {
        .drive = drive, .opcode = op, .cls = cls, .has_lba = true,
        .lba = lba, .count = count, .now = now,
    };
    AtalabFaultHits h;

    atalab_faults_match(f, &q, &h);
    return h.n;
}

static void test_triggers(void)
{
    AtalabFaults *f = atalab_faults_new(9);
    char *err = NULL;
    unsigned i, n[5] = { 0 };

    g_assert_true(atalab_faults_parse_text(f,
        "abrt id=nth on=nth:3\n"
        "abrt id=after on=after:2 times=2\n"
        "abrt id=every on=every:4\n"
        "abrt id=win on=time:10ms-20ms\n"
        "abrt id=prob on=prob:0.25\n", "t", &err));
    for (i = 1; i <= 40; i++) {
        AtalabFaultQuery q = {
            .drive = 0, .opcode = 0xC8, .cls = ATALAB_CLASS_READ,
            .now = i * 1000000,
        };
        AtalabFaultHits h;
        unsigned k;

        atalab_faults_match(f, &q, &h);
        for (k = 0; k < h.n; k++) {
            static const char *const ids[] = { "nth", "after", "every",
                                               "win", "prob" };
            unsigned j;

            for (j = 0; j < 5; j++) {
                if (!strcmp(h.rule[k]->id, ids[j])) {
                    n[j]++;
                }
            }
        }
    }
    g_assert_cmpuint(n[0], ==, 1);                  /* the 3rd only */
    g_assert_cmpuint(n[1], ==, 2);                  /* 3rd and 4th */
    g_assert_cmpuint(n[2], ==, 10);                 /* 4, 8, ... 40 */
    g_assert_cmpuint(n[3], ==, 11);                 /* 10..20 ms */
    g_assert_cmpuint(n[4], >, 3);
    g_assert_cmpuint(n[4], <, 20);
    g_assert_cmpuint(atalab_faults_find(f, "every")->matches, ==, 40);
    atalab_faults_free(f);
}

/* The same rules and seed: the same firings; another seed: others. */
static GString *firings(uint64_t seed)
{
    AtalabFaults *f = atalab_faults_new(seed);
    GString *s = g_string_new(NULL);
    char *err = NULL;
    unsigned i;

    g_assert_true(atalab_faults_parse_text(f,
        "abrt id=a on=prob:0.3 drive=0\n"
        "unc id=b on=prob:0.5 lba=0-99\n", "t", &err));
    for (i = 0; i < 200; i++) {
        AtalabFaultQuery q = {
            .drive = i % 2, .opcode = 0x20, .cls = ATALAB_CLASS_READ,
            .has_lba = true, .lba = i % 150, .count = 1,
        };
        AtalabFaultHits h;
        unsigned k;

        atalab_faults_match(f, &q, &h);
        for (k = 0; k < h.n; k++) {
            g_string_append_printf(s, "%u:%s ", i, h.rule[k]->id);
        }
    }
    atalab_faults_free(f);
    return s;
}

static void test_determinism(void)
{
    GString *a = firings(42), *b = firings(42), *c = firings(43);

    g_assert_cmpstr(a->str, ==, b->str);
    g_assert_cmpstr(a->str, !=, c->str);
    g_assert_cmpuint(a->len, >, 100);
    g_string_free(a, TRUE);
    g_string_free(b, TRUE);
    g_string_free(c, TRUE);
}

/*
 * 10,000 random rules: every query's firings equal those of a brute-force
 * scan of all rules (triggers "always", so firing = matching).
 */
static void test_index_against_scan(void)
{
    AtalabFaults *f = atalab_faults_new(3);
    GRand *g = g_rand_new_with_seed(77);
    char *err = NULL;
    unsigned i, k, total = 0;

    for (i = 0; i < 10000; i++) {
        uint64_t a = g_rand_int_range(g, 0, 1000000);
        char *text = g_strdup_printf("abrt drive=%s class=%s lba=%"
                                     G_GUINT64_FORMAT "+%u",
                                     g_rand_boolean(g) ? "any" :
                                     (const char *[]){ "0", "1", "2", "3" }
                                     [g_rand_int_range(g, 0, 4)],
                                     g_rand_boolean(g) ? "any" : "read", a,
                                     g_rand_int_range(g, 1, 5000));

        g_assert_true(atalab_faults_add(f, text, "t", 1, &err));
        g_free(text);
    }
    for (i = 0; i < 3000; i++) {
        unsigned drive = g_rand_int_range(g, 0, 4);
        AtalabCmdClass cls = g_rand_boolean(g) ? ATALAB_CLASS_READ :
                             ATALAB_CLASS_WRITE;
        uint64_t lba = g_rand_int_range(g, 0, 1005000);
        uint32_t count = g_rand_int_range(g, 1, 300);
        unsigned want = 0, got;

        for (k = 0; k < atalab_faults_count(f); k++) {
            const AtalabFaultRule *r = atalab_faults_rule(f, k);

            if ((r->drive < 0 || r->drive == (int)drive) &&
                (r->cls < 0 || r->cls == (int)cls) &&
                r->lba_first <= lba + count - 1 && r->lba_last >= lba) {
                want++;
            }
        }
        got = match_count(f, drive, 0xC8, cls, lba, count, 0);
        /* hits are capped at ATALAB_FAULT_MAX_HITS */
        g_assert_cmpuint(got, ==, MIN(want, ATALAB_FAULT_MAX_HITS));
        total += want;
    }
    g_assert_cmpuint(total, >, 100);
    g_rand_free(g);
    atalab_faults_free(f);
}

/* ---- presentations ------------------------------------------------------- */

static void dma(Rig *r, unsigned drive, uint8_t cmd, uint32_t lba,
                unsigned count)
{
    bool to_memory = cmd == 0xC8 || cmd == 0x25;
    unsigned ch = drive / 2;

    rig_prd(r, PRDT, 0, BUF, count * 512, true);
    rig_bm_setup(r, ch, PRDT, to_memory);
    rig_lba28(r, drive, lba, count);
    rig_command(r, drive, cmd);
    rig_bm_start(r, ch, to_memory);
    fake_host_complete_all(&r->fh);
}

static void assert_error(Rig *r, uint8_t status, uint8_t error, uint32_t lba)
{
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, error);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, lba & 0xFF);
    g_assert_cmphex(rig_in(r, 0, R_LBAM), ==, (lba >> 8) & 0xFF);
    g_assert_cmphex(rig_status(r, 0), ==, status);
}

static void test_unc_amnf_dma(void)
{
    Rig *r = rig_new(0x1);

    memset(r->fh.ram + BUF, 0, 8192);
    rule(r, "unc id=u drive=0 lba=105-106");
    dma(r, 0, 0xC8, 100, 16);
    /* Sectors before the bad one are in memory; the rest is not. */
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 100 * 512, 5 * 512));
    g_assert_cmphex(r->fh.ram[BUF + 5 * 512], ==, 0);
    assert_error(r, ST_READY | ST_ERR, ERR_UNC, 105);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE | BM_INTR);
    g_assert_true(fake_host_trace_has(&r->fh, "fault d0 rule=u kind=unc "
                                      "cmd=0xc8 lba=105"));
    g_assert_cmpuint(fired(r, "u"), ==, 1);
    rig_bm_stop(r, 0);
    /* Outside the range: clean */
    dma(r, 0, 0xC8, 200, 8);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    /* AMNF, by PIO: the blocks before it are delivered */
    rule(r, "amnf drive=0 lba=302");
    rig_lba28(r, 0, 300, 4);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_status(r, 0);
    rig_read_data(r, 0, r->fh.ram, 512, false);
    fake_host_complete_all(&r->fh);
    rig_status(r, 0);
    rig_read_data(r, 0, r->fh.ram, 512, false);
    fake_host_complete_all(&r->fh);
    assert_error(r, ST_READY | ST_ERR, ERR_AMNF, 302);
    g_assert_cmpuint(r->fh.reads, ==, 2 + 2);
    rig_free(r);
}

static void test_write_fault_and_df(void)
{
    Rig *r = rig_new(0x1);
    uint16_t w[256];

    memset(r->fh.ram + BUF, 0xEE, 8 * 512);
    rule(r, "write-fault lba=203");
    dma(r, 0, 0xCA, 200, 8);
    /* 200-202 written, 203 on not */
    g_assert_cmphex(r->fh.disk[0][202 * 512], ==, 0xEE);
    g_assert_cmphex(r->fh.disk[0][203 * 512], ==, fake_pattern(0, 203 * 512));
    assert_error(r, ST_READY | ST_DF | ST_ERR, ERR_ABRT, 203);
    rig_bm_stop(r, 0);
    atalab_faults_clear(faults(r));
    /* DF: sticky until a reset, even for IDENTIFY */
    rule(r, "df cmd=0xe7 times=once");
    rig_select(r, 0);
    rig_command(r, 0, 0xE7);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DF | ST_ERR);
    rig_command(r, 0, 0xEC);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DF | ST_ERR);
    rig_srst(r, 0);
    rig_identify(r, 0, w);
    rig_free(r);
}

static void test_idnf_abrt_icrc(void)
{
    Rig *r = rig_new(0x1);

    rule(r, "idnf cmd=0xc8 on=nth:1");
    dma(r, 0, 0xC8, 50, 4);
    assert_error(r, ST_READY | ST_ERR, ERR_IDNF, 50);
    g_assert_cmpuint(r->fh.reads, ==, 0);
    rig_bm_stop(r, 0);
    rule(r, "abrt class=identify times=once");
    rig_select(r, 0);
    rig_command(r, 0, 0xEC);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    /* ICRC only in an Ultra DMA mode, after all the data moved */
    rule(r, "icrc id=crc class=read");
    dma(r, 0, 0xC8, 60, 4);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmpuint(fired(r, "crc"), ==, 0);
    rig_bm_stop(r, 0);
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x03, 0x42), ==, ST_READY);
    dma(r, 0, 0xC8, 60, 4);
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 60 * 512, 4 * 512));
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ICRC | ERR_ABRT);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_ERR);
    g_assert_cmpuint(fired(r, "crc"), ==, 1);
    rig_free(r);
}

/* class= matches the command table's fault class of each opcode. */
static void test_classes(void)
{
    Rig *r = rig_new(0x1);
    const uint8_t err = ST_READY | ST_ERR;

    rule(r, "abrt id=flush class=flush");
    g_assert_cmphex(rig_nodata(r, 0, 0xE7, 0, 0), ==, err);
    g_assert_cmphex(rig_nodata(r, 0, 0xEA, 0, 0), ==, err);
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x02, 0), ==, ST_READY);
    g_assert_cmpuint(fired(r, "flush"), ==, 2);
    rule(r, "abrt id=other class=other");
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x02, 0), ==, err);
    g_assert_cmphex(rig_nodata(r, 0, 0xE5, 0, 0), ==, err);
    g_assert_cmpuint(fired(r, "other"), ==, 2);
    /* READ VERIFY reads the medium: class read */
    rule(r, "abrt id=read class=read");
    rig_lba28(r, 0, 8, 1);
    g_assert_cmphex(rig_nodata(r, 0, 0x40, 0, 1), ==, err);
    g_assert_cmpuint(fired(r, "read"), ==, 1);
    g_assert_cmpuint(fired(r, "other"), ==, 2);
    rig_free(r);
}

static void test_timeout_lost_irq_latency(void)
{
    Rig *r = rig_new(0x1);

    rule(r, "timeout cmd=0xe7 times=once");
    rig_select(r, 0);
    rig_command(r, 0, 0xE7);
    fake_host_advance(&r->fh, 60 * SEC);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY | ST_DRDY);
    rig_srst(r, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    /* Lost interrupt: the command completes, INTRQ never comes */
    rule(r, "lost-irq cmd=0xe5 times=once");
    rig_select(r, 0);
    rig_command(r, 0, 0xE5);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    /* Latency: BSY for the delay, then the completion */
    rule(r, "latency delay=300ms cmd=0xe1 times=once");
    rig_command(r, 0, 0xE1);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY | ST_DRDY);
    fake_host_advance(&r->fh, 299 * 1000000);
    g_assert_false(r->fh.irq[0]);
    fake_host_advance(&r->fh, 2 * 1000000);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_free(r);
}

/*
 * PIO data-in: the command's end is its last DRQ block, with the last
 * interrupt (ATA-7 vol. 2, PIO data-in: no interrupt after the data).
 * Latency holds BSY before that block; lost-irq loses that interrupt.
 */
static void test_pio_in_end(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[512];
    unsigned raises;

    rule(r, "latency delay=300ms cmd=0x20 times=once");
    rig_select(r, 0);
    rig_lba28(r, 0, 10, 2);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    /* the first block as usual */
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
    rig_read_data(r, 0, buf, 512, false);
    fake_host_complete_all(&r->fh);
    /* the last one after the delay */
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY | ST_DRDY);
    fake_host_advance(&r->fh, 299 * 1000000);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY | ST_DRDY);
    fake_host_advance(&r->fh, 2 * 1000000);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
    rig_read_data(r, 0, buf, 512, false);
    g_assert_cmpmem(buf, 512, r->fh.disk[0] + 11 * 512, 512);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    /* lost-irq: the last block comes without its interrupt */
    rule(r, "lost-irq cmd=0x20 times=once");
    rig_lba28(r, 0, 20, 2);
    raises = r->fh.irq_raises[0];
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    g_assert_cmpuint(r->fh.irq_raises[0], ==, raises + 1);
    rig_status(r, 0);
    rig_read_data(r, 0, buf, 512, false);
    fake_host_complete_all(&r->fh);
    g_assert_cmpuint(r->fh.irq_raises[0], ==, raises + 1);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY | ST_DRQ);
    rig_read_data(r, 0, buf, 512, false);
    g_assert_cmpmem(buf, 512, r->fh.disk[0] + 21 * 512, 512);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    rig_free(r);
}

static void test_spurious_and_protocol(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[512];
    unsigned i;

    /* Spurious interrupt with no command: at a virtual time */
    rule(r, "spurious-irq drive=0 on=time:2s-3s");
    fake_host_advance(&r->fh, SEC);
    g_assert_false(r->fh.irq[0]);
    fake_host_advance(&r->fh, 2 * SEC);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_false(r->fh.irq[0]);
    /* With a command outstanding: INTRQ while BSY */
    rule(r, "spurious-irq cmd=0x20 times=once");
    rig_lba28(r, 0, 1, 1);
    rig_command(r, 0, 0x20);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_altstatus(r, 0) & ST_BSY, ==, ST_BSY);
    fake_host_complete_all(&r->fh);
    rig_status(r, 0);
    rig_read_data(r, 0, buf, 512, false);
    /* A DRQ block of half a sector */
    rule(r, "protocol violation=drq-count cmd=0x20 times=once");
    rig_lba28(r, 0, 1, 1);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_status(r, 0);
    rig_read_data(r, 0, buf, 256, false);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    /* DRQ left set at the end */
    rule(r, "protocol violation=status-phase cmd=0xe5 times=once");
    rig_command(r, 0, 0xE5);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
    rig_free(r);
    /* ... and after the last block of a PIO read (no interrupt there) */
    r = rig_new(0x1);
    rule(r, "protocol violation=status-phase cmd=0x20 times=once");
    rig_lba28(r, 0, 1, 2);
    rig_command(r, 0, 0x20);
    for (i = 0; i < 2; i++) {
        fake_host_complete_all(&r->fh);
        g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
        rig_read_data(r, 0, buf, 512, false);
    }
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY | ST_DRQ);
    rig_free(r);
}

/* The host hears of every firing (AtalabHost.event; stop-on fault). */
static void test_events(void)
{
    Rig *r = rig_new(0x5);

    rule(r, "unc id=bad drive=2 lba=50+1");
    rule(r, "spurious-irq id=tick drive=0 on=time:1s-2s");
    dma(r, 2, 0xC8, 40, 8);
    g_assert_cmpuint(fake_host_event_count(&r->fh, "fault"), ==, 0);
    g_assert_cmpuint(fake_host_event_count(&r->fh, "cmd 0xc8 ata1 d0"),
                     ==, 1);
    rig_bm_stop(r, 1);
    dma(r, 2, 0xC8, 48, 8);
    g_assert_cmpuint(fake_host_event_count(&r->fh, "fault bad ata1 d0 cmd 0xc8"),
                     ==, 1);
    g_assert_cmpuint(fake_host_event_count(&r->fh, "fault"), ==, 1);
    /* A timed rule fires from the clock, with no command. */
    fake_host_advance(&r->fh, 2 * SEC);
    g_assert_cmpuint(fake_host_event_count(&r->fh, "fault tick ata0 d0"), ==,
                     1);
    g_assert_cmpuint(fake_host_event_count(&r->fh, "fault"), ==, 2);
    rig_free(r);
}

static void test_bm_error(void)
{
    Rig *r = rig_new(0x1);

    /* irq=yes: ERR and INTR, the drive interrupts with 50h */
    rule(r, "bm-error lba=10 times=once");
    dma(r, 0, 0xC8, 8, 4);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ERR | BM_INTR);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_bm_stop(r, 0);
    /* irq=no: ERR, no interrupt, the drive keeps DRQ */
    rule(r, "bm-error lba=20 irq=no times=once");
    dma(r, 0, 0xC8, 18, 4);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ERR);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY | ST_DRQ);
    rig_srst(r, 0);
    rig_free(r);
}

static void test_reset_fail_and_remove(void)
{
    Rig *r = rig_new(0x3);

    rule(r, "reset-fail drive=0 for=4s times=once");
    rig_srst(r, 0);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY);
    fake_host_advance(&r->fh, 3 * SEC);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY);
    fake_host_advance(&r->fh, 2 * SEC);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    /* forever: only a hardware reset ends it */
    rule(r, "reset-fail drive=0 times=once");
    rig_srst(r, 0);
    fake_host_advance(&r->fh, 3600 * SEC);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY);
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    rig_free(r);

    /* The slave goes away at 1 s and is back 2 s later */
    r = rig_new(0x3);
    rule(r, "remove drive=1 on=time:1s-2s for=2s");
    fake_host_advance(&r->fh, 1500 * 1000000ll);
    g_assert_true(fake_host_trace_has(&r->fh, "fault d1 removed"));
    rig_select(r, 1);
    g_assert_cmphex(rig_altstatus(r, 0), ==, 0x00);     /* device 0 answers */
    fake_host_advance(&r->fh, 2 * SEC);
    g_assert_true(fake_host_trace_has(&r->fh, "fault d1 reinserted"));
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 1);       /* signature */
    rig_free(r);
}

static unsigned bit_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
    unsigned n = 0;
    size_t i;

    for (i = 0; i < len; i++) {
        n += __builtin_popcount(a[i] ^ b[i]);
    }
    return n;
}

static void test_corrupt(void)
{
    Rig *r = rig_new(0x1);

    /* Reads: 3 bits per sector flipped on the way to memory */
    rule(r, "corrupt bits=3 lba=40-41");
    dma(r, 0, 0xC8, 40, 4);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmpuint(bit_diff(r->fh.ram + BUF, r->fh.disk[0] + 40 * 512,
                              512), ==, 3);
    g_assert_cmpuint(bit_diff(r->fh.ram + BUF + 512,
                              r->fh.disk[0] + 41 * 512, 512), ==, 3);
    g_assert_true(rig_ram_matches_disk(r, BUF + 1024, 0, 42 * 512, 1024));
    rig_bm_stop(r, 0);
    atalab_faults_clear(faults(r));
    /* Writes: the disk differs, guest memory does not change */
    rule(r, "corrupt dir=write bits=1");
    memset(r->fh.ram + BUF, 0x33, 1024);
    dma(r, 0, 0xCA, 70, 2);
    g_assert_cmphex(r->fh.ram[BUF + 7], ==, 0x33);
    {
        uint8_t want[1024];

        memset(want, 0x33, sizeof(want));
        g_assert_cmpuint(bit_diff(r->fh.disk[0] + 70 * 512, want, 1024), ==,
                         2);
        g_assert_cmpuint(bit_diff(r->fh.ram + BUF, want, 1024), ==, 0);
    }
    rig_free(r);
}

static bool checksum_ok(const uint16_t w[256])
{
    uint8_t sum = 0;
    unsigned i;

    for (i = 0; i < 256; i++) {
        sum += (w[i] & 0xFF) + (w[i] >> 8);
    }
    return (w[255] & 0xFF) == 0xA5 && sum == 0;
}

static void test_identify_data(void)
{
    Rig *r = rig_new(0x3);
    uint16_t clean[256], w[256], again[256];
    char *list;
    unsigned i, flipped = 0;

    rig_identify(r, 0, clean);
    g_assert_true(checksum_ok(clean));
    /* A word set: word 83 without LBA48, the checksum made right again */
    rule(r, "identify-data id=w drive=0 word=83 value=0x0000 times=once");
    list = atalab_faults_list(faults(r));
    g_assert_nonnull(strstr(list, "identify-data id=w drive=0 class=identify"));
    g_assert_nonnull(strstr(list, "word=83 value=0x0000"));
    g_free(list);
    /* A read is no IDENTIFY: the rule does not fire on it */
    rig_lba28(r, 0, 5, 1);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_read_data(r, 0, (uint8_t *)w, 512, false);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmpuint(fired(r, "w"), ==, 0);
    rig_identify(r, 0, w);
    g_assert_cmpuint(fired(r, "w"), ==, 1);
    g_assert_cmphex(w[83], ==, 0);
    g_assert_true(checksum_ok(w));
    for (i = 0; i < 255; i++) {
        if (i != 83) {
            g_assert_cmphex(w[i], ==, clean[i]);
        }
    }
    g_assert_true(fake_host_trace_has(&r->fh, "fault d0 identify-data word=83 "));
    /* times=once: the next IDENTIFY is the drive's own; drive 1 never changed */
    rig_identify(r, 0, w);
    g_assert_cmpmem(w, sizeof(w), clean, sizeof(clean));
    rig_identify(r, 1, w);
    g_assert_true(checksum_ok(w));
    g_assert_cmpuint(fired(r, "w"), ==, 1);
    atalab_faults_clear(faults(r));
    /* Bit flips anywhere in words 0-254, seeded: the same on a new rig */
    rule(r, "identify-data id=b drive=0 bits=5 times=once");
    rig_identify(r, 0, w);
    for (i = 0; i < 255; i++) {
        flipped += __builtin_popcount(w[i] ^ clean[i]);
    }
    g_assert_cmpuint(flipped, >=, 1);
    g_assert_cmpuint(flipped, <=, 5);
    g_assert_true(checksum_ok(w));
    rig_free(r);
    r = rig_new(0x3);
    rule(r, "identify-data id=b drive=0 bits=5 times=once");
    rig_identify(r, 0, again);
    g_assert_cmpmem(w, sizeof(w), again, sizeof(again));
    rig_free(r);
}

static void test_end_status(void)
{
    Rig *r = rig_new(0x1);
    uint8_t b[512];
    char *list;

    /* DMA: the data moves, then the Status and Error the rule gives */
    rule(r, "end-status id=e drive=0 class=read status=0x51 error=0x84 times=once");
    list = atalab_faults_list(faults(r));
    g_assert_nonnull(strstr(list, "end-status id=e drive=0 class=read"));
    g_assert_nonnull(strstr(list, "status=0x51 error=0x84"));
    g_free(list);
    dma(r, 0, 0xC8, 40, 2);
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 40 * 512, 1024));
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x84);
    g_assert_cmphex(rig_status(r, 0), ==, 0x51);
    rig_bm_stop(r, 0);
    /* once: the next read ends as the drive's own */
    dma(r, 0, 0xC8, 42, 1);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_bm_stop(r, 0);
    atalab_faults_clear(faults(r));
    /* PIO data-in: after the last block the host reads the rule's Status */
    rule(r, "end-status id=p drive=0 status=0x59 times=once");
    rig_lba28(r, 0, 7, 1);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_read_data(r, 0, b, 512, false);
    g_assert_cmphex(rig_altstatus(r, 0), ==, 0x59);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x00);
    /* DRQ with no data: the drive takes no command (a driver resets) */
    rig_command(r, 0, 0xE5);
    g_assert_true(fake_host_trace_has(&r->fh, "ignored d0 drq cmd=0xe5"));
    rig_srst(r, 0);
    atalab_faults_clear(faults(r));
    /* BSY at the end: the drive takes no command until a reset */
    rule(r, "end-status id=b drive=0 cmd=0xe7 status=0xd0 times=once");
    rig_command(r, 0, 0xE7);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_altstatus(r, 0), ==, 0xD0);
    rig_command(r, 0, 0xE5);
    g_assert_true(fake_host_trace_has(&r->fh, "ignored d0 busy reg=7"));
    rig_srst(r, 0);
    g_assert_cmphex(rig_altstatus(r, 0) & ~ST_DSC, ==, ST_DRDY);
    g_assert_cmpuint(fired(r, "b"), ==, 1);
    rig_free(r);
}

static void write_sector(Rig *r, uint32_t lba, uint8_t v)
{
    uint8_t b[512];

    memset(b, v, sizeof(b));
    rig_lba28(r, 0, lba, 1);
    rig_command(r, 0, 0x30);
    rig_write_data(r, 0, b, 512, false);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
}

/*
 * Power cut with the write cache on: writes acknowledged after the last
 * FLUSH CACHE can be lost (loss=1: all of them), flushed ones never; with
 * the cache off nothing acknowledged is lost.
 */
static void test_power_cut(void)
{
    Rig *r = rig_new(0x1);
    uint8_t orig = fake_pattern(0, 12 * 512);

    rule(r, "power-cut id=pc cmd=0xe5 loss=1 times=1");
    write_sector(r, 10, 0xA1);
    g_assert_true(fake_host_trace_has(&r->fh, "pre-image"));
    g_assert_cmphex(rig_nodata(r, 0, 0xE7, 0, 0), ==, ST_READY);
    write_sector(r, 11, 0xB2);
    write_sector(r, 12, 0xC3);
    write_sector(r, 11, 0xB4);
    g_assert_cmphex(r->fh.disk[0][12 * 512], ==, 0xC3);
    rig_select(r, 0);
    rig_command(r, 0, 0xE5);
    fake_host_complete_all(&r->fh);
    g_assert_true(fake_host_trace_has(&r->fh, "power-cut lost=3 kept=0"));
    g_assert_true(fake_host_trace_has(&r->fh, "power back"));
    /* Flushed: kept.  Unflushed: rolled back, newest first. */
    g_assert_cmphex(r->fh.disk[0][10 * 512], ==, 0xA1);
    g_assert_cmphex(r->fh.disk[0][11 * 512], ==, fake_pattern(0, 11 * 512));
    g_assert_cmphex(r->fh.disk[0][12 * 512], ==, orig);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmpuint(fired(r, "pc"), ==, 1);
    /* Cache off: writes are durable at once */
    rule(r, "power-cut id=pc2 cmd=0xe5 loss=1 times=1");
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x82, 0), ==, ST_READY);
    write_sector(r, 20, 0xD5);
    rig_select(r, 0);
    rig_command(r, 0, 0xE5);
    fake_host_complete_all(&r->fh);
    g_assert_true(fake_host_trace_has(&r->fh, "power-cut lost=0 kept=0"));
    g_assert_cmphex(r->fh.disk[0][20 * 512], ==, 0xD5);
    rig_free(r);
}

/*
 * The SATA port switched off and on while the power cut's pre-images are
 * being written back: the drive stays off the bus until the write-back is
 * done (it is still powering up), so no command can start a second request
 * beside it (a fuzzer finding: "second request on drive 0").
 */
static void test_power_cut_port_cycle_during_restore(void)
{
    Rig *r = rig_new_full("ich5-sata", 0x1, 0, true);

    atalab_ctrl_config_write(r->c, 0x92, 0x0003, 2);
    rule(r, "power-cut id=pc cmd=0xe5 loss=1 times=1");
    write_sector(r, 11, 0xB2);
    write_sector(r, 12, 0xC3);
    r->fh.drain = false;
    rig_select(r, 0);
    rig_command(r, 0, 0xE5);
    /*
     * The first write-back is with the backend: the port cycle abandons
     * it; when it is done the write-back goes on.  Meanwhile a command.
     */
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    atalab_ctrl_config_write(r->c, 0x92, 0x0000, 2);
    atalab_ctrl_config_write(r->c, 0x92, 0x0003, 2);
    g_assert_true(fake_host_complete_one(&r->fh));
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    /* Still off the bus (no device 1 either: it floats). */
    g_assert_cmphex(rig_status(r, 0), ==, 0x7F);
    rig_lba28(r, 0, 40, 1);
    rig_command(r, 0, 0x20);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    fake_host_complete_all(&r->fh);
    g_assert_true(fake_host_trace_has(&r->fh, "power back"));
    g_assert_false(fake_host_trace_has(&r->fh, "bug"));
    g_assert_cmphex(r->fh.disk[0][11 * 512], ==, fake_pattern(0, 11 * 512));
    g_assert_cmphex(r->fh.disk[0][12 * 512], ==, fake_pattern(0, 12 * 512));
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/faults/parse-errors", test_parse_errors);
    g_test_add_func("/faults/parse-file", test_parse_file);
    g_test_add_func("/faults/triggers", test_triggers);
    g_test_add_func("/faults/determinism", test_determinism);
    g_test_add_func("/faults/index-against-scan", test_index_against_scan);
    g_test_add_func("/faults/unc-amnf", test_unc_amnf_dma);
    g_test_add_func("/faults/write-fault-df", test_write_fault_and_df);
    g_test_add_func("/faults/idnf-abrt-icrc", test_idnf_abrt_icrc);
    g_test_add_func("/faults/timeout-lost-irq-latency",
                    test_timeout_lost_irq_latency);
    g_test_add_func("/faults/pio-in-end", test_pio_in_end);
    g_test_add_func("/faults/spurious-protocol", test_spurious_and_protocol);
    g_test_add_func("/faults/classes", test_classes);
    g_test_add_func("/faults/bm-error", test_bm_error);
    g_test_add_func("/faults/events", test_events);
    g_test_add_func("/faults/reset-fail-remove", test_reset_fail_and_remove);
    g_test_add_func("/faults/corrupt", test_corrupt);
    g_test_add_func("/faults/identify-data", test_identify_data);
    g_test_add_func("/faults/end-status", test_end_status);
    g_test_add_func("/faults/power-cut", test_power_cut);
    g_test_add_func("/faults/power-cut-port-cycle-during-restore",
                    test_power_cut_port_cycle_during_restore);
    return g_test_run();
}
