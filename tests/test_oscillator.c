/* test_oscillator.c — harmonic oscillator vs A cos(wt + phi), every integrator: convergence order, energy. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

/* One free mass m on a spring of stiffness k to a pinned anchor, no gravity:
 * the displacement from the rest position obeys x'' = -w^2 x, w = sqrt(k/m).
 * The anchor sits at x = -L0 so the displacement is the mass's own
 * coordinate, which keeps float positions near 0 (fine resolution). L0 > A so
 * the mass never reaches the anchor (the spring direction never flips). */
#define OSC_M 1.0
#define OSC_W (2.0 * M_PI) /* period 1 s */
#define OSC_K (OSC_W * OSC_W * OSC_M)
#define OSC_A 1.0  /* amplitude [m] */
#define OSC_L0 2.0 /* rest length [m] */

static hk_world *oscillator(hk_integrator_kind kind, double h, double phi)
{
    hk_world *w = hk_test_empty_world();
    hk_spring_pair_def d = hk_default_spring_pair_def();
    d.a = (hk_vec3){-OSC_L0, 0, 0};
    d.b = (hk_vec3){OSC_A * cos(phi), 0, 0};
    d.velocity_b = (hk_vec3){-OSC_A * OSC_W * sin(phi), 0, 0};
    d.mass_a = d.mass_b = OSC_M;
    d.pin_a = 1;
    d.springs.k = OSC_K;
    d.springs.rest_length = OSC_L0;
    assert_int_equal(hk_world_add_spring_pair(w, &d), 0);
    hk_test_integrator(w, kind, h);
    return w;
}

/* Largest |x_n - A cos(w t_n + phi)| over the steps of [0, periods]. The sup
 * norm (not the error at the end) is used because for some schemes the
 * leading error term vanishes at whole periods (semi-implicit Euler's O(h)
 * term is proportional to sin(wt)). */
static double max_error(hk_integrator_kind kind, double h, double periods, double phi)
{
    hk_world *w = oscillator(kind, h, phi);
    const long n = lround(periods * (2 * M_PI / OSC_W) / h);
    double err = 0;
    for (long s = 1; s <= n; s++) {
        hk_world_step(w);
        double t = s * h;
        double e = fabs((double)hk_world_position(w, 1).x - OSC_A * cos(OSC_W * t + phi));
        if (e > err) err = e;
        /* the pinned anchor must not move, and the motion stays on the x axis */
        if (hk_world_position(w, 0).x != (hk_real)-OSC_L0 || hk_world_position(w, 1).y != 0 ||
            hk_world_position(w, 1).z != 0) {
            print_error("%s: step %ld left the x axis or moved the anchor\n", hk_integrator_name(kind), s);
            fail();
        }
    }
    hk_world_destroy(w);
    return err;
}

typedef struct order_case {
    hk_integrator_kind kind;
    double h;       /* coarsest step [s]; then h/2, h/4 */
    double periods; /* simulated time [periods] */
    double phi;     /* initial phase [rad] */
    double order;   /* expected order */
    double max_err; /* bound on the error at h/4 [m], from the leading error term */
} order_case;

/* Steps are powers of two so t_n = n h is exact. They are chosen so that the
 * error at h/4 is >= 100x the float rounding accumulated over the run, so
 * the measured ratio is the truncation error's, and small enough
 * (w h <= 0.4) that higher-order terms move the ratio by well under the band.
 * Position Verlet is the sensitive one: its update 2 x_n - x_{n-1} + a h^2
 * adds a tiny a h^2 to x ~ 1 and the rounding is integrated twice, so in
 * float it needs h >= 1/128 (measured: at h = 1/512 rounding is ~40 % of the
 * error, at 1/128 it is ~0.1 %); the second-order Verlets use 1/32 .. 1/128.
 * Verlet-type and RK4 runs are longer (4 and 20 periods) so their errors,
 * which grow linearly with time, stay far above rounding. */
static void check_order(const order_case *c)
{
    double e[3];
    for (int r = 0; r < 3; r++) e[r] = max_error(c->kind, c->h / (1 << r), c->periods, c->phi);
    double p1 = log2(e[0] / e[1]), p2 = log2(e[1] / e[2]);
    print_message("%-20s h=%-9g errors %.3e %.3e %.3e  orders %.3f %.3f (expected %g)\n", hk_integrator_name(c->kind),
                  c->h, e[0], e[1], e[2], p1, p2, c->order);
    /* Accepted band: expected order +- 0.2. With w h <= 0.4 the next error
     * term changes a ratio by a few percent at most (< 0.1 in log2), and
     * rounding contributes < 1 % of the smallest error; an off-by-one order
     * (e.g. Verlet degraded to first order by a wrong first step) is 1.0 away. */
    assert_near(p1, c->order, 0.2);
    assert_near(p2, c->order, 0.2);
    /* And the method converges to the exact solution, not just at some rate. */
    assert_le(e[2], c->max_err);
}

static void test_order_euler(void **state)
{
    (void)state;
    /* leading error: amplitude growth (1 + w^2 h^2)^(n/2) - 1 ~ w^2 h t / 2 = 4.8e-3 at h/4, t = 1 */
    order_case c = {HK_EULER, 1.0 / 1024, 1, 0.3, 1.0, 1e-2};
    check_order(&c);
}

static void test_order_semi_implicit_euler(void **state)
{
    (void)state;
    /* leading error: the half-step stagger, w h A / 2 = 7.7e-4 at h/4 */
    order_case c = {HK_SEMI_IMPLICIT_EULER, 1.0 / 1024, 1, 0.3, 1.0, 2e-3};
    check_order(&c);
}

static void test_order_jelly_alpha_one(void **state)
{
    (void)state;
    /* alpha = 1, dt_a = dt_v = h: the jelly scheme is semi-implicit Euler */
    order_case c = {HK_JELLY, 1.0 / 1024, 1, 0.3, 1.0, 2e-3};
    check_order(&c);
}

static void test_order_verlet(void **state)
{
    (void)state;
    /* leading error: phase drift w t (w h)^2 / 24 = 2.5e-3 at h/4, t = 4 */
    order_case c = {HK_VERLET, 1.0 / 32, 4, 0.3, 2.0, 4e-3};
    check_order(&c);
}

static void test_order_verlet_book(void **state)
{
    (void)state;
    /* The book's first step x1 = x0 + a h^2 (instead of + a h^2 / 2) is an
     * initial velocity error a0 h / 2: globally first order, amplitude
     * w A h / 2 = 6.1e-3 at h/4. Run with v0 = 0 (phi = 0): with v0 != 0 the
     * dropped v0 h term makes the error O(1), i.e. no convergence at all.
     * Finer steps than the other Verlets: at h = 1/32 the O(h^2) phase drift
     * is still 20 % of this O(h) error and bends the ratio; the first-order
     * error is large enough that rounding stays ~1 % of it even at 1/512. */
    order_case c = {HK_VERLET_BOOK, 1.0 / 128, 4, 0.0, 1.0, 1.5e-2};
    check_order(&c);
}

static void test_order_velocity_verlet(void **state)
{
    (void)state;
    order_case c = {HK_VELOCITY_VERLET, 1.0 / 32, 4, 0.3, 2.0, 4e-3};
    check_order(&c);
}

static void test_order_rk4(void **state)
{
    (void)state;
    /* leading error: phase drift w t (w h)^4 / 120 = 9.6e-5 at h/4, t = 20 */
    order_case c = {HK_RK4, 1.0 / 16, 20, 0.3, 4.0, 2e-4};
    check_order(&c);
}

/* Energy E = m v^2 / 2 + k x^2 / 2 over many periods, relative to E0. */
static void energy_run(hk_integrator_kind kind, double h, long steps, double *min_ratio, double *max_ratio,
                       double *end_ratio, int *monotonic)
{
    hk_world *w = oscillator(kind, h, 0.3);
    const double e0 = hk_world_stats(w).total;
    double lo = 1, hi = 1, prev = e0;
    int mono = 1;
    for (long s = 0; s < steps; s++) {
        hk_world_step(w);
        double e = hk_world_stats(w).total;
        if (!(e > prev)) mono = 0;
        prev = e;
        if (e / e0 < lo) lo = e / e0;
        if (e / e0 > hi) hi = e / e0;
    }
    *min_ratio = lo;
    *max_ratio = hi;
    *end_ratio = prev / e0;
    if (monotonic) *monotonic = mono;
    hk_world_destroy(w);
}

static void test_energy_euler_grows(void **state)
{
    (void)state;
    /* Explicit Euler on x'' = -w^2 x multiplies w^2 x^2 + v^2 by exactly
     * (1 + w^2 h^2) each step, so E_n / E0 = (1 + w^2 h^2)^n and E grows at
     * every step. 10 periods at h = 1/1000 s: (1 + 3.95e-5)^10000 = 1.484. */
    const double h = 1e-3;
    const long n = 10000;
    double lo, hi, end;
    int mono;
    energy_run(HK_EULER, h, n, &lo, &hi, &end, &mono);
    const double expect = pow(1 + OSC_W * OSC_W * h * h, (double)n);
    print_message("euler: E/E0 after %ld steps = %.6f (closed form %.6f)\n", n, end, expect);
    assert_true(mono);
    /* 0.1 %: the growth factor is exact for the scheme; float rounding of
     * x, v and k (relative 1e-7 per step, 1e4 steps, random walk) is far below. */
    assert_near(end, expect, 1e-3 * expect);
}

/* Symplectic schemes: E stays within a band of width O(w h) (semi-implicit
 * Euler) or O((w h)^2) (Verlet) around E0 for all time, with no drift. 1000
 * periods at h = 1/200 s (w h = 0.0314). */
static void test_energy_semi_implicit_bounded(void **state)
{
    (void)state;
    const double h = 1.0 / 200, wh = OSC_W * h;
    double lo, hi, end;
    energy_run(HK_SEMI_IMPLICIT_EULER, h, 200000, &lo, &hi, &end, NULL);
    print_message("semi_implicit_euler: E/E0 in [%.6f, %.6f] over 1000 periods, end %.6f\n", lo, hi, end);
    /* The scheme conserves Q = v^2 + w^2 x^2 - h w^2 x v exactly; since
     * |h w^2 x v| <= (w h / 2)(v^2 + w^2 x^2), E/E0 lies within
     * [(1 - wh/2)/(1 + wh/2), (1 + wh/2)/(1 - wh/2)], i.e. +- 3.2 % here. */
    assert_le(hi, (1 + wh / 2) / (1 - wh / 2) + 1e-4);
    assert_le((1 - wh / 2) / (1 + wh / 2) - 1e-4, lo);
}

static void test_energy_verlet_bounded(void **state)
{
    (void)state;
    const double h = 1.0 / 200, wh = OSC_W * h;
    double lo, hi, end;
    energy_run(HK_VELOCITY_VERLET, h, 200000, &lo, &hi, &end, NULL);
    print_message("velocity_verlet: E/E0 in [%.7f, %.7f] over 1000 periods\n", lo, hi);
    /* Velocity Verlet conserves Q = v^2 + w^2 x^2 (1 - (wh)^2/4) exactly, so
     * E/E0 stays within (wh)^2/4 / (1 - (wh)^2/4) = 2.5e-4 of 1. The 1e-4
     * added to the bounds covers float rounding over 2e5 steps (random walk,
     * ~ sqrt(2e5) * 1e-7 = 4.5e-5). */
    const double band = wh * wh / 4 / (1 - wh * wh / 4);
    assert_le(hi, 1 + band + 1e-4);
    assert_le(1 - band - 1e-4, lo);

    energy_run(HK_VERLET, h, 200000, &lo, &hi, &end, NULL);
    print_message("verlet: E/E0 in [%.7f, %.7f] over 1000 periods\n", lo, hi);
    /* Position Verlet's positions follow a conserved discrete orbit; its
     * reported velocity, the central difference (relative error (wh)^2 / 6)
     * advanced by a_n h (one-sided: error ~ (wh)^2 / 2), is O((wh)^2) off, so
     * E/E0 deviates by about (wh)^2 (measured 0.96 (wh)^2), without drift.
     * Bound 1.5 (wh)^2 = 1.5e-3; the book's half difference (x_{n+1} - x_n) / 2h
     * would give E/E0 ~ 1/4 and fail. */
    assert_le(hi, 1 + 1.5 * wh * wh);
    assert_le(1 - 1.5 * wh * wh, lo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_euler),
        cmocka_unit_test(test_order_semi_implicit_euler),
        cmocka_unit_test(test_order_jelly_alpha_one),
        cmocka_unit_test(test_order_verlet),
        cmocka_unit_test(test_order_verlet_book),
        cmocka_unit_test(test_order_velocity_verlet),
        cmocka_unit_test(test_order_rk4),
        cmocka_unit_test(test_energy_euler_grows),
        cmocka_unit_test(test_energy_semi_implicit_bounded),
        cmocka_unit_test(test_energy_verlet_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
