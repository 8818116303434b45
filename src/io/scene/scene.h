/* scene.h — reads hooke scene files (docs/scene-format.md) into a world and run settings. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_H
#define HOOKE_SCENE_H

#include "hooke/hooke.h"

typedef struct hk_scene {
    hk_world *world;              /* owned; NULL until loaded */
    hk_integrator_def integrator; /* from the [run] settings */
    int64_t steps;                /* run length in steps; 0 = not given */
    double time;                  /* run length in simulated seconds; 0 = not given */
    int64_t every;                /* statistics and frames every N steps; 0 = not given */
    double stretch_limit;         /* blow-up when any r/L0 exceeds this (default 10) */
    int *body_line;               /* per body of the world: the scene line that opens it */
    char **files;                 /* every file the scene loaded (meshes), as opened, in scene order */
    int file_count;
} hk_scene;

/* Parses scene text; `filename` is used in messages only. On error returns -1
 * and writes "FILE:LINE:COL: error: expected ..., got '...'" into err. */
int hk_scene_parse(const char *text, const char *filename, hk_scene *out, char *err, size_t errlen);
/* Reads and parses a file; unreadable files give "FILE: error: cannot open scene: ..." (io/readfile.h). */
int hk_scene_load(const char *path, hk_scene *out, char *err, size_t errlen);
/* The same with the world section starting from base (NULL: hk_default_world_def()) instead of the defaults:
 * how a program hands its tuning (the kernel path, list_parallel_min) to the scene's world. A base the library
 * refuses gives "FILE: error: world: FIELD must be ..." (hk_world_def_check). */
int hk_scene_parse_on(const char *text, const char *filename, const hk_world_def *base, hk_scene *out, char *err,
                      size_t errlen);
int hk_scene_load_on(const char *path, const hk_world_def *base, hk_scene *out, char *err, size_t errlen);
/* hk_scene_parse_on for len bytes of text, which may hold a NUL byte: refused as the file reader refuses one
 * ("NAME:LINE:COL: error: expected text, got a NUL byte ..."), where hk_scene_parse_on would stop at it. */
int hk_scene_parse_counted(const char *text, size_t len, const char *filename, const hk_world_def *base, hk_scene *out,
                           char *err, size_t errlen);
/* hk_scene_parse_counted for a world built in code: the text may hold no body (its settings sections alone), and the
 * world it makes is empty until hk_scene_add adds to it. */
int hk_scene_parse_settings(const char *text, size_t len, const char *filename, const hk_world_def *base, hk_scene *out,
                            char *err, size_t errlen);
/* Adds the items of len bytes of scene text (bodies, spheres and colliders, in the format's sections, and a contact
 * section) to w, as a scene file's are added to its world: the same keys, defaults, checks and messages
 * ("NAME:LINE:COL: error: ..."). A section that sets up a new world (world, run, ground, walls) is refused. 0, or -1
 * with the error in err: the items before the failing one stay added (a single item's text adds all of it or
 * nothing). */
int hk_scene_add(hk_world *w, const char *text, size_t len, const char *name, char *err, size_t errlen);
/* The same for a world that `ranks` processes will share out (hk_world_distribute), on each of them: past 1 rank
 * its lattices are deferred (world.h hk_world_defer_lattices: none is built whole, each rank builds its rows when
 * the world is shared out), and the memory check counts a lattice's share of one rank. */
int hk_scene_load_for(const char *path, const hk_world_def *base, int ranks, hk_scene *out, char *err, size_t errlen);
/* The same from scene text. */
int hk_scene_parse_shared(const char *text, const char *filename, const hk_world_def *base, int ranks, hk_scene *out,
                          char *err, size_t errlen);
/* The lists the parser's messages give, made from the tables (scene_kinds.c), for messages that must agree
 * with them: the sections ("world, run, ground, walls, sphere or body"), the body kinds ("rope, cloth, ... or
 * ring") and the keys of the section or body titled `title` ("world", "body rope", "springs line": "count, mass,
 * ..., springs"; "" for no such title). */
void hk_scene_section_names(char *out, size_t cap);
void hk_scene_body_names(char *out, size_t cap);
void hk_scene_key_names(const char *title, char *out, size_t cap);
/* Frees the world and the lists; a scene that failed to load is freed too (harmless). */
void hk_scene_free(hk_scene *s);
/* The scene's world, now the caller's (hk_world_destroy), and the rest of
 * the scene freed: for callers that keep only the world. */
hk_world *hk_scene_take_world(hk_scene *s);
/* The scene's run settings, as hk_world_load_scene gives them (hk_run_plan_of plans them). */
hk_run_settings hk_scene_run_settings(const hk_scene *s);

#endif
