/* test_device_gpu.c — the device backend on a GPU: every row of test_device's through each GPU driver ends in the CPU's
 * bits; skipped, saying why, where no GPU is found. */
/* SPDX-License-Identifier: MIT */
#include <sys/wait.h>
#include <unistd.h>

#include "hk_test.h"
#include "hk_test_device.h"

#include "device.h"

/*
 * Labelled gpu: CTest runs it everywhere, and it reports itself skipped (exit 77) where no driver finds a GPU,
 * printing what each driver looked for. Where one does, every row of hk_test_device.h runs through that driver
 * (CUDA, OpenMP target offload) and must give the CPU's state hash and forces, bit for bit. Each driver runs in a
 * process of its own (this program again, given the driver's name): the CUDA runtime and libgomp's offload plugin
 * each take the GPU's context, and a failure of one must not be an artefact of the other in the same process.
 * bench/device_check.sh runs it on a lent GPU machine.
 */

static const char *driver;

static void test_gpu_bits(void **state)
{
    (void)state;
    print_message("driver %s\n", driver);
    device_bits(driver);
}

/* One driver, in this process: 0 passed, 77 no GPU found, else failed. */
static int one_driver(const char *name)
{
    hk_device_info info[4];
    char why[1024];
    if (hk_device_list(name, info, 4, why, sizeof why) < 1) {
        printf("test_device_gpu: driver %s: %s\n", name, why);
        return 77;
    }
    printf("test_device_gpu: driver %s: %s, %s\n", name, info[0].name, info[0].driver);
    fflush(stdout);
    driver = name;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

int main(int argc, char **argv)
{
    if (argc == 2) return one_driver(argv[1]);
    int ran = 0, failed = 0;
    for (int k = 0; hk_device_gpu_drivers[k]; k++) {
        fflush(stdout);
        const pid_t pid = fork();
        if (pid < 0) {
            perror("test_device_gpu: fork");
            return 1;
        }
        if (pid == 0) {
            execl("/proc/self/exe", argv[0], hk_device_gpu_drivers[k], (char *)NULL);
            perror("test_device_gpu: exec");
            _exit(1);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) status = 1 << 8;
        const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        ran += rc != 77;
        if (rc != 0 && rc != 77) {
            printf("test_device_gpu: driver %s failed (exit %d)\n", hk_device_gpu_drivers[k], rc);
            failed++;
        }
    }
    if (failed) return 1;
    if (ran == 0) {
        printf("test_device_gpu: skipped: no GPU driver of this build finds a GPU on this machine (above)\n");
        return 77;
    }
    return 0;
}
