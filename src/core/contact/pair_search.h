/* pair_search.h — the search for the candidate pairs (pair_search.c), and the distances it judges them by. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_SEARCH_H
#define HOOKE_PAIR_SEARCH_H

#include <stdint.h>

#include "geometry.h"
#include "pair_grid.h"
#include "pairs.h"

/* A search fails for want of memory, or where it finds more than max_pairs candidates: every task stops once its
 * own finds pass that, and the search fails where all of them together do, the same outcome for any team. */
enum { PAIR_SEARCH_MEMORY = -1, PAIR_SEARCH_TOO_MANY = -2 };

/* Whether particles p and q of body b are topological neighbours (or the same): within a lattice body's stencil
 * reach along every axis (the nodes' (i, j, k), kept), or joined by a spring or a triangle of a listed body (adj,
 * ascending). Inline for the search's loops; hk_pairs_neighbours for the others. */
static inline int pair_neighbours(const hk_pairs *pr, int b, int p, int q)
{
    if (p == q) return 1;
    const int reach = pr->reach[b];
    if (reach >= 0) {
        const int32_t *a = pr->node + 3 * (int64_t)p, *c = pr->node + 3 * (int64_t)q;
        for (int k = 0; k < 3; k++)
            if (a[k] - c[k] > reach || c[k] - a[k] > reach) return 0;
        return 1;
    }
    int lo = pr->adj_start[p], hi = pr->adj_start[p + 1];
    while (lo < hi) {
        const int m = lo + (hi - lo) / 2;
        if (pr->adj[m] < q)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < pr->adj_start[p + 1] && pr->adj[lo] == q;
}
int hk_pairs_neighbours(const hk_world *w, const hk_pairs *pr, int b, int p, int q);

/* A task's pairs, in the order it found them. */
typedef struct pair_buf {
    hk_pair *a;
    int64_t n, cap;
} pair_buf;
/* Appends a pair (room doubled as needed); 0 or -1. */
int hk_pair_push(pair_buf *pb, int32_t kind, int32_t a, int32_t b, int32_t c, int32_t d);
/* hk_pair_order for qsort. */
int hk_pair_cmp(const void *x, const void *y);

/* The candidates into pr->pair from the boxes vb (the particles'), tb (the triangles'), eb (the edges'), their tiles
 * (of the particles, the triangles, the edges), the grids gt and ge over the triangles' and the edges' tiles, and
 * the body of every particle: every particle's vertex-triangle pairs, then the edge-edge pairs, in the order one
 * task would find them, on the world's team. 0, PAIR_SEARCH_MEMORY or PAIR_SEARCH_TOO_MANY. */
int hk_pair_search(hk_world *w, hk_pairs *pr, const pair_box *vb, const pair_box *tb, const pair_box *eb,
                   const pair_tiles *tiles, const pair_grid *gt, const pair_grid *ge, const int32_t *body);

/* The squared distance at qb of particle v and triangle c, and of edges a and c [m^2]. */
static inline double pair_vt_gap2(const hk_pairs *pr, int32_t v, const int32_t *c)
{
    const double *x = pr->qb + 3 * (int64_t)v;
    double q[3], d[3];
    g_closest_on_triangle(x, pr->qb + 3 * (int64_t)c[0], pr->qb + 3 * (int64_t)c[1], pr->qb + 3 * (int64_t)c[2], q);
    g_sub(x, q, d);
    return g_dot(d, d);
}

static inline double pair_ee_gap2(const hk_pairs *pr, const int32_t *a, const int32_t *c)
{
    double sa, tc;
    return g_closest_segments(pr->qb + 3 * (int64_t)a[0], pr->qb + 3 * (int64_t)a[1], pr->qb + 3 * (int64_t)c[0],
                              pr->qb + 3 * (int64_t)c[1], &sa, &tc);
}

#endif
