/* life.c — a world's life: its creation (its definition checked: world_def.c), its kernel path, and its end. */
/* SPDX-License-Identifier: MIT */
#include "gravity_schedule.h"
#include "tethers.h"
#include "applied.h"
#include "constraints.h"
#include "vertices.h"
#include "device.h"
#include "engine.h"
#include "implicit.h"
#include "kernels.h"
#include "lists.h"
#include "part.h"
#include "response.h"
#include "targets.h"
#include "surface.h"
#include "world.h"
#include "world_def.h"

#include <stdlib.h>
#include <string.h>

hk_world *hk_world_create(const hk_world_def *def)
{
    if (hk_world_def_check(def, NULL, 0) != HK_OK) return NULL; /* refused as it is, never clamped */
    hk_world *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->def = def ? *def : hk_default_world_def();
    w->integrator = hk_default_integrator_def();
    w->solves = hk_integrator_info_of(w->integrator.kind)->implicit;
    w->substeps = 1;
    w->h = w->integrator.dt;
    hk_kernels_find(w->def.kernels, &w->kernels);                       /* a path the check accepted */
    w->def.kernels = hk_world_kernels(w);                               /* the name, not the caller's string */
    hk_device_driver_name(w->def.device_driver, &w->def.device_driver); /* likewise */
    w->facts.bodies = w->facts.families = -1;
    w->strain.step = -1;
    return w;
}

int hk_world_set_kernels(hk_world *w, const char *path)
{
    const hk_kernels *k;
    char why[256];
    const int rc = hk_kernels_check(path, why, sizeof why);
    if (rc != HK_OK) {
        hk_fail(w, "%s", why);
        return w->fail_code = rc;
    }
    hk_kernels_find(path, &k);
    if (k != w->kernels) w->forces_valid = 0; /* the new path's forces, its state made first */
    w->kernels = k;
    w->def.kernels = hk_world_kernels(w);
    return 0;
}

const char *hk_world_kernels(const hk_world *w) { return w->kernels ? w->kernels->isa : "reference"; }

void hk_world_destroy(hk_world *w)
{
    if (!w) return;
    hk_device_free(w); /* the device's memory and driver, before what they mirror */
    for (int s = 0; s < w->surface_count; s++) hk_surface_free(&w->surfaces[s]);
    hk_world_free_storage(w);
    hk_engine_free(w->engine);
    hk_implicit_release(w);
    hk_constraints_release(w);
    hk_vertex_graph_release(w);
    hk_part_free(w->part);
    hk_contact_free(w);
    hk_applied_free(w);
    hk_targets_free(w);
    hk_tethers_free(w);
    hk_gravity_schedule_free(w);
    free(w);
}
