/* vtk.c — frames as VTK XML PolyData (springs as lines, surfaces as triangles, points once), and the .pvd series. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "vtk.h"

#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame_format.h"
#include "frame_mem.h"
#include "part.h"
#include "vtk_piece.h"
#include "vtkxml.h"
#include "world.h"

#ifdef HOOKE_DOUBLE
#define REAL_TYPE "Float64"
#else
#define REAL_TYPE "Float32"
#endif

/* The compressed arrays of one frame: the points' (each stored once), the
 * cells' (the springs' lines first, then the triangles, as VTK orders a
 * PolyData's cells) and the topology of each kind of cell. */
enum { VELOCITY, FORCE, INV_MASS, POINT_BODY, POINTS, CONTACTS, NPOINT_ARRAYS };
enum { STRETCH, CELL_BODY, NCELL_ARRAYS };
enum { CONNECTIVITY, OFFSETS, NTOPO_ARRAYS };

typedef struct frame_blobs {
    hk_vtk_blob point[NPOINT_ARRAYS];
    hk_vtk_blob cell[NCELL_ARRAYS];
    hk_vtk_blob topo[2][NTOPO_ARRAYS]; /* [0] springs (lines), [1] surfaces (triangles) */
    int wide[2];                       /* offsets Int64, else Int32 */
} frame_blobs;

static void blobs_free(frame_blobs *fb)
{
    for (int i = 0; i < NPOINT_ARRAYS; i++) hk_vtk_blob_free(&fb->point[i]);
    for (int i = 0; i < NCELL_ARRAYS; i++) hk_vtk_blob_free(&fb->cell[i]);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < NTOPO_ARRAYS; i++) hk_vtk_blob_free(&fb->topo[k][i]);
}

/* One of x/y/z interleaved into xyz triples; vx/vy/vz and fx/fy/fz likewise. */
static void interleave(hk_real *out, const hk_real *x, const hk_real *y, const hk_real *z, size_t n)
{
    for (size_t i = 0; i < n; i++) out[3 * i] = x[i], out[3 * i + 1] = y[i], out[3 * i + 2] = z[i];
}

/* The point arrays; positions are written in double whatever the build's
 * precision (they are the world positions, body origin plus local). 0 or -1
 * (errno set). */
static int point_blobs(const hk_world *w, const hk_geometry *m, frame_blobs *fb)
{
    const hk_particles *p = &w->p;
    const size_t n = (size_t)p->count;
    hk_real *xyz = hk_frame_alloc((3 * n + 1) * sizeof *xyz); /* interleave fills its 3n values */
    int32_t *body = hk_frame_calloc(n + 1, sizeof *body);
    int rc = -1;
    if (!xyz || !body) {
        errno = ENOMEM;
        goto done;
    }
    for (int b = 0; b < w->body_count; b++)
        for (int i = 0; i < w->bodies[b].count; i++) body[w->bodies[b].first + i] = b;
    const uint64_t vec = 3 * n * sizeof *xyz;
    interleave(xyz, p->vx, p->vy, p->vz, n);
    if (hk_vtk_compress(w, xyz, vec, &fb->point[VELOCITY]) != 0) goto done;
    interleave(xyz, p->fx, p->fy, p->fz, n);
    if (hk_vtk_compress(w, xyz, vec, &fb->point[FORCE]) != 0) goto done;
    if (hk_vtk_compress(w, m->pos, 3 * n * sizeof *m->pos, &fb->point[POINTS]) != 0 ||
        hk_vtk_compress(w, p->inv_mass, n * sizeof *p->inv_mass, &fb->point[INV_MASS]) != 0 ||
        hk_vtk_compress(w, body, n * sizeof *body, &fb->point[POINT_BODY]) != 0 ||
        (m->contacts && hk_vtk_compress(w, m->contacts, n * sizeof *m->contacts, &fb->point[CONTACTS]) != 0))
        goto done;
    rc = 0;
done:
    hk_frame_free(xyz);
    hk_frame_free(body);
    return rc;
}

/* The topology of `cells` cells of `corners` particles each (global
 * indices in conn). Connectivity is Int32 (particle indices are), offsets
 * Int32 up to 2^31 - 1 corners, else Int64 (*wide = 1). 0 or -1 (errno
 * set). */
static int topology_blobs(const hk_world *w, int64_t cells, int corners, const int32_t *conn, hk_vtk_blob *out,
                          int *wide)
{
    *wide = corners * cells > INT32_MAX;
    const size_t size = *wide ? sizeof(int64_t) : sizeof(int32_t);
    unsigned char *off = hk_frame_alloc((size_t)(cells + 1) * size);
    if (!off) {
        errno = ENOMEM;
        return -1;
    }
    for (int64_t i = 0; i < cells; i++) {
        const int64_t o = corners * (i + 1);
        if (*wide)
            memcpy(off + 8 * i, &o, 8);
        else
            memcpy(off + 4 * i, &(int32_t){(int32_t)o}, 4);
    }
    const int rc = hk_vtk_compress(w, conn, (uint64_t)(corners * cells) * sizeof *conn, &out[CONNECTIVITY]) != 0 ||
                           hk_vtk_compress(w, off, (uint64_t)cells * size, &out[OFFSETS]) != 0
                       ? -1
                       : 0;
    hk_frame_free(off);
    return rc;
}

/* The cell data of every cell, lines then triangles: stretch and body.
 * 0 or -1 (errno set). */
static int cell_data_blobs(const hk_world *w, const hk_geometry *m, const double *tri_stretch, frame_blobs *fb)
{
    const size_t lines = (size_t)m->lines, cells = lines + (size_t)m->tris;
    double *stretch = hk_frame_alloc((cells + 1) * sizeof *stretch);
    int32_t *body = hk_frame_alloc((cells + 1) * sizeof *body);
    int rc = -1;
    if (!stretch || !body) {
        errno = ENOMEM;
        goto done;
    }
    if (lines) {
        memcpy(stretch, m->stretch, lines * sizeof *stretch);
        memcpy(body, m->line_body, lines * sizeof *body);
    }
    if (cells > lines) {
        memcpy(stretch + lines, tri_stretch, (cells - lines) * sizeof *stretch);
        memcpy(body + lines, m->tri_body, (cells - lines) * sizeof *body);
    }
    rc = hk_vtk_compress(w, stretch, cells * sizeof *stretch, &fb->cell[STRETCH]) != 0 ||
                 hk_vtk_compress(w, body, cells * sizeof *body, &fb->cell[CELL_BODY]) != 0
             ? -1
             : 0;
done:
    hk_frame_free(stretch);
    hk_frame_free(body);
    return rc;
}

/* A triangle's stretch: the largest r/L0 of the unbroken springs at its
 * three corners (NaN when none of them has one). */
static double *triangle_stretch(const hk_world *w, const hk_geometry *m)
{
    const size_t n = (size_t)w->p.count;
    double *at = hk_frame_alloc(n * sizeof *at + 1), *ts = hk_frame_alloc((size_t)(m->tris + 1) * sizeof *ts);
    if (!at || !ts) {
        hk_frame_free(at);
        hk_frame_free(ts);
        errno = ENOMEM;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) at[i] = -INFINITY;
    for (int64_t l = 0; l < m->lines; l++)
        for (int e = 0; e < 2; e++) {
            double *s = &at[m->line[2 * l + e]];
            if (m->stretch[l] > *s) *s = m->stretch[l];
        }
    for (int64_t t = 0; t < m->tris; t++) {
        double s = -INFINITY;
        for (int c = 0; c < 3; c++) s = at[m->tri[3 * t + c]] > s ? at[m->tri[3 * t + c]] : s;
        ts[t] = s > -INFINITY ? s : NAN;
    }
    hk_frame_free(at);
    return ts;
}

int hk_vtk_write_frame(const char *path, const hk_world *w, const hk_geometry *m, char *failed, size_t failed_len)
{
    snprintf(failed, failed_len, "%s", path);
    const size_t len = strlen(path);
    if (len < 4 || strcmp(path + len - 4, ".vtp") != 0 || len + 16 > 4096) {
        errno = EINVAL;
        return -1;
    }
    frame_blobs fb;
    memset(&fb, 0, sizeof fb);
    int rc = -1;
    double *ts = triangle_stretch(w, m);
    if (!ts || point_blobs(w, m, &fb) != 0 || cell_data_blobs(w, m, ts, &fb) != 0 ||
        topology_blobs(w, m->lines, 2, m->line, fb.topo[0], &fb.wide[0]) != 0 ||
        topology_blobs(w, m->tris, 3, m->tri, fb.topo[1], &fb.wide[1]) != 0)
        goto done;
    const hk_vtk_array a[] = {
        {HK_VTK_POINT_DATA, "velocity", REAL_TYPE, 3, &fb.point[VELOCITY]},
        {HK_VTK_POINT_DATA, "force", REAL_TYPE, 3, &fb.point[FORCE]},
        {HK_VTK_POINT_DATA, "inv_mass", REAL_TYPE, 1, &fb.point[INV_MASS]},
        {HK_VTK_POINT_DATA, "body_id", "Int32", 1, &fb.point[POINT_BODY]},
        {HK_VTK_POINT_DATA, "contacts", "Int32", 1, &fb.point[CONTACTS]}, /* with colliders only: left out below */
        {HK_VTK_CELL_DATA, "stretch", "Float64", 1, &fb.cell[STRETCH]},
        {HK_VTK_CELL_DATA, "body_id", "Int32", 1, &fb.cell[CELL_BODY]},
        {HK_VTK_POINTS, "Points", "Float64", 3, &fb.point[POINTS]},
        {HK_VTK_LINES, "connectivity", "Int32", 1, &fb.topo[0][CONNECTIVITY]},
        {HK_VTK_LINES, "offsets", fb.wide[0] ? "Int64" : "Int32", 1, &fb.topo[0][OFFSETS]},
        {HK_VTK_POLYS, "connectivity", "Int32", 1, &fb.topo[1][CONNECTIVITY]},
        {HK_VTK_POLYS, "offsets", fb.wide[1] ? "Int64" : "Int32", 1, &fb.topo[1][OFFSETS]},
    };
    hk_vtk_array kept[sizeof a / sizeof a[0]];
    int count = 0;
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
        if (a[i].blob->data) kept[count++] = a[i];
    const hk_vtp_piece piece = {.time = hk_world_time(w),
                                .points = w->p.count,
                                .lines = m->lines,
                                .polys = m->tris,
                                .arrays = kept,
                                .count = count};
    rc = hk_vtp_write(path, &piece);
done:
    hk_frame_free(ts);
    blobs_free(&fb);
    return rc;
}

/* The colliders' surfaces of a frame as a PolyData of their own
 * (triangles, cell data collider_id); 0, or -1 with errno set. */
static int write_colliders(const char *path, const hk_world *w, const hk_geometry *m)
{
    hk_vtk_blob points = {0}, id = {0}, topo[NTOPO_ARRAYS] = {{0}};
    int wide, rc = -1;
    if (hk_vtk_compress(w, m->cpos, 3 * (uint64_t)m->cverts * sizeof *m->cpos, &points) != 0 ||
        hk_vtk_compress(w, m->ctri_collider, (uint64_t)m->ctris * sizeof *m->ctri_collider, &id) != 0 ||
        topology_blobs(w, m->ctris, 3, m->ctri, topo, &wide) != 0)
        goto done;
    const hk_vtk_array a[] = {
        {HK_VTK_CELL_DATA, "collider_id", "Int32", 1, &id},
        {HK_VTK_POINTS, "Points", "Float64", 3, &points},
        {HK_VTK_POLYS, "connectivity", "Int32", 1, &topo[CONNECTIVITY]},
        {HK_VTK_POLYS, "offsets", wide ? "Int64" : "Int32", 1, &topo[OFFSETS]},
    };
    const hk_vtp_piece piece = {.time = hk_world_time(w),
                                .points = m->cverts,
                                .polys = m->ctris,
                                .arrays = a,
                                .count = (int)(sizeof a / sizeof a[0])};
    rc = hk_vtp_write(path, &piece);
done:
    hk_vtk_blob_free(&points);
    hk_vtk_blob_free(&id);
    for (int i = 0; i < NTOPO_ARRAYS; i++) hk_vtk_blob_free(&topo[i]);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The vtk frame format: one .vtp per frame and frames.pvd, rewritten      */
/* after every frame so that an interrupted run still opens as one         */
/* animation. Every file goes through outfile.c (NAME.tmp, then rename),   */
/* the frame before frames.pvd: a kill at any moment leaves the previous   */
/* complete frames.pvd, whose frames are all whole.                        */

typedef struct vtk_series {
    int count, cap;
    double *times;
    char **files; /* .vtp names, relative to the folder */
    int *parts;   /* 0: a frame, 1: its colliders */
    int resumed;  /* the frames already in the folder have been looked for */
    char pvd[4200];
    char failed[4200]; /* the file a failed frame could not write */
} vtk_series;

static void vtk_series_free(void *state)
{
    vtk_series *fr = state;
    if (!fr) return;
    for (int i = 0; i < fr->count; i++) free(fr->files[i]);
    free(fr->files);
    free(fr->times);
    free(fr->parts);
    free(fr);
}

/* Appends a file to the collection (part 0 a frame, 1 its colliders); 0 or -1 (out of memory). */
static int push_frame(vtk_series *fr, const char *name, double time, int part)
{
    if (fr->count == fr->cap) {
        int cap = fr->cap ? 2 * fr->cap : 64;
        double *t = realloc(fr->times, (size_t)cap * sizeof *t);
        if (t) fr->times = t;
        char **f = realloc(fr->files, (size_t)cap * sizeof *f);
        if (f) fr->files = f;
        int *pa = realloc(fr->parts, (size_t)cap * sizeof *pa);
        if (pa) fr->parts = pa;
        if (!t || !f || !pa) return -1;
        fr->cap = cap;
    }
    if (!(fr->files[fr->count] = strdup(name))) return -1;
    fr->parts[fr->count] = part;
    fr->times[fr->count++] = time;
    return 0;
}

/* The file names of the parts: a frame, and its colliders. */
static const char *const part_prefix[2] = {"frame_", "colliders_"};

/* The step of a file name frame_<digits>.vtp, frame_<digits>.pvtp (a frame in pieces, one per rank) or
 * colliders_<digits>.vtp (the part in *part); -1 for any other name. */
static long long frame_step(const char *name, int *part)
{
    *part = strncmp(name, part_prefix[1], strlen(part_prefix[1])) == 0;
    if (strncmp(name, part_prefix[*part], strlen(part_prefix[*part])) != 0) return -1;
    const char *p = name + strlen(part_prefix[*part]);
    long long step = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 18; p++, digits++) step = 10 * step + (*p - '0');
    return digits >= 6 && (strcmp(p, ".vtp") == 0 || (!*part && strcmp(p, ".pvtp") == 0)) ? step : -1;
}

/* The TimeValue field data of a .vtp frame written by hooke (of a .pvtp, its first piece's); NAN if it cannot be
 * read. */
static double frame_time(const char *dir, const char *name)
{
    char path[4200];
    const size_t len = strlen(name);
    if (len > 5 && strcmp(name + len - 5, ".pvtp") == 0)
        snprintf(path, sizeof path, "%s/%.*s_p0.vtp", dir, (int)(len - 5), name);
    else
        snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = hk_out_kind(path) == 0 ? fopen(path, "rb") : NULL; /* a FIFO or device there holds no frame to read */
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
    int part;
    double time;
    char name[64];
} earlier;

static int by_step(const void *a, const void *b)
{
    const earlier *p = a, *q = b;
    if (p->step != q->step) return (p->step > q->step) - (p->step < q->step);
    return (p->part > q->part) - (p->part < q->part);
}

/* A restarted run (from a step > 0) writing into a folder that holds the frames of the run before: the collection
 * starts with those frame_<step>.vtp of an earlier step, their times read from them; the colliders' files from its
 * first step on are removed (frames.c removes the frames'). */
static int resume_frames(vtk_series *fr, const char *dir, long long first_step)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    earlier *e = NULL;
    int n = 0, cap = 0, rc = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        int part;
        const long long step = frame_step(ent->d_name, &part);
        char later[4200];
        if (part && step >= first_step &&
            (size_t)snprintf(later, sizeof later, "%s/%s", dir, ent->d_name) < sizeof later)
            unlink(later);
        if (step < 0 || step >= first_step || strlen(ent->d_name) >= sizeof e->name) continue;
        const double t = frame_time(dir, ent->d_name);
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
        e[n].part = part;
        e[n].time = t;
        memcpy(e[n].name, ent->d_name, strlen(ent->d_name) + 1);
        n++;
    }
    closedir(d);
    if (rc == 0 && n > 0) { /* qsort's array may not be NULL, even empty */
        qsort(e, (size_t)n, sizeof *e, by_step);
        for (int i = 0; i < n && rc == 0; i++) rc = push_frame(fr, e[i].name, e[i].time, e[i].part);
    }
    free(e);
    return rc;
}

static int write_series(hk_frame_series *s, vtk_series *fr, const char *path, const char stem[4096], const hk_world *w,
                        const hk_geometry *g);

/* One frame and the collection. When the run starts past step 0 (a
 * restart), the collection first lists the frame_<step>.vtp (or .pvtp)
 * already in the folder from earlier steps, times read from their
 * TimeValue, so frames.pvd covers the whole run. A world shared out over
 * ranks writes its frame in pieces, each rank its own (vtk_piece.h), tied
 * by rank 0's frame_<step>.pvtp, which the collection lists; the pieces are
 * whole before rank 0 writes it, and it is whole before frames.pvd names
 * it, so a kill leaves whole files of the last complete frame. */
static int write_vtk(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g)
{
    if (!s->state) {
        if (!(s->state = calloc(1, sizeof(vtk_series)))) return -1;
        s->free_state = vtk_series_free;
    }
    vtk_series *fr = s->state;
    const int shared = w->part && w->part->ranks > 1, rank0 = !shared || w->part->rank == 0;
    char stem[4096]; /* DIR/frame_<step>: shorter than the failed file's name by far (frames.c caps DIR) */
    if ((size_t)snprintf(stem, sizeof stem, "%.*s", (int)(strlen(path) - 4), path) >= sizeof stem) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (shared) {
        const int mine = hk_vtk_write_piece(stem, w, fr->failed, sizeof fr->failed) != 0, saved = errno;
        if (hk_part_any(w, mine)) { /* every rank's verdict */
            if (!mine && snprintf(fr->failed, sizeof fr->failed, "%.4095s.pvtp (another rank's piece)", stem) < 0)
                errno = EIO;
            s->failed = fr->failed;
            errno = mine ? saved : EIO;
            return -1;
        }
    } else if (hk_vtk_write_frame(path, w, g, fr->failed, sizeof fr->failed) != 0) {
        s->failed = fr->failed;
        return -1;
    }
    const int rc = rank0 ? write_series(s, fr, path, stem, w, g) : 0, saved = errno;
    if (shared && hk_part_any(w, rc != 0)) { /* rank 0's files: every rank's verdict */
        if (rc == 0 && snprintf(fr->failed, sizeof fr->failed, "%.4095s.pvtp (rank 0's)", stem) < 0) errno = EIO;
        s->failed = fr->failed;
        errno = rc ? saved : EIO;
        return -1;
    }
    return rc;
}

/* A frame's place in the collection (its .vtp, or the .pvtp of its pieces), the colliders beside it and
 * frames.pvd: rank 0's files. 0, or -1 with errno set and s->failed. */
static int write_series(hk_frame_series *s, vtk_series *fr, const char *path, const char stem[4096], const hk_world *w,
                        const hk_geometry *g)
{
    const int shared = w->part && w->part->ranks > 1;
    if (shared && hk_vtk_write_pvtp(stem, w, w->part->ranks) != 0) {
        const int saved = errno;
        if (snprintf(fr->failed, sizeof fr->failed, "%.4095s.pvtp", stem) < 0) errno = EIO;
        s->failed = fr->failed;
        errno = saved;
        return -1;
    }
    char listed[4200];
    if ((size_t)snprintf(listed, sizeof listed, "%s%s", stem, shared ? ".pvtp" : ".vtp") >= sizeof listed) {
        errno = ENAMETOOLONG;
        return -1;
    }
    path = listed;
    if (!fr->resumed) {
        fr->resumed = 1;
        if (s->first > 0 && resume_frames(fr, s->dir, (long long)s->first) != 0) {
            errno = ENOMEM;
            return -1;
        }
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (push_frame(fr, name, hk_world_time(w), 0) != 0) {
        errno = ENOMEM;
        return -1;
    }
    if (g->ctris > 0) { /* the colliders beside the frame: colliders_<step>.vtp, part 1 of the collection */
        const char *step = (strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem) + strlen(part_prefix[0]);
        if ((size_t)snprintf(fr->failed, sizeof fr->failed, "%.*s%s%s.vtp", (int)(name - path), path, part_prefix[1],
                             step) >= sizeof fr->failed) {
            errno = ENAMETOOLONG;
            return -1;
        }
        if (write_colliders(fr->failed, w, g) != 0) {
            s->failed = fr->failed;
            return -1;
        }
        if (push_frame(fr, strrchr(fr->failed, '/') ? strrchr(fr->failed, '/') + 1 : fr->failed, hk_world_time(w), 1)) {
            errno = ENOMEM;
            return -1;
        }
    }
    snprintf(fr->pvd, sizeof fr->pvd, "%s/frames.pvd", s->dir);
    if (hk_pvd_write(fr->pvd, fr->count, fr->times, fr->files, fr->parts) != 0) {
        s->failed = fr->pvd;
        return -1;
    }
    return 0;
}

const hk_frame_format hk_frame_format_vtk = {"vtk", "vtp",
                                             "ParaView: .vtp frames (springs as lines, surfaces as triangles; the "
                                             "colliders in colliders_<step>.vtp) and frames.pvd",
                                             write_vtk};
