/* dev_sums.h — a check's sums reduced on the device where the world's state lies (world.h's device_sums hook). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEV_SUMS_H
#define HOOKE_DEV_SUMS_H

#include "state_sums.h"
#include "world.h"

/* The first non-finite value of each array and, as `what` asks (HK_SUMS_SCAN, HK_SUMS_ENERGY), the springs' scan and
 * the particles' energies of w's state on its device, each in the CPU's blocks and order (state_sums.h), into *out:
 * 0; -1 where the device cannot (a failed pass or copy, recorded on the device; a world whose particles are not its
 * bodies' in order): the caller reads the state back and sums it on the host. */
int hk_dev_sums(const hk_world *w, int what, hk_device_sums *out);

#endif
