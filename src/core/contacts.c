/* contacts.c — sphere obstacles (static or moving) and axis-aligned room walls. */
#include "contacts.h"

#include <math.h>

static int walls(hk_world *w, double dt, hk_real *px, hk_real *py, hk_real *pz)
{
    hk_particles *p = &w->p;
    hk_real *pos[3] = {p->x, p->y, p->z}, *vel[3] = {p->vx, p->vy, p->vz}, *prev[3] = {px, py, pz};
    const double lo[3] = {w->def.walls_min.x, w->def.walls_min.y, w->def.walls_min.z};
    const double hi[3] = {w->def.walls_max.x, w->def.walls_max.y, w->def.walls_max.z};
    const hk_real keep = (hk_real)(1.0 - w->def.walls_loss);
    int moved = 0;
    for (int i = 0; i < p->count; i++) {
        if (p->inv_mass[i] == 0) continue;
        int hit = 0;
        for (int c = 0; c < 3; c++) {
            if (pos[c][i] < (hk_real)lo[c]) {
                pos[c][i] = (hk_real)lo[c];
                if (vel[c][i] < 0) vel[c][i] = -keep * vel[c][i];
                hit = 1;
            } else if (pos[c][i] > (hk_real)hi[c]) {
                pos[c][i] = (hk_real)hi[c];
                if (vel[c][i] > 0) vel[c][i] = -keep * vel[c][i];
                hit = 1;
            }
        }
        moved += hit;
        if (hit && px)
            for (int c = 0; c < 3; c++) prev[c][i] = pos[c][i] - vel[c][i] * (hk_real)dt;
    }
    return moved;
}

static int sphere(hk_world *w, hk_sphere_def *s, double dt, hk_real *px, hk_real *py, hk_real *pz)
{
    hk_particles *p = &w->p;
    s->center.x += s->velocity.x * dt;
    s->center.y += s->velocity.y * dt;
    s->center.z += s->velocity.z * dt;
    const double R = s->radius, e = 1.0 - s->loss;
    int moved = 0;
    for (int i = 0; i < p->count; i++) {
        if (p->inv_mass[i] == 0) continue;
        double dx = p->x[i] - s->center.x, dy = p->y[i] - s->center.y, dz = p->z[i] - s->center.z;
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
        p->x[i] = (hk_real)(s->center.x + R * nx);
        p->y[i] = (hk_real)(s->center.y + R * ny);
        p->z[i] = (hk_real)(s->center.z + R * nz);
        /* reflect the normal part of the velocity relative to the sphere */
        double vn = (p->vx[i] - s->velocity.x) * nx + (p->vy[i] - s->velocity.y) * ny + (p->vz[i] - s->velocity.z) * nz;
        if (vn < 0) {
            double j = (1.0 + e) * vn;
            p->vx[i] = (hk_real)(p->vx[i] - j * nx);
            p->vy[i] = (hk_real)(p->vy[i] - j * ny);
            p->vz[i] = (hk_real)(p->vz[i] - j * nz);
        }
        if (px) {
            px[i] = p->x[i] - p->vx[i] * (hk_real)dt;
            py[i] = p->y[i] - p->vy[i] * (hk_real)dt;
            pz[i] = p->z[i] - p->vz[i] * (hk_real)dt;
        }
    }
    return moved;
}

int hk_contacts_apply(hk_world *w, double dt, hk_real *px, hk_real *py, hk_real *pz)
{
    int moved = 0;
    for (int s = 0; s < w->sphere_count; s++) moved += sphere(w, &w->spheres[s], dt, px, py, pz);
    if (w->def.has_walls) moved += walls(w, dt, px, py, pz);
    return moved;
}
