/* bounds.h — the builders' and the integrator's check of a value against its bound (the table: bounds.c). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_BOUNDS_H
#define HOOKE_BOUNDS_H

#include "world.h"

/* 0 if v is within bound kind (or 0 and zero_ok); else -1 with "WHAT: FIELD
 * must be RANGE (got V): REASON" on w (WHAT NULL: "FIELD must be ..."). */
int hk_check_bound(hk_world *w, const char *what, const char *field, hk_bound_kind kind, int zero_ok, double v);

/* v as %g without a '+' or leading zeros in the exponent, for messages: 1e12, 1e-12. */
void hk_short_g(double v, char *out, size_t cap);

#endif
