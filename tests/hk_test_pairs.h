/* hk_test_pairs.h — the contact tests' shared pieces: a world from scene text, steps that must succeed, crossings. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_PAIRS_H
#define HK_TEST_PAIRS_H

#include "hk_test.h"

#include "ccd.h"
#include "faces.h"
#include "world.h"

/* The world of scene text (name stands for the file in its messages), failing the test where it is refused. */
static inline hk_world *hk_test_scene_world(const char *text, const char *name)
{
    char err[1024];
    hk_world *w = hk_world_parse_scene(text, name, NULL, err, sizeof err);
    if (!w) {
        print_error("%s\n", err);
        fail();
    }
    return w;
}

/* n steps of w, failing the test at a step that is refused. */
static inline void hk_test_steps(hk_world *w, int n)
{
    for (int s = 0; s < n; s++)
        if (hk_world_step(w) != HK_OK) {
            print_error("step %d: %s\n", s, hk_world_error(w));
            fail();
        }
}

/* Crossings of body b's particles through the triangles of body t between two states (a and z, 3 doubles a
 * particle), by brute force: every particle of b against every triangle of t whose corners are all more than
 * `reach` lattice nodes from it (in body b == t), the boxes of their paths first, then the continuous test. */
static inline long hk_test_crossings(const hk_world *w, int b, int t, int reach, const double *a, const double *z)
{
    int32_t *tri = malloc((size_t)(3 * hk_body_face_capacity(w, t) + 1) * sizeof *tri);
    assert_non_null(tri);
    const int64_t nt = hk_body_faces(w, t, tri);
    const hk_body *bb = &w->bodies[b];
    long n = 0;
    for (int v = bb->first; v < bb->first + bb->count; v++)
        for (int64_t k = 0; k < nt; k++) {
            const int32_t *c = tri + 3 * k, idx[4] = {v, c[0], c[1], c[2]};
            int near = 0;
            for (int q = 1; q < 4 && b == t; q++) {
                const int lv = v - bb->first, lc = idx[q] - bb->first;
                near |= abs(lv % bb->nx - lc % bb->nx) <= reach && abs(lv / bb->nx - lc / bb->nx) <= reach;
            }
            if (near) continue;
            double v0[4][3], v1[4][3];
            int apart = 0;
            for (int d = 0; d < 3 && !apart; d++) {
                double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
                for (int q = 0; q < 4; q++) {
                    v0[q][d] = a[3 * idx[q] + d], v1[q][d] = z[3 * idx[q] + d];
                    lo[q > 0] = fmin(lo[q > 0], fmin(v0[q][d], v1[q][d]));
                    hi[q > 0] = fmax(hi[q > 0], fmax(v0[q][d], v1[q][d]));
                }
                apart = lo[0] > hi[1] || lo[1] > hi[0];
            }
            n += !apart && hk_ccd_point_triangle(v0, v1, 1e-12) >= 0;
        }
    free(tri);
    return n;
}

/* The crossings of body b's particles through body t's triangles (hk_test_crossings, with its reach) over `steps`
 * steps of w, counted step by step. */
static inline long hk_test_crossings_over(hk_world *w, int steps, int b, int t, int reach)
{
    const int n = hk_world_particles(w).count;
    double *a = malloc(3 * (size_t)n * sizeof *a), *z = malloc(3 * (size_t)n * sizeof *z);
    assert_true(a && z);
    hk_world_positions(w, 0, n, a);
    long total = 0;
    for (int s = 0; s < steps; s++) {
        hk_test_steps(w, 1);
        hk_world_positions(w, 0, n, z);
        total += hk_test_crossings(w, b, t, reach, a, z);
        double *x = a;
        a = z, z = x;
    }
    free(a), free(z);
    return total;
}

/* Two 12 x 12 cloth squares meet face on in empty space (no gravity, no colliders) at 1 m/s each way, under the
 * `contact` section given: the total momentum, 0, must stay 0 to float rounding of the velocities (1e-5 of the sum
 * of m|v|), while each cloth's own turns around. */
static inline void hk_test_two_cloths_keep_momentum(const char *contact, const char *name)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s%s",
             "world\n  gravity 0 0 0\nend\n"
             "body cloth\n  nx 12\n  ny 12\n  spacing 0.02\n  origin 0 0 0\n  u 1 0 0\n  v 0 0 1\n"
             "  mass 1e-3\n  springs structural k 200\n  springs shear k 200\nend\n",
             "body cloth\n  nx 12\n  ny 12\n  spacing 0.02\n  origin 0.013 0.03 0.007\n  u 1 0 0\n"
             "  v 0 0 1\n  mass 1e-3\n  springs structural k 200\n  springs shear k 200\nend\n",
             contact, "run\n  integrator semi_implicit_euler\n  dt 1e-3\n  dt_max 2.5e-4\nend\n");
    hk_world *w = hk_test_scene_world(text, name);
    hk_particles_view v = hk_world_particles(w);
    for (int i = 0; i < v.count; i++) hk_test_mut(v.vy)[i] = i < 144 ? 1 : -1, hk_test_mut(v.vx)[i] = i < 144 ? 0.2 : 0;
    for (int i = 144; i < v.count; i++) hk_test_mut(v.vx)[i] = -0.2;
    double p0[3], scale;
    hk_test_momentum(w, p0, &scale);
    hk_test_steps(w, 60);
    double p1[3], y0 = 0, y1 = 0;
    hk_test_momentum(w, p1, NULL);
    v = hk_world_particles(w);
    for (int i = 0; i < 144; i++) y0 += v.vy[i] / 144, y1 += v.vy[144 + i] / 144;
    print_message("momentum before (%.3g %.3g %.3g), after (%.3g %.3g %.3g) kg m/s; mean vy %.4f and %.4f m/s\n", p0[0],
                  p0[1], p0[2], p1[0], p1[1], p1[2], y0, y1);
    assert_true(y0 < 0 && y1 > 0); /* they met and turned back */
    for (int c = 0; c < 3; c++) assert_near(p1[c], p0[c], 1e-5 * scale);
    hk_world_destroy(w);
}

/* The contact section of the tests' folding strips. */
#define FOLD_CONTACT "contact\n  thickness 0.005\n  stiffness 200\n  damping_ratio 1\n  friction 0.3\nend\n"

/* A 12 x 12 cloth (2 cm) dropped from 4 cm over a 4 x 4 x 4 jelly cube (5 cm) that stands on the floor. */
#define CLOTH_ON_JELLY(integrator, dt, dt_max)                                                                         \
    "world\n  gravity 0 -9.81 0\nend\n"                                                                                \
    "body jelly\n  nx 4\n  ny 4\n  nz 4\n  spacing 0.05\n  origin -0.075 0.005 -0.075\n  mass 0.01\n"                  \
    "  springs all k 3000 damping 0.3\nend\n"                                                                          \
    "body cloth\n  nx 12\n  ny 12\n  spacing 0.02\n  origin -0.11 0.2 -0.11\n  u 1 0 0\n  v 0 0 1\n  mass 1e-3\n"      \
    "  springs structural k 300 damping 0.01 damping_model relative\n"                                                 \
    "  springs shear k 300 damping 0.01 damping_model relative\n"                                                      \
    "  springs bend k 10 damping 0.01 damping_model relative\nend\n"                                                   \
    "collider\n  shape box\n  size 2 0.2 2\n  offset 0 -0.1 0\n  thickness 0.005\n  stiffness 500\n"                   \
    "  damping_ratio 1\n  friction 0.5\nend\n"                                                                         \
    "contact\n  thickness 0.005\n  stiffness 300\n  damping_ratio 1\n  friction 0.5\nend\n"                            \
    "run\n  integrator " integrator "\n  dt " dt "\n" dt_max "end\n"

#endif
