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
    iterated_threads_same_bits(HK_VBD, 3, 5);
}

/* iterations applies (default 10); over ranks refused by name. */
static void test_settings(void **state)
{
    (void)state;
    assert_int_equal(hk_integrator_info_of(HK_VBD)->iterated, 10);
    iterated_refused_over_ranks(HK_VBD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_converges_to_backward_euler),
        cmocka_unit_test(test_oscillator_recursion),
        cmocka_unit_test(test_colours),
        cmocka_unit_test(test_threads_same_bits),
        cmocka_unit_test(test_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
