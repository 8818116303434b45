/* test_particle_pairs.c — the particle model of contact: a fold kept apart, momentum, the solve's blocks, refusals,
 * its bound tests. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_pairs.h"

#include <float.h>
#include <math.h>

#include "pairs.h"
#include "world.h"

static hk_world *load(const char *text) { return hk_test_scene_world(text, "test_particle_pairs.scene"); }

/* A strip of cloth dropped on end onto a floor folds onto itself (scenes/cloth_fold.scene, smaller: 12 x 40 nodes
 * 2 cm apart), with the particle model of the given radius under `integrator`. */
static hk_world *fold(double radius, const char *integrator)
{
    char text[2048];
    snprintf(text, sizeof text,
             "world\n  gravity 0 -9.81 0\n  air_drag 1e-5\nend\n"
             "body cloth\n  nx 12\n  ny 40\n  spacing 0.02\n  origin -0.11 0.82 0\n  u 1 0 0\n"
             "  v 0 -1 0.05\n  mass 1e-3\n  springs structural k 300 damping 0.01 damping_model relative\n"
             "  springs shear k 300 damping 0.01 damping_model relative\n"
             "  springs bend k 30 damping 0.01 damping_model relative\nend\n"
             "collider\n  shape box\n  size 2 0.2 2\n  offset 0 -0.1 0\n  thickness 0.005\n"
             "  stiffness 200\n  damping_ratio 1\n  friction 0.5\nend\n"
             "contact\n  model particles\n  radius %g\n  stiffness 200\n  damping_ratio 1\n  friction 0.3\nend\n"
             "run\n  integrator %s\n  dt 0.004\n  dt_max 5e-4\nend\n",
             radius, integrator);
    return load(text);
}

/* The crossings of the folding strip over `steps` steps, counted step by step. */
static long fold_crossings(double radius, const char *integrator, int steps)
{
    hk_world *w = fold(radius, integrator);
    const long total = hk_test_crossings_over(w, steps, 0, 0, 2);
    const hk_pairs *pr = hk_pairs_of(w);
    assert_non_null(pr);
    for (int64_t k = 0; k < pr->npair; k++) assert_int_equal(pr->pair[k].kind, HK_PAIR_PP);
    hk_world_destroy(w);
    return total;
}

/* With spheres of half the spacing, the folding strip's layers stay apart: not one particle passes through the
 * other layer's triangles in 150 steps (0.6 s, the strip folded over twice), under semi-implicit Euler and under
 * implicit Euler (the pairs' blocks in the solve). With spheres of a tenth of the spacing a particle passes between
 * two of the other layer's particles: the model does not stop that, and the count sees it (the test can fail). */
static void test_fold_layers_stay_apart(void **state)
{
    (void)state;
    const long small = fold_crossings(0.002, "semi_implicit_euler", 150);
    const long semi = fold_crossings(0.01, "semi_implicit_euler", 150);
    const long implicit = fold_crossings(0.01, "implicit_euler", 150);
    print_message("crossings of the folding strip: %ld with radius 2 mm, %ld with 1 cm (semi-implicit Euler), %ld "
                  "with 1 cm (implicit Euler)\n",
                  small, semi, implicit);
    assert_true(small > 10);
    assert_int_equal(semi, 0);
    assert_int_equal(implicit, 0);
}

/* Two cloth squares meet face on in empty space at 1 m/s each way: the pairs' forces act on both particles with
 * opposite signs, so the total momentum, 0, stays 0 to float rounding, while each cloth turns around. */
static void test_momentum_kept(void **state)
{
    (void)state;
    hk_test_two_cloths_keep_momentum("contact\n  model particles\n  radius 0.01\n  stiffness 500\n  damping_ratio 0.2\n"
                                     "  friction 0.3\nend\n",
                                     "test_particle_pairs.scene");
}

/* A 4 x 4 cloth of 1 g particles rests on another (every particle of the lower one pinned), each particle over
 * one of the lower cloth's, spheres of 1 cm: it sinks until the pair's spring holds its weight, 2 radius - m g / k =
 * 0.02 - 9.81e-3 / 100 m. The step of 20 ms is sqrt(k / m) dt = 6.3 of the pair's oscillation, which only a solve
 * that holds the pairs' stiffness and damping blocks takes (a force taken explicitly at that step blows up). */
static void test_rest_depth_under_implicit_euler(void **state)
{
    (void)state;
    hk_world *w = load("world\n  gravity 0 -9.81 0\nend\n"
                       "body cloth\n  nx 4\n  ny 4\n  spacing 0.02\n  origin 0 0 0\n  u 1 0 0\n  v 0 0 1\n"
                       "  mass 1e-3\n  springs structural k 200\n  pin 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\nend\n"
                       "body cloth\n  nx 4\n  ny 4\n  spacing 0.02\n  origin 0 0.0199 0\n  u 1 0 0\n  v 0 0 1\n"
                       "  mass 1e-3\n  springs structural k 200\nend\n"
                       "contact\n  model particles\n  radius 0.01\n  stiffness 100\n  self 0\nend\n"
                       "run\n  integrator implicit_euler\n  dt 0.02\nend\n");
    hk_test_steps(w, 200);
    hk_particles_view v = hk_world_particles(w);
    double y = 0, speed = 0;
    for (int i = 16; i < 32; i++) {
        double x[3];
        hk_world_positions(w, i, 1, x);
        y += x[1] / 16;
        speed = fmax(speed, fabs(v.vy[i]));
    }
    const double want = 0.02 - 9.81e-3 / 100;
    print_message("the upper cloth rests at y %.7f m (closed form %.7f m), |vy| at most %.2g m/s\n", y, want, speed);
    assert_near(y, want, 1e-6);
    assert_true(speed < 1e-6);
    hk_world_destroy(w);
}

/* hk_world_set_contact refuses a model other than the two, a radius <= 0 or not finite, and a radius larger than
 * the smallest rest length times the stencil's reach (here 1: structural springs), each said so; the limit itself
 * is taken. */
static void test_bad_particle_defs(void **state)
{
    (void)state;
    hk_world *w = load("body cloth\n  nx 4\n  ny 4\n  spacing 0.02\n  mass 1e-3\n  springs structural k 100\nend\n");
    const struct {
        int model;
        double radius;
        const char *want;
    } bad[] = {
        {2, 0.01, "model must be HK_CONTACT_TRIANGLES or HK_CONTACT_PARTICLES (got 2)"},
        {-1, 0.01, "model must be HK_CONTACT_TRIANGLES or HK_CONTACT_PARTICLES (got -1)"},
        {HK_CONTACT_PARTICLES, 0, "radius must be a finite number > 0 m (got 0)"},
        {HK_CONTACT_PARTICLES, -0.01, "radius must be a finite number > 0 m (got -0.01)"},
        {HK_CONTACT_PARTICLES, NAN, "radius must be a finite number > 0 m (got nan)"},
        {HK_CONTACT_PARTICLES, INFINITY, "radius must be a finite number > 0 m (got inf)"},
        {HK_CONTACT_PARTICLES, 0.021,
         "radius 0.021 m is larger than the smallest spring rest length times the "
         "bodies' stencil reach, 0.02 m"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        hk_contact_def d = hk_default_contact_def();
        d.bodies = d.self = 1, d.model = (hk_contact_model)bad[k].model, d.radius = bad[k].radius;
        assert_int_equal(hk_world_set_contact(w, &d), HK_ERR_INVALID);
        if (!strstr(hk_world_error(w), bad[k].want)) {
            print_error("case %zu: \"%s\" lacks \"%s\"\n", k, hk_world_error(w), bad[k].want);
            fail();
        }
        assert_int_equal(hk_world_contact(w).bodies, 0);
    }
    hk_contact_def d = hk_default_contact_def();
    assert_true(d.model == HK_CONTACT_TRIANGLES);
    d.bodies = 1, d.model = HK_CONTACT_PARTICLES, d.radius = 0.02;
    assert_int_equal(hk_world_set_contact(w, &d), HK_OK);
    assert_true(hk_world_contact(w).model == HK_CONTACT_PARTICLES && hk_world_contact(w).radius == 0.02);
    hk_world_destroy(w);
}

/* The bounds' tests without a square root (pairs.h: each particle's place against its step's bound at every force
 * evaluation, and the step's checks) decide as the expressions with the root do, bit for bit: at a few ulps either
 * side of the bound, across the magnitudes (r^2 below the normal numbers, overflowing, 0, infinite, not a number),
 * and at random. Margins too thin (a rounding step) would flip the answer right at the bound; this sees it. */
static void test_bound_tests_without_roots(void **state)
{
    (void)state;
    const double rs[] = {0,     1e-300, 1e-160, 1.4e-154, 1.5e-154, 1e-150,  1e-12, 3.3e-6,   1e-3,
                         0.005, 1,      7.25,   1e150,    1.3e154,  1.4e154, 1e200, INFINITY, NAN};
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    long checked = 0;
    for (size_t a = 0; a < sizeof rs / sizeof *rs; a++) {
        const double r = rs[a], r2 = r * r;
        double d2s[64];
        int m = 0;
        d2s[m++] = 0, d2s[m++] = r2, d2s[m++] = INFINITY, d2s[m++] = NAN, d2s[m++] = r;
        for (int k = 1; k <= 8; k++) { /* k ulps either side of r^2, and of (r + k ulps)^2 */
            double lo = r2, hi = r2, rl = r, rh = r;
            for (int s = 0; s < k; s++) lo = nextafter(lo, 0), hi = nextafter(hi, INFINITY);
            for (int s = 0; s < k; s++) rl = nextafter(rl, 0), rh = nextafter(rh, INFINITY);
            d2s[m++] = lo, d2s[m++] = hi, d2s[m++] = rl * rl, d2s[m++] = rh * rh;
        }
        for (int k = 0; k < 20; k++) { /* at random within a factor 2 of r^2 */
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            d2s[m++] = r2 * (0.5 + 1.5 * (double)(seed >> 11) * 0x1p-53);
        }
        for (int k = 0; k < m; k++) {
            const double d2 = d2s[k];
            assert_int_equal(hk_root_above(d2, r), sqrt(d2) > r);
            for (size_t e = 0; e < sizeof rs / sizeof *rs; e++) { /* b + sqrt(d2) against c = b + r, and near it */
                const double b = rs[e], c = b + r;
                assert_int_equal(hk_root_plus_within(d2, b, c), sqrt(d2) + b <= c);
                assert_int_equal(hk_root_plus_within(d2, b, nextafter(c, 0)), sqrt(d2) + b <= nextafter(c, 0));
                assert_int_equal(hk_root_plus_within(d2, b, nextafter(c, INFINITY)),
                                 sqrt(d2) + b <= nextafter(c, INFINITY));
                checked += 3;
            }
            checked++;
        }
    }
    assert_true(checked > 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_layers_stay_apart),          cmocka_unit_test(test_momentum_kept),
        cmocka_unit_test(test_rest_depth_under_implicit_euler), cmocka_unit_test(test_bad_particle_defs),
        cmocka_unit_test(test_bound_tests_without_roots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
