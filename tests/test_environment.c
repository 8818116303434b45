/* test_environment.c — the program reads the tuning variables into its worlds' definition; the library reads none. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "hk_test.h"

#include "env.h"
#include "kernels.h"
#include "scene.h"

#define KERNELS_EXPECTED                                                                                               \
    ": expected reference, scalar, avx2 or avx512, one this CPU and build can run (hooke info lists them)"

/* With NAME=VALUE the program's definition is refused with exactly `want`. */
static void refused(const char *name, const char *value, const char *want)
{
    assert_int_equal(setenv(name, value, 1), 0);
    char err[256] = "unchanged";
    hk_world_def def;
    const int rc = hk_env_world_def(&def, err, sizeof err);
    if (rc != -1 || strcmp(err, want) != 0) {
        print_error("%s=%s: rc %d, message:\n  %s\nexpected:\n  %s\n", name, value, rc, err, want);
        fail();
    }
    assert_int_equal(unsetenv(name), 0);
}

static void test_bad_kernel_path(void **state)
{
    (void)state;
    refused("HOOKE_KERNELS", "bogus", "HOOKE_KERNELS=bogus" KERNELS_EXPECTED);
    refused("HOOKE_KERNELS", "AVX512", "HOOKE_KERNELS=AVX512" KERNELS_EXPECTED);
    refused("HOOKE_KERNELS", "avx2 ", "HOOKE_KERNELS=avx2 " KERNELS_EXPECTED);
    if (!hk_kernel_path_available("avx512"))
        refused("HOOKE_KERNELS", "avx512", "HOOKE_KERNELS=avx512" KERNELS_EXPECTED);
    /* unset, and empty, are the library's default */
    char err[256];
    hk_world_def def;
    assert_int_equal(hk_env_world_def(&def, err, sizeof err), 0);
    assert_string_equal(err, "");
    assert_null(def.kernels);
    assert_int_equal(setenv("HOOKE_KERNELS", "", 1), 0);
    assert_int_equal(hk_env_world_def(&def, err, sizeof err), 0);
    assert_null(def.kernels);
    assert_string_equal(hk_env_kernels(), hk_kernels_name());
    assert_int_equal(unsetenv("HOOKE_KERNELS"), 0);
}

/* A usable value is taken into the definition, and the worlds made from it use that path. */
static void test_good_kernel_path(void **state)
{
    (void)state;
    static const char *const paths[] = {"reference", "scalar"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(setenv("HOOKE_KERNELS", paths[i], 1), 0);
        hk_world_def def;
        assert_int_equal(hk_env_world_def(&def, NULL, 0), 0);
        assert_string_equal(def.kernels, paths[i]);
        assert_string_equal(hk_env_kernels(), paths[i]);
        hk_world *w = hk_world_create(&def);
        assert_non_null(w);
        assert_string_equal(hk_world_kernels(w), paths[i]);
        hk_world_destroy(w);
    }
    assert_int_equal(unsetenv("HOOKE_KERNELS"), 0);
}

static void test_list_parallel_min(void **state)
{
    (void)state;
    const char *expected = ": expected a whole number of springs >= 0 (at most 2147483647)";
    char want[160];
    static const char *const bad[] = {"lots", "-1", "2.5", "1e19", "0x10", "3e9"};
    for (int i = 0; i < 6; i++) {
        snprintf(want, sizeof want, "HOOKE_LIST_PARALLEL_MIN=%s%s", bad[i], expected);
        refused("HOOKE_LIST_PARALLEL_MIN", bad[i], want);
    }
    /* the one number grammar: 1e3 is a whole number */
    assert_int_equal(setenv("HOOKE_LIST_PARALLEL_MIN", "1e3", 1), 0);
    hk_world_def def;
    assert_int_equal(hk_env_world_def(&def, NULL, 0), 0);
    assert_int_equal(def.list_parallel_min, 1000);
    assert_int_equal(unsetenv("HOOKE_LIST_PARALLEL_MIN"), 0);
    assert_int_equal(hk_env_world_def(&def, NULL, 0), 0);
    assert_int_equal(def.list_parallel_min, HK_LIST_PARALLEL_MIN);
}

/* HOOKE_FULL_TEAM: 0 or 1 into full_team (the tests' environment sets 1), unset or empty the default 0. */
static void test_full_team(void **state)
{
    (void)state;
    static const char *const bad[] = {"yes", "2", "-1", "0.5", "1x"};
    char want[96];
    for (int i = 0; i < 5; i++) {
        snprintf(want, sizeof want, "HOOKE_FULL_TEAM=%s: expected 0 or 1", bad[i]);
        refused("HOOKE_FULL_TEAM", bad[i], want);
    }
    hk_world_def def;
    for (int v = 0; v <= 1; v++) {
        assert_int_equal(setenv("HOOKE_FULL_TEAM", v ? "1" : "0", 1), 0);
        assert_int_equal(hk_env_world_def(&def, NULL, 0), 0);
        assert_int_equal(def.full_team, v);
    }
    assert_int_equal(unsetenv("HOOKE_FULL_TEAM"), 0);
    assert_int_equal(hk_env_world_def(&def, NULL, 0), 0);
    assert_int_equal(def.full_team, 0);
    assert_int_equal(hk_default_world_def().full_team, 0);
}

/* The library reads no environment: with unusable values set, worlds and scenes are made as without them. */
static void test_library_reads_none(void **state)
{
    (void)state;
    assert_int_equal(setenv("HOOKE_KERNELS", "bogus", 1), 0);
    assert_int_equal(setenv("HOOKE_LIST_PARALLEL_MIN", "lots", 1), 0);
    assert_int_equal(setenv("HOOKE_FULL_TEAM", "1", 1), 0);
    hk_world *w = hk_world_create(NULL);
    assert_non_null(w);
    assert_string_equal(hk_world_kernels(w), hk_kernels_name());
    assert_int_equal(w->def.full_team, 0);
    hk_world_destroy(w);
    hk_scene sc;
    char err[512];
    assert_int_equal(hk_scene_parse("body rope\n count 3\n mass 1\n spacing 1\nend\n", "x.scene", &sc, err, sizeof err),
                     0);
    hk_scene_free(&sc);
    assert_int_equal(unsetenv("HOOKE_KERNELS"), 0);
    assert_int_equal(unsetenv("HOOKE_LIST_PARALLEL_MIN"), 0);
    assert_int_equal(unsetenv("HOOKE_FULL_TEAM"), 0);
}

/* A scene's world starts from the program's definition; one the library refuses is not the file's fault: no
 * line, the field named. */
static void test_scene_base(void **state)
{
    (void)state;
    const char *text = "world\n air_drag 0.5\nend\nbody rope\n count 3\n mass 1\n spacing 1\nend\n";
    hk_world_def base = hk_default_world_def();
    base.kernels = "bogus";
    hk_scene sc;
    char err[512];
    assert_int_equal(hk_scene_parse_on(text, "x.scene", &base, &sc, err, sizeof err), -1);
    assert_null(sc.world);
    assert_string_equal(
        err,
        "x.scene: error: world: kernels: unknown kernel path 'bogus' (expected avx512, avx2, scalar or reference)");
    base.kernels = "reference";
    base.list_parallel_min = 7;
    base.gravity.y = -1; /* the scene's keys are set on top of the base; the others stay */
    assert_int_equal(hk_scene_parse_on(text, "x.scene", &base, &sc, err, sizeof err), 0);
    assert_string_equal(hk_world_kernels(sc.world), "reference");
    assert_int_equal(sc.world->def.list_parallel_min, 7);
    assert_true(sc.world->def.air_drag == 0.5 && sc.world->def.gravity.y == -1);
    hk_scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_kernel_path),    cmocka_unit_test(test_good_kernel_path),
        cmocka_unit_test(test_list_parallel_min),  cmocka_unit_test(test_full_team),
        cmocka_unit_test(test_library_reads_none), cmocka_unit_test(test_scene_base),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
