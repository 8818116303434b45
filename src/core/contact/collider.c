/* collider.c — one collider: its definition checked, its frame over time and its rate, its queries and surface. */
/* SPDX-License-Identifier: MIT */
#include "collider.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "geometry.h"
#include "mesh.h"

hk_collider_def hk_default_collider_def(void)
{
    hk_collider_def d;
    memset(&d, 0, sizeof d);
    d.shape = HK_COLLIDER_BOX;
    d.size = (hk_vec3){1, 1, 1};
    d.thickness = 0.01;
    d.stiffness = 1e4;
    return d;
}

static int finite3(hk_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

int hk_contact_layer_check(const char *what, double thickness, double stiffness, double damping_ratio, double friction,
                           char *why, size_t cap)
{
    const struct {
        const char *name, *rule;
        double v;
        int ok;
    } plain[] = {
        {"thickness", "> 0 m", thickness, thickness > 0},
        {"friction", ">= 0", friction, friction >= 0},
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (!plain[i].ok || !isfinite(plain[i].v) || !hk_real_holds(plain[i].v)) {
            snprintf(why, cap, "%s: %s must be %s, finite and within this build's precision (got %g)", what,
                     plain[i].name, plain[i].rule, plain[i].v);
            return -1;
        }
    /* the magnitudes of the layer's spring and damper: the bounds' table (bounds.c), with its reasons */
    if (!hk_bound_ok(HK_BOUND_STIFFNESS, 0, stiffness)) {
        hk_bound_message(what, "stiffness", HK_BOUND_STIFFNESS, 0, stiffness, why, cap);
        return -1;
    }
    if (!hk_bound_ok(HK_BOUND_DAMPING_RATIO, 0, damping_ratio)) {
        hk_bound_message(what, "damping_ratio", HK_BOUND_DAMPING_RATIO, 0, damping_ratio, why, cap);
        return -1;
    }
    return 0;
}

/* The definition's values, one by one: 0, or -1 with the reason in why. */
static const char *const shapes[] = {
    [HK_COLLIDER_MESH] = "mesh", [HK_COLLIDER_BOX] = "box", [HK_COLLIDER_CAPSULE] = "capsule"};
_Static_assert(sizeof shapes / sizeof shapes[0] == HK_COLLIDER_SHAPE_COUNT, "a collider shape without its name");

const char *hk_collider_shape_name(hk_collider_shape shape)
{
    return (unsigned)shape < HK_COLLIDER_SHAPE_COUNT ? shapes[shape] : "unknown";
}

static int check_def(const hk_collider_def *d, char *why, size_t cap)
{
    if ((unsigned)d->shape >= HK_COLLIDER_SHAPE_COUNT) {
        snprintf(why, cap, "collider: unknown shape %d", (int)d->shape);
        return -1;
    }
    char what[32], msg[256];
    snprintf(what, sizeof what, "collider %s", shapes[d->shape]);
    const struct {
        const char *name;
        hk_vec3 v;
    } vecs[] = {{"offset", d->offset},
                {"rotation", d->rotation},
                {"velocity", d->velocity},
                {"angular_velocity", d->angular_velocity}};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (hk_vec_message(vecs[i].name, vecs[i].v, msg, sizeof msg) != 0) {
            snprintf(why, cap, "%s: %s", what, msg);
            return -1;
        }
    if (hk_contact_layer_check(what, d->thickness, d->stiffness, d->damping_ratio, d->friction, why, cap) != 0)
        return -1;
    const struct {
        const char *name, *rule;
        double v;
        int ok;
    } nums[] = {
        {"radius", "> 0 m", d->radius, d->shape != HK_COLLIDER_CAPSULE || d->radius > 0},
        {"length", ">= 0 m", d->length, d->shape != HK_COLLIDER_CAPSULE || d->length >= 0},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (!nums[i].ok || !isfinite(nums[i].v)) {
            snprintf(why, cap, "%s: %s must be %s and finite (got %g)", what, nums[i].name, nums[i].rule, nums[i].v);
            return -1;
        }
    if (d->shape == HK_COLLIDER_BOX && !(finite3(d->size) && d->size.x > 0 && d->size.y > 0 && d->size.z > 0)) {
        snprintf(why, cap, "collider box: size must be > 0 m along x, y and z (got %g %g %g)", d->size.x, d->size.y,
                 d->size.z);
        return -1;
    }
    if (d->shape == HK_COLLIDER_MESH && !d->mesh) {
        snprintf(why, cap, "collider mesh: no mesh given");
        return -1;
    }
    return 0;
}

/* The shape's box in its frame and its reach. */
static void shape_bounds(hk_collider *c)
{
    const hk_collider_def *d = &c->def;
    if (d->shape == HK_COLLIDER_MESH) {
        memcpy(c->lo, c->mesh.lo, sizeof c->lo);
        memcpy(c->hi, c->mesh.hi, sizeof c->hi);
    } else if (d->shape == HK_COLLIDER_BOX) {
        for (int k = 0; k < 3; k++) c->lo[k] = -c->half[k], c->hi[k] = c->half[k];
    } else {
        for (int k = 0; k < 3; k++) c->lo[k] = -d->radius, c->hi[k] = d->radius;
        c->lo[1] -= 0.5 * d->length;
        c->hi[1] += 0.5 * d->length;
    }
    double r2 = 0; /* the box's farthest corner: the reach of every shape inside it */
    for (int k = 0; k < 3; k++) r2 += fmax(c->lo[k] * c->lo[k], c->hi[k] * c->hi[k]);
    c->reach = sqrt(r2);
}

int hk_collider_init(hk_collider *c, const hk_collider_def *def, char *why, size_t cap)
{
    memset(c, 0, sizeof *c);
    if (check_def(def, why, cap) != 0) return HK_ERR_INVALID;
    if (def->shape == HK_COLLIDER_MESH &&
        hk_mesh_validate((hk_mesh *)def->mesh, "collider mesh", 0, why, cap) != 0) /* fix 0: not written */
        return HK_ERR_INVALID;
    c->def = *def;
    c->def.mesh = NULL;
    const double rot[3] = {def->rotation.x, def->rotation.y, def->rotation.z}, none[3] = {0, 0, 0};
    g_euler_xyz(rot, c->R0);
    c->half[0] = 0.5 * def->size.x;
    c->half[1] = 0.5 * def->size.y;
    c->half[2] = 0.5 * def->size.z;
    if (def->shape == HK_COLLIDER_MESH && hk_trimesh_build(&c->mesh, def->mesh, none) != 0) {
        snprintf(why, cap, "out of memory for a collider mesh of %d faces", def->mesh->face_count);
        return HK_ERR_MEMORY;
    }
    shape_bounds(c);
    return HK_OK;
}

void hk_collider_free(hk_collider *c) { hk_trimesh_free(&c->mesh); }

/* ---- frames over time ------------------------------------------------------ */

void hk_collider_pose(const hk_collider *c, double t, hk_pose *out)
{
    const hk_collider_def *d = &c->def;
    const double v[3] = {d->velocity.x, d->velocity.y, d->velocity.z};
    const double wv[3] = {d->angular_velocity.x, d->angular_velocity.y, d->angular_velocity.z};
    out->c[0] = d->offset.x + v[0] * t;
    out->c[1] = d->offset.y + v[1] * t;
    out->c[2] = d->offset.z + v[2] * t;
    memcpy(out->v, v, sizeof v);
    memcpy(out->w, wv, sizeof wv);
    if (wv[0] == 0 && wv[1] == 0 && wv[2] == 0) {
        memcpy(out->R, c->R0, sizeof out->R);
        return;
    }
    const double turn[3] = {wv[0] * t, wv[1] * t, wv[2] * t};
    double S[3][3];
    g_axis_angle(turn, S);
    g_matmul(S, c->R0, out->R);
}

void hk_pose_add_blocks(const hk_pose *P, const double x[3], const double Kc[6], const double Dc[6], double K[6],
                        double D[6], double R[3])
{
    double u[3], a[3];
    hk_pose_velocity(P, x, u);
    g_cross(P->v, P->w, a);                                /* -w x v */
    const int e[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}}; /* the symmetric blocks' rows */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) R[r] += Kc[e[r][c]] * u[c] + Dc[e[r][c]] * a[c];
    for (int k = 0; k < 6; k++) K[k] += Kc[k], D[k] += Dc[k];
}

/* ---- queries ------------------------------------------------------------- */

int hk_collider_nearest(const hk_collider *c, const double p[3], double radius, double q[3], double n[3], double *phi)
{
    /* outside the shape's box by radius or more: nothing near (every shape lies in its box) */
    for (int k = 0; k < 3; k++)
        if (p[k] < c->lo[k] - radius || p[k] > c->hi[k] + radius) return 0;
    switch (c->def.shape) {
    case HK_COLLIDER_MESH: return hk_trimesh_nearest(&c->mesh, p, radius, q, n, phi);
    case HK_COLLIDER_BOX: *phi = g_box_distance(c->half, p, q, n); break;
    default: *phi = g_capsule_distance(c->def.radius, c->def.length, p, q, n); break;
    }
    return *phi < radius;
}

double hk_collider_enters(const hk_collider *c, const double p0[3], const double p1[3], double n[3])
{
    for (int k = 0; k < 3; k++) /* both ends beyond one side of the shape's box: no entry */
        if ((p0[k] < c->lo[k] && p1[k] < c->lo[k]) || (p0[k] > c->hi[k] && p1[k] > c->hi[k])) return -1;
    switch (c->def.shape) {
    case HK_COLLIDER_MESH: return hk_trimesh_enters(&c->mesh, p0, p1, n);
    case HK_COLLIDER_BOX: return g_segment_enters_box(c->half, p0, p1, n);
    default: {
        const double s = g_segment_enters_capsule(c->def.radius, c->def.length, p0, p1);
        if (s < 0) return -1;
        double h[3], a[3];
        for (int k = 0; k < 3; k++) h[k] = p0[k] + s * (p1[k] - p0[k]);
        g_capsule_axis_point(c->def.length, h, a);
        g_sub(h, a, n);
        if (!(g_normalise(n) > 0)) n[0] = 1, n[1] = n[2] = 0;
        return s;
    }
    }
}

/* The world box of the collider at time t (rotating: the ball of its reach). */
static void box_at(const hk_collider *c, double t, double lo[3], double hi[3])
{
    hk_pose P;
    hk_collider_pose(c, t, &P);
    const hk_vec3 wv = c->def.angular_velocity;
    if (wv.x != 0 || wv.y != 0 || wv.z != 0) {
        for (int k = 0; k < 3; k++) lo[k] = P.c[k] - c->reach, hi[k] = P.c[k] + c->reach;
        return;
    }
    for (int k = 0; k < 3; k++) lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int corner = 0; corner < 8; corner++) {
        const double l[3] = {corner & 1 ? c->hi[0] : c->lo[0], corner & 2 ? c->hi[1] : c->lo[1],
                             corner & 4 ? c->hi[2] : c->lo[2]};
        double x[3];
        hk_pose_to_world(&P, l, x);
        for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], x[k]), hi[k] = fmax(hi[k], x[k]);
    }
}

void hk_collider_world_box(const hk_collider *c, double t0, double t1, double pad, double lo[3], double hi[3])
{
    double a[3], b[3];
    box_at(c, t0, lo, hi);
    box_at(c, t1, a, b);
    for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], a[k]) - pad, hi[k] = fmax(hi[k], b[k]) + pad;
}

/* ---- surfaces for pictures ---------------------------------------------------- */

/* The capsule's vertices and triangles in its frame: `around` sides, as many
 * latitude rings on each end (poles at the ends). */
static int capsule_mesh(const hk_collider_def *d, int around, double **xyz, int *nv, int **tri, int *nt)
{
    const int rings = around / 4 > 1 ? around / 4 : 2; /* per half sphere, equator included */
    const int nring = 2 * rings;
    *nv = nring * around + 2;
    *nt = 2 * around * (nring - 1) + 2 * around;
    *xyz = malloc(3 * (size_t)*nv * sizeof **xyz);
    *tri = malloc(3 * (size_t)*nt * sizeof **tri);
    if (!*xyz || !*tri) return -1;
    double *v = *xyz;
    const double pi = 3.14159265358979323846, r = d->radius, h = 0.5 * d->length;
    for (int ring = 0; ring < nring; ring++) { /* from the top end down */
        const int top = ring < rings;
        const double lat = top ? pi / 2 * (1 - (double)(ring + 1) / rings) : -pi / 2 * (double)(ring - rings) / rings;
        for (int a = 0; a < around; a++) {
            const double az = 2 * pi * a / around;
            *v++ = r * cos(lat) * cos(az);
            *v++ = (top ? h : -h) + r * sin(lat);
            *v++ = r * cos(lat) * sin(az);
        }
    }
    const double poles[2][3] = {{0, h + r, 0}, {0, -h - r, 0}};
    memcpy(v, poles, sizeof poles);
    int *t = *tri;
    const int north = nring * around, south = north + 1;
    for (int a = 0; a < around; a++) {
        const int b = (a + 1) % around;
        *t++ = north, *t++ = b, *t++ = a; /* counter-clockwise from outside */
        for (int ring = 0; ring + 1 < nring; ring++) {
            const int i0 = ring * around + a, i1 = ring * around + b, j0 = i0 + around, j1 = i1 + around;
            *t++ = i0, *t++ = i1, *t++ = j1;
            *t++ = i0, *t++ = j1, *t++ = j0;
        }
        *t++ = south, *t++ = (nring - 1) * around + a, *t++ = (nring - 1) * around + b;
    }
    return 0;
}

int hk_collider_surface(const hk_collider *c, double t, int around, double **xyz, int *nv, int **tri, int *nt)
{
    /* corner k at (+-x, +-y, +-z) by bits 0, 1, 2; two triangles a face, counter-clockwise from outside */
    static const int box_tri[36] = {0, 6, 2, 0, 4, 6, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                                    2, 7, 3, 2, 6, 7, 0, 3, 1, 0, 2, 3, 4, 5, 7, 4, 7, 6};
    *xyz = NULL;
    *tri = NULL;
    const hk_collider_def *d = &c->def;
    if (d->shape == HK_COLLIDER_CAPSULE) {
        if (capsule_mesh(d, around < 8 ? 8 : around, xyz, nv, tri, nt) != 0) return -1;
    } else {
        const int mesh = d->shape == HK_COLLIDER_MESH;
        *nv = mesh ? c->mesh.nv : 8;
        *nt = mesh ? c->mesh.nt : 12;
        *xyz = malloc(3 * (size_t)*nv * sizeof **xyz);
        *tri = malloc(3 * (size_t)*nt * sizeof **tri);
        if (!*xyz || !*tri) return -1;
        if (mesh) {
            memcpy(*xyz, c->mesh.v, 3 * (size_t)*nv * sizeof **xyz);
            memcpy(*tri, c->mesh.t, 3 * (size_t)*nt * sizeof **tri);
        } else {
            for (int k = 0; k < 8; k++) {
                (*xyz)[3 * k] = k & 1 ? c->half[0] : -c->half[0];
                (*xyz)[3 * k + 1] = k & 2 ? c->half[1] : -c->half[1];
                (*xyz)[3 * k + 2] = k & 4 ? c->half[2] : -c->half[2];
            }
            memcpy(*tri, box_tri, sizeof box_tri);
        }
    }
    hk_pose P;
    hk_collider_pose(c, t, &P);
    for (int i = 0; i < *nv; i++) hk_pose_to_world(&P, *xyz + 3 * (size_t)i, *xyz + 3 * (size_t)i);
    return 0;
}
