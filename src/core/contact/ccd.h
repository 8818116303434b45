/* ccd.h — continuous tests: when a moving point meets a moving triangle, and a moving edge a moving edge. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CCD_H
#define HOOKE_CCD_H

/*
 * Every corner moves on a straight line from its place at the start of an
 * interval (x0) to its place at the end (x1), x(t) = x0 + t (x1 - x0), t in
 * [0, 1]. Four points meet (the point on the triangle, or the two edges
 * cross) only where they are coplanar: where the cubic
 *     f(t) = ((b(t) - a(t)) x (c(t) - a(t))) . (p(t) - a(t))
 * (for edges a b and c d: ((b - a) x (d - c)) . (c - a)) is 0 (Provot 1997,
 * Bridson, Fedkiw and Anderson 2002). Its roots in [0, 1] are bracketed
 * between the ends and the roots of f' and found by bisection; at each, in
 * order, the point (edges' closest points) is tested to lie on the
 * triangle (cross each other) within `eps`. The tests read only their
 * arguments: the same bits on any thread.
 */

/* The first t in [0, 1] at which p meets triangle (a, b, c) within eps
 * (distance), or -1. v0 and v1 hold p, a, b, c at the interval's start and
 * end (3 doubles each, in that order). */
double hk_ccd_point_triangle(const double v0[4][3], const double v1[4][3], double eps);
/* The first t at which edge (a, b) meets edge (c, d) within eps, or -1;
 * v0 and v1 hold a, b, c, d. */
double hk_ccd_edge_edge(const double v0[4][3], const double v1[4][3], double eps);

#endif
