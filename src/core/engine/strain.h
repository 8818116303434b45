/* strain.h — every spring's strain: breaking the overstretched, and the scan for energy, stretch and slope. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STRAIN_H
#define HOOKE_STRAIN_H

#include "world.h"

/* Marks springs of breakable families that are past break_ratio * L0 as
 * broken; returns how many broke now. */
int64_t hk_springs_break(hk_world *w);
/* One pass over every unbroken spring: their potential energy, the largest
 * r / L0 and the first spring (in family then slot order) that has it. The
 * same bits for any thread count. */
typedef struct hk_spring_scan {
    double energy;      /* sum 1/2 k (r - L0)^2 over active springs [J] */
    double max_stretch; /* largest r / L0 [1] (0 without springs) */
    int family;         /* that spring's family, or -1 */
    int64_t slot;       /* its slot within the family, or -1 */
    double slope;       /* hk_springs_scan_along: d energy / d s along x + s y [J per unit of s] */
    double rounding;    /* hk_springs_scan_along: sum k |r - L0| r over active springs, the scale of the energy's
                           rounding (times the precision's epsilon) [J] */
} hk_spring_scan;
hk_spring_scan hk_springs_scan(const hk_world *w);
/* The same scan with the slope of the energy along the direction y (one
 * array per coordinate over the world's particles, the moves of the
 * particles per unit of s): sum k (r - L0) (u . (y_a - y_b)), u the unit
 * vector from b to a; y is exchanged into the halo rows of a distributed
 * run first. */
hk_spring_scan hk_springs_scan_along(const hk_world *w, hk_real *const y[3]);

#endif
