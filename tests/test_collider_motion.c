/* test_collider_motion.c — moving colliders under every integrator: riding, turning, pushing; the normal damping. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#define G 9.81
#define MASS 0.1   /* the particle [kg] */
#define THICK 0.01 /* the contact layer [m] */
#define K_C 1000.0 /* its stiffness [N/m] */
#define MU 0.5     /* its friction */
#define SPEED 0.2  /* the moving box's speed [m/s] */
#define TOP 0.1    /* the box's top face, half its height [m] */

static hk_world *world(double gravity)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -gravity, 0};
    def.air_drag = 0;
    def.ground.model = HK_GROUND_NONE;
    def.has_walls = 0;
    def.full_team = 1;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    return w;
}

static int add_point(hk_world *w, hk_vec3 x, hk_vec3 v)
{
    double m = MASS;
    const int b = hk_world_add_points(w, 1, &x, &v, &m);
    assert_true(b >= 0);
    return hk_world_body(w, b).first;
}

static void run_for(hk_world *w, double seconds)
{
    const long n = lround(seconds / hk_world_integrator(w).dt);
    for (long s = 0; s < n; s++)
        if (hk_world_step(w) != HK_OK) {
            print_error("%s, step %ld: %s\n", hk_integrator_name(hk_world_integrator(w).kind), s, hk_world_error(w));
            fail();
        }
}

/* A box 2 m x 0.2 m x 1 m about offset, the layer of the user (1 cm, 1000 N/m, critically damped) with
 * friction mu, moving at velocity v and turning at omega. */
static hk_collider_def box(hk_vec3 offset, hk_vec3 size, double mu, hk_vec3 v, hk_vec3 omega)
{
    hk_collider_def c = hk_default_collider_def();
    c.offset = offset;
    c.size = size;
    c.thickness = THICK;
    c.stiffness = K_C;
    c.damping_ratio = 1;
    c.friction = mu;
    c.velocity = v;
    c.angular_velocity = omega;
    return c;
}

/* Where a particle of MASS rests on a top face at height `top`: its weight carried by the layer's spring. */
static double rest_height(double top) { return top + THICK - MASS * G / K_C; }

/* A particle on the box's top face at its resting height, the box moving along x at SPEED, the particle starting
 * at v0 along x; its x after `seconds` at substep dt. */
static double ride(hk_integrator_kind kind, double dt, double v0, double seconds, int newton)
{
    hk_world *w = world(G);
    const hk_collider_def c =
        box((hk_vec3){0, 0, 0}, (hk_vec3){2, 2 * TOP, 1}, MU, (hk_vec3){SPEED, 0, 0}, (hk_vec3){0, 0, 0});
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    const int i = add_point(w, (hk_vec3){0, rest_height(TOP), 0}, (hk_vec3){v0, 0, 0});
    hk_test_integrator(w, kind, dt);
    hk_integrator_def d = hk_world_integrator(w);
    d.newton_iterations = newton;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    run_for(w, seconds);
    const double x = hk_world_position(w, i).x;
    hk_world_destroy(w);
    return x;
}

/* Riding at the box's speed from the start, static friction keeps it there: x = V t, within 1e-4 of V t under
 * every integrator (the anchor moves with the box inside every force evaluation of a substep). verlet_book's first
 * step, x + a h^2, drops the starting velocity (the book's start): the particle starts at rest there, and rides as
 * from rest (test_slip_then_ride), within V h of V t - V^2 / (2 mu g). */
static void test_riding_particle_keeps_up(void **state)
{
    (void)state;
    const double t = 1, h = 1e-3, want = SPEED * t, from_rest = want - SPEED * SPEED / (2 * MU * G);
    int bad = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const double x = ride((hk_integrator_kind)k, h, SPEED, t, 0);
        const int book = k == HK_VERLET_BOOK;
        const double expect = book ? from_rest : want, tol = book ? SPEED * h : 1e-4 * want;
        print_message("riding, %-19s x(1 s) = %.7f m (%s = %.7f m): %+.2e relative\n", hk_integrator_name(k), x,
                      book ? "from rest" : "V t", expect, (x - expect) / expect);
        bad += !(fabs(x - expect) <= tol);
    }
    /* the implicit solve's further Newton iterations, which evaluate the force at the substep's end */
    for (int k = HK_IMPLICIT_EULER; k <= HK_TRAPEZOIDAL; k++) {
        const double x = ride((hk_integrator_kind)k, h, SPEED, t, 3);
        print_message("riding, %-19s 3 Newton iterations: x(1 s) = %.7f m: %+.2e relative\n", hk_integrator_name(k), x,
                      (x - want) / want);
        bad += !(fabs(x - want) <= 1e-4 * want);
    }
    assert_int_equal(bad, 0);
}

/* Started at rest, it slides at mu g until it has the box's speed, V / (mu g) = 41 ms, then rides: x = V t - V^2 /
 * (2 mu g). A first-order integrator starts the slide a substep late or early, which shifts the ride by up to V h
 * (a second-order one by less): at h = 1e-5 s that is 2e-6 m, 1e-5 of x, within the 1e-4 asked for. */
static void test_slip_then_ride(void **state)
{
    (void)state;
    const double t = 1, want = SPEED * t - SPEED * SPEED / (2 * MU * G);
    int bad = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const double x = ride((hk_integrator_kind)k, 1e-4, 0, t, 0);
        print_message("from rest, %-19s x(1 s) = %.7f m (V t - V^2 / (2 mu g) = %.7f m): %+.2e relative\n",
                      hk_integrator_name(k), x, want, (x - want) / want);
        bad += !(fabs(x - want) <= 1e-4 * want);
    }
    assert_int_equal(bad, 0);
}

/* Where particle i is in the frame of a box turning at omega about the vertical through the origin (x, z). */
static void turned_back(const hk_world *w, int i, double omega, double out[2])
{
    const hk_vec3 x = hk_world_position(w, i);
    const double a = omega * hk_world_time(w); /* the turn about y by -omega t */
    out[0] = cos(a) * x.x - sin(a) * x.z;
    out[1] = sin(a) * x.x + cos(a) * x.z;
}

/* A box turning about the vertical at 2 rad/s carries a particle 0.2 m from the axis round with it: static
 * friction supplies the centripetal force m omega^2 r, 0.08 of the weight. In the box's frame the particle stays
 * where it started, within the anchor's stretch 2 omega^2 r h^2 = 1.6 um at h = 1 ms and the integrators' own
 * error over the turn: 2e-5 m (1e-4 of the radius) under every integrator. verlet_book starts it at rest (its
 * first step drops the velocity): it slips until the box has it, then stays, within the same 2e-5 m over the
 * second half second. */
static void test_turning_box_carries_particle(void **state)
{
    (void)state;
    const double omega = 2, r = 0.2, h = 1e-3, tol = 1e-4 * r;
    int bad = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        hk_world *w = world(G);
        const hk_collider_def c =
            box((hk_vec3){0, 0, 0}, (hk_vec3){1, 2 * TOP, 1}, MU, (hk_vec3){0, 0, 0}, (hk_vec3){0, omega, 0});
        assert_int_equal(hk_world_add_collider(w, &c), 0);
        /* omega x r: (0, omega, 0) x (r, 0, 0) = (0, 0, -omega r) */
        const int i = add_point(w, (hk_vec3){r, rest_height(TOP), 0}, (hk_vec3){0, 0, -omega * r});
        hk_test_integrator(w, (hk_integrator_kind)k, h);
        double half[2], end[2];
        run_for(w, 0.5);
        turned_back(w, i, omega, half);
        run_for(w, 0.5);
        turned_back(w, i, omega, end);
        const double y = hk_world_position(w, i).y;
        hk_world_destroy(w);
        const int book = k == HK_VERLET_BOOK;
        const double off = book ? hypot(end[0] - half[0], end[1] - half[1]) : hypot(end[0] - r, end[1]);
        print_message("turning, %-19s %s by %.2e m (x %.7f, z %+.2e), height %.7f m\n", hk_integrator_name(k),
                      book ? "moved on the box from 0.5 to 1 s" : "off its place on the box", off, end[0], end[1], y);
        bad += !(off <= tol) || !(fabs(y - rest_height(TOP)) <= tol);
    }
    assert_int_equal(bad, 0);
}

/* A box moving at V along x pushes a particle over a still box, the ground, with friction mu: the particle slides
 * at V with its ground friction mu m g carried by the pusher's layer, thickness - mu m g / k from its face: x = V t
 * + 0.01 - 0.00049 m. The pusher's layer is critically damped and stiff against the step (omega h = 0.1), so the
 * particle holds that place within 1e-6 m, 5e-6 of V t. */
static void test_box_pushes_particle_on_ground(void **state)
{
    (void)state;
    const double t = 1, h = 1e-3, gap = THICK - MU * MASS * G / K_C;
    int bad = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        hk_world *w = world(G);
        const hk_collider_def ground =
            box((hk_vec3){0, -TOP, 0}, (hk_vec3){4, 2 * TOP, 1}, MU, (hk_vec3){0, 0, 0}, (hk_vec3){0, 0, 0});
        const hk_collider_def pusher = box((hk_vec3){-TOP, TOP, 0}, (hk_vec3){2 * TOP, 2 * TOP, 0.5}, 0,
                                           (hk_vec3){SPEED, 0, 0}, (hk_vec3){0, 0, 0});
        assert_int_equal(hk_world_add_collider(w, &ground), 0);
        assert_int_equal(hk_world_add_collider(w, &pusher), 1);
        const int i = add_point(w, (hk_vec3){gap, rest_height(0), 0}, (hk_vec3){SPEED, 0, 0});
        hk_test_integrator(w, (hk_integrator_kind)k, h);
        run_for(w, t);
        const hk_vec3 x = hk_world_position(w, i);
        const double v = hk_world_particles(w).vx[i];
        hk_world_destroy(w);
        const double want = SPEED * t + gap;
        print_message("pushed, %-19s x(1 s) - V t = %.7f m (thickness - mu m g / k = %.7f m), v = %.7f m/s\n",
                      hk_integrator_name(k), x.x - SPEED * t, gap, v);
        bad += !(fabs(x.x - want) <= 1e-6) || !(fabs(v - SPEED) <= 1e-4 * SPEED);
    }
    assert_int_equal(bad, 0);
}

/* A 70 x 70 cloth (4900 nodes: the contact loops run on the team) lying on a box that moves and turns, under the
 * integrators whose evaluations lie inside the substep; its state hash after `steps` steps on `threads` threads. */
static uint64_t cloth_on_moving_box(hk_integrator_kind kind, double dt, int steps, int threads)
{
    hk_world *w = world(G);
    const hk_collider_def c =
        box((hk_vec3){0, 0, 0}, (hk_vec3){1, 2 * TOP, 1}, MU, (hk_vec3){SPEED, 0.05, 0}, (hk_vec3){0, 1, 0});
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    hk_cloth_def cl = hk_default_cloth_def();
    cl.nx = cl.ny = 70;
    cl.spacing = 0.01;
    cl.mass = 2e-5;
    cl.origin = (hk_vec3){-0.35, TOP + THICK - 2e-5 * G / K_C, -0.35};
    cl.u = (hk_vec3){1, 0, 0};
    cl.v = (hk_vec3){0, 0, 1};
    cl.structural = cl.shear = cl.bend = 1;
    hk_spring_params *fam[3] = {&cl.structural_springs, &cl.shear_springs, &cl.bend_springs};
    for (int f = 0; f < 3; f++) fam[f]->k = 200, fam[f]->damping = 0.01, fam[f]->damping_model = HK_DAMP_RELATIVE;
    assert_true(hk_world_add_cloth(w, &cl) >= 0);
    hk_test_integrator(w, kind, dt);
    assert_int_equal(hk_world_set_threads(w, threads), 0);
    for (int s = 0; s < steps; s++) assert_int_equal(hk_world_step(w), HK_OK);
    const uint64_t h = hk_world_state_hash(w);
    hk_world_destroy(w);
    return h;
}

/* The colliders' time per evaluation and the implicit solve's motion term are each particle's own: the same bits
 * on 1, 2 and 3 threads. */
static void test_thread_count_same_bits(void **state)
{
    (void)state;
    const hk_integrator_kind kinds[] = {HK_RK4, HK_VELOCITY_VERLET, HK_IMPLICIT_EULER, HK_TRAPEZOIDAL};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        const int implicit = kinds[k] == HK_IMPLICIT_EULER || kinds[k] == HK_TRAPEZOIDAL;
        const double dt = implicit ? 1.0 / 240 : 2e-4;
        const uint64_t one = cloth_on_moving_box(kinds[k], dt, 20, 1);
        for (int t = 2; t <= 3; t++) {
            const uint64_t many = cloth_on_moving_box(kinds[k], dt, 20, t);
            if (many != one)
                print_error("%s: %d threads give %016llx, 1 thread %016llx\n", hk_integrator_name(kinds[k]), t,
                            (unsigned long long)many, (unsigned long long)one);
            assert_true(many == one);
        }
    }
}

/* The normal damping in closed form. A particle meeting the layer at speed v0 (no gravity) moves as a damped
 * oscillator, x = (v0 / wd) e^(-zeta w t) sin(wd t) deep, w = sqrt(k / m), wd = w sqrt(1 - zeta^2), until the
 * force k x + c dx/dt, which never pulls, comes to 0: at wd t = pi - 2 asin(zeta), where its velocity is -v0
 * e^(-zeta w t). It leaves the layer at e v0,
 *     e = exp(-zeta (pi - 2 asin(zeta)) / sqrt(1 - zeta^2)),  e -> e^-2 as zeta -> 1,
 * 0.7441 at zeta 0.1 and 0.1353 at zeta 1: more than a free damped oscillator's exp(-zeta pi / sqrt(1 - zeta^2)),
 * 0.7292 and 0 (no rebound), whose damper pulls over the end of its half period. */
static double rebound(double zeta)
{
    if (zeta == 1) return exp(-2);
    return exp(-zeta * (M_PI - 2 * asin(zeta)) / sqrt(1 - zeta * zeta));
}

/* A box rising at v0 = 0.5 m/s into a particle at rest, without gravity: in the box's frame a particle dropped on
 * it at v0, under every integrator (verlet_book too, whose first step would drop a starting velocity). The
 * particle leaves at v0 (1 + e). The step's error, in units of v0: the layer's force starts up to a substep late
 * (the particle comes up to v0 h in first, a shift of w h in the oscillator's phase), and a first-order scheme
 * adds its own damping or lack of it over the contact (implicit Euler's, zeta_h = w h / 2 over pi / w, pi w h e
 * / 2): at most (1 + pi e / 2) w h < 2 w h = 4e-3 at w h = 2e-3 (h = 2e-5 s), a fifth of the 0.015 between the
 * two closed forms at zeta 0.1. (A smaller h gains nothing in the float build: position Verlet's a h^2 in x_(n+1)
 * = 2 x_n - x_(n-1) + a h^2 comes near the rounding of x.) */
static void test_normal_damping_rebound(void **state)
{
    (void)state;
    const double v0 = 0.5, h = 2e-5, wh = sqrt(K_C / MASS) * h, zetas[2] = {1, 0.1};
    int bad = 0;
    for (int z = 0; z < 2; z++)
        for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
            hk_world *w = world(0);
            hk_collider_def c =
                box((hk_vec3){0, 0, 0}, (hk_vec3){1, 2 * TOP, 1}, 0, (hk_vec3){0, v0, 0}, (hk_vec3){0, 0, 0});
            c.damping_ratio = zetas[z];
            assert_int_equal(hk_world_add_collider(w, &c), 0);
            const int i = add_point(w, (hk_vec3){0, TOP + THICK + 1e-3, 0}, (hk_vec3){0, 0, 0});
            hk_test_integrator(w, (hk_integrator_kind)k, h);
            run_for(w, 0.06); /* 2 ms to the layer, 20 to 30 ms in it */
            const double e = hk_world_particles(w).vy[i] / v0 - 1;
            const double gap = hk_world_position(w, i).y - (TOP + v0 * hk_world_time(w));
            hk_world_destroy(w);
            print_message("zeta %.1f, %-19s rebound %.5f v0 (closed form %.5f; a damper that pulls: %.5f)\n", zetas[z],
                          hk_integrator_name(k), e, rebound(zetas[z]),
                          zetas[z] < 1 ? exp(-zetas[z] * M_PI / sqrt(1 - zetas[z] * zetas[z])) : 0.0);
            bad += !(fabs(e - rebound(zetas[z])) <= 2 * wh) || !(gap > THICK); /* and out of the layer */
        }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_riding_particle_keeps_up),     cmocka_unit_test(test_slip_then_ride),
        cmocka_unit_test(test_turning_box_carries_particle), cmocka_unit_test(test_box_pushes_particle_on_ground),
        cmocka_unit_test(test_thread_count_same_bits),       cmocka_unit_test(test_normal_damping_rebound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
