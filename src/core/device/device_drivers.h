/* device_drivers.h — the device backend's drivers: their names, their modules found and loaded, their GPUs listed. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEVICE_DRIVERS_H
#define HOOKE_DEVICE_DRIVERS_H

#include <stddef.h>

/* Driver names: 0 if name is one ("cuda", "openmp", "host", "openmp-host") or NULL or "" (the default: none
 * chosen), with *canon its static name (NULL for the default) when canon is not NULL; -1 otherwise. */
int hk_device_driver_name(const char *name, const char **canon);
/* "\"cuda\", \"openmp\", \"host\" or \"openmp-host\"" for messages, from the table of drivers. */
void hk_device_driver_names(char *out, size_t n);
/* Driver d of the table (0, 1, ...): its name, with *what saying what it runs on; NULL past the last. */
const char *hk_device_driver_at(int d, const char **what);
/* The order in which a GPU's driver is looked for when none is named (NULL-terminated). */
extern const char *const hk_device_gpu_drivers[];

/* Driver `name`'s table, loading its module (*module: its handle to dlclose, NULL for one in libhooke); NULL with
 * why (not built, not found, from another build). */
struct hkd_driver;
const struct hkd_driver *hk_device_driver(const char *name, void **module, char *why, size_t n);

#endif
