/* gpu_info.h — the OpenMP driver's view of its GPUs through the CUDA driver's library: found or not, names, memory. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_GPU_INFO_H
#define HOOKE_GPU_INFO_H

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "hooke/hooke.h"

/* OpenMP names no device; libgomp's nvptx plugin runs on NVIDIA's driver
 * library (libcuda.so.1), which this asks directly, by the entry points of
 * its stable C interface, without CUDA's headers. */
typedef int (*hk_cu_init_fn)(unsigned);
typedef int (*hk_cu_count_fn)(int *);
typedef int (*hk_cu_get_fn)(int *, int);
typedef int (*hk_cu_name_fn)(char *, int, int);
typedef int (*hk_cu_mem_fn)(size_t *, int);
typedef int (*hk_cu_version_fn)(int *);

/* dlsym's pointer as a function pointer of type T */
#define HK_CU_SYM(h, name, T, out)                                                                                     \
    do {                                                                                                               \
        void *sym_ = dlsym(h, name);                                                                                   \
        memcpy(&(out), &sym_, sizeof(out));                                                                            \
    } while (0)

/* 0 with "CUDA driver 13.0, 1 device" in text, or -1 with why none (no library, cuInit's failure). */
static inline int hk_gpu_cuda_driver(char *text, size_t n)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        snprintf(text, n, "the NVIDIA driver's library: %s", dlerror());
        return -1;
    }
    hk_cu_init_fn init;
    hk_cu_count_fn count;
    hk_cu_version_fn version;
    HK_CU_SYM(h, "cuInit", hk_cu_init_fn, init);
    HK_CU_SYM(h, "cuDeviceGetCount", hk_cu_count_fn, count);
    HK_CU_SYM(h, "cuDriverGetVersion", hk_cu_version_fn, version);
    int v = 0, devices = 0, rc = init ? init(0) : -1;
    if (rc == 0 && count) rc = count(&devices);
    if (version) version(&v);
    if (rc != 0)
        snprintf(text, n, "libcuda.so.1 (CUDA driver %d.%d) failed to start, error %d", v / 1000, v % 1000 / 10, rc);
    else
        snprintf(text, n, "CUDA driver %d.%d, %d device%s", v / 1000, v % 1000 / 10, devices, devices == 1 ? "" : "s");
    dlclose(h);
    return rc == 0 && devices > 0 ? 0 : -1;
}

/* Device `ordinal`'s name, memory and driver version (what the library says; blanks where it says nothing). */
static inline void hk_gpu_cuda_info(int ordinal, hk_device_info *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "GPU %d", ordinal);
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!h) return;
    hk_cu_init_fn init;
    hk_cu_get_fn get;
    hk_cu_name_fn name;
    hk_cu_mem_fn mem;
    hk_cu_version_fn version;
    HK_CU_SYM(h, "cuInit", hk_cu_init_fn, init);
    HK_CU_SYM(h, "cuDeviceGet", hk_cu_get_fn, get);
    HK_CU_SYM(h, "cuDeviceGetName", hk_cu_name_fn, name);
    HK_CU_SYM(h, "cuDeviceTotalMem_v2", hk_cu_mem_fn, mem);
    HK_CU_SYM(h, "cuDriverGetVersion", hk_cu_version_fn, version);
    int dev = 0, v = 0;
    size_t bytes = 0;
    if (init && init(0) == 0 && get && get(&dev, ordinal) == 0) {
        if (name) name(out->name, (int)sizeof out->name, dev);
        if (mem && mem(&bytes, dev) == 0) out->memory = (double)bytes;
    }
    if (version && version(&v) == 0)
        snprintf(out->driver, sizeof out->driver, "CUDA driver %d.%d", v / 1000, v % 1000 / 10);
    dlclose(h);
}

#endif
