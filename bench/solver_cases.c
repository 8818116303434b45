/* solver_cases.c — benchmark cases of the solver families on the setups of the papers and engines that ship them. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "hooke/hooke.h"
#include "scene.h"

/* One frame of a shipped scene under the variant "INTEGRATOR:SUBSTEPSxSWEEPS" (sweeps 0: the integrator takes
 * none): a frame of the scene's dt split into that many substeps. */
typedef struct frame_case {
    hk_world *w;
    int64_t items; /* spring updates a frame */
} frame_case;

void hk_bench_frame_free(void *s)
{
    frame_case *c = s;
    if (!c) return;
    hk_world_destroy(c->w);
    free(c);
}

static void *setup_frame(const char *path, int threads, const char *variant)
{
    char name[64];
    int substeps = 0, sweeps = 0;
    const char *colon = strchr(variant, ':');
    if (!colon || (size_t)(colon - variant) >= sizeof name || sscanf(colon + 1, "%dx%d", &substeps, &sweeps) != 2 ||
        substeps < 1) {
        fprintf(stderr, "solver_cases: variant '%s' is not INTEGRATOR:SUBSTEPSxSWEEPS\n", variant);
        return NULL;
    }
    memcpy(name, variant, (size_t)(colon - variant));
    name[colon - variant] = '\0';
    const int kind = hk_integrator_from_name(name);
    hk_bench_set_threads(threads);
    hk_scene sc;
    char err[512];
    if (kind < 0 || hk_scene_load(path, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "solver_cases: %s\n", kind < 0 ? "unknown integrator" : err);
        return NULL;
    }
    frame_case *c = calloc(1, sizeof *c);
    if (!c) {
        hk_scene_free(&sc);
        return NULL;
    }
    const double frame = sc.integrator.dt;
    c->w = hk_scene_take_world(&sc);
    hk_scene_free(&sc);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = (hk_integrator_kind)kind;
    d.dt = frame;
    d.dt_max = d.dt / substeps * (1 + 1e-9); /* rounding cannot make it one more */
    d.iterations = sweeps;
    if (hk_world_set_threads(c->w, threads) != 0 || hk_world_set_integrator(c->w, &d) != 0 ||
        hk_world_substeps(c->w) != substeps) {
        fprintf(stderr, "solver_cases: %s: %s\n", variant, hk_world_error(c->w));
        hk_bench_frame_free(c);
        return NULL;
    }
    const int64_t before = hk_world_spring_updates(c->w);
    if (hk_world_step(c->w) != HK_OK) {
        hk_bench_frame_free(c);
        return NULL;
    }
    c->items = hk_world_spring_updates(c->w) - before;
    return c;
}

void *hk_bench_setup_newton_cloth(int n, int threads, const char *variant)
{
    (void)n;
    return setup_frame(HOOKE_SCENES_DIR "/cloth_hanging_xpbd.scene", threads, variant);
}

void *hk_bench_setup_small_steps(int n, int threads, const char *variant)
{
    (void)n;
    return setup_frame(HOOKE_SCENES_DIR "/cloth_small_steps.scene", threads, variant);
}

void hk_bench_run_frame(void *s) { hk_world_step(((frame_case *)s)->w); }

int64_t hk_bench_frame_items(void *s) { return ((frame_case *)s)->items; }

int hk_bench_frame_counters(void *s, hk_bench_counter *out, int max)
{
    const hk_stats st = hk_world_stats(((frame_case *)s)->w);
    const hk_bench_counter all[] = {{"max_stretch", st.max_stretch}};
    int k = 0;
    for (; k < max && k < (int)(sizeof all / sizeof all[0]); k++) out[k] = all[k];
    return k;
}
