/* consumer.c — a program outside hooke's tree that uses the installed library: it loads the oscillator
 * scene, runs it to the scene's end, checks the mass against the closed form and writes a VTK frame; a bad
 * world definition is refused by the field's name; with TASKS, its own thread pool runs hooke's parallel
 * passes (the task hook).
 *
 * usage: consumer SCENE DIR [TASKS]   (SCENE: scenes/oscillator.scene, a spring pair with one end pinned) */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hooke/hooke.h>

/* The host's pool: worker i runs task i of every call that has one, the calling thread task 0 (hooke.h
 * hk_task_hook: all the tasks of a call at once, the call returning when they have). */
#define POOL_MAX 16
typedef struct pool {
    int threads, tasks, generation, finished, stop;
    hk_task_fn task;
    void *pass;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    pthread_t th[POOL_MAX];
    int index[POOL_MAX];
    long calls;
} pool;
static pool host;

static void *worker(void *arg)
{
    const int i = *(const int *)arg;
    pthread_mutex_lock(&host.mu);
    for (int seen = 0;;) {
        while (host.generation == seen && !host.stop) pthread_cond_wait(&host.go, &host.mu);
        if (host.stop) break;
        seen = host.generation;
        if (i >= host.tasks) continue; /* a call of fewer tasks */
        pthread_mutex_unlock(&host.mu);
        host.task(host.pass, i);
        pthread_mutex_lock(&host.mu);
        if (++host.finished == host.tasks - 1) pthread_cond_signal(&host.done);
    }
    pthread_mutex_unlock(&host.mu);
    return NULL;
}

static void pool_run(void *h, int tasks, hk_task_fn task, void *pass)
{
    pool *p = h;
    pthread_mutex_lock(&p->mu);
    p->task = task;
    p->pass = pass;
    p->tasks = tasks; /* 2 to p->threads */
    p->finished = 0;
    p->generation++;
    p->calls++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    task(pass, 0);
    pthread_mutex_lock(&p->mu);
    while (p->finished < tasks - 1) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: consumer SCENE DIR [TASKS]\n");
        return 1;
    }
    const int tasks = argc == 4 ? atoi(argv[3]) : 0;
    if (argc == 4 && (tasks < 2 || tasks > POOL_MAX)) {
        fprintf(stderr, "consumer: TASKS must be 2 to %d\n", POOL_MAX);
        return 1;
    }
    if (strcmp(hk_version(), HOOKE_VERSION) != 0) {
        fprintf(stderr, "consumer: the library is hooke %s, its header %s\n", hk_version(), HOOKE_VERSION);
        return 1;
    }
    char err[1024];
    /* the library's boundary: a definition it cannot use is refused by the field's name, never clamped */
    hk_world_def bad = hk_default_world_def();
    bad.gravity.y = NAN;
    if (hk_world_def_check(&bad, err, sizeof err) != HK_ERR_INVALID || strncmp(err, "gravity.y ", 10) != 0 ||
        hk_world_create(&bad) != NULL) {
        fprintf(stderr, "consumer: a NaN gravity was not refused by name: '%s'\n", err);
        return 1;
    }
    hk_run_settings run;
    hk_world *w = hk_world_load_scene(argv[1], &run, err, sizeof err);
    if (!w) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    hk_particles_view p = hk_world_particles(w);
    const hk_family_info spring = hk_world_family(w, 0);
    if (hk_world_body_count(w) != 1 || p.count != 2 || p.inv_mass[0] != 0 || spring.springs != 1) {
        fprintf(stderr, "consumer: %s is not one spring with one end pinned\n", argv[1]);
        hk_world_destroy(w);
        return 1;
    }
    /* no colliders and no contact between bodies in the scene; the defaults as hooke.h gives them */
    const hk_collider_def cd = hk_default_collider_def();
    const hk_contact_def pd = hk_default_contact_def(), set = hk_world_contact(w);
    if (hk_world_collider_count(w) != 0 || set.bodies || set.self || !(cd.thickness > 0) || pd.bodies || pd.self ||
        !(pd.thickness > 0 && pd.stiffness > 0)) {
        fprintf(stderr, "consumer: unexpected colliders or contact settings in %s\n", argv[1]);
        hk_world_destroy(w);
        return 1;
    }
    /* x(t) = L0 + d0 cos(omega t) along the spring, released at rest: omega = sqrt(k / m) */
    hk_vec3 a = hk_world_position(w, 0), b = hk_world_position(w, 1); /* world positions [m] */
    const double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
    const double r0 = sqrt(ux * ux + uy * uy + uz * uz), L0 = spring.params.rest_length, d0 = r0 - L0;
    const double omega = sqrt(spring.params.k / p.mass[1]), dt = run.integrator.dt;

    if (tasks) { /* the pool's threads, then the world's passes on them */
        host.threads = tasks;
        pthread_mutex_init(&host.mu, NULL);
        pthread_cond_init(&host.go, NULL);
        pthread_cond_init(&host.done, NULL);
        for (int i = 1; i < tasks; i++) {
            host.index[i] = i;
            pthread_create(&host.th[i], NULL, worker, &host.index[i]);
        }
        const hk_task_hook hook = {pool_run, &host};
        if (hk_world_set_threads(w, tasks) != HK_OK || hk_world_set_task_hook(w, &hook) != HK_OK) {
            fprintf(stderr, "consumer: %s\n", hk_world_error(w));
            return 1;
        }
    }
    for (int64_t s = 0; s < run.steps; s++) hk_world_step(w);

    a = hk_world_position(w, 0);
    b = hk_world_position(w, 1);
    const double t = hk_world_time(w);
    const double x = ((b.x - a.x) * ux + (b.y - a.y) * uy + (b.z - a.z) * uz) / r0;
    const double exact = L0 + d0 * cos(omega * t);
    /* a first-order method: the error stays within omega dt of the amplitude */
    const double bound = omega * dt * fabs(d0);
    printf("t = %g s: x = %.6f m, closed form %.6f m (|error| %.1e m, bound %.1e m)\n", t, x, exact, fabs(x - exact),
           bound);
    printf("state_hash=0x%016" PRIx64 "\n", hk_world_state_hash(w));
    if (!(fabs(x - exact) <= bound)) {
        fprintf(stderr, "consumer: the mass is %.3g m from the closed form, more than %.3g m\n", fabs(x - exact),
                bound);
        hk_world_destroy(w);
        return 1;
    }
    if (hk_frame_write(w, "vtk", argv[2], err, sizeof err) != 0) {
        fprintf(stderr, "consumer: %s\n", err);
        hk_world_destroy(w);
        return 1;
    }
    printf("wrote the VTK frame of step %" PRId64 " into %s\n", hk_world_step_count(w), argv[2]);
    hk_world_destroy(w);
    if (tasks) { /* the world is gone: its pool may stop */
        pthread_mutex_lock(&host.mu);
        host.stop = 1;
        pthread_cond_broadcast(&host.go);
        pthread_mutex_unlock(&host.mu);
        for (int i = 1; i < tasks; i++) pthread_join(host.th[i], NULL);
        printf("the passes ran on the host's pool of %d threads: %ld calls\n", tasks, host.calls);
        if (host.calls == 0) {
            fprintf(stderr, "consumer: the task hook was never called\n");
            return 1;
        }
    }
    return 0;
}
