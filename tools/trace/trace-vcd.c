/*
 * atalab trace to VCD (trace-vcd.h).
 *
 * Each signal holds its last value; a record that changes one (as
 * trace-signals.h reads it) writes the change at the record's time.  Times only go forward in a VCD: a record
 * written late by a fold (FORMAT.md, "Folding") is drawn at the latest
 * time seen.  A repeat record stands for its channel's previous cycle N
 * times more: those cycles are drawn again, evenly spaced between the
 * repeat's first and last time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "trace-vcd.h"

#include <inttypes.h>
#include <string.h>

#include "trace-signals.h"

#define CHANNELS        2
#define DRIVES          4
#define CYCLE_MAX       16

/* The signals, in the order they are declared. */
enum {
    SIG_IRQ,                    /* + channel */
    SIG_ACTIVE = SIG_IRQ + CHANNELS,    /* + channel */
    SIG_DRIVE = SIG_ACTIVE + CHANNELS,  /* + drive * DRIVE_SIGS + ... */
};
enum { D_BSY, D_DRQ, D_CMD, D_PIO, D_MWDMA, D_UDMA, DRIVE_SIGS };
#define N_SIGS  (SIG_DRIVE + DRIVES * DRIVE_SIGS)

typedef struct Vcd {
    FILE *out;
    bool present[DRIVES];
    int value[N_SIGS];          /* -1: unknown (x) */
    int64_t now;                /* time of the last #t written; -1: none */
    int64_t latest;             /* latest record time */
    /* the last records of each channel (copies): a repeat's cycle */
    char *cycle[CHANNELS][CYCLE_MAX];
    int64_t cycle_t[CHANNELS][CYCLE_MAX];
    unsigned cycle_n[CHANNELS], cycle_head[CHANNELS];
    uint64_t changes;
} Vcd;

static const char *const drive_sig_name[DRIVE_SIGS] = {
    "bsy", "drq", "cmd", "pio", "mwdma", "udma",
};

static bool is_vector(unsigned sig)
{
    return sig >= SIG_DRIVE && (sig - SIG_DRIVE) % DRIVE_SIGS >= D_CMD;
}

/* The identifier of signal i: printable ASCII from '!' (section 18.2.1). */
static void sig_id(unsigned i, char id[3])
{
    id[0] = '!' + i % 90;
    id[1] = i >= 90 ? '!' + i / 90 : '\0';
    id[2] = '\0';
}

static bool drive_sig(unsigned sig, unsigned *drive, unsigned *which)
{
    if (sig < SIG_DRIVE) {
        return false;
    }
    *drive = (sig - SIG_DRIVE) / DRIVE_SIGS;
    *which = (sig - SIG_DRIVE) % DRIVE_SIGS;
    return true;
}

static void write_value(Vcd *v, unsigned sig)
{
    char id[3];
    int x = v->value[sig];

    sig_id(sig, id);
    if (!is_vector(sig)) {
        fprintf(v->out, "%c%s\n", x < 0 ? 'x' : '0' + x, id);
        return;
    }
    if (x < 0) {
        fprintf(v->out, "bx %s\n", id);
        return;
    }
    fputc('b', v->out);
    for (int b = 7; b >= 0; b--) {
        fputc('0' + ((x >> b) & 1), v->out);
    }
    fprintf(v->out, " %s\n", id);
}

static void set(Vcd *v, unsigned sig, int x, int64_t t)
{
    unsigned d, w;

    if (v->value[sig] == x || (drive_sig(sig, &d, &w) && !v->present[d])) {
        return;                 /* no change, or a drive not in the dump */
    }
    v->value[sig] = x;
    if (t > v->now) {
        fprintf(v->out, "#%" PRId64 "\n", t);
        v->now = t;
    }
    write_value(v, sig);
    v->changes++;
}

static unsigned dsig(unsigned channel, unsigned unit, unsigned which)
{
    return SIG_DRIVE + (channel * 2 + unit) * DRIVE_SIGS + which;
}

/* The dump's signal of a change (the drive signals follow TraceSignal's
 * order from BSY on). */
static unsigned sig_of(const TraceSignalChange *c)
{
    if (c->sig == TRACE_SIG_INTRQ) {
        return SIG_IRQ + c->channel;
    }
    if (c->sig == TRACE_SIG_BM_ACTIVE) {
        return SIG_ACTIVE + c->channel;
    }
    return dsig(c->channel, c->unit, D_BSY + (c->sig - TRACE_SIG_BSY));
}

static void record(Vcd *v, const AtalabTraceRecord *r, int64_t t)
{
    TraceSignalChange c[TRACE_SIGNAL_MAX_CHANGES];
    unsigned i, n = trace_signal_changes(r, c);

    for (i = 0; i < n; i++) {
        set(v, sig_of(&c[i]), c[i].value, t);
    }
}

static void remember(Vcd *v, const AtalabTraceRecord *r, int64_t t)
{
    unsigned c = r->channel, at;

    if (r->channel < 0 || r->kind == ATALAB_REC_ATA_REPEAT) {
        return;
    }
    at = v->cycle_head[c];
    g_free(v->cycle[c][at]);
    v->cycle[c][at] = g_strdup(r->text);
    v->cycle_t[c][at] = t;
    v->cycle_head[c] = (at + 1) % CYCLE_MAX;
    v->cycle_n[c] = MIN(v->cycle_n[c] + 1, CYCLE_MAX);
}

/* The channel's previous cycle, cycles times more, between t0 and t1. */
static void repeat(Vcd *v, const AtalabTraceRecord *r, int64_t t0)
{
    unsigned c = r->channel;
    uint64_t cycles = 0, k = 0, n, i;
    int64_t t1 = t0, first, span;

    atalab_trace_get_u64(r, "cycles", &cycles);
    atalab_trace_get_u64(r, "records", &k);
    atalab_trace_get_i64(r, "last", &t1);
    if (!k || k > v->cycle_n[c] || !cycles) {
        return;                 /* drawn as it is: nothing to repeat */
    }
    t1 = MAX(t1, t0);
    first = v->cycle_t[c][(v->cycle_head[c] + CYCLE_MAX - k) % CYCLE_MAX];
    span = v->cycle_t[c][(v->cycle_head[c] + CYCLE_MAX - 1) % CYCLE_MAX] -
           first;
    for (n = 0; n < cycles; n++) {
        int64_t start = t0 + (t1 - t0) * (int64_t)n / (int64_t)cycles;
        int64_t room = (t1 - t0) / (int64_t)cycles;

        for (i = 0; i < k; i++) {
            unsigned at = (v->cycle_head[c] + CYCLE_MAX - k + i) % CYCLE_MAX;
            AtalabTraceRecord rr = { 0 };
            g_autofree char *why = NULL;
            int64_t off = v->cycle_t[c][at] - first;

            if (!atalab_trace_parse(v->cycle[c][at], false, &rr, &why)) {
                continue;
            }
            /* the cycle's own spacing, squeezed into its share of time */
            off = span > 0 && span > room ? off * room / span : off;
            record(v, &rr, MAX(start + off, v->now));
            atalab_trace_record_clear(&rr);
        }
    }
}

static void header(Vcd *v, AtalabTraceFile *f)
{
    const char *pers = atalab_trace_header(f, "personality");
    char id[3];
    unsigned c, d, s;

    fprintf(v->out, "$comment atalab trace %s (personality %s), "
            "docs/trace-vcd.md $end\n", atalab_trace_path(f),
            pers ? pers : "?");
    fprintf(v->out, "$timescale 1ns $end\n$scope module ide $end\n");
    for (c = 0; c < CHANNELS; c++) {
        fprintf(v->out, "$scope module ch%u $end\n", c);
        sig_id(SIG_IRQ + c, id);
        fprintf(v->out, "$var wire 1 %s intrq $end\n", id);
        sig_id(SIG_ACTIVE + c, id);
        fprintf(v->out, "$var wire 1 %s bm_active $end\n", id);
        for (d = c * 2; d < c * 2 + 2; d++) {
            if (!v->present[d]) {
                continue;
            }
            fprintf(v->out, "$scope module d%u $end\n", d % 2);
            for (s = 0; s < DRIVE_SIGS; s++) {
                sig_id(SIG_DRIVE + d * DRIVE_SIGS + s, id);
                fprintf(v->out, "$var %s %u %s %s $end\n",
                        s >= D_CMD ? "reg" : "wire", s >= D_CMD ? 8 : 1, id,
                        drive_sig_name[s]);
            }
            fprintf(v->out, "$upscope $end\n");
        }
        fprintf(v->out, "$upscope $end\n");
    }
    fprintf(v->out, "$upscope $end\n$enddefinitions $end\n");
}

int trace_vcd(AtalabTraceFile *f, FILE *out, FILE *err)
{
    g_autoptr(GError) e = NULL;
    AtalabTraceRecord r = { 0 };
    Vcd v = { .out = out, .now = -1, .latest = 0 };
    const char *path = atalab_trace_path(f);
    const char *lost = atalab_trace_times_lost(atalab_trace_header_lines(f));
    unsigned i, c;
    int got, rc = 0;

    if (lost) {
        fprintf(err, "%s: a VCD needs the trace's own times: this trace's "
                "are %s\n", path, lost);
        atalab_trace_close(f);
        return 2;
    }
    for (i = 0; i < DRIVES; i++) {
        g_autofree char *key = g_strdup_printf("drive%u", i);
        const char *d = atalab_trace_header(f, key);

        v.present[i] = d && strcmp(d, "absent");
    }
    for (i = 0; i < N_SIGS; i++) {
        v.value[i] = -1;
    }
    header(&v, f);
    fprintf(out, "#0\n$dumpvars\n");
    for (i = 0; i < N_SIGS; i++) {
        unsigned d, w;

        if (!drive_sig(i, &d, &w) || v.present[d]) {
            write_value(&v, i);
        }
    }
    fprintf(out, "$end\n");
    v.now = 0;
    while ((got = atalab_trace_next(f, &r, &e)) > 0) {
        int64_t t = MAX(r.time, v.latest);

        v.latest = t;
        if (r.kind == ATALAB_REC_ATA_REPEAT) {
            repeat(&v, &r, t);
        } else {
            record(&v, &r, t);
        }
        remember(&v, &r, t);
    }
    if (got < 0) {
        fprintf(err, "%s\n", e->message);
        rc = 2;
    }
    atalab_trace_record_clear(&r);
    for (c = 0; c < CHANNELS; c++) {
        for (i = 0; i < CYCLE_MAX; i++) {
            g_free(v.cycle[c][i]);
        }
    }
    atalab_trace_close(f);
    return rc;
}
