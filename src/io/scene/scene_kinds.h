/* scene_kinds.h — the scene format as tables: its settings sections, its body kinds and the springs line. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_KINDS_H
#define HOOKE_SCENE_KINDS_H

#include "scene_section.h"

enum { SC_WORLD, SC_RUN, SC_GROUND, SC_WALLS, SC_CONTACT, SC_SECTION_COUNT };
extern const sc_kind sc_sections[SC_SECTION_COUNT]; /* world, run, ground, walls, contact */
extern const sc_kind sc_items[];                    /* sphere and the body kinds, in message order */
extern const int sc_item_count;
extern const sc_kind sc_springs_line; /* the keys of a `springs FAMILY ...` line */

sc_settings sc_default_settings(void);

#endif
