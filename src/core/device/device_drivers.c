/* device_drivers.c — the device backend's drivers: their names, their modules found and loaded, their GPUs listed. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "device_drivers.h"

#include "dev_abi.h"
#include "dev_host.h"

/* A driver: its name, the module that holds it (NULL: in libhooke) and the module's entry. */
static const struct {
    const char *name, *module, *entry, *what;
} drivers[] = {
    {"cuda", "libhooke_device_cuda.so", HKD_ENTRY, "CUDA (nvcc)"},
    {"openmp", "libhooke_device_openmp.so", HKD_ENTRY, "OpenMP target offload (gcc, nvptx)"},
    {"host", NULL, NULL, "the device's passes on this CPU (tests)"},
    {"openmp-host", "libhooke_device_openmp.so", HKD_ENTRY "_host",
     "the OpenMP driver's passes through the offload's host fallback (tests)"},
};
enum { DRIVERS = sizeof drivers / sizeof drivers[0] };

/* A GPU's drivers, in the order they are tried when none is named (docs/performance-notes.md, "The route"). */
const char *const hk_device_gpu_drivers[] = {"cuda", "openmp", NULL};

int hk_device_driver_name(const char *name, const char **canon)
{
    if (!name || !*name) {
        if (canon) *canon = NULL;
        return 0;
    }
    for (int d = 0; d < DRIVERS; d++)
        if (strcmp(name, drivers[d].name) == 0) {
            if (canon) *canon = drivers[d].name;
            return 0;
        }
    return -1;
}

void hk_device_driver_names(char *out, size_t n)
{
    size_t at = 0;
    for (int d = 0; d < DRIVERS && at < n; d++) {
        const char *sep = d == 0 ? "" : d == DRIVERS - 1 ? " or " : ", ";
        const int k = snprintf(out + at, n - at, "%s\"%s\"", sep, drivers[d].name);
        at += k > 0 ? (size_t)k : 0;
    }
    if (n && !DRIVERS) out[0] = '\0';
}

const char *hk_device_driver_at(int d, const char **what)
{
    if (d < 0 || d >= DRIVERS) return NULL;
    if (what) *what = drivers[d].what;
    return drivers[d].name;
}

/* The folders a module is looked for in, in order: beside the file that holds this code (the program, libhooke.so),
 * the folder above it (a build's tests), the build's and the installed library's folder. */
static int module_dirs(const char *dirs[4], char here[2][4096])
{
    int n = 0;
    Dl_info info;
    if (dladdr((void *)hk_device_driver_names, &info) && info.dli_fname) {
        snprintf(here[0], sizeof here[0], "%s", info.dli_fname);
        char *slash = strrchr(here[0], '/');
        if (slash) {
            *slash = '\0';
            dirs[n++] = here[0];
            snprintf(here[1], sizeof here[1], "%.4000s/..", here[0]);
            dirs[n++] = here[1];
        }
    }
#ifdef HOOKE_DEVICE_BUILD_DIR
    dirs[n++] = HOOKE_DEVICE_BUILD_DIR;
#endif
#ifdef HOOKE_DEVICE_INSTALL_DIR
    dirs[n++] = HOOKE_DEVICE_INSTALL_DIR;
#endif
    return n;
}

const hkd_driver *hk_device_driver(const char *name, void **module, char *why, size_t n)
{
    *module = NULL;
    int d = 0;
    while (d < DRIVERS && strcmp(drivers[d].name, name) != 0) d++;
    if (d == DRIVERS) {
        snprintf(why, n, "no device driver \"%s\"", name);
        return NULL;
    }
    if (!drivers[d].module) return hk_device_host_driver();
    const char *dirs[4];
    char here[2][4096], path[4200], tried[1024] = "", last[512] = "";
    const int nd = module_dirs(dirs, here);
    void *h = NULL;
    for (int k = 0; k < nd && !h; k++) {
        snprintf(path, sizeof path, "%s/%s", dirs[k], drivers[d].module);
        FILE *f = fopen(path, "rb"); /* found, then loaded: a module that is there but does not load says why */
        if (!f) {
            const size_t len = strlen(tried);
            snprintf(tried + len, sizeof tried - len, "%s%s", len ? ", " : "", dirs[k]);
            continue;
        }
        fclose(f);
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE); /* kept mapped: a runtime inside may run at exit */
        if (!h) snprintf(last, sizeof last, "%s", dlerror());
        if (!h) break;
    }
    if (!h) {
        if (last[0])
            snprintf(why, n, "driver %s: its module %s does not load: %s", name, drivers[d].module, last);
        else
            snprintf(why, n,
                     "driver %s (%s): its module %s is not there (this build has no such driver, or it was not "
                     "installed; looked in %s)",
                     name, drivers[d].what, drivers[d].module, tried[0] ? tried : "no folder");
        return NULL;
    }
    hkd_entry_fn entry;
    void *sym = dlsym(h, drivers[d].entry);
    memcpy(&entry, &sym, sizeof entry);
    const hkd_driver *drv = entry ? entry() : NULL;
    if (!drv || drv->abi != HKD_ABI || drv->args_size != sizeof(hkd_args)) {
        snprintf(why, n, "driver %s: its module %s is from another build of hooke (rebuild it with this one)", name,
                 drivers[d].module);
        dlclose(h);
        return NULL;
    }
    *module = h;
    return drv;
}

int hk_device_list(const char *device_driver, hk_device_info *out, int max, char *why, size_t whylen)
{
    const char *one = NULL;
    char buf[1024] = "";
    if (hk_device_driver_name(device_driver, &one) != 0) {
        char names[96];
        hk_device_driver_names(names, sizeof names);
        if (why && whylen) snprintf(why, whylen, "no device driver \"%s\" (the drivers: %s)", device_driver, names);
        return 0;
    }
    int found = 0;
    for (int k = 0; one ? k < 1 : hk_device_gpu_drivers[k] != NULL; k++) {
        const char *name = one ? one : hk_device_gpu_drivers[k];
        void *module;
        char reason[512] = "";
        const hkd_driver *drv = hk_device_driver(name, &module, reason, sizeof reason);
        int got = 0;
        if (drv) {
            hk_device_info info[16];
            got = drv->devices(info, 16, reason, sizeof reason);
            for (int i = 0; i < got; i++, found++)
                if (out && found < max && i < 16) out[found] = info[i];
        }
        if (module) dlclose(module);
        if (!got) {
            const size_t len = strlen(buf);
            snprintf(buf + len, sizeof buf - len, "%s%s", len ? "; " : "", reason);
        }
    }
    if (why && whylen) snprintf(why, whylen, "%s", found ? "" : buf);
    return found;
}
