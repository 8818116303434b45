/* whole_frames.c — the OBJ, PNG and Blender frames of a world shared out over MPI ranks: rank 0's whole copy of
 * the world, brought up to date piece by piece before each frame. */
/* SPDX-License-Identifier: MIT */
#include "whole_frames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_ranks.h"
#include "part.h"
#include "world.h"

int hk_whole_frames_open(hk_whole_frames *wf, const char *scene, const hk_world_def *base, const char *dir, int mask,
                         int64_t first, const hk_camera *camera, char *err, size_t errlen)
{
    memset(wf, 0, sizeof *wf);
    int failed = 0;
    if (hk_mpi_rank() == 0) { /* the copy: built whole, coloured as one process colours it (its springs' order) */
        failed = hk_scene_load_on(scene, base, &wf->sc, err, errlen) != 0;
        if (!failed && hk_world_optimise(wf->sc.world, 0) != 0) {
            snprintf(err, errlen, "%s: %s", scene, hk_world_error(wf->sc.world));
            failed = 1;
        }
        if (!failed) wf->frames = hk_frames_open(dir, mask, first, err, errlen);
        failed |= !wf->frames;
        if (wf->frames) hk_frames_set_camera(wf->frames, camera);
    }
    if (hk_mpi_any(failed)) {
        if (!failed) snprintf(err, errlen, "rank 0 could not open its frames (its message above)");
        hk_whole_frames_close(wf);
        return -1;
    }
    return 0;
}

/* What a piece brings: each particle's q, v and f (particles), or a family's broken springs (flags). */
typedef struct bring {
    const hk_world *w;
    hk_world *copy; /* rank 0's */
} bring;

enum { ARRAYS = 9 };

static size_t particles_size(void *ctx, int b, int64_t l0, int64_t l1)
{
    (void)ctx;
    (void)b;
    return (size_t)(l1 - l0) * ARRAYS * sizeof(hk_real);
}

static void arrays_of(hk_particles *p, hk_real *a[ARRAYS])
{
    hk_real *const all[ARRAYS] = {p->qx, p->qy, p->qz, p->vx, p->vy, p->vz, p->fx, p->fy, p->fz};
    memcpy(a, all, sizeof all);
}

static void pack_particles(void *ctx, int b, int64_t l0, int64_t l1, void *buf)
{
    const bring *br = ctx;
    hk_real *a[ARRAYS], *out = buf;
    arrays_of((hk_particles *)&br->w->p, a);
    const int64_t at = hk_body_base(&br->w->bodies[b]) + l0, n = l1 - l0;
    for (int k = 0; k < ARRAYS; k++) memcpy(out + k * n, a[k] + at, (size_t)n * sizeof(hk_real));
}

static void put_particles(void *ctx, int b, int64_t l0, int64_t l1, void *buf)
{
    const bring *br = ctx;
    hk_real *a[ARRAYS];
    const hk_real *in = buf;
    arrays_of(&br->copy->p, a);
    const int64_t at = br->copy->bodies[b].first + l0, n = l1 - l0; /* the copy holds every body whole */
    for (int k = 0; k < ARRAYS; k++) memcpy(a[k] + at, in + k * n, (size_t)n * sizeof(hk_real));
}

/* A breakable family's broken springs: a lattice's flags of the source nodes [l0, l1); a list's, as the global
 * ends of each broken spring (the owner and the copy colour a list in orders of their own). */
static size_t flags_size(void *ctx, int fi, int64_t l0, int64_t l1)
{
    const bring *br = ctx;
    const hk_family *f = &br->w->families[fi];
    if (!f->broken) return 0;
    if (f->kind == HK_FAMILY_LATTICE) return (size_t)(l1 - l0);
    int64_t n = 0;
    for (int64_t s = 0; s < f->count; s++) n += f->broken[s] != 0;
    return (size_t)(1 + 2 * n) * sizeof(int64_t);
}

static void pack_flags(void *ctx, int fi, int64_t l0, int64_t l1, void *buf)
{
    const bring *br = ctx;
    const hk_family *f = &br->w->families[fi];
    if (!f->broken) return;
    if (f->kind == HK_FAMILY_LATTICE) {
        memcpy(buf, f->broken + l0, (size_t)(l1 - l0));
        return;
    }
    const hk_body *b = &br->w->bodies[f->body];
    int64_t *out = buf, n = 0;
    for (int64_t s = 0; s < f->count; s++)
        if (f->broken[s]) {
            out[1 + 2 * n] = hk_global_index(b, f->a[s]);
            out[2 + 2 * n] = hk_global_index(b, f->b[s]);
            n++;
        }
    out[0] = n;
}

static void put_flags(void *ctx, int fi, int64_t l0, int64_t l1, void *buf)
{
    const bring *br = ctx;
    hk_family *f = &br->copy->families[fi];
    if (!f->broken) return;
    if (f->kind == HK_FAMILY_LATTICE) {
        memcpy(f->broken + l0, buf, (size_t)(l1 - l0));
        return;
    }
    const int64_t *in = buf;
    for (int64_t k = 0; k < in[0]; k++) /* the copy's spring with these ends (global indices: its storage) */
        for (int64_t s = 0; s < f->count; s++)
            if (f->a[s] == in[1 + 2 * k] && f->b[s] == in[2 + 2 * k]) f->broken[s] = 1;
}

void hk_copy_held_alike(hk_world *copy, const hk_world *w)
{
    copy->steps = w->steps;
    copy->time = w->time;
    if (w->sphere_count > 0) memcpy(copy->spheres, w->spheres, (size_t)w->sphere_count * sizeof *w->spheres);
    for (int b = 0; b < w->body_count; b++) {
        memcpy(copy->bodies[b].anchor_pos, w->bodies[b].anchor_pos, sizeof w->bodies[b].anchor_pos);
        memcpy(copy->bodies[b].anchor_vel, w->bodies[b].anchor_vel, sizeof w->bodies[b].anchor_vel);
    }
}

int hk_whole_frames_write(hk_whole_frames *wf, const hk_world *w, char *err, size_t errlen)
{
    hk_world *copy = wf->sc.world;
    bring br = {w, copy};
    if (copy) { /* what every rank holds alike: the time, the spheres, the anchors */
        hk_copy_held_alike(copy, w);
        for (int fi = 0; fi < copy->family_count; fi++) { /* the broken springs come anew */
            hk_family *f = &copy->families[fi];
            if (f->broken) memset(f->broken, 0, (size_t)(f->kind == HK_FAMILY_LATTICE ? f->hi - f->lo : f->count));
        }
    }
    int failed = hk_part_funnel(w, 0, particles_size, pack_particles, put_particles, &br) != 0 ||
                 hk_part_funnel(w, 1, flags_size, pack_flags, put_flags, &br) != 0;
    if (failed) snprintf(err, errlen, "out of memory for a frame's pieces");
    for (int fi = 0; copy && !failed && fi < copy->family_count; fi++) {
        hk_family *f = &copy->families[fi];
        const int64_t n = f->kind == HK_FAMILY_LATTICE ? f->hi - f->lo : f->count;
        f->broken_count = 0;
        const int64_t at = f->kind == HK_FAMILY_LATTICE ? f->lo : 0;
        for (int64_t s = 0; f->broken && s < n; s++) f->broken_count += f->broken[at + s] != 0;
    }
    const int mine = !failed && copy && hk_frames_write(wf->frames, copy, err, errlen) != 0;
    if (hk_mpi_any(mine || failed)) {
        if (!mine && !failed) snprintf(err, errlen, "rank 0 could not write a frame (its message above)");
        return -1;
    }
    return 0;
}

void hk_whole_frames_close(hk_whole_frames *wf)
{
    hk_frames_close(wf->frames);
    wf->frames = NULL;
    hk_scene_free(&wf->sc);
}
