/* pair_search.c — the search for the candidate pairs: each particle's triangles and each edge's edges, on the team. */
/* SPDX-License-Identifier: MIT */
#include "pair_search.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "team.h"

int hk_pairs_neighbours(const hk_world *w, const hk_pairs *pr, int b, int p, int q)
{
    if (p == q) return 1;
    const hk_body *bd = &w->bodies[b];
    (void)bd;
    if (pr->reach[b] >= 0) { /* a lattice: within the reach along every axis (the nodes' (i, j, k), kept) */
        const int32_t *a = pr->node + 3 * (int64_t)p, *c = pr->node + 3 * (int64_t)q;
        for (int k = 0; k < 3; k++)
            if (a[k] - c[k] > pr->reach[b] || c[k] - a[k] > pr->reach[b]) return 0;
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

int hk_pair_push(pair_buf *pb, int32_t kind, int32_t a, int32_t b, int32_t c, int32_t d)
{
    if (pb->n == pb->cap) {
        const int64_t cap = pb->cap ? 2 * pb->cap : 1024;
        hk_pair *p = realloc(pb->a, (size_t)cap * sizeof *p);
        if (!p) return -1;
        pb->a = p;
        pb->cap = cap;
    }
    pb->a[pb->n++] = (hk_pair){kind, {a, b, c, d}};
    return 0;
}

int hk_pair_cmp(const void *x, const void *y) { return hk_pair_order(x, y); }

/* Whether contact def allows a pair between bodies b1 and b2. */
static int allowed(const hk_contact_def *d, int b1, int b2) { return b1 == b2 ? d->self : d->bodies; }

/* Whether the particles a (na of them) and b (nb) can come within the thickness while the candidates hold: each
 * particle stays within the distance rb of qb, and every point of a triangle or edge within the largest of its
 * corners' (hk_pairs_reach). d2: their squared distance at qb [m^2]. */
static int within_reach(const hk_pairs *pr, const int32_t *a, int na, const int32_t *b, int nb, double d2)
{
    const double reach = hk_pairs_reach(pr, pr->rb, a, na, b, nb);
    return d2 <= reach * reach;
}

/* What the tasks of a search share: the boxes, their tiles and the tiles' grids, and per task its pairs
 * (vertex-triangle, then edge-edge). */
typedef struct search_pass {
    const hk_world *w;
    const hk_pairs *pr;
    const pair_box *vb, *tb, *eb;
    const pair_tiles *pt, *tt, *et; /* the tiles of the particles, the triangles and the edges */
    const pair_grid *gt, *ge;       /* grids over the triangles' and the edges' tiles */
    const int32_t *body;
    int chunks;        /* the particles and the edges cut into this many ranges of whole tiles each */
    pair_buf *vt, *ee; /* per range, its pairs (vertex-triangle, edge-edge) */
    atomic_int failed; /* 0, or a task's failure: PAIR_SEARCH_MEMORY or PAIR_SEARCH_TOO_MANY */
} search_pass;

/* The vertex-triangle candidates of particles [v0, v1) (v0 the first of a tile): each tile of them meets the
 * triangles' tiles whose boxes overlap its own, then each of its particles those tiles' triangles whose boxes
 * overlap its own and that can come within the thickness while the candidates hold (within_reach), into out; 0,
 * or a failure once out holds more than max. near, seen: room and flags for the triangles' tiles. */
static int vt_pairs(const search_pass *sp, int v0, int v1, int64_t max, pair_buf *out, int32_t *near, uint8_t *seen)
{
    const hk_world *w = sp->w;
    const hk_pairs *pr = sp->pr;
    const pair_box *vb = sp->vb, *tb = sp->tb;
    const int32_t *body = sp->body;
    for (int q0 = v0; q0 < v1; q0 += PAIR_TILE) {
        const int64_t nn = hk_pair_tiles_near(sp->gt, sp->tt, &sp->pt->box[q0 / PAIR_TILE], near, seen);
        for (int v = q0; v < v1 && v < q0 + PAIR_TILE; v++) {
            if (!sp->pt->in[v]) continue; /* it takes no part */
            const int64_t first = out->n;
            for (int64_t k = 0; k < nn; k++) {
                const int64_t t0 = (int64_t)near[k] * PAIR_TILE, t1 = t0 + PAIR_TILE;
                for (int64_t t = t0; t < t1 && t < pr->ntri; t++) {
                    const int32_t *c = pr->tri + 3 * t, tb_ = pr->tri_body[t];
                    if (!sp->tt->in[t] || !allowed(&pr->def, body[v], tb_) || !pair_box_overlap(&vb[v], &tb[t]))
                        continue;
                    if (body[v] == tb_ &&
                        (hk_pairs_neighbours(w, pr, tb_, v, c[0]) || hk_pairs_neighbours(w, pr, tb_, v, c[1]) ||
                         hk_pairs_neighbours(w, pr, tb_, v, c[2])))
                        continue;
                    if (!within_reach(pr, &v, 1, c, 3, pair_vt_gap2(pr, v, c))) continue;
                    if (hk_pair_push(out, HK_PAIR_VT, v, c[0], c[1], c[2]) != 0) return PAIR_SEARCH_MEMORY;
                }
            }
            if (out->n > max) return PAIR_SEARCH_TOO_MANY;
            if (out->n > first) qsort(out->a + first, (size_t)(out->n - first), sizeof *out->a, hk_pair_cmp);
        }
    }
    return 0;
}

/* The edge-edge candidates of edges [e0, e1) (e0 the first of a tile), found as vt_pairs finds a particle's, each
 * pair once (the lower edge first: a tile meets only itself and the tiles above it), into out; 0, or a failure
 * once out holds more than max. near, seen: room and flags for the edges' tiles. */
static int ee_pairs(const search_pass *sp, int64_t e0, int64_t e1_end, int64_t max, pair_buf *out, int32_t *near,
                    uint8_t *seen)
{
    const hk_world *w = sp->w;
    const hk_pairs *pr = sp->pr;
    const pair_box *eb = sp->eb;
    for (int64_t q0 = e0; q0 < e1_end; q0 += PAIR_TILE) {
        const int64_t nn = hk_pair_tiles_near(sp->ge, sp->et, &sp->et->box[q0 / PAIR_TILE], near, seen);
        for (int64_t e1 = q0; e1 < e1_end && e1 < q0 + PAIR_TILE; e1++) {
            if (!sp->et->in[e1]) continue;
            const int64_t first = out->n;
            const int32_t *a = pr->edge + 2 * e1, b1 = pr->edge_body[e1];
            for (int64_t k = 0; k < nn; k++) {
                const int64_t t0 = (int64_t)near[k] * PAIR_TILE, t1 = t0 + PAIR_TILE;
                if (t0 < q0) continue; /* a tile below: its edges' pairs are found from theirs */
                for (int64_t e2 = t0 > e1 ? t0 : e1 + 1; e2 < t1 && e2 < pr->nedge; e2++) {
                    const int32_t *c = pr->edge + 2 * e2, b2 = pr->edge_body[e2];
                    if (!sp->et->in[e2] || !allowed(&pr->def, b1, b2) || !pair_box_overlap(&eb[e1], &eb[e2])) continue;
                    if (b1 == b2 &&
                        (hk_pairs_neighbours(w, pr, b1, a[0], c[0]) || hk_pairs_neighbours(w, pr, b1, a[0], c[1]) ||
                         hk_pairs_neighbours(w, pr, b1, a[1], c[0]) || hk_pairs_neighbours(w, pr, b1, a[1], c[1])))
                        continue;
                    if (!within_reach(pr, a, 2, c, 2, pair_ee_gap2(pr, a, c))) continue;
                    if (hk_pair_push(out, HK_PAIR_EE, a[0], a[1], c[0], c[1]) != 0) return PAIR_SEARCH_MEMORY;
                }
            }
            if (out->n > max) return PAIR_SEARCH_TOO_MANY;
            if (out->n > first) qsort(out->a + first, (size_t)(out->n - first), sizeof *out->a, hk_pair_cmp);
        }
    }
    return 0;
}

/* The c-th of `chunks` ranges of [0, n) in whole tiles: [*a, *a + *len). */
static void chunk_range(int64_t n, int chunks, int c, int64_t *a, int64_t *len)
{
    const int64_t tiles = (n + PAIR_TILE - 1) / PAIR_TILE;
    const int64_t b = tiles * c / chunks * PAIR_TILE, e = tiles * (c + 1) / chunks * PAIR_TILE;
    *a = b < n ? b : n;
    *len = (e < n ? e : n) - *a;
}

/* A task's ranges of the particles and of the edges: every T-th, from its own (a body's crowded parts, which take
 * longest, fall to every task alike). It stops once its own finds pass max_pairs. */
static void search_task(const hk_team *tm, void *ctx)
{
    search_pass *sp = ctx;
    const int64_t max = sp->pr->def.max_pairs;
    int64_t found = 0, a, len;
    const int64_t tiles = (sp->tt->n > sp->et->n ? sp->tt->n : sp->et->n) + 1;
    int32_t *near = malloc((size_t)tiles * sizeof *near);
    uint8_t *seen = calloc((size_t)tiles, 1);
    int rc = near && seen ? 0 : PAIR_SEARCH_MEMORY;
    for (int c = tm->t; rc == 0 && c < sp->chunks; c += tm->T) {
        chunk_range(sp->w->p.count, sp->chunks, c, &a, &len);
        rc = vt_pairs(sp, (int)a, (int)(a + len), max - found, &sp->vt[c], near, seen);
        found += sp->vt[c].n;
    }
    for (int c = tm->t; rc == 0 && c < sp->chunks; c += tm->T) {
        chunk_range(sp->pr->nedge, sp->chunks, c, &a, &len);
        rc = ee_pairs(sp, a, a + len, max - found, &sp->ee[c], near, seen);
        found += sp->ee[c].n;
    }
    free(near), free(seen);
    int none = 0;
    if (rc != 0) atomic_compare_exchange_strong(&sp->failed, &none, rc);
}

/* What searching a particle's triangles and its edges' edges costs, in passes over a pair (a few tens of box tests
 * against one evaluation): the search goes on the team from hk_pairs_parallel_min / SEARCH_WEIGHT particles. */
#define SEARCH_WEIGHT 16
/* Ranges of the particles and of the edges per task of a search. */
#define SEARCH_CHUNKS 8

/* The candidates into pr->pair: every range's vertex-triangle pairs in range order, then their edge-edge pairs, the
 * order one task would have found them in. 0, PAIR_SEARCH_MEMORY or PAIR_SEARCH_TOO_MANY. */
int hk_pair_search(hk_world *w, hk_pairs *pr, const pair_box *vb, const pair_box *tb, const pair_box *eb,
                   const pair_tiles *tiles, const pair_grid *gt, const pair_grid *ge, const int32_t *body)
{
    const int T = hk_pairs_team(w, SEARCH_WEIGHT * (int64_t)w->p.count), C = T > 1 ? SEARCH_CHUNKS * T : 1;
    search_pass sp = {w, pr, vb, tb, eb, &tiles[0], &tiles[1], &tiles[2], gt, ge, body, C, NULL, NULL, 0};
    sp.vt = calloc((size_t)C, sizeof(pair_buf)), sp.ee = calloc((size_t)C, sizeof(pair_buf));
    int rc = PAIR_SEARCH_MEMORY;
    if (!sp.vt || !sp.ee) goto done;
    hk_team_run(w, T, search_task, &sp);
    if (atomic_load(&sp.failed)) {
        rc = atomic_load(&sp.failed);
        goto done;
    }
    int64_t total = 0;
    for (int c = 0; c < C; c++) total += sp.vt[c].n + sp.ee[c].n;
    if (total > pr->def.max_pairs) {
        rc = PAIR_SEARCH_TOO_MANY;
        goto done;
    }
    if (pr->cappair < total + 1) {
        hk_pair *p = realloc(pr->pair, (size_t)(total + 1) * sizeof *p);
        if (!p) goto done;
        pr->pair = p, pr->cappair = total + 1;
    }
    pr->npair = 0;
    for (int kind = 0; kind < 2; kind++)
        for (int c = 0; c < C; c++) {
            const pair_buf *b = kind == 0 ? &sp.vt[c] : &sp.ee[c];
            if (b->n) memcpy(pr->pair + pr->npair, b->a, (size_t)b->n * sizeof *b->a);
            pr->npair += b->n;
        }
    rc = 0;
done:
    for (int c = 0; sp.vt && sp.ee && c < C; c++) free(sp.vt[c].a), free(sp.ee[c].a);
    free(sp.vt), free(sp.ee);
    return rc;
}
