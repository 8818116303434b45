/* applied.c — forces a host applies to single particles: set, read back and cleared, every value checked first. */
/* SPDX-License-Identifier: MIT */
#include "applied.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"

/* Three arrays x, y, z of the particle storage's capacity in one block, at arr[0..2] (*cap particles each), made
 * again where smaller: zeros, the old values kept; 0, or -1 (hk_fail_memory naming `what`). */
static int room3(hk_world *w, hk_real *arr[3], int *cap, const char *what)
{
    if (arr[0] && *cap >= w->p.capacity) return 0;
    const int n = w->p.capacity > 0 ? w->p.capacity : 1;
    hk_real *a = calloc(3 * (size_t)n, sizeof *a);
    if (!a) return hk_fail_memory(w, "out of memory for the %s (%d particles)", what, w->p.count);
    if (arr[0])
        for (int c = 0; c < 3; c++) memcpy(a + (size_t)c * n, arr[c], (size_t)*cap * sizeof *a);
    free(arr[0]);
    for (int c = 0; c < 3; c++) arr[c] = a + (size_t)c * n;
    *cap = n;
    return 0;
}

int hk_applied_room(hk_world *w) { return room3(w, w->applied, &w->applied_cap, "applied forces"); }

int hk_applied_sum_room(hk_world *w)
{
    return room3(w, w->applied_sum, &w->applied_sum_cap, "applied and contact forces");
}

void hk_applied_free(hk_world *w)
{
    free(w->applied[0]);
    free(w->applied_sum[0]);
    for (int c = 0; c < 3; c++) w->applied[c] = w->applied_sum[c] = NULL;
    w->applied_cap = w->applied_sum_cap = w->applied_on = 0;
}

/* 0, or the failure when the world steps on a GPU, whose passes add no applied forces (`call` names the call). */
static int on_gpu(hk_world *w, const char *call)
{
    return w->device_on == 2 ? hk_fail(w, "%s: the world steps on the GPU, whose passes add no applied forces", call)
                             : 0;
}

int hk_world_set_applied_forces(hk_world *w, int first, int count, const double *xyz)
{
    int rc = hk_particles_refused(w, first, count, "set_applied_forces");
    if (!rc) rc = on_gpu(w, "set_applied_forces");
    if (rc) return rc;
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
    if (on_gpu(w, "applied_force_arrays") != 0 || hk_applied_room(w) != 0) return NULL;
    w->applied_on = 1;
    w->forces_valid = 0;
    *stride = w->applied_cap;
    return w->applied[0];
}
