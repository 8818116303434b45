/* particle_pairs.c — the particle model of contact: every particle a sphere, its candidate pairs and its limit. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pair_grid.h"
#include "pair_search.h"
#include "pairs.h"
#include "team.h"

/*
 * The particle model's pairs are two particles each (pairs.h, HK_PAIR_PP),
 * found through the spatial hash of the triangle model's broad phase
 * (pair_grid.c) over the tiles of the particles' boxes alone: each
 * particle's box is its place when the candidates are found, widened by
 * how far it may move while they hold and by half the contact distance,
 * so two boxes meet wherever the two spheres can. A tile meets itself and
 * the tiles above it, each pair found once from its lower particle; the
 * pairs of a particle are sorted, the ranges taken in order, so the list
 * is the same for any team. Topological neighbours (a lattice body's
 * particles within its stencils' reach of each other, a listed body's
 * particles a spring joins) are left out: they touch at rest.
 */

/* What the tasks of a search share. */
typedef struct particle_pass {
    const hk_world *w;
    const hk_pairs *pr;
    const pair_box *vb;
    const pair_tiles *pt;
    const pair_grid *g;
    const int32_t *body;
    int chunks;
    pair_buf *out;     /* per range of the particles, its pairs */
    atomic_int failed; /* 0, or a task's failure: PAIR_SEARCH_MEMORY or PAIR_SEARCH_TOO_MANY */
} particle_pass;

/* The pairs of particles [v0, v1) (v0 the first of a tile) with the particles above them, into out; 0, or a
 * failure once out holds more than max. near, seen: room and flags for the tiles. */
static int pp_pairs(const particle_pass *sp, int v0, int v1, int64_t max, pair_buf *out, int32_t *near, uint8_t *seen)
{
    const hk_world *w = sp->w;
    const hk_pairs *pr = sp->pr;
    const pair_box *vb = sp->vb;
    const int32_t *body = sp->body;
    const int n = w->p.count;
    for (int q0 = v0; q0 < v1; q0 += PAIR_TILE) {
        const int64_t nn = hk_pair_tiles_near(sp->g, sp->pt, &sp->pt->box[q0 / PAIR_TILE], q0 / PAIR_TILE, near, seen);
        for (int a = q0; a < v1 && a < q0 + PAIR_TILE; a++) {
            if (!sp->pt->in[a]) continue; /* it takes no part */
            const int64_t first = out->n;
            for (int64_t k = 0; k < nn; k++) {
                const int t0 = near[k] * PAIR_TILE, t1 = t0 + PAIR_TILE;
                for (int b = t0 > a ? t0 : a + 1; b < t1 && b < n; b++) {
                    const int same = body[a] == body[b];
                    if (!sp->pt->in[b] || !(same ? pr->def.self : pr->def.bodies) || !pair_box_overlap(&vb[a], &vb[b]))
                        continue;
                    if (same && hk_pairs_neighbours(w, pr, body[a], a, b)) continue;
                    const double reach = hk_pairs_reach(pr, pr->rc, &a, 1, &b, 1);
                    const double d2 = g_dist2(pr->qc + 3 * (int64_t)a, pr->qc + 3 * (int64_t)b);
                    if (d2 > reach * reach) continue;
                    if (hk_pair_push(out, HK_PAIR_PP, a, b, b, b, sqrt(d2)) != 0) return PAIR_SEARCH_MEMORY;
                }
            }
            if (out->n > max) return PAIR_SEARCH_TOO_MANY;
            if (out->n > first && hk_pair_sort(out->a + first, out->d + first, out->n - first) != 0)
                return PAIR_SEARCH_MEMORY;
        }
    }
    return 0;
}

/* A task's ranges of the particles (every T-th, from its own, in whole tiles); it stops once its own finds pass
 * max_pairs. */
static void search_task(const hk_team *tm, void *ctx)
{
    particle_pass *sp = ctx;
    const int64_t max = sp->pr->def.max_pairs, n = sp->w->p.count, tiles = sp->pt->n;
    int64_t found = 0;
    int32_t *near = malloc((size_t)(tiles + 1) * sizeof *near);
    uint8_t *seen = calloc((size_t)tiles + 1, 1);
    int rc = near && seen ? 0 : PAIR_SEARCH_MEMORY;
    for (int c = tm->t; rc == 0 && c < sp->chunks; c += tm->T) {
        const int64_t b = tiles * c / sp->chunks * PAIR_TILE, e = tiles * (c + 1) / sp->chunks * PAIR_TILE;
        rc = pp_pairs(sp, (int)(b < n ? b : n), (int)(e < n ? e : n), max - found, &sp->out[c], near, seen);
        found += sp->out[c].n;
    }
    free(near), free(seen);
    int none = 0;
    if (rc != 0) atomic_compare_exchange_strong(&sp->failed, &none, rc);
}

/* What a particle's search costs, in passes over a pair: the search goes on the team from hk_pairs_parallel_min /
 * SEARCH_WEIGHT particles, in SEARCH_CHUNKS ranges per task. */
#define SEARCH_WEIGHT 8
#define SEARCH_CHUNKS 8

int hk_particle_search(hk_world *w, const hk_pairs *pr, const pair_box *vb, const int32_t *body, pair_buf *out)
{
    const int n = w->p.count;
    const int T = hk_pairs_team(w, SEARCH_WEIGHT * (int64_t)n), C = T > 1 ? SEARCH_CHUNKS * T : 1;
    pair_tiles pt = {0};
    pair_grid g = {0};
    particle_pass sp = {w, pr, vb, &pt, &g, body, C, NULL, 0};
    int rc = PAIR_SEARCH_MEMORY;
    sp.out = calloc((size_t)C, sizeof *sp.out);
    if (!sp.out || hk_pair_tiles_build(&pt, vb, n) != 0 || hk_pair_grid_build(&g, pt.box, pt.n, pt.box, pt.n) != 0)
        goto done;
    hk_team_run(w, T, search_task, &sp);
    if ((rc = atomic_load(&sp.failed)) != 0) goto done;
    int64_t total = 0;
    for (int c = 0; c < C; c++) total += sp.out[c].n;
    rc = PAIR_SEARCH_TOO_MANY;
    if (total > pr->def.max_pairs) goto done;
    rc = hk_pair_gather(out, sp.out, C);
done:
    for (int c = 0; sp.out && c < C; c++) free(sp.out[c].a), free(sp.out[c].d);
    free(sp.out);
    hk_pair_grid_free(&g);
    hk_pair_tiles_free(&pt);
    return rc;
}

double hk_particle_radius_limit(const hk_world *w, double rest)
{
    int reach = -1; /* the smallest body's: a lattice's largest stencil step (1 at least), 1 for another body */
    for (int b = 0; b < w->body_count; b++) {
        int r = 1;
        for (int fi = 0; w->bodies[b].lattice && fi < w->family_count; fi++) {
            const hk_family *f = &w->families[fi];
            if (f->kind != HK_FAMILY_LATTICE || f->body != b) continue;
            const int s = abs(f->di) > abs(f->dj) ? abs(f->di) : abs(f->dj), t = s > abs(f->dk) ? s : abs(f->dk);
            r = r > t ? r : t;
        }
        reach = reach < 0 || r < reach ? r : reach;
    }
    return rest * (reach < 0 ? 1 : reach);
}
