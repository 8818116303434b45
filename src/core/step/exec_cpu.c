/* exec_cpu.c — the CPU engine's passes of a step (world/exec.h): the force pass, the per-particle loops, obstacles. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "forces.h"
#include "integrators.h"
#include "part.h"
#include "spheres_walls.h"
#include "strain.h"

/* The per-particle loops of the multi-evaluation schemes are passes over
 * the particles this process computes (part.h hk_team_spans: the world's
 * team above HK_PARALLEL_MIN particles, the solver's floating-point mode):
 * each particle's update is its own, so the bits do not depend on the team. */

/* What the integrator keeps between steps (its history, its scratch), made; 0, or -1 with w failed. */
static int cpu_begin(hk_world *w)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(w->integrator.kind);
    const size_t cap = (size_t)(w->p.capacity ? w->p.capacity : 1);
    int ok = hk_world_make_history(w) == 0;
    if (ok && ops->scratch_arrays && !w->scratch) {
        size_t offset; /* 0 from slot 0 */
        w->scratch = hk_alloc_slab(ops->scratch_arrays, cap, 0, w, &w->scratch_stride, &offset);
        ok = w->scratch != NULL;
    }
    if (ok) return 0;
    w->step_failed = hk_fail_memory(w, "out of memory for integrator state");
    return -1;
}

static int cpu_forces(hk_world *w, int update, hk_real h) { return hk_forces_update(w, (hk_update_kind)update, h); }

/* A position Verlet update of particles [g0, g1). */
typedef struct verlet_pass {
    hk_particles *p;
    hk_real *prev[3];
    hk_real h;
    int first, book_start;
} verlet_pass;

static void verlet_span(void *ctx, int g0, int g1)
{
    const verlet_pass *v = ctx;
    const hk_particles *p = v->p;
    hk_real *pos[3] = {p->qx, p->qy, p->qz}, *vel[3] = {p->vx, p->vy, p->vz}, *frc[3] = {p->fx, p->fy, p->fz};
    const hk_real h = v->h, h2 = h * h, inv2h = 1 / (2 * h);
    for (int c = 0; c < 3; c++) {
        hk_real *prev = v->prev[c];
        if (v->first)
            for (int i = g0; i < g1; i++)
                hk_verlet_first(p->inv_mass[i], frc[c][i], &pos[c][i], &vel[c][i], &prev[i], h, h2, v->book_start);
        else
            for (int i = g0; i < g1; i++)
                hk_verlet_next(p->inv_mass[i], frc[c][i], &pos[c][i], &vel[c][i], &prev[i], h, h2, inv2h);
    }
}

static void cpu_verlet(hk_world *w, hk_real h, int first, int book_start)
{
    verlet_pass v = {&w->p, {w->px, w->py, w->pz}, h, first, book_start};
    hk_team_spans(w, verlet_span, &v);
}

/* Half a velocity Verlet kick of particles [g0, g1). */
typedef struct kick_pass {
    hk_particles *p;
    hk_real hh, h;
    int drift;
} kick_pass;

static void kick_span(void *ctx, int g0, int g1)
{
    const kick_pass *k = ctx;
    hk_particles *p = k->p;
    for (int i = g0; i < g1; i++) {
        const hk_real im = p->inv_mass[i];
        if (im == 0) continue;
        const hk_real f[3] = {p->fx[i], p->fy[i], p->fz[i]};
        hk_real *const q[3] = {&p->qx[i], &p->qy[i], &p->qz[i]}, *const v[3] = {&p->vx[i], &p->vy[i], &p->vz[i]};
        hk_kick(im, f, q, v, k->hh, k->drift, k->h);
    }
}

/* Half a velocity Verlet kick, v += (f im) hh, and with drift the drift
 * x += v h after it, for every free particle. */
static void cpu_kick(hk_world *w, hk_real hh, int drift, hk_real h)
{
    kick_pass k = {&w->p, hh, h, drift};
    hk_team_spans(w, kick_span, &k);
}

/* One RK4 stage of particles [g0, g1): the start state x0, v0 and the
 * weighted stage sums sx, sv in the scratch arrays. */
typedef struct rk4_pass {
    hk_particles *p;
    hk_real *x0[3], *v0[3], *sx[3], *sv[3];
    hk_real wt, ah, h;
    int stage;
} rk4_pass;

static rk4_pass rk4_of(hk_world *w)
{
    const size_t stride = w->scratch_stride;
    rk4_pass r = {.p = &w->p};
    for (int c = 0; c < 3; c++) {
        r.x0[c] = w->scratch + (0 + c) * stride;
        r.v0[c] = w->scratch + (3 + c) * stride;
        r.sx[c] = w->scratch + (6 + c) * stride;
        r.sv[c] = w->scratch + (9 + c) * stride;
    }
    return r;
}

static void rk4_span(void *ctx, int g0, int g1)
{
    const rk4_pass *r = ctx;
    const hk_particles *p = r->p;
    hk_real *pos[3] = {p->qx, p->qy, p->qz}, *vel[3] = {p->vx, p->vy, p->vz}, *frc[3] = {p->fx, p->fy, p->fz};
    for (int c = 0; c < 3; c++) {
        const hk_real *x0 = r->x0[c], *v0 = r->v0[c];
        hk_real *sx = r->sx[c], *sv = r->sv[c];
        for (int i = g0; i < g1; i++)
            hk_rk4_stage(p->inv_mass[i], frc[c][i], &pos[c][i], &vel[c][i], x0[i], v0[i], &sx[i], &sv[i], r->stage,
                         r->wt, r->ah, r->h);
    }
}

/* RK4's start state: the particles this process computes, copied to the scratch. */
static void cpu_rk4_start(hk_world *w)
{
    const hk_particles *p = &w->p;
    const hk_real *pos[3] = {p->qx, p->qy, p->qz}, *vel[3] = {p->vx, p->vy, p->vz};
    const rk4_pass r = rk4_of(w);
    int all[2];
    const int *span, spans = hk_world_spans(w, all, &span);
    for (int c = 0; c < 3; c++)
        for (int s = 0; s < spans; s++) {
            const size_t at = (size_t)span[2 * s], bytes = (size_t)(span[2 * s + 1] - span[2 * s]) * sizeof(hk_real);
            memcpy(r.x0[c] + at, pos[c] + at, bytes);
            memcpy(r.v0[c] + at, vel[c] + at, bytes);
        }
}

static void cpu_rk4_stage(hk_world *w, int stage, hk_real wt, hk_real ah, hk_real h)
{
    rk4_pass r = rk4_of(w);
    r.wt = wt, r.ah = ah, r.h = h, r.stage = stage;
    hk_team_spans(w, rk4_span, &r);
}

static int64_t cpu_break(hk_world *w, int count) { return (void)count, hk_springs_break(w); }

static int64_t cpu_obstacle(hk_world *w, const hk_sphere_def *s, double dt, hk_real *const prev[3], int count)
{
    (void)count;
    return s ? hk_sphere_pass(w, s, dt, prev) : hk_walls_pass(w, dt, prev);
}

const hk_exec hk_cpu_exec = {.name = "cpu",
                             .begin = cpu_begin,
                             .forces = cpu_forces,
                             .verlet = cpu_verlet,
                             .kick = cpu_kick,
                             .rk4_start = cpu_rk4_start,
                             .rk4_stage = cpu_rk4_stage,
                             .anchors = NULL,
                             .break_springs = cpu_break,
                             .obstacle = cpu_obstacle,
                             .end = NULL,
                             .counts_wait = 0};
