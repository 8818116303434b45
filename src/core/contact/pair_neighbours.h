/* pair_neighbours.h — which particles are topological neighbours, and per tile the search's neighbour lanes. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_NEIGHBOURS_H
#define HOOKE_PAIR_NEIGHBOURS_H

#include <stdint.h>

#include "check.h"
#include "pair_grid.h"
#include "pairs.h"

/* Whether particles p and q of body b are topological neighbours (or the same): within a lattice body's stencil
 * reach along every axis (the nodes' (i, j, k), kept), or joined by a spring or a triangle of a listed body (adj,
 * ascending). Inline for the checks' loops; hk_pairs_neighbours for the others. A pair of primitives with a corner
 * each that are neighbours is never a pair. */
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

/* The tiles with neighbours of the query primitives q[0 .. nq) (each of qn corners, qc: theirs; NULL: the
 * particles themselves) among the target primitives t[0 .. nt) (tn corners each, tc: theirs), into out: every
 * target one of whose corners is a neighbour (pair_neighbours) of one of a query's. Built with the surfaces (the
 * topology does not move). 0 or -1 (out of memory: free it all the same). */
int hk_pair_tile_nb_build(const hk_world *w, const hk_pairs *pr, const int32_t *qc, int qn, int64_t nq,
                          const int32_t *tc, int tn, int64_t nt, hk_pair_tile_nb *out);
void hk_pair_tile_nb_free(hk_pair_tile_nb *nb);

/* Per tile near[0 .. m) (ascending) met by query tile q, the mask of their neighbour lanes (0: none) into out: the
 * two ascending lists walked together. */
static inline void pair_tile_nb_masks(const hk_pair_tile_nb *nb, int64_t q, const int32_t *near, int64_t m,
                                      uint64_t *out)
{
    HK_ASSERT(nb->start); /* built with the triangle model's surfaces */
    int64_t e = nb->start[q];
    const int64_t end = nb->start[q + 1];
    for (int64_t k = 0; k < m; k++) {
        while (e < end && nb->tile[e] < near[k]) e++;
        out[k] = e < end && nb->tile[e] == near[k] ? nb->mask[e] : 0;
    }
}

/* The lanes of a target tile that are neighbours of the query's lane l, from the tile's mask. */
static inline unsigned pair_tile_nb_lanes(uint64_t mask, int l)
{
    return (unsigned)(mask >> (PAIR_TILE * l)) & ((1u << PAIR_TILE) - 1);
}

#endif
