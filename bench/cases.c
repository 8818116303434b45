/* cases.c — hooke's benchmark cases on worlds (force passes, surfaces, steps, integrators) and the case table. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "bench.h"
#include "colour.h"
#include "engine.h"
#include "forces.h"
#include "hooke/hooke.h"
#include "kernels.h"
#include "scene.h"
#include "surface.h"

int hk_bench_cores(void)
{
#ifdef HOOKE_USE_OPENMP
    return omp_get_num_procs();
#else
    return 1;
#endif
}

void hk_bench_set_threads(int threads)
{
#ifdef HOOKE_USE_OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

typedef struct world_case {
    hk_world *w;
    const char *kernels; /* NULL: automatic */
    int64_t items;       /* spring updates per run */
} world_case;

/* The world's kernel path: "best" is the automatic choice */
static int select_kernels(hk_world *w, const char *name)
{
    return hk_world_set_kernels(w, strcmp(name, "best") == 0 ? NULL : name);
}

static void *world_case_new(hk_world *w, const char *kernels)
{
    if (!w) return NULL;
    world_case *c = calloc(1, sizeof *c);
    if (!c || select_kernels(w, kernels) != 0) {
        free(c);
        hk_world_destroy(w);
        return NULL;
    }
    c->w = w;
    c->kernels = kernels;
    return c;
}

static void world_case_free(void *s)
{
    world_case *c = s;
    hk_world_destroy(c->w);
    free(c);
}

static int64_t world_case_items(void *s) { return ((world_case *)s)->items; }

/* one force evaluation (springs + gravity + drag) */
static void run_forces(void *s)
{
    world_case *c = s;
    hk_forces_compute(c->w);
}

static hk_world *zero_g_world(int threads)
{
    hk_bench_set_threads(threads);
    hk_world_def d = hk_default_world_def();
    d.air_drag = 1e-6;
    d.threads = threads; /* the case's count, not hooke's default for the springs */
    return hk_world_create(&d);
}

static hk_spring_params cloth_springs(void)
{
    hk_spring_params s = hk_default_spring_params();
    s.k = 6000;
    s.damping = 0.02;
    s.damping_model = HK_DAMP_RELATIVE;
    return s;
}

/* Cloth of n x n nodes with structural, shear and bend springs, slightly
 * perturbed so that no spring sits at its rest length. */
static void *setup_cloth(int n, int threads, const char *kernels)
{
    hk_world *w = zero_g_world(threads);
    hk_cloth_def d = hk_default_cloth_def();
    d.nx = d.ny = n;
    d.mass = 2e-5;
    d.structural_springs = d.shear_springs = d.bend_springs = cloth_springs();
    if (!w || hk_world_add_cloth(w, &d) < 0) {
        hk_world_destroy(w);
        return NULL;
    }
    for (int i = 0; i < d.nx * d.ny; i++) {
        hk_vec3 x = hk_world_position(w, i);
        x.y = 1e-3 * sin(0.37 * i);
        hk_world_set_position(w, i, x);
    }
    world_case *c = world_case_new(w, kernels);
    if (c) c->items = hk_world_spring_count(w);
    return c;
}

static void *setup_jelly(int n, int neighbours, int threads, const char *kernels)
{
    hk_world *w = zero_g_world(threads);
    hk_jelly_def d = hk_default_jelly_def();
    d.nx = d.ny = d.nz = n;
    d.neighbours = neighbours;
    for (int k = 0; k < HK_JELLY_CLASSES; k++) d.springs[k].k = 500;
    if (!w || hk_world_add_jelly(w, &d) < 0) {
        hk_world_destroy(w);
        return NULL;
    }
    for (int i = 0; i < d.nx * d.ny * d.nz; i++) {
        hk_vec3 x = hk_world_position(w, i);
        x.x += 1e-3 * sin(0.37 * i);
        hk_world_set_position(w, i, x);
    }
    world_case *c = world_case_new(w, kernels);
    if (c) c->items = hk_world_spring_count(w);
    return c;
}
static void *setup_jelly26(int n, int threads, const char *kernels) { return setup_jelly(n, 26, threads, kernels); }
static void *setup_jelly52(int n, int threads, const char *kernels) { return setup_jelly(n, 52, threads, kernels); }

/* A closed triangle mesh as general (coloured) springs: a torus of n x n
 * vertices with the three edges of each grid cell's triangle pair, 3 n^2
 * springs. mode 0: generated order; 1: particles randomly shuffled; 2:
 * shuffled, then reordered by reverse Cuthill-McKee. */
static void *setup_mesh(int n, int threads, const char *kernels, int mode)
{
    hk_world *w = zero_g_world(threads);
    if (!w) return NULL;
    const int count = n * n;
    hk_vec3 *pos = malloc((size_t)count * sizeof *pos);
    double *mass = malloc((size_t)count * sizeof *mass);
    int *slot = malloc((size_t)count * sizeof *slot);
    int *a = malloc((size_t)3 * count * sizeof *a), *b = malloc((size_t)3 * count * sizeof *b);
    void *result = NULL;
    if (!pos || !mass || !slot || !a || !b) goto done;
    for (int i = 0; i < count; i++) slot[i] = i;
    if (mode > 0) { /* Fisher-Yates with a fixed LCG: the same shuffle every run */
        uint64_t r = 12345;
        for (int i = count - 1; i > 0; i--) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            int j = (int)((r >> 33) % (uint64_t)(i + 1));
            int t = slot[i];
            slot[i] = slot[j];
            slot[j] = t;
        }
    }
    for (int v = 0; v < n; v++)
        for (int u = 0; u < n; u++) {
            double th = 2 * 3.14159265358979323846 * u / n, ph = 2 * 3.14159265358979323846 * v / n;
            int i = slot[u + n * v];
            pos[i] = (hk_vec3){(1 + 0.3 * cos(ph)) * cos(th), 0.3 * sin(ph), (1 + 0.3 * cos(ph)) * sin(th)};
            mass[i] = 1e-4;
        }
    int s = 0;
    for (int v = 0; v < n; v++)
        for (int u = 0; u < n; u++) {
            int i = slot[u + n * v], r = slot[(u + 1) % n + n * v], d = slot[u + n * ((v + 1) % n)],
                rd = slot[(u + 1) % n + n * ((v + 1) % n)];
            a[s] = i, b[s++] = r;
            a[s] = i, b[s++] = d;
            a[s] = i, b[s++] = rd;
        }
    int body = hk_world_add_points(w, count, pos, NULL, mass);
    hk_spring_params sp = cloth_springs();
    sp.damping_model = HK_DAMP_ALONG;
    if (body < 0 || hk_world_add_springs(w, body, s, a, b, &sp) < 0) goto done;
    if (mode == 2 && hk_world_optimise(w, 1) != 0) goto done; /* RCM, then colour */
    world_case *c = world_case_new(w, kernels);
    w = NULL;
    if (c) {
        c->items = hk_world_spring_count(c->w);
        hk_forces_compute(c->w); /* colours the springs before timing */
    }
    result = c;
done:
    hk_world_destroy(w);
    free(pos);
    free(mass);
    free(slot);
    free(a);
    free(b);
    return result;
}
static void *setup_mesh_ordered(int n, int t, const char *k) { return setup_mesh(n, t, k, 0); }
static void *setup_mesh_shuffled(int n, int t, const char *k) { return setup_mesh(n, t, k, 1); }
static void *setup_mesh_reordered(int n, int t, const char *k) { return setup_mesh(n, t, k, 2); }

/* A pressurised icosphere of 20 * 4^level faces: the parallel Gauss volume
 * reduction, and the pressure face forces (volume, per-face forces, per-vertex
 * gather). items: faces per run. */
typedef struct surface_case {
    hk_world *w;
    int body;
    int64_t faces;
} surface_case;

static void *setup_surface(int level, int threads, const char *kernels)
{
    (void)kernels;
    hk_bench_set_threads(threads);
    hk_world_def d = hk_default_world_def();
    d.gravity = (hk_vec3){0, 0, 0};
    d.threads = threads; /* the case's count, not hooke's default for the springs */
    hk_world *w = hk_world_create(&d);
    surface_case *c = calloc(1, sizeof *c);
    if (!w || !c) {
        hk_world_destroy(w);
        free(c);
        return NULL;
    }
    hk_mesh_def md = hk_default_mesh_def();
    md.pressure.nrt = 100;
    md.pressure.pump_rate = 1;
    c->body = hk_world_add_icosphere(w, &md, 1.0, level);
    if (c->body < 0) {
        hk_world_destroy(w);
        free(c);
        return NULL;
    }
    c->w = w;
    c->faces = 20ll << (2 * level);
    return c;
}

static void run_volume(void *s)
{
    surface_case *c = s;
    volatile double v = hk_world_body_volume(c->w, c->body, HK_VOLUME_GAUSS);
    (void)v;
}

static void run_pressure(void *s) { hk_surfaces_forces(((surface_case *)s)->w); }
static int64_t surface_items(void *s) { return ((surface_case *)s)->faces; }

static void surface_free(void *s)
{
    hk_world_destroy(((surface_case *)s)->w);
    free(s);
}

/* full step of the shipped benchmark scene (forces + integration) */
static void *setup_step_scene(const char *path, int threads, const char *kernels)
{
    hk_bench_set_threads(threads);
    hk_scene sc;
    char err[512];
    if (hk_scene_load(path, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    hk_world *w = hk_scene_take_world(&sc);
    hk_world_set_threads(w, threads); /* the case's count, not the scene's or hooke's default */
    world_case *c = world_case_new(w, kernels);
    if (c) c->items = hk_world_spring_count(c->w) * hk_world_substeps(c->w);
    return c;
}
/* c's world after `steps` steps (the first step's one-time work, such as the strain limits' check of the pins and
 * their chains, out of the timed ones); NULL where a step fails */
static void *after_steps(world_case *c, int steps)
{
    for (int s = 0; c && s < steps; s++)
        if (hk_world_step(c->w) != HK_OK) {
            fprintf(stderr, "%s\n", hk_world_error(c->w));
            world_case_free(c);
            return NULL;
        }
    return c;
}
static void *setup_step_cloth512(int n, int threads, const char *kernels)
{
    (void)n;
    return after_steps(setup_step_scene(HOOKE_SCENES_DIR "/cloth_512.scene", threads, kernels), 1);
}

/* cloth_512's step with every family limited to `limit` (its strain limits' projection after each step), after
 * `before` steps (one at least: the first step's one-time work untimed): 0.01, above any stretch the cloth reaches in a
 * benchmark's steps, prices the first look alone (a measure of every spring); 0.0005, which the springs round its pins
 * pass from step 750 on, after 1000 steps, prices the sweeps too (3 or 4 a step) */
static void *setup_step_cloth512_limited(int threads, const char *kernels, double limit, int before)
{
    world_case *c = setup_step_scene(HOOKE_SCENES_DIR "/cloth_512.scene", threads, kernels);
    for (int f = 0; c && f < hk_world_family_count(c->w); f++)
        if (hk_world_set_strain_limits(c->w, f, limit, 0) != HK_OK) {
            fprintf(stderr, "%s\n", hk_world_error(c->w));
            world_case_free(c);
            return NULL;
        }
    return after_steps(c, before);
}
static void *setup_step_cloth512_strain(int n, int threads, const char *kernels)
{
    (void)n;
    return setup_step_cloth512_limited(threads, kernels, 0.01, 1);
}
static void *setup_step_cloth512_strain_active(int n, int threads, const char *kernels)
{
    (void)n;
    return setup_step_cloth512_limited(threads, kernels, 0.0005, 1000);
}
/* the three shipped fabric scenes, a step each (their sheets at rest at the start: the first steps') */
static void *setup_step_drape5(int n, int threads, const char *kernels)
{
    (void)n;
    return setup_step_scene(HOOKE_SCENES_DIR "/drape5.scene", threads, kernels);
}
static void *setup_step_hang(int n, int threads, const char *kernels)
{
    (void)n;
    return setup_step_scene(HOOKE_SCENES_DIR "/hang.scene", threads, kernels);
}
static void *setup_step_curtain(int n, int threads, const char *kernels)
{
    (void)n;
    return setup_step_scene(HOOKE_SCENES_DIR "/curtain.scene", threads, kernels);
}

static void run_step(void *s)
{
    world_case *c = s;
    hk_world_step(c->w);
}

/* one step of each integrator on an n x n cloth (items: spring evaluations) */
static void *setup_integrator(int n, int threads, const char *kernels, hk_integrator_kind kind)
{
    world_case *c = setup_cloth(n, threads, kernels);
    if (!c) return NULL;
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = kind;
    d.dt = 1e-5;
    d.jelly_alpha = 0.999;
    hk_world_set_integrator(c->w, &d);
    int64_t before = hk_world_spring_updates(c->w);
    hk_world_step(c->w);
    hk_world_step(c->w);
    c->items = (hk_world_spring_updates(c->w) - before) / 2;
    return c;
}
#define INTEGRATOR_SETUP(NAME, KIND)                                                                                   \
    static void *setup_##NAME(int n, int t, const char *k) { return setup_integrator(n, t, k, KIND); }
INTEGRATOR_SETUP(euler, HK_EULER)
INTEGRATOR_SETUP(semi_implicit_euler, HK_SEMI_IMPLICIT_EULER)
INTEGRATOR_SETUP(verlet, HK_VERLET)
INTEGRATOR_SETUP(velocity_verlet, HK_VELOCITY_VERLET)
INTEGRATOR_SETUP(jelly_scheme, HK_JELLY)
INTEGRATOR_SETUP(rk4, HK_RK4)

#if defined(__x86_64__)
/* The packed list kernel (list_range_packed, AVX-512) alone on a 24x24
 * torus mesh (576 particles: records, force records and spring ends in
 * L1), every colour once per run, after one force pass has packed the
 * records. Against mesh_force it prices the packing, the unpacking and the
 * memory hierarchy of the big mesh. Items: springs. */
static void *setup_mesh_kernel(int n, int threads, const char *kernels)
{
    (void)n, (void)threads, (void)kernels;
    world_case *c = setup_mesh(24, 1, "avx512", 0);
    if (c && !(c->w->kernels && c->w->kernels->list_range_packed && hk_engine_packed(c->w))) {
        world_case_free(c);
        return NULL;
    }
    return c;
}

static void run_mesh_kernel(void *s)
{
    world_case *c = s;
    const hk_kernels *k = c->w->kernels;
    const hk_family *f = &c->w->families[0];
    const hk_packed *pk = hk_engine_packed(c->w);
    for (int q = 0; q < f->colour_count; q++)
        k->list_range_packed(f, pk->rec, pk->f, f->colour_start[q], f->colour_start[q + 1]);
}

#endif

static const int cloth_sizes[] = {48, 128, 256, 2048, 0}; /* 13 346 springs ... 25 161 734 */
static const int jelly26_sizes[] = {64, 0};
static const int jelly52_sizes[] = {48, 0};
static const int mesh_sizes[] = {100, 600, 0}; /* 30 000 springs (in L2); 1 080 000 springs */
static const int one_size[] = {1, 0};
#if defined(__x86_64__)
static const int jrow_sizes[] = {64, 256, 0}; /* the row length: the jelly's, and longer */
#endif
static const int integrator_sizes[] = {256, 0};
static const int triad_sizes[] = {64, 0};                /* 3 x 256 MiB: far beyond the caches */
static const int surface_levels[] = {4, 7, 0};           /* 5 120 and 327 680 faces */
static const int jacobian_cloth_sizes[] = {128, 512, 0}; /* 97 028 springs (in L2) and 1 564 676 */
static const int sphere_levels[] = {4, 6, 0};            /* 7 680 and 122 880 springs */
static const int stiff_sizes[] = {128, 256, 512, 1024, 2048, 0};
static const int stiff_jacobi_sizes[] = {128, 256, 0}; /* 512: some 600 iterations per step, 10 minutes a run */

static const char *const all_paths[] = {"reference", "scalar", "avx2", "avx512", NULL};
static const char *const simd_paths[] = {"reference", "avx512", NULL};
static const char *const best_path[] = {"best", NULL};
static const char *const stiff_variants[] = {"multigrid_energy", "multigrid_force", "multigrid_relative", NULL};
static const char *const stiff_jacobi_variants[] = {"block_jacobi_energy", "block_jacobi_force",
                                                    "block_jacobi_relative", NULL};
/* the engines' and papers' own settings: substeps x sweeps a frame */
static const char *const newton_cloth_variants[] = {
    "xpbd:10x10", "vbd:10x10", "semi_implicit_euler:32x0", "projective_dynamics:2x10", "implicit_euler:1x0", NULL};
static const char *const small_steps_variants[] = {"xpbd:30x1", "semi_implicit_euler:834x0", "implicit_euler:1x0",
                                                   NULL};
static const int fold_sizes[] = {64, 128, 256, 0};
static const char *const fold_variants[] = {"semi_implicit_without",
                                            "semi_implicit_self",
                                            "semi_implicit_particles",
                                            "implicit_without",
                                            "implicit_self",
                                            "implicit_particles",
                                            NULL};

const hk_bench_case hk_bench_cases[] = {
    {"cloth_force", "springs", cloth_sizes, setup_cloth, run_forces, world_case_items, world_case_free, all_paths,
     NULL},
    {"jelly26_force", "springs", jelly26_sizes, setup_jelly26, run_forces, world_case_items, world_case_free, all_paths,
     NULL},
    {"jelly52_force", "springs", jelly52_sizes, setup_jelly52, run_forces, world_case_items, world_case_free,
     simd_paths, NULL},
    {"mesh_force", "springs", mesh_sizes, setup_mesh_ordered, run_forces, world_case_items, world_case_free, all_paths,
     NULL},
    {"mesh_shuffled_force", "springs", mesh_sizes, setup_mesh_shuffled, run_forces, world_case_items, world_case_free,
     best_path, NULL},
    {"mesh_reordered_force", "springs", mesh_sizes, setup_mesh_reordered, run_forces, world_case_items, world_case_free,
     best_path, NULL},
    {"step_cloth512", "springs", one_size, setup_step_cloth512, run_step, world_case_items, world_case_free, simd_paths,
     NULL},
    {"step_cloth512_strain", "springs", one_size, setup_step_cloth512_strain, run_step, world_case_items,
     world_case_free, best_path, NULL},
    {"step_cloth512_strain_active", "springs", one_size, setup_step_cloth512_strain_active, run_step, world_case_items,
     world_case_free, best_path, NULL},
    {"step_drape5", "springs", one_size, setup_step_drape5, run_step, world_case_items, world_case_free, best_path,
     NULL},
    {"step_hang", "springs", one_size, setup_step_hang, run_step, world_case_items, world_case_free, best_path, NULL},
    {"step_curtain", "springs", one_size, setup_step_curtain, run_step, world_case_items, world_case_free, best_path,
     NULL},
    {"step_euler", "springs", integrator_sizes, setup_euler, run_step, world_case_items, world_case_free, best_path,
     NULL},
    {"step_semi_implicit_euler", "springs", integrator_sizes, setup_semi_implicit_euler, run_step, world_case_items,
     world_case_free, best_path, NULL},
    {"step_verlet", "springs", integrator_sizes, setup_verlet, run_step, world_case_items, world_case_free, best_path,
     NULL},
    {"step_velocity_verlet", "springs", integrator_sizes, setup_velocity_verlet, run_step, world_case_items,
     world_case_free, best_path, NULL},
    {"step_jelly", "springs", integrator_sizes, setup_jelly_scheme, run_step, world_case_items, world_case_free,
     best_path, NULL},
    {"step_rk4", "springs", integrator_sizes, setup_rk4, run_step, world_case_items, world_case_free, best_path, NULL},
    {"jacobian_cloth", "springs", jacobian_cloth_sizes, hk_bench_setup_jacobian_cloth, hk_bench_run_jacobian,
     hk_bench_jacobian_items, hk_bench_jacobian_free, all_paths, NULL},
    {"jacobian_sphere", "springs", sphere_levels, hk_bench_setup_jacobian_sphere, hk_bench_run_jacobian,
     hk_bench_jacobian_items, hk_bench_jacobian_free, all_paths, NULL},
    {"cg_cloth", "springs", jacobian_cloth_sizes, hk_bench_setup_cg_cloth, hk_bench_run_cg, hk_bench_jacobian_items,
     hk_bench_jacobian_free, simd_paths, NULL},
    {"stiff_cloth", "particle steps", stiff_sizes, hk_bench_setup_stiff_cloth, hk_bench_run_stiff_cloth,
     hk_bench_stiff_cloth_items, hk_bench_stiff_cloth_free, stiff_variants, hk_bench_stiff_cloth_counters},
    {"stiff_cloth", "particle steps", stiff_jacobi_sizes, hk_bench_setup_stiff_cloth, hk_bench_run_stiff_cloth,
     hk_bench_stiff_cloth_items, hk_bench_stiff_cloth_free, stiff_jacobi_variants, hk_bench_stiff_cloth_counters},
    {"contact_fold", "particle steps", fold_sizes, hk_bench_setup_fold, hk_bench_run_fold, hk_bench_fold_items,
     hk_bench_fold_free, fold_variants, hk_bench_fold_counters},
    {"frame_newton_cloth", "springs", one_size, hk_bench_setup_newton_cloth, hk_bench_run_frame, hk_bench_frame_items,
     hk_bench_frame_free, newton_cloth_variants, hk_bench_frame_counters},
    {"frame_small_steps", "springs", one_size, hk_bench_setup_small_steps, hk_bench_run_frame, hk_bench_frame_items,
     hk_bench_frame_free, small_steps_variants, hk_bench_frame_counters},
    {"triad", "bytes", triad_sizes, hk_bench_setup_triad, hk_bench_run_triad, hk_bench_triad_items, hk_bench_triad_free,
     best_path, NULL},
    {"volume_gauss", "faces", surface_levels, setup_surface, run_volume, surface_items, surface_free, best_path, NULL},
    {"pressure_forces", "faces", surface_levels, setup_surface, run_pressure, surface_items, surface_free, best_path,
     NULL},
#if defined(__x86_64__)
    {"probe_zmm_add", "instructions", one_size, hk_bench_setup_probe_zmm_add, hk_bench_run_probe, hk_bench_probe_items,
     hk_bench_probe_free, best_path, NULL},
    {"probe_zmm_mul", "instructions", one_size, hk_bench_setup_probe_zmm_mul, hk_bench_run_probe, hk_bench_probe_items,
     hk_bench_probe_free, best_path, NULL},
    {"probe_zmm_load", "instructions", one_size, hk_bench_setup_probe_zmm_load, hk_bench_run_probe,
     hk_bench_probe_items, hk_bench_probe_free, best_path, NULL},
    {"probe_zmm_store", "instructions", one_size, hk_bench_setup_probe_zmm_store, hk_bench_run_probe,
     hk_bench_probe_items, hk_bench_probe_free, best_path, NULL},
    {"probe_zmm_sqrt", "instructions", one_size, hk_bench_setup_probe_zmm_sqrt, hk_bench_run_probe,
     hk_bench_probe_items, hk_bench_probe_free, best_path, NULL},
    {"probe_zmm_div", "instructions", one_size, hk_bench_setup_probe_zmm_div, hk_bench_run_probe, hk_bench_probe_items,
     hk_bench_probe_free, best_path, NULL},
    {"probe_ymm_add", "instructions", one_size, hk_bench_setup_probe_ymm_add, hk_bench_run_probe, hk_bench_probe_items,
     hk_bench_probe_free, best_path, NULL},
    {"probe_ymm_shuffle", "instructions", one_size, hk_bench_setup_probe_ymm_shuffle, hk_bench_run_probe,
     hk_bench_probe_items, hk_bench_probe_free, best_path, NULL},
    {"probe_zmm_gather", "instructions", one_size, hk_bench_setup_probe_zmm_gather, hk_bench_run_probe,
     hk_bench_probe_items, hk_bench_probe_free, best_path, NULL},
    {"probe_cloth_row_ideal", "springs", one_size, hk_bench_setup_ideal_row, hk_bench_run_ideal_row,
     hk_bench_ideal_row_items, hk_bench_ideal_row_free, best_path, NULL},
    {"probe_cloth_row_engine", "springs", one_size, hk_bench_setup_engine_row, hk_bench_run_engine_row,
     hk_bench_engine_row_items, hk_bench_engine_row_free, best_path, NULL},
    {"probe_jelly_row_ideal", "springs", one_size, hk_bench_setup_ideal_jelly, hk_bench_run_ideal_jelly,
     hk_bench_ideal_jelly_items, hk_bench_ideal_row_free, best_path, NULL},
    {"probe_jelly_row_engine", "springs", jrow_sizes, hk_bench_setup_jelly_row, hk_bench_run_engine_row,
     hk_bench_engine_row_items, hk_bench_engine_row_free, best_path, NULL},
    {"probe_mesh_kernel", "springs", one_size, setup_mesh_kernel, run_mesh_kernel, world_case_items, world_case_free,
     best_path, NULL},
#endif
};
const int hk_bench_case_count = (int)(sizeof hk_bench_cases / sizeof hk_bench_cases[0]);
