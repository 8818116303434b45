/* test_bdf2.c — BDF2 against closed forms: the oscillator's recursion step by step, its stiff decay, its history. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_osc.h"

/* The scheme's recursion on x'' = -w^2 x, in double: the first step backward
 * Euler's, x1 = x0 + h v1, v1 = v0 - h w^2 x1; then with xb = (4 x_n -
 * x_{n-1}) / 3, vb = (4 v_n - v_{n-1}) / 3 and hb = 2 h / 3,
 * x = xb + hb v, v = vb - hb w^2 x, so x = (xb + hb vb) / (1 + (hb w)^2). */
static void recursion(double h, int steps, double *x, double *v)
{
    x[0] = 1, v[0] = 0;
    const double w2 = OSC_W * OSC_W;
    x[1] = (x[0] + h * v[0]) / (1 + h * h * w2);
    v[1] = (x[1] - x[0]) / h;
    const double hb = 2 * h / 3;
    for (int n = 1; n < steps; n++) {
        const double xb = (4 * x[n] - x[n - 1]) / 3, vb = (4 * v[n] - v[n - 1]) / 3;
        x[n + 1] = (xb + hb * vb) / (1 + hb * hb * w2);
        v[n + 1] = (x[n + 1] - xb) / hb;
    }
}

/* Every step's position, velocity and energy on the recursion's, from w h =
 * 0.06 (resolved) to w h = 63 (ten steps a period would need 0.6), to
 * 2e-6 of the amplitude (float positions: 1.2e-7 of the spring's 3 m,
 * rounding that the scheme damps, not grows). The energy after 60 steps
 * is the recursion's: at w h = 0.06 most of it kept (BDF2's damping is
 * of third order in w h), at w h = 6.3 and 63 all but nothing (L-stable:
 * the stiff modes die within a few steps, as the trapezoidal rule's never
 * do). */
static void test_oscillator_recursion(void **state)
{
    (void)state;
    const double wh[] = {0.06, 0.3, 1.26, 6.3, 63};
    enum { STEPS = 60 };
    for (size_t i = 0; i < sizeof wh / sizeof wh[0]; i++) {
        const double h = wh[i] / OSC_W;
        double x[STEPS + 1], v[STEPS + 1];
        recursion(h, STEPS, x, v);
        hk_world *w = hk_test_oscillator(HK_BDF2, h);
        double worst = 0;
        for (int n = 1; n <= STEPS; n++) {
            assert_int_equal(hk_world_step(w), HK_OK);
            const double gx = hk_world_position(w, 1).x, gv = hk_world_particles(w).vx[1];
            const double e = fmax(fabs(gx - x[n]), fabs(gv - v[n]) / OSC_W);
            if (e > worst) worst = e;
        }
        const double gx = hk_world_position(w, 1).x, gv = hk_world_particles(w).vx[1];
        const double energy = 0.5 * (gv * gv / (OSC_W * OSC_W) + gx * gx) / 0.5; /* of the start's */
        const double want = 0.5 * (v[STEPS] * v[STEPS] / (OSC_W * OSC_W) + x[STEPS] * x[STEPS]) / 0.5;
        print_message("w h = %g: worst state error %.3g of the amplitude; energy after %d steps %.6g of the "
                      "start (recursion %.6g)\n",
                      wh[i], worst, STEPS, energy, want);
        assert_true(worst < 2e-6);
        assert_true(fabs(energy - want) < 4e-6);
        hk_world_destroy(w);
    }
    /* the closed forms the recursion is held to: little damping where resolved, none of the energy left where not */
    double x[STEPS + 1], v[STEPS + 1];
    recursion(0.06 / OSC_W, STEPS, x, v);
    assert_true(x[STEPS] * x[STEPS] + v[STEPS] * v[STEPS] / (OSC_W * OSC_W) > 0.99);
    recursion(63 / OSC_W, STEPS, x, v);
    assert_true(x[STEPS] * x[STEPS] + v[STEPS] * v[STEPS] / (OSC_W * OSC_W) < 1e-12);
}

/* The history is the substep's: with substeps (dt_max) the run is the
 * recursion at the substep, and a new integrator setting starts it again
 * with a backward Euler step. */
static void test_substeps_and_restart(void **state)
{
    (void)state;
    const double h = 0.3 / OSC_W;
    enum { STEPS = 40 };
    double x[2 * STEPS + 1], v[2 * STEPS + 1];
    recursion(h, 2 * STEPS, x, v);
    hk_world *w = hk_test_oscillator(HK_BDF2, 2 * h);
    hk_integrator_def d = hk_world_integrator(w);
    d.dt_max = h;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    assert_int_equal(hk_world_substeps(w), 2);
    for (int n = 1; n <= STEPS; n++) {
        hk_world_step(w);
        assert_true(fabs(hk_world_position(w, 1).x - x[2 * n]) < 2e-6);
    }
    /* set again: the recursion starts over from the state it is in */
    const double x0 = hk_world_position(w, 1).x, v0 = hk_world_particles(w).vx[1];
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    hk_world_step(w); /* two substeps: backward Euler's, then BDF2's */
    const double w2 = OSC_W * OSC_W, x1 = (x0 + h * v0) / (1 + h * h * w2);
    const double v1 = (x1 - x0) / h, hb = 2 * h / 3;
    const double xb = (4 * x1 - x0) / 3, vb = (4 * v1 - v0) / 3, x2 = (xb + hb * vb) / (1 + hb * hb * w2);
    print_message("after a new setting: x %.9g, backward Euler then BDF2 %.9g\n", hk_world_position(w, 1).x, x2);
    assert_true(fabs(hk_world_position(w, 1).x - x2) < 2e-6);
    hk_world_destroy(w);
}

/* The settings it has: newton_iterations (the linearised step's count) is
 * refused by name; newton_tolerance is taken. */
static void test_settings(void **state)
{
    (void)state;
    hk_world *w = hk_test_oscillator(HK_BDF2, 0.01);
    hk_integrator_def d = hk_world_integrator(w);
    d.newton_iterations = 2;
    assert_int_not_equal(hk_world_set_integrator(w, &d), 0);
    assert_non_null(strstr(hk_world_error(w), "bdf2"));
    d.newton_iterations = 0;
    d.newton_tolerance = 1e-4;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    const hk_integrator_info *in = hk_integrator_info_of(HK_BDF2);
    assert_true(in->implicit && in->minimised && !in->linearised && in->keeps_history && !in->device);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oscillator_recursion),
        cmocka_unit_test(test_substeps_and_restart),
        cmocka_unit_test(test_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
