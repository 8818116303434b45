/* frames.c — names, writes and collects the frames of a run in every requested format. */
#define _POSIX_C_SOURCE 200809L
#include "frames.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
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
    int resumed; /* the frames already in dir have been looked for */
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

/* Appends a frame to the collection; 0 or -1 (out of memory). */
static int push_frame(hk_frames *fr, const char *name, double time)
{
    if (fr->count == fr->cap) {
        int cap = fr->cap ? 2 * fr->cap : 64;
        double *t = realloc(fr->times, (size_t)cap * sizeof *t);
        if (t) fr->times = t;
        char **f = realloc(fr->files, (size_t)cap * sizeof *f);
        if (f) fr->files = f;
        if (!t || !f) return -1;
        fr->cap = cap;
    }
    if (!(fr->files[fr->count] = strdup(name))) return -1;
    fr->times[fr->count++] = time;
    return 0;
}

/* The step of a frame file name frame_<digits>.vtp; -1 for any other name. */
static long long frame_step(const char *name)
{
    if (strncmp(name, "frame_", 6) != 0) return -1;
    const char *p = name + 6;
    long long step = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 18; p++, digits++) step = 10 * step + (*p - '0');
    return digits >= 6 && strcmp(p, ".vtp") == 0 ? step : -1;
}

/* The TimeValue field data of a .vtp frame written by hooke; NAN if it cannot be read. */
static double frame_time(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NAN;
    char head[4096];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    const char *p = strstr(head, "Name=\"TimeValue\"");
    p = p ? strchr(p, '>') : NULL;
    if (!p) return NAN;
    char *end;
    double t = strtod(p + 1, &end);
    return end != p + 1 && *end == '<' ? t : NAN;
}

typedef struct earlier {
    long long step;
    double time;
    char name[64];
} earlier;

static int by_step(const void *a, const void *b)
{
    const long long x = ((const earlier *)a)->step, y = ((const earlier *)b)->step;
    return (x > y) - (x < y);
}

/* A restarted run (first frame at step > 0) writing into a folder that holds the frames of the run before:
 * the collection starts with those frame_<step>.vtp of an earlier step, their times read from the files. */
static int resume_frames(hk_frames *fr, long long first_step)
{
    DIR *d = opendir(fr->dir);
    if (!d) return 0;
    earlier *e = NULL;
    int n = 0, cap = 0, rc = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        const long long step = frame_step(ent->d_name);
        if (step < 0 || step >= first_step || strlen(ent->d_name) >= sizeof e->name) continue;
        char path[sizeof fr->dir + sizeof ent->d_name + 2];
        snprintf(path, sizeof path, "%s/%s", fr->dir, ent->d_name);
        const double t = frame_time(path);
        if (isnan(t)) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            earlier *g = realloc(e, (size_t)cap * sizeof *g);
            if (!g) {
                rc = -1;
                break;
            }
            e = g;
        }
        e[n].step = step;
        e[n].time = t;
        memcpy(e[n].name, ent->d_name, strlen(ent->d_name) + 1);
        n++;
    }
    closedir(d);
    if (rc == 0) {
        qsort(e, (size_t)n, sizeof *e, by_step);
        for (int i = 0; i < n && rc == 0; i++) rc = push_frame(fr, e[i].name, e[i].time);
    }
    free(e);
    return rc;
}

hk_frames *hk_frames_open(const char *dir, int formats, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(dir, 0755) != 0 && !(errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
        snprintf(err, errlen, "cannot create output folder %s: %s", dir,
                 errno == EEXIST ? "not a folder" : strerror(errno));
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
        if (!fr->resumed) {
            fr->resumed = 1;
            if (step > 0 && resume_frames(fr, step) != 0) {
                errno = ENOMEM;
                goto io_fail;
            }
        }
        if (push_frame(fr, name, hk_world_time(w)) != 0) {
            errno = ENOMEM;
            goto io_fail;
        }
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
