/* fuzz_scene.c — libFuzzer harness: the scene parser and world builders (hk_scene_parse, and the same text added to a
 * world built in code: hk_scene_add), then a step (fuzz.h). */
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
    /* the text's items added to an empty world (what World.add_* does from Python) */
    const char *empty = "world\nend\n";
    if (hk_scene_parse_settings(empty, strlen(empty), NAME, NULL, &sc, err, sizeof err) == 0) {
        if (hk_scene_add(sc.world, text, strlen(text), NAME, err, sizeof err) == 0)
            fuzz_step(sc.world, HK_STRETCH_LIMIT);
        else
            FUZZ_REQUIRE(fuzz_names(err, NAME), "the message does not name the file: '%s'", err);
        hk_scene_free(&sc);
    }
    free(text);
    return 0;
}
