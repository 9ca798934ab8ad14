/*
 * atalab trace diff: the shortest edit script between two key sequences
 * (diff-align.h).
 *
 * The classic divide and conquer: trim the common head and tail, find the
 * middle snake of the D-path by running the forward and the backward
 * search at once, split there, recurse on both halves.  Diagonal k holds
 * the points with x - y = k; fwd[k] is the furthest x a forward path of
 * the current cost reaches on it, bwd[k] the smallest x a backward one
 * does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "diff-align.h"

#include <string.h>

#include <glib.h>

typedef struct Align {
    const uint64_t *a, *b;
    bool *del, *ins;
    ptrdiff_t *fwd, *bwd;       /* indexed by diagonal, offset inside */
    ptrdiff_t too_expensive;    /* cost after which a split is heuristic */
} Align;

/*
 * The split point of a[xoff..xlim) against b[yoff..ylim), both non-empty
 * and with different first and last elements.
 */
static void middle_snake(Align *al, ptrdiff_t xoff, ptrdiff_t xlim,
                         ptrdiff_t yoff, ptrdiff_t ylim,
                         ptrdiff_t *xmid, ptrdiff_t *ymid)
{
    ptrdiff_t *fwd = al->fwd, *bwd = al->bwd;
    const ptrdiff_t dmin = xoff - ylim, dmax = xlim - yoff;
    const ptrdiff_t fmid = xoff - yoff, bmid = xlim - ylim;
    ptrdiff_t fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
    const bool odd = (fmid - bmid) & 1;
    ptrdiff_t cost, d;

    fwd[fmid] = xoff;
    bwd[bmid] = xlim;
    for (cost = 1;; cost++) {
        /* One more edit forward: diagonals fmin..fmax, every other one. */
        if (fmin > dmin) {
            fwd[--fmin - 1] = -1;
        } else {
            fmin++;
        }
        if (fmax < dmax) {
            fwd[++fmax + 1] = -1;
        } else {
            fmax--;
        }
        for (d = fmax; d >= fmin; d -= 2) {
            ptrdiff_t lo = fwd[d - 1], hi = fwd[d + 1];
            ptrdiff_t x = lo >= hi ? lo + 1 : hi, y = x - d;

            while (x < xlim && y < ylim && al->a[x] == al->b[y]) {
                x++;
                y++;
            }
            fwd[d] = x;
            if (odd && bmin <= d && d <= bmax && bwd[d] <= x) {
                *xmid = x;
                *ymid = y;
                return;
            }
        }
        /* One more edit backward. */
        if (bmin > dmin) {
            bwd[--bmin - 1] = PTRDIFF_MAX;
        } else {
            bmin++;
        }
        if (bmax < dmax) {
            bwd[++bmax + 1] = PTRDIFF_MAX;
        } else {
            bmax--;
        }
        for (d = bmax; d >= bmin; d -= 2) {
            ptrdiff_t lo = bwd[d - 1], hi = bwd[d + 1];
            ptrdiff_t x = lo < hi ? lo : hi - 1, y = x - d;

            while (x > xoff && y > yoff && al->a[x - 1] == al->b[y - 1]) {
                x--;
                y--;
            }
            bwd[d] = x;
            if (!odd && fmin <= d && d <= fmax && x <= fwd[d]) {
                *xmid = x;
                *ymid = y;
                return;
            }
        }
        if (cost < al->too_expensive) {
            continue;
        }
        /*
         * Too costly for an optimal split: take the point, forward or
         * backward, that got furthest from its own corner.
         */
        {
            ptrdiff_t fbest = -1, fx = xoff, bbest = PTRDIFF_MAX, bx = xlim;

            for (d = fmax; d >= fmin; d -= 2) {
                ptrdiff_t x = MIN(fwd[d], xlim), y = x - d;

                if (y > ylim) {
                    x = ylim + d;
                    y = ylim;
                }
                if (x + y > fbest) {
                    fbest = x + y;
                    fx = x;
                }
            }
            for (d = bmax; d >= bmin; d -= 2) {
                ptrdiff_t x = MAX(xoff, bwd[d]), y = x - d;

                if (y < yoff) {
                    x = yoff + d;
                    y = yoff;
                }
                if (x + y < bbest) {
                    bbest = x + y;
                    bx = x;
                }
            }
            if (fbest - (xoff + yoff) >= (xlim + ylim) - bbest) {
                *xmid = fx;
                *ymid = fbest - fx;
            } else {
                *xmid = bx;
                *ymid = bbest - bx;
            }
            return;
        }
    }
}

static void compare(Align *al, ptrdiff_t xoff, ptrdiff_t xlim,
                    ptrdiff_t yoff, ptrdiff_t ylim)
{
    ptrdiff_t xmid, ymid;

    while (xoff < xlim && yoff < ylim && al->a[xoff] == al->b[yoff]) {
        xoff++;
        yoff++;
    }
    while (xlim > xoff && ylim > yoff && al->a[xlim - 1] == al->b[ylim - 1]) {
        xlim--;
        ylim--;
    }
    if (xoff == xlim || yoff == ylim) {
        memset(al->ins + yoff, 1, ylim - yoff);
        memset(al->del + xoff, 1, xlim - xoff);
        return;
    }
    middle_snake(al, xoff, xlim, yoff, ylim, &xmid, &ymid);
    if ((xmid == xoff && ymid == yoff) || (xmid == xlim && ymid == ylim)) {
        /* No progress (only possible on the heuristic path): give up here. */
        memset(al->del + xoff, 1, xlim - xoff);
        memset(al->ins + yoff, 1, ylim - yoff);
        return;
    }
    compare(al, xoff, xmid, yoff, ymid);
    compare(al, xmid, xlim, ymid, ylim);
}

void diff_align(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                bool *del, bool *ins)
{
    size_t diags = na + nb + 3, n = na + nb;
    ptrdiff_t limit = 256;
    Align al = { .a = a, .b = b, .del = del, .ins = ins };

    memset(del, 0, na * sizeof(*del));
    memset(ins, 0, nb * sizeof(*ins));
    /* About sqrt(N + M), at least 256: quadratic work stays bounded. */
    while ((size_t)limit * limit < n) {
        limit *= 2;
    }
    al.too_expensive = limit;
    al.fwd = g_new(ptrdiff_t, diags);
    al.bwd = g_new(ptrdiff_t, diags);
    al.fwd += nb + 1;
    al.bwd += nb + 1;
    compare(&al, 0, na, 0, nb);
    g_free(al.fwd - (nb + 1));
    g_free(al.bwd - (nb + 1));
}

size_t diff_runs(const bool *del, size_t na, const bool *ins, size_t nb,
                 DiffRun **runs)
{
    GArray *out = g_array_new(false, false, sizeof(DiffRun));
    size_t i = 0, j = 0;

    while (i < na || j < nb) {
        DiffRun r = { .a_at = i, .b_at = j };

        if (i < na && del[i]) {
            r.op = DIFF_DELETE;
            while (i < na && del[i]) {
                i++;
            }
            r.len = i - r.a_at;
        } else if (j < nb && ins[j]) {
            r.op = DIFF_INSERT;
            while (j < nb && ins[j]) {
                j++;
            }
            r.len = j - r.b_at;
        } else {
            r.op = DIFF_SAME;
            while (i < na && j < nb && !del[i] && !ins[j]) {
                i++;
                j++;
            }
            r.len = i - r.a_at;
            if (!r.len) {
                /* Unbalanced marks (not from diff_align): stop. */
                break;
            }
        }
        g_array_append_val(out, r);
    }
    {
        size_t n = out->len;

        *runs = (DiffRun *)g_array_free(out, false);
        return n;
    }
}
