/* fuzz_checkpoint.c — libFuzzer harness: the checkpoint reader (hk_checkpoint_parse) restoring into the world of
 * checkpoint.scene or checkpoint_pairs.scene; built as fuzz_checkpoint_step (FUZZ_CHECKPOINT_STEPS 8), an accepted
 * state is then stepped 8 times. */
/* SPDX-License-Identifier: MIT */
#include "ckpt_bytes.h"
#include "fuzz_worlds.h"

/* The steps an accepted checkpoint's world takes: a state the reader accepts must step without a crash. */
#ifndef FUZZ_CHECKPOINT_STEPS
#define FUZZ_CHECKPOINT_STEPS 1
#endif

static fuzz_world worlds[2] = {{.path = HOOKE_FUZZ_SCENE}, {.path = HOOKE_FUZZ_PAIRS_SCENE}};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_worlds_load(worlds, 2);
    return 0;
}

/* Restores the input into fw's world: a refused one must leave the world as it was, an accepted one must step. */
static void restore(fuzz_world *fw, const uint8_t *data, size_t size)
{
    char err[2048];
    hk_world *w = fw->sc.world;
    const uint64_t hash = hk_world_state_hash(w);
    const int64_t steps = hk_world_step_count(w);
    const double time = hk_world_time(w);
    const int substeps = hk_world_substeps(w);
    hk_energy_guard guard; /* the run's energy bound, which a checkpoint carries on */
    hk_energy_guard_init(&guard, w);
    if (hk_checkpoint_parse(w, &guard, fw->digest, data, size, "fuzz.ck", err, sizeof err) == 0) {
        FUZZ_REQUIRE(hk_world_step_count(w) >= 0, "a negative step count restored");
        fuzz_steps(w, fw->sc.stretch_limit, FUZZ_CHECKPOINT_STEPS);
        hk_scene_free(&fw->sc);
        fuzz_world_build(fw);
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
    fuzz_world *fw = &worlds[0];
    uint64_t named = 0;
    if (size >= DIGEST_AT + sizeof named) memcpy(&named, data + DIGEST_AT, sizeof named);
    if (named == worlds[1].digest) fw = &worlds[1];
    restore(fw, data, size); /* as it is: mostly refused by the length, digest and checksum checks */
    if (size < HEADER_BYTES + 8) return 0;
    /* the same bytes with a length, digest and checksum that agree, so every value check behind them is reached */
    uint8_t *copy = malloc(size);
    if (!copy) abort();
    memcpy(copy, data, size);
    const uint64_t len = size;
    memcpy(copy + LENGTH_AT, &len, sizeof len);
    memcpy(copy + DIGEST_AT, &fw->digest, sizeof fw->digest);
    const uint64_t sum = hk_ckpt_fnv1a(copy, size - 8, HK_CKPT_FNV_BASIS);
    memcpy(copy + size - 8, &sum, sizeof sum);
    restore(fw, copy, size);
    free(copy);
    return 0;
}
