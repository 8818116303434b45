/* frames.c — the table of frame formats, and a run's frames written in every chosen one. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "frames.h"

#include "frame_mem.h"

#include "outfile.h"
#include "world.h"
#include "part.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The formats: each writer's row is defined beside it (hk_frame_format_NAME). */
#define HK_FRAME_FORMATS(X) X(vtk) X(obj) X(png) X(blender)
#define HK_DECLARE(name) extern const hk_frame_format hk_frame_format_##name;
HK_FRAME_FORMATS(HK_DECLARE)
#undef HK_DECLARE
#define HK_ROW(name) &hk_frame_format_##name,
static const hk_frame_format *const formats[] = {HK_FRAME_FORMATS(HK_ROW)};
#undef HK_ROW
#define FORMAT_COUNT ((int)(sizeof formats / sizeof formats[0]))
_Static_assert(FORMAT_COUNT < 31, "one mask bit per format");
/* "vtk, obj, png, blender" */
#define HK_NAME(name) ", " #name
static const char format_names[] = HK_FRAME_FORMATS(HK_NAME);
#undef HK_NAME

const hk_frame_format *hk_frame_format_at(int i) { return i >= 0 && i < FORMAT_COUNT ? formats[i] : NULL; }
const char *hk_frames_format_names(void) { return format_names + 2; }

struct hk_frames {
    char dir[4096];
    int formats;                          /* mask */
    int64_t first;                        /* the run's first step (-1: the first frame's) */
    int written;                          /* a frame has been written */
    hk_frame_series series[FORMAT_COUNT]; /* per format */
};

int hk_frames_parse_formats(const char *list)
{
    int mask = 0;
    const char *s = list;
    while (*s) {
        const size_t n = strcspn(s, ",");
        int f = 0;
        while (f < FORMAT_COUNT && !(strlen(formats[f]->name) == n && strncmp(s, formats[f]->name, n) == 0)) f++;
        if (f == FORMAT_COUNT) return -1;
        mask |= 1 << f;
        s += n;
        if (*s == ',') s++;
    }
    return mask ? mask : -1;
}

/* Whether p (after frame_<step>) ends the name of a file of a VTK frame in pieces: _p<rank>.vtp, or .pvtp. */
static int vtk_piece_name(const char *p)
{
    if (strcmp(p, ".pvtp") == 0) return 1;
    if (strncmp(p, "_p", 2) != 0) return 0;
    p += 2;
    const char *digits = p;
    while (*p >= '0' && *p <= '9') p++;
    return p > digits && strcmp(p, ".vtp") == 0;
}

/* The frame files of the formats in mask with an extension (frame_<step>.<extension>, and of vtk the pieces of
 * a world shared out over ranks) at step `first` and after, left by the run a restart continues: the restart
 * writes its own, where an uninterrupted run has them. */
static void remove_later_frames(const char *dir, int mask, int64_t first)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char path[4096];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, "frame_", 6) != 0) continue;
        const char *p = e->d_name + 6;
        int64_t step = 0;
        int digits = 0;
        for (; *p >= '0' && *p <= '9' && digits < 18; p++, digits++) step = 10 * step + (*p - '0');
        if (digits < 6 || step < first) continue;
        for (int f = 0; f < FORMAT_COUNT; f++) {
            if (!(mask & (1 << f)) || !formats[f]->extension) continue;
            const int ours = (*p == '.' && strcmp(p + 1, formats[f]->extension) == 0) ||
                             (formats[f] == &hk_frame_format_vtk && vtk_piece_name(p));
            struct stat st; /* a device or FIFO there is written through, not removed (outfile.h) */
            if (ours && (size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path &&
                lstat(path, &st) == 0 && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
                unlink(path);
        }
    }
    closedir(d);
}

/* Removes what a killed run left in dir: the temporary files of its frame
 * writes (frame_*.tmp; the series files' NAME.tmp are reused by the next
 * write), so that a folder holds at most the one being written. */
static void remove_stale_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char path[4096];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const size_t n = strlen(e->d_name);
        if (n > 10 && strncmp(e->d_name, "frame_", 6) == 0 && strcmp(e->d_name + n - 4, ".tmp") == 0 &&
            (size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path)
            unlink(path);
    }
    closedir(d);
}

hk_frames *hk_frames_open(const char *dir, int formats_mask, int64_t first_step, char *err, size_t errlen)
{
    if (hk_make_folders(dir) != 0) {
        snprintf(err, errlen, "cannot create output folder %s: %s", dir,
                 errno == ENOTDIR ? "a part of the path is a file, not a folder" : strerror(errno));
        return NULL;
    }
    hk_frames *fr = calloc(1, sizeof *fr);
    if (!fr || strlen(dir) >= sizeof fr->dir - 64) {
        free(fr);
        snprintf(err, errlen, "cannot use output folder %s: %s", dir, fr ? "path too long" : "out of memory");
        return NULL;
    }
    snprintf(fr->dir, sizeof fr->dir, "%s", dir);
    remove_stale_temporaries(fr->dir);
    fr->formats = formats_mask;
    fr->first = first_step;
    for (int f = 0; f < FORMAT_COUNT; f++) fr->series[f].dir = fr->dir, fr->series[f].first = first_step;
    hk_frame_mem_hold(); /* its frames' buffers kept for the next, until it closes */
    return fr;
}

void hk_frames_set_camera(hk_frames *fr, const hk_camera *camera)
{
    for (int f = 0; f < FORMAT_COUNT; f++) fr->series[f].camera = *camera;
}

int hk_frames_write(hk_frames *fr, const hk_world *w, char *err, size_t errlen)
{
    hk_state_read(w); /* a device's newer state (core/device) */
    /* a world shared out over ranks: each rank its piece of a VTK frame (vtk_piece.h), the colliders rank 0's */
    const int shared = w->part && w->part->ranks > 1, rank0 = !shared || w->part->rank == 0;
    for (int f = 0; f < FORMAT_COUNT && shared; f++)
        if ((fr->formats & (1 << f)) && formats[f] != &hk_frame_format_vtk) {
            snprintf(err, errlen,
                     "the %s format needs the whole world in one process: of a world shared out over "
                     "ranks only vtk frames are written in pieces",
                     formats[f]->name);
            return -1;
        }
    hk_geometry g;
    const int built =
        shared ? (rank0 ? hk_geometry_colliders(w, &g) : (memset(&g, 0, sizeof g), 0)) : hk_geometry_build(w, &g);
    if (built != 0) { /* on one process; over ranks the piece writers agree on every failure */
        snprintf(err, errlen, "out of memory for a frame");
        return -1;
    }
    if (!fr->written) {
        fr->written = 1;
        if (fr->first < 0) fr->first = hk_world_step_count(w);
        for (int f = 0; f < FORMAT_COUNT; f++) fr->series[f].first = fr->first;
        if (fr->first > 0 && rank0) remove_later_frames(fr->dir, fr->formats, fr->first);
        if (shared) hk_part_any(w, 0); /* rank 0 has removed them before any rank writes its piece */
    }
    char path[4200];
    int rc = 0;
    for (int f = 0; f < FORMAT_COUNT && rc == 0; f++) {
        if (!(fr->formats & (1 << f))) continue;
        if (formats[f]->extension)
            snprintf(path, sizeof path, "%s/frame_%06lld.%s", fr->dir, (long long)hk_world_step_count(w),
                     formats[f]->extension);
        errno = 0;
        fr->series[f].failed = NULL;
        if (formats[f]->write(&fr->series[f], formats[f]->extension ? path : NULL, w, &g) != 0) {
            const char *what = fr->series[f].failed ? fr->series[f].failed : formats[f]->extension ? path : fr->dir;
            snprintf(err, errlen, "cannot write %s: %s", what, hk_out_strerror(errno ? errno : EIO));
            rc = -1;
        }
    }
    hk_geometry_free(&g);
    return rc;
}

void hk_frames_close(hk_frames *fr)
{
    if (!fr) return;
    for (int f = 0; f < FORMAT_COUNT; f++)
        if (fr->series[f].free_state) fr->series[f].free_state(fr->series[f].state);
    free(fr);
    hk_frame_mem_release();
}
