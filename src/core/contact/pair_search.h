/* pair_search.h — the search for the candidate pairs (pair_search.c), and the distances it judges them by. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_SEARCH_H
#define HOOKE_PAIR_SEARCH_H

#include <stdint.h>

#include "geometry.h"
#include "pair_grid.h"
#include "pair_neighbours.h"
#include "pairs.h"

/* A search fails for want of memory, or where it finds more than max_pairs candidates: every task stops once its
 * own finds pass that, and the search fails where all of them together do, the same outcome for any team. */
enum { PAIR_SEARCH_MEMORY = -1, PAIR_SEARCH_TOO_MANY = -2 };

/* pair_neighbours (pair_neighbours.h) for callers outside the search's loops. */
int hk_pairs_neighbours(const hk_world *w, const hk_pairs *pr, int b, int p, int q);

/* A task's pairs, in the order it found them, and each one's distance at qc [m]. */
typedef struct pair_buf {
    hk_pair *a;
    double *d;
    int64_t n, cap;
} pair_buf;
/* Appends a pair and its distance (room doubled as needed); 0 or -1. */
int hk_pair_push(pair_buf *pb, int32_t kind, int32_t a, int32_t b, int32_t c, int32_t d, double dist);
/* Sorts a primitive's pairs a[0 .. n) (and their distances d) into their one order (hk_pair_order); 0 or
 * PAIR_SEARCH_MEMORY. */
int hk_pair_sort(hk_pair *a, double *d, int64_t n);
/* The pairs of `count` buffers, in buffer order, into out (what it held replaced); 0 or PAIR_SEARCH_MEMORY. */
int hk_pair_gather(pair_buf *out, const pair_buf *buf, int count);

/* The candidates of the particles flagged in dirty (NULL: of every particle) into out, with their distances at qc:
 * from the boxes vb (the particles'), tb (the triangles') and eb (the edges'), every pair of a particle and a
 * triangle, or of two edges, one of whose particles is flagged, whose boxes overlap and which can come within the
 * thickness while every particle stays within rc of its place qc (moved by the common shift), topological
 * neighbours and pairs the contact does not allow left out: every particle's vertex-triangle pairs, then the
 * edge-edge pairs, each primitive's sorted, in the order one task would find them, on the world's team. `kept`: the
 * candidates that stay, counted against max_pairs. 0, PAIR_SEARCH_MEMORY or PAIR_SEARCH_TOO_MANY. */
int hk_pair_search(hk_world *w, const hk_pairs *pr, const pair_box *vb, const pair_box *tb, const pair_box *eb,
                   const int32_t *body, const uint8_t *dirty, int64_t kept, pair_buf *out);
/* The particle model's candidates (particle_pairs.c): every pair of particles whose boxes vb (each particle's) meet,
 * less topological neighbours, that can come within the contact distance while the candidates hold, into out with
 * their distances at qc (each pair once, the lower particle first, in the order one task would find them, on the
 * world's team); body: every particle's. 0, or a pair search's failure. */
int hk_particle_search(hk_world *w, const hk_pairs *pr, const pair_box *vb, const int32_t *body, pair_buf *out);
/* The candidates of the particles flagged in dirty (NULL: of every particle) from the candidates' frame (qc, rc:
 * pair_set.c), by the model's search, into out; `kept` as hk_pair_search's. 0, PAIR_SEARCH_MEMORY or
 * PAIR_SEARCH_TOO_MANY. */
int hk_pairs_find(hk_world *w, const hk_pairs *pr, const uint8_t *dirty, int64_t kept, pair_buf *out);
/* 0 if the candidates of pr (found particle by particle, pair_set.c) are those a search of every particle finds from
 * their frame (qc, rc), in the same order and with the same distances, else -1 with the first that differs in why
 * (len bytes; a search on the world's team): for HK_VALIDATE after each search, and the tests. */
int hk_pairs_validate_candidates(hk_world *w, const hk_pairs *pr, char *why, size_t len);

#endif
