/* frames.c — names, writes and collects the frames of a run in every requested format. */
#define _POSIX_C_SOURCE 200809L
#include "frames.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "geometry.h"
#include "obj_out.h"
#include "render.h"
#include "vtk.h"

struct hk_frames {
    char dir[4096];
    int formats;
    int count, cap;
    double *times;
    char **files; /* .vtp names, relative to dir */
    hk_render_camera camera;
    int camera_set;
};

int hk_frames_parse_formats(const char *list)
{
    int mask = 0;
    const char *s = list;
    while (*s) {
        size_t n = strcspn(s, ",");
        if (n == 3 && strncmp(s, "vtk", 3) == 0)
            mask |= HK_FRAME_VTK;
        else if (n == 3 && strncmp(s, "obj", 3) == 0)
            mask |= HK_FRAME_OBJ;
        else if (n == 3 && strncmp(s, "png", 3) == 0)
            mask |= HK_FRAME_PNG;
        else
            return -1;
        s += n;
        if (*s == ',') s++;
    }
    return mask ? mask : -1;
}

hk_frames *hk_frames_open(const char *dir, int formats, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(dir, 0755) != 0 && !(errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
        snprintf(err, errlen, "cannot create output folder %s: %s", dir, errno == EEXIST ? "not a folder" : strerror(errno));
        return NULL;
    }
    hk_frames *fr = calloc(1, sizeof *fr);
    if (!fr || strlen(dir) >= sizeof fr->dir - 64) {
        free(fr);
        snprintf(err, errlen, "cannot use output folder %s: %s", dir, fr ? "path too long" : "out of memory");
        return NULL;
    }
    snprintf(fr->dir, sizeof fr->dir, "%s", dir);
    fr->formats = formats;
    return fr;
}

int hk_frames_write(hk_frames *fr, const hk_world *w, char *err, size_t errlen)
{
    hk_geometry m;
    if (hk_geometry_build(w, &m) != 0) {
        snprintf(err, errlen, "out of memory for a frame");
        return -1;
    }
    char path[4200], name[64];
    const long long step = (long long)hk_world_step_count(w);
    int rc = 0;
    if (fr->formats & HK_FRAME_VTK) {
        snprintf(name, sizeof name, "frame_%06lld.vtp", step);
        snprintf(path, sizeof path, "%s/%s", fr->dir, name);
        if (hk_vtk_write_frame(path, w, &m) != 0) goto io_fail;
        if (fr->count == fr->cap) {
            int cap = fr->cap ? 2 * fr->cap : 64;
            double *t = realloc(fr->times, (size_t)cap * sizeof *t);
            if (t) fr->times = t;
            char **f = realloc(fr->files, (size_t)cap * sizeof *f);
            if (f) fr->files = f;
            if (!t || !f) {
                errno = ENOMEM;
                goto io_fail;
            }
            fr->cap = cap;
        }
        fr->files[fr->count] = strdup(name);
        if (!fr->files[fr->count]) {
            errno = ENOMEM;
            goto io_fail;
        }
        fr->times[fr->count++] = hk_world_time(w);
        snprintf(path, sizeof path, "%s/frames.pvd", fr->dir);
        if (hk_vtk_write_pvd(path, fr->count, fr->times, fr->files) != 0) goto io_fail;
    }
    if (fr->formats & HK_FRAME_OBJ) {
        snprintf(path, sizeof path, "%s/frame_%06lld.obj", fr->dir, step);
        if (hk_obj_write_frame(path, w, &m) != 0) goto io_fail;
    }
    if (fr->formats & HK_FRAME_PNG) {
        /* the camera frames the first picture and then stays, so motion shows */
        if (!fr->camera_set) {
            hk_render_camera_fit(w, &fr->camera);
            fr->camera_set = 1;
        }
        snprintf(path, sizeof path, "%s/frame_%06lld.png", fr->dir, step);
        if (hk_render_png(path, w, &m, &fr->camera, 640, 480) != 0) goto io_fail;
    }
    hk_geometry_free(&m);
    return rc;
io_fail:
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    hk_geometry_free(&m);
    return -1;
}

int hk_frames_count(const hk_frames *fr) { return fr->count; }

void hk_frames_close(hk_frames *fr)
{
    if (!fr) return;
    for (int i = 0; i < fr->count; i++) free(fr->files[i]);
    free(fr->files);
    free(fr->times);
    free(fr);
}
