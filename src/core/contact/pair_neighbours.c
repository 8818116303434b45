/* pair_neighbours.c — per tile of a search's queries, the lanes of the targets' tiles that are its neighbours. */
/* SPDX-License-Identifier: MIT */
#include "pair_neighbours.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

_Static_assert(PAIR_TILE *PAIR_TILE <= 64, "a tile's neighbour lanes against another's fit in 64 bits");

/* What a build keeps between the query tiles: per particle the query tile that last met it (stamp) and which of
 * its lanes it is a neighbour of (lanes), the particles met (met), and per target tile its mask so far (acc). */
typedef struct nb_scratch {
    int64_t *stamp;
    uint8_t *lanes;
    int32_t *met;
    int64_t nmet;
    uint64_t *acc;
    int32_t *touched;
    int64_t ntouched;
} nb_scratch;

/* Particle q met as a neighbour of query tile `tile`'s lane l. */
static void meet(nb_scratch *s, int64_t tile, int32_t q, int l)
{
    if (s->stamp[q] != tile) s->stamp[q] = tile, s->lanes[q] = 0, s->met[s->nmet++] = q;
    s->lanes[q] |= (uint8_t)(1u << l);
}

/* Every neighbour of particle a (pair_neighbours(pr, its body, a, q) for every q): a lattice body's nodes within
 * its reach of a's along every axis, a listed body's a and the particles adj joins it to; each met for lane l. */
static void neighbours_of(const hk_world *w, const hk_pairs *pr, int32_t a, nb_scratch *s, int64_t tile, int l)
{
    const int b = hk_body_of(w, a), r = pr->reach[b];
    if (r < 0) {
        meet(s, tile, a, l);
        for (int32_t e = pr->adj_start[a]; e < pr->adj_start[a + 1]; e++) meet(s, tile, pr->adj[e], l);
        return;
    }
    const hk_body *bd = &w->bodies[b];
    const int32_t *nd = pr->node + 3 * (int64_t)a;
    const int64_t plane = (int64_t)bd->nx * bd->ny, nz = (bd->count + plane - 1) / plane; /* pair_set.c's nodes */
    for (int64_t k = nd[2] - r; k <= nd[2] + r; k++)
        for (int64_t j = nd[1] - r; j <= nd[1] + r; j++)
            for (int64_t i = nd[0] - r; i <= nd[0] + r; i++) {
                if (i < 0 || i >= bd->nx || j < 0 || j >= bd->ny || k < 0 || k >= nz) continue;
                const int64_t l2 = i + bd->nx * j + plane * k;
                if (l2 < bd->count) meet(s, tile, (int32_t)(bd->first + l2), l);
            }
}

static int cmp_i32(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Room for n more entries in out (cap of them). */
static int entries_room(hk_pair_tile_nb *out, int64_t need, int64_t *cap)
{
    if (need <= *cap) return 0;
    const int64_t c = need > 2 * *cap ? need : 2 * *cap;
    int32_t *t = realloc(out->tile, (size_t)c * sizeof *t);
    if (t) out->tile = t;
    uint64_t *m = realloc(out->mask, (size_t)c * sizeof *m);
    if (m) out->mask = m;
    if (!t || !m) return -1;
    *cap = c;
    return 0;
}

int hk_pair_tile_nb_build(const hk_world *w, const hk_pairs *pr, const int32_t *qc, int qn, int64_t nq,
                          const int32_t *tc, int tn, int64_t nt, hk_pair_tile_nb *out)
{
    const int n = w->p.count;
    const int64_t qtiles = (nq + PAIR_TILE - 1) / PAIR_TILE, ttiles = (nt + PAIR_TILE - 1) / PAIR_TILE;
    int64_t *inc_start = calloc((size_t)n + 1, sizeof *inc_start), cap = 0;
    int32_t *inc = malloc((size_t)(tn * nt + 1) * sizeof *inc);
    nb_scratch s = {malloc((size_t)(n + 1) * sizeof *s.stamp),
                    malloc((size_t)n + 1),
                    malloc((size_t)(n + 1) * sizeof *s.met),
                    0,
                    calloc((size_t)ttiles + 1, sizeof *s.acc),
                    malloc((size_t)(ttiles + 1) * sizeof *s.touched),
                    0};
    out->start = malloc((size_t)(qtiles + 1) * sizeof *out->start);
    int rc = -1;
    if (!inc_start || !inc || !s.stamp || !s.lanes || !s.met || !s.acc || !s.touched || !out->start) goto done;
    for (int64_t t = 0; t < nt; t++) /* the targets of each particle, ascending */
        for (int c = 0; c < tn; c++) inc_start[tc[tn * t + c] + 1]++;
    for (int i = 0; i < n; i++) inc_start[i + 1] += inc_start[i];
    for (int64_t t = 0; t < nt; t++)
        for (int c = 0; c < tn; c++) inc[inc_start[tc[tn * t + c]]++] = (int32_t)t;
    for (int i = n; i > 0; i--) inc_start[i] = inc_start[i - 1];
    inc_start[0] = 0;
    for (int i = 0; i < n; i++) s.stamp[i] = -1;
    int64_t e = 0;
    for (int64_t q = 0; q < qtiles; q++) {
        out->start[q] = e;
        s.nmet = 0;
        for (int l = 0; l < PAIR_TILE && q * PAIR_TILE + l < nq; l++)
            for (int c = 0; c < qn; c++) {
                const int64_t p = q * PAIR_TILE + l;
                neighbours_of(w, pr, qc ? qc[qn * p + c] : (int32_t)p, &s, q, l);
            }
        s.ntouched = 0;
        for (int64_t k = 0; k < s.nmet; k++) {
            const int32_t x = s.met[k];
            uint64_t lanes = 0; /* bit PAIR_TILE l for each lane l it is a neighbour of */
            for (int l = 0; l < PAIR_TILE; l++) lanes |= (uint64_t)(s.lanes[x] >> l & 1) << (PAIR_TILE * l);
            for (int64_t f = inc_start[x]; f < inc_start[x + 1]; f++) {
                const int32_t tile = inc[f] / PAIR_TILE;
                if (!s.acc[tile]) s.touched[s.ntouched++] = tile;
                s.acc[tile] |= lanes << (inc[f] % PAIR_TILE);
            }
        }
        qsort(s.touched, (size_t)s.ntouched, sizeof *s.touched, cmp_i32);
        if (entries_room(out, e + s.ntouched + 1, &cap) != 0) goto done;
        for (int64_t k = 0; k < s.ntouched; k++) {
            out->tile[e] = s.touched[k], out->mask[e++] = s.acc[s.touched[k]];
            s.acc[s.touched[k]] = 0;
        }
    }
    out->start[qtiles] = e;
    rc = entries_room(out, 1, &cap);
done:
    free(inc_start), free(inc), free(s.stamp), free(s.lanes), free(s.met), free(s.acc), free(s.touched);
    return rc;
}

void hk_pair_tile_nb_free(hk_pair_tile_nb *nb)
{
    free(nb->start), free(nb->tile), free(nb->mask);
    *nb = (hk_pair_tile_nb){0};
}
