/* test_stress_scenes.c — the shipped stress scenes' settings, hanging chains' static stretch against (weight
 * below) / k, and implicit Euler's minimisation on them: no energy gained. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"
#include "hk_test_parse.h"

#include "scene.h"
#include "world.h"

/* Every stress scene runs as a user profiling stability runs it: implicit Euler at its defaults (no Newton count,
 * no CG setting), 300 steps of 1/60 s, gravity 10 m/s^2 down. */
static void test_stress_settings(void **state)
{
    (void)state;
    static const char *const scenes[] = {"stress_strand_tilted.scene",    "stress_strand_skip.scene",
                                         "stress_strand_3.scene",         "stress_stiffness_ratio.scene",
                                         "stress_chain_mass_ratio.scene", "stress_cloth_hanging.scene"};
    for (size_t i = 0; i < sizeof scenes / sizeof *scenes; i++) {
        hk_scene sc = hk_test_load_scene(scenes[i]);
        const hk_integrator_def d = sc.integrator, base = hk_default_integrator_def();
        assert_int_equal(d.kind, HK_IMPLICIT_EULER);
        assert_true(d.dt == 1.0 / 60 && d.dt_max == 0);
        assert_int_equal(sc.steps, 300);
        assert_true(d.newton_iterations == base.newton_iterations && d.cg_tolerance == base.cg_tolerance &&
                    d.cg_max_iterations == base.cg_max_iterations && d.cg_stop == base.cg_stop &&
                    d.preconditioner == base.preconditioner);
        const hk_world_def *wd = &sc.world->def;
        assert_true(wd->gravity.x == 0 && wd->gravity.y == -10 && wd->gravity.z == 0 && wd->air_drag == 0);
        hk_scene_free(&sc);
    }
}

/* The heights y [m] of the first n particles. */
static void heights(const hk_world *w, int n, double *y)
{
    for (int i = 0; i < n; i++) y[i] = hk_world_position(w, i).y;
}

/* A chain hanging from particle 0 straight down the y axis, at rest: spring i (particles i, i + 1, of stiffness
 * k[i]) carries the weight of the particles below it, so it is stretched by g (m[i+1] + ... + m[n-1]) / k[i] from
 * its rest length (its length in y0). The largest relative error of those stretches. */
static double stretch_error(const hk_world *w, int n, const double *y0, const double *y, const double *k, double g)
{
    const hk_particles_view pv = hk_world_particles(w);
    double worst = 0;
    for (int i = 0; i + 1 < n; i++) {
        double below = 0;
        for (int j = i + 1; j < n; j++) below += (double)pv.mass[j];
        const double want = g * below / k[i], got = (y[i] - y[i + 1]) - (y0[i] - y0[i + 1]);
        const double e = fabs(got - want) / want;
        print_message("spring %2d: stretch %.9g m, closed form %.9g m, relative error %.2g\n", i, got, want, e);
        worst = fmax(worst, e);
        assert_true(hk_world_position(w, i + 1).x == 0 && hk_world_position(w, i + 1).z == 0);
    }
    return worst;
}

/* A body points with springs of two families, a stiff one above a soft one, each with its own k: the chain settles
 * (semi-implicit Euler, each spring's damping taking about 5 1/s off its mode's amplitude) to the stretch of each
 * spring's own k. One family's k for both would miss one of them by a factor of 100. Tolerance: after 20 s the
 * motion has decayed by about e^-100; the positions are single precision in the float build (ulp(0.25 m) = 3e-8 m),
 * 1.2e-5 of the stiff spring's 2.5 mm. */
static void test_two_families_settle(void **state)
{
    (void)state;
    hk_scene sc = parse_ok("world\n gravity 0 -10 0\nend\n"
                           "body points\n point 0 0 0 1\n point 0 -0.1 0 2\n point 0 -0.2 0 0.5\n pin 0\n"
                           " spring 0 1 stiff\n spring 1 2 soft\n"
                           " springs stiff k 1e4 damping 20\n springs soft k 100 damping 5\nend\n"
                           "run\n dt 1e-3\n steps 20000\nend\n");
    double y0[3], y[3];
    heights(sc.world, 3, y0);
    for (int s = 0; s < sc.steps; s++) assert_int_equal(hk_world_step(sc.world), HK_OK);
    heights(sc.world, 3, y);
    const double k[2] = {1e4, 100};
    assert_le(stretch_error(sc.world, 3, y0, y, k, 10), 1e-4); /* 2.5 mm and 50 mm */
    hk_scene_free(&sc);
}

/* scenes/stress_chain_mass_ratio.scene, relaxed: implicit Euler at a step of 1 s, far above the chain's slowest
 * period (0.87 s: the end mass on the 19 springs in series), damps every motion by at least 1 / sqrt(1 + (omega
 * dt)^2) = 0.14 a step; on a chain straight down every spring acts along y, the forces are linear in the positions
 * and each step is solved as the linear system it is. After 40 steps each spring's stretch is (weight below) / k,
 * about 10 mm (r / L0 about 2) with a 1e5 kg end mass on springs of 1e8 N/m. Tolerance: single precision holds
 * the positions (up to 0.4 m) to 3e-8 m, 3e-6 of a stretch, and the force k ulp(x) = 3 N to 3e-6 of the weight. */
static void test_mass_ratio_chain_settles(void **state)
{
    (void)state;
    hk_scene sc = hk_test_load_scene("stress_chain_mass_ratio.scene");
    hk_world *w = sc.world;
    enum { N = 20 };
    const hk_particles_view pv = hk_world_particles(w);
    assert_int_equal(pv.count, N);
    assert_int_equal(hk_world_family_count(w), 1);
    const double k1 = hk_world_family(w, 0).params.k;
    assert_true(k1 == 1e8);
    for (int i = 0; i < N; i++) assert_true(pv.mass[i] == (i == N - 1 ? 1e5f : 1));
    assert_true(pv.inv_mass[0] == 0);
    double y0[N], y[N], k[N - 1];
    heights(w, N, y0);
    for (int i = 0; i + 1 < N; i++) {
        assert_near(y0[i] - y0[i + 1], 0.01, 1e-8);
        k[i] = k1;
    }
    hk_integrator_def d = sc.integrator;
    d.dt = 1;
    assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
    for (int s = 0; s < 40; s++) assert_int_equal(hk_world_step(w), HK_OK);
    heights(w, N, y);
    assert_le(stretch_error(w, N, y0, y, k, -w->def.gravity.y), 1e-4);
    hk_scene_free(&sc);
}

/* Implicit Euler's minimisation (its defaults) on the strands and the chain: every step of the 300 is taken, the
 * world checks clean after each, and the total energy (kinetic, springs, gravity: nothing in these scenes feeds
 * energy) is never above its start by more than float's rounding of it (1e-6 of its scale). The step linearised
 * once (newton_iterations 1) gains more than the tilted strand's whole energy (the run's energy guard stops it at
 * step 115): the test that the scene is the stress it claims. */
static void test_minimisation_gains_no_energy(void **state)
{
    (void)state;
    static const char *const scenes[] = {"stress_strand_tilted.scene", "stress_strand_skip.scene",
                                         "stress_strand_3.scene", "stress_stiffness_ratio.scene",
                                         "stress_chain_mass_ratio.scene"};
    for (size_t i = 0; i < sizeof scenes / sizeof *scenes; i++) {
        hk_scene sc = hk_test_load_scene(scenes[i]);
        hk_world *w = sc.world;
        assert_int_equal(sc.integrator.newton_iterations, 0);
        const hk_stats s0 = hk_world_stats(w);
        const double scale = fmax(fabs(s0.total), fabs(s0.gravity)) + 1;
        double most = s0.total;
        for (int s = 0; s < 300; s++) {
            assert_int_equal(hk_world_step(w), HK_OK);
            hk_blowup b;
            if (hk_world_check(w, 10, &b) != 0) {
                print_error("%s: blew up at step %d\n", scenes[i], s + 1);
                fail();
            }
            most = fmax(most, hk_world_stats(w).total);
        }
        print_message("%-30s energy %.9g J at the start, at most %.9g J, %lld substeps stopped at the bound\n",
                      scenes[i], s0.total, most, (long long)hk_world_solver_stats(w).newton_unconverged);
        assert_true(most <= s0.total + 1e-6 * scale);
        assert_int_equal(hk_world_solver_stats(w).newton_unconverged, 0);
        hk_scene_free(&sc);
    }
    hk_scene sc = hk_test_load_scene("stress_strand_tilted.scene");
    hk_integrator_def d = sc.integrator;
    d.newton_iterations = 1;
    assert_int_equal(hk_world_set_integrator(sc.world, &d), HK_OK);
    const double e0 = hk_world_stats(sc.world).total;
    double gained = 0;
    for (int s = 0; s < 300 && !(gained > fabs(e0)); s++) {
        if (hk_world_step(sc.world) != HK_OK) break;
        gained = fmax(gained, hk_world_stats(sc.world).total - e0);
    }
    print_message("linearised: the tilted strand gains %.6g J over its start %.6g J\n", gained, e0);
    assert_true(!(gained <= fabs(e0))); /* more than its whole energy, or not finite: a blow-up */
    hk_scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress_settings),
        cmocka_unit_test(test_two_families_settle),
        cmocka_unit_test(test_mass_ratio_chain_settles),
        cmocka_unit_test(test_minimisation_gains_no_energy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
