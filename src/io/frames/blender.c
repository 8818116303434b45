/* blender.c — the blender frame format: the first frame's mesh as one OBJ, every frame's positions in a PC2 point
 * cache. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_format.h"
#include "obj_out.h"
#include "outfile.h"
#include "pc2.h"
#include "world.h"

typedef struct blender_series {
    hk_pc2 pc2;
    FILE *index; /* frames_pc2.csv, open for appending */
    float *xyz;  /* one sample */
    char obj[4200], cache[4200], csv[4200];
} blender_series;

static void series_free(void *state)
{
    blender_series *b = state;
    if (!b) return;
    hk_pc2_close(&b->pc2);
    if (b->index) fclose(b->index);
    free(b->xyz);
    free(b);
}

static const char index_header[] = "sample,step,time\n";

/* The rows of DIR/frames_pc2.csv kept by a restart at `first_step`: the
 * leading rows numbered 0, 1, ... whose steps rise and lie before it. The
 * kept text goes to *kept (malloc'd); their count is returned (0 if the file
 * is missing or not an index). */
static int32_t kept_rows(const char *path, long long first_step, char **kept)
{
    *kept = NULL;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[256];
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    int32_t n = 0;
    long long last = -1;
    if (out && fgets(line, sizeof line, f) && strcmp(line, index_header) == 0) {
        while (fgets(line, sizeof line, f)) {
            long long sample, step;
            double t;
            char end;
            if (sscanf(line, "%lld,%lld,%lg%c", &sample, &step, &t, &end) != 4 || end != '\n' || sample != n ||
                step <= last || step >= first_step || n == INT32_MAX)
                break;
            const size_t k = strlen(line);
            if (len + k + 1 > cap) {
                char *g = realloc(out, cap *= 2);
                if (!g) break;
                out = g;
            }
            memcpy(out + len, line, k + 1);
            len += k;
            last = step;
            n++;
        }
    }
    fclose(f);
    if (n == 0) {
        free(out);
        return 0;
    }
    *kept = out;
    return n;
}

/* Writes the index with its header, rows (text, may be NULL) and the row of
 * `sample`, whole; then opens it for appending. */
static int start_index(blender_series *b, const char *rows, int32_t sample, const hk_world *w)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, b->csv, "w");
    if (!f) return -1;
    fprintf(f, "%s%s%" PRId32 ",%lld,%.17g\n", index_header, rows ? rows : "", sample,
            (long long)hk_world_step_count(w), hk_world_time(w));
    if (hk_out_close(&o, 1) != 0) return -1;
    b->index = fopen(b->csv, "a");
    return b->index ? 0 : -1;
}

/* The first frame of this process: continues the files of the run before
 * (a restart: step > 0, its OBJ, cache and index in DIR agree), else starts
 * them. */
static int first_frame(blender_series *b, const hk_world *w, const hk_geometry *g, const char **failed)
{
    const long long step = (long long)hk_world_step_count(w);
    char *rows = NULL;
    const int32_t keep = step > 0 ? kept_rows(b->csv, step, &rows) : 0;
    FILE *obj = keep > 0 ? fopen(b->obj, "r") : NULL;
    const int have_obj = obj != NULL;
    if (obj) fclose(obj);
    if (have_obj && hk_pc2_open(&b->pc2, b->cache, w->p.count, keep) == 0) {
        *failed = b->cache;
        if (hk_pc2_append(&b->pc2, b->xyz) != 0) {
            free(rows);
            return -1;
        }
        *failed = b->csv;
        const int rc = start_index(b, rows, keep, w);
        free(rows);
        return rc;
    }
    free(rows);
    *failed = b->obj;
    if (hk_obj_write_file(b->obj, w, g, HK_OBJ_ONE_OBJECT) != 0) return -1;
    *failed = b->cache;
    if (hk_pc2_create(&b->pc2, b->cache, w->p.count, b->xyz) != 0) return -1;
    *failed = b->csv;
    return start_index(b, NULL, 0, w);
}

static int write_blender(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g)
{
    (void)path; /* a series format: its files are named here */
    blender_series *b = s->state;
    if (!b) {
        if (!(b = calloc(1, sizeof *b))) return -1;
        b->pc2.fd = -1;
        s->state = b;
        s->free_state = series_free;
        snprintf(b->obj, sizeof b->obj, "%s/frames.obj", s->dir);
        snprintf(b->cache, sizeof b->cache, "%s/frames.pc2", s->dir);
        snprintf(b->csv, sizeof b->csv, "%s/frames_pc2.csv", s->dir);
        if (!(b->xyz = malloc(3 * (size_t)w->p.count * sizeof *b->xyz + 1))) return -1;
    }
    for (size_t i = 0; i < 3 * (size_t)w->p.count; i++) b->xyz[i] = (float)g->pos[i]; /* PC2 holds floats */
    if (!b->index) {
        if (first_frame(b, w, g, &s->failed) != 0) return -1;
        s->failed = NULL;
        return 0;
    }
    s->failed = b->cache;
    if (hk_pc2_append(&b->pc2, b->xyz) != 0) return -1;
    s->failed = b->csv;
    fprintf(b->index, "%" PRId32 ",%lld,%.17g\n", b->pc2.samples - 1, (long long)hk_world_step_count(w),
            hk_world_time(w));
    if (fflush(b->index) != 0 || ferror(b->index)) return -1;
    s->failed = NULL;
    return 0;
}

const hk_frame_format hk_frame_format_blender = {
    "blender", NULL, "Blender: frames.obj and frames.pc2 (Mesh Cache modifier)", write_blender};
