/* test_task_hook.c — a host's thread pool (plain pthreads) runs hooke's parallel passes through the task hook:
 * the same state as OpenMP with as many threads, for a cloth, a jelly, list springs, an implicit solve and contact. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test.h"

#include <inttypes.h>
#include <pthread.h>

/*
 * The pool is what a host program might have: W worker threads that each
 * take one task of a call (hooke's contract: all the tasks of a call run at
 * once), and the calling thread, which takes one too when `caller_runs` is
 * set and then waits for the rest (hk_task_hook: run returns once every
 * task has returned), or returns as soon as the workers have them (an
 * enqueue-only pool, which hooke waits for itself). Which thread takes
 * which task turns with every call, so a task's work must not depend on
 * its thread for the states to agree.
 */
#define POOL_MAX 8
typedef struct pool {
    int workers, caller_runs;
    pthread_t th[POOL_MAX];
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    /* the call under way */
    hk_task_fn task;
    void *pass;
    int tasks, claimed, finished, generation, shutdown;
    /* what the test checks: calls, their task counts, the threads that ran task 0 */
    int64_t calls;
    int bad_tasks;               /* calls of fewer than 2 or more than team tasks */
    int team;                    /* the world's threads: the most tasks a call may have */
    unsigned task0_on;           /* bit i: thread i (0 the caller, 1.. the workers) ran task 0 of some call */
    unsigned char ran[POOL_MAX]; /* per task of the call: how many times it ran (1 each) */
    int ran_twice;
} pool;

/* Claims the next task of the call under way (mu held) and runs it as thread `who`; -1 if none is left. */
static int take_task(pool *p, int who)
{
    if (p->claimed >= p->tasks) return -1;
    const int k = p->claimed++;
    const int t = (int)((k + p->calls) % p->tasks); /* the task each thread takes turns call by call */
    if (t == 0) p->task0_on |= 1u << who;
    if (p->ran[t]++) p->ran_twice++;
    hk_task_fn task = p->task;
    void *pass = p->pass;
    pthread_mutex_unlock(&p->mu);
    task(pass, t);
    pthread_mutex_lock(&p->mu);
    if (++p->finished == p->tasks) pthread_cond_broadcast(&p->done);
    return t;
}

typedef struct worker_arg {
    pool *p;
    int who;
} worker_arg;
static worker_arg worker_args[POOL_MAX];

static void *worker(void *arg)
{
    const worker_arg *a = arg;
    pool *p = a->p;
    pthread_mutex_lock(&p->mu);
    for (int seen = 0;;) {
        while (p->generation == seen && !p->shutdown) pthread_cond_wait(&p->go, &p->mu);
        if (p->shutdown) break;
        seen = p->generation;
        take_task(p, a->who); /* one task a call: every task on a thread of its own */
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* hk_task_hook.run */
static void pool_run(void *host, int tasks, hk_task_fn task, void *pass)
{
    pool *p = host;
    pthread_mutex_lock(&p->mu);
    if (tasks < 2 || tasks > p->team) p->bad_tasks++;
    /* every task needs a thread at once: the workers, and the caller when it runs one */
    if (tasks > p->workers + p->caller_runs || tasks > POOL_MAX) {
        p->bad_tasks++;
        pthread_mutex_unlock(&p->mu);
        for (int t = 0; t < tasks; t++) task(pass, t); /* never reached by a correct call: the test fails */
        return;
    }
    p->task = task;
    p->pass = pass;
    p->tasks = tasks;
    p->claimed = p->finished = 0;
    memset(p->ran, 0, sizeof p->ran);
    p->generation++;
    pthread_cond_broadcast(&p->go);
    if (p->caller_runs) {
        take_task(p, 0);
        while (p->finished < p->tasks) pthread_cond_wait(&p->done, &p->mu);
    }
    p->calls++;
    pthread_mutex_unlock(&p->mu);
}

static void pool_start(pool *p, int team, int caller_runs)
{
    memset(p, 0, sizeof *p);
    p->team = team;
    p->caller_runs = caller_runs;
    p->workers = caller_runs ? team - 1 : team;
    assert_true(p->workers <= POOL_MAX - 1);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 0; i < p->workers; i++) {
        worker_args[i] = (worker_arg){p, i + 1};
        assert_int_equal(pthread_create(&p->th[i], NULL, worker, &worker_args[i]), 0);
    }
}

static void pool_stop(pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->shutdown = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->workers; i++) pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
}

/* ---- the worlds: each big enough (over 8192 particles, 16384 list springs) that every kind of pass runs on the
 * whole team: the lattice sweep, the list colours, the faces, the per-particle passes and the solver ---- */

typedef struct scene {
    const char *name;
    void (*build)(hk_world *w);
    int steps;
    int list_parallel_min;            /* the world's (0: the default) */
    void (*check)(const hk_world *w); /* the state after the steps (NULL: none) */
} scene;

static hk_spring_params springs(double k, double c)
{
    hk_spring_params s = hk_default_spring_params();
    s.k = k;
    s.damping = c;
    return s;
}

/* A 96 x 96 cloth in wind, falling on a sphere inside walls, a 6000-node rope beside it (swept in windows) and a row
 * of alike quads (one group of the engine), by RK4: four force passes and the per-particle passes of a step,
 * contacts after it. */
static void build_cloth(hk_world *w)
{
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 96;
    c.spacing = 0.02;
    c.origin = (hk_vec3){-0.95, 1.0, -0.95};
    c.u = (hk_vec3){1, 0, 0};
    c.v = (hk_vec3){0, 0, 1};
    c.mass = 1e-3;
    c.structural_springs = c.shear_springs = c.bend_springs = springs(40, 0.01);
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    const hk_sphere_def ball = {{0, 1.1, 0}, 0.3, {0, 0, 0}, 0.2}; /* reaches through the cloth: contacts at once */
    assert_true(hk_world_add_sphere(w, &ball) >= 0);
    hk_rope_def r = hk_default_rope_def();
    r.count = 6000;
    r.spacing = 0.0005;
    r.origin = (hk_vec3){-1.5, 1.5, 0};
    r.direction = (hk_vec3){1, 0, 0};
    r.topology = HK_ROPE_SKIP_ONE;
    r.springs = r.skip_springs = springs(200, 0.001);
    assert_true(hk_world_add_rope(w, &r) >= 0);
    for (int q = 0; q < 40; q++) {
        hk_quad_def d = hk_default_quad_def();
        d.size = 0.05;
        d.origin = (hk_vec3){-1 + 0.06 * q, 0.5, 1.2};
        d.diagonals = 1;
        assert_true(hk_world_add_quad(w, &d) >= 0);
    }
    hk_test_integrator(w, HK_RK4, 1e-4);
}

/* A 22^3 jelly (26 neighbours) on a spring ground, by the jelly scheme: the update fused into the sweep, the rows
 * that neighbouring blocks read parked until a barrier. */
static void build_jelly(hk_world *w)
{
    hk_jelly_def j = hk_default_jelly_def();
    j.nx = j.ny = j.nz = 22;
    j.spacing = 0.01;
    j.origin = (hk_vec3){0, 0.005, 0};
    j.mass = 1e-3;
    for (int c = 0; c < HK_JELLY_CLASSES; c++) j.springs[c] = springs(300, 0.02);
    assert_true(hk_world_add_jelly(w, &j) >= 0);
    hk_test_integrator(w, HK_JELLY, 2e-4);
}

/* An icosphere of 10 242 vertices and 30 720 list springs with pressure in wind: the list colours split over the
 * team with a barrier after each, the faces' volume, forces and normals with their barriers. */
static void build_mesh(hk_world *w)
{
    hk_mesh_def m = hk_default_mesh_def();
    m.offset = (hk_vec3){0, 1, 0};
    m.mass = 1e-3;
    m.velocity = (hk_vec3){0.1, -0.5, 0.2};
    m.springs = springs(500, 0.01);
    m.pressure.nrt = 5;
    m.pressure.pump_rate = 1;
    assert_true(hk_world_add_icosphere(w, &m, 0.5, 5) >= 0);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 2e-4);
}

/* Backward Euler at 240 Hz, its CG solve preconditioned by the multigrid. */
static void backward_euler(hk_world *w)
{
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = 1.0 / 240;
    d.preconditioner = HK_PRECONDITIONER_MULTIGRID;
    d.cg_tolerance = 1e-4;
    assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
}

/* A stiff 96 x 96 cloth hung by two corners, by backward Euler: its CG solve preconditioned by the multigrid (the
 * blocks, the coarse levels, the cycle), every product and reduction on the team. */
static void build_implicit(hk_world *w)
{
    hk_test_add_stiff_cloth(w, 96, 96);
    backward_euler(w);
}

/* Two 48 x 48 cloths stacked within the contact thickness on a box collider, bodies in contact, by backward Euler
 * with the multigrid: the colliders' broad phase, forces, blocks and safety net and the pairs' forces, blocks and
 * swept test, every loop on the team (list_parallel_min 64). */
static void build_contact(hk_world *w)
{
    for (int k = 0; k < 2; k++) {
        hk_cloth_def c = hk_default_cloth_def();
        c.nx = c.ny = 48;
        c.spacing = 0.02;
        c.origin = (hk_vec3){-0.47 + 0.003 * k, 1.0 + 0.006 * k, -0.47}; /* the upper's nodes over the lower's faces */
        c.u = (hk_vec3){1, 0, 0};
        c.v = (hk_vec3){0, 0, 1};
        c.mass = 1e-3;
        c.structural_springs = c.shear_springs = c.bend_springs = springs(400, 0.01);
        assert_true(hk_world_add_cloth(w, &c) >= 0);
    }
    hk_collider_def box = hk_default_collider_def();
    box.size = (hk_vec3){0.6, 0.2, 0.6};
    box.offset = (hk_vec3){0, 1.0 - 0.1 - 0.004, 0}; /* its top 4 mm under the lower cloth: within the thickness */
    box.thickness = 0.008;
    box.stiffness = 1000;
    box.damping_ratio = 1;
    box.friction = 0.3;
    assert_int_equal(hk_world_add_collider(w, &box), 0);
    hk_contact_def d = hk_default_contact_def();
    d.bodies = 1;
    d.thickness = 0.008;
    d.friction = 0.2;
    assert_int_equal(hk_world_set_contact(w, &d), HK_OK);
    backward_euler(w);
}

/* Over the box the contacts hold both cloths up: each one's mean vertical velocity there is upward, where gravity
 * alone would give -g t = -0.12 m/s after the 3 steps (the box pushes the lower, the lower the upper). */
static void check_contact(const hk_world *w)
{
    const hk_particles_view v = hk_world_particles(w);
    double vy[2] = {0, 0};
    int n[2] = {0, 0};
    for (int i = 0; i < v.count; i++) {
        const hk_vec3 x = hk_world_position(w, i);
        if (fabs(x.x) > 0.25 || fabs(x.z) > 0.25) continue;
        const int upper = i >= v.count / 2; /* the bodies' particles in the order they were added */
        vy[upper] += v.vy[i];
        n[upper]++;
    }
    print_message("contact: mean vy over the box %.4g (lower, %d) %.4g (upper, %d) m/s\n", vy[0] / n[0], n[0],
                  vy[1] / n[1], n[1]);
    assert_true(n[0] > 400 && n[1] > 400);
    assert_true(vy[0] > 0 && vy[1] > 0);
}

static const scene scenes[] = {
    {"cloth, rope and quads (rk4)", build_cloth, 8, 0, NULL},
    {"jelly (jelly scheme)", build_jelly, 8, 0, NULL},
    {"pressure icosphere of list springs", build_mesh, 8, 0, NULL},
    {"stiff cloth (backward Euler, multigrid)", build_implicit, 2, 0, NULL},
    {"two cloths on a box collider in contact (backward Euler)", build_contact, 3, 64, check_contact},
};
#define SCENES ((int)(sizeof scenes / sizeof scenes[0]))

/* The state hash after sc's steps on `threads` threads, on the pool when p is given (else OpenMP's threads). */
static uint64_t run_scene(const scene *sc, int threads, pool *p)
{
    hk_world_def def = hk_default_world_def();
    def.ground.model = HK_GROUND_SPRING;
    def.ground.stiffness = 1000;
    def.has_walls = 1;
    def.walls_min = (hk_vec3){-1.6, -1, -1.6};
    def.walls_max = (hk_vec3){1.6, 3, 1.6};
    def.wind_model = HK_WIND_TRIANGLE;
    def.wind = (hk_vec3){2, 0, 0};
    def.threads = threads;
    def.full_team = 1; /* every pass on the whole team: the thread counts compared are the ones run */
    if (sc->list_parallel_min) def.list_parallel_min = sc->list_parallel_min;
    if (p) def.task_hook = (hk_task_hook){pool_run, p};
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    sc->build(w);
    assert_int_equal(hk_world_optimise(w, 1), HK_OK);
    for (int s = 0; s < sc->steps; s++) {
        const hk_status st = hk_world_step(w);
        if (st != HK_OK) print_error("%s: step %d: %s\n", sc->name, s, hk_world_error(w));
        assert_int_equal(st, HK_OK);
    }
    if (sc->check) sc->check(w);
    const uint64_t h = hk_world_state_hash(w);
    hk_world_destroy(w);
    return h;
}

/* Whether the pool's bits are compared with OpenMP's with as many threads as well as with one thread's. The
 * sanitizer and Debug builds (HK_TEST_SLOW_BUILD), which look for memory errors and races rather than bits, leave
 * OpenMP's run out: the pool's two teams and one thread, 3 runs of a scene where the release build takes 5. */
#ifdef HK_TEST_SLOW_BUILD
#define COMPARE_OPENMP 0
#else
#define COMPARE_OPENMP 1
#endif

/* Every scene: on the pool with 2 and 3 tasks, the bits of OpenMP with as many threads and of one thread. */
static void test_pool_same_bits(void **state)
{
    (void)state;
    for (int s = 0; s < SCENES; s++) {
        const uint64_t one = run_scene(&scenes[s], 1, NULL);
        for (int team = 2; team <= 3; team++) {
            pool p;
            pool_start(&p, team, 1);
            const uint64_t host = run_scene(&scenes[s], team, &p);
            const uint64_t omp = COMPARE_OPENMP ? run_scene(&scenes[s], team, NULL) : one;
            pool_stop(&p);
            print_message("%s, %d tasks: pool 0x%016" PRIx64 " (%" PRId64 " calls), 1 thread 0x%016" PRIx64
                          ", OpenMP 0x%016" PRIx64 "%s\n",
                          scenes[s].name, team, host, p.calls, one, omp,
                          COMPARE_OPENMP ? "" : " (not run: one thread's)");
            assert_true(p.calls > 0); /* the passes went to the pool */
            assert_int_equal(p.bad_tasks, 0);
            assert_int_equal(p.ran_twice, 0);
            assert_true(p.task0_on & (p.task0_on - 1)); /* task 0 ran on more than one thread */
            assert_true(host == omp);
            assert_true(host == one);
        }
    }
}

/* A pool whose run returns once the workers have the tasks, before they finish: hooke waits for them (no task
 * outlives its pass), and the state is the same. */
static void test_pool_returning_early(void **state)
{
    (void)state;
    const scene *sc = &scenes[2];
    pool p;
    pool_start(&p, 3, 0);
    const uint64_t host = run_scene(sc, 3, &p);
    pool_stop(&p);
    assert_true(p.calls > 0);
    assert_int_equal(p.bad_tasks, 0);
    assert_true(host == run_scene(sc, 1, NULL));
}

/* The hook needs the tasks of a pass: threads 0 (OpenMP's default) is refused with it, by the def and by the
 * setters, and the world can go back to OpenMP. */
static void test_hook_settings(void **state)
{
    (void)state;
    pool p;
    pool_start(&p, 2, 1);
    const hk_task_hook hook = {pool_run, &p};
    hk_world_def def = hk_default_world_def();
    def.task_hook = hook;
    def.threads = 0;
    assert_null(hk_world_create(&def));
    def.threads = 2;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    assert_int_equal(hk_world_set_threads(w, 0), HK_ERR_INVALID);
    assert_non_null(strstr(hk_world_error(w), "task hook"));
    assert_int_equal(hk_world_threads(w), 2);
    assert_int_equal(hk_world_set_task_hook(w, NULL), HK_OK); /* OpenMP's again: 0 is its default */
    assert_int_equal(hk_world_set_threads(w, 0), HK_OK);
    assert_int_equal(hk_world_set_task_hook(w, &hook), HK_ERR_INVALID);
    assert_non_null(strstr(hk_world_error(w), "threads"));
    assert_int_equal(hk_world_set_threads(w, 2), HK_OK);
    assert_int_equal(hk_world_set_task_hook(w, &hook), HK_OK);
    /* a world made without the hook takes it later: the jelly on the pool */
    build_jelly(w);
    for (int s = 0; s < 4; s++) assert_int_equal(hk_world_step(w), HK_OK);
    assert_true(p.calls > 0);
    hk_world_destroy(w);
    pool_stop(&p);
    assert_int_equal(p.bad_tasks, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_settings),
        cmocka_unit_test(test_pool_same_bits),
        cmocka_unit_test(test_pool_returning_early),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
