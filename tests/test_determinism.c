/* test_determinism.c — same scene, same state hash (runs, thread counts); a different dt, a different hash. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "hk_test_env.h"
#include "world.h"

/* A scene touching every code path that could be order-dependent: a 52-
 * neighbour jelly (lattice families) on a repulsion ground with drag, a
 * sphere and walls, a cloth with breakable springs, an all-to-all rope (a
 * list family) with a driven anchor, and a listed-points body. */
static hk_world *scene(int threads)
{
    hk_world_def def = hk_test_env_def(); /* HOOKE_LIST_PARALLEL_MIN=0: the rope's list springs on the team */
    def.gravity = (hk_vec3){0.5, -9.81, 0.2};
    def.air_drag = 0.01;
    def.ground = (hk_ground){HK_GROUND_REPULSION, -0.5, 200, 0.2, 2, 0};
    def.has_walls = 1;
    def.walls_min = (hk_vec3){-1, -1, -1};
    def.walls_max = (hk_vec3){1, 1.5, 1};
    def.walls_loss = 0.2;
    def.threads = threads;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);

    hk_sphere_def sd = {{0.1, -0.3, 0.05}, 0.15, {0.1, 0, 0}, 0.3};
    assert_int_equal(hk_world_add_sphere(w, &sd), 0);

    hk_jelly_def j = hk_default_jelly_def();
    j.nx = 7;
    j.ny = 6;
    j.nz = 5;
    j.spacing = 0.05;
    j.origin = (hk_vec3){-0.15, 0.0, -0.1};
    j.mass = 0.01;
    j.neighbours = 52;
    for (int c = 0; c < HK_JELLY_CLASSES; c++) {
        j.springs[c].k = 300 - 30 * c;
        j.springs[c].damping = 0.02;
    }
    assert_true(hk_world_add_jelly(w, &j) >= 0);

    hk_cloth_def c = hk_default_cloth_def();
    c.nx = 20;
    c.ny = 15;
    c.spacing = 0.04;
    c.origin = (hk_vec3){-0.4, 0.8, -0.3};
    c.mass = 2e-3;
    c.structural_springs.k = 200;
    c.structural_springs.behaviour = HK_SPRING_BREAKABLE;
    c.structural_springs.break_ratio = 1.05;
    c.shear_springs.k = c.bend_springs.k = 50;
    c.pins = HK_PIN_TWO_CORNERS;
    assert_true(hk_world_add_cloth(w, &c) >= 0);

    hk_rope_def r = hk_default_rope_def();
    r.count = 12;
    r.mass = 0.02;
    r.spacing = 0.05;
    r.origin = (hk_vec3){0.3, 1.0, 0.5};
    r.topology = HK_ROPE_ALL_TO_ALL;
    r.springs.k = 100;
    r.springs.damping = 0.05;
    r.springs.damping_model = HK_DAMP_RELATIVE;
    r.anchor = 1;
    r.anchor_velocity = (hk_vec3){-0.2, 0, 0};
    assert_true(hk_world_add_rope(w, &r) >= 0);
    return w;
}

/* Runs the scene for `steps` steps of dt under `kind`; returns the hash. */
static uint64_t run_hash(hk_integrator_kind kind, double dt, int steps, int threads, int64_t *broken)
{
    hk_world *w = scene(threads);
    hk_test_integrator(w, kind, dt);
    for (int s = 0; s < steps; s++) hk_world_step(w);
    hk_blowup b;
    if (hk_world_check(w, 10.0, &b)) {
        print_error("%s: blow-up (%s) -- the hash would be meaningless\n", hk_integrator_name(kind), b.cause);
        fail();
    }
    uint64_t h = hk_world_state_hash(w);
    if (broken) *broken = hk_world_stats(w).broken;
    hk_world_destroy(w);
    return h;
}

/* Four 80 x 80 cloths (24 families of at most 6 320 springs each) and a strip of 1100 x 62 nodes (its families along
 * the rows of 67 000 to 68 200 springs each in 256 fixed blocks of about 62 rows: most blocks empty), every particle
 * moved at random: the spring
 * scan (the stats' energy and largest stretch, the minimising integrators' line search) takes each small family as
 * one block, and every block of every family in one pass on the team. The same bits on 1, 2 and 3 threads, and those
 * of each block's springs summed in their order from zero, the blocks and the families in theirs (the one-task sum),
 * the largest stretch the first of the largest. */
static void test_scan_of_many_small_families(void **state)
{
    (void)state;
    hk_world_def def = hk_test_env_def();
    def.threads = 1;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    for (int b = 0; b < 5; b++) {
        hk_cloth_def c = hk_default_cloth_def();
        c.nx = b < 4 ? 80 : 1100;
        c.ny = b < 4 ? 80 : 62;
        c.spacing = 0.01;
        c.origin = (hk_vec3){0.9 * b, 1, 0};
        c.mass = 1e-3;
        c.structural_springs.k = 40 + 10 * b;
        c.shear_springs.k = c.bend_springs.k = 4 + b;
        c.pins = b % 2 ? HK_PIN_TWO_CORNERS : HK_PIN_EDGE;
        assert_true(hk_world_add_cloth(w, &c) >= 0);
    }
    uint64_t x = 88172645463325252ull; /* each particle moved up to 1 mm along each axis: every spring its own length */
    hk_real *const q[3] = {w->p.qx, w->p.qy, w->p.qz};
    for (int i = 0; i < w->p.count; i++)
        for (int c = 0; c < 3; c++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            q[c][i] += (hk_real)(1e-3 * ((double)(x >> 11) / 0x1p53 * 2 - 1));
        }
    double energy = 0, best = 0;
    int64_t springs = 0, big = 0;
    for (int f = 0; f < w->family_count; f++) {
        const int64_t n = w->families[f].count;
        double *rest = malloc((size_t)n * sizeof *rest), *len = malloc((size_t)n * sizeof *len), e = 0;
        assert_true(rest && len);
        assert_int_equal(hk_world_spring_lengths(w, f, 0, n, rest, len, NULL), HK_OK);
        const hk_family *fm = &w->families[f];
        const double half_k = 0.5 * fm->params.k;
        /* a family of more than 65 536 springs: 256 blocks of its rows (rows b R / 256 on), each summed from zero */
        const int64_t per_row = fm->i1 - fm->i0, rows = n / per_row, blocks = n > 65536 ? 256 : 1;
        for (int64_t b = 0, k = 0; b < blocks; b++) {
            e = 0;
            for (; k < rows * (b + 1) / blocks * per_row; k++) {
                const double ext = len[k] - rest[k];
                e += half_k * ext * ext;
                best = len[k] / rest[k] > best ? len[k] / rest[k] : best;
            }
            energy += e;
        }
        springs += n;
        big += n > 65536;
        free(rest), free(len);
    }
    assert_true(springs > 65536 && big >= 1); /* the scan on the team; the strip's big families in 256 blocks */
    const hk_stats one = hk_world_stats(w);
    assert_true(one.spring == energy && one.max_stretch == best);
    assert_true(best > 1.1);
    for (int t = 2; t <= 3; t++) {
        assert_int_equal(hk_world_set_threads(w, t), 0);
        const hk_stats st = hk_world_stats(w);
        if (memcmp(&st, &one, sizeof st) != 0) {
            print_error("%d threads: spring %.17g, max_stretch %.17g; 1 thread %.17g, %.17g\n", t, st.spring,
                        st.max_stretch, one.spring, one.max_stretch);
            fail();
        }
    }
    hk_world_destroy(w);
}

static void test_repeat_runs_same_hash(void **state)
{
    (void)state;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        int64_t broken;
        uint64_t a = run_hash((hk_integrator_kind)k, 2.5e-4, 300, 1, &broken);
        uint64_t b = run_hash((hk_integrator_kind)k, 2.5e-4, 300, 1, NULL);
        print_message("%-20s hash %016llx (%lld springs broken)\n", hk_integrator_name((hk_integrator_kind)k),
                      (unsigned long long)a, (long long)broken);
        /* bit-for-bit: no tolerance */
        assert_true(a == b);
    }
}

static void test_thread_count_same_hash(void **state)
{
    (void)state;
    /* Results are bit-identical for any number of threads. 2 and 3
     * threads (3: row blocks of unequal size); more would only oversubscribe
     * a small CI machine. */
    const hk_integrator_kind kinds[3] = {HK_SEMI_IMPLICIT_EULER, HK_VELOCITY_VERLET, HK_RK4};
    for (int k = 0; k < 3; k++) {
        uint64_t one = run_hash(kinds[k], 2.5e-4, 200, 1, NULL);
        for (int t = 2; t <= 3; t++) {
            uint64_t many = run_hash(kinds[k], 2.5e-4, 200, t, NULL);
            if (many != one) {
                print_error("%s: %d threads give %016llx, 1 thread %016llx\n", hk_integrator_name(kinds[k]), t,
                            (unsigned long long)many, (unsigned long long)one);
                fail();
            }
        }
    }
}

/* Worlds made on one thread and stepped in an OpenMP loop over them, a world per thread at a time and each checked
 * every 10 steps (as the Python module's hooke.Batch steps them): every one ends on the bits of the world alone. */
static void test_worlds_in_an_openmp_loop(void **state)
{
    (void)state;
    const uint64_t alone = run_hash(HK_SEMI_IMPLICIT_EULER, 2.5e-4, 60, 1, NULL);
    enum { N = 5 };
    hk_world *w[N];
    for (int i = 0; i < N; i++) {
        w[i] = scene(1);
        hk_test_integrator(w[i], HK_SEMI_IMPLICIT_EULER, 2.5e-4);
    }
    int bad = 0;
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(2) reduction(+ : bad)
#endif
    for (int i = 0; i < N; i++)
        for (int s = 1; s <= 60; s++) {
            bad += hk_world_step(w[i]) != HK_OK;
            hk_blowup b;
            hk_stats st;
            if (s % 10 == 0) bad += hk_world_check_stats(w[i], 10.0, &b, &st) != 0;
        }
    assert_int_equal(bad, 0);
    for (int i = 0; i < N; i++) {
        assert_true(hk_world_state_hash(w[i]) == alone);
        hk_world_destroy(w[i]);
    }
}

static void test_different_dt_different_hash(void **state)
{
    (void)state;
    /* The hash is sensitive: the same simulated time in slightly different
     * steps ends in a (slightly) different state, hence a different hash. */
    uint64_t a = run_hash(HK_SEMI_IMPLICIT_EULER, 2.5e-4, 300, 1, NULL);
    uint64_t b = run_hash(HK_SEMI_IMPLICIT_EULER, 2.5e-4 * 300 / 301, 301, 1, NULL);
    assert_true(a != b);
    /* and so does a different integrator */
    uint64_t c = run_hash(HK_VELOCITY_VERLET, 2.5e-4, 300, 1, NULL);
    assert_true(a != c);
}

/* Sub-stepping: a step of dt with dt_max splits into ceil(dt / dt_max) equal
 * substeps, so 50 steps of 1/256 s with dt_max = 0.001 s (4 substeps of
 * 1/1024 s) must end bit-for-bit where 200 plain steps of 1/1024 s end. */
static void test_substeps_equal_plain_steps(void **state)
{
    (void)state;
    const hk_integrator_kind kinds[2] = {HK_SEMI_IMPLICIT_EULER, HK_VELOCITY_VERLET};
    for (int k = 0; k < 2; k++) {
        hk_world *a = scene(1), *b = scene(1);
        hk_integrator_def d = hk_default_integrator_def();
        d.kind = kinds[k];
        d.dt = 1.0 / 256;
        d.dt_max = 0.001;
        assert_int_equal(hk_world_set_integrator(a, &d), 0);
        assert_int_equal(hk_world_substeps(a), 4);
        hk_test_integrator(b, kinds[k], 1.0 / 1024);
        assert_int_equal(hk_world_substeps(b), 1);
        for (int s = 0; s < 50; s++) hk_world_step(a);
        for (int s = 0; s < 200; s++) hk_world_step(b);
        assert_true(hk_world_time(a) == hk_world_time(b));
        assert_true(hk_world_state_hash(a) == hk_world_state_hash(b));
        hk_world_destroy(a);
        hk_world_destroy(b);
    }
}

static void test_hash_covers_state(void **state)
{
    (void)state;
    /* one ulp in one velocity component changes the hash */
    hk_world *w = scene(1);
    uint64_t a = hk_world_state_hash(w);
    hk_particles_view v = hk_world_particles(w);
    hk_real *vz = hk_test_mut(v.vz);
    const int last = v.count - 1;
#ifdef HOOKE_DOUBLE
    vz[last] = nextafter(vz[last], 1.0);
#else
    vz[last] = nextafterf(vz[last], 1.0f);
#endif
    uint64_t b = hk_world_state_hash(w);
    assert_true(a != b);
    hk_world_destroy(w);
}

/* The team size each engine pass ran with (the test hook sees it). */
static int last_team;
static void record_team(hk_world *w, int t, int T)
{
    (void)w;
    if (t == 0) last_team = T;
}

/* A world runs its parallel passes on its own thread count and leaves the
 * process-wide OpenMP setting alone (full_team 1: every pass on the whole
 * team, whatever else the machine runs). */
static void test_world_threads_leave_openmp_alone(void **state)
{
    (void)state;
#ifndef HOOKE_USE_OPENMP
    skip(); /* no OpenMP: one thread, nothing to leave alone */
#else
    omp_set_num_threads(1);
    hk_world *w = scene(3);
    w->def.full_team = 1; /* every pass on the whole team: a busy machine's cores sit no thread out here */
    assert_int_equal(hk_world_set_kernels(w, "scalar"), 0); /* the engine, whatever the CPU */
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 2.5e-4);
    w->after_pass = record_team;
    hk_world_step(w);
    assert_int_equal(last_team, 3);
    assert_int_equal(omp_get_max_threads(), 1);
    assert_int_equal(hk_world_set_threads(w, 2), 0);
    hk_world_step(w);
    assert_int_equal(last_team, 2);
    assert_int_equal(hk_world_set_threads(w, 0), 0); /* 0: hooke's default, at most OpenMP's count (1) */
    hk_world_step(w);
    assert_int_equal(last_team, 1);
    assert_int_equal(hk_world_set_threads(w, -1), -1);
    assert_int_equal(hk_world_set_threads(w, HK_MAX_THREADS + 1), -1);
    hk_world_destroy(w);
#endif
}

/* hooke's default thread count, the program's rule in the library: one thread per HK_SPRINGS_PER_THREAD springs
 * begun, at most the cores. A world of threads 0 runs on it for its springs, counted again as bodies are added,
 * with OpenMP's count as the cores (OMP_NUM_THREADS=1 in the tests' environment: set to 4 here), and says so
 * (hk_world_threads_in_use); its passes run on that many tasks. */
static void test_default_thread_count(void **state)
{
    (void)state;
    assert_int_equal(hk_default_threads(0, 8), 1);
    assert_int_equal(hk_default_threads(79, 8), 1); /* the rope scene */
    assert_int_equal(hk_default_threads(15000, 8), 1);
    assert_int_equal(hk_default_threads(15001, 8), 2);
    assert_int_equal(hk_default_threads(1567746, 2), 2); /* cloth_512 on 2 cores */
    assert_int_equal(hk_default_threads(1567746, 4096), 105);
    assert_int_equal(hk_default_threads(1000000, 0), 1);
#ifndef HOOKE_USE_OPENMP
    hk_world *w = hk_world_create(NULL);
    assert_int_equal(hk_world_threads_in_use(w), 1); /* one thread, whatever the springs */
    hk_world_destroy(w);
#else
    omp_set_num_threads(4);
    hk_world_def def = hk_default_world_def();
    def.full_team = 1;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    assert_int_equal(hk_world_threads(w), 0);
    hk_rope_def r = hk_default_rope_def();
    r.count = 80;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    assert_int_equal(hk_world_spring_count(w), 79);
    assert_int_equal(hk_world_threads_in_use(w), 1);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-4);
    w->after_pass = record_team;
    last_team = 0;
    hk_world_step(w);
    assert_int_equal(last_team, 1);
    r.count = 15000; /* 15078 springs: 2 threads */
    r.origin.y = 1;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    assert_int_equal(hk_world_spring_count(w), 15078);
    assert_int_equal(hk_world_threads_in_use(w), 2);
    hk_world_step(w);
    assert_int_equal(last_team, 2);
    r.count = 40000; /* 55077 springs: 4 threads, all of OpenMP's */
    r.origin.y = 2;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    assert_int_equal(hk_world_threads_in_use(w), 4);
    hk_world_step(w);
    assert_int_equal(last_team, 4);
    omp_set_num_threads(3); /* OpenMP's count, as called from this thread */
    assert_int_equal(hk_world_threads_in_use(w), 3);
    assert_int_equal(hk_world_set_threads(w, 2), 0); /* a setting wins */
    assert_int_equal(hk_world_threads_in_use(w), 2);
    omp_set_num_threads(1);
    hk_world_destroy(w);
#endif
}

/* The OpenMP threads that ran an engine pass's tasks (a bit each), the most tasks of a pass, the passes run in a
 * parallel region, and the passes. */
static int ran_on, most_tasks, in_region, passes, on_thread_1;
static void record_threads(hk_world *w, int t, int T)
{
    (void)w;
    if (t == 0) __atomic_fetch_add(&passes, 1, __ATOMIC_RELAXED);
#ifdef HOOKE_USE_OPENMP
    __atomic_fetch_or(&ran_on, 1 << omp_get_thread_num(), __ATOMIC_RELAXED);
    if (omp_get_thread_num() == 1) __atomic_fetch_add(&on_thread_1, 1, __ATOMIC_RELAXED);
    if (omp_in_parallel()) __atomic_fetch_add(&in_region, 1, __ATOMIC_RELAXED);
#endif
    for (int m = __atomic_load_n(&most_tasks, __ATOMIC_RELAXED); T > m;)
        if (__atomic_compare_exchange_n(&most_tasks, &m, T, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
}

/* Test crowding: held thread 1, or every held thread, counts as kept off its core by another process. */
static int64_t crowd_one(int thread) { return thread == 1 ? INT64_MAX : 0; }
static int64_t crowd_all(int thread) { return thread >= 1 ? INT64_MAX : 0; }

/* The scene on `threads` threads with full_team `full`, its passes recorded from zero (record_threads). */
static hk_world *recorded_scene(int threads, int full)
{
    ran_on = most_tasks = in_region = passes = on_thread_1 = 0;
    hk_world *w = scene(threads);
    w->def.full_team = full;
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 2.5e-4);
    w->after_pass = record_threads;
    return w;
}

/* Steps the scene on 3 threads with `crowded` (team.h) and full_team `full`; the state hash. */
static uint64_t crowded_run(int64_t (*crowded)(int), int full, int steps)
{
    hk_world *w = recorded_scene(3, full);
    hk_team_test_crowded = crowded;
    for (int s = 0; s < steps; s++) hk_world_step(w);
    hk_team_test_crowded = NULL;
    const uint64_t h = hk_world_state_hash(w);
    hk_world_destroy(w);
    return h;
}

/* A held thread that another process keeps off its core sits out the world's passes: it takes no task while it
 * is crowded, the passes run on the others, and the state is the bits of one thread. When every held thread is
 * crowded, the steps after the first run on the calling thread alone, without a parallel region. full_team 1
 * keeps every thread in every pass. */
static void test_crowded_thread_sits_out(void **state)
{
    (void)state;
#ifndef HOOKE_USE_OPENMP
    skip(); /* no OpenMP: no held threads */
#else
    const int steps = 60;
    const uint64_t one = run_hash(HK_SEMI_IMPLICIT_EULER, 2.5e-4, steps, 1, NULL);
    assert_true(crowded_run(crowd_one, 0, steps) == one);
    assert_int_equal(ran_on & 2, 0); /* thread 1 never */
    assert_true(most_tasks >= 1 && most_tasks <= 2);
    assert_true(crowded_run(crowd_all, 0, steps) == one);
    assert_int_equal(ran_on, 1); /* the caller only */
    assert_int_equal(most_tasks, 1);
    assert_true(in_region > 0 && 10 * in_region < passes); /* the first step's passes, no region after it */
    assert_true(crowded_run(crowd_one, 1, steps) == one);
    assert_int_equal(ran_on, 7); /* threads 0, 1 and 2 */
    assert_int_equal(most_tasks, 3);
#endif
}

/* Held thread 1 is kept off its core for 5 ms before each task it is handed, as another process's time slices
 * would keep it (team.h hk_team_test_stall). */
static void stall_one(int thread)
{
    if (thread != 1) return;
    const struct timespec off = {0, 5000000};
    nanosleep(&off, NULL);
}

/* A team whose second thread the machine keeps off its core still ends each step in the bits of one thread, and
 * stops waiting for it: the first passes that wait for the stalled thread (5 ms each, far more than the work) make
 * the team rest, and the passes run on the caller alone; the thread comes back only for the rare pass that looks
 * again whether it has its core. With full_team 1 it takes a task of every pass. */
static void test_stalled_thread_team_rests(void **state)
{
    (void)state;
#ifndef HOOKE_USE_OPENMP
    skip(); /* no OpenMP: no held threads */
#else
    const int steps = 120;
    const uint64_t one = run_hash(HK_SEMI_IMPLICIT_EULER, 2.5e-4, steps, 1, NULL);
    for (int full = 0; full <= 1; full++) {
        hk_world *w = recorded_scene(2, full);
        hk_team_test_stall = stall_one;
        for (int s = 0; s < 10; s++) hk_world_step(w);
        if (full) {
            assert_int_equal(on_thread_1, passes); /* every pass waits for it */
        } else {
            for (int s = 10; s < steps; s++) hk_world_step(w);
            assert_true(hk_world_state_hash(w) == one);
            assert_true(4 * on_thread_1 <= passes); /* a few passes, of 120 */
        }
        hk_team_test_stall = NULL;
        hk_world_destroy(w);
    }
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repeat_runs_same_hash),       cmocka_unit_test(test_thread_count_same_hash),
        cmocka_unit_test(test_different_dt_different_hash), cmocka_unit_test(test_substeps_equal_plain_steps),
        cmocka_unit_test(test_hash_covers_state),           cmocka_unit_test(test_world_threads_leave_openmp_alone),
        cmocka_unit_test(test_default_thread_count),        cmocka_unit_test(test_crowded_thread_sits_out),
        cmocka_unit_test(test_stalled_thread_team_rests),   cmocka_unit_test(test_worlds_in_an_openmp_loop),
        cmocka_unit_test(test_scan_of_many_small_families),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
