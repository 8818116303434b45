/* scene_fabric.h — a scene's fabric settings on its world: a body's tethers and limits, the gravity schedule. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_FABRIC_H
#define HOOKE_SCENE_FABRIC_H

#include "scene_section.h"

/* `gravity_schedule TIME GX GY GZ ...`: keyframes of a finite time >= 0, not below the one before, and a finite
 * gravity, into set; 0, or -1 with the error written at the offending value. */
int sc_schedule_parse(sc_lexer *lx, sc_settings *set, const sc_key *kd);
/* set's gravity schedule (none: nothing) on w; 0, or -1 with the error written at the key. */
int sc_schedule_apply(hk_world *w, const sc_settings *set, sc_lexer *lx);
/* Item it's tethers on body `body` of w (after its pins), and its families' limits checked against its pins at
 * rest; 0, or -1 with the error written at the `tethers` key or the first springs line's limit. */
int sc_fabric_apply(hk_world *w, const sc_item *it, int body, sc_lexer *lx);

#endif
