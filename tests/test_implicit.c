/* test_implicit.c — the implicit integrators against closed forms: amplitude per step, order, statics, determinism. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"
#include "hk_test_osc.h"

#include <string.h>

#include "direct.h"
#include "implicit.h"
#include "system.h"

/* sqrt(x^2 + (v / w)^2): the amplitude the exact motion keeps */
static double amplitude(const hk_world *w)
{
    hk_particles_view v = hk_world_particles(w);
    const double x = hk_world_position(w, 1).x, u = v.vx[1] / OSC_W;
    return sqrt(x * x + u * u);
}

/* Backward Euler multiplies the amplitude by 1 / sqrt(1 + (w h)^2) every
 * step (its amplification matrix is that factor times a rotation); the
 * trapezoidal rule keeps it (a pure rotation). To 1e-6, from w h = 0.06 to
 * w h = 6.3 (far past every explicit scheme's limit). */
static void test_amplitude_per_step(void **state)
{
    (void)state;
    const double hs[] = {0.01, 0.05, 0.2, 1.0};
    for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++) {
        const double h = hs[i];
        const double ratio[2] = {1 / sqrt(1 + OSC_W * OSC_W * h * h), 1};
        const hk_integrator_kind kinds[2] = {HK_IMPLICIT_EULER, HK_TRAPEZOIDAL};
        for (int k = 0; k < 2; k++) {
            hk_world *w = hk_test_oscillator(kinds[k], h);
            /* while the amplitude is >= 0.3 of the start: float positions
             * resolve the ratio to 1e-7 there */
            for (int s = 0; s < 20 && amplitude(w) >= 0.3; s++) {
                const double a0 = amplitude(w);
                hk_world_step(w);
                const double got = amplitude(w) / a0;
                if (fabs(got / ratio[k] - 1) > 1e-6) {
                    print_error("%s h=%g step %d: amplitude ratio %.9g, closed form %.9g\n",
                                hk_integrator_name(kinds[k]), h, s, got, ratio[k]);
                    fail();
                }
            }
            hk_world_destroy(w);
        }
    }
}

/* Backward Euler brings an oscillator to rest: the amplitude shrinks by
 * 1 / sqrt(1 + (w h)^2) a step, past the smallest float and double within
 * 6000 steps at w h = 0.3, 1.21 and 4. The solves of a world at rest must
 * not count as a breakdown (residuals that underflow: in float the velocity
 * ends at the smallest subnormal, 1.4e-45 m/s, where B r rounds to 0), and
 * the mass stays at rest. Two oscillators: this file's (w = 2 pi rad/s,
 * equilibrium at x = 0) and scenes/oscillator.scene's (k = 100 N/m, 1 kg,
 * L0 = 1 m, released from 1.1 m: w = 10 rad/s, equilibrium at x = 1 m). */
static void test_comes_to_rest(void **state)
{
    (void)state;
    const double wh[] = {0.3, 1.21, 4};
    for (int scene = 0; scene < 2; scene++)
        for (size_t i = 0; i < sizeof wh / sizeof wh[0]; i++) {
            hk_world *w;
            double x_rest = 0;
            if (scene) {
                w = hk_test_empty_world();
                hk_spring_pair_def d = hk_default_spring_pair_def();
                d.b = (hk_vec3){1.1, 0, 0};
                d.mass_a = d.mass_b = 1;
                d.pin_a = 1;
                d.springs.k = 100;
                d.springs.rest_length = x_rest = 1;
                assert_true(hk_world_add_spring_pair(w, &d) >= 0);
                hk_test_integrator(w, HK_IMPLICIT_EULER, wh[i] / 10);
            } else {
                w = hk_test_oscillator(HK_IMPLICIT_EULER, wh[i] / OSC_W);
            }
            for (int s = 0; s < 6000; s++) hk_world_step(w);
            const hk_solver_stats st = hk_world_solver_stats(w);
            if (st.diverged || hk_world_step_count(w) != 6000) {
                print_error("oscillator %d, w h = %g: the solve broke down at step %lld\n", scene, wh[i],
                            (long long)hk_world_step_count(w));
                fail();
            }
            /* at rest, to the rounding of the spring's length */
            assert_true(fabs((double)hk_world_position(w, 1).x - x_rest) < 1e-6);
            hk_world_destroy(w);
        }
}

static void test_order(void **state)
{
    (void)state;
    const struct {
        hk_integrator_kind kind;
        double h, order;
    } cases[] = {{HK_IMPLICIT_EULER, 0.005, 1}, {HK_TRAPEZOIDAL, 0.01, 2}, {HK_BDF2, 0.01, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const double e1 = hk_test_osc_max_error(cases[c].kind, cases[c].h);
        const double e2 = hk_test_osc_max_error(cases[c].kind, cases[c].h / 2);
        const double e4 = hk_test_osc_max_error(cases[c].kind, cases[c].h / 4);
        const double p1 = log2(e1 / e2), p2 = log2(e2 / e4);
        print_message("%s: errors %.3g %.3g %.3g, observed orders %.3f %.3f\n", hk_integrator_name(cases[c].kind), e1,
                      e2, e4, p1, p2);
        assert_near(p1, cases[c].order, 0.2);
        assert_near(p2, cases[c].order, 0.2);
    }
}

/* The rope of the rope tutorial (80 masses of 0.05 kg, k = 10 000 N/m,
 * internal friction 0.2 N s/m, air drag 0.02) hanging straight down from its
 * driven first mass, released unstretched: at rest its top spring carries
 * the other 79 masses, 79 * 0.05 * 9.81 N, and stretches that over k
 * (3.875 mm). The release starts the rope's slowest longitudinal mode
 * (w1 = (pi / 2) sqrt(k / m) / 80 = 8.9 rad/s) with 81 % of those 3.875 mm
 * (the share of the first mode in the static strain); backward Euler
 * shrinks it by 1 / sqrt(1 + (w1 dt)^2) a step: 0.3 % of it is left after
 * 20 steps of 0.1 s, 0.4 % after 60 steps of 0.05 s, but 16 % after 20
 * steps of 0.05 s (w1 dt = 0.45), which the exact recursion below shows. */
#define ROPE_N 80
#define ROPE_M 0.05
#define ROPE_K 10000.0
#define ROPE_C 0.2
#define ROPE_AIR 0.02
#define ROPE_L0 0.05
#define ROPE_G 9.81

static double rope_top_stretch(double dt, int steps, double tolerance, int newton_iterations)
{
    hk_world_def wd = hk_default_world_def();
    wd.gravity = (hk_vec3){0, -ROPE_G, 0};
    wd.air_drag = ROPE_AIR;
    wd.ground.model = HK_GROUND_NONE;
    wd.has_walls = 0;
    hk_world *w = hk_world_create(&wd);
    assert_non_null(w);
    hk_rope_def r = hk_default_rope_def();
    r.count = ROPE_N;
    r.mass = ROPE_M;
    r.spacing = ROPE_L0;
    r.origin = (hk_vec3){0, 0, 0};
    r.direction = (hk_vec3){0, -1, 0};
    r.anchor = 1;
    r.springs.k = ROPE_K;
    r.springs.damping = ROPE_C;
    r.springs.damping_model = HK_DAMP_RELATIVE;
    r.springs.rest_length = ROPE_L0;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = dt;
    d.cg_tolerance = tolerance;
    d.newton_iterations = newton_iterations;
    if (!newton_iterations) d.newton_tolerance = tolerance; /* the minimisation converged as tightly as the solves */
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    for (int s = 0; s < steps; s++) hk_world_step(w);
    const double stretch = sqrt(pow((double)hk_world_position(w, 1).x - hk_world_position(w, 0).x, 2) +
                                pow((double)hk_world_position(w, 1).y - hk_world_position(w, 0).y, 2)) -
                           ROPE_L0;
    const hk_solver_stats st = hk_world_solver_stats(w);
    assert_int_equal(st.unconverged, 0);
    assert_int_equal(st.diverged, 0);
    hk_world_destroy(w);
    return stretch;
}

/* The same rope as a closed form: hanging straight, it moves along y only
 * and its forces are linear there, so backward Euler is one linear solve a
 * step: with the free heights y_1 .. y_79 (y_0 = 0 held),
 *   (M + h C + h^2 K) dv = h (f(y, v) - h K v),  v += dv,  y += h v,
 * K and C the tridiagonal stiffness and damping matrices of the chain, f
 * gravity, the springs and the air drag -c_air v. The minimisation (the
 * default) takes every force at the step's end, the drag too: it adds
 * h c_air to C's diagonal (drag_in_matrix); the linearised step
 * (newton_iterations 1) keeps the drag explicit. Solved here in double
 * precision by the tridiagonal (Thomas) algorithm, independently of the
 * library's solver. */
static double rope_closed_form(double h, int steps, int drag_in_matrix)
{
    enum { F = ROPE_N - 1 }; /* free nodes 1 .. 79 as 0 .. 78 */
    double y[F], v[F], rhs[F], lo[F], di[F], up[F];
    for (int i = 0; i < F; i++) {
        y[i] = -ROPE_L0 * (i + 1);
        v[i] = 0;
    }
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < F; i++) {
            const double ya = i ? y[i - 1] : 0, va = i ? v[i - 1] : 0; /* the node above */
            const int below = i + 1 < F;
            double f = -ROPE_M * ROPE_G - ROPE_AIR * v[i];
            f += ROPE_K * ((ya - y[i]) - ROPE_L0) - ROPE_C * (v[i] - va);
            if (below) f -= ROPE_K * ((y[i] - y[i + 1]) - ROPE_L0) + ROPE_C * (v[i] - v[i + 1]);
            const double kv = ROPE_K * ((below ? 2 : 1) * v[i] - (i ? v[i - 1] : 0) - (below ? v[i + 1] : 0));
            rhs[i] = h * (f - h * kv);
            di[i] = ROPE_M + (h * ROPE_C + h * h * ROPE_K) * (below ? 2 : 1) + (drag_in_matrix ? h * ROPE_AIR : 0);
            lo[i] = i ? -(h * ROPE_C + h * h * ROPE_K) : 0;
            up[i] = below ? -(h * ROPE_C + h * h * ROPE_K) : 0;
        }
        for (int i = 1; i < F; i++) { /* elimination */
            const double q = lo[i] / di[i - 1];
            di[i] -= q * up[i - 1];
            rhs[i] -= q * rhs[i - 1];
        }
        for (int i = F - 1; i >= 0; i--) rhs[i] = (rhs[i] - (i + 1 < F ? up[i] * rhs[i + 1] : 0)) / di[i];
        for (int i = 0; i < F; i++) {
            v[i] += rhs[i];
            y[i] += h * v[i];
        }
    }
    return -y[0] - ROPE_L0;
}

static void test_hanging_rope_statics(void **state)
{
    (void)state;
    const double expected = (ROPE_N - 1) * ROPE_M * ROPE_G / ROPE_K;
    const struct {
        double dt;
        int steps;
    } runs[] = {{0.1, 20}, {0.05, 60}};
    for (int i = 0; i < 2; i++) {
        const double got = rope_top_stretch(runs[i].dt, runs[i].steps, 1e-5, 0);
        print_message("top spring after %d steps of %g s: %.6g mm (statics %.6g mm)\n", runs[i].steps, runs[i].dt,
                      got * 1e3, expected * 1e3);
        assert_near(got, expected, 0.01 * expected);
    }
}

/* 20 steps of 0.05 s: the library's rope agrees with backward Euler's exact
 * recursion (tight solves: the difference is the solver's tolerance and
 * float rounding), which is still 4.8 % above the statics there; the
 * minimisation with the drag at the step's end, the linearised step with
 * it at the start. */
static void test_hanging_rope_recursion(void **state)
{
    (void)state;
    const double expected = (ROPE_N - 1) * ROPE_M * ROPE_G / ROPE_K;
    for (int linearised = 0; linearised < 2; linearised++) {
        const double exact = rope_closed_form(0.05, 20, !linearised);
        const double got = rope_top_stretch(0.05, 20, sizeof(hk_real) == 8 ? 1e-12 : 1e-6, linearised);
        print_message("%s: top spring after 20 steps of 0.05 s: %.7g mm, backward Euler's recursion %.7g mm, statics "
                      "%.6g mm\n",
                      linearised ? "linearised" : "minimised", got * 1e3, exact * 1e3, expected * 1e3);
        assert_near(got, exact, (sizeof(hk_real) == 8 ? 1e-9 : 1e-4) * exact);
        assert_true(fabs(exact / expected - 1) > 0.04); /* the slow mode's 16 %: the scheme, not the solver */
    }
}

/* A world of lattice and listed springs, pinned and free: a cloth of
 * 100 x 100 nodes (above the size where the solver goes parallel) pinned
 * at two corners with all its families and a breakable, tension-only mix,
 * and an icosphere (listed, coloured springs) with along damping. */
static hk_world *mixed_world(int threads, hk_integrator_kind kind)
{
    hk_world_def wd = hk_default_world_def();
    wd.ground.model = HK_GROUND_NONE;
    wd.has_walls = 0;
    wd.threads = threads;
    wd.full_team = 1; /* every pass on the whole team: the thread counts compared are the ones run */
    hk_world *w = hk_world_create(&wd);
    assert_non_null(w);
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 100;
    c.spacing = 0.01;
    c.mass = 0.001;
    c.pins = HK_PIN_TWO_CORNERS;
    c.structural_springs.k = 500;
    c.structural_springs.damping = 0.01;
    c.shear_springs.behaviour = HK_SPRING_TENSION_ONLY;
    c.shear_springs.k = 200;
    c.bend_springs.behaviour = HK_SPRING_COMPRESSION_ONLY;
    c.bend_springs.k = 50;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    hk_mesh_def m = hk_default_mesh_def();
    m.offset = (hk_vec3){0.3, -0.5, 0.2};
    m.extra_rings = 2;
    m.mass = 0.01;
    m.springs.k = 300;
    m.springs.damping = 0.05;
    m.springs.damping_model = HK_DAMP_ALONG;
    assert_true(hk_world_add_icosphere(w, &m, 0.2, 3) >= 0);
    assert_int_equal(hk_world_optimise(w, 0), 0);
    hk_test_integrator(w, kind, 1.0 / 240);
    return w;
}

/* Every reduction is summed in fixed blocks: the state has the same bits
 * on 1, 2, 3, 4 and 7 threads. */
static void test_threads_bit_identical(void **state)
{
    (void)state;
    const hk_integrator_kind kinds[] = {HK_IMPLICIT_EULER, HK_TRAPEZOIDAL};
    for (int k = 0; k < 2; k++) {
        const int threads[] = {1, 2, 3, 4, 7};
        uint64_t first = 0;
        for (int t = 0; t < 5; t++) {
            hk_world *w = mixed_world(threads[t], kinds[k]);
            for (int s = 0; s < 6; s++) hk_world_step(w);
            const hk_solver_stats st = hk_world_solver_stats(w);
            assert_int_equal(st.diverged, 0);
            assert_true(st.cg_total > 6);
            const uint64_t h = hk_world_state_hash(w);
            if (t == 0) first = h;
            if (h != first) {
                print_error("%s: %d threads give 0x%016llx, 1 thread 0x%016llx\n", hk_integrator_name(kinds[k]),
                            threads[t], (unsigned long long)h, (unsigned long long)first);
                fail();
            }
            hk_world_destroy(w);
        }
    }
}

/* ---- a chain hanging between two pins: the discrete catenary ------------ */

#define CAT_N 21     /* nodes, the two ends pinned */
#define CAT_SPAN 1.6 /* distance between the pins [m] */
#define CAT_L0 0.1   /* rest length of each of the 20 springs [m]: 2 m of chain */
#define CAT_K 500.0  /* [N/m] */
#define CAT_M 0.01   /* per node [kg] */
#define CAT_G 9.81

/* The static equilibrium of the elastic chain in the x-y plane, by Newton's
 * method in double precision on the 2 (N - 2) free coordinates (a dense
 * solve: independent of the library's solver). x holds 2 N coordinates. */
static void catenary(double *x)
{
    enum { F = CAT_N - 2, D = 2 * F };
    for (int i = 0; i < CAT_N; i++) {
        x[2 * i] = CAT_SPAN * i / (CAT_N - 1);
        x[2 * i + 1] = -0.5 * sin(M_PI * i / (CAT_N - 1)); /* a sagging start */
    }
    for (int it = 0; it < 100; it++) {
        static double J[D][D + 1];
        memset(J, 0, sizeof J);
        for (int i = 1; i < CAT_N - 1; i++) J[2 * (i - 1) + 1][D] = -CAT_M * CAT_G; /* the net force F: gravity */
        for (int s = 0; s < CAT_N - 1; s++) {
            const double dx = x[2 * s + 2] - x[2 * s], dy = x[2 * s + 3] - x[2 * s + 1], r = sqrt(dx * dx + dy * dy);
            const double u[2] = {dx / r, dy / r}, t = CAT_K * (r - CAT_L0);
            /* force on node s: t u; on node s + 1: -t u; stiffness K = k u u^T + t / r (I - u u^T) */
            double K[2][2];
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) K[a][b] = CAT_K * u[a] * u[b] + t / r * ((a == b) - u[a] * u[b]);
            const int ends[2] = {s, s + 1};
            for (int e = 0; e < 2; e++) {
                const int n = ends[e];
                if (n == 0 || n == CAT_N - 1) continue;
                const double sign = e == 0 ? 1 : -1;
                for (int a = 0; a < 2; a++) J[2 * (n - 1) + a][D] += sign * t * u[a]; /* and the springs */
                for (int f = 0; f < 2; f++) {
                    const int m = ends[f];
                    if (m == 0 || m == CAT_N - 1) continue;
                    const double sg = e == f ? 1 : -1; /* dF_n/dx_m = -K (m = n), +K (m the other end) */
                    for (int a = 0; a < 2; a++)
                        for (int b = 0; b < 2; b++) J[2 * (n - 1) + a][2 * (m - 1) + b] += sg * K[a][b];
                }
            }
        }
        /* (-dF/dx) dx = F (as assembled above); Gaussian elimination with partial pivoting */
        for (int c = 0; c < D; c++) {
            int piv = c;
            for (int r = c + 1; r < D; r++)
                if (fabs(J[r][c]) > fabs(J[piv][c])) piv = r;
            for (int k = 0; k <= D; k++) {
                const double tmp = J[c][k];
                J[c][k] = J[piv][k];
                J[piv][k] = tmp;
            }
            for (int r = c + 1; r < D; r++) {
                const double q = J[r][c] / J[c][c];
                for (int k = c; k <= D; k++) J[r][k] -= q * J[c][k];
            }
        }
        double step = 0;
        for (int c = D - 1; c >= 0; c--) {
            double v = J[c][D];
            for (int k = c + 1; k < D; k++) v -= J[c][k] * J[k][D];
            J[c][D] = v / J[c][c];
            step = fmax(step, fabs(J[c][D]));
        }
        for (int c = 0; c < D; c++) x[2 + c] += J[c][D];
        if (step < 1e-14) return;
    }
    fail_msg("the reference catenary did not converge");
}

/* The chain in hooke: a points body on a straight line between the pins
 * (its springs compressed to 0.08 m at the start), released under gravity,
 * backward Euler at dt = 0.2 s (omega dt = 45 for the stiffest mode; the
 * slowest swing, about 3 rad/s, loses 45 % of its amplitude a step) until
 * it hangs still. The lowest node's sag must match the closed-form
 * equilibrium above to 1e-4 of the sag, and every node to the same. */
static void test_catenary(void **state)
{
    (void)state;
    double want[2 * CAT_N];
    catenary(want);
    hk_world_def wd = hk_default_world_def();
    wd.gravity = (hk_vec3){0, -CAT_G, 0};
    wd.air_drag = 0;
    wd.ground.model = HK_GROUND_NONE;
    wd.has_walls = 0;
    hk_world *w = hk_world_create(&wd);
    assert_non_null(w);
    hk_vec3 pos[CAT_N];
    double mass[CAT_N];
    int a[CAT_N - 1], b[CAT_N - 1];
    for (int i = 0; i < CAT_N; i++) {
        pos[i] = (hk_vec3){CAT_SPAN * i / (CAT_N - 1), 0, 0};
        mass[i] = CAT_M;
    }
    for (int s = 0; s < CAT_N - 1; s++) {
        a[s] = s;
        b[s] = s + 1;
    }
    const int body = hk_world_add_points(w, CAT_N, pos, NULL, mass);
    assert_true(body >= 0);
    hk_spring_params sp = hk_default_spring_params();
    sp.k = CAT_K;
    sp.rest_length = CAT_L0;
    assert_int_equal(hk_world_add_springs(w, body, CAT_N - 1, a, b, &sp), 0);
    assert_int_equal(hk_world_pin(w, body, 0), 0);
    assert_int_equal(hk_world_pin(w, body, CAT_N - 1), 0);
    assert_int_equal(hk_world_optimise(w, 0), 0);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = 0.2;
    d.cg_tolerance = 1e-7;
    d.newton_iterations = 4;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    for (int s = 0; s < 200; s++) hk_world_step(w);
    const hk_solver_stats st = hk_world_solver_stats(w);
    assert_int_equal(st.diverged, 0);
    const double sag = -want[2 * (CAT_N / 2) + 1];
    double worst = 0;
    for (int i = 0; i < CAT_N; i++)
        worst = fmax(worst, fmax(fabs(hk_world_position(w, i).x - want[2 * i]),
                                 fabs(hk_world_position(w, i).y - want[2 * i + 1])));
    print_message("catenary: sag %.6f m (equilibrium %.6f m), worst node %.3g m = %.3g of the sag\n",
                  -(double)hk_world_position(w, CAT_N / 2).y, sag, worst, worst / sag);
    assert_true(worst <= 1e-4 * sag);
    hk_world_destroy(w);
}

/* ---- the system is symmetric positive definite, compressed springs too -- */

/* A jelly squeezed to 70 % of its rest size (every spring compressed, where
 * the unclamped geometric stiffness would be negative): p . A q = q . A p
 * and p . A p > 0 for pseudo-random vectors, and implicit steps of it
 * converge with no breakdown. */
static void test_compressed_jelly_spd(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_jelly_def j = hk_default_jelly_def();
    j.nx = j.ny = j.nz = 8;
    j.spacing = 0.1;
    j.mass = 0.01;
    for (int c = 0; c < HK_JELLY_CLASSES; c++) {
        j.springs[c].k = 2000;
        j.springs[c].damping = 0.1;
        j.springs[c].damping_model = c % 2 ? HK_DAMP_ALONG : HK_DAMP_RELATIVE;
    }
    assert_true(hk_world_add_jelly(w, &j) >= 0);
    for (int i = 0; i < hk_world_particles(w).count; i++) {
        const hk_vec3 x = hk_world_position(w, i);
        assert_int_equal(hk_world_set_position(w, i, (hk_vec3){0.7 * x.x, 0.7 * x.y, 0.7 * x.z}), 0);
    }
    hk_test_integrator(w, HK_IMPLICIT_EULER, 0.01);
    hk_implicit *im = hk_implicit_get(w);
    assert_non_null(im);
    const hk_real h = (hk_real)0.01;
    hk_real *const *p = im->v[HK_SYS_P], *const *q = im->v[HK_SYS_Z];
    hk_real *const *ap = im->v[HK_SYS_Q], *const *aq = im->v[HK_SYS_R];
    uint32_t seed = 12345;
    for (int trial = 0; trial < 5; trial++) {
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < hk_world_particles(w).count; i++) {
                seed = seed * 1664525u + 1013904223u;
                p[c][i] = (hk_real)((seed >> 8) / 16777216.0 - 0.5);
                seed = seed * 1664525u + 1013904223u;
                q[c][i] = (hk_real)((seed >> 8) / 16777216.0 - 0.5);
            }
        /* the springs alone (no mass term): positive semidefinite */
        hk_system_apply(w, im, h * h, h, 0, p, ap);
        hk_system_apply(w, im, h * h, h, 0, q, aq);
        const double pap = hk_system_dot(w, im, p, ap), paq = hk_system_dot(w, im, p, aq);
        const double qap = hk_system_dot(w, im, q, ap);
        assert_true(pap > 0);
        assert_near(paq, qap, 1e-5 * (fabs(paq) + pap));
    }
    for (int s = 0; s < 20; s++) hk_world_step(w);
    const hk_solver_stats st = hk_world_solver_stats(w);
    print_message("compressed jelly: %lld CG iterations in 20 steps, last residual %.3g\n", (long long)st.cg_total,
                  st.cg_residual);
    assert_int_equal(st.diverged, 0);
    assert_int_equal(st.unconverged, 0);
    assert_true(st.cg_residual <= 1e-5);
    hk_world_destroy(w);
}

/* hk_world_step's status: HK_OK for a step taken; a solve that breaks down (a velocity that overflows the damping
 * force to infinity) returns HK_ERR_DIVERGED with the reason in hk_world_error, keeps the step's start, and every
 * later step returns the same until the integrator is set again. */
static void test_step_status(void **state)
{
    (void)state;
    char err[512];
    const char *text = "world\n gravity 0 -9.81 0\nend\nbody spring\n a 0 0 0\n b 1 0 0\n mass_a 1\n mass_b 1\n"
                       " pin_a 1\n springs main k 100 damping 10 rest_length 1\nend\nrun\n integrator implicit_euler\n"
                       " dt 1e-2\nend\n";
    hk_world *w = hk_world_parse_scene(text, "status.scene", NULL, err, sizeof err);
    if (!w) fail_msg("%s", err);
    assert_int_equal(hk_world_step(w), HK_OK);
    assert_string_equal(hk_world_error(w), "");
    const double huge = sizeof(hk_real) == sizeof(float) ? 3e38 : 1.7e308;
    assert_int_equal(hk_world_set_velocity(w, 1, (hk_vec3){huge, 0, 0}), HK_OK);
    const hk_vec3 before = hk_world_position(w, 1);
    assert_int_equal(hk_world_step(w), HK_ERR_DIVERGED);
    assert_non_null(strstr(hk_world_error(w), "the implicit solve broke down at step 1"));
    assert_string_equal(hk_status_name(HK_ERR_DIVERGED), "diverged");
    const hk_vec3 after = hk_world_position(w, 1);
    assert_true(before.x == after.x && before.y == after.y && before.z == after.z);
    assert_int_equal(hk_world_step(w), HK_ERR_DIVERGED); /* stopped, not stepped */
    assert_int_equal(hk_world_step_count(w), 1);
    hk_blowup b;
    assert_int_equal(hk_world_check(w, 0, &b), 1);
    assert_string_equal(b.cause, "implicit solve broke down");
    /* set again, with a sane velocity: it steps */
    assert_int_equal(hk_world_set_velocity(w, 1, (hk_vec3){0, 0, 0}), HK_OK);
    const hk_integrator_def d = hk_world_integrator(w);
    assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
    assert_int_equal(hk_world_step(w), HK_OK);
    assert_int_equal(hk_world_step_count(w), 2);
    /* the other codes and names */
    assert_string_equal(hk_status_name(HK_OK), "ok");
    assert_string_equal(hk_status_name(HK_ERR_INVALID), "invalid");
    assert_string_equal(hk_status_name(HK_ERR_MEMORY), "memory");
    assert_string_equal(hk_status_name(HK_ERR_UNSUPPORTED), "unsupported");
    assert_string_equal(hk_status_name(-99), "unknown");
    assert_string_equal(hk_status_name(3), "unknown");
    hk_world_destroy(w);
}

/* The direct solve of a small banded system (direct.h) against CG on the same system: a strand of 12 particles,
 * the first pinned, on springs of 1e6 N/m joining neighbours and every second one (a band of 2 particles), bent
 * and stretched by a step of backward Euler, with a pseudo-random right-hand side. The two answers agree to CG's
 * tolerance, and the direct solve's energy b . A^-1 b is b . dv. */
static void test_direct_against_cg(void **state)
{
    (void)state;
    enum { N = 12 };
    hk_world *w = hk_test_empty_world();
    hk_vec3 pos[N];
    double mass[N];
    for (int i = 0; i < N; i++) {
        pos[i] = (hk_vec3){0.1 * i, 0.01 * (i % 3), 0};
        mass[i] = 1 + 0.5 * (i % 4);
    }
    const int body = hk_world_add_points(w, N, pos, NULL, mass);
    assert_true(body >= 0);
    int a[2 * N], b[2 * N], n = 0;
    for (int i = 0; i + 1 < N; i++) a[n] = i, b[n++] = i + 1;
    for (int i = 0; i + 2 < N; i++) a[n] = i, b[n++] = i + 2;
    hk_spring_params sp = hk_default_spring_params();
    sp.k = 1e6;
    sp.damping = 10;
    assert_true(hk_world_add_springs(w, body, n, a, b, &sp) >= 0);
    assert_int_equal(hk_world_pin(w, body, 0), 0);
    hk_test_integrator(w, HK_IMPLICIT_EULER, 0.01);
    assert_int_equal(hk_world_step(w), HK_OK); /* bent and stretched under gravity */
    hk_implicit *im = hk_implicit_solver(w);
    assert_non_null(im);
    int half = -1;
    assert_true(hk_direct_fits(w, &half));
    assert_int_equal(half, 2);
    const hk_real h = (hk_real)0.01, sK = h * h, sD = h;
    const hk_particles_view pv = hk_world_particles(w);
    uint32_t seed = 4711;
    for (int i = 0; i < pv.count; i++)
        for (int c = 0; c < 3; c++) {
            seed = seed * 1664525u + 1013904223u;
            im->v[HK_SYS_B][c][i] = pv.inv_mass[i] != 0 ? (hk_real)((seed >> 8) / 16777216.0 - 0.5) : 0;
        }
    hk_implicit_blocks(w, im, sK, sD);
    double energy = 0;
    const hk_cg_result direct = hk_direct_solve(w, im, sK, sD, half, &energy);
    assert_int_equal(direct.status, HK_CG_CONVERGED);
    double dv[N][3], bdv = 0, most = 0;
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 3; c++) {
            dv[i][c] = im->v[HK_SYS_DV][c][i];
            bdv += dv[i][c] * im->v[HK_SYS_B][c][i];
            most = fmax(most, fabs(dv[i][c]));
        }
    assert_near(energy, bdv, 1e-5 * fabs(bdv));
    const double tol = sizeof(hk_real) == 8 ? 1e-10 : 1e-5;
    const hk_cg_result cg = hk_cg_solve(w, im, sK, sD, HK_CG_STOP_RELATIVE, tol, 10000, 0);
    assert_int_equal(cg.status, HK_CG_CONVERGED);
    double diff = 0;
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 3; c++) diff = fmax(diff, fabs(dv[i][c] - (double)im->v[HK_SYS_DV][c][i]));
    print_message("direct against CG (%d iterations): largest difference %.3g of the largest %.3g m/s\n", cg.iterations,
                  diff, most);
    assert_true(diff <= (sizeof(hk_real) == 8 ? 1e-7 : 1e-3) * most);
    assert_true(cg.iterations > 0);
    hk_world_destroy(w);
}

/* A minimisation stopped at its iteration bound is counted, never silent: one free particle of 1 kg under gravity
 * and an air drag of 6 N s/m, a step of 0.1 s. The drag is evaluated at the step's end but not in the matrix, so
 * each Newton step leaves 0.6 of the velocity's error (h c / m): the energy the next would release falls by 0.36 a
 * step, too slowly for newton_tolerance 1e-9 (a fall of 1e-18) within HK_NEWTON_BOUND = 30 steps. At the default
 * tolerance the same step converges; either way the velocity is backward Euler's, -g h / (1 + h c / m), to the
 * tolerance reached. */
static void test_newton_bound_counted(void **state)
{
    (void)state;
    for (int tight = 0; tight < 2; tight++) {
        hk_world_def wd = hk_default_world_def();
        wd.gravity = (hk_vec3){0, -9.81, 0};
        wd.air_drag = 6;
        wd.ground.model = HK_GROUND_NONE;
        wd.has_walls = 0;
        hk_world *w = hk_world_create(&wd);
        assert_non_null(w);
        const hk_vec3 pos = {0, 0, 0};
        const double mass = 1;
        assert_true(hk_world_add_points(w, 1, &pos, NULL, &mass) >= 0);
        hk_integrator_def d = hk_default_integrator_def();
        d.kind = HK_IMPLICIT_EULER;
        d.dt = 0.1;
        d.newton_tolerance = tight ? 1e-9 : 0;
        assert_int_equal(hk_world_set_integrator(w, &d), 0);
        assert_int_equal(hk_world_step(w), HK_OK);
        const hk_solver_stats st = hk_world_solver_stats(w);
        const double v = hk_world_particles(w).vy[0], exact = -9.81 * 0.1 / (1 + 0.1 * 6 / 1);
        print_message("newton_tolerance %s: %d linear solves, %lld stopped at the bound, v %.9g (exact %.9g)\n",
                      tight ? "1e-9" : "default", st.newton_iterations, (long long)st.newton_unconverged, v, exact);
        assert_int_equal(st.newton_unconverged, tight);
        assert_int_equal(st.newton_stopped, tight);
        assert_true(tight ? st.newton_iterations == 30 : st.newton_iterations < 30);
        assert_near(v, exact, (tight ? 1e-6 : 1e-2) * fabs(exact));
        hk_world_destroy(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_amplitude_per_step),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_comes_to_rest),
        cmocka_unit_test(test_hanging_rope_statics),
        cmocka_unit_test(test_hanging_rope_recursion),
        cmocka_unit_test(test_threads_bit_identical),
        cmocka_unit_test(test_catenary),
        cmocka_unit_test(test_compressed_jelly_spd),
        cmocka_unit_test(test_step_status),
        cmocka_unit_test(test_direct_against_cg),
        cmocka_unit_test(test_newton_bound_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
