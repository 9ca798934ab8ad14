/*
 * atalab trace replay (trace-replay.h; docs/trace-replay.md).
 *
 * Two cursors walk the recording: the driver feeds its inputs to the core,
 * the comparer takes each record the replayed core writes and checks it
 * against the next recorded one.  Records are read from the file into a
 * window that holds what the comparer has not passed yet, a little history
 * for the report, and what the host's questions look ahead to.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "trace-replay.h"

#include <inttypes.h>
#include <string.h>

#include "controller/atalab-ctrl.h"
#include "trace-normalize.h"

#define LOOKAHEAD       100000  /* records a host question looks ahead */
#define HOIST_WINDOW    512     /* records a late status poll is sought in */
#define CYCLE_MAX       16      /* the writer's longest cycle */
#define DATA_MAX        (256 * 512)  /* the largest DRQ block */

typedef struct Rec {
    AtalabTraceRecord r;
    unsigned line;
    unsigned served;            /* bm prd: descriptors handed to the core */
    uint32_t region;            /* bm prd, normalized trace: where its go */
    bool delivered;             /* io-done: delivered early (a drain) */
    bool hoisted;               /* status poll: its first read done early */
} Rec;

typedef struct ReplayReq {
    bool busy;
    bool read;
    uint64_t offset;            /* bytes */
    AtalabIoVec *iov;
    unsigned niov;
    AtalabIoDone *done;
    void *opaque;
} ReplayReq;

struct AtalabTimer {
    AtalabTimerFn *fn;
    void *opaque;
    bool armed;
    int64_t expire;
};

/* The last records of a channel, as written (copies): a repeat's cycle. */
typedef struct History {
    Rec *rec[CYCLE_MAX];
    unsigned n, head;
} History;

typedef struct Replay {
    const ReplayOptions *o;
    AtalabTraceFile *f;
    const char *path;
    FILE *out;
    bool normalized;            /* header "normalized yes" */
    AtalabHost host;
    AtalabCtrl *c;
    int64_t now;
    uint32_t next_region;       /* normalized traces: the next PRD run's */
    /* the window: records base .. base + win->len - 1 */
    GPtrArray *win;             /* Rec * */
    uint64_t base;
    bool eof;
    uint64_t cmp;               /* next record the core must write */
    uint64_t drv;               /* next record the driver looks at */
    ReplayReq req[ATALAB_DRIVES];
    GPtrArray *timers;          /* AtalabTimer * */
    GPtrArray *maps;            /* buffers lent by dma_map */
    History hist[ATALAB_CHANNELS];
    /* data (docs/trace-replay.md, "Data") */
    GHashTable *disk;           /* drive << 56 | lba -> 512 bytes written */
    GHashTable *fed;            /* recorded sum << 32 | bytes -> GBytes */
    GHashTable *seen;           /* hash64 of bytes -> recorded sum */
    uint64_t data_bytes;        /* held in disk and fed */
    uint64_t fresh;             /* blocks of new bytes made */
    uint64_t repeat_hash;       /* a repeat's data in, being replayed */
    uint64_t blocks_checked;
    /* per drive, its latest read as the backend served it (PIO in),
     * the bytes fed to its data port not yet written (PIO out) */
    GByteArray *served[ATALAB_DRIVES];
    GByteArray *unwritten[ATALAB_DRIVES];
    bool corrupted[ATALAB_DRIVES];  /* a corrupt rule fired: data differ */
    /* outcome */
    int status;                 /* REPLAY_SAME, ... */
    char *diverged_actual;      /* what the core wrote (NULL: nothing) */
    char *why;                  /* the divergence or the bad input */
    const Rec *input;           /* what the driver was replaying */
    uint64_t accesses, answers, timer_firings;
} Replay;

/*
 * The host's drive number of the disk at a record's drive position, as the
 * replayed core routes it now (ICH5 SATA MAP moves disks between
 * positions; elsewhere it is the position).
 */
static int rec_disk(const Replay *rp, const AtalabTraceRecord *r)
{
    int position = r->channel * 2 + r->unit;

    /* Records of the controller being built: every disk in its place */
    return rp->c ? (int)atalab_ctrl_drive_disk(rp->c, position) : position;
}

/* io_done_of's question: an answer for this host drive. */
typedef struct IoDoneOf {
    const Replay *rp;
    unsigned drive;
} IoDoneOf;

/* ---- the window ------------------------------------------------------ */

static void rec_free(gpointer p)
{
    Rec *r = p;

    atalab_trace_record_clear(&r->r);
    g_free(r);
}

static void bad_input(Replay *rp, unsigned line, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

static void bad_input(Replay *rp, unsigned line, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *m = NULL;

    if (rp->status != REPLAY_SAME) {
        return;
    }
    va_start(ap, fmt);
    m = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    rp->status = REPLAY_BAD_INPUT;
    rp->why = line ? g_strdup_printf("%s:%u: %s", rp->path, line, m) :
              g_strdup_printf("%s: %s", rp->path, m);
}

/* Recorded record i, read as far as needed; NULL after the last one. */
static Rec *at(Replay *rp, uint64_t i)
{
    while (!rp->eof && i >= rp->base + rp->win->len) {
        Rec *r = g_new0(Rec, 1);
        g_autoptr(GError) e = NULL;
        int got = atalab_trace_next(rp->f, &r->r, &e);

        if (got <= 0) {
            atalab_trace_record_clear(&r->r);
            g_free(r);
            rp->eof = true;
            if (got < 0 && rp->status == REPLAY_SAME) {
                rp->status = REPLAY_BAD_INPUT;
                rp->why = g_strdup(e->message);
            }
            break;
        }
        r->line = atalab_trace_line(rp->f);
        g_ptr_array_add(rp->win, r);
    }
    if (i < rp->base || i >= rp->base + rp->win->len) {
        return NULL;
    }
    return g_ptr_array_index(rp->win, i - rp->base);
}

/* Let go of records no cursor and no report needs any more. */
static void window_trim(Replay *rp)
{
    uint64_t keep = MIN(rp->cmp, rp->drv);
    uint64_t drop;

    keep = keep > rp->o->context + CYCLE_MAX ?
           keep - rp->o->context - CYCLE_MAX : 0;
    if (keep < rp->base + 4096) {
        return;
    }
    drop = keep - rp->base;
    g_ptr_array_remove_range(rp->win, 0, drop);
    rp->base += drop;
}

/* ---- comparing --------------------------------------------------------- */

/*
 * The record as compared: time and last= (the host's clock) dropped,
 * normalized like the recording, data (sum=, sums=, a data port read's
 * value) masked.
 */
static char *comparable(const Replay *rp, const char *line)
{
    AtalabTraceRecord r = { 0 };
    g_autofree char *why = NULL;
    char *s;
    unsigned i, n = 0;

    if (!atalab_trace_parse(line, false, &r, &why)) {
        return g_strdup_printf("unparsable: %s", line);
    }
    if (rp->normalized) {
        g_free(atalab_trace_normalize(&r));
    }
    r.time = 0;
    for (i = 0; i < r.n_fields; i++) {
        AtalabTraceField *f = &r.field[i];

        if (f->key && !strcmp(f->key, "last")) {
            continue;
        }
        if (f->key && (!strcmp(f->key, "sum") || !strcmp(f->key, "sums"))) {
            f->value = "*";
        }
        r.field[n++] = *f;
    }
    r.n_fields = n;
    if (r.kind == ATALAB_REC_ACCESS && !r.write &&
        !g_strcmp0(atalab_trace_get(&r, "reg"), "Data")) {
        r.value = 0;
    }
    s = atalab_trace_format(&r);
    atalab_trace_record_clear(&r);
    return s;
}

static void diverge(Replay *rp, const char *actual, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

static void diverge(Replay *rp, const char *actual, const char *fmt, ...)
{
    va_list ap;

    if (rp->status != REPLAY_SAME) {
        return;
    }
    rp->status = REPLAY_DIVERGED;
    rp->diverged_actual = g_strdup(actual);
    va_start(ap, fmt);
    rp->why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
}

/* The host's trace sink: every record the replayed core writes. */
static void on_record(void *opaque, const char *line)
{
    Replay *rp = opaque;
    Rec *e;
    g_autofree char *want = NULL, *got = NULL;

    if (rp->status != REPLAY_SAME) {
        return;
    }
    e = at(rp, rp->cmp);
    if (!e) {
        if (rp->status == REPLAY_SAME) {
            diverge(rp, line, "the replayed core wrote a record after the "
                    "recording's last one");
        }
        return;
    }
    want = comparable(rp, e->r.text);
    got = comparable(rp, line);
    if (strcmp(want, got)) {
        diverge(rp, line, "the replayed core wrote another record");
        return;
    }
    rp->cmp++;
    if (e->r.channel >= 0 && e->r.unit >= 0 &&
        !strncmp(e->r.source, "ata", 3)) {
        unsigned drive = rec_disk(rp, &e->r);

        if (e->r.kind == ATALAB_REC_ATA_CMD) {
            g_byte_array_set_size(rp->served[drive], 0);
            g_byte_array_set_size(rp->unwritten[drive], 0);
            rp->corrupted[drive] = false;
        } else if (e->r.kind == ATALAB_REC_ATA_FAULT_CORRUPTED) {
            rp->corrupted[drive] = true;
        }
    }
}

/* ---- looking ahead for the host ---------------------------------------- */

/*
 * The first record from the comparer on of form kind that pred accepts;
 * with this_transfer, only up to the transfer's end (a "bm done" or "bm
 * stop") or the next command.
 */
static Rec *ahead(Replay *rp, AtalabTraceKind kind, bool this_transfer,
                  bool (*pred)(const Rec *, const void *), const void *arg)
{
    uint64_t i;
    Rec *r;

    for (i = rp->cmp; i < rp->cmp + LOOKAHEAD && (r = at(rp, i)); i++) {
        if (r->r.kind == kind && (!pred || pred(r, arg))) {
            return r;
        }
        if (this_transfer && (r->r.kind == ATALAB_REC_BM_DONE ||
                              r->r.kind == ATALAB_REC_BM_STOP ||
                              r->r.kind == ATALAB_REC_ATA_CMD)) {
            break;
        }
    }
    return NULL;
}

static uint64_t get_u64(const Rec *r, const char *key, uint64_t dflt)
{
    uint64_t v;

    return atalab_trace_get_u64(&r->r, key, &v) ? v : dflt;
}

static int64_t get_i64(const Rec *r, const char *key, int64_t dflt)
{
    int64_t v;

    return atalab_trace_get_i64(&r->r, key, &v) ? v : dflt;
}

typedef struct PrdQuery {
    uint64_t addr;
    bool any_addr;              /* a normalized trace has no addresses */
} PrdQuery;

/* A PRD record (or run) with a descriptor left to hand out at addr. */
static bool prd_serves(const Rec *r, const void *arg)
{
    const PrdQuery *q = arg;
    uint64_t at_ = get_u64(r, "at", 0), n = get_u64(r, "prds", 1);

    if (r->served >= n) {
        return false;
    }
    return q->any_addr ||
           q->addr == ((at_ + 8 * (uint64_t)r->served) & 0xFFFFFFFFu);
}

static bool abort_at(const Rec *r, const void *arg)
{
    const uint64_t *a = arg;

    return !r->served && get_u64(r, "addr", 0) == a[0] &&
           get_u64(r, "len", 0) == a[1];
}

/* Does the recording say this guest memory access failed? */
static bool master_abort(Replay *rp, uint64_t addr, size_t len)
{
    uint64_t a[2] = { addr, len };
    Rec *r = ahead(rp, ATALAB_REC_BM_MASTER_ABORT, true, abort_at, a);

    if (r) {
        r->served = 1;
    }
    return r != NULL;
}

/* Guest memory read: a PRD entry as recorded, else data (unknown: 0). */
static int h_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    Replay *rp = opaque;
    PrdQuery q = { addr, rp->normalized };
    Rec *r;

    if (master_abort(rp, addr, len)) {
        return -1;
    }
    memset(buf, 0, len);
    if (len == 8 && (r = ahead(rp, ATALAB_REC_BM_PRD, true, prd_serves, &q))) {
        uint64_t n = get_u64(r, "prds", 1), i = r->served++;
        uint32_t region = get_u64(r, "addr", 0) + i * get_i64(r, "step", 0);

        if (rp->normalized) {
            /*
             * Addresses are gone: each run gets a region of its own (16
             * MiB apart), all its descriptors there, so that the writer
             * folds the descriptors into the runs the recording has.
             */
            if (!i) {
                rp->next_region += 16 * 1024 * 1024;
                r->region = rp->next_region;
            }
            region = r->region;
        }
        uint32_t count = get_u64(r, "len", 0) & 0xFFFE;
        uint32_t flags = count | (get_u64(r, "eot", 0) && i == n - 1 ?
                                  0x80000000u : 0);
        uint8_t *e = buf;
        unsigned b;

        for (b = 0; b < 4; b++) {
            e[b] = region >> (8 * b);
            e[4 + b] = flags >> (8 * b);
        }
    }
    return 0;
}

static int h_dma_write(void *opaque, uint64_t addr, const void *buf,
                       size_t len)
{
    return master_abort(opaque, addr, len) ? -1 : 0;
}

static bool is_direct(const Rec *r, const void *arg)
{
    return get_u64(r, "direct", 0) == 1;
}

/* Zero-copy where the recording's next backend request had it. */
static void *h_dma_map(void *opaque, uint64_t addr, size_t *len,
                       bool to_memory)
{
    Replay *rp = opaque;
    Rec *io = ahead(rp, ATALAB_REC_ATA_IO, false, NULL, NULL);
    void *p;

    if (!io || !is_direct(io, NULL) || *len > 16 * 1024 * 1024) {
        *len = 0;
        return NULL;
    }
    p = g_malloc0(*len);
    g_ptr_array_add(rp->maps, p);
    return p;
}

static void h_dma_unmap(void *opaque, void *ptr, size_t len, bool to_memory,
                        size_t done)
{
    Replay *rp = opaque;

    g_ptr_array_remove_fast(rp->maps, ptr);
}

/* ---- the backend ------------------------------------------------------- */

static void submit(Replay *rp, unsigned drive, bool read, uint64_t offset,
                   const AtalabIoVec *iov, unsigned niov, AtalabIoDone *done,
                   void *opaque)
{
    ReplayReq *q = &rp->req[drive];

    if (q->busy) {
        diverge(rp, NULL, "the replayed core sent drive %u a second request "
                "while one was in flight", drive);
        return;
    }
    q->busy = true;
    q->read = read;
    q->offset = offset;
    g_free(q->iov);
    q->iov = niov ? g_memdup2(iov, niov * sizeof(*iov)) : NULL;
    q->niov = niov;
    q->done = done;
    q->opaque = opaque;
}

static void h_readv(void *opaque, unsigned drive, uint64_t offset,
                    const AtalabIoVec *iov, unsigned niov,
                    AtalabIoDone *done, void *done_opaque)
{
    submit(opaque, drive, true, offset, iov, niov, done, done_opaque);
}

static void h_writev(void *opaque, unsigned drive, uint64_t offset,
                     const AtalabIoVec *iov, unsigned niov, bool fua,
                     AtalabIoDone *done, void *done_opaque)
{
    submit(opaque, drive, false, offset, iov, niov, done, done_opaque);
}

static void h_flush(void *opaque, unsigned drive, AtalabIoDone *done,
                    void *done_opaque)
{
    submit(opaque, drive, false, 0, NULL, 0, done, done_opaque);
}

/* ---- data ---------------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Bytes no other block has: a block the recording's data cannot give. */
static void fill_unique(uint8_t *p, size_t len, uint64_t key)
{
    size_t i;

    for (i = 0; i < len; i++) {
        p[i] = mix64(key * 0x10001ull + i / 8) >> (8 * (i % 8));
    }
}

static uint64_t hash64(const uint8_t *p, size_t len)
{
    uint64_t h = 14695981039346656037ull;
    size_t i;

    for (i = 0; i < len; i++) {
        h = (h ^ p[i]) * 1099511628211ull;
    }
    return h;
}

static bool data_room(Replay *rp, size_t more)
{
    if (rp->data_bytes + more > rp->o->max_data_bytes) {
        bad_input(rp, rp->input ? rp->input->line : 0, "the run moves more "
                  "than %" PRIu64 " bytes of data to replay",
                  rp->o->max_data_bytes);
        return false;
    }
    rp->data_bytes += more;
    return true;
}

/* One sector of drive's disk: what the core wrote, or unique bytes. */
static void disk_read(Replay *rp, unsigned drive, uint64_t lba, uint8_t *p)
{
    const uint8_t *d = g_hash_table_lookup(rp->disk,
                                           GSIZE_TO_POINTER((uint64_t)drive << 56 |
                                                            lba));

    if (d) {
        memcpy(p, d, 512);
    } else {
        fill_unique(p, 512, ((uint64_t)drive << 56 | lba) ^ 0xD15Cull << 40);
    }
}

static void disk_write(Replay *rp, unsigned drive, uint64_t lba,
                       const uint8_t *p)
{
    gpointer key = GSIZE_TO_POINTER((uint64_t)drive << 56 | lba);

    if (!g_hash_table_contains(rp->disk, key) && !data_room(rp, 512)) {
        return;
    }
    g_hash_table_insert(rp->disk, key, g_memdup2(p, 512));
}

/* Move a request's data between its buffers and the disk, sector by sector. */
static void disk_move(Replay *rp, unsigned drive, ReplayReq *q)
{
    uint8_t sector[512];
    uint64_t lba = q->offset / 512;
    size_t at = 0, i, n;

    for (i = 0; i < q->niov && rp->status == REPLAY_SAME; i++) {
        uint8_t *b = q->iov[i].base;
        size_t done = 0;

        while (done < q->iov[i].len) {
            size_t off = at % 512;

            n = MIN(q->iov[i].len - done, 512 - off);
            if (q->read) {
                disk_read(rp, drive, lba + at / 512, sector);
                memcpy(b + done, sector + off, n);
            } else {
                if (off || n != 512) {
                    disk_read(rp, drive, lba + at / 512, sector);
                }
                memcpy(sector + off, b + done, n);
                if (off + n == 512) {
                    disk_write(rp, drive, lba + at / 512, sector);
                }
            }
            done += n;
            at += n;
        }
    }
}

/*
 * The block of bytes the recording's data record (sum) stood for: bytes
 * moved in the replay that hash alike must have been recorded alike.
 */
static void data_check(Replay *rp, const uint8_t *p, size_t len, uint32_t sum)
{
    gpointer key = GSIZE_TO_POINTER(hash64(p, len));
    gpointer old;

    rp->blocks_checked++;
    if (g_hash_table_lookup_extended(rp->seen, key, NULL, &old)) {
        if (GPOINTER_TO_UINT(old) != sum) {
            diverge(rp, NULL, "the block's data are those of a block "
                    "recorded with sum=0x%08x, not 0x%08x (the core moved "
                    "other data)", GPOINTER_TO_UINT(old), sum);
        }
        return;
    }
    g_hash_table_insert(rp->seen, key, GUINT_TO_POINTER(sum));
}

/*
 * The bytes a recorded data-out block (sum, len) is replayed with: the same
 * for the same sum, unique otherwise; fresh ones in a repeat, whose blocks'
 * sums are not recorded.
 */
static const uint8_t *data_to_write(Replay *rp, uint32_t sum, size_t len,
                                    bool fresh)
{
    gpointer key = GSIZE_TO_POINTER((uint64_t)sum << 32 | len);
    GBytes *b = fresh ? NULL : g_hash_table_lookup(rp->fed, key);
    uint8_t *p;

    if (b) {
        return g_bytes_get_data(b, NULL);
    }
    if (!data_room(rp, len)) {
        return NULL;
    }
    p = g_malloc(len);
    fill_unique(p, len, ++rp->fresh ^ 0xFEEDull << 40);
    b = g_bytes_new_take(p, len);
    if (fresh) {
        /* kept only as long as the replay: the key is unique */
        key = GSIZE_TO_POINTER(1ull << 63 | rp->fresh);
    }
    g_hash_table_insert(rp->fed, key, b);
    return p;
}

/* Does needle occur in hay? */
static bool has_bytes(const GByteArray *hay, const uint8_t *needle, size_t n)
{
    size_t i;

    for (i = 0; n && i + n <= hay->len; i++) {
        if (hay->data[i] == needle[0] && !memcmp(hay->data + i, needle, n)) {
            return true;
        }
    }
    return !n;
}

/*
 * What the backend got or gave: a read's data, for the command's PIO
 * blocks to come from; a write's data must hold the bytes fed to the data
 * port since the last write (unless a corrupt rule changed them).
 */
static void data_served(Replay *rp, unsigned drive, const ReplayReq *q)
{
    g_autoptr(GByteArray) data = g_byte_array_new();
    GByteArray *fed = rp->unwritten[drive];
    unsigned i;

    for (i = 0; i < q->niov; i++) {
        g_byte_array_append(data, q->iov[i].base, q->iov[i].len);
    }
    if (q->read) {
        /* a PIO block's bytes come from the read answered last */
        g_byte_array_set_size(rp->served[drive], 0);
        g_byte_array_append(rp->served[drive], data->data, data->len);
        return;
    }
    if (fed->len && !rp->corrupted[drive] &&
        !has_bytes(data, fed->data, MIN(fed->len, data->len))) {
        diverge(rp, NULL, "drive %u's backend write does not hold the bytes "
                "the data port was given", drive);
    }
    g_byte_array_set_size(fed, 0);
}

/* The backend answers drive's request. */
static void answer(Replay *rp, unsigned drive, int ret)
{
    ReplayReq *q = &rp->req[drive];

    q->busy = false;
    if (ret >= 0 && q->niov) {
        disk_move(rp, drive, q);
        data_served(rp, drive, q);
    }
    rp->answers++;
    q->done(q->opaque, ret);
}

static bool io_done_of(const Rec *r, const void *arg)
{
    const IoDoneOf *want = arg;

    return !r->delivered &&
           rec_disk(want->rp, &r->r) == (int)want->drive;
}

/* Drain: the drive's answer now, the one the recording has next. */
static void h_drain(void *opaque, unsigned drive)
{
    Replay *rp = opaque;
    Rec *r;
    int ret = 0;

    if (!rp->req[drive].busy) {
        return;
    }
    r = ahead(rp, ATALAB_REC_ATA_IO_DONE, false, io_done_of,
              &(IoDoneOf) { rp, drive });
    if (r) {
        r->delivered = true;
        ret = get_i64(r, "ret", 0);
    }
    answer(rp, drive, ret);
}

/* ---- clock and timers -------------------------------------------------- */

static int64_t h_clock(void *opaque)
{
    return ((Replay *)opaque)->now;
}

static AtalabTimer *h_timer_new(void *opaque, AtalabTimerFn *fn,
                                void *fn_opaque)
{
    Replay *rp = opaque;
    AtalabTimer *t = g_new0(AtalabTimer, 1);

    t->fn = fn;
    t->opaque = fn_opaque;
    g_ptr_array_add(rp->timers, t);
    return t;
}

static void h_timer_mod(void *opaque, AtalabTimer *t, int64_t expire)
{
    t->armed = true;
    t->expire = expire;
}

static void h_timer_del(void *opaque, AtalabTimer *t)
{
    t->armed = false;
}

static void h_timer_free(void *opaque, AtalabTimer *t)
{
    g_ptr_array_remove_fast(((Replay *)opaque)->timers, t);
    g_free(t);
}

/* ---- the controller from the header ------------------------------------ */

static const char *header(const Replay *rp, const char *key)
{
    return atalab_trace_header(rp->f, key);
}

/* The controller the header describes, set up as atalab-ide does. */
static bool build(Replay *rp)
{
    const AtalabPersonality *p;
    AtalabDriveConfig drives[ATALAB_DRIVES] = { { 0 } };
    const GPtrArray *lines = atalab_trace_header_lines(rp->f);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *v;
    unsigned i;

    v = header(rp, "personality");
    if (!v || !(p = atalab_personality_find(v))) {
        bad_input(rp, 0, "the header names no personality this core has "
                  "(%s)", atalab_personality_names());
        return false;
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        static const char *const str[3] = { "model", "serial", "fwrev" };
        g_autofree char *key = g_strdup_printf("drive%u", i);
        unsigned k;

        v = header(rp, key);
        if (!v) {
            bad_input(rp, 0, "the header has no %s line", key);
            return false;
        }
        if (!strcmp(v, "absent")) {
            continue;
        }
        if (g_str_has_prefix(v, "cd ")) {
            drives[i].kind = ATALAB_DRIVE_CD;
            v += 3;
        }
        /* A CD-ROM's tray may be empty: 0 sectors */
        if (strncmp(v, "sectors=", 8) ||
            !g_ascii_string_to_unsigned(v + 8, 10,
                                        drives[i].kind == ATALAB_DRIVE_CD ?
                                        0 : 1, (1ull << 48) - 1,
                                        &drives[i].sectors, NULL)) {
            bad_input(rp, 0, "header %s is '%s', not absent, sectors=N "
                      "(1 to 2^48-1) or cd sectors=N (0: no disc)", key, v);
            return false;
        }
        drives[i].present = true;
        for (k = 0; k < 3; k++) {
            g_autofree char *sk = g_strdup_printf("drive%u.%s", i, str[k]);

            g_ptr_array_add(names, g_strdup(header(rp, sk)));
        }
        drives[i].model = g_ptr_array_index(names, names->len - 3);
        drives[i].serial = g_ptr_array_index(names, names->len - 2);
        drives[i].fwrev = g_ptr_array_index(names, names->len - 1);
    }
    rp->c = atalab_ctrl_new(p, &rp->host, drives);
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        g_autofree char *key = g_strdup_printf("cable%u", i);

        v = header(rp, key);
        if (v && strcmp(v, "40") && strcmp(v, "80")) {
            bad_input(rp, 0, "header %s is '%s', not 40 or 80", key, v);
            return false;
        }
        if (v) {
            atalab_ctrl_set_cable80(rp->c, i, !strcmp(v, "80"));
        }
    }
    atalab_ctrl_set_strict(rp->c, !g_strcmp0(header(rp, "strict"), "on"));
    v = header(rp, "ide-mode");
    if (v) {
        unsigned native;

        if (!atalab_ide_mode_parse(v, &native) ||
            !atalab_ctrl_set_firmware_native(rp->c, native)) {
            bad_input(rp, 0, "header ide-mode is '%s', not native, native0 "
                      "or native1 of a personality that has them", v);
            return false;
        }
    }
    v = header(rp, "sata-map");
    if (v) {
        guint64 map;

        if (!g_ascii_string_to_unsigned(v, 10, 0, 7, &map, NULL) ||
            !atalab_ctrl_set_firmware_map(rp->c, (int)map)) {
            bad_input(rp, 0, "header sata-map is '%s', not a MAP value 0-7 "
                      "of ich5-sata", v);
            return false;
        }
    }
    /* Absent: firmware enabled no SATA port (traces from before it did). */
    v = header(rp, "sata-ports");
    if (v) {
        guint64 ports;

        if (!g_ascii_string_to_unsigned(v, 10, 1, 3, &ports, NULL) ||
            !atalab_ctrl_set_firmware_ports(rp->c, (int)ports)) {
            bad_input(rp, 0, "header sata-ports is '%s', not the port "
                      "enables 1-3 of ich5-sata", v);
            return false;
        }
    } else {
        atalab_ctrl_set_firmware_ports(rp->c, 0);
    }
    v = header(rp, "fault-seed");
    if (v) {
        guint64 seed;

        if (!g_ascii_string_to_unsigned(v, 10, 0, G_MAXUINT64, &seed, NULL)) {
            bad_input(rp, 0, "header fault-seed is '%s', not a number", v);
            return false;
        }
        atalab_faults_set_seed(atalab_ctrl_faults(rp->c), seed);
    }
    for (i = 0; i < lines->len; i++) {
        const char *line = g_ptr_array_index(lines, i);
        g_autofree char *why = NULL;

        if (!g_str_has_prefix(line, "fault ")) {
            continue;
        }
        /* header line i is line i + 2 of the file */
        if (!atalab_faults_add(atalab_ctrl_faults(rp->c), line + 6, rp->path,
                               i + 2, &why)) {
            if (rp->status == REPLAY_SAME) {
                rp->status = REPLAY_BAD_INPUT;
                rp->why = g_steal_pointer(&why);    /* FILE:LINE:COLUMN */
            }
            return false;
        }
    }
    atalab_ctrl_faults_changed(rp->c);
    /* in the order atalab-ide sets the controller up */
    atalab_ctrl_set_trace_data(rp->c,
                               !g_strcmp0(header(rp, "trace-data"), "raw") ?
                               ATALAB_TRACE_DATA_RAW : ATALAB_TRACE_DATA_BLOCK);
    atalab_ctrl_set_trace_time(rp->c,
                               !g_strcmp0(header(rp, "trace-time"),
                                          "relative") ?
                               ATALAB_TRACE_TIME_RELATIVE :
                               ATALAB_TRACE_TIME_ABSOLUTE);
    return rp->status == REPLAY_SAME;
}

/* ---- driving ----------------------------------------------------------- */

static void clock_to(Replay *rp, int64_t t)
{
    if (t > rp->now) {
        rp->now = t;
    }
}

static bool within(Replay *rp, const Rec *r, uint64_t n, const char *what)
{
    if (n > rp->o->max_accesses) {
        bad_input(rp, r->line, "%s=%" PRIu64 " is more than replay does "
                  "(%" PRIu64 ")", what, n, rp->o->max_accesses);
        return false;
    }
    return true;
}

static void access(Replay *rp, const AtalabTraceRecord *r, uint32_t value)
{
    AtalabCtrl *c = rp->c;

    rp->accesses++;
    if (!strcmp(r->source, "cfg")) {
        if (r->offset < 0x40 || r->offset + r->size > 0x100) {
            return;             /* not the core's */
        }
        if (r->write) {
            atalab_ctrl_config_write(c, r->offset, value, r->size);
        } else {
            atalab_ctrl_config_read(c, r->offset, r->size);
        }
    } else if (!strcmp(r->source, "bm")) {
        if (r->offset > 15) {
            return;
        }
        if (r->write) {
            atalab_ctrl_bm_write(c, r->offset, value, r->size);
        } else {
            atalab_ctrl_bm_read(c, r->offset, r->size);
        }
    } else if (!strncmp(r->source, "ata", 3)) {
        if (r->offset > 7 || (r->offset && r->size != 1)) {
            return;
        }
        if (r->write) {
            atalab_ctrl_cmd_write(c, r->channel, r->offset, value, r->size);
        } else {
            atalab_ctrl_cmd_read(c, r->channel, r->offset, r->size);
        }
    } else if (!strncmp(r->source, "ctl", 3)) {
        if (r->write) {
            atalab_ctrl_ctl_write(c, r->channel, value);
        } else {
            atalab_ctrl_ctl_read(c, r->channel);
        }
    }
}

static void drive_access(Replay *rp, const Rec *e)
{
    const AtalabTraceRecord *r = &e->r;
    uint64_t polls = get_u64(e, "polls", 1), i;
    int64_t last = get_i64(e, "last", r->time);
    uint32_t value = r->value;

    if (!within(rp, e, polls, "polls")) {
        return;
    }
    if (r->write && !strcmp(r->source, "bm") &&
        !g_strcmp0(atalab_trace_get(r, "reg"), "BMIDTPX") && rp->normalized) {
        value = 0;
    }
    for (i = e->hoisted; i < polls && rp->status == REPLAY_SAME; i++) {
        if (i + 1 == polls) {
            clock_to(rp, last);
        }
        access(rp, r, value);
    }
}

static bool is_status_read(const Rec *e)
{
    const char *reg = atalab_trace_get(&e->r, "reg");

    return e->r.kind == ATALAB_REC_ACCESS && !e->r.write &&
           (!g_strcmp0(reg, "Status") || !g_strcmp0(reg, "AltStatus"));
}

/*
 * The writer holds a run of status reads until it ends, so a channel's
 * poll can stand in the file after records of the other channel that came
 * while it waited (SeaBIOS probes one channel while a packet command of
 * the other reads its disc).  Its first read ended the channel's run
 * before it, so it goes in time order: before record e, every later
 * status read of another channel that began before e, with no record of
 * its own channel between.
 */
static void hoist_polls(Replay *rp, const Rec *e)
{
    bool busy[ATALAB_CHANNELS] = { false };
    /* the other channels not yet seen: the scan ends when none is left */
    unsigned others = ATALAB_CHANNELS - 1;
    uint64_t j;
    Rec *r;

    for (j = rp->drv + 1;
         others && j < rp->drv + HOIST_WINDOW && (r = at(rp, j)); j++) {
        int ch = r->r.channel;

        if (ch < 0 || ch >= ATALAB_CHANNELS || busy[ch]) {
            continue;
        }
        busy[ch] = true;
        if (ch == e->r.channel) {
            continue;
        }
        others--;
        if (!r->hoisted && r->r.time < e->r.time && is_status_read(r)) {
            clock_to(rp, r->r.time);
            access(rp, &r->r, r->r.value);
            r->hoisted = true;
        }
    }
}

/*
 * A folded DRQ block: its data port accesses.  Written bytes are chosen by
 * the recorded sum (data_to_write); the bytes read are checked against the
 * recorded sum (data_check), or, in a repeat, hashed for the repeat's sums.
 */
static bool same_device(const Rec *r, const void *arg)
{
    const Rec *e = arg;

    return r->r.channel == e->r.channel && r->r.unit == e->r.unit;
}

/*
 * A packet device's command packet is a data-out block whose bytes the
 * packet record after it holds (cdb=): the bytes to write, in buf, or NULL
 * for any other block.
 */
static const uint8_t *packet_bytes(Replay *rp, const Rec *e, uint64_t bytes,
                                   uint8_t buf[12])
{
    const Rec *p = bytes == 12 ? ahead(rp, ATALAB_REC_ATA_PACKET, true,
                                       same_device, e) : NULL;
    const char *hex = p ? atalab_trace_get(&p->r, "cdb") : NULL;
    unsigned i;

    if (!hex || strlen(hex) != 2 + 24) {
        return NULL;
    }
    for (i = 0; i < 12; i++) {
        buf[i] = g_ascii_xdigit_value(hex[2 + 2 * i]) << 4 |
                 g_ascii_xdigit_value(hex[3 + 2 * i]);
    }
    return buf;
}

static void drive_data(Replay *rp, const Rec *e, bool in_repeat)
{
    const AtalabTraceRecord *r = &e->r;
    uint8_t cdb[12];
    uint64_t bytes = get_u64(e, "bytes", 0), i;
    uint32_t sum = get_u64(e, "sum", 0);
    const char *width = atalab_trace_get(r, "width");
    /*
     * mixed: as Linux's ata_sff_data_xfer32 does it, 32-bit accesses, then
     * a 16-bit one for a block that is not a multiple of 4 (a packet
     * device's)
     */
    bool mixed = !g_strcmp0(width, "mixed");
    unsigned size = !g_strcmp0(width, "4") || mixed ? 4 : 2, b, drive;
    bool in = !g_strcmp0(atalab_trace_word(r, 0), "in");
    g_autofree uint8_t *got = NULL;
    const uint8_t *put = NULL;

    if (bytes > DATA_MAX || bytes % (mixed ? 2 : size)) {
        bad_input(rp, e->line, "a data block of %" PRIu64 " bytes in "
                  "accesses of %u", bytes, size);
        return;
    }
    if (in) {
        got = g_malloc(bytes);
    } else if (!(put = packet_bytes(rp, e, bytes, cdb)) &&
               !(put = data_to_write(rp, sum, bytes, in_repeat))) {
        return;
    }
    for (i = 0; i < bytes && rp->status == REPLAY_SAME; i += size) {
        uint32_t v = 0;

        if (bytes - i < size) {
            size = 2;           /* the tail of a mixed block */
        }
        rp->accesses++;
        if (in) {
            v = atalab_ctrl_cmd_read(rp->c, r->channel, 0, size);
            for (b = 0; b < size; b++) {
                got[i + b] = v >> (8 * b);
            }
        } else {
            for (b = 0; b < size; b++) {
                v |= (uint32_t)put[i + b] << (8 * b);
            }
            atalab_ctrl_cmd_write(rp->c, r->channel, 0, v, size);
        }
    }
    if (rp->status != REPLAY_SAME) {
        return;
    }
    drive = rec_disk(rp, r);
    if (!in) {
        if (rp->unwritten[drive]->len + bytes <= DATA_MAX * 2) {
            g_byte_array_append(rp->unwritten[drive], put, bytes);
        }
    } else if (rp->served[drive]->len && !rp->corrupted[drive] &&
               !has_bytes(rp->served[drive], got, bytes)) {
        /* a command reading the medium: its blocks come from the backend */
        diverge(rp, NULL, "the data port gave bytes the backend did not "
                "serve for this command");
        return;
    }
    if (in && in_repeat) {
        rp->repeat_hash = mix64(rp->repeat_hash ^ hash64(got, bytes));
    } else if (in) {
        data_check(rp, got, bytes, sum);
    } else if (!in_repeat) {
        data_check(rp, put, bytes, sum);
    }
}

static void drive_io_done(Replay *rp, Rec *e)
{
    unsigned drive = rec_disk(rp, &e->r);

    if (e->delivered) {
        return;
    }
    if (!rp->req[drive].busy) {
        diverge(rp, NULL, "the recording's backend answers drive %u here, "
                "but the replayed core has no request in flight", drive);
        return;
    }
    e->delivered = true;
    answer(rp, drive, get_i64(e, "ret", 0));
}

typedef struct LoadedOf {
    Replay *rp;
    unsigned disk;
} LoadedOf;

static bool loaded_of(const Rec *r, const void *arg)
{
    const LoadedOf *l = arg;

    return !g_strcmp0(atalab_trace_word(&r->r, 0), "loaded") &&
           rec_disk(l->rp, &r->r) == (int)l->disk;
}

/* The guest closed a tray: the disc the recording says was there. */
static uint64_t h_tray_moved(void *opaque, unsigned drive, bool open)
{
    Replay *rp = opaque;
    LoadedOf l = { rp, drive };
    Rec *r;

    if (open) {
        return 0;
    }
    r = ahead(rp, ATALAB_REC_ATA_MEDIA, false, loaded_of, &l);
    return r ? get_u64(r, "sectors", 0) : 0;
}

/* The host moved a CD-ROM's tray (the monitor's eject, change). */
static void drive_media(Replay *rp, const Rec *e)
{
    const char *what = atalab_trace_word(&e->r, 0);
    unsigned disk = rec_disk(rp, &e->r);
    bool ok;

    if (!g_strcmp0(what, "ejected") || !g_strcmp0(what, "loaded")) {
        return;                 /* the guest's: written by the core */
    }
    if (!g_strcmp0(what, "eject-request")) {
        ok = atalab_ctrl_cd_eject_request(rp->c, disk,
                                          get_u64(e, "force", 0));
    } else {
        ok = atalab_ctrl_cd_tray(rp->c, disk, !g_strcmp0(what, "open"),
                                 get_u64(e, "sectors", 0));
    }
    if (!ok) {
        diverge(rp, NULL, "the recording's tray moves on drive %u, which "
                "the replayed core has no CD-ROM at", disk);
    }
}

static void drive_timer(Replay *rp, const Rec *e)
{
    AtalabTimer *first = NULL;
    unsigned i;

    for (i = 0; i < rp->timers->len; i++) {
        AtalabTimer *t = g_ptr_array_index(rp->timers, i);

        if (t->armed && (!first || t->expire < first->expire)) {
            first = t;
        }
    }
    if (!first) {
        diverge(rp, NULL, "a timer fires in the recording here, but the "
                "replayed core has none set");
        return;
    }
    clock_to(rp, first->expire);
    first->armed = false;
    rp->timer_firings++;
    first->fn(first->opaque);
}

static void history_add(Replay *rp, const Rec *e)
{
    g_autofree char *why = NULL;
    History *h;
    Rec *copy;

    if (e->r.channel < 0 || e->r.kind == ATALAB_REC_ATA_REPEAT) {
        return;
    }
    copy = g_new0(Rec, 1);
    copy->line = e->line;
    if (!atalab_trace_parse(e->r.text, false, &copy->r, &why)) {
        g_free(copy);
        return;                 /* parsed once already: cannot happen */
    }
    h = &rp->hist[e->r.channel];
    if (h->rec[h->head]) {
        rec_free(h->rec[h->head]);
    }
    h->rec[h->head] = copy;
    h->head = (h->head + 1) % CYCLE_MAX;
    h->n = MIN(h->n + 1, CYCLE_MAX);
}

static void drive_one(Replay *rp, Rec *e, bool in_repeat);

/* A repeat: the channel's previous cycle, cycles times more. */
static void drive_repeat(Replay *rp, Rec *e)
{
    History *h = &rp->hist[e->r.channel];
    uint64_t cycles = get_u64(e, "cycles", 0), k = get_u64(e, "records", 0);
    Rec *cycle[CYCLE_MAX];
    uint64_t n, i;

    if (!k || k > h->n) {
        bad_input(rp, e->line, "a repeat of %" PRIu64 " records does not "
                  "follow a cycle of as many", k);
        return;
    }
    if (!within(rp, e, cycles * k, "cycles*records")) {
        return;
    }
    for (i = 0; i < k; i++) {
        cycle[i] = h->rec[(h->head + CYCLE_MAX - k + i) % CYCLE_MAX];
    }
    rp->repeat_hash = 0;
    for (n = 0; n < cycles && rp->status == REPLAY_SAME; n++) {
        for (i = 0; i < k && rp->status == REPLAY_SAME; i++) {
            if (n + 1 == cycles && i + 1 == k) {
                clock_to(rp, get_i64(e, "last", e->r.time));
            }
            drive_one(rp, cycle[i], true);
        }
    }
    if (rp->status == REPLAY_SAME && rp->repeat_hash) {
        /* the repeated blocks read: their combined sums as recorded */
        uint8_t digest[8];

        for (i = 0; i < 8; i++) {
            digest[i] = rp->repeat_hash >> (8 * i);
        }
        data_check(rp, digest, sizeof(digest), get_u64(e, "sums", 0));
    }
}

/* Feed the core what record e says came from outside it. */
static void drive_one(Replay *rp, Rec *e, bool in_repeat)
{
    AtalabTraceRecord *r = &e->r;

    if (!in_repeat) {
        clock_to(rp, r->time);
    }
    switch (r->kind) {
    case ATALAB_REC_ACCESS:
        drive_access(rp, e);
        break;
    case ATALAB_REC_ATA_DATA:
        drive_data(rp, e, in_repeat);
        break;
    case ATALAB_REC_ATA_REPEAT:
        if (!in_repeat) {
            drive_repeat(rp, e);
        }
        break;
    case ATALAB_REC_ATA_IO_DONE:
        if (in_repeat) {
            /* the same answer again, for the request the cycle made */
            unsigned drive = rec_disk(rp, r);

            if (!rp->req[drive].busy) {
                diverge(rp, NULL, "a repeated cycle's backend answer finds "
                        "no request of drive %u in flight", drive);
                break;
            }
            answer(rp, drive, get_i64(e, "ret", 0));
        } else {
            drive_io_done(rp, e);
        }
        break;
    case ATALAB_REC_ATA_TIMER:
    case ATALAB_REC_ATA_FAULT_TIMER:
        drive_timer(rp, e);
        break;
    case ATALAB_REC_ATA_MEDIA:
        drive_media(rp, e);
        break;
    default:
        break;
    }
}

/* Records the core writes by itself when the host asks (not inputs). */
static void drive_host_call(Replay *rp, const Rec *e, uint64_t index)
{
    if (index < rp->cmp) {
        return;                 /* written already (by atalab_ctrl_new) */
    }
    switch (e->r.kind) {
    case ATALAB_REC_CFG_RESET:
        atalab_ctrl_reset(rp->c);
        break;
    case ATALAB_REC_CFG_FIRMWARE_INIT:
        atalab_ctrl_firmware_init(rp->c);
        break;
    case ATALAB_REC_ATA_TIMING_SUMMARY:
        atalab_ctrl_trace_summary(rp->c);
        break;
    default:
        break;
    }
}

static void run(Replay *rp)
{
    Rec *e;

    for (rp->drv = 0; rp->status == REPLAY_SAME && (e = at(rp, rp->drv));
         rp->drv++) {
        rp->input = e;
        drive_host_call(rp, e, rp->drv);
        if (rp->status == REPLAY_SAME && rp->drv >= rp->cmp) {
            if (e->r.channel >= 0) {
                hoist_polls(rp, e);
            }
            drive_one(rp, e, false);
        }
        history_add(rp, e);
        window_trim(rp);
    }
    rp->input = NULL;
    if (rp->status == REPLAY_SAME) {
        atalab_ctrl_trace_flush(rp->c);
    }
    if (rp->status == REPLAY_SAME && at(rp, rp->cmp)) {
        diverge(rp, NULL, "the replayed core never wrote this record");
    }
}

/* ---- the report -------------------------------------------------------- */

/*
 * Where the replay went wrong: the record the core wrote otherwise, or,
 * when no record was written (an input the core cannot take, data that
 * differ), the input being replayed; records the writer still held before
 * it were not compared yet.
 */
static void report(Replay *rp)
{
    bool at_input = !rp->diverged_actual && rp->input;
    uint64_t where = at_input ? rp->drv : rp->cmp, i;
    uint64_t from = where > rp->o->context ? where - rp->o->context : 0;
    Rec *e = at(rp, where), *r;

    fprintf(rp->out, "%s:%u: replay diverges: %s\n", rp->path,
            e ? e->line : atalab_trace_line(rp->f), rp->why);
    fprintf(rp->out, "  recorded: %s\n", e ? e->r.text : "(end of trace)");
    fprintf(rp->out, "  replayed: %s\n",
            rp->diverged_actual ? rp->diverged_actual : "(nothing)");
    if (rp->input && rp->input != e) {
        fprintf(rp->out, "  while replaying line %u: %s\n", rp->input->line,
                rp->input->r.text);
    }
    fprintf(rp->out, "records around it in the recording:\n");
    from = MAX(from, rp->base);
    for (i = from; i <= where + rp->o->context && (r = at(rp, i)); i++) {
        fprintf(rp->out, "%s %6u  %s\n", i == where ? ">" : " ", r->line,
                r->r.text);
    }
    fprintf(rp->out, "(times are not compared, data as docs/trace-replay.md "
            "says)\n");
}

/* ---- entry ------------------------------------------------------------- */

void replay_options_init(ReplayOptions *o)
{
    memset(o, 0, sizeof(*o));
    o->context = 5;
    o->max_accesses = 10 * 1000 * 1000;
    o->max_data_bytes = 1024 * 1024 * 1024;
}

int replay_trace(AtalabTraceFile *f, const ReplayOptions *o, FILE *out,
                 FILE *err)
{
    Replay *rp = g_new0(Replay, 1);
    int status;
    unsigned i;

    rp->o = o;
    rp->f = f;
    rp->path = atalab_trace_path(f);
    rp->out = out;
    rp->normalized = !g_strcmp0(atalab_trace_header(f, "normalized"), "yes");
    rp->win = g_ptr_array_new_with_free_func(rec_free);
    rp->timers = g_ptr_array_new();
    rp->maps = g_ptr_array_new_with_free_func(g_free);
    rp->disk = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                     g_free);
    rp->fed = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                    (GDestroyNotify)g_bytes_unref);
    rp->seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (i = 0; i < ATALAB_DRIVES; i++) {
        rp->served[i] = g_byte_array_new();
        rp->unwritten[i] = g_byte_array_new();
    }
    rp->host = (AtalabHost) {
        .opaque = rp,
        .dma_read = h_dma_read,
        .dma_write = h_dma_write,
        .dma_map = h_dma_map,
        .dma_unmap = h_dma_unmap,
        .blk_readv = h_readv,
        .blk_writev = h_writev,
        .blk_flush = h_flush,
        .tray_moved = h_tray_moved,
        .blk_drain = h_drain,
        .clock_ns = h_clock,
        .timer_new = h_timer_new,
        .timer_mod = h_timer_mod,
        .timer_del = h_timer_del,
        .timer_free = h_timer_free,
        .trace = on_record,
        .trace_opaque = rp,
    };
    if (build(rp)) {
        run(rp);
    }
    status = rp->status;
    if (status == REPLAY_BAD_INPUT) {
        fprintf(err, "%s\n", rp->why);
    } else if (status == REPLAY_DIVERGED) {
        report(rp);
    } else if (!o->quiet) {
        fprintf(out, "%s: %" PRIu64 " records replayed, the core agrees "
                "(%" PRIu64 " guest accesses, %" PRIu64 " backend answers, "
                "%" PRIu64 " timers, %" PRIu64 " data blocks)\n", rp->path,
                rp->cmp, rp->accesses, rp->answers, rp->timer_firings,
                rp->blocks_checked);
    }
    if (rp->c) {
        unsigned round;

        /*
         * Requests still in flight are failed so that the core can be freed
         * (the records this writes are not compared any more).
         */
        rp->status = REPLAY_DIVERGED;
        for (round = 0; round < 8; round++) {
            for (i = 0; i < ATALAB_DRIVES; i++) {
                if (rp->req[i].busy) {
                    answer(rp, i, -5);
                }
            }
        }
        atalab_ctrl_free(rp->c);
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        g_free(rp->req[i].iov);
        g_byte_array_unref(rp->served[i]);
        g_byte_array_unref(rp->unwritten[i]);
    }
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        unsigned k;

        for (k = 0; k < CYCLE_MAX; k++) {
            if (rp->hist[i].rec[k]) {
                rec_free(rp->hist[i].rec[k]);
            }
        }
    }
    while (rp->timers->len) {
        g_free(g_ptr_array_steal_index(rp->timers, 0));
    }
    g_ptr_array_unref(rp->timers);
    g_ptr_array_unref(rp->maps);
    g_ptr_array_unref(rp->win);
    g_hash_table_unref(rp->disk);
    g_hash_table_unref(rp->fed);
    g_hash_table_unref(rp->seen);
    g_free(rp->diverged_actual);
    g_free(rp->why);
    g_free(rp);
    atalab_trace_close(f);
    return status;
}
