/* test_zero_length.c — every body kind refuses a spring of zero length or one too long, in the library and scenes. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "hk_test_cli.h"

#include <float.h>
#include <math.h>

#include "scene.h"

#define NO_DIRECTION ": a spring of zero length has no direction to act along"

/* The call returned -1 with exactly `want` as the world's error and added no particle, body or spring. */
#define assert_refused(w, call, want)                                                                                  \
    do {                                                                                                               \
        const int n0_ = hk_world_particles(w).count, b0_ = hk_world_body_count(w);                                     \
        const int f0_ = hk_world_family_count(w);                                                                      \
        const int rc_ = (call);                                                                                        \
        if (rc_ != -1 || strcmp(hk_world_error(w), want) != 0) {                                                       \
            print_error("%s: rc %d, error:\n  %s\nexpected:\n  %s\n", #call, rc_, hk_world_error(w), want);            \
            fail();                                                                                                    \
        }                                                                                                              \
        assert_int_equal(hk_world_particles(w).count, n0_);                                                            \
        assert_int_equal(hk_world_body_count(w), b0_);                                                                 \
        assert_int_equal(hk_world_family_count(w), f0_);                                                               \
    } while (0)

/* So far from the origin that neither single nor double precision tells neighbours apart: 1e17 + 1 is stored as
 * 1e17 (the spacing between doubles there is 16). */
#define FAR 1e17

static void test_points_and_listed_springs(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    /* coincident points joined by a spring: refused, whatever the rest length */
    const hk_vec3 pos[4] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {5e-10, 0, 0}};
    const double mass[4] = {1, 1, 1, 1};
    const int body = hk_world_add_points(w, 4, pos, NULL, mass);
    assert_int_equal(body, 0);
    const int a[2] = {0, 1}, b[2] = {1, 2};
    hk_spring_params sp = hk_default_spring_params();
    sp.rest_length = 1;
    const int64_t springs0 = hk_world_spring_count(w);
    assert_int_equal(hk_world_add_springs(w, body, 2, a, b, &sp), -1);
    assert_string_equal(hk_world_error(w), "body 0 (points), family main: spring joins particles 1 and 2 at the same "
                                           "position (1, 0, 0)" NO_DIRECTION);
    assert_int_equal(hk_world_spring_count(w), springs0);
    /* closer than 1e-9 of the body's size (1 m): refused; at 2e-9 of it: a spring */
    const int c = 0, d = 3;
    assert_int_equal(hk_world_add_springs(w, body, 1, &c, &d, &sp), -1);
    assert_string_equal(hk_world_error(w),
                        "body 0 (points), family main: spring joins particles 0 and 3, 5e-10 m apart "
                        "in a body 1 m across (less than 1e-9 of it)" NO_DIRECTION);
    const hk_vec3 pos2[3] = {{0, 0, 0}, {1, 0, 0}, {2e-9, 0, 0}};
    const int body2 = hk_world_add_points(w, 3, pos2, NULL, mass);
    const int e = 0, f = 2;
    assert_true(hk_world_add_springs(w, body2, 1, &e, &f, &sp) >= 0);
    /* the public check gives the same verdict before anything is built */
    char why[320];
    assert_int_equal(hk_find_zero_length_spring(4, pos, 2, a, b, why, sizeof why), 1);
    assert_string_equal(why, "joins particles 1 and 2 at the same position (1, 0, 0)" NO_DIRECTION);
    assert_int_equal(hk_find_zero_length_spring(3, pos2, 1, &e, &f, why, sizeof why), -1);
    assert_string_equal(why, "");
    hk_world_destroy(w);
}

static void test_small_bodies(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    /* a spring pair on one point, even with a rest length */
    hk_spring_pair_def sp = hk_default_spring_pair_def();
    sp.a = sp.b = (hk_vec3){1, 2, 3};
    sp.springs.rest_length = 1;
    assert_refused(
        w, hk_world_add_spring_pair(w, &sp),
        "body 0 (pair), family main: spring joins particles 0 and 1 at the same position (1, 2, 3)" NO_DIRECTION);
    /* a pendulum whose rod is shorter than single precision resolves at its pivot */
    hk_pendulum_def pd = hk_default_pendulum_def();
    pd.pivot = (hk_vec3){FAR, FAR, 0};
    pd.angle = 0;
    pd.length = 0.05;
    assert_refused(w, hk_world_add_pendulum(w, &pd),
                   "body 0 (pendulum), family main: spring joins particles 0 and 1 at the same position (1e+17, 1e+17, "
                   "0)" NO_DIRECTION);
    /* a quad whose u and v coincide: corners 1 and 2 meet, their diagonal has no length */
    hk_quad_def q = hk_default_quad_def();
    q.v = q.u;
    assert_refused(
        w, hk_world_add_quad(w, &q),
        "body 0 (quad), family main: spring joins particles 1 and 2 at the same position (1, 0, 0)" NO_DIRECTION);
    q.diagonals = 0; /* without the diagonals no spring is of zero length (the square is flat, not invalid) */
    assert_int_equal(hk_world_add_quad(w, &q), 0);
    hk_world_destroy(w);
}

static void test_lattice_bodies(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    /* a lattice keeps its rest shape wherever it is: at 1e17 m, where steps
     * of 1 m vanish in any coordinate, its springs still have their length
     * (its nodes are held relative to the lattice) */
    hk_rope_def r = hk_default_rope_def();
    r.count = 4;
    r.spacing = 1;
    r.origin = (hk_vec3){FAR, 0, 0};
    for (int t = 0; t < 2; t++) {
        r.topology = t ? HK_ROPE_ALL_TO_ALL : HK_ROPE_CHAIN;
        assert_int_equal(hk_world_add_rope(w, &r), 0);
        const hk_stats st = hk_world_stats(w);
        assert_true(st.max_stretch == 1 && st.spring == 0);
        hk_world_destroy(w);
        w = hk_test_empty_world();
    }
    /* a rest step that rounds to 0 in the solver's precision is no spring:
     * 1e-46 m is below the smallest float, a double holds it */
    r.topology = HK_ROPE_CHAIN;
    r.origin = (hk_vec3){0, 0, 0};
    r.spacing = 1e-46;
#ifdef HOOKE_DOUBLE
    assert_int_equal(hk_world_add_rope(w, &r), 0);
    hk_world_destroy(w);
    w = hk_test_empty_world();
#else
    assert_refused(w, hk_world_add_rope(w, &r),
                   "body 0 (rope), family chain: spring joins particles 0 and 1 at the same position (0, 0, "
                   "0)" NO_DIRECTION);
#endif
    /* a cloth with u = v folds onto a line: (i + 1, j) and (i, j + 1) meet */
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 3;
    c.spacing = 0.5;
    c.v = c.u;
    assert_refused(w, hk_world_add_cloth(w, &c),
                   "body 0 (cloth), family shear(1,-1): spring joins particles 1 and 3 at the same position (0.5, 0, "
                   "0)" NO_DIRECTION);
    /* the same with only a radius stencil */
    c.structural = c.shear = c.bend = 0;
    c.radius = 0.75;
    assert_refused(w, hk_world_add_cloth(w, &c),
                   "body 0 (cloth), family radius(1,-1): spring joins particles 1 and 3 at the same position (0.5, 0, "
                   "0)" NO_DIRECTION);
    hk_jelly_def j = hk_default_jelly_def();
    j.nx = j.ny = j.nz = 2;
    j.spacing = 1;
    j.origin = (hk_vec3){FAR, 0, 0};
    assert_int_equal(hk_world_add_jelly(w, &j), 0);
    assert_true(hk_world_stats(w).max_stretch == 1);
    hk_world_destroy(w);
}

/* An icosahedron with vertex 0 moved onto vertex 9, two edges away: a valid closed mesh whose extra ring (vertices
 * two edges apart) has a zero-length spring, while its edges do not. */
static void pinched_icosahedron(hk_mesh *m)
{
    assert_int_equal(hk_mesh_icosphere(m, 1, 0, (hk_vec3){0, 0, 0}), 0);
    m->vertices[0] = m->vertices[9];
    char err[256];
    assert_int_equal(hk_mesh_validate(m, "pinched", 0, err, sizeof err), 0);
}

static void test_surface_bodies(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_mesh m;
    pinched_icosahedron(&m);
    hk_mesh_def md = hk_default_mesh_def();
    md.mesh = &m;
    assert_int_equal(hk_world_add_mesh(w, &md), 0); /* edges only: every edge has a length */
    md.extra_rings = 2;
    char want[512];
    snprintf(
        want, sizeof want,
        "body 1 (mesh), family extra: spring joins particles 0 and 9 at the same position (%g, %g, %g)" NO_DIRECTION,
        (double)(hk_real)m.vertices[9].x, (double)(hk_real)m.vertices[9].y, (double)(hk_real)m.vertices[9].z);
    assert_refused(w, hk_world_add_mesh(w, &md), want);
    /* a whole mesh shifted where single precision cannot resolve it: its edges collapse */
    md.extra_rings = 0;
    md.offset = (hk_vec3){FAR, FAR, FAR};
    assert_refused(w, hk_world_add_mesh(w, &md),
                   "body 1 (mesh), family edges: spring joins particles 0 and 1 at the same position (1e+17, 1e+17, "
                   "1e+17)" NO_DIRECTION);
    hk_mesh_free(&m);
    hk_mesh_def id = hk_default_mesh_def();
    id.offset = (hk_vec3){FAR, FAR, FAR};
    assert_refused(
        w, hk_world_add_icosphere(w, &id, 1, 1),
        "body 1 (icosphere), family edges: spring joins particles 0 and 12 at the same position (1e+17, 1e+17, "
        "1e+17)" NO_DIRECTION);
    hk_ring_def rg = hk_default_ring_def();
    rg.center = (hk_vec3){FAR, FAR, 0};
    assert_refused(w, hk_world_add_ring(w, &rg),
                   "body 1 (ring), family ring: spring joins particles 0 and 1 at the same position (1e+17, 1e+17, "
                   "0)" NO_DIRECTION);
    hk_world_destroy(w);
}

/* Scene text fails with exactly `want`. */
static void scene_refuses(const char *text, const char *want)
{
    hk_scene sc;
    char err[1024];
    const int rc = hk_scene_parse(text, "x.scene", &sc, err, sizeof err);
    if (rc == 0 || strcmp(err, want) != 0) {
        print_error("scene:\n%s\n---\nrc %d, message:\n  %s\nexpected:\n  %s\n", text, rc, err, want);
        hk_scene_free(&sc);
        fail();
    }
    assert_null(sc.world);
}

static void test_scenes(void **state)
{
    (void)state;
    /* points: at the spring line, whatever the rest length */
    scene_refuses("body points\n point 0 0 0 1\n point 1 0 0 1\n point 1 0 0 1\n spring 0 1\n spring 1 2\n"
                  " springs main k 10 rest_length 1\nend\n",
                  "x.scene:6:9: error: spring joins particles 1 and 2 at the same position (1, 0, 0)" NO_DIRECTION);
    /* body spring: at the key 'b' */
    scene_refuses(
        "body spring\n a 0 0 0\n b 0 0 0\n mass_b 1\n springs main k 10 rest_length 1\nend\n",
        "x.scene:3:2: error: key 'b': the spring joins particles 0 and 1 at the same position (0, 0, 0)" NO_DIRECTION);
    /* builder bodies: at the body's end line, as every builder error */
#ifndef HOOKE_DOUBLE /* a float rest step of 0 (test_lattice_bodies) */
    scene_refuses("body rope\n count 3\n mass 1\n spacing 1e-46\nend\n",
                  "x.scene:5:1: error: body rope rejected: body 0 (rope), family chain: spring joins particles 0 and 1 "
                  "at the same position (0, 0, 0)" NO_DIRECTION);
#endif
    /* lattices far out keep their rest shape (test_lattice_bodies) */
    static const char *const far_lattices[] = {
        "body rope\n count 3\n mass 1\n spacing 0.05\n origin 1e17 0 0\nend\n",
        "body cloth\n nx 2\n ny 2\n spacing 1\n mass 1\n origin 1e17 0 0\n springs structural k 10\nend\n",
        "body jelly\n nx 2\n ny 2\n nz 2\n spacing 1\n mass 1\n origin 1e17 0 0\nend\n",
    };
    for (size_t i = 0; i < sizeof far_lattices / sizeof *far_lattices; i++) {
        hk_scene fs;
        char ferr[512];
        assert_int_equal(hk_scene_parse(far_lattices[i], "x.scene", &fs, ferr, sizeof ferr), 0);
        assert_true(hk_world_stats(fs.world).max_stretch == 1);
        hk_scene_free(&fs);
    }
    static const struct {
        const char *text, *want;
    } collapsed[] = {
        {"body quad\n size 1\n mass 1\n origin 1e17 0 0\nend\n",
         "x.scene:5:1: error: body quad rejected: body 0 (quad), family main: spring joins particles 0 and 1 at the "
         "same position (1e+17, 0, 0)" NO_DIRECTION},
        {"body pendulum\n pivot 1e17 1e17 0\n length 1\n angle 0\n mass 1\n k 1e4\nend\n",
         "x.scene:7:1: error: body pendulum rejected: body 0 (pendulum), family main: spring joins particles 0 and 1 "
         "at "
         "the same position (1e+17, 1e+17, 0)" NO_DIRECTION},
        {"body icosphere\n radius 1\n level 0\n center 1e17 1e17 1e17\n mass 1\nend\n",
         "x.scene:6:1: error: body icosphere rejected: body 0 (icosphere), family edges: spring joins particles 0 and "
         "1 "
         "at the same position (1e+17, 1e+17, 1e+17)" NO_DIRECTION},
    };
    for (size_t i = 0; i < sizeof collapsed / sizeof *collapsed; i++)
        scene_refuses(collapsed[i].text, collapsed[i].want);
    scene_refuses("body ring\n count 5\n radius 1\n center 1e17 1e17 0\n mass 1\nend\n",
                  "x.scene:6:1: error: body ring rejected: body 0 (ring), family ring: spring joins particles 0 and 1 "
                  "at the same position (1e+17, 1e+17, 0)" NO_DIRECTION);
    /* a mesh file whose extra ring joins two vertices at one place */
    hk_mesh m;
    pinched_icosahedron(&m);
    const char *path = hk_test_path("pinched.obj");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int v = 0; v < m.vertex_count; v++)
        fprintf(f, "v %.17g %.17g %.17g\n", m.vertices[v].x, m.vertices[v].y, m.vertices[v].z);
    for (int t = 0; t < m.face_count; t++)
        fprintf(f, "f %d %d %d\n", m.faces[3 * t] + 1, m.faces[3 * t + 1] + 1, m.faces[3 * t + 2] + 1);
    assert_int_equal(fclose(f), 0);
    char text[512], want[768];
    snprintf(text, sizeof text, "body mesh\n file %s\n mass 0.1\n extra_rings 2\nend\n", path);
    snprintf(want, sizeof want,
             "x.scene:5:1: error: body mesh rejected: body 0 (mesh), family extra: spring joins particles 0 and 9 at "
             "the same position (%g, %g, %g)" NO_DIRECTION,
             (double)(hk_real)m.vertices[9].x, (double)(hk_real)m.vertices[9].y, (double)(hk_real)m.vertices[9].z);
    scene_refuses(text, want);
    hk_mesh_free(&m);
    /* a spring with a length, however short next to its body, is still a spring */
    hk_scene sc;
    char err[512];
    assert_int_equal(
        hk_scene_parse("body points\n point 0 0 0 1\n point 1 0 0 1\n point 1e-8 0 0 1\n spring 0 2\nend\n", "x.scene",
                       &sc, err, sizeof err),
        0);
    assert_int_equal(hk_world_spring_count(sc.world), 1);
    hk_scene_free(&sc);
}

/* Springs longer than HK_SPRING_MAX_LENGTH (the forces square a length: 2^63 m in float) are refused like those of
 * zero length, as are rest lengths beyond it; a double build holds them. */
static void test_too_long(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
#ifdef HOOKE_DOUBLE
    assert_true(HK_SPRING_MAX_LENGTH == ldexp(1, 511));
    const double beyond = 1e160;
#else
    assert_true(HK_SPRING_MAX_LENGTH == ldexp(1, 63));
    assert_true(4 * HK_SPRING_MAX_LENGTH * HK_SPRING_MAX_LENGTH / FLT_MAX < 1.0000001); /* its square a quarter */
    const double beyond = 1e20;
#endif
    char want[512];
    /* listed points 8e18 m apart: a spring in both builds; 2e20 m apart (2e160 m in double): refused */
    const double mass[2] = {1, 1};
    const hk_vec3 near[2] = {{-4e18, 0, 0}, {4e18, 0, 0}}, far[2] = {{-beyond, 0, 0}, {beyond, 0, 0}};
    const int a = 0, b = 1;
    hk_spring_params sp = hk_default_spring_params();
    assert_int_equal(hk_world_add_points(w, 2, near, NULL, mass), 0);
    assert_true(hk_world_add_springs(w, 0, 1, &a, &b, &sp) >= 0);
    hk_world_destroy(w);
    w = hk_test_empty_world();
    assert_int_equal(hk_world_add_points(w, 2, far, NULL, mass), 0);
    const int64_t springs0 = hk_world_spring_count(w);
    assert_int_equal(hk_world_add_springs(w, 0, 1, &a, &b, &sp), -1);
    snprintf(want, sizeof want,
             "body 0 (points), family main: spring joins particles 0 and 1, %g m apart: longer than %g m, beyond "
             "this build's precision (the forces square a spring's length)",
             2 * beyond, HK_SPRING_MAX_LENGTH);
    assert_string_equal(hk_world_error(w), want);
    assert_int_equal(hk_world_spring_count(w), springs0);
    char why[320];
    assert_int_equal(hk_find_zero_length_spring(2, far, 1, &a, &b, why, sizeof why), 0);
    assert_int_equal(hk_find_zero_length_spring(2, near, 1, &a, &b, why, sizeof why), -1);
    hk_world_destroy(w);
    w = hk_test_empty_world();
    /* a rope whose spacing is beyond it; just below it, a rope */
    hk_rope_def r = hk_default_rope_def();
    r.count = 3;
    r.spacing = beyond;
    snprintf(want, sizeof want,
             "body 0 (rope), family chain: spring joins particles 0 and 1, %g m apart: longer than %g m, beyond "
             "this build's precision (the forces square a spring's length)",
             (double)(hk_real)beyond, HK_SPRING_MAX_LENGTH);
    assert_refused(w, hk_world_add_rope(w, &r), want);
    r.spacing = 0.99 * HK_SPRING_MAX_LENGTH;
    assert_int_equal(hk_world_add_rope(w, &r), 0);
    hk_world_destroy(w);
    w = hk_test_empty_world();
    /* a rest length beyond it */
    r.spacing = 1;
    r.springs.rest_length = 2 * HK_SPRING_MAX_LENGTH;
    snprintf(want, sizeof want, "rope springs: rest_length must be at most %g m, this build's longest spring (got %g)",
             HK_SPRING_MAX_LENGTH, 2 * HK_SPRING_MAX_LENGTH);
    assert_refused(w, hk_world_add_rope(w, &r), want);
    hk_world_destroy(w);
#ifndef HOOKE_DOUBLE
    /* a cloth whose spacing a float cannot hold: its nodes' rest vectors are infinite */
    w = hk_test_empty_world();
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 3;
    c.spacing = 1e39;
    snprintf(want, sizeof want,
             "body 0 (cloth), family structural(1,0): spring joins particles 0 and 1, inf m apart: longer than %g m, "
             "beyond this build's precision (the forces square a spring's length)",
             HK_SPRING_MAX_LENGTH);
    assert_refused(w, hk_world_add_cloth(w, &c), want);
    hk_world_destroy(w);
    /* in a scene the number itself is refused where it stands; a spacing a float holds, at the body's end */
    scene_refuses("body cloth\n nx 3\n ny 3\n spacing 1e39\n mass 1\n springs structural k 1\nend\n",
                  "x.scene:4:10: error: expected a number of size at most 3.40282e+38 for 'spacing', got '1e39' "
                  "(beyond this build's precision)");
    snprintf(want, sizeof want,
             "x.scene:7:1: error: body cloth rejected: body 0 (cloth), family structural(1,0): spring joins particles "
             "0 and 1, 1e+20 m apart: longer than %g m, beyond this build's precision (the forces square a spring's "
             "length)",
             HK_SPRING_MAX_LENGTH);
    scene_refuses("body cloth\n nx 3\n ny 3\n spacing 1e20\n mass 1\n springs structural k 1\nend\n", want);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points_and_listed_springs),
        cmocka_unit_test(test_small_bodies),
        cmocka_unit_test(test_lattice_bodies),
        cmocka_unit_test(test_surface_bodies),
        cmocka_unit_test(test_scenes),
        cmocka_unit_test(test_too_long),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
