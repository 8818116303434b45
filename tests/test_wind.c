/* test_wind.c — wind on cloth: a flag turns out of the wind, a billow bulges downwind more as the wind grows. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "hk_test.h"

/* Mean of the unit triangle normals of the cloth (two per cell). */
static hk_vec3 mean_normal(const hk_world *w, int nx, int ny)
{
    hk_vec3 m = {0, 0, 0};
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++) {
            int a = i + j * nx, b = a + 1, c = a + nx;
            double ux = hk_world_position(w, b).x - hk_world_position(w, a).x,
                   uy = hk_world_position(w, b).y - hk_world_position(w, a).y,
                   uz = hk_world_position(w, b).z - hk_world_position(w, a).z;
            double vx = hk_world_position(w, c).x - hk_world_position(w, a).x,
                   vy = hk_world_position(w, c).y - hk_world_position(w, a).y,
                   vz = hk_world_position(w, c).z - hk_world_position(w, a).z;
            double n[3] = {uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
            double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            m.x += n[0] / l, m.y += n[1] / l, m.z += n[2] / l;
        }
    double l = sqrt(m.x * m.x + m.y * m.y + m.z * m.z);
    return (hk_vec3){m.x / l, m.y / l, m.z / l};
}

static hk_world *cloth_in_wind(hk_wind_model model, double wind, double gravity, hk_cloth_pins pins, int n)
{
    hk_world_def wd = hk_default_world_def();
    wd.gravity = (hk_vec3){0, gravity, 0};
    wd.wind = (hk_vec3){0, 0, wind};
    wd.wind_model = model;
    wd.wind_drag = 0.02;
    hk_world *w = hk_world_create(&wd);
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = n;
    c.spacing = 0.05;
    c.u = (hk_vec3){1, 0, 0};
    c.v = (hk_vec3){0, -1, 0};
    c.mass = 0.01;
    c.structural = c.shear = 1;
    c.structural_springs.k = 400;
    c.structural_springs.damping = 0.05;
    c.shear_springs.k = 100;
    c.shear_springs.damping = 0.02;
    c.pins = pins;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    hk_integrator_def d = hk_default_integrator_def();
    d.dt = 1e-3;
    d.dt_max = 5e-4;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    return w;
}

/* A flag hanging in the x-y plane (normal along -z, u x v with v = -y), wind
 * along +z: it streams out, so its mean normal turns away from the wind
 * direction toward the wind's plane (|n . w_hat| drops from 1). */
static void test_flag_turns(void **state)
{
    (void)state;
    for (int model = HK_WIND_VERTEX; model <= HK_WIND_TRIANGLE; model++) {
        hk_world *w = cloth_in_wind((hk_wind_model)model, 6, -9.81, HK_PIN_EDGE, 16);
        const double before = fabs(mean_normal(w, 16, 16).z);
        for (int s = 0; s < 2000; s++) hk_world_step(w);
        hk_vec3 n = mean_normal(w, 16, 16);
        hk_particles_view p = hk_world_particles(w);
        double zmean = 0;
        for (int i = 0; i < p.count; i++) zmean += hk_world_position(w, i).z / p.count;
        print_message("%s wind: |n . w| %.3f -> %.3f, mean z %.3f m downwind\n",
                      model == HK_WIND_VERTEX ? "vertex" : "triangle", before, fabs(n.z), zmean);
        assert_near(before, 1, 1e-6);
        assert_true(fabs(n.z) < 0.8);
        assert_true(zmean > 0.05);
        hk_world_destroy(w);
    }
}

/* Four pinned edges, no gravity, wind perpendicular: the centre moves
 * downwind, further for stronger wind. */
static void test_billow_grows(void **state)
{
    (void)state;
    double prev = 0;
    static const double winds[3] = {2, 4, 8};
    for (int k = 0; k < 3; k++) {
        hk_world *w = cloth_in_wind(HK_WIND_TRIANGLE, winds[k], 0, HK_PIN_FOUR_EDGES, 17);
        for (int s = 0; s < 1500; s++) hk_world_step(w);
        const double zc = hk_world_position(w, 8 + 8 * 17).z;
        print_message("wind %g m/s: centre deflection %.4f m\n", winds[k], zc);
        assert_true(zc > prev);
        prev = zc;
        hk_world_destroy(w);
    }
    assert_true(prev > 0.01);
}

/* A jelly in wind gets the six sides of its lattice box as faces. They must
 * be closed and face outward: then Gauss's volume is exactly the box's,
 * (n - 1)^3 spacing^3 (positive; inward sides would give its negative, a
 * side missing or doubled would not give it at all). */
static void test_jelly_wind_faces_closed_outward(void **state)
{
    (void)state;
    hk_world_def wd = hk_default_world_def();
    wd.wind_model = HK_WIND_VERTEX;
    wd.wind = (hk_vec3){3, 0, 1};
    hk_world *w = hk_world_create(&wd);
    assert_non_null(w);
    hk_jelly_def d = hk_default_jelly_def();
    d.nx = 5;
    d.ny = 4;
    d.nz = 3;
    d.spacing = 0.25; /* a power of two: the box's volume is exact in float */
    const int body = hk_world_add_jelly(w, &d);
    assert_true(body >= 0);
    const double exact = 4 * 0.25 * 3 * 0.25 * 2 * 0.25;
    const double gauss = hk_world_body_volume(w, body, HK_VOLUME_GAUSS);
    const double tetra = hk_world_body_volume(w, body, HK_VOLUME_TETRA);
    print_message("jelly 5x4x3 box: Gauss %.17g, tetrahedra %.17g, exact %.17g m^3\n", gauss, tetra, exact);
    assert_true(fabs(gauss - exact) <= 1e-12 * exact);
    assert_true(fabs(tetra - exact) <= 1e-12 * exact);
    /* and the wind pushes it downwind */
    hk_integrator_def id = hk_default_integrator_def();
    id.dt = 1e-4;
    assert_int_equal(hk_world_set_integrator(w, &id), 0);
    hk_world_step(w);
    hk_particles_view p = hk_world_particles(w);
    double fx = 0;
    for (int i = 0; i < p.count; i++) fx += (double)p.fx[i];
    assert_true(fx > 0);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flag_turns),
        cmocka_unit_test(test_billow_grows),
        cmocka_unit_test(test_jelly_wind_faces_closed_outward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
