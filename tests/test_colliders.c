/* test_colliders.c — colliders: resting and sliding on a slope, cloth on a box, no tunnelling, landing, moving ones. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include "collider.h"
#include "response.h"
#include "world.h"

#define G 9.81

static hk_world *gravity_world(void)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -G, 0};
    def.ground.model = HK_GROUND_NONE;
    def.full_team = 1; /* every pass on the whole team: the thread counts compared are the ones run */
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    return w;
}

static int add_point(hk_world *w, hk_vec3 x, hk_vec3 v, double m)
{
    const int b = hk_world_add_points(w, 1, &x, &v, &m);
    assert_true(b >= 0);
    return hk_world_body(w, b).first;
}

static void steps(hk_world *w, long n)
{
    for (long s = 0; s < n; s++)
        if (hk_world_step(w) != HK_OK) {
            print_error("step %ld: %s\n", s, hk_world_error(w));
            fail();
        }
}

/* A box collider of full size `size` [m] about the origin, critically damped, with a layer `th` [m] of stiffness k
 * [N/m] and friction mu. */
static hk_collider_def box_collider(hk_vec3 size, double th, double k, double mu)
{
    hk_collider_def c = hk_default_collider_def();
    c.size = size;
    c.thickness = th;
    c.stiffness = k;
    c.damping_ratio = 1;
    c.friction = mu;
    return c;
}

/* A square cloth of n x n nodes `spacing` [m] apart, node mass `mass` [kg], its corner at `origin` and its sides
 * along u and v, with all three spring families at k [N/m] and relative damping `damping` [N s/m]. */
static hk_cloth_def square_cloth(int n, double spacing, double mass, hk_vec3 origin, hk_vec3 u, hk_vec3 v, double k,
                                 double damping)
{
    hk_cloth_def cl = hk_default_cloth_def();
    cl.nx = cl.ny = n;
    cl.spacing = spacing;
    cl.mass = mass;
    cl.origin = origin;
    cl.u = u;
    cl.v = v;
    cl.structural = cl.shear = cl.bend = 1;
    hk_spring_params *fam[3] = {&cl.structural_springs, &cl.shear_springs, &cl.bend_springs};
    for (int f = 0; f < 3; f++) fam[f]->k = k, fam[f]->damping = damping, fam[f]->damping_model = HK_DAMP_RELATIVE;
    return cl;
}

/* ---- a particle on a plane tilted by theta about z --------------------------------------------------------- */

#define SLOPE 0.3  /* [rad] */
#define THICK 0.01 /* [m] */
#define K_C 1000.0 /* [N/m] */
#define MASS 0.01  /* [kg] */

/* A world with a 100 m slab (1 m thick) tilted by SLOPE, its top face through the origin's normal line at 0.5 m,
 * as an analytic box or as the same box as a mesh, and a particle resting on it at the balance distance. */
static hk_world *slope_world(int mesh, double mu, hk_integrator_kind kind, double dt, int *particle)
{
    hk_world *w = gravity_world();
    hk_collider_def c = hk_default_collider_def();
    hk_mesh m = hk_test_box_mesh(50, 0.5, 50);
    c.shape = mesh ? HK_COLLIDER_MESH : HK_COLLIDER_BOX;
    c.mesh = &m;
    c.size = (hk_vec3){100, 1, 100};
    c.rotation = (hk_vec3){0, 0, SLOPE};
    c.thickness = THICK;
    c.stiffness = K_C;
    c.damping_ratio = 1;
    c.friction = mu;
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    hk_mesh_free(&m);
    const double n[2] = {-sin(SLOPE), cos(SLOPE)}, d = 0.5 + THICK - MASS * G * cos(SLOPE) / K_C;
    *particle = add_point(w, (hk_vec3){d * n[0], d * n[1], 0}, (hk_vec3){0, 0, 0}, MASS);
    hk_test_integrator(w, kind, dt);
    return w;
}

/* The particle's distance from the slab's top face and its velocity up the slope. */
static void slope_state(const hk_world *w, int i, double *dist, double *up)
{
    const hk_vec3 x = hk_world_position(w, i);
    const hk_particles_view v = hk_world_particles(w);
    *dist = -sin(SLOPE) * x.x + cos(SLOPE) * x.y - 0.5;
    *up = cos(SLOPE) * v.vx[i] + sin(SLOPE) * v.vy[i];
}

/* The particle's offset along the slope (up it) from its friction anchor (response.h, hk_contact_anchors) [m];
 * NAN when it holds none on collider 0. */
static double anchor_offset(hk_world *w, int i)
{
    hk_real *a[4];
    if (hk_contact_anchors(w, a) != 1 || a[3][i] != 0) return NAN;
    const hk_vec3 x = hk_world_position(w, i);
    return cos(SLOPE) * x.x + sin(SLOPE) * x.y - a[0][i]; /* the slab's frame: x along the slope, up it */
}

/* Resting (friction 0.5 > tan 0.3 = 0.309, so it sticks): the contact spring carries the weight's normal part,
 * k (thickness - d) = m g cos(theta), at d = thickness - m g cos(theta) / k = 9.906e-3 m, and static friction its
 * part along the slope: the anchor's spring k_t = m / (2 h^2) holds it m g sin(theta) / k_t = 2 g sin(theta) h^2 =
 * 5.798e-6 m down the slope from its anchor, at rest. */
static void check_rest(int mesh, hk_integrator_kind kind)
{
    int i;
    hk_world *w = slope_world(mesh, 0.5, kind, 1e-3, &i);
    steps(w, 1000);
    const hk_vec3 x0 = hk_world_position(w, i);
    steps(w, 1000);
    const hk_vec3 x1 = hk_world_position(w, i);
    double dist, up;
    slope_state(w, i, &dist, &up);
    const double expected = THICK - MASS * G * cos(SLOPE) / K_C, moved = hypot(x1.x - x0.x, x1.y - x0.y);
    const double off = anchor_offset(w, i), hold = -2 * G * sin(SLOPE) * 1e-6;
    print_message("%s %s: rests at %.9e m, k (t - d) = m g cos: %.9e m; %.3e m/s, %.3e m in the last second; "
                  "%.6e m from its anchor (%.6e)\n",
                  mesh ? "mesh" : "box", hk_integrator_name(kind), dist, expected, up, moved, off, hold);
    /* 1e-6 m: float positions near 0.5 m resolve 6e-8 m; a spring at the wrong stiffness, thickness or normal misses
     * by the penetration itself, 9.4e-5 m */
    assert_near(dist, expected, 1e-6);
    /* static: no creep (the viscous friction m / h held it at the slip speed g sin(theta) h, 2.9e-3 m/s, and moved it
     * 2.9 mm over the second); the implicit solve's stopping rule (force 1e-5) leaves a dead band of about
     * 1e-5 g h = 1e-7 m/s */
    assert_true(fabs(up) <= 1e-6);
    assert_true(moved <= 1e-8);
    assert_near(off, hold, 1e-3 * fabs(hold));
    hk_world_destroy(w);
}

static void test_rest_on_tilted_box(void **state)
{
    (void)state;
    check_rest(0, HK_SEMI_IMPLICIT_EULER);
    check_rest(0, HK_IMPLICIT_EULER);
}

static void test_rest_on_tilted_mesh(void **state)
{
    (void)state;
    check_rest(1, HK_SEMI_IMPLICIT_EULER);
    check_rest(1, HK_IMPLICIT_EULER);
}

/* Sliding (friction 0.1 < tan 0.3): Coulomb friction mu m g cos(theta) against the slope's pull m g sin(theta):
 * a = g (sin(theta) - mu cos(theta)) = 1.9619 m/s^2 down the slope, measured from 1 s to 2 s. */
static void check_slide(int mesh, hk_integrator_kind kind)
{
    const double mu = 0.1;
    int i;
    hk_world *w = slope_world(mesh, mu, kind, 1e-3, &i);
    steps(w, 1000);
    double d0, u0, d1, u1;
    slope_state(w, i, &d0, &u0);
    steps(w, 1000);
    slope_state(w, i, &d1, &u1);
    const double a = (u1 - u0) / 1.0, expected = -G * (sin(SLOPE) - mu * cos(SLOPE));
    print_message("%s %s: slides at %.7f m/s^2, g (sin - mu cos) = %.7f m/s^2\n", mesh ? "mesh" : "box",
                  hk_integrator_name(kind), a, expected);
    /* 1e-4 relative: the velocity (up to 4 m/s in float) resolves 5e-7 m/s; friction at 0.09 or 0.11 misses by 4 % */
    assert_near(a, expected, 1e-4 * fabs(expected));
    assert_near(d1, THICK - MASS * G * cos(SLOPE) / K_C, 1e-6); /* still on the plane at the balance distance */
    hk_world_destroy(w);
}

static void test_slide_on_tilted_box(void **state)
{
    (void)state;
    check_slide(0, HK_SEMI_IMPLICIT_EULER);
    check_slide(0, HK_IMPLICIT_EULER);
}

static void test_slide_on_tilted_mesh(void **state)
{
    (void)state;
    check_slide(1, HK_SEMI_IMPLICIT_EULER);
    check_slide(1, HK_IMPLICIT_EULER);
}

/* ---- the mesh's queries against the box's closed forms ----------------------------------------------------- */

/* The same box as an analytic collider and as a mesh: at 4000 points around it, inside and out, the same signed
 * distance and normal (the mesh's sign from its pseudo-normals); along 4000 segments, the same entry. */
static void test_mesh_queries_match_box(void **state)
{
    (void)state;
    hk_mesh m = hk_test_box_mesh(1, 0.5, 0.7);
    hk_collider_def d = hk_default_collider_def();
    d.size = (hk_vec3){2, 1, 1.4};
    hk_collider box, mesh;
    char why[256];
    assert_int_equal(hk_collider_init(&box, &d, why, sizeof why), HK_OK);
    d.shape = HK_COLLIDER_MESH;
    d.mesh = &m;
    assert_int_equal(hk_collider_init(&mesh, &d, why, sizeof why), HK_OK);
    hk_mesh_free(&m);
    uint64_t seed = 12345;
    int inside = 0, entered = 0;
    for (int t = 0; t < 4000; t++) {
        double p[2][3];
        for (int e = 0; e < 2; e++)
            for (int k = 0; k < 3; k++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                p[e][k] = 3.0 * ((double)(seed >> 11) / 9007199254740992.0) - 1.5;
            }
        double qa[3], qb[3], na[3], nb[3], fa, fb;
        assert_true(hk_collider_nearest(&box, p[0], 10, qa, na, &fa));
        assert_true(hk_collider_nearest(&mesh, p[0], 10, qb, nb, &fb));
        assert_near(fb, fa, 1e-12);
        for (int k = 0; k < 3; k++) {
            assert_near(qb[k], qa[k], 1e-12);
            assert_near(nb[k], na[k], 1e-9);
        }
        inside += fa < 0;
        const double sa = hk_collider_enters(&box, p[0], p[1], na), sb = hk_collider_enters(&mesh, p[0], p[1], nb);
        assert_near(sb, sa, 1e-12);
        if (sa >= 0) {
            entered++;
            for (int k = 0; k < 3; k++) assert_near(nb[k], na[k], 1e-12);
        }
    }
    print_message("4000 points (%d inside), 4000 segments (%d enter)\n", inside, entered);
    assert_true(inside > 200 && entered > 200); /* both branches were exercised */
    hk_collider_free(&box);
    hk_collider_free(&mesh);
}

/* The surfaces drawn for a box and a capsule are closed, outward meshes (hk_mesh_validate), and every vertex of
 * the capsule's lies on the capsule (signed distance 0 up to rounding). */
static void test_collider_surfaces_are_closed(void **state)
{
    (void)state;
    hk_collider_def d = hk_default_collider_def();
    for (int shape = HK_COLLIDER_BOX; shape <= HK_COLLIDER_CAPSULE; shape++) {
        d.shape = (hk_collider_shape)shape;
        d.radius = 0.3;
        d.length = 0.8;
        d.rotation = (hk_vec3){0.1, 0.2, 0.3};
        d.offset = (hk_vec3){1, 2, 3};
        hk_collider c;
        char why[256];
        assert_int_equal(hk_collider_init(&c, &d, why, sizeof why), HK_OK);
        double *xyz;
        int *tri, nv, nt;
        assert_int_equal(hk_collider_surface(&c, 0, 24, &xyz, &nv, &tri, &nt), 0);
        hk_mesh m = {nv, nt, malloc((size_t)nv * sizeof(hk_vec3)), tri, NULL};
        assert_non_null(m.vertices);
        hk_pose P;
        hk_collider_pose(&c, 0, &P);
        for (int v = 0; v < nv; v++) {
            m.vertices[v] = (hk_vec3){xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]};
            double p[3], q[3], n[3], phi;
            hk_pose_to_local(&P, xyz + 3 * v, p);
            assert_true(hk_collider_nearest(&c, p, 1, q, n, &phi));
            assert_near(phi, 0, 1e-12);
        }
        assert_int_equal(hk_mesh_validate(&m, "surface", 0, why, sizeof why), HK_OK);
        hk_mesh_free(&m);
        free(xyz);
        hk_collider_free(&c);
    }
}

/* ---- a capsule, a cloth on a box ------------------------------------------------------------------------------ */

/* A particle on top of a horizontal capsule (radius 0.2 m, axis along x after a quarter turn about z) rests where
 * the spring carries its weight, above the axis by radius + thickness - m g / k. */
static void test_rest_on_capsule(void **state)
{
    (void)state;
    hk_world *w = gravity_world();
    hk_collider_def c = hk_default_collider_def();
    c.shape = HK_COLLIDER_CAPSULE;
    c.radius = 0.2;
    c.length = 1;
    c.rotation = (hk_vec3){0, 0, M_PI / 2};
    c.thickness = THICK;
    c.stiffness = K_C;
    c.damping_ratio = 1;
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    const double expected = 0.2 + THICK - MASS * G / K_C;
    const int i = add_point(w, (hk_vec3){0.3, 0.25, 0}, (hk_vec3){0, 0, 0}, MASS);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    steps(w, 2000);
    const hk_vec3 x = hk_world_position(w, i);
    assert_near(x.y, expected, 1e-6);
    assert_near(x.x, 0.3, 1e-9);
    hk_world_destroy(w);
}

/* A cloth square (20 x 20 nodes, 2 cm apart, tilted so that one edge lands first) dropped on a box wider than
 * it comes to rest flat on the box's top face (y = 0): every node where its own spring carries its own weight,
 * y = thickness - m g / k, and still: no node moves by a float step of its place (|q| < 0.05 m) in a substep.
 * Both integrator families. */
static void check_cloth_on_box(hk_integrator_kind kind, double dt, double seconds)
{
    hk_world *w = gravity_world();
    hk_collider_def c = box_collider((hk_vec3){1, 0.2, 1}, 0.005, 100, 0.5);
    c.offset = (hk_vec3){0, -0.1, 0};
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    const hk_cloth_def cl = square_cloth(20, 0.02, 1e-3, (hk_vec3){-0.19, 0.02, -0.19}, (hk_vec3){1, 0, 0},
                                         (hk_vec3){0, 0.1, 1}, 200, 0.01);
    const int body = hk_world_add_cloth(w, &cl);
    assert_true(body >= 0);
    hk_test_integrator(w, kind, dt);
    steps(w, lround(seconds / dt));
    const double expected = 0.005 - 1e-3 * G / 100;
    const hk_particles_view v = hk_world_particles(w);
    double worst = 0, fastest = 0;
    for (int i = 0; i < v.count; i++) {
        worst = fmax(worst, fabs(hk_world_position(w, i).y - expected));
        fastest =
            fmax(fastest, sqrt((double)v.vx[i] * v.vx[i] + (double)v.vy[i] * v.vy[i] + (double)v.vz[i] * v.vz[i]));
    }
    print_message("%s: %d nodes within %.3e m of y = %.6e m, fastest %.3e m/s\n", hk_integrator_name(kind), v.count,
                  worst, expected, fastest);
    /* 2e-7 m: float heights near 5e-3 m resolve 5e-10 m, the cloth's in-plane tension leaves none vertical once
     * flat; a node held by the wrong spring, or not at all, misses by 1e-4 m or falls through */
    assert_le(worst, 2e-7);
    /* still to rounding: a node's place rounds at eps |q| (|q| < 0.05 m) and its friction anchor's at eps |a| in the
     * collider's frame (|a| < 0.2 m), whose offset the anchor's spring m / (2 h^2) turns into a speed of about
     * 0.5 eps |a| / h a substep (3.4e-6 m/s seen in float at h = 0.5 ms, 6.2e-14 in double); backward Euler's
     * solve stops with residual forces below 1e-5 m g (cg_stop force), a speed of 1e-5 g h (6.9e-8 m/s seen) */
    const double still = HK_EPS * 0.2 / dt + (kind == HK_IMPLICIT_EULER ? 1e-5 * G * dt : 0);
    assert_le(fastest, still);
    hk_world_destroy(w);
}

static void test_cloth_rests_on_box_semi_implicit(void **state)
{
    (void)state;
    check_cloth_on_box(HK_SEMI_IMPLICIT_EULER, 5e-4, 4);
}

static void test_cloth_rests_on_box_implicit(void **state)
{
    (void)state;
    check_cloth_on_box(HK_IMPLICIT_EULER, 1.0 / 240, 4);
}

/* A cloth square (16 x 16 nodes, 2 cm apart) laid in the contact layer of a box tilted by 0.25 rad (friction 0.5 >
 * tan 0.25 = 0.255) stays where it was put: after a second of settling, its nodes move less than 1e-6 m in the
 * next. Static friction holds each node a load / k_t from its anchor; the viscous friction m / h let the cloth creep
 * down at g sin(theta) h (1 cm/s at h = 1/240 s, 0.6 mm/s at 5e-4 s). Both integrator families. */
static void check_cloth_on_slope(hk_integrator_kind kind, double dt)
{
    const double th = 0.25, n[3] = {-sin(th), cos(th), 0}, u[3] = {cos(th), sin(th), 0};
    hk_world *w = gravity_world();
    hk_collider_def c = box_collider((hk_vec3){2, 0.2, 2}, 0.005, 100, 0.5);
    c.rotation = (hk_vec3){0, 0, th};
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    const double d = 0.1 + 0.005 - 1e-3 * G * cos(th) / 100; /* the top face, the layer's balance */
    const hk_vec3 o = {d * n[0] - 0.15 * u[0], d * n[1] - 0.15 * u[1], -0.15};
    const hk_cloth_def cl = square_cloth(16, 0.02, 1e-3, o, (hk_vec3){u[0], u[1], u[2]}, (hk_vec3){0, 0, 1}, 200, 0.01);
    assert_true(hk_world_add_cloth(w, &cl) >= 0);
    hk_test_integrator(w, kind, dt);
    steps(w, lround(1 / dt));
    const hk_particles_view v = hk_world_particles(w);
    hk_vec3 *x0 = malloc((size_t)v.count * sizeof *x0);
    assert_non_null(x0);
    for (int i = 0; i < v.count; i++) x0[i] = hk_world_position(w, i);
    steps(w, lround(1 / dt));
    double moved = 0, down = 0;
    for (int i = 0; i < v.count; i++) {
        const hk_vec3 x = hk_world_position(w, i);
        moved = fmax(moved, sqrt((x.x - x0[i].x) * (x.x - x0[i].x) + (x.y - x0[i].y) * (x.y - x0[i].y) +
                                 (x.z - x0[i].z) * (x.z - x0[i].z)));
        down += ((x0[i].x - x.x) * u[0] + (x0[i].y - x.y) * u[1]) / v.count;
    }
    print_message("%s: %d nodes, the farthest moved %.3e m in the second second, the cloth %.3e m down the slope\n",
                  hk_integrator_name(kind), v.count, moved, down);
    assert_le(moved, 1e-6);
    free(x0);
    hk_world_destroy(w);
}

static void test_cloth_rests_on_slope(void **state)
{
    (void)state;
    check_cloth_on_slope(HK_SEMI_IMPLICIT_EULER, 5e-4);
    check_cloth_on_slope(HK_IMPLICIT_EULER, 1.0 / 240);
}

/* ---- no tunnelling ------------------------------------------------------------------------------------------- */

/* A cloth (24 x 24 nodes, 4 cm apart) dropped from 10 m onto a plate 1 mm thick (a closed mesh, 2 m square) at
 * dt = 1/240 s: it meets the plate at 14 m/s, 5.8 cm a step, more than the plate and both contact layers together,
 * so the contact force alone cannot stop it (checked below); the swept test must. Not one node ends below the
 * plate's top face, and the safety net has acted. */
static void check_plate(hk_integrator_kind kind, double dt_max)
{
    hk_world *w = gravity_world();
    hk_mesh m = hk_test_box_mesh(1, 0.0005, 1);
    hk_collider_def c = hk_default_collider_def();
    c.shape = HK_COLLIDER_MESH;
    c.mesh = &m;
    c.thickness = 0.004;
    c.stiffness = 2000;
    c.damping_ratio = 1;
    c.friction = 0.3;
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    hk_mesh_free(&m);
    const hk_cloth_def cl =
        square_cloth(24, 0.04, 1e-3, (hk_vec3){-0.46, 10, -0.46}, (hk_vec3){1, 0, 0}, (hk_vec3){0, 0.05, 1}, 50, 0.01);
    assert_true(hk_world_add_cloth(w, &cl) >= 0);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = kind;
    d.dt = 1.0 / 240;
    d.dt_max = dt_max;
    assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
    const double h = d.dt / hk_world_substeps(w), impact = sqrt(2 * G * 10);
    assert_true(impact * h > 2 * c.thickness + 0.001); /* one substep jumps the plate and both layers */
    double lowest = INFINITY;
    for (int s = 0; s < 600; s++) { /* 2.5 s: the impact at 1.43 s */
        steps(w, 1);
        for (int i = 0; i < hk_world_particles(w).count; i++) lowest = fmin(lowest, hk_world_position(w, i).y);
    }
    print_message("%s, substep %.3g s: lowest node ever at %.6e m (plate top 5e-4 m), %lld put back\n",
                  hk_integrator_name(kind), h, lowest, (long long)w->contact->caught);
    assert_true(lowest > 0.0005);
    assert_true(w->contact->caught > 0);
    hk_world_destroy(w);
}

static void test_fast_cloth_stays_above_plate_implicit(void **state)
{
    (void)state;
    check_plate(HK_IMPLICIT_EULER, 0);
}

static void test_fast_cloth_stays_above_plate_semi_implicit(void **state)
{
    (void)state;
    check_plate(HK_SEMI_IMPLICIT_EULER, 1e-3);
}

/* ---- landing in the layer ----------------------------------------------------------------------------------- */

/* Two 10 g particles fall onto a box's top face (y = 0.1 m; layer 1 cm, k = 1e4 N/m) from 2 mm above the layer,
 * one step of backward Euler linearised at its start (newton_iterations 1) at 5 ms: no contact force acts in the
 * step (they start outside the layer; the minimisation would take the layer's spring at the step's end). One
 * (1.5 m/s) ends the step 4.25 mm into the layer, the other (3 m/s) 2.4 mm through the face. The safety net puts
 * both where the layer's spring would have stopped them, at rest along the normal: 1 cm - |v| sqrt(m / k) above
 * the face, |v| = v0 + g dt the speed the step gave them (their normal kinetic energy then in the spring). */
static void test_landing_where_the_spring_stops(void **state)
{
    (void)state;
    const double th = 0.01, k = 1e4, m = 0.01, dt = 0.005, y0 = 0.1 + th + 0.002;
    hk_world *w = gravity_world();
    const hk_collider_def c = box_collider((hk_vec3){1, 0.2, 1}, th, k, 0);
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    const double v0[2] = {1.5, 3};
    int id[2];
    for (int q = 0; q < 2; q++) id[q] = add_point(w, (hk_vec3){0.2 * q, y0, 0}, (hk_vec3){0, -v0[q], 0}, m);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = dt;
    d.newton_iterations = 1;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    const double before = w->contact->caught;
    steps(w, 1);
    const hk_particles_view v = hk_world_particles(w);
    for (int q = 0; q < 2; q++) {
        const double speed = v0[q] + G * dt, free = y0 - dt * speed - 0.1, want = th - speed * sqrt(m / k);
        const double gap = hk_world_position(w, id[q]).y - 0.1;
        print_message("%.1f m/s: the step alone leaves it %.6e m from the face, the net %.6e m (spring's stop "
                      "%.6e m), vy %.3e m/s\n",
                      v0[q], free, gap, want, (double)v.vy[id[q]]);
        assert_true(q == 0 ? free > 0 && free < want : free < 0); /* into the layer deeper than the stop; through */
        assert_near(gap, want, 1e-6);
        assert_near(v.vy[id[q]], 0, 1e-6);
    }
    assert_int_equal(w->contact->caught - before, 2);
    hk_world_destroy(w);
}

/* A 100 x 100 cloth (1 cm spacing, 10000 nodes: the contact passes on the team), slightly tilted, falls 0.2 m onto
 * a box under backward Euler at 1/240 s, meeting it at 2 m/s, 8 mm a step against a 3 mm layer: after every step no
 * node is inside the box and none is nearer its surface than a quarter of the layer, and 1, 2 and 3 threads give the
 * same bits. Without the landing above, the nodes that come into the layer unseen end a step 1e-4 m from the face. */
static uint64_t landing_cloth(int threads, double *nearest)
{
    const double th = 0.003;
    hk_world *w = gravity_world();
    const hk_collider_def c = box_collider((hk_vec3){2, 0.2, 2}, th, 1e4, 0.3);
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    const hk_cloth_def cl = square_cloth(100, 0.01, 2e-5, (hk_vec3){-0.5, 0.1 + th + 0.2, -0.5}, (hk_vec3){1, 0.02, 0},
                                         (hk_vec3){0, 0, 1}, 2000, 0.02);
    assert_true(hk_world_add_cloth(w, &cl) >= 0);
    /* linearised (newton_iterations 1): the step the safety net is for; minimised, the layer's spring holds the
     * nodes at its edge, 1e-7 m inside (m g / k), where some end a step just outside it */
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = 1.0 / 240;
    d.newton_iterations = 1;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    assert_int_equal(hk_world_set_threads(w, threads), 0);
    *nearest = INFINITY;
    int64_t touching = 0;
    for (int s = 0; s < 72; s++) { /* the first nodes land at step 48 */
        steps(w, 1);
        const hk_contact_survey sv = hk_contact_counts(w, NULL);
        assert_int_equal(sv.inside, 0);
        if (sv.contacts) *nearest = fmin(*nearest, sv.min_gap);
        touching = sv.contacts;
    }
    assert_int_equal(touching, 10000); /* all of it landed */
    const uint64_t h = hk_world_state_hash(w);
    hk_world_destroy(w);
    return h;
}

static void test_landing_cloth_keeps_its_gap(void **state)
{
    (void)state;
    double nearest[3];
    const uint64_t h1 = landing_cloth(1, &nearest[0]);
    for (int t = 2; t <= 3; t++) assert_true(landing_cloth(t, &nearest[t - 1]) == h1);
    print_message("nearest a node came to the face after a step: %.6e m (layer 3e-3 m), hash 0x%016llx\n", nearest[0],
                  (unsigned long long)h1);
    assert_true(nearest[0] >= 0.003 / 4);
    assert_true(nearest[1] == nearest[0] && nearest[2] == nearest[0]);
}

/* ---- moving colliders ------------------------------------------------------------------------------------------ */

/* A box rising at 0.5 m/s carries a particle on its top face at the balance distance; a box turning about the
 * vertical at 2 rad/s takes a particle 0.2 m from the axis round with it (friction 1 supplies the centripetal
 * force, 0.08 of the weight). */
static void test_moving_boxes_carry_particles(void **state)
{
    (void)state;
    hk_world *w = gravity_world();
    hk_collider_def c = box_collider((hk_vec3){1, 0.2, 1}, THICK, K_C, 1);
    c.velocity = (hk_vec3){0, 0.5, 0};
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    c.offset = (hk_vec3){10, 0, 0};
    c.velocity = (hk_vec3){0, 0, 0};
    c.angular_velocity = (hk_vec3){0, 2, 0};
    assert_int_equal(hk_world_add_collider(w, &c), 1);
    const double rest = 0.1 + THICK - MASS * G / K_C;
    const int a = add_point(w, (hk_vec3){0, rest, 0}, (hk_vec3){0, 0.5, 0}, MASS);
    const int b = add_point(w, (hk_vec3){10.2, rest, 0}, (hk_vec3){0, 0, -0.4}, MASS);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-3);
    steps(w, 2000);
    const double t = hk_world_time(w);
    const hk_particles_view v = hk_world_particles(w);
    const hk_vec3 xa = hk_world_position(w, a), xb = hk_world_position(w, b);
    assert_near(xa.y - 0.5 * t, rest, 1e-6);
    assert_near(v.vy[a], 0.5, 1e-5);
    const double r = hypot(xb.x - 10, xb.z), speed = hypot(v.vx[b], v.vz[b]);
    print_message("rising: %.7e m above the face; turning: radius %.5f m, speed %.5f m/s (omega r = %.5f)\n",
                  xa.y - 0.5 * t - 0.1, r, speed, 2 * r);
    /* held by static friction: out by at most the anchor's stretch were the spring alone to pull it round, m omega^2
     * r / k_t = 2 omega^2 r h^2 = 1.6e-6 m (its damper takes a share: the velocity lags the turning surface by half a
     * step), and no more (the viscous friction m / h let it slip outwards at omega^2 r h = 0.8 mm/s) */
    assert_true(r >= 0.2 && r <= 0.2 + 2 * 4 * 0.2 * 1e-6);
    assert_near(speed, 2 * r, 1e-3 * 2 * r);
    assert_near(xb.y, rest, 1e-6);
    hk_world_destroy(w);
}

/* ---- inside the implicit solve ------------------------------------------------------------------------------ */

/* A 1 kg particle on a contact spring of 1e6 N/m (omega = 1000 rad/s) at dt = 0.01 s, omega dt = 10: backward
 * Euler rests it at the balance distance, stiller than the dead band of the solve's stopping rule (residual forces
 * below 1e-5 m g leave 1e-5 g dt = 1e-6 m/s), because the spring's stiffness is in its matrix;
 * the force alone, taken explicitly, is unstable beyond omega dt = 2 (hooke stability, integrators table). */
static void test_implicit_stiff_contact_rests(void **state)
{
    (void)state;
    hk_world *w = gravity_world();
    hk_collider_def c = hk_default_collider_def();
    c.size = (hk_vec3){1, 0.2, 1};
    c.thickness = THICK;
    c.stiffness = 1e6;
    c.friction = 0.5;
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    const int i = add_point(w, (hk_vec3){0.1, 0.1 + THICK, 0.2}, (hk_vec3){0.3, -1, 0}, 1);
    hk_test_integrator(w, HK_IMPLICIT_EULER, 0.01);
    steps(w, 300);
    const hk_particles_view v = hk_world_particles(w);
    assert_near(hk_world_position(w, i).y, 0.1 + THICK - G / 1e6, 1e-7);
    assert_true(sqrt((double)v.vx[i] * v.vx[i] + (double)v.vy[i] * v.vy[i] + (double)v.vz[i] * v.vz[i]) <= 1e-6);
    hk_world_destroy(w);
}

/* ---- bad input ----------------------------------------------------------------------------------------------- */

static void expect_refused(hk_world *w, const hk_collider_def *c, const char *words)
{
    const int n = hk_world_collider_count(w);
    assert_int_equal(hk_world_add_collider(w, c), HK_ERR_INVALID);
    if (!strstr(hk_world_error(w), words)) {
        print_error("expected '%s' in: %s\n", words, hk_world_error(w));
        fail();
    }
    assert_int_equal(hk_world_collider_count(w), n);
}

static void test_bad_colliders_refused(void **state)
{
    (void)state;
    hk_world *w = gravity_world();
    hk_collider_def c = hk_default_collider_def();
    c.thickness = 0;
    expect_refused(w, &c, "thickness must be > 0 m");
    c = hk_default_collider_def();
    c.stiffness = -1;
    expect_refused(w, &c, "collider box: stiffness must be in [1e-12, 1e12] N/m (got -1)");
    c.stiffness = 1e30; /* the bound of every stiffness, with its reason */
    expect_refused(w, &c, "collider box: stiffness must be in [1e-12, 1e12] N/m (got 1e+30): outside it k/m");
    c = hk_default_collider_def();
    c.damping_ratio = 1e30; /* was taken, and the run blew up at its 6th step */
    expect_refused(w, &c, "collider box: damping_ratio must be in [0, 100] (got 1e+30): a bounce keeps e^-2");
    c.damping_ratio = -0.5;
    expect_refused(w, &c, "collider box: damping_ratio must be in [0, 100] (got -0.5)");
    c = hk_default_collider_def();
    c.velocity.x = 1e39; /* past single precision: refused there, as scene files refuse it */
    if (sizeof(hk_real) == 4) expect_refused(w, &c, "collider box: velocity.x must be within this build's precision");
    c = hk_default_collider_def();
    c.thickness = 1e39;
    if (sizeof(hk_real) == 4)
        expect_refused(w, &c, "thickness must be > 0 m, finite and within this build's precision");
    c = hk_default_collider_def();
    c.friction = NAN;
    expect_refused(w, &c, "friction must be >= 0");
    c = hk_default_collider_def();
    c.offset.y = INFINITY;
    expect_refused(w, &c, "offset.y must be finite (got inf)");
    c = hk_default_collider_def();
    c.size.z = 0;
    expect_refused(w, &c, "size must be > 0 m");
    c = hk_default_collider_def();
    c.shape = HK_COLLIDER_CAPSULE;
    c.radius = 0;
    expect_refused(w, &c, "radius must be > 0 m");
    c = hk_default_collider_def();
    c.shape = HK_COLLIDER_MESH;
    expect_refused(w, &c, "no mesh given");
    hk_mesh m = hk_test_box_mesh(1, 1, 1);
    c.mesh = &m;
    m.face_count = 11; /* one face gone: open */
    expect_refused(w, &c, "not closed");
    m.face_count = 12;
    for (int f = 0; f < 12; f++) { /* every face turned: inverted */
        const int t = m.faces[3 * f + 1];
        m.faces[3 * f + 1] = m.faces[3 * f + 2];
        m.faces[3 * f + 2] = t;
    }
    expect_refused(w, &c, "point inward");
    m.vertices[3].x = NAN;
    expect_refused(w, &c, "not finite");
    hk_mesh_free(&m);
    hk_world_destroy(w);
}

/* Thicker than the smallest spring rest length (a rope's 2 cm): refused when added after the rope, and when the
 * rope comes after it, the first step fails with the reason. */
static void test_thickness_against_springs(void **state)
{
    (void)state;
    hk_rope_def r = hk_default_rope_def();
    r.count = 5;
    r.spacing = 0.02;
    hk_collider_def c = hk_default_collider_def();
    c.thickness = 0.03;
    hk_world *w = gravity_world();
    assert_true(hk_world_add_rope(w, &r) >= 0);
    expect_refused(w, &c, "larger than the smallest spring rest length 0.02 m");
    c.thickness = 0.02;
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    hk_world_destroy(w);
    w = gravity_world();
    c.thickness = 0.03;
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    assert_true(hk_world_add_rope(w, &r) >= 0);
    assert_int_equal(hk_world_step(w), HK_ERR_INVALID);
    assert_non_null(strstr(hk_world_error(w), "larger than the smallest spring rest length"));
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rest_on_tilted_box),
        cmocka_unit_test(test_rest_on_tilted_mesh),
        cmocka_unit_test(test_slide_on_tilted_box),
        cmocka_unit_test(test_slide_on_tilted_mesh),
        cmocka_unit_test(test_mesh_queries_match_box),
        cmocka_unit_test(test_collider_surfaces_are_closed),
        cmocka_unit_test(test_rest_on_capsule),
        cmocka_unit_test(test_cloth_rests_on_box_semi_implicit),
        cmocka_unit_test(test_cloth_rests_on_box_implicit),
        cmocka_unit_test(test_cloth_rests_on_slope),
        cmocka_unit_test(test_fast_cloth_stays_above_plate_implicit),
        cmocka_unit_test(test_fast_cloth_stays_above_plate_semi_implicit),
        cmocka_unit_test(test_landing_where_the_spring_stops),
        cmocka_unit_test(test_landing_cloth_keeps_its_gap),
        cmocka_unit_test(test_moving_boxes_carry_particles),
        cmocka_unit_test(test_implicit_stiff_contact_rests),
        cmocka_unit_test(test_bad_colliders_refused),
        cmocka_unit_test(test_thickness_against_springs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
