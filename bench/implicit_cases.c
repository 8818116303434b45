/* implicit_cases.c — benchmark cases of the implicit solver: Jacobian products on lattices and lists, CG iterations. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>

#include "bench.h"
#include "cg.h"
#include "implicit.h"
#include "hooke/hooke.h"
#include "system.h"

#define HK_BENCH_CG_ITERATIONS 10

typedef struct jac_case {
    hk_world *w;
    hk_implicit *im;
    hk_real sK, sD;
    int64_t items; /* spring products per run */
} jac_case;

static void jac_case_free(void *s)
{
    jac_case *c = s;
    hk_world_destroy(c->w);
    free(c);
}

/* The solver of world w on the kernel path `kernels` at dt = 1/240 s, with
 * a search direction of smooth values, ready for products. */
static void *jac_case_new(hk_world *w, const char *kernels, int threads)
{
    jac_case *c = calloc(1, sizeof *c);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = 1.0 / 240;
    if (!c || !w || hk_world_set_kernels(w, strcmp(kernels, "best") == 0 ? NULL : kernels) != 0 ||
        hk_world_set_threads(w, threads) != 0 || hk_world_optimise(w, 0) != 0 || hk_world_set_integrator(w, &d) != 0 ||
        !(c->im = hk_implicit_solver(w))) {
        free(c);
        hk_world_destroy(w);
        return NULL;
    }
    c->w = w;
    c->sK = (hk_real)(d.dt * d.dt);
    c->sD = (hk_real)d.dt;
    c->items = hk_world_spring_count(w);
    hk_particles_view p = hk_world_particles(w);
    for (int comp = 0; comp < 3; comp++)
        for (int i = 0; i < p.count; i++) {
            c->im->v[HK_SYS_P][comp][i] = (hk_real)sin(0.37 * i + comp);
            c->im->v[HK_SYS_B][comp][i] = p.inv_mass[i] != 0 ? (hk_real)cos(0.11 * i + comp) : 0;
        }
    return c;
}

static hk_world *bench_world(void)
{
    hk_world_def d = hk_default_world_def();
    d.ground.model = HK_GROUND_NONE;
    d.has_walls = 0;
    return hk_world_create(&d);
}

/* Cloth of n x n nodes, all three lattice families, pinned at two corners,
 * slightly perturbed so that no spring sits at its rest length. */
static void *setup_cloth(int n, int threads, const char *kernels)
{
    hk_world *w = bench_world();
    hk_cloth_def d = hk_default_cloth_def();
    d.nx = d.ny = n;
    d.mass = 2e-5;
    d.pins = HK_PIN_TWO_CORNERS;
    d.structural_springs.k = d.shear_springs.k = d.bend_springs.k = 6000;
    if (!w || hk_world_add_cloth(w, &d) < 0) {
        hk_world_destroy(w);
        return NULL;
    }
    for (int i = 0; i < d.nx * d.ny; i++) {
        hk_vec3 x = hk_world_position(w, i);
        x.y = 1e-3 * sin(0.37 * i);
        hk_world_set_position(w, i, x);
    }
    return jac_case_new(w, kernels, threads);
}

/* An icosphere of subdivision level n: its edges as one listed, coloured
 * family (10 4^n + 2 vertices, 30 4^n springs). */
static void *setup_sphere(int n, int threads, const char *kernels)
{
    hk_world *w = bench_world();
    hk_mesh_def d = hk_default_mesh_def();
    d.springs.k = 6000;
    d.springs.damping = 0.02;
    if (!w || hk_world_add_icosphere(w, &d, 1.0, n) < 0) {
        hk_world_destroy(w);
        return NULL;
    }
    return jac_case_new(w, kernels, threads);
}

void *hk_bench_setup_jacobian_cloth(int n, int threads, const char *kernels)
{
    return setup_cloth(n, threads, kernels);
}
void *hk_bench_setup_jacobian_sphere(int n, int threads, const char *kernels)
{
    return setup_sphere(n, threads, kernels);
}

/* q = (M + sum S) p: one product with the system matrix */
void hk_bench_run_jacobian(void *s)
{
    jac_case *c = s;
    hk_system_apply(c->w, c->im, c->sK, c->sD, 1, c->im->v[HK_SYS_P], c->im->v[HK_SYS_Q]);
}

void *hk_bench_setup_cg_cloth(int n, int threads, const char *kernels)
{
    jac_case *c = setup_cloth(n, threads, kernels);
    if (!c) return NULL;
    hk_implicit_blocks(c->w, c->im, c->sK, c->sD);
    c->items *= HK_BENCH_CG_ITERATIONS;
    return c;
}

/* HK_BENCH_CG_ITERATIONS iterations of the preconditioned CG solve (a
 * tolerance it cannot reach first), with its start */
void hk_bench_run_cg(void *s)
{
    jac_case *c = s;
    hk_cg_solve(c->w, c->im, c->sK, c->sD, HK_CG_STOP_RELATIVE, 1e-30, HK_BENCH_CG_ITERATIONS, 0);
}

int64_t hk_bench_jacobian_items(void *s) { return ((jac_case *)s)->items; }
void hk_bench_jacobian_free(void *s) { jac_case_free(s); }

/* ---- the stiff-cloth sweep: the whole implicit step, by size ------------ */

#define STIFF_STEPS 60 /* 0.25 simulated s at 1/240 s */

typedef struct stiff_case {
    hk_world *w;
    const char *variant; /* the case's variant (bench.h), a string of the case table */
    hk_vec3 *x0;         /* the start, restored before each run */
    int particles;
    int64_t cg_at_start, unconverged_at_start; /* the world's counts when the run began */
    double bytes;                              /* resident memory the world and its solver added [B] */
} stiff_case;

/* Bytes the C library's allocator has handed out and not taken back (glibc),
 * 0 where unknown: the difference over a setup is the memory it allocated,
 * whatever earlier cases left free. */
static double allocated_bytes(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 mi = mallinfo2();
    return (double)mi.uordblks + (double)mi.hblkhd;
#else
    return 0;
#endif
}

static void stiff_free(void *s)
{
    stiff_case *c = s;
    if (!c) return;
    hk_world_destroy(c->w);
    free(c->x0);
    free(c);
}

static int stiff_integrator(hk_world *w, const char *variant)
{
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = 1.0 / 240;
    d.cg_max_iterations = 2000;
    d.preconditioner =
        strncmp(variant, "block_jacobi", 12) == 0 ? HK_PRECONDITIONER_BLOCK_JACOBI : HK_PRECONDITIONER_MULTIGRID;
    d.cg_stop = strstr(variant, "relative") ? HK_CG_STOP_RELATIVE
                : strstr(variant, "force")  ? HK_CG_STOP_FORCE
                                            : HK_CG_STOP_ENERGY;
    d.cg_tolerance = d.cg_stop == HK_CG_STOP_RELATIVE ? 1e-3 : d.cg_stop == HK_CG_STOP_FORCE ? 0.1 : 1e-3;
    return hk_world_set_integrator(w, &d);
}

/* Restores the start (positions, rest) and the integrator (no history). */
static void stiff_reset(stiff_case *c)
{
    for (int i = 0; i < c->particles; i++) {
        hk_world_set_position(c->w, i, c->x0[i]);
        hk_world_set_velocity(c->w, i, (hk_vec3){0, 0, 0});
    }
    stiff_integrator(c->w, c->variant);
    const hk_solver_stats st = hk_world_solver_stats(c->w);
    c->cg_at_start = st.cg_total;
    c->unconverged_at_start = st.unconverged;
}

/* scenes/cloth_512_stiff.scene's cloth at n x n nodes: k = 60 000 N/m,
 * relative damping 0.02 N s/m, 2e-5 kg per node 1 cm apart, two corners
 * pinned, gravity, no ground. variant: the preconditioner (multigrid or
 * block_jacobi) and the stopping rule (energy 1e-3, the scene's; force
 * 0.1 and relative 1e-3, its settings before). One step is taken here to make
 * the solver and measure the memory. */
void *hk_bench_setup_stiff_cloth(int n, int threads, const char *variant)
{
    const double before = allocated_bytes();
    stiff_case *c = calloc(1, sizeof *c);
    hk_world_def wd = hk_default_world_def();
    wd.ground.model = HK_GROUND_NONE;
    wd.has_walls = 0;
    wd.air_drag = 2e-6;
    if (!c || !(c->w = hk_world_create(&wd))) {
        free(c);
        return NULL;
    }
    hk_cloth_def d = hk_default_cloth_def();
    d.nx = d.ny = n;
    d.spacing = 0.01;
    d.mass = 2e-5;
    d.u = (hk_vec3){1, 0, 0};
    d.v = (hk_vec3){0, 0, 1};
    d.pins = HK_PIN_TWO_CORNERS;
    hk_spring_params *fam[3] = {&d.structural_springs, &d.shear_springs, &d.bend_springs};
    for (int f = 0; f < 3; f++) {
        fam[f]->k = 60000;
        fam[f]->damping = 0.02;
        fam[f]->damping_model = HK_DAMP_RELATIVE;
    }
    c->particles = n * n;
    c->variant = variant;
    if (hk_world_add_cloth(c->w, &d) < 0 || hk_world_set_threads(c->w, threads) != 0 ||
        hk_world_optimise(c->w, 0) != 0 || stiff_integrator(c->w, variant) != 0 ||
        !(c->x0 = malloc((size_t)c->particles * sizeof *c->x0))) {
        stiff_free(c);
        return NULL;
    }
    for (int i = 0; i < c->particles; i++) c->x0[i] = hk_world_position(c->w, i);
    if (hk_world_step(c->w) != HK_OK) {
        stiff_free(c);
        return NULL;
    }
    c->bytes = allocated_bytes() - before;
    stiff_reset(c);
    return c;
}

/* STIFF_STEPS implicit steps from rest; the next run starts from rest again
 * (the reset, a pass over the particles, is timed with it). */
void hk_bench_run_stiff_cloth(void *s)
{
    stiff_case *c = s;
    stiff_reset(c);
    for (int i = 0; i < STIFF_STEPS; i++) hk_world_step(c->w);
}

int64_t hk_bench_stiff_cloth_items(void *s) { return (int64_t)((stiff_case *)s)->particles * STIFF_STEPS; }

int hk_bench_stiff_cloth_counters(void *s, hk_bench_counter *out, int max)
{
    stiff_case *c = s;
    const hk_solver_stats st = hk_world_solver_stats(c->w);
    const hk_bench_counter all[] = {
        {"cg_per_step", (double)(st.cg_total - c->cg_at_start) / STIFF_STEPS},
        {"unconverged", (double)(st.unconverged - c->unconverged_at_start)},
        {"bytes_per_particle", c->bytes / c->particles},
    };
    int n = 0;
    for (; n < max && n < (int)(sizeof all / sizeof all[0]); n++) out[n] = all[n];
    return n;
}

void hk_bench_stiff_cloth_free(void *s) { stiff_free(s); }
