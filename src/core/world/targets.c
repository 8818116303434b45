/* targets.c — kinematic targets: set, read back and released, every value checked first; their moves in a step. */
/* SPDX-License-Identifier: MIT */
#include "targets.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 0 if particles[0 .. count) may be driven or released by `call` (each exists, is listed once, and is no body's
 * driven anchor; with `targeted`, each has a target), else the failure. */
static int particles_refused(hk_world *w, int count, const int *particles, const char *call, int targeted)
{
    if (count < 0 || (count > 0 && !particles)) return hk_fail(w, "%s: %d particles, no list", call, count);
    if (w->part) return hk_fail(w, "%s: the world is shared out over MPI ranks, whose particles move on each", call);
    if (w->device_on == 2) return hk_fail(w, "%s: the world steps on the GPU, whose passes drive no particle", call);
    unsigned char *seen = calloc((size_t)(w->p.count > 0 ? w->p.count : 1), 1);
    if (!seen) return hk_fail_memory(w, "%s: out of memory for %d particles", call, w->p.count);
    int rc = 0;
    for (int k = 0; k < count && !rc; k++) {
        const int i = particles[k];
        if (i < 0 || i >= w->p.count) {
            rc = hk_fail(w, "%s: no particle %d (the world has %d)", call, i, w->p.count);
            break;
        }
        const int b = hk_body_of(w, i);
        if (seen[i])
            rc = hk_fail(w, "%s: particle %d is listed twice", call, i);
        else if (w->bodies[b].anchor && i == w->bodies[b].first)
            rc = hk_fail(w, "%s: particle %d is body %d's driven anchor, which its anchor velocity moves", call, i, b);
        else if (targeted && !(w->targets && i < w->targets->slot_cap && w->targets->slot[i] >= 0))
            rc = hk_fail(w, "%s: particle %d has no target", call, i);
        seen[i] = 1;
    }
    free(seen);
    return rc;
}

/* Room for n more targets and a map of every particle now: 0, or -1 (hk_fail_memory). */
static int room(hk_world *w, int n)
{
    if (!w->targets && !(w->targets = calloc(1, sizeof *w->targets)))
        return hk_fail_memory(w, "out of memory for kinematic targets");
    hk_targets *t = w->targets;
    if (t->count + n > t->cap) {
        const int cap = t->count + n > 2 * t->cap ? t->count + n : 2 * t->cap;
        hk_target *list = realloc(t->list, (size_t)cap * sizeof *list);
        if (!list) return hk_fail_memory(w, "out of memory for %d kinematic targets", cap);
        t->list = list;
        t->cap = cap;
    }
    if (t->slot_cap < w->p.count) {
        int *slot = realloc(t->slot, (size_t)w->p.count * sizeof *slot);
        if (!slot) return hk_fail_memory(w, "out of memory for kinematic targets (%d particles)", w->p.count);
        for (int i = t->slot_cap; i < w->p.count; i++) slot[i] = -1;
        t->slot = slot;
        t->slot_cap = w->p.count;
    }
    return 0;
}

int hk_world_set_targets(hk_world *w, int count, const int *particles, const double *xyz)
{
    int rc = particles_refused(w, count, particles, "set_targets", 0);
    for (int k = 0; k < count && !rc; k++) {
        const double *x = xyz + 3 * (size_t)k;
        const int i = particles[k];
        if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]))
            rc = hk_fail(w, "set_targets: target of particle %d is not finite", i);
        else if (!hk_particle_fits(w, &w->bodies[hk_body_of(w, i)], i, x))
            rc = hk_fail(w, "set_targets: target (%g, %g, %g) m of particle %d is beyond this build's precision", x[0],
                         x[1], x[2], i);
    }
    if (rc || (rc = room(w, count)) != 0) return rc;
    hk_state_write(w);
    hk_targets *t = w->targets;
    for (int k = 0; k < count; k++) {
        const int i = particles[k];
        if (t->slot[i] < 0) {
            hk_target *n = &t->list[t->count];
            memset(n, 0, sizeof *n);
            n->particle = i;
            n->was_pinned = w->p.inv_mass[i] == 0;
            t->slot[i] = t->count++;
        }
        memcpy(t->list[t->slot[i]].target, xyz + 3 * (size_t)k, sizeof(double[3]));
        w->p.inv_mass[i] = 0;
    }
    w->forces_valid = 0;
    return HK_OK;
}

int hk_world_clear_targets(hk_world *w, int count, const int *particles)
{
    hk_targets *t = w->targets;
    if (count == 0) { /* every one, in order */
        if (!t || t->count == 0) return HK_OK;
        particles = NULL;
        count = t->count;
    } else {
        const int rc = particles_refused(w, count, particles, "clear_targets", 1);
        if (rc) return rc;
    }
    hk_state_write(w);
    for (int k = 0; k < count; k++) { /* each released, its slot marked; then the list closed up in one pass */
        const int i = particles ? particles[k] : t->list[k].particle;
        if (t->list[t->slot[i]].was_pinned)
            w->p.vx[i] = w->p.vy[i] = w->p.vz[i] = 0;
        else
            hk_particle_free(w, i);
        t->slot[i] = -1;
    }
    int kept = 0;
    for (int s = 0; s < t->count; s++)
        if (t->slot[t->list[s].particle] >= 0) {
            t->list[kept] = t->list[s];
            t->slot[t->list[kept].particle] = kept;
            kept++;
        }
    t->count = kept;
    w->forces_valid = 0;
    return HK_OK;
}

int hk_world_targets(const hk_world *w, int *particles, double *xyz)
{
    const hk_targets *t = w->targets;
    const int n = t ? t->count : 0;
    for (int k = 0; k < n; k++) {
        if (particles) particles[k] = t->list[k].particle;
        if (xyz) memcpy(xyz + 3 * (size_t)k, t->list[k].target, sizeof(double[3]));
    }
    return n;
}

void hk_targets_begin(hk_world *w)
{
    hk_targets *t = w->targets;
    hk_particles *p = &w->p;
    const double dt = w->integrator.dt;
    for (int k = 0; k < t->count; k++) {
        hk_target *g = &t->list[k];
        const int i = g->particle;
        p->inv_mass[i] = 0; /* driven, whatever was written since (a pin's release, a restored state) */
        if (g->ended && p->qx[i] == g->placed[0] && p->qy[i] == g->placed[1] && p->qz[i] == g->placed[2])
            memcpy(g->from, g->at, sizeof g->from);
        else
            hk_particle_position(w, &w->bodies[hk_body_of(w, i)], i, g->from);
        for (int c = 0; c < 3; c++) g->vel[c] = (g->target[c] - g->from[c]) / dt;
    }
}

void hk_targets_substep(hk_world *w, int s, int substeps)
{
    hk_targets *t = w->targets;
    hk_particles *p = &w->p;
    const double f = (double)(s + 1) / substeps;
    for (int k = 0; k < t->count; k++) {
        const hk_target *g = &t->list[k];
        const int i = g->particle;
        double x[3];
        for (int c = 0; c < 3; c++)
            x[c] = s + 1 == substeps ? g->target[c] : g->from[c] + (g->target[c] - g->from[c]) * f;
        hk_particle_place(w, &w->bodies[hk_body_of(w, i)], i, x);
        p->vx[i] = (hk_real)g->vel[0];
        p->vy[i] = (hk_real)g->vel[1];
        p->vz[i] = (hk_real)g->vel[2];
    }
}

void hk_targets_end(hk_world *w)
{
    hk_targets *t = w->targets;
    const hk_particles *p = &w->p;
    for (int k = 0; k < t->count; k++) {
        hk_target *g = &t->list[k];
        const int i = g->particle;
        memcpy(g->at, g->target, sizeof g->at);
        g->placed[0] = p->qx[i], g->placed[1] = p->qy[i], g->placed[2] = p->qz[i];
        g->ended = 1;
    }
}

void hk_targets_free(hk_world *w)
{
    if (!w->targets) return;
    free(w->targets->list);
    free(w->targets->slot);
    free(w->targets);
    w->targets = NULL;
}
