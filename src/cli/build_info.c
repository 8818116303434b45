/* build_info.c — what this hooke is: version, precision, build type, compiler, flags, kernel path, OpenMP team. */
/* SPDX-License-Identifier: MIT */
#include "build_info.h"

#include <stdio.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "env.h"
#include "hooke/hooke.h"

#ifndef HOOKE_BUILD_TYPE /* set by src/CMakeLists.txt */
#error "build_info.c needs HOOKE_BUILD_TYPE, HOOKE_BUILD_FLAGS and HOOKE_C_COMPILER from CMake"
#endif

const char *hk_build_type(void) { return HOOKE_BUILD_TYPE; }
const char *hk_build_compiler(void) { return HOOKE_C_COMPILER; }
const char *hk_build_flags(void) { return HOOKE_BUILD_FLAGS; }
const char *hk_build_precision(void) { return sizeof(hk_real) == 8 ? "double" : "float"; }

void hk_build_context(hk_context_item items[HK_CONTEXT_ITEMS])
{
    int omp = 1;
#ifdef HOOKE_USE_OPENMP
    omp = omp_get_max_threads();
#endif
    char omp_text[16];
    snprintf(omp_text, sizeof omp_text, "%d", omp);
    const struct {
        const char *key, *value;
    } facts[HK_CONTEXT_ITEMS] = {
        {"hooke_version", HOOKE_VERSION},        {"hooke_precision", hk_build_precision()},
        {"hooke_kernels", hk_env_kernels()},     {"hooke_build_type", hk_build_type()},
        {"hooke_compiler", hk_build_compiler()}, {"hooke_c_flags", hk_build_flags()},
        {"hooke_omp_max_threads", omp_text},
    };
    for (int i = 0; i < HK_CONTEXT_ITEMS; i++) {
        items[i].key = facts[i].key;
        snprintf(items[i].value, sizeof items[i].value, "%s", facts[i].value);
    }
}
