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
#include "fake-host.h"
#include "fuzz-core.h"

#define RAM_SIZE        FUZZ_RAM_SIZE
#define DISK_SECTORS    256

/*
 * A run: the fake host (tests/host) with the state the invariants need
 * beside it.
 */
typedef struct Fuzz {
    FakeHost *fh;
    AtalabCtrl *c;
    const uint8_t *in;
    size_t len, pos;
    unsigned edges_checked[2];  /* fh.irq_raises at the last check */
    bool intr_checked[2];       /* BMISX.INTR at the last check */
    unsigned failures_at_clear; /* fh.dma_failures when the guest last
                                   cleared BMISX.ERR */
    uint8_t reenter_op;         /* 0: none armed */
    bool in_reenter;
    unsigned cd_mask;           /* disks (host drive numbers) that are CDs */
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

/* ---- operations -------------------------------------------------------- */

static unsigned size_of(uint8_t b)
{
    static const unsigned sizes[] = { 1, 2, 4, 1 };

    return sizes[b & 3];
}

/*
 * A guest memory access reaching the device's registers (MMCONFIG): the
 * fake host's on_dma hook.
 */
static void do_reenter(void *opaque, uint64_t addr, bool write)
{
    Fuzz *f = opaque;
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

/*
 * After PACKET: its 12-byte command packet through the data port, as a
 * driver sends it (whatever the drive's state); the operation code is
 * mostly one the CD-ROM has.
 */
static void op_packet(Fuzz *f, unsigned ch)
{
    static const uint8_t ops[] = {
        0x00, 0x03, 0x12, 0x1B, 0x1E, 0x25, 0x28, 0x43, 0x46, 0x4A, 0x51,
        0x5A, 0xA8, 0xBB,
    };
    uint8_t cdb[12];
    unsigned i;

    for (i = 0; i < 12; i++) {
        cdb[i] = next8(f);
    }
    if (cdb[0] < 0xE0) {
        cdb[0] = ops[cdb[0] % G_N_ELEMENTS(ops)];
    }
    for (i = 0; i < 12; i += 2) {
        atalab_ctrl_cmd_write(f->c, ch, 0, cdb[i] | cdb[i + 1] << 8, 2);
    }
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
    if (cmd == 0xA0) {
        op_packet(f, ch);
    }
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
        memcpy(f->fh->ram + table + 8 * i, &addr, 4);
        memcpy(f->fh->ram + table + 8 * i + 4, &flags, 4);
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
        "reset-fail", "remove", "identify-data bits=4",
        "identify-data word=83 value=0", "end-status status=0x51 error=0x04",
        "end-status status=0xd0", "end-status status=0x58",
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

/* The configuration byte of an operand: 0x40 + a, or PI for a >= 0xC0. */
static uint32_t cfg_offset(uint8_t a)
{
    return a < FUZZ_CFG_PI ? 0x40u + a : 0x09u;
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
        atalab_ctrl_config_write(f->c, cfg_offset(a), value,
                                 size_of(next8(f)));
        break;
    }
    case FUZZ_CFG_READ:
        a = next8(f);
        atalab_ctrl_config_read(f->c, cfg_offset(a), size_of(next8(f)));
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
        if (((a >> 1) & 7) == 7 && f->fh->irq[a & 1]) {
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
            f->failures_at_clear = f->fh->dma_failures;
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
            f->fh->ram[addr + i] = next8(f);
        }
        break;
    }
    case FUZZ_PRD:
        op_prd(f);
        break;
    case FUZZ_COMPLETE:
    case FUZZ_COMPLETE_B:
        a = next8(f);
        if (fake_host_pending(f->fh)) {
            static const int rets[] = { 0, 0, 0, -5, -28, -22 };

            fake_host_complete_nth_ret(f->fh, a % fake_host_pending(f->fh),
                                       rets[(a >> 4) % 6]);
        }
        break;
    case FUZZ_COMPLETE_ALL:
        while (fake_host_complete_one(f->fh)) {
        }
        break;
    case FUZZ_ADVANCE:
        fake_host_advance(f->fh, (int64_t)next_n(f, 2) * 1000000);
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

/* Is the disk at the channel's selected position a CD-ROM? */
static bool selected_is_cd(Fuzz *f, unsigned ch)
{
    uint8_t device = atalab_ctrl_cmd_read(f->c, ch, 6, 1);
    unsigned pos = ch * 2 + ((device >> 4) & 1);

    return (f->cd_mask >> atalab_ctrl_drive_disk(f->c, pos)) & 1;
}

/* The model's invariants, checked after every operation. */
static void check(Fuzz *f)
{
    unsigned ch, d;

    for (d = 0; d < 4; d++) {
        if (f->fh->inflight[d] > 1 || atalab_ctrl_inflight(f->c, d) > 1 ||
            atalab_ctrl_inflight(f->c, d) != f->fh->inflight[d]) {
            die("requests in flight: host and core disagree, or more than 1");
        }
    }
    /* PI: bus master always; native only where the personality has it */
    if (!(atalab_ctrl_config_peek(f->c, 0x09, 1) & 0x80)) {
        die("PI lost its bus master bit");
    }
    for (ch = 0; ch < 2; ch++) {
        if (atalab_ctrl_native(f->c, ch) &&
            !(atalab_ctrl_personality(f->c)->caps & ATALAB_CAP_NATIVE)) {
            die("a channel in native mode on a personality without it");
        }
    }
    for (ch = 0; ch < 2; ch++) {
        uint8_t bmic = atalab_ctrl_bm_read(f->c, ch * 8, 1);
        uint8_t bmis = atalab_ctrl_bm_read(f->c, ch * 8 + 2, 1);

        if (f->fh->irq[ch] != atalab_ctrl_irq_level(f->c, ch)) {
            die("interrupt line and the host's view differ");
        }
        /*
         * INTRQ comes only from a selected device that is present: the bus
         * does not float, and Status reads 00h only for a packet device
         * (after its reset or diagnostic, DRDY clear).
         */
        if (f->fh->irq[ch] && (atalab_ctrl_ctl_read(f->c, ch) == 0x7F ||
                               (atalab_ctrl_ctl_read(f->c, ch) == 0x00 &&
                                !selected_is_cd(f, ch)))) {
            die("INTRQ from an absent device or a floating bus");
        }
        if ((bmis & 0x01) && !(bmic & 0x01)) {
            die("BMISX.ACTIVE without BMICX.START");
        }
        /* An injected abort shows up when its data is reached. */
        if ((bmis & 0x02) && f->fh->dma_failures == f->failures_at_clear &&
            !injected_aborts(f)) {
            die("BMISX.ERR without a failed guest memory access");
        }
        if (bmis & 0x98) {
            die("BMISX reserved or simplex bits set");
        }
        /* BMISX.INTR is set by an assertion edge of the channel's line. */
        if ((bmis & 0x04) && !f->intr_checked[ch] &&
            f->fh->irq_raises[ch] == f->edges_checked[ch]) {
            die("BMISX.INTR set without an edge of the interrupt line");
        }
        f->intr_checked[ch] = bmis & 0x04;
        f->edges_checked[ch] = f->fh->irq_raises[ch];
    }
}

void fuzz_run(const uint8_t *data, size_t size)
{
    static const char *const models[] = { "piix4", "piix3", "ich5",
                                          "ich5-sata" };
    /* One host for every run: reset, not reallocated, between runs. */
    static FakeHost host;
    static bool host_ready;
    Fuzz fz = { .fh = &host }, *f = &fz;
    AtalabDriveConfig drives[ATALAB_DRIVES] = { 0 };
    uint8_t flags = size > 0 ? data[0] : 0;
    bool echo = getenv("FUZZ_TRACE") != NULL;
    unsigned i, ops = 0;

    /* FUZZ_TRACE=1: print the trace of each run (to study a finding). */
    if (echo) {
        flags |= 9;
    }
    if (!host_ready) {
        fake_host_init_ram(f->fh, (flags & 9) == 9, RAM_SIZE);
        for (i = 0; i < ATALAB_DRIVES; i++) {
            fake_host_add_disk(f->fh, i, DISK_SECTORS);
        }
        host_ready = true;
    } else {
        fake_host_reset(f->fh, (flags & 9) == 9);
    }
    f->fh->drain = flags & 2;
    f->fh->zero_copy = flags & 4;
    f->fh->keep_trace = false;
    f->fh->echo_trace = echo;
#ifndef FUZZ_CHECK_RECORDS
    /*
     * Parsing every record would slow libFuzzer several times: only the
     * replay build (the unit suite's seeds, regressions and random inputs)
     * checks each against the record table.
     */
    f->fh->check_records = false;
#endif
    f->fh->on_dma = do_reenter;
    f->fh->on_dma_opaque = f;
    f->in = data;
    f->len = size;
    f->pos = 2;
    for (i = 0; i < ATALAB_DRIVES; i++) {
        drives[i].present = !((flags >> 4) & (1u << i));
        drives[i].sectors = DISK_SECTORS;
        /* data[1] bits 2-5: the drive is a CD-ROM (docs/atapi.md) */
        if (size > 1 && (data[1] >> (2 + i)) & 1) {
            drives[i].kind = ATALAB_DRIVE_CD;
            f->cd_mask |= 1u << i;
        }
    }
    f->c = atalab_ctrl_new(atalab_personality_find(
                               models[(size > 1 ? data[1] : 0) % 4]),
                           &f->fh->host, drives);
    f->fh->ctrl = f->c;
    atalab_ctrl_firmware_init(f->c);
    check(f);
    while (f->pos < f->len && ops++ < 4096) {
        one_op(f);
        check(f);
    }
    /* The host drains everything before the controller goes away. */
    f->fh->drain = true;
    f->reenter_op = 0;
    while (fake_host_complete_one(f->fh)) {
        check(f);
    }
    atalab_ctrl_free(f->c);
    f->fh->ctrl = NULL;
    if (f->fh->mapped_now) {
        die("guest memory still mapped after the controller went away");
    }
    if (f->fh->timers->len) {
        die("timer not freed");
    }
}
