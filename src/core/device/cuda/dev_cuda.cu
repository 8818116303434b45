/* dev_cuda.cu — the CUDA driver: each device pass one kernel over its elements, the state in device memory. */
/* SPDX-License-Identifier: MIT */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_abi.h"

/*
 * Built as the module libhooke_device_cuda.so by nvcc where CMake finds
 * one (device.cmake), with -fmad=false (no multiply and add fused where the
 * source does not call fma: every add, subtract and multiply written .rn),
 * -prec-div=true and -prec-sqrt=true (div.rn, sqrt.rn) and -ftz=true (the
 * CPU's flush to zero on single precision: core/world/fpmode.h);
 * tests/check_ptx.py reads the PTX nvcc writes with the same flags. The
 * element steps are dev_pass.h's, compiled here for the GPU (HK_HD).
 * Kernels run in order on the default stream; a copy back waits for them.
 */

/* hooke.h's precision check refers to the library's symbol; a module does not link libhooke and holds its own
 * (modules are built in float only: device.cmake). */
extern "C" const int hk_library_is_float = 1;

typedef struct cuda_ctx {
    int dev;
    unsigned long long *count; /* device: a pass's count */
    const char *last;          /* the pass launched last (NULL: none yet) */
    char error[512];
} cuda_ctx;

/* Whether e is a kernel's fault, which CUDA reports at a later call (the next copy or wait): the call is not the
 * culprit, the passes launched since the last wait are. */
static int kernel_fault(cudaError_t e)
{
    static const cudaError_t faults[] = {
        cudaErrorIllegalAddress,      cudaErrorLaunchFailure,      cudaErrorMisalignedAddress,
        cudaErrorIllegalInstruction,  cudaErrorHardwareStackError, cudaErrorInvalidPc,
        cudaErrorInvalidAddressSpace, cudaErrorLaunchTimeout,      cudaErrorAssert};
    for (size_t k = 0; k < sizeof faults / sizeof faults[0]; k++)
        if (e == faults[k]) return 1;
    return 0;
}

/* 0, or -1 with the call's error in c->error (a kernel's fault named by the pass launched last). */
static int ok(cuda_ctx *c, cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return 0;
    if (kernel_fault(e) && c->last)
        snprintf(c->error, sizeof c->error, "a device pass failed: %s (the last launched: %s; found at %s)",
                 cudaGetErrorString(e), c->last, what);
    else
        snprintf(c->error, sizeof c->error, "%s: %s", what, cudaGetErrorString(e));
    return -1;
}

static int cuda_devices(hk_device_info *out, int max, char *why, size_t n)
{
    int count = 0, drv = 0, rt = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    if (e != cudaSuccess || count < 1) {
        if (e == cudaErrorNoDevice || (e == cudaSuccess && count < 1))
            snprintf(why, n, "driver cuda: the CUDA driver found no device (driver %d.%d)", drv / 1000,
                     drv % 1000 / 10);
        else if (e == cudaErrorInsufficientDriver && drv == 0)
            snprintf(why, n, "driver cuda: no CUDA driver (libcuda.so.1, the NVIDIA driver, is not there)");
        else
            snprintf(why, n, "driver cuda: %s (driver %d.%d, runtime %d.%d)", cudaGetErrorString(e), drv / 1000,
                     drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
        return 0;
    }
    for (int d = 0; d < count && out && d < max; d++) {
        cudaDeviceProp p;
        memset(&p, 0, sizeof p);
        memset(&out[d], 0, sizeof out[d]);
        if (cudaGetDeviceProperties(&p, d) == cudaSuccess) {
            snprintf(out[d].name, sizeof out[d].name, "%.127s", p.name);
            out[d].memory = (double)p.totalGlobalMem;
        }
        snprintf(out[d].driver, sizeof out[d].driver, "CUDA driver %d.%d, cuda (runtime %d.%d, sm_%d%d)", drv / 1000,
                 drv % 1000 / 10, rt / 1000, rt % 1000 / 10, p.major, p.minor);
    }
    return count;
}

/* A world's context (each world its own: worlds may step on different threads at once). */
static void *cuda_open(int d, char *why, size_t n)
{
    cuda_ctx *c = (cuda_ctx *)calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    c->dev = d;
    if (ok(c, cudaSetDevice(d), "cudaSetDevice") || ok(c, cudaMalloc(&c->count, sizeof *c->count), "cudaMalloc")) {
        snprintf(why, n, "%s", c->error);
        free(c);
        return NULL;
    }
    return c;
}
static void cuda_close(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    cudaFree(c->count);
    free(c);
}
static void *cuda_alloc(void *ctx, size_t n)
{
    void *p = NULL;
    if (ok((cuda_ctx *)ctx, cudaMalloc(&p, n), "cudaMalloc")) return NULL;
    return p;
}
static void cuda_release(void *ctx, void *p)
{
    (void)ctx;
    cudaFree(p);
}
static int cuda_put(void *ctx, void *dev, const void *host, size_t n)
{
    return ok((cuda_ctx *)ctx, cudaMemcpy(dev, host, n, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}
static int cuda_get(void *ctx, void *host, const void *dev, size_t n)
{
    return ok((cuda_ctx *)ctx, cudaMemcpy(host, dev, n, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
}

/* One kernel per pass: element i of pass K, its result counted where count is not NULL. */
#define HKD_CUDA_KERNEL(K, name, m)                                                                                    \
    __global__ void k_##name(const __grid_constant__ hkd_args a, int64_t n, unsigned long long *count)                 \
    {                                                                                                                  \
        const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;                                              \
        if (i >= n) return;                                                                                            \
        if (hkd_##name(&a.u.m, i) && count) atomicAdd(count, 1ull);                                                    \
    }
HKD_PASSES(HKD_CUDA_KERNEL)
#undef HKD_CUDA_KERNEL

enum { BLOCK = 256 };

static int cuda_run(void *ctx, const hkd_args *a, int64_t n, long long *count)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    unsigned long long *dc = count ? c->count : NULL;
    if (dc && ok(c, cudaMemsetAsync(dc, 0, sizeof *dc), "cudaMemsetAsync")) return -1;
    const unsigned blocks = (unsigned)((n + BLOCK - 1) / BLOCK);
    switch (a->kind) {
#define HKD_CUDA_LAUNCH(K, name, m)                                                                                    \
    case K:                                                                                                            \
        c->last = #name;                                                                                               \
        k_##name<<<blocks, BLOCK>>>(*a, n, dc);                                                                        \
        break;
        HKD_PASSES(HKD_CUDA_LAUNCH)
#undef HKD_CUDA_LAUNCH
    default: snprintf(c->error, sizeof c->error, "no pass of kind %d", (int)a->kind); return -1;
    }
    if (ok(c, cudaGetLastError(), "a kernel's launch")) return -1;
    if (!count) return 0;
    unsigned long long got = 0;
    if (ok(c, cudaMemcpy(&got, dc, sizeof got, cudaMemcpyDeviceToHost), "a pass")) return -1;
    *count = (long long)got;
    return 0;
}
static int cuda_wait(void *ctx) { return ok((cuda_ctx *)ctx, cudaDeviceSynchronize(), "the device's passes"); }
static const char *cuda_error(void *ctx) { return ((cuda_ctx *)ctx)->error; }

static const hkd_driver cuda_driver = {HKD_ABI,    sizeof(hkd_args), "cuda",       cuda_devices, cuda_open,
                                       cuda_close, cuda_alloc,       cuda_release, cuda_put,     cuda_get,
                                       cuda_run,   cuda_wait,        cuda_error};

extern "C" __attribute__((visibility("default"))) const hkd_driver *hkd_driver_entry(void) { return &cuda_driver; }
