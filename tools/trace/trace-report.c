/*
 * atalab trace report (trace-report.h).
 *
 * The commands, their protocol and outcome, the fault firings, violations
 * and phases come from the diff's model of the trace (diff-model.h), so
 * the report and the diff say the same thing about a run.  A second pass
 * over the records collects what the model does not keep: the interrupt
 * lines and bus-master activity (as trace-signals.h reads them, as the
 * VCD does), resets, repeats and timing changes, with their times.  The page gets these as JSON (element atalab-model), the
 * trace's text (element atalab-trace, shown by line number on a click),
 * and our script (report/report.js) that draws the timeline from them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "trace-report.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <glib.h>

#include "ata/ata-device.h"
#include "diff-model.h"
#include "diff-output.h"
#include "trace-read.h"
#include "trace-signals.h"

#define CHANNELS        2

/* What the second pass collects, as JSON array bodies. */
typedef struct Lanes {
    GString *irq[CHANNELS];     /* [t0,t1,line] INTRQ asserted */
    GString *bm[CHANNELS];      /* [t0,t1,line,from_memory] ACTIVE */
    GString *srst[CHANNELS];    /* [t0,t1,line] SRST asserted */
    GString *repeat[CHANNELS];  /* [t0,t1,line,cycles] folded cycles */
    GString *timing[DIFF_DRIVES];       /* [t,line,"label","setting"] */
    GString *resets;            /* [t,line] controller resets */
    int64_t irq_on[CHANNELS], bm_on[CHANNELS], srst_on[CHANNELS];
    unsigned irq_line[CHANNELS], bm_line[CHANNELS], srst_line[CHANNELS];
    bool bm_out[CHANNELS];
    unsigned irqs[CHANNELS], bm_runs[CHANNELS], srsts[CHANNELS];
    /* INTRQ assertions in the channel's cycle in progress and in the one
     * before it, which a repeat record repeats (FORMAT.md, "Repeats") */
    unsigned cycle_irqs[CHANNELS], prev_cycle_irqs[CHANNELS];
    unsigned cfg_resets, cfg_writes;
    int64_t t0, t1;
    bool any;
} Lanes;

/* ---- output helpers ------------------------------------------------- */

static void html_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\r':
            /* a line break to an HTML parser: the lines would shift */
            fputs("&#13;", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

/*
 * s as a JSON string.  '<', '>' and '&' are escaped too, so that nothing
 * in a trace can end the script element the JSON sits in.
 */
static void sep(GString *g)
{
    if (g->len) {
        g_string_append_c(g, ',');
    }
}

/* A duration for people: "850 ns", "12.3 us", "4.56 ms", "1.234 s". */
static char *duration(int64_t ns)
{
    if (ns < 1000) {
        return g_strdup_printf("%" PRId64 " ns", ns);
    }
    if (ns < 1000000) {
        return g_strdup_printf("%.1f us", ns / 1e3);
    }
    if (ns < 1000000000) {
        return g_strdup_printf("%.2f ms", ns / 1e6);
    }
    return g_strdup_printf("%.3f s", ns / 1e9);
}

/* ---- the second pass ------------------------------------------------ */

/* "pio4 mwdma2 udma5" from pio=120ns/pio4 mwdma=... udma=on:udma5. */
static char *timing_label(const AtalabTraceRecord *r)
{
    const char *pio = atalab_trace_get(r, "pio");
    const char *mw = atalab_trace_get(r, "mwdma");
    const char *udma = atalab_trace_get(r, "udma");
    const char *p = pio ? strchr(pio, '/') : NULL;
    const char *m = mw ? strchr(mw, '/') : NULL;

    return g_strdup_printf("%s %s %s", p ? p + 1 : "pio?", m ? m + 1 : "mwdma?",
                           udma && g_str_has_prefix(udma, "on:") ?
                           udma + 3 : "udma off");
}

static void lane_close(GString *g, int64_t *on, unsigned line, int64_t t)
{
    if (*on < 0) {
        return;
    }
    sep(g);
    g_string_append_printf(g, "[%" PRId64 ",%" PRId64 ",%u", *on, t, line);
    *on = -1;
}

static void bm_close(Lanes *l, unsigned ch, int64_t t)
{
    if (l->bm_on[ch] >= 0) {
        lane_close(l->bm[ch], &l->bm_on[ch], l->bm_line[ch], t);
        g_string_append_printf(l->bm[ch], ",%d]", l->bm_out[ch]);
    }
}

/* INTRQ and bus-master ACTIVE as trace-signals.h reads them. */
static void lane_signals(Lanes *l, const AtalabTraceRecord *r, unsigned line)
{
    TraceSignalChange c[TRACE_SIGNAL_MAX_CHANGES];
    unsigned i, n = trace_signal_changes(r, c);

    for (i = 0; i < n; i++) {
        int ch = c[i].channel;

        if (c[i].sig == TRACE_SIG_INTRQ) {
            if (c[i].value && l->irq_on[ch] < 0) {
                l->irq_on[ch] = r->time;
                l->irq_line[ch] = line;
                l->irqs[ch]++;
                l->cycle_irqs[ch]++;
            } else if (!c[i].value && l->irq_on[ch] >= 0) {
                lane_close(l->irq[ch], &l->irq_on[ch], l->irq_line[ch],
                           r->time);
                g_string_append_c(l->irq[ch], ']');
            }
        } else if (c[i].sig == TRACE_SIG_BM_ACTIVE) {
            if (c[i].value && l->bm_on[ch] < 0) {
                l->bm_on[ch] = r->time;
                l->bm_line[ch] = line;
            } else if (!c[i].value) {
                bm_close(l, ch, r->time);
            }
        }
    }
}

static void lane_record(Lanes *l, const AtalabTraceRecord *r, unsigned line)
{
    int ch = r->channel;
    uint64_t x = 0;
    int64_t last = 0;

    if (r->kind == ATALAB_REC_BM_START) {
        bm_close(l, ch, r->time);
    }
    lane_signals(l, r, line);
    switch (r->kind) {
    case ATALAB_REC_ACCESS:
        l->cfg_writes += r->write && !strcmp(r->source, "cfg");
        break;
    case ATALAB_REC_ATA_DATA:
        if (!atalab_trace_get(r, "partial")) {
            l->prev_cycle_irqs[ch] = l->cycle_irqs[ch];
            l->cycle_irqs[ch] = 0;
        }
        break;
    case ATALAB_REC_BM_START:
        /* a new transfer (the last one closed above, if still open) */
        l->bm_out[ch] = !strcmp(atalab_trace_word(r, 0), "from-memory");
        l->bm_runs[ch]++;
        break;
    case ATALAB_REC_ATA_RESET:
        if (!strcmp(atalab_trace_get(r, "srst"), "1")) {
            if (l->srst_on[ch] < 0) {
                l->srst_on[ch] = r->time;
                l->srst_line[ch] = line;
                l->srsts[ch]++;
            }
        } else if (l->srst_on[ch] >= 0) {
            lane_close(l->srst[ch], &l->srst_on[ch], l->srst_line[ch],
                       r->time);
            g_string_append_c(l->srst[ch], ']');
        }
        break;
    case ATALAB_REC_CFG_RESET:
        sep(l->resets);
        g_string_append_printf(l->resets, "[%" PRId64 ",%u]", r->time, line);
        l->cfg_resets++;
        break;
    case ATALAB_REC_ATA_REPEAT:
        atalab_trace_get_u64(r, "cycles", &x);
        l->irqs[ch] += x * l->prev_cycle_irqs[ch];
        l->cycle_irqs[ch] = 0;
        if (!atalab_trace_get_i64(r, "last", &last) || last < r->time) {
            last = r->time;
        }
        sep(l->repeat[ch]);
        g_string_append_printf(l->repeat[ch], "[%" PRId64 ",%" PRId64
                               ",%u,%" PRIu64 "]", r->time, last, line, x);
        break;
    case ATALAB_REC_ATA_TIMING: {
        GString *g = l->timing[ch * 2 + r->unit];
        g_autofree char *label = timing_label(r);
        const char *setting = strstr(r->text, " timing d");

        sep(g);
        g_string_append_printf(g, "[%" PRId64 ",%u,", r->time, line);
        atalab_json_string(g, label);
        g_string_append_c(g, ',');
        atalab_json_string(g, setting ? setting + strlen(" timing dU ") : "");
        g_string_append_c(g, ']');
        break;
    }
    default:
        break;
    }
}

static int collect_lanes(const char *path, Lanes *l, FILE *err)
{
    g_autoptr(GError) e = NULL;
    AtalabTraceFile *f = atalab_trace_open(path, false, &e);
    AtalabTraceRecord r = { 0 };
    unsigned i;
    int got;

    for (i = 0; i < CHANNELS; i++) {
        l->irq[i] = g_string_new(NULL);
        l->bm[i] = g_string_new(NULL);
        l->srst[i] = g_string_new(NULL);
        l->repeat[i] = g_string_new(NULL);
        l->irq_on[i] = l->bm_on[i] = l->srst_on[i] = -1;
    }
    for (i = 0; i < DIFF_DRIVES; i++) {
        l->timing[i] = g_string_new(NULL);
    }
    l->resets = g_string_new(NULL);
    if (!f) {
        fprintf(err, "%s\n", e->message);
        return 2;
    }
    while ((got = atalab_trace_next(f, &r, &e)) > 0) {
        int64_t last = 0;

        if (!l->any) {
            l->t0 = r.time;
            l->any = true;
        }
        l->t1 = MAX(l->t1, r.time);
        if (atalab_trace_get_i64(&r, "last", &last)) {
            l->t1 = MAX(l->t1, last);
        }
        lane_record(l, &r, atalab_trace_line(f));
    }
    atalab_trace_record_clear(&r);
    atalab_trace_close(f);
    if (got < 0) {
        fprintf(err, "%s\n", e->message);
        return 2;
    }
    /* what is still on at the end is drawn to the end */
    for (i = 0; i < CHANNELS; i++) {
        if (l->irq_on[i] >= 0) {
            lane_close(l->irq[i], &l->irq_on[i], l->irq_line[i], l->t1);
            g_string_append_c(l->irq[i], ']');
        }
        bm_close(l, i, l->t1);
        if (l->srst_on[i] >= 0) {
            lane_close(l->srst[i], &l->srst_on[i], l->srst_line[i], l->t1);
            g_string_append_c(l->srst[i], ']');
        }
    }
    return 0;
}

static void lanes_free(Lanes *l)
{
    unsigned i;

    for (i = 0; i < CHANNELS; i++) {
        g_string_free(l->irq[i], true);
        g_string_free(l->bm[i], true);
        g_string_free(l->srst[i], true);
        g_string_free(l->repeat[i], true);
    }
    for (i = 0; i < DIFF_DRIVES; i++) {
        g_string_free(l->timing[i], true);
    }
    g_string_free(l->resets, true);
}

/* ---- the model as JSON ---------------------------------------------- */

typedef enum BarProtocol { BAR_NONE, BAR_PIO, BAR_DMA } BarProtocol;
static const char *const protocol_names[] = { "none", "pio", "dma" };

/*
 * The protocol a command's bar shows: the command table's for its opcode
 * (a DMA command that timed out before its transfer is still DMA); for
 * SMART, whose Features register chooses, the transfer the trace shows.
 */
static BarProtocol bar_protocol(const DiffCmd *c)
{
    const char *p = atalab_ata_cmd_protocol(c->opcode);

    if (!strcmp(p, "dma")) {
        return BAR_DMA;
    }
    if (g_str_has_prefix(p, "pio-")) {
        return BAR_PIO;
    }
    if (!strcmp(p, "by-feature")) {
        return c->xfer == DIFF_XFER_PIO ? BAR_PIO :
               c->xfer == DIFF_XFER_DMA ? BAR_DMA : BAR_NONE;
    }
    return BAR_NONE;
}
/* Bytes a command moved: through the data port, or by DMA (its sectors). */
static uint64_t cmd_bytes(const DiffCmd *c)
{
    return c->xfer == DIFF_XFER_PIO ? c->pio_bytes :
           c->xfer == DIFF_XFER_DMA ? c->io_sectors * 512 : 0;
}

static void json_events(GString *g, const GArray *events)
{
    unsigned i;

    g_string_append_c(g, '[');
    for (i = 0; i < events->len; i++) {
        const DiffEvent *e = &g_array_index(events, DiffEvent, i);

        g_string_append_printf(g, "%s[%" PRId64 ",%u,", i ? "," : "",
                               e->time, e->line);
        atalab_json_string(g, e->text);
        g_string_append_c(g, ']');
    }
    g_string_append_c(g, ']');
}

/* The drive's commands as a JSON array; an open one ends at end. */
static void json_cmds(GString *g, const DiffDrive *d, int64_t end)
{
    unsigned i;

    g_string_append_c(g, '[');
    for (i = 0; i < d->cmds->len; i++) {
        const DiffCmd *c = &g_array_index(d->cmds, DiffCmd, i);

        /* [start,end,protocol,outcome,seq,line,end_line,name,params,result,
         *  phase,bytes,faults] */
        g_string_append_printf(g, "%s[%" PRId64 ",%" PRId64 ",\"%s\",\"%s\","
                               "%u,%u,%u,", i ? "," : "", c->start,
                               c->outcome == DIFF_OUT_OPEN ?
                               MAX(end, c->start) : c->end,
                               protocol_names[bar_protocol(c)],
                               diff_outcome_names(c->outcome)->key, c->seq, c->line,
                               c->end_line);
        atalab_json_string(g, c->name ? c->name : "");
        g_string_append_c(g, ',');
        atalab_json_string(g, c->params ? c->params : "");
        g_string_append_c(g, ',');
        atalab_json_string(g, c->outcome_text ? c->outcome_text : "");
        g_string_append_printf(g, ",\"%s\",%" PRIu64 ",%u]",
                               diff_phase_name(c->phase), cmd_bytes(c),
                               c->faults);
    }
    g_string_append_c(g, ']');
}

static void json_drive(GString *g, const DiffTrace *t, const Lanes *l,
                       unsigned drive, int64_t end)
{
    const DiffDrive *d = &t->drive[drive];

    g_string_append(g, "{\"name\":");
    atalab_json_string(g, diff_drive_name(drive));
    g_string_append_printf(g, ",\"present\":%s,\"cmds\":",
                           d->present ? "true" : "false");
    json_cmds(g, d, end);
    g_string_append(g, ",\"faults\":");
    json_events(g, d->faults);
    g_string_append(g, ",\"violations\":");
    json_events(g, d->violations);
    g_string_append_printf(g, ",\"timing\":[%s]}", l->timing[drive]->str);
}

static GString *model_json(const DiffTrace *t, const Lanes *l)
{
    GString *g = g_string_new("{\"path\":");
    unsigned i;

    atalab_json_string(g, t->path);
    g_string_append_printf(g, ",\"t0\":%" PRId64 ",\"t1\":%" PRId64
                           ",\"records\":%" PRIu64 ",\"resets\":[%s]"
                           ",\"channels\":[", l->t0, l->t1, t->records,
                           l->resets->str);
    for (i = 0; i < CHANNELS; i++) {
        g_string_append_printf(g, "%s{\"name\":\"ata%u\",\"irq\":[%s],"
                               "\"bm\":[%s],\"srst\":[%s],\"repeat\":[%s]}",
                               i ? "," : "", i, l->irq[i]->str,
                               l->bm[i]->str, l->srst[i]->str,
                               l->repeat[i]->str);
    }
    g_string_append(g, "],\"drives\":[");
    for (i = 0; i < DIFF_DRIVES; i++) {
        if (i) {
            g_string_append_c(g, ',');
        }
        json_drive(g, t, l, i, l->t1);
    }
    g_string_append(g, "]}");
    return g;
}

/* ---- the summary ---------------------------------------------------- */

typedef struct DriveSum {
    unsigned cmds, protocol[3], outcome[DIFF_N_OUTCOMES];
    uint64_t bytes;
    int64_t phase_time[DIFF_N_PHASES];
    unsigned phase_cmds[DIFF_N_PHASES];
} DriveSum;

/*
 * A phase run lasts from its first command's issue to its last command's
 * end; a phase's time is the sum over its runs.
 */
static void sum_drive(const DiffDrive *d, int64_t t_end, DriveSum *s)
{
    int64_t run_start = 0, run_end = 0;
    unsigned i, run = ~0u;
    DiffPhase phase = DIFF_PHASE_PROBE;

    memset(s, 0, sizeof(*s));
    for (i = 0; i < d->cmds->len; i++) {
        const DiffCmd *c = &g_array_index(d->cmds, DiffCmd, i);
        /* a command running at the end runs to the trace's end */
        int64_t end = c->outcome == DIFF_OUT_OPEN ? MAX(t_end, c->start) :
                      c->end;

        s->cmds++;
        s->protocol[bar_protocol(c)]++;
        s->outcome[c->outcome]++;
        s->bytes += cmd_bytes(c);
        s->phase_cmds[c->phase]++;
        if (c->phase_no != run) {
            if (run != ~0u) {
                s->phase_time[phase] += run_end - run_start;
            }
            run = c->phase_no;
            phase = c->phase;
            run_start = c->start;
            run_end = end;
        }
        run_end = MAX(run_end, end);
    }
    if (run != ~0u) {
        s->phase_time[phase] += run_end - run_start;
    }
}

static void row_start(FILE *out, const char *what)
{
    fprintf(out, "<tr><th scope=\"row\">%s</th>", what);
}

static void summary_table(FILE *out, const DiffTrace *t, const Lanes *l)
{
    DriveSum s[DIFF_DRIVES];
    unsigned present[DIFF_DRIVES], n = 0, i, k;
    for (i = 0; i < DIFF_DRIVES; i++) {
        sum_drive(&t->drive[i], l->t1, &s[i]);
        if (t->drive[i].present || s[i].cmds) {
            present[n++] = i;
        }
    }
    fprintf(out, "<div id=\"summary-tables\"><table class=\"summary\" "
            "id=\"summary-drives\">"
            "<thead><tr><th></th>");
    for (k = 0; k < n; k++) {
        fprintf(out, "<th scope=\"col\">%s</th>", diff_drive_name(present[k]));
    }
    fprintf(out, "</tr></thead><tbody>");
    row_start(out, "commands");
    for (k = 0; k < n; k++) {
        fprintf(out, "<td data-key=\"commands\">%u</td>", s[present[k]].cmds);
    }
    fprintf(out, "</tr>");
    for (i = 0; i < 3; i++) {
        static const char *const names[] = {
            "&nbsp;non-data", "&nbsp;PIO", "&nbsp;DMA",
        };

        row_start(out, names[i]);
        for (k = 0; k < n; k++) {
            fprintf(out, "<td data-key=\"%s\">%u</td>", protocol_names[i],
                    s[present[k]].protocol[i]);
        }
        fprintf(out, "</tr>");
    }
    for (i = 0; i < DIFF_N_OUTCOMES; i++) {
        row_start(out, diff_outcome_names(i)->meaning);
        for (k = 0; k < n; k++) {
            fprintf(out, "<td data-key=\"%s\">%u</td>",
                    diff_outcome_names(i)->key,
                    s[present[k]].outcome[i]);
        }
        fprintf(out, "</tr>");
    }
    row_start(out, "fault firings");
    for (k = 0; k < n; k++) {
        fprintf(out, "<td data-key=\"faults\">%u</td>",
                t->drive[present[k]].faults->len);
    }
    fprintf(out, "</tr>");
    row_start(out, "violations, ignored writes, core bugs");
    for (k = 0; k < n; k++) {
        fprintf(out, "<td data-key=\"violations\">%u</td>",
                t->drive[present[k]].violations->len);
    }
    fprintf(out, "</tr>");
    row_start(out, "bytes moved");
    for (k = 0; k < n; k++) {
        fprintf(out, "<td data-key=\"bytes\">%" PRIu64 "</td>",
                s[present[k]].bytes);
    }
    fprintf(out, "</tr>");
    for (i = 0; i < DIFF_N_PHASES; i++) {
        fprintf(out, "<tr><th scope=\"row\">%s phase</th>",
                diff_phase_name(i));
        for (k = 0; k < n; k++) {
            g_autofree char *d = duration(s[present[k]].phase_time[i]);

            fprintf(out, "<td>%u commands, %s</td>",
                    s[present[k]].phase_cmds[i], d);
        }
        fprintf(out, "</tr>");
    }
    fprintf(out, "</tbody></table>");

    fprintf(out, "<table class=\"summary\" id=\"summary-controller\">"
            "<thead><tr><th></th><th scope=\"col\">ata0</th>"
            "<th scope=\"col\">ata1</th></tr></thead><tbody>");
    row_start(out, "INTRQ assertions");
    fprintf(out, "<td data-key=\"irqs\">%u</td><td data-key=\"irqs\">%u</td>"
            "</tr>", l->irqs[0], l->irqs[1]);
    row_start(out, "bus-master transfers");
    fprintf(out, "<td>%u</td><td>%u</td></tr>", l->bm_runs[0], l->bm_runs[1]);
    row_start(out, "SRST assertions");
    fprintf(out, "<td>%u</td><td>%u</td></tr>", l->srsts[0], l->srsts[1]);
    fprintf(out, "</tbody></table></div>");
    {
        g_autofree char *span = duration(l->t1 - l->t0);

        fprintf(out, "<p class=\"totals\">%" PRIu64 " records over %s of "
                "virtual time; %u controller resets; %u configuration "
                "space writes.</p>", t->records, span, l->cfg_resets,
                l->cfg_writes);
    }
}

static void header_table(FILE *out, const DiffTrace *t)
{
    unsigned i;

    fprintf(out, "<table class=\"header\" id=\"trace-header\"><tbody>");
    for (i = 0; i < t->header->len; i++) {
        const char *line = g_ptr_array_index(t->header, i);
        g_autofree char *key = diff_header_key(line);

        fprintf(out, "<tr><th scope=\"row\">");
        html_text(out, key);
        fprintf(out, "</th><td>");
        html_text(out, diff_header_value(line));
        fprintf(out, "</td></tr>");
    }
    fprintf(out, "</tbody></table>");
}

/* ---- the page ------------------------------------------------------- */

static int copy_escaped(const char *path, FILE *out, FILE *err)
{
    FILE *in = fopen(path, "r");
    char buf[65536];
    size_t n;

    if (!in) {
        fprintf(err, "%s: %s\n", path, g_strerror(errno));
        return 2;
    }
    while ((n = fread(buf, 1, sizeof(buf) - 1, in)) > 0) {
        buf[n] = '\0';
        if (memchr(buf, '\0', n)) {
            fclose(in);
            fprintf(err, "%s: a NUL byte: not a trace\n", path);
            return 2;
        }
        html_text(out, buf);
    }
    fclose(in);
    return 0;
}

static char *asset(const char *dir, const char *name, FILE *err)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autoptr(GError) e = NULL;
    char *text = NULL;

    if (!g_file_get_contents(path, &text, NULL, &e)) {
        fprintf(err, "atalab trace report: the page's %s: %s\n", name,
                e->message);
        return NULL;
    }
    return text;
}

/* Load the page's script and style; false with the reason on err. */
static bool assets_load(const char *dir, char **js, char **css, FILE *err)
{
    *js = asset(dir, "report.js", err);
    *css = *js ? asset(dir, "report.css", err) : NULL;
    return *css != NULL;
}

static void page_start(FILE *out, const char *title, const char *css)
{
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
            "<meta charset=\"utf-8\"><title>atalab trace report: ");
    html_text(out, title);
    fprintf(out, "</title>\n<style>\n%s</style></head>\n<body>\n"
            "<h1>atalab trace report: <code>", css);
    html_text(out, title);
    fprintf(out, "</code></h1>\n");
}

/* The model, the traces' text (id: path), the script. */
static int page_end(FILE *out, const GString *model, const char *const *ids,
                    const char *const *paths, unsigned n, const char *js,
                    FILE *err)
{
    unsigned i;
    int rc = 0;

    fprintf(out, "<script type=\"application/json\" id=\"atalab-model\">"
            "%s</script>\n", model->str);
    for (i = 0; i < n && !rc; i++) {
        fprintf(out, "<pre id=\"%s\" hidden>", ids[i]);
        rc = copy_escaped(paths[i], out, err);
        fprintf(out, "</pre>\n");
    }
    fprintf(out, "<script>\n%s</script>\n</body></html>\n", js);
    return rc;
}

int trace_report(const char *path, const char *assets, FILE *out, FILE *err)
{
    g_autoptr(GError) e = NULL;
    g_autofree char *js = NULL, *css = NULL;
    DiffTrace *t;
    Lanes l = { 0 };
    GString *model;
    const char *lost;
    int rc;

    if (!strcmp(path, "-")) {
        fprintf(err, "atalab trace report: the trace is read twice: give "
                "a file, not standard input\n");
        return 2;
    }
    if (!assets_load(assets, &js, &css, err)) {
        return 2;
    }
    t = diff_trace_load(path, &e);
    if (!t) {
        fprintf(err, "%s\n", e->message);
        return 2;
    }
    lost = atalab_trace_times_lost(t->header);
    if (lost) {
        fprintf(err, "%s: a timeline needs the trace's own times: this "
                "trace's are %s\n", path, lost);
        diff_trace_free(t);
        return 2;
    }
    rc = collect_lanes(path, &l, err);
    if (rc) {
        lanes_free(&l);
        diff_trace_free(t);
        return rc;
    }
    model = model_json(t, &l);

    page_start(out, path, css);
    fprintf(out, "<section id=\"summary\"><h2>Summary</h2>");
    summary_table(out, t, &l);
    fprintf(out, "</section>\n<section id=\"timeline-section\">"
            "<h2>Timeline</h2><div id=\"controls\"></div>"
            "<div id=\"legend\"></div><div id=\"timeline\"></div>"
            "<div id=\"status\"></div></section>\n"
            "<section id=\"details\"><h2>Records</h2>"
            "<p id=\"detail-title\">Click a command, an interrupt, a "
            "bus-master run or a marker to see its records.</p>"
            "<pre id=\"detail-records\"></pre></section>\n"
            "<section id=\"header\"><h2>Header</h2>");
    header_table(out, t);
    fprintf(out, "</section>\n");
    {
        const char *ids[] = { "atalab-trace" }, *paths[] = { path };

        rc = page_end(out, model, ids, paths, 1, js, err);
    }

    g_string_free(model, true);
    lanes_free(&l);
    diff_trace_free(t);
    return rc;
}

/* ---- two runs side by side ------------------------------------------ */

static void json_side(GString *g, const DiffTrace *t)
{
    unsigned i;

    g_string_append(g, "{\"path\":");
    atalab_json_string(g, t->path);
    g_string_append_printf(g, ",\"records\":%" PRIu64 ",\"drives\":[",
                           t->records);
    for (i = 0; i < DIFF_DRIVES; i++) {
        g_string_append_printf(g, "%s{\"name\":", i ? "," : "");
        atalab_json_string(g, diff_drive_name(i));
        g_string_append_printf(g, ",\"present\":%s,\"cmds\":",
                               t->drive[i].present ? "true" : "false");
        json_cmds(g, &t->drive[i], 0);
        g_string_append_c(g, '}');
    }
    g_string_append(g, "]}");
}

static GString *pair_json(const DiffResult *df)
{
    GString *g = g_string_new("{\"mode\":\"pair\",\"a\":");
    unsigned i, k, c;

    json_side(g, df->ta);
    g_string_append(g, ",\"b\":");
    json_side(g, df->tb);
    g_string_append(g, ",\"pairs\":[");
    for (i = 0; i < DIFF_DRIVES; i++) {
        g_string_append(g, i ? ",[" : "[");
        for (k = 0; k < df->pairs[i]->len; k++) {
            const DiffPair *p = &g_array_index(df->pairs[i], DiffPair, k);

            g_string_append_printf(g, "%s[%d,%d]", k ? "," : "", p->a, p->b);
        }
        g_string_append_c(g, ']');
    }
    /* [class,space,drive,phase,what,a,b,a_line,b_line,detail] */
    g_string_append(g, "],\"diffs\":[");
    for (i = 0; i < df->diffs->len; i++) {
        const DiffDifference *d = &g_array_index(df->diffs, DiffDifference, i);

        g_string_append_printf(g, "%s[\"%s\",\"%s\",%d,", i ? "," : "",
                               diff_class_name(d->cls), d->space, d->drive);
        atalab_json_string(g, d->phase ? d->phase : "");
        g_string_append_c(g, ',');
        atalab_json_string(g, d->what);
        g_string_append_c(g, ',');
        atalab_json_string(g, d->a);
        g_string_append_c(g, ',');
        atalab_json_string(g, d->b);
        g_string_append_printf(g, ",%u,%u,[", d->a_line, d->b_line);
        for (k = 0; d->detail && k < d->detail->len; k++) {
            if (k) {
                g_string_append_c(g, ',');
            }
            atalab_json_string(g, g_ptr_array_index(d->detail, k));
        }
        g_string_append(g, "]]");
    }
    g_string_append(g, "],\"ignored\":[");
    for (c = 0, k = 0; c < DIFF_N_CLASSES; c++) {
        if (df->o->ignore[c]) {
            g_string_append_printf(g, "%s\"%s\"", k++ ? "," : "",
                                   diff_class_name(c));
        }
    }
    g_string_append(g, "]}");
    return g;
}

/* How many lines before line i of the header have its key. */
static unsigned header_occurrence(const GPtrArray *h, unsigned i)
{
    g_autofree char *key = diff_header_key(g_ptr_array_index(h, i));
    unsigned k, n = 0;

    for (k = 0; k < i; k++) {
        g_autofree char *other = diff_header_key(g_ptr_array_index(h, k));

        n += !strcmp(key, other);
    }
    return n;
}

/* The value of the n-th line (from 0) of the header with key; NULL. */
static const char *header_nth(const GPtrArray *h, const char *key, unsigned n)
{
    unsigned k;

    for (k = 0; k < h->len; k++) {
        const char *l = g_ptr_array_index(h, k);
        g_autofree char *other = diff_header_key(l);

        if (!strcmp(key, other) && !n--) {
            return diff_header_value(l);
        }
    }
    return NULL;
}

/* A row of the headers side by side; NULL: the line is not in that run. */
static void header_row(FILE *out, const char *key, const char *va,
                       const char *vb)
{
    fprintf(out, "<tr%s><th scope=\"row\">",
            g_strcmp0(va, vb) ? " class=\"differs\"" : "");
    html_text(out, key);
    fprintf(out, "</th><td>");
    html_text(out, va ? va : "(none)");
    fprintf(out, "</td><td>");
    html_text(out, vb ? vb : "(none)");
    fprintf(out, "</td></tr>");
}

/* Differences per class, and the header lines side by side. */
static void pair_summary(FILE *out, const DiffResult *df)
{
    unsigned count[DIFF_N_CLASSES] = { 0 };
    unsigned i, c;
    const GPtrArray *ha = df->ta->header, *hb = df->tb->header;

    for (i = 0; i < df->diffs->len; i++) {
        count[g_array_index(df->diffs, DiffDifference, i).cls]++;
    }
    fprintf(out, "<div id=\"summary-tables\"><table class=\"summary\" "
            "id=\"summary-classes\"><thead><tr><th>class</th>"
            "<th>differences</th></tr></thead><tbody>");
    for (c = 0; c < DIFF_N_CLASSES; c++) {
        fprintf(out, "<tr><th scope=\"row\">%s</th><td data-key=\"%s\">",
                diff_class_name(c), diff_class_name(c));
        if (df->o->ignore[c]) {
            fprintf(out, "ignored</td></tr>");
        } else {
            fprintf(out, "%u</td></tr>", count[c]);
        }
    }
    fprintf(out, "<tr><th scope=\"row\">all</th><td data-key=\"all\">%u"
            "</td></tr></tbody></table>", df->diffs->len);
    fprintf(out, "<table class=\"header\" id=\"header-pair\"><thead><tr>"
            "<th></th><th>A</th><th>B</th></tr></thead><tbody>");
    for (i = 0; i < ha->len; i++) {
        const char *l = g_ptr_array_index(ha, i);
        g_autofree char *key = diff_header_key(l);
        const char *vb = header_nth(hb, key, header_occurrence(ha, i));

        header_row(out, key, diff_header_value(l), vb);
    }
    for (i = 0; i < hb->len; i++) {
        const char *l = g_ptr_array_index(hb, i);
        g_autofree char *key = diff_header_key(l);

        if (!header_nth(ha, key, header_occurrence(hb, i))) {
            header_row(out, key, NULL, diff_header_value(l));
        }
    }
    fprintf(out, "</tbody></table></div>");
}

int trace_report_pair(const char *a, const char *b, const DiffOptions *o,
                      const char *assets, FILE *out, FILE *err)
{
    g_autoptr(GError) e = NULL;
    g_autofree char *js = NULL, *css = NULL, *title = NULL;
    const char *ids[] = { "atalab-trace-a", "atalab-trace-b" };
    const char *paths[] = { a, b };
    DiffResult *df;
    GString *model;
    int rc;

    if (!strcmp(a, "-") || !strcmp(b, "-")) {
        fprintf(err, "atalab trace report: the traces are read twice: give "
                "files, not standard input\n");
        return 2;
    }
    if (!assets_load(assets, &js, &css, err)) {
        return 2;
    }
    df = diff_compare(a, b, o, &e);
    if (!df) {
        fprintf(err, "%s\n", e->message);
        return 2;
    }
    model = pair_json(df);
    title = g_strdup_printf("%s against %s", a, b);
    page_start(out, title, css);
    fprintf(out, "<p>A: <code>");
    html_text(out, a);
    fprintf(out, "</code> (%" PRIu64 " records); B: <code>", df->ta->records);
    html_text(out, b);
    fprintf(out, "</code> (%" PRIu64 " records).  Lined up as <code>tools/"
            "atalab trace diff</code> lines them up (docs/trace-diff.md); "
            "every difference it reports is listed, and marked on the row "
            "of the command whose records it names.</p>\n"
            "<section id=\"summary\">"
            "<h2>Summary</h2>", df->tb->records);
    pair_summary(out, df);
    fprintf(out, "</section>\n<section id=\"differences\"><h2>Differences"
            "</h2><div id=\"diff-list\"></div></section>\n"
            "<section id=\"aligned\"><h2>Commands, lined up</h2>"
            "<div id=\"aligned-list\"></div></section>\n"
            "<section id=\"details\"><h2>Records</h2>"
            "<p id=\"detail-title\">Click a difference or a row of "
            "commands to see the records of both runs.</p>"
            "<div class=\"side-by-side\"><pre id=\"detail-a\"></pre>"
            "<pre id=\"detail-b\"></pre></div></section>\n");
    rc = page_end(out, model, ids, paths, 2, js, err);
    g_string_free(model, true);
    diff_result_free(df);
    return rc;
}
