/* test_memory.c — a scene too large for the memory the process may take is refused by name, before it is built. */
/* SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"

#include <math.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

/* `body rope count 50000000` under `ulimit -v 1000000`: before, the builder's out-of-memory status (-2) was taken
 * for "the add hook wrote its own error" (also -2), and the run printed an empty line and exited 1. Now the scene is
 * estimated before its world is built and refused at the body's line, with the estimate and what is available. */
static void test_scene_too_big(void **state)
{
    (void)state;
    const char *sc = hk_test_path("big.scene");
    hk_test_write(sc, "world\nend\nbody rope\n count 50000000\n mass 1\n spacing 0.001\n springs chain k 100\nend\n");
    char args[512], want[512];
    snprintf(args, sizeof args, "run '%s' --steps 1", sc);
#ifdef HK_TEST_SANITIZED
    /* a sanitizer's shadow memory takes terabytes of address space: no ulimit -v can hold the program. Four ropes of
     * 2^28 particles (about 180 GiB) pass what the machine has instead, at the first or a later rope. */
    hk_test_write(sc, "world\nend\nbody rope\n count 268435456\n mass 1\n spacing 0.001\nend\n"
                      "body rope\n count 268435456\n mass 1\n spacing 0.001\nend\n"
                      "body rope\n count 268435456\n mass 1\n spacing 0.001\nend\n"
                      "body rope\n count 268435456\n mass 1\n spacing 0.001\nend\n");
    hk_run r = hk_test_hooke("", args);
    if (r.status != 1 || !strstr(r.err, ": error: body rope needs about ") ||
        !strstr(r.err, "this process may still take (")) {
        print_error("exit %d, stderr:\n%s\n", r.status, r.err);
        fail();
    }
    (void)want;
#else
    hk_run r = hk_test_hooke("ulimit -v 1000000;", args);
    snprintf(want, sizeof want, "%s:3:1: error: body rope needs about ", sc); /* GiB: 7.5 on 1 thread, more on more */
    if (r.status != 1 || strncmp(r.err, want, strlen(want)) != 0 ||
        !strstr(r.err, " GiB of memory (50000000 particles, semi_implicit_euler); the scene up to it needs about ") ||
        !strstr(r.err, "this process may still take (what the limit on its address space leaves (ulimit -v)): make "
                       "the scene smaller, or run it where more memory is free\n")) {
        print_error("exit %d, stderr:\n%s\nexpected it to start with:\n%s\n", r.status, r.err, want);
        fail();
    }
#endif
    hk_run_free(&r);
}

/* The estimate follows the storage: for ropes, cloths and jellies of a million particles, explicit and implicit,
 * it lies within 0.8 to 1.8 times the peak memory the program takes for them (its own few MB aside), and grows with
 * the counts as they do. */
static void test_estimate_tracks_the_program(void **state)
{
    (void)state;
    const struct {
        const char *body;
        hk_memory_need need;
    } rows[] = {
        {"body rope\n count 1000000\n mass 1\n spacing 0.001\n springs chain k 100\nend\n",
         {1000000, 1000000, 1000000, 0, HK_SEMI_IMPLICIT_EULER, 1, 0}},
        {"body rope\n count 1000000\n mass 1\n spacing 0.001\n springs chain k 100\nend\n",
         {1000000, 1000000, 1000000, 0, HK_IMPLICIT_EULER, 1, 0}},
        {"body cloth\n nx 1000\n ny 1000\n spacing 0.01\n mass 1e-3\n springs structural k 100\n springs shear k 100\n"
         " springs bend k 10\nend\n",
         {1000000, 0, 6000000, 0, HK_IMPLICIT_EULER, 1, 0}},
        {"body jelly\n nx 100\n ny 100\n nz 100\n spacing 0.01\n mass 1e-3\n springs all k 100\nend\n",
         {1000000, 0, 13000000, 0, HK_SEMI_IMPLICIT_EULER, 1, 0}},
    };
#ifdef HK_TEST_SANITIZED
    print_message("a sanitized build's program takes its shadow memory besides: its peak is not the world's\n");
    const size_t nrows = 0;
#else
    const size_t nrows = sizeof rows / sizeof rows[0];
#endif
    for (size_t i = 0; i < nrows; i++) {
        const char *sc = hk_test_path("sized.scene");
        char text[512];
        snprintf(text, sizeof text, "%srun\n integrator %s\n dt 1e-4\n steps 1\nend\n", rows[i].body,
                 hk_integrator_name(rows[i].need.integrator));
        hk_test_write(sc, text);
        fflush(NULL);
        const pid_t pid = fork(); /* the program alone, so that its own peak comes back (wait4) */
        assert_true(pid >= 0);
        if (pid == 0) {
            if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(127);
            execl(HOOKE_BIN, "hooke", "run", sc, "--threads", "1", "--quiet", (char *)NULL);
            _exit(127);
        }
        int status;
        struct rusage ru;
        assert_int_equal(wait4(pid, &status, 0, &ru), pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        const double peak = 1024.0 * (double)ru.ru_maxrss, est = hk_memory_estimate(&rows[i].need);
        print_message("%s: estimate %.0f MB, peak %.0f MB\n", hk_integrator_name(rows[i].need.integrator), est / 1e6,
                      peak / 1e6);
        assert_true(est > 0.8 * (peak - 16e6) && est < 1.8 * peak);
    }
    hk_memory_need n = {0};
    n.particles = -1;
    assert_true(isnan(hk_memory_estimate(&n)));
    char what[128];
    const double avail = hk_memory_available(what, sizeof what);
    assert_true(avail > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scene_too_big),
        cmocka_unit_test(test_estimate_tracks_the_program),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
