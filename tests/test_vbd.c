/* test_vbd.c — vbd against closed forms and against backward Euler: its fixed point, its colours, its refusals. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_iterate.h"

#include "vertices.h"

/* At a fixed point of its sweeps a vbd substep is backward Euler's (vbd.c): from one state, the step of vbd comes
 * closer to the converged backward Euler step as the sweeps grow: on a stiff cloth (a lattice's six families, k h^2 /
 * m = 120) within a thousandth of the step's motion by 1000 sweeps, on the tilted strand (springs of k h^2 / m =
 * 2.8e4 holding a 1000:1 mass ratio) only by 10000. On the stiffness-ratio strand (two families of a points body,
 * 1e4:1) it is the paper's own caveat, measured: a particle between a soft and a stiff spring moves by what the stiff
 * one allows, so the soft springs' stretch travels along the strand hardly at all, and 1000 sweeps leave it more
 * than a percent of the step's motion away (where xpbd, whose steps are the springs', converges in 100). */
static void test_converges_to_backward_euler(void **state)
{
    (void)state;
    const struct {
        const char *name;
        world_maker make;
        int sweeps;  /* converged by this many sweeps, */
        double left; /* to at most this part of the step's motion (0: not converged) */
    } cases[] = {{"stiff cloth", cloth, 1000, 1e-3},
                 {"tilted strand", strand_tilted, 10000, 2e-3},
                 {"stiffness ratio", stiffness_ratio, 1000, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        double first, moved;
        const double at = iterated_converges(HK_VBD, cases[k].name, cases[k].make, cases[k].sweeps, &first, &moved);
        assert_true(at < first);
        if (cases[k].left > 0)
            assert_true(at <= cases[k].left * moved);
        else
            assert_true(at > 1e-2 * moved);
    }
}

/* One spring to a pinned anchor, along it: the free particle's energy is a quadratic along the spring, so one
 * Newton step (one sweep) solves it, and vbd at its default sweeps is backward Euler's recursion on x'' = -w^2 x -
 * (c/m) x' step by step to float's rounding, from w h = 0.06 to 63 and with damping along the spring. */
static void test_oscillator_recursion(void **state)
{
    (void)state;
    const double wh[] = {0.06, 0.6, 6.3, 63}, zeta[] = {0, 0.1};
    for (size_t z = 0; z < 2; z++)
        for (size_t i = 0; i < sizeof wh / sizeof *wh; i++)
            assert_true(iterated_oscillator(HK_VBD, wh[i], zeta[z]) < 4e-6);
}

/* The particles of every kind of spring family in colours: no two of a regular colour share a spring, every
 * particle once, every spring at both its ends. */
static void test_colours(void **state)
{
    (void)state;
    for (int k = 0; k < ITERATED_SCENES; k++) {
        hk_scene sc = hk_test_load_scene(iterated_scenes[k]);
        hk_world *w = sc.world;
        const hk_vertex_graph *g = hk_vertex_graph_of(w);
        assert_non_null(g);
        char why[256] = "";
        const int rc = hk_vertex_graph_check(w, g, why, sizeof why);
        print_message("%s: %d particles in %d colours%s%s\n", iterated_scenes[k], hk_world_particles(w).count,
                      g->colours, rc ? ": " : "", why);
        assert_int_equal(rc, 0);
        hk_scene_free(&sc);
    }
}

/* Its sweeps split over the team: the same bits on 1, 2 and 3 threads (3 sweeps a substep, 5 steps). */
static void test_threads_same_bits(void **state)
{
    (void)state;
    iterated_threads_same_bits(HK_VBD, 3, 0, 5);
}

/* iterations applies (default 10); over ranks refused by name. */
static void test_settings(void **state)
{
    (void)state;
    assert_int_equal(hk_integrator_info_of(HK_VBD)->iterated, 10);
    iterated_refused_over_ranks(HK_VBD);
}

/* One step of vbd at `sweeps` sweeps accelerated by rho (0: not) from the state one_step starts its step from,
 * into x; the largest distance from xe, the converged backward Euler step. */
static double accelerated_step(world_maker make, int sweeps, double rho, const double *xe, double *x)
{
    double dt;
    hk_world *w = make(&dt);
    set(w, HK_IMPLICIT_EULER, dt, 0, 1e-6);
    for (int s = 0; s < 20; s++) assert_int_equal(hk_world_step(w), HK_OK);
    hk_integrator_def d = hk_world_integrator(w);
    d.kind = HK_VBD;
    d.iterations = sweeps;
    d.newton_tolerance = 0;
    d.chebyshev_rho = rho;
    assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
    assert_int_equal(hk_world_step(w), HK_OK);
    const int n = hk_world_particles(w).count;
    positions(w, x);
    hk_world_destroy(w);
    double err = 0;
    for (int k = 0; k < 3 * n; k++) err = fmax(err, fabs(x[k] - xe[k]));
    return err;
}

/* The stiff cloth at a step ten times longer (k h^2 / m = 1.2e4): the plain sweeps converge slowly there. */
static hk_world *cloth_long(double *dt)
{
    hk_world *w = cloth(dt);
    *dt = 2e-3;
    return w;
}

/* The paper's acceleration (chebyshev_rho, vbd.c) at 300 sweeps of one step: on the long-step cloth and the tilted
 * strand rho = 0.95 comes closer to the converged backward Euler step than the plain sweeps, to 0.63 and 0.47 of
 * their distance (float; 0.63 and 0.59 in double); on the stiffness-ratio strand, whose sweeps hardly converge, rho =
 * 0.99 is past their spectral radius and the extrapolation runs away (1.2e5 m off a step of 0.047 m; 4.1e5 m in
 * double): why it is off unless asked for. */
static void test_acceleration(void **state)
{
    (void)state;
    const struct {
        const char *name;
        world_maker make;
        double rho, most; /* the accelerated distance at most this part of the plain one (0: runs away) */
    } cases[] = {{"long-step cloth", cloth_long, 0.95, 0.8},
                 {"tilted strand", strand_tilted, 0.95, 0.7},
                 {"stiffness ratio", stiffness_ratio, 0.99, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double dt;
        hk_world *w = cases[c].make(&dt);
        const int n = hk_world_particles(w).count;
        hk_world_destroy(w);
        double *x0 = malloc(sizeof(double) * 3 * n), *xe = malloc(sizeof(double) * 3 * n),
               *x = malloc(sizeof(double) * 3 * n);
        one_step(HK_VBD, cases[c].make, 20, 0, x0, xe);
        double moved = 0;
        for (int k = 0; k < 3 * n; k++) moved = fmax(moved, fabs(xe[k] - x0[k]));
        const double plain = accelerated_step(cases[c].make, 300, 0, xe, x);
        const double fast = accelerated_step(cases[c].make, 300, cases[c].rho, xe, x);
        print_message("%s, 300 sweeps: %.3g m off backward Euler's step (which moved %.3g m), %.3g m with rho %.2f\n",
                      cases[c].name, plain, moved, fast, cases[c].rho);
        if (cases[c].most > 0)
            assert_true(fast <= cases[c].most * plain);
        else
            assert_true(!(fast < 10 * moved));
        free(x0), free(x), free(xe);
    }
}

/* The accelerated sweeps split over the team: the same bits on 1, 2 and 3 threads (a 96 x 96 cloth, 5 steps of 4
 * sweeps at rho 0.9); and the setting is vbd's alone, in (0, 1). */
static void test_acceleration_threads_and_settings(void **state)
{
    (void)state;
    iterated_threads_same_bits(HK_VBD, 4, 0.9, 5);
    hk_world *w = hk_test_empty_world();
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_VBD;
    d.chebyshev_rho = 1;
    assert_int_not_equal(hk_world_set_integrator(w, &d), HK_OK);
    assert_non_null(strstr(hk_world_error(w), "chebyshev_rho must be in (0, 1), or 0 for none (got 1)"));
    d.chebyshev_rho = 0.5;
    d.kind = HK_XPBD;
    assert_int_not_equal(hk_world_set_integrator(w, &d), HK_OK);
    assert_non_null(strstr(hk_world_error(w), "chebyshev_rho is the accelerated integrators' (vbd); xpbd has no "
                                              "acceleration"));
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_converges_to_backward_euler),
        cmocka_unit_test(test_oscillator_recursion),
        cmocka_unit_test(test_colours),
        cmocka_unit_test(test_threads_same_bits),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_acceleration),
        cmocka_unit_test(test_acceleration_threads_and_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
