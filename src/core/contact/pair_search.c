/* pair_search.c — the search for the candidate pairs: each particle's triangles and each edge's edges, on the team. */
/* SPDX-License-Identifier: MIT */
#include "pair_search.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "team.h"

int hk_pairs_neighbours(const hk_world *w, const hk_pairs *pr, int b, int p, int q)
{
    (void)w;
    return pair_neighbours(pr, b, p, q);
}

int hk_pair_push(pair_buf *pb, int32_t kind, int32_t a, int32_t b, int32_t c, int32_t d, double dist)
{
    if (pb->n == pb->cap) {
        const int64_t cap = pb->cap ? 2 * pb->cap : 1024;
        hk_pair *p = realloc(pb->a, (size_t)cap * sizeof *p);
        if (p) pb->a = p;
        double *q = realloc(pb->d, (size_t)cap * sizeof *q);
        if (q) pb->d = q;
        if (!p || !q) return -1;
        pb->cap = cap;
    }
    pb->a[pb->n] = (hk_pair){kind, {a, b, c, d}};
    pb->d[pb->n++] = dist;
    return 0;
}

int hk_pair_cmp(const void *x, const void *y) { return hk_pair_order(x, y); }

/* A pair and its distance, for the sort of many. */
typedef struct pair_and_d {
    hk_pair p;
    double d;
} pair_and_d;
static int pair_and_d_cmp(const void *x, const void *y)
{
    return hk_pair_order(&((const pair_and_d *)x)->p, &((const pair_and_d *)y)->p);
}

/* A primitive's pairs found nearly in order (by tile, then primitive): a few as a rule, by insertion; many (a box of
 * absurd size) by qsort. The pairs are distinct, so the order is the same either way. */
int hk_pair_sort(hk_pair *a, double *d, int64_t n)
{
    if (n > 64) {
        pair_and_d *t = malloc((size_t)n * sizeof *t);
        if (!t) return PAIR_SEARCH_MEMORY;
        for (int64_t i = 0; i < n; i++) t[i] = (pair_and_d){a[i], d[i]};
        qsort(t, (size_t)n, sizeof *t, pair_and_d_cmp);
        for (int64_t i = 0; i < n; i++) a[i] = t[i].p, d[i] = t[i].d;
        free(t);
        return 0;
    }
    for (int64_t i = 1; i < n; i++) {
        const hk_pair x = a[i];
        const double y = d[i];
        int64_t j = i;
        for (; j > 0 && hk_pair_order(&a[j - 1], &x) > 0; j--) a[j] = a[j - 1], d[j] = d[j - 1];
        a[j] = x, d[j] = y;
    }
    return 0;
}

/* Room in out for the pairs of `count` buffers (out->n their number); 0 or PAIR_SEARCH_MEMORY. */
static int gather_room(pair_buf *out, const pair_buf *buf, int count)
{
    int64_t total = 0;
    for (int c = 0; c < count; c++) total += buf[c].n;
    if (out->cap < total + 1) {
        hk_pair *p = realloc(out->a, (size_t)(total + 1) * sizeof *p);
        if (p) out->a = p;
        double *q = realloc(out->d, (size_t)(total + 1) * sizeof *q);
        if (q) out->d = q;
        if (!p || !q) return PAIR_SEARCH_MEMORY;
        out->cap = total + 1;
    }
    out->n = total;
    return 0;
}

/* Buffers t, t + T, ... of `count` copied into their places in out (room made by gather_room). */
static void gather_part(pair_buf *out, const pair_buf *buf, int count, int t, int T)
{
    int64_t at = 0;
    for (int c = 0; c < count; c++) {
        if (c % T == t && buf[c].n) {
            memcpy(out->a + at, buf[c].a, (size_t)buf[c].n * sizeof *buf[c].a);
            memcpy(out->d + at, buf[c].d, (size_t)buf[c].n * sizeof *buf[c].d);
        }
        at += buf[c].n;
    }
}

int hk_pair_gather(pair_buf *out, const pair_buf *buf, int count)
{
    const int rc = gather_room(out, buf, count);
    if (rc == 0) gather_part(out, buf, count, 0, 1);
    return rc;
}

/* Whether contact def allows a pair between bodies b1 and b2. */
static int allowed(const hk_contact_def *d, int b1, int b2) { return b1 == b2 ? d->self : d->bodies; }

/* Whether the particles a (na of them) and b (nb) can come within the thickness while the candidates hold: each
 * particle stays within the distance rc of qc (moved by the common shift), and every point of a triangle or edge
 * within the largest of its corners' (hk_pairs_reach). d2: their squared distance at qc [m^2]. */
static int within_reach(const hk_pairs *pr, const int32_t *a, int na, const int32_t *b, int nb, double d2)
{
    const double reach = hk_pairs_reach(pr, pr->rc, a, na, b, nb);
    return d2 <= reach * reach;
}

/* The tiles of a set of primitives that hold a flagged one (a search for the flagged particles alone): their
 * boxes (of the flagged primitives alone), their indices among all the tiles, a grid over them, and the box of
 * them all (nothing outside it meets one). */
typedef struct flagged_tiles {
    pair_tiles t;
    int32_t *map;
    pair_grid g;
    pair_box all;
} flagged_tiles;

/* What the tasks of a search share: the boxes, their tiles and the tiles' grids, and per task its pairs
 * (vertex-triangle, then edge-edge). */
typedef struct search_pass {
    const hk_world *w;
    const hk_pairs *pr;
    const pair_box *vb, *tb, *eb;
    const pair_tiles *pt, *tt, *et; /* the tiles of the particles, the triangles and the edges */
    const pair_grid *gt, *ge;       /* grids over the triangles' and the edges' tiles */
    double *tl, *el;                /* the triangles' and the edges' boxes in lanes (tile_lanes, by the tasks) */
    const int32_t *body;
    const uint8_t *dirty;         /* per particle: 1 where its candidates are searched for (NULL: every particle's) */
    const uint8_t *tm, *em;       /* per tile of the triangles, of the edges: its flagged lanes (bit l: lane l) */
    const flagged_tiles *ft, *fe; /* the tiles of flagged triangles, of flagged edges */
    int chunks;                   /* the particles and the edges cut into this many ranges of whole tiles each */
    int64_t kept;                 /* the candidates that stay (counted against max_pairs) */
    pair_buf *all;                /* per range, its pairs: vertex-triangle, then edge-edge (from all + chunks) */
    pair_buf *out;                /* where they are gathered */
    atomic_int next;              /* the next range to take (all's index) */
    atomic_int failed;            /* 0, or a task's failure: PAIR_SEARCH_MEMORY or PAIR_SEARCH_TOO_MANY */
} search_pass;

/* A tile's boxes in lanes, structure of arrays: per tile 6 rows of PAIR_TILE (lo x, y, z, hi x, y, z), one lane
 * a primitive; a primitive past the last, or that takes no part, an empty box (lo +inf, hi -inf) that overlaps
 * none. NULL where out of memory. */
enum { LANE_ROWS = 6, LANE_TILE = LANE_ROWS * PAIR_TILE };
static double *lanes_new(const pair_tiles *t) { return malloc((size_t)(t->n * LANE_TILE + 1) * sizeof(double)); }
/* Tiles [k0, k1) of the lanes s of boxes b (n of them) in tiles t. */
static void tile_lanes(double *s, const pair_box *b, const pair_tiles *t, int64_t n, int64_t k0, int64_t k1)
{
    for (int64_t k = k0; k < k1; k++)
        for (int l = 0; l < PAIR_TILE; l++) {
            const int64_t e = k * PAIR_TILE + l;
            const int in = e < n && t->in[e];
            for (int c = 0; c < 3; c++) {
                s[k * LANE_TILE + c * PAIR_TILE + l] = in ? b[e].lo[c] : INFINITY;
                s[k * LANE_TILE + (3 + c) * PAIR_TILE + l] = in ? b[e].hi[c] : -INFINITY;
            }
        }
}

/* The lanes of a tile (s: its LANE_TILE values) whose boxes overlap box q (finite), as bits (lane l: bit l). */
static inline unsigned tile_hits(const double *s, const pair_box *q)
{
    unsigned bits = 0;
    for (int l = 0; l < PAIR_TILE; l += 2) bits |= pair_rows_overlap2(s + l, PAIR_TILE, q) << l;
    return bits;
}

/* The lanes of a tile of primitives [q0, q0 + PAIR_TILE) (of n) that take part, flagged ones (a particle of them
 * flagged; all where dirty is NULL) into *flagged and the others into *clean. */
static void tile_flags(const pair_tiles *t, int64_t q0, int64_t n, const uint8_t *dirty, const int32_t *corner,
                       int corners, unsigned *flagged, unsigned *clean)
{
    *flagged = *clean = 0;
    for (int64_t e = q0; e < n && e < q0 + PAIR_TILE; e++) {
        if (!t->in[e]) continue;
        int f = !dirty;
        for (int c = 0; !f && c < corners; c++) f = dirty[corner ? corner[corners * e + c] : e];
        *(f ? flagged : clean) |= 1u << (e - q0);
    }
}

/* The tiles of the flagged primitives (ft) whose boxes overlap box q, as indices among all the tiles, ascending,
 * into out; how many. */
static int64_t flagged_near(const flagged_tiles *ft, const pair_box *q, int32_t *out, uint8_t *seen)
{
    if (!ft || ft->t.n == 0 || !pair_box_overlap(q, &ft->all)) return 0;
    const int64_t m = hk_pair_tiles_near(&ft->g, &ft->t, q, 0, out, seen);
    for (int64_t k = 0; k < m; k++) out[k] = ft->map[out[k]]; /* the map ascends: so do they */
    return m;
}

/* Checked (in checking builds): of the lanes `hit` of a target tile from primitive t0 (tn corners each, tc), those
 * in nbl are the ones with a corner of the same body that is a neighbour of one of the query's qn corners q. */
static void check_lanes(const hk_pairs *pr, const int32_t *body, unsigned hit, unsigned nbl, int64_t t0,
                        const int32_t *tc, int tn, const int32_t *q, int qn)
{
    for (; HK_CHECKS && hit; hit &= hit - 1) {
        const int64_t t = t0 + __builtin_ctz(hit);
        int near = 0;
        for (int x = 0; x < qn; x++)
            for (int y = 0; y < tn; y++) {
                const int b = body[q[x]], c = tc[tn * t + y];
                near |= b == body[c] && pair_neighbours(pr, b, q[x], c);
            }
        HK_ASSERT(near == (int)(nbl >> __builtin_ctz(hit) & 1));
    }
}

/* The vertex-triangle candidates of particles [v0, v1) (v0 the first of a tile): each tile of them meets the
 * triangles' tiles whose boxes overlap its own (a flagged particle every triangle's, another the flagged
 * triangles' alone), then each of its particles those tiles' triangles whose boxes overlap its own, that are not
 * its topological neighbours (the tile's mask of them, pr->vt_nb) and that can come within the thickness while the
 * candidates hold (within_reach), into out; 0, or a failure once out holds more than max. near, dnear, seen: room
 * and flags for the triangles' tiles; nbm, dnbm: room for their masks. */
static int vt_pairs(const search_pass *sp, int v0, int v1, int64_t max, pair_buf *out, int32_t *near, int32_t *dnear,
                    uint8_t *seen, uint64_t *nbm, uint64_t *dnbm)
{
    const hk_pairs *pr = sp->pr;
    const pair_box *vb = sp->vb;
    const int32_t *body = sp->body;
    for (int q0 = v0; q0 < v1; q0 += PAIR_TILE) {
        unsigned flagged, clean;
        tile_flags(sp->pt, q0, v1, sp->dirty, NULL, 1, &flagged, &clean);
        const pair_box *qb = &sp->pt->box[q0 / PAIR_TILE];
        const int64_t nn = flagged ? hk_pair_tiles_near(sp->gt, sp->tt, qb, 0, near, seen) : 0;
        const int64_t dn = clean ? flagged_near(sp->ft, qb, dnear, seen) : 0;
        pair_tile_nb_masks(&pr->vt_nb, q0 / PAIR_TILE, near, nn, nbm);
        pair_tile_nb_masks(&pr->vt_nb, q0 / PAIR_TILE, dnear, dn, dnbm);
        for (int v = q0; v < v1 && v < q0 + PAIR_TILE; v++) {
            const int fl = (flagged >> (v - q0)) & 1;
            if (!fl && !((clean >> (v - q0)) & 1 && dn > 0)) continue; /* it takes no part, or meets no flagged */
            const int64_t first = out->n, m = fl ? nn : dn;
            const int32_t *tiles = fl ? near : dnear;
            const uint64_t *nb = fl ? nbm : dnbm;
            for (int64_t k = 0; k < m; k++) {
                if (!pair_box_overlap(&vb[v], &sp->tt->box[tiles[k]])) continue; /* it misses the whole tile */
                const int64_t t0 = (int64_t)tiles[k] * PAIR_TILE;
                unsigned hit = tile_hits(sp->tl + tiles[k] * (int64_t)LANE_TILE, &vb[v]);
                if (!fl) hit &= sp->tm[tiles[k]]; /* an unflagged particle: the flagged triangles alone */
                const unsigned nbl = pair_tile_nb_lanes(nb[k], v - q0); /* its neighbours: never a pair */
                check_lanes(pr, body, hit, nbl, t0, pr->tri, 3, &v, 1);
                for (hit &= ~nbl; hit; hit &= hit - 1) {
                    const int64_t t = t0 + __builtin_ctz(hit); /* the triangles whose boxes overlap, ascending */
                    const int32_t *c = pr->tri + 3 * t, tb_ = pr->tri_body[t];
                    if (!allowed(&pr->def, body[v], tb_)) continue;
                    const hk_pair pa = {HK_PAIR_VT, {v, c[0], c[1], c[2]}};
                    const double d2 = hk_pairs_gap2_at(pr->qc, &pa);
                    if (!within_reach(pr, &v, 1, c, 3, d2)) continue;
                    if (hk_pair_push(out, HK_PAIR_VT, v, c[0], c[1], c[2], sqrt(d2)) != 0) return PAIR_SEARCH_MEMORY;
                }
            }
            if (out->n > max) return PAIR_SEARCH_TOO_MANY;
            if (out->n > first && hk_pair_sort(out->a + first, out->d + first, out->n - first) != 0)
                return PAIR_SEARCH_MEMORY;
        }
    }
    return 0;
}

/* The edge-edge candidates of edges [e0, e1) (e0 the first of a tile), found as vt_pairs finds a particle's (the
 * masks pr->ee_nb), each pair once (the lower edge first: a tile meets only itself and the tiles above it; an
 * unflagged edge the flagged edges alone), into out; 0, or a failure once out holds more than max. near, dnear,
 * seen, nbm, dnbm: room and flags for the edges' tiles and their masks. */
static int ee_pairs(const search_pass *sp, int64_t e0, int64_t e1_end, int64_t max, pair_buf *out, int32_t *near,
                    int32_t *dnear, uint8_t *seen, uint64_t *nbm, uint64_t *dnbm)
{
    const hk_pairs *pr = sp->pr;
    const pair_box *eb = sp->eb;
    for (int64_t q0 = e0; q0 < e1_end; q0 += PAIR_TILE) {
        unsigned flagged, clean;
        tile_flags(sp->et, q0, e1_end, sp->dirty, pr->edge, 2, &flagged, &clean);
        const pair_box *qb = &sp->et->box[q0 / PAIR_TILE];
        /* the tiles below its own left out: their edges' pairs are found from theirs */
        const int32_t own = (int32_t)(q0 / PAIR_TILE), *dup = dnear;
        const int64_t nn = flagged ? hk_pair_tiles_near(sp->ge, sp->et, qb, own, near, seen) : 0;
        int64_t dn = clean ? flagged_near(sp->fe, qb, dnear, seen) : 0;
        for (; dn > 0 && *dup < own; dn--) dup++; /* (they ascend) */
        pair_tile_nb_masks(&pr->ee_nb, own, near, nn, nbm);
        pair_tile_nb_masks(&pr->ee_nb, own, dup, dn, dnbm);
        for (int64_t e1 = q0; e1 < e1_end && e1 < q0 + PAIR_TILE; e1++) {
            const int fl = (flagged >> (e1 - q0)) & 1;
            if (!fl && !((clean >> (e1 - q0)) & 1 && dn > 0)) continue;
            const int64_t first = out->n, m = fl ? nn : dn;
            const int32_t *tiles = fl ? near : dup;
            const uint64_t *nb = fl ? nbm : dnbm;
            const int32_t *a = pr->edge + 2 * e1, b1 = pr->edge_body[e1];
            for (int64_t k = 0; k < m; k++) {
                const int64_t t0 = (int64_t)tiles[k] * PAIR_TILE;
                if (!pair_box_overlap(&eb[e1], &sp->et->box[tiles[k]])) continue; /* it misses the whole tile */
                unsigned hit = tile_hits(sp->el + tiles[k] * (int64_t)LANE_TILE, &eb[e1]);
                if (t0 <= e1) hit &= ~((2u << (e1 - t0)) - 1); /* its own tile: the edges above it */
                if (!fl) hit &= sp->em[tiles[k]];              /* an unflagged edge: the flagged edges alone */
                const unsigned nbl = pair_tile_nb_lanes(nb[k], (int)(e1 - q0)); /* its neighbours: never a pair */
                check_lanes(pr, sp->body, hit, nbl, t0, pr->edge, 2, a, 2);
                for (hit &= ~nbl; hit; hit &= hit - 1) {
                    const int64_t e2 = t0 + __builtin_ctz(hit);
                    const int32_t *c = pr->edge + 2 * e2, b2 = pr->edge_body[e2];
                    if (!allowed(&pr->def, b1, b2)) continue;
                    const hk_pair pa = {HK_PAIR_EE, {a[0], a[1], c[0], c[1]}};
                    const double d2 = hk_pairs_gap2_at(pr->qc, &pa);
                    if (!within_reach(pr, a, 2, c, 2, d2)) continue;
                    if (hk_pair_push(out, HK_PAIR_EE, a[0], a[1], c[0], c[1], sqrt(d2)) != 0) return PAIR_SEARCH_MEMORY;
                }
            }
            if (out->n > max) return PAIR_SEARCH_TOO_MANY;
            if (out->n > first && hk_pair_sort(out->a + first, out->d + first, out->n - first) != 0)
                return PAIR_SEARCH_MEMORY;
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

/* A task's share of the tiles' lanes; then the ranges of the particles and of the edges, each task taking the next
 * range not yet taken (a search of the flagged particles alone finds them bunched in a few ranges; each range's
 * pairs go to its own buffer, so which task takes it changes nothing), stopping once its own finds pass max; then,
 * where no task failed and all of them stay within max_pairs, every T-th range's pairs copied into out. */
static void search_task(const hk_team *tm, void *ctx)
{
    search_pass *sp = ctx;
    const int64_t max = sp->pr->def.max_pairs - sp->kept;
    int64_t found = 0, a, len;
    /* the lanes of the triangles' and the edges' tiles, each task its share */
    tile_lanes(sp->tl, sp->tb, sp->tt, sp->pr->ntri, sp->tt->n * tm->t / tm->T, sp->tt->n * (tm->t + 1) / tm->T);
    tile_lanes(sp->el, sp->eb, sp->et, sp->pr->nedge, sp->et->n * tm->t / tm->T, sp->et->n * (tm->t + 1) / tm->T);
    hk_team_barrier(tm);
    const int64_t tiles = (sp->tt->n > sp->et->n ? sp->tt->n : sp->et->n) + 1;
    int32_t *near = malloc((size_t)tiles * sizeof *near), *dnear = malloc((size_t)tiles * sizeof *dnear);
    uint8_t *seen = calloc((size_t)tiles, 1);
    uint64_t *nbm = malloc((size_t)tiles * sizeof *nbm), *dnbm = malloc((size_t)tiles * sizeof *dnbm);
    int rc = near && dnear && seen && nbm && dnbm ? 0 : PAIR_SEARCH_MEMORY;
    for (int k; rc == 0 && (k = atomic_fetch_add_explicit(&sp->next, 1, memory_order_relaxed)) < 2 * sp->chunks;) {
        const int c = k % sp->chunks, vt = k < sp->chunks; /* the particles' ranges, then the edges' */
        chunk_range(vt ? sp->w->p.count : sp->pr->nedge, sp->chunks, c, &a, &len);
        rc = vt ? vt_pairs(sp, (int)a, (int)(a + len), max - found, &sp->all[k], near, dnear, seen, nbm, dnbm)
                : ee_pairs(sp, a, a + len, max - found, &sp->all[k], near, dnear, seen, nbm, dnbm);
        found += sp->all[k].n;
    }
    free(near), free(dnear), free(seen), free(nbm), free(dnbm);
    int none = 0;
    if (rc != 0) atomic_compare_exchange_strong(&sp->failed, &none, rc);
    hk_team_barrier(tm); /* then every range's pairs into out, in range order: the room on task 0, the copies shared */
    if (tm->t == 0 && atomic_load(&sp->failed) == 0) {
        int64_t total = sp->kept;
        for (int c = 0; c < 2 * sp->chunks; c++) total += sp->all[c].n;
        none = 0;
        rc = total > sp->pr->def.max_pairs ? PAIR_SEARCH_TOO_MANY : gather_room(sp->out, sp->all, 2 * sp->chunks);
        if (rc != 0) atomic_compare_exchange_strong(&sp->failed, &none, rc);
    }
    hk_team_barrier(tm);
    if (atomic_load(&sp->failed) == 0) gather_part(sp->out, sp->all, 2 * sp->chunks, tm->t, tm->T);
}

/* What searching a particle's triangles and its edges' edges costs, in passes over a pair (a few tens of box tests
 * against one evaluation): the search goes on the team from hk_pairs_parallel_min / SEARCH_WEIGHT particles. */
#define SEARCH_WEIGHT 16
/* Ranges of the particles and of the edges per task of a search. */
#define SEARCH_CHUNKS 8

/* Per tile of primitives b[0 .. n) (each of `corners` particles, corner: theirs), the lanes of the flagged ones
 * (tm), and the tiles that hold one: their boxes (of those alone), indices and grid (queried with the boxes q[0 ..
 * nq)); 0 or -1 (out of memory: free it all the same). */
static int flag_tiles(const pair_tiles *t, const pair_box *b, int64_t n, const int32_t *corner, int corners,
                      const uint8_t *dirty, uint8_t *tm, flagged_tiles *ft, const pair_box *q, int64_t nq)
{
    ft->t.box = malloc((size_t)(t->n + 1) * sizeof *ft->t.box);
    ft->t.in = malloc((size_t)(t->n * PAIR_TILE + 1));
    ft->map = malloc((size_t)(t->n + 1) * sizeof *ft->map);
    if (!ft->t.box || !ft->t.in || !ft->map) return -1;
    for (int c = 0; c < 3; c++) ft->all.lo[c] = INFINITY, ft->all.hi[c] = -INFINITY;
    ft->t.n = 0;
    for (int64_t k = 0; k < t->n; k++) {
        unsigned flagged, clean;
        tile_flags(t, k * PAIR_TILE, n, dirty, corner, corners, &flagged, &clean);
        tm[k] = (uint8_t)flagged;
        if (!flagged) continue;
        pair_box *fb = &ft->t.box[ft->t.n];
        for (int c = 0; c < 3; c++) fb->lo[c] = INFINITY, fb->hi[c] = -INFINITY;
        for (int l = 0; l < PAIR_TILE; l++)
            if (flagged >> l & 1)
                for (int c = 0; c < 3; c++) {
                    const pair_box *e = &b[k * PAIR_TILE + l];
                    fb->lo[c] = g_min(fb->lo[c], e->lo[c]), fb->hi[c] = g_max(fb->hi[c], e->hi[c]);
                }
        for (int c = 0; c < 3; c++)
            ft->all.lo[c] = g_min(ft->all.lo[c], fb->lo[c]), ft->all.hi[c] = g_max(ft->all.hi[c], fb->hi[c]);
        ft->map[ft->t.n++] = (int32_t)k;
    }
    memset(ft->t.in, 1, (size_t)(ft->t.n * PAIR_TILE + 1));
    return ft->t.n ? hk_pair_grid_build(&ft->g, ft->t.box, ft->t.n, q, nq) : 0;
}

static void flagged_free(flagged_tiles *ft)
{
    hk_pair_tiles_free(&ft->t);
    hk_pair_grid_free(&ft->g);
    free(ft->map);
}

int hk_pair_search(hk_world *w, const hk_pairs *pr, const pair_box *vb, const pair_box *tb, const pair_box *eb,
                   const int32_t *body, const uint8_t *dirty, int64_t kept, pair_buf *out)
{
    const int n = w->p.count;
    const int T = hk_pairs_team(w, SEARCH_WEIGHT * (int64_t)n), C = T > 1 ? SEARCH_CHUNKS * T : 1;
    pair_tiles tiles[3] = {{0}}; /* of the particles, the triangles, the edges */
    pair_grid gt = {0}, ge = {0};
    flagged_tiles ft = {0}, fe = {0};
    uint8_t *tm = NULL, *em = NULL;
    double *tl = NULL, *el = NULL;
    search_pass sp = {0};
    int rc = PAIR_SEARCH_MEMORY;
    if (hk_pair_tiles_build(&tiles[0], vb, n) != 0 || hk_pair_tiles_build(&tiles[1], tb, pr->ntri) != 0 ||
        hk_pair_tiles_build(&tiles[2], eb, pr->nedge) != 0 ||
        hk_pair_grid_build(&gt, tiles[1].box, tiles[1].n, tiles[0].box, tiles[0].n) != 0 ||
        hk_pair_grid_build(&ge, tiles[2].box, tiles[2].n, tiles[2].box, tiles[2].n) != 0)
        goto done;
    if (dirty) {
        tm = malloc((size_t)tiles[1].n + 1), em = malloc((size_t)tiles[2].n + 1);
        if (!tm || !em ||
            flag_tiles(&tiles[1], tb, pr->ntri, pr->tri, 3, dirty, tm, &ft, tiles[0].box, tiles[0].n) != 0 ||
            flag_tiles(&tiles[2], eb, pr->nedge, pr->edge, 2, dirty, em, &fe, tiles[2].box, tiles[2].n) != 0)
            goto done;
    }
    tl = lanes_new(&tiles[1]), el = lanes_new(&tiles[2]);
    sp = (search_pass){.w = w,
                       .pr = pr,
                       .vb = vb,
                       .tb = tb,
                       .eb = eb,
                       .pt = &tiles[0],
                       .tt = &tiles[1],
                       .et = &tiles[2],
                       .gt = &gt,
                       .ge = &ge,
                       .tl = tl,
                       .el = el,
                       .body = body,
                       .dirty = dirty,
                       .tm = tm,
                       .em = em,
                       .ft = dirty ? &ft : NULL,
                       .fe = dirty ? &fe : NULL,
                       .chunks = C,
                       .kept = kept,
                       .out = out};
    sp.all = calloc(2 * (size_t)C, sizeof(pair_buf));
    if (!sp.all || !tl || !el) goto done;
    hk_team_run(w, T, search_task, &sp);
    rc = atomic_load(&sp.failed);
done:
    for (int c = 0; sp.all && c < 2 * C; c++) free(sp.all[c].a), free(sp.all[c].d);
    free(sp.all), free(tl), free(el), free(tm), free(em);
    flagged_free(&ft), flagged_free(&fe);
    hk_pair_grid_free(&gt), hk_pair_grid_free(&ge);
    for (int k = 0; k < 3; k++) hk_pair_tiles_free(&tiles[k]);
    return rc;
}
