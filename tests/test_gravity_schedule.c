/* test_gravity_schedule.c — gravity that changes in time: a free particle's velocity against the schedule's integral.
 */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include <math.h>
#include <string.h>

#include "world.h"

/* One free particle under g(t) = (0, -10 t, 0) for t in [0, 1] (a ramp from the world's 0), then +10 at once (two
 * keyframes at t = 1), held: each substep takes g at its start, so after n steps of h the velocity is the left
 * Riemann sum, v(1) = -10 h^2 (0 + 1 + ... + (N - 1)) = -5 (1 - h), and v(2) = v(1) + 10. */
static void test_a_ramp_and_a_jump(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    const hk_vec3 p = {0, 0, 0};
    const double m = 1;
    assert_true(hk_world_add_points(w, 1, &p, NULL, &m) >= 0);
    const double t[] = {1, 1};
    const hk_vec3 g[] = {{0, -10, 0}, {0, 10, 0}};
    assert_int_equal(hk_world_set_gravity_schedule(w, 2, t, g), HK_OK);
    assert_int_equal(hk_world_gravity_schedule(w), 2);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_SEMI_IMPLICIT_EULER;
    const int N = 64;
    d.dt = 1.0 / N;
    assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
    for (int s = 0; s < N; s++) assert_int_equal(hk_world_step(w), HK_OK);
    const double v1 = w->p.vy[0], h = d.dt;
    assert_true(fabs(v1 - -5 * (1 - h)) < 1e-5);
    for (int s = 0; s < N; s++) assert_int_equal(hk_world_step(w), HK_OK);
    assert_true(fabs(w->p.vy[0] - (v1 + 10)) < 1e-5);
    /* cleared: the gravity before the schedule (0) again, the velocity held */
    assert_int_equal(hk_world_set_gravity_schedule(w, 0, NULL, NULL), HK_OK);
    const double v2 = w->p.vy[0];
    for (int s = 0; s < N; s++) assert_int_equal(hk_world_step(w), HK_OK);
    assert_true(fabs(w->p.vy[0] - v2) < 1e-6);
    hk_world_destroy(w);
}

/* Keyframes that are not keyframes are refused, naming which, and leave the world as it was. */
static void test_refusals(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    const hk_vec3 g[] = {{0, -1, 0}, {0, 1, 0}};
    const double back[] = {2, 1}, negative[] = {-1, 0}, nan_time[] = {NAN, 1};
    assert_int_equal(hk_world_set_gravity_schedule(w, 2, back, g), HK_ERR_INVALID);
    assert_non_null(strstr(hk_world_error(w), "is before time 0"));
    assert_int_equal(hk_world_set_gravity_schedule(w, 2, negative, g), HK_ERR_INVALID);
    assert_int_equal(hk_world_set_gravity_schedule(w, 2, nan_time, g), HK_ERR_INVALID);
    const hk_vec3 bad[] = {{0, NAN, 0}, {0, 1, 0}};
    const double ok[] = {1, 2};
    assert_int_equal(hk_world_set_gravity_schedule(w, 2, ok, bad), HK_ERR_INVALID);
    assert_int_equal(hk_world_gravity_schedule(w), 0);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_a_ramp_and_a_jump), cmocka_unit_test(test_refusals)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
