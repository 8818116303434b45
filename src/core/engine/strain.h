/* strain.h — every spring's strain: breaking the overstretched, and the scan for energy, stretch and slope. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STRAIN_H
#define HOOKE_STRAIN_H

#include "state_sums.h"
#include "world.h"

/* Marks springs of breakable families that are past break_ratio * L0 as
 * broken; returns how many broke now. */
int64_t hk_springs_break(hk_world *w);
/* The springs' scan (state_sums.h hk_spring_scan), the same bits for any thread count and ranks. */
/* The rows family f's scan cuts into blocks (state_sums.h): a lattice's source rows, a list's springs; 0 where it
 * scans none. */
int64_t hk_scan_rows(const hk_family *f);
hk_spring_scan hk_springs_scan(const hk_world *w);
/* The same scan with the slope of the energy along the direction y (one
 * array per coordinate over the world's particles, the moves of the
 * particles per unit of s): sum k (r - L0) (u . (y_a - y_b)), u the unit
 * vector from b to a; y is exchanged into the halo rows of a distributed
 * run first. */
hk_spring_scan hk_springs_scan_along(const hk_world *w, hk_real *const y[3]);

#endif
