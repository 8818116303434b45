/* test_builders.c — body builders: spring counts vs lattice formulas, pins, quad diagonals, input errors. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

/* ---- jelly ---------------------------------------------------------------- */

/* Springs of a class on an X x Y x Z lattice whose stencil offsets have
 * components in {-s, 0, s} with `nonzero` of them non-zero (s = 1: K1..K3,
 * s = 2: Kb1..Kb3). One axis with offset +-s has (X - s) source positions,
 * and an offset with n non-zero components has 2^(n-1) undirected sign
 * patterns:
 *   K1 = (X-1)YZ + X(Y-1)Z + XY(Z-1)
 *   K2 = 2 [(X-1)(Y-1)Z + (X-1)Y(Z-1) + X(Y-1)(Z-1)]
 *   K3 = 4 (X-1)(Y-1)(Z-1),   Kb*: the same with X-2, Y-2, Z-2. */
static int64_t jelly_class_count(int X, int Y, int Z, int s, int nonzero)
{
    int64_t a = X - s > 0 ? X - s : 0, b = Y - s > 0 ? Y - s : 0, c = Z - s > 0 ? Z - s : 0;
    switch (nonzero) {
    case 1: return a * Y * Z + (int64_t)X * b * Z + (int64_t)X * Y * c;
    case 2: return 2 * (a * b * Z + a * Y * c + (int64_t)X * b * c);
    default: return 4 * a * b * c;
    }
}

static void check_jelly(int X, int Y, int Z, int neighbours)
{
    hk_world *w = hk_test_empty_world();
    hk_jelly_def d = hk_default_jelly_def();
    d.nx = X;
    d.ny = Y;
    d.nz = Z;
    d.spacing = 0.1;
    d.neighbours = neighbours;
    int body = hk_world_add_jelly(w, &d);
    assert_int_equal(body, 0);
    hk_body_info bi = hk_world_body(w, body);
    assert_int_equal(bi.count, X * Y * Z);
    assert_true(bi.nx == X && bi.ny == Y && bi.nz == Z);
    static const char *const names[6] = {"K1(", "K2(", "K3(", "Kb1(", "Kb2(", "Kb3("};
    int64_t total = 0;
    for (int cls = 0; cls < 6; cls++) {
        int ring = cls / 3 + 1, nonzero = cls % 3 + 1;
        int64_t expect = ring == 2 && neighbours == 26 ? 0 : jelly_class_count(X, Y, Z, ring, nonzero);
        int64_t got = hk_test_family_springs(w, body, names[cls]);
        print_message("jelly %dx%dx%d/%d: %-4s %6lld springs (formula %lld)\n", X, Y, Z, neighbours, names[cls],
                      (long long)got, (long long)expect);
        assert_int_equal(got, expect);
        total += expect;
    }
    assert_int_equal(hk_world_spring_count(w), total);
    assert_int_equal(bi.springs, total);
    /* each undirected neighbour appears once: 13 (26) or 26 (52) stencil families */
    assert_int_equal(hk_world_family_count(w), neighbours / 2);
    /* Rest lengths match the lattice: no spring energy and r / L0 = 1 at
     * start (up to float rounding of spacing * sqrt(n): 1e-6). */
    hk_stats st = hk_world_stats(w);
    assert_near(st.spring, 0.0, 1e-9);
    assert_near(st.max_stretch, 1.0, 1e-6);
    hk_world_destroy(w);
}

static void test_jelly_counts_26(void **state)
{
    (void)state;
    check_jelly(5, 4, 3, 26);
}

static void test_jelly_counts_52(void **state)
{
    (void)state;
    check_jelly(5, 4, 3, 52);
    check_jelly(2, 3, 7, 52); /* X - 2 = 0: no second-ring springs along x */
}

/* ---- cloth ---------------------------------------------------------------- */

static hk_cloth_def cloth_def(int nx, int ny)
{
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = nx;
    c.ny = ny;
    c.spacing = 0.01;
    c.mass = 1e-3;
    return c;
}

static void test_cloth_counts(void **state)
{
    (void)state;
    const int N = 7, M = 5;
    hk_world *w = hk_test_empty_world();
    hk_cloth_def c = cloth_def(N, M);
    int body = hk_world_add_cloth(w, &c);
    assert_int_equal(body, 0);
    assert_int_equal(hk_test_family_springs(w, body, "structural("), (N - 1) * M + N * (M - 1));
    assert_int_equal(hk_test_family_springs(w, body, "shear("), 2 * (N - 1) * (M - 1));
    assert_int_equal(hk_test_family_springs(w, body, "bend("), (N - 2) * M + N * (M - 2));
    assert_int_equal(hk_world_body(w, body).count, N * M);
    /* particle (i, j) at origin + i s u + j s v, local index i + j nx */
    assert_near(hk_world_position(w, 3 + 2 * N).x, 3 * 0.01, 1e-7);
    assert_near(hk_world_position(w, 3 + 2 * N).z, 2 * 0.01, 1e-7);
    hk_world_destroy(w);

    /* switching families off drops exactly their springs */
    w = hk_test_empty_world();
    c.shear = 0;
    c.bend = 0;
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    assert_int_equal(hk_world_spring_count(w), (N - 1) * M + N * (M - 1));
    hk_world_destroy(w);
}

static void test_cloth_512_total(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_cloth_def c = cloth_def(512, 512);
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    /* 2 * 511 * 512 + 2 * 511 * 511 + 2 * 510 * 512 */
    assert_int_equal(hk_world_spring_count(w), 1567746);
    hk_world_destroy(w);
}

/* Brute force: every node pair of an nx x ny grid within `radius` (in
 * spacings) that the classic families do not already join. */
static int64_t pairs_within(int nx, int ny, double radius, int classic)
{
    int64_t n = 0;
    for (int a = 0; a < nx * ny; a++)
        for (int b = a + 1; b < nx * ny; b++) {
            int di = abs(a % nx - b % nx), dj = abs(a / nx - b / nx);
            if (di * di + dj * dj > radius * radius) continue;
            if (classic && ((di + dj == 1) || (di == 1 && dj == 1) || (di + dj == 2 && (di == 0 || dj == 0)))) continue;
            n++;
        }
    return n;
}

static void test_cloth_radius_families(void **state)
{
    (void)state;
    const int N = 10, M = 8;
    /* with the classic families: radius 2.3 spacings adds (2,+-1), (1,+-2)
     * (length sqrt 5 = 2.236); radius 2 adds nothing */
    hk_world *w = hk_test_empty_world();
    hk_cloth_def c = cloth_def(N, M);
    c.radius = 2.3 * c.spacing;
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    int64_t radius_springs = hk_test_family_springs(w, 0, "radius(");
    assert_int_equal(radius_springs, pairs_within(N, M, 2.3, 1));
    assert_int_equal(radius_springs, 2 * (N - 2) * (M - 1) + 2 * (N - 1) * (M - 2));
    assert_int_equal(hk_test_family_springs(w, 0, "radius(2,1)"), (N - 2) * (M - 1));
    assert_int_equal(hk_test_family_springs(w, 0, "radius(1,-2)"), (N - 1) * (M - 2));
    hk_world_destroy(w);

    w = hk_test_empty_world();
    c.radius = 2.0 * c.spacing;
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    assert_int_equal(hk_test_family_springs(w, 0, "radius("), 0);
    hk_world_destroy(w);

    /* radius families alone: every pair within 3.5 spacings, once */
    w = hk_test_empty_world();
    c.structural = c.shear = c.bend = 0;
    c.radius = 3.5 * c.spacing;
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    assert_int_equal(hk_world_spring_count(w), pairs_within(N, M, 3.5, 0));
    /* their rest lengths are the initial distances */
    assert_near(hk_world_stats(w).spring, 0.0, 1e-9);
    hk_world_destroy(w);
}

static void check_pins(hk_cloth_pins pins, int nx, int ny)
{
    hk_world *w = hk_test_empty_world();
    hk_cloth_def c = cloth_def(nx, ny);
    c.pins = pins;
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    hk_particles_view v = hk_world_particles(w);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int edge = i == 0 || i == nx - 1 || j == 0 || j == ny - 1;
            int expect = pins == HK_PIN_EDGE          ? j == 0
                         : pins == HK_PIN_TWO_CORNERS ? j == 0 && (i == 0 || i == nx - 1)
                         : pins == HK_PIN_FOUR_EDGES  ? edge
                                                      : 0;
            int pinned = v.inv_mass[i + j * nx] == 0;
            if (pinned != expect) {
                print_error("pins %d: node (%d,%d) pinned=%d, expected %d\n", (int)pins, i, j, pinned, expect);
                fail();
            }
            /* every node keeps its mass, pinned or not */
            assert_near(v.mass[i + j * nx], 1e-3, 1e-9);
        }
    hk_world_destroy(w);
}

static void test_cloth_pins(void **state)
{
    (void)state;
    for (int p = HK_PIN_NONE; p <= HK_PIN_FOUR_EDGES; p++) check_pins((hk_cloth_pins)p, 6, 4);
}

/* Pinned nodes stay exactly where they are under gravity; free ones fall. */
static void test_pinned_nodes_do_not_move(void **state)
{
    (void)state;
    hk_world *w = hk_world_create(NULL); /* default world: gravity -9.81 y */
    assert_non_null(w);
    hk_cloth_def c = cloth_def(8, 6);
    c.u = (hk_vec3){1, 0, 0};
    c.v = (hk_vec3){0, 0, 1};
    c.pins = HK_PIN_TWO_CORNERS;
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    /* default springs: k 1000 N/m on 1 g nodes, w = 1000 rad/s: h = 1e-4 s */
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-4);
    for (int s = 0; s < 1000; s++) hk_world_step(w);
    print_message("after 0.1 s: far corner y = %g m\n", (double)hk_world_position(w, 8 * 6 - 1).y);
    assert_true(hk_world_position(w, 0).x == 0 && hk_world_position(w, 0).y == 0 && hk_world_position(w, 0).z == 0);
    assert_true(hk_world_position(w, 7).x == (hk_real)(7 * 0.01) && hk_world_position(w, 7).y == 0 &&
                hk_world_position(w, 7).z == 0);
    assert_true(hk_world_position(w, 8 * 6 - 1).y < -1e-3); /* the far corner has fallen */
    hk_world_destroy(w);
}

/* ---- rope ----------------------------------------------------------------- */

static void test_rope_topologies(void **state)
{
    (void)state;
    const int n = 11;
    const hk_rope_topology topo[3] = {HK_ROPE_CHAIN, HK_ROPE_SKIP_ONE, HK_ROPE_ALL_TO_ALL};
    const int64_t expect[3] = {n - 1, (n - 1) + (n - 2), n * (n - 1) / 2};
    for (int t = 0; t < 3; t++) {
        hk_world *w = hk_test_empty_world();
        hk_rope_def r = hk_default_rope_def();
        r.count = n;
        r.topology = topo[t];
        int body = hk_world_add_rope(w, &r);
        assert_int_equal(body, 0);
        assert_int_equal(hk_world_spring_count(w), expect[t]);
        assert_int_equal(hk_world_body(w, body).springs, expect[t]);
        /* spacing along the direction; every spring starts at rest */
        assert_near(hk_world_position(w, n - 1).x, (n - 1) * r.spacing, 1e-6);
        assert_near(hk_world_stats(w).spring, 0.0, 1e-9);
        hk_world_destroy(w);
    }
    /* skip_one: the i - i+2 springs are their own family */
    hk_world *w = hk_test_empty_world();
    hk_rope_def r = hk_default_rope_def();
    r.count = n;
    r.topology = HK_ROPE_SKIP_ONE;
    assert_int_equal(hk_world_add_rope(w, &r), 0);
    assert_int_equal(hk_test_family_springs(w, 0, "skip"), n - 2);
    hk_world_destroy(w);
}

/* ---- quad ----------------------------------------------------------------- */

/* Shear angle of the square [rad]: how far edge 0-2 has turned from v. */
static double shear_angle(const hk_world *w, int first)
{
    const hk_vec3 a = hk_world_position(w, first), b = hk_world_position(w, first + 2);
    double ex = b.x - a.x, ey = b.y - a.y;
    return atan2(ex, ey); /* 0 while 0-2 points along +y */
}

/* A unit square standing in the x-y plane with its bottom corners pinned
 * and "gravity" pushing sideways along +x. Returns the final shear angle
 * and the largest |angle| seen. */
static void sideways_push(int diagonals, double *final_angle, double *max_angle)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){10, 0, 0};
    def.air_drag = 0.1;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_quad_def q = hk_default_quad_def();
    q.size = 1.0;
    q.mass = 0.1;
    q.diagonals = diagonals;
    q.springs.k = 1e4;
    q.springs.damping = 1.0;
    int body = hk_world_add_quad(w, &q);
    assert_true(body >= 0);
    assert_int_equal(hk_world_spring_count(w), diagonals ? 6 : 4);
    assert_int_equal(hk_world_pin(w, body, 0), 0);
    assert_int_equal(hk_world_pin(w, body, 1), 0);
    const int first = hk_world_body(w, body).first;
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    double mx = 0;
    for (int s = 0; s < 20000; s++) {
        hk_world_step(w);
        double a = fabs(shear_angle(w, first));
        if (a > mx) mx = a;
    }
    *final_angle = shear_angle(w, first);
    *max_angle = mx;
    hk_world_destroy(w);
}

static void test_quad_diagonals(void **state)
{
    (void)state;
    double fin, mx;
    sideways_push(1, &fin, &mx);
    print_message("quad with diagonals: final shear %.4f deg, max %.4f deg\n", fin * 180 / M_PI, mx * 180 / M_PI);
    /* With diagonals the square is rigid up to spring stretch: a 1 N load
     * per top corner on k = 1e4 N/m springs deflects it by ~1e-4 m, an
     * angle of ~0.01 deg; allow 0.5 deg. */
    assert_le(mx, 0.5 * M_PI / 180);
    sideways_push(0, &fin, &mx);
    print_message("quad without diagonals: final shear %.2f deg, max %.2f deg\n", fin * 180 / M_PI, mx * 180 / M_PI);
    /* Without them it is a parallelogram linkage: the top edge swings like a
     * pendulum and, damped, hangs along the push: shear angle 90 deg. 2 deg
     * covers the residual swing after 20 s of drag (amplitude e^-10). */
    assert_near(fin, M_PI / 2, 2 * M_PI / 180);
}

/* ---- errors --------------------------------------------------------------- */

/* The call failed with -1, left a message mentioning `word`, and added no
 * particles, bodies or springs. */
#define assert_rejected(w, call, word)                                                                                 \
    do {                                                                                                               \
        const int n0_ = hk_world_particles(w).count, b0_ = hk_world_body_count(w);                                     \
        const int64_t s0_ = hk_world_spring_count(w);                                                                  \
        assert_int_equal((call), -1);                                                                                  \
        const char *msg_ = hk_world_error(w);                                                                          \
        if (!strstr(msg_, word)) {                                                                                     \
            print_error("%s: message \"%s\" does not mention \"%s\"\n", #call, msg_, word);                            \
            fail();                                                                                                    \
        }                                                                                                              \
        assert_int_equal(hk_world_particles(w).count, n0_);                                                            \
        assert_int_equal(hk_world_body_count(w), b0_);                                                                 \
        assert_int_equal(hk_world_spring_count(w), s0_);                                                               \
    } while (0)

static void test_builder_errors(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    /* a valid body first, so "nothing added" is checked against a non-empty world */
    hk_rope_def ok = hk_default_rope_def();
    ok.count = 3;
    assert_int_equal(hk_world_add_rope(w, &ok), 0);

    hk_rope_def r = hk_default_rope_def();
    r.count = 1;
    assert_rejected(w, hk_world_add_rope(w, &r), "count");
    r = hk_default_rope_def();
    r.mass = 0;
    assert_rejected(w, hk_world_add_rope(w, &r), "mass");
    r = hk_default_rope_def();
    r.direction = (hk_vec3){0, 0, 0};
    assert_rejected(w, hk_world_add_rope(w, &r), "direction");
    r = hk_default_rope_def();
    r.springs.k = -1;
    assert_rejected(w, hk_world_add_rope(w, &r), "k");

    hk_cloth_def c = cloth_def(1, 5);
    assert_rejected(w, hk_world_add_cloth(w, &c), "nx");
    c = cloth_def(4, 4);
    c.mass = -1e-3;
    assert_rejected(w, hk_world_add_cloth(w, &c), "mass");
    c = cloth_def(4, 4);
    c.structural = c.shear = c.bend = 0;
    assert_rejected(w, hk_world_add_cloth(w, &c), "no spring family");
    c = cloth_def(4, 4);
    c.bend_springs.behaviour = HK_SPRING_BREAKABLE;
    c.bend_springs.break_ratio = 1.0;
    assert_rejected(w, hk_world_add_cloth(w, &c), "break_ratio");

    hk_jelly_def j = hk_default_jelly_def();
    j.nz = 1;
    assert_rejected(w, hk_world_add_jelly(w, &j), "nx, ny, nz");
    j = hk_default_jelly_def();
    j.neighbours = 27;
    assert_rejected(w, hk_world_add_jelly(w, &j), "neighbours");
    j = hk_default_jelly_def();
    j.mass = 0;
    assert_rejected(w, hk_world_add_jelly(w, &j), "mass");

    hk_quad_def q = hk_default_quad_def();
    q.mass = 0;
    assert_rejected(w, hk_world_add_quad(w, &q), "mass");
    q = hk_default_quad_def();
    q.size = 0;
    assert_rejected(w, hk_world_add_quad(w, &q), "size");

    hk_spring_pair_def sp = hk_default_spring_pair_def();
    sp.mass_b = 0;
    assert_rejected(w, hk_world_add_spring_pair(w, &sp), "mass");
    hk_pendulum_def pd = hk_default_pendulum_def();
    pd.length = 0;
    assert_rejected(w, hk_world_add_pendulum(w, &pd), "length");

    hk_vec3 pos[2] = {{0, 0, 0}, {1, 0, 0}};
    double mass[2] = {1, 0};
    assert_rejected(w, hk_world_add_points(w, 2, pos, NULL, mass), "mass");
    assert_rejected(w, hk_world_add_points(w, 0, pos, NULL, mass), "count");
    const int a = 0, b = 7;
    hk_spring_params s = hk_default_spring_params();
    assert_rejected(w, hk_world_add_springs(w, 0, 1, &a, &b, &s), "outside");
    assert_rejected(w, hk_world_add_springs(w, 5, 1, &a, &b, &s), "no body");
    assert_int_equal(hk_world_pin(w, 0, 3), -1);
    assert_non_null(strstr(hk_world_error(w), "out of range"));

    hk_sphere_def sd = {{0, 0, 0}, 0, {0, 0, 0}, 0};
    assert_int_equal(hk_world_add_sphere(w, &sd), -1);
    assert_non_null(strstr(hk_world_error(w), "radius"));

    hk_integrator_def id = hk_default_integrator_def();
    id.dt = 0;
    assert_int_equal(hk_world_set_integrator(w, &id), -1);
    assert_non_null(strstr(hk_world_error(w), "dt"));

    /* and the world still works: the rope built first steps normally */
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    hk_world_step(w);
    assert_int_equal(hk_world_step_count(w), 1);
    hk_world_destroy(w);
}

/* ---- spring families of listed points ----------------------------------------------------------------- */

/* hk_world_add_spring_family: a family's name, each spring's own rest length (else the family's, else the initial
 * length), read back through the springs' energy 1/2 k (r - L0)^2 and largest stretch r / L0; bad values refused. */
static void test_spring_family(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    const hk_vec3 pos[3] = {{0, 0, 0}, {1, 0, 0}, {3, 0, 0}};
    const double mass[3] = {1, 1, 1};
    const int body = hk_world_add_points(w, 3, pos, NULL, mass);
    assert_int_equal(body, 0);
    hk_spring_params p = hk_default_spring_params();
    p.k = 100;
    /* 0-1 (1 m) at its own 0.5 m, 1-2 (2 m) at its initial length: E = 1/2 100 0.5^2, r / L0 = 2 */
    const int a[2] = {0, 1}, b[2] = {1, 2};
    const double rest[2] = {0.5, 0};
    assert_int_equal(hk_world_add_spring_family(w, body, "stiff_1", 2, a, b, rest, &p), 0);
    hk_stats st = hk_world_stats(w);
    assert_near(st.spring, 12.5, 1e-5);
    assert_near(st.max_stretch, 2, 1e-6);
    /* 0-2 (3 m) in a family of rest length 1.5: no rest array and a 0 in one give the family's */
    p.rest_length = 1.5;
    const int c = 0, d = 2;
    const double none = 0;
    assert_int_equal(hk_world_add_spring_family(w, body, "soft", 1, &c, &d, NULL, &p), 1);
    assert_int_equal(hk_world_add_spring_family(w, body, "soft2", 1, &c, &d, &none, &p), 2);
    st = hk_world_stats(w);
    assert_near(st.spring, 12.5 + 2 * 0.5 * 100 * 1.5 * 1.5, 1e-4);
    assert_string_equal(hk_world_family(w, 0).name, "stiff_1");
    assert_string_equal(hk_world_family(w, 1).name, "soft");
    assert_int_equal(hk_world_family(w, 0).springs, 2);
    /* hk_world_add_springs is the family "main" */
    assert_int_equal(hk_world_add_springs(w, body, 1, &c, &d, &p), 3);
    assert_string_equal(hk_world_family(w, 3).name, "main");

    const double bad[] = {-1, NAN, INFINITY, 2 * HK_SPRING_MAX_LENGTH};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_rejected(w, hk_world_add_spring_family(w, body, "x", 1, &c, &d, &bad[i], &p), "rest length");
    char long_name[HK_FAMILY_NAME_MAX + 2];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_rejected(w, hk_world_add_spring_family(w, body, long_name, 1, &c, &d, NULL, &p), "name");
    assert_rejected(w, hk_world_add_spring_family(w, body, "", 1, &c, &d, NULL, &p), "name");
    assert_rejected(w, hk_world_add_spring_family(w, body, NULL, 1, &c, &d, NULL, &p), "name");
    long_name[HK_FAMILY_NAME_MAX] = '\0'; /* the longest name a family takes */
    assert_int_equal(hk_world_add_spring_family(w, body, long_name, 1, &c, &d, NULL, &p), 4);
    assert_string_equal(hk_world_family(w, 4).name, long_name);
    hk_world_destroy(w);
}

/* hk_world_unpin (and hk_world_set_masses) frees a pinned particle again: at rest where it was held, its inverse mass 1
 * / its mass, and it falls with the rest (after 100 steps of 1 ms under g it is g t^2 / 2 = 0.049 m below where it was
 * freed, to the first order of semi-implicit Euler: 0.0495 m); a rope's driven anchor, another body's particle and a
 * free particle: refused, refused, unchanged. */
static void test_unpin(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.air_drag = 0;
    def.ground.model = HK_GROUND_NONE;
    def.has_walls = 0;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_vec3 pos[2] = {{0, 1, 0}, {1, 1, 0}};
    const double mass[2] = {0.5, 2};
    assert_int_equal(hk_world_add_points(w, 2, pos, NULL, mass), 0);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    assert_int_equal(hk_world_pin(w, 0, 1), 0);
    for (int s = 0; s < 50; s++) assert_int_equal(hk_world_step(w), HK_OK);
    assert_true(hk_world_position(w, 1).y == 1);
    assert_int_equal(hk_world_unpin(w, 0, 1), 0);
    assert_true(hk_world_particles(w).inv_mass[1] == (hk_real)0.5);
    assert_true(hk_world_particles(w).vy[1] == 0);
    for (int s = 0; s < 100; s++) assert_int_equal(hk_world_step(w), HK_OK);
    assert_near(1 - hk_world_position(w, 1).y, 0.5 * 9.81 * 0.1 * 0.1 * (1 + 1.0 / 100), 1e-5);
    assert_int_equal(hk_world_unpin(w, 0, 0), 0); /* free: as it was */
    assert_true(hk_world_particles(w).inv_mass[0] == (hk_real)2);
    /* hk_world_set_masses: all or nothing; a pinned particle keeps inverse mass 0, unpin then frees it with its mass */
    const double bad[2] = {1, -3}, good[2] = {4, 8};
    assert_int_equal(hk_world_set_masses(w, 0, 2, bad), -1);
    assert_non_null(strstr(hk_world_error(w), "set_masses: particle 1: mass must be"));
    assert_true(hk_world_particles(w).mass[0] == (hk_real)0.5);
    assert_int_equal(hk_world_pin(w, 0, 1), 0);
    assert_int_equal(hk_world_set_masses(w, 0, 2, good), 0);
    assert_true(hk_world_particles(w).inv_mass[0] == (hk_real)0.25 && hk_world_particles(w).inv_mass[1] == 0);
    assert_int_equal(hk_world_unpin(w, 0, 1), 0);
    assert_true(hk_world_particles(w).inv_mass[1] == (hk_real)0.125);
    assert_int_equal(hk_world_set_masses(w, 1, 2, good), -1);
    assert_int_equal(hk_world_unpin(w, 0, 2), -1);
    assert_non_null(strstr(hk_world_error(w), "unpin: particle 2 out of range 0..1 of body 0"));
    assert_int_equal(hk_world_unpin(w, 3, 0), -1);
    assert_non_null(strstr(hk_world_error(w), "unpin: no body 3"));
    hk_rope_def r = hk_default_rope_def();
    r.count = 4;
    r.anchor = 1;
    assert_int_equal(hk_world_add_rope(w, &r), 1);
    assert_int_equal(hk_world_unpin(w, 1, 0), -1);
    assert_non_null(strstr(hk_world_error(w), "particle 0 of body 1 is its driven anchor"));
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jelly_counts_26),
        cmocka_unit_test(test_jelly_counts_52),
        cmocka_unit_test(test_cloth_counts),
        cmocka_unit_test(test_cloth_512_total),
        cmocka_unit_test(test_cloth_radius_families),
        cmocka_unit_test(test_cloth_pins),
        cmocka_unit_test(test_pinned_nodes_do_not_move),
        cmocka_unit_test(test_rope_topologies),
        cmocka_unit_test(test_quad_diagonals),
        cmocka_unit_test(test_builder_errors),
        cmocka_unit_test(test_spring_family),
        cmocka_unit_test(test_unpin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
