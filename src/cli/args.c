/* args.c — command-line values parsed strictly, and the one "expects ..., got ..." message of every command. */
/* SPDX-License-Identifier: MIT */
#include "args.h"

#include "numbers.h"

#include <stdio.h>

int hk_arg_int64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    return s ? hk_num_int(s, lo, hi, out) : HK_NUM_NOT_A_NUMBER;
}

/* The message, with " (REASON)" when why is not NULL; returns 1. */
static int refuse(const char *who, const char *flag, const char *value, const char *expected, const char *why)
{
    fprintf(stderr, "hooke: error: %s%s%s expects %s, got '%s'%s%s%s\n", who ? who : "", who ? ": " : "", flag,
            expected, value ? value : "nothing", why ? " (" : "", why ? why : "", why ? ")" : "");
    return 1;
}

int hk_arg_error(const char *who, const char *flag, const char *value, const char *expected)
{
    return refuse(who, flag, value, expected, NULL);
}

int hk_arg_above(const char *who, const char *flag, const char *value, double lo, const char *expected, double *out)
{
    double v;
    const hk_num_status st = value ? hk_num_real_held(value, &v) : HK_NUM_NOT_A_NUMBER;
    if (st != HK_NUM_OK) return refuse(who, flag, value, expected, value ? hk_num_reason(st) : NULL);
    if (!(v > lo)) return refuse(who, flag, value, expected, NULL);
    *out = v;
    return 0;
}

int hk_arg_refused(const char *who, const char *flag, const char *value, const char *expected, const char *why)
{
    return refuse(who, flag, value, expected, why);
}

int hk_arg_int(const char *who, const char *flag, const char *value, int64_t lo, int64_t hi, const char *expected,
               int64_t *out)
{
    const hk_num_status st = (hk_num_status)hk_arg_int64(value, lo, hi, out);
    if (st == HK_NUM_OK) return 0;
    return refuse(who, flag, value, expected, value ? hk_num_reason(st) : NULL);
}
