/* frames.c — what a PNG frame costs against a VTK frame of the same state, frame by frame through a scene's run. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: hooke_frames SCENE --out DIR [--every N] [--steps S] [--rows]
 *
 * Runs SCENE as `hooke run` does (its integrator, dt and length; --steps
 * ends it sooner) and at step 0, every N steps (default: the scene's
 * `every`, else ceil(steps / 100)) and the last writes the frame twice:
 * as PNG into DIR/png and as VTK into DIR/vtk, each through its own series (hk_frames_open:
 * the PNG camera and colour range of the run, the VTK collection), the two
 * in turn, PNG first at even frames and VTK first at odd ones. Each write
 * is timed whole (the frame's geometry, drawing or encoding, the file):
 * every frame is a round, and its ratio is PNG time / VTK time. Prints
 * one line: the frames, the median of the rounds' ratios with their
 * range, and the median ms of each format, then the same medians of the
 * process's CPU time (less moved by other work on a shared machine);
 * --rows prints every round too.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frames.h"
#include "hooke/hooke.h"
#include "scene.h"

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Times one frame of series fr: the wall seconds, and the process's CPU seconds into *cpu; -1 with the message
 * printed. */
static double timed_frame(hk_frames *fr, const hk_world *w, double *cpu)
{
    char err[1024];
    const double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    if (hk_frames_write(fr, w, err, sizeof err) != 0) {
        fprintf(stderr, "hooke_frames: %s\n", err);
        return -1;
    }
    *cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    return clock_s(CLOCK_MONOTONIC) - t0;
}

int main(int argc, char **argv)
{
    const char *scene = NULL, *out = NULL;
    long long every = 0, steps = 0;
    int rows = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--rows"))
            rows = 1;
        else if (!strcmp(argv[a], "--every") && a + 1 < argc)
            every = atoll(argv[++a]);
        else if (!strcmp(argv[a], "--steps") && a + 1 < argc)
            steps = atoll(argv[++a]);
        else if (!strcmp(argv[a], "--out") && a + 1 < argc)
            out = argv[++a];
        else if (argv[a][0] != '-' && !scene)
            scene = argv[a];
        else {
            fprintf(stderr, "usage: hooke_frames SCENE --out DIR [--every N] [--steps S] [--rows]\n");
            return 1;
        }
    }
    if (!scene || !out) {
        fprintf(stderr, "usage: hooke_frames SCENE --out DIR [--every N] [--steps S] [--rows]\n");
        return 1;
    }
    char err[1024], png_dir[4200], vtk_dir[4200];
    hk_scene sc;
    if (hk_scene_load(scene, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    hk_world *w = sc.world;
    if (hk_world_set_integrator(w, &sc.integrator) != 0 || hk_world_optimise(w, 0) != 0) {
        fprintf(stderr, "hooke_frames: %s\n", hk_world_error(w));
        return 1;
    }
    const double dt = sc.integrator.dt;
    const long long end = steps > 0 ? steps : sc.steps > 0 ? sc.steps : (long long)ceil(sc.time / dt - 1e-9);
    if (every <= 0) every = sc.every > 0 ? sc.every : (end + 99) / 100;
    if (end <= 0 || every <= 0) {
        fprintf(stderr, "hooke_frames: %s: no run length\n", scene);
        return 1;
    }
    snprintf(png_dir, sizeof png_dir, "%s/png", out);
    snprintf(vtk_dir, sizeof vtk_dir, "%s/vtk", out);
    hk_frames *png = hk_frames_open(png_dir, hk_frames_parse_formats("png"), -1, err, sizeof err);
    hk_frames *vtk = png ? hk_frames_open(vtk_dir, hk_frames_parse_formats("vtk"), -1, err, sizeof err) : NULL;
    if (!png || !vtk) {
        fprintf(stderr, "hooke_frames: %s\n", err);
        return 1;
    }
    const int cap = (int)(end / every) + 2;
    double *t_png = malloc((size_t)cap * sizeof *t_png), *t_vtk = malloc((size_t)cap * sizeof *t_vtk);
    double *ratio = malloc((size_t)cap * sizeof *ratio), *cpu_ratio = malloc((size_t)cap * sizeof *cpu_ratio);
    double *c_png = malloc((size_t)cap * sizeof *c_png), *c_vtk = malloc((size_t)cap * sizeof *c_vtk);
    int n = 0, rc = 0;
    for (long long step = 0;; step++) {
        if (step % every == 0 || step == end) {
            const int png_first = n % 2 == 0;
            double ca = 0, cb = 0;
            const double a = timed_frame(png_first ? png : vtk, w, &ca);
            const double b = a < 0 ? -1 : timed_frame(png_first ? vtk : png, w, &cb);
            if (b < 0) {
                rc = 1;
                break;
            }
            t_png[n] = png_first ? a : b;
            t_vtk[n] = png_first ? b : a;
            c_png[n] = png_first ? ca : cb;
            c_vtk[n] = png_first ? cb : ca;
            ratio[n] = t_png[n] / t_vtk[n];
            cpu_ratio[n] = c_png[n] / c_vtk[n];
            if (rows)
                printf("step %lld: png %.3f ms (cpu %.3f), vtk %.3f ms (cpu %.3f), ratio %.3f (cpu %.3f)\n", step,
                       1e3 * t_png[n], 1e3 * c_png[n], 1e3 * t_vtk[n], 1e3 * c_vtk[n], ratio[n], cpu_ratio[n]);
            n++;
        }
        if (step == end) break;
        hk_world_step(w);
    }
    if (rc == 0) {
        double lo = ratio[0], hi = ratio[0];
        for (int i = 1; i < n; i++) lo = fmin(lo, ratio[i]), hi = fmax(hi, ratio[i]);
        const double r = median(ratio, n), mp = median(t_png, n), mv = median(t_vtk, n);
        const double cr = median(cpu_ratio, n), cp = median(c_png, n), cv = median(c_vtk, n);
        printf("%s: %d frames (steps 0 to %lld every %lld): png/vtk median %.3f (%.3f .. %.3f); "
               "median png %.3f ms, vtk %.3f ms; CPU time: png/vtk median %.3f, png %.3f ms, vtk %.3f ms\n",
               scene, n, end, every, r, lo, hi, 1e3 * mp, 1e3 * mv, cr, 1e3 * cp, 1e3 * cv);
    }
    hk_frames_close(png);
    hk_frames_close(vtk);
    free(t_png);
    free(t_vtk);
    free(ratio);
    free(cpu_ratio);
    free(c_png);
    free(c_vtk);
    hk_scene_free(&sc);
    return rc;
}
