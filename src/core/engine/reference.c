/* reference.c — the reference path's spring forces: the obvious scalar code, kept as the oracle and benchmark baseline.
 */
/* SPDX-License-Identifier: MIT */
#include "reference.h"

#include <math.h>

#include "springs.h"

/*
 * The engine (engine/) evaluates springs with its one formula over a wide
 * float type (engine/spring_lanes.h), in sweeps whose summation order makes
 * the result the same bits for any thread count. This file is the second,
 * independent copy: a plain loop over each family's springs in storage
 * order, adding each force into both ends, on one thread. Tests compare the
 * engine with it (each spring's force has the same bits on both paths; the
 * sums differ only by their order), and benchmarks measure the engine
 * against it (HOOKE_KERNELS=reference).
 */

int hk_spring_force(const hk_family *f, hk_real L0, hk_real dx, hk_real dy, hk_real dz, hk_real dvx, hk_real dvy,
                    hk_real dvz, hk_real out[3])
{
    hk_real r2 = hk_fma(dz, dz, hk_fma(dy, dy, dx * dx));
    if (r2 == 0) return 0;
    hk_real r = (hk_real)sqrt(r2);
    hk_real ext = r - L0;
    if (f->params.behaviour == HK_SPRING_TENSION_ONLY && !(ext > 0)) return 0;
    if (f->params.behaviour == HK_SPRING_COMPRESSION_ONLY && !(ext < 0)) return 0;
    /* The unit vector u = d / r is never formed: the force is g d (plus the
     * relative damping term), in this order and with these fused
     * multiply-adds in the engine (engine/spring_lanes.h). The strain enters
     * as L0 - r, exact where r is near L0: a spring at rest gives 0. */
    if (f->params.damping_model == HK_DAMP_ALONG) {
        /* f_a = -(k (r - L0) + c (dv . u)) u = (k (L0 - r) - c (dv . d) / r) / r d */
        hk_real inv_r = 1 / r;
        hk_real dot = hk_fma(dvz, dz, hk_fma(dvy, dy, dvx * dx));
        hk_real g = hk_fma(-(f->c * dot), inv_r, f->k * (L0 - r)) * inv_r;
        out[0] = g * dx;
        out[1] = g * dy;
        out[2] = g * dz;
    } else {
        /* f_a = -k (r - L0) u - c dv = k (L0 / r - 1) d - c dv */
        hk_real g = hk_fma(f->k, L0 / r, -f->k);
        out[0] = hk_fma(g, dx, -(f->c * dvx));
        out[1] = hk_fma(g, dy, -(f->c * dvy));
        out[2] = hk_fma(g, dz, -(f->c * dvz));
    }
    return 1;
}

/* One spring of f (slot) between global particles a and b: its force added
 * to a and subtracted from b (nothing if slack). */
static void hk_apply_spring(const hk_family *f, hk_particles *p, int64_t slot, int64_t a, int64_t b, hk_real L0)
{
    hk_real fo[3], d[3];
    hk_spring_delta(f, p, slot, a, b, d);
    if (!hk_spring_force(f, L0, d[0], d[1], d[2], p->vx[a] - p->vx[b], p->vy[a] - p->vy[b], p->vz[a] - p->vz[b], fo))
        return;
    p->fx[a] += fo[0];
    p->fy[a] += fo[1];
    p->fz[a] += fo[2];
    p->fx[b] -= fo[0];
    p->fy[b] -= fo[1];
    p->fz[b] -= fo[2];
}

HK_FMA_CLONES static void lattice_forces(const hk_family *f, hk_particles *p)
{
    for (int k = f->k0; k < f->k1; k++)
        for (int j = f->j0; j < f->j1; j++) {
            int64_t row = (int64_t)f->nx * (j + (int64_t)f->ny * k);
            for (int i = f->i0; i < f->i1; i++) {
                int64_t local = row + i;
                if (f->broken && f->broken[local]) continue;
                hk_apply_spring(f, p, local, f->base + local, f->base + local + f->offset, f->rest);
            }
        }
}

HK_FMA_CLONES static void list_forces(const hk_family *f, hk_particles *p)
{
    for (int64_t s = 0; s < f->count; s++) {
        if (f->broken && f->broken[s]) continue;
        hk_apply_spring(f, p, s, f->a[s], f->b[s], f->rest_list ? f->rest_list[s] : f->rest);
    }
}

void hk_reference_springs(hk_world *w)
{
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind == HK_FAMILY_LATTICE)
            lattice_forces(f, &w->p);
        else
            list_forces(f, &w->p);
    }
}
