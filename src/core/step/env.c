/* env.c — reads HOOKE_KERNELS, HOOKE_LIST_PARALLEL_MIN, HOOKE_FULL_TEAM and HOOKE_DEVICE_DRIVER into the definition
 * the program's worlds start from. */
/* SPDX-License-Identifier: MIT */
#include "env.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "device_drivers.h"
#include "kernels.h"
#include "numbers.h"

/* NAME's value, or NULL when it is unset or empty (the default). */
static const char *value_of(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

int hk_env_world_def(hk_world_def *out, char *err, size_t errlen)
{
    *out = hk_default_world_def();
    if (err && errlen) err[0] = '\0';
    const char *kernels = value_of("HOOKE_KERNELS");
    if (kernels && !hk_kernel_path_available(kernels)) {
        if (err && errlen)
            snprintf(err, errlen,
                     "HOOKE_KERNELS=%s: expected reference, scalar, avx2 or avx512, one this CPU and build can run "
                     "(hooke info lists them)",
                     kernels);
        return -1;
    }
    out->kernels = kernels;
    const char *min = value_of("HOOKE_LIST_PARALLEL_MIN");
    int64_t n;
    if (min && hk_num_int(min, 0, INT_MAX, &n) != HK_NUM_OK) {
        if (err && errlen)
            snprintf(err, errlen, "HOOKE_LIST_PARALLEL_MIN=%s: expected a whole number of springs >= 0 (at most %d)",
                     min, INT_MAX);
        return -1;
    }
    if (min) out->list_parallel_min = (int)n;
    const char *full = value_of("HOOKE_FULL_TEAM");
    if (full && hk_num_int(full, 0, 1, &n) != HK_NUM_OK) {
        if (err && errlen) snprintf(err, errlen, "HOOKE_FULL_TEAM=%s: expected 0 or 1", full);
        return -1;
    }
    if (full) out->full_team = (int)n;
    const char *driver = value_of("HOOKE_DEVICE_DRIVER");
    if (driver && hk_device_driver_name(driver, &out->device_driver) != 0) {
        char names[96];
        hk_device_driver_names(names, sizeof names);
        if (err && errlen) snprintf(err, errlen, "HOOKE_DEVICE_DRIVER=%s: expected %s", driver, names);
        return -1;
    }
    return 0;
}

const char *hk_env_kernels(void)
{
    const char *k = value_of("HOOKE_KERNELS");
    return k && hk_kernel_path_available(k) ? k : hk_kernels_name();
}
