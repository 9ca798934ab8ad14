/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atalab-explore plot: the coverage curve of one or more searches (lines
 * executed over runs, from runs.log's fifth column) as an SVG image, with
 * a dashed line at what an lcov tracefile (the scenario library's) hit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"

#define PLOT_W 720
#define PLOT_H 420
#define MARGIN_L 70
#define MARGIN_R 20
#define MARGIN_T 30         /* and a line per curve, for its legend */
#define MARGIN_B 50

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e" };

/* A curve: lines executed after each run, in the order runs were folded. */
typedef struct {
    char *name;             /* the search's folder */
    GArray *hit;            /* unsigned, one per run with counts */
} Curve;

/*
 * runs.log's lines: "N SEED PARENT NEW HIT TIME VERDICT...".  A line whose
 * HIT is not a number (a merged search's) adds no point.
 */
static bool read_curve(const char *path, Curve *c)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) v = NULL;

    c->name = g_str_has_suffix(path, "/runs.log") ? g_strndup(path, strlen(path) - 9)
                                                  : g_strdup(path);
    c->hit = g_array_new(false, false, sizeof(unsigned));
    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        fprintf(stderr, "atalab-explore: cannot read %s\n", path);
        return false;
    }
    v = g_strsplit(text, "\n", -1);
    for (unsigned i = 0; v[i]; i++) {
        g_auto(GStrv) f = NULL;
        char *end;
        unsigned long hit;

        if (!v[i][0]) {
            continue;
        }
        f = g_strsplit_set(v[i], " ", 7);
        if (g_strv_length(f) < 7) {
            fprintf(stderr, "atalab-explore: %s:%u:1: not a runs.log line (number, seed, "
                    "parent, new, hit, time, verdict)\n", path, i + 1);
            return false;
        }
        hit = strtoul(f[4], &end, 10);
        if (*end || end == f[4]) {
            continue;
        }
        g_array_append_val(c->hit, (unsigned) { hit });
    }
    return true;
}

/* The first of 1, 2, 5, 10, 20, 50, ... that covers MAX in 8 steps or fewer. */
static unsigned axis_step(unsigned max)
{
    static const unsigned mantissa[] = { 1, 2, 5 };

    for (unsigned scale = 1;; scale *= 10) {
        for (size_t i = 0; i < G_N_ELEMENTS(mantissa); i++) {
            if (max / (mantissa[i] * scale) <= 8) {
                return mantissa[i] * scale;
            }
        }
    }
}

int explore_plot(const char *out, const char *against, int n, char **logs)
{
    g_autofree Curve *curves = g_new0(Curve, n);
    unsigned runs = 1, top = 1, lo = G_MAXUINT, lib = 0, xstep, ystep;
    int top_margin = MARGIN_T + 16 * n + 8, height = PLOT_H + 16 * n;
    double w = PLOT_W - MARGIN_L - MARGIN_R, h = PLOT_H - MARGIN_T - MARGIN_B;
    GString *svg = g_string_new(NULL);
    int rc = 0;

    if (against && !explore_info_hit(against, &lib)) {
        return 2;
    }
    for (int i = 0; i < n; i++) {
        if (!read_curve(logs[i], &curves[i])) {
            rc = 2;
            goto out;
        }
        runs = MAX(runs, curves[i].hit->len);
        for (guint j = 0; j < curves[i].hit->len; j++) {
            top = MAX(top, g_array_index(curves[i].hit, unsigned, j));
            lo = MIN(lo, g_array_index(curves[i].hit, unsigned, j));
        }
    }
    top = MAX(top, lib);
    lo = MIN(lo, lib ? lib : lo);
    if (lo == G_MAXUINT || lo > top) {
        lo = 0;
    }
    ystep = axis_step(top - lo + 1);
    lo = lo / ystep * ystep;
    top = (top / ystep + 1) * ystep;
    xstep = axis_step(runs);

#define X(run) (MARGIN_L + w * (run) / runs)
#define Y(v) (top_margin + h - h * ((double)(v) - lo) / (top - lo))
    g_string_append_printf(svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n"
        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
        "<text x=\"%d\" y=\"18\" font-size=\"14\">lines of libata and the PIIX drivers "
        "executed, over runs</text>\n", PLOT_W, height, MARGIN_L);
    for (unsigned v = lo; v <= top; v += ystep) {
        g_string_append_printf(svg,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
            "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%u</text>\n",
            MARGIN_L, PLOT_W - MARGIN_R, Y(v), Y(v), MARGIN_L - 6, Y(v) + 4, v);
    }
    for (unsigned r = 0; r <= runs; r += xstep) {
        g_string_append_printf(svg,
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%u</text>\n",
            X(r), height - MARGIN_B + 18, r);
    }
    g_string_append_printf(svg,
        "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">runs</text>\n"
        "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n",
        X(runs / 2.0), height - 12, MARGIN_L, top_margin, w, h);
    if (lib) {
        g_string_append_printf(svg,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"black\" "
            "stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
            "scenario library: %u</text>\n",
            MARGIN_L, PLOT_W - MARGIN_R, Y(lib), Y(lib), PLOT_W - MARGIN_R - 4, Y(lib) - 5, lib);
    }
    for (int i = 0; i < n; i++) {
        const char *colour = colours[i % G_N_ELEMENTS(colours)];
        GArray *a = curves[i].hit;
        g_autofree char *name = g_markup_escape_text(curves[i].name, -1);

        g_string_append_printf(svg, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                               "points=\"", colour);
        for (guint j = 0; j < a->len; j++) {
            g_string_append_printf(svg, "%s%.1f,%.1f", j ? " " : "", X(j + 1),
                                   Y(g_array_index(a, unsigned, j)));
        }
        g_string_append_printf(svg, "\"/>\n<text x=\"%d\" y=\"%d\" fill=\"%s\">%s: %u runs, "
                               "%u lines</text>\n", MARGIN_L, MARGIN_T + 12 + 16 * i, colour,
                               name, a->len, a->len ? g_array_index(a, unsigned, a->len - 1) : 0);
    }
#undef X
#undef Y
    g_string_append(svg, "</svg>\n");
    if (!g_file_set_contents(out, svg->str, svg->len, NULL)) {
        fprintf(stderr, "atalab-explore: cannot write %s\n", out);
        rc = 2;
    }
out:
    for (int i = 0; i < n; i++) {
        if (curves[i].hit) {
            g_array_free(curves[i].hit, true);
        }
        g_free(curves[i].name);
    }
    g_string_free(svg, true);
    return rc;
}
