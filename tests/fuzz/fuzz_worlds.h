/* fuzz_worlds.h — the checkpoint harnesses' worlds: checkpoint.scene and checkpoint_pairs.scene, read once, built
 * again after each input that restored into one. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FUZZ_WORLDS_H
#define HOOKE_FUZZ_WORLDS_H

#include <stdint.h>
#include <stdio.h>

#include "hooke/hooke.h"
#include "fuzz.h"
#include "scene.h"

/* HOOKE_FUZZ_SCENE and HOOKE_FUZZ_PAIRS_SCENE: the absolute paths of tests/fuzz/checkpoint.scene and
 * checkpoint_pairs.scene (CMake). An input restores into the world whose scene digest it carries, the first
 * where it carries neither. */
typedef struct fuzz_world {
    const char *path;
    char text[1 << 16]; /* the scene's text, kept to rebuild its world */
    uint64_t digest;
    hk_scene sc; /* the world inputs restore into, rebuilt after each that was restored */
} fuzz_world;

/* The world of fw's scene text, built anew. */
static inline void fuzz_world_build(fuzz_world *fw)
{
    char err[2048];
    FUZZ_REQUIRE(hk_scene_parse(fw->text, fw->path, &fw->sc, err, sizeof err) == 0, "%s", err);
}

/* Each of the n worlds: its scene read, its world built, its scene digest taken. */
static inline void fuzz_worlds_load(fuzz_world *worlds, int n)
{
    for (int i = 0; i < n; i++) {
        fuzz_world *fw = &worlds[i];
        char err[2048];
        FILE *f = fopen(fw->path, "rb");
        FUZZ_REQUIRE(f != NULL, "cannot open %s", fw->path);
        const size_t got = fread(fw->text, 1, sizeof fw->text - 1, f);
        fclose(f);
        fw->text[got] = '\0';
        fuzz_world_build(fw);
        FUZZ_REQUIRE(hk_checkpoint_digest(fw->path, (const char *const *)fw->sc.files, fw->sc.file_count, &fw->digest,
                                          err, sizeof err) == 0,
                     "%s", err);
    }
}

#endif
