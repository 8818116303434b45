/* test_scene_points.c — body points: named spring families, a spring's own rest length, one spring per pair. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"
#include "hk_test_parse.h"
#include "scene.h"
#include "world.h"

/* Three points on the y axis, 0.1 m apart, and the lines of a test after them. */
#define POINTS3 "body points\n point 0 0 0 1\n point 0 -0.1 0 1\n point 0 -0.2 0 1\n"

/* The families of body 0 are built main first (where a spring is in it), then the named ones in the order they
 * are first named, each its springs in file order, with the parameters of its springs line; a spring's own rest
 * length is its L0, the others keep the family's. */
static void test_families_built(void **state)
{
    (void)state;
    hk_scene sc = parse_ok(POINTS3 " point 0 -0.3 0 1\n"
                                   " spring 2 3 soft rest_length 0.05\n"
                                   " springs stiff k 1e8 damping 2\n"
                                   " spring 0 1 stiff\n"
                                   " spring 1 2\n"
                                   " springs soft k 1e4 behaviour tension_only\n"
                                   " spring 3 1 soft\n"
                                   "end\n");
    hk_world *w = sc.world;
    assert_int_equal(hk_world_family_count(w), 3);
    static const struct {
        const char *name;
        int springs;
        double k, damping;
    } want[3] = {{"main", 1, 1000, 0}, {"soft", 2, 1e4, 0}, {"stiff", 1, 1e8, 2}};
    for (int f = 0; f < 3; f++) {
        const hk_family_info fi = hk_world_family(w, f);
        assert_string_equal(fi.name, want[f].name);
        assert_int_equal(fi.body, 0);
        assert_int_equal(fi.springs, want[f].springs);
        assert_true(fi.params.k == want[f].k && fi.params.damping == want[f].damping);
    }
    assert_int_equal(hk_world_family(w, 1).params.behaviour, HK_SPRING_TENSION_ONLY);
    /* soft: 2-3 at its own 0.05 m (drawn 0.1 m), 3-1 at its initial 0.2 m; stiff and main at their initial lengths */
    const hk_family *soft = &w->families[1];
    assert_non_null(soft->rest_list);
    assert_true(soft->a[0] == 2 && soft->b[0] == 3 && soft->a[1] == 3 && soft->b[1] == 1);
    assert_true(soft->rest_list[0] == (hk_real)0.05);
    assert_near((double)soft->rest_list[1], 0.2, 1e-6);
    assert_near(hk_world_stats(w).max_stretch, 2, 1e-5);
    hk_scene_free(&sc);

    /* a body whose springs are all main builds the one family main, as before families had names */
    sc = parse_ok(POINTS3 " spring 0 1\n spring 1 2 main\n springs main k 7\nend\n");
    assert_int_equal(hk_world_family_count(sc.world), 1);
    assert_string_equal(hk_world_family(sc.world, 0).name, "main");
    assert_int_equal(hk_world_family(sc.world, 0).springs, 2);
    assert_true(hk_world_family(sc.world, 0).params.k == 7);
    hk_scene_free(&sc);
}

/* A family a spring names must be declared; a declared family must have a spring (main included, once a springs
 * line names it); the names follow one rule. */
static void test_family_refusals(void **state)
{
    (void)state;
    check_error(POINTS3 " spring 0 1 stif\n spring 1 2 soft\n springs stiff k 1e6\n springs soft k 1\nend\n",
                "x.scene:5:13: error: expected a spring family of body points, main or one a 'springs' line declares "
                "(main, soft or stiff), got 'stif'");
    check_error(POINTS3 " spring 0 1\n springs soft k 10\nend\n",
                "x.scene:6:2: error: springs family 'soft' has no 'spring' line to apply to");
    check_error(POINTS3 " spring 0 1 soft\n springs main k 1\n springs soft k 2\nend\n",
                "x.scene:6:2: error: springs family 'main' has no 'spring' line to apply to");
    check_error(POINTS3 " spring 0 1 soft\n springs soft k 2\n springs soft k 3\nend\n",
                "x.scene:7:10: error: springs family 'soft' repeated in body points (first at line 6)");
    check_error(POINTS3 " spring 0 1 soft\n springs soft damping 3\nend\n",
                "x.scene:6:24: error: springs family 'soft' is missing required key 'k'");
    const char *rule =
        text_of("main, or a name of letters, digits and '_' that starts with a letter, at most %d bytes, "
                "not 'rest_length'",
                HK_FAMILY_NAME_MAX);
    check_error(POINTS3 " springs 9x k 1\nend\n",
                text_of("x.scene:5:10: error: expected a spring family of body points (%s), got '9x'", rule));
    check_error(POINTS3 " springs rest_length k 1\nend\n",
                text_of("x.scene:5:10: error: expected a spring family of body points (%s), got 'rest_length'", rule));
    char name[HK_FAMILY_NAME_MAX + 2], text[512];
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    snprintf(text, sizeof text, POINTS3 " spring 0 1 %s\nend\n", name);
    check_error(text,
                text_of("x.scene:5:13: error: expected a spring family (%s) or 'rest_length' for 'spring'", rule));
    check_error(
        POINTS3 " spring 0 1 2.5\nend\n",
        text_of("x.scene:5:13: error: expected a spring family (%s) or 'rest_length' for 'spring', got '2.5'", rule));
    check_error(POINTS3 " spring 0 1 soft 7\n springs soft k 1\nend\n",
                "x.scene:5:18: error: expected 'rest_length' or end of line after the family of 'spring', got '7'");
    /* the longest name is taken */
    name[HK_FAMILY_NAME_MAX] = '\0';
    snprintf(text, sizeof text, POINTS3 " spring 0 1 %s\n springs %s k 5\nend\n", name, name);
    hk_scene sc = parse_ok(text);
    assert_string_equal(hk_world_family(sc.world, 0).name, name);
    hk_scene_free(&sc);
}

/* A spring's own rest length: a number > 0 that the build's longest spring holds, and nothing after it. */
static void test_rest_length_refusals(void **state)
{
    (void)state;
    check_error(POINTS3 " spring 0 1 rest_length -0.5\nend\n",
                "x.scene:5:25: error: expected a positive number for 'rest_length', got '-0.5'");
    check_error(POINTS3 " spring 0 1 rest_length 0\nend\n",
                "x.scene:5:25: error: expected a positive number for 'rest_length', got '0'");
    check_error(POINTS3 " spring 0 1 rest_length nan\nend\n",
                "x.scene:5:25: error: expected a number for 'rest_length', got 'nan'");
    check_error(POINTS3 " spring 0 1 rest_length inf\nend\n",
                "x.scene:5:25: error: expected a number for 'rest_length', got 'inf'");
    check_error(POINTS3 " spring 0 1 rest_length\nend\n",
                "x.scene:5:24: error: expected a number for 'rest_length', got end of line");
    check_error(POINTS3 " spring 0 1 rest_length 0.5 0.6\nend\n",
                "x.scene:5:29: error: expected end of line after 'rest_length', got '0.6'");
    const char *far = sizeof(hk_real) == 4 ? "1e20" : "1e160";
    char text[256];
    snprintf(text, sizeof text, POINTS3 " spring 0 1 soft rest_length %s\n springs soft k 1\nend\n", far);
    check_error(text, text_of("x.scene:5:30: error: expected a length in (0, %g] m for 'rest_length', got '%s' (the "
                              "forces square a spring's length: beyond this build's precision)",
                              HK_SPRING_MAX_LENGTH, far));
}

/* One spring per pair of particles, in either order and in any families: the second is refused, naming the first's
 * line; particle indices are checked against the points. */
static void test_pairs(void **state)
{
    (void)state;
    check_error(POINTS3 " spring 0 1\n spring 1 2\n spring 0 1\nend\n",
                "x.scene:7:9: error: spring joins particles 0 and 1, as the spring at line 5 does (expected one spring "
                "per pair of particles)");
    check_error(POINTS3
                " spring 2 1 soft\n spring 0 1\n spring 1 2 stiff\n springs soft k 1\n springs stiff k 2\nend\n",
                "x.scene:7:9: error: spring joins particles 1 and 2, as the spring at line 5 does");
    /* the first repeat in the file is the one named */
    check_error(POINTS3 " spring 1 2\n spring 0 1\n spring 1 0\n spring 2 1\nend\n",
                "x.scene:7:9: error: spring joins particles 1 and 0, as the spring at line 6 does");
    check_error(POINTS3 " spring 0 3 soft\n springs soft k 1\nend\n",
                "x.scene:5:11: error: expected a particle index in [0, 2] for 'spring', got '3'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_families_built),
        cmocka_unit_test(test_family_refusals),
        cmocka_unit_test(test_rest_length_refusals),
        cmocka_unit_test(test_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
