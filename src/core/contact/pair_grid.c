/* pair_grid.c — the spatial hash of the pairs' broad phase: its cell size, its buckets, the primitives' tiles. */
/* SPDX-License-Identifier: MIT */
#include "pair_grid.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* The mean largest side of the finite boxes among b[0 .. n); the grid's first cell size is GRID_CELL_SIDES of it
 * (fewer cells a box, more boxes a cell: docs/performance-notes.md, "What contact costs"). */
#define GRID_CELL_SIDES 2.0
static double mean_side(const pair_box *b, int64_t n)
{
    double s = 0;
    int64_t m = 0;
    for (int64_t e = 0; e < n; e++)
        if (pair_box_finite(&b[e])) {
            s += g_max(b[e].hi[0] - b[e].lo[0], g_max(b[e].hi[1] - b[e].lo[1], b[e].hi[2] - b[e].lo[2]));
            m++;
        }
    return m ? g_max(s / (double)m, 1e-9) : 1;
}

/* The cell size for a grid over boxes a[0 .. na) queried with boxes q[0 .. nq): `cell`, doubled until both sets'
 * boxes (empty ones left out) cover at most GRID_CELLS_PER_BOX cells each on average and every cell index stays
 * far inside int64_t. A body of absurd size or speed (a scene may place a jelly of spacing 1e90 m beside one of
 * 5 cm) then makes the grid coarse instead of the search endless; the pairs found do not depend on the cell. */
#define GRID_CELLS_PER_BOX 512.0
static double fit_cell(double cell, const pair_box *a, int64_t na, const pair_box *q, int64_t nq)
{
    const double budget = GRID_CELLS_PER_BOX * (double)(na + nq + 256);
    for (int tries = 0; tries < 4096 && isfinite(cell); tries++) {
        double cells = 0, far = 0;
        for (int s = 0; s < 2; s++) {
            const pair_box *b = s ? q : a;
            for (int64_t e = 0; e < (s ? nq : na); e++) {
                if (!(b[e].lo[0] <= b[e].hi[0]) || !pair_box_finite(&b[e])) continue;
                double span = 1;
                for (int c = 0; c < 3; c++) {
                    const double lo = b[e].lo[c] / cell, hi = b[e].hi[c] / cell;
                    span *= floor(hi) - floor(lo) + 1;
                    far = g_max(far, g_max(fabs(lo), fabs(hi)));
                }
                cells += span;
            }
        }
        if (cells <= budget && far < 0x1p52) return cell;
        cell *= 2;
    }
    return cell;
}

int hk_pair_grid_rows(pair_grid *g, const pair_box *b, int64_t n)
{
    const int64_t w = (n + 1) / 2 * 2;
    g->rows = malloc((size_t)(6 * w + 1) * sizeof *g->rows);
    if (!g->rows) return -1;
    for (int64_t e = 0; e < w; e++) {
        const int in = e < n && pair_box_finite(&b[e]); /* one that is not finite: empty, as the hash leaves it out */
        for (int c = 0; c < 3; c++) {
            g->rows[c * w + e] = in ? b[e].lo[c] : INFINITY;
            g->rows[(3 + c) * w + e] = in ? b[e].hi[c] : -INFINITY;
        }
    }
    g->n = n;
    return 0;
}

int hk_pair_grid_build(pair_grid *g, const pair_box *b, int64_t n, const pair_box *q, int64_t nq)
{
    const int scan = n <= PAIR_GRID_SCAN && (double)n * (double)nq <= PAIR_GRID_SCAN_WORK;
    return scan ? hk_pair_grid_rows(g, b, n) : hk_pair_grid_hash(g, b, n, q, nq);
}

int hk_pair_grid_hash(pair_grid *g, const pair_box *b, int64_t n, const pair_box *q, int64_t nq)
{
    g->cell = fit_cell(GRID_CELL_SIDES * mean_side(b, n), b, n, q, nq);
    int64_t entries = 0;
    for (int64_t e = 0; e < n; e++) {
        int64_t lo[3], hi[3];
        pair_grid_cells(g, &b[e], lo, hi);
        entries += (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
    }
    uint64_t size = 1024;
    while (size < 2 * (uint64_t)entries) size *= 2;
    g->mask = size - 1;
    g->start = calloc(size + 1, sizeof *g->start);
    g->item = malloc((size_t)(entries + 1) * sizeof *g->item);
    if (!g->start || !g->item) return -1;
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t e = 0; e < n; e++) {
            int64_t lo[3], hi[3];
            pair_grid_cells(g, &b[e], lo, hi);
            PAIR_GRID_FOR_CELLS(lo, hi, i, j, k)
            {
                const uint64_t q = pair_grid_bucket(g, i, j, k);
                if (pass == 0)
                    g->start[q + 1]++;
                else
                    g->item[g->start[q]++] = (int32_t)e;
            }
        }
        if (pass == 0)
            for (uint64_t q = 0; q < size; q++) g->start[q + 1] += g->start[q];
        else /* the fill moved each start to the next bucket's: back */
            for (uint64_t q = size; q > 0; q--) g->start[q] = g->start[q - 1];
    }
    g->start[0] = 0;
    return 0;
}

void hk_pair_grid_free(pair_grid *g)
{
    free(g->start);
    free(g->item);
    free(g->rows);
}

int hk_pair_tiles_build(pair_tiles *t, const pair_box *b, int64_t n)
{
    t->n = (n + PAIR_TILE - 1) / PAIR_TILE;
    t->box = malloc((size_t)(t->n + 1) * sizeof *t->box);
    t->in = malloc((size_t)(n + 1));
    if (!t->box || !t->in) return -1;
    for (int64_t k = 0; k < t->n; k++) {
        pair_box *tb = &t->box[k];
        for (int c = 0; c < 3; c++) tb->lo[c] = INFINITY, tb->hi[c] = -INFINITY;
        const int64_t e1 = (k + 1) * PAIR_TILE < n ? (k + 1) * PAIR_TILE : n;
        for (int64_t e = k * PAIR_TILE; e < e1; e++) {
            t->in[e] = (uint8_t)pair_box_finite(&b[e]);
            if (t->in[e])
                for (int c = 0; c < 3; c++)
                    tb->lo[c] = g_min(tb->lo[c], b[e].lo[c]), tb->hi[c] = g_max(tb->hi[c], b[e].hi[c]);
        }
    }
    return 0;
}

void hk_pair_tiles_free(pair_tiles *t)
{
    free(t->box);
    free(t->in);
}

static int cmp_tile(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The boxes of a grid in rows from box `from` on that overlap box q, ascending, into out; how many. */
static int64_t scan_rows(const pair_grid *g, const pair_box *q, int32_t from, int32_t *out)
{
    const int64_t w = (g->n + 1) / 2 * 2;
    int64_t m = 0;
    if (!pair_box_finite(q)) return 0; /* as the hash: such a box covers no cell */
    for (int64_t e = from / 2 * 2; e < w; e += 2) {
        const unsigned bits = pair_rows_overlap2(g->rows + e, w, q) & (e < from ? 2u : 3u);
        out[m] = (int32_t)e, m += bits & 1; /* (e < n: out has room for it) */
        if (bits & 2) out[m++] = (int32_t)(e + 1);
    }
    return m;
}

int64_t hk_pair_tiles_near(const pair_grid *g, const pair_tiles *t, const pair_box *q, int32_t from, int32_t *out,
                           uint8_t *seen)
{
    if (g->rows) return scan_rows(g, q, from, out);
    int64_t m = 0, lo[3], hi[3];
    int32_t first = INT32_MAX, last = -1; /* the lowest and highest tile found */
    pair_grid_cells(g, q, lo, hi);
    PAIR_GRID_FOR_CELLS(lo, hi, i, j, k)
    {
        const uint64_t b = pair_grid_bucket(g, i, j, k);
        for (int64_t e = g->start[b]; e < g->start[b + 1]; e++) {
            const int32_t tile = g->item[e]; /* a bucket may hold a tile for several of its cells: each once */
            if (tile >= from && !seen[tile] && pair_box_overlap(q, &t->box[tile]) &&
                pair_grid_reports(g, q, &t->box[tile], i, j, k)) {
                seen[tile] = 1, out[m++] = tile;
                first = tile < first ? tile : first, last = tile > last ? tile : last;
            }
        }
    }
    if (m > 32 && last - first < 64 * m) { /* ascending, many within a span not much wider: the flags in order */
        m = 0;
        for (int32_t tile = first; tile <= last; tile++)
            if (seen[tile]) seen[tile] = 0, out[m++] = tile;
        return m;
    }
    if (m > 32) /* ascending: a few as a rule, by insertion; many (a box of absurd size) by qsort */
        qsort(out, (size_t)m, sizeof *out, cmp_tile);
    else
        for (int64_t a = 1; a < m; a++)
            for (int64_t c = a; c > 0 && out[c - 1] > out[c]; c--) {
                const int32_t x = out[c];
                out[c] = out[c - 1], out[c - 1] = x;
            }
    for (int64_t a = 0; a < m; a++) seen[out[a]] = 0;
    return m;
}
