/* test_bounds.c — masses, stiffnesses, damping and time steps outside their bounds are refused, with the reason. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "hk_test_cli.h"

#include "scene.h"

#define MASS_WHY "outside it 1/m, k/m and c/m leave what single precision and the smallest dt resolve"
#define K_WHY "outside it k/m leaves what single precision and the smallest dt resolve"
#define C_WHY "outside it c/m leaves what single precision and the smallest dt resolve"
#define DT_WHY                                                                                                         \
    "a shorter step moves no particle, v dt vanishing next to a single-precision position, and 1e12 of them make "     \
    "one second"

/* The call returned -1 with exactly `want` as the world's error and added nothing. */
#define assert_refused(w, call, want)                                                                                  \
    do {                                                                                                               \
        const int n0_ = hk_world_particles(w).count, b0_ = hk_world_body_count(w);                                     \
        const int rc_ = (call);                                                                                        \
        if (rc_ != -1 || strcmp(hk_world_error(w), want) != 0) {                                                       \
            print_error("%s: rc %d, error:\n  %s\nexpected:\n  %s\n", #call, rc_, hk_world_error(w), want);            \
            fail();                                                                                                    \
        }                                                                                                              \
        assert_int_equal(hk_world_particles(w).count, n0_);                                                            \
        assert_int_equal(hk_world_body_count(w), b0_);                                                                 \
    } while (0)

static void test_bound_table(void **state)
{
    (void)state;
    char t[96];
    hk_bound_text(HK_BOUND_MASS, 0, t, sizeof t);
    assert_string_equal(t, "in [1e-12, 1e12] kg");
    hk_bound_text(HK_BOUND_STIFFNESS, 1, t, sizeof t);
    assert_string_equal(t, "0 or in [1e-12, 1e12] N/m");
    hk_bound_text(HK_BOUND_DAMPING, 0, t, sizeof t);
    assert_string_equal(t, "in [1e-12, 1e12] N*s/m");
    hk_bound_text(HK_BOUND_DT, 0, t, sizeof t);
    assert_string_equal(t, ">= 1e-12 s");
    /* the ends are in, a hair outside is out, 0 only where allowed; never NaN or infinity */
    assert_true(hk_bound_ok(HK_BOUND_MASS, 0, 1e-12) && hk_bound_ok(HK_BOUND_MASS, 0, 1e12));
    assert_false(hk_bound_ok(HK_BOUND_MASS, 0, 0.99e-12) || hk_bound_ok(HK_BOUND_MASS, 0, 1.01e12));
    assert_false(hk_bound_ok(HK_BOUND_MASS, 0, 0) || hk_bound_ok(HK_BOUND_MASS, 0, -1));
    assert_true(hk_bound_ok(HK_BOUND_STIFFNESS, 1, 0));
    assert_false(hk_bound_ok(HK_BOUND_STIFFNESS, 0, 0));
    assert_false(hk_bound_ok(HK_BOUND_DT, 0, 1e-320) || hk_bound_ok(HK_BOUND_DT, 0, INFINITY));
    assert_false(hk_bound_ok(HK_BOUND_DT, 1, NAN));
    assert_true(hk_bound_ok(HK_BOUND_DT, 0, 1e-12) && hk_bound_ok(HK_BOUND_DT, 0, 1e30));
    /* no upper bound on a step but the build's precision: 1e308 s is no float */
    assert_int_equal(hk_bound_ok(HK_BOUND_DT, 0, 1e308), sizeof(hk_real) == 8);
    /* a contact layer's damping ratio: 0 (none) to 100 */
    hk_bound_text(HK_BOUND_DAMPING_RATIO, 0, t, sizeof t);
    assert_string_equal(t, "in [0, 100]");
    assert_true(hk_bound_ok(HK_BOUND_DAMPING_RATIO, 0, 0) && hk_bound_ok(HK_BOUND_DAMPING_RATIO, 0, 100));
    assert_false(hk_bound_ok(HK_BOUND_DAMPING_RATIO, 0, 100.001) || hk_bound_ok(HK_BOUND_DAMPING_RATIO, 0, 1e30));
    assert_false(hk_bound_ok(HK_BOUND_DAMPING_RATIO, 0, -1e-9) || hk_bound_ok(HK_BOUND_DAMPING_RATIO, 0, NAN));
    assert_null(hk_bound_of(HK_BOUND_COUNT));
}

/* Every builder that takes a mass refuses one outside the bound. */
static void test_library_masses(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_rope_def r = hk_default_rope_def();
    r.mass = 1e-300;
    assert_refused(w, hk_world_add_rope(w, &r), "rope: mass must be in [1e-12, 1e12] kg (got 1e-300): " MASS_WHY);
    r.mass = 1e13;
    assert_refused(w, hk_world_add_rope(w, &r), "rope: mass must be in [1e-12, 1e12] kg (got 1e+13): " MASS_WHY);
    r.mass = -1;
    assert_refused(w, hk_world_add_rope(w, &r), "rope: mass must be in [1e-12, 1e12] kg (got -1)");
    hk_cloth_def c = hk_default_cloth_def();
    c.mass = 1e-13;
    assert_refused(w, hk_world_add_cloth(w, &c), "cloth: mass must be in [1e-12, 1e12] kg (got 1e-13): " MASS_WHY);
    hk_jelly_def j = hk_default_jelly_def();
    j.mass = NAN;
    assert_refused(w, hk_world_add_jelly(w, &j), "jelly: mass must be in [1e-12, 1e12] kg (got nan)");
    hk_quad_def q = hk_default_quad_def();
    q.mass = 1e-300;
    assert_refused(w, hk_world_add_quad(w, &q), "quad: mass must be in [1e-12, 1e12] kg (got 1e-300): " MASS_WHY);
    hk_spring_pair_def sp = hk_default_spring_pair_def();
    sp.mass_a = 1e20;
    assert_refused(w, hk_world_add_spring_pair(w, &sp),
                   "spring a: mass must be in [1e-12, 1e12] kg (got 1e+20): " MASS_WHY);
    hk_pendulum_def pd = hk_default_pendulum_def();
    pd.mass = 1e-300;
    assert_refused(w, hk_world_add_pendulum(w, &pd),
                   "pendulum: mass must be in [1e-12, 1e12] kg (got 1e-300): " MASS_WHY);
    hk_vec3 pos[2] = {{0, 0, 0}, {1, 0, 0}};
    double mass[2] = {1, 1e-300};
    assert_refused(w, hk_world_add_points(w, 2, pos, NULL, mass),
                   "points: point 1: mass must be in [1e-12, 1e12] kg (got 1e-300): " MASS_WHY);
    hk_mesh_def md = hk_default_mesh_def();
    md.mass = 1e-300;
    assert_refused(w, hk_world_add_icosphere(w, &md, 1, 0),
                   "mesh: mass must be in [1e-12, 1e12] kg (got 1e-300): " MASS_WHY);
    hk_ring_def rg = hk_default_ring_def();
    rg.mass = 1e13;
    assert_refused(w, hk_world_add_ring(w, &rg), "ring: mass must be in [1e-12, 1e12] kg (got 1e+13): " MASS_WHY);
    /* the ends of the bound are accepted */
    r.count = 3;
    r.mass = 1e-12;
    assert_int_equal(hk_world_add_rope(w, &r), 0);
    r.mass = 1e12;
    assert_int_equal(hk_world_add_rope(w, &r), 1);
    hk_world_destroy(w);
}

/* Every spring family refuses k and damping outside the bound; 0 stays accepted for both. */
static void test_library_springs(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_rope_def r = hk_default_rope_def();
    r.count = 3;
    r.springs.k = 1e300;
    assert_refused(w, hk_world_add_rope(w, &r),
                   "rope springs: k must be 0 or in [1e-12, 1e12] N/m (got 1e+300): " K_WHY);
    r.springs.k = 1e-320;
    assert_refused(w, hk_world_add_rope(w, &r),
                   "rope springs: k must be 0 or in [1e-12, 1e12] N/m (got 9.99989e-321): " K_WHY);
    r.springs.k = 100;
    r.springs.damping = 1e13;
    assert_refused(w, hk_world_add_rope(w, &r),
                   "rope springs: damping must be 0 or in [1e-12, 1e12] N*s/m (got 1e+13): " C_WHY);
    hk_jelly_def j = hk_default_jelly_def();
    j.springs[HK_K3].k = 1e13;
    assert_refused(w, hk_world_add_jelly(w, &j),
                   "jelly K3 springs: k must be 0 or in [1e-12, 1e12] N/m (got 1e+13): " K_WHY);
    hk_pendulum_def pd = hk_default_pendulum_def();
    pd.k = 1e300;
    assert_refused(w, hk_world_add_pendulum(w, &pd), "pendulum: k must be in [1e-12, 1e12] N/m (got 1e+300): " K_WHY);
    pd.k = 0;
    assert_refused(w, hk_world_add_pendulum(w, &pd), "pendulum: k must be in [1e-12, 1e12] N/m (got 0)");
    hk_vec3 pos[2] = {{0, 0, 0}, {1, 0, 0}};
    double mass[2] = {1, 1};
    const int body = hk_world_add_points(w, 2, pos, NULL, mass), a = 0, b = 1;
    assert_true(body >= 0);
    hk_spring_params sp = hk_default_spring_params();
    sp.damping = -1;
    assert_int_equal(hk_world_add_springs(w, body, 1, &a, &b, &sp), -1);
    assert_string_equal(hk_world_error(w), "springs: damping must be 0 or in [1e-12, 1e12] N*s/m (got -1)");
    /* k 0 and damping 0 are still a spring (no force, no damping) */
    sp.k = 0;
    sp.damping = 0;
    assert_true(hk_world_add_springs(w, body, 1, &a, &b, &sp) >= 0);
    r.springs.damping = 1e12;
    r.springs.k = 1e12;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    hk_world_destroy(w);
}

/* dt, dt_max and the jelly steps: at least 1e-12 s (the last three may be 0: off). */
static void test_library_time_steps(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_integrator_def d = hk_default_integrator_def();
    d.dt = 1e-320;
    assert_int_equal(hk_world_set_integrator(w, &d), -1);
    assert_string_equal(hk_world_error(w), "dt must be >= 1e-12 s (got 9.99989e-321): " DT_WHY);
    d.dt = 1e-13;
    assert_int_equal(hk_world_set_integrator(w, &d), -1);
    assert_string_equal(hk_world_error(w), "dt must be >= 1e-12 s (got 1e-13): " DT_WHY);
    d.dt = INFINITY;
    assert_int_equal(hk_world_set_integrator(w, &d), -1);
    assert_string_equal(hk_world_error(w), "dt must be >= 1e-12 s (got inf): " DT_WHY);
    d.dt = 1e-3;
    d.dt_max = 5e-13;
    assert_int_equal(hk_world_set_integrator(w, &d), -1);
    assert_string_equal(hk_world_error(w), "dt_max must be 0 or >= 1e-12 s (got 5e-13): " DT_WHY);
    d.dt_max = 0;
    d.kind = HK_JELLY;
    d.jelly_dt_v = 1e-15;
    assert_int_equal(hk_world_set_integrator(w, &d), -1);
    assert_string_equal(hk_world_error(w), "jelly_dt_v must be 0 or >= 1e-12 s (got 1e-15): " DT_WHY);
    d.jelly_dt_v = 0;
    d.kind = HK_SEMI_IMPLICIT_EULER;
    d.dt = 1e308; /* within the table, past single precision: the float build refuses it (it blew up at step 1) */
    if (sizeof(hk_real) == 4) {
        assert_int_equal(hk_world_set_integrator(w, &d), -1);
        assert_string_equal(
            hk_world_error(w),
            "dt must be >= 1e-12 s and within this build's precision, at most 3.40282e+38 s (got 1e+308)");
    } else {
        assert_int_equal(hk_world_set_integrator(w, &d), 0);
    }
    d.dt = 1e-12;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    assert_true(hk_world_integrator(w).dt == 1e-12);
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

#define ROPE "body rope\n count 3\n mass 1\n spacing 1\nend\n"

static void test_scene_bounds(void **state)
{
    (void)state;
    scene_refuses("body rope\n count 3\n mass 1e-300\n spacing 1\nend\n",
                  "x.scene:3:7: error: expected a mass in [1e-12, 1e12] kg for 'mass', got '1e-300' (" MASS_WHY ")");
    scene_refuses("body points\n point 0 0 0 1\n point 1 0 0 1e13\nend\n",
                  "x.scene:3:14: error: expected a mass in [1e-12, 1e12] kg for 'point', got '1e13' (" MASS_WHY ")");
    scene_refuses("body spring\n a 0 0 0\n b 1 0 0\n mass_b 1\n mass_a 0\nend\n",
                  "x.scene:5:9: error: expected a mass in [1e-12, 1e12] kg for 'mass_a', got '0'");
    scene_refuses("body rope\n count 3\n mass 1\n spacing 1\n springs chain k 1e300\nend\n",
                  "x.scene:5:18: error: expected 0 or a stiffness in [1e-12, 1e12] N/m for 'k', got '1e300' (" K_WHY
                  ")");
    scene_refuses(
        "body rope\n count 3\n mass 1\n spacing 1\n springs chain k 10 damping 1e-13\nend\n",
        "x.scene:5:29: error: expected 0 or a damping in [1e-12, 1e12] N*s/m for 'damping', got '1e-13' (" C_WHY ")");
    scene_refuses("body pendulum\n length 1\n mass 1\n k 0\nend\n",
                  "x.scene:4:4: error: expected a stiffness in [1e-12, 1e12] N/m for 'k', got '0'");
    scene_refuses("run\n dt 1e-320\nend\n" ROPE,
                  "x.scene:2:5: error: expected a time step >= 1e-12 s for 'dt', got '1e-320' (out of range)");
    scene_refuses("run\n dt 1e-13\nend\n" ROPE,
                  "x.scene:2:5: error: expected a time step >= 1e-12 s for 'dt', got '1e-13' (" DT_WHY ")");
    scene_refuses("run\n dt 1e-3\n dt_max 1e-14\nend\n" ROPE,
                  "x.scene:3:9: error: expected 0 or a time step >= 1e-12 s for 'dt_max', got '1e-14' (" DT_WHY ")");
    scene_refuses("run\n dt 1e-3\n integrator jelly\n jelly_dt_a 1e-20\nend\n" ROPE,
                  "x.scene:4:13: error: expected 0 or a time step >= 1e-12 s for 'jelly_dt_a', got '1e-20' (" DT_WHY
                  ")");
    /* the bounds' ends and the zeros that mean "off" stay accepted */
    hk_scene sc;
    char err[512];
    assert_int_equal(hk_scene_parse("run\n dt 1e-12\n dt_max 0\n integrator jelly\n jelly_dt_a 0\nend\n"
                                    "body rope\n count 3\n mass 1e12\n spacing 1\n springs chain k 0 damping 0\nend\n",
                                    "x.scene", &sc, err, sizeof err),
                     0);
    hk_scene_free(&sc);
}

/* Runs `hooke ARGS` and expects exit 1 and exactly `want` on stderr. */
static void flag_refused(const char *args, const char *want)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != 1 || strcmp(r.err, want) != 0) {
        print_error("hooke %s: exit %d, stderr:\n  %s\nexpected:\n  %s", args, r.status, r.err, want);
        fail();
    }
    hk_run_free(&r);
}

/* Every number flag takes what the scene key of the same number takes: finite, and held by the build's precision.
 * `--dt 1e308` was taken in the float build (the scene's `dt 1e308` was refused) and the run blew up at step 1. */
static void test_command_line_precision(void **state)
{
    (void)state;
    if (sizeof(hk_real) == 8) { /* 1e308 is a double: the flags take it as the keys do */
        hk_run r =
            hk_test_hooke("", "run " HOOKE_SCENES_DIR "/oscillator.scene --stretch-limit 1e308 --steps 1 --quiet");
        assert_int_equal(r.status, 0);
        hk_run_free(&r);
        return;
    }
    const char *sc = HOOKE_SCENES_DIR "/oscillator.scene";
    char args[512], want[512];
    const struct {
        const char *flag, *value, *expects;
    } rows[] = {
        {"--dt", "1e308", "a step length in seconds > 0"},
        {"--time", "1e39", "a number of seconds > 0"},
        {"--stretch-limit", "4e38", "a ratio > 1"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(args, sizeof args, "run %s %s %s --steps 1 --quiet", sc, rows[i].flag, rows[i].value);
        if (strcmp(rows[i].flag, "--time") == 0)
            snprintf(args, sizeof args, "run %s --time %s --quiet", sc, rows[i].value);
        snprintf(want, sizeof want, "hooke: error: %s expects %s, got '%s' (beyond this build's precision)\n",
                 rows[i].flag, rows[i].expects, rows[i].value);
        flag_refused(args, want);
    }
    flag_refused("stability x.scene --dt-max 1e39",
                 "hooke: error: --dt-max expects a number > 0, got '1e39' (beyond this build's precision)\n");
    /* the scene key of the same step, refused for the same reason */
    scene_refuses("run\n dt 1e308\nend\n" ROPE, "x.scene:2:5: error: expected a number of size at most 3.40282e+38 "
                                                "for 'dt', got '1e308' (beyond this build's precision)");
    /* the largest float is still a step */
    hk_run r = hk_test_hooke("", "run " HOOKE_SCENES_DIR "/oscillator.scene --stretch-limit 3e38 --steps 1 --quiet");
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
}

/* --dt goes through the library's check: the same bound and reason. */
static void test_command_line_dt(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "run " HOOKE_SCENES_DIR "/oscillator.scene --dt 1e-13 --steps 1 --quiet");
    const char *want =
        "hooke: error: " HOOKE_SCENES_DIR "/oscillator.scene: dt must be >= 1e-12 s (got 1e-13): " DT_WHY "\n";
    if (r.status != 1 || strcmp(r.err, want) != 0) {
        print_error("exit %d, stderr:\n  %s\nexpected:\n  %s", r.status, r.err, want);
        fail();
    }
    hk_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_table),
        cmocka_unit_test(test_library_masses),
        cmocka_unit_test(test_library_springs),
        cmocka_unit_test(test_library_time_steps),
        cmocka_unit_test(test_scene_bounds),
        cmocka_unit_test(test_command_line_dt),
        cmocka_unit_test(test_command_line_precision),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
