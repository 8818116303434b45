/* hk_test_iterate.h — the iterated solvers' tests: scenes, settings, and one step of each from one state. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_ITERATE_H
#define HK_TEST_ITERATE_H

#include "hk_test.h"
#include "hk_test_osc.h"
#include "hk_test_parse.h"

#include "distribute.h"
#include "scene.h"
#include "world.h"

static inline void set(hk_world *w, hk_integrator_kind kind, double dt, int iterations, double newton_tolerance)
{
    hk_integrator_def d = hk_world_integrator(w);
    d.kind = kind;
    d.dt = dt;
    d.dt_max = 0;
    d.iterations = iterations;
    d.newton_tolerance = newton_tolerance;
    if (hk_world_set_integrator(w, &d) != 0) {
        print_error("%s\n", hk_world_error(w));
        fail();
    }
}

/* The positions of w's particles [m] into x (3 per particle). */
static inline void positions(const hk_world *w, double *x)
{
    const int n = hk_world_particles(w).count;
    for (int i = 0; i < n; i++) {
        const hk_vec3 p = hk_world_position(w, i);
        x[3 * i] = p.x, x[3 * i + 1] = p.y, x[3 * i + 2] = p.z;
    }
}

/* A world's positions after `warm` steps of backward Euler converged tightly (newton_tolerance 1e-6) into x0, then
 * after one step of kind at `iterations` sweeps (0: of backward Euler, converged tightly) into x. */
typedef hk_world *(*world_maker)(double *dt);

static inline void one_step(hk_integrator_kind kind, world_maker make, int warm, int iterations, double *x0, double *x)
{
    double dt;
    hk_world *w = make(&dt);
    set(w, HK_IMPLICIT_EULER, dt, 0, 1e-6);
    for (int s = 0; s < warm; s++) assert_int_equal(hk_world_step(w), HK_OK);
    positions(w, x0);
    set(w, iterations > 0 ? kind : HK_IMPLICIT_EULER, dt, iterations, iterations > 0 ? 0 : 1e-6);
    assert_int_equal(hk_world_step(w), HK_OK);
    positions(w, x);
    hk_world_destroy(w);
}

static inline hk_world *scene_world(const char *name, double *dt)
{
    hk_scene sc = hk_test_load_scene(name);
    hk_world *w = sc.world;
    *dt = sc.integrator.dt;
    sc.world = NULL;
    hk_scene_free(&sc);
    return w;
}
static inline hk_world *strand_tilted(double *dt) { return scene_world("stress_strand_tilted.scene", dt); }
static inline hk_world *stiffness_ratio(double *dt) { return scene_world("stress_stiffness_ratio.scene", dt); }

/* A 12 x 12 cloth of cloth_512_stiff's springs under gravity, hung by two corners, at dt = 2e-4 s (k h^2 / m =
 * 120: a lattice body's six families, stiff enough that one sweep is far from converged). */
static inline hk_world *cloth(double *dt)
{
    hk_world_def def = hk_default_world_def();
    def.ground.model = HK_GROUND_NONE;
    def.has_walls = 0;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_test_add_stiff_cloth(w, 12, 12);
    *dt = 2e-4;
    return w;
}

/* One free mass on a spring to a pinned anchor, along it (damping ratio zeta along the spring), stepped by kind at
 * w h: the largest distance of its state from backward Euler's recursion
 *   v1 (m + h c + h^2 k) = m v0 - h k x0,  x1 = x0 + h v1
 * over 60 steps, in amplitudes (velocity over w). */
static inline double iterated_oscillator(hk_integrator_kind kind, double wh, double zeta)
{
    const double h = wh / OSC_W, c = 2 * zeta * OSC_W * OSC_M;
    hk_world *w = hk_test_damped_oscillator(kind, h, c);
    double x = 1, v = 0, worst = 0;
    for (int n = 1; n <= 60; n++) {
        const double v1 = (OSC_M * v - h * OSC_K * x) / (OSC_M + h * c + h * h * OSC_K);
        x += h * v1, v = v1;
        assert_int_equal(hk_world_step(w), HK_OK);
        const double gx = hk_world_position(w, 1).x, gv = hk_world_particles(w).vx[1];
        worst = fmax(worst, fmax(fabs(gx - x), fabs(gv - v) / OSC_W));
    }
    hk_world_destroy(w);
    print_message("%s, w h = %g, damping ratio %g: worst state error %.3g of the amplitude\n", hk_integrator_name(kind),
                  wh, zeta, worst);
    return worst;
}

/* From the state make's world reaches after 20 steps of converged backward Euler, one step of kind at 1, 10, ...
 * up to `sweeps` iterations: the largest distance of each from backward Euler's converged step, the first in *first
 * and the last returned, and in *moved how far that step moved [m]. */
static inline double iterated_converges(hk_integrator_kind kind, const char *name, world_maker make, int sweeps,
                                        double *first, double *moved)
{
    double dt;
    hk_world *w = make(&dt);
    const int n = hk_world_particles(w).count;
    hk_world_destroy(w);
    double *x0 = malloc(sizeof(double) * 3 * n), *xe = malloc(sizeof(double) * 3 * n),
           *x = malloc(sizeof(double) * 3 * n);
    one_step(kind, make, 20, 0, x0, xe);
    *moved = 0;
    for (int i = 0; i < 3 * n; i++) *moved = fmax(*moved, fabs(xe[i] - x0[i]));
    double at = 0;
    for (int its = 1; its <= sweeps; its *= 10) {
        one_step(kind, make, 20, its, x0, x);
        double err = 0;
        for (int i = 0; i < 3 * n; i++) err = fmax(err, fabs(x[i] - xe[i]));
        print_message("%s, %s: %5d iterations: %.3g m off backward Euler's step, which moved %.3g m\n",
                      hk_integrator_name(kind), name, its, err, *moved);
        if (its == 1) *first = err;
        at = err;
    }
    free(x0), free(xe), free(x);
    return at;
}

/* A 96 x 96 cloth (9216 particles: the passes on the team, each colour split over it) under kind at `iterations`
 * (accelerated by chebyshev_rho rho, 0: not), `steps` steps: the same state hash on 1, 2 and 3 threads. */
static inline void iterated_threads_same_bits(hk_integrator_kind kind, int iterations, double rho, int steps)
{
    uint64_t hash[3];
    for (int t = 1; t <= 3; t++) {
        hk_world_def def = hk_default_world_def();
        def.ground.model = HK_GROUND_NONE;
        def.has_walls = 0;
        hk_world *w = hk_world_create(&def);
        assert_non_null(w);
        hk_test_add_stiff_cloth(w, 96, 96);
        set(w, kind, 2e-4, iterations, 0);
        hk_integrator_def d = hk_world_integrator(w);
        d.chebyshev_rho = rho;
        assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
        assert_int_equal(hk_world_set_threads(w, t), HK_OK);
        for (int s = 0; s < steps; s++) assert_int_equal(hk_world_step(w), HK_OK);
        hash[t - 1] = hk_world_state_hash(w);
        print_message("%s, rho %g, %d thread%s: state hash 0x%016llx\n", hk_integrator_name(kind), rho, t,
                      t > 1 ? "s" : "", (unsigned long long)hash[t - 1]);
        hk_world_destroy(w);
    }
    assert_true(hash[0] == hash[1] && hash[1] == hash[2]);
}

/* kind steps rope.scene at 3 iterations; shared out over 2 ranks it is refused by name. */
static inline void iterated_refused_over_ranks(hk_integrator_kind kind)
{
    hk_scene sc = hk_test_load_scene("rope.scene");
    set(sc.world, kind, 1e-3, 3, 0);
    assert_int_equal(hk_world_step(sc.world), HK_OK);
    assert_int_not_equal(hk_world_distribute(sc.world, 0, 2, NULL, NULL), 0);
    print_message("%s\n", hk_world_error(sc.world));
    char want[128];
    snprintf(want, sizeof want, "%s does not run over MPI ranks", hk_integrator_name(kind));
    assert_non_null(strstr(hk_world_error(sc.world), want));
    hk_scene_free(&sc);
}

/* Shipped scenes of every kind of spring family: lattices (cloth_corners, jelly52, tearing_cloth: breakable), lists
 * (mesh_points, net: all to all), a surface (pressure_ball), two families of a points body (stress_stiffness_ratio). */
static const char *const iterated_scenes[] = {
    "cloth_corners.scene",          "jelly52.scene",      "mesh_points.scene", "net.scene", "pressure_ball.scene",
    "stress_stiffness_ratio.scene", "tearing_cloth.scene"};
#define ITERATED_SCENES ((int)(sizeof iterated_scenes / sizeof *iterated_scenes))

#endif
