/* dev_omp.c — the OpenMP target offload driver: each device pass one `omp target teams distribute` region. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* RTLD_NOLOAD */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_abi.h"
#include "gpu_info.h"

/*
 * Built as the module libhooke_device_openmp.so with gcc's nvptx offload
 * compiler (gcc-12-offload-nvptx: -foffload=nvptx-none), which writes the
 * passes as PTX that the CUDA driver compiles when the module loads; the
 * same passes are in the module for the host (OpenMP's initial device, the
 * driver "openmp-host" of the tests). gcc writes a float add, subtract or
 * multiply without a rounding mode, which lets the driver's compiler fuse a
 * pair into one rounding: the assembler the offload compiler calls is
 * device_as.sh (device.cmake), which writes every such operation with .rn
 * and every single-precision one with .ftz (the CPU's flush to zero), and
 * refuses PTX with an operation it does not know; tests/check_ptx.py reads
 * the result (docs/determinism.md, "On a GPU").
 */

/* hooke.h's precision check refers to the library's symbol; a module does not link libhooke and holds its own
 * (modules are built in float only: device.cmake). */
const int hk_library_is_float = 1;

typedef struct omp_ctx {
    int dev;          /* OpenMP's device number */
    hkd_args *args;   /* on the device: the pass's arguments, copied there before its region */
    long long *count; /* on the device: the pass's count */
    char error[512];
} omp_ctx;

/* Whether device d runs target regions there (1), or they fell back to the host (0: no offload image). */
static int offloads(int d)
{
    int host = 1;
#pragma omp target device(d) map(from : host)
    host = omp_is_initial_device();
    return !host;
}

static int dev_devices(hk_device_info *out, int max, char *why, size_t n)
{
    const int count = omp_get_num_devices();
    if (count < 1) {
        void *plugin = dlopen("libgomp-plugin-nvptx.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!plugin) {
            snprintf(why, n,
                     "driver openmp: no offload plugin (libgomp-plugin-nvptx.so.1, Debian's "
                     "libgomp-plugin-nvptx1: %s)",
                     dlerror());
            return 0;
        }
        dlclose(plugin);
        char cuda[256];
        if (hk_gpu_cuda_driver(cuda, sizeof cuda) != 0) {
            snprintf(why, n, "driver openmp: no CUDA driver (%s)", cuda);
            return 0;
        }
        snprintf(why, n, "driver openmp: OpenMP found no offload device (%s; OMP_TARGET_OFFLOAD=disabled?)", cuda);
        return 0;
    }
    if (!offloads(0)) {
        snprintf(why, n,
                 "driver openmp: its target regions run on the host (the module holds no offload image: "
                 "built without gcc's nvptx offload compiler?)");
        return 0;
    }
    for (int d = 0; d < count && out && d < max; d++) {
        hk_gpu_cuda_info(d, &out[d]);
        const size_t len = strlen(out[d].driver);
        snprintf(out[d].driver + len, sizeof out[d].driver - len, "%sopenmp (gcc %d.%d offload)", len ? ", " : "",
                 __GNUC__, __GNUC_MINOR__);
    }
    return count;
}

/* The initial device, for the tests: the same passes through the offload's host fallback. */
static int host_devices(hk_device_info *out, int max, char *why, size_t n)
{
    (void)why, (void)n;
    if (out && max > 0) {
        memset(out, 0, sizeof *out);
        snprintf(out->name, sizeof out->name, "host (OpenMP's initial device: the offload's host fallback)");
        snprintf(out->driver, sizeof out->driver, "openmp-host (gcc %d.%d)", __GNUC__, __GNUC_MINOR__);
    }
    return 1;
}

static void dev_close(void *ctx);
/* A world's context (each world its own: worlds may step on different threads at once). */
static void *open_dev(int d, int initial, char *why, size_t n)
{
    if (!initial && (d < 0 || d >= omp_get_num_devices())) {
        snprintf(why, n, "no OpenMP device %d", d);
        return NULL;
    }
    omp_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    c->dev = initial ? omp_get_initial_device() : d;
    c->args = omp_target_alloc(sizeof *c->args, c->dev);
    c->count = omp_target_alloc(sizeof *c->count, c->dev);
    if (!c->args || !c->count) {
        snprintf(why, n, "omp_target_alloc of %zu bytes failed on OpenMP device %d", sizeof *c->args, c->dev);
        dev_close(c);
        return NULL;
    }
    return c;
}
static void *dev_open_gpu(int d, char *why, size_t n) { return open_dev(d, 0, why, n); }
static void *host_open(int d, char *why, size_t n) { return open_dev(d, 1, why, n); }
static void dev_close(void *ctx)
{
    omp_ctx *c = ctx;
    if (c->args) omp_target_free(c->args, c->dev);
    if (c->count) omp_target_free(c->count, c->dev);
    free(c);
}

static void *dev_alloc(void *ctx, size_t n)
{
    omp_ctx *c = ctx;
    void *p = omp_target_alloc(n, c->dev);
    if (!p) snprintf(c->error, sizeof c->error, "omp_target_alloc of %zu bytes failed", n);
    return p;
}
static void dev_release(void *ctx, void *p)
{
    omp_ctx *c = ctx;
    omp_target_free(p, c->dev);
}
static int copy(omp_ctx *c, void *dst, const void *src, size_t n, int to_dev)
{
    const int host = omp_get_initial_device();
    if (omp_target_memcpy(dst, src, n, 0, 0, to_dev ? c->dev : host, to_dev ? host : c->dev) == 0) return 0;
    snprintf(c->error, sizeof c->error, "omp_target_memcpy of %zu bytes %s the device failed", n,
             to_dev ? "to" : "from");
    return -1;
}
static int dev_put(void *ctx, void *dev, const void *host, size_t n) { return copy(ctx, dev, host, n, 1); }
static int dev_get(void *ctx, void *host, const void *dev, size_t n) { return copy(ctx, host, dev, n, 0); }

/* How each pass's region takes the GPU. LANES: `parallel for simd`, each of a warp's 32 lanes an element (gcc 12's
 * nvptx OpenMP runs each thread of a plain `parallel for` as a whole warp with one lane busy). THREADS: `parallel
 * for`, one element a warp: gcc 12's offload compiler stops with an internal error (in its ompdevlow pass) on the
 * simd regions of the surface, obstacle and list-spring passes. Every pass of HKD_PASSES has its row: a new one must
 * choose. */
#define OMP_LANES_nodes LANES
#define OMP_LANES_integrate LANES
#define OMP_LANES_verlet LANES
#define OMP_LANES_kick LANES
#define OMP_LANES_rk4 LANES
#define OMP_LANES_copy LANES
#define OMP_LANES_volume THREADS
#define OMP_LANES_pressure THREADS
#define OMP_LANES_faces THREADS
#define OMP_LANES_verts THREADS
#define OMP_LANES_walls THREADS
#define OMP_LANES_sphere THREADS
#define OMP_LANES_break_springs LANES
#define OMP_LANES_set LANES
#define OMP_LANES_list THREADS
#define OMP_LANES_list_break LANES
#define OMP_LANES_finite THREADS
#define OMP_LANES_energy THREADS
#define OMP_LANES_scan THREADS
#define OMP_LANES_fold THREADS
#define OMP_LANES_contract_probe LANES

#define OMP_PRAGMA(...) _Pragma(#__VA_ARGS__)

/* A LANES region; counted (cnt not NULL) by a reduction whose sum comes back with the region. */
#define OMP_LOOP_LANES(name, m)                                                                                        \
    if (cnt) {                                                                                                         \
        long long total = 0;                                                                                           \
        OMP_PRAGMA(omp target teams distribute parallel for simd device(dv) is_device_ptr(A) reduction(+ : total)     \
                       map(tofrom : total)) for (int64_t i = 0; i < n; i++) total += hkd_##name(&A->u.m, i);           \
        *count = total;                                                                                                \
    } else {                                                                                                           \
        _Pragma("omp target teams distribute parallel for simd device(dv) is_device_ptr(A)") for (int64_t i = 0;       \
                                                                                                  i < n; i++)(void)    \
            hkd_##name(&A->u.m, i);                                                                                    \
    }
/* A THREADS region; counted on the device, the count copied back after it. */
#define OMP_LOOP_THREADS(name, m)                                                                                      \
    {                                                                                                                  \
        long long zero = 0;                                                                                            \
        if (cnt && copy(c, cnt, &zero, sizeof zero, 1) != 0) return -1;                                                \
        _Pragma("omp target teams distribute parallel for device(dv) is_device_ptr(A, cnt)") for (                     \
            int64_t i = 0; i < n; i++) if (hkd_##name(&A->u.m, i) && cnt)                                              \
        {                                                                                                              \
            _Pragma("omp atomic")(*cnt)++;                                                                             \
        }                                                                                                              \
        if (cnt && copy(c, count, cnt, sizeof *count, 0) != 0) return -1;                                              \
    }
#define OMP_LOOP(how, name, m) OMP_LOOP_(how, name, m)
#define OMP_LOOP_(how, name, m) OMP_LOOP_##how(name, m)

/* One pass: a target region per kind (each its own kernel) over the arguments copied to the device before it (no
 * mapping per region), the elements whose step returns 1 counted where asked. */
static int dev_run(void *ctx, const hkd_args *a, int64_t n, long long *count)
{
    omp_ctx *c = ctx;
    const int dv = c->dev;
    const hkd_args *A = c->args;
    long long *cnt = count ? c->count : NULL;
    if (copy(c, c->args, a, sizeof *a, 1) != 0) return -1;
    switch (a->kind) {
#define HKD_OMP_PASS(K, name, m)                                                                                       \
    case K: OMP_LOOP(OMP_LANES_##name, name, m) break;
        HKD_PASSES(HKD_OMP_PASS)
#undef HKD_OMP_PASS
    default: snprintf(c->error, sizeof c->error, "no pass of kind %d", (int)a->kind); return -1;
    }
    return 0;
}
static int dev_wait(void *ctx) { return (void)ctx, 0; } /* every target region above ends before it returns */
static const char *dev_error(void *ctx) { return ((omp_ctx *)ctx)->error; }

static const hkd_driver omp_driver = {HKD_ABI,   sizeof(hkd_args), "openmp",    dev_devices, dev_open_gpu,
                                      dev_close, dev_alloc,        dev_release, dev_put,     dev_get,
                                      dev_run,   dev_wait,         dev_error};
static const hkd_driver host_driver = {HKD_ABI,   sizeof(hkd_args), "openmp-host", host_devices, host_open,
                                       dev_close, dev_alloc,        dev_release,   dev_put,      dev_get,
                                       dev_run,   dev_wait,         dev_error};

__attribute__((visibility("default"))) const hkd_driver *hkd_driver_entry(void) { return &omp_driver; }
__attribute__((visibility("default"))) const hkd_driver *hkd_driver_entry_host(void) { return &host_driver; }
