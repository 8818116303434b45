/* scene_memory.h — a scene's memory, estimated from its sections before its world is built, against what the process
 * may take. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_MEMORY_H
#define HOOKE_SCENE_MEMORY_H

#include "scene_section.h"

/* The memory need of items [0, upto) of a scene (upto < 0: all) with its settings (hk_memory_need). */
hk_memory_need sc_memory_need(const sc_item *items, int nitems, int upto, const sc_settings *set);
/* Refuses a scene whose estimate (hk_memory_estimate) passes what the process may still take (hk_memory_available):
 * at the body whose bodies so far pass it, "FILE:LINE:1: error: body rope needs about 7.9 GiB (268435456 particles,
 * ...); the scene up to it about 7.9 GiB, more than the 3.1 GiB this process may still take (WHAT)". Where `ranks`
 * processes share the world out, a lattice without listed springs counts one rank's share of its particles. 0, or
 * -1 with the error written. */
int sc_memory_check(const sc_item *items, int nitems, const sc_settings *set, int ranks, sc_lexer *lx);
/* "about 7.9 GiB" of bytes into out. */
const char *sc_bytes_text(double bytes, char *out, size_t cap);

#endif
