/* life.c — a world's life: its creation (the environment checked), its kernel path, and its end (every layer's state freed). */
/* SPDX-License-Identifier: MIT */
#include "engine.h"
#include "implicit.h"
#include "kernels.h"
#include "lists.h"
#include "part.h"
#include "surface.h"
#include "world.h"

#include <stdlib.h>
#include <string.h>

int hk_check_environment(char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    return hk_kernels_env_check(err, errlen) != 0 || hk_lists_env_check(err, errlen) != 0 ? -1 : 0;
}

hk_world *hk_world_create(const hk_world_def *def)
{
    if (hk_check_environment(NULL, 0) != 0) return NULL;
    hk_world *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->def = def ? *def : hk_default_world_def();
    if (w->def.threads < 0 || w->def.threads > HK_MAX_THREADS) w->def.threads = 0;
    if (w->def.task_hook.run && w->def.threads < 1) { /* a hook runs passes of `threads` tasks */
        free(w);
        return NULL;
    }
    w->integrator = hk_default_integrator_def();
    w->substeps = 1;
    w->h = w->integrator.dt;
    w->kernels = hk_kernels_active();
    w->facts.bodies = w->facts.families = -1;
    return w;
}

int hk_world_set_kernels(hk_world *w, const char *path)
{
    const hk_kernels *k;
    if (hk_kernels_find(path, &k) != 0) {
        static const char *const known[] = {"avx512", "avx2", "scalar"}; /* the engine's paths, on some CPU or build */
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            if (strcmp(path, known[i]) == 0) {
                hk_fail(w, "kernel path '%s' is not available on this CPU and build (see hooke info)", path);
                return w->fail_code = HK_ERR_UNSUPPORTED;
            }
        return hk_fail(w, "unknown kernel path '%s' (expected avx512, avx2, scalar or reference)", path);
    }
    w->kernels = k;
    return 0;
}

const char *hk_world_kernels(const hk_world *w) { return w->kernels ? w->kernels->isa : "reference"; }

void hk_world_destroy(hk_world *w)
{
    if (!w) return;
    for (int s = 0; s < w->surface_count; s++) hk_surface_free(&w->surfaces[s]);
    hk_world_free_storage(w);
    hk_engine_free(w->engine);
    hk_implicit_release(w);
    hk_part_free(w->part);
    free(w);
}
