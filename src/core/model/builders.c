/* builders.c — rope, cloth, jelly, quad, spring pair, pendulum and point bodies. */
/* SPDX-License-Identifier: MIT */
#include "builders.h"

#include "bounds.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "springs.h"
#include "surface.h"

int hk_normalise(hk_vec3 *v)
{
    double n = sqrt(v->x * v->x + v->y * v->y + v->z * v->z);
    if (!(n > 0) || !isfinite(n)) return 0;
    v->x /= n;
    v->y /= n;
    v->z /= n;
    return 1;
}

int hk_check_spring_params(hk_world *w, const char *what, const hk_spring_params *s)
{
    if (hk_check_bound(w, what, "k", HK_BOUND_STIFFNESS, 1, s->k) ||
        hk_check_bound(w, what, "damping", HK_BOUND_DAMPING, 1, s->damping))
        return hk_failed(w);
    if (!(s->rest_length >= 0) || !isfinite(s->rest_length))
        return hk_fail(w, "%s: rest_length must be >= 0 (got %g)", what, s->rest_length);
    if (s->rest_length > HK_SPRING_MAX_LENGTH)
        return hk_fail(w, "%s: rest_length must be at most %g m, this build's longest spring (got %g)", what,
                       HK_SPRING_MAX_LENGTH, s->rest_length);
    if (s->behaviour == HK_SPRING_BREAKABLE && !(s->break_ratio > 1))
        return hk_fail(w, "%s: break_ratio must be > 1 (got %g)", what, s->break_ratio);
    if (!(s->strain_limit >= 0) || !isfinite(s->strain_limit))
        return hk_fail(w, "%s: strain_limit must be 0 (none) or > 0 (got %g)", what, s->strain_limit);
    if (!(s->compress_limit >= 0 && s->compress_limit < 1))
        return hk_fail(w, "%s: compress_limit must be 0 (none) or in (0, 1) (got %g)", what, s->compress_limit);
    if ((unsigned)s->behaviour > HK_SPRING_BREAKABLE) return hk_fail(w, "%s: unknown behaviour", what);
    if ((unsigned)s->damping_model > HK_DAMP_RELATIVE) return hk_fail(w, "%s: unknown damping model", what);
    return 0;
}

int hk_check_mass(hk_world *w, const char *what, double m)
{
    return hk_check_bound(w, what, "mass", HK_BOUND_MASS, 0, m);
}

static void set_mass(hk_world *w, int i, double m)
{
    w->p.mass[i] = (hk_real)m;
    w->p.inv_mass[i] = (hk_real)(1.0 / m);
}

int hk_world_set_masses(hk_world *w, int first, int count, const double *m)
{
    if (first < 0 || count < 0 || first > w->p.count - count)
        return hk_fail(w, "set_masses: particles [%d, %d) outside the %d particles", first, first + count, w->p.count);
    for (int i = 0; i < count; i++) {
        char what[64];
        snprintf(what, sizeof what, "set_masses: particle %d", first + i);
        if (hk_check_mass(w, what, m[i])) return hk_failed(w);
    }
    hk_state_write(w);
    for (int i = 0; i < count; i++) {
        const int g = first + i;
        const int held = w->p.inv_mass[g] == 0; /* pinned and driven ones stay so */
        set_mass(w, g, m[i]);
        if (held) w->p.inv_mass[g] = 0;
    }
    w->forces_valid = 0;
    return 0;
}

/* The held nodes [lo, hi) (body-local) of lattice body b at rest: node (i, j, k) at rest position r = i A + j B + k
 * C from the origin (rounded once to the build's precision, from its global indices: the same bits on every rank),
 * no displacement, no velocity, mass m. */
static void lattice_rest(hk_world *w, const hk_body *b, int64_t lo, int64_t hi, double m)
{
    hk_particles *p = &w->p;
    const int64_t base = hk_body_base(b);
    for (int64_t l = lo; l < hi; l++) {
        const int i = (int)(base + l);
        double r[3];
        hk_body_rest(b, l, r);
        p->rx[i] = (hk_real)r[0], p->ry[i] = (hk_real)r[1], p->rz[i] = (hk_real)r[2];
        p->qx[i] = p->qy[i] = p->qz[i] = 0;
        p->vx[i] = p->vy[i] = p->vz[i] = 0;
        set_mass(w, i, m);
    }
}

/* Makes body a lattice at rest: origin o, axes A, B, C, every node of mass m (built now, or from its recipe when
 * its rows are given their storage: hk_lattice_fill). */
static void lattice_frame(hk_world *w, int body, hk_vec3 o, const double A[3], const double B[3], const double C[3],
                          double m)
{
    hk_body *b = &w->bodies[body];
    b->origin[0] = o.x, b->origin[1] = o.y, b->origin[2] = o.z;
    b->lattice = 1;
    for (int c = 0; c < 3; c++) b->axis[0][c] = A[c], b->axis[1][c] = B[c], b->axis[2][c] = C[c];
    if (!b->recipe) lattice_rest(w, b, 0, b->count, m);
}

void hk_lattice_fill(hk_world *w, int body)
{
    const hk_body *b = &w->bodies[body];
    const hk_lattice_recipe *r = b->recipe;
    const int64_t lo = b->lo, hi = (int64_t)b->lo + b->count;
    lattice_rest(w, b, lo, hi, r->mass);
    hk_particles *p = &w->p;
    for (int k = 0; k < r->nop; k++) { /* in the order the builder and the scene asked for them */
        const int64_t l = r->op[k] == HK_RECIPE_ANCHOR ? 0 : r->op[k];
        if (l < lo || l >= hi) continue; /* another rank's node */
        const int64_t i = hk_body_base(b) + l;
        if (r->op[k] == HK_RECIPE_ANCHOR) {
            p->vx[i] = (hk_real)b->anchor_vel[0];
            p->vy[i] = (hk_real)b->anchor_vel[1];
            p->vz[i] = (hk_real)b->anchor_vel[2];
        } else {
            p->inv_mass[i] = 0;
            p->vx[i] = p->vy[i] = p->vz[i] = 0;
        }
    }
}

/* A new lattice body of n particles: built now, or deferred (no particle held until the world is shared out:
 * hk_world_defer_lattices) when `deferrable` (a pure lattice: no list springs, no faces) and the world defers. */
static int new_lattice(hk_world *w, const char *kind, int n, int nx, int ny, int nz, double m, int deferrable)
{
    if (w->defer && deferrable) return hk_world_new_deferred_body(w, kind, n, nx, ny, nz, m);
    int first = hk_world_grow_particles(w, n);
    if (first < 0) return hk_failed(w);
    int body = hk_world_new_body(w, kind, first, n, nx, ny, nz);
    if (body < 0) {
        hk_world_drop_particles(w, first);
        return hk_failed(w);
    }
    return body;
}

/* Drops a body that failed half-way (it is always the last one added). */
int hk_undo_body(hk_world *w, int body, int first_family)
{
    for (int f = first_family; f < w->family_count; f++) hk_family_free(&w->families[f]);
    w->family_count = first_family;
    hk_world_drop_particles(w, w->bodies[body].first);
    w->gcount = w->bodies[body].gfirst;
    if (w->bodies[body].recipe) free(w->bodies[body].recipe->op), free(w->bodies[body].recipe);
    w->body_count = body;
    return hk_failed(w);
}

/* ---- rope ---------------------------------------------------------------- */

hk_rope_def hk_default_rope_def(void)
{
    hk_rope_def d = {0};
    d.count = 80;
    d.mass = 0.05;
    d.spacing = 0.05;
    d.direction = (hk_vec3){1, 0, 0};
    d.topology = HK_ROPE_CHAIN;
    d.springs = hk_default_spring_params();
    d.skip_springs = hk_default_spring_params();
    return d;
}

int hk_world_add_rope(hk_world *w, const hk_rope_def *d)
{
    if (d->count < 2) return hk_fail(w, "rope: count must be >= 2 (got %d)", d->count);
    if (hk_check_mass(w, "rope", d->mass) || hk_check_spring_params(w, "rope springs", &d->springs))
        return hk_failed(w);
    if (d->topology == HK_ROPE_SKIP_ONE && hk_check_spring_params(w, "rope skip springs", &d->skip_springs))
        return hk_failed(w);
    if (hk_check_positive(w, "rope", "spacing", d->spacing) || hk_check_vec(w, "rope", "origin", d->origin) ||
        hk_check_vec(w, "rope", "anchor_velocity", d->anchor_velocity))
        return hk_failed(w);
    if ((unsigned)d->topology >= HK_ROPE_TOPOLOGY_COUNT)
        return hk_fail(w, "rope: unknown topology %d", (int)d->topology);
    hk_vec3 dir = d->direction;
    if (!hk_normalise(&dir)) return hk_fail(w, "rope: direction must be a non-zero vector");
    if (d->topology == HK_ROPE_ALL_TO_ALL && (int64_t)d->count * (d->count - 1) / 2 > 50000000)
        return hk_fail(w, "rope: all_to_all with %d particles exceeds 5e7 springs", d->count);

    int body = new_lattice(w, "rope", d->count, d->count, 1, 1, d->mass, d->topology != HK_ROPE_ALL_TO_ALL);
    if (body < 0) return hk_failed(w);
    const int first = w->bodies[body].first;
    int fam0 = w->family_count;
    const double A[3] = {d->spacing * dir.x, d->spacing * dir.y, d->spacing * dir.z}, O3[3] = {0, 0, 0};
    lattice_frame(w, body, d->origin, A, O3, O3, d->mass);

    if (d->topology == HK_ROPE_ALL_TO_ALL) {
        int64_t n = (int64_t)d->count * (d->count - 1) / 2, s = 0;
        int *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
        if (!a || !b) {
            free(a);
            free(b);
            hk_fail_memory(w, "rope: out of memory for %lld springs", (long long)n);
            return hk_undo_body(w, body, fam0);
        }
        for (int i = 0; i < d->count; i++)
            for (int j = i + 1; j < d->count; j++) {
                a[s] = first + i;
                b[s] = first + j;
                s++;
            }
        int rc = hk_add_list_family(w, body, "all_to_all", &d->springs, n, a, b, NULL);
        free(a);
        free(b);
        if (rc) return hk_undo_body(w, body, fam0);
    } else {
        if (!hk_add_lattice_family(w, body, "chain", &d->springs, 1, 0, 0)) return hk_undo_body(w, body, fam0);
        if (d->topology == HK_ROPE_SKIP_ONE && !hk_add_lattice_family(w, body, "skip", &d->skip_springs, 2, 0, 0))
            return hk_undo_body(w, body, fam0);
    }
    if (d->anchor) {
        hk_body *b = &w->bodies[body];
        b->anchor = 1;
        b->anchor_pos[0] = d->origin.x;
        b->anchor_pos[1] = d->origin.y;
        b->anchor_pos[2] = d->origin.z;
        b->anchor_vel[0] = d->anchor_velocity.x;
        b->anchor_vel[1] = d->anchor_velocity.y;
        b->anchor_vel[2] = d->anchor_velocity.z;
        hk_world_pin(w, body, 0);
        if (b->recipe) {
            if (hk_recipe_add(w, body, HK_RECIPE_ANCHOR) != 0) return hk_undo_body(w, body, fam0);
        } else {
            w->p.vx[first] = (hk_real)d->anchor_velocity.x;
            w->p.vy[first] = (hk_real)d->anchor_velocity.y;
            w->p.vz[first] = (hk_real)d->anchor_velocity.z;
        }
    }
    return body;
}

/* ---- cloth --------------------------------------------------------------- */

hk_cloth_def hk_default_cloth_def(void)
{
    hk_cloth_def d = {0};
    d.nx = d.ny = 32;
    d.spacing = 0.01;
    d.u = (hk_vec3){1, 0, 0};
    d.v = (hk_vec3){0, 0, 1};
    d.mass = 1e-3;
    d.structural = d.shear = d.bend = 1;
    d.structural_springs = d.shear_springs = d.bend_springs = d.radius_springs = hk_default_spring_params();
    d.pins = HK_PIN_NONE;
    return d;
}

static int cloth_offset_taken(const hk_cloth_def *d, int di, int dj)
{
    if (d->structural && ((di == 1 && dj == 0) || (di == 0 && dj == 1))) return 1;
    if (d->shear && di == 1 && (dj == 1 || dj == -1)) return 1;
    if (d->bend && ((di == 2 && dj == 0) || (di == 0 && dj == 2))) return 1;
    return 0;
}

/* Gives the nodes on the edges of cloth `body` the area they stand for (fabric.h): the interior's are in place. */
static void cloth_edge_masses(hk_world *w, int body, const hk_cloth_def *d)
{
    const int first = w->bodies[body].first;
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i += (j == 0 || j == d->ny - 1 || i == d->nx - 1) ? 1 : d->nx - 1)
            set_mass(w, first + i + j * d->nx,
                     hk_fabric_node_mass(d->fabric.areal_density, d->spacing, i, j, d->nx, d->ny));
}

/* Which rows of a structural stencil a family holds: all, or (a fabric's: docs/fabric.md) the interior at k and each
 * edge at half k, the edges standing for half a strip. */
enum { ROWS_ALL, ROWS_INSIDE, ROWS_FIRST, ROWS_LAST };

static void cloth_rows(hk_family *f, int rows, const hk_cloth_def *d)
{
    if (rows == ROWS_ALL) return;
    const int across = f->di != 0 ? d->ny : d->nx; /* the rows run across the spring */
    const int lo = rows == ROWS_INSIDE ? 1 : rows == ROWS_FIRST ? 0 : across - 1;
    const int hi = rows == ROWS_INSIDE ? across - 1 : lo + 1;
    if (f->di != 0)
        hk_lattice_family_narrow(f, 0, INT32_MAX, lo, hi);
    else
        hk_lattice_family_narrow(f, lo, hi, 0, INT32_MAX);
}

int hk_world_add_cloth(hk_world *w, const hk_cloth_def *def)
{
    hk_cloth_def fabric_def = *def; /* with its fabric's figures in place */
    const hk_cloth_def *d = &fabric_def;
    const double rho = def->fabric.areal_density;
    if (d->nx < 2 || d->ny < 2) return hk_fail(w, "cloth: nx and ny must be >= 2 (got %d x %d)", d->nx, d->ny);
    if ((int64_t)d->nx * d->ny > (1 << 28)) return hk_fail(w, "cloth: %d x %d nodes is too many", d->nx, d->ny);
    if (!(rho > 0) && hk_check_mass(w, "cloth", d->mass)) return hk_failed(w);
    if (hk_check_positive(w, "cloth", "spacing", d->spacing) || hk_check_vec(w, "cloth", "origin", d->origin))
        return hk_failed(w);
    if (hk_fabric_apply(w, &fabric_def)) return hk_failed(w);
    if (rho > 0 && (hk_check_mass(w, "cloth corner node", hk_fabric_node_mass(rho, d->spacing, 0, 0, 2, 2)) ||
                    hk_check_mass(w, "cloth", d->mass)))
        return hk_failed(w);
    const int split = d->fabric.stretch > 0, fabric = split || rho > 0;
    if (!(d->radius >= 0)) return hk_fail(w, "cloth: radius must be >= 0 (got %g)", d->radius);
    if (d->radius > 64 * d->spacing) return hk_fail(w, "cloth: radius spans more than 64 nodes");
    if (!d->structural && !d->shear && !d->bend && !(d->radius > 0))
        return hk_fail(w, "cloth: no spring family enabled");
    if ((d->structural && hk_check_spring_params(w, "cloth structural springs", &d->structural_springs)) ||
        (d->shear && hk_check_spring_params(w, "cloth shear springs", &d->shear_springs)) ||
        (d->bend && hk_check_spring_params(w, "cloth bend springs", &d->bend_springs)) ||
        (d->radius > 0 && hk_check_spring_params(w, "cloth radius springs", &d->radius_springs)))
        return hk_failed(w);
    hk_vec3 u = d->u, v = d->v;
    if (!hk_normalise(&u) || !hk_normalise(&v)) return hk_fail(w, "cloth: u and v must be non-zero vectors");

    int n = d->nx * d->ny;
    /* a fabric's cloth is built whole: its edge masses and edge rows are not in a deferred lattice's recipe */
    int body = new_lattice(w, "cloth", n, d->nx, d->ny, 1, d->mass, w->def.wind_model == HK_WIND_NONE && !fabric);
    if (body < 0) return hk_failed(w);
    int fam0 = w->family_count;
    const double A[3] = {d->spacing * u.x, d->spacing * u.y, d->spacing * u.z},
                 B[3] = {d->spacing * v.x, d->spacing * v.y, d->spacing * v.z}, O3[3] = {0, 0, 0};
    lattice_frame(w, body, d->origin, A, B, O3, d->mass);
    if (rho > 0) cloth_edge_masses(w, body, d);
    hk_spring_params edge = d->structural_springs;
    edge.k /= 2;
    edge.damping /= 2;
    const int inside = split ? ROWS_INSIDE : ROWS_ALL;
    struct {
        int on;
        const char *name;
        const hk_spring_params *s;
        int di, dj, rows;
    } fams[] = {
        {d->structural, "structural(1,0)", &d->structural_springs, 1, 0, inside},
        {split, "structural(1,0) first edge", &edge, 1, 0, ROWS_FIRST},
        {split, "structural(1,0) last edge", &edge, 1, 0, ROWS_LAST},
        {d->structural, "structural(0,1)", &d->structural_springs, 0, 1, inside},
        {split, "structural(0,1) first edge", &edge, 0, 1, ROWS_FIRST},
        {split, "structural(0,1) last edge", &edge, 0, 1, ROWS_LAST},
        {d->shear, "shear(1,1)", &d->shear_springs, 1, 1, ROWS_ALL},
        {d->shear, "shear(1,-1)", &d->shear_springs, 1, -1, ROWS_ALL},
        {d->bend, "bend(2,0)", &d->bend_springs, 2, 0, ROWS_ALL},
        {d->bend, "bend(0,2)", &d->bend_springs, 0, 2, ROWS_ALL},
    };
    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
        if (!fams[f].on) continue;
        hk_family *fa = hk_add_lattice_family(w, body, fams[f].name, fams[f].s, fams[f].di, fams[f].dj, 0);
        if (!fa) return hk_undo_body(w, body, fam0);
        cloth_rows(fa, fams[f].rows, d);
    }
    if (d->radius > 0) {
        int reach = (int)floor(d->radius / d->spacing);
        for (int dj = -reach; dj <= reach; dj++)
            for (int di = 0; di <= reach; di++) {
                if (di == 0 && dj <= 0) continue; /* each undirected offset once */
                if ((double)(di * di + dj * dj) * d->spacing * d->spacing > d->radius * d->radius * (1 + 1e-12))
                    continue;
                if (cloth_offset_taken(d, di, dj)) continue;
                char name[48];
                snprintf(name, sizeof name, "radius(%d,%d)", di, dj);
                if (!hk_add_lattice_family(w, body, name, &d->radius_springs, di, dj, 0))
                    return hk_undo_body(w, body, fam0);
            }
    }
    switch (d->pins) {
    case HK_PIN_NONE: break;
    case HK_PIN_EDGE:
        for (int i = 0; i < d->nx; i++) hk_world_pin(w, body, i);
        break;
    case HK_PIN_TWO_CORNERS:
        hk_world_pin(w, body, 0);
        hk_world_pin(w, body, d->nx - 1);
        break;
    case HK_PIN_FOUR_EDGES:
        for (int i = 0; i < d->nx; i++) {
            hk_world_pin(w, body, i);
            hk_world_pin(w, body, i + (d->ny - 1) * d->nx);
        }
        for (int j = 0; j < d->ny; j++) {
            hk_world_pin(w, body, j * d->nx);
            hk_world_pin(w, body, d->nx - 1 + j * d->nx);
        }
        break;
    default: hk_fail(w, "cloth: unknown pin mode %d", (int)d->pins); return hk_undo_body(w, body, fam0);
    }
    if (w->def.wind_model != HK_WIND_NONE) {
        /* wind needs the cloth's faces: two triangles per cell (hk_cloth_cell_tris), normals along u x v */
        int64_t cells = (int64_t)(d->nx - 1) * (d->ny - 1);
        if (cells * 2 > INT32_MAX / 3) {
            hk_fail(w, "cloth: too many cells for wind faces");
            return hk_undo_body(w, body, fam0);
        }
        int *tri = malloc((size_t)cells * 6 * sizeof *tri);
        if (!tri) {
            hk_fail_memory(w, "cloth: out of memory for wind faces");
            return hk_undo_body(w, body, fam0);
        }
        int64_t t = 0;
        for (int j = 0; j + 1 < d->ny; j++)
            for (int i = 0; i + 1 < d->nx; i++, t += 6) hk_cloth_cell_tris(d->nx, i, j, tri + t);
        int rc = hk_surface_add(w, body, 3, 0, (int)(cells * 2), tri, NULL);
        free(tri);
        if (rc) return hk_undo_body(w, body, fam0);
    }
    return body;
}

/* ---- jelly --------------------------------------------------------------- */

hk_jelly_def hk_default_jelly_def(void)
{
    hk_jelly_def d = {0};
    d.nx = d.ny = d.nz = 8;
    d.spacing = 0.1;
    d.mass = 0.01;
    d.neighbours = 26;
    for (int c = 0; c < HK_JELLY_CLASSES; c++) d.springs[c] = hk_default_spring_params();
    return d;
}

/* One side of the lattice box as triangles: the ns x nt grid of nodes at
 * base + s du + t dv, each cell split in two, normals along du x dv, or
 * reversed (flip) so that every side faces outward. */
static int64_t box_side(int *tri, int64_t t, int base, int ns, int nt, int du, int dv, int flip)
{
    for (int b = 0; b + 1 < nt; b++)
        for (int a = 0; a + 1 < ns; a++) {
            const int A = base + a * du + b * dv, B = A + du, C = A + dv, D = C + du;
            if (flip) {
                tri[t++] = A, tri[t++] = D, tri[t++] = B;
                tri[t++] = A, tri[t++] = C, tri[t++] = D;
            } else {
                tri[t++] = A, tri[t++] = B, tri[t++] = D;
                tri[t++] = A, tri[t++] = D, tri[t++] = C;
            }
        }
    return t;
}

/* Wind needs a jelly's faces: the six sides of its lattice box, outward
 * (body-local indices i + nx (j + ny k)). */
static int jelly_wind_faces(hk_world *w, int body, const hk_jelly_def *d)
{
    const int nx = d->nx, ny = d->ny, nz = d->nz, sy = nx, sz = nx * ny;
    const int64_t faces =
        4 * ((int64_t)(nx - 1) * (ny - 1) + (int64_t)(nx - 1) * (nz - 1) + (int64_t)(ny - 1) * (nz - 1));
    if (faces > INT32_MAX / 3) return hk_fail(w, "jelly: too many cells for wind faces");
    int *tri = malloc((size_t)faces * 3 * sizeof *tri);
    if (!tri) return hk_fail_memory(w, "jelly: out of memory for wind faces");
    int64_t t = 0;
    t = box_side(tri, t, 0, nx, ny, 1, sy, 1);             /* k = 0: -z */
    t = box_side(tri, t, (nz - 1) * sz, nx, ny, 1, sy, 0); /* k = nz-1: +z */
    t = box_side(tri, t, 0, nx, nz, 1, sz, 0);             /* j = 0: x cross z = -y */
    t = box_side(tri, t, (ny - 1) * sy, nx, nz, 1, sz, 1); /* j = ny-1: +y */
    t = box_side(tri, t, 0, ny, nz, sy, sz, 1);            /* i = 0: y cross z = +x, flipped to -x */
    t = box_side(tri, t, nx - 1, ny, nz, sy, sz, 0);       /* i = nx-1: +x */
    int rc = hk_surface_add(w, body, 3, 1, (int)(t / 3), tri, NULL);
    free(tri);
    return rc;
}

static const char *const jelly_class_names[HK_JELLY_CLASSES] = {"K1", "K2", "K3", "Kb1", "Kb2", "Kb3"};

int hk_world_add_jelly(hk_world *w, const hk_jelly_def *d)
{
    if (d->nx < 2 || d->ny < 2 || d->nz < 2)
        return hk_fail(w, "jelly: nx, ny, nz must be >= 2 (got %d x %d x %d)", d->nx, d->ny, d->nz);
    if ((int64_t)d->nx * d->ny * d->nz > (1 << 27)) return hk_fail(w, "jelly: too many nodes");
    if (d->neighbours != 26 && d->neighbours != 52)
        return hk_fail(w, "jelly: neighbours must be 26 or 52 (got %d)", d->neighbours);
    if (hk_check_mass(w, "jelly", d->mass)) return hk_failed(w);
    if (hk_check_positive(w, "jelly", "spacing", d->spacing) || hk_check_vec(w, "jelly", "origin", d->origin))
        return hk_failed(w);
    int classes = d->neighbours == 52 ? 6 : 3;
    for (int c = 0; c < classes; c++) {
        char what[32];
        snprintf(what, sizeof what, "jelly %s springs", jelly_class_names[c]);
        if (hk_check_spring_params(w, what, &d->springs[c])) return hk_failed(w);
    }
    int n = d->nx * d->ny * d->nz;
    int body = new_lattice(w, "jelly", n, d->nx, d->ny, d->nz, d->mass, w->def.wind_model == HK_WIND_NONE);
    if (body < 0) return hk_failed(w);
    int fam0 = w->family_count;
    const double A[3] = {d->spacing, 0, 0}, B[3] = {0, d->spacing, 0}, C[3] = {0, 0, d->spacing};
    lattice_frame(w, body, d->origin, A, B, C, d->mass);
    /* Half stencil: offsets in {-1,0,1}^3 whose first non-zero component is
     * positive (13 of the 26), so each undirected spring appears once; the
     * class is the number of non-zero components. Ring 2 is the same x2. */
    for (int ring = 1; ring <= (d->neighbours == 52 ? 2 : 1); ring++)
        for (int dk = -1; dk <= 1; dk++)
            for (int dj = -1; dj <= 1; dj++)
                for (int di = -1; di <= 1; di++) {
                    int lead = di ? di : dj ? dj : dk;
                    if (lead <= 0) continue;
                    int nz = (di != 0) + (dj != 0) + (dk != 0);
                    int cls = (ring - 1) * 3 + nz - 1;
                    char name[48];
                    snprintf(name, sizeof name, "%s(%d,%d,%d)", jelly_class_names[cls], di * ring, dj * ring,
                             dk * ring);
                    if (!hk_add_lattice_family(w, body, name, &d->springs[cls], di * ring, dj * ring, dk * ring))
                        return hk_undo_body(w, body, fam0);
                }
    if (w->def.wind_model != HK_WIND_NONE && jelly_wind_faces(w, body, d) != 0) return hk_undo_body(w, body, fam0);
    return body;
}

/* ---- list-based small bodies --------------------------------------------- */

hk_quad_def hk_default_quad_def(void)
{
    hk_quad_def d = {0};
    d.size = 1.0;
    d.u = (hk_vec3){1, 0, 0};
    d.v = (hk_vec3){0, 1, 0};
    d.mass = 1.0;
    d.diagonals = 1;
    d.springs = hk_default_spring_params();
    return d;
}

int hk_world_add_quad(hk_world *w, const hk_quad_def *d)
{
    if (hk_check_positive(w, "quad", "size", d->size) || hk_check_vec(w, "quad", "origin", d->origin))
        return hk_failed(w);
    if (hk_check_mass(w, "quad", d->mass) || hk_check_spring_params(w, "quad springs", &d->springs))
        return hk_failed(w);
    hk_vec3 u = d->u, v = d->v;
    if (!hk_normalise(&u) || !hk_normalise(&v)) return hk_fail(w, "quad: u and v must be non-zero vectors");
    hk_vec3 pos[4];
    double mass[4];
    for (int c = 0; c < 4; c++) {
        double a = (c & 1) * d->size, b = (c >> 1) * d->size;
        pos[c] = (hk_vec3){d->origin.x + a * u.x + b * v.x, d->origin.y + a * u.y + b * v.y,
                           d->origin.z + a * u.z + b * v.z};
        mass[c] = d->mass;
    }
    int body = hk_world_add_points(w, 4, pos, NULL, mass);
    if (body < 0) return hk_failed(w);
    w->bodies[body].kind = "quad";
    /* corners 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1): edges, then the diagonals */
    static const int ea[6] = {0, 1, 3, 2, 0, 1}, eb[6] = {1, 3, 2, 0, 3, 2};
    if (hk_world_add_springs(w, body, d->diagonals ? 6 : 4, ea, eb, &d->springs) < 0)
        return hk_undo_body(w, body, w->family_count);
    return body;
}

hk_spring_pair_def hk_default_spring_pair_def(void)
{
    hk_spring_pair_def d = {0};
    d.b = (hk_vec3){1, 0, 0};
    d.mass_a = d.mass_b = 1.0;
    d.pin_a = 1;
    d.springs = hk_default_spring_params();
    return d;
}

/* A spring pair that reports itself as body kind `kind` ("pair", "pendulum"). */
static int add_pair(hk_world *w, const hk_spring_pair_def *d, const char *kind)
{
    if (hk_check_mass(w, "spring a", d->mass_a) || hk_check_mass(w, "spring b", d->mass_b) ||
        hk_check_spring_params(w, "spring", &d->springs) || hk_check_vec(w, kind, "a", d->a) ||
        hk_check_vec(w, kind, "b", d->b) || hk_check_vec(w, kind, "velocity_b", d->velocity_b))
        return hk_failed(w);
    hk_vec3 pos[2] = {d->a, d->b}, vel[2] = {{0, 0, 0}, d->velocity_b};
    double mass[2] = {d->mass_a, d->mass_b};
    int body = hk_world_add_points(w, 2, pos, vel, mass);
    if (body < 0) return hk_failed(w);
    w->bodies[body].kind = kind;
    static const int a = 0, b = 1;
    if (hk_world_add_springs(w, body, 1, &a, &b, &d->springs) < 0) return hk_undo_body(w, body, w->family_count);
    if (d->pin_a) hk_world_pin(w, body, 0);
    return body;
}

int hk_world_add_spring_pair(hk_world *w, const hk_spring_pair_def *d) { return add_pair(w, d, "pair"); }

hk_pendulum_def hk_default_pendulum_def(void)
{
    hk_pendulum_def d = {0};
    d.length = 1.0;
    d.angle = 0.1;
    d.mass = 1.0;
    d.k = 1e6;
    return d;
}

int hk_world_add_pendulum(hk_world *w, const hk_pendulum_def *d)
{
    if (hk_check_positive(w, "pendulum", "length", d->length) || hk_check_vec(w, "pendulum", "pivot", d->pivot))
        return hk_failed(w);
    if (!isfinite(d->angle)) return hk_fail(w, "pendulum: angle must be finite");
    if (hk_check_mass(w, "pendulum", d->mass) || hk_check_bound(w, "pendulum", "k", HK_BOUND_STIFFNESS, 0, d->k) ||
        hk_check_bound(w, "pendulum", "damping", HK_BOUND_DAMPING, 1, d->damping))
        return hk_failed(w);
    hk_spring_pair_def s = hk_default_spring_pair_def();
    s.a = d->pivot;
    s.b = (hk_vec3){d->pivot.x + d->length * sin(d->angle), d->pivot.y - d->length * cos(d->angle), d->pivot.z};
    s.mass_a = d->mass;
    s.mass_b = d->mass;
    s.pin_a = 1;
    s.springs.k = d->k;
    s.springs.damping = d->damping;
    s.springs.rest_length = d->length;
    return add_pair(w, &s, "pendulum");
}

int hk_world_add_points(hk_world *w, int count, const hk_vec3 *pos, const hk_vec3 *vel, const double *mass)
{
    if (count < 1) return hk_fail(w, "points: count must be >= 1 (got %d)", count);
    if (!pos || !mass) return hk_fail(w, "points: %s is NULL (expected %d values)", !pos ? "pos" : "mass", count);
    for (int i = 0; i < count; i++) {
        char what[48];
        snprintf(what, sizeof what, "points: point %d", i);
        if (hk_check_mass(w, what, mass[i])) return hk_failed(w);
        if (!isfinite(pos[i].x) || !isfinite(pos[i].y) || !isfinite(pos[i].z))
            return hk_fail(w, "points: position of point %d is not finite", i);
        if (vel && (!isfinite(vel[i].x) || !isfinite(vel[i].y) || !isfinite(vel[i].z)))
            return hk_fail(w, "points: velocity of point %d is not finite", i);
        /* held as hk_real: a position within half the largest (its offset from the points' mean then holds too) */
        if (!hk_real_holds(2 * pos[i].x) || !hk_real_holds(2 * pos[i].y) || !hk_real_holds(2 * pos[i].z))
            return hk_fail(w, "points: position (%g, %g, %g) m of point %d is beyond this build's precision", pos[i].x,
                           pos[i].y, pos[i].z, i);
        if (vel && !(hk_real_holds(vel[i].x) && hk_real_holds(vel[i].y) && hk_real_holds(vel[i].z)))
            return hk_fail(w, "points: velocity (%g, %g, %g) m/s of point %d is beyond this build's precision",
                           vel[i].x, vel[i].y, vel[i].z, i);
    }
    int first = hk_world_grow_particles(w, count);
    if (first < 0) return hk_failed(w);
    int body = hk_world_new_body(w, "points", first, count, count, 1, 1);
    if (body < 0) {
        hk_world_drop_particles(w, first);
        return hk_failed(w);
    }
    hk_body *bd = &w->bodies[body];
    hk_points_origin(count, pos, bd->origin); /* r = 0: the points are held as q = x - origin */
    for (int i = 0; i < count; i++) {
        const int g = first + i;
        const double x[3] = {pos[i].x, pos[i].y, pos[i].z};
        w->p.rx[g] = w->p.ry[g] = w->p.rz[g] = 0;
        hk_particle_place(w, bd, g, x);
        w->p.vx[g] = w->p.vy[g] = w->p.vz[g] = 0;
        set_mass(w, g, mass[i]);
        if (vel) {
            w->p.vx[first + i] = (hk_real)vel[i].x;
            w->p.vy[first + i] = (hk_real)vel[i].y;
            w->p.vz[first + i] = (hk_real)vel[i].z;
        }
    }
    return body;
}

int hk_world_add_springs(hk_world *w, int body, int count, const int *a, const int *b, const hk_spring_params *params)
{
    return hk_world_add_spring_family(w, body, "main", count, a, b, NULL, params);
}

int hk_world_add_spring_family(hk_world *w, int body, const char *name, int count, const int *a, const int *b,
                               const double *rest, const hk_spring_params *params)
{
    if (body < 0 || body >= w->body_count) return hk_fail(w, "springs: no body %d", body);
    const size_t len = name ? strlen(name) : 0;
    if (len < 1 || len > HK_FAMILY_NAME_MAX)
        return hk_fail(w, "springs: a family's name must have 1 to %d bytes (got %zu)", HK_FAMILY_NAME_MAX, len);
    if (count < 1) return hk_fail(w, "springs: count must be >= 1 (got %d)", count);
    if (hk_check_spring_params(w, "springs", params)) return hk_failed(w);
    for (int s = 0; rest && s < count; s++)
        if (!(rest[s] >= 0 && rest[s] <= HK_SPRING_MAX_LENGTH)) /* NaN too */
            return hk_fail(w,
                           "springs: spring %d's rest length must be 0 (the family's) or in (0, %g] m, this build's "
                           "longest spring (got %g)",
                           s, HK_SPRING_MAX_LENGTH, rest[s]);
    const hk_body *bd = &w->bodies[body];
    int *ga = malloc((size_t)count * sizeof *ga), *gb = malloc((size_t)count * sizeof *gb);
    if (!ga || !gb) {
        free(ga);
        free(gb);
        return hk_fail_memory(w, "springs: out of memory");
    }
    int rc = 0;
    for (int s = 0; s < count && rc == 0; s++) {
        if (a[s] < 0 || a[s] >= bd->count || b[s] < 0 || b[s] >= bd->count)
            rc = hk_fail(w, "springs: spring %d joins %d and %d, outside 0..%d", s, a[s], b[s], bd->count - 1);
        ga[s] = bd->first + a[s];
        gb[s] = bd->first + b[s];
    }
    if (rc == 0) rc = hk_add_list_family(w, body, name, params, count, ga, gb, rest);
    free(ga);
    free(gb);
    return rc < 0 ? -1 : w->family_count - 1;
}
