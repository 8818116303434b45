/* test_environment.c — an environment variable the library cannot use stops it, for every entry point. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "hk_test.h"

#include "kernels.h"
#include "scene.h"

#define KERNELS_EXPECTED                                                                                               \
    ": expected reference, scalar, avx2 or avx512, one this CPU and build can run (hooke info lists them)"

/* With NAME=VALUE no world is created and hk_check_environment says exactly `want`. */
static void refused(const char *name, const char *value, const char *want)
{
    assert_int_equal(setenv(name, value, 1), 0);
    char err[256] = "unchanged";
    const int rc = hk_check_environment(err, sizeof err);
    hk_world *w = hk_world_create(NULL);
    if (rc != -1 || strcmp(err, want) != 0 || w) {
        print_error("%s=%s: rc %d, world %p, message:\n  %s\nexpected:\n  %s\n", name, value, rc, (void *)w, err, want);
        hk_world_destroy(w);
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
    /* unset, and empty, are the automatic choice */
    char err[256];
    assert_int_equal(hk_check_environment(err, sizeof err), 0);
    assert_string_equal(err, "");
    assert_int_equal(setenv("HOOKE_KERNELS", "", 1), 0);
    hk_world *w = hk_world_create(NULL);
    assert_non_null(w);
    hk_world_destroy(w);
    assert_int_equal(unsetenv("HOOKE_KERNELS"), 0);
}

/* A usable value is taken: the worlds created after it use that path. */
static void test_good_kernel_path(void **state)
{
    (void)state;
    static const char *const paths[] = {"reference", "scalar"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(setenv("HOOKE_KERNELS", paths[i], 1), 0);
        assert_int_equal(hk_kernels_select(NULL), 0); /* the process default, read again */
        hk_world *w = hk_world_create(NULL);
        assert_non_null(w);
        assert_string_equal(hk_world_kernels(w), paths[i]);
        hk_world_destroy(w);
    }
    assert_int_equal(unsetenv("HOOKE_KERNELS"), 0);
    assert_int_equal(hk_kernels_select(NULL), 0);
}

static void test_list_parallel_min(void **state)
{
    (void)state;
    const char *expected = ": expected a whole number of springs >= 0";
    char want[128];
    static const char *const bad[] = {"lots", "-1", "2.5", "1e19", "0x10"};
    for (int i = 0; i < 5; i++) {
        snprintf(want, sizeof want, "HOOKE_LIST_PARALLEL_MIN=%s%s", bad[i], expected);
        refused("HOOKE_LIST_PARALLEL_MIN", bad[i], want);
    }
    /* the one number grammar: 1e3 is a whole number */
    assert_int_equal(setenv("HOOKE_LIST_PARALLEL_MIN", "1e3", 1), 0);
    assert_int_equal(hk_check_environment(NULL, 0), 0);
    assert_int_equal(unsetenv("HOOKE_LIST_PARALLEL_MIN"), 0);
}

/* A scene cannot be built on an unusable environment; the message names the variable, not a line. */
static void test_scene(void **state)
{
    (void)state;
    assert_int_equal(setenv("HOOKE_KERNELS", "bogus", 1), 0);
    hk_scene sc;
    char err[512];
    const int rc = hk_scene_parse("body rope\n count 3\n mass 1\n spacing 1\nend\n", "x.scene", &sc, err, sizeof err);
    assert_int_equal(unsetenv("HOOKE_KERNELS"), 0);
    assert_int_equal(rc, -1);
    assert_null(sc.world);
    assert_string_equal(err, "x.scene: error: HOOKE_KERNELS=bogus" KERNELS_EXPECTED);
    assert_int_equal(hk_scene_parse("body rope\n count 3\n mass 1\n spacing 1\nend\n", "x.scene", &sc, err, sizeof err),
                     0);
    hk_scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_kernel_path),
        cmocka_unit_test(test_good_kernel_path),
        cmocka_unit_test(test_list_parallel_min),
        cmocka_unit_test(test_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
