/* dev_abi.h — what a device driver offers core/device: its devices, memory, copies and passes (the drivers' ABI). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEV_ABI_H
#define HOOKE_DEV_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "dev_pass.h"

/* A driver is a table of these functions. The host driver (dev_host.c) is
 * in libhooke; the GPU drivers are modules of their own, loaded when a
 * world asks for a GPU (device.c): libhooke_device_openmp.so (omp/,
 * OpenMP target offload, gcc's nvptx offload compiler) and
 * libhooke_device_cuda.so (cuda/, nvcc), each exporting HKD_ENTRY. A
 * module built from another source tree is refused by abi and args_size. */
#define HKD_ABI 1
#define HKD_ENTRY "hkd_driver_entry"

typedef struct hkd_driver {
    int abi;          /* HKD_ABI of the build */
    size_t args_size; /* sizeof(hkd_args) of the build */
    const char *name; /* "host", "openmp", "cuda" */
    /* Devices found, up to max into out (out may be NULL): their count; 0
     * with why (up to n bytes) saying what was looked for and not found. */
    int (*devices)(hk_device_info *out, int max, char *why, size_t n);
    /* A context on device d (0-based), or NULL with why. */
    void *(*open)(int d, char *why, size_t n);
    void (*close)(void *ctx);
    /* Device memory of n bytes (NULL: none left); released by release. */
    void *(*alloc)(void *ctx, size_t n);
    void (*release)(void *ctx, void *p);
    /* Copies n bytes host -> device (put) and device -> host (get, after
     * every pass before it has ended); 0 or -1 (error says why). */
    int (*put)(void *ctx, void *dev, const void *host, size_t n);
    int (*get)(void *ctx, void *host, const void *dev, size_t n);
    /* One pass of a->kind over elements [0, n), after every pass before it.
     * count NULL: it may return before the pass has ended. Otherwise
     * *count = the elements whose step returned 1 (particles moved, springs
     * broken), after it has ended. 0 or -1. */
    int (*run)(void *ctx, const hkd_args *a, int64_t n, long long *count);
    /* Returns once every pass begun has ended; 0 or -1. */
    int (*wait)(void *ctx);
    /* What the last failure was ("" if none). */
    const char *(*error)(void *ctx);
} hkd_driver;

/* A module's one export: its table. */
typedef const hkd_driver *(*hkd_entry_fn)(void);

/* The element step of pass a->kind (a driver that does not loop per kind calls this). */
static inline HK_HD int hkd_step(const hkd_args *a, int64_t i)
{
    switch (a->kind) {
#define HKD_CASE(K, name, m)                                                                                           \
    case K: return hkd_##name(&a->u.m, i);
        HKD_PASSES(HKD_CASE)
#undef HKD_CASE
    default: return 0;
    }
}

#endif
