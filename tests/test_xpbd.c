/* test_xpbd.c — xpbd against closed forms and against backward Euler: its fixed point, its colours, its bits. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_iterate.h"

#include "constraints.h"
#include "kernels.h"

/* At a fixed point of its sweeps an xpbd substep is backward Euler's (xpbd.c): from one state, the step of xpbd
 * comes closer to the converged backward Euler step as the sweeps grow, on the tilted strand (a 1000:1 mass ratio),
 * the stiffness-ratio strand (1e4:1 stiffnesses: two families of a points body) and a stiff cloth (a lattice's six
 * families), until float's rounding of the stiff springs' forces is all that is left (on the stiffness-ratio strand
 * 1 N of the stiff springs' force, 1e-4 m of the soft springs' stretch). */
static void test_converges_to_backward_euler(void **state)
{
    (void)state;
    const struct {
        const char *name;
        world_maker make;
        double left; /* the error at 1000 sweeps, at most this part of the step's motion */
    } cases[] = {{"tilted strand", strand_tilted, 1e-3},
                 {"stiffness ratio", stiffness_ratio, 2e-3},
                 {"stiff cloth", cloth, 1e-3}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        double dt;
        hk_world *w = cases[k].make(&dt);
        const int n = hk_world_particles(w).count;
        hk_world_destroy(w);
        double *x0 = malloc(sizeof(double) * 3 * n), *xe = malloc(sizeof(double) * 3 * n),
               *x = malloc(sizeof(double) * 3 * n);
        one_step(HK_XPBD, cases[k].make, 20, 0, x0, xe);
        double moved = 0;
        for (int i = 0; i < 3 * n; i++) moved = fmax(moved, fabs(xe[i] - x0[i]));
        const int its[] = {1, 10, 100, 1000};
        double last = INFINITY;
        for (size_t j = 0; j < sizeof its / sizeof *its; j++) {
            one_step(HK_XPBD, cases[k].make, 20, its[j], x0, x);
            double err = 0;
            for (int i = 0; i < 3 * n; i++) err = fmax(err, fabs(x[i] - xe[i]));
            print_message("%s: %4d sweeps: %.3g m off backward Euler's step, which moved %.3g m\n", cases[k].name,
                          its[j], err, moved);
            assert_true(err <= last * (1 + 1e-3));
            if (j == 0) assert_true(err > 20 * cases[k].left * moved); /* one sweep is far from it */
            last = err;
        }
        assert_true(last <= cases[k].left * moved);
        free(x0), free(xe), free(x);
    }
}

/* One spring to a pinned anchor, along it: the spring's own equation is the whole system, which one sweep solves
 * exactly (xpbd.c), so xpbd at its default of one sweep is backward Euler's recursion on x'' = -w^2 x - (c/m) x',
 *   v1 (m + h c + h^2 k) = m v0 - h k x0,  x1 = x0 + h v1,
 * every step to float's rounding, from w h = 0.06 to 63 and with damping along the spring (so its energy falls as
 * that recursion's). */
static void test_oscillator_recursion(void **state)
{
    (void)state;
    const double wh[] = {0.06, 0.6, 6.3, 63}, zeta[] = {0, 0.1};
    for (size_t z = 0; z < 2; z++)
        for (size_t i = 0; i < sizeof wh / sizeof *wh; i++)
            assert_true(iterated_oscillator(HK_XPBD, wh[i], zeta[z]) < 2e-6);
}

/* The paper's zero compliance as the stiffest spring a world accepts (k = 1e12 N/m, k h^2 / m = 1e8): a pendulum of
 * 1 kg on a 1 m spring released level swings with its length held to float's rounding, and its energy, which
 * backward Euler's step takes away, never rises above its start. */
static void test_stiff_pendulum_holds_length(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.ground.model = HK_GROUND_NONE;
    def.has_walls = 0;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_spring_pair_def d = hk_default_spring_pair_def();
    d.a = (hk_vec3){0, 0, 0};
    d.b = (hk_vec3){1, 0, 0};
    d.mass_a = d.mass_b = 1;
    d.pin_a = 1;
    d.springs.k = 1e12;
    assert_true(hk_world_add_spring_pair(w, &d) >= 0);
    hk_test_integrator(w, HK_XPBD, 1e-2);
    const double g = -def.gravity.y;
    double worst = 0, lowest = 0;
    for (int n = 0; n < 300; n++) {
        assert_int_equal(hk_world_step(w), HK_OK);
        const hk_vec3 x = hk_world_position(w, 1);
        const double r = sqrt(x.x * x.x + x.y * x.y + x.z * x.z), vx = hk_world_particles(w).vx[1],
                     vy = hk_world_particles(w).vy[1];
        worst = fmax(worst, fabs(r - 1));
        lowest = fmin(lowest, x.y);
        assert_true(0.5 * (vx * vx + vy * vy) + g * x.y <= 1e-5);
    }
    print_message("300 steps of 0.01 s: length off 1 m by %.3g m at most, lowest point %.6g m\n", worst, lowest);
    assert_true(worst < 4 * HK_EPS + 30 / d.springs.k); /* rounding, and the stretch m (g + v^2 / r) / k */
    assert_true(lowest < -0.99);                        /* it swings through the bottom */
    hk_world_destroy(w);
}

/* The constraints of every kind of spring family: no particle twice in a regular colour, every spring once. */
static void test_colours(void **state)
{
    (void)state;
    for (int k = 0; k < ITERATED_SCENES; k++) {
        hk_scene sc = hk_test_load_scene(iterated_scenes[k]);
        hk_world *w = sc.world;
        const hk_constraints *c = hk_constraints_of(w);
        assert_non_null(c);
        char why[256] = "";
        const int rc = hk_constraints_check(w, c, why, sizeof why);
        print_message("%s: %lld springs in %d lattice and %d list colours%s%s\n", iterated_scenes[k],
                      (long long)c->count, c->lattice_colours, c->colours, rc ? ": " : "", why);
        assert_int_equal(rc, 0);
        assert_true(c->count == hk_world_spring_count(w));
        hk_scene_free(&sc);
    }
}

/* A cloth of odd sides (the along-i colours' rows start and end between the kernels' blocks) whose families are
 * normal, tension-only and breakable, under 3 sweeps: every kernel path and thread count gives the reference path's
 * bits (the lattice rows' SIMD steps against the scalar step of every spring), and some springs break. */
static void test_paths_agree(void **state)
{
    (void)state;
    static const char *const paths[] = {"reference", "scalar", "avx2", "avx512"};
    const char *text = "world\n gravity 0 -9.81 0\nend\n"
                       "body cloth\n nx 37\n ny 129\n spacing 0.01\n u 1 0 0\n v 0 0 1\n mass 2e-5\n pins two_corners\n"
                       " springs structural k 6000 damping 0.02 behaviour breakable break_ratio 1.0005\n"
                       " springs shear k 6000 damping 0.02 damping_model along behaviour tension_only\n"
                       " springs bend k 600 damping 0.01\nend\n"
                       "run\n integrator xpbd\n iterations 3\n dt 1e-3\nend\n";
    uint64_t want = 0;
    int runs = 0;
    for (int p = 0; p < 4; p++) {
        if (!hk_kernels_cpu_has(paths[p]) || hk_kernels_select(paths[p]) != 0) continue;
        for (int t = 1; t <= 3; t += 2) {
            hk_scene sc = parse_ok(text);
            assert_int_equal(hk_world_set_threads(sc.world, t), HK_OK);
            for (int n = 0; n < 40; n++) assert_int_equal(hk_world_step(sc.world), HK_OK);
            const uint64_t got = hk_world_state_hash(sc.world);
            const int64_t broken = hk_world_stats(sc.world).broken;
            print_message("%-9s, %d thread%s: state hash 0x%016llx, %lld springs broken\n", paths[p], t,
                          t > 1 ? "s" : "", (unsigned long long)got, (long long)broken);
            assert_true(broken > 0);
            if (!runs++) want = got;
            assert_true(got == want);
            hk_scene_free(&sc);
        }
    }
    hk_kernels_select(NULL);
    assert_true(runs >= 4); /* the reference and scalar paths at least */
}

/* iterations: 1 to HK_MAX_ITERATIONS, or 0 for the default, and for xpbd only. */
static void test_settings(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_XPBD;
    d.iterations = HK_MAX_ITERATIONS;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    d.iterations = HK_MAX_ITERATIONS + 1;
    assert_int_not_equal(hk_world_set_integrator(w, &d), 0);
    assert_non_null(strstr(hk_world_error(w), "iterations must be 1 to 10000"));
    d.iterations = -1;
    assert_int_not_equal(hk_world_set_integrator(w, &d), 0);
    d.iterations = 5;
    d.kind = HK_IMPLICIT_EULER;
    assert_int_not_equal(hk_world_set_integrator(w, &d), 0);
    print_message("%s\n", hk_world_error(w));
    assert_non_null(strstr(hk_world_error(w), "implicit_euler"));
    assert_true(hk_integrator_info_of(HK_XPBD)->iterated && !hk_integrator_info_of(HK_IMPLICIT_EULER)->iterated);
    hk_world_destroy(w);
    /* over ranks: refused by name where the world is shared out */
    hk_scene sc = hk_test_load_scene("rope.scene");
    set(sc.world, HK_XPBD, 1e-3, 0, 0);
    assert_int_not_equal(hk_world_distribute(sc.world, 0, 2, NULL, NULL), 0);
    print_message("%s\n", hk_world_error(sc.world));
    assert_non_null(strstr(hk_world_error(sc.world), "xpbd does not run over MPI ranks"));
    hk_scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_converges_to_backward_euler),
        cmocka_unit_test(test_oscillator_recursion),
        cmocka_unit_test(test_stiff_pendulum_holds_length),
        cmocka_unit_test(test_colours),
        cmocka_unit_test(test_paths_agree),
        cmocka_unit_test(test_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
