/* collider.h — kinematic obstacles: mesh, box and capsule colliders, where they are at a time, and their queries. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_COLLIDER_H
#define HOOKE_COLLIDER_H

#include "geometry.h"
#include "trimesh.h"
#include "world.h"

/* A collider as the world keeps it: its definition (the mesh pointer NULL:
 * a mesh lives in `mesh`, its vertices in the collider's frame) and what
 * every query needs of it. Its frame at time t is
 *     x_world = c(t) + R(t) x_local,  c(t) = offset + velocity t,
 *     R(t) = rot(angular_velocity t) R0,  R0 = the rotation of `rotation`,
 * a function of the world's time alone, so a restarted run finds its
 * colliders where the first run had them. */
typedef struct hk_collider {
    hk_collider_def def;
    hk_trimesh mesh;     /* MESH */
    double half[3];      /* BOX: half extents [m] */
    double R0[3][3];     /* the rotation at t = 0 */
    double lo[3], hi[3]; /* the box around the shape in its frame [m] */
    double reach;        /* the farthest point of the shape from its frame's origin [m] */
} hk_collider;

/* A collider's frame at one time: place, rotation, and the motion of the frame. */
typedef struct hk_pose {
    double c[3];    /* origin [m] */
    double R[3][3]; /* x_world = c + R x_local */
    double v[3];    /* velocity of the origin [m/s] */
    double w[3];    /* angular velocity [rad/s] */
} hk_pose;

/* The numbers of a contact layer (a collider's, the contact between bodies'): thickness > 0 m and friction >= 0,
 * finite and held by the build's precision; stiffness and damping_ratio within their bounds (bounds.c:
 * HK_BOUND_STIFFNESS, HK_BOUND_DAMPING_RATIO, with the reason). 0, or -1 with "WHAT: FIELD must be ..." in why. */
int hk_contact_layer_check(const char *what, double thickness, double stiffness, double damping_ratio, double friction,
                           char *why, size_t cap);

/* Makes c from def (copying and checking its mesh): HK_OK, or
 * HK_ERR_INVALID / HK_ERR_MEMORY with the reason in why. */
int hk_collider_init(hk_collider *c, const hk_collider_def *def, char *why, size_t cap);
void hk_collider_free(hk_collider *c);
/* "mesh", "box" or "capsule" (the scene's word for the shape). */
const char *hk_collider_shape_name(hk_collider_shape shape);

void hk_collider_pose(const hk_collider *c, double t, hk_pose *out);
/* The velocity [m/s] of the collider's point at world position x. */
static inline void hk_pose_velocity(const hk_pose *P, const double x[3], double out[3])
{
    double r[3], wr[3];
    g_sub(x, P->c, r);
    g_cross(P->w, r, wr);
    for (int k = 0; k < 3; k++) out[k] = P->v[k] + wr[k];
}
/* 1 if the frame moves or turns. */
static inline int hk_pose_moves(const hk_pose *P)
{
    return P->v[0] != 0 || P->v[1] != 0 || P->v[2] != 0 || P->w[0] != 0 || P->w[1] != 0 || P->w[2] != 0;
}
/* A moving frame's share of a contact's blocks, Kc and Dc (the particle at
 * x), added to K and D, and its rate Kc u + Dc a to R (contact_state.h,
 * hk_contact_rec): u the velocity of the frame's point at x, a = -w x v
 * the change of that velocity at the fixed place x (the origin moving at
 * v, the frame turning at w). */
void hk_pose_add_blocks(const hk_pose *P, const double x[3], const double Kc[6], const double Dc[6], double K[6],
                        double D[6], double R[3]);
/* x local -> world and back [m]. */
static inline void hk_pose_to_world(const hk_pose *P, const double local[3], double out[3])
{
    g_rot(P->R, local, out);
    for (int k = 0; k < 3; k++) out[k] += P->c[k];
}
static inline void hk_pose_to_local(const hk_pose *P, const double world[3], double out[3])
{
    double r[3];
    g_sub(world, P->c, r);
    g_rot_t(P->R, r, out);
}

/* In the collider's frame: the surface point q nearest to p, the outward
 * unit normal n there and the signed distance *phi of p (< 0 inside): 1
 * when p lies less than `radius` outside the surface or inside it (a mesh:
 * inside by less than radius), else 0. */
int hk_collider_nearest(const hk_collider *c, const double p[3], double radius, double q[3], double n[3], double *phi);
/* In the collider's frame: where the segment p0 + s (p1 - p0) first enters
 * the solid, s in [0, 1], with the outward normal there, or -1. */
double hk_collider_enters(const hk_collider *c, const double p0[3], const double p1[3], double n[3]);
/* The box in world coordinates that holds the collider over the times
 * [t0, t1], widened by `pad` [m] on every side. */
void hk_collider_world_box(const hk_collider *c, double t0, double t1, double pad, double lo[3], double hi[3]);

/* The collider's surface as triangles in world coordinates at time t, for
 * pictures and frames: *xyz (3 per vertex [m]) and *tri (3 per triangle),
 * both allocated (free them); a capsule is cut into `around` sides. 0, or
 * -1 when out of memory. */
int hk_collider_surface(const hk_collider *c, double t, int around, double **xyz, int *nv, int **tri, int *nt);

#endif
