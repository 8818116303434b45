/* fuzz_checkpoint.c — libFuzzer harness: the checkpoint reader (hk_checkpoint_parse) restoring into the world of
 * checkpoint.scene. */
/* SPDX-License-Identifier: MIT */
#include "checkpoint.h"
#include "fuzz.h"
#include "scene.h"

/* HOOKE_FUZZ_SCENE: the absolute path of tests/fuzz/checkpoint.scene (CMake) */
static char *scene_text;
static uint64_t digest;
static hk_scene sc; /* the world inputs restore into, rebuilt after each that was restored */

static void build(void)
{
    char err[2048];
    FUZZ_REQUIRE(hk_scene_parse(scene_text, HOOKE_FUZZ_SCENE, &sc, err, sizeof err) == 0, "%s", err);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[2048];
    FILE *f = fopen(HOOKE_FUZZ_SCENE, "rb");
    FUZZ_REQUIRE(f != NULL, "cannot open %s", HOOKE_FUZZ_SCENE);
    /* the scene's text, kept to rebuild its world */
    static char buf[1 << 16];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    scene_text = buf;
    build();
    FUZZ_REQUIRE(hk_checkpoint_digest(HOOKE_FUZZ_SCENE, (const char *const *)sc.files, sc.file_count, &digest, err,
                                      sizeof err) == 0,
                 "%s", err);
    return 0;
}

/* FNV-1a as docs/checkpoint-format.md defines the checksum */
static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Restores the input: a refused one must leave the world as it was, an accepted one must step. */
static void restore(const uint8_t *data, size_t size)
{
    char err[2048];
    hk_world *w = sc.world;
    const uint64_t hash = hk_world_state_hash(w);
    const int64_t steps = hk_world_step_count(w);
    const double time = hk_world_time(w);
    const int substeps = hk_world_substeps(w);
    if (hk_checkpoint_parse(w, digest, data, size, "fuzz.ck", err, sizeof err) == 0) {
        FUZZ_REQUIRE(hk_world_step_count(w) >= 0, "a negative step count restored");
        fuzz_step(w, sc.stretch_limit);
        hk_scene_free(&sc);
        build();
    } else {
        FUZZ_REQUIRE(fuzz_names(err, "fuzz.ck"), "the message does not name the file: '%s'", err);
        FUZZ_REQUIRE(hk_world_state_hash(w) == hash && hk_world_step_count(w) == steps && hk_world_time(w) == time &&
                         hk_world_substeps(w) == substeps,
                     "a refused checkpoint changed the world (%s)", err);
    }
}

enum { LENGTH_AT = 24, DIGEST_AT = 32, HEADER_BYTES = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    restore(data, size); /* as it is: mostly refused by the length, digest and checksum checks */
    if (size < HEADER_BYTES + 8) return 0;
    /* the same bytes with a length, digest and checksum that agree, so every value check behind them is reached */
    uint8_t *copy = malloc(size);
    if (!copy) abort();
    memcpy(copy, data, size);
    const uint64_t len = size;
    memcpy(copy + LENGTH_AT, &len, sizeof len);
    memcpy(copy + DIGEST_AT, &digest, sizeof digest);
    const uint64_t sum = fnv1a(copy, size - 8);
    memcpy(copy + size - 8, &sum, sizeof sum);
    restore(copy, size);
    free(copy);
    return 0;
}
