/* pair_search.c — the search for the candidate pairs: each particle's triangles and each edge's edges, on the team. */
/* SPDX-License-Identifier: MIT */
#include "pair_search.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "team.h"

int hk_pairs_neighbours(const hk_world *w, const hk_pairs *pr, int b, int p, int q)
{
    (void)w;
    return pair_neighbours(pr, b, p, q);
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

/* A primitive's pairs a[0 .. n) into their one order (hk_pair_order): found nearly in order (by tile, then
 * primitive), a few as a rule, by insertion; many (a box of absurd size) by qsort. The pairs are distinct, so the
 * order is the same either way. */
static void sort_pairs(hk_pair *a, int64_t n)
{
    if (n > 64) {
        qsort(a, (size_t)n, sizeof *a, hk_pair_cmp);
        return;
    }
    for (int64_t i = 1; i < n; i++) {
        const hk_pair x = a[i];
        int64_t j = i;
        for (; j > 0 && hk_pair_order(&a[j - 1], &x) > 0; j--) a[j] = a[j - 1];
        a[j] = x;
    }
}

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
    const double *tl, *el;          /* the triangles' and the edges' boxes in lanes (tile_lanes) */
    const int32_t *body;
    int chunks;        /* the particles and the edges cut into this many ranges of whole tiles each */
    pair_buf *vt, *ee; /* per range, its pairs (vertex-triangle, edge-edge) */
    atomic_int failed; /* 0, or a task's failure: PAIR_SEARCH_MEMORY or PAIR_SEARCH_TOO_MANY */
} search_pass;

/* A tile's boxes in lanes, structure of arrays: per tile 6 rows of PAIR_TILE (lo x, y, z, hi x, y, z), one lane
 * a primitive; a primitive past the last, or that takes no part, an empty box (lo +inf, hi -inf) that overlaps
 * none. NULL where out of memory. */
enum { LANE_ROWS = 6, LANE_TILE = LANE_ROWS * PAIR_TILE };
static double *tile_lanes(const pair_box *b, const pair_tiles *t, int64_t n)
{
    double *s = malloc((size_t)(t->n * LANE_TILE + 1) * sizeof *s);
    for (int64_t k = 0; s && k < t->n; k++)
        for (int l = 0; l < PAIR_TILE; l++) {
            const int64_t e = k * PAIR_TILE + l;
            const int in = e < n && t->in[e];
            for (int c = 0; c < 3; c++) {
                s[k * LANE_TILE + c * PAIR_TILE + l] = in ? b[e].lo[c] : INFINITY;
                s[k * LANE_TILE + (3 + c) * PAIR_TILE + l] = in ? b[e].hi[c] : -INFINITY;
            }
        }
    return s;
}

/* The lanes of a tile (s: its LANE_TILE values) whose boxes overlap box q (finite), as bits (lane l: bit l): the
 * test of pair_box_overlap in every lane at once, two lanes a vector (SSE2, every x86-64), else lane by lane. */
static inline unsigned tile_hits(const double *s, const pair_box *q)
{
    unsigned bits = 0;
#ifdef __SSE2__
    const __m128d lo0 = _mm_set1_pd(q->lo[0]), lo1 = _mm_set1_pd(q->lo[1]), lo2 = _mm_set1_pd(q->lo[2]);
    const __m128d hi0 = _mm_set1_pd(q->hi[0]), hi1 = _mm_set1_pd(q->hi[1]), hi2 = _mm_set1_pd(q->hi[2]);
    for (int l = 0; l < PAIR_TILE; l += 2) {
        __m128d m =
            _mm_and_pd(_mm_cmple_pd(_mm_loadu_pd(s + l), hi0), _mm_cmple_pd(_mm_loadu_pd(s + PAIR_TILE + l), hi1));
        m = _mm_and_pd(m, _mm_cmple_pd(_mm_loadu_pd(s + 2 * PAIR_TILE + l), hi2));
        m = _mm_and_pd(m, _mm_cmple_pd(lo0, _mm_loadu_pd(s + 3 * PAIR_TILE + l)));
        m = _mm_and_pd(m, _mm_cmple_pd(lo1, _mm_loadu_pd(s + 4 * PAIR_TILE + l)));
        m = _mm_and_pd(m, _mm_cmple_pd(lo2, _mm_loadu_pd(s + 5 * PAIR_TILE + l)));
        bits |= (unsigned)_mm_movemask_pd(m) << l;
    }
#else
    for (int l = 0; l < PAIR_TILE; l++)
        bits |= (unsigned)((s[l] <= q->hi[0]) & (s[PAIR_TILE + l] <= q->hi[1]) & (s[2 * PAIR_TILE + l] <= q->hi[2]) &
                           (q->lo[0] <= s[3 * PAIR_TILE + l]) & (q->lo[1] <= s[4 * PAIR_TILE + l]) &
                           (q->lo[2] <= s[5 * PAIR_TILE + l]))
                << l;
#endif
    return bits;
}

/* The vertex-triangle candidates of particles [v0, v1) (v0 the first of a tile): each tile of them meets the
 * triangles' tiles whose boxes overlap its own, then each of its particles those tiles' triangles whose boxes
 * overlap its own and that can come within the thickness while the candidates hold (within_reach), into out; 0,
 * or a failure once out holds more than max. near, seen: room and flags for the triangles' tiles. */
static int vt_pairs(const search_pass *sp, int v0, int v1, int64_t max, pair_buf *out, int32_t *near, uint8_t *seen)
{
    const hk_pairs *pr = sp->pr;
    const pair_box *vb = sp->vb;
    const int32_t *body = sp->body;
    for (int q0 = v0; q0 < v1; q0 += PAIR_TILE) {
        const int64_t nn = hk_pair_tiles_near(sp->gt, sp->tt, &sp->pt->box[q0 / PAIR_TILE], near, seen);
        for (int v = q0; v < v1 && v < q0 + PAIR_TILE; v++) {
            if (!sp->pt->in[v]) continue; /* it takes no part */
            const int64_t first = out->n;
            for (int64_t k = 0; k < nn; k++) {
                const int64_t t0 = (int64_t)near[k] * PAIR_TILE;
                for (unsigned hit = tile_hits(sp->tl + near[k] * (int64_t)LANE_TILE, &vb[v]); hit; hit &= hit - 1) {
                    const int64_t t = t0 + __builtin_ctz(hit); /* the triangles whose boxes overlap, ascending */
                    const int32_t *c = pr->tri + 3 * t, tb_ = pr->tri_body[t];
                    if (!allowed(&pr->def, body[v], tb_)) continue;
                    if (body[v] == tb_ && (pair_neighbours(pr, tb_, v, c[0]) || pair_neighbours(pr, tb_, v, c[1]) ||
                                           pair_neighbours(pr, tb_, v, c[2])))
                        continue;
                    if (!within_reach(pr, &v, 1, c, 3, pair_vt_gap2(pr, v, c))) continue;
                    if (hk_pair_push(out, HK_PAIR_VT, v, c[0], c[1], c[2]) != 0) return PAIR_SEARCH_MEMORY;
                }
            }
            if (out->n > max) return PAIR_SEARCH_TOO_MANY;
            if (out->n > first) sort_pairs(out->a + first, out->n - first); /* out->a is NULL while empty */
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
    const hk_pairs *pr = sp->pr;
    const pair_box *eb = sp->eb;
    for (int64_t q0 = e0; q0 < e1_end; q0 += PAIR_TILE) {
        const int64_t nn = hk_pair_tiles_near(sp->ge, sp->et, &sp->et->box[q0 / PAIR_TILE], near, seen);
        for (int64_t e1 = q0; e1 < e1_end && e1 < q0 + PAIR_TILE; e1++) {
            if (!sp->et->in[e1]) continue;
            const int64_t first = out->n;
            const int32_t *a = pr->edge + 2 * e1, b1 = pr->edge_body[e1];
            for (int64_t k = 0; k < nn; k++) {
                const int64_t t0 = (int64_t)near[k] * PAIR_TILE;
                if (t0 < q0) continue; /* a tile below: its edges' pairs are found from theirs */
                unsigned hit = tile_hits(sp->el + near[k] * (int64_t)LANE_TILE, &eb[e1]);
                if (t0 <= e1) hit &= ~((2u << (e1 - t0)) - 1); /* its own tile: the edges above it */
                for (; hit; hit &= hit - 1) {
                    const int64_t e2 = t0 + __builtin_ctz(hit);
                    const int32_t *c = pr->edge + 2 * e2, b2 = pr->edge_body[e2];
                    if (!allowed(&pr->def, b1, b2)) continue;
                    if (b1 == b2 && (pair_neighbours(pr, b1, a[0], c[0]) || pair_neighbours(pr, b1, a[0], c[1]) ||
                                     pair_neighbours(pr, b1, a[1], c[0]) || pair_neighbours(pr, b1, a[1], c[1])))
                        continue;
                    if (!within_reach(pr, a, 2, c, 2, pair_ee_gap2(pr, a, c))) continue;
                    if (hk_pair_push(out, HK_PAIR_EE, a[0], a[1], c[0], c[1]) != 0) return PAIR_SEARCH_MEMORY;
                }
            }
            if (out->n > max) return PAIR_SEARCH_TOO_MANY;
            if (out->n > first) sort_pairs(out->a + first, out->n - first); /* out->a is NULL while empty */
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
    double *tl = tile_lanes(tb, &tiles[1], pr->ntri), *el = tile_lanes(eb, &tiles[2], pr->nedge);
    search_pass sp = {w, pr, vb, tb, eb, &tiles[0], &tiles[1], &tiles[2], gt, ge, tl, el, body, C, NULL, NULL, 0};
    sp.vt = calloc((size_t)C, sizeof(pair_buf)), sp.ee = calloc((size_t)C, sizeof(pair_buf));
    int rc = PAIR_SEARCH_MEMORY;
    if (!sp.vt || !sp.ee || !tl || !el) goto done;
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
    free(sp.vt), free(sp.ee), free(tl), free(el);
    return rc;
}
