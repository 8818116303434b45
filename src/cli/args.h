/* args.h — command-line values parsed strictly, and the one "expects ..., got ..." message of every command. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_ARGS_H
#define HOOKE_ARGS_H

#include <stdint.h>

/* A whole number in [lo, hi] (the grammar of core's numbers.h: 80, 5e4,
 * 80.0), the whole string; 0, or why not as an hk_num_status (numbers.h). */
int hk_arg_int64(const char *s, int64_t lo, int64_t hi, int64_t *out);
/* Prints "hooke: error: [WHO: ]FLAG expects EXPECTED, got 'VALUE'" (VALUE
 * NULL: "nothing") and returns 1, the exit status of bad input. */
int hk_arg_error(const char *who, const char *flag, const char *value, const char *expected);
/* The same message with " (WHY)" after it; returns 1. */
int hk_arg_refused(const char *who, const char *flag, const char *value, const char *expected, const char *why);
/* The value of an integer flag: hk_arg_int64 into *out and 0, or the message
 * "hooke: error: [WHO: ]FLAG expects EXPECTED, got 'VALUE' (REASON)", REASON
 * "not a number", "not a whole number" or "out of range", and 1. */
int hk_arg_int(const char *who, const char *flag, const char *value, int64_t lo, int64_t hi, const char *expected,
               int64_t *out);

/* The value of a number flag, by the rule of a scene key's number (numbers.h hk_num_real_held: finite and held by
 * the build's precision), and > lo: into *out and 0, or the message "hooke: error: [WHO: ]FLAG expects EXPECTED, got
 * 'VALUE' (REASON)", REASON "not a number", "out of range" or "beyond this build's precision" (none when the value is
 * not above lo), and 1. */
int hk_arg_above(const char *who, const char *flag, const char *value, double lo, const char *expected, double *out);

#endif
