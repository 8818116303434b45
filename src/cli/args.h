/* args.h — command-line values parsed strictly, and the one "expects ..., got ..." message of every command. */
#ifndef HOOKE_ARGS_H
#define HOOKE_ARGS_H

#include <stdint.h>

/* A whole decimal number in [lo, hi], the whole string; 0 or -1. */
int hk_arg_int64(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* A finite number > 0, the whole string; 0 or -1. */
int hk_arg_positive(const char *s, double *out);
/* Prints "hooke: error: [WHO: ]FLAG expects EXPECTED, got 'VALUE'" (VALUE
 * NULL: "nothing") and returns 1, the exit status of bad input. */
int hk_arg_error(const char *who, const char *flag, const char *value, const char *expected);

#endif
