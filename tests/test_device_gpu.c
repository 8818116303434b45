/* test_device_gpu.c — the device backend on a GPU: every row of test_device's through each GPU driver ends in the CPU's
 * bits; skipped, saying why, where no GPU is found. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"
#include "hk_test_device.h"

#include "device.h"

/*
 * Labelled gpu: CTest runs it everywhere, and it reports itself skipped (exit 77) where no driver finds a GPU,
 * printing what each driver looked for. Where one does, every row of hk_test_device.h runs through that driver
 * (CUDA, OpenMP target offload) and must give the CPU's state hash and forces, bit for bit. bench/device_check.sh
 * runs it on a lent GPU machine.
 */

static const char *drivers[2];
static int ndrivers;

static void test_gpu_bits(void **state)
{
    (void)state;
    for (int d = 0; d < ndrivers; d++) {
        print_message("driver %s\n", drivers[d]);
        device_bits(drivers[d]);
    }
}

int main(void)
{
    for (int k = 0; hk_device_gpu_drivers[k]; k++) {
        hk_device_info info[4];
        char why[1024];
        if (hk_device_list(hk_device_gpu_drivers[k], info, 4, why, sizeof why) > 0) {
            printf("test_device_gpu: driver %s: %s, %s\n", hk_device_gpu_drivers[k], info[0].name, info[0].driver);
            drivers[ndrivers++] = hk_device_gpu_drivers[k];
        } else {
            printf("test_device_gpu: driver %s: %s\n", hk_device_gpu_drivers[k], why);
        }
    }
    if (ndrivers == 0) {
        printf("test_device_gpu: skipped: no GPU driver of this build finds a GPU on this machine (above)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
