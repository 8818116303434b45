/* builders.h — body builders share these helpers; the builders themselves are in hooke.h. */
#ifndef HOOKE_BUILDERS_H
#define HOOKE_BUILDERS_H

#include "world.h"

/* Normalises v; returns 0 if v has zero (or non-finite) length. */
int hk_normalise(hk_vec3 *v);
/* Checks a particle mass against its bound (bounds.c); on error writes "WHAT: mass must be ..." into w and
 * returns -1. */
int hk_check_mass(hk_world *w, const char *what, double m);
/* Checks the spring parameters; on error writes the message into w and returns -1. */
int hk_check_spring_params(hk_world *w, const char *what, const hk_spring_params *s);

/* Drops the last body (added from family first_family on) after a failure; returns -1. */
int hk_undo_body(hk_world *w, int body, int first_family);

#endif
