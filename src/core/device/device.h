/* device.h — the device backend: a world's explicit steps on a GPU, its state resident there between steps. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEVICE_H
#define HOOKE_DEVICE_H

#include <stddef.h>

#include "device_drivers.h"
#include "exec.h"
#include "world.h"

/*
 * A world whose definition asks for a GPU (hk_world_def.device) steps here
 * instead of core/step's step(): the same substeps, passes and order, each
 * pass a loop of dev_pass.h's element steps run by a driver (dev_abi.h) on
 * the device, the state kept there; the host's arrays are brought back
 * (dev_world.c hk_dev_pull, through the world's hook: hk_state_read) only when the
 * host reads them, and loaded again when the host has written them. The
 * CPU engine does not know of it: the arrows run from here down to the
 * formulas it shares (engine/, contact/, model/ headers) and to the world.
 */

/* The state the device keeps of a world (dev_world.c). */
typedef struct hk_device hk_device;

/* Where w's steps run (hk_world_device): decides it the first time (def.device; a GPU: its driver opened, the world
 * checked against what the device runs, its memory taken and the state loaded), then returns it: HK_DEVICE_CPU or
 * HK_DEVICE_GPU, or a negative hk_status (hk_fail's message) where the GPU was asked for and cannot be had. */
int hk_device_resolve(hk_world *w, char *why, size_t n);
/* Whether w's next step runs on its device: 1 with *ex the device's passes (world/exec.h) for step.c to tell the step
 * in, or with *ex NULL where the device cannot step (w->step_failed says why); else 0 (the CPU steps). In the
 * solver's floating-point mode (step.c). */
int hk_device_step(hk_world *w, const hk_exec **ex);
/* Waits until the device has ended every pass begun: 0 or a negative hk_status. */
int hk_device_wait(hk_world *w);
/* Frees the device's memory and closes its driver (a world's end). */
void hk_device_free(hk_world *w);

/* What the device does not run that w uses, named ("the implicit integrator implicit_euler (the device runs euler,
 * ...)": an integrator whose row of the integrator table says the device does not run it, with the ones it does),
 * into why: 1 if something, else 0. */
int hk_device_refuses(const hk_world *w, char *why, size_t n);

#endif
