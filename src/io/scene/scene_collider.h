/* scene_collider.h — the scene's `collider` section: its keys, its rules between keys and how it is added. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_COLLIDER_H
#define HOOKE_SCENE_COLLIDER_H

#include "scene_section.h"

/* A collider's descriptor and where its thickness was given (the check
 * against the springs, made once every body is built, points there). */
typedef struct sc_collider_scene {
    hk_collider_def def;
    int thickness_line, thickness_col;
} sc_collider_scene;

#define SC_COLLIDER_KEYS 13 /* rows of sc_collider_keys */
extern const sc_key sc_collider_keys[SC_COLLIDER_KEYS];
void sc_collider_init(void *def);
int sc_collider_finish(sc_section *s, void *def, int64_t *count);
int sc_collider_add(hk_world *w, const sc_item *it, sc_lexer *lx);

#endif
