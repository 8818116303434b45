/* devices.h — the --device flag and the GPUs the drivers find, as `hooke info` and `hooke bench` print them. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEVICES_H
#define HOOKE_DEVICES_H

#include <stdio.h>

/* The value of a --device flag (cpu, gpu, auto) into *out (an hk_device_kind): 0, or 1 with the message printed
 * (args.h: "hooke: error: [WHO: ]--device expects cpu, gpu or auto, got 'VALUE'"). */
int hk_arg_device(const char *who, const char *flag, const char *value, int *out);
/* "cpu", "gpu", "auto". */
const char *hk_device_kind_name(int kind);
/* Every GPU driver's devices, a line each (its name, memory and driver), or why it has none, each line starting with
 * prefix: what `hooke info` prints under "devices". */
void hk_devices_print(FILE *f, const char *prefix);
/* The values HOOKE_DEVICE_DRIVER takes, a line each from the table of drivers (its name, what it runs on), each line
 * starting with prefix: what `hooke run --help` and `hooke info` print. */
void hk_device_drivers_help(FILE *f, const char *prefix);

#endif
