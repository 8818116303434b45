/* frame_thread.c — a device run's frames, written by a thread of their own from a copy of the state. */
/* SPDX-License-Identifier: MIT */
#include "frame_thread.h"

#include <pthread.h>
#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "whole_frames.h"
#include "world.h"

struct hk_frame_thread {
    hk_frames *frames;
    hk_scene sc; /* the copy: the scene built again, its state the frame's */
    pthread_t tid;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int job;         /* 1: a frame in hand (the thread writes it), 0: none */
    int quit;        /* the thread ends */
    int failed;      /* the frame in hand, or one before, failed (error says why) */
    int64_t written; /* the step of the last frame written, or -1 */
    int threads;     /* the OpenMP threads a frame's writing may take */
    char error[1024];
};

static void *writer_main(void *arg)
{
    hk_frame_thread *fw = arg;
#ifdef HOOKE_USE_OPENMP
    omp_set_num_threads(fw->threads); /* this thread's own setting: the run's stays the run's */
#endif
    pthread_mutex_lock(&fw->lock);
    for (;;) {
        while (!fw->job && !fw->quit) pthread_cond_wait(&fw->cond, &fw->lock);
        if (!fw->job) break; /* quit, with nothing in hand */
        pthread_mutex_unlock(&fw->lock);
        char err[1024] = "";
        const int bad = hk_frames_write(fw->frames, fw->sc.world, err, sizeof err) != 0;
        pthread_mutex_lock(&fw->lock);
        if (bad && !fw->failed) {
            fw->failed = 1;
            snprintf(fw->error, sizeof fw->error, "%s", err);
        }
        if (!bad) fw->written = fw->sc.world->steps;
        fw->job = 0;
        pthread_cond_broadcast(&fw->cond);
    }
    pthread_mutex_unlock(&fw->lock);
    return NULL;
}

hk_frame_thread *hk_frame_thread_open(hk_frames *frames, const char *scene, const hk_world_def *base, int threads,
                                      char *err, size_t errlen)
{
    hk_frame_thread *fw = calloc(1, sizeof *fw);
    if (!fw) {
        snprintf(err, errlen, "out of memory for the frames' writer");
        return NULL;
    }
    hk_world_def def = *base;
    def.device = HK_DEVICE_CPU; /* the copy is only read, on the host */
    if (hk_scene_load_on(scene, &def, &fw->sc, err, errlen) != 0) {
        free(fw);
        return NULL;
    }
    if (hk_world_optimise(fw->sc.world, 0) != 0) { /* the order of the run's own world (run.c) */
        snprintf(err, errlen, "%s: %s", scene, hk_world_error(fw->sc.world));
        hk_scene_free(&fw->sc);
        free(fw);
        return NULL;
    }
    fw->written = -1;
    fw->threads = threads > 1 ? threads - 1 : 1; /* one core left to the thread that drives the device */
    pthread_mutex_init(&fw->lock, NULL);
    pthread_cond_init(&fw->cond, NULL);
    if (pthread_create(&fw->tid, NULL, writer_main, fw) != 0) {
        snprintf(err, errlen, "could not start the frames' writer thread");
        pthread_mutex_destroy(&fw->lock);
        pthread_cond_destroy(&fw->cond);
        hk_scene_free(&fw->sc);
        free(fw);
        return NULL;
    }
    fw->frames = frames;
    return fw;
}

/* w's state at its step into the copy: the particles' positions, velocities and forces, the broken springs, and
 * what hk_copy_held_alike takes. */
static void copy_state(hk_world *copy, const hk_world *w)
{
    hk_state_read(w); /* on a device: brought back (the check before the frame did it already) */
    HK_ASSERT(copy->p.count == w->p.count && copy->family_count == w->family_count);
    hk_copy_held_alike(copy, w);
    const size_t bytes = (size_t)w->p.count * sizeof(hk_real);
    const hk_particles *p = &w->p;
    hk_particles *c = &copy->p;
    hk_real *const to[9] = {c->qx, c->qy, c->qz, c->vx, c->vy, c->vz, c->fx, c->fy, c->fz};
    const hk_real *const from[9] = {p->qx, p->qy, p->qz, p->vx, p->vy, p->vz, p->fx, p->fy, p->fz};
    for (int k = 0; k < 9; k++) memcpy(to[k], from[k], bytes);
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        hk_family *g = &copy->families[fi];
        if (!f->broken || !g->broken) continue;
        const int64_t at = f->kind == HK_FAMILY_LATTICE ? f->lo : 0,
                      n = f->kind == HK_FAMILY_LATTICE ? f->hi - f->lo : f->count;
        memcpy(g->broken + at, f->broken + at, (size_t)n);
        g->broken_count = f->broken_count;
    }
}

/* Waits (with the lock held) until no frame is in hand. */
static void idle(hk_frame_thread *fw)
{
    while (fw->job) pthread_cond_wait(&fw->cond, &fw->lock);
}

int hk_frame_thread_put(hk_frame_thread *fw, const hk_world *w, char *err, size_t errlen)
{
    pthread_mutex_lock(&fw->lock);
    idle(fw);
    const int failed = fw->failed;
    if (failed) {
        snprintf(err, errlen, "%s", fw->error);
    } else {
        copy_state(fw->sc.world, w);
        fw->job = 1;
        pthread_cond_broadcast(&fw->cond);
    }
    pthread_mutex_unlock(&fw->lock);
    return failed ? -1 : 0;
}

int hk_frame_thread_wait(hk_frame_thread *fw, int64_t *written, char *err, size_t errlen)
{
    pthread_mutex_lock(&fw->lock);
    idle(fw);
    const int failed = fw->failed;
    if (failed) snprintf(err, errlen, "%s", fw->error);
    if (written) *written = fw->written;
    pthread_mutex_unlock(&fw->lock);
    return failed ? -1 : 0;
}

void hk_frame_thread_close(hk_frame_thread *fw)
{
    if (!fw) return;
    pthread_mutex_lock(&fw->lock);
    idle(fw);
    fw->quit = 1;
    pthread_cond_broadcast(&fw->cond);
    pthread_mutex_unlock(&fw->lock);
    pthread_join(fw->tid, NULL);
    pthread_mutex_destroy(&fw->lock);
    pthread_cond_destroy(&fw->cond);
    hk_frames_close(fw->frames);
    hk_scene_free(&fw->sc);
    free(fw);
}
