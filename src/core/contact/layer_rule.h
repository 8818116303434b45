/* layer_rule.h — the thickness rule: a contact layer at most what the bodies' springs allow, checked in one place. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_LAYER_RULE_H
#define HOOKE_LAYER_RULE_H

#include "world.h"

/*
 * A contact layer thicker than the smallest spring rest length would let a
 * particle meet a collider, or its own body's triangles, through its
 * neighbours; a particle model's sphere larger than that rest length times
 * the bodies' stencil reach would meet its own body's particles next to its
 * neighbours at rest. The rule is judged in the springs' precision (hk_real):
 * a layer of exactly the spacing is fine. The world's definitions are
 * checked by hk_layer_check (hk_world_add_collider, hk_world_set_contact and
 * again when bodies are added, hk_colliders_check); the scene reader asks
 * hk_layer_fits, to point at the key in the file.
 */

/* The layers the rule bounds. */
typedef enum hk_layer {
    HK_LAYER_COLLIDER,  /* a collider's thickness */
    HK_LAYER_TRIANGLES, /* the triangle model's thickness (contact between bodies) */
    HK_LAYER_PARTICLES, /* the particle model's radius */
    HK_LAYER_COUNT
} hk_layer;

/* The smallest rest length of any spring of w [m] (INFINITY without springs). */
double hk_smallest_rest_length(const hk_world *w);

/* Whether a layer of the kind of size `size` [m] (a thickness, or the particle model's radius) obeys the rule with
 * w's springs, rest their smallest rest length (hk_smallest_rest_length: found once for many layers); *most: the
 * largest size the rule allows [m]. */
int hk_layer_fits(const hk_world *w, hk_layer kind, double size, double rest, double *most);

/* hk_layer_fits, its failure recorded on w (hk_fail: `who`, e.g. "collider 2" or "contact", the size, the limit
 * and why): 0 where it fits, else the failure's code. */
int hk_layer_check(hk_world *w, const char *who, hk_layer kind, double size, double rest);

#endif
