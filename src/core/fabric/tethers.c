/* tethers.c — long-range tethers: each free particle of a body kept within its rest distance of its nearest pin. */
/* SPDX-License-Identifier: MIT */
#include "tethers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constraints.h"
#include "part.h"
#include "spring_vec.h"

/*
 * A body hung from a few pins stretches first along its long paths: a chain of n springs carries its weight through
 * every one, and the strain limits' sweeps pass a correction on by one spring a sweep. A tether (long-range
 * attachment, after Kim, Chentanez and Mueller 2012) ties each free particle of the body to the held particle nearest
 * it at rest with a one-sided constraint of the rest distance between them, times 1 + stretch: a particle past it is
 * moved straight back onto it, toward the pin, in one step, wherever it is in the body; inside, a tether does
 * nothing. A body at rest satisfies every tether (no distance is longer than the path it measures), so tethers never
 * pull a resting body; a body stretched by its weight is pulled back to at most its rest distances from the pins,
 * which are the longest its springs allow where they hang straight from them.
 *
 * The rest distance is measured one of two ways: geodesic, the shortest path from the pin along the body's springs,
 * their rest lengths summed (multi-source Dijkstra from every held particle at once; on a square lattice with
 * diagonals the path is at most 8 % longer than the straight line in the plane), or euclidean, the straight line
 * between the particles' rest places (a lattice's nodes; a body of listed points as it is when the tethers are
 * made), which is the distance in the plane of a flat sheet but shorter than any path across a curved body. The
 * nearest pin is the one at the smallest such distance, the lower index on a tie. Each free particle has one tether
 * and its pin does not move, so the tethers' projections are independent of one another and of their order: the
 * team shares them out with the same bits on any number of threads.
 */

/* The projection of tethers [t0, t1) (hk_team_for). */
typedef struct tether_pass {
    const hk_world *w;
    const hk_tethers *T;
    const hk_moves *mv;
    int64_t *moved; /* per chunk of HK_TETHER_CHUNK tethers */
} tether_pass;

#define HK_TETHER_CHUNK 4096
#define HK_TETHER_PARALLEL_MIN 16384

/* The vector from pin p to particle i, both of body b, in its frame (r + q) [m]. */
static void apart(const hk_particles *p, int64_t i, int64_t pn, hk_real d[3])
{
    d[0] = (p->rx[i] + p->qx[i]) - (p->rx[pn] + p->qx[pn]);
    d[1] = (p->ry[i] + p->qy[i]) - (p->ry[pn] + p->qy[pn]);
    d[2] = (p->rz[i] + p->qz[i]) - (p->rz[pn] + p->qz[pn]);
}

static void tether_chunks(void *ctx, int64_t c0, int64_t c1)
{
    const tether_pass *s = ctx;
    const hk_tethers *T = s->T;
    const hk_particles *p = &s->w->p;
    const hk_real keep = 1 - (hk_real)ldexp(sizeof(hk_real) == 8 ? 0x1p-52 : 0x1p-23, 10);
    for (int64_t c = c0; c < c1; c++) {
        int64_t moved = 0;
        const int64_t t1 = (c + 1) * HK_TETHER_CHUNK < T->count ? (c + 1) * HK_TETHER_CHUNK : T->count;
        for (int64_t t = c * HK_TETHER_CHUNK; t < t1; t++) {
            const int64_t i = T->particle[t];
            if (p->inv_mass[i] == 0) continue;
            hk_real d[3];
            apart(p, i, T->pin[t], d);
            const hk_real r = hk_spring_length(d[0], d[1], d[2]), L = T->length[t];
            if (!(r > L)) continue;
            const hk_real g = (r - L * keep) / r;
            const hk_real m[3] = {g * d[0], g * d[1], g * d[2]};
            hk_move(s->mv, i, m, -1);
            moved++;
        }
        s->moved[c] = moved;
    }
}

/* ---- making them ---------------------------------------------------------------------------------------------- */

/* The springs of one body as an adjacency list over its particles (body-local), rest lengths as weights. */
typedef struct graph {
    int first, count;
    int64_t *start; /* count + 1 */
    int *to;
    double *len;
    int64_t filled;
    int *fill; /* per particle: entries written so far */
    const hk_world *w;
    int pass; /* 0: count, 1: fill */
} graph;

static double rest_of(const hk_family *f, int64_t slot)
{
    return f->rest_list ? (double)f->rest_list[slot] : (double)f->rest;
}

static void graph_spring(void *ctx, int fam, int64_t slot, int a, int b)
{
    graph *g = ctx;
    const int la = a - g->first, lb = b - g->first;
    if (la < 0 || la >= g->count || lb < 0 || lb >= g->count) return; /* another body's */
    const hk_family *f = &g->w->families[fam];
    if (f->broken && f->broken[slot]) return;
    if (g->pass == 0) {
        g->start[la + 1]++;
        g->start[lb + 1]++;
        return;
    }
    const double L = rest_of(f, slot);
    int64_t ea = g->start[la] + g->fill[la]++, eb = g->start[lb] + g->fill[lb]++;
    g->to[ea] = lb;
    g->len[ea] = L;
    g->to[eb] = la;
    g->len[eb] = L;
}

/* A binary heap of (distance, particle), smallest distance first, the lower particle on a tie. */
typedef struct heap {
    double *d;
    int *v;
    int64_t n;
} heap;

static int below(const heap *h, int64_t a, int64_t b)
{
    return h->d[a] < h->d[b] || (h->d[a] == h->d[b] && h->v[a] < h->v[b]);
}
static void swap(heap *h, int64_t a, int64_t b)
{
    const double td = h->d[a];
    const int tv = h->v[a];
    h->d[a] = h->d[b], h->v[a] = h->v[b];
    h->d[b] = td, h->v[b] = tv;
}
static void push(heap *h, double d, int v)
{
    int64_t i = h->n++;
    h->d[i] = d, h->v[i] = v;
    while (i > 0 && below(h, i, (i - 1) / 2)) {
        swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}
static void pop(heap *h)
{
    h->n--;
    h->d[0] = h->d[h->n], h->v[0] = h->v[h->n];
    for (int64_t i = 0;;) {
        const int64_t l = 2 * i + 1, r = l + 1;
        int64_t m = i;
        if (l < h->n && below(h, l, m)) m = l;
        if (r < h->n && below(h, r, m)) m = r;
        if (m == i) break;
        swap(h, i, m);
        i = m;
    }
}

/* Body b's geodesic distances from its held particles (dist, body-local) and the pin each was reached from (near);
 * 0 or -1 (out of memory). */
static int geodesic(const hk_world *w, int b, double *dist, int *near)
{
    const hk_body *bd = &w->bodies[b];
    graph g = {.first = bd->first, .count = bd->count, .w = w};
    g.start = calloc((size_t)bd->count + 1, sizeof *g.start);
    g.fill = calloc((size_t)bd->count, sizeof *g.fill);
    if (!g.start || !g.fill) goto fail;
    hk_each_spring(w, graph_spring, &g);
    for (int i = 0; i < bd->count; i++) g.start[i + 1] += g.start[i];
    g.to = malloc((size_t)(g.start[bd->count] + 1) * sizeof *g.to);
    g.len = malloc((size_t)(g.start[bd->count] + 1) * sizeof *g.len);
    heap h = {malloc(((size_t)g.start[bd->count] + (size_t)bd->count + 1) * sizeof(double)),
              malloc(((size_t)g.start[bd->count] + (size_t)bd->count + 1) * sizeof(int)), 0};
    if (!g.to || !g.len || !h.d || !h.v) {
        free(h.d);
        free(h.v);
        goto fail;
    }
    g.pass = 1;
    hk_each_spring(w, graph_spring, &g);
    for (int i = 0; i < bd->count; i++) {
        dist[i] = INFINITY;
        near[i] = -1;
        if (w->p.inv_mass[bd->first + i] == 0) {
            dist[i] = 0;
            near[i] = i;
            push(&h, 0, i);
        }
    }
    while (h.n > 0) {
        const double d = h.d[0];
        const int v = h.v[0];
        pop(&h);
        if (d > dist[v]) continue; /* a stale entry */
        for (int64_t e = g.start[v]; e < g.start[v + 1]; e++) {
            const int u = g.to[e];
            const double nd = d + g.len[e];
            if (nd < dist[u] || (nd == dist[u] && near[v] < near[u])) {
                dist[u] = nd;
                near[u] = near[v];
                push(&h, nd, u);
            }
        }
    }
    free(h.d);
    free(h.v);
    free(g.start);
    free(g.fill);
    free(g.to);
    free(g.len);
    return 0;
fail:
    free(g.start);
    free(g.fill);
    free(g.to);
    free(g.len);
    return -1;
}

/* Body b's straight-line rest distances from its nearest held particle (dist, near, body-local). */
static void euclidean(const hk_world *w, int b, double *dist, int *near)
{
    const hk_body *bd = &w->bodies[b];
    const hk_particles *p = &w->p;
    int pins = 0;
    int *pin = near; /* the held particles first, then each particle's nearest */
    for (int i = 0; i < bd->count; i++)
        if (p->inv_mass[bd->first + i] == 0) pin[pins++] = i;
    int *held = malloc((size_t)(pins > 0 ? pins : 1) * sizeof *held);
    if (held) memcpy(held, pin, (size_t)pins * sizeof *held);
    for (int i = 0; i < bd->count; i++) {
        const int64_t gi = bd->first + i;
        double best = INFINITY;
        int at = -1;
        for (int k = 0; k < pins && held; k++) {
            const int64_t gp = bd->first + held[k];
            const double dx = hk_local_x(p, gi) - hk_local_x(p, gp), dy = hk_local_y(p, gi) - hk_local_y(p, gp),
                         dz = hk_local_z(p, gi) - hk_local_z(p, gp);
            /* a lattice's rest places (r), a list body's places now (its r is 0: q holds them) */
            const double rx = bd->lattice ? (double)(p->rx[gi] - p->rx[gp]) : dx;
            const double ry = bd->lattice ? (double)(p->ry[gi] - p->ry[gp]) : dy;
            const double rz = bd->lattice ? (double)(p->rz[gi] - p->rz[gp]) : dz;
            const double d = sqrt(rx * rx + ry * ry + rz * rz);
            if (d < best) best = d, at = held[k];
        }
        dist[i] = best;
        near[i] = at;
    }
    free(held);
}

/* The tethers of every body that asks for them, made from its held particles now. 0 or -1 (w's error says why). */
static int make(hk_world *w)
{
    hk_tethers *T = w->tethers;
    free(T->particle);
    free(T->pin);
    free(T->length);
    T->particle = T->pin = NULL;
    T->length = NULL;
    T->count = 0;
    int64_t cap = 0;
    for (int b = 0; b < T->bodies && b < w->body_count; b++)
        if (T->kind[b] != HK_TETHERS_NONE) cap += w->bodies[b].count;
    T->particle = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *T->particle);
    T->pin = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *T->pin);
    T->length = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *T->length);
    if (!T->particle || !T->pin || !T->length) return hk_fail_memory(w, "out of memory for the tethers");
    for (int b = 0; b < T->bodies && b < w->body_count; b++) {
        if (T->kind[b] == HK_TETHERS_NONE) continue;
        const hk_body *bd = &w->bodies[b];
        double *dist = malloc((size_t)(bd->count > 0 ? bd->count : 1) * sizeof *dist);
        int *near = malloc((size_t)(bd->count > 0 ? bd->count : 1) * sizeof *near);
        if (!dist || !near) {
            free(dist);
            free(near);
            return hk_fail_memory(w, "out of memory for the tethers of body %d", b);
        }
        int held = 0;
        for (int i = 0; i < bd->count; i++) held += w->p.inv_mass[bd->first + i] == 0;
        if (held == 0) {
            free(dist);
            free(near);
            return hk_fail(w, "tethers of body %d (%s): it has no pinned or driven particle to tie them to", b,
                           bd->kind);
        }
        if (T->kind[b] == HK_TETHERS_GEODESIC) {
            if (geodesic(w, b, dist, near) != 0) {
                free(dist);
                free(near);
                return hk_fail_memory(w, "out of memory for the tethers of body %d", b);
            }
        } else {
            euclidean(w, b, dist, near);
        }
        for (int i = 0; i < bd->count; i++) {
            if (w->p.inv_mass[bd->first + i] == 0 || near[i] < 0 || !isfinite(dist[i])) continue; /* held; cut off */
            T->particle[T->count] = bd->first + i;
            T->pin[T->count] = bd->first + near[i];
            T->length[T->count] = (hk_real)(dist[i] * (1 + T->stretch[b]));
            T->count++;
        }
        free(dist);
        free(near);
    }
    T->made = 1;
    return 0;
}

int hk_tethers_project(hk_world *w, const hk_moves *mv)
{
    hk_tethers *T = w->tethers;
    if (!T->made && make(w) != 0) {
        w->step_failed = hk_failed(w);
        return -1;
    }
    const int64_t chunks = (T->count + HK_TETHER_CHUNK - 1) / HK_TETHER_CHUNK;
    int64_t *moved = calloc((size_t)(chunks > 0 ? chunks : 1), sizeof *moved);
    if (!moved) {
        w->step_failed = hk_fail_memory(w, "out of memory for the tethers");
        return -1;
    }
    tether_pass s = {w, T, mv, moved};
    hk_team_for(w, hk_team_size(w, T->count, HK_TETHER_PARALLEL_MIN), chunks, tether_chunks, &s);
    for (int64_t c = 0; c < chunks; c++) w->strain.tethered += moved[c];
    free(moved);
    return 0;
}

int hk_world_set_tethers(hk_world *w, int body, hk_tether_kind kind, double stretch)
{
    if (body < 0 || body >= w->body_count)
        return hk_fail(w, "set_tethers: no body %d (the world has %d)", body, w->body_count);
    if ((unsigned)kind > HK_TETHERS_GEODESIC) return hk_fail(w, "set_tethers: unknown kind %d", (int)kind);
    if (!(stretch >= 0) || !isfinite(stretch))
        return hk_fail(w, "set_tethers: tether_stretch must be >= 0 (got %g)", stretch);
    const int ranks = (w->part && w->part->ranks > 1) || w->defer || w->bodies[body].recipe; /* a run over ranks */
    if (ranks && kind != HK_TETHERS_NONE) return hk_fail(w, "set_tethers: " HK_STRAIN_NOT_OVER_RANKS);
    const hk_body *bd = &w->bodies[body];
    int held = 0;
    for (int i = 0; i < bd->count && kind != HK_TETHERS_NONE; i++) held += w->p.inv_mass[bd->first + i] == 0;
    if (kind != HK_TETHERS_NONE && held == 0)
        return hk_fail(w, "set_tethers: body %d (%s) has no pinned or driven particle to tie its tethers to", body,
                       bd->kind);
    if (!w->tethers && !(w->tethers = calloc(1, sizeof *w->tethers)))
        return hk_fail_memory(w, "out of memory for the tethers");
    hk_tethers *T = w->tethers;
    if (T->bodies < w->body_count) {
        hk_tether_kind *k = realloc(T->kind, (size_t)w->body_count * sizeof *k);
        if (k) T->kind = k;
        double *s = realloc(T->stretch, (size_t)w->body_count * sizeof *s);
        if (s) T->stretch = s;
        if (!k || !s) return hk_fail_memory(w, "out of memory for the tethers");
        for (int b = T->bodies; b < w->body_count; b++) T->kind[b] = HK_TETHERS_NONE, T->stretch[b] = 0;
        T->bodies = w->body_count;
    }
    T->on += (kind != HK_TETHERS_NONE) - (T->kind[body] != HK_TETHERS_NONE);
    T->kind[body] = kind;
    T->stretch[body] = stretch;
    T->made = 0;
    w->strain_ready = 0; /* the first projection after: no velocity from its moves (strain_limit.c) */
    return HK_OK;
}

int hk_world_tethered(const hk_world *w) { return w->tethers ? w->tethers->on : 0; }

void hk_tethers_free(hk_world *w)
{
    hk_tethers *T = w->tethers;
    if (!T) return;
    free(T->kind);
    free(T->stretch);
    free(T->particle);
    free(T->pin);
    free(T->length);
    free(T);
    w->tethers = NULL;
}
