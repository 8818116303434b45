/* hooke.h — public API of the hooke mass-spring solver; SI units on every field. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_H
#define HOOKE_H

#include <stddef.h>
#include <stdint.h>

#include "hooke/config.h" /* HOOKE_VERSION, and HOOKE_DOUBLE when the library was built in double */

/* HK_API marks the functions of the API: the shared library is built with
 * hidden visibility and exports these and nothing else. */
#if defined(__GNUC__)
#define HK_API __attribute__((visibility("default")))
#else
#define HK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, HOOKE_VERSION of the build it came from ("0.1.0"):
 * for programs that load it at run time (ctypes, cffi, dlopen). */
HK_API const char *hk_version(void);

/* Floating type of all hot simulation state: float by default, double when
 * built with -DHOOKE_DOUBLE=ON (precision studies). Descriptors use double. */
#ifdef HOOKE_DOUBLE
typedef double hk_real;
#else
typedef float hk_real;
#endif

/* The precision of this header must be the library's. At compile time:
 * defining HOOKE_DOUBLE against a float build's hooke/config.h stops here.
 * At link time: every file that includes hooke.h refers to the symbol of
 * its precision, and a library of the other precision lacks it, so the
 * link fails naming `hk_library_is_double` or `hk_library_is_float`. */
#if defined(HOOKE_DOUBLE) && !HOOKE_DOUBLE_BUILD
/* one line, as the compiler prints it */
// clang-format off
#error "hooke.h: HOOKE_DOUBLE is defined, but this hooke was built in float (hooke/config.h); use a build made with -DHOOKE_DOUBLE=ON, or do not define HOOKE_DOUBLE"
// clang-format on
#endif
#ifdef HOOKE_DOUBLE
HK_API extern const int hk_library_is_double;
#define HK_LIBRARY_PRECISION_ hk_library_is_double
#else
HK_API extern const int hk_library_is_float;
#define HK_LIBRARY_PRECISION_ hk_library_is_float
#endif
#if defined(__GNUC__)
static const int *const hk_library_precision_check_ __attribute__((used, unused)) = &HK_LIBRARY_PRECISION_;
#endif

typedef struct hk_vec3 {
    double x, y, z;
} hk_vec3;

typedef struct hk_world hk_world; /* opaque */

/* Errors, one convention for every call.
 * - A call that can fail returns an hk_status: HK_OK (0), or a negative code saying what kind of failure it was. A
 *   call that adds something and returns its index (a body, a sphere, particles) returns the index (>= 0) or a
 *   negative hk_status. A call that makes an object (a world, a frame writer) returns it, or NULL.
 * - The reason, as text: hk_world_error(w) for a call on a world; for a call without one (meshes, scene files, frame
 *   writers), the `err` buffer it takes (NULL: no text).
 * - Bad input never makes the library print, exit or abort. hk_world_step reports a step that could not be taken the
 *   same way.
 *
 * Threads, for every function below:
 * - A call that takes an hk_world, hk_mesh or hk_frame_writer uses that object: one thread at a time per object,
 *   reads included (a world runs its own parallel passes inside a call, on OpenMP's threads or on the host's pool,
 *   hk_task_hook, and a read may fill its caches). Different objects may be used on different threads at once: worlds
 *   made, stepped, read and destroyed side by side, and frame writers writing different worlds (tests/test_api.c runs
 *   four). hk_world_error's text is the world's and lasts until its next call.
 * - Every other call (hk_version, hk_status_name, the hk_default_*_def, bound, integrator-name and frame-format-name
 *   functions, hk_kernel_path_available, hk_world_def_check, hk_find_zero_length_spring, and the calls that make a
 *   new object: hk_world_create, hk_world_load_scene, hk_world_parse_scene, hk_frame_writer_open, the hk_mesh_parse_*
 *   and hk_mesh_load into the caller's own hk_mesh) is safe from any thread.
 * - The library reads no environment variable and keeps no process-wide state: it never changes the OpenMP settings,
 *   signal handlers, locale or exit handlers. */
typedef enum hk_status {
    HK_OK = 0,
    HK_ERR_INVALID = -1,     /* bad input: a value out of its bounds, a malformed file, an unknown name */
    HK_ERR_MEMORY = -2,      /* out of memory (the world is unchanged by the failed call) */
    HK_ERR_IO = -3,          /* a file could not be read or written */
    HK_ERR_UNSUPPORTED = -4, /* this CPU or build lacks what was asked for (a kernel path) */
    HK_ERR_DIVERGED = -5,    /* the implicit solve broke down: the state is the failed step's start */
} hk_status;
/* The name of a status ("ok", "invalid", "memory", "io", "unsupported",
 * "diverged"), "unknown" for any other value. Thread-safe. */
HK_API const char *hk_status_name(int status);

/* ------------------------------------------------------------------------ */
/* Springs                                                                   */

typedef enum hk_damping_model {
    HK_DAMP_ALONG = 0, /* f_i -= c ((v_i - v_j) . u) u : damping along the spring */
    HK_DAMP_RELATIVE,  /* f_i -= c (v_i - v_j): full relative velocity ("internal friction") */
    HK_DAMP_MODEL_COUNT,
} hk_damping_model;

typedef enum hk_behaviour {
    HK_SPRING_NORMAL = 0,
    HK_SPRING_TENSION_ONLY,     /* "bungee": force only while r > L0 */
    HK_SPRING_COMPRESSION_ONLY, /* "shock absorber": force only while r < L0 */
    HK_SPRING_BREAKABLE,        /* removed for good once r > break_ratio * L0 */
    HK_SPRING_BEHAVIOUR_COUNT,
} hk_behaviour;

/* Parameters shared by every spring of one family. */
typedef struct hk_spring_params {
    double k;       /* stiffness [N/m] */
    double damping; /* damping coefficient c [N*s/m] */
    hk_damping_model damping_model;
    hk_behaviour behaviour;
    double break_ratio; /* breakable: break when r > break_ratio * L0 [1] */
    double rest_length; /* [m]; 0 = each spring's initial length */
    /* Strain limits, kept by a projection after every substep under every integrator (docs/user-guide.md, "Fabric
     * that does not stretch"): no spring of the family longer than (1 + strain_limit) L0, none shorter than
     * (1 - compress_limit) L0. 0 = no limit. */
    double strain_limit;   /* largest stretch r / L0 - 1 kept [1]; 0 or > 0 */
    double compress_limit; /* largest compression 1 - r / L0 kept [1]; 0 or in (0, 1) */
} hk_spring_params;

HK_API hk_spring_params hk_default_spring_params(void); /* k 1000 N/m, no damping, normal */

/* ------------------------------------------------------------------------ */
/* Bounds: the magnitudes every entry point accepts (docs/scene-format.md)   */

/* Outside these no physical mass-spring scene lies, and inside them the engine's single-precision arithmetic stays
 * meaningful: k/m and c/m within 1e-24 .. 1e24, omega = sqrt(k/m) <= 1e12 rad/s, resolvable at the smallest dt. The
 * builders and hk_world_set_integrator refuse a value outside with the bound and the reason (hk_world_error). */
typedef enum hk_bound_kind {
    HK_BOUND_MASS,          /* particle masses [kg] */
    HK_BOUND_STIFFNESS,     /* spring k [N/m]; 0 is accepted too (no spring force) */
    HK_BOUND_DAMPING,       /* spring damping c [N*s/m]; 0 is accepted too */
    HK_BOUND_DT,            /* dt; dt_max, jelly_dt_a and jelly_dt_v unless 0 [s] */
    HK_BOUND_DAMPING_RATIO, /* damping_ratio of colliders and of contact between bodies, 0 included [1] */
    HK_BOUND_COUNT
} hk_bound_kind;

typedef struct hk_bound {
    const char *quantity; /* "mass", "stiffness", "damping", "time step", "damping ratio" */
    const char *unit;     /* "kg", "N/m", "N*s/m", "s", "" (a ratio) */
    double min, max;      /* accepted: [min, max]; max INFINITY: no upper bound but the build's precision
                             (finite, and at most 3.4e38 in single precision) */
    const char *reason;   /* why, one clause for messages */
} hk_bound;
/* The row of kind, or NULL. */
HK_API const hk_bound *hk_bound_of(hk_bound_kind kind);
/* 1 if v lies within bound kind and the build's precision holds it (or v is 0 and zero_ok), else 0. */
HK_API int hk_bound_ok(hk_bound_kind kind, int zero_ok, double v);
/* The accepted values as text for messages: "in [1e-12, 1e12] kg", "0 or in
 * [1e-12, 1e12] N/m", ">= 1e-12 s", "in [0, 100]". */
HK_API void hk_bound_text(hk_bound_kind kind, int zero_ok, char *out, size_t cap);

/* ------------------------------------------------------------------------ */
/* World                                                                     */

typedef enum hk_ground_model {
    HK_GROUND_NONE = 0,
    HK_GROUND_REPULSION, /* rope tutorial: k_rep (h - y) up, -c_fric v_t, -c_abs v_y while v_y < 0 */
    HK_GROUND_SPRING,    /* soft-body book: virtual spring -k_coll (y - h) while y < h */
    HK_GROUND_MODEL_COUNT,
} hk_ground_model;

typedef struct hk_ground {
    hk_ground_model model;
    double height;     /* plane y = height [m] */
    double repulsion;  /* REPULSION: k_rep [N/m] */
    double friction;   /* REPULSION: tangential sliding friction c_fric [N*s/m] */
    double absorption; /* REPULSION: normal absorption c_abs [N*s/m] */
    double stiffness;  /* SPRING: k_coll [N/m] */
} hk_ground;

/* Wind on surfaces: on every surface body (cloth, mesh, icosphere, ring), c_w = wind_drag, w = wind velocity, v =
 * particle velocity. VERTEX: F_i = c_w ((w - v_i) . n_i) n_i, n_i the unit area-weighted average of the normals of
 * the faces that share i. TRIANGLE: each face applies c_w (N . W) N to each of its corners, N its unit normal, W = w
 * - mean velocity of its corners. */
typedef enum hk_wind_model {
    HK_WIND_NONE = 0,
    HK_WIND_VERTEX,
    HK_WIND_TRIANGLE,
    HK_WIND_MODEL_COUNT,
} hk_wind_model;

/* A host's thread pool running hooke's parallel passes (optional): the world def's task_hook, or
 * hk_world_set_task_hook. Without one (run NULL, the default) the passes run on OpenMP's threads.
 *
 * What is called, when: every call on the world that computes on it in parallel (hk_world_step, hk_world_optimise,
 * the body adds that zero large arrays, hk_world_stats and the checks, hk_frame_write's VTK compression) calls
 * run(host, tasks, task, pass) from the thread that made the call, once per parallel pass: one to a few times a step
 * for an explicit world, dozens per CG iteration of an implicit one. A pass too small to share out (up to 8192
 * particles for the per-particle passes and the solver) runs on the calling thread without it. tasks is the world's
 * `threads` setting (the hook needs it set, 1 to HK_MAX_THREADS), or fewer for a pass with fewer items to share:
 * always 2 to threads. Units: tasks and task are counts and indices [1], host and pass opaque pointers.
 *
 * What run must do: call task(pass, i) once for every i in [0, tasks), ALL AT THE SAME TIME, each on a thread of its
 * own, and return once every task has returned (a run that returns sooner, an enqueue-only pool, is waited for: hooke
 * does not go on before every task has returned). The calling thread may run one of them itself. The tasks of one
 * pass wait for each other at barriers inside it (hooke's own: a short spin, then a sleep on a futex), so a pool that
 * runs two tasks of one call one after the other on one thread, or keeps one queued until another returns, never
 * finishes the pass: a pool needs `tasks` threads that can take them at once (Box2D v3's solver asks the same of its
 * workers). A task never calls run again (passes do not nest), nor may the host call hooke on this world from inside
 * run.
 *
 * What the host gets: task i's share of the work is fixed by (i, tasks) alone, never by the thread that runs it, so
 * the state is the same bits whichever thread runs which task, the same as with OpenMP's threads, and (as always) the
 * same for any number of tasks. Each task sets the solver's floating-point mode (subnormals flushed to zero) on its
 * thread on entry and restores the thread's own on return. */
typedef void (*hk_task_fn)(void *pass, int task);
typedef struct hk_task_hook {
    void (*run)(void *host, int tasks, hk_task_fn task, void *pass);
    void *host; /* the host's pool: run's first argument */
} hk_task_hook;

/* Where a world's steps run (hk_world_def.device). The same bits wherever: a step on a GPU ends in the state a step on
 * the CPU ends in, at any thread count (docs/determinism.md, "On a GPU"). The device runs the explicit step of lattice
 * bodies (cloth, jelly, rope) and bodies of points without springs: their springs, the per-particle forces, the wind,
 * the explicit integrators with their substeps, pinned and driven particles, the ground, walls and spheres, breaking
 * springs; the blow-up checks and the statistics read the state back (docs/user-guide.md, "On a GPU"). A world that
 * uses anything else (an implicit integrator, contact between bodies or within one, colliders, pressure, list
 * springs, MPI ranks, a double build, the reference kernels) is refused there by name, never run on the CPU instead. */
typedef enum hk_device_kind {
    HK_DEVICE_CPU = 0, /* the CPU's engine (the default) */
    HK_DEVICE_GPU,     /* a GPU: hk_world_step fails with HK_ERR_UNSUPPORTED, saying why, where none is found or the
                          world uses what the device does not run */
    HK_DEVICE_AUTO,    /* the GPU where one is found and the world can run there, else the CPU (hk_world_device says
                          which and why) */
    HK_DEVICE_KIND_COUNT,
} hk_device_kind;

typedef struct hk_world_def {
    hk_vec3 gravity; /* [m/s^2] */
    double air_drag; /* c_air in f = -c_air v [N*s/m] */
    hk_ground ground;
    int has_walls;     /* room walls: particles kept inside [walls_min, walls_max] */
    hk_vec3 walls_min; /* [m] */
    hk_vec3 walls_max; /* [m] */
    double walls_loss; /* collision energy loss: normal speed kept = (1 - loss) [1] */
    int threads;       /* threads of the world's parallel passes, 0 to HK_MAX_THREADS; 0 = hooke's default for the
                          world's springs (hk_default_threads, hk_world_threads_in_use) */
    hk_wind_model wind_model;
    hk_vec3 wind;     /* wind velocity w [m/s] */
    double wind_drag; /* c_w [N*s/m] (default 1) */
    /* How the world computes, never what: every value gives the same bits. The library reads no environment;
     * the program `hooke` fills these from HOOKE_KERNELS, HOOKE_LIST_PARALLEL_MIN and HOOKE_FULL_TEAM. */
    const char *kernels;       /* kernel path, as hk_world_set_kernels takes it ("avx512", "avx2", "scalar",
                                  "reference"); NULL or "": the widest this CPU and build run (copied: the world keeps
                                  no pointer to it) */
    int list_parallel_min;     /* a body of fewer list springs than this runs them on one thread, where a barrier per
                                  colour would cost more than the work [1], >= 0 (default HK_LIST_PARALLEL_MIN;
                                  0: every list body on the world's whole team) */
    int full_team;             /* 0 (default): a thread that another process keeps off its core sits out the world's
                                  passes for a while, and a team slower than one thread rests (see "Threads of a
                                  world" below); 1: every pass runs on the whole team, for tests that must see every
                                  task count */
    hk_task_hook task_hook;    /* {NULL}: OpenMP's threads; set: the host's pool, `threads` (>= 1) tasks a pass */
    hk_device_kind device;     /* where the steps run (default HK_DEVICE_CPU); `hooke run --device` */
    int strain_sweeps;         /* most sweeps of the strain limits' projection in one substep [1], >= 0; 0: the
                                  default, HK_STRAIN_SWEEPS */
    const char *device_driver; /* the GPU's driver: "cuda" (CUDA) or "openmp" (OpenMP target offload); for tests,
                                  "host" (the device's passes on this CPU) or "openmp-host" (the OpenMP driver's
                                  passes through the offload's host fallback); NULL or "": the first of cuda, openmp
                                  that finds a device (the name is copied; the program's HOOKE_DEVICE_DRIVER) */
} hk_world_def;
#define HK_LIST_PARALLEL_MIN 16384 /* list_parallel_min by default [1] */
#define HK_STRAIN_SWEEPS 100       /* strain_sweeps by default [1] */

HK_API hk_world_def hk_default_world_def(void); /* gravity (0,-9.81,0), no drag, ground, walls; default tuning */

/* Whether hk_world_create accepts def: every field within what it accepts (docs/user-guide.md "hooke as a library"
 * lists them; the magnitudes are the bounds above): HK_OK; HK_ERR_INVALID with "FIELD must be ... (got V)" in err
 * (may be NULL) for the first field that is not, say "air_drag must be 0 or in [1e-12, 1e12] N*s/m (got -1)" or
 * "gravity.y must be finite (got nan)"; HK_ERR_UNSUPPORTED when `kernels` names a path this CPU or build lacks. No
 * value is clamped or replaced. NULL def: the defaults (HK_OK). Thread-safe. */
HK_API int hk_world_def_check(const hk_world_def *def, char *err, size_t errlen);
/* A new world of def (NULL: hk_default_world_def()), or NULL if def is
 * refused (hk_world_def_check says why; a task hook needs threads >= 1) or
 * memory runs out. */
HK_API hk_world *hk_world_create(const hk_world_def *def);
HK_API void hk_world_destroy(hk_world *w);
/* Threads of a world: how many, and how they wait.
 * - How many: a world's `threads` setting when it is not 0; else hooke's default, the rule `hooke run` follows too:
 *   one thread per HK_SPRINGS_PER_THREAD springs begun, at most the cores (hk_default_threads), so a problem too
 *   small to keep more threads busy runs on fewer (a 79-spring rope on 1). A world counts its springs as bodies are
 *   added and its cores as OpenMP's count, omp_get_max_threads() (OMP_NUM_THREADS, else the processors the process
 *   may run on); `hooke run` counts the cores of its CPU mask. The results are the same bits for any count.
 * - How they wait: OpenMP's threads are held for a whole hk_world_step (one parallel region, not one per pass),
 *   and every wait inside it (for the next pass, at a barrier within a pass, for the end of a pass) is hooke's own:
 *   a spin of up to about a millisecond, then a sleep on a futex; OpenMP's waits are never used there. A thread
 *   that another process keeps off its core (a third of its time or more, as the scheduler counts it) spins
 *   short, and sits out the world's passes for 0.1 s: they run on the threads that have their cores (the same
 *   bits: a pass's result does not depend on how many tasks run it). And the team judges itself as it runs: the
 *   calling thread times each pass against its own share of the work, and a team slower than the calling thread
 *   alone would be (a pass waited out another process's time slices on a held thread, or the caller's own core
 *   was taken) rests: the steps run on the calling thread alone, for 20 ms at first and twice as long each time
 *   the team loses again, and the team comes back only once the other threads' processors were idle for a
 *   quarter of a rest. So a team on a shared machine does not lose to one thread, and its waiting threads leave
 *   their cores to whoever wants them. full_team 1 turns the sitting out and the resting off. Where OpenMP's own
 *   threads wait between calls is the process's OpenMP setting (OMP_WAIT_POLICY), which the library never
 *   changes. */
#define HK_SPRINGS_PER_THREAD 15000 /* springs per thread of the default thread count [1] */
/* hooke's default thread count for a problem of `springs` springs (a world's, or one MPI rank's share) on `cores`
 * cores: ceil(springs / HK_SPRINGS_PER_THREAD), at most cores, at least 1 [1]. Thread-safe. */
HK_API int hk_default_threads(int64_t springs, int cores);
/* Threads asked for by the world's definition or hk_world_set_threads (0 = not specified: the default). */
HK_API int hk_world_threads(const hk_world *w);
/* The threads the world's parallel passes run on now [1]: with a task hook, its threads setting (the tasks of a
 * pass); else the threads setting when not 0, else hk_default_threads(hk_world_spring_count(w),
 * omp_get_max_threads()) as called from this thread; 1 in a build without OpenMP. The most a pass runs on: one too
 * small to share runs on one, a thread that sits out (above) leaves a pass to fewer, and inside another OpenMP
 * parallel region a world gets what OpenMP gives it (one thread by default). */
HK_API int hk_world_threads_in_use(const hk_world *w);
/* Threads of every parallel pass the world runs from now on, 1 to HK_MAX_THREADS; 0 = hooke's default (above),
 * refused while a task hook is set (its tasks per pass). The results are the same bits for any count. The
 * process-wide OpenMP settings are never changed. HK_OK, or HK_ERR_INVALID on a count out of range. */
#define HK_MAX_THREADS 4096
HK_API int hk_world_set_threads(hk_world *w, int threads);
/* Runs the world's parallel passes on a host's pool from now on (hook, see hk_task_hook), or on OpenMP's threads
 * again (NULL, or run NULL). The world's threads setting (1 to HK_MAX_THREADS) is the tasks of a pass: set it first.
 * The state is the same bits either way. HK_OK, or HK_ERR_INVALID when a hook is given and threads is 0
 * (hk_world_set_threads refuses 0 while a hook is set). */
HK_API int hk_world_set_task_hook(hk_world *w, const hk_task_hook *hook);
/* How the world evaluates forces: "avx512", "avx2" or "scalar" (the parallel engine with that instruction set) or
 * "reference" (the plain serial code, the oracle the engine is tested against). A new world takes its definition's
 * `kernels`, by default the widest path the CPU and the build have. NULL: that default. Every engine path gives the
 * same bits. HK_OK; HK_ERR_UNSUPPORTED if the CPU or the build lacks the path, HK_ERR_INVALID for a name that is none
 * of these. */
HK_API int hk_world_set_kernels(hk_world *w, const char *path);
/* The world's path, as above. */
HK_API const char *hk_world_kernels(const hk_world *w);
/* 1 if this CPU and build can run kernel path `path`, else 0. */
HK_API int hk_kernel_path_available(const char *path);
/* Message of the last failed call on this world ("" if none). */
HK_API const char *hk_world_error(const hk_world *w);

/* A GPU as hk_device_list lists it. */
typedef struct hk_device_info {
    char name[128];  /* as its driver names it, "NVIDIA H100 80GB HBM3" */
    double memory;   /* its memory [bytes], 0 if its driver does not say */
    char driver[96]; /* the driver that found it and its version: "cuda (driver 13.0, runtime 13.0)" */
} hk_device_info;
/* The GPUs that the drivers find (device_driver: one driver's; NULL: every driver's), up to max into out (out may be
 * NULL): their count. 0 where none: why (may be NULL) says what was looked for and what was missing (a driver module
 * not built or not found, no offload plugin, no CUDA driver, no device). Thread-safe. */
HK_API int hk_device_list(const char *device_driver, hk_device_info *out, int max, char *why, size_t whylen);
/* Where the world's steps run, deciding it now if no step has (def.device; a GPU's memory is taken and the state loaded
 * there): HK_DEVICE_CPU or HK_DEVICE_GPU, with why (may be NULL) saying which GPU, or why the CPU under
 * HK_DEVICE_AUTO; a negative hk_status where def.device is HK_DEVICE_GPU and the world cannot run on one (why and
 * hk_world_error say what was missing or which feature the device does not run). */
HK_API int hk_world_device(hk_world *w, char *why, size_t whylen);
/* On a GPU, steps return before the device has finished them, and the state stays on the device: this waits for
 * them and brings the state back. The library's own reads (positions, the particle view, statistics, checks, the
 * state hash, frames) do it themselves. HK_OK, or a negative hk_status (hk_world_error). */
HK_API int hk_world_sync(hk_world *w);

/* Sphere obstacle; moves with constant velocity. Returns its index or a
 * negative hk_status. */
typedef struct hk_sphere_def {
    hk_vec3 center;   /* [m] */
    double radius;    /* [m] */
    hk_vec3 velocity; /* [m/s]; 0 = static */
    double loss;      /* collision energy loss: normal speed kept = (1 - loss) [1] */
} hk_sphere_def;
HK_API int hk_world_add_sphere(hk_world *w, const hk_sphere_def *def);

#include "hooke/bodies.h"    /* bodies: hk_world_add_rope, _cloth, _jelly, ..., closed surfaces and pressure */
#include "hooke/colliders.h" /* colliders and contact: hk_world_add_collider, hk_world_set_contact, ... */

/* ------------------------------------------------------------------------ */
/* Integrators                                                               */

typedef enum hk_integrator_kind {
    HK_EULER = 0,           /* explicit: x += v dt; v += a dt */
    HK_SEMI_IMPLICIT_EULER, /* symplectic: v += a dt; x += v dt */
    HK_VERLET,              /* position Verlet, x1 = x0 + v0 dt + a dt^2/2 */
    HK_VERLET_BOOK,         /* position Verlet with the book's first step x1 = x0 + a dt^2 */
    HK_VELOCITY_VERLET,
    HK_JELLY, /* v += dt_a F/m; x += dt_v v; v *= alpha */
    HK_RK4,
    HK_IMPLICIT_EULER,      /* backward Euler as a minimisation (or linearised: newton_iterations) */
    HK_TRAPEZOIDAL,         /* the trapezoidal rule (Newmark average acceleration), linearised */
    HK_BDF2,                /* the second-order backward difference formula as a minimisation */
    HK_XPBD,                /* extended position-based dynamics: springs as compliant constraints, swept by colour */
    HK_VBD,                 /* vertex block descent: each particle's Newton step on the substep's energy, by colour */
    HK_PROJECTIVE_DYNAMICS, /* local projections of the springs, global solves on a constant matrix */
    HK_INTEGRATOR_COUNT
} hk_integrator_kind;

/* The preconditioner of the implicit integrators' conjugate-gradient solve. */
typedef enum hk_preconditioner {
    HK_PRECONDITIONER_MULTIGRID, /* aggregation multigrid on lattice bodies of >= 1024 nodes, block Jacobi elsewhere */
    HK_PRECONDITIONER_BLOCK_JACOBI, /* the inverse 3x3 diagonal block of each particle */
    HK_PRECONDITIONER_COUNT
} hk_preconditioner;

/* When the implicit integrators' CG solve stops (cg_tolerance is the tol). */
typedef enum hk_cg_stop {
    HK_CG_STOP_FORCE,    /* every free particle's residual force, |r_i| / h, is at most tol times what moves it,
                            max(m_i a, |b_i| / h) with a = max(|g|, the mean |b_j| / (h m_j)) (default tol 1e-5) */
    HK_CG_STOP_RELATIVE, /* |r| <= tol |b| over the whole system (default tol 1e-5) */
    HK_CG_STOP_ENERGY,   /* the energy of the velocity error, e . A e estimated as r . B r with B the preconditioner,
                            is at most tol^2 of the energy of the velocity change dv . A dv, or of gravity's velocity
                            change in the step, sum_i m_i (|g| h)^2, where larger (default tol 1e-5) */
    HK_CG_STOP_NEWTON,   /* the minimising integrators only (inexact Newton): each Newton iteration's solve stops
                            once the energy of its error, as ENERGY measures it, is at most tol^2 of its velocity
                            change's, or a tenth of the energy the minimisation stops at (newton_tolerance^2 of
                            its first step's, or of gravity's), where larger (default tol 0.1) */
    HK_CG_STOP_COUNT
} hk_cg_stop;

typedef struct hk_integrator_def {
    hk_integrator_kind kind;
    double dt;          /* step (one output step / frame) [s] */
    double dt_max;      /* > 0: each step split into ceil(dt / dt_max) equal substeps [s] */
    double jelly_dt_a;  /* JELLY: acceleration step [s]; 0 = substep length */
    double jelly_dt_v;  /* JELLY: velocity step [s]; 0 = substep length */
    double jelly_alpha; /* JELLY: velocity kept per substep [1] */
    /* implicit integrators (0: the default in brackets) */
    double cg_tolerance;              /* the tol of cg_stop [1] (1e-5; newton: 0.1) */
    int cg_max_iterations;            /* CG iterations per solve at most [1] (1000) */
    int newton_iterations;            /* the linearised integrators (hk_integrator_info.linearised): Newton
                                         iterations per substep at most [1] (1: linearised once) */
    hk_preconditioner preconditioner; /* of the CG solve (multigrid) */
    hk_cg_stop cg_stop;               /* when a CG solve stops (force) */
    double newton_tolerance;          /* the minimisation (hk_integrator_info.minimised; implicit_euler: without
                                         newton_iterations): it stops once
                                         the energy a further Newton step would release is at most this squared
                                         times its first step's [1] (1e-2; cg_stop newton: 1e-4) */
    int iterations;                   /* the iterated integrators (hk_integrator_info.iterated): sweeps over the
                                         springs per substep [1] (xpbd: 1, vbd and projective_dynamics: 10) */
    double chebyshev_rho;             /* the accelerated integrators (hk_integrator_info.accelerated: vbd): the
                                         spectral radius the Chebyshev acceleration of the sweeps assumes, in
                                         (0, 1) [1] (0: no acceleration) */
} hk_integrator_def;
#define HK_MAX_NEWTON_ITERATIONS 100                      /* newton_iterations at most */
#define HK_MAX_ITERATIONS 10000                           /* iterations at most */
HK_API hk_integrator_def hk_default_integrator_def(void); /* semi-implicit Euler, dt 1e-3 s */

/* The facts of one integrator (its row of the integrator table). */
typedef struct hk_integrator_info {
    hk_integrator_kind kind;
    const char *name;        /* in scene files and --integrator */
    const char *alias;       /* a second accepted name, or NULL */
    double stability_limit;  /* largest stable omega*dt on the undamped oscillator [1]; 0: none (it gains
                                energy at every dt) */
    int keeps_history;       /* 1: carries state from step to step (position Verlet: the previous positions;
                                implicit: the last velocity change, the next solve's first guess; bdf2: and
                                the last displacement) */
    int force_evaluations;   /* force evaluations per substep [1] (implicit: per Newton iteration) */
    int implicit;            /* 1: solves a linear system per substep (cg_* and newton_iterations apply) */
    const char *description; /* one line for messages and --help */
    int device;              /* 1: the device backend runs it (hk_world_def.device); any other is refused by name
                                there, and HK_DEVICE_AUTO runs it on the CPU */
    int linearised;          /* 1: newton_iterations applies (a fixed count of linearised Newton iterations) */
    int minimised;           /* 1: solves each substep as a minimisation; newton_tolerance applies (where
                                linearised is 1 too: unless newton_iterations is set) */
    int iterated;            /* > 0: sweeps over the springs a fixed number of times per substep, this many
                                where iterations is 0 (iterations applies) [1]; 0: iterations does not apply */
    int accelerated;         /* 1: the sweeps can be accelerated (chebyshev_rho applies) */
} hk_integrator_info;
/* The row of kind, or NULL if kind is not an integrator. */
HK_API const hk_integrator_info *hk_integrator_info_of(hk_integrator_kind kind);

HK_API const char *hk_integrator_name(hk_integrator_kind kind);
/* Parses a name ("euler", "semi_implicit_euler", "verlet", ...); -1 if unknown. */
HK_API int hk_integrator_from_name(const char *name);
/* Comma-separated list of all names, for messages and --help. */
HK_API const char *hk_integrator_names(void);

/* Sets the integrator (resets multi-step history, and clears a failed
 * step's stop). HK_OK or a negative hk_status. */
HK_API int hk_world_set_integrator(hk_world *w, const hk_integrator_def *def);
/* Advances one step of def.dt (all its substeps). HK_OK, or the failure: HK_ERR_MEMORY (no memory for the
 * integrator's or the engine's state) or HK_ERR_DIVERGED (the implicit solve broke down); the state is then the start
 * of the substep that failed, hk_world_error says why, and every later call returns the same status without stepping
 * until the integrator is set again. A blow-up is not a failure of the call: hk_world_check finds it. */
HK_API hk_status hk_world_step(hk_world *w);
/* The current integrator setting. */
HK_API hk_integrator_def hk_world_integrator(const hk_world *w);
/* Number of substeps per step under the current integrator. */
HK_API int hk_world_substeps(const hk_world *w);

/* The implicit integrators' linear solver, as of the last step. */
typedef struct hk_solver_stats {
    int64_t step;               /* the step (hk_world_steps before it) the per-step figures belong to */
    int cg_iterations;          /* CG iterations in that step, all substeps and Newton iterations [1] */
    double cg_residual;         /* largest residual its solves ended with, in cg_stop's measure (force: max_i |r_i| over
                                   the particle's reference force; relative: |r| / |b|) [1] */
    int newton_iterations;      /* linear solves in that step [1] */
    int newton_stopped;         /* substeps of that step whose minimisation stopped at its iteration bound [1] */
    int64_t solves;             /* linear solves since the world was created [1] */
    int64_t cg_total;           /* CG iterations since the world was created [1] */
    int64_t products;           /* products with the system matrix (one pass over every spring each) since then [1] */
    int64_t unconverged;        /* solves that stopped at cg_max_iterations above cg_tolerance [1] */
    int64_t newton_unconverged; /* substeps whose minimisation stopped at its iteration bound above its tolerance [1] */
    int64_t line_cuts;          /* cuts of a Newton step by the minimisation's line search since then [1] */
    int diverged;               /* 1: a solve broke down; that substep was not taken (hk_world_check reports it) */
} hk_solver_stats;
/* All zero for a world that has not taken an implicit step. */
HK_API hk_solver_stats hk_world_solver_stats(const hk_world *w);

/* The strain limits' projection (hk_spring_params strain_limit, compress_limit) in the last step: over its substeps,
 * the springs of the families with a limit as the projection's first sweep found them and as its last left them. */
typedef struct hk_strain_stats {
    int64_t step;      /* the step (hk_world_steps before it) the figures belong to; -1: no step projected yet */
    double before_max; /* largest r / L0 the first sweep of a substep found [1] */
    double after_max;  /* largest r / L0 after the last sweep [1] */
    double before_min; /* smallest r / L0 the first sweep found [1] */
    double after_min;  /* smallest r / L0 after the last sweep [1] */
    int64_t projected; /* spring projections, every sweep of every substep summed [1] */
    int sweeps;        /* most sweeps a substep took, its last (which moved nothing, or hit the bound) counted [1] */
    int unconverged;   /* substeps whose sweeps stopped at strain_sweeps with a spring still past its limit [1] */
    int64_t projected_all; /* spring projections since the world was created [1] */
    int64_t tethered;      /* tether projections in the last step (hk_world_set_tethers) [1] */
} hk_strain_stats;
/* All zero, step -1, for a world without strain limits or not stepped since it got them. */
HK_API hk_strain_stats hk_world_strain_stats(const hk_world *w);
/* The families with a strain or compression limit [1]. */
HK_API int hk_world_strain_limited(const hk_world *w);
/* Long-range tethers (body keys `tethers`, `tether_stretch`): each free particle of a body kept within (1 + stretch)
 * times its rest distance of the held particle (pinned or driven) nearest it at rest, a one-sided constraint
 * projected after each substep before the strain limits (fabric/tethers.c). The rest distance along the body's
 * springs (the shortest path over their rest lengths: geodesic) or in a straight line between the particles' rest
 * places (euclidean: a lattice's nodes, or where a body of listed points is when its tethers are made). */
typedef enum hk_tether_kind { HK_TETHERS_NONE = 0, HK_TETHERS_EUCLIDEAN, HK_TETHERS_GEODESIC } hk_tether_kind;
/* Sets body `body`'s tethers (HK_TETHERS_NONE: none), stretch >= 0 [1]; made from the body's held particles at the
 * next step, and again whenever pins change. HK_OK, or HK_ERR_INVALID for a body out of range, an unknown kind, a
 * stretch < 0 or not finite, or a body without a held particle (nothing changed). */
HK_API int hk_world_set_tethers(hk_world *w, int body, hk_tether_kind kind, double stretch);
/* The bodies with tethers [1]. */
HK_API int hk_world_tethered(const hk_world *w);

/* Gravity that changes in time (the world section's `gravity_schedule`): from now on the world's gravity is g(t),
 * piecewise linear through (0, the gravity it has now), (times[0], g[0]), ..., (times[count-1], g[count-1]) [s,
 * m/s^2], held after the last; where two times are equal it jumps to the later one's. Each substep takes g at its
 * start. count 0: constant again, the gravity before the schedule. HK_OK, or HK_ERR_INVALID for a time below 0, not
 * finite or below the one before it, or a gravity not finite (nothing changed). */
HK_API int hk_world_set_gravity_schedule(hk_world *w, int count, const double *times, const hk_vec3 *g);
/* The keyframes of w's gravity schedule (0: constant gravity) [1]. */
HK_API int hk_world_gravity_schedule(const hk_world *w);

/* Sets family `family`'s strain_limit and compress_limit (hk_spring_params; 0: none) from the next step on. HK_OK, or
 * HK_ERR_INVALID for a family out of range or a limit hk_spring_params refuses (nothing changed). A spring held at
 * both ends past a new limit fails the next step (hk_world_error names it). */
HK_API int hk_world_set_strain_limits(hk_world *w, int family, double strain_limit, double compress_limit);

/* The optimise pass, run once after the bodies are added (hk_world_step runs it itself if needed): greedy edge
 * colouring of every general (list) spring family, which physically reorders its springs so each colour is a
 * contiguous slice. With reorder_particles = 1 it first renumbers the particles of each list body in reverse
 * Cuthill-McKee order for locality; that changes their indices (and the order of --state-out), so it is off in scene
 * runs. Then it plans the passes over the bodies (a run of alike small bodies becomes one group), so the first step
 * does not pay for it. HK_OK or a negative hk_status (hk_world_error). */
HK_API int hk_world_optimise(hk_world *w, int reorder_particles);

/* ------------------------------------------------------------------------ */
/* Reading state                                                             */

/* Positions are not in the view: the solver keeps each body's particles in
 * the body's own frame (docs/determinism.md, "Precision"), so a place in
 * world coordinates is a sum; hk_world_position(s) form it. */
typedef struct hk_particles_view {
    int count;
    const hk_real *vx, *vy, *vz; /* velocity [m/s] */
    const hk_real *fx, *fy, *fz; /* force of the last evaluation [N] */
    const hk_real *inv_mass;     /* [1/kg]; 0 = pinned */
    const hk_real *mass;         /* [kg] (of pinned particles too) */
    /* A particle's place is its body's origin + its rest position + its
     * displacement (hk_world_position sums them in double). */
    const hk_real *rx, *ry, *rz; /* rest position in its body's frame [m] */
    const hk_real *qx, *qy, *qz; /* displacement from the rest position [m] */
} hk_particles_view;
HK_API hk_particles_view hk_world_particles(const hk_world *w);
/* The position of particle i in world coordinates [m], in double (NaN if
 * i is out of range). */
HK_API hk_vec3 hk_world_position(const hk_world *w, int i);
/* The positions of particles [first, first + count) as x, y, z triples
 * into xyz (3 count doubles) [m]; HK_OK, or HK_ERR_INVALID if the range is
 * out of bounds. */
HK_API int hk_world_positions(const hk_world *w, int first, int count, double *xyz);
/* Moves particle i to x [m] (world coordinates; held to the build's
 * precision relative to its body's frame). HK_OK, or HK_ERR_INVALID if i is out
 * of range or x not finite. Forces and the position-Verlet history are recomputed. */
HK_API int hk_world_set_position(hk_world *w, int i, hk_vec3 x);
/* Sets the velocity of particle i to v [m/s]. HK_OK, or HK_ERR_INVALID if i is out
 * of range or v not finite. */
HK_API int hk_world_set_velocity(hk_world *w, int i, hk_vec3 v);
/* The same for particles [first, first + count), from x, y, z triples in xyz (3 count doubles) [m] or [m/s]:
 * every value is checked before any is written, so a refused array (HK_ERR_INVALID, the world's error naming the
 * first refused particle) leaves the world as it was. */
HK_API int hk_world_set_positions(hk_world *w, int first, int count, const double *xyz);
HK_API int hk_world_set_velocities(hk_world *w, int first, int count, const double *xyz);
/* The masses of particles [first, first + count) from m [kg], every one checked against the mass bounds before any is
 * written (a refused one named: "set_masses: particle P: mass must be ..."); a free particle's inverse mass becomes
 * 1 / m, a pinned or driven one stays held. HK_OK or a negative hk_status. */
HK_API int hk_world_set_masses(hk_world *w, int first, int count, const double *m);
/* Applied forces: a force [N] in world coordinates on each of particles [first, first + count), from x, y, z triples
 * in xyz (3 count doubles), added to the particle's external force (gravity, drag, ground) in every force evaluation
 * of every integrator and kernel path until set again or cleared; zero for every particle never given one. Every value
 * is checked (finite, within the build's precision) before any is written ("set_applied_forces: force of particle P is
 * not finite"); a pinned or driven particle ignores it. Refused for a world that steps on a GPU (its passes add none).
 * They are the host's input, not the state: checkpoints and hk_world_state_hash leave them out, and their work is
 * not in the energy the statistics count. HK_OK or a negative hk_status. */
HK_API int hk_world_set_applied_forces(hk_world *w, int first, int count, const double *xyz);
/* The applied forces of particles [first, first + count) into xyz (3 count doubles) [N], zero where none; HK_OK, or
 * HK_ERR_INVALID if the range is out of bounds. */
HK_API int hk_world_applied_forces(const hk_world *w, int first, int count, double *xyz);
/* Removes every applied force (as if none had been set; the arrays below stay where they are, zeroed). */
HK_API void hk_world_clear_applied_forces(hk_world *w);
/* The applied forces to write in place, without the checks of hk_world_set_applied_forces: the x array of the
 * particles (one hk_real each [N]), y at x + *stride, z at x + 2 * *stride; made (zeros) where none was, and applied
 * from now on (again after a clearing). Valid until particles are added (the arrays then move) or the world is
 * destroyed; a value that is not finite shows as a blow-up of the step. NULL (the world's error says why) when memory
 * runs out or the world steps on a GPU. */
HK_API hk_real *hk_world_applied_force_arrays(hk_world *w, int *stride);
/* Kinematic targets: particles driven to positions the host gives. Each of particles[0 .. count) (world indices, each
 * once) gets the target xyz[3 k .. 3 k + 3) [m] in world coordinates: from the next step on it is driven (inverse
 * mass 0: forces do not move it; its mass is kept), and over each step it moves along the straight line from where it
 * is to its target at the constant velocity (target - position) / dt, which the springs' damping sees, substep by
 * substep as a body's driven anchor does, ending the step at the target (to the rounding of its coordinates). It keeps
 * its target until given another or cleared: a target left alone holds the particle there, at rest. Every particle
 * and value is checked (a particle that exists, is no body's driven anchor and is listed once; a position finite and
 * within the build's precision) before any is set ("set_targets: ..."). Refused for a world that steps on a GPU or is
 * shared out over MPI ranks. Like applied forces they are the host's input: checkpoints and the state hash leave them
 * out, and the energy the statistics count does not balance while any is set. HK_OK or a negative hk_status. */
HK_API int hk_world_set_targets(hk_world *w, int count, const int *particles, const double *xyz);
/* Releases particles[0 .. count) from their targets (count 0: every driven particle): each is free again with the
 * velocity it was last driven at (inverse mass 1 / mass), or pinned at rest where it was pinned before its first
 * target. Every particle is checked (it has a target) before any is released. HK_OK or a negative hk_status. */
HK_API int hk_world_clear_targets(hk_world *w, int count, const int *particles);
/* The driven particles, in the order their targets were first set: their count, and (where the arrays are not NULL,
 * of room for that count) their indices and targets as x, y, z triples [m]. */
HK_API int hk_world_targets(const hk_world *w, int *particles, double *xyz);

typedef struct hk_body_info {
    int first, count; /* particle range */
    int nx, ny, nz;   /* lattice dims (1 where not a lattice) */
    int springs;      /* live + broken springs of the body */
    const char *kind; /* "rope", "cloth", "jelly", "quad", "pair", "pendulum", "points", "mesh", "ring" */
    double origin[3]; /* its frame's origin in world coordinates [m] (hk_particles_view) */
} hk_body_info;
HK_API int hk_world_body_count(const hk_world *w);
HK_API hk_body_info hk_world_body(const hk_world *w, int body);

typedef struct hk_family_info {
    int body;
    const char *name; /* "structural", "K1", "chain", ... */
    int springs;      /* springs in the family */
    int broken;       /* of those, broken */
    hk_spring_params params;
} hk_family_info;
HK_API int hk_world_family_count(const hk_world *w);
HK_API hk_family_info hk_world_family(const hk_world *w, int family);

HK_API int64_t hk_world_spring_count(const hk_world *w);   /* all springs, broken included */
HK_API int64_t hk_world_step_count(const hk_world *w);     /* steps taken */
HK_API double hk_world_time(const hk_world *w);            /* simulated time [s] */
HK_API int64_t hk_world_spring_updates(const hk_world *w); /* spring force evaluations so far */

typedef struct hk_stats {
    double kinetic;     /* sum 1/2 m v^2 over free particles [J] */
    double gravity;     /* sum -m g.x over free particles [J] */
    double spring;      /* sum 1/2 k (r - L0)^2 over active springs [J] */
    double total;       /* kinetic + gravity + spring + the potential of any other per-particle force [J] */
    double max_stretch; /* max r / L0 over unbroken springs [1] */
    int64_t broken;     /* broken springs [1] */
} hk_stats;
HK_API hk_stats hk_world_stats(const hk_world *w);

/* Blow-up check: a non-finite position or velocity, or a spring stretched
 * past stretch_limit * L0. */
typedef struct hk_blowup {
    const char
        *cause;     /* "non-finite position", "non-finite velocity", "runaway stretch", "implicit solve broke down" */
    int body;       /* body of the particle or spring */
    int particle;   /* global particle index, or -1 */
    int family;     /* family of the spring, or -1 */
    int64_t spring; /* spring slot within the family, or -1 */
    double value;   /* offending value: the coordinate, or r / L0 [1] */
} hk_blowup;
/* Returns 1 and fills *out on a blow-up, 0 if the state is sound. */
HK_API int hk_world_check(const hk_world *w, double stretch_limit, hk_blowup *out);
/* hk_world_check, and when the state is sound (0) also hk_world_stats into
 * *stats, with one pass over the springs for both (what `hooke run` does
 * after the steps it checks). stats may be NULL. */
HK_API int hk_world_check_stats(const hk_world *w, double stretch_limit, hk_blowup *out, hk_stats *stats);

/* Every spring of family `family` (hk_world_family) one by one, springs [first, first + count) of it: rest[s] its rest
 * length L0 [m], length[s] its length r [m] now, as the force kernels compute it (a spring at rest has r = L0
 * exactly; r / L0 is the stretch hk_world_check and max_stretch measure), and broken[s] 1 where it has broken
 * (a broken spring's r is still given), else 0. Any of rest, length, broken may be NULL; each gets count values.
 * The order: a list family's springs as stored (hk_world_optimise reorders them by colour; hk_blowup's `spring` is
 * this index), a lattice family's by the node each starts at, i fastest, then j, then k (hk_blowup's `spring` is
 * that node's index in its body). HK_OK, or HK_ERR_INVALID for a family or range out of bounds (nothing written). */
HK_API int hk_world_spring_lengths(const hk_world *w, int family, int64_t first, int64_t count, double *rest,
                                   double *length, uint8_t *broken);
/* The ends of the same springs, in the same order: a[s] and b[s] the particles (indices as hk_world_position takes
 * them) spring s joins, its vector x_a - x_b. HK_OK, or HK_ERR_INVALID for a family or range out of bounds (nothing
 * written). */
HK_API int hk_world_spring_ends(const hk_world *w, int family, int64_t first, int64_t count, int *a, int *b);

/* 64-bit FNV-1a hash over the bytes of the positions (x of every particle,
 * then y, then z, each as the double hk_world_position gives) and then the
 * velocities (vx, vy, vz arrays as stored, hk_real). */
HK_API uint64_t hk_world_state_hash(const hk_world *w);

/* ------------------------------------------------------------------------ */
/* Memory: what a world will take, before it is built                       */

/* What a world will hold, counted before it is built (hk_world_load_scene counts a scene's bodies so; a program
 * that builds its own can count them the same way). */
typedef struct hk_memory_need {
    int64_t particles;            /* every body's [1] */
    int64_t row_particles;        /* of them, those of one-row lattice bodies (ropes): each is swept in windows
                                     of its whole row on every thread [1] */
    int64_t lattice_family_nodes; /* sum over lattice bodies (rope, cloth, jelly) of nodes x spring families [1] */
    int64_t list_springs;         /* springs held as endpoint lists: points, quads, pairs, meshes, icospheres,
                                     rings, a rope's all_to_all [1] */
    hk_integrator_kind integrator;
    int threads; /* the team the world will run on [1]; 0: OpenMP's default */
    int contact; /* 1: colliders or contact between bodies */
} hk_memory_need;
/* About the bytes [B] a world of `need` takes once built and stepped: the particle arrays (and the copy made
 * while they grow), the springs' lists, the engine's packed records and work space, the integrator's arrays, the
 * implicit solver's vectors, products and multigrid, the contact state; from the sizes of the storage
 * (docs/architecture.md, "Memory"). NaN for a negative count. Thread-safe. */
HK_API double hk_memory_estimate(const hk_memory_need *need);
/* The bytes [B] this process may still allocate: the least of the machine's available memory (MemAvailable), what
 * the limits on its address space and data leave (RLIMIT_AS, RLIMIT_DATA: ulimit -v, -d) and what its control
 * group's memory.max leaves; INFINITY when none can be read. `what` (may be NULL) gets which of them it is.
 * Thread-safe. */
HK_API double hk_memory_available(char *what, size_t cap);

/* ------------------------------------------------------------------------ */
/* Scene files and frames: what `hooke run` reads and writes                */

/* The run settings of a scene file's `run` section (docs/scene-format.md), as the file gives them: what it leaves
 * open is 0, and hk_run_plan_of says what `hooke run` then does. A world loaded from the scene already has this
 * integrator set. */
typedef struct hk_run_settings {
    hk_integrator_def integrator;
    int64_t steps;        /* run length in steps [1]; 0 = not given (see time) */
    double time;          /* run length in simulated seconds [s]; 0 = not given */
    int64_t every;        /* statistics and frames every N steps [1]; 0 = not given (hk_run_plan_of: about
                             HK_RUN_OUTPUTS in the run) */
    double stretch_limit; /* a spring past stretch_limit * L0 is a blow-up [1] (a scene's: HK_STRETCH_LIMIT when
                             not given; 0 = not given) */
} hk_run_settings;

#define HK_RUN_OUTPUTS 100    /* outputs (statistics rows, frames) of a run whose settings give no `every`, about [1] */
#define HK_STRETCH_LIMIT 10.0 /* the stretch limit when none is given [1] */
#define HK_RUN_MAX_STEPS 9.2e18 /* the most steps a run can count (a signed 64-bit step number) [1] */

/* A run as `hooke run` runs it: run settings with every value they leave open decided, by the rule the program
 * follows (one home: the program calls hk_run_plan_of too). */
typedef struct hk_run_plan {
    int64_t steps;        /* the run ends at step `steps` [1], >= 1: the settings' steps, else ceil(time / dt) */
    int64_t every;        /* statistics and frames every `every` steps [1], >= 1: the settings' every, else
                             ceil(steps / HK_RUN_OUTPUTS), at least 1 (about 100 in the run) */
    double stretch_limit; /* a spring past stretch_limit * L0 is a blow-up [1]: the settings', else
                             HK_STRETCH_LIMIT */
    int every_given;      /* 1: every is the settings'; 0: chosen as above (hooke run then says so) */
} hk_run_plan;

/* The plan of the run settings `run` (a scene's, with a host's own overrides written into them if any: steps; or
 * time with steps 0; every; stretch_limit; integrator.dt): HK_OK, or HK_ERR_INVALID with *plan zeroed and the
 * reason in err (may be NULL): "no run length: steps and time are both 0", "time 1e+12 s at dt = 1e-09 s is 1e+21
 * steps, more than a run can count (9.2e+18): shorten the run or lengthen dt", or a value out of range, "every must
 * be >= 0 (got -1)". A host stepping its own loop writes its outputs where s % plan.every == 0 and stops at
 * plan.steps, as `hooke run` does. Thread-safe. */
HK_API int hk_run_plan_of(const hk_run_settings *run, hk_run_plan *plan, char *err, size_t errlen);

/* Reads the scene file at path and builds its world: bodies, meshes (paths relative to the scene file's folder),
 * integrator. The world is the caller's (hk_world_destroy). run (may be NULL) gets the run settings. On failure: NULL
 * and, in err (may be NULL), the reason as "FILE:LINE:COL: error: expected ..., got '...'" or "FILE: error: ...".
 * Before building, the scene's memory is estimated (hk_memory_estimate, its bodies counted from their sections)
 * and a scene that needs more than hk_memory_available is refused at the body that passes it ("FILE:LINE:1: error:
 * body rope needs about 7.9 GiB ..., more than the 3.1 GiB ... this process may still take"); an allocation that
 * fails while building says what it was for and how much the body needs. */
HK_API hk_world *hk_world_load_scene(const char *path, hk_run_settings *run, char *err, size_t errlen);
/* The same from scene text in memory; name stands for the file in messages
 * and mesh paths (NULL: "<scene>"): meshes are found relative to name's
 * folder, the working folder when name has none. */
HK_API hk_world *hk_world_parse_scene(const char *text, const char *name, hk_run_settings *run, char *err,
                                      size_t errlen);

/* Frames: the files `hooke run --out DIR --format LIST` writes, one per format per call, named DIR/frame_<step, 6
 * digits>.<extension> (VTK PolyData .vtp with a frames.pvd collection for ParaView, Wavefront .obj, a rendered .png,
 * its series drawn with one camera and colour range listed in frames_png.csv; docs/user-guide.md "Output formats").
 * Each file is written whole (NAME.tmp, then renamed). */
typedef struct hk_frame_writer hk_frame_writer; /* opaque: one series of frames */

/* The name of frame format i ("vtk", "obj", "png", in that order), or NULL
 * past the last. */
HK_API const char *hk_frame_format_name(int i);
/* A series of frames into folder dir (created, with its missing parents) in
 * the formats of the comma-separated list formats ("vtk", "vtk,png"). NULL
 * on failure with the reason in err (may be NULL). */
HK_API hk_frame_writer *hk_frame_writer_open(const char *dir, const char *formats, char *err, size_t errlen);
/* Writes the world's current state as the next frame of the series (the file names carry hk_world_step_count). HK_OK,
 * or with the reason in err HK_ERR_IO (a file could not be written) or HK_ERR_INVALID (no writer or world given). */
HK_API int hk_frame_writer_write(hk_frame_writer *fw, const hk_world *w, char *err, size_t errlen);
/* Ends the series and frees it (NULL is ignored). */
HK_API void hk_frame_writer_close(hk_frame_writer *fw);
/* One frame: hk_frame_writer_open, _write and _close. HK_OK, or a negative hk_status with the reason in err
 * (HK_ERR_INVALID: the formats, or no folder given; HK_ERR_IO: the folder could not be made, or a file written). */
HK_API int hk_frame_write(const hk_world *w, const char *formats, const char *dir, char *err, size_t errlen);
/* The surface triangles the frames draw: a mesh's or icosphere's own, a cloth's two per grid cell whose structural
 * springs hold, a jelly's box faces (counter-clockwise seen from outside where the body is closed). Their count; where
 * tri is not NULL, the first min(count, cap) of them as 3 particle indices each, and (body not NULL) the body of
 * each. -1 when out of memory. */
HK_API int64_t hk_world_faces(const hk_world *w, int *tri, int *body, int64_t cap);
/* The picture a PNG frame draws of the world now (surfaces and springs coloured by stretch, its colour bar and
 * caption), the camera fitted to the bodies where they are, into rgb: width * height pixels of 8-bit R, G, B, row
 * by row from the top. width and height 16 to HK_RENDER_MAX. HK_OK; HK_ERR_INVALID (a size out of range, no world
 * or no rgb), HK_ERR_MEMORY. */
#define HK_RENDER_MAX 8192
HK_API int hk_world_render(const hk_world *w, int width, int height, uint8_t *rgb);

#include "hooke/runs.h" /* runs: the energy bound, the blow-up check's cadence and report, checkpoints, state files */

#ifdef __cplusplus
}
#endif
#endif
