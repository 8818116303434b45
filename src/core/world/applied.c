/* applied.c — forces a host applies to single particles: set, read back and cleared, every value checked first. */
/* SPDX-License-Identifier: MIT */
#include "applied.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"

int hk_applied_room(hk_world *w)
{
    if (w->applied[0] && w->applied_cap >= w->p.capacity) return 0;
    const int cap = w->p.capacity > 0 ? w->p.capacity : 1;
    hk_real *a = calloc(3 * (size_t)cap, sizeof *a);
    if (!a) return hk_fail_memory(w, "out of memory for the applied forces (%d particles)", w->p.count);
    for (int c = 0; c < 3; c++) {
        if (w->applied[0]) memcpy(a + (size_t)c * cap, w->applied[c], (size_t)w->applied_cap * sizeof *a);
    }
    free(w->applied[0]);
    for (int c = 0; c < 3; c++) w->applied[c] = a + (size_t)c * cap;
    w->applied_cap = cap;
    return 0;
}

void hk_applied_free(hk_world *w)
{
    free(w->applied[0]);
    free(w->applied_sum[0]);
    for (int c = 0; c < 3; c++) w->applied[c] = w->applied_sum[c] = NULL;
    w->applied_cap = w->applied_sum_cap = w->applied_on = 0;
}

/* The range [first, first + count) of the world's particles, or the failure (the world's error says why). */
static int range_refused(hk_world *w, int first, int count, const char *call)
{
    if (first < 0 || count < 0 || first > w->p.count - count)
        return hk_fail(w, "%s: particles [%d, %d) outside the %d particles", call, first, first + count, w->p.count);
    return 0;
}

int hk_world_set_applied_forces(hk_world *w, int first, int count, const double *xyz)
{
    int rc = range_refused(w, first, count, "set_applied_forces");
    if (rc) return rc;
    if (w->device_on == 2)
        return hk_fail(w, "set_applied_forces: the world steps on the GPU, whose passes add no applied forces");
    for (int i = 0; i < count; i++) {
        const double *f = xyz + 3 * (size_t)i;
        if (!isfinite(f[0]) || !isfinite(f[1]) || !isfinite(f[2]))
            return hk_fail(w, "set_applied_forces: force of particle %d is not finite", first + i);
        if (!hk_real_holds(f[0]) || !hk_real_holds(f[1]) || !hk_real_holds(f[2]))
            return hk_fail(w,
                           "set_applied_forces: force (%g, %g, %g) N of particle %d is beyond this build's precision",
                           f[0], f[1], f[2], first + i);
    }
    if ((rc = hk_applied_room(w)) != 0) return rc;
    w->applied_on = 1;
    for (int i = 0; i < count; i++)
        for (int c = 0; c < 3; c++) w->applied[c][first + i] = (hk_real)xyz[3 * (size_t)i + c];
    w->forces_valid = 0;
    return HK_OK;
}

int hk_world_applied_forces(const hk_world *w, int first, int count, double *xyz)
{
    if (first < 0 || count < 0 || first > w->p.count - count) return HK_ERR_INVALID;
    for (int i = 0; i < count; i++)
        for (int c = 0; c < 3; c++) xyz[3 * (size_t)i + c] = w->applied_on ? (double)w->applied[c][first + i] : 0;
    return HK_OK;
}

void hk_world_clear_applied_forces(hk_world *w)
{
    if (!w->applied_on) return;
    memset(w->applied[0], 0, 3 * (size_t)w->applied_cap * sizeof *w->applied[0]);
    w->applied_on = 0;
    w->forces_valid = 0;
}

hk_real *hk_world_applied_force_arrays(hk_world *w, int *stride)
{
    if (w->device_on == 2) {
        hk_fail(w, "applied_force_arrays: the world steps on the GPU, whose passes add no applied forces");
        return NULL;
    }
    if (hk_applied_room(w) != 0) return NULL;
    w->applied_on = 1;
    w->forces_valid = 0;
    *stride = w->applied_cap;
    return w->applied[0];
}
