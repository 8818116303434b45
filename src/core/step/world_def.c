/* world_def.c — what hk_world_create accepts: every field of hk_world_def against its rule, no value clamped. */
/* SPDX-License-Identifier: MIT */
#include "world_def.h"

#include <limits.h>
#include <stdio.h>

#include "device_drivers.h"
#include "external.h"
#include "kernels.h"

/* One row per field of hk_world_def: the per-particle forces' own rows
 * (external.h), then the rest. The magnitudes come from the bounds table
 * (bounds.c), the scene format's keys accept the same (scene_kinds.c). */
#define ROW(name, member, rule, a, b) HK_FIELD_ROW(hk_world_def, name, member, rule, a, b)
#define TERM_ROWS(term) HK_FIELDS_##term(ROW)
// clang-format off
static const hk_field fields[] = {
    HK_EXTERNAL_TERMS(TERM_ROWS)
    ROW("has_walls", has_walls, HK_RULE_INT, 0, 1)
    ROW("walls_min", walls_min, HK_RULE_VEC, 0, 0)
    ROW("walls_max", walls_max, HK_RULE_VEC, 0, 0)
    ROW("walls_loss", walls_loss, HK_RULE_RANGE, 0, 1)
    ROW("threads", threads, HK_RULE_INT, 0, HK_MAX_THREADS)
    ROW("wind_model", wind_model, HK_RULE_INT, 0, HK_WIND_MODEL_COUNT - 1)
    ROW("wind", wind, HK_RULE_VEC, 0, 0)
    ROW("wind_drag", wind_drag, HK_RULE_BOUND_OR_0, HK_BOUND_DAMPING, 0)
    ROW("list_parallel_min", list_parallel_min, HK_RULE_INT, 0, INT_MAX)
    ROW("full_team", full_team, HK_RULE_INT, 0, 1)
    ROW("device", device, HK_RULE_INT, 0, HK_DEVICE_KIND_COUNT - 1)
    ROW("strain_sweeps", strain_sweeps, HK_RULE_INT, 0, 1000000)
};
// clang-format on
#undef TERM_ROWS
#undef ROW

const hk_field *hk_world_def_fields(int *count)
{
    *count = (int)(sizeof fields / sizeof fields[0]);
    return fields;
}

int hk_world_def_check(const hk_world_def *def, char *err, size_t errlen)
{
    char msg[512];
    if (err && errlen) err[0] = '\0';
    if (!def) return HK_OK;
    int rc = HK_OK;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0] && rc == HK_OK; i++)
        if (hk_field_check(&fields[i], def, msg, sizeof msg) != 0) rc = HK_ERR_INVALID;
    if (rc == HK_OK && def->has_walls) {
        const hk_vec3 lo = def->walls_min, hi = def->walls_max;
        if (!(hi.x > lo.x && hi.y > lo.y && hi.z > lo.z)) {
            snprintf(msg, sizeof msg,
                     "walls_max must be greater than walls_min in x, y and z (got max (%g %g %g), min (%g %g %g))",
                     hi.x, hi.y, hi.z, lo.x, lo.y, lo.z);
            rc = HK_ERR_INVALID;
        }
    }
    if (rc == HK_OK && def->task_hook.run && def->threads < 1) { /* a host's pool runs passes of `threads` tasks */
        snprintf(msg, sizeof msg, "threads must be in [1, %d] with a task_hook (the tasks of a pass; got %d)",
                 HK_MAX_THREADS, def->threads);
        rc = HK_ERR_INVALID;
    }
    if (rc == HK_OK) {
        char why[256];
        rc = hk_kernels_check(def->kernels, why, sizeof why);
        if (rc != HK_OK) snprintf(msg, sizeof msg, "kernels: %s", why);
    }
    if (rc == HK_OK && hk_device_driver_name(def->device_driver, NULL) != 0) {
        char names[96];
        hk_device_driver_names(names, sizeof names);
        snprintf(msg, sizeof msg,
                 "device_driver must be one of %s, or NULL or \"\" for the first that finds a GPU (got \"%s\")", names,
                 def->device_driver);
        rc = HK_ERR_INVALID;
    }
    if (rc != HK_OK && err && errlen) snprintf(err, errlen, "%s", msg);
    return rc;
}
