/* test_contacts.c — ground models (static balance), sphere obstacles, room walls and collision loss. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#define G 9.81

static hk_world *world_with(const hk_world_def *def)
{
    hk_world *w = hk_world_create(def);
    assert_non_null(w);
    return w;
}

static int add_point(hk_world *w, hk_vec3 pos, hk_vec3 vel, double mass)
{
    int body = hk_world_add_points(w, 1, &pos, &vel, &mass);
    assert_true(body >= 0);
    return hk_world_body(w, body).first;
}

static void run(hk_world *w, double seconds, double h)
{
    long n = lround(seconds / h);
    for (long s = 0; s < n; s++) hk_world_step(w);
}

/* ---- ground ------------------------------------------------------------- */

/* The rope tutorial's ground: plane y = -1.5, k_rep 100, friction 0.2,
 * absorption 2 (only while moving down), and its air drag 0.02. */
static hk_world_def repulsion_world(void)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -G, 0};
    def.air_drag = 0.02;
    def.ground.model = HK_GROUND_REPULSION;
    def.ground.height = -1.5;
    def.ground.repulsion = 100;
    def.ground.friction = 0.2;
    def.ground.absorption = 2;
    return def;
}

static void test_ground_repulsion_particle_rests_at_mg_over_k(void **state)
{
    (void)state;
    hk_world_def def = repulsion_world();
    hk_world *w = world_with(&def);
    const double m = 0.05;
    /* dropped from 0.5 m above the ground, sliding sideways at 0.5 m/s */
    int i = add_point(w, (hk_vec3){0, -1.0, 0}, (hk_vec3){0.5, 0, 0}, m);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 0.002);
    /* In contact the particle is a 100 N/m spring on 0.05 kg (w = 45 rad/s)
     * damped by absorption 2 N s/m on the way down and drag 0.02 throughout:
     * every half cycle loses most of its energy; 10 s is hundreds of cycles. */
    run(w, 10.0, 0.002);
    hk_particles_view v = hk_world_particles(w);
    const double pen = m * G / 100; /* static balance k_rep (h - y) = m g: 4.905 mm */
    const double y = hk_world_position(w, i).y;
    print_message("repulsion: penetration %.6e m, m g / k_rep = %.6e m (%+.4f %%)\n", -1.5 - y, pen,
                  100 * ((-1.5 - y) / pen - 1));
    /* 0.5 % of the penetration (25 um): the residual motion has decayed to
     * nothing, so this is float resolution of y near 1.5 m (1.2e-7 m) with a
     * wide margin; a model pushing with k_rep (h - y) at half or double
     * strength, or gravity-free, misses by 100 %. */
    assert_near(-1.5 - y, pen, 5e-3 * pen);
    /* friction and drag have stopped the sideways slide */
    assert_le(fabs((double)v.vx[i]), 1e-4);
    assert_le(fabs((double)v.vy[i]), 1e-4);
    hk_world_destroy(w);
}

static void test_ground_repulsion_quad_static_balance(void **state)
{
    (void)state;
    hk_world_def def = repulsion_world();
    hk_world *w = world_with(&def);
    hk_quad_def q = hk_default_quad_def();
    const double m = 0.05;
    q.size = 0.2;
    q.origin = (hk_vec3){0, -1.2, 0};
    q.u = (hk_vec3){1, 0, 0};
    q.v = (hk_vec3){0, 1, 0}; /* standing upright: corners 0, 1 at the bottom */
    q.mass = m;
    q.diagonals = 1;
    q.springs.k = 1000;
    q.springs.damping = 0.5;
    int body = hk_world_add_quad(w, &q);
    assert_true(body >= 0);
    const int first = hk_world_body(w, body).first;
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 0.002);
    run(w, 10.0, 0.002);
    /* The two bottom corners carry the whole 4 m g, shared equally by
     * symmetry: k_rep (h - y) = 2 m g each, whatever the springs do. */
    const double pen = 2 * m * G / 100;
    for (int c = 0; c < 2; c++) {
        double p = -1.5 - hk_world_position(w, first + c).y;
        print_message("quad corner %d: penetration %.6e m, 2 m g / k_rep = %.6e m\n", c, p, pen);
        assert_near(p, pen, 5e-3 * pen); /* 0.5 %, as for the single particle */
    }
    /* The top corners stand 0.2 m above the bottom ones, less the elastic
     * compression: each top corner's weight m g is carried by its edge and
     * its diagonal, shortening them by at most m g / k = 0.5 mm; 2 mm bound. */
    for (int c = 2; c < 4; c++) {
        double height = (double)hk_world_position(w, first + c).y - hk_world_position(w, first + c - 2).y;
        print_message("quad corner %d: %.6f m above corner %d\n", c, height, c - 2);
        assert_true(height <= 0.2 && height > 0.2 - 2e-3);
    }
    hk_world_destroy(w);
}

static void test_ground_spring_particle_rests_at_mg_over_k(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -G, 0};
    /* the virtual spring has no damping of its own; air drag 0.05 N s/m on
     * 0.05 kg takes the energy out at rate c/m = 1 /s: e^-30 in 30 s */
    def.air_drag = 0.05;
    def.ground.model = HK_GROUND_SPRING;
    def.ground.height = 0.0;
    def.ground.stiffness = 220; /* the book's KSCOLLISION */
    hk_world *w = world_with(&def);
    const double m = 0.05;
    int i = add_point(w, (hk_vec3){0.1, 0.3, 0.2}, (hk_vec3){0, 0, 0}, m);
    const hk_vec3 x0 = hk_world_position(w, i);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 0.002);
    run(w, 30.0, 0.002);
    const double pen = m * G / 220; /* -k_coll (y - h) = m g: 2.23 mm */
    print_message("spring ground: penetration %.6e m, m g / k_coll = %.6e m\n", -(double)hk_world_position(w, i).y,
                  pen);
    /* 0.5 %: y near 0 is resolved to 1e-10 m; the decayed motion is e^-15
     * of the 0.3 m drop in amplitude, 1e-7 m. */
    assert_near(-(double)hk_world_position(w, i).y, pen, 5e-3 * pen);
    assert_true(hk_world_position(w, i).x == x0.x && hk_world_position(w, i).z == x0.z); /* straight down */
    hk_world_destroy(w);
}

/* ---- spheres ------------------------------------------------------------- */

/* Rounding allowance for "outside the sphere": the library projects a
 * particle to centre + R n in double and stores it in the state's precision,
 * so |x - c| >= R - (a few ulp of the coordinates): 4 eps (|c| + R). */
static double sphere_eps(double c_norm, double R) { return 4 * HK_EPS * (c_norm + R); }

static double dist_to(const hk_world *w, int i, hk_vec3 c)
{
    const hk_vec3 x = hk_world_position(w, i);
    double dx = x.x - c.x, dy = x.y - c.y, dz = x.z - c.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static void test_static_sphere_keeps_cloth_outside(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -G, 0};
    def.air_drag = 0.001;
    hk_world *w = world_with(&def);
    const double R = 0.3;
    hk_sphere_def sd = {{0, 0, 0}, R, {0, 0, 0}, 0.3};
    assert_int_equal(hk_world_add_sphere(w, &sd), 0);
    /* a 16 x 16 cloth (0.75 m square) falling flat onto the sphere, centred */
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 16;
    c.spacing = 0.05;
    c.origin = (hk_vec3){-0.375, 0.4, -0.375};
    c.u = (hk_vec3){1, 0, 0};
    c.v = (hk_vec3){0, 0, 1};
    c.mass = 0.01;
    c.structural_springs.k = c.shear_springs.k = 200;
    c.bend_springs.k = 50;
    c.structural_springs.damping = c.shear_springs.damping = c.bend_springs.damping = 0.02;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    const double eps = sphere_eps(0, R);
    double closest = 1e9;
    for (int s = 0; s < 1500; s++) {
        hk_world_step(w);
        hk_particles_view v = hk_world_particles(w);
        for (int i = 0; i < v.count; i++) {
            double d = dist_to(w, i, sd.center);
            if (d < closest) closest = d;
            if (!(d >= R - eps)) {
                print_error("step %d: particle %d at distance %.9g from the centre, radius %g\n", s, i, d, R);
                fail();
            }
        }
    }
    hk_particles_view v = hk_world_particles(w);
    int touching = 0;
    for (int i = 0; i < v.count; i++)
        if (dist_to(w, i, sd.center) < R + 0.005) touching++;
    print_message("static sphere: closest approach R %+.2e m; %d particles resting on it\n", closest - R, touching);
    /* the test is not vacuous: the cloth lies on the sphere (its middle
     * nodes, about pi (0.3)^2 / 0.05^2 / 2 of them, rest on the cap) */
    assert_true(touching >= 10);
    hk_world_destroy(w);
}

static void test_moving_sphere_sweeps_particles(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    const double R = 0.2, V = 1.0;
    hk_sphere_def sd = {{-1, 0, 0}, R, {V, 0, 0}, 0.0};
    assert_int_equal(hk_world_add_sphere(w, &sd), 0);
    /* a 13 x 13 sheet of free particles in the plane x = 0, across its path */
    hk_vec3 pos[169];
    double mass[169];
    for (int j = 0; j < 13; j++)
        for (int k = 0; k < 13; k++) {
            pos[j * 13 + k] = (hk_vec3){0, 0.05 * (j - 6), 0.05 * (k - 6)}; /* (0,0,0) exactly at j = k = 6 */
            mass[j * 13 + k] = 0.01;
        }
    assert_true(hk_world_add_points(w, 169, pos, NULL, mass) >= 0);
    const int on_axis = 6 * 13 + 6; /* (0, 0, 0): hit head-on */
    const double h = 1e-3;
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, h);
    const double eps = sphere_eps(1.0, R);
    for (int s = 1; s <= 1500; s++) {
        hk_world_step(w);
        hk_vec3 c = {-1 + V * s * h, 0, 0}; /* the sphere moves with its velocity */
        hk_particles_view v = hk_world_particles(w);
        for (int i = 0; i < v.count; i++) {
            double d = dist_to(w, i, c);
            if (!(d >= R - eps)) {
                print_error("step %d: particle %d at %.9g from the moving centre, radius %g\n", s, i, d, R);
                fail();
            }
        }
    }
    hk_particles_view v = hk_world_particles(w);
    int pushed = 0;
    for (int i = 0; i < v.count; i++)
        if (v.vx[i] > 0) pushed++;
    /* particles within R of the axis were hit: about pi R^2 / 0.05^2 = 50 */
    print_message("moving sphere: %d of 169 particles pushed; on-axis particle vx = %.7f m/s\n", pushed,
                  (double)v.vx[on_axis]);
    assert_true(pushed >= 30);
    /* Head-on, elastic (loss 0) against an infinitely heavy sphere: the
     * relative velocity reverses, v = (1 + e) V = 2 V. Exact arithmetic
     * (all values are small integers); 1e-6 covers one float rounding. */
    assert_near(v.vx[on_axis], 2 * V, 1e-6);
    assert_true(v.vy[on_axis] == 0 && v.vz[on_axis] == 0);
    hk_world_destroy(w);
}

/* Restitution: after a head-on hit the normal relative speed is (1 - loss)
 * times the incoming one. A particle falling straight down at 3 m/s onto a
 * static sphere (loss 0.25) leaves upward at 2.25 m/s; one at rest in the
 * path of a sphere moving at 1 m/s (loss 0.5) leaves at (1 + 0.5) V. */
static void test_sphere_loss(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_sphere_def sd = {{0, 0, 0}, 0.5, {0, 0, 0}, 0.25};
    assert_int_equal(hk_world_add_sphere(w, &sd), 0);
    int i = add_point(w, (hk_vec3){0, 1.0, 0}, (hk_vec3){0, -3, 0}, 1.0);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    run(w, 0.5, 1e-3); /* contact at t = 0.1667 s */
    hk_particles_view v = hk_world_particles(w);
    assert_near(v.vy[i], 2.25, 1e-6); /* 0.75 x 3; exact up to one rounding */
    hk_world_destroy(w);

    w = hk_test_empty_world();
    hk_sphere_def md = {{-1, 0, 0}, 0.5, {1, 0, 0}, 0.5};
    assert_int_equal(hk_world_add_sphere(w, &md), 0);
    i = add_point(w, (hk_vec3){0, 0, 0}, (hk_vec3){0, 0, 0}, 1.0);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    run(w, 1.0, 1e-3); /* contact at t = 0.5 s */
    v = hk_world_particles(w);
    assert_near(v.vx[i], 1.5, 1e-6);
    hk_world_destroy(w);
}

/* ---- room walls ---------------------------------------------------------- */

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static double rnd(uint32_t *s) { return lcg(s) / (double)(1u << 23) - 1.0; }

static void test_walls_keep_particles_inside(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -G, 0};
    def.has_walls = 1;
    def.walls_min = (hk_vec3){-0.5, -0.5, -0.5};
    def.walls_max = (hk_vec3){0.5, 0.5, 0.5}; /* bounds exact in binary: the check is exact */
    def.walls_loss = 0.1;
    hk_world *w = world_with(&def);
    /* 125 free particles at random places with speeds up to 3 m/s: without
     * walls they would leave the 1 m box within 0.3 s */
    enum { N = 125 };
    hk_vec3 pos[N], vel[N];
    double mass[N];
    uint32_t seed = 99;
    for (int i = 0; i < N; i++) {
        pos[i] = (hk_vec3){0.4 * rnd(&seed), 0.4 * rnd(&seed), 0.4 * rnd(&seed)};
        vel[i] = (hk_vec3){3 * rnd(&seed), 3 * rnd(&seed), 3 * rnd(&seed)};
        mass[i] = 0.01;
    }
    assert_true(hk_world_add_points(w, N, pos, vel, mass) >= 0);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    long on_wall = 0;
    for (int s = 0; s < 2000; s++) {
        hk_world_step(w);
        /* a particle put on a wall is held relative to its body's origin
         * in the state's precision: on the wall within its rounding */
        const double tol = 2 * HK_EPS;
        for (int i = 0; i < N; i++) {
            const hk_vec3 x = hk_world_position(w, i);
            const double xs[3] = {x.x, x.y, x.z};
            for (int c = 0; c < 3; c++) {
                if (!(xs[c] >= -0.5 - tol && xs[c] <= 0.5 + tol)) {
                    print_error("step %d: particle %d coordinate %d = %.9g outside [-0.5, 0.5]\n", s, i, c, xs[c]);
                    fail();
                }
                if (fabs(fabs(xs[c]) - 0.5) <= tol) on_wall++;
            }
        }
    }
    print_message("walls: %ld particle-steps on a wall\n", on_wall);
    assert_true(on_wall > 100); /* the walls were really hit */
    hk_world_destroy(w);
}

/* A particle crossing the box at (2, 0.3, -0.2) m/s hits x = 1 and leaves
 * with half its normal speed (loss 0.5), its tangential velocity untouched;
 * at x = -1 it halves again. Checked with semi-implicit Euler and with
 * position Verlet, whose velocity lives in its previous positions. */
static void check_wall_loss(hk_integrator_kind kind)
{
    hk_world *w = hk_test_empty_world();
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, 0, 0};
    def.has_walls = 1;
    def.walls_min = (hk_vec3){-1, -1, -1};
    def.walls_max = (hk_vec3){1, 1, 1};
    def.walls_loss = 0.5;
    hk_world_destroy(w);
    w = world_with(&def);
    int i = add_point(w, (hk_vec3){0, 0, 0}, (hk_vec3){2, 0.3, -0.2}, 1.0);
    const double h = 1.0 / 1024;
    hk_test_integrator(w, kind, h);
    run(w, 0.75, h); /* hits x = 1 at t = 0.5 s */
    hk_particles_view v = hk_world_particles(w);
    double x1 = hk_world_position(w, i).x;
    hk_world_step(w);
    v = hk_world_particles(w);
    /* one step after the bounce: moving back at 1 m/s (displacement -h) */
    print_message("%-20s after x = +1: v = (%.7f, %.7f, %.7f), step dx / h = %.7f\n", hk_integrator_name(kind),
                  (double)v.vx[i], (double)v.vy[i], (double)v.vz[i], ((double)hk_world_position(w, i).x - x1) / h);
    /* 0.5 x 2 is exact. Position Verlet derives velocities from positions,
     * (x_{n+1} - x_{n-1}) / 2h with |x| <= 1, so they carry up to
     * ulp(1) / h = 2 eps / h of rounding (2.4e-4 m/s in float); the step
     * displacement dx / h likewise. 1e-6 on top for the decimal 0.3, 0.2. */
    const double vtol = 1e-6 + 2 * HK_EPS / h;
    assert_near(v.vx[i], -1.0, vtol);
    assert_near(((double)hk_world_position(w, i).x - x1) / h, -1.0, vtol);
    assert_near(v.vy[i], 0.3, vtol);
    assert_near(v.vz[i], -0.2, vtol);
    run(w, 2.0, h); /* from x ~ 0.5 at 1 m/s: hits x = -1 at t ~ 2.25 s */
    v = hk_world_particles(w);
    assert_near(v.vx[i], 0.5, vtol);
    hk_world_destroy(w);
}

static void test_wall_loss_semi_implicit(void **state)
{
    (void)state;
    check_wall_loss(HK_SEMI_IMPLICIT_EULER);
}

static void test_wall_loss_verlet(void **state)
{
    (void)state;
    check_wall_loss(HK_VERLET);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ground_repulsion_particle_rests_at_mg_over_k),
        cmocka_unit_test(test_ground_repulsion_quad_static_balance),
        cmocka_unit_test(test_ground_spring_particle_rests_at_mg_over_k),
        cmocka_unit_test(test_static_sphere_keeps_cloth_outside),
        cmocka_unit_test(test_moving_sphere_sweeps_particles),
        cmocka_unit_test(test_sphere_loss),
        cmocka_unit_test(test_walls_keep_particles_inside),
        cmocka_unit_test(test_wall_loss_semi_implicit),
        cmocka_unit_test(test_wall_loss_verlet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
