/* inertia.c — the iterated solvers' other forces, inertial prediction and end-of-substep velocity. */
/* SPDX-License-Identifier: MIT */
#include "inertia.h"

#include "constraints.h"
#include "external.h"
#include "kernels.h"
#include "part.h"
#include "response.h"
#include "surface.h"

int hk_iterate_refused(hk_world *w, const char *name)
{
    if (!w->part || w->part->ranks <= 1) return 0;
    w->step_failed = hk_fail(w, HK_SWEEPS_NOT_OVER_RANKS, name);
    return 1;
}

/* f = every force but the springs' (hk_iterate_begin) */
static void other_forces(hk_world *w)
{
    if (w->contact) hk_contact_forces(w);
    hk_external ext;
    hk_external_init(&ext, &w->def);
    hk_particle_force_arrays(w, ext.contact);
    const hk_kernels *k = w->kernels ? w->kernels : &hk_kernels_scalar;
    for (int b = 0; b < w->body_count; b++) {
        hk_external_frame(&ext, &w->def, w->bodies[b].origin);
        k->external_forces(&ext, &w->p, w->bodies[b].first, w->bodies[b].count);
    }
    hk_surfaces_forces(w);
}

/* What the per-particle passes read. */
typedef struct inertia_pass {
    hk_particles *p;
    hk_real *const *prev;
    hk_real h;
} inertia_pass;

static void predict_span(void *ctx, int g0, int g1)
{
    const inertia_pass *s = ctx;
    hk_particles *p = s->p;
    hk_real *q[3] = {p->qx, p->qy, p->qz}, *v[3] = {p->vx, p->vy, p->vz}, *f[3] = {p->fx, p->fy, p->fz};
    for (int c = 0; c < 3; c++)
        for (int g = g0; g < g1; g++) {
            s->prev[c][g] = q[c][g];
            const hk_real wi = p->inv_mass[g];
            if (wi == 0) continue;
            v[c][g] += s->h * wi * f[c][g];
            q[c][g] += s->h * v[c][g];
        }
}

static void velocity_span(void *ctx, int g0, int g1)
{
    const inertia_pass *s = ctx;
    hk_particles *p = s->p;
    const hk_real *q[3] = {p->qx, p->qy, p->qz};
    hk_real *v[3] = {p->vx, p->vy, p->vz};
    const hk_real inv_h = 1 / s->h;
    for (int c = 0; c < 3; c++)
        for (int g = g0; g < g1; g++)
            if (p->inv_mass[g] != 0) {
                const hk_real pred = s->prev[c][g] + s->h * v[c][g];
                v[c][g] += (q[c][g] - pred) * inv_h;
            }
}

void hk_iterate_begin(hk_world *w, hk_real h, hk_real *prev[3])
{
    for (int c = 0; c < 3; c++) prev[c] = w->scratch + (size_t)c * w->scratch_stride;
    other_forces(w);
    inertia_pass s = {&w->p, prev, h};
    hk_team_spans(w, predict_span, &s);
}

void hk_iterate_end(hk_world *w, hk_real h, hk_real *const prev[3], int64_t updates)
{
    inertia_pass s = {&w->p, prev, h};
    hk_team_spans(w, velocity_span, &s);
    w->spring_updates += updates;
    w->forces_valid = 0;
}
