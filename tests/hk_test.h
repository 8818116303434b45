/* hk_test.h — helpers shared by the physics tests: cmocka, tolerant comparisons, small world set-ups. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_H
#define HK_TEST_H

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hooke/hooke.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Machine epsilon of the simulation state (float by default, double with
 * -DHOOKE_DOUBLE=ON): rounding-based tolerances scale with it. */
#ifdef HOOKE_DOUBLE
#define HK_EPS DBL_EPSILON
#else
#define HK_EPS ((double)FLT_EPSILON)
#endif

/* |actual - expected| <= tol, with both values printed on failure. */
#define assert_near(actual, expected, tol)                                                                             \
    do {                                                                                                               \
        const double hk_a_ = (double)(actual), hk_e_ = (double)(expected), hk_t_ = (double)(tol);                      \
        if (!(fabs(hk_a_ - hk_e_) <= hk_t_)) {                                                                         \
            print_error("%s = %.10g, expected %s = %.10g within %.3g (off by %.3g)\n", #actual, hk_a_, #expected,      \
                        hk_e_, hk_t_, fabs(hk_a_ - hk_e_));                                                            \
            fail();                                                                                                    \
        }                                                                                                              \
    } while (0)

/* a <= b (doubles), both printed on failure. */
#define assert_le(a, b)                                                                                                \
    do {                                                                                                               \
        const double hk_a_ = (double)(a), hk_b_ = (double)(b);                                                         \
        if (!(hk_a_ <= hk_b_)) {                                                                                       \
            print_error("expected %s <= %s, got %.10g > %.10g\n", #a, #b, hk_a_, hk_b_);                               \
            fail();                                                                                                    \
        }                                                                                                              \
    } while (0)

/* The definition of a world under gravity g [m/s^2] with no drag, ground or walls. */
static inline hk_world_def hk_test_world_def(hk_vec3 g)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = g;
    def.air_drag = 0;
    def.ground.model = HK_GROUND_NONE;
    def.has_walls = 0;
    return def;
}

/* A world with no gravity, drag, ground or walls. */
static inline hk_world *hk_test_empty_world(void)
{
    const hk_world_def def = hk_test_world_def((hk_vec3){0, 0, 0});
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    return w;
}

/* Sets the integrator, failing the test if the world rejects it. */
static inline void hk_test_integrator(hk_world *w, hk_integrator_kind kind, double dt)
{
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = kind;
    d.dt = dt;
    d.jelly_alpha = 1.0;
    if (hk_world_set_integrator(w, &d) != 0) {
        print_error("set_integrator(%s, %g): %s\n", hk_integrator_name(kind), dt, hk_world_error(w));
        fail();
    }
}

/* Writable view of the world's velocities. The public API has no setter for
 * particle state; the view's arrays are the world's own (non-const) storage,
 * so tests write initial velocities through them before the first step. */
/* A stiff cloth hung by two corners, nx x ny nodes: cloth_512_stiff's
 * springs (k 60 000 N/m, relative damping 0.02 N s/m) and node mass (2e-5
 * kg, 1 cm apart); its body index. hk_test_add_cloth_k: the same with
 * springs of k [N/m]. */
static inline int hk_test_add_cloth_k(hk_world *w, int nx, int ny, double k)
{
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = nx;
    c.ny = ny;
    c.spacing = 0.01;
    c.mass = 2e-5;
    c.pins = HK_PIN_TWO_CORNERS;
    hk_spring_params *fam[3] = {&c.structural_springs, &c.shear_springs, &c.bend_springs};
    for (int f = 0; f < 3; f++) {
        fam[f]->k = k;
        fam[f]->damping = 0.02;
    }
    const int body = hk_world_add_cloth(w, &c);
    assert_true(body >= 0);
    return body;
}
static inline int hk_test_add_stiff_cloth(hk_world *w, int nx, int ny) { return hk_test_add_cloth_k(w, nx, ny, 60000); }

static inline hk_real *hk_test_mut(const hk_real *a) { return (hk_real *)(uintptr_t)a; }

/* Total momentum of the free particles (inverse mass > 0) [kg m/s], and
 * sum of m|v| over them (its scale, for rounding bounds). */
static inline void hk_test_momentum(const hk_world *w, double p[3], double *scale)
{
    hk_particles_view v = hk_world_particles(w);
    p[0] = p[1] = p[2] = 0;
    double s = 0;
    for (int i = 0; i < v.count; i++) {
        if (v.inv_mass[i] == 0) continue;
        double m = v.mass[i];
        p[0] += m * v.vx[i];
        p[1] += m * v.vy[i];
        p[2] += m * v.vz[i];
        s += m * sqrt((double)v.vx[i] * v.vx[i] + (double)v.vy[i] * v.vy[i] + (double)v.vz[i] * v.vz[i]);
    }
    if (scale) *scale = s;
}

/* Springs of every family of `body` whose name starts with `prefix`. */
static inline int64_t hk_test_family_springs(const hk_world *w, int body, const char *prefix)
{
    int64_t n = 0;
    size_t len = strlen(prefix);
    for (int f = 0; f < hk_world_family_count(w); f++) {
        hk_family_info fi = hk_world_family(w, f);
        if (fi.body == body && strncmp(fi.name, prefix, len) == 0) n += fi.springs;
    }
    return n;
}

/* The 8 corners and 12 faces of the box of half extents (a, b, c) about the origin, outward. */
static inline hk_mesh hk_test_box_mesh(double a, double b, double c)
{
    static const int tri[36] = {0, 6, 2, 0, 4, 6, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                                2, 7, 3, 2, 6, 7, 0, 3, 1, 0, 2, 3, 4, 5, 7, 4, 7, 6};
    hk_mesh m = {0};
    m.vertex_count = 8;
    m.face_count = 12;
    m.vertices = malloc(8 * sizeof *m.vertices);
    m.faces = malloc(sizeof tri);
    assert_non_null(m.vertices);
    assert_non_null(m.faces);
    for (int k = 0; k < 8; k++) m.vertices[k] = (hk_vec3){k & 1 ? a : -a, k & 2 ? b : -b, k & 4 ? c : -c};
    memcpy(m.faces, tri, sizeof tri);
    return m;
}

#endif
