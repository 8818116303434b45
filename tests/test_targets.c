/* test_targets.c — kinematic targets: at each target, the springs see their velocity, release, refusals. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include <string.h>

#include "world.h"

/* An empty world under gravity, no air drag, no ground or walls. */
static hk_world *under_gravity(void)
{
    const hk_world_def def = hk_test_world_def((hk_vec3){0, -9.81, 0});
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    return w;
}

/* A rope of 8 particles 0.1 m apart along x, 10 g each, k 50 N/m, damping 0.02 N*s/m on the relative velocity, under
 * gravity; its first particle pinned (or driven, `anchor`, at velocity u [m/s]). */
static hk_world *rope(int anchor, hk_vec3 u)
{
    hk_world *w = under_gravity();
    hk_rope_def r = hk_default_rope_def();
    r.count = 8;
    r.mass = 0.01;
    r.spacing = 0.1;
    r.origin = (hk_vec3){0.2, 1.0, -0.1};
    r.direction = (hk_vec3){1, 0, 0};
    r.springs.k = 50;
    r.springs.damping = 0.02;
    r.springs.damping_model = HK_DAMP_RELATIVE;
    r.anchor = anchor;
    r.anchor_velocity = u;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    if (!anchor) assert_int_equal(hk_world_pin(w, 0, 0), HK_OK);
    return w;
}

static double dist(hk_vec3 a, const double b[3])
{
    return sqrt((a.x - b[0]) * (a.x - b[0]) + (a.y - b[1]) * (a.y - b[1]) + (a.z - b[2]) * (a.z - b[2]));
}

/* Under every integrator, with 1 and 3 substeps a step: particle 0 driven round a circle ends each step at its target
 * (to the rounding of its coordinates) with the velocity of the step's line, and the rope follows without blowing
 * up. */
static void test_each_step_ends_at_its_target(void **state)
{
    (void)state;
    const double dt = 1e-3, R = 0.05, omega = 8;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++)
        for (int sub = 1; sub <= 3; sub += 2) {
            hk_world *w = rope(0, (hk_vec3){0, 0, 0});
            hk_integrator_def d = hk_default_integrator_def();
            d.kind = (hk_integrator_kind)k;
            d.dt = dt;
            d.dt_max = dt / sub;
            d.jelly_alpha = 1.0;
            assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
            const hk_vec3 c0 = hk_world_position(w, 0);
            double before[3] = {c0.x, c0.y, c0.z}, worst = 0, worst_v = 0;
            const int p0 = 0;
            for (int s = 1; s <= 200; s++) {
                const double t[3] = {c0.x + R * sin(omega * s * dt), c0.y + R * (1 - cos(omega * s * dt)), c0.z};
                assert_int_equal(hk_world_set_targets(w, 1, &p0, t), HK_OK);
                assert_int_equal(hk_world_step(w), HK_OK);
                worst = fmax(worst, dist(hk_world_position(w, 0), t));
                const hk_particles_view pv = hk_world_particles(w);
                const double v[3] = {pv.vx[0], pv.vy[0], pv.vz[0]};
                for (int c = 0; c < 3; c++) worst_v = fmax(worst_v, fabs(v[c] - (t[c] - before[c]) / dt));
                memcpy(before, t, sizeof before);
            }
            hk_blowup b;
            if (worst > 1e-6 || worst_v > 1e-3 || hk_world_check(w, 2.0, &b))
                print_error("%s, %d substeps: %g m from the target, %g m/s from the line's velocity\n",
                            hk_integrator_name((hk_integrator_kind)k), sub, worst, worst_v);
            assert_true(worst <= 1e-6);   /* float rounding of a 1 m coordinate is 6e-8 m */
            assert_true(worst_v <= 1e-3); /* of 0.4 m/s: the rounding of positions 1 mm apart over 1 ms */
            assert_false(hk_world_check(w, 2.0, &b));
            hk_world_destroy(w);
        }
}

/* A target moved each step as a driven anchor moves (its place accumulated in double, velocity u) drives the rope
 * as the anchor does: the springs see the same place and the same velocity. */
static void test_as_a_driven_anchor(void **state)
{
    (void)state;
    const hk_vec3 u = {0.3, 0.2, -0.1};
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        hk_world *a = rope(1, u), *t = rope(0, (hk_vec3){0, 0, 0});
        hk_test_integrator(a, (hk_integrator_kind)k, 1e-3);
        hk_test_integrator(t, (hk_integrator_kind)k, 1e-3);
        const hk_vec3 x0 = hk_world_position(t, 0);
        double at[3] = {x0.x, x0.y, x0.z};
        const double vel[3] = {u.x, u.y, u.z};
        const int p0 = 0;
        for (int s = 0; s < 300; s++) {
            for (int c = 0; c < 3; c++) at[c] += vel[c] * 1e-3; /* as forces.c advances an anchor */
            assert_int_equal(hk_world_set_targets(t, 1, &p0, at), HK_OK);
            hk_world_step(a);
            hk_world_step(t);
        }
        double worst = 0;
        for (int i = 0; i < 8; i++) {
            const hk_vec3 y = hk_world_position(a, i);
            worst = fmax(worst, dist(hk_world_position(t, i), (double[3]){y.x, y.y, y.z}));
        }
        if (worst > 1e-5)
            print_error("%s: %g m from the anchor's rope\n", hk_integrator_name((hk_integrator_kind)k), worst);
        assert_true(worst <= 1e-5);
        hk_world_destroy(a);
        hk_world_destroy(t);
    }
}

/* A mass m hanging on a spring (k, damping c on the relative velocity) from a particle driven at constant velocity u:
 * in the driver's frame (an inertial one) it hangs at rest, m g / k below the rest length, and moves at u. The
 * driver is placed where each step ends it before the forces are evaluated (as a driven anchor is), so in the
 * semi-implicit Euler steps that state is the mass one step's motion u dt ahead of the closed form's place: started
 * there it stays there, to rounding. A driver the springs saw at rest would drag it by c u. */
static void test_galilean_closed_form(void **state)
{
    (void)state;
    hk_world *w = under_gravity();
    const double m = 0.2, k = 400, c = 0.5, L0 = 0.3, g = 9.81, u[3] = {0.4, 0.25, -0.3}, dt = 5e-4;
    const double sag = L0 + m * g / k;
    const hk_vec3 pos[2] = {{0, 2, 0}, {u[0] * dt, 2 - sag + u[1] * dt, u[2] * dt}},
                  vel[2] = {{0, 0, 0}, {u[0], u[1], u[2]}};
    const double mass[2] = {m, m};
    const int body = hk_world_add_points(w, 2, pos, vel, mass);
    assert_true(body >= 0);
    hk_spring_params sp = hk_default_spring_params();
    sp.k = k;
    sp.damping = c;
    sp.damping_model = HK_DAMP_RELATIVE;
    sp.rest_length = L0;
    const int a = 0, b = 1;
    assert_true(hk_world_add_springs(w, body, 1, &a, &b, &sp) >= 0);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, dt);
    double at[3] = {0, 2, 0};
    for (int s = 1; s <= 1000; s++) {
        for (int j = 0; j < 3; j++) at[j] = (j == 1 ? 2 : 0) + u[j] * s * dt;
        assert_int_equal(hk_world_set_targets(w, 1, &a, at), HK_OK);
        assert_int_equal(hk_world_step(w), HK_OK);
    }
    const hk_vec3 x = hk_world_position(w, 1);
    const double want[3] = {at[0] + u[0] * dt, at[1] - sag + u[1] * dt, at[2] + u[2] * dt};
    if (dist(x, want) >= 1e-5)
        print_error("(%g, %g, %g) m, closed form (%g, %g, %g) m\n", x.x, x.y, x.z, want[0], want[1], want[2]);
    assert_true(dist(x, want) < 1e-5);
    const hk_particles_view pv = hk_world_particles(w);
    assert_near(pv.vx[1], u[0], 1e-4);
    assert_near(pv.vy[1], u[1], 1e-4);
    assert_near(pv.vz[1], u[2], 1e-4);
    hk_world_destroy(w);
}

/* A target left alone holds its particle, at rest; a release frees it with its last velocity, or pins it again at
 * rest where it was pinned before; the list reads back in order. */
static void test_hold_and_release(void **state)
{
    (void)state;
    hk_world *w = rope(0, (hk_vec3){0, 0, 0});
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    const int p[2] = {0, 5};
    const double t[6] = {0.25, 1.0, -0.1, 0.7, 0.99, -0.1};
    assert_int_equal(hk_world_set_targets(w, 2, p, t), HK_OK);
    assert_int_equal(hk_world_targets(w, NULL, NULL), 2);
    int back[2];
    double tb[6];
    assert_int_equal(hk_world_targets(w, back, tb), 2);
    assert_true(back[0] == 0 && back[1] == 5 && memcmp(tb, t, sizeof t) == 0);
    hk_world_step(w);
    const hk_particles_view pv = hk_world_particles(w);
    assert_true(pv.inv_mass[5] == 0 && pv.mass[5] > 0);
    assert_near(pv.vx[5], (0.7 - 0.7) / 1e-3, 1e-3); /* particle 5 started at x = 0.7 */
    assert_true(fabs(pv.vy[5] - (0.99 - 1.0) / 1e-3) < 1e-2);
    for (int s = 0; s < 20; s++) hk_world_step(w); /* held there, at rest */
    assert_true(dist(hk_world_position(w, 5), t + 3) < 1e-6);
    assert_true(pv.vx[5] == 0 && pv.vy[5] == 0 && pv.vz[5] == 0);
    const double t2[3] = {0.7, 0.985, -0.1};
    assert_int_equal(hk_world_set_targets(w, 1, &p[1], t2), HK_OK);
    hk_world_step(w);
    const double v5 = pv.vy[5];
    assert_true(fabs(v5 - (-0.005 / 1e-3)) < 1e-2);
    assert_int_equal(hk_world_clear_targets(w, 1, &p[1]), HK_OK); /* free, with the velocity it was driven at */
    assert_true(pv.inv_mass[5] == (hk_real)(1.0 / pv.mass[5]) && pv.vy[5] == v5);
    assert_int_equal(hk_world_targets(w, back, NULL), 1);
    assert_int_equal(back[0], 0);
    assert_int_equal(hk_world_clear_targets(w, 0, NULL), HK_OK); /* particle 0 was pinned: pinned again, at rest */
    assert_true(pv.inv_mass[0] == 0 && pv.vx[0] == 0 && pv.vy[0] == 0 && pv.vz[0] == 0);
    assert_int_equal(hk_world_targets(w, NULL, NULL), 0);
    const hk_vec3 x0 = hk_world_position(w, 0);
    for (int s = 0; s < 10; s++) hk_world_step(w);
    assert_true(dist(hk_world_position(w, 0), (double[3]){x0.x, x0.y, x0.z}) == 0);
    hk_world_destroy(w);
}

/* Refusals name the call and the particle, and set nothing. */
static void test_refused_before_set(void **state)
{
    (void)state;
    hk_world *w = rope(1, (hk_vec3){0.1, 0, 0}); /* particle 0 is the body's driven anchor */
    const double t[9] = {0.5, 1, 0, 0.6, 1, 0, 0.7, 1, 0};
    const int out[3] = {2, 3, 8}, twice[3] = {2, 3, 2}, anchor[1] = {0};
    assert_int_equal(hk_world_set_targets(w, 3, out, t), HK_ERR_INVALID);
    assert_string_equal(hk_world_error(w), "set_targets: no particle 8 (the world has 8)");
    assert_int_equal(hk_world_set_targets(w, 3, twice, t), HK_ERR_INVALID);
    assert_string_equal(hk_world_error(w), "set_targets: particle 2 is listed twice");
    assert_int_equal(hk_world_set_targets(w, 1, anchor, t), HK_ERR_INVALID);
    assert_string_equal(hk_world_error(w),
                        "set_targets: particle 0 is body 0's driven anchor, which its anchor velocity moves");
    double bad[9];
    memcpy(bad, t, sizeof bad);
    bad[5] = NAN;
    const int ok[3] = {2, 3, 4};
    assert_int_equal(hk_world_set_targets(w, 3, ok, bad), HK_ERR_INVALID);
    assert_string_equal(hk_world_error(w), "set_targets: target of particle 3 is not finite");
#ifndef HOOKE_DOUBLE /* every finite position fits a double */
    bad[5] = 1e300;
    assert_int_equal(hk_world_set_targets(w, 3, ok, bad), HK_ERR_INVALID);
    assert_non_null(strstr(hk_world_error(w), "of particle 3 is beyond this build's precision"));
#endif
    assert_int_equal(hk_world_targets(w, NULL, NULL), 0);
    for (int i = 2; i <= 4; i++) assert_true(hk_world_particles(w).inv_mass[i] > 0); /* none driven */
    assert_int_equal(hk_world_set_targets(w, 1, ok, t), HK_OK);
    const int none[2] = {2, 3};
    assert_int_equal(hk_world_clear_targets(w, 2, none), HK_ERR_INVALID);
    assert_string_equal(hk_world_error(w), "clear_targets: particle 3 has no target");
    assert_int_equal(hk_world_targets(w, NULL, NULL), 1); /* particle 2 kept its */
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_step_ends_at_its_target), cmocka_unit_test(test_as_a_driven_anchor),
        cmocka_unit_test(test_galilean_closed_form),         cmocka_unit_test(test_hold_and_release),
        cmocka_unit_test(test_refused_before_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
