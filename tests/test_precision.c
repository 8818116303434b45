/* test_precision.c — a scene's physics does not depend on where it is: shifted scenes, a long chain's waves, rest. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

/*
 * Every body is held in its own frame (a lattice relative to its rest
 * lattice, listed points relative to an origin beside them), so moving a
 * scene far from the world's origin must not change what it does, a lattice
 * at rest has no force at all, and small motions of a long body keep the
 * precision of their own size. Each test here fails on a solver that keeps
 * positions as single-precision world coordinates.
 */

/* A world with gravity along -y and, where asked, a spring ground at y = 0. */
static hk_world *world(int ground)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -9.81, 0};
    def.air_drag = 0.01;
    def.ground.model = ground ? HK_GROUND_SPRING : HK_GROUND_NONE;
    def.ground.height = 0;
    def.ground.stiffness = 2000;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    return w;
}

/* The scene of the shift test, moved by s (x and z: along the ground): a
 * cloth hanging from two corners, a jelly cube and a pressure ball dropped on
 * the ground, a rope with its end pinned. */
static hk_world *shifted_scene(hk_vec3 s)
{
    hk_world *w = world(1);
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 40;
    c.spacing = 0.025;
    c.mass = 2e-3;
    c.origin = (hk_vec3){s.x - 0.5, 2.0, s.z - 0.5};
    c.u = (hk_vec3){1, 0, 0};
    c.v = (hk_vec3){0, -0.6, 0.8};
    c.structural_springs.k = c.shear_springs.k = 800;
    c.bend_springs.k = 100;
    c.structural_springs.damping = c.shear_springs.damping = 0.01;
    c.pins = HK_PIN_TWO_CORNERS;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    hk_jelly_def j = hk_default_jelly_def();
    j.nx = j.ny = j.nz = 6;
    j.spacing = 0.05;
    j.origin = (hk_vec3){s.x + 1.0, 0.4, s.z + 0.2};
    for (int k = 0; k < HK_JELLY_CLASSES; k++) {
        j.springs[k].k = 300;
        j.springs[k].damping = 0.02;
    }
    assert_true(hk_world_add_jelly(w, &j) >= 0);
    hk_mesh_def m = hk_default_mesh_def();
    m.offset = (hk_vec3){s.x - 1.0, 0.6, s.z + 0.3};
    m.mass = 0.005;
    m.springs.k = 400;
    m.springs.damping = 0.02;
    m.pressure.nrt = 40;
    m.pressure.pump_rate = 0.05;
    assert_true(hk_world_add_icosphere(w, &m, 0.2, 2) >= 0);
    hk_rope_def r = hk_default_rope_def();
    r.count = 30;
    r.spacing = 0.04;
    r.mass = 0.01;
    r.origin = (hk_vec3){s.x + 0.3, 1.5, s.z - 1.0};
    r.springs.k = 500;
    r.springs.damping = 0.05;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    assert_int_equal(hk_world_pin(w, 3, 0), 0);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_SEMI_IMPLICIT_EULER;
    d.dt = 1e-3;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    return w;
}

/* The same scene at the origin and moved by (1000, 0, 1000) m: over 400
 * steps the energies agree within 1e-4 of the energy scale and the largest
 * stretch within 1e-5, and the bodies moved by the same amounts. */
static void test_shifted_scene_same_physics(void **state)
{
    (void)state;
    const hk_vec3 far = {1000, 0, 1000};
    hk_world *a = shifted_scene((hk_vec3){0, 0, 0}), *b = shifted_scene(far);
    const int n = hk_world_particles(a).count;
    hk_vec3 *a0 = malloc((size_t)n * sizeof *a0);
    assert_non_null(a0);
    for (int i = 0; i < n; i++) a0[i] = hk_world_position(a, i);
    double worst_e = 0, worst_s = 0, scale = 0, moved = 0;
    for (int s = 1; s <= 400; s++) {
        hk_world_step(a);
        hk_world_step(b);
        const hk_stats sa = hk_world_stats(a), sb = hk_world_stats(b);
        scale = fmax(scale, fabs(sa.kinetic) + fabs(sa.gravity) + fabs(sa.spring));
        const double de[3] = {sa.kinetic - sb.kinetic, sa.gravity - sb.gravity, sa.spring - sb.spring};
        for (int k = 0; k < 3; k++) worst_e = fmax(worst_e, fabs(de[k]));
        worst_s = fmax(worst_s, fabs(sa.max_stretch - sb.max_stretch));
    }
    double worst_x = 0;
    for (int i = 0; i < n; i++) {
        const hk_vec3 xa = hk_world_position(a, i), xb = hk_world_position(b, i);
        const double d[3] = {(xb.x - far.x) - xa.x, xb.y - xa.y, (xb.z - far.z) - xa.z};
        for (int k = 0; k < 3; k++) worst_x = fmax(worst_x, fabs(d[k]));
        moved = fmax(moved, fabs(xa.y - a0[i].y));
    }
    print_message("shift by 1000 m: energies differ by %.3g J of %.3g J, max stretch by %.3g, positions by %.3g m\n",
                  worst_e, scale, worst_s, worst_x);
    assert_true(moved > 0.01); /* things happened: the scene fell and swung */
    assert_le(worst_e, 1e-4 * scale);
    assert_le(worst_s, 1e-5);
    assert_le(worst_x, 1e-6); /* the same motion, to a few ulps of the 1000 m offset in double */
    free(a0);
    hk_world_destroy(a);
    hk_world_destroy(b);
}

/* A longitudinal pulse on a 30 m chain (0.1 m spacing, k 25 N/m, 0.01 kg:
 * c = a sqrt(k / m) = 5 m/s) of amplitude 0.1 mm, a Gaussian 1 m wide sent
 * to the right: the centre of its energy travels at c within 0.2 % (the
 * discrete chain's dispersion slows a pulse this wide by about 0.06 %), with
 * the chain at the origin and 1 km out. */
static double chain_wave_speed(hk_vec3 origin)
{
    enum { N = 301 };
    const double a = 0.1, k = 25, m = 0.01, c = a * sqrt(k / m), A = 1e-4, sigma = 1.0, x0 = 5.0;
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, 0, 0};
    hk_world *w = hk_world_create(&def);
    hk_rope_def r = hk_default_rope_def();
    r.count = N;
    r.spacing = a;
    r.mass = m;
    r.origin = origin;
    r.springs.k = k;
    assert_int_equal(hk_world_add_rope(w, &r), 0);
    for (int i = 0; i < N; i++) {
        const double x = i * a, g = exp(-(x - x0) * (x - x0) / (2 * sigma * sigma));
        hk_vec3 p = hk_world_position(w, i);
        p.x += A * g;
        assert_int_equal(hk_world_set_position(w, i, p), 0);
        /* right-moving: v = -c du/dx */
        assert_int_equal(hk_world_set_velocity(w, i, (hk_vec3){c * A * g * (x - x0) / (sigma * sigma), 0, 0}), 0);
    }
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_SEMI_IMPLICIT_EULER;
    d.dt = 5e-4;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    /* centre of u^2 along the chain at t1 = 1 s and t2 = 4 s (x from 10 to 25 m) */
    double centre[2];
    const int at[2] = {2000, 8000};
    for (int s = 1, q = 0; q < 2; s++) {
        hk_world_step(w);
        if (s != at[q]) continue;
        double num = 0, den = 0;
        for (int i = 0; i < N; i++) {
            const double u = hk_world_position(w, i).x - (origin.x + i * a);
            num += i * a * u * u;
            den += u * u;
        }
        centre[q++] = num / den;
    }
    hk_world_destroy(w);
    return (centre[1] - centre[0]) / ((at[1] - at[0]) * d.dt) / c;
}

static void test_long_chain_wave_speed(void **state)
{
    (void)state;
    const double here = chain_wave_speed((hk_vec3){0, 0, 0}), far = chain_wave_speed((hk_vec3){1000, 0, 1000});
    print_message("30 m chain: pulse speed / (a sqrt(k/m)) = %.5f at the origin, %.5f 1 km out\n", here, far);
    assert_near(here, 1.0, 2e-3);
    assert_near(far, 1.0, 2e-3);
}

/* Bodies at rest without gravity stay where they are: no drift above 1e-9 m
 * in 1 s, for lattices with axes that no float can hold exactly (a cloth
 * turned by 30 degrees, 1 cm spacing, 1 km out), a jelly and a rope, and a
 * body of listed points with springs at their initial lengths. */
static void test_rest_stays_at_rest(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, 0, 0};
    hk_world *w = hk_world_create(&def);
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = 64;
    c.ny = 48;
    c.spacing = 0.01;
    c.mass = 1e-4;
    c.origin = (hk_vec3){1000.3, 7.1, -1000.7};
    c.u = (hk_vec3){0.8660254037844386, 0.5, 0};
    c.v = (hk_vec3){0, 0, 1};
    c.structural_springs.k = c.shear_springs.k = c.bend_springs.k = 5000;
    c.radius = 0.03; /* and the radius stencil's families */
    c.radius_springs.k = 100;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    hk_jelly_def j = hk_default_jelly_def();
    j.nx = j.ny = j.nz = 5;
    j.neighbours = 52;
    j.spacing = 0.1;
    j.origin = (hk_vec3){-2e4, 3e3, 1e4};
    assert_true(hk_world_add_jelly(w, &j) >= 0);
    hk_rope_def r = hk_default_rope_def();
    r.count = 600; /* 30 m */
    r.spacing = 0.05;
    r.direction = (hk_vec3){1, 2, 3};
    r.topology = HK_ROPE_SKIP_ONE;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    /* extra listed springs on the rope's lattice: each holds its rest vector */
    int sa[40], sb[40];
    for (int s = 0; s < 40; s++) sa[s] = 7 * s, sb[s] = 7 * s + 5;
    assert_true(hk_world_add_springs(w, 2, 40, sa, sb, &r.springs) >= 0);
    hk_mesh_def m = hk_default_mesh_def();
    m.offset = (hk_vec3){512.25, -3.5, 77.0};
    m.extra_rings = 2;
    assert_true(hk_world_add_icosphere(w, &m, 0.3, 2) >= 0);
    const int n = hk_world_particles(w).count;
    hk_vec3 *x0 = malloc((size_t)n * sizeof *x0);
    assert_non_null(x0);
    for (int i = 0; i < n; i++) x0[i] = hk_world_position(w, i);
    hk_integrator_def d = hk_default_integrator_def();
    d.dt = 1e-3;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    const hk_stats st = hk_world_stats(w);
    assert_true(st.spring == 0 && st.max_stretch == 1); /* every spring exactly at its rest length */
    for (int s = 0; s < 1000; s++) hk_world_step(w);
    double drift = 0;
    for (int i = 0; i < n; i++) {
        const hk_vec3 x = hk_world_position(w, i);
        drift = fmax(drift, fmax(fabs(x.x - x0[i].x), fmax(fabs(x.y - x0[i].y), fabs(x.z - x0[i].z))));
    }
    print_message("%d particles at rest for 1 s: largest drift %.3g m\n", n, drift);
    assert_le(drift, 1e-9);
    free(x0);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shifted_scene_same_physics),
        cmocka_unit_test(test_long_chain_wave_speed),
        cmocka_unit_test(test_rest_stays_at_rest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
