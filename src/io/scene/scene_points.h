/* scene_points.h — the scene's `body points`: its point and spring lines, its named spring families, their rules. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_POINTS_H
#define HOOKE_SCENE_POINTS_H

#include "scene_section.h"

/* The descriptor: the parameters of the family `main`. The points, the springs and the families named besides it
 * stay in the section (sc_section: pos, sa, sfam, named, ...) and go to the item. */
typedef struct sc_points_scene {
    hk_spring_params springs;
} sc_points_scene;

#define SC_POINTS_KEYS 3 /* rows of sc_points_keys */
extern const sc_key sc_points_keys[SC_POINTS_KEYS];
extern const sc_family sc_points_families[1];
void sc_points_init(void *def);
int sc_points_finish(sc_section *s, void *def, int64_t *count);
int sc_points_add(hk_world *w, const sc_item *it, sc_lexer *lx);
/* A `springs NAME` line of a name that is not `main` (token 1): the family NAME's parameters to write, or NULL with
 * the error written (a name the rule refuses, a family declared twice). */
hk_spring_params *sc_points_declare(sc_section *s);
/* A `point x y z mass [vx vy vz]` line, a `spring A B [FAMILY] [rest_length L]` line; 0 or -1 with the error written.
 */
int sc_points_point(sc_section *s, const sc_key *kd);
int sc_points_spring(sc_section *s, const sc_key *kd);

#endif
