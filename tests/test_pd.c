/* test_pd.c — projective dynamics against closed forms and against backward Euler: its fixed point, its refusals. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_iterate.h"

/* The cloth of hk_test_iterate.h with springs a hundred times softer (k = 600 N/m, relative damping 0.02 N s/m):
 * k h^2 / m = 1.2 at its 2e-4 s. */
static hk_world *soft_cloth(double *dt)
{
    hk_world_def def = hk_default_world_def();
    def.ground.model = HK_GROUND_NONE;
    def.has_walls = 0;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_test_add_cloth_k(w, 12, 12, 600);
    *dt = 2e-4;
    return w;
}

/* At a fixed point of its local/global iterations a projective dynamics substep is backward Euler's (pd.c): from one
 * state, its step comes closer to the converged backward Euler step as the iterations grow, fast where the springs
 * are soft against their masses over the step (the stiff cloth at k h^2 / m = 1.2: within a thousandth of the
 * step's motion by 100; its springs as soft as the cloth's are in a frame's step of a cloth demo). Where they are stiff
 * the paper's caveat holds, measured: the constant matrix takes every spring as stiff across itself as along it, so a
 * swing across the springs is corrected by m / (h^2 k) of itself an iteration (the tilted strand: 3.6e-5 for its light
 * particles), and 1000 iterations leave its step more than half a percent of its motion away (the cloth at k h^2 / m =
 * 120, the tilted strand, the stiffness-ratio strand). */
static void test_converges_to_backward_euler(void **state)
{
    (void)state;
    const struct {
        const char *name;
        world_maker make;
        int iterations; /* by this many, */
        double left;    /* at most this part of the step's motion (0: more than half a percent of it) */
    } cases[] = {{"cloth at k h^2 / m = 1.2", soft_cloth, 100, 1e-3},
                 {"cloth at k h^2 / m = 120", cloth, 1000, 0},
                 {"tilted strand", strand_tilted, 1000, 0},
                 {"stiffness ratio", stiffness_ratio, 1000, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        double first, moved;
        const double at = iterated_converges(HK_PROJECTIVE_DYNAMICS, cases[k].name, cases[k].make, cases[k].iterations,
                                             &first, &moved);
        assert_true(at < first);
        if (cases[k].left > 0)
            assert_true(at <= cases[k].left * moved);
        else
            assert_true(at > 5e-3 * moved);
    }
}

/* One spring to a pinned anchor, along it: the local step's rest point lies on the line the spring keeps, so one
 * local/global iteration is backward Euler's step, and at its default iterations projective dynamics is backward
 * Euler's recursion to the global solve's tolerance. */
static void test_oscillator_recursion(void **state)
{
    (void)state;
    const double wh[] = {0.06, 0.6, 6.3, 63}, zeta[] = {0, 0.1};
    for (size_t z = 0; z < 2; z++)
        for (size_t i = 0; i < sizeof wh / sizeof *wh; i++)
            assert_true(iterated_oscillator(HK_PROJECTIVE_DYNAMICS, wh[i], zeta[z]) < 2e-5);
}

/* Its passes on the team, its dot products in fixed blocks: the same bits on 1, 2 and 3 threads (3 iterations a
 * substep, 3 steps). */
static void test_threads_same_bits(void **state)
{
    (void)state;
    iterated_threads_same_bits(HK_PROJECTIVE_DYNAMICS, 3, 0, 3);
}

/* iterations applies (default 10), local_global is its alias; over ranks refused by name. */
static void test_settings(void **state)
{
    (void)state;
    assert_int_equal(hk_integrator_info_of(HK_PROJECTIVE_DYNAMICS)->iterated, 10);
    assert_int_equal(hk_integrator_from_name("local_global"), HK_PROJECTIVE_DYNAMICS);
    iterated_refused_over_ranks(HK_PROJECTIVE_DYNAMICS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_converges_to_backward_euler),
        cmocka_unit_test(test_oscillator_recursion),
        cmocka_unit_test(test_threads_same_bits),
        cmocka_unit_test(test_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
