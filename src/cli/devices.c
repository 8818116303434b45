/* devices.c — the --device flag and the GPUs the drivers find, as `hooke info` and `hooke bench` print them. */
/* SPDX-License-Identifier: MIT */
#include "devices.h"

#include <string.h>

#include "args.h"
#include "device.h"
#include "device_drivers.h"
#include "hooke/hooke.h"

static const char *const kinds[HK_DEVICE_KIND_COUNT] = {
    [HK_DEVICE_CPU] = "cpu", [HK_DEVICE_GPU] = "gpu", [HK_DEVICE_AUTO] = "auto"};

const char *hk_device_kind_name(int kind) { return kind >= 0 && kind < HK_DEVICE_KIND_COUNT ? kinds[kind] : "unknown"; }

int hk_arg_device(const char *who, const char *flag, const char *value, int *out)
{
    for (int k = 0; value && k < HK_DEVICE_KIND_COUNT; k++)
        if (strcmp(value, kinds[k]) == 0) {
            *out = k;
            return 0;
        }
    return hk_arg_error(who, flag, value,
                        "cpu, gpu (a GPU, or exit 1 saying why none) or auto (the GPU where one "
                        "runs the scene, else the CPU)");
}

void hk_devices_print(FILE *f, const char *prefix)
{
    for (int k = 0; hk_device_gpu_drivers[k]; k++) {
        hk_device_info info[8];
        char why[1024];
        const int n = hk_device_list(hk_device_gpu_drivers[k], info, 8, why, sizeof why);
        if (n == 0) fprintf(f, "%s%s: none: %s\n", prefix, hk_device_gpu_drivers[k], why);
        for (int d = 0; d < n && d < 8; d++)
            fprintf(f, "%s%s: device %d: %s, %.1f GiB, %s\n", prefix, hk_device_gpu_drivers[k], d, info[d].name,
                    info[d].memory / (1024.0 * 1024.0 * 1024.0), info[d].driver);
    }
}

void hk_device_drivers_help(FILE *f, const char *prefix)
{
    const char *what, *name;
    for (int d = 0; (name = hk_device_driver_at(d, &what)) != NULL; d++) fprintf(f, "%s%-20s %s\n", prefix, name, what);
}
