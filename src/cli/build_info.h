/* build_info.h — what this hooke is: version, precision, build type, compiler, flags, kernel path, OpenMP team. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_BUILD_INFO_H
#define HOOKE_BUILD_INFO_H

#ifdef __cplusplus
extern "C" { /* the benchmark shim (C++) reads the context */
#endif

/* The build as CMake configured it (compile definitions of build_info.c). */
const char *hk_build_type(void);      /* CMAKE_BUILD_TYPE: "Release", "Debug", ... ("" when none) */
const char *hk_build_compiler(void);  /* the C compiler's CMake id and version: "GNU 12.2.0" */
const char *hk_build_flags(void);     /* the library's C flags: CMAKE_C_FLAGS, those of the build type, hooke's */
const char *hk_build_precision(void); /* "float" or "double": hk_real */

/* One fact of the context a benchmark ran in: a Google Benchmark context
 * key (all start with "hooke_", so none is one of Google Benchmark's own)
 * and its value as text. */
typedef struct hk_context_item {
    const char *key;
    char value[512];
} hk_context_item;

enum { HK_CONTEXT_ITEMS = 7 };
/* The facts, in this order: hooke_version, hooke_precision, hooke_kernels
 * (the kernel path hooke selected: HOOKE_KERNELS, else the best the CPU
 * runs), hooke_build_type, hooke_compiler, hooke_c_flags,
 * hooke_omp_max_threads (omp_get_max_threads() now; 1 without OpenMP). The
 * benchmark shim (AddCustomContext) and `hooke bench --gbench-json` write
 * them. */
void hk_build_context(hk_context_item items[HK_CONTEXT_ITEMS]);

#ifdef __cplusplus
}
#endif
#endif
