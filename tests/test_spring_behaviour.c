/* test_spring_behaviour.c — tension-/compression-only, breakable springs, both damping models, by hand. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

/* Two free unit masses joined by one spring of the given parameters, with
 * positions and velocities as given; no gravity, drag or ground. */
static hk_world *two_points(hk_vec3 a, hk_vec3 va, hk_vec3 b, hk_vec3 vb, const hk_spring_params *sp)
{
    hk_world *w = hk_test_empty_world();
    hk_vec3 pos[2] = {a, b}, vel[2] = {va, vb};
    double mass[2] = {1.0, 1.0};
    int body = hk_world_add_points(w, 2, pos, vel, mass);
    assert_int_equal(body, 0);
    static const int ia = 0, ib = 1;
    assert_int_equal(hk_world_add_springs(w, body, 1, &ia, &ib, sp), 0);
    return w;
}

/* Force on particle 0 from one evaluation at the initial state: semi-implicit
 * Euler evaluates F(x0, v0) first, and the view keeps the last evaluation. */
static void force_at_start(hk_world *w, double f[3], double fb[3])
{
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-6);
    hk_world_step(w);
    hk_particles_view v = hk_world_particles(w);
    f[0] = v.fx[0];
    f[1] = v.fy[0];
    f[2] = v.fz[0];
    fb[0] = v.fx[1];
    fb[1] = v.fy[1];
    fb[2] = v.fz[1];
}

/* All configurations below use exact binary values (3-4-5 triangles scaled
 * by 1/4 or 1/20, k = 1000); the only roundings are in 0.6, 0.8 and the few
 * operations of the kernel, so 1e-5 relative (~100 float eps) bounds them. */
#define FTOL(f) (1e-5 * (fabs(f) + 1.0))

static hk_spring_params behaviour_params(hk_behaviour b)
{
    hk_spring_params s = hk_default_spring_params();
    s.k = 1000.0;
    s.rest_length = 1.0;
    s.behaviour = b;
    return s;
}

/* b sits at distance r from a = 0 along (0.6, 0.8, 0). Returns the spring
 * energy of the initial state and the force on a. */
static void pair_force(hk_behaviour beh, double r, double f[3], double *energy)
{
    hk_spring_params s = behaviour_params(beh);
    hk_world *w =
        two_points((hk_vec3){0, 0, 0}, (hk_vec3){0, 0, 0}, (hk_vec3){0.6 * r, 0.8 * r, 0}, (hk_vec3){0, 0, 0}, &s);
    *energy = hk_world_stats(w).spring;
    double fb[3];
    force_at_start(w, f, fb);
    /* Newton's third law for every behaviour */
    for (int c = 0; c < 3; c++) assert_true(fb[c] == -f[c]);
    hk_world_destroy(w);
}

/* Hooke on a for d = a - b = -r (0.6, 0.8, 0): f_a = -k (r - L0) u with
 * u = -(0.6, 0.8, 0), i.e. k (r - L0) (0.6, 0.8, 0). */
static void assert_hooke(const double f[3], double r)
{
    assert_near(f[0], 1000.0 * (r - 1.0) * 0.6, FTOL(f[0]));
    assert_near(f[1], 1000.0 * (r - 1.0) * 0.8, FTOL(f[1]));
    assert_true(f[2] == 0);
}

static void assert_zero(const double f[3]) { assert_true(f[0] == 0 && f[1] == 0 && f[2] == 0); }

static void test_normal_spring_both_ways(void **state)
{
    (void)state;
    double f[3], e;
    pair_force(HK_SPRING_NORMAL, 1.25, f, &e);
    assert_hooke(f, 1.25); /* (150, 200, 0): a pulled towards b */
    assert_near(e, 0.5 * 1000 * 0.25 * 0.25, 1e-5 * 31.25);
    pair_force(HK_SPRING_NORMAL, 0.75, f, &e);
    assert_hooke(f, 0.75); /* (-150, -200, 0): a pushed away */
    assert_near(e, 31.25, 1e-5 * 31.25);
}

static void test_tension_only(void **state)
{
    (void)state;
    double f[3], e;
    pair_force(HK_SPRING_TENSION_ONLY, 1.25, f, &e); /* stretched: Hooke */
    assert_hooke(f, 1.25);
    assert_near(e, 31.25, 1e-5 * 31.25);
    pair_force(HK_SPRING_TENSION_ONLY, 0.75, f, &e); /* compressed: slack */
    assert_zero(f);
    assert_true(e == 0);
}

static void test_compression_only(void **state)
{
    (void)state;
    double f[3], e;
    pair_force(HK_SPRING_COMPRESSION_ONLY, 0.75, f, &e); /* compressed: Hooke */
    assert_hooke(f, 0.75);
    assert_near(e, 31.25, 1e-5 * 31.25);
    pair_force(HK_SPRING_COMPRESSION_ONLY, 1.25, f, &e); /* stretched: no force */
    assert_zero(f);
    assert_true(e == 0);
}

/* Damping on a hand-computed configuration:
 *   a = (0,0,0), v_a = (1,-1,2);  b = (2,3,6), v_b = (0.5,0,-1)
 *   r = 7, L0 = 6, k = 10, c = 0.5; u = (a - b)/r = -(2,3,6)/7
 *   dv = v_a - v_b = (0.5,-1,3);  dv . u = -16/7
 * ALONG:    f_a = -(k (r - L0) + c dv.u) u = -(10 - 8/7) u = (124,186,372)/49
 * RELATIVE: f_a = -k (r - L0) u - c dv = (20/7 - 1/4, 30/7 + 1/2, 60/7 - 3/2) */
static void damped_force(hk_damping_model model, double f[3], double fb[3])
{
    hk_spring_params s = hk_default_spring_params();
    s.k = 10.0;
    s.damping = 0.5;
    s.damping_model = model;
    s.rest_length = 6.0;
    hk_world *w = two_points((hk_vec3){0, 0, 0}, (hk_vec3){1, -1, 2}, (hk_vec3){2, 3, 6}, (hk_vec3){0.5, 0, -1}, &s);
    force_at_start(w, f, fb);
    hk_world_destroy(w);
}

static void test_damping_along(void **state)
{
    (void)state;
    double f[3], fb[3];
    damped_force(HK_DAMP_ALONG, f, fb);
    const double e[3] = {124.0 / 49, 186.0 / 49, 372.0 / 49};
    for (int c = 0; c < 3; c++) {
        assert_near(f[c], e[c], FTOL(e[c]));
        assert_true(fb[c] == -f[c]);
    }
}

static void test_damping_relative(void **state)
{
    (void)state;
    double f[3], fb[3];
    damped_force(HK_DAMP_RELATIVE, f, fb);
    const double e[3] = {20.0 / 7 - 0.25, 30.0 / 7 + 0.5, 60.0 / 7 - 1.5};
    for (int c = 0; c < 3; c++) {
        assert_near(f[c], e[c], FTOL(e[c]));
        assert_true(fb[c] == -f[c]);
    }
    /* the two models differ by more than the tolerance on this configuration */
    double g[3];
    damped_force(HK_DAMP_ALONG, g, fb);
    assert_true(fabs(g[1] - f[1]) > 0.5);
}

/* ---- breakable ----------------------------------------------------------- */

static double dist(const hk_world *w, int a, int b)
{
    const hk_vec3 xa = hk_world_position(w, a), xb = hk_world_position(w, b);
    double dx = xa.x - xb.x, dy = xa.y - xb.y, dz = xa.z - xb.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* One list family of two breakable springs (ratio 1.5, L0 = 1, k = 10):
 * 0 (pinned) - 1 (flying off at 2 m/s) and 2 (pinned) - 3 (at rest). The
 * first reaches 1.5 L0 (kinetic 2 J > 1/2 k (0.5)^2 = 1.25 J) and must break
 * exactly at the first step that ends with r > 1.5 L0; the second never. */
static void test_breakable_list_spring(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_vec3 pos[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    hk_vec3 vel[4] = {{0, 0, 0}, {2, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    double mass[4] = {1, 1, 1, 1};
    int body = hk_world_add_points(w, 4, pos, vel, mass);
    assert_int_equal(body, 0);
    hk_spring_params s = hk_default_spring_params();
    s.k = 10.0;
    s.rest_length = 1.0;
    s.behaviour = HK_SPRING_BREAKABLE;
    s.break_ratio = 1.5;
    const int a[2] = {0, 2}, b[2] = {1, 3};
    int fam = hk_world_add_springs(w, body, 2, a, b, &s);
    assert_true(fam >= 0);
    assert_int_equal(hk_world_pin(w, body, 0), 0);
    assert_int_equal(hk_world_pin(w, body, 2), 0);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);

    int broke_at = -1;
    hk_real v_after = 0;
    double r_prev = 1.0; /* length at the start of the step, where F is evaluated */
    for (int s_ = 1; s_ <= 2000; s_++) {
        hk_world_step(w);
        hk_particles_view v = hk_world_particles(w);
        const double r = dist(w, 0, 1);
        hk_family_info fi = hk_world_family(w, fam);
        hk_stats st = hk_world_stats(w);
        assert_int_equal(fi.springs, 2);
        if (broke_at < 0) {
            if (r > 1.5 * 1.0) {
                /* the step that first ends past the threshold breaks it */
                broke_at = s_;
                assert_int_equal(fi.broken, 1);
                assert_int_equal(st.broken, 1);
                v_after = v.vx[1];
            } else {
                assert_int_equal(fi.broken, 0);
                assert_int_equal(st.broken, 0);
            }
            /* until it breaks (the breaking step included: F was evaluated
             * before the break) the mover felt Hooke's -k (r - L0) along x;
             * 1e-5 N covers float rounding of r ~ 1 (1e-7 m x k = 1e-6 N) */
            assert_near(v.fx[1], -10.0 * (r_prev - 1.0), 1e-5);
        } else {
            /* stays broken, counted once, and exerts no force: the mover
             * keeps its velocity exactly and feels exactly zero force */
            assert_int_equal(fi.broken, 1);
            assert_int_equal(st.broken, 1);
            assert_true(v.fx[1] == 0 && v.fy[1] == 0 && v.fz[1] == 0);
            assert_true(v.vx[1] == v_after);
            /* the broken spring is left out of energy and stretch */
            assert_true(st.spring == 0);
            assert_near(st.max_stretch, 1.0, 1e-6);
        }
        r_prev = r;
    }
    assert_true(broke_at > 0);
    /* closed form: r(t) = 1 + (v0 / w) sin(w t), w = sqrt(k / m), reaches 1.5
     * at t = asin(0.5 w / v0) / w = 0.2885 s. Semi-implicit Euler's O(h)
     * phase error at w h = 3e-3 is well under a step; allow 2 steps. */
    const double wb = sqrt(10.0), t_break = asin(0.5 * wb / 2.0) / wb;
    print_message("list spring broke at step %d, closed form t = %.5f s (step %.1f)\n", broke_at, t_break,
                  t_break / 1e-3);
    assert_near(broke_at * 1e-3, t_break, 2e-3);
    hk_world_destroy(w);
}

/* A lattice (stencil) family: a 4-mass rope hanging from its driven first
 * mass, springs breakable at 1.2 L0 and too weak to hold the weight (static
 * top stretch 3 m g / k = 0.59 L0). Every spring must be broken from the
 * first step that ends with it past 1.2 L0, and never before; after the top
 * one breaks, the rest falls freely: its momentum changes by exactly M g t. */
static void test_breakable_lattice_spring(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -9.81, 0};
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_rope_def r = hk_default_rope_def();
    r.count = 4;
    r.mass = 0.1;
    r.spacing = 0.1;
    r.direction = (hk_vec3){0, -1, 0};
    r.springs.k = 50.0;
    r.springs.behaviour = HK_SPRING_BREAKABLE;
    r.springs.break_ratio = 1.2;
    r.anchor = 1;
    assert_int_equal(hk_world_add_rope(w, &r), 0);
    assert_int_equal(hk_world_family_count(w), 1);
    const double h = 1e-3;
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, h);

    /* the library's threshold: ratio times rest length, both in the state's
     * precision, multiplied in double */
    const double threshold = (double)(hk_real)1.2 * (double)(hk_real)0.1;
    int broken[3] = {0, 0, 0}, nbroken = 0, top_at = -1;
    double p_top = 0;
    for (int s = 1; s <= 1000; s++) {
        hk_world_step(w);
        hk_particles_view v = hk_world_particles(w);
        for (int n = 0; n < 3; n++)
            if (!broken[n] && dist(w, n, n + 1) > threshold) {
                broken[n] = 1;
                nbroken++;
            }
        assert_int_equal(hk_world_family(w, 0).broken, nbroken);
        assert_int_equal(hk_world_stats(w).broken, nbroken);
        if (broken[0] && top_at < 0) {
            top_at = s;
            p_top = 0;
            for (int n = 1; n < 4; n++) p_top += v.mass[n] * (double)v.vy[n];
        } else if (top_at > 0) {
            double p = 0;
            for (int n = 1; n < 4; n++) p += v.mass[n] * (double)v.vy[n];
            /* free fall of the 0.3 kg below: dp = M g dt exactly; float
             * rounding of the kicks: 3 particles x (s - top_at) steps x eps/2
             * x |m v| (|v| < 10 m/s here), under 1e-4 kg m/s */
            assert_near(p - p_top, -0.3 * 9.81 * (s - top_at) * h, 1e-4);
        }
    }
    assert_true(top_at > 0);
    print_message("lattice: top spring broke at step %d, %d of 3 broken after 1 s\n", top_at, nbroken);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_spring_both_ways),  cmocka_unit_test(test_tension_only),
        cmocka_unit_test(test_compression_only),         cmocka_unit_test(test_damping_along),
        cmocka_unit_test(test_damping_relative),         cmocka_unit_test(test_breakable_list_spring),
        cmocka_unit_test(test_breakable_lattice_spring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
