/* hk_test_forces.h — per-particle force scales (sum of |terms|) for rounding-based force tolerances. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_FORCES_H
#define HK_TEST_FORCES_H

#include "hk_test.h"

#include "reference.h"
#include "springs.h"
#include "world.h"

/* Deterministic pseudo-random numbers (splitmix64): tests must not depend on
 * the C library's rand(). */
static inline uint64_t hk_test_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform in [-1, 1) from a key. */
static inline double hk_test_unit(uint64_t key) { return (double)(hk_test_mix(key) >> 11) * 0x1.0p-52 - 1.0; }

typedef struct hk_test_rng {
    uint64_t s;
} hk_test_rng;
static inline uint64_t hk_test_next(hk_test_rng *r) { return hk_test_mix(r->s++); }
static inline int hk_test_below(hk_test_rng *r, int n) { return (int)(hk_test_next(r) % (uint64_t)n); }

/* Calls visit(ctx, a, b, |F|, cond) for every unbroken spring of the world,
 * with F computed at the current state by the reference formula (reference.c)
 * and cond = k (r + L0) + c |dv|: the size of the quantities F is computed
 * from (F = -k (r - L0) ... cancels when r is near L0, so an evaluation that
 * rounds differently, e.g. without the fused multiply-adds, can differ from the
 * reference by a few ulps of cond, not of |F|). 1-norms throughout: they
 * bound every component. */
typedef void (*hk_test_spring_visit)(void *ctx, int64_t a, int64_t b, double fabs_spring, double cond);

static inline void hk_test_one_spring(const hk_family *f, const hk_particles *p, int64_t slot, int64_t a, int64_t b,
                                      hk_real L0, hk_test_spring_visit visit, void *ctx)
{
    hk_real fo[3] = {0, 0, 0}, d[3];
    hk_spring_delta(f, p, slot, a, b, d);
    const double dx = d[0], dy = d[1], dz = d[2];
    const double dv =
        fabs((double)p->vx[a] - p->vx[b]) + fabs((double)p->vy[a] - p->vy[b]) + fabs((double)p->vz[a] - p->vz[b]);
    const double cond =
        fabs(f->params.k) * (sqrt(dx * dx + dy * dy + dz * dz) + fabs((double)L0)) + fabs(f->params.damping) * dv;
    if (hk_spring_force(f, L0, d[0], d[1], d[2], p->vx[a] - p->vx[b], p->vy[a] - p->vy[b], p->vz[a] - p->vz[b], fo))
        visit(ctx, a, b, fabs((double)fo[0]) + fabs((double)fo[1]) + fabs((double)fo[2]), cond);
    else
        visit(ctx, a, b, 0.0, cond);
}

static inline void hk_test_visit_springs(const hk_world *w, hk_test_spring_visit visit, void *ctx)
{
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind == HK_FAMILY_LATTICE) {
            for (int k = f->k0; k < f->k1; k++)
                for (int j = f->j0; j < f->j1; j++) {
                    const int64_t row = (int64_t)f->nx * (j + (int64_t)f->ny * k);
                    for (int i = f->i0; i < f->i1; i++) {
                        const int64_t local = row + i;
                        if (f->broken && f->broken[local]) continue;
                        hk_test_one_spring(f, &w->p, local, f->base + local, f->base + local + f->offset, f->rest,
                                           visit, ctx);
                    }
                }
        } else {
            for (int64_t s = 0; s < f->count; s++) {
                if (f->broken && f->broken[s]) continue;
                hk_test_one_spring(f, &w->p, s, f->a[s], f->b[s], f->rest_list ? f->rest_list[s] : f->rest, visit, ctx);
            }
        }
    }
}

typedef struct hk_test_scale_ctx {
    double *scale, *cond;
    int *terms;
} hk_test_scale_ctx;

static inline void hk_test_scale_visit(void *vctx, int64_t a, int64_t b, double fabs_spring, double cond)
{
    hk_test_scale_ctx *c = vctx;
    c->scale[a] += fabs_spring;
    c->scale[b] += fabs_spring;
    c->cond[a] += cond;
    c->cond[b] += cond;
    c->terms[a]++;
    c->terms[b]++;
}

/* For every particle i:
 *   scale[i] = sum of the 1-norms of all terms that make up its force (each
 *              spring's force, m g, air drag, ground),
 *   terms[i] = how many terms are summed,
 *   cond[i]  = sum over its springs of k (r + L0) + c |dv| (see above).
 * Any two summation orders of the same float terms differ by at most about
 * terms * eps * scale (each order is within (terms - 1) eps/2 scale of the
 * exact sum). Two evaluations of one spring force that each round every
 * operation once, fused or not, differ by at most about 8 eps cond_s:
 * |dr| <= 2 eps r per evaluation (r2 and sqrt) and the subtraction r - L0
 * rounds once, so k |de| <= 3 eps k (r + L0); the damping dot product and
 * c dv carry 3 eps c |dv|; doubled for two evaluations. */
static inline void hk_test_force_scale(const hk_world *w, double *scale, double *cond, int *terms)
{
    const hk_particles *p = &w->p;
    const hk_ground *g = &w->def.ground;
    for (int i = 0; i < p->count; i++) {
        const double m = p->mass[i];
        const hk_vec3 g3 = w->def.gravity;
        double s = m * (fabs((double)(hk_real)g3.x) + fabs((double)(hk_real)g3.y) + fabs((double)(hk_real)g3.z));
        s += w->def.air_drag * (fabs((double)p->vx[i]) + fabs((double)p->vy[i]) + fabs((double)p->vz[i]));
        int n = 1;
        const double y = hk_world_position(w, i).y;
        if (g->model != HK_GROUND_NONE && y < g->height) {
            const double depth = fabs(g->height - y);
            if (g->model == HK_GROUND_REPULSION)
                s += g->repulsion * depth + g->friction * (fabs((double)p->vx[i]) + fabs((double)p->vz[i])) +
                     g->absorption * fabs((double)p->vy[i]);
            else
                s += g->stiffness * depth;
            n += 2;
        }
        scale[i] = s;
        cond[i] = 0;
        terms[i] = n;
    }
    hk_test_scale_ctx c = {scale, cond, terms};
    hk_test_visit_springs(w, hk_test_scale_visit, &c);
}

/* The force tolerance for particle i of two paths that sum the same float
 * terms in different orders. Every kernel path computes each spring's force
 * with the operations of hk_spring_force in the same order (spring_lanes.h,
 * the same fused multiply-adds), so only the order of the sum differs; cond is kept for the
 * diagnostics, and a path that rounded a spring differently (by about
 * 8 eps cond, above) would fail here on purpose. */
static inline double hk_test_force_tol(const double *scale, const double *cond, const int *terms, int i)
{
    (void)cond;
    return HK_EPS * 2.0 * (terms[i] + 1) * scale[i];
}

/* Bandwidth of the list springs of one body: max |a - b|. */
static inline int64_t hk_test_bandwidth(const hk_world *w, int body)
{
    int64_t bw = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->body != body || f->kind != HK_FAMILY_LIST) continue;
        for (int64_t s = 0; s < f->count; s++) {
            int64_t d = (int64_t)f->a[s] - f->b[s];
            if (d < 0) d = -d;
            if (d > bw) bw = d;
        }
    }
    return bw;
}

#endif
