/* colliders.h — the public API's colliders (kinematic meshes, boxes, capsules) and contact between bodies; part
 * of hooke.h, which includes it: include that. SI units on every field. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_COLLIDERS_H
#define HOOKE_COLLIDERS_H

#ifndef HOOKE_H
#error "include hooke/hooke.h, which includes this header where its types are defined"
#endif

/* ------------------------------------------------------------------------ */
/* Colliders: kinematic obstacles with a contact layer (core/contact)       */

/* A collider is a solid that particles do not pass: a closed triangle mesh, an oriented box or a capsule, placed
 * by an offset and a rotation and moving, if at all, at a constant linear and angular velocity (a kinematic
 * obstacle: nothing pushes it). Within `thickness` of its surface a particle of mass m meets a virtual spring
 * along the surface's outward normal n and Coulomb friction against its tangential motion relative to it:
 *   f_n = max(0, k (thickness - d) - c_n v_n), c_n = 2 damping_ratio sqrt(k m)
 *   f_t = -(k_t s + c_t v_t), at most friction f_n in size, k_t = m / (2 h^2), c_t = m / h   (h: the substep)
 * with d the particle's signed distance from the surface (< 0 inside), v_t its tangential velocity relative to
 * the surface and s its tangential offset from an anchor on the collider, placed where it first touched and
 * dragged along while it slides (static friction: a steady load F below friction f_n holds it at rest, F / k_t
 * from the anchor). The force enters every integrator's force evaluation, and its stiffness and damping the
 * implicit integrators' matrix. A particle that crosses the surface within a substep is caught by a swept test and
 * put back on its side with its normal velocity into the collider removed (docs/user-guide.md, "Contact"). */
typedef enum hk_collider_shape {
    HK_COLLIDER_MESH = 0, /* a closed triangle mesh, faces counter-clockwise from outside */
    HK_COLLIDER_BOX,      /* an oriented box centred on the origin of its frame */
    HK_COLLIDER_CAPSULE,  /* a cylinder with hemispherical ends along the y axis of its frame */
    HK_COLLIDER_SHAPE_COUNT
} hk_collider_shape;

typedef struct hk_collider_def {
    hk_collider_shape shape;
    const hk_mesh *mesh;      /* MESH: copied; must pass hk_mesh_validate (closed, outward, no degenerate face) */
    hk_vec3 offset;           /* the origin of the collider's frame at t = 0 [m]: added to every mesh vertex,
                                 the centre of a box or capsule */
    hk_vec3 rotation;         /* its orientation at t = 0: a rotation about x, then y, then z (fixed axes) [rad] */
    hk_vec3 size;             /* BOX: edge lengths along its frame's x, y, z [m] */
    double radius;            /* CAPSULE: radius [m] */
    double length;            /* CAPSULE: distance between the centres of its end spheres [m] (0: a sphere) */
    hk_vec3 velocity;         /* of its frame's origin [m/s] */
    hk_vec3 angular_velocity; /* about its frame's origin [rad/s] */
    double thickness;         /* the contact layer [m], > 0 and at most the smallest spring rest length */
    double stiffness;         /* k of the contact spring [N/m], > 0 */
    double damping_ratio;     /* of the normal motion: c_n = 2 damping_ratio sqrt(k m) [1] */
    double friction;          /* Coulomb coefficient [1] */
} hk_collider_def;
/* A box of 1 m, thickness 0.01 m, stiffness 1e4 N/m, no damping or friction, at rest at the origin. */
HK_API hk_collider_def hk_default_collider_def(void);
/* Adds a collider; its index (>= 0) or a negative hk_status (hk_world_error
 * says why: a bad value, a mesh that fails hk_mesh_validate, a thickness
 * larger than the smallest spring rest length of the bodies so far; bodies
 * added later are checked when the world is stepped). */
HK_API int hk_world_add_collider(hk_world *w, const hk_collider_def *def);
HK_API int hk_world_collider_count(const hk_world *w);
/* Collider i's definition (its mesh pointer NULL); HK_OK or HK_ERR_INVALID. */
HK_API int hk_world_collider(const hk_world *w, int i, hk_collider_def *out);

/* The models of contact between bodies: each particle against the surface triangles (a cloth's, a mesh's or
 * icosphere's, a jelly's boundary) and each surface edge against the other edges within `thickness`, particles
 * that share a triangle or spring left out, with a swept test and impulses; or every particle a sphere of
 * `radius` against the others, particles within a body's stencil left out, no swept test (docs/user-guide.md). */
typedef enum hk_contact_model {
    HK_CONTACT_TRIANGLES = 0,
    HK_CONTACT_PARTICLES = 1,
    HK_CONTACT_MODEL_COUNT
} hk_contact_model;

/* Contact between bodies and within one, by either model (above): the colliders' force with both sides' masses,
 * spread over the corners by barycentric weights in the triangle model (momentum kept). */
typedef struct hk_contact_def {
    int bodies;           /* 1: bodies collide with each other */
    int self;             /* 1: a body with a surface collides with itself (every body, the particle model) */
    double thickness;     /* the triangle model's gap kept [m], > 0 and at most the smallest spring rest length */
    double stiffness;     /* k of the contact spring [N/m], > 0 */
    double damping_ratio; /* of the normal motion: c_n = 2 damping_ratio sqrt(k m) [1] */
    double friction;      /* Coulomb coefficient [1] */
    int64_t max_pairs;    /* the most candidate pairs a step may hold [1], >= 1: a step whose motion would bring more
                             near each other (every pair of a body that moves farther in a step than its size) fails,
                             said so, instead of taking the memory and time of them all */

    hk_contact_model model; /* triangles (thickness) or particles (radius) */
    double radius;          /* the particle model's sphere per particle [m], > 0 and at most the smallest spring rest
                               length times the bodies' stencil reach: two particles touch within 2 radius */
} hk_contact_def;
/* Off (bodies 0, self 0), thickness 0.005 m, stiffness 1000 N/m, damping ratio 1, no friction, at most
 * HK_CONTACT_MAX_PAIRS candidate pairs, the triangle model (radius 0: unused). */
#define HK_CONTACT_MAX_PAIRS ((int64_t)1 << 26)
HK_API hk_contact_def hk_default_contact_def(void);
/* Sets the world's contact between bodies; HK_OK, or HK_ERR_INVALID with the reason (a bad value, a thickness
 * above the smallest spring rest length so far; bodies added later are checked when the world is stepped). */
HK_API int hk_world_set_contact(hk_world *w, const hk_contact_def *def);
HK_API hk_contact_def hk_world_contact(const hk_world *w);

#endif
