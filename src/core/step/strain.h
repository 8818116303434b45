/* strain.h — every spring's strain: breaking the overstretched, and the scan for energy and stretch. */
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
} hk_spring_scan;
hk_spring_scan hk_springs_scan(const hk_world *w);

#endif
