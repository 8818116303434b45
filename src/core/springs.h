/* springs.h — spring families: construction, the scalar reference force kernel, energy, breaking. */
#ifndef HOOKE_SPRINGS_H
#define HOOKE_SPRINGS_H

#include "world.h"

/* Adds a lattice (stencil) family to a lattice body: node (i,j,k) joins node
 * (i+di, j+dj, k+dk) wherever both exist. The rest length is the initial
 * distance `spacing * |(di,dj,dk)|` unless params->rest_length > 0. */
hk_family *hk_add_lattice_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int di,
                                 int dj, int dk, double spacing);

/* Adds a list family joining global particles a[s] - b[s]; rest lengths are the
 * initial distances unless params->rest_length > 0. Returns 0 or -1. */
int hk_add_list_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int64_t count,
                       const int *a, const int *b);

/* Accumulates every family's spring forces into p->f (reference scalar kernel). */
void hk_springs_forces(hk_world *w);
/* Marks springs of breakable families that are past break_ratio * L0 as
 * broken; returns how many broke now. */
int64_t hk_springs_break(hk_world *w);
/* Spring potential energy [J] and the largest r / L0 over unbroken springs. */
void hk_springs_energy(const hk_world *w, double *energy, double *max_stretch);

/* Calls visit(f, spring_slot, a, b, L0, ctx) for every unbroken spring of f
 * (a, b: global particle indices; slot: index into f->broken). */
typedef void (*hk_spring_visitor)(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *ctx);
void hk_springs_visit(const hk_family *f, hk_spring_visitor visit, void *ctx);

/* The family and slot of the most stretched unbroken spring (r / L0 in
 * *ratio); -1 if there are no springs. */
int hk_springs_max_stretch(const hk_world *w, int64_t *slot, double *ratio);

/* The spring force on endpoint a (the opposite acts on b), for d = x_a - x_b
 * and dv = v_a - v_b. Returns 0 (and leaves out untouched) if the spring is
 * slack under its behaviour or has zero length. */
static inline int hk_spring_force(const hk_family *f, hk_real L0, hk_real dx, hk_real dy, hk_real dz, hk_real dvx,
                                  hk_real dvy, hk_real dvz, hk_real out[3]);

#include <math.h>

/* a b + c rounded once: C99 fma, the fused multiply-add of the SIMD kernels
 * (simd.h), so every path gives the same bits */
static inline hk_real hk_fma(hk_real a, hk_real b, hk_real c)
{
#ifdef HOOKE_DOUBLE
    return fma(a, b, c);
#else
    return fmaf(a, b, c);
#endif
}

/* On a function with scalar spring loops: build it twice where the compiler
 * can pick at load time, with the fused multiply-add instruction for CPUs
 * that have it and calling libm's fma elsewhere (both round once: the same
 * bits). Left out under the sanitizers, whose start-up precedes the pick. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) /* GCC */
#define HK_SANITIZED 1
#elif defined(__has_feature) /* clang */
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HK_SANITIZED 1
#endif
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) && !defined(HK_SANITIZED)
#define HK_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define HK_FMA_CLONES
#endif

static inline int hk_spring_force(const hk_family *f, hk_real L0, hk_real dx, hk_real dy, hk_real dz, hk_real dvx,
                                  hk_real dvy, hk_real dvz, hk_real out[3])
{
    hk_real r2 = hk_fma(dz, dz, hk_fma(dy, dy, dx * dx));
    if (r2 == 0) return 0;
    hk_real r = (hk_real)sqrt(r2);
    hk_real ext = r - L0;
    if (f->params.behaviour == HK_SPRING_TENSION_ONLY && !(ext > 0)) return 0;
    if (f->params.behaviour == HK_SPRING_COMPRESSION_ONLY && !(ext < 0)) return 0;
    /* The unit vector u = d / r is never formed: the force is g d (plus the
     * relative damping term), which takes fewer multiplies, in this order and
     * with these fused multiply-adds in every kernel (kernels_impl.h). */
    if (f->params.damping_model == HK_DAMP_ALONG) {
        /* f_a = -(k (r - L0) + c (dv . u)) u = ((k L0 - c (dv . d) / r) / r - k) d */
        hk_real inv_r = 1 / r;
        hk_real dot = hk_fma(dvz, dz, hk_fma(dvy, dy, dvx * dx));
        hk_real g = hk_fma(hk_fma(-(f->c * dot), inv_r, f->k * L0), inv_r, -f->k);
        out[0] = g * dx;
        out[1] = g * dy;
        out[2] = g * dz;
    } else {
        /* f_a = -k (r - L0) u - c dv = (k L0 / r - k) d - c dv */
        hk_real g = f->k * L0 / r - f->k;
        out[0] = hk_fma(g, dx, -(f->c * dvx));
        out[1] = hk_fma(g, dy, -(f->c * dvy));
        out[2] = hk_fma(g, dz, -(f->c * dvz));
    }
    return 1;
}

/* One spring between global particles a and b: its force added to a and
 * subtracted from b (nothing if slack). */
static inline void hk_apply_spring(const hk_family *f, hk_particles *p, int64_t a, int64_t b, hk_real L0)
{
    hk_real fo[3];
    if (!hk_spring_force(f, L0, p->x[a] - p->x[b], p->y[a] - p->y[b], p->z[a] - p->z[b], p->vx[a] - p->vx[b],
                         p->vy[a] - p->vy[b], p->vz[a] - p->vz[b], fo))
        return;
    p->fx[a] += fo[0];
    p->fy[a] += fo[1];
    p->fz[a] += fo[2];
    p->fx[b] -= fo[0];
    p->fy[b] -= fo[1];
    p->fz[b] -= fo[2];
}

#endif