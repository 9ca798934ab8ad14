/*
 * atalab emulator core: the trace writer (trace-writer.h; the records and
 * the folding rules: traces/FORMAT.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "trace-records.h"
#include "trace-writer.h"

#define CHANNELS        2
#define DRIVES          4
#define RECORD_MAX      400
#define CYCLE_MAX       16      /* records of a cycle that can repeat */

/* FNV-1a, 32 bits (FORMAT.md "Data blocks"). */
#define FNV32_OFFSET    2166136261u
#define FNV32_PRIME     16777619u

/* Repeated identical Status / Alternate Status reads. */
typedef struct PendingPoll {
    bool active;
    AtalabTraceSpace space;
    uint32_t offset;
    uint32_t value;
    int dev;
    char reg[16];
    char bits[64];
    unsigned count;
    int64_t first, last;
} PendingPoll;

/* The data port accesses of one DRQ block so far. */
typedef struct PendingData {
    bool active;
    unsigned dev;
    bool write;
    size_t off;                 /* where in the block the record starts */
    size_t bytes;
    unsigned width;             /* 0: accesses of different sizes */
    uint32_t sum;
    int64_t last;
} PendingData;

/*
 * A record of a cycle (the records of a channel from one data record to the
 * next), and what the next cycle's record must match to repeat it.
 */
typedef struct CycleRecord {
    char line[RECORD_MAX];      /* as written */
    char key[RECORD_MAX];       /* without time, lba=, sum= and last= */
    int64_t t;                  /* virtual clock */
    int64_t lba, count;         /* an io record's; else -1 */
    uint32_t sum;               /* the data record's */
    uint64_t bytes;
} CycleRecord;

/* Repeated identical cycles of PIO transfer (FORMAT.md "Repeats"). */
typedef struct PendingCycle {
    bool open;                  /* records since a data record are held */
    unsigned held;              /* records of the cycle in progress */
    unsigned prev_len;          /* of the previous cycle; 0: none */
    CycleRecord *cur, *prev;    /* point into store */
    CycleRecord store[2][CYCLE_MAX];
    unsigned cycles;            /* repeats of prev folded so far */
    unsigned dev;
    uint64_t bytes;
    uint32_t sums;
    int64_t first, last;
} PendingCycle;

/* Descriptors at consecutive table entries, regions len bytes step apart. */
typedef struct PendingPrd {
    bool active;
    uint32_t at, addr, len;     /* the first */
    uint32_t step;              /* region address difference, mod 2^32 */
    unsigned count;
    bool eot;                   /* the last one's */
    int64_t first, last;
} PendingPrd;

typedef struct WriterChannel {
    PendingPoll poll;
    PendingData data;
    PendingPrd prd;
    PendingCycle cycle;
    bool in_data_access;
    int last_dev;               /* device of the latest command, or -1 */
    int64_t cmd_time;           /* its start, or -1 */
} WriterChannel;

struct AtalabTraceWriter {
    const AtalabHost *out;
    AtalabTraceData data_mode;
    AtalabTraceTime time_mode;
    bool started;
    int64_t start;              /* time of the first record */
    int64_t latest;             /* the latest time of a record */
    unsigned seq[DRIVES];       /* commands of each drive so far */
    WriterChannel chan[CHANNELS];
};

static const char *const ata_space[CHANNELS] = { "ata0", "ata1" };
static const char *const ctl_space[CHANNELS] = { "ctl0", "ctl1" };

AtalabTraceWriter *atalab_trace_writer_new(const AtalabHost *out)
{
    AtalabTraceWriter *w = g_new0(AtalabTraceWriter, 1);
    unsigned i;

    w->out = out;
    for (i = 0; i < CHANNELS; i++) {
        w->chan[i].last_dev = -1;
        w->chan[i].cmd_time = -1;
        w->chan[i].cycle.cur = w->chan[i].cycle.store[0];
        w->chan[i].cycle.prev = w->chan[i].cycle.store[1];
    }
    return w;
}

void atalab_trace_writer_free(AtalabTraceWriter *w)
{
    if (w) {
        atalab_trace_writer_flush(w);
        g_free(w);
    }
}

void atalab_trace_writer_set_data(AtalabTraceWriter *w, AtalabTraceData m)
{
    atalab_trace_writer_flush(w);
    w->data_mode = m;
}

void atalab_trace_writer_set_time(AtalabTraceWriter *w, AtalabTraceTime m)
{
    atalab_trace_writer_flush(w);
    w->time_mode = m;
}

AtalabTraceData atalab_trace_writer_data_mode(const AtalabTraceWriter *w)
{
    return w->data_mode;
}

AtalabTraceTime atalab_trace_writer_time_mode(const AtalabTraceWriter *w)
{
    return w->time_mode;
}

/* ---- output ------------------------------------------------------------ */

static void note_time(AtalabTraceWriter *w, int64_t t)
{
    if (!w->started) {
        w->started = true;
        w->start = t;
    }
    w->latest = MAX(w->latest, t);
}

int64_t atalab_trace_writer_latest(const AtalabTraceWriter *w)
{
    return w->latest;
}

/* A time as written: absolute, or since the channel's command start. */
static int64_t shown_time(const AtalabTraceWriter *w, int channel, int64_t t)
{
    int64_t base;

    if (w->time_mode == ATALAB_TRACE_TIME_ABSOLUTE) {
        return t;
    }
    base = w->start;
    if (channel >= 0 && w->chan[channel].cmd_time >= 0) {
        base = w->chan[channel].cmd_time;
    }
    return t - base;
}

static unsigned seq_of(const AtalabTraceWriter *w, unsigned channel,
                       unsigned dev)
{
    return w->seq[channel * 2 + (dev & 1)];
}

/* " dev=U seq=S" of a channel record: the device of the latest command. */
static void append_owner(const AtalabTraceWriter *w, GString *s,
                         unsigned channel, int dev)
{
    if (dev < 0) {
        dev = w->chan[channel].last_dev;
    }
    if (dev >= 0) {
        g_string_append_printf(s, " dev=%d seq=%u", dev,
                               seq_of(w, channel, dev));
    }
}

static void format_access(const AtalabTraceWriter *w, GString *s,
                          const AtalabTraceAccess *a)
{
    uint32_t value = a->value;
    unsigned size = a->size;
    const char *space = "cfg";

    if (size < 4) {
        value &= (1u << (8 * size)) - 1;
    }
    switch (a->space) {
    case ATALAB_SPACE_CFG:
        break;
    case ATALAB_SPACE_ATA:
        space = ata_space[a->channel & 1];
        break;
    case ATALAB_SPACE_CTL:
        space = ctl_space[a->channel & 1];
        break;
    case ATALAB_SPACE_BM:
        space = "bm";
        break;
    }
    g_string_append_printf(s, "%s %c 0x%x %u 0x%0*x", space,
                           a->write ? 'w' : 'r', a->offset, size,
                           (int)(size * 2), value);
    if (a->reg) {
        g_string_append_printf(s, " reg=%s", a->reg);
    }
    if (a->cmd) {
        g_string_append_printf(s, " cmd=%s", a->cmd);
    }
    if (a->bits) {
        g_string_append_printf(s, " bits=%s", a->bits);
    }
    if (a->space != ATALAB_SPACE_CFG) {
        append_owner(w, s, a->channel & 1, a->dev);
    }
}

/* ---- repeated cycles ---------------------------------------------------- */

/* How a record takes part in a cycle (FORMAT.md "Repeats"). */
typedef enum CycleRole {
    CYCLE_NONE,                 /* ends any cycle */
    CYCLE_STEP,                 /* an access, an interrupt, an io record */
    CYCLE_END,                  /* a whole data block */
} CycleRole;

/* The value of " key=" in text (the decimal or 0x number), or -1. */
static int64_t key_value(const char *text, const char *key)
{
    const char *p = strstr(text, key);

    return p ? g_ascii_strtoll(p + strlen(key), NULL, 0) : -1;
}

/*
 * r->key: the text of line after its time without the fields a repeat
 * lets vary (the io's lba, the data's sum, a poll's last time); r->lba,
 * r->count, r->sum, r->bytes: their values.
 */
static void cycle_record(CycleRecord *r, int64_t t, const char *line)
{
    const char *p = strchr(line, ' ');
    size_t at = 0;

    g_strlcpy(r->line, line, sizeof(r->line));
    r->t = t;
    r->lba = r->count = -1;
    r->sum = 0;
    r->bytes = 0;
    p = p ? p + 1 : line;
    if (strstr(p, " io d")) {
        r->lba = key_value(p, " lba=");
        r->count = key_value(p, " count=");
    } else if (strstr(p, " data d")) {
        r->sum = key_value(p, " sum=");
        r->bytes = key_value(p, " bytes=");
    }
    while (*p) {
        size_t len = strcspn(p + 1, " ") + 1;

        if (strncmp(p, " lba=", 5) && strncmp(p, " sum=", 5) &&
            strncmp(p, " last=", 6) && at + len < sizeof(r->key)) {
            memcpy(r->key + at, p, len);
            at += len;
        }
        p += len;
    }
    r->key[at] = '\0';
}

/* Does cycle cur (n records) repeat prev, its io a step further? */
static bool cycle_repeats(const CycleRecord *prev, const CycleRecord *cur,
                          unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        if (strcmp(prev[i].key, cur[i].key) ||
            (cur[i].lba >= 0 && cur[i].lba != prev[i].lba + prev[i].count)) {
            return false;
        }
    }
    return true;
}

static void write_line(AtalabTraceWriter *w, const char *line)
{
    w->out->trace(w->out->opaque, line);
}

/* The repeat record of the cycles folded so far, then the held records. */
static void cycle_write(AtalabTraceWriter *w, unsigned channel)
{
    PendingCycle *c = &w->chan[channel].cycle;
    char line[RECORD_MAX];
    unsigned i;

    if (c->cycles) {
        snprintf(line, sizeof(line), "%" PRId64 " %s repeat d%u cycles=%u "
                 "records=%u bytes=%" PRIu64 " sums=0x%08x last=%" PRId64
                 " seq=%u", shown_time(w, channel, c->first),
                 ata_space[channel], c->dev, c->cycles, c->prev_len,
                 c->bytes, c->sums, shown_time(w, channel, c->last),
                 seq_of(w, channel, c->dev));
        write_line(w, line);
        c->cycles = 0;
    }
    for (i = 0; i < c->held; i++) {
        write_line(w, c->cur[i].line);
    }
    c->held = 0;
}

/* Write what the channel's cycle holds; the next repeat starts afresh. */
static void cycle_flush(AtalabTraceWriter *w, unsigned channel)
{
    PendingCycle *c = &w->chan[channel].cycle;

    cycle_write(w, channel);
    c->open = false;
    c->prev_len = 0;
}

/* A cycle ended with a data record: fold it, or write it. */
static void cycle_end(AtalabTraceWriter *w, unsigned channel)
{
    PendingCycle *c = &w->chan[channel].cycle;
    unsigned n = c->held;
    const CycleRecord *data = &c->cur[n - 1];
    CycleRecord *swap;

    if (c->prev_len == n && cycle_repeats(c->prev, c->cur, n)) {
        if (!c->cycles) {
            const char *d = strstr(data->key, " data d");

            c->first = c->cur[0].t;
            c->bytes = 0;
            c->sums = 0;
            c->dev = d && d[7] == '1';
        }
        c->cycles++;
        c->last = data->t;
        c->bytes += data->bytes;
        c->sums = c->sums * FNV32_PRIME + data->sum;
        c->held = 0;
    } else {
        cycle_write(w, channel);
    }
    swap = c->prev;
    c->prev = c->cur;
    c->cur = swap;
    c->prev_len = n;
}

/*
 * Every record of a channel (-1: of the controller) goes out through here,
 * line being "<shown time> <text>" and t its virtual time.
 */
static void put(AtalabTraceWriter *w, int channel, CycleRole role, int64_t t,
                const char *line)
{
    PendingCycle *c;
    unsigned i;

    if (channel < 0 || w->data_mode == ATALAB_TRACE_DATA_RAW) {
        for (i = 0; channel < 0 && i < CHANNELS; i++) {
            cycle_flush(w, i);
        }
        write_line(w, line);
        return;
    }
    c = &w->chan[channel].cycle;
    if (role == CYCLE_NONE || (c->open && c->held == CYCLE_MAX)) {
        cycle_flush(w, channel);
    }
    if (!c->open) {
        write_line(w, line);
        /* a cycle starts after a data record */
        c->open = role == CYCLE_END;
        return;
    }
    cycle_record(&c->cur[c->held++], t, line);
    if (role == CYCLE_END) {
        cycle_end(w, channel);
    }
}

/* A record of the writer's: its time shown, then put(). */
static void emit(AtalabTraceWriter *w, int channel, CycleRole role,
                 int64_t t, const char *text)
{
    char record[RECORD_MAX];

    snprintf(record, sizeof(record), "%" PRId64 " %s",
             shown_time(w, channel, t), text);
    put(w, channel, role, t, record);
}

/* ---- folds ------------------------------------------------------------- */

static void flush_poll(AtalabTraceWriter *w, unsigned channel)
{
    PendingPoll *p = &w->chan[channel].poll;
    AtalabTraceAccess a = {
        .space = p->space, .channel = channel, .dev = p->dev,
        .offset = p->offset, .size = 1, .value = p->value,
        .reg = p->reg, .bits = p->bits[0] ? p->bits : NULL,
    };
    g_autoptr(GString) s = NULL;

    if (!p->active) {
        return;
    }
    p->active = false;
    s = g_string_new(NULL);
    format_access(w, s, &a);
    if (p->count > 1) {
        g_string_append_printf(s, " polls=%u last=%" PRId64, p->count,
                               shown_time(w, channel, p->last));
    }
    emit(w, channel, CYCLE_STEP, p->first, s->str);
}

static void flush_data(AtalabTraceWriter *w, unsigned channel, bool whole)
{
    PendingData *p = &w->chan[channel].data;
    g_autoptr(GString) s = NULL;

    if (!p->active) {
        return;
    }
    p->active = false;
    s = g_string_new(NULL);
    g_string_append_printf(s, "%s data d%u %s bytes=%zu width=",
                           ata_space[channel], p->dev,
                           p->write ? "out" : "in", p->bytes);
    if (p->width) {
        g_string_append_printf(s, "%u", p->width);
    } else {
        g_string_append(s, "mixed");
    }
    g_string_append_printf(s, " sum=0x%08x", p->sum);
    if (p->off) {
        g_string_append_printf(s, " off=%zu", p->off);
    }
    if (p->off || !whole) {
        g_string_append(s, " partial=1");
    }
    g_string_append_printf(s, " seq=%u", seq_of(w, channel, p->dev));
    emit(w, channel, p->off || !whole ? CYCLE_NONE : CYCLE_END, p->last,
         s->str);
}

static void flush_prd(AtalabTraceWriter *w, unsigned channel)
{
    PendingPrd *p = &w->chan[channel].prd;
    g_autoptr(GString) s = NULL;

    if (!p->active) {
        return;
    }
    p->active = false;
    s = g_string_new(NULL);
    g_string_append_printf(s, "bm prd ch%u at=0x%08x addr=0x%08x len=%u "
                           "eot=%d", channel, p->at, p->addr, p->len, p->eot);
    append_owner(w, s, channel, -1);
    if (p->count > 1) {
        g_string_append_printf(s, " prds=%u step=%" PRId32 " last=%" PRId64,
                               p->count, (int32_t)p->step,
                               shown_time(w, channel, p->last));
    }
    emit(w, channel, CYCLE_NONE, p->first, s->str);
}

static void flush_channel(AtalabTraceWriter *w, unsigned channel,
                          bool keep_data)
{
    flush_poll(w, channel);
    flush_prd(w, channel);
    if (!keep_data) {
        flush_data(w, channel, false);
    }
}

void atalab_trace_writer_flush(AtalabTraceWriter *w)
{
    unsigned i;

    for (i = 0; i < CHANNELS; i++) {
        flush_channel(w, i, false);
        cycle_flush(w, i);
    }
}

/* ---- records of the core ---------------------------------------------- */

/* "ataN" / "irqN" / "ctlN" -> N; -1 otherwise. */
static int space_channel(const char *tok, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);

    if (len == n + 1 && !strncmp(tok, prefix, n) &&
        (tok[n] == '0' || tok[n] == '1')) {
        return tok[n] - '0';
    }
    return -1;
}

/*
 * Does the record kind (len bytes at kind) of source carry the key?  The
 * record table (trace-records.h) says which records carry a command
 * number (seq) and the device that owns them (dev).
 */
static bool form_has(const char *source, const char *kind, size_t len,
                     const char *key)
{
    const AtalabTraceForm *f = atalab_trace_form_find(source, kind, len);

    return f && atalab_trace_form_has_key(f, key);
}

/* The record's channel (-1: the controller's) and what it owes the writer. */
typedef enum RecordKind {
    RECORD_OTHER,               /* a cfg record, or a channel's (ctlN) */
    RECORD_DRIVE,               /* "ataN KIND dU": gets seq= */
    RECORD_COMMAND,             /* "ataN cmd dU": a new command number */
    RECORD_OWNED,               /* irqN, bm ... chN: gets dev= seq= */
} RecordKind;

static RecordKind classify(const char *const tok[3], const size_t len[3],
                           unsigned n, int *channel, unsigned *dev)
{
    *channel = n >= 1 ? space_channel(tok[0], len[0], "ata") : -1;
    if (*channel >= 0) {
        if (n < 3 || len[2] != 2 || tok[2][0] != 'd' ||
            (tok[2][1] != '0' && tok[2][1] != '1') ||
            !form_has("ata", tok[1], len[1], "seq")) {
            return RECORD_OTHER;
        }
        *dev = tok[2][1] - '0';
        return len[1] == 3 && !strncmp(tok[1], "cmd", 3) ? RECORD_COMMAND :
               RECORD_DRIVE;
    }
    *channel = n >= 1 ? space_channel(tok[0], len[0], "irq") : -1;
    if (*channel >= 0) {
        return form_has("irq", NULL, 0, "dev") ? RECORD_OWNED : RECORD_OTHER;
    }
    if (n >= 3 && len[0] == 2 && !strncmp(tok[0], "bm", 2)) {
        *channel = space_channel(tok[2], len[2], "ch");
        if (*channel >= 0) {
            return form_has("bm", tok[1], len[1], "dev") ? RECORD_OWNED :
                   RECORD_OTHER;
        }
    }
    *channel = n >= 1 ? space_channel(tok[0], len[0], "ctl") : -1;
    return RECORD_OTHER;
}

/*
 * Interrupts and the reads and writes of sectors (requests and their
 * completions) can repeat in cycles.
 */
static CycleRole cycle_role(RecordKind kind, const char *const tok[3],
                            const size_t len[3], unsigned n, const char *text)
{
    if (kind == RECORD_OWNED && tok[0][0] == 'i') {
        return CYCLE_STEP;
    }
    if (kind == RECORD_DRIVE && n == 3 &&
        ((len[1] == 2 && !strncmp(tok[1], "io", 2)) ||
         (len[1] == 7 && !strncmp(tok[1], "io-done", 7))) &&
        !strstr(text, " flush") && !strstr(text, " pre-image")) {
        return CYCLE_STEP;
    }
    return CYCLE_NONE;
}

void atalab_trace_writer_record(void *opaque, const char *record)
{
    AtalabTraceWriter *w = opaque;
    const char *text, *tok[3] = { NULL };
    size_t len[3] = { 0 };
    char *end;
    int64_t t = g_ascii_strtoll(record, &end, 10);
    int channel;
    unsigned i, dev = 0, n = 0;
    RecordKind kind;
    CycleRole role;
    char out[RECORD_MAX];
    size_t at;

    text = *end == ' ' ? end + 1 : end;
    note_time(w, t);
    /* The first three tokens say where the record belongs. */
    for (end = (char *)text; n < 3 && *end; n++) {
        tok[n] = end;
        len[n] = strcspn(end, " ");
        end += len[n];
        end += *end == ' ';
    }
    kind = classify(tok, len, n, &channel, &dev);
    role = cycle_role(kind, tok, len, n, text);
    if (channel >= 0) {
        flush_channel(w, channel, w->chan[channel].in_data_access);
        if (role == CYCLE_NONE) {
            /* its repeat record keeps the command number and time base */
            cycle_flush(w, channel);
        }
    } else {
        for (i = 0; i < CHANNELS; i++) {
            flush_channel(w, i, false);
        }
    }
    if (kind == RECORD_COMMAND) {
        w->seq[channel * 2 + dev]++;
        w->chan[channel].last_dev = dev;
        w->chan[channel].cmd_time = t;
    }
    /* The record as the core wrote it, or with its time made relative */
    if (w->time_mode == ATALAB_TRACE_TIME_ABSOLUTE) {
        at = g_strlcpy(out, record, sizeof(out));
    } else {
        at = snprintf(out, sizeof(out), "%" PRId64 " %s",
                      shown_time(w, channel, t), text);
    }
    at = MIN(at, sizeof(out) - 1);
    if (kind == RECORD_COMMAND || kind == RECORD_DRIVE) {
        snprintf(out + at, sizeof(out) - at, " seq=%u",
                 seq_of(w, channel, dev));
    } else if (kind == RECORD_OWNED && w->chan[channel].last_dev >= 0) {
        dev = w->chan[channel].last_dev;
        snprintf(out + at, sizeof(out) - at, " dev=%u seq=%u", dev,
                 seq_of(w, channel, dev));
    }
    put(w, channel, role, t, out);
}

/* ---- accesses ---------------------------------------------------------- */

static bool is_status_read(const AtalabTraceAccess *a)
{
    return !a->write && a->size == 1 &&
           ((a->space == ATALAB_SPACE_ATA && a->offset == 7) ||
            a->space == ATALAB_SPACE_CTL);
}

static bool poll_continues(const PendingPoll *p, const AtalabTraceAccess *a)
{
    return p->active && p->space == a->space && p->offset == a->offset &&
           p->value == (a->value & 0xFF) && p->dev == a->dev;
}

static int64_t now(const AtalabTraceWriter *w)
{
    const AtalabHost *h = w->out;

    return h->clock_ns ? h->clock_ns(h->opaque) : 0;
}

void atalab_trace_writer_access(AtalabTraceWriter *w,
                                const AtalabTraceAccess *a)
{
    int64_t t = now(w);
    AtalabTraceAccess acc = *a;
    g_autoptr(GString) s = NULL;
    unsigned i;

    note_time(w, t);
    if (acc.space == ATALAB_SPACE_BM) {
        acc.channel = acc.offset >= 8;
        acc.dev = -1;
    }
    if (acc.space == ATALAB_SPACE_CFG) {
        for (i = 0; i < CHANNELS; i++) {
            flush_channel(w, i, false);
        }
    } else if (is_status_read(&acc) &&
               w->data_mode == ATALAB_TRACE_DATA_BLOCK) {
        PendingPoll *p = &w->chan[acc.channel].poll;

        if (poll_continues(p, &acc)) {
            p->count++;
            p->last = t;
            return;
        }
        flush_channel(w, acc.channel, false);
        *p = (PendingPoll) {
            .active = true, .space = acc.space, .offset = acc.offset,
            .value = acc.value & 0xFF, .dev = acc.dev, .count = 1,
            .first = t, .last = t,
        };
        g_strlcpy(p->reg, acc.reg ? acc.reg : "", sizeof(p->reg));
        g_strlcpy(p->bits, acc.bits ? acc.bits : "", sizeof(p->bits));
        return;
    } else {
        flush_channel(w, acc.channel, false);
    }
    s = g_string_new(NULL);
    format_access(w, s, &acc);
    /* a command block write is taskfile programming: it ends a cycle */
    emit(w, acc.space == ATALAB_SPACE_CFG ? -1 : (int)acc.channel,
         acc.space == ATALAB_SPACE_ATA && acc.write ? CYCLE_NONE : CYCLE_STEP,
         t, s->str);
}

/* Does the descriptor continue the pending run of p? */
static bool prd_continues(const PendingPrd *p, uint32_t at, uint32_t addr,
                          uint32_t len)
{
    return p->active && !p->eot && len == p->len &&
           at == p->at + 8 * p->count &&
           (p->count == 1 || addr == p->addr + p->step * p->count);
}

void atalab_trace_writer_prd(AtalabTraceWriter *w, unsigned channel,
                             uint32_t at, uint32_t addr, uint32_t len,
                             bool eot)
{
    PendingPrd *p;
    int64_t t = now(w);

    channel &= 1;
    p = &w->chan[channel].prd;
    note_time(w, t);
    if (w->data_mode == ATALAB_TRACE_DATA_BLOCK &&
        prd_continues(p, at, addr, len)) {
        if (p->count == 1) {
            p->step = addr - p->addr;
        }
        p->count++;
        p->eot = eot;
        p->last = t;
        return;
    }
    flush_channel(w, channel, w->chan[channel].in_data_access);
    *p = (PendingPrd) {
        .active = true, .at = at, .addr = addr, .len = len, .count = 1,
        .eot = eot, .first = t, .last = t,
    };
    if (w->data_mode == ATALAB_TRACE_DATA_RAW) {
        flush_prd(w, channel);
    }
}

void atalab_trace_writer_data_access(AtalabTraceWriter *w, unsigned channel,
                                     bool inside)
{
    w->chan[channel & 1].in_data_access = inside;
}

void atalab_trace_writer_data(AtalabTraceWriter *w, unsigned channel,
                              unsigned dev, bool write, unsigned size,
                              uint32_t value, size_t pos, size_t end)
{
    PendingData *p;
    unsigned i;

    channel &= 1;
    p = &w->chan[channel].data;
    if (w->data_mode == ATALAB_TRACE_DATA_RAW) {
        atalab_trace_writer_access(w, &(AtalabTraceAccess) {
            .space = ATALAB_SPACE_ATA, .channel = channel, .dev = dev,
            .write = write, .offset = 0, .size = size, .value = value,
            .reg = "Data" });
        return;
    }
    flush_poll(w, channel);
    flush_prd(w, channel);
    if (p->active && (p->dev != dev || p->write != write ||
                      p->off + p->bytes != pos)) {
        flush_data(w, channel, false);
    }
    if (!p->active) {
        *p = (PendingData) {
            .active = true, .dev = dev, .write = write, .off = pos,
            .width = size, .sum = FNV32_OFFSET,
        };
    }
    if (p->width != size) {
        p->width = 0;
    }
    for (i = 0; i < size; i++) {
        p->sum = (p->sum ^ ((value >> (8 * i)) & 0xFF)) * FNV32_PRIME;
    }
    p->bytes += size;
    p->last = now(w);
    note_time(w, p->last);
    if (pos + size >= end) {
        flush_data(w, channel, true);
    }
}
