/* zero_length.h — the rule that refuses springs of zero length or too long (the public half is in hooke.h). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_ZERO_LENGTH_H
#define HOOKE_ZERO_LENGTH_H

#include "world.h"

/* 0 if every spring of family f (just built, on its body's particles as
 * stored) has a length by the rule of hk_find_zero_length_spring; else -1
 * with "body B (KIND), family NAME: spring joins particles A and B ..."
 * (body-local indices) on w. The family is left as it is. */
int hk_family_check_lengths(hk_world *w, const hk_family *f);

#endif
