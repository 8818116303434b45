/* world.h — the world's internal layout: SoA particles, bodies, spring families, obstacles. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_WORLD_H
#define HOOKE_WORLD_H

#include "frame.h"
#include "hooke/hooke.h"
#include "numbers.h"
#include "team.h"

/* Margin (in entries) on both sides of a lattice row buffer, and of every
 * particle array (hk_padded): >= the largest |di| of any stencil family
 * (cloth radius families reach 64) and a multiple of every SIMD width. */
#define HK_ROW_MARGIN 64

/* Particle state as a structure of arrays, each array 64-byte aligned and
 * padded to a multiple of 16 entries so SIMD loops need no scalar peel.
 *
 * Positions are kept in the frame of each particle's body
 * (docs/determinism.md, "Precision"): particle i of body b is at
 *     x_i = origin_b + r_i + q_i,
 * origin_b in double (hk_body), r_i the particle's rest position relative
 * to it (a lattice node; 0 in bodies without a lattice), q_i its
 * displacement from there, both in the build's precision. Springs of a
 * lattice see d = x_a - x_b = (q_a - q_b) - D with D their family's rest
 * vector, so neither a scene's distance from the origin nor the size of a
 * lattice costs precision, and a lattice at rest has exactly no force. */
typedef struct hk_particles {
    int count, capacity;
    hk_real *qx, *qy, *qz; /* displacement from the rest position [m] */
    hk_real *vx, *vy, *vz; /* velocity [m/s] */
    hk_real *fx, *fy, *fz; /* force [N] */
    hk_real *inv_mass;     /* [1/kg], 0 = pinned or driven */
    hk_real *mass;         /* [kg] */
    hk_real *rx, *ry, *rz; /* rest position relative to the body's origin [m] (constant) */
    hk_real *slab;         /* the one allocation all the arrays above live in */
} hk_particles;
#define HK_PARTICLE_ARRAYS 14 /* arrays in the slab, in the order above */

/* Position of particle i relative to its body's origin [m], in double:
 * r_i + q_i. Every consumer that needs a place (contacts, surfaces, ground)
 * takes it from here, or from the same sum in the kernels' precision. */
static inline double hk_local_x(const hk_particles *p, int64_t i) { return hk_frame_local(p->rx[i], p->qx[i]); }
static inline double hk_local_y(const hk_particles *p, int64_t i) { return hk_frame_local(p->ry[i], p->qy[i]); }
static inline double hk_local_z(const hk_particles *p, int64_t i) { return hk_frame_local(p->rz[i], p->qz[i]); }

typedef enum hk_family_kind {
    HK_FAMILY_LATTICE = 0, /* stencil: node (i,j,k) -> (i+di, j+dj, k+dk); no index arrays */
    HK_FAMILY_LIST,        /* explicit endpoint arrays a[s], b[s] */
} hk_family_kind;

/* A family: springs sharing parameters and one storage form. */
typedef struct hk_family {
    hk_family_kind kind;
    int body;
    char name[HK_FAMILY_NAME_MAX + 1];
    hk_spring_params params;
    hk_real k, c, rest, break_ratio; /* params in the kernels' precision; rest: L0 of a lattice family */
    int64_t count;                   /* springs in the family held here: a lattice's box; a list's endpoints (0 on
                                        a rank that holds none of its body: hk_world_distribute) */
    int64_t total;                   /* springs in the family over every rank (one process: count) */
    int64_t broken_count;            /* of them broken (a rank's own rows' on a distributed world) */
    uint8_t *broken;     /* breakable only: 1 = broken; lattice: by local source node (the body's stored nodes only:
                            broken[l] for l in [lo, lo + count) of its body), list: by spring */
    uint8_t *broken_mem; /* the allocation broken lives in (broken may point before it: a window) */

    /* LATTICE: base particle, lattice dims, offset and the box of valid source nodes [lo, hi) */
    int base, nx, ny, nz;
    int di, dj, dk;
    int64_t offset; /* di + nx*(dj + ny*dk) */
    int i0, i1, j0, j1, k0, k1;
    int64_t lo, hi;      /* the body's nodes held here [lo, hi): every node in one process (hk_body lo, count) */
    hk_real rest_vec[3]; /* D = r_target - r_source [m]: the spring's d = (q_a - q_b) - D */

    /* LIST: global particle indices and per-spring rest lengths (NULL: family rest) */
    int *a, *b;
    hk_real *rest_list;
    /* LIST in a body with a lattice: each spring's D = r_b - r_a [m], as the
     * arrays rvec[0..2] of count entries (one allocation at rvec[0]); NULL
     * in bodies without a lattice (their r is 0) */
    hk_real *rvec[3];
    /* LIST after hk_colour_family: springs reordered so colour c is the slice
     * [colour_start[c], colour_start[c+1]); no particle occurs twice in a
     * colour, except in the last one when `overflow` is set (run serially). */
    int colour_count;
    int overflow;
    int64_t *colour_start;
    /* Within each regular colour c the springs come in two parts, each sorted
     * by lower endpoint: near ones [colour_start[c], near_end[c]), whose
     * higher endpoint lies in the band (HK_BAND particles) of the lower one
     * or the next band, then far ones [near_end[c], colour_start[c+1]).
     * band_start[c * (band_count + 1) + b] is the first near spring of
     * colour c whose lower endpoint lies in band b or above. */
    int band_count;
    int band_first; /* the first band of the family's body (even): band b of the tables is band_first + b */
    int64_t *near_end;
    int64_t *band_start;
} hk_family;

/* The faces of a surface body (pressure.c): triangles (dim 3) or the edges
 * of a closed ring in the x-y plane (dim 2), over global particle indices,
 * with the faces incident to each vertex in CSR form (ascending face order:
 * the order in which a vertex gathers its face forces). */
typedef struct hk_surface {
    int body;
    int dim;          /* corners per face: 3 triangles, 2 ring edges */
    int closed;       /* 1: encloses a volume (pressure allowed) */
    int first, count; /* the body's particle range */
    int nfaces;
    int *face;               /* dim global indices per face */
    int *vf_start;           /* count + 1 offsets into vf_face */
    int *vf_face;            /* incident faces of local vertex v: vf_face[vf_start[v] .. vf_start[v+1]) */
    double nrt, pump_rate;   /* pressure: nRT [J] (0 = none), fraction per substep */
    double pump;             /* current fraction of nRT in [0, 1] */
    double volume, pressure; /* at the last force evaluation [m^3], [Pa] */
    double *face_f;          /* scratch: 3 per face, the force on each corner [N] */
    double *face_n;          /* scratch: 3 per face, the area-weighted normal (|N| = area) */
    double *block;           /* scratch: one partial volume per face block */
} hk_surface;

typedef struct hk_body {
    const char *kind;
    /* The body's particles held here: body-local particle lo + s is stored at index first + s, s < count. In one
     * process every body is held whole (lo 0, count = total); a distributed world (hk_world_distribute) holds a
     * split lattice's window of rows (its slab and halo), another rank's body not at all (count 0). A lattice's
     * node l is at storage index first - lo + l: hk_body_base. */
    int first, count;
    int lo;     /* body-local index of the first particle held [1] */
    int gfirst; /* global index of the body's particle 0: its place in outputs, hashes and checkpoints [1] */
    int total;  /* the body's particles over every rank [1] */
    struct hk_lattice_recipe *recipe; /* a lattice built later (hk_world_defer_lattices), else NULL */
    int nx, ny, nz;
    double origin[3];     /* [m]: x_i = origin + r_i + q_i for the body's particles */
    int lattice;          /* 1: r_i is lattice node (i, j, k) = i A + j B + k C; 0: r_i = 0 */
    double axis[3][3];    /* lattice: A, B, C, the rest offsets of one step along i, j, k [m] */
    int anchor;           /* 1: particle `first` is a driven anchor */
    double anchor_pos[3]; /* [m] */
    double anchor_vel[3]; /* [m/s] */
    int surface;          /* index into the world's surfaces, or -1 */
} hk_body;

/* What a lattice body added while lattices are deferred (hk_world_defer_lattices) is built from when its rows are
 * given their storage (hk_world_distribute): every node at rest at its lattice place with mass `mass`, then the
 * operations in the order they were asked for: op >= 0 pins body-local node op (inverse mass 0, velocity 0),
 * HK_RECIPE_ANCHOR sets node 0's velocity to the body's anchor velocity. */
typedef struct hk_lattice_recipe {
    double mass; /* [kg] of every node */
    int *op;
    int nop, cap;
} hk_lattice_recipe;
#define HK_RECIPE_ANCHOR (-1)

/* The engine's state between passes: plans, work space, packed records (engine.c). */
typedef struct hk_engine hk_engine;

struct hk_device_sums; /* engine/state_sums.h */
struct hk_world {
    hk_world_def def;
    hk_particles p;
    int gcount; /* particles over every rank: the global index space (one process: p.count) */
    int defer;  /* lattices are added without particles, built by hk_world_distribute (hk_world_defer_lattices) */

    hk_body *bodies;
    int body_count, body_cap;
    hk_family *families;
    int family_count, family_cap;
    hk_sphere_def *spheres;
    int sphere_count, sphere_cap;
    hk_surface *surfaces;
    int surface_count, surface_cap;

    hk_integrator_def integrator;
    int solves;  /* the integrator solves a linear system: the force passes make the contact blocks it reads */
    int cg_only; /* 1: every implicit system by CG, never the direct band solve (implicit/direct.h): set by a program
                    that may run the world over ranks, whose runs must have the bits of one process */
    int substeps;
    double h;         /* substep length [s] */
    int forces_valid; /* f holds F(x, v) of the current state (velocity Verlet) */
    /* Forces a host applies to single particles (applied.h): x, y, z arrays of applied_cap particles [N], NULL: none;
     * and, where contacts act too, the two summed for the passes (contact/response.c). */
    hk_real *applied[3];
    int applied_cap;
    int applied_on; /* 1: the passes add them (set, or handed out to write; clearing zeroes them and turns this off) */
    hk_real *applied_sum[3];
    int applied_sum_cap;
    struct hk_targets *targets; /* kinematic targets of driven particles (targets.h), NULL until the first is set */
    int history;                /* the history arrays hold the substep before's (integrators.h history_arrays) */
    hk_real *px, *py, *pz;      /* position Verlet: the previous positions q [m]; the implicit integrators: the last
                                   substep's velocity change [m/s] */
    hk_real *dqx, *dqy, *dqz;   /* bdf2: the last substep's displacement [m] (NULL where history_arrays < 6) */
    hk_real *history_slab;      /* px.. (and dqx..): one slab of history_arrays arrays */
    int history_arrays;         /* the arrays history_slab holds (0, 3 or 6) [1] */
    hk_real *scratch;           /* RK4: 12 arrays, array k at scratch + k * scratch_stride */
    size_t scratch_stride;

    /* How forces are evaluated, chosen once when the world is created: the
     * engine with this kernel table, or the reference path (NULL) */
    const struct hk_kernels *kernels;
    hk_engine *engine;                  /* the engine's state (engine.c), NULL until its first pass */
    struct hk_implicit *implicit;       /* the implicit solver's state (implicit/system.c), NULL until its first step */
    struct hk_constraints *constraints; /* xpbd's springs (iterate/constraints.h), NULL until its first substep */
    struct hk_vertex_graph *vertex_graph; /* vbd's particles and springs (iterate/vertices.h), NULL until then */
    struct hk_part *part;                 /* a distributed run: this process's share (dist/part.h); NULL otherwise */
    struct hk_contact *contact;           /* colliders and their contact state (contact/response.h); NULL without any */
    /* The device backend (core/device/device.h): where the steps run (def.device decided: 0 not yet, 1 the CPU, 2 a
     * GPU), its state (NULL on the CPU), and the hook that brings a newer state back from the device before the host
     * reads it (hk_state_read), set by the backend: the layers below call it without knowing it. */
    int device_on;
    struct hk_device *device;
    void (*device_pull)(hk_world *w);
    /* and the hook that reduces a check's sums where the newer state lies (engine/state_sums.h hk_device_sums; what:
     * HK_SUMS_SCAN, HK_SUMS_ENERGY besides the non-finite values): 0 with *out, or -1 (the state is then read) */
    int (*device_sums)(const hk_world *w, int what, struct hk_device_sums *out);
    int device_newer;         /* the device's state is newer than the host's arrays */
    int device_stale;         /* the host's arrays were written: the device loads them again before its next step */
    hk_team_session *session; /* while a call holds the world's OpenMP threads (team.h): they run its passes */
    hk_team_pace team_pace;   /* whether the held team beats the caller alone (team.h) */
    int step_failed;          /* 0, or the hk_status of a substep that could not be taken (the state is its start) */
    int fail_code;            /* the hk_status of the last failure recorded (hk_fail, hk_fail_memory) */

    int64_t steps;
    double time;
    int64_t spring_updates;     /* spring force evaluations so far */
    hk_strain_stats strain;     /* the strain limits' projection in the last step (fabric/strain_limit.h) */
    struct hk_tethers *tethers; /* long-range tethers (fabric/tethers.h), NULL until the first is set */
    struct hk_gravity_schedule *gravity_schedule; /* gravity in time (gravity_schedule.h), NULL: constant */
    int strain_ready; /* the pins were checked against the limits for the constraints' current layout */
    int strain_swept; /* the last projection swept: the next first look keeps each row's figures for its sweeps */

    /* Facts of the bodies and families that every step asks for, counted
     * once (hk_world_facts) while the body and family counts stay as they
     * were counted for: a step costs no pass over every family or body. */
    struct hk_world_facts {
        int bodies, families; /* the counts they were made for (-1: never) */
        int64_t springs;      /* springs of every family */
        int breakable;        /* families with broken flags */
        int lists;            /* list families */
        int anchors;          /* bodies with a driven anchor */
        int limited;          /* families with a strain or compression limit (hk_spring_params strain_limit) */
    } facts;
    int coloured; /* 1: every list family is coloured (hk_world_optimise has nothing to do) */
    char error[512];

    /* Tests only: when set, called by every thread at the end of each of
     * this world's engine passes, inside its parallel region (thread t of
     * T), to break a kernel on purpose and show that verification catches
     * it. NULL otherwise. */
    void (*after_pass)(hk_world *w, int t, int T);
};

/* Before the host reads a world's state (particles, broken springs): the device's newer state brought back. */
static inline void hk_state_read(const hk_world *w)
{
    if (w->device_newer) w->device_pull((hk_world *)w); /* a world is never made const: only passed as one */
}
/* Before the host writes it: the same, and the device takes the host's state again before its next step. */
static inline void hk_state_write(hk_world *w)
{
    hk_state_read(w);
    if (w->device) w->device_stale = 1;
}

/* Tasks of the world's parallel passes (team.h): with a task hook, its
 * `threads` setting (at least 1 then); while its threads are held
 * (hk_world_hold_team), the threads held; else its `threads` setting, or
 * when 0 hooke's default for its springs on OpenMP's count of threads
 * (hk_default_threads(springs, omp_get_max_threads())). The library never
 * changes the process-wide OpenMP settings; every pass it runs asks for
 * this team (hooke.h hk_world_threads_in_use). */
int hk_world_team(const hk_world *w);
/* Tasks for a pass over `items` of something: the world's team above
 * `min` of them, else 1. */
int hk_team_size(const hk_world *w, int64_t items, int64_t min);
/* The same with the threshold of per-particle passes, HK_PARALLEL_MIN. */
static inline int hk_team_of(const hk_world *w, int64_t particles)
{
    return hk_team_size(w, particles, HK_PARALLEL_MIN);
}
/* Runs fn(tm, ctx) on a team of `team` tasks of w: on its task hook's
 * pool, or on OpenMP's threads (team.h hk_team_launch). */
void hk_team_run(const hk_world *w, int team, hk_team_fn fn, void *ctx);
/* A parallel for on w's team (team.h hk_team_launch_for). */
void hk_team_for(const hk_world *w, int team, int64_t n, hk_range_fn fn, void *ctx);
/* Runs body(arg) on the calling thread with w's OpenMP threads held for
 * every pass it runs (team.h hk_team_hold): one parallel region for a
 * whole step. With a task hook, or already held: body alone. */
void hk_world_hold_team(hk_world *w, void (*body)(void *), void *arg);

/* Aligned, zeroed array of n reals (padded); NULL on failure. The zeroing
 * runs on w's team in the static split of the per-particle passes (first
 * touch; team.h), or on the calling thread when w is NULL. */
hk_real *hk_alloc_reals(size_t n, const hk_world *w);
/* `count` zeroed arrays of n reals (padded) in one block (returned; free it
 * with free()), array k at block + *offset + k * (*stride). Their start
 * addresses are staggered by 320 bytes modulo 4 KiB (from slot `first` on):
 * structure-of-arrays streams read and written together would otherwise all
 * sit at the same page offset, and the core would hold loads behind stores
 * to other arrays (4K aliasing: docs/performance-notes.md, "Memory layout").
 * Zeroed on w's team, as hk_alloc_reals. */
hk_real *hk_alloc_slab(int count, size_t n, int first, const hk_world *w, size_t *stride, size_t *offset);
/* New particle storage for count particles (zeroed, its capacity count) into *p; 0 or -1 (hk_fail_memory). */
int hk_particles_make(hk_world *w, int count, hk_particles *p);
/* w's particles become p (made by hk_particles_make; the old ones are freed), and what is sized by them (history,
 * scratch) is made again when next asked for. */
void hk_world_take_particles(hk_world *w, const hk_particles *p);
/* (Re)allocates the integrator's history: px, py, pz, and with 6 arrays dqx, dqy, dqz (history unset); 0 or -1. */
int hk_world_alloc_history(hk_world *w, int arrays);
void hk_free_reals(hk_real *a);
/* Capacity padded to the SIMD width. */
size_t hk_padded(size_t n);

/* Records an error message on the world and returns HK_ERR_INVALID (-1):
 * for bad input. */
int hk_fail(hk_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same for an allocation that failed: returns HK_ERR_MEMORY. */
int hk_fail_memory(hk_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The status of the failure last recorded on w (HK_ERR_INVALID if none): what a public call returns when a call
 * below it failed. */
int hk_failed(const hk_world *w);
/* 0 if [first, first + count) lies within w's particles; else the failure, "CALL: particles [A, B) outside the N
 * particles" on w. */
int hk_particles_refused(hk_world *w, int first, int count, const char *call);
/* Particle i free to move again: its inverse mass 1 / its mass (a pin's or a target's release; the caller has
 * called hk_state_write). */
void hk_particle_free(hk_world *w, int i);

/* The families of each body: (*fams)[(*start)[b] .. (*start)[b + 1]) are
 * body b's, ascending; both arrays allocated (free them), by one counting
 * pass: linear in bodies and families. 0 or -1 (out of memory). */
int hk_world_body_families(const hk_world *w, int **start, int **fams);

/* w's facts (above), counted again when bodies or families were added. */
const struct hk_world_facts *hk_world_facts(hk_world *w);

/* Appends count particles at rest; returns the first global index or -1. */
int hk_world_grow_particles(hk_world *w, int count);
/* Drops the particles from first on (the last grown, after a failure). */
void hk_world_drop_particles(hk_world *w, int first);
/* Appends a body over particles [first, first+count); returns its index or -1. */
int hk_world_new_body(hk_world *w, const char *kind, int first, int count, int nx, int ny, int nz);
/* Appends a lattice body of `total` particles that holds none yet (w->defer): its rows get their storage, and are
 * built from its recipe (mass m), when the world is shared out (hk_world_distribute); its index or -1. */
int hk_world_new_deferred_body(hk_world *w, const char *kind, int total, int nx, int ny, int nz, double m);
/* Adds op (a node to pin, or HK_RECIPE_ANCHOR) to deferred body b's recipe; 0 or -1 (out of memory). */
int hk_recipe_add(hk_world *w, int b, int op);
/* Whether lattices added from now on are deferred (1) or built at once (0, the default). A distributed run defers
 * them, so that no process builds a whole lattice that it holds a slab of: hk_world_distribute builds the rows each
 * rank holds. Until then the world holds no particle of a deferred body and cannot be stepped. */
void hk_world_defer_lattices(hk_world *w, int defer);
/* The storage index of node l of lattice body b (l in [b->lo, b->lo + b->count) where it is held). */
static inline int64_t hk_body_base(const hk_body *b) { return (int64_t)b->first - b->lo; }
/* Whether body b holds every particle of itself here (one process, or its owner rank). */
static inline int hk_body_whole(const hk_body *b) { return b->count == b->total; }
/* The global index of storage index i of body b. */
static inline int64_t hk_global_index(const hk_body *b, int64_t i)
{
    return (int64_t)b->gfirst + b->lo + (i - b->first);
}
/* Frees what a family owns (not the family itself). */
/* The origin of a body of listed points (r = 0, q = x - origin) [m]: the
 * middle of the box around them, rounded to a multiple of the power of two
 * that spans the box (0 for a body near the world's origin). */
void hk_points_origin(int count, const hk_vec3 *pos, double o[3]);
/* Calls visit(f, spring_slot, a, b, L0, ctx) for every unbroken spring of f
 * (a, b: global particle indices; slot: index into f->broken). */
typedef void (*hk_spring_visitor)(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *ctx);
void hk_springs_visit(const hk_family *f, hk_spring_visitor visit, void *ctx);
/* The same over a lattice family's springs whose source is body-local node s0 .. s1 - 1 (a list family: all), in the
 * same order; on a distributed world only those whose two ends are held here (w's share: dist/part.h). */
void hk_springs_visit_sources(const hk_family *f, int64_t s0, int64_t s1, hk_spring_visitor visit, void *ctx);
/* Frees the storage world.c owns: particles, families, bodies, obstacles,
 * the surface array (not its faces: surface.c), history and scratch. */
void hk_world_free_storage(hk_world *w);
void hk_family_free(hk_family *f);
/* Appends an empty family; returns a pointer valid until the next family is added. */
hk_family *hk_world_new_family(hk_world *w, int body, const char *name, const hk_spring_params *params);

/* The body that particle i belongs to (bodies own contiguous ranges), or -1. */
int hk_body_of(const hk_world *w, int i);
/* The rest position of local particle `local` of body b relative to its
 * origin, in double [m] (0 in a body without a lattice). */
void hk_body_rest(const hk_body *b, int64_t local, double out[3]);
/* The place of particle i of body b in world coordinates [m]: origin +
 * (r_i + q_i), summed in double. The one definition of a particle's
 * position: outputs, statistics, the state hash and hk_world_position. */
static inline void hk_particle_position(const hk_world *w, const hk_body *b, int i, double out[3])
{
    const hk_particles *p = &w->p;
    out[0] = hk_frame_world(b->origin[0], p->rx[i], p->qx[i]);
    out[1] = hk_frame_world(b->origin[1], p->ry[i], p->qy[i]);
    out[2] = hk_frame_world(b->origin[2], p->rz[i], p->qz[i]);
}
/* Sets particle i of body b to world position pos [m] (its displacement
 * q_i = pos - origin - r_i, rounded once). */
void hk_particle_place(hk_world *w, const hk_body *b, int i, const double pos[3]);
/* Whether hk_particle_place can hold pos for particle i: its displacement within the build's precision. */
int hk_particle_fits(const hk_world *w, const hk_body *b, int i, const double pos[3]);

#endif
