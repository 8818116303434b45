/* bodies.h — the public API's bodies (ropes, cloth, jelly, lists of springs, meshes, pressure soft bodies); part
 * of hooke.h, which includes it: include that. SI units on every field. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_BODIES_H
#define HOOKE_BODIES_H

#ifndef HOOKE_H
#error "include hooke/hooke.h, which includes this header where its types are defined"
#endif

/* ------------------------------------------------------------------------ */
/* Bodies. Each add_* call returns the body index (>= 0) or a negative      */
/* hk_status (see hk_world_error). A body owns a contiguous range of        */
/* particles.                                                               */

typedef enum hk_rope_topology {
    HK_ROPE_CHAIN = 0,  /* i - i+1 */
    HK_ROPE_SKIP_ONE,   /* i - i+1 and i - i+2 */
    HK_ROPE_ALL_TO_ALL, /* every pair */
    HK_ROPE_TOPOLOGY_COUNT,
} hk_rope_topology;

typedef struct hk_rope_def {
    int count;         /* particles [1] (>= 2) */
    double mass;       /* per particle [kg] */
    double spacing;    /* initial distance between neighbours [m] */
    hk_vec3 origin;    /* first particle [m] */
    hk_vec3 direction; /* unit-less direction of the rope (normalised) */
    hk_rope_topology topology;
    hk_spring_params springs;      /* neighbour springs (and all pairs for ALL_TO_ALL) */
    hk_spring_params skip_springs; /* SKIP_ONE: the i - i+2 springs */
    int anchor;                    /* 1: first particle is driven (moving anchor) */
    hk_vec3 anchor_velocity;       /* [m/s]; anchor kept at or above the ground */
} hk_rope_def;
HK_API hk_rope_def hk_default_rope_def(void);
HK_API int hk_world_add_rope(hk_world *w, const hk_rope_def *def);

typedef enum hk_cloth_pins {
    HK_PIN_NONE = 0,
    HK_PIN_EDGE,        /* the edge j = 0 (nx particles) */
    HK_PIN_TWO_CORNERS, /* (0,0) and (nx-1,0): the corners of edge j = 0 */
    HK_PIN_FOUR_EDGES,  /* every boundary particle */
    HK_CLOTH_PINS_COUNT,
} hk_cloth_pins;

/* A fabric as fabric testers (KES-F, FAST) and cloth-capture measurements give it; a cloth built from it behaves the
 * same at any spacing (docs/fabric.md: the mapping to the families' k and the nodes' masses, and its limits). Each
 * figure 0 = not given. */
typedef struct hk_fabric {
    double areal_density; /* mass per area [kg/m^2]; > 0: replaces the cloth's mass per node */
    double stretch;       /* a strip's tension per unit width per unit strain, its sides free [N/m]; sets the
                             structural springs (on) */
    double shear;         /* in-plane shear: tension per unit width per radian of shear angle [N/m]; sets the shear
                             springs (on) */
    double bend;          /* bending rigidity: moment per unit width per unit curvature [N*m]; sets the bend springs
                             (on), matched at a right-angle fold at one node row */
} hk_fabric;
/* The figures of a named fabric of the library's table (cotton, denim, silk, polyester; docs/fabric.md lists them
 * with their sources) into *out: HK_OK, or HK_ERR_INVALID (and *out untouched) for any other name. */
HK_API int hk_fabric_preset(const char *name, hk_fabric *out);

/* Particle (i, j) of a cloth sits at origin + i*spacing*u + j*spacing*v and has
 * local index i + j*nx. Families are lattice stencils, stored without indices. */
typedef struct hk_cloth_def {
    int nx, ny;                          /* nodes along u and v [1] (>= 2) */
    double spacing;                      /* [m] */
    hk_vec3 origin;                      /* [m] */
    hk_vec3 u, v;                        /* in-plane unit axes (normalised) */
    double mass;                         /* per node [kg] */
    int structural, shear, bend;         /* enable flags for the three classic families */
    hk_spring_params structural_springs; /* (1,0), (0,1) */
    hk_spring_params shear_springs;      /* (1,1), (1,-1) */
    hk_spring_params bend_springs;       /* (2,0), (0,2) */
    double radius;                       /* > 0: also connect every other node pair within this
                                            distance [m] (one stencil family per offset) */
    hk_spring_params radius_springs;
    hk_cloth_pins pins;
    hk_fabric fabric; /* figures > 0 replace the k of their family and the mass above (all 0 by default) */
} hk_cloth_def;
HK_API hk_cloth_def hk_default_cloth_def(void);
HK_API int hk_world_add_cloth(hk_world *w, const hk_cloth_def *def);

/* Jelly lattice: particle (i,j,k) at origin + spacing*(i,j,k), local index
 * i + nx*(j + ny*k); each particle joined to its 26 (or 52) neighbours. */
enum { HK_K1 = 0, HK_K2, HK_K3, HK_KB1, HK_KB2, HK_KB3, HK_JELLY_CLASSES };
typedef struct hk_jelly_def {
    int nx, ny, nz;                             /* nodes [1] (>= 2) */
    double spacing;                             /* [m] */
    hk_vec3 origin;                             /* [m] */
    double mass;                                /* per node [kg] */
    int neighbours;                             /* 26 or 52 */
    hk_spring_params springs[HK_JELLY_CLASSES]; /* K1 face, K2 edge, K3 corner, Kb1..Kb3 ring 2 */
} hk_jelly_def;
HK_API hk_jelly_def hk_default_jelly_def(void);
HK_API int hk_world_add_jelly(hk_world *w, const hk_jelly_def *def);

/* Square of 4 particles in the plane of u, v; 4 edge springs (+ 2 diagonals). */
typedef struct hk_quad_def {
    double size;    /* side [m] */
    hk_vec3 origin; /* corner [m] */
    hk_vec3 u, v;   /* in-plane unit axes */
    double mass;    /* per corner [kg] */
    int diagonals;  /* 1: add both diagonals (without them the square folds) */
    hk_spring_params springs;
} hk_quad_def;
HK_API hk_quad_def hk_default_quad_def(void);
HK_API int hk_world_add_quad(hk_world *w, const hk_quad_def *def);

/* Two particles joined by one spring: the harmonic oscillator (pin_a = 1) or a
 * free dumbbell. The pendulum is a pinned pivot and a bob on a stiff spring. */
typedef struct hk_spring_pair_def {
    hk_vec3 a, b;             /* initial positions [m] */
    hk_vec3 velocity_b;       /* initial velocity of b [m/s] */
    double mass_a, mass_b;    /* [kg] */
    int pin_a;                /* 1: a is fixed */
    hk_spring_params springs; /* rest_length 0 = |b - a| */
} hk_spring_pair_def;
HK_API hk_spring_pair_def hk_default_spring_pair_def(void);
HK_API int hk_world_add_spring_pair(hk_world *w, const hk_spring_pair_def *def);

typedef struct hk_pendulum_def {
    hk_vec3 pivot;  /* [m] */
    double length;  /* [m] */
    double angle;   /* initial angle from the -y axis, in the x-y plane [rad] */
    double mass;    /* bob [kg] */
    double k;       /* stiffness of the rod spring [N/m] (stiff) */
    double damping; /* [N*s/m] */
} hk_pendulum_def;
HK_API hk_pendulum_def hk_default_pendulum_def(void);
HK_API int hk_world_add_pendulum(hk_world *w, const hk_pendulum_def *def);

/* General body: listed points and listed springs (for meshes and tests). */
HK_API int hk_world_add_points(hk_world *w, int count, const hk_vec3 *pos, const hk_vec3 *vel /* may be NULL */,
                               const double *mass /* [kg] */);
/* Adds one spring family, named "main", joining local particles a[s] - b[s] of body: its index, or -1
 * (hk_world_error says why). */
HK_API int hk_world_add_springs(hk_world *w, int body, int count, const int *a, const int *b,
                                const hk_spring_params *params);
/* The longest name of a spring family [bytes]. */
#define HK_FAMILY_NAME_MAX 47
/* The same for a family named `name` (1 to HK_FAMILY_NAME_MAX bytes), where rest (may be NULL) gives each spring a
 * rest length of its own [m]: rest[s] > 0 is spring s's L0, 0 leaves it the family's (params->rest_length, or its
 * initial length where that is 0); a value below 0, not finite or above HK_SPRING_MAX_LENGTH is refused. A body
 * may have any number of families, over the same particles or not. */
HK_API int hk_world_add_spring_family(hk_world *w, int body, const char *name, int count, const int *a, const int *b,
                                      const double *rest, const hk_spring_params *params);
/* Zero-length springs. A spring whose ends, at the positions the solver stores (hk_real), are at the same place, or
 * closer than HK_SPRING_MIN_FRACTION times the size of its body (the diagonal of the box around the body's
 * particles), has no direction to act along: at r = 0 its force is 0 whatever its rest length. Every call that
 * creates springs (the body builders, hk_world_add_springs) refuses one, naming the body, the family and the two
 * particles (body-local indices). */
#define HK_SPRING_MIN_FRACTION 1e-9
/* Springs too long to hold. The forces square a spring's length, so a spring longer than HK_SPRING_MAX_LENGTH [m]
 * (2^63 m = 9.2e18 m in the float build, 2^511 m in the double one: its square a quarter of the largest value the
 * precision holds) is refused by the same calls, as is a rest_length beyond it, and a spring whose ends are not
 * finite as stored (a lattice whose spacing the precision cannot hold). */
#define HK_SPRING_MAX_LENGTH (sizeof(hk_real) == 4 ? 9.223372036854775808e18 : 6.703903964971298549e153)
/* The first spring a[s] - b[s] (s < nsprings) over the points pos[0..count) of one body that the rule refuses: its
 * index s, or -1 if none (springs with an index outside 0..count-1 are not judged), -2 if out of memory. why (may be
 * NULL) gets the reason, "joins particles A and B at the same position (x, y, z): ...", "joins particles A and B, R
 * m apart in a body S m across (...)" or "joins particles A and B, R m apart: longer than ..."
 * (HK_SPRING_MAX_LENGTH). */
HK_API int64_t hk_find_zero_length_spring(int count, const hk_vec3 *pos, int64_t nsprings, const int *a, const int *b,
                                          char *why, size_t cap);
/* Pins (inverse mass 0) particle local_index of body. HK_OK or a negative
 * hk_status. */
HK_API int hk_world_pin(hk_world *w, int body, int local_index);
/* Frees particle local_index of body again (inverse mass 1 / its mass), at rest where it is; a free particle stays
 * as it is. A body's driven anchor is refused (it moves as its anchor velocity says), and so is a body built row by
 * row over MPI ranks. HK_OK or a negative hk_status (hk_world_error says why). */
HK_API int hk_world_unpin(hk_world *w, int body, int local_index);

/* ------------------------------------------------------------------------ */
/* Closed surfaces and pressure soft bodies (mesh.c, icosphere.c, pressure.c)*/

/* A closed triangle mesh; faces counter-clockwise seen from outside (normals
 * point out). Loaders and hk_mesh_validate check it (docs/pressure.md). */
typedef struct hk_mesh {
    int vertex_count, face_count;
    hk_vec3 *vertices; /* [m] */
    int *faces;        /* 3 vertex indices per face */
    int *face_lines;   /* source line of each face (loaders), or NULL */
} hk_mesh;
HK_API void hk_mesh_free(hk_mesh *m);
/* Reads a 3D Studio ASCII (.asc) or Wavefront OBJ (.obj) file, chosen by
 * extension, and validates it. HK_OK, or with "FILE:LINE: error: ..." in
 * err: HK_ERR_IO (unreadable), HK_ERR_INVALID (malformed), HK_ERR_MEMORY. */
HK_API int hk_mesh_load(const char *path, hk_mesh *out, char *err, size_t errlen);
HK_API int hk_mesh_parse_asc(const char *text, const char *name, hk_mesh *out, char *err, size_t errlen);
HK_API int hk_mesh_parse_obj(const char *text, const char *name, hk_mesh *out, char *err, size_t errlen);
/* Checks that m is watertight (every edge in exactly two faces), consistently
 * oriented, outward (positive volume), has no degenerate face and no unused
 * vertex. fix = 1 flips an inward mesh instead of rejecting it. HK_OK or
 * HK_ERR_INVALID. */
HK_API int hk_mesh_validate(hk_mesh *m, const char *name, int fix, char *err, size_t errlen);
/* Icosahedron subdivided `level` times (20 * 4^level faces), vertices on the
 * sphere of `radius` [m] about center [m]. HK_OK, HK_ERR_INVALID (a bad
 * argument) or HK_ERR_MEMORY. */
HK_API int hk_mesh_icosphere(hk_mesh *out, double radius, int level, hk_vec3 center);

typedef enum hk_volume_method {
    HK_VOLUME_GAUSS = 0, /* sum x_mean n_x A (divergence theorem with F = (x, 0, 0)) */
    HK_VOLUME_TETRA,     /* sum p1 . (p2 x p3) / 6 (signed tetrahedra) */
    HK_VOLUME_BOX,       /* axis-aligned bounding box (2-D: rectangle) */
    HK_VOLUME_ELLIPSOID, /* ellipsoid with the box's half extents (2-D: ellipse) */
} hk_volume_method;
/* Volume of a closed mesh [m^3], summed in double over fixed blocks of faces. */
HK_API double hk_mesh_volume(const hk_mesh *m, hk_volume_method method);

/* Ideal gas in a closed body: P = pump * nRT / V; the force P A n on a face
 * is shared equally by its corners (2-D: P l n per edge, half to each end).
 * pump starts at pump_rate and grows by pump_rate per substep up to 1. */
typedef struct hk_pressure_def {
    double nrt;       /* nRT [J] (2-D: [J/m]); 0 = no pressure */
    double pump_rate; /* fraction of nRT added per substep, (0, 1] (default 0.01) */
} hk_pressure_def;

typedef struct hk_mesh_def {
    const hk_mesh *mesh;      /* copied; must pass hk_mesh_validate */
    hk_vec3 offset;           /* added to every vertex [m] */
    double mass;              /* per vertex [kg] */
    hk_vec3 velocity;         /* initial velocity of every vertex [m/s] */
    hk_spring_params springs; /* family "edges": one spring per mesh edge */
    int extra_rings;          /* >= 2: family "extra" joins vertices 2..extra_rings edges apart */
    hk_spring_params extra_springs;
    hk_pressure_def pressure;
} hk_mesh_def;
HK_API hk_mesh_def hk_default_mesh_def(void); /* 0.01 kg, k 1000 N/m, no pressure, pump 0.01 */
HK_API int hk_world_add_mesh(hk_world *w, const hk_mesh_def *def);
/* An icosphere body (def->mesh ignored; def->offset is the centre). */
HK_API int hk_world_add_icosphere(hk_world *w, const hk_mesh_def *def, double radius, int level);

/* 2-D pressure body (the book's ring): count points on a circle in the x-y
 * plane, counter-clockwise, springs i - i+1 and last - first ("ring"). */
typedef struct hk_ring_def {
    int count;      /* points [1] (>= 3) */
    double radius;  /* [m] */
    hk_vec3 center; /* [m] (z of every point) */
    double mass;    /* per point [kg] */
    hk_spring_params springs;
    hk_pressure_def pressure;
} hk_ring_def;
HK_API hk_ring_def hk_default_ring_def(void);
HK_API int hk_world_add_ring(hk_world *w, const hk_ring_def *def);

/* Volume (2-D: area) of a surface body at the current positions [m^3] or
 * [m^2]; NaN if the body has no closed surface. Gauss and tetra are the same
 * bits for any number of threads. */
HK_API double hk_world_body_volume(const hk_world *w, int body, hk_volume_method method);
/* Pressure of the body's last force evaluation [Pa] (2-D: [N/m]); 0 if none. */
HK_API double hk_world_body_pressure(const hk_world *w, int body);
/* 1 if the body carries a pressure model. */
HK_API int hk_world_body_has_pressure(const hk_world *w, int body);

#endif
