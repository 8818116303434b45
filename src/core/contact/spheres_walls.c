/* spheres_walls.c — sphere obstacles (static or moving) and axis-aligned room walls. */
/* SPDX-License-Identifier: MIT */
#include "spheres_walls.h"

#include <math.h>
#include <stdatomic.h>

#include "part.h"

/* Contacts are worked out in world coordinates, in double: a particle's
 * place is its body's origin + (r + q) (hk_particle_position), and a particle
 * moved by a contact gets q back from its new place (hk_particle_place). */

/* Each particle's contact is its own: the particles this process computes
 * are shared out over the world's team (part.h hk_team_spans: each task its
 * pieces, each piece's body found once, in the solver's floating-point
 * mode), and the count of moved particles summed (integers: any order). */

/* The contact pass of one obstacle (walls, or sphere s) and its count. */
typedef struct contact_pass {
    hk_world *w;
    double dt;
    hk_real *px, *py, *pz; /* position Verlet's previous positions, or NULL */
    hk_sphere_def sd;      /* a sphere at its place of this substep */
    atomic_int moved;
} contact_pass;

static void walls_piece(void *ctx, int g0, int g1)
{
    contact_pass *cp = ctx;
    hk_world *w = cp->w;
    const double dt = cp->dt;
    hk_particles *p = &w->p;
    hk_real *vel[3] = {p->vx, p->vy, p->vz}, *prev[3] = {cp->px, cp->py, cp->pz}, *q[3] = {p->qx, p->qy, p->qz};
    const double lo[3] = {w->def.walls_min.x, w->def.walls_min.y, w->def.walls_min.z};
    const double hi[3] = {w->def.walls_max.x, w->def.walls_max.y, w->def.walls_max.z};
    const hk_real keep = (hk_real)(1.0 - w->def.walls_loss);
    int moved = 0;
    for (int i = g0, b = hk_body_of(w, g0); i < g1; i++) {
        while (i >= w->bodies[b].first + w->bodies[b].count) b++;
        if (p->inv_mass[i] == 0) continue;
        const hk_body *bd = &w->bodies[b];
        double x[3];
        hk_particle_position(w, bd, i, x);
        int hit = 0;
        for (int c = 0; c < 3; c++) {
            if (x[c] < lo[c]) {
                x[c] = lo[c];
                if (vel[c][i] < 0) vel[c][i] = -keep * vel[c][i];
                hit = 1;
            } else if (x[c] > hi[c]) {
                x[c] = hi[c];
                if (vel[c][i] > 0) vel[c][i] = -keep * vel[c][i];
                hit = 1;
            }
        }
        if (!hit) continue;
        moved++;
        hk_particle_place(w, bd, i, x);
        if (cp->px)
            for (int c = 0; c < 3; c++) prev[c][i] = q[c][i] - vel[c][i] * (hk_real)dt;
    }
    atomic_fetch_add_explicit(&cp->moved, moved, memory_order_relaxed);
}

static int walls(hk_world *w, double dt, hk_real *px, hk_real *py, hk_real *pz)
{
    contact_pass cp = {.w = w, .dt = dt, .px = px, .py = py, .pz = pz};
    atomic_init(&cp.moved, 0);
    hk_team_spans(w, walls_piece, &cp);
    return atomic_load(&cp.moved);
}

static void sphere_piece(void *ctx, int g0, int g1)
{
    contact_pass *cp = ctx;
    hk_world *w = cp->w;
    const double dt = cp->dt;
    hk_real *px = cp->px, *py = cp->py, *pz = cp->pz;
    hk_particles *p = &w->p;
    const hk_sphere_def sd = cp->sd;
    const double R = sd.radius, e = 1.0 - sd.loss;
    int moved = 0;
    for (int i = g0, b = hk_body_of(w, g0); i < g1; i++) {
        while (i >= w->bodies[b].first + w->bodies[b].count) b++;
        if (p->inv_mass[i] == 0) continue;
        const hk_body *bd = &w->bodies[b];
        double x[3];
        hk_particle_position(w, bd, i, x);
        double dx = x[0] - sd.center.x, dy = x[1] - sd.center.y, dz = x[2] - sd.center.z;
        double r2 = dx * dx + dy * dy + dz * dz;
        if (!(r2 < R * R)) continue;
        double r = sqrt(r2);
        moved++;
        double nx = 0, ny = 1, nz = 0; /* a particle at the exact centre leaves upward */
        if (r > 0) {
            nx = dx / r;
            ny = dy / r;
            nz = dz / r;
        }
        const double on[3] = {sd.center.x + R * nx, sd.center.y + R * ny, sd.center.z + R * nz};
        hk_particle_place(w, bd, i, on);
        /* reflect the normal part of the velocity relative to the sphere */
        double vn = (p->vx[i] - sd.velocity.x) * nx + (p->vy[i] - sd.velocity.y) * ny + (p->vz[i] - sd.velocity.z) * nz;
        if (vn < 0) {
            double j = (1.0 + e) * vn;
            p->vx[i] = (hk_real)(p->vx[i] - j * nx);
            p->vy[i] = (hk_real)(p->vy[i] - j * ny);
            p->vz[i] = (hk_real)(p->vz[i] - j * nz);
        }
        if (px) {
            px[i] = p->qx[i] - p->vx[i] * (hk_real)dt;
            py[i] = p->qy[i] - p->vy[i] * (hk_real)dt;
            pz[i] = p->qz[i] - p->vz[i] * (hk_real)dt;
        }
    }
    atomic_fetch_add_explicit(&cp->moved, moved, memory_order_relaxed);
}

static int sphere(hk_world *w, hk_sphere_def *s, double dt, hk_real *px, hk_real *py, hk_real *pz)
{
    s->center.x += s->velocity.x * dt;
    s->center.y += s->velocity.y * dt;
    s->center.z += s->velocity.z * dt;
    contact_pass cp = {.w = w, .dt = dt, .px = px, .py = py, .pz = pz, .sd = *s};
    atomic_init(&cp.moved, 0);
    hk_team_spans(w, sphere_piece, &cp);
    return atomic_load(&cp.moved);
}

int hk_contacts_apply(hk_world *w, double dt, hk_real *px, hk_real *py, hk_real *pz)
{
    int moved = 0;
    for (int s = 0; s < w->sphere_count; s++) moved += sphere(w, &w->spheres[s], dt, px, py, pz);
    if (w->def.has_walls) moved += walls(w, dt, px, py, pz);
    return moved;
}
