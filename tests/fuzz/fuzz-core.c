/*
 * atalab core fuzzer: the emulator core driven through its host interface
 * by a small byte code -- register reads and writes of every space, guest
 * memory contents and PRD tables, driver-like command sequences, and the
 * order, timing and result of block completions -- with the model's
 * invariants checked after every operation.  Built as a libFuzzer target
 * (tools/atalab fuzz) and, with replay-main.c, as the unit test that runs
 * the regression inputs.  The byte code: docs/core.md, "Fuzzing".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "controller/atalab-ctrl.h"
#include "fuzz-core.h"
#ifdef FUZZ_CHECK_RECORDS
#include "trace-read.h"
#endif

#define RAM_SIZE        FUZZ_RAM_SIZE
#define DISK_SECTORS    256
#define MAX_PENDING     64

typedef struct Op {
    int kind;                   /* 0 read, 1 write, 2 flush */
    unsigned drive;
    uint32_t seq;               /* write: issue order; flush: writes before */
    uint64_t offset;
    AtalabIoVec iov[FUZZ_MAX_IOV];
    unsigned niov;
    size_t len;
    AtalabIoDone *done;
    void *opaque;
} Op;

struct AtalabTimer {
    AtalabTimerFn *fn;
    void *opaque;
    int64_t expire;
    bool live;
};

typedef struct Fuzz {
    AtalabHost host;
    AtalabCtrl *c;
    const uint8_t *in;
    size_t len, pos;
    Op *pending[MAX_PENDING];
    unsigned npending;
    unsigned inflight[4];
    bool irq[2];
    uint32_t irq_edges[2];      /* rising edges of each interrupt line */
    uint32_t edges_checked[2];  /* irq_edges at the last check */
    bool intr_checked[2];       /* BMISX.INTR at the last check */
    int64_t now;
    AtalabTimer *timers[16];
    unsigned ntimers;
    unsigned mapped;
    unsigned dma_failures;      /* since the guest last cleared BMISX.ERR */
    bool drain;
    bool zero_copy;
    uint8_t reenter_op;         /* 0: none armed */
    bool in_reenter;
    /*
     * The shadow disk: writes land in it at completion, in completion
     * order.  A sector's data is valid only where written[] is non-zero
     * (the issue number of the write that landed last); the others read
     * as a pattern of their offset.
     */
    uint32_t write_seq[4];
    uint32_t written[4][DISK_SECTORS];
    /* Guest RAM and the shadow disk's data last: not reset per run. */
    uint8_t ram[RAM_SIZE];
    uint8_t disk[4][DISK_SECTORS * 512];
} Fuzz;

/* Master aborts the fault rules injected so far (kind bm-error). */
static uint64_t injected_aborts(Fuzz *f)
{
    AtalabFaults *rules = atalab_ctrl_faults(f->c);
    uint64_t n = 0;
    unsigned i;

    for (i = 0; i < atalab_faults_count(rules); i++) {
        const AtalabFaultRule *r = atalab_faults_rule(rules, i);

        if (r->kind == ATALAB_FAULT_BM_ERROR) {
            n += r->fired;
        }
    }
    return n;
}

static void die(const char *what)
{
    fprintf(stderr, "fuzz invariant broken: %s\n", what);
    abort();
}

static uint8_t next8(Fuzz *f)
{
    return f->pos < f->len ? f->in[f->pos++] : 0;
}

static uint32_t next_n(Fuzz *f, unsigned bytes)
{
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < bytes; i++) {
        v |= (uint32_t)next8(f) << (8 * i);
    }
    return v;
}

static void do_reenter(Fuzz *f);

/* ---- host interface ---------------------------------------------------- */

static void h_set_irq(void *opaque, unsigned channel, bool level)
{
    Fuzz *f = opaque;

    if (channel > 1 || f->irq[channel] == level) {
        die("set_irq without a change of level");
    }
    f->irq[channel] = level;
    f->irq_edges[channel] += level;
}

static bool ram_ok(uint64_t addr, size_t len)
{
    return addr <= RAM_SIZE && len <= RAM_SIZE - addr;
}

static int h_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    Fuzz *f = opaque;

    do_reenter(f);
    if (!ram_ok(addr, len)) {
        f->dma_failures++;
        return -1;
    }
    memcpy(buf, f->ram + addr, len);
    return 0;
}

static int h_dma_write(void *opaque, uint64_t addr, const void *buf,
                       size_t len)
{
    Fuzz *f = opaque;

    do_reenter(f);
    if (!ram_ok(addr, len)) {
        f->dma_failures++;
        return -1;
    }
    memcpy(f->ram + addr, buf, len);
    return 0;
}

static void *h_dma_map(void *opaque, uint64_t addr, size_t *len,
                       bool to_memory)
{
    Fuzz *f = opaque;
    size_t n = MIN(*len, 0x8000);

    if (!f->zero_copy || addr >= RAM_SIZE) {
        *len = 0;
        return NULL;
    }
    *len = MIN(n, RAM_SIZE - addr);
    f->mapped++;
    return f->ram + addr;
}

static void h_dma_unmap(void *opaque, void *ptr, size_t len, bool to_memory,
                        size_t done)
{
    Fuzz *f = opaque;

    if ((uint8_t *)ptr < f->ram || (uint8_t *)ptr + len > f->ram + RAM_SIZE ||
        done > len || !f->mapped) {
        die("bad unmap");
    }
    f->mapped--;
}

static void queue(Fuzz *f, int kind, unsigned drive, uint64_t offset,
                  const AtalabIoVec *iov, unsigned niov, AtalabIoDone *done,
                  void *opaque)
{
    Op *op;
    unsigned i;

    if (drive > 3 || niov > FUZZ_MAX_IOV || f->npending == MAX_PENDING) {
        die("request out of range, or too many pending");
    }
    /* The bound: one request per drive, so nothing can overtake. */
    if (++f->inflight[drive] > 1) {
        die("two requests in flight on one drive");
    }
    op = calloc(1, sizeof(*op));
    op->kind = kind;
    op->drive = drive;
    op->offset = offset;
    op->niov = niov;
    for (i = 0; i < niov; i++) {
        op->iov[i] = iov[i];
        op->len += iov[i].len;
    }
    if (offset % 512 || op->len % 512) {
        die("request not in whole sectors");
    }
    op->done = done;
    op->opaque = opaque;
    op->seq = kind == 1 ? ++f->write_seq[drive] : f->write_seq[drive];
    f->pending[f->npending++] = op;
}

static void h_readv(void *opaque, unsigned drive, uint64_t offset,
                    const AtalabIoVec *iov, unsigned niov, AtalabIoDone *done,
                    void *done_opaque)
{
    queue(opaque, 0, drive, offset, iov, niov, done, done_opaque);
}

static void h_writev(void *opaque, unsigned drive, uint64_t offset,
                     const AtalabIoVec *iov, unsigned niov, bool fua,
                     AtalabIoDone *done, void *done_opaque)
{
    queue(opaque, 1, drive, offset, iov, niov, done, done_opaque);
}

static void h_flush(void *opaque, unsigned drive, AtalabIoDone *done,
                    void *done_opaque)
{
    queue(opaque, 2, drive, 0, NULL, 0, done, done_opaque);
}

/* Byte pos of the shadow disk of drive d, as a read returns it. */
static uint8_t disk_byte(Fuzz *f, unsigned d, uint64_t pos)
{
    return f->written[d][pos / 512] ? f->disk[d][pos] : (uint8_t)(pos >> 6);
}

/* A write lands in the shadow disk: never over a write issued after it. */
static void land_write(Fuzz *f, Op *op)
{
    uint64_t pos = op->offset, s;
    unsigned i;
    size_t j;

    for (s = op->offset / 512; s < (op->offset + op->len) / 512; s++) {
        if (f->written[op->drive][s] > op->seq) {
            die("an older write landed over a newer one");
        }
    }
    for (i = 0; i < op->niov; i++) {
        const uint8_t *b = op->iov[i].base;

        for (j = 0; j < op->iov[i].len; j++, pos++) {
            if (!f->written[op->drive][pos / 512]) {
                /* the sector's first write: its other bytes as they read */
                uint64_t k, base = pos / 512 * 512;

                for (k = base; k < base + 512; k++) {
                    f->disk[op->drive][k] = (uint8_t)(k >> 6);
                }
            }
            f->written[op->drive][pos / 512] = op->seq;
            f->disk[op->drive][pos] = b[j];
        }
    }
}

/*
 * Complete pending request idx with ret (0 or a negative errno): a read
 * fills its buffers from the shadow disk, a write lands in it, a flush
 * checks that no write issued before it is still pending.
 */
static void complete(Fuzz *f, unsigned idx, int ret)
{
    Op *op = f->pending[idx];
    uint64_t pos = op->offset;
    size_t j;
    unsigned i;

    memmove(&f->pending[idx], &f->pending[idx + 1],
            (f->npending - idx - 1) * sizeof(f->pending[0]));
    f->npending--;
    f->inflight[op->drive]--;
    if (!ret && op->kind != 2 &&
        op->offset + op->len > (uint64_t)DISK_SECTORS * 512) {
        ret = -5;
    }
    if (!ret && op->kind == 0) {
        for (i = 0; i < op->niov; i++) {
            uint8_t *b = op->iov[i].base;

            for (j = 0; j < op->iov[i].len; j++, pos++) {
                b[j] = disk_byte(f, op->drive, pos);
            }
        }
    } else if (!ret && op->kind == 1) {
        land_write(f, op);
    } else if (!ret && op->kind == 2) {
        for (i = 0; i < f->npending; i++) {
            if (f->pending[i]->drive == op->drive &&
                f->pending[i]->kind == 1 && f->pending[i]->seq <= op->seq) {
                die("a FLUSH completed before a write issued ahead of it");
            }
        }
    }
    op->done(op->opaque, ret);
    free(op);
}

static void h_drain(void *opaque, unsigned drive)
{
    Fuzz *f = opaque;
    unsigned i;

    if (!f->drain) {
        return;
    }
    for (i = 0; i < f->npending;) {
        if (f->pending[i]->drive == drive) {
            complete(f, i, 0);
            i = 0;
        } else {
            i++;
        }
    }
}

static int64_t h_clock(void *opaque)
{
    return ((Fuzz *)opaque)->now;
}

static AtalabTimer *h_timer_new(void *opaque, AtalabTimerFn *fn, void *fo)
{
    Fuzz *f = opaque;
    AtalabTimer *t = calloc(1, sizeof(*t));

    if (f->ntimers == G_N_ELEMENTS(f->timers)) {
        die("too many timers");
    }
    t->fn = fn;
    t->opaque = fo;
    t->expire = -1;
    t->live = true;
    f->timers[f->ntimers++] = t;
    return t;
}

static void h_timer_mod(void *opaque, AtalabTimer *t, int64_t expire)
{
    t->expire = expire;
}

static void h_timer_del(void *opaque, AtalabTimer *t)
{
    t->expire = -1;
}

static void h_timer_free(void *opaque, AtalabTimer *t)
{
    t->live = false;
}

static bool show_trace;

static void h_trace(void *opaque, const char *record)
{
    if (show_trace) {
        fprintf(stderr, "%s\n", record);
    }
    if (strstr(record, " bug ")) {
        fprintf(stderr, "%s\n", record);
        die("the core traced a bug");
    }
#ifdef FUZZ_CHECK_RECORDS
    /*
     * Every record is a form of the record table (trace-records.h).  Only
     * in the replay build (the unit suite's seeds, regressions and random
     * inputs): parsing every record would slow libFuzzer several times.
     */
    {
        AtalabTraceRecord rec;
        char *why = NULL;

        if (!atalab_trace_parse(record, true, &rec, &why)) {
            fprintf(stderr, "%s: %s\n", record, why);
            die("the core wrote a record the table lacks");
        }
        atalab_trace_record_clear(&rec);
    }
#endif
}

static void advance(Fuzz *f, int64_t ns)
{
    int64_t end = f->now + ns;

    for (;;) {
        AtalabTimer *next = NULL;
        unsigned i;

        for (i = 0; i < f->ntimers; i++) {
            AtalabTimer *t = f->timers[i];

            if (t->live && t->expire >= 0 && t->expire <= end &&
                (!next || t->expire < next->expire)) {
                next = t;
            }
        }
        if (!next) {
            break;
        }
        f->now = MAX(f->now, next->expire);
        next->expire = -1;
        next->fn(next->opaque);
    }
    f->now = end;
}

/* ---- operations -------------------------------------------------------- */

static unsigned size_of(uint8_t b)
{
    static const unsigned sizes[] = { 1, 2, 4, 1 };

    return sizes[b & 3];
}

/* A guest memory access reaching the device's registers (MMCONFIG). */
static void do_reenter(Fuzz *f)
{
    uint8_t what = f->reenter_op;

    if (!what || f->in_reenter) {
        return;
    }
    f->reenter_op = 0;
    f->in_reenter = true;
    switch (what % 5) {
    case 0:
        atalab_ctrl_bm_write(f->c, (what & 8), 0, 1);       /* stop */
        break;
    case 1:
        atalab_ctrl_ctl_write(f->c, (what >> 3) & 1, 0x04); /* SRST */
        atalab_ctrl_ctl_write(f->c, (what >> 3) & 1, 0x00);
        break;
    case 2:
        atalab_ctrl_reset(f->c);
        break;
    case 3:
        atalab_ctrl_config_write(f->c, 0x92, what >> 4, 1); /* PCS */
        break;
    case 4:
        atalab_ctrl_cmd_write(f->c, (what >> 3) & 1, 7, 0x90, 1);
        break;
    }
    f->in_reenter = false;
}

static void op_taskfile(Fuzz *f)
{
    static const uint8_t cmds[] = {
        0x20, 0x24, 0x25, 0x29, 0x2F, 0x30, 0x34, 0x35, 0x39, 0x3D, 0x40,
        0x42, 0x70, 0x90, 0x91, 0xB0, 0xC4, 0xC5, 0xC6, 0xC8, 0xCA, 0xCE,
        0xE0, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xEA, 0xEC, 0xEF,
        0xF8, 0xF9, 0x27, 0x37, 0x10, 0x94, 0x99,
    };
    uint8_t dsel = next8(f);
    unsigned ch = dsel & 1, dev = (dsel >> 1) & 1;
    uint32_t lba = next_n(f, 3);
    uint8_t count = next8(f), feature = next8(f), c = next8(f);
    uint8_t cmd = c < 0xC0 ? cmds[c % G_N_ELEMENTS(cmds)] : next8(f);

    atalab_ctrl_cmd_write(f->c, ch, 6, 0xE0 | dev << 4 | (lba >> 24), 1);
    if (dsel & 4) {             /* previous contents for 48-bit commands */
        atalab_ctrl_cmd_write(f->c, ch, 2, 0, 1);
        atalab_ctrl_cmd_write(f->c, ch, 3, 0, 1);
    }
    atalab_ctrl_cmd_write(f->c, ch, 1, feature, 1);
    atalab_ctrl_cmd_write(f->c, ch, 2, count, 1);
    atalab_ctrl_cmd_write(f->c, ch, 3, lba, 1);
    atalab_ctrl_cmd_write(f->c, ch, 4, (dsel & 8) ? 0x4F : lba >> 8, 1);
    atalab_ctrl_cmd_write(f->c, ch, 5, (dsel & 8) ? 0xC2 : lba >> 16, 1);
    atalab_ctrl_cmd_write(f->c, ch, 7, cmd, 1);
}

static void op_prd(Fuzz *f)
{
    uint32_t table = (next_n(f, 2) * 8) % (RAM_SIZE - 64 * 8);
    unsigned n = 1 + next8(f) % 8, i;
    uint8_t ch = next8(f) & 1;

    for (i = 0; i < n; i++) {
        uint32_t addr = next_n(f, 3) << 1;
        uint32_t len = next_n(f, 2);
        uint32_t flags = (len & 0xFFFE) | (i == n - 1 ? 0x80000000u : 0);

        if (addr & 0x1000000) {
            addr |= 0xF0000000u;        /* outside RAM: master abort */
        }
        memcpy(f->ram + table + 8 * i, &addr, 4);
        memcpy(f->ram + table + 8 * i + 4, &flags, 4);
    }
    atalab_ctrl_bm_write(f->c, ch * 8 + 4, table, 4);
}

static void op_data(Fuzz *f, unsigned ch, bool write)
{
    unsigned n = 1 + next8(f), i;

    for (i = 0; i < n; i++) {
        if (write) {
            atalab_ctrl_cmd_write(f->c, ch, 0, next_n(f, 2), 2);
        } else {
            atalab_ctrl_cmd_read(f->c, ch, 0, (i & 1) ? 4 : 2);
        }
    }
}

/* A fault rule from a few bytes: the text form, as a user writes it. */
static void op_fault(Fuzz *f)
{
    static const char *const kinds[] = {
        "unc", "amnf", "idnf", "abrt", "write-fault", "df", "icrc",
        "timeout", "lost-irq", "spurious-irq", "bm-error",
        "protocol violation=drq-count", "protocol violation=status-phase",
        "protocol violation=irq-early", "latency delay=30ms",
        "reset-fail for=50ms", "remove for=100ms", "corrupt",
        "corrupt dir=write", "power-cut loss=0.5", "bm-error irq=no",
        "reset-fail", "remove",
    };
    static const char *const trig[] = {
        "always", "nth:1", "nth:3", "after:2", "every:2", "prob:0.3",
        "time:0ms-200ms", "time:50ms-forever",
    };
    uint8_t k = next8(f), d = next8(f), t = next8(f), a = next8(f);
    unsigned lba = next_n(f, 2) % DISK_SECTORS;
    char *text, *err = NULL;

    text = g_strdup_printf("%s drive=%u on=%s%s%s",
                           kinds[k % G_N_ELEMENTS(kinds)],
                           d & 3, trig[t % G_N_ELEMENTS(trig)],
                           (a & 1) ? " times=once" : "",
                           (a & 2) ? "" : " lba=0-0");
    if (a & 2) {
        /* with a range */
        char *more = g_strdup_printf("%s lba=%u+%u", text, lba, 1 + (a >> 2));

        g_free(text);
        text = more;
    }
    /* Rules that do not parse (a kind/key mismatch) are simply refused. */
    if (atalab_faults_add(atalab_ctrl_faults(f->c), text, "fuzz", 1, &err)) {
        atalab_ctrl_faults_changed(f->c);
    }
    g_free(err);
    g_free(text);
}

static void one_op(Fuzz *f)
{
    uint8_t op = next8(f);
    uint8_t a;

    switch (op % FUZZ_N_OPS) {
    case FUZZ_CFG_WRITE: {
        /* operands in input order (not in an argument list's, which C
         * leaves unspecified: gcc and clang read them differently) */
        uint32_t value;

        a = next8(f);
        value = next_n(f, 4);
        atalab_ctrl_config_write(f->c, 0x40 + a % 0xC0, value,
                                 size_of(next8(f)));
        break;
    }
    case FUZZ_CFG_READ:
        a = next8(f);
        atalab_ctrl_config_read(f->c, 0x40 + a % 0xC0, size_of(next8(f)));
        break;
    case FUZZ_ATA_WRITE:
        a = next8(f);
        atalab_ctrl_cmd_write(f->c, a & 1, (a >> 1) & 7, next_n(f, 4),
                              ((a >> 1) & 7) ? 1 : 2 << ((a >> 4) & 1));
        break;
    case FUZZ_ATA_READ:
        a = next8(f);
        atalab_ctrl_cmd_read(f->c, a & 1, (a >> 1) & 7,
                             ((a >> 1) & 7) ? 1 : 2 << ((a >> 4) & 1));
        /* Reading Status acknowledges the interrupt. */
        if (((a >> 1) & 7) == 7 && f->irq[a & 1]) {
            die("INTRQ still asserted after a Status read");
        }
        break;
    case FUZZ_CTL_WRITE:
        a = next8(f);
        atalab_ctrl_ctl_write(f->c, a & 1, next8(f));
        break;
    case FUZZ_CTL_READ:
        atalab_ctrl_ctl_read(f->c, next8(f) & 1);
        break;
    case FUZZ_BM_WRITE:
        a = next8(f);
        atalab_ctrl_bm_write(f->c, a % 18, next_n(f, 4), size_of(a >> 5));
        /* The guest may have cleared ERR: start counting again. */
        if (!((atalab_ctrl_bm_read(f->c, 2, 1) |
               atalab_ctrl_bm_read(f->c, 10, 1)) & 0x02)) {
            f->dma_failures = 0;
        }
        break;
    case FUZZ_BM_READ:
        a = next8(f);
        atalab_ctrl_bm_read(f->c, a % 18, size_of(a >> 5));
        break;
    case FUZZ_MEM: {
        uint32_t addr = next_n(f, 3) % RAM_SIZE;
        unsigned n = next8(f), i;

        for (i = 0; i < n && addr + i < RAM_SIZE; i++) {
            f->ram[addr + i] = next8(f);
        }
        break;
    }
    case FUZZ_PRD:
        op_prd(f);
        break;
    case FUZZ_COMPLETE:
    case FUZZ_COMPLETE_B:
        a = next8(f);
        if (f->npending) {
            static const int rets[] = { 0, 0, 0, -5, -28, -22 };

            complete(f, a % f->npending, rets[(a >> 4) % 6]);
        }
        break;
    case FUZZ_COMPLETE_ALL:
        while (f->npending) {
            complete(f, 0, 0);
        }
        break;
    case FUZZ_ADVANCE:
        advance(f, (int64_t)next_n(f, 2) * 1000000);
        break;
    case FUZZ_RESET:
        if (next8(f) < 16) {
            atalab_ctrl_reset(f->c);
            atalab_ctrl_firmware_init(f->c);
        }
        break;
    case FUZZ_TASKFILE:
    case FUZZ_TASKFILE_B:
        op_taskfile(f);
        break;
    case FUZZ_REENTER:
        f->reenter_op = next8(f) | 1;
        break;
    case FUZZ_DATA:
        a = next8(f);
        op_data(f, a & 1, a & 2);
        break;
    case FUZZ_FAULT:
        op_fault(f);
        break;
    case FUZZ_BM_CMD:
        a = next8(f);
        /* bus master start (with direction) or stop */
        atalab_ctrl_bm_write(f->c, (a & 1) * 8, (a & 0x08) | ((a >> 1) & 1),
                             1);
        break;
    }
}

/* The model's invariants, checked after every operation. */
static void check(Fuzz *f)
{
    unsigned ch, d;

    for (d = 0; d < 4; d++) {
        if (f->inflight[d] > 1 || atalab_ctrl_inflight(f->c, d) > 1 ||
            atalab_ctrl_inflight(f->c, d) != f->inflight[d]) {
            die("requests in flight: host and core disagree, or more than 1");
        }
    }
    for (ch = 0; ch < 2; ch++) {
        uint8_t bmic = atalab_ctrl_bm_read(f->c, ch * 8, 1);
        uint8_t bmis = atalab_ctrl_bm_read(f->c, ch * 8 + 2, 1);

        if (f->irq[ch] != atalab_ctrl_irq_level(f->c, ch)) {
            die("interrupt line and the host's view differ");
        }
        /* INTRQ comes only from a selected device that is present. */
        if (f->irq[ch] && (atalab_ctrl_ctl_read(f->c, ch) == 0x7F ||
                           atalab_ctrl_ctl_read(f->c, ch) == 0x00)) {
            die("INTRQ from an absent device or a floating bus");
        }
        if ((bmis & 0x01) && !(bmic & 0x01)) {
            die("BMISX.ACTIVE without BMICX.START");
        }
        /* An injected abort shows up when its data is reached. */
        if ((bmis & 0x02) && !f->dma_failures && !injected_aborts(f)) {
            die("BMISX.ERR without a failed guest memory access");
        }
        if (bmis & 0x98) {
            die("BMISX reserved or simplex bits set");
        }
        /* BMISX.INTR is set by an assertion edge of the channel's line. */
        if ((bmis & 0x04) && !f->intr_checked[ch] &&
            f->irq_edges[ch] == f->edges_checked[ch]) {
            die("BMISX.INTR set without an edge of the interrupt line");
        }
        f->intr_checked[ch] = bmis & 0x04;
        f->edges_checked[ch] = f->irq_edges[ch];
    }
}

void fuzz_run(const uint8_t *data, size_t size)
{
    static Fuzz fz;
    static const char *const models[] = { "piix4", "piix3", "ich5",
                                          "ich5-sata" };
    Fuzz *f = &fz;
    AtalabDriveConfig drives[ATALAB_DRIVES] = { 0 };
    uint8_t flags = size > 0 ? data[0] : 0;
    unsigned i, ops = 0;

    /* FUZZ_TRACE=1: print the trace of each run (to study a finding). */
    show_trace = getenv("FUZZ_TRACE") != NULL;
    if (show_trace) {
        flags |= 9;
    }
    memset(f, 0, offsetof(Fuzz, ram));
    memset(f->ram, 0, sizeof(f->ram));
    f->in = data;
    f->len = size;
    f->pos = 2;
    f->drain = flags & 2;
    f->zero_copy = flags & 4;
    f->host = (AtalabHost) {
        .opaque = f,
        .set_irq = h_set_irq,
        .dma_read = h_dma_read,
        .dma_write = h_dma_write,
        .dma_map = h_dma_map,
        .dma_unmap = h_dma_unmap,
        .blk_readv = h_readv,
        .blk_writev = h_writev,
        .blk_flush = h_flush,
        .blk_drain = h_drain,
        .clock_ns = h_clock,
        .timer_new = h_timer_new,
        .timer_mod = h_timer_mod,
        .timer_del = h_timer_del,
        .timer_free = h_timer_free,
        .trace = (flags & 9) == 9 ? h_trace : NULL,
    };
    for (i = 0; i < ATALAB_DRIVES; i++) {
        drives[i].present = !((flags >> 4) & (1u << i));
        drives[i].sectors = DISK_SECTORS;
    }
    f->c = atalab_ctrl_new(atalab_personality_find(
                               models[(size > 1 ? data[1] : 0) % 4]),
                           &f->host, drives);
    atalab_ctrl_firmware_init(f->c);
    check(f);
    while (f->pos < f->len && ops++ < 4096) {
        one_op(f);
        check(f);
    }
    /* The host drains everything before the controller goes away. */
    f->drain = true;
    f->reenter_op = 0;
    while (f->npending) {
        complete(f, 0, 0);
        check(f);
    }
    atalab_ctrl_free(f->c);
    if (f->mapped) {
        die("guest memory still mapped after the controller went away");
    }
    for (i = 0; i < f->ntimers; i++) {
        if (f->timers[i]->live) {
            die("timer not freed");
        }
        free(f->timers[i]);
    }
}
