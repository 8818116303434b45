/* test_placement.c — the thread count and binding follow the user: --threads, OMP_NUM_THREADS, the CPU mask. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "hk_test_cli.h"

#include <sched.h>

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* The last processor this test may run on (the mask its runner gave it). */
static int last_allowed_cpu(void)
{
    cpu_set_t set;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    int last = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set)) last = c;
    assert_true(last >= 0);
    return last;
}

/* The threads= of a rope run with env, and its state hash into hash. */
static int rope_threads(const char *env, const char *flags, char hash[32])
{
    char args[512];
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --quiet %s", flags);
    hk_run r = hk_test_hooke(env, args);
    if (r.status != 0) print_error("%s hooke %s: exit %d\n%s\n", env, args, r.status, r.err);
    assert_int_equal(r.status, 0);
    const char *t = hk_test_field(r.out, "threads"), *h = hk_test_field(r.out, "state_hash");
    assert_non_null(t);
    assert_non_null(h);
    const int n = atoi(t);
    snprintf(hash, 32, "%.18s", h);
    hk_run_free(&r);
    return n;
}

/* The cores hooke finds in its mask without one given (hooke info's mask line). */
static int mask_cores(const char *env)
{
    hk_run r = hk_test_hooke(env, "info");
    assert_int_equal(r.status, 0);
    const char *m = strstr(r.out, "mask: the process may run on PU(s) ");
    assert_non_null(m);
    const char *c = strstr(m, " (");
    assert_non_null(c);
    const int n = atoi(c + 2);
    hk_run_free(&r);
    assert_true(n >= 1);
    return n;
}

/* --threads, else OMP_NUM_THREADS, else the cores of the mask, at most one
 * per 15000 springs (the rope's 79: one; test_cli test_default_threads has
 * a larger body); the bits are those of any other count. */
static void test_thread_count(void **state)
{
    (void)state;
    char h1[32], h2[32], h3[32], h4[32];
    assert_true(mask_cores("env -u OMP_NUM_THREADS") >= 1);
    assert_int_equal(rope_threads("env -u OMP_NUM_THREADS", "", h1), 1);
    assert_int_equal(rope_threads("OMP_NUM_THREADS=1", "", h2), 1);
    assert_int_equal(rope_threads("OMP_NUM_THREADS=3", "", h3), 3);
    assert_int_equal(rope_threads("OMP_NUM_THREADS=3,1", "", h3), 3); /* OpenMP's list form: the first level */
    assert_int_equal(rope_threads("OMP_NUM_THREADS=1", "--threads 2", h4), 2);
    assert_string_equal(h1, h2);
    assert_string_equal(h2, h3);
    assert_string_equal(h3, h4);
    /* a value hooke cannot use is an error, never a silent default, and hooke's message is the only one: the
     * program takes the value out of its environment before the OpenMP runtime reads it (omp_env.h), so libgomp
     * does not warn first; with --threads too (the value is wrong all the same) */
    static const char *const bad[] = {"OMP_NUM_THREADS=x",  "OMP_NUM_THREADS=0",   "OMP_NUM_THREADS=2x",
                                      "OMP_NUM_THREADS=-4", "OMP_NUM_THREADS=abc", "OMP_NUM_THREADS=4,abc",
                                      "OMP_NUM_THREADS=+2", "OMP_NUM_THREADS=' '", "OMP_NUM_THREADS=4097"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        for (int flag = 0; flag < 2; flag++) {
            hk_run r = hk_test_hooke(bad[i], flag ? "run " SCENE("rope.scene") " --quiet --threads 2"
                                                  : "run " SCENE("rope.scene") " --quiet");
            char want[128], shown[64];
            snprintf(shown, sizeof shown, "%s", bad[i]);
            for (char *q = shown; *q; q++)
                if (*q == '\'') memmove(q, q + 1, strlen(q)); /* the shell's quotes */
            snprintf(want, sizeof want, "hooke: error: %s: expected a thread count 1..4096", shown);
            if (r.status != 1 || !strstr(r.err, want) || strstr(r.err, "libgomp") || strstr(r.err, "OMP:"))
                print_error("%s: status %d, stderr:\n%s\n", bad[i], r.status, r.err);
            assert_int_equal(r.status, 1);
            assert_non_null(strstr(r.err, want));
            assert_null(strstr(r.err, "libgomp"));
            assert_true(strncmp(r.err, "hooke: error: ", 14) == 0); /* the first line is hooke's */
            hk_run_free(&r);
        }
    /* OpenMP's blanks around a count are fine; an empty value is unset (the runtime, left to read it, warned) */
    char h5[32], h6[32];
    assert_int_equal(rope_threads("OMP_NUM_THREADS=' 3 '", "", h5), 3);
    assert_int_equal(rope_threads("OMP_NUM_THREADS=", "", h6), 1);
    assert_string_equal(h5, h1);
    assert_string_equal(h6, h1);
    hk_run r = hk_test_hooke("OMP_NUM_THREADS=", "run " SCENE("rope.scene") " --quiet");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    hk_run_free(&r);
}

/* Under `taskset -c C` hooke runs one thread and binds it to C only; the
 * state is the same bits. */
static void test_mask_respected(void **state)
{
    (void)state;
    const int cpu = last_allowed_cpu();
    char env[128], want[96], h1[32], h2[32];
    snprintf(env, sizeof env, "env -u OMP_NUM_THREADS taskset -c %d", cpu);
    hk_run r = hk_test_hooke(env, "info");
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "mask: the process may run on PU(s) %d (1 core(s))", cpu);
    if (!strstr(r.out, want)) print_error("%s\n", r.out);
    assert_non_null(strstr(r.out, want));
    assert_non_null(strstr(r.out, "openmp: 1 thread(s)"));
    /* hwloc reports the binding; a build without it (it says so) the processor only */
    if (strstr(r.out, "built without hwloc"))
        snprintf(want, sizeof want, "thread 0: on cpu %d, ", cpu);
    else
        snprintf(want, sizeof want, "thread 0: on cpu %d, bound to PU(s) %d\n", cpu, cpu);
    assert_non_null(strstr(r.out, want));
    assert_null(strstr(r.out, "thread 1:"));
    hk_run_free(&r);
    assert_int_equal(rope_threads(env, "", h1), 1);
    assert_int_equal(rope_threads("", "--threads 2", h2), 2);
    assert_string_equal(h1, h2);
}

/* OMP_PLACES, OMP_PROC_BIND or GOMP_CPU_AFFINITY: the user's placement stands. */
static void test_user_placement(void **state)
{
    (void)state;
    static const char *const vars[] = {"OMP_PLACES=cores", "OMP_PROC_BIND=spread", "GOMP_CPU_AFFINITY=0"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        hk_run r = hk_test_hooke(vars[i], "info");
        assert_int_equal(r.status, 0);
        char name[32], want[96];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(vars[i], "="), vars[i]);
        snprintf(want, sizeof want, "binding: the user's, from %s", name);
        if (!strstr(r.out, want)) print_error("%s: %s\n", vars[i], r.out);
        assert_non_null(strstr(r.out, want));
        hk_run_free(&r);
    }
    hk_run r = hk_test_hooke("env -u OMP_PLACES -u OMP_PROC_BIND -u GOMP_CPU_AFFINITY", "info");
    assert_non_null(strstr(r.out, "binding: hooke's, one thread per allowed core"));
    hk_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_count),
        cmocka_unit_test(test_mask_respected),
        cmocka_unit_test(test_user_placement),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
