/*
 * atalab trace diff: a trace read into the model the diff compares
 * (diff-model.h).
 *
 * Phases, per drive, from what the records show (docs/trace-diff.md):
 *   probe          from the start;
 *   mode setting   a configuration write that changes the drive's decoded
 *                  timing, or SET FEATURES set transfer mode (03h);
 *   I/O            a command with a sector range (lba=);
 *   error handling from a command that ended in an error, an abort, a
 *                  stuck DMA or no end at all (outside probe, where
 *                  refusals are expected), or from a reset of a drive
 *                  doing I/O after a fault fired on it, until a command
 *                  with a sector range ends well (it belongs to the
 *                  episode: the retry that worked);
 *   reset          an SRST or controller reset of a drive doing I/O.
 * Every other command stays in the phase the drive is in.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "diff-model.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "controller/atalab-personality.h"
#include "controller/atalab-timing.h"
#include "trace-read.h"

static const char *const phase_names[DIFF_N_PHASES] = {
    [DIFF_PHASE_PROBE] = "probe",
    [DIFF_PHASE_MODE] = "mode setting",
    [DIFF_PHASE_IO] = "I/O",
    [DIFF_PHASE_EH] = "error handling",
    [DIFF_PHASE_RESET] = "reset",
};

const char *diff_phase_name(DiffPhase p)
{
    return p < DIFF_N_PHASES ? phase_names[p] : "?";
}

static const DiffOutcomeNames outcome_names[DIFF_N_OUTCOMES] = {
    [DIFF_OUT_DONE] = { "ok", "done", "ended ok" },
    [DIFF_OUT_ERROR] = { "error", "error", "ended in error" },
    [DIFF_OUT_ABORT] = { "aborted", "aborted",
                         "aborted (diagnostic, power-on, removal, power cut)" },
    [DIFF_OUT_STUCK] = { "stuck", "DMA stuck", "DMA stuck" },
    [DIFF_OUT_NONE] = { "timed-out", "no completion (timed out)",
                        "timed out (the host reset the channel or moved on "
                        "before it ended)" },
    [DIFF_OUT_OPEN] = { "open", "unfinished at the trace's end",
                        "still running at the trace's end" },
};

const DiffOutcomeNames *diff_outcome_names(DiffOutcome o)
{
    static const DiffOutcomeNames unknown = { "?", "?", "?" };

    return o < DIFF_N_OUTCOMES ? &outcome_names[o] : &unknown;
}

uint64_t diff_hash(uint64_t h, const char *s)
{
    if (!h) {
        h = 14695981039346656037ULL;
    }
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    /* a separator, so that ("ab","c") and ("a","bc") differ */
    h ^= 0xff;
    h *= 1099511628211ULL;
    return h;
}

/* ---- loading state ----------------------------------------------------- */

/*
 * What a channel's records since its latest data record added to their
 * command, so that a repeat record (FORMAT.md "Repeats") adds it again.
 */
typedef struct CycleTally {
    unsigned records;
    unsigned irqs;
    unsigned polls;
    uint64_t sectors;
} CycleTally;

typedef struct Loader {
    DiffTrace *t;
    const AtalabPersonality *pers;
    uint8_t cfg[256];           /* configuration space as last seen */
    bool nien[2];               /* DevCtl nIEN per channel */
    GString *taskfile[2];       /* writes since the channel's last command */
    int last_drive[2];          /* drive of each channel's latest command */
    int last_any;               /* drive of the latest command */
    uint8_t chan_bits[2][256];  /* each channel's configuration bits */
    bool fault_since[DIFF_DRIVES];      /* a firing since its last good I/O */
    /* per channel: the cycle in progress and the one a repeat repeats */
    CycleTally cycle[2], prev_cycle[2];
    int64_t now;                /* the time of the record being read */
    GError *error;
} Loader;

/* The drive's command numbered seq (numbers rise; a trace cut by hand
 * may lack some). */
static DiffCmd *drive_cmd(DiffDrive *d, unsigned seq)
{
    DiffCmd *c = (DiffCmd *)d->cmds->data;
    size_t lo = 0, hi = d->cmds->len;

    if (seq && seq <= hi && c[seq - 1].seq == seq) {
        return &c[seq - 1];
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (c[mid].seq < seq) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < d->cmds->len && c[lo].seq == seq ? &c[lo] : NULL;
}

static DiffCmd *last_cmd(DiffDrive *d)
{
    return d->cmds->len ? &g_array_index(d->cmds, DiffCmd, d->cmds->len - 1) :
           NULL;
}

static DiffPhaseRun *current_run(DiffDrive *d)
{
    return d->runs->len ?
           &g_array_index(d->runs, DiffPhaseRun, d->runs->len - 1) : NULL;
}

/* Put the drive in phase p: a new run unless it is in p already. */
static void enter_phase(DiffDrive *d, DiffPhase p, unsigned line)
{
    DiffPhaseRun *cur = current_run(d), run = { 0 };

    if (cur && cur->phase == p) {
        return;
    }
    if (cur) {
        g_free(cur->timing_end);
        cur->timing_end = g_strdup(d->timing ? d->timing : "");
    }
    run.phase = p;
    run.line = line;
    run.timing_start = g_strdup(d->timing ? d->timing : "");
    run.timing_end = g_strdup("");
    g_array_append_val(d->runs, run);
    d->phase = p;
}

static bool is_media(const DiffCmd *c)
{
    return c->params && g_str_has_prefix(c->params, "lba=");
}

/* The command's end is known: update the drive's phase from it. */
static void command_ended(Loader *ld, unsigned drive, DiffCmd *c,
                          unsigned line)
{
    DiffDrive *d = &ld->t->drive[drive];
    DiffPhaseRun *run = current_run(d);
    bool ok = c->outcome == DIFF_OUT_DONE;

    if (d->phase == DIFF_PHASE_EH) {
        if (ok && is_media(c)) {
            run->recovered = true;
            ld->fault_since[drive] = c->faults > 0;
            enter_phase(d, DIFF_PHASE_IO, line);
        }
        return;
    }
    if (ok && is_media(c) && !c->faults) {
        ld->fault_since[drive] = false;
    }
    /* Probing expects refusals (IDENTIFY PACKET DEVICE of a disk). */
    if (!ok && d->phase != DIFF_PHASE_PROBE) {
        const char *what = c->outcome == DIFF_OUT_ERROR ? "error" :
                           c->outcome == DIFF_OUT_ABORT ? "abort" :
                           c->outcome == DIFF_OUT_STUCK ? "stuck DMA" :
                           "no completion";
        unsigned idx = c - &g_array_index(d->cmds, DiffCmd, 0);

        enter_phase(d, DIFF_PHASE_EH, line);
        run = current_run(d);
        run->trigger = idx + 1;
        run->trigger_text = g_strdup_printf("%s%s%s on %s%s%s", what,
                                            c->outcome_text ? " " : "",
                                            c->outcome_text ? c->outcome_text : "",
                                            c->name, c->params ? " " : "",
                                            c->params ? c->params : "");
    }
}

/*
 * A fault fired on the drive.  Error handling begins where the driver
 * sees something: the command's error, or a reset of a drive doing I/O
 * after the firing (a lost interrupt, a latency the host timed out on).
 */
static void fault_fired(Loader *ld, unsigned drive)
{
    DiffCmd *c = last_cmd(&ld->t->drive[drive]);

    if (c) {
        c->faults++;
    }
    ld->fault_since[drive] = true;
}

/* A command of the drive without an end when something else began. */
static void close_open(Loader *ld, unsigned drive, unsigned line)
{
    DiffCmd *c = last_cmd(&ld->t->drive[drive]);

    if (c && c->outcome == DIFF_OUT_OPEN) {
        c->outcome = DIFF_OUT_NONE;
        c->end = MAX(ld->now, c->start);
        c->end_line = line;
        command_ended(ld, drive, c, line);
    }
}

static char *event_text(const AtalabTraceRecord *rec)
{
    GString *s = g_string_new(rec->form->kind);
    unsigned i;

    for (i = 0; i < rec->n_fields; i++) {
        const AtalabTraceField *f = &rec->field[i];

        if (f->key && (!strcmp(f->key, "seq") || !strcmp(f->key, "dev"))) {
            continue;
        }
        g_string_append_c(s, ' ');
        if (f->key) {
            g_string_append_printf(s, "%s=", f->key);
        }
        g_string_append(s, f->value);
    }
    return g_string_free(s, false);
}

static void add_event(Loader *ld, GArray *to, unsigned drive,
                      const AtalabTraceRecord *rec, unsigned line)
{
    DiffDrive *d = &ld->t->drive[drive];
    DiffEvent e = {
        .text = event_text(rec),
        .cmd = d->cmds->len,
        .phase = d->phase,
        .time = rec->time,
        .line = line,
    };

    g_array_append_val(to, e);
}

/* ---- records ------------------------------------------------------------ */

static void on_cmd(Loader *ld, unsigned ch, const AtalabTraceRecord *rec,
                   unsigned line)
{
    unsigned drive = ch * 2 + rec->unit;
    DiffDrive *d = &ld->t->drive[drive];
    DiffCmd c = { 0 };
    GString *params = g_string_new(NULL);
    uint64_t seq = 0;
    unsigned i;

    close_open(ld, drive, line);
    d->present = true;
    atalab_trace_get_u64(rec, "seq", &seq);
    c.seq = seq;
    c.opcode = strtoul(atalab_trace_word(rec, 0), NULL, 16);
    c.name = g_strdup(atalab_trace_word(rec, 1));
    for (i = 0; i < rec->n_fields; i++) {
        const AtalabTraceField *f = &rec->field[i];

        if (f->key && strcmp(f->key, "seq")) {
            g_string_append_printf(params, "%s%s=%s", params->len ? " " : "",
                                   f->key, f->value);
        }
    }
    c.params = g_string_free(params, !params->len);
    c.key = diff_hash(diff_hash(0, atalab_trace_word(rec, 0)),
                      c.params ? c.params : "");
    c.polled = ld->nien[ch];
    c.taskfile = g_string_free(ld->taskfile[ch], false);
    ld->taskfile[ch] = g_string_new(NULL);
    c.start = c.end = rec->time;
    c.line = line;
    c.outcome = DIFF_OUT_OPEN;

    /* the command's phase */
    if (d->phase != DIFF_PHASE_EH) {
        if (c.opcode == 0xef && c.params &&
            strstr(c.params, "feature=0x03")) {
            enter_phase(d, DIFF_PHASE_MODE, line);
        } else if (is_media(&c)) {
            enter_phase(d, DIFF_PHASE_IO, line);
        }
    }
    c.phase = d->phase;
    c.phase_no = d->runs->len - 1;
    g_array_append_val(d->cmds, c);
    current_run(d)->n_cmds++;
    if (d->phase == DIFF_PHASE_EH) {
        DiffPhaseRun *run = current_run(d);
        DiffCmd *trig = run->trigger ?
                        &g_array_index(d->cmds, DiffCmd, run->trigger - 1) :
                        NULL;

        if (trig && trig != last_cmd(d) && trig->key == c.key) {
            run->retries++;
        }
    }
    ld->last_drive[ch] = ld->last_any = drive;
}

static void on_end(Loader *ld, unsigned ch, const AtalabTraceRecord *rec,
                   DiffOutcome outcome, unsigned line)
{
    unsigned drive = ch * 2 + rec->unit;
    DiffDrive *d = &ld->t->drive[drive];
    uint64_t seq = 0;
    DiffCmd *c;

    atalab_trace_get_u64(rec, "seq", &seq);
    c = drive_cmd(d, seq);
    if (!c || c->outcome != DIFF_OUT_OPEN) {
        return;
    }
    c->outcome = outcome;
    c->end = rec->time;
    c->end_line = line;
    if (outcome == DIFF_OUT_DONE) {
        c->outcome_text = g_strdup_printf("status=%s",
                                          atalab_trace_get(rec, "status"));
    } else if (outcome == DIFF_OUT_ERROR) {
        c->outcome_text = g_strdup_printf("%s status=%s error=%s",
                                          atalab_trace_word(rec, 0),
                                          atalab_trace_get(rec, "status"),
                                          atalab_trace_get(rec, "error"));
    } else {
        c->outcome_text = g_strdup(atalab_trace_word(rec, 1));
    }
    command_ended(ld, drive, c, line);
}

static void on_reset(Loader *ld, int ch, unsigned line)
{
    unsigned drive;

    for (drive = 0; drive < DIFF_DRIVES; drive++) {
        DiffDrive *d = &ld->t->drive[drive];

        if (ch >= 0 && drive / 2 != (unsigned)ch) {
            continue;
        }
        close_open(ld, drive, line);
        if (d->phase == DIFF_PHASE_IO && ld->fault_since[drive]) {
            DiffCmd *c = last_cmd(d);
            DiffPhaseRun *run;

            enter_phase(d, DIFF_PHASE_EH, line);
            run = current_run(d);
            run->trigger = d->cmds->len;
            run->trigger_text = g_strdup_printf("reset after a fault on %s%s%s",
                                                c ? c->name : "the drive",
                                                c && c->params ? " " : "",
                                                c && c->params ? c->params : "");
        }
        if (d->phase == DIFF_PHASE_EH) {
            current_run(d)->resets++;
        } else if (d->phase == DIFF_PHASE_IO) {
            enter_phase(d, DIFF_PHASE_RESET, line);
        }
    }
}

/* The command a record of the drive belongs to, by its seq=. */
static DiffCmd *owner(Loader *ld, unsigned ch, int unit,
                      const AtalabTraceRecord *rec)
{
    uint64_t seq;

    if (unit < 0 || !atalab_trace_get_u64(rec, "seq", &seq)) {
        return NULL;
    }
    return drive_cmd(&ld->t->drive[ch * 2 + unit], seq);
}

/* The FNV prime to the power n, modulo 2^32 (a repeat's blocks). */
static uint32_t prime_pow(uint64_t n)
{
    uint32_t r = 1, b = 16777619u;

    for (; n; n >>= 1) {
        if (n & 1) {
            r *= b;
        }
        b *= b;
    }
    return r;
}

/*
 * Which configuration bits each channel's drives' decoded settings depend
 * on: every bit flipped on a few base states, the decodes compared.  The
 * bases are all clear, all set, and pseudo-random fills: a bit that only
 * chooses between two registers (SITRE: IDETIM or SIDETIM for the slave)
 * shows only when the two hold different values.
 */
static void channel_bits(const AtalabPersonality *p, uint8_t bits[2][256])
{
    uint8_t cfg[256];
    uint32_t lcg = 1;
    unsigned b, o, bit, drive;

    memset(bits, 0, 2 * 256);
    for (b = 0; b < 8; b++) {
        for (o = 0x40; o < 0x100; o++) {
            for (bit = 0; bit < 8; bit++) {
                for (drive = 0; drive < DIFF_DRIVES; drive++) {
                    AtalabDriveTiming t0, t1;
                    char s0[ATALAB_TIMING_STR_LEN], s1[ATALAB_TIMING_STR_LEN];
                    unsigned i;

                    if (bits[drive / 2][o] & (1u << bit)) {
                        continue;
                    }
                    for (i = 0; i < sizeof(cfg); i++) {
                        lcg = lcg * 1103515245u + 12345u;
                        cfg[i] = b == 0 ? 0x00 : b == 1 ? 0xff : lcg >> 16;
                    }
                    atalab_timing_decode(p, cfg, drive, &t0);
                    cfg[o] ^= 1u << bit;
                    atalab_timing_decode(p, cfg, drive, &t1);
                    if (strcmp(atalab_timing_format(&t0, s0, sizeof(s0)),
                               atalab_timing_format(&t1, s1, sizeof(s1)))) {
                        bits[drive / 2][o] |= 1u << bit;
                    }
                }
            }
        }
    }
}

static uint32_t range_bits(const uint8_t *bytes, unsigned offset,
                           unsigned size)
{
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < size; i++) {
        v |= (uint32_t)bytes[offset + i] << (8 * i);
    }
    return v;
}

bool diff_write_in(const DiffCfgWrite *w, unsigned seq)
{
    if (seq < 2) {
        return w->changed & w->chan_bits[seq];
    }
    return w->changed && !(w->changed & (w->chan_bits[0] | w->chan_bits[1]));
}

uint64_t diff_write_key(const DiffCfgWrite *w, unsigned seq)
{
    char v[48];

    snprintf(v, sizeof(v), "%u %u %x", w->offset, w->size,
             seq < 2 ? w->value & w->chan_bits[seq] : w->value);
    return diff_hash(diff_hash(0, w->reg), v);
}

static void on_cfg_access(Loader *ld, const AtalabTraceRecord *rec,
                          unsigned line)
{
    const char *reg = atalab_trace_get(rec, "reg");
    DiffCfgWrite w = { 0 };
    unsigned i, drive, ch;

    if (rec->offset + rec->size > sizeof(ld->cfg) || rec->size > 4) {
        return;
    }
    if (!rec->write) {
        for (i = 0; i < rec->size; i++) {
            ld->cfg[rec->offset + i] = rec->value >> (8 * i);
        }
        return;
    }
    memcpy(w.before, ld->cfg, sizeof(w.before));
    for (i = 0; i < rec->size; i++) {
        ld->cfg[rec->offset + i] = rec->value >> (8 * i);
    }
    if (!reg || !strcmp(reg, "reserved")) {
        return;
    }
    g_strlcpy(w.reg, reg, sizeof(w.reg));
    w.offset = rec->offset;
    w.size = rec->size;
    w.value = rec->value;
    w.line = line;
    w.changed = range_bits(w.before, w.offset, w.size) ^ w.value;
    if (!w.changed) {
        guint n = GPOINTER_TO_UINT(g_hash_table_lookup(ld->t->redundant, reg));

        g_hash_table_insert(ld->t->redundant, g_strdup(reg),
                            GUINT_TO_POINTER(n + 1));
        return;
    }
    for (ch = 0; ch < 2; ch++) {
        w.chan_bits[ch] = range_bits(ld->chan_bits[ch], w.offset, w.size);
    }
    if (ld->pers) {
        for (drive = 0; drive < DIFF_DRIVES; drive++) {
            AtalabDriveTiming tb, ta;
            char sb[ATALAB_TIMING_STR_LEN], sa[ATALAB_TIMING_STR_LEN];

            atalab_timing_decode(ld->pers, w.before, drive, &tb);
            atalab_timing_decode(ld->pers, ld->cfg, drive, &ta);
            if (strcmp(atalab_timing_format(&tb, sb, sizeof(sb)),
                       atalab_timing_format(&ta, sa, sizeof(sa)))) {
                w.drives |= 1u << drive;
            }
        }
    }
    /*
     * A write that changes a drive's setting is its mode setting (or part
     * of its error handling); otherwise the write is in the phase of the
     * channel's latest command.
     */
    for (ch = 0; ch < 3; ch++) {
        int last = ch < 2 ? ld->last_drive[ch] : ld->last_any;

        w.phase[ch] = last >= 0 ? ld->t->drive[last].phase : DIFF_PHASE_PROBE;
    }
    for (drive = 0; drive < DIFF_DRIVES; drive++) {
        DiffDrive *d = &ld->t->drive[drive];

        if (!(w.drives & (1u << drive))) {
            continue;
        }
        if (d->phase != DIFF_PHASE_EH) {
            enter_phase(d, DIFF_PHASE_MODE, line);
        }
        w.phase[drive / 2] = d->phase;
    }
    g_array_append_val(ld->t->writes, w);
}

static void on_access(Loader *ld, const AtalabTraceRecord *rec,
                      unsigned line)
{
    const char *reg = atalab_trace_get(rec, "reg");
    int ch = rec->channel, dev = atalab_trace_device(rec);
    DiffCmd *c;

    if (!strcmp(rec->source, "cfg")) {
        on_cfg_access(ld, rec, line);
        return;
    }
    if (ch < 0 || ch > 1) {
        return;
    }
    c = owner(ld, ch, dev, rec);
    if (g_str_has_prefix(rec->source, "ctl") && rec->write) {
        ld->nien[ch] = rec->value & 0x02;
    }
    if (!reg) {
        return;
    }
    if ((!strcmp(reg, "Status") || !strcmp(reg, "AltStatus")) && c) {
        uint64_t polls = 1;

        atalab_trace_get_u64(rec, "polls", &polls);
        c->polls += polls;
        ld->cycle[ch].polls += polls;
    } else if (!strcmp(reg, "Data") && c) {
        /* raw trace: every data port access */
        c->pio_bytes += rec->size;
        if (c->xfer == DIFF_XFER_NONE) {
            c->xfer = DIFF_XFER_PIO;
        }
        c->dir_out = rec->write;
    } else if (g_str_has_prefix(rec->source, "ata") && rec->write &&
               strcmp(reg, "Command") && strcmp(reg, "Data")) {
        GString *tf = ld->taskfile[ch];

        g_string_append_printf(tf, "%s%s=0x%0*x", tf->len ? " " : "", reg,
                               (int)rec->size * 2, rec->value);
    }
}

/*
 * "ataN repeat": the channel's latest cycle, the records from the data
 * record before it to the data record that ends it, N times more.
 */
static void on_repeat(Loader *ld, int ch, const AtalabTraceRecord *rec,
                      unsigned line)
{
    const CycleTally *prev = &ld->prev_cycle[ch];
    uint64_t cycles = 0, records = 0, bytes = 0, sums = 0;
    DiffCmd *c = owner(ld, ch, rec->unit, rec);

    atalab_trace_get_u64(rec, "cycles", &cycles);
    atalab_trace_get_u64(rec, "records", &records);
    atalab_trace_get_u64(rec, "bytes", &bytes);
    atalab_trace_get_u64(rec, "sums", &sums);
    if (records != prev->records || ld->cycle[ch].records != 1) {
        g_set_error(&ld->error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s:%u: repeat of %" PRIu64 " records does not follow "
                    "a cycle of as many (the cycle before it has %u)",
                    ld->t->path, line, records, prev->records);
        return;
    }
    ld->cycle[ch].records = 0;
    if (!c) {
        return;
    }
    c->irqs += cycles * prev->irqs;
    c->polls += cycles * prev->polls;
    c->io_sectors += cycles * prev->sectors;
    c->pio_bytes += bytes;
    c->pio_sum = c->pio_sum * prime_pow(cycles) + (uint32_t)sums;
}

static void on_record(Loader *ld, const AtalabTraceRecord *rec,
                      unsigned line)
{
    int ch = rec->channel;
    unsigned drive = ch >= 0 && rec->unit >= 0 ? ch * 2 + rec->unit : 0;
    DiffCmd *c;

    switch (rec->kind) {
    case ATALAB_REC_ACCESS:
        on_access(ld, rec, line);
        return;
    case ATALAB_REC_CFG_RESET:
        on_reset(ld, -1, line);
        return;
    case ATALAB_REC_ATA_RESET:
        if (!strcmp(atalab_trace_get(rec, "srst"), "1")) {
            on_reset(ld, ch, line);
        }
        return;
    case ATALAB_REC_IRQ:
        c = owner(ld, ch, atalab_trace_device(rec), rec);
        if (c && !strcmp(atalab_trace_word(rec, 0), "1")) {
            c->irqs++;
            ld->cycle[ch].irqs++;
        }
        return;
    case ATALAB_REC_ATA_CMD:
        on_cmd(ld, ch, rec, line);
        return;
    case ATALAB_REC_ATA_DONE:
        on_end(ld, ch, rec, DIFF_OUT_DONE, line);
        return;
    case ATALAB_REC_ATA_ERROR:
        on_end(ld, ch, rec, DIFF_OUT_ERROR, line);
        return;
    case ATALAB_REC_ATA_ABORT:
        on_end(ld, ch, rec, DIFF_OUT_ABORT, line);
        return;
    case ATALAB_REC_ATA_DMA_STUCK:
        on_end(ld, ch, rec, DIFF_OUT_STUCK, line);
        return;
    case ATALAB_REC_ATA_DATA:
        c = owner(ld, ch, rec->unit, rec);
        if (c) {
            uint64_t bytes = 0;

            atalab_trace_get_u64(rec, "bytes", &bytes);
            c->pio_bytes += bytes;
            c->pio_sum = c->pio_sum * 16777619u +
                         strtoul(atalab_trace_get(rec, "sum"), NULL, 16);
            c->max_block = MAX(c->max_block, bytes);
            c->xfer = DIFF_XFER_PIO;
            c->dir_out = !strcmp(atalab_trace_word(rec, 0), "out");
        }
        if (!atalab_trace_get(rec, "partial")) {
            ld->prev_cycle[ch] = ld->cycle[ch];
            ld->cycle[ch] = (CycleTally) { 0 };
        }
        return;
    case ATALAB_REC_ATA_REPEAT:
        on_repeat(ld, ch, rec, line);
        return;
    case ATALAB_REC_ATA_IO:
        c = owner(ld, ch, rec->unit, rec);
        if (c && strcmp(atalab_trace_word(rec, 0), "flush") &&
            !atalab_trace_word(rec, 1)) {
            uint64_t count = 0;

            atalab_trace_get_u64(rec, "count", &count);
            c->io_sectors += count;
            ld->cycle[ch].sectors += count;
        }
        return;
    case ATALAB_REC_BM_START:
        c = owner(ld, ch, atalab_trace_device(rec), rec);
        if (c) {
            c->xfer = DIFF_XFER_DMA;
            c->dir_out = !strcmp(atalab_trace_word(rec, 0), "from-memory");
        }
        return;
    case ATALAB_REC_ATA_TIMING: {
        DiffDrive *d = &ld->t->drive[drive];
        const char *text = strstr(rec->text, " timing d");

        g_free(d->timing);
        d->timing = g_strdup(text ? text + strlen(" timing dU ") : "");
        return;
    }
    case ATALAB_REC_ATA_FAULT:
    case ATALAB_REC_ATA_FAULT_REMOVED:
    case ATALAB_REC_ATA_FAULT_CORRUPTED:
    case ATALAB_REC_ATA_FAULT_POWER_CUT:
        add_event(ld, ld->t->drive[drive].faults, drive, rec, line);
        fault_fired(ld, drive);
        return;
    case ATALAB_REC_ATA_FAULT_RESET_OVER:
    case ATALAB_REC_ATA_FAULT_REINSERTED:
    case ATALAB_REC_ATA_FAULT_IDENTIFY:
    case ATALAB_REC_ATA_FAULT_RESTORE_FAILED:
    case ATALAB_REC_ATA_FAULT_POWER_BACK:
        add_event(ld, ld->t->drive[drive].faults, drive, rec, line);
        return;
    case ATALAB_REC_ATA_VIOLATION:
    case ATALAB_REC_ATA_IGNORED:
    case ATALAB_REC_ATA_BUG:
        add_event(ld, ld->t->drive[drive].violations, drive, rec, line);
        return;
    default:
        return;
    }
}

/* ---- the file ----------------------------------------------------------- */

DiffTrace *diff_trace_load(const char *path, GError **err)
{
    g_autoptr(GError) local = NULL;
    AtalabTraceFile *f = atalab_trace_open(path, false, err);
    AtalabTraceRecord rec = { 0 };
    Loader ld = { .last_drive = { -1, -1 }, .last_any = -1 };
    DiffTrace *t;
    const GPtrArray *hl;
    unsigned i;
    int r;

    if (!f) {
        return NULL;
    }
    t = g_new0(DiffTrace, 1);
    t->path = g_strdup(path);
    t->header = g_ptr_array_new_with_free_func(g_free);
    hl = atalab_trace_header_lines(f);
    for (i = 0; i < hl->len; i++) {
        g_ptr_array_add(t->header, g_strdup(g_ptr_array_index(hl, i)));
    }
    t->personality = diff_trace_header(t, "personality");
    t->folded = g_strcmp0(diff_trace_header(t, "trace-data"), "raw") != 0;
    t->writes = g_array_new(false, true, sizeof(DiffCfgWrite));
    for (i = 0; i < DIFF_DRIVES; i++) {
        char key[16];
        const char *v;

        t->drive[i].cmds = g_array_new(false, true, sizeof(DiffCmd));
        t->drive[i].runs = g_array_new(false, true, sizeof(DiffPhaseRun));
        t->drive[i].faults = g_array_new(false, true, sizeof(DiffEvent));
        t->drive[i].violations = g_array_new(false, true, sizeof(DiffEvent));
        snprintf(key, sizeof(key), "drive%u", i);
        v = diff_trace_header(t, key);
        t->drive[i].present = v && strcmp(v, "absent");
        enter_phase(&t->drive[i], DIFF_PHASE_PROBE, 0);
    }
    ld.t = t;
    ld.pers = t->personality ? atalab_personality_find(t->personality) : NULL;
    if (ld.pers) {
        channel_bits(ld.pers, ld.chan_bits);
    }
    t->redundant = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    ld.taskfile[0] = g_string_new(NULL);
    ld.taskfile[1] = g_string_new(NULL);
    while ((r = atalab_trace_next(f, &rec, &local)) > 0) {
        t->records++;
        if (rec.channel == 0 || rec.channel == 1) {
            ld.cycle[rec.channel].records++;
        }
        ld.now = rec.time;
        on_record(&ld, &rec, atalab_trace_line(f));
        if (ld.error) {
            g_propagate_error(&local, g_steal_pointer(&ld.error));
            r = -1;
            break;
        }
    }
    atalab_trace_record_clear(&rec);
    for (i = 0; i < DIFF_DRIVES; i++) {
        DiffPhaseRun *run = current_run(&t->drive[i]);

        g_free(run->timing_end);
        run->timing_end = g_strdup(t->drive[i].timing ? t->drive[i].timing : "");
    }
    g_string_free(ld.taskfile[0], true);
    g_string_free(ld.taskfile[1], true);
    atalab_trace_close(f);
    if (r < 0) {
        g_propagate_error(err, g_steal_pointer(&local));
        diff_trace_free(t);
        return NULL;
    }
    return t;
}

static void free_events(GArray *a)
{
    unsigned i;

    for (i = 0; i < a->len; i++) {
        g_free(g_array_index(a, DiffEvent, i).text);
    }
    g_array_free(a, true);
}

void diff_trace_free(DiffTrace *t)
{
    unsigned i, k;

    if (!t) {
        return;
    }
    for (i = 0; i < DIFF_DRIVES; i++) {
        DiffDrive *d = &t->drive[i];

        for (k = 0; k < d->cmds->len; k++) {
            DiffCmd *c = &g_array_index(d->cmds, DiffCmd, k);

            g_free(c->name);
            g_free(c->params);
            g_free(c->outcome_text);
            g_free(c->taskfile);
        }
        for (k = 0; k < d->runs->len; k++) {
            DiffPhaseRun *run = &g_array_index(d->runs, DiffPhaseRun, k);

            g_free(run->timing_end);
            g_free(run->timing_start);
            g_free(run->trigger_text);
        }
        g_array_free(d->cmds, true);
        g_array_free(d->runs, true);
        free_events(d->faults);
        free_events(d->violations);
        g_free(d->timing);
    }
    g_array_free(t->writes, true);
    if (t->redundant) {
        g_hash_table_destroy(t->redundant);
    }
    g_ptr_array_free(t->header, true);
    g_free(t->path);
    g_free(t);
}

const char *diff_trace_header(const DiffTrace *t, const char *key)
{
    return atalab_trace_header_value(t->header, key);
}

const char *diff_drive_name(int drive)
{
    static const char *const names[DIFF_DRIVES] = {
        "ata0 d0", "ata0 d1", "ata1 d0", "ata1 d1"
    };

    return drive >= 0 && drive < DIFF_DRIVES ? names[drive] : "controller";
}

bool diff_header_decides(const char *line)
{
    return g_str_has_prefix(line, "personality ") ||
           g_str_has_prefix(line, "cable") ||
           g_str_has_prefix(line, "ide-mode ") ||
           g_str_has_prefix(line, "sata-map ") ||
           g_str_has_prefix(line, "sata-ports ") ||
           g_str_has_prefix(line, "drive") || g_str_has_prefix(line, "fault");
}

char *diff_header_key(const char *line)
{
    return g_strndup(line, strcspn(line, " "));
}

const char *diff_header_value(const char *line)
{
    size_t n = strcspn(line, " ");

    return line[n] ? line + n + 1 : line + n;
}
