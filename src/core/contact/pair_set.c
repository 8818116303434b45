/* pair_set.c — the bodies' surfaces for contact, their neighbours, the step's candidate pairs and its pairs. */
/* SPDX-License-Identifier: MIT */
#include "pairs.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "faces.h"
#include "geometry.h"
#include "pair_check.h"
#include "pair_grid.h"
#include "pair_neighbours.h"
#include "pair_search.h"
#include "springs.h"
#include "team.h"

void hk_pairs_free(hk_pairs *pr)
{
    if (!pr) return;
    free(pr->tri);
    free(pr->tri_body);
    free(pr->edge);
    free(pr->edge_body);
    free(pr->reach);
    free(pr->adj_start);
    free(pr->adj);
    free(pr->node);
    hk_pair_tile_nb_free(&pr->vt_nb), hk_pair_tile_nb_free(&pr->ee_nb);
    free(pr->pair);
    free(pr->cand);
    free(pr->cd);
    hk_pair_evals_free(&pr->ev);
    free(pr->cand2), free(pr->cd2), free(pr->fa), free(pr->fd);
    free(pr->qc), free(pr->rc), free(pr->mc), free(pr->skc), free(pr->fc), free(pr->dirty);
    free(pr->lb), free(pr->xr), free(pr->mj), free(pr->far), free(pr->xv), free(pr->chunk), free(pr->acc),
        free(pr->lbf);
    free(pr->sel), free(pr->sg), free(pr->sel2), free(pr->sg2), free(pr->sel_n), free(pr->sel_d);
    free(pr->inv);
    free(pr->past);
    free(pr->place);
    free(pr->hit);
    free(pr->path);
    free(pr->pm);
    free(pr->u_start);
    free(pr->held);
    free(pr->parent);
    free(pr->zone);
    free(pr->at);
    free(pr->on);
    free(pr->share);
    free(pr->hist);
    free(pr->touch);
    free(pr->kd);
    free(pr->on_start);
    free(pr->on_slot);
    free(pr->slot_a);
    free(pr->tf);
    free(pr->x0);
    free(pr->xs);
    free(pr->u);
    free(pr->q0);
    free(pr->qm);
    free(pr->b);
    free(pr->qb);
    free(pr->rb);
    free(pr->mv);
    free(pr->qs);
    free(pr->bs);
    free(pr->ms);
    free(pr->moved);
    free(pr->atc);
    free(pr->qa);
    free(pr->dq);
    free(pr->pcand);
    free(pr->anc);
    free(pr->pan);
    free(pr->anch);
    free(pr->anch_next);
    hk_particle_lists_free(pr->pl);
    free(pr);
}

/* ---- the surfaces -------------------------------------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The unique edges of the triangles tri[0 .. n) of one body, sorted. */
static int64_t body_edges(const int32_t *tri, int64_t n, int32_t *edge)
{
    int64_t *key = malloc((size_t)(3 * n + 1) * sizeof *key);
    if (!key) return -1;
    for (int64_t t = 0; t < n; t++)
        for (int e = 0; e < 3; e++) {
            const int64_t a = tri[3 * t + e], b = tri[3 * t + (e + 1) % 3];
            key[3 * t + e] = a < b ? a << 32 | b : b << 32 | a;
        }
    qsort(key, (size_t)(3 * n), sizeof *key, cmp_i64);
    int64_t m = 0;
    for (int64_t i = 0; i < 3 * n; i++)
        if (i == 0 || key[i] != key[i - 1]) {
            edge[2 * m] = (int32_t)(key[i] >> 32);
            edge[2 * m + 1] = (int32_t)(key[i] & 0xffffffff);
            m++;
        }
    free(key);
    return m;
}

typedef struct adj_ctx {
    int32_t *count, *fill, *start, *adj;
} adj_ctx;

static void count_spring(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *vctx)
{
    (void)f, (void)slot, (void)L0;
    adj_ctx *c = vctx;
    c->count[a]++;
    c->count[b]++;
}

static void fill_spring(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *vctx)
{
    (void)f, (void)slot, (void)L0;
    adj_ctx *c = vctx;
    c->adj[c->start[a] + c->fill[a]++] = (int32_t)b;
    c->adj[c->start[b] + c->fill[b]++] = (int32_t)a;
}

static int cmp_i32(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The neighbours of every particle of a listed body (its list springs, which join every triangle's corners of a
 * mesh: its edges are springs), sorted; lattice bodies are judged by their reach. */
static int adjacency(const hk_world *w, hk_pairs *pr)
{
    const int n = w->p.count;
    int32_t *count = calloc((size_t)n + 1, sizeof *count), *fill = calloc((size_t)n + 1, sizeof *fill);
    pr->adj_start = calloc((size_t)n + 1, sizeof *pr->adj_start);
    if (!count || !fill || !pr->adj_start) {
        free(count);
        free(fill);
        return -1;
    }
    adj_ctx c = {count, fill, pr->adj_start, NULL};
    for (int fi = 0; fi < w->family_count; fi++)
        if (w->families[fi].kind == HK_FAMILY_LIST) hk_springs_visit(&w->families[fi], count_spring, &c);
    for (int i = 0; i < n; i++) pr->adj_start[i + 1] = pr->adj_start[i] + count[i];
    pr->adj = malloc((size_t)pr->adj_start[n] * sizeof *pr->adj + 1);
    c.adj = pr->adj;
    if (pr->adj)
        for (int fi = 0; fi < w->family_count; fi++)
            if (w->families[fi].kind == HK_FAMILY_LIST) hk_springs_visit(&w->families[fi], fill_spring, &c);
    free(count);
    free(fill);
    if (!pr->adj) return -1;
    for (int i = 0; i < n; i++)
        qsort(pr->adj + pr->adj_start[i], (size_t)(pr->adj_start[i + 1] - pr->adj_start[i]), sizeof *pr->adj, cmp_i32);
    return 0;
}

/* Each lattice body's reach: the largest step of its stencils along any axis (1 at least: a triangle's corners). */
static void reaches(const hk_world *w, hk_pairs *pr)
{
    for (int b = 0; b < w->body_count; b++) pr->reach[b] = w->bodies[b].lattice ? 1 : -1;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind != HK_FAMILY_LATTICE || !w->bodies[f->body].lattice) continue;
        const int r = abs(f->di) > abs(f->dj) ? abs(f->di) : abs(f->dj);
        const int s = r > abs(f->dk) ? r : abs(f->dk);
        if (s > pr->reach[f->body]) pr->reach[f->body] = s;
    }
}

/* (Re)builds the surfaces, edges and neighbours when bodies, families or broken springs changed. */
static int surfaces(hk_world *w, hk_pairs *pr)
{
    int64_t broken = 0;
    for (int fi = 0; fi < w->family_count; fi++) broken += w->families[fi].broken_count;
    if (pr->tri && pr->built_bodies == w->body_count && pr->built_families == w->family_count &&
        pr->built_broken == broken)
        return 0;
    free(pr->tri), free(pr->tri_body), free(pr->edge), free(pr->edge_body), free(pr->reach);
    free(pr->adj_start), free(pr->adj), free(pr->node);
    pr->adj_start = pr->adj = pr->node = NULL;
    hk_pair_tile_nb_free(&pr->vt_nb), hk_pair_tile_nb_free(&pr->ee_nb);
    int64_t cap = 0;
    for (int b = 0; b < w->body_count; b++) cap += hk_body_face_capacity(w, b);
    pr->tri = malloc((size_t)(3 * cap + 1) * sizeof *pr->tri);
    pr->tri_body = malloc((size_t)(cap + 1) * sizeof *pr->tri_body);
    pr->edge = malloc((size_t)(6 * cap + 1) * sizeof *pr->edge);
    pr->edge_body = malloc((size_t)(3 * cap + 1) * sizeof *pr->edge_body);
    pr->reach = malloc((size_t)(w->body_count + 1) * sizeof *pr->reach);
    if (!pr->tri || !pr->tri_body || !pr->edge || !pr->edge_body || !pr->reach) return -1;
    pr->ntri = pr->nedge = 0;
    for (int b = 0; b < w->body_count; b++) {
        const int64_t n = pr->def.model == HK_CONTACT_PARTICLES ? 0 : hk_body_faces(w, b, pr->tri + 3 * pr->ntri);
        const int64_t m = body_edges(pr->tri + 3 * pr->ntri, n, pr->edge + 2 * pr->nedge);
        if (m < 0) return -1;
        for (int64_t t = 0; t < n; t++) pr->tri_body[pr->ntri + t] = b;
        for (int64_t e = 0; e < m; e++) pr->edge_body[pr->nedge + e] = b;
        pr->ntri += n;
        pr->nedge += m;
    }
    reaches(w, pr);
    if (adjacency(w, pr) != 0) return -1;
    pr->node = malloc((3 * (size_t)w->p.count + 1) * sizeof *pr->node);
    if (!pr->node) return -1;
    for (int b = 0; b < w->body_count; b++) { /* each lattice node's (i, j, k) */
        const hk_body *bd = &w->bodies[b];
        for (int64_t l = 0; bd->lattice && l < bd->count; l++) {
            int32_t *nd = pr->node + 3 * (bd->first + l);
            nd[0] = (int32_t)(l % bd->nx), nd[1] = (int32_t)(l / bd->nx % bd->ny);
            nd[2] = (int32_t)(l / ((int64_t)bd->nx * bd->ny));
        }
    }
    if (pr->def.model == HK_CONTACT_TRIANGLES &&
        (hk_pair_tile_nb_build(w, pr, NULL, 1, w->p.count, pr->tri, 3, pr->ntri, &pr->vt_nb) != 0 ||
         hk_pair_tile_nb_build(w, pr, pr->edge, 2, pr->nedge, pr->edge, 2, pr->nedge, &pr->ee_nb) != 0))
        return -1;
    pr->built_bodies = w->body_count;
    pr->built_families = w->family_count;
    pr->built_broken = broken;
    pr->surfaces_changed = 1;
    return 0;
}

int hk_pairs_takes_part(const hk_contact_def *d, const hk_world *w, int b)
{
    if (d->model == HK_CONTACT_PARTICLES) return d->bodies || d->self; /* every particle a sphere */
    return d->bodies || (d->self && hk_body_has_faces(w, b));
}

/* ---- the broad phase ----------------------------------------------------------------------------------------- */

/* The body of every particle. */
static int32_t *body_of_each(const hk_world *w)
{
    int32_t *body = malloc((size_t)(w->p.count + 1) * sizeof *body);
    if (!body) return NULL;
    for (int b = 0; b < w->body_count; b++)
        for (int i = 0; i < w->bodies[b].count; i++) body[w->bodies[b].first + i] = b;
    return body;
}

/* The box of particles idx[0 .. n) at their candidates' places qc, each widened by its reach rc (and pad). */
static void box_of(const hk_pairs *pr, const int32_t *idx, int n, double pad, pair_box *out)
{
    for (int c = 0; c < 3; c++) out->lo[c] = INFINITY, out->hi[c] = -INFINITY;
    for (int k = 0; k < n; k++) {
        const double *x = pr->qc + 3 * (int64_t)idx[k], r = pr->rc[idx[k]] + pad;
        for (int c = 0; c < 3; c++) out->lo[c] = g_min(out->lo[c], x[c] - r), out->hi[c] = g_max(out->hi[c], x[c] + r);
    }
}

/* The box of particles idx[0 .. n) from their own boxes pb (box_of's of each, with the same pad): the same bounds
 * as box_of gives them, each particle's made once. */
static void box_of_boxes(const pair_box *pb, const int32_t *idx, int n, pair_box *out)
{
    for (int c = 0; c < 3; c++) out->lo[c] = INFINITY, out->hi[c] = -INFINITY;
    for (int k = 0; k < n; k++) {
        const pair_box *b = &pb[idx[k]];
        for (int c = 0; c < 3; c++) out->lo[c] = g_min(out->lo[c], b->lo[c]), out->hi[c] = g_max(out->hi[c], b->hi[c]);
    }
}

/* Pairs [a, e)'s corners' places among the pairs' particles. */
static void at_range(void *ctx, int64_t a, int64_t e)
{
    hk_pairs *pr = ctx;
    for (int64_t k = a; k < e; k++)
        for (int c = 0; c < 4; c++) pr->at[4 * k + c] = pr->place[pr->pair[k].p[c]];
}

/* The pairs' particles (inv, ascending), each pair corner's place among them (at), and the room of the per-pair
 * and per-particle arrays the step's evaluations fill; 0 or -1. */
static int corners(const hk_world *w, hk_pairs *pr)
{
    const int n = w->p.count;
    const int64_t np = pr->npair;
    pr->non = 0;
    pr->lb_set = 0; /* new pairs: their bounds are set by the next evaluation */
    if (hk_pairs_room(&pr->place, &pr->cap_place, n + 1, sizeof *pr->place) != 0 ||
        hk_pairs_room(&pr->at, &pr->cap_at, 4 * np + 1, sizeof *pr->at) != 0 ||
        hk_pairs_room(&pr->on, &pr->cap_on, np + 1, sizeof *pr->on) != 0 || hk_pair_evals_room(&pr->ev, np + 1) != 0)
        return -1;
    for (int i = 0; i < n; i++) pr->place[i] = -1;
    for (int64_t k = 0; k < np; k++)
        for (int c = 0; c < 4; c++) pr->place[pr->pair[k].p[c]] = 0;
    int m = 0;
    for (int i = 0; i < n; i++) m += pr->place[i] == 0;
    if (hk_pairs_room(&pr->inv, &pr->cap_inv, m + 1, sizeof *pr->inv) != 0 ||
        hk_pairs_room(&pr->on_start, &pr->cap_on_start, m + 2, sizeof *pr->on_start) != 0 ||
        hk_pairs_room(&pr->xs, &pr->cap_xs, 3 * (int64_t)m + 1, sizeof *pr->xs) != 0 ||
        hk_pairs_room(&pr->past, &pr->cap_past, (int64_t)m + 1, sizeof *pr->past) != 0 ||
        hk_pairs_room(&pr->x0, &pr->cap_x0, 3 * (int64_t)m + 1, sizeof *pr->x0) != 0 ||
        hk_pairs_room(&pr->u, &pr->cap_u, 3 * (int64_t)m + 1, sizeof *pr->u) != 0)
        return -1;
    pr->ninv = 0;
    for (int i = 0; i < n; i++)
        if (pr->place[i] == 0) pr->inv[pr->ninv] = i, pr->place[i] = pr->ninv++;
    hk_team_for(w, hk_pairs_team(w, np), np, at_range, pr);
    return 0;
}

/* The particles' places at the step's start (q0), their balls over it (centre qm, radius b), and whether the frame
 * qb holds for it: every particle's ball from its place then (qb, rb) holds its step's ball; whether the step's pairs
 * hold for it likewise (qs, bs: pairs_hold); and the particles whose candidates are found again (dirty; how many is
 * returned in *flagged): where its step's ball leaves its candidates' ball (qc + sc, rc). The ball's centre is the
 * middle of the path the velocity v at the start foretells, q0 + v dt / 2; the step's path, q0 + s dt v1 for s in
 * [0, 1], keeps within |v| dt / 2 + |v1 - v| dt of it, so the radius 0.75 |v| dt + 1.25 |g| dt^2 holds a particle
 * that stops, turns by up to 46 degrees, speeds up by a quarter or falls at 1.25 g: in flight, 0.6 of the radius a
 * ball about q0 needs for the same motion, 1.25 (|v| dt + |g| dt^2), and the candidates in it a third as many. */
static int starts(const hk_world *w, hk_pairs *pr, int *flagged)
{
    const hk_particles *p = &w->p;
    const hk_vec3 g = w->def.gravity;
    const double dt = pr->dt, gg = sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
    const double floor = 0.001 * pr->th; /* below this the springs' own pull moves a resting particle */
    int hold = pr->builds > 0, fit = pr->pairs_hold;
    double sum[3] = {0, 0, 0}, sumc[3] = {0, 0, 0}, count = 0; /* the common shifts: the mean motion since */
    for (int b = 0; b < w->body_count; b++)
        if (hk_pairs_takes_part(&pr->def, w, b))
            for (int i = w->bodies[b].first; i < w->bodies[b].first + w->bodies[b].count; i++, count++) {
                double *x = pr->q0 + 3 * (int64_t)i, *m = pr->qm + 3 * (int64_t)i;
                hk_particle_position(w, &w->bodies[b], i, x);
                const double hv = p->inv_mass[i] == 0 ? 0 : 0.5 * dt;
                m[0] = x[0] + hv * p->vx[i], m[1] = x[1] + hv * p->vy[i], m[2] = x[2] + hv * p->vz[i];
                for (int c = 0; c < 3; c++) {
                    sum[c] += m[c] - pr->qb[3 * (int64_t)i + c];
                    sumc[c] += m[c] - pr->qc[3 * (int64_t)i + c];
                }
            }
    for (int c = 0; c < 3; c++) {
        pr->shift[c] = hold && count > 0 ? sum[c] / count : 0;
        pr->sc[c] = !pr->cand_all && count > 0 ? sumc[c] / count : 0;
    }
    *flagged = 0;
    for (int b = 0; b < w->body_count; b++)
        if (hk_pairs_takes_part(&pr->def, w, b))
            for (int i = w->bodies[b].first; i < w->bodies[b].first + w->bodies[b].count; i++) {
                const double *x = pr->qm + 3 * (int64_t)i;
                const double v =
                    sqrt((double)p->vx[i] * p->vx[i] + (double)p->vy[i] * p->vy[i] + (double)p->vz[i] * p->vz[i]);
                pr->b[i] = p->inv_mass[i] == 0 ? 0 : g_max(0.75 * v * dt + 1.25 * gg * dt * dt, floor);
                pr->mv[i] = hk_pairs_from_found(pr, i, x) + pr->b[i];
                hold &= pr->mv[i] <= pr->rb[i];
                fit = fit && hk_root_plus_within(g_dist2(x, pr->qs + 3 * (int64_t)i), pr->b[i], pr->bs[i]);
                pr->mc[i] = hk_pairs_from_cand(pr, i, x) + pr->b[i];
                pr->dirty[i] = (uint8_t)(pr->cand_all || !(pr->mc[i] <= pr->rc[i]));
                *flagged += pr->dirty[i];
            }
    pr->pairs_hold = fit;
    return hold;
}

/* Where more than one particle in REFRESH_ALL that takes part has left its ball, the candidates of every particle
 * are found again (a search of some particles meets every tile of the others; of most, it costs more than all). */
#define REFRESH_ALL 4

/* The skin particle i's candidates leave it beyond its step's bound as they are found again, from how long its last
 * ones served: a quarter of the thickness at first; half the last, down to an eighth, where they served one step or
 * none (a particle in motion: its skin made the search meet more boxes and bought no step), twice it, up to the
 * thickness, where they served four or more. Which pairs act does not depend on it, only when searches happen. */
static double next_skin_of(const hk_world *w, const hk_pairs *pr, int i)
{
    const double th = pr->th, last = pr->skc[i], life = (double)(w->steps - pr->fc[i]);
    if (!(last > 0)) return 0.25 * th;
    return life <= 1 ? g_max(0.125 * th, 0.5 * last) : life >= 4 ? g_min(th, 2 * last) : last;
}

/* The candidates kept as a search for the flagged particles adds its own (found): those none of whose particles is
 * flagged, merged with the new in their one order. 0 or -1 (out of memory). */
static int merge(hk_pairs *pr, const pair_buf *found)
{
    const int64_t need = pr->ncand + found->n + 1;
    if (pr->cap_cand2 < need) {
        hk_pair *c = realloc(pr->cand2, (size_t)need * sizeof *c);
        if (!c) return -1;
        pr->cand2 = c, pr->cap_cand2 = need;
    }
    if (hk_pairs_room(&pr->cd2, &pr->cap_cd2, need, sizeof *pr->cd2) != 0 ||
        hk_pairs_room(&pr->sel2, &pr->cap_sel2, need, sizeof *pr->sel2) != 0 ||
        hk_pairs_room(&pr->sg2, &pr->cap_sg2, need, sizeof *pr->sg2) != 0)
        return -1;
    int64_t m = 0, j = 0;
    for (int64_t k = 0; k <= pr->ncand; k++) {
        const hk_pair *pa = k < pr->ncand ? &pr->cand[k] : NULL;
        if (pa && (pr->dirty[pa->p[0]] | pr->dirty[pa->p[1]] | pr->dirty[pa->p[2]] | pr->dirty[pa->p[3]])) continue;
        for (; j < found->n && (!pa || hk_pair_order(&found->a[j], pa) < 0); j++) /* the new before it */
            pr->cand2[m] = found->a[j], pr->cd2[m] = found->d[j], pr->sel2[m++] = 2;
        if (pa) {
            HK_ASSERT(j == found->n || hk_pair_order(&found->a[j], pa) > 0); /* found again: it was flagged */
            pr->cand2[m] = *pa, pr->cd2[m] = pr->cd[k], pr->sel2[m] = pr->sel[k], pr->sg2[m++] = pr->sg[k];
        }
    }
    hk_pair *t = pr->cand;
    double *d = pr->cd, *g = pr->sg;
    uint8_t *e = pr->sel;
    const int64_t ct = pr->capcand, dt = pr->cap_cd, gt = pr->cap_sg, et = pr->cap_sel;
    pr->cand = pr->cand2, pr->capcand = pr->cap_cand2, pr->cd = pr->cd2, pr->cap_cd = pr->cap_cd2;
    pr->sel = pr->sel2, pr->cap_sel = pr->cap_sel2, pr->sg = pr->sg2, pr->cap_sg = pr->cap_sg2;
    pr->cand2 = t, pr->cap_cand2 = ct, pr->cd2 = d, pr->cap_cd2 = dt;
    pr->sel2 = e, pr->cap_sel2 = et, pr->sg2 = g, pr->cap_sg2 = gt;
    pr->ncand = m;
    return 0;
}

/* Every candidate not yet judged (a search of every particle replaced them); 0 or -1 (out of memory). */
static int unjudged(hk_pairs *pr)
{
    if (hk_pairs_room(&pr->sel, &pr->cap_sel, pr->ncand + 1, sizeof *pr->sel) != 0 ||
        hk_pairs_room(&pr->sg, &pr->cap_sg, pr->ncand + 1, sizeof *pr->sg) != 0)
        return -1;
    memset(pr->sel, 2, (size_t)pr->ncand);
    return 0;
}

/* What the tasks of a search's boxes share. */
typedef struct boxes_pass {
    const hk_world *w;
    const hk_pairs *pr;
    int32_t *body;
    pair_box *vb, *tb, *eb, *p0, *ph;
} boxes_pass;

/* A task's share of the particles' boxes (vb; p0 and ph, each particle's box for its triangles' and its edges',
 * but in the particle model), then, after every task's, of the triangles' and the edges' (from p0, ph). */
static void boxes_task(const hk_team *tm, void *ctx)
{
    const boxes_pass *bp = ctx;
    const hk_pairs *pr = bp->pr;
    const int n = bp->w->p.count, spheres = pr->def.model == HK_CONTACT_PARTICLES;
    const double th = pr->th;
    for (int32_t v = (int32_t)((int64_t)n * tm->t / tm->T); v < (int64_t)n * (tm->t + 1) / tm->T; v++) {
        if (hk_pairs_takes_part(&pr->def, bp->w, bp->body[v])) /* two spheres meet within th: half of it each */
            box_of(pr, &v, 1, spheres ? 0.5 * th : th, &bp->vb[v]);
        else /* a particle of a body that takes no part: an empty box */
            for (int c = 0; c < 3; c++) bp->vb[v].lo[c] = INFINITY, bp->vb[v].hi[c] = -INFINITY;
        if (!spheres) box_of(pr, &v, 1, 0, &bp->p0[v]), box_of(pr, &v, 1, 0.5 * th, &bp->ph[v]);
    }
    if (spheres) return;
    hk_team_barrier(tm);
    for (int64_t t = pr->ntri * tm->t / tm->T; t < pr->ntri * (tm->t + 1) / tm->T; t++)
        box_of_boxes(bp->p0, pr->tri + 3 * t, 3, &bp->tb[t]);
    for (int64_t e = pr->nedge * tm->t / tm->T; e < pr->nedge * (tm->t + 1) / tm->T; e++)
        box_of_boxes(bp->ph, pr->edge + 2 * e, 2, &bp->eb[e]);
}

int hk_pairs_find(hk_world *w, const hk_pairs *pr, const uint8_t *dirty, int64_t kept, pair_buf *out)
{
    const int n = w->p.count;
    boxes_pass bp = {w,
                     pr,
                     body_of_each(w),
                     malloc((size_t)(n + 1) * sizeof(pair_box)),
                     malloc((size_t)(pr->ntri + 1) * sizeof(pair_box)),
                     malloc((size_t)(pr->nedge + 1) * sizeof(pair_box)),
                     malloc((size_t)(n + 1) * sizeof(pair_box)),
                     malloc((size_t)(n + 1) * sizeof(pair_box))};
    int rc = PAIR_SEARCH_MEMORY;
    if (bp.body && bp.vb && bp.tb && bp.eb && bp.p0 && bp.ph) {
        hk_team_run(w, hk_pairs_team(w, (int64_t)n), boxes_task, &bp);
        rc = pr->def.model == HK_CONTACT_PARTICLES
                 ? hk_particle_search(w, pr, bp.vb, bp.body, out)
                 : hk_pair_search(w, pr, bp.vb, bp.tb, bp.eb, bp.body, dirty, kept, out);
    }
    free(bp.body), free(bp.vb), free(bp.tb), free(bp.eb), free(bp.p0), free(bp.ph);
    return rc;
}

int hk_pairs_validate_candidates(hk_world *w, const hk_pairs *pr, char *why, size_t len)
{
    pair_buf all = {0};
    const int rc = hk_pairs_find(w, pr, NULL, 0, &all);
    int64_t k = 0;
    for (; rc == 0 && k < pr->ncand && k < all.n; k++)
        if (hk_pair_order(&pr->cand[k], &all.a[k]) != 0 || pr->cd[k] != all.d[k]) break;
    const int same = rc == 0 && k == pr->ncand && k == all.n;
    if (rc != 0)
        snprintf(why, len, "a search of every particle's candidates failed (%d)", rc);
    else if (!same) {
        const hk_pair none = {-1, {-1, -1, -1, -1}}, *a = k < pr->ncand ? &pr->cand[k] : &none;
        const hk_pair *b = k < all.n ? &all.a[k] : &none;
        snprintf(why, len,
                 "candidate %" PRId64 " of %" PRId64 " differs from a search of every particle's (%" PRId64
                 " candidates): the kind %d, particles %d %d %d %d against %d, %d %d %d %d",
                 k, pr->ncand, all.n, (int)a->kind, (int)a->p[0], (int)a->p[1], (int)a->p[2], (int)a->p[3],
                 (int)b->kind, (int)b->p[0], (int)b->p[1], (int)b->p[2], (int)b->p[3]);
    }
    free(all.a), free(all.d);
    return same ? 0 : -1;
}

/* Checked (in checking builds): every particle that takes part lies within its candidates' ball for the step, its
 * step's ball (centre qm, radius b) within rc of qc + sc (mc <= rc), so that the candidates hold every
 * pair that can come within the thickness in it (a blown-up particle, not finite, aside: the next step refuses it). */
static void check_cover(const hk_world *w, const hk_pairs *pr)
{
    for (int b = 0; HK_CHECKS && b < w->body_count; b++)
        for (int i = w->bodies[b].first;
             hk_pairs_takes_part(&pr->def, w, b) && i < w->bodies[b].first + w->bodies[b].count; i++)
            HK_ASSERT(pr->mc[i] <= pr->rc[i] || !isfinite(pr->mc[i] + pr->rc[i]));
}

/* The candidates found again for the flagged particles (dirty; `flagged` of them), or for every particle where
 * they are most (or cand_all; the particle model's always): each flagged particle's place and reach (qc = qm - sc,
 * rc = b + its skin), then every pair of a particle and a triangle or of two edges one of whose particles is
 * flagged, in the place of those it had, the others kept. 0, PAIR_SEARCH_MEMORY or PAIR_SEARCH_TOO_MANY. */
static int refresh(hk_world *w, hk_pairs *pr, int flagged)
{
    int parts = 0;
    for (int b = 0; b < w->body_count; b++) parts += hk_pairs_takes_part(&pr->def, w, b) ? w->bodies[b].count : 0;
    const int all = pr->cand_all || pr->def.model == HK_CONTACT_PARTICLES || REFRESH_ALL * flagged > parts;
    if (all) pr->sc[0] = pr->sc[1] = pr->sc[2] = 0;
    flagged = 0;
    for (int b = 0; b < w->body_count; b++)
        if (hk_pairs_takes_part(&pr->def, w, b))
            for (int i = w->bodies[b].first; i < w->bodies[b].first + w->bodies[b].count; i++) {
                if (all) pr->dirty[i] = 1;
                if (!pr->dirty[i]) continue;
                flagged++;
                pr->skc[i] = next_skin_of(w, pr, i);
                pr->fc[i] = w->steps;
                for (int c = 0; c < 3; c++) pr->qc[3 * (int64_t)i + c] = pr->qm[3 * (int64_t)i + c] - pr->sc[c];
                pr->rc[i] = pr->b[i] + pr->skc[i];
                pr->mc[i] = pr->b[i];
            }
    pr->searches++;
    pr->searched += flagged;
    int64_t kept = 0;
    for (int64_t k = 0; !all && k < pr->ncand; k++) {
        const int32_t *c = pr->cand[k].p;
        kept += !(pr->dirty[c[0]] | pr->dirty[c[1]] | pr->dirty[c[2]] | pr->dirty[c[3]]);
    }
    pair_buf found = {pr->fa, pr->fd, 0, pr->fcap}; /* the room of the last search's, its pages still mapped */
    int rc = hk_pairs_find(w, pr, all ? NULL : pr->dirty, kept, &found);
    if (rc == 0 && all) { /* the candidates found are the candidates; theirs the next search's room */
        hk_pair *a = pr->cand;
        double *d = pr->cd;
        const int64_t cap = pr->capcand < pr->cap_cd ? pr->capcand : pr->cap_cd;
        pr->cand = found.a, pr->cd = found.d, pr->ncand = found.n, pr->capcand = pr->cap_cd = found.cap;
        found = (pair_buf){a, d, 0, cap};
        if (unjudged(pr) != 0) rc = PAIR_SEARCH_MEMORY;
    } else if (rc == 0 && merge(pr, &found) != 0)
        rc = PAIR_SEARCH_MEMORY;
    pr->fa = found.a, pr->fd = found.d, pr->fcap = found.cap;
    if (rc != 0) return rc;
    pr->cand_all = 0;
    HK_VALIDATE(hk_pairs_validate_candidates, w, pr); /* those of a search of every particle from this frame */
    return hk_pairs_anchors_remap(pr) != 0 ? PAIR_SEARCH_MEMORY : 0;
}

/* The step's pairs, as one task would take them: each task takes its share of the candidates, keeps the judgement
 * of one none of whose particles moved (its particles keep within their reach of qs, so it holds), judges the
 * others (hk_pairs_meet_within from the candidates' frame: cd, ms; where that cannot rule a candidate out, its two
 * sides' distance at qs itself against the thickness and their reach bs, which the frame of the candidates'
 * distance, older than qs for most, leaves looser) and counts those kept (and the smallest of those distances),
 * then, after every task's count, writes its own in candidate order from where the tasks before it end. */
static void select_task(const hk_team *tm, void *ctx)
{
    hk_pairs *pr = ctx;
    const int64_t a = pr->ncand * tm->t / tm->T, e = pr->ncand * (tm->t + 1) / tm->T;
    const uint8_t *moved = pr->moved, *atc = pr->atc;
    int64_t n = 0;
    double dmin = INFINITY;
    for (int64_t k = a; k < e; k++) {
        const hk_pair *pa = &pr->cand[k];
        const int32_t *c = pa->p;
        const int split = pa->kind == HK_PAIR_EE ? 2 : 1;
        if (pr->sel[k] > 1 || (moved[c[0]] | moved[c[1]] | moved[c[2]] | moved[c[3]])) { /* judged anew */
            int in = hk_pairs_meet_within(pr, pr->qs, pa, pr->cd[k], pr->ms, pr->bs);
            if (in) { /* where every corner's qs is its qc, its distance there: as found (cd) */
                pr->sg[k] =
                    atc[c[0]] & atc[c[1]] & atc[c[2]] & atc[c[3]] ? pr->cd[k] : sqrt(hk_pairs_gap2_at(pr->qs, pa));
                in = pr->sg[k] <= hk_pairs_reach(pr, pr->bs, c, split, c + split, 4 - split);
            }
            pr->sel[k] = (uint8_t)in;
        }
        if (pr->sel[k]) { /* its distance at qa is at least that at qs less how far its sides' corners moved since */
            double da = 0, db = 0;
            for (int q = 0; q < split; q++) da = g_max(da, pr->dq[c[q]]);
            for (int q = split; q < 4; q++) db = g_max(db, pr->dq[c[q]]);
            n++, dmin = g_min(dmin, pr->sg[k] - da - db);
        }
    }
    pr->sel_n[tm->t] = n, pr->sel_d[tm->t] = dmin;
    hk_team_barrier(tm);
    int64_t at = 0;
    for (int t = 0; t < tm->t; t++) at += pr->sel_n[t];
    for (int64_t k = a; k < e; k++)
        if (pr->sel[k]) pr->pcand[at] = k, pr->pair[at++] = pr->cand[k];
    if (tm->t == tm->T - 1) pr->npair = at; /* the last task's end: every pair */
    if (tm->t == 0)
        for (int t = 0; t < tm->T; t++) pr->d0_min = g_min(pr->d0_min, pr->sel_d[t]);
}

/* The room the step's pairs leave each particle beyond its step's bound, so that they serve the steps after it too
 * while it moves little (a resting cloth), set as they are chosen: a sixteenth of the thickness at first; half the
 * last room, down to 1/64 of the thickness, where the last pairs served one step or none (a body in motion: the room
 * only added pairs); twice it, up to an eighth, where they served four or more. Which pairs touch does not depend on
 * it, only how often they are chosen. */
static double next_room(const hk_world *w, const hk_pairs *pr)
{
    const double th = pr->th, life = (double)(w->steps - pr->chosen);
    if (!(pr->room > 0)) return th / 16;
    return life <= 1 ? g_max(th / 64, 0.5 * pr->room) : life >= 4 ? g_min(th / 8, 2 * pr->room) : pr->room;
}

/* The step's pairs: the candidates whose boxes can overlap while they hold, each particle's reach its step's bound
 * and the room (on the world's team, kept in candidate order), then their particles. A particle whose step keeps
 * within the reach it was last judged with keeps it (and its place then, qs), so that the judgements of its
 * candidates hold; the others take their place now and this step's reach: those that left it, those more than the
 * room from qs (the safety net's d0_min, a bound from qs, stays near the distances now) and those whose reach is
 * more than twice this step's (it would keep far pairs). 0 or -1. */
static int select_step(const hk_world *w, hk_pairs *pr)
{
    const int n = w->p.count;
    pr->room = next_room(w, pr);
    pr->chosen = w->steps;
    pr->selected++;
    for (int i = 0; i < n; i++) {
        double *qs = pr->qs + 3 * (int64_t)i;
        const double *qm = pr->qm + 3 * (int64_t)i;
        const double d2 = g_dist2(qm, qs), r = pr->room;
        pr->moved[i] =
            (uint8_t)(!hk_root_plus_within(d2, pr->b[i], pr->bs[i]) || d2 > r * r || pr->bs[i] > 2 * (pr->b[i] + r));
        if (pr->moved[i]) {
            for (int c = 0; c < 3; c++) qs[c] = qm[c];
            pr->bs[i] = pr->b[i] + pr->room;
        }
        pr->ms[i] = hk_pairs_from_cand(pr, i, qs) + pr->bs[i];
        pr->dq[i] = sqrt(g_dist2(pr->q0 + 3 * (int64_t)i, qs)); /* from its place at the start: qa below */
        pr->atc[i] = (uint8_t)(memcmp(qs, pr->qc + 3 * (int64_t)i, 3 * sizeof *qs) == 0);
    }
    memcpy(pr->qa, pr->q0, (size_t)(3 * n) * sizeof *pr->qa);
    pr->pairs_hold = 1;
    const int team = hk_pairs_team(w, pr->ncand);
    if (pr->cappair < pr->ncand) {
        hk_pair *p = realloc(pr->pair, (size_t)(pr->ncand + 1) * sizeof *p);
        if (!p) return -1;
        pr->pair = p, pr->cappair = pr->ncand + 1;
    }
    if (hk_pairs_room(&pr->pcand, &pr->cap_pcand, pr->ncand + 1, sizeof *pr->pcand) != 0 ||
        hk_pairs_room(&pr->sel_n, &pr->cap_sel_n, team, sizeof *pr->sel_n) != 0 ||
        hk_pairs_room(&pr->sel_d, &pr->cap_sel_d, team, sizeof *pr->sel_d) != 0)
        return -1;
    hk_pairs_anchors_keep(w, pr, hk_pairs_team(w, pr->npair)); /* the last pairs' anchors, before they change */
    pr->d0_min = INFINITY;
    hk_team_run(w, team, select_task, pr);
    return hk_pairs_anchors_find(w, pr, hk_pairs_team(w, pr->npair)) != 0 ? -1 : corners(w, pr);
}

/* A search that failed (build's rc), said so: out of memory, or more candidates than max_pairs, with the motion
 * that brought them near. Returns the world's failure code. */
static int build_failed(hk_world *w, const hk_pairs *pr, int rc)
{
    if (rc != PAIR_SEARCH_TOO_MANY)
        return hk_fail_memory(w, "out of memory for the contact pairs (%lld)", (long long)pr->npair);
    int far = 0;
    for (int i = 1; i < pr->nq; i++)
        if (pr->b[i] > pr->b[far]) far = i;
    return hk_fail(w,
                   "contact between bodies: more than max_pairs = %lld candidate pairs in step %lld: particle %d may "
                   "move %.3g m in the step of %g s, against a %s of %g m, so that nearly every triangle and "
                   "edge is near another. A motion this large is a blown-up state or a dt too large for the scene: "
                   "lower dt, or set dt_max; raise max_pairs in the contact section only if the scene means it",
                   (long long)pr->def.max_pairs, (long long)w->steps + 1, far, pr->b[far], pr->dt,
                   pr->def.model == HK_CONTACT_PARTICLES ? "contact distance (twice the radius)" : "thickness", pr->th);
}

/* The room the frame qb leaves a particle beyond its step's bound as it is set, so that it serves the steps after
 * it too while it moves little (a resting cloth): the thickness at first; half the last skin, down to a quarter of
 * the thickness, where the last served one step or none, twice it, up to the thickness, where it served four or
 * more. The rule of hk_pairs_in_step reads the frame: it is set on this schedule, as it always was, so that what
 * acts stays as it was. */
static double next_skin(const hk_world *w, const hk_pairs *pr)
{
    const double th = pr->th, life = (double)(w->steps - pr->found);
    if (pr->builds == 0) return th; /* the first frame, or the first since a checkpoint was read */
    return life <= 1 ? g_max(0.25 * th, 0.5 * pr->skin) : life >= 4 ? g_min(th, 2 * pr->skin) : pr->skin;
}

/* The frame qb set at the centres of the step's balls (qm), with a new skin. */
static void found_from_start(hk_world *w, hk_pairs *pr)
{
    pr->skin = next_skin(w, pr);
    pr->found = w->steps;
    pr->builds++;
    memcpy(pr->qb, pr->qm, (size_t)(3 * w->p.count) * sizeof *pr->qb);
    pr->shift[0] = pr->shift[1] = pr->shift[2] = 0;
}

int hk_pairs_begin_step(hk_world *w, hk_pairs *pr)
{
    if (surfaces(w, pr) != 0) return hk_fail_memory(w, "out of memory for the bodies' contact surfaces");
    const int n = w->p.count;
    if (!pr->q0 || pr->nq != n) { /* the particles' arrays, for this count */
        free(pr->q0), free(pr->qm), free(pr->b), free(pr->qb), free(pr->rb), free(pr->mv), free(pr->qs), free(pr->bs),
            free(pr->ms);
        free(pr->moved), free(pr->atc), free(pr->qa), free(pr->dq);
        free(pr->qc), free(pr->rc), free(pr->mc), free(pr->skc), free(pr->fc), free(pr->dirty);
        pr->q0 = calloc(3 * (size_t)n + 1, sizeof *pr->q0); /* zero: a particle that takes no part keeps them */
        pr->qm = calloc(3 * (size_t)n + 1, sizeof *pr->qm);
        pr->b = calloc((size_t)n + 1, sizeof *pr->b);
        pr->qb = calloc(3 * (size_t)n + 1, sizeof *pr->qb);
        pr->rb = calloc((size_t)n + 1, sizeof *pr->rb);
        pr->mv = calloc((size_t)n + 1, sizeof *pr->mv);
        pr->qs = calloc(3 * (size_t)n + 1, sizeof *pr->qs);
        pr->bs = calloc((size_t)n + 1, sizeof *pr->bs);
        pr->ms = calloc((size_t)n + 1, sizeof *pr->ms);
        pr->moved = calloc((size_t)n + 1, sizeof *pr->moved);
        pr->atc = calloc((size_t)n + 1, sizeof *pr->atc);
        pr->qa = calloc(3 * (size_t)n + 1, sizeof *pr->qa);
        pr->dq = calloc((size_t)n + 1, sizeof *pr->dq);
        pr->qc = calloc(3 * (size_t)n + 1, sizeof *pr->qc);
        pr->rc = calloc((size_t)n + 1, sizeof *pr->rc);
        pr->mc = calloc((size_t)n + 1, sizeof *pr->mc);
        pr->skc = calloc((size_t)n + 1, sizeof *pr->skc);
        pr->fc = calloc((size_t)n + 1, sizeof *pr->fc);
        pr->dirty = calloc((size_t)n + 1, sizeof *pr->dirty);
        if (!pr->q0 || !pr->qm || !pr->b || !pr->qb || !pr->rb || !pr->mv || !pr->qs || !pr->bs || !pr->ms ||
            !pr->moved || !pr->atc || !pr->qa || !pr->dq || !pr->qc || !pr->rc || !pr->mc || !pr->skc || !pr->fc ||
            !pr->dirty)
            return hk_fail_memory(w, "out of memory for the contact pairs");
        pr->nq = n;
        pr->builds = 0;
        pr->pairs_hold = 0;
        pr->cand_all = 1;
    }
    pr->t0 = w->time;
    pr->dt = w->integrator.dt;
    pr->left = 0;
    if (pr->surfaces_changed) pr->cand_all = 1;
    int flagged;
    const int st = starts(w, pr, &flagged);
    if (!st || pr->surfaces_changed || flagged > 0)
        for (int i = 0; i < n; i++) /* a blown-up state has no places to search: the step fails, said so */
            if (!isfinite(pr->qm[3 * i] + pr->qm[3 * i + 1] + pr->qm[3 * i + 2] + pr->b[i]))
                return hk_fail(w,
                               "contact between bodies: particle %d's position or speed is not finite at the start "
                               "of step %lld (the state has blown up, or a body is too large for this build's "
                               "precision): try a smaller dt, or check the scene's sizes",
                               i, (long long)w->steps + 1);
    if (!st || pr->surfaces_changed) { /* the frame qb */
        found_from_start(w, pr);
        for (int i = 0; i < n; i++) pr->rb[i] = pr->b[i] + pr->skin, pr->mv[i] = pr->b[i];
    }
    if (flagged > 0) { /* the candidates of the particles that left their balls */
        const int rc = refresh(w, pr, flagged);
        if (rc != 0) return build_failed(w, pr, rc);
        pr->pairs_hold = 0; /* chosen among the new candidates */
    }
    check_cover(w, pr);
    pr->surfaces_changed = 0;
    if (pr->pairs_hold) {
        pr->non = 0; /* none touch before the step's first evaluation */
        HK_VALIDATE(hk_pairs_validate_selection, pr);
        return 0;
    }
    if (select_step(w, pr) != 0)
        return hk_fail_memory(w, "out of memory for the contact pairs (%lld)", (long long)pr->npair);
    HK_VALIDATE(hk_pairs_validate_selection, pr);
    return 0;
}

int hk_pairs_end_step(hk_world *w, hk_pairs *pr)
{
    int outran = 0, overran = 0;
    for (int b = 0; b < w->body_count; b++)
        if (hk_pairs_takes_part(&pr->def, w, b)) /* each particle against its ball, and its step's bound */
            for (int i = w->bodies[b].first; i < w->bodies[b].first + w->bodies[b].count; i++) {
                double x[3];
                hk_particle_position(w, &w->bodies[b], i, x);
                outran |= hk_pairs_outran(pr, i, x);
                overran |= hk_pairs_past(pr, i, x);
            }
    if (!outran && !overran) return 0;
    pr->outran++;
    if (outran) found_from_start(w, pr); /* the frame qb at the step's start */
    int flagged = 0;
    for (int b = 0; b < w->body_count; b++)
        if (hk_pairs_takes_part(&pr->def, w, b))
            for (int i = w->bodies[b].first; i < w->bodies[b].first + w->bodies[b].count; i++) {
                double x[3];
                const double *q = pr->qm + 3 * (int64_t)i;
                hk_particle_position(w, &w->bodies[b], i, x);
                pr->b[i] = g_max(pr->b[i], 1.01 * sqrt(g_dist2(x, q))); /* the bound it kept after all */
                if (outran) {
                    pr->rb[i] = pr->b[i] + pr->skin;
                    pr->mv[i] = pr->b[i]; /* qb is qm now */
                } else
                    pr->mv[i] = hk_pairs_from_found(pr, i, q) + pr->b[i];
                pr->mc[i] = hk_pairs_from_cand(pr, i, q) + pr->b[i]; /* its candidates, over the whole step */
                pr->dirty[i] = (uint8_t) !(pr->mc[i] <= pr->rc[i]);
                flagged += pr->dirty[i];
            }
    const int rc = flagged > 0 ? refresh(w, pr, flagged) : 0;
    if (rc != 0) {
        w->step_failed = build_failed(w, pr, rc);
        return 0;
    }
    check_cover(w, pr);
    if (select_step(w, pr) != 0) {
        w->step_failed = hk_fail_memory(w, "out of memory for the contact pairs (%lld)", (long long)pr->ncand);
        return 0;
    }
    HK_VALIDATE(hk_pairs_validate_selection, pr);
    for (int j = 0; j < pr->ninv; j++) /* swept from the step's start */
        for (int c = 0; c < 3; c++) pr->x0[3 * j + c] = pr->q0[3 * (int64_t)pr->inv[j] + c];
    return 1;
}
