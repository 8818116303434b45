/* test_rope.c — hanging rope: static stretch = weight below / k; internal forces sum to zero (momentum). */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

/* The rope tutorial's parameters. */
#define ROPE_N 80
#define ROPE_M 0.05    /* [kg] per mass */
#define ROPE_K 10000.0 /* [N/m] */
#define ROPE_L0 0.05   /* [m] */
#define ROPE_C 0.2     /* spring friction [N s/m], relative-velocity model */
#define ROPE_AIR 0.02  /* [N s/m] */
#define ROPE_G 9.81    /* [m/s^2] */
#define ROPE_DT 0.002  /* [s] */
#define ROPE_TOP_Y 2.0 /* anchor height [m]: the rope spans y = 2 .. -2.2, near 0 where floats are finest */

/* Hangs the rope vertically from its driven (static) first mass, starting at
 * rest length, and lets it settle for `seconds`. */
static hk_world *hanging_rope(double seconds)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -ROPE_G, 0};
    def.air_drag = ROPE_AIR;
    def.ground.model = HK_GROUND_NONE;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_rope_def r = hk_default_rope_def();
    r.count = ROPE_N;
    r.mass = ROPE_M;
    r.spacing = ROPE_L0;
    r.origin = (hk_vec3){0, ROPE_TOP_Y, 0};
    r.direction = (hk_vec3){0, -1, 0};
    r.topology = HK_ROPE_CHAIN;
    r.springs.k = ROPE_K;
    r.springs.damping = ROPE_C;
    r.springs.damping_model = HK_DAMP_RELATIVE;
    r.springs.rest_length = ROPE_L0;
    r.anchor = 1;
    r.anchor_velocity = (hk_vec3){0, 0, 0};
    assert_int_equal(hk_world_add_rope(w, &r), 0);
    assert_int_equal(hk_world_spring_count(w), ROPE_N - 1);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, ROPE_DT);
    const long steps = lround(seconds / ROPE_DT);
    for (long s = 0; s < steps; s++) hk_world_step(w);
    return w;
}

static void test_hanging_rope_static_stretch(void **state)
{
    (void)state;
    /* Settling: air drag damps every mode at rate c_air / (2 m) = 0.2 /s (the
     * spring friction only adds to it), so after 60 s the initial motion
     * (peak speeds ~1.4 m/s; the top spring starts 100 % off its static
     * stretch) is down to e^-12 = 6e-6 of itself. */
    hk_world *w = hanging_rope(60.0);
    hk_particles_view v = hk_world_particles(w);
    assert_int_equal(v.count, ROPE_N);
    /* the driven first mass has not moved */
    assert_true(hk_world_position(w, 0).x == 0 && hk_world_position(w, 0).y == (hk_real)ROPE_TOP_Y &&
                hk_world_position(w, 0).z == 0);
    assert_true(v.inv_mass[0] == 0);

    /* Spring n (particles n-1, n) holds the ROPE_N - n masses below it:
     * static stretch (ROPE_N - n) m g / k. The top one carries 79 masses,
     * 38.75 N, and stretches 3.875 mm (the tutorial: "about 4 mm"). */
    const double top_expect = (ROPE_N - 1) * ROPE_M * ROPE_G / ROPE_K;
    const double top = ((double)hk_world_position(w, 0).y - hk_world_position(w, 1).y) - ROPE_L0;
    print_message("top spring stretch %.6e m, (N-1) m g / k = %.6e m (%+.3f %%)\n", top, top_expect,
                  100 * (top / top_expect - 1));
    /* 1 % (the brief asks for 5 %): what is left of the settling motion is
     * 6e-6 of the stretch and the float resolution of the stretch (2 ulp of
     * y ~ 2 m = 5e-7 m) is 0.013 % of 3.9 mm. */
    assert_near(top, top_expect, 0.01 * top_expect);

    double worst = 0;
    for (int n = 1; n < ROPE_N; n++) {
        const double expect = (ROPE_N - n) * ROPE_M * ROPE_G / ROPE_K;
        const double stretch = ((double)hk_world_position(w, n - 1).y - hk_world_position(w, n).y) - ROPE_L0;
        /* 1 % of the expected stretch (as for the top spring; the brief
         * asks for 5 %) plus the resolution of the stretch itself: two
         * positions of magnitude <= 2.2 m, each rounded to half an ulp, and
         * the float rest length 0.05 (error < 2e-9 m): 2 ulp(2.2) = 4.8e-7 m
         * in float, i.e. 1 % of the bottom spring's 4.9e-5 m. */
        const double tol = 0.01 * expect + 2 * 2.2 * HK_EPS;
        assert_near(stretch, expect, tol);
        /* and the rope hangs straight down */
        assert_true(hk_world_position(w, n).x == 0 && hk_world_position(w, n).z == 0);
        double rel = fabs(stretch / expect - 1);
        if (rel > worst) worst = rel;
    }
    print_message("largest relative stretch error over the 79 springs: %.3f %%\n", 100 * worst);

    /* At rest: 1.4 m/s decayed by e^-12 is 1e-5 m/s. In float the rope
     * cannot come closer to rest than the force quantisation allows: a
     * position rounded by ulp(2.2 m) changes a spring force by k ulp, which
     * kicks the velocity by k ulp h / m per step (1e-4 m/s); allow 10 such
     * kicks (measured 4.5e-4 m/s in float, 5e-6 m/s in double). */
    const double vtol = 1e-5 + 10 * ROPE_K * (2.2 * HK_EPS) * ROPE_DT / ROPE_M;
    double vmax = 0;
    for (int n = 0; n < ROPE_N; n++)
        if (fabs((double)v.vy[n]) > vmax) vmax = fabs((double)v.vy[n]);
    print_message("largest speed %.3e m/s\n", vmax);
    assert_le(vmax, vtol);
    hk_world_destroy(w);
}

/* ---- internal forces: momentum ---------------------------------------- */

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* uniform in [-1, 1) */
static double rnd(uint32_t *s) { return lcg(s) / (double)(1u << 23) - 1.0; }

/* Random velocities of scale `speed` plus a common drift, so the total
 * momentum is non-zero and every spring is loaded from the first step. */
static void randomise_velocities(hk_world *w, double speed, uint32_t seed)
{
    hk_particles_view v = hk_world_particles(w);
    hk_real *vx = hk_test_mut(v.vx), *vy = hk_test_mut(v.vy), *vz = hk_test_mut(v.vz);
    for (int i = 0; i < v.count; i++) {
        vx[i] = (hk_real)(speed * (rnd(&seed) + 0.3));
        vy[i] = (hk_real)(speed * (rnd(&seed) - 0.2));
        vz[i] = (hk_real)(speed * (rnd(&seed) + 0.1));
    }
}

/* Steps a free body (no gravity, drag, ground or pins) with velocity Verlet
 * and checks after every step that (a) the total momentum is unchanged and
 * (b) the forces of the last evaluation (springs only) sum to ~0. */
static void check_momentum(hk_world *w, const char *what, int steps, double h)
{
    hk_test_integrator(w, HK_VELOCITY_VERLET, h);
    double p0[3], scale0;
    hk_test_momentum(w, p0, &scale0);
    assert_true(fabs(p0[0]) > 0.1 * scale0); /* non-trivial momentum to conserve */
    double worst_p = 0, worst_f = 0, scale_max = scale0;
    for (int s = 1; s <= steps; s++) {
        hk_world_step(w);
        double p[3], scale;
        hk_test_momentum(w, p, &scale);
        if (scale > scale_max) scale_max = scale;
        double dp =
            sqrt((p[0] - p0[0]) * (p[0] - p0[0]) + (p[1] - p0[1]) * (p[1] - p0[1]) + (p[2] - p0[2]) * (p[2] - p0[2]));
        /* Each step applies two half kicks v += f h / 2m; each rounds every
         * velocity component by <= eps/2 |v|, i.e. changes the momentum by
         * <= eps/2 sum m|v| per component per kick, and spring forces cancel
         * pairwise (the kernel adds the same value to i and subtracts it from
         * j). Worst case, linear in the steps: 2 * s * eps * sqrt(3) * sum m|v|.
         * A missing reaction force would change p by ~h sum|f| per step,
         * about 1e-3 of sum m|v| here, i.e. 50x the bound within 10 steps. */
        double tol = 2 * s * HK_EPS * sqrt(3.0) * scale_max;
        if (dp / tol > worst_p) worst_p = dp / tol;
        if (!(dp <= tol)) {
            print_error("%s: step %d: |p - p0| = %.3e > %.3e (|p0| ~ %.3e)\n", what, s, dp, tol, fabs(p0[0]));
            fail();
        }

        hk_particles_view v = hk_world_particles(w);
        double sf[3] = {0, 0, 0}, af = 0;
        for (int i = 0; i < v.count; i++) {
            sf[0] += v.fx[i];
            sf[1] += v.fy[i];
            sf[2] += v.fz[i];
            af += fabs((double)v.fx[i]) + fabs((double)v.fy[i]) + fabs((double)v.fz[i]);
        }
        assert_true(af > 0);
        double rel = sqrt(sf[0] * sf[0] + sf[1] * sf[1] + sf[2] * sf[2]) / af;
        if (rel > worst_f) worst_f = rel;
        /* Each particle's force is a sum of <= 52 (jelly) / ~44 (cloth with
         * radius springs) / 23 (all-to-all rope) spring terms, each addition
         * rounded by <= eps/2 of the running sum; with the random loading here
         * the running sums are of the order of |f_i|, so the total imbalance is
         * a few tens of eps of sum|f_i|. 100 eps bounds it; a force applied to
         * one end only gives a ratio of order 0.1-1. */
        if (!(rel <= 100 * HK_EPS)) {
            print_error("%s: step %d: |sum f| / sum |f| = %.3e > %.3e\n", what, s, rel, 100 * HK_EPS);
            fail();
        }
    }
    print_message("%-22s %d steps: max |dp| / bound = %.3f, max |sum f| / sum|f| = %.2e (%.1f eps)\n", what, steps,
                  worst_p, worst_f, worst_f / HK_EPS);
}

static hk_spring_params soft_springs(void)
{
    hk_spring_params s = hk_default_spring_params();
    s.k = 100.0;
    s.damping = 0.01;
    s.damping_model = HK_DAMP_ALONG;
    return s;
}

/* Stability of the runs below: m = 0.01 kg, k = 100 N/m, so one spring has
 * w = 100 rad/s; with up to 52 springs a particle's highest mode is below
 * ~1500 rad/s, and h = 2e-4 s keeps w h < 0.3 (velocity Verlet needs < 2).
 * Speeds of 0.2 m/s over 0.1 s move particles ~0.02 m, a fifth of the spacing. */

static void test_momentum_free_jelly(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_jelly_def j = hk_default_jelly_def();
    j.nx = 6;
    j.ny = 5;
    j.nz = 4;
    j.spacing = 0.1;
    j.mass = 0.01;
    j.neighbours = 52;
    for (int c = 0; c < HK_JELLY_CLASSES; c++) j.springs[c] = soft_springs();
    assert_int_equal(hk_world_add_jelly(w, &j), 0);
    randomise_velocities(w, 0.2, 12345u);
    check_momentum(w, "jelly 6x5x4 (52)", 500, 2e-4);
    hk_world_destroy(w);
}

static void test_momentum_free_cloth(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = 12;
    c.ny = 10;
    c.spacing = 0.1;
    c.mass = 0.01;
    c.structural_springs = c.shear_springs = c.bend_springs = c.radius_springs = soft_springs();
    c.radius = 0.23; /* adds the (2,+-1), (1,+-2) families */
    c.pins = HK_PIN_NONE;
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    randomise_velocities(w, 0.2, 777u);
    check_momentum(w, "cloth 12x10 + radius", 500, 2e-4);
    hk_world_destroy(w);
}

static void test_momentum_all_to_all_rope(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_rope_def r = hk_default_rope_def();
    r.count = 24;
    r.mass = 0.01;
    r.spacing = 0.1;
    r.topology = HK_ROPE_ALL_TO_ALL;
    r.springs = soft_springs();
    r.anchor = 0;
    assert_int_equal(hk_world_add_rope(w, &r), 0);
    assert_int_equal(hk_world_spring_count(w), 24 * 23 / 2);
    randomise_velocities(w, 0.2, 4242u);
    check_momentum(w, "rope all_to_all 24", 500, 2e-4);
    hk_world_destroy(w);
}

/* The view's forces are "the force of the last evaluation" (hooke.h). For a
 * free body under gravity without drag or ground, whatever the state, the
 * spring forces cancel and the forces sum to exactly M g. Checked after steps
 * of every integrator, on a cloth and a jelly (lattice bodies, which the
 * engine may sweep in a fused force-and-update pass) and an all-to-all rope
 * (a list family). */
static void test_force_sum_is_total_weight(void **state)
{
    (void)state;
    for (int kind = 0; kind < HK_INTEGRATOR_COUNT; kind++)
        for (int body = 0; body < 3; body++) {
            hk_world_def def = hk_default_world_def();
            def.gravity = (hk_vec3){0, -9.81, 0};
            hk_world *w = hk_world_create(&def);
            assert_non_null(w);
            if (body == 0) {
                hk_cloth_def c = hk_default_cloth_def();
                c.nx = 12;
                c.ny = 10;
                c.spacing = 0.1;
                c.mass = 0.01;
                c.structural_springs = c.shear_springs = c.bend_springs = soft_springs();
                assert_int_equal(hk_world_add_cloth(w, &c), 0);
            } else if (body == 1) {
                hk_jelly_def j = hk_default_jelly_def();
                j.nx = 5;
                j.ny = 4;
                j.nz = 3;
                j.spacing = 0.1;
                j.mass = 0.01;
                j.neighbours = 52;
                for (int c = 0; c < HK_JELLY_CLASSES; c++) j.springs[c] = soft_springs();
                assert_int_equal(hk_world_add_jelly(w, &j), 0);
            } else {
                hk_rope_def r = hk_default_rope_def();
                r.count = 12;
                r.mass = 0.01;
                r.spacing = 0.1;
                r.topology = HK_ROPE_ALL_TO_ALL;
                r.springs = soft_springs();
                assert_int_equal(hk_world_add_rope(w, &r), 0);
            }
            randomise_velocities(w, 0.2, 99u + (uint32_t)body);
            hk_test_integrator(w, (hk_integrator_kind)kind, 2e-4);
            for (int s = 0; s < 3; s++) hk_world_step(w);
            hk_particles_view v = hk_world_particles(w);
            double sf[3] = {0, 0, 0}, af = 0, mass = 0;
            for (int i = 0; i < v.count; i++) {
                sf[0] += v.fx[i];
                sf[1] += v.fy[i];
                sf[2] += v.fz[i];
                af += fabs((double)v.fx[i]) + fabs((double)v.fy[i]) + fabs((double)v.fz[i]);
                mass += v.mass[i];
            }
            /* tolerance: the rounding of the per-particle sums as in
             * check_momentum (100 eps of sum |f|), plus the rounding of
             * m g per particle (eps of M g) */
            const double tol = 100 * HK_EPS * af + HK_EPS * mass * 9.81;
            if (!(fabs(sf[1] + mass * 9.81) <= tol && fabs(sf[0]) <= tol && fabs(sf[2]) <= tol)) {
                print_error("%s on body %d: sum f = (%.6g, %.6g, %.6g), expected (0, %.6g, 0)\n",
                            hk_integrator_name((hk_integrator_kind)kind), body, sf[0], sf[1], sf[2], -mass * 9.81);
                fail();
            }
            hk_world_destroy(w);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hanging_rope_static_stretch), cmocka_unit_test(test_momentum_free_jelly),
        cmocka_unit_test(test_momentum_free_cloth),         cmocka_unit_test(test_momentum_all_to_all_rope),
        cmocka_unit_test(test_force_sum_is_total_weight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
