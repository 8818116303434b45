/* test_threads.c — hooke run gives the same state_hash for any --threads: lattice, list, tearing, long ropes. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"

/* Steps per scene: long enough that the interesting part happens (the cloth
 * folds, the jelly hits the sphere or the walls, the curtain tears: its
 * first springs break at about 0.3 s = 300 steps), short enough that one run
 * takes well under 2 s (Release: a few ms to 0.1 s; Debug+sanitizers about
 * 10-50 times slower, hence the shorter runs there). A list family costs one
 * barrier per colour per step (lists.c), and with more threads than cores
 * under OMP_WAIT_POLICY=passive each barrier is a futex round trip: the
 * all-to-all rope (63 colours) takes about 1.5 ms per step on 2-7 threads
 * of a 2-core machine, hence its short run. */
typedef struct case_ {
    const char *scene;
    int steps, slow_steps;
    const char *what;
} case_;

static const case_ cases[] = {
    {"cloth_corners.scene", 2000, 300, "cloth (lattice stencils, 2 pinned corners)"},
    {"jelly26.scene", 1000, 200, "jelly 26 (lattice, sphere, ground spring)"},
    {"jelly52.scene", 1000, 200, "jelly 52 (halo rows wider than a 7-thread block)"},
    {"rope.scene", 100, 20, "rope (9 substeps, driven anchor, repulsion ground)"},
    {"tearing_cloth.scene", 1000, 400, "tearing cloth (breakable springs)"},
    {"net.scene", 600, 150, "all-to-all rope (coloured list springs, 63 colours)"},
    {"mesh_points.scene", 2000, 500, "closed triangle mesh (points body, list springs)"},
    {"pressure_ball.scene", 300, 60, "pressure icosphere (volume blocks, face forces)"},
    {"ring2d.scene", 1000, 300, "2-D pressure ring (Verlet, edge pressure)"},
    {"flag_wind.scene", 600, 150, "cloth with vertex wind (lattice without the fused path)"},
};
#define N_CASES (int)(sizeof cases / sizeof cases[0])

static int steps_of(const case_ *c)
{
#ifdef HK_TEST_SLOW_BUILD
    return c->slow_steps;
#else
    return c->steps;
#endif
}

/* Runs SCENE for `steps` steps on `threads` threads; returns the state hash.
 * stats: optional --stats file. */
static uint64_t run_hash(const char *env, const char *scene, int steps, int threads, const char *stats)
{
    char args[1024];
    int n = snprintf(args, sizeof args, "run '%s/%s' --steps %d --threads %d --quiet", HOOKE_SCENES_DIR, scene, steps,
                     threads);
    if (stats) snprintf(args + n, sizeof args - (size_t)n, " --stats '%s'", stats);
    hk_run r = hk_test_hooke(env, args);
    if (r.status != 0) {
        print_error("hooke %s: exit %d\nstdout: %s\nstderr: %s\n", args, r.status, r.out, r.err);
        fail();
    }
    /* --quiet: nothing on stderr */
    if (r.err[0]) {
        print_error("hooke %s wrote to stderr under --quiet: %s\n", args, r.err);
        fail();
    }
    const char *h = hk_test_field(r.out, "state_hash"), *t = hk_test_field(r.out, "threads"),
               *s = hk_test_field(r.out, "steps");
    assert_non_null(h);
    assert_non_null(t);
    assert_non_null(s);
#ifdef HOOKE_USE_OPENMP
    assert_int_equal(atoi(t), threads); /* the flag took effect */
#endif
    assert_int_equal(atoi(s), steps);
    assert_true(strncmp(h, "0x", 2) == 0);
    uint64_t hash = strtoull(h, NULL, 16);
    hk_run_free(&r);
    return hash;
}

static void test_any_thread_count_same_hash(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 3, 4, 7};
    for (int c = 0; c < N_CASES; c++) {
        const int steps = steps_of(&cases[c]);
        const uint64_t one = run_hash("", cases[c].scene, steps, 1, NULL);
        for (size_t t = 1; t < sizeof threads / sizeof threads[0]; t++) {
            uint64_t h = run_hash("", cases[c].scene, steps, threads[t], NULL);
            if (h != one) {
                print_error("%s, %d steps: --threads %d gives 0x%016llx, --threads 1 0x%016llx\n", cases[c].scene,
                            steps, threads[t], (unsigned long long)h, (unsigned long long)one);
                fail();
            }
        }
        /* and again: a run repeats itself */
        assert_true(run_hash("", cases[c].scene, steps, 1, NULL) == one);
        print_message("%-20s %5d steps  threads 1,2,3,4,7,1: 0x%016llx  -- %s\n", cases[c].scene, steps,
                      (unsigned long long)one, cases[c].what);
    }
}

/* The tearing curtain really tears within the compared steps (so breaking
 * is part of what the thread counts agree on), identically on 1 and 3
 * threads: the same broken-spring count in every statistics row. */
static void test_tearing_breaks_identically(void **state)
{
    (void)state;
    const case_ *c = &cases[4];
    assert_string_equal(c->scene, "tearing_cloth.scene");
    const int steps = steps_of(c);
    char *csv[2];
    for (int k = 0; k < 2; k++) {
        const char *path = hk_test_path(k ? "tear3.csv" : "tear1.csv");
        run_hash("", c->scene, steps, k ? 3 : 1, path);
        csv[k] = hk_test_slurp(path);
        assert_non_null(csv[k]);
    }
    assert_string_equal(csv[0], csv[1]);
    /* last row's last column: broken springs */
    const char *last = csv[0] + strlen(csv[0]) - 1;
    while (last > csv[0] && last[-1] != ',') last--;
    long broken = strtol(last, NULL, 10);
    print_message("tearing_cloth: %ld springs broken after %d steps (1 and 3 threads alike)\n", broken, steps);
    /* the 40 structural + 78 shear + 40 bend springs on the pinned row break
     * by about 0.3 s (scene comment), so at least those */
    assert_true(broken >= 158);
    free(csv[0]);
    free(csv[1]);
}

/* The reference path (HOOKE_KERNELS=reference) and each SIMD path forced
 * through the environment are also thread-count independent. */
static void test_forced_paths(void **state)
{
    (void)state;
    static const char *const envs[] = {"HOOKE_KERNELS=reference", "HOOKE_KERNELS=scalar", "HOOKE_KERNELS=avx2"};
    static const char *const scenes[] = {"cloth_corners.scene", "jelly52.scene", "net.scene", "tearing_cloth.scene"};
    for (int e = 0; e < 3; e++)
        for (int s = 0; s < 4; s++) {
            int steps = 0;
            for (int c = 0; c < N_CASES; c++)
                if (strcmp(cases[c].scene, scenes[s]) == 0) steps = steps_of(&cases[c]);
            steps = steps > 400 ? steps / 2 : steps;
            if (strcmp(scenes[s], "tearing_cloth.scene") == 0) steps = steps_of(&cases[4]); /* past the tearing */
            uint64_t a = run_hash(envs[e], scenes[s], steps, 1, NULL);
            uint64_t b = run_hash(envs[e], scenes[s], steps, 2, NULL);
            if (a != b) {
                print_error("%s %s: 1 thread 0x%016llx, 2 threads 0x%016llx\n", envs[e], scenes[s],
                            (unsigned long long)a, (unsigned long long)b);
                fail();
            }
            print_message("%-24s %-20s %5d steps  threads 1,2: 0x%016llx\n", envs[e], scenes[s], steps,
                          (unsigned long long)a);
        }
}

/* The multi-evaluation integrators (their per-particle loops run in
 * parallel above 8192 particles) on the 262144-particle cloth: the same
 * bits on 1, 2 and 3 threads. */
/* Each of the n integrators names[] gives one state hash on 1 .. max_threads threads, over `steps` steps of the
 * scene at path (what names it in messages). */
static void integrators_agree(const char *what, const char *path, const char *const *names, size_t n, int steps,
                              int max_threads)
{
    for (size_t k = 0; k < n; k++) {
        uint64_t one = 0;
        for (int t = 1; t <= max_threads; t++) {
            char args[1536];
            snprintf(args, sizeof args, "run '%s' --steps %d --integrator %s --threads %d --quiet", path, steps,
                     names[k], t);
            hk_run r = hk_test_hooke("", args);
            if (r.status != 0) {
                print_error("hooke %s: exit %d\n%s%s", args, r.status, r.out, r.err);
                fail();
            }
            const char *h = hk_test_field(r.out, "state_hash");
            assert_non_null(h);
            const uint64_t hash = strtoull(h, NULL, 16);
            if (t == 1) one = hash;
            if (hash != one) {
                print_error("%s %s: --threads %d gives 0x%016llx, --threads 1 0x%016llx\n", what, names[k], t,
                            (unsigned long long)hash, (unsigned long long)one);
                fail();
            }
            hk_run_free(&r);
        }
        print_message("%s %-20s threads 1..%d: 0x%016llx\n", what, names[k], max_threads, (unsigned long long)one);
    }
}

static void test_big_cloth_every_integrator(void **state)
{
    (void)state;
    static const char *const integrators[] = {"verlet", "verlet_book", "velocity_verlet", "rk4", "euler", "jelly"};
    char scene[1024];
    snprintf(scene, sizeof scene, "%s/cloth_512.scene", HOOKE_SCENES_DIR);
    integrators_agree("cloth_512", scene, integrators, sizeof integrators / sizeof integrators[0], 2, 3);
}

/* A rope of 40000 nodes is one row: its team sweeps it in windows of nodes (sweep.c), each summing its nodes' terms
 * in the whole row's order; chain and skip springs, an anchor and the ground, under a fused update (semi-implicit
 * Euler) and a force pass with an update of its own (RK4, position Verlet). The rope starts sunk into the ground,
 * deeper along its length, so that every spring (those across the windows' edges too) pulls within a few steps. */
static void test_long_rope_windows(void **state)
{
    (void)state;
    char scene[1024]; /* hk_test_path reuses its buffers */
    snprintf(scene, sizeof scene, "%s", hk_test_path("long_rope.scene"));
    hk_test_write(scene, "world\n  gravity 0 -9.81 0\nend\n"
                         "ground\n  model spring\n  height -0.05\n  stiffness 50\nend\n"
                         "body rope\n  count 40000\n  mass 0.001\n  spacing 0.001\n  origin 0 -0.051 0\n"
                         "  direction 1 -0.0001 0\n  topology skip_one\n  anchor 1\n"
                         "  springs chain k 200 damping 0.02\n  springs skip k 50 damping 0.02\nend\n"
                         "run\n  integrator semi_implicit_euler\n  dt 1e-4\nend\n");
    static const char *const integrators[] = {"semi_implicit_euler", "rk4", "verlet"};
#ifdef HK_TEST_SLOW_BUILD
    const int steps = 8;
#else
    const int steps = 40;
#endif
    integrators_agree("long rope", scene, integrators, sizeof integrators / sizeof integrators[0], steps, 4);
}

static int teardown(void **state)
{
    (void)state;
    hk_test_cleanup();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_thread_count_same_hash),
        cmocka_unit_test(test_tearing_breaks_identically),
        cmocka_unit_test(test_forced_paths),
        cmocka_unit_test(test_big_cloth_every_integrator),
        cmocka_unit_test(test_long_rope_windows),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
