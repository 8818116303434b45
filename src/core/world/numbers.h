/* numbers.h — the one number grammar of scene files, the command line and the environment: numbers, whole numbers. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_NUMBERS_H
#define HOOKE_NUMBERS_H

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "hooke/hooke.h"

/* A number is written in decimal: an optional sign, digits with an optional
 * decimal point (at least one digit), and an optional exponent e or E with
 * an optional sign and at least one digit: 80, -9.81, 2., .5, 1e-5, 5E+4.
 * The whole string must be the number: no blanks, no hexadecimal, no inf or
 * nan. A whole number is a number whose exact decimal value has no
 * fractional part: 80, 5e4, 80.0, 1.5e1 (not 2.5, not 1e-3). */
typedef enum hk_num_status {
    HK_NUM_OK = 0,
    HK_NUM_NOT_A_NUMBER,     /* not written as a number */
    HK_NUM_NOT_WHOLE,        /* a number with a fractional part, where a whole number was asked for */
    HK_NUM_OUT_OF_RANGE,     /* whole numbers: outside [lo, hi]; numbers: beyond what a double holds
                                (|v| > 1.8e308, or 0 < |v| < 2.2e-308) */
    HK_NUM_BEYOND_PRECISION, /* a double larger in size than the build's precision holds (hk_real_holds) */
} hk_num_status;

/* The number s, as the nearest double. */
hk_num_status hk_num_real(const char *s, double *out);
/* The whole number s, exactly, in [lo, hi]. The reasons are checked in the
 * order not a number, not whole, out of range. */
hk_num_status hk_num_int(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* The number s, as the nearest double, and held by the build's precision (hk_real_holds; float: |v| <= 3.4e38):
 * the rule of every number a scene key or a flag takes. */
hk_num_status hk_num_real_held(const char *s, double *out);
/* "not a number", "not a whole number", "out of range", "beyond this build's precision" (NULL for HK_NUM_OK). */
const char *hk_num_reason(hk_num_status st);

/* The largest magnitude the build's precision holds (float: 3.4e38). */
#define HK_REAL_LARGEST (sizeof(hk_real) == 4 ? (double)FLT_MAX : DBL_MAX)
/* Whether x stays finite once held in the build's precision; 0 for NaN. */
static inline int hk_real_holds(double x) { return fabs(x) <= HK_REAL_LARGEST; }

#endif
