/* pair_eval.h — one contact pair: its geometry (weights, normal, gap) and its normal force at the current state. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_EVAL_H
#define HOOKE_PAIR_EVAL_H

#include <stdint.h>

#include "pairs.h"

/* The geometry of pair pa at places x (4 points): its weights a, the unit normal n from the other side's nearest
 * point to the alpha = 1 side's, turned to the side the pair started the step on where the two meet, and the
 * distance between those points [m]; with `inside`, INFINITY for an edge pair whose nearest points are not inside
 * both edges (pair_eval.c says more). */
double hk_pair_geometry(const hk_pairs *pr, const hk_pair *pa, const double x[4][3], double a[4], double n[3],
                        int inside);
/* Whether touching pair k (its sides within the thickness, unit normal n) has its nearest points on the other side
 * from where it started the step, where its geometry can say: its force then pushes it back along -n, its gap the
 * negative distance (pair_eval.c). */
int hk_pair_crossed(const hk_pairs *pr, int64_t k, const double n[3]);
/* The damping coefficient of a pair's normal motion [N s/m] (ee: an edge pair, none), with the pair's mass m. */
double hk_pair_normal_damping(const hk_contact_def *d, int ee, double m);
/* Pair k's normal force at the current state (the places pr->xs) into *ev; 1 where it touches and acts. far: its
 * bound (pair_force.c, pair_far), INFINITY where this evaluation sets the bounds (pr->lb). */
int hk_pair_evaluate(const hk_world *w, const hk_pairs *pr, int64_t k, hk_pair_eval *ev, double far);

#endif
