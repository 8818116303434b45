/* test_external_term.c — a force added through its descriptor alone (tests/tether_term.h) is counted everywhere. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include "external.h" /* with tests/tether_term.h: this program links the core built with it */

/*
 * The core this program links has one more per-particle force than the
 * shipped one: a tether f = -k (x - c) to a point c far from the origin,
 * written in tests/tether_term.h and nowhere else. Three bodies that take the
 * three ways forces are evaluated (a cloth and a jelly lattice, a listed
 * point body) start at rest around c, under no gravity, drag or ground.
 *
 * The springs' forces cancel in pairs, so the centre of mass of each body
 * of equal masses m moves as one oscillator, X'' = -(k/m) (X - c): under RK4
 * at w dt = 2e-3 it follows c + (X0 - c) cos(w t) to ~1e-12 of the
 * amplitude; float rounding of the body-frame positions allows 1e-4 m here.
 * RK4 keeps the total energy to ~1e-9 over the run (float positions to
 * ~2e-7), so the stats' total
 * (kinetic + springs + every term's potential) must stay put while the
 * tether's potential alone swings by most of it: a potential left out of the
 * total is seen at once. The potential in the total is also checked against
 * sum k |x_i - c|^2 / 2 from the positions, and the engine's kernel paths and
 * thread counts against each other bit for bit.
 */

#define MASS 0.5                                 /* per particle [kg] */
#define DT 1e-3                                  /* [s] */
#define STEPS 1000                               /* 1 s: w t = 2 rad, the centres pass c at w t = pi/2 */
#define SPRING_K 50.0                            /* the bodies' springs [N/m], undamped: w_spring dt ~ 0.02 */
static const double shift[3] = {0.4, -0.3, 0.2}; /* each body's centre starts at c + shift [m] */

enum { CLOTH, JELLY, POINTS, BODIES };

static hk_spring_params springs(void)
{
    hk_spring_params s = hk_default_spring_params();
    s.k = SPRING_K;
    s.damping = 0; /* no loss: the total energy is conserved to RK4's and the positions' rounding */
    return s;
}

/* The world: the three bodies centred at c + shift + an offset each, at rest. */
static hk_world *make_world(void)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, 0, 0};
    def.ground.model = HK_GROUND_NONE;
    def.has_walls = 0;
    def.full_team = 1; /* every pass on the whole team: the thread counts compared are the ones run */
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    const double c[3] = {TETHER_C_X + shift[0], TETHER_C_Y + shift[1], TETHER_C_Z + shift[2]};

    hk_cloth_def cl = hk_default_cloth_def();
    cl.nx = 9, cl.ny = 7, cl.spacing = 0.05, cl.mass = MASS;
    cl.origin = (hk_vec3){c[0] - 0.2, c[1], c[2] - 0.15};
    cl.structural_springs = cl.shear_springs = cl.bend_springs = springs();
    cl.pins = HK_PIN_NONE;
    assert_int_equal(hk_world_add_cloth(w, &cl), CLOTH);

    hk_jelly_def j = hk_default_jelly_def();
    j.nx = j.ny = j.nz = 4, j.spacing = 0.05, j.mass = MASS;
    j.origin = (hk_vec3){c[0] - 0.075, c[1] - 0.075, c[2] - 0.075};
    for (int s = 0; s < HK_JELLY_CLASSES; s++) j.springs[s] = springs();
    assert_int_equal(hk_world_add_jelly(w, &j), JELLY);

    enum { N = 12 };
    hk_vec3 pos[N];
    double mass[N];
    int a[N], b[N];
    for (int i = 0; i < N; i++) { /* a closed ring of points, a list body */
        const double t = 2 * M_PI * i / N;
        pos[i] = (hk_vec3){c[0] + 0.1 * cos(t), c[1] + 0.1 * sin(t), c[2] + 0.02 * cos(3 * t)};
        mass[i] = MASS;
        a[i] = i, b[i] = (i + 1) % N;
    }
    assert_int_equal(hk_world_add_points(w, N, pos, NULL, mass), POINTS);
    const hk_spring_params sp = springs();
    assert_true(hk_world_add_springs(w, POINTS, N, a, b, &sp) >= 0);
    hk_test_integrator(w, HK_RK4, DT);
    return w;
}

static void centre_of(const hk_world *w, int body, double out[3])
{
    const hk_body_info bi = hk_world_body(w, body);
    out[0] = out[1] = out[2] = 0;
    for (int i = bi.first; i < bi.first + bi.count; i++) {
        const hk_vec3 x = hk_world_position(w, i);
        out[0] += x.x, out[1] += x.y, out[2] += x.z;
    }
    for (int k = 0; k < 3; k++) out[k] /= bi.count;
}

/* sum k |x_i - c|^2 / 2 over every particle, from the positions [J] */
static double tether_potential(const hk_world *w)
{
    double e = 0;
    for (int b = 0; b < hk_world_body_count(w); b++) {
        const hk_body_info bi = hk_world_body(w, b);
        for (int i = bi.first; i < bi.first + bi.count; i++) {
            const hk_vec3 x = hk_world_position(w, i);
            const double r[3] = {x.x - TETHER_C_X, x.y - TETHER_C_Y, x.z - TETHER_C_Z};
            e += 0.5 * TETHER_K * (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        }
    }
    return e;
}

/* Runs the world on kernel path `path` with `threads`; checks the centres
 * and the energy; returns the final positions (caller frees). */
static double *run(const char *path, int threads)
{
    hk_world *w = make_world();
    assert_int_equal(hk_world_set_kernels(w, path), HK_OK);
    assert_int_equal(hk_world_set_threads(w, threads), HK_OK);
    const double omega = sqrt(TETHER_K / MASS);
    double x0[BODIES][3];
    for (int b = 0; b < BODIES; b++) centre_of(w, b, x0[b]);

    const hk_stats s0 = hk_world_stats(w);
    const double u0 = tether_potential(w);
    /* the tether's potential is in the total, and is most of it at rest */
    assert_near(s0.total - s0.kinetic - s0.gravity - s0.spring, u0, 1e-9 * u0);
    assert_true(u0 > 0.9 * s0.total);

    double worst_centre = 0, worst_energy = 0, lowest_u = u0;
    for (int step = 1; step <= STEPS; step++) {
        assert_int_equal(hk_world_step(w), HK_OK);
        if (step % 50) continue;
        const double t = step * DT, cw = cos(omega * t);
        for (int b = 0; b < BODIES; b++) {
            double x[3];
            centre_of(w, b, x);
            const double c[3] = {TETHER_C_X, TETHER_C_Y, TETHER_C_Z};
            for (int k = 0; k < 3; k++) worst_centre = fmax(worst_centre, fabs(x[k] - (c[k] + (x0[b][k] - c[k]) * cw)));
        }
        const hk_stats s = hk_world_stats(w);
        const double u = tether_potential(w);
        assert_near(s.total - s.kinetic - s.gravity - s.spring, u, 1e-6 * u0);
        worst_energy = fmax(worst_energy, fabs(s.total - s0.total) / s0.total);
        lowest_u = fmin(lowest_u, u);
    }
    print_message("%-9s %d thread(s): centres within %.3g m of c + (X0 - c) cos(w t); total energy within %.3g of "
                  "its start while the tether's potential fell to %.3f of it\n",
                  path, threads, worst_centre, worst_energy, lowest_u / u0);
    assert_true(worst_centre < 1e-4);
    /* float rounding of the positions (~1.6e-7 measured); the tether's potential swings by 0.95 of the total */
    assert_true(worst_energy < 1e-5);
    assert_true(lowest_u < 0.3 * u0);

    const int n = hk_world_particles(w).count;
    double *xyz = malloc(3 * (size_t)n * sizeof *xyz);
    assert_non_null(xyz);
    assert_int_equal(hk_world_positions(w, 0, n, xyz), HK_OK);
    hk_world_destroy(w);
    return xyz;
}

static void test_counted_on_every_path(void **state)
{
    (void)state;
    static const char *const paths[] = {"reference", "scalar", "avx2", "avx512"};
    double *engine = NULL;
    int n = 0;
    {
        hk_world *w = make_world();
        n = hk_world_particles(w).count;
        hk_world_destroy(w);
    }
    int ran = 0;
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        if (!hk_kernel_path_available(paths[p])) continue;
        double *xyz = run(paths[p], 1);
        ran++;
        if (p == 0) {
            free(xyz);
            continue;
        }
        /* every engine path gives the same bits (hk_world_set_kernels) */
        if (!engine)
            engine = xyz;
        else {
            assert_memory_equal(engine, xyz, 3 * (size_t)n * sizeof *xyz);
            free(xyz);
        }
    }
    assert_true(ran >= 2); /* the reference and the scalar engine exist in every build */
    double *two = run("scalar", 2);
    assert_memory_equal(engine, two, 3 * (size_t)n * sizeof *two);
    free(two);
    free(engine);
}

/* The term's facts reach the library's summaries: the blow-up hint's stiffness and the closed-form flag. */
static void test_facts(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.ground.model = HK_GROUND_NONE;
    /* the extra term comes after every term of the library's own, however many a new force has made them */
    assert_int_equal(HK_TERM_tether, HK_EXTERNAL_TERM_COUNT - 1);
    assert_true(HK_TERM_tether > HK_TERM_ground);
    assert_near(hk_external_stiffness(&def), TETHER_K, 0);
    assert_int_equal(hk_external_closed_form(&def), 0);
    hk_external e;
    hk_external_init(&e, &def);
    assert_int_equal(e.reads, HK_READ_X | HK_READ_Y | HK_READ_Z);
    /* bodies whose origins differ in any coordinate see different forces */
    const double a[3] = {0, 0, 0}, b[3] = {0, 0, 1};
    assert_false(hk_external_same_frame(&def, a, b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_facts),
        cmocka_unit_test(test_counted_on_every_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
