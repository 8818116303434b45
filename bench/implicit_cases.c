/* implicit_cases.c — benchmark cases of the implicit solver: Jacobian products on lattices and lists, CG iterations. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
