/* fuzz_scene.c — libFuzzer harness: the scene parser and world builders (hk_scene_parse), then a step (fuzz.h). */
/* SPDX-License-Identifier: MIT */
#include "fuzz.h"
#include "scene.h"

/* the scene "lives" in scenes/, so a seed's `file torus.asc` loads the shipped mesh */
#define NAME HOOKE_SCENES_DIR "/fuzz.scene"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    hk_scene sc;
    char err[2048];
    if (hk_scene_parse(text, NAME, &sc, err, sizeof err) == 0) {
        FUZZ_REQUIRE(sc.world != NULL, "a parsed scene without a world");
        fuzz_step(sc.world, sc.stretch_limit);
        hk_scene_free(&sc);
    } else {
        FUZZ_REQUIRE(fuzz_names(err, NAME), "the message does not name the file: '%s'", err);
        FUZZ_REQUIRE(sc.world == NULL, "a refused scene left a world");
    }
    free(text);
    return 0;
}
