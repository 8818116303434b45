/* hk_test_iterate.h — the iterated solvers' tests: scenes, settings, and one step of each from one state. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_ITERATE_H
#define HK_TEST_ITERATE_H

#include "hk_test.h"
#include "hk_test_osc.h"

#include "scene.h"
#include "world.h"

static inline hk_scene load_scene(const char *name)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", HOOKE_SCENES_DIR, name);
    hk_scene sc;
    if (hk_scene_load(path, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    return sc;
}

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
    hk_scene sc = load_scene(name);
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

#endif
