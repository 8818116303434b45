/* integrators.c — explicit and semi-implicit Euler, position and velocity Verlet, the jelly scheme, RK4, sub-stepping.
 */
#include "integrators.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contacts.h"

/* Per-particle loops of the multi-evaluation schemes run in parallel: each
 * iteration touches one particle only, so the bits do not depend on the
 * thread count. Small worlds stay on one thread (no fork/join per substep). */
#ifdef HOOKE_USE_OPENMP
#define HK_PARALLEL_FOR _Pragma("omp parallel for schedule(static) num_threads(hk_world_team(w)) if (p->count > 8192)")
#else
#define HK_PARALLEL_FOR
#endif
#include "engine.h"
#include "forces.h"
#include "springs.h"
#include "surface.h"

/* explicit Euler: x += v h; v += a h (both from the state at the start) */
static void euler(hk_world *w, hk_real h)
{
    const hk_kernels *k = hk_kernels_active();
    if (k) {
        hk_engine_substep(w, k, HK_FINISH_EULER, h);
        return;
    }
    hk_forces_compute(w);
    hk_particles *p = &w->p;
    for (int i = 0; i < p->count; i++) {
        const hk_real im = p->inv_mass[i];
        if (im == 0) continue;
        p->x[i] += p->vx[i] * h;
        p->y[i] += p->vy[i] * h;
        p->z[i] += p->vz[i] * h;
        p->vx[i] += p->fx[i] * im * h;
        p->vy[i] += p->fy[i] * im * h;
        p->vz[i] += p->fz[i] * im * h;
    }
}

/* semi-implicit (symplectic) Euler: v += a h; x += v h (the rope tutorial's) */
static void semi_implicit_euler(hk_world *w, hk_real h)
{
    const hk_kernels *k = hk_kernels_active();
    if (k) {
        hk_engine_substep(w, k, HK_FINISH_SEMI_IMPLICIT, h);
        return;
    }
    hk_forces_compute(w);
    hk_particles *p = &w->p;
    for (int i = 0; i < p->count; i++) {
        const hk_real im = p->inv_mass[i];
        if (im == 0) continue;
        p->vx[i] += p->fx[i] * im * h;
        p->vy[i] += p->fy[i] * im * h;
        p->vz[i] += p->fz[i] * im * h;
        p->x[i] += p->vx[i] * h;
        p->y[i] += p->vy[i] * h;
        p->z[i] += p->vz[i] * h;
    }
}

/* Position Verlet: x_{n+1} = 2 x_n - x_{n-1} + a_n h^2. First step (no history):
 * x_1 = x_0 + v_0 h + a_0 h^2 / 2, or the book's x_1 = x_0 + a_0 h^2.
 * Velocity: central difference (x_{n+1} - x_{n-1}) / 2h (second-order at t_n),
 * advanced to t_{n+1} by a_n h; it feeds damping and the energy report only. */
static void verlet_common(hk_world *w, hk_real h, int book_start)
{
    hk_forces_compute(w);
    hk_particles *p = &w->p;
    hk_real *pos[3] = {p->x, p->y, p->z}, *vel[3] = {p->vx, p->vy, p->vz}, *frc[3] = {p->fx, p->fy, p->fz};
    hk_real *prev[3] = {w->px, w->py, w->pz};
    const hk_real h2 = h * h, inv2h = 1 / (2 * h);
    if (!w->history) {
        for (int c = 0; c < 3; c++) HK_PARALLEL_FOR
        for (int i = 0; i < p->count; i++) {
            const hk_real im = p->inv_mass[i];
            prev[c][i] = pos[c][i];
            if (im == 0) continue;
            const hk_real a = frc[c][i] * im;
            pos[c][i] += book_start ? a * h2 : vel[c][i] * h + (hk_real)0.5 * a * h2;
            vel[c][i] += a * h;
        }
        w->history = 1;
        return;
    }
    for (int c = 0; c < 3; c++) HK_PARALLEL_FOR
    for (int i = 0; i < p->count; i++) {
        const hk_real im = p->inv_mass[i];
        const hk_real xn = pos[c][i];
        if (im == 0) {
            prev[c][i] = xn;
            continue;
        }
        const hk_real a = frc[c][i] * im;
        const hk_real xnew = 2 * xn - prev[c][i] + a * h2;
        vel[c][i] = (xnew - prev[c][i]) * inv2h + a * h;
        prev[c][i] = xn;
        pos[c][i] = xnew;
    }
}

static void verlet(hk_world *w, hk_real h) { verlet_common(w, h, 0); }
static void verlet_book(hk_world *w, hk_real h) { verlet_common(w, h, 1); }

/* velocity Verlet (kick-drift-kick); reuses F of the previous substep when the
 * state has not been changed since (no contacts, anchors or pins). */
static void velocity_verlet(hk_world *w, hk_real h)
{
    hk_particles *p = &w->p;
    if (!w->forces_valid) hk_forces_compute(w);
    const hk_real hh = (hk_real)0.5 * h;
    HK_PARALLEL_FOR
    for (int i = 0; i < p->count; i++) {
        const hk_real im = p->inv_mass[i];
        if (im == 0) continue;
        p->vx[i] += p->fx[i] * im * hh;
        p->vy[i] += p->fy[i] * im * hh;
        p->vz[i] += p->fz[i] * im * hh;
        p->x[i] += p->vx[i] * h;
        p->y[i] += p->vy[i] * h;
        p->z[i] += p->vz[i] * h;
    }
    hk_forces_compute(w);
    HK_PARALLEL_FOR
    for (int i = 0; i < p->count; i++) {
        const hk_real im = p->inv_mass[i];
        if (im == 0) continue;
        p->vx[i] += p->fx[i] * im * hh;
        p->vy[i] += p->fy[i] * im * hh;
        p->vz[i] += p->fz[i] * im * hh;
    }
    w->forces_valid = 1;
}

/* the jelly paper's scheme: v += dt_a F/m; x += dt_v v; v *= alpha */
static void jelly(hk_world *w, hk_real h)
{
    const hk_kernels *k = hk_kernels_active();
    if (k) {
        hk_engine_substep(w, k, HK_FINISH_JELLY, h);
        return;
    }
    hk_forces_compute(w);
    hk_particles *p = &w->p;
    const hk_real dta = w->integrator.jelly_dt_a > 0 ? (hk_real)w->integrator.jelly_dt_a : h;
    const hk_real dtv = w->integrator.jelly_dt_v > 0 ? (hk_real)w->integrator.jelly_dt_v : h;
    const hk_real alpha = (hk_real)w->integrator.jelly_alpha;
    for (int i = 0; i < p->count; i++) {
        const hk_real im = p->inv_mass[i];
        if (im == 0) continue;
        p->vx[i] += dta * p->fx[i] * im;
        p->vy[i] += dta * p->fy[i] * im;
        p->vz[i] += dta * p->fz[i] * im;
        p->x[i] += dtv * p->vx[i];
        p->y[i] += dtv * p->vy[i];
        p->z[i] += dtv * p->vz[i];
        p->vx[i] *= alpha;
        p->vy[i] *= alpha;
        p->vz[i] *= alpha;
    }
}

/* classic RK4 on (x, v): stages are written into the particle arrays so the
 * force code always reads the world's state; scratch holds the start state
 * (6 arrays) and the weighted stage sums (6 arrays). */
static void rk4(hk_world *w, hk_real h)
{
    hk_particles *p = &w->p;
    const size_t stride = w->scratch_stride;
    hk_real *pos[3] = {p->x, p->y, p->z}, *vel[3] = {p->vx, p->vy, p->vz}, *frc[3] = {p->fx, p->fy, p->fz};
    hk_real *x0[3], *v0[3], *sx[3], *sv[3];
    for (int c = 0; c < 3; c++) {
        x0[c] = w->scratch + (0 + c) * stride;
        v0[c] = w->scratch + (3 + c) * stride;
        sx[c] = w->scratch + (6 + c) * stride;
        sv[c] = w->scratch + (9 + c) * stride;
        memcpy(x0[c], pos[c], (size_t)p->count * sizeof(hk_real));
        memcpy(v0[c], vel[c], (size_t)p->count * sizeof(hk_real));
    }
    static const double weight[4] = {1, 2, 2, 1}, advance[4] = {0.5, 0.5, 1, 0};
    for (int stage = 0; stage < 4; stage++) {
        hk_forces_compute(w);
        const hk_real wt = (hk_real)weight[stage], ah = (hk_real)advance[stage] * h;
        for (int c = 0; c < 3; c++) HK_PARALLEL_FOR
        for (int i = 0; i < p->count; i++) {
            const hk_real im = p->inv_mass[i];
            if (im == 0) continue;
            const hk_real kx = vel[c][i], kv = frc[c][i] * im;
            if (stage == 0) {
                sx[c][i] = kx;
                sv[c][i] = kv;
            } else {
                sx[c][i] += wt * kx;
                sv[c][i] += wt * kv;
            }
            if (stage < 3) {
                pos[c][i] = x0[c][i] + ah * kx;
                vel[c][i] = v0[c][i] + ah * kv;
            } else {
                pos[c][i] = x0[c][i] + h / 6 * sx[c][i];
                vel[c][i] = v0[c][i] + h / 6 * sv[c][i];
            }
        }
    }
}

static const hk_integrator_ops integrators[HK_INTEGRATOR_COUNT] = {
    {HK_EULER, "euler", "explicit_euler", 0, 0, euler},
    {HK_SEMI_IMPLICIT_EULER, "semi_implicit_euler", "symplectic_euler", 0, 0, semi_implicit_euler},
    {HK_VERLET, "verlet", "position_verlet", 1, 0, verlet},
    {HK_VERLET_BOOK, "verlet_book", NULL, 1, 0, verlet_book},
    {HK_VELOCITY_VERLET, "velocity_verlet", NULL, 0, 0, velocity_verlet},
    {HK_JELLY, "jelly", NULL, 0, 0, jelly},
    {HK_RK4, "rk4", NULL, 0, 12, rk4},
};

const hk_integrator_ops *hk_integrator_ops_of(hk_integrator_kind kind)
{
    if ((unsigned)kind >= HK_INTEGRATOR_COUNT) return NULL;
    return &integrators[kind];
}

const char *hk_integrator_name(hk_integrator_kind kind)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(kind);
    return ops ? ops->name : "unknown";
}

int hk_integrator_from_name(const char *name)
{
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++)
        if (strcmp(name, integrators[k].name) == 0 || (integrators[k].alias && strcmp(name, integrators[k].alias) == 0))
            return k;
    return -1;
}

const char *hk_integrator_names(void)
{
    return "euler, semi_implicit_euler, verlet, verlet_book, velocity_verlet, jelly, rk4";
}

hk_integrator_def hk_default_integrator_def(void)
{
    hk_integrator_def d = {0};
    d.kind = HK_SEMI_IMPLICIT_EULER;
    d.dt = 1e-3;
    d.jelly_alpha = 1.0;
    return d;
}

int hk_world_set_integrator(hk_world *w, const hk_integrator_def *def)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(def->kind);
    if (!ops) return hk_fail(w, "unknown integrator %d", (int)def->kind);
    if (!(def->dt > 0) || !isfinite(def->dt)) return hk_fail(w, "dt must be > 0 (got %g)", def->dt);
    if (!(def->dt_max >= 0)) return hk_fail(w, "dt_max must be >= 0 (got %g)", def->dt_max);
    if (def->kind == HK_JELLY && !(def->jelly_alpha > 0 && def->jelly_alpha <= 1))
        return hk_fail(w, "jelly_alpha must be in (0, 1] (got %g)", def->jelly_alpha);
    if (!(def->jelly_dt_a >= 0) || !(def->jelly_dt_v >= 0)) return hk_fail(w, "jelly_dt_a and jelly_dt_v must be >= 0");
    double n = def->dt_max > 0 ? ceil(def->dt / def->dt_max * (1 - 1e-12)) : 1;
    if (n > 1e9) return hk_fail(w, "dt / dt_max gives %g substeps (limit 1e9)", n);
    w->integrator = *def;
    w->substeps = n < 1 ? 1 : (int)n;
    w->h = def->dt / w->substeps;
    w->history = 0;
    w->forces_valid = 0;
    return 0;
}

int hk_world_substeps(const hk_world *w) { return w->substeps; }
hk_integrator_def hk_world_integrator(const hk_world *w) { return w->integrator; }

/* Allocates what the integrator keeps between steps; 0 or -1 (out of memory). */
static int ensure_scratch(hk_world *w, const hk_integrator_ops *ops)
{
    size_t cap = (size_t)(w->p.capacity ? w->p.capacity : 1);
    if (ops->needs_history && !w->px && hk_world_alloc_history(w) != 0) return -1;
    if (ops->scratch_arrays && !w->scratch) {
        size_t offset; /* 0 from slot 0 */
        w->scratch = hk_alloc_slab(ops->scratch_arrays, cap, 0, hk_world_team(w), &w->scratch_stride, &offset);
        if (!w->scratch) return -1;
    }
    return 0;
}

static int world_has_anchor(const hk_world *w)
{
    for (int b = 0; b < w->body_count; b++)
        if (w->bodies[b].anchor) return 1;
    return 0;
}

void hk_world_step(hk_world *w)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(w->integrator.kind);
    if (ensure_scratch(w, ops) != 0) {
        hk_fail(w, "out of memory for integrator state");
        return;
    }
    const hk_real h = (hk_real)w->h;
    const int anchors = world_has_anchor(w);
    for (int s = 0; s < w->substeps; s++) {
        if (anchors) {
            hk_anchors_advance(w, w->h);
            w->forces_valid = 0;
        }
        ops->substep(w, h);
        if (hk_surfaces_pump(w)) w->forces_valid = 0; /* the pressure target moved */
        if (hk_springs_break(w) > 0) w->forces_valid = 0;
        if (hk_contacts_apply(w, w->h, ops->needs_history ? w->px : NULL, w->py, w->pz) > 0) w->forces_valid = 0;
    }
    w->steps++;
    w->time += w->integrator.dt;
}
