/* bounds.h — a value's check against its bound (the table: bounds.c), and the rows that check a descriptor's fields. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_BOUNDS_H
#define HOOKE_BOUNDS_H

#include "world.h"

/* 0 if v is within bound kind (or 0 and zero_ok); else -1 with "WHAT: FIELD
 * must be RANGE (got V): REASON" on w (WHAT NULL: "FIELD must be ..."). */
int hk_check_bound(hk_world *w, const char *what, const char *field, hk_bound_kind kind, int zero_ok, double v);

/* "WHAT: FIELD must be RANGE (got V): REASON" into msg (WHAT NULL: "FIELD must be ..."), the message of a value
 * that bound kind refuses (past the build's precision: "... and within this build's precision, at most L (got V)"). */
void hk_bound_message(const char *what, const char *field, hk_bound_kind kind, int zero_ok, double v, char *msg,
                      size_t cap);
/* 0 if every component of v is finite and held by the build's precision; else -1 with "FIELD.x must be finite (got
 * nan)" or "... must be within this build's precision ..." in msg. */
int hk_vec_message(const char *field, hk_vec3 v, char *msg, size_t cap);

/* 0 if every component of v is finite and within the build's precision (hk_real_holds); else -1 with "WHAT:
 * FIELD.x must be finite (got nan)" or "... must be within this build's precision ..." on w. */
int hk_check_vec(hk_world *w, const char *what, const char *field, hk_vec3 v);
/* 0 if v is finite and > 0; else -1 with "WHAT: FIELD must be > 0 (got V)" on w. */
int hk_check_positive(hk_world *w, const char *what, const char *field, double v);

/* v as %g without a '+' or leading zeros in the exponent, for messages: 1e12, 1e-12. */
void hk_short_g(double v, char *out, size_t cap);

/* What a field of a descriptor accepts. */
typedef enum hk_rule {
    HK_RULE_FINITE,     /* a double, finite and within the build's precision */
    HK_RULE_VEC,        /* an hk_vec3, every component finite and within the build's precision */
    HK_RULE_BOUND,      /* a double within bound a (hk_bound_kind) */
    HK_RULE_BOUND_OR_0, /* a double, 0 or within bound a */
    HK_RULE_RANGE,      /* a double in [a, b] */
    HK_RULE_INT,        /* an int (or an enum) in [a, b] */
} hk_rule;

/* One field: its name in messages ("air_drag", "ground.model"), where it is
 * in the descriptor, and what it accepts. */
typedef struct hk_field {
    const char *name;
    size_t offset;
    hk_rule rule;
    double a, b; /* the rule's bound kind, or its range */
} hk_field;
/* A row for member `member` of descriptor type T (F(name, member, rule, a, b) of a table). */
#define HK_FIELD_ROW(T, name, member, rule, a, b) {name, offsetof(T, member), rule, (double)(a), (double)(b)},

/* What field f accepts, for messages and listings: "finite", "finite in x,
 * y and z", "0 or 1", "in [0, 4096]", "0 or in [1e-12, 1e12] N*s/m". */
void hk_field_text(const hk_field *f, char *out, size_t cap);
/* 0 if the field f of the descriptor at base holds an accepted value; else
 * -1 with "NAME must be ... (got V)" (and a bound's reason) in msg. */
int hk_field_check(const hk_field *f, const void *base, char *msg, size_t cap);

#endif
