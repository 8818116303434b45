/* scene_collider.h — the scene's `collider` and `contact` sections: keys, rules between keys, how they are built. */
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

/* The `contact` section (settings: its keys write into sc_settings.contact). */
#define SC_CONTACT_KEYS 9 /* rows of sc_contact_keys */
extern const sc_key sc_contact_keys[SC_CONTACT_KEYS];
void sc_contact_init(void *def);
int sc_contact_finish(sc_section *s, void *def, int64_t *count);
/* After every item: the contact between bodies set on w, its thickness (or radius) checked against every spring
 * (at the key); 0 or -1 with the error written. */
int sc_contact_build(hk_world *w, const sc_settings *set, sc_lexer *lx);

#endif
