/* numbers.c — the one number grammar of scene files, the command line and the environment: numbers, whole numbers. */
/* SPDX-License-Identifier: MIT */
#include "numbers.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* A number's decimal parts: its value is (-1)^neg D 10^exp10, D the integer
 * of its significant digits (leading and trailing zeros dropped). */
typedef struct decimal {
    int neg;
    int zero;            /* every digit is 0 (D, exp10 and the rest unset) */
    int64_t exp10;       /* the exponent as written is saturated at +-EXP_CAP */
    const char *digits;  /* the mantissa as written: digits and at most one '.' */
    int64_t first, last; /* the first and last significant digit: indices into digits */
    int64_t significant; /* digits of D (a '.' between first and last not counted) */
} decimal;

#define EXP_CAP 1000000000 /* far beyond any exponent that matters, small enough not to overflow */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Checks the grammar and fills d; 0, or -1 if s is not a number. */
static int scan(const char *s, decimal *d)
{
    const char *p = s;
    d->neg = *p == '-';
    if (*p == '+' || *p == '-') p++;
    d->digits = p;
    int64_t ndig = 0, frac = 0, first = -1, last = -1, sig_first = 0, sig_last = 0;
    int point = 0;
    for (int64_t i = 0;; i++) {
        const char c = p[i];
        if (c == '.' && !point) {
            point = 1;
            continue;
        }
        if (!is_digit(c)) break;
        if (c != '0') {
            if (first < 0) first = i, sig_first = ndig;
            last = i;
            sig_last = ndig;
        }
        ndig++;
        frac += point;
    }
    if (ndig == 0) return -1;
    p += ndig + point;
    int64_t exp = 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        const int eneg = *p == '-';
        if (*p == '+' || *p == '-') p++;
        if (!is_digit(*p)) return -1;
        while (is_digit(*p)) {
            if (exp < EXP_CAP) exp = exp * 10 + (*p - '0');
            p++;
        }
        if (exp > EXP_CAP) exp = EXP_CAP;
        if (eneg) exp = -exp;
    }
    if (*p != '\0') return -1;
    d->zero = first < 0;
    d->first = first;
    d->last = last;
    d->significant = d->zero ? 0 : sig_last - sig_first + 1;
    /* D * 10^exp10: the digits after the last significant one are zeros */
    d->exp10 = d->zero ? 0 : exp - frac + (ndig - 1 - sig_last);
    return 0;
}

hk_num_status hk_num_real(const char *s, double *out)
{
    decimal d;
    if (!s || scan(s, &d) != 0) return HK_NUM_NOT_A_NUMBER;
    /* 10^exp10 <= |v| < 10^(exp10 + significant): far outside the double range, do not ask strtod */
    if (!d.zero && (d.exp10 + d.significant > 400 || d.exp10 + d.significant < -400)) return HK_NUM_OUT_OF_RANGE;
    const double v = strtod(s, NULL); /* the grammar is a subset of strtod's, correctly rounded */
    if (!isfinite(v) || (!d.zero && fabs(v) < DBL_MIN)) return HK_NUM_OUT_OF_RANGE;
    *out = v;
    return HK_NUM_OK;
}

hk_num_status hk_num_real_held(const char *s, double *out)
{
    double v;
    const hk_num_status st = hk_num_real(s, &v);
    if (st != HK_NUM_OK) return st;
    if (!hk_real_holds(v)) return HK_NUM_BEYOND_PRECISION;
    *out = v;
    return HK_NUM_OK;
}

hk_num_status hk_num_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    decimal d;
    if (!s || scan(s, &d) != 0) return HK_NUM_NOT_A_NUMBER;
    int64_t v = 0;
    if (!d.zero) {
        if (d.exp10 < 0) return HK_NUM_NOT_WHOLE;                     /* the last significant digit is not 0 */
        if (d.significant + d.exp10 > 19) return HK_NUM_OUT_OF_RANGE; /* >= 1e19 */
        uint64_t m = 0;                                               /* < 1e19 < 2^64: no overflow */
        for (int64_t i = d.first; i <= d.last; i++)
            if (is_digit(d.digits[i])) m = m * 10 + (uint64_t)(d.digits[i] - '0');
        for (int64_t e = 0; e < d.exp10; e++) m *= 10;
        const uint64_t top = (uint64_t)INT64_MAX + (d.neg ? 1u : 0u);
        if (m > top) return HK_NUM_OUT_OF_RANGE;
        v = !d.neg ? (int64_t)m : m == top ? INT64_MIN : -(int64_t)m;
    }
    if (v < lo || v > hi) return HK_NUM_OUT_OF_RANGE;
    *out = v;
    return HK_NUM_OK;
}

const char *hk_num_reason(hk_num_status st)
{
    switch (st) {
    case HK_NUM_NOT_A_NUMBER: return "not a number";
    case HK_NUM_NOT_WHOLE: return "not a whole number";
    case HK_NUM_OUT_OF_RANGE: return "out of range";
    case HK_NUM_BEYOND_PRECISION: return "beyond this build's precision";
    default: return NULL;
    }
}
