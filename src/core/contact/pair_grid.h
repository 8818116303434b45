/* pair_grid.h — the spatial hash of the pairs' broad phase: boxes, their cells, the one cell that reports a pair. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_GRID_H
#define HOOKE_PAIR_GRID_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "geometry.h"

/* A box [lo, hi] per primitive [m]. */
typedef struct pair_box {
    double lo[3], hi[3];
} pair_box;

/* A spatial hash of boxes: cell (i, j, k) of side `cell` holds every box that overlaps it, in bucket (a hash of
 * i, j, k) order; start[b] .. start[b + 1] are bucket b's entries, ascending primitive indices. Over a few boxes
 * queried a few times (hk_pair_grid_build) it holds them in rows instead, and a query tests them all: a few hundred
 * tiles of a small body lie in a few cells, each of which holds most of them, so the hash would visit them all the same
 * and more. */
typedef struct pair_grid {
    double cell;
    uint64_t mask;
    int64_t *start;
    int32_t *item;
    int64_t n;    /* the boxes held in rows (scan): 0 for a hash */
    double *rows; /* lo x, y, z, hi x, y, z of box 0 .. n, in 6 rows of n rounded up to even (an empty box past n) */
} pair_grid;

/* The most boxes a grid holds in rows, and the most box tests its queries may make through them (boxes times
 * queries: a search of a few flagged primitives of a large body queries their rows with every tile), measured:
 * docs/benchmarks.md, "Contact". */
#define PAIR_GRID_SCAN 1024
#define PAIR_GRID_SCAN_WORK (1024.0 * 1024.0)
/* The grid over boxes b[0 .. n), to be queried with boxes q[0 .. nq): rows within PAIR_GRID_SCAN and
 * PAIR_GRID_SCAN_WORK, else a hash; 0 or -1 (out of memory: free it all the same). */
int hk_pair_grid_build(pair_grid *g, const pair_box *b, int64_t n, const pair_box *q, int64_t nq);
/* The hash over them (its cell fitted to both sets), and the rows; 0 or -1 as hk_pair_grid_build. */
int hk_pair_grid_hash(pair_grid *g, const pair_box *b, int64_t n, const pair_box *q, int64_t nq);
int hk_pair_grid_rows(pair_grid *g, const pair_box *b, int64_t n);
void hk_pair_grid_free(pair_grid *g);

static inline uint64_t pair_grid_bucket(const pair_grid *g, int64_t i, int64_t j, int64_t k)
{
    const uint64_t h = (uint64_t)i * 73856093u ^ (uint64_t)j * 19349663u ^ (uint64_t)k * 83492791u;
    return (h ^ h >> 29) & g->mask;
}

/* floor(x) as an integer (the library's floor is a call) */
static inline int64_t pair_grid_floor(double x)
{
    const int64_t i = (int64_t)x;
    return i - (x < (double)i);
}

/* Whether every bound of box b is finite (a blown-up step's particle is not: its box takes part in nothing). */
static inline int pair_box_finite(const pair_box *b)
{
    for (int c = 0; c < 3; c++)
        if (!(fabs(b->lo[c]) <= DBL_MAX && fabs(b->hi[c]) <= DBL_MAX)) return 0;
    return 1;
}

/* The cells [lo, hi] that box b covers; none (hi < lo) for a box that is not finite. */
static inline void pair_grid_cells(const pair_grid *g, const pair_box *b, int64_t lo[3], int64_t hi[3])
{
    const int finite = pair_box_finite(b);
    for (int c = 0; c < 3; c++) {
        lo[c] = finite ? pair_grid_floor(b->lo[c] / g->cell) : 0;
        hi[c] = finite ? pair_grid_floor(b->hi[c] / g->cell) : -1;
    }
}

#define PAIR_GRID_FOR_CELLS(lo, hi, i, j, k)                                                                           \
    for (int64_t k = lo[2]; k <= hi[2]; k++)                                                                           \
        for (int64_t j = lo[1]; j <= hi[1]; j++)                                                                       \
            for (int64_t i = lo[0]; i <= hi[0]; i++)

/* Which of the two boxes at r[0] and r[1] of rows w apart (lo x, y, z, hi x, y, z) overlap box q, as bits 0 and 1:
 * pair_box_overlap's test of both at once (SSE2, every x86-64), else box by box. */
static inline unsigned pair_rows_overlap2(const double *r, int64_t w, const pair_box *q)
{
#ifdef __SSE2__
    __m128d m = _mm_and_pd(_mm_cmple_pd(_mm_loadu_pd(r), _mm_set1_pd(q->hi[0])),
                           _mm_cmple_pd(_mm_loadu_pd(r + w), _mm_set1_pd(q->hi[1])));
    m = _mm_and_pd(m, _mm_cmple_pd(_mm_loadu_pd(r + 2 * w), _mm_set1_pd(q->hi[2])));
    m = _mm_and_pd(m, _mm_cmple_pd(_mm_set1_pd(q->lo[0]), _mm_loadu_pd(r + 3 * w)));
    m = _mm_and_pd(m, _mm_cmple_pd(_mm_set1_pd(q->lo[1]), _mm_loadu_pd(r + 4 * w)));
    m = _mm_and_pd(m, _mm_cmple_pd(_mm_set1_pd(q->lo[2]), _mm_loadu_pd(r + 5 * w)));
    return (unsigned)_mm_movemask_pd(m);
#else
    unsigned bits = 0;
    for (int l = 0; l < 2; l++)
        bits |= (unsigned)((r[l] <= q->hi[0]) & (r[w + l] <= q->hi[1]) & (r[2 * w + l] <= q->hi[2]) &
                           (q->lo[0] <= r[3 * w + l]) & (q->lo[1] <= r[4 * w + l]) & (q->lo[2] <= r[5 * w + l]))
                << l;
    return bits;
#endif
}

static inline int pair_box_overlap(const pair_box *a, const pair_box *b)
{
    for (int c = 0; c < 3; c++)
        if (a->lo[c] > b->hi[c] || b->lo[c] > a->hi[c]) return 0;
    return 1;
}

/* Whether cell (i, j, k) holds the lower corner of a and b's overlap: the one cell that reports the pair. */
static inline int pair_grid_reports(const pair_grid *g, const pair_box *a, const pair_box *b, int64_t i, int64_t j,
                                    int64_t k)
{
    const int64_t c[3] = {i, j, k};
    for (int d = 0; d < 3; d++)
        if (pair_grid_floor(g_max(a->lo[d], b->lo[d]) / g->cell) != c[d]) return 0;
    return 1;
}

/* The boxes of a search's primitives in tiles of PAIR_TILE consecutive ones (primitive i in tile i / PAIR_TILE): a
 * search meets tiles through a grid over the tiles' boxes, then the primitives of the tiles that meet. A body's
 * primitives are numbered along its rows, so a tile's are neighbours and its box stays small. */
#define PAIR_TILE 8
typedef struct pair_tiles {
    int64_t n;     /* the tiles */
    pair_box *box; /* per tile: the box of its primitives' finite boxes (empty, lo > hi, where none is) */
    uint8_t *in;   /* per primitive: 1 where its box is finite (a primitive that takes part) */
} pair_tiles;

/* The tiles of boxes b[0 .. n); 0 or -1 (out of memory: free them all the same). */
int hk_pair_tiles_build(pair_tiles *t, const pair_box *b, int64_t n);
void hk_pair_tiles_free(pair_tiles *t);
/* The tiles of t from tile `from` on (g a grid over their boxes) whose boxes overlap box q, each once, ascending,
 * into out (room for t->n of them); how many. seen: a flag per tile, all 0, and 0 again on return. */
int64_t hk_pair_tiles_near(const pair_grid *g, const pair_tiles *t, const pair_box *q, int32_t from, int32_t *out,
                           uint8_t *seen);

#endif
