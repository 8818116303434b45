/* io_api.c — the public scene and frame functions of hooke.h, over the scene reader (scene.c) and the frames module
 * (frames.c). */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "hooke/hooke.h"
#include "render.h"
#include "scene.h"

/* The reason into err (may be NULL or 0 long). */
static void say(char *err, size_t errlen, const char *why)
{
    if (err && errlen) snprintf(err, errlen, "%s", why);
}

/* The scene's world, now the caller's, and its run settings into run; NULL if it did not load. */
static hk_world *take(int rc, hk_scene *sc, hk_run_settings *run)
{
    if (rc != 0) return NULL;
    if (run) *run = hk_scene_run_settings(sc);
    return hk_scene_take_world(sc);
}

hk_world *hk_world_load_scene(const char *path, hk_run_settings *run, char *err, size_t errlen)
{
    hk_scene sc;
    if (!path) {
        say(err, errlen, "<scene>: error: no scene file name");
        return NULL;
    }
    return take(hk_scene_load(path, &sc, err, errlen), &sc, run);
}

hk_world *hk_world_parse_scene(const char *text, const char *name, hk_run_settings *run, char *err, size_t errlen)
{
    hk_scene sc;
    return take(hk_scene_parse(text, name, &sc, err, errlen), &sc, run);
}

/* ---- frames ---------------------------------------------------------- */

struct hk_frame_writer {
    hk_frames *frames;
};

const char *hk_frame_format_name(int i)
{
    const hk_frame_format *f = hk_frame_format_at(i);
    return f ? f->name : NULL;
}

/* hk_frame_writer_open, and on a failure *status: HK_ERR_INVALID (the formats, no folder given) or HK_ERR_IO (the
 * folder could not be made or used) or HK_ERR_MEMORY. */
static hk_frame_writer *writer_open(const char *dir, const char *formats, char *err, size_t errlen, int *status)
{
    char why[4400];
    *status = HK_ERR_INVALID;
    const int mask = formats ? hk_frames_parse_formats(formats) : -1;
    if (mask < 0) {
        snprintf(why, sizeof why, "frame formats '%s': expected a comma-separated list of %s",
                 formats ? formats : "(none)", hk_frames_format_names());
        say(err, errlen, why);
        return NULL;
    }
    if (!dir || !*dir) {
        say(err, errlen, "frames: no output folder given");
        return NULL;
    }
    hk_frame_writer *fw = calloc(1, sizeof *fw);
    if (!fw) {
        *status = HK_ERR_MEMORY;
        say(err, errlen, "frames: out of memory");
        return NULL;
    }
    fw->frames = hk_frames_open(dir, mask, -1, why, sizeof why);
    if (!fw->frames) {
        *status = HK_ERR_IO;
        say(err, errlen, why);
        free(fw);
        return NULL;
    }
    return fw;
}

hk_frame_writer *hk_frame_writer_open(const char *dir, const char *formats, char *err, size_t errlen)
{
    int status;
    return writer_open(dir, formats, err, errlen, &status);
}

int hk_frame_writer_write(hk_frame_writer *fw, const hk_world *w, char *err, size_t errlen)
{
    if (!fw || !w) {
        say(err, errlen, fw ? "frames: no world given" : "frames: no frame writer given");
        return HK_ERR_INVALID;
    }
    char why[4400];
    if (hk_frames_write(fw->frames, w, why, sizeof why) != 0) {
        say(err, errlen, why);
        return HK_ERR_IO;
    }
    return HK_OK;
}

void hk_frame_writer_close(hk_frame_writer *fw)
{
    if (!fw) return;
    hk_frames_close(fw->frames);
    free(fw);
}

int hk_world_render(const hk_world *w, int width, int height, uint8_t *rgb)
{
    if (!w || !rgb || width < 16 || height < 16 || width > HK_RENDER_MAX || height > HK_RENDER_MAX)
        return HK_ERR_INVALID;
    hk_geometry g;
    if (hk_geometry_build(w, &g) != 0) return HK_ERR_MEMORY;
    const int rc = hk_render_rgb(rgb, w, &g, NULL, width, height);
    hk_geometry_free(&g);
    return rc == 0 ? HK_OK : HK_ERR_MEMORY;
}

int64_t hk_world_faces(const hk_world *w, int *tri, int *body, int64_t cap)
{
    hk_geometry g;
    if (hk_geometry_build(w, &g) != 0) return -1;
    const int64_t n = g.tris, m = tri ? (n < cap ? n : cap) : 0;
    for (int64_t t = 0; t < m; t++) {
        for (int c = 0; c < 3; c++) tri[3 * t + c] = g.tri[3 * t + c];
        if (body) body[t] = g.tri_body[t];
    }
    hk_geometry_free(&g);
    return n;
}

int hk_frame_write(const hk_world *w, const char *formats, const char *dir, char *err, size_t errlen)
{
    int status;
    hk_frame_writer *fw = writer_open(dir, formats, err, errlen, &status);
    if (!fw) return status;
    const int rc = hk_frame_writer_write(fw, w, err, errlen);
    hk_frame_writer_close(fw);
    return rc;
}
