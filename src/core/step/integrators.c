/* integrators.c — the integrator table, and the substep of each scheme: explicit updates, Verlet, RK4. */
/* SPDX-License-Identifier: MIT */
#include "integrators.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bounds.h"
#include "check.h"
#include "pd.h"
#include "vbd.h"
#include "xpbd.h"
#include "forces.h"
#include "implicit.h"
#include "minimise.h"
#include "part.h"
#include "response.h"

/* The substeps of the explicit schemes, told in the passes of ex (world/exec.h): the CPU engine's, or a device's,
 * which runs exactly these (the table's device column). */

/* One force evaluation and an explicit update of every particle (Euler,
 * semi-implicit Euler, the jelly scheme): the update's formula is in
 * engine/update.h, and the engine fuses it into the force pass. */
static void explicit_substep(hk_world *w, const hk_exec *ex, hk_real h)
{
    ex->forces(w, (int)hk_integrator_ops_of(w->integrator.kind)->update, h);
}

/* Position Verlet: x_{n+1} = 2 x_n - x_{n-1} + a_n h^2. First step (no history):
 * x_1 = x_0 + v_0 h + a_0 h^2 / 2, or the book's x_1 = x_0 + a_0 h^2.
 * Velocity: central difference (x_{n+1} - x_{n-1}) / 2h (second-order at t_n),
 * advanced to t_{n+1} by a_n h; it feeds damping and the energy report only. */
static void verlet_common(hk_world *w, const hk_exec *ex, hk_real h, int book_start)
{
    if (ex->forces(w, HK_UPDATE_NONE, 0) != HK_OK) return; /* the substep's start stays (hk_world_step's status) */
    ex->verlet(w, h, !w->history, book_start);
    w->history = 1;
}

static void verlet(hk_world *w, const hk_exec *ex, hk_real h) { verlet_common(w, ex, h, 0); }
static void verlet_book(hk_world *w, const hk_exec *ex, hk_real h) { verlet_common(w, ex, h, 1); }

/* velocity Verlet (kick-drift-kick); reuses F of the previous substep (taken
 * at its end, the colliders there too) when the state has not been changed
 * since (no contacts, anchors, pins or new thread count or kernel path). An
 * evaluation fails only where the engine makes its state: at the first of
 * a world, a team or a path, which is never the second of a substep. */
static void velocity_verlet(hk_world *w, const hk_exec *ex, hk_real h)
{
    if (!w->forces_valid && ex->forces(w, HK_UPDATE_NONE, 0) != HK_OK) return;
    const hk_real hh = (hk_real)0.5 * h;
    ex->kick(w, hh, 1, h);
    hk_contact_at(w, w->h); /* the second evaluation is at the substep's end: the colliders there */
    if (ex->forces(w, HK_UPDATE_NONE, 0) != HK_OK) return;
    ex->kick(w, hh, 0, h);
    w->forces_valid = 1;
}

/* classic RK4 on (x, v): stages are written into the particle arrays so the
 * force code always reads the world's state; the start state and the
 * weighted stage sums are the scheme's scratch (12 arrays). */
static void rk4(hk_world *w, const hk_exec *ex, hk_real h)
{
    static const double weight[4] = {1, 2, 2, 1}, advance[4] = {0.5, 0.5, 1, 0}, at[4] = {0, 0.5, 0.5, 1};
    ex->rk4_start(w);
    for (int stage = 0; stage < 4; stage++) {
        hk_contact_at(w, at[stage] * w->h);                    /* the stage's time: the colliders where they are then */
        if (ex->forces(w, HK_UPDATE_NONE, 0) != HK_OK) return; /* only the first can fail (velocity_verlet) */
        ex->rk4_stage(w, stage, (hk_real)weight[stage], (hk_real)advance[stage] * h, h);
    }
}

/* The schemes the device does not run: the CPU engine's alone (ex is its table). */
#define CPU_ONLY(fn)                                                                                                   \
    static void cpu_##fn(hk_world *w, const hk_exec *ex, hk_real h)                                                    \
    {                                                                                                                  \
        HK_ASSERT(!w->device); /* the CPU's alone: the device refuses these schemes before a step (device.c) */        \
        (void)ex;                                                                                                      \
        fn(w, h);                                                                                                      \
    }
CPU_ONLY(hk_implicit_euler_substep)
CPU_ONLY(hk_trapezoidal_substep)
CPU_ONLY(hk_bdf2_substep)
CPU_ONLY(hk_xpbd_substep)
CPU_ONLY(hk_vbd_substep)
CPU_ONLY(hk_pd_substep)
#undef CPU_ONLY

/* The integrator table: one row per scheme. The stability limit is the
 * largest stable omega*dt on the undamped oscillator (the jelly scheme's
 * with alpha = 1 and dt_a = dt_v = h); the stability profiler (hooke
 * stability) measures where each one fails on a given scene. history: the
 * per-particle arrays it keeps from substep to substep (world.h px.., dqx..).
 * device: 1 where the device backend (core/device/dev_step.c) has the
 * scheme's substep as passes; every other scheme it refuses by name.
 * linearised, minimised: the Newton modes it has (hooke.h hk_integrator_info). */
// clang-format off
#define HK_INTEGRATOR_TABLE(X)                                                                                         \
    /* kind, name, alias, limit, history, evaluations, implicit, scratch, substep, fused update, description, device,  \
       linearised, minimised, iterated, accelerated */                                                                              \
    X(HK_EULER, "euler", "explicit_euler", 0.0, 0, 1, 0, 0, explicit_substep, HK_UPDATE_EULER,                         \
      "explicit Euler: x += v dt; v += a dt", 1, 0, 0, 0, 0)                                                                 \
    X(HK_SEMI_IMPLICIT_EULER, "semi_implicit_euler", "symplectic_euler", 2.0, 0, 1, 0, 0, explicit_substep,            \
      HK_UPDATE_SEMI_IMPLICIT, "semi-implicit (symplectic) Euler: v += a dt; x += v dt", 1, 0, 0, 0, 0)                      \
    X(HK_VERLET, "verlet", "position_verlet", 2.0, 3, 1, 0, 0, verlet, HK_UPDATE_NONE,                                 \
      "position Verlet: x' = 2 x - x_prev + a dt^2, first step x + v dt + a dt^2 / 2", 1, 0, 0, 0, 0)                        \
    X(HK_VERLET_BOOK, "verlet_book", NULL, 2.0, 3, 1, 0, 0, verlet_book, HK_UPDATE_NONE,                               \
      "position Verlet with the book's first step x + a dt^2", 1, 0, 0, 0, 0)                                                \
    X(HK_VELOCITY_VERLET, "velocity_verlet", NULL, 2.0, 0, 1, 0, 0, velocity_verlet, HK_UPDATE_NONE,                   \
      "velocity Verlet (kick, drift, kick), forces reused from the substep before", 1, 0, 0, 0, 0)                           \
    X(HK_JELLY, "jelly", NULL, 2.0, 0, 1, 0, 0, explicit_substep, HK_UPDATE_JELLY,                                     \
      "the jelly scheme: v += dt_a a; x += dt_v v; v *= alpha", 1, 0, 0, 0, 0)                                               \
    X(HK_RK4, "rk4", NULL, 2.8284271247461903, 0, 4, 0, 12, rk4, HK_UPDATE_NONE, "classic fourth-order Runge-Kutta",   \
      1, 0, 0, 0, 0)                                                                                                         \
    X(HK_IMPLICIT_EULER, "implicit_euler", "backward_euler", INFINITY, 3, 1, 1, 0, cpu_hk_implicit_euler_substep,          \
      HK_UPDATE_NONE, "backward Euler as a minimisation (Newton, line search; CG or a direct band solve); damps", 0,   \
      1, 1, 0, 0)                                                                                                            \
    X(HK_TRAPEZOIDAL, "trapezoidal", "newmark", INFINITY, 3, 1, 1, 0, cpu_hk_trapezoidal_substep, HK_UPDATE_NONE,          \
      "the trapezoidal rule (Newmark average acceleration), second order, no numerical damping", 0, 1, 0, 0, 0)              \
    X(HK_BDF2, "bdf2", NULL, INFINITY, 6, 1, 1, 0, cpu_hk_bdf2_substep, HK_UPDATE_NONE,                                    \
      "the second-order backward difference formula as a minimisation; L-stable, damps less than backward Euler", 0,  \
      0, 1, 0, 0)                                                                                                         \
    X(HK_XPBD, "xpbd", NULL, INFINITY, 0, 1, 0, 3, cpu_hk_xpbd_substep, HK_UPDATE_NONE,                                    \
      "extended position-based dynamics: springs as compliant distance constraints, swept colour by colour", 0, 0, 0, \
      HK_XPBD_ITERATIONS, 0)                                                                                              \
    X(HK_VBD, "vbd", NULL, INFINITY, 0, 1, 0, 3, cpu_hk_vbd_substep, HK_UPDATE_NONE,                                       \
      "vertex block descent: each particle's Newton step on backward Euler's energy, colour by colour", 0, 0, 0,       \
      HK_VBD_ITERATIONS, 1)                                                                                               \
    X(HK_PROJECTIVE_DYNAMICS, "projective_dynamics", "local_global", INFINITY, 0, 1, 0, 3, cpu_hk_pd_substep,             \
      HK_UPDATE_NONE,                                                                                                  \
      "projective dynamics: each spring projected to its rest length, then a global solve on a constant matrix", 0, 0, \
      0, HK_PD_ITERATIONS, 0)
// clang-format on

#define HK_ROW(kind, name, alias, limit, history, evals, implicit, scratch, substep, update, text, device, lin, min,   \
               iter, acc)                                                                                              \
    [kind] = {{kind, name, alias, limit, history > 0, evals, implicit, text, device, lin, min, iter, acc},             \
              update,                                                                                                  \
              scratch,                                                                                                 \
              history,                                                                                                 \
              substep},
static const hk_integrator_ops integrators[HK_INTEGRATOR_COUNT] = {HK_INTEGRATOR_TABLE(HK_ROW)};
#undef HK_ROW
#define HK_COUNT(...) +1
_Static_assert(0 HK_INTEGRATOR_TABLE(HK_COUNT) == HK_INTEGRATOR_COUNT, "one row per hk_integrator_kind");
#undef HK_COUNT
/* ", euler, semi_implicit_euler, ..." */
#define HK_NAME(kind, name, ...) ", " name
static const char integrator_names[] = HK_INTEGRATOR_TABLE(HK_NAME);
#undef HK_NAME

const hk_integrator_ops *hk_integrator_ops_of(hk_integrator_kind kind)
{
    if ((unsigned)kind >= HK_INTEGRATOR_COUNT) return NULL;
    return &integrators[kind];
}

int hk_integrator_history_arrays(hk_integrator_kind kind)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(kind);
    return ops ? ops->history_arrays : 0;
}

int hk_world_history(const hk_world *w, hk_real *a[6])
{
    const int n = hk_integrator_history_arrays(w->integrator.kind);
    hk_real *const all[6] = {w->px, w->py, w->pz, w->dqx, w->dqy, w->dqz};
    for (int k = 0; k < 6; k++) a[k] = k < n ? all[k] : NULL;
    return n;
}

int hk_world_make_history(hk_world *w)
{
    const int n = hk_integrator_history_arrays(w->integrator.kind);
    return n > w->history_arrays ? hk_world_alloc_history(w, n) : 0;
}

const hk_integrator_info *hk_integrator_info_of(hk_integrator_kind kind)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(kind);
    return ops ? &ops->info : NULL;
}

const char *hk_integrator_name(hk_integrator_kind kind)
{
    const hk_integrator_ops *ops = hk_integrator_ops_of(kind);
    return ops ? ops->info.name : "unknown";
}

int hk_integrator_from_name(const char *name)
{
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = &integrators[k].info;
        if (strcmp(name, in->name) == 0 || (in->alias && strcmp(name, in->alias) == 0)) return k;
    }
    return -1;
}

const char *hk_integrator_names(void) { return integrator_names + 2; }

/* The names of the rows whose int fact at offset `fact` of hk_integrator_info is set, as "a, b"; names. */
static const char *rows_with(size_t fact, char *names, size_t len)
{
    names[0] = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        int has;
        memcpy(&has, (const char *)&integrators[k].info + fact, sizeof has);
        if (!has) continue;
        const size_t at = strlen(names);
        snprintf(names + at, len - at, "%s%s", at ? ", " : "", integrators[k].info.name);
    }
    return names;
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
    if (hk_check_bound(w, NULL, "dt", HK_BOUND_DT, 0, def->dt) ||
        hk_check_bound(w, NULL, "dt_max", HK_BOUND_DT, 1, def->dt_max) ||
        hk_check_bound(w, NULL, "jelly_dt_a", HK_BOUND_DT, 1, def->jelly_dt_a) ||
        hk_check_bound(w, NULL, "jelly_dt_v", HK_BOUND_DT, 1, def->jelly_dt_v))
        return hk_failed(w);
    if (def->kind == HK_JELLY && !(def->jelly_alpha > 0 && def->jelly_alpha <= 1))
        return hk_fail(w, "jelly_alpha must be in (0, 1] (got %g)", def->jelly_alpha);
    if (!(def->cg_tolerance >= 0 && def->cg_tolerance < 1))
        return hk_fail(w, "cg_tolerance must be in (0, 1), or 0 for the default (got %g)", def->cg_tolerance);
    if (def->cg_max_iterations < 0)
        return hk_fail(w, "cg_max_iterations must be >= 1, or 0 for the default (got %d)", def->cg_max_iterations);
    if (!(def->newton_tolerance >= 0 && def->newton_tolerance < 1))
        return hk_fail(w, "newton_tolerance must be in (0, 1), or 0 for the default (got %g)", def->newton_tolerance);
    if (def->newton_iterations < 0 || def->newton_iterations > HK_MAX_NEWTON_ITERATIONS)
        return hk_fail(w, "newton_iterations must be 1 to %d, or 0 for the default (got %d)", HK_MAX_NEWTON_ITERATIONS,
                       def->newton_iterations);
    if (def->newton_iterations > 0 && ops->info.implicit && !ops->info.linearised)
        return hk_fail(w,
                       "newton_iterations is the linearised step's; %s is solved as a minimisation only (set "
                       "newton_tolerance)",
                       ops->info.name);
    if (def->iterations < 0 || def->iterations > HK_MAX_ITERATIONS)
        return hk_fail(w, "iterations must be 1 to %d, or 0 for the default (got %d)", HK_MAX_ITERATIONS,
                       def->iterations);
    char names[128]; /* the rows that have a setting, from the table */
    if (def->iterations > 0 && !ops->info.iterated)
        return hk_fail(w, "iterations is the iterated integrators' (%s); %s does not sweep",
                       rows_with(offsetof(hk_integrator_info, iterated), names, sizeof names), ops->info.name);
    if (!(def->chebyshev_rho >= 0 && def->chebyshev_rho < 1))
        return hk_fail(w, "chebyshev_rho must be in (0, 1), or 0 for none (got %g)", def->chebyshev_rho);
    if (def->chebyshev_rho > 0 && !ops->info.accelerated)
        return hk_fail(w, "chebyshev_rho is the accelerated integrators' (%s); %s has no acceleration",
                       rows_with(offsetof(hk_integrator_info, accelerated), names, sizeof names), ops->info.name);
    if ((unsigned)def->preconditioner >= HK_PRECONDITIONER_COUNT)
        return hk_fail(w, "unknown preconditioner %d", (int)def->preconditioner);
    if ((unsigned)def->cg_stop >= HK_CG_STOP_COUNT) return hk_fail(w, "unknown cg_stop %d", (int)def->cg_stop);
    if (def->cg_stop == HK_CG_STOP_NEWTON && !(ops->info.minimised && def->newton_iterations == 0))
        return hk_fail(w,
                       "cg_stop newton is the minimising integrators' (%s, without newton_iterations): it stops each "
                       "Newton iteration's solve by the minimisation's own rule; %s%s has none",
                       rows_with(offsetof(hk_integrator_info, minimised), names, sizeof names), ops->info.name,
                       def->newton_iterations > 0 ? " with newton_iterations" : "");
    double n = def->dt_max > 0 ? ceil(def->dt / def->dt_max * (1 - 1e-12)) : 1;
    if (n > 1e9) return hk_fail(w, "dt / dt_max gives %g substeps (limit 1e9)", n);
    w->integrator = *def;
    w->solves = ops->info.implicit;
    w->substeps = n < 1 ? 1 : (int)n;
    w->h = def->dt / w->substeps;
    w->history = 0;
    w->forces_valid = 0;
    w->step_failed = 0;
    return 0;
}

int hk_world_substeps(const hk_world *w) { return w->substeps; }
hk_integrator_def hk_world_integrator(const hk_world *w) { return w->integrator; }
