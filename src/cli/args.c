/* args.c — command-line values parsed strictly, and the one "expects ..., got ..." message of every command. */
#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int hk_arg_int64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int hk_arg_positive(const char *s, double *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || !(v > 0)) return -1;
    *out = v;
    return 0;
}

int hk_arg_error(const char *who, const char *flag, const char *value, const char *expected)
{
    fprintf(stderr, "hooke: error: %s%s%s expects %s, got '%s'\n", who ? who : "", who ? ": " : "", flag, expected,
            value ? value : "nothing");
    return 1;
}
