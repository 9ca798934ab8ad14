/*
 * trace-to-fuzz: turn a recorded atalab register trace (traces/FORMAT.md)
 * into an input of the core fuzzer (tests/fuzz/fuzz-core.h), so that the
 * fuzzer starts from what a real driver does.
 *
 * Every register access becomes the matching operation, a folded Status
 * poll up to MAX_POLLS reads, a folded DRQ block its data port accesses
 * again.  What the trace does not record is approximated: data written
 * by PIO is a pattern (a block record has only its checksum), each
 * backend request ("io" record) is
 * completed, successfully, right after it is issued; PRD tables are
 * rebuilt from the "bm prd" records, and guest addresses are folded into
 * the fuzz host's RAM.  A repeat record repeats the operations of the
 * channel's cycle before it.  Output stops before max-len bytes.
 *
 * usage: trace-to-fuzz TRACE OUT [--model N] [--drives MASK] [--max-len N]
 *                      [--from TEXT]
 * --from: start at the first record containing TEXT (e.g. " cmd d0 0xc8 ")
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fuzz-core.h"
#include "trace-read.h"

#define RAM_MASK        (FUZZ_RAM_SIZE - 1)
#define MAX_POLLS       8       /* reads a folded poll becomes */
#define MAX_PRDS        8192    /* descriptors of a 64 KiB table */

typedef struct Out {
    GByteArray *bytes;
    size_t max;
    bool full;
} Out;

/* A channel's operations since its latest data record, and before it. */
typedef struct Cycle {
    GByteArray *ops, *prev;
    unsigned records, prev_records;
} Cycle;

static void emit(Out *o, const uint8_t *b, size_t n)
{
    if (o->full || o->bytes->len + n > o->max) {
        o->full = true;
        return;
    }
    g_byte_array_append(o->bytes, b, n);
}

static void emit_le(uint8_t *p, uint32_t v, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        p[i] = v >> (8 * i);
    }
}

static uint8_t size_code(unsigned size)
{
    return size == 2 ? 1 : size == 4 ? 2 : 0;
}

static void access_op(Out *o, const char *space, bool write, unsigned off,
                      unsigned size, uint32_t val)
{
    uint8_t b[8];
    unsigned n = 0;

    if (!strcmp(space, "cfg")) {
        b[n++] = write ? FUZZ_CFG_WRITE : FUZZ_CFG_READ;
        b[n++] = off == 0x09 ? FUZZ_CFG_PI : off - 0x40;
        if (write) {
            emit_le(b + n, val, 4), n += 4;
        }
        b[n++] = size_code(size);
    } else if (!strncmp(space, "ata", 3)) {
        b[n++] = write ? FUZZ_ATA_WRITE : FUZZ_ATA_READ;
        b[n++] = (space[3] - '0') | off << 1 | (size == 4) << 4;
        if (write) {
            emit_le(b + n, val, 4), n += 4;
        }
    } else if (!strncmp(space, "ctl", 3)) {
        b[n++] = write ? FUZZ_CTL_WRITE : FUZZ_CTL_READ;
        b[n++] = space[3] - '0';
        if (write) {
            b[n++] = val;
        }
    } else if (!strcmp(space, "bm")) {
        if (write && (off % 8) == 4) {
            val &= RAM_MASK & ~3u;      /* the table lives in fuzz RAM */
        }
        b[n++] = write ? FUZZ_BM_WRITE : FUZZ_BM_READ;
        b[n++] = off | size_code(size) << 5;
        if (write) {
            emit_le(b + n, val, 4), n += 4;
        }
    } else {
        return;
    }
    emit(o, b, n);
}

/* A descriptor as the trace saw it fetched: put it back in memory. */
static void prd_op(Out *o, uint32_t at, uint32_t addr, uint32_t len, int eot)
{
    uint8_t b[5 + 8];
    uint32_t flags = (len & 0xFFFE) | (eot ? 0x80000000u : 0);

    b[0] = FUZZ_MEM;
    emit_le(b + 1, at & RAM_MASK, 3);
    b[4] = 8;
    emit_le(b + 5, addr & RAM_MASK, 4);
    emit_le(b + 9, flags, 4);
    emit(o, b, sizeof(b));
}

static void convert(Out *o, const AtalabTraceRecord *rec)
{
    uint64_t n = 1, at, addr, len, eot;
    unsigned i, size;
    uint8_t b;

    switch (rec->kind) {
    case ATALAB_REC_ACCESS:
        /* A folded poll: as many reads, up to a few (FORMAT.md) */
        atalab_trace_get_u64(rec, "polls", &n);
        for (i = 0; i < MIN(n, MAX_POLLS); i++) {
            access_op(o, rec->source, rec->write, rec->offset, rec->size,
                      rec->value);
        }
        break;
    case ATALAB_REC_ATA_DATA: {
        /* A DRQ block: its accesses again; written data is a pattern. */
        bool out = !strcmp(atalab_trace_word(rec, 0), "out");

        size = !g_strcmp0(atalab_trace_get(rec, "width"), "4") ? 4 : 2;
        atalab_trace_get_u64(rec, "bytes", &len);
        for (i = 0; i + size <= len; i += size) {
            access_op(o, rec->source, out, 0, size, out ? i * 0x01010101u : 0);
        }
        break;
    }
    case ATALAB_REC_BM_PRD: {
        /* A run of descriptors: each region step bytes after the last */
        int64_t step = 0;

        if (atalab_trace_get_u64(rec, "at", &at) &&
            atalab_trace_get_u64(rec, "addr", &addr) &&
            atalab_trace_get_u64(rec, "len", &len) &&
            atalab_trace_get_u64(rec, "eot", &eot)) {
            atalab_trace_get_u64(rec, "prds", &n);
            atalab_trace_get_i64(rec, "step", &step);
            for (i = 0; i < MIN(n, MAX_PRDS) && !o->full; i++) {
                prd_op(o, at + 8 * i, addr + step * i, len,
                       eot && i == n - 1);
            }
        }
        break;
    }
    case ATALAB_REC_ATA_IO:
        b = FUZZ_COMPLETE_ALL;
        emit(o, &b, 1);
        break;
    default:
        break;
    }
}

/*
 * Convert rec, keeping its channel's cycle; a repeat record emits the
 * operations of the cycle before it again, "cycles" times.
 */
static void convert_cycle(Out *o, Cycle cyc[2], const AtalabTraceRecord *rec)
{
    Cycle *c = rec->channel == 0 || rec->channel == 1 ?
               &cyc[rec->channel] : NULL;
    guint at = o->bytes->len;
    uint64_t n = 0, records = 0, i;
    GByteArray *swap;

    if (c && rec->kind == ATALAB_REC_ATA_REPEAT) {
        atalab_trace_get_u64(rec, "cycles", &n);
        atalab_trace_get_u64(rec, "records", &records);
        if (records != c->prev_records) {
            /* --from in the middle of a transfer, or a broken trace */
            fprintf(stderr, "trace-to-fuzz: a repeat of %" PRIu64 " records "
                    "after a cycle of %u: its %" PRIu64 " cycles left out\n",
                    records, c->prev_records, n);
        }
        for (i = 0; records == c->prev_records && i < n && !o->full; i++) {
            emit(o, c->prev->data, c->prev->len);
        }
        g_byte_array_set_size(c->ops, 0);
        c->records = 0;
        return;
    }
    convert(o, rec);
    if (!c) {
        return;
    }
    g_byte_array_append(c->ops, o->bytes->data + at, o->bytes->len - at);
    c->records++;
    if (rec->kind == ATALAB_REC_ATA_DATA &&
        !atalab_trace_get(rec, "partial")) {
        swap = c->prev;
        c->prev = c->ops;
        c->ops = swap;
        c->prev_records = c->records;
        g_byte_array_set_size(c->ops, 0);
        c->records = 0;
    }
}

int main(int argc, char **argv)
{
    Out o = { g_byte_array_new(), 4096, false };
    Cycle cyc[2];
    unsigned model = 0, drives = 1, i, k;
    const char *from = NULL;
    GError *err = NULL;
    AtalabTraceFile *f;
    AtalabTraceRecord rec = { 0 };
    bool started;
    uint8_t head[2];
    int r;

    if (argc < 3) {
        fprintf(stderr, "usage: trace-to-fuzz TRACE OUT [--model N] "
                "[--drives MASK] [--max-len N] [--from TEXT]\n");
        return 2;
    }
    for (i = 3; i + 1 < (unsigned)argc; i += 2) {
        unsigned long v = strtoul(argv[i + 1], NULL, 0);

        if (!strcmp(argv[i], "--model")) {
            model = v;
        } else if (!strcmp(argv[i], "--drives")) {
            drives = v;
        } else if (!strcmp(argv[i], "--max-len")) {
            o.max = v;
        } else if (!strcmp(argv[i], "--from")) {
            from = argv[i + 1];
        } else {
            fprintf(stderr, "trace-to-fuzz: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    f = atalab_trace_open(argv[1], false, &err);
    if (!f) {
        fprintf(stderr, "trace-to-fuzz: %s\n", err->message);
        return 1;
    }
    /* Drain and zero-copy on, as in QEMU; absent drives in bits 4-7. */
    head[0] = 0x06 | ((~drives & 0xF) << 4);
    head[1] = model;
    emit(&o, head, 2);
    started = !from;
    for (k = 0; k < 2; k++) {
        cyc[k] = (Cycle) { g_byte_array_new(), g_byte_array_new(), 0, 0 };
    }
    for (i = 0; !o.full && (r = atalab_trace_next(f, &rec, &err)) > 0; i++) {
        /* from the first record containing TEXT */
        started = started || strstr(rec.text, from);
        if (started) {
            convert_cycle(&o, cyc, &rec);
        }
    }
    for (k = 0; k < 2; k++) {
        g_byte_array_free(cyc[k].ops, TRUE);
        g_byte_array_free(cyc[k].prev, TRUE);
    }
    atalab_trace_record_clear(&rec);
    atalab_trace_close(f);
    if (err) {
        fprintf(stderr, "trace-to-fuzz: %s\n", err->message);
        return 1;
    }
    if (!g_file_set_contents(argv[2], (const gchar *)o.bytes->data,
                             o.bytes->len, &err)) {
        fprintf(stderr, "trace-to-fuzz: %s\n", err->message);
        return 1;
    }
    printf("%s: %u trace records, %u bytes\n", argv[2], i, o.bytes->len);
    g_byte_array_free(o.bytes, TRUE);
    return 0;
}
