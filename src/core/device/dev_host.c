/* dev_host.c — the host driver: the device backend's passes on the calling thread, its "device memory" the heap. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_host.h"

/* The device's passes as the GPU drivers run them, but on this CPU: each
 * pass a serial loop of its element steps over memory of its own, loaded
 * and read back by copies. It runs the whole backend (planning, terms,
 * passes, copies) where no GPU is, which is how the tests check on every
 * machine that a step through the device ends in the CPU engine's bits
 * (`hooke run --device gpu` with HOOKE_DEVICE_DRIVER=host). The step runs in
 * the solver's floating-point mode (step.c), as the CPU engine's tasks do. */

static int host_devices(hk_device_info *out, int max, char *why, size_t n)
{
    (void)why, (void)n;
    if (out && max > 0) {
        memset(out, 0, sizeof *out);
        snprintf(out->name, sizeof out->name, "host (the device's passes on this CPU)");
        snprintf(out->driver, sizeof out->driver, "host");
    }
    return 1;
}

static int token;
static void *host_open(int d, char *why, size_t n)
{
    if (d != 0) {
        snprintf(why, n, "the host driver has one device");
        return NULL;
    }
    return &token;
}
static void host_close(void *ctx) { (void)ctx; }
static void *host_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n);
}
static void host_release(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}
static int host_put(void *ctx, void *dev, const void *host, size_t n)
{
    (void)ctx;
    memcpy(dev, host, n);
    return 0;
}
static int host_get(void *ctx, void *host, const void *dev, size_t n)
{
    (void)ctx;
    memcpy(host, dev, n);
    return 0;
}
static int host_run(void *ctx, const hkd_args *a, int64_t n, long long *count)
{
    (void)ctx;
    long long sum = 0;
    for (int64_t i = 0; i < n; i++) sum += hkd_step(a, i);
    if (count) *count = sum;
    return 0;
}
static int host_wait(void *ctx) { return (void)ctx, 0; }
static const char *host_error(void *ctx) { return (void)ctx, ""; }

static const hkd_driver host_driver = {HKD_ABI,    sizeof(hkd_args), "host",       host_devices, host_open,
                                       host_close, host_alloc,       host_release, host_put,     host_get,
                                       host_run,   host_wait,        host_error};

const hkd_driver *hk_device_host_driver(void) { return &host_driver; }
