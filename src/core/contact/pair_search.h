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
