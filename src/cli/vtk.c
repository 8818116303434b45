/* vtk.c — writes frames as VTK XML PolyData with raw appended binary data, and the .pvd time series. */
#define _POSIX_C_SOURCE 200809L
#include "vtk.h"

#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "world.h"

#ifdef HOOKE_DOUBLE
#define REAL_TYPE "Float64"
#else
#define REAL_TYPE "Float32"
#endif

typedef struct block {
    const void *data;
    uint64_t bytes;
} block;

/* Appended-data offsets: each block is a UInt64 byte count, then the bytes. */
static uint64_t offset_of(const block *b, int i)
{
    uint64_t off = 0;
    for (int k = 0; k < i; k++) off += 8 + b[k].bytes;
    return off;
}

int hk_vtk_write_frame(const char *path, const hk_world *w, const hk_geometry *m)
{
    const hk_particles *p = &w->p;
    const size_t n = (size_t)p->count;
    const int64_t ncells = m->lines + m->tris;
    double *pts = malloc(3 * n * sizeof *pts + 1);
    hk_real *vel = malloc(3 * n * sizeof *vel + 1), *frc = malloc(3 * n * sizeof *frc + 1);
    int64_t *lconn = malloc((size_t)(2 * m->lines + 1) * 8), *loff = malloc((size_t)(m->lines + 1) * 8);
    int64_t *pconn = malloc((size_t)(3 * m->tris + 1) * 8), *poff = malloc((size_t)(m->tris + 1) * 8);
    double *stretch = malloc((size_t)(ncells + 1) * sizeof(double));
    int32_t *kind = malloc((size_t)(ncells + 1) * sizeof(int32_t));
    int rc = -1;
    FILE *f = NULL;
    hk_outfile o;
    if (!pts || !vel || !frc || !lconn || !loff || !pconn || !poff || !stretch || !kind) {
        errno = ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        pts[3 * i] = m->pos[3 * i], pts[3 * i + 1] = m->pos[3 * i + 1], pts[3 * i + 2] = m->pos[3 * i + 2];
        vel[3 * i] = p->vx[i], vel[3 * i + 1] = p->vy[i], vel[3 * i + 2] = p->vz[i];
        frc[3 * i] = p->fx[i], frc[3 * i + 1] = p->fy[i], frc[3 * i + 2] = p->fz[i];
    }
    for (int64_t l = 0; l < m->lines; l++) {
        lconn[2 * l] = m->line[2 * l];
        lconn[2 * l + 1] = m->line[2 * l + 1];
        loff[l] = 2 * (l + 1);
        stretch[l] = m->stretch[l];
        kind[l] = 1;
    }
    for (int64_t t = 0; t < m->tris; t++) {
        for (int c = 0; c < 3; c++) pconn[3 * t + c] = m->tri[3 * t + c];
        poff[t] = 3 * (t + 1);
        stretch[m->lines + t] = NAN;
        kind[m->lines + t] = 2;
    }
    const block b[] = {
        {pts, 3 * n * sizeof(double)},        {vel, 3 * n * sizeof(hk_real)},        {frc, 3 * n * sizeof(hk_real)},
        {p->inv_mass, n * sizeof(hk_real)},   {lconn, (uint64_t)(2 * m->lines) * 8}, {loff, (uint64_t)m->lines * 8},
        {pconn, (uint64_t)(3 * m->tris) * 8}, {poff, (uint64_t)m->tris * 8},         {stretch, (uint64_t)ncells * 8},
        {kind, (uint64_t)ncells * 4},
    };
    f = hk_out_open(&o, path, "wb");
    if (!f) goto done;
    fprintf(
        f,
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
        "  <PolyData>\n"
        "    <FieldData>\n"
        "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">%.17g</DataArray>\n"
        "    </FieldData>\n"
        "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"0\" NumberOfLines=\"%lld\" NumberOfStrips=\"0\" "
        "NumberOfPolys=\"%lld\">\n",
        hk_world_time(w), n, (long long)m->lines, (long long)m->tris);
    fprintf(f,
            "      <PointData Vectors=\"velocity\">\n"
            "        <DataArray type=\"" REAL_TYPE
            "\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"appended\" offset=\"%llu\"/>\n"
            "        <DataArray type=\"" REAL_TYPE
            "\" Name=\"force\" NumberOfComponents=\"3\" format=\"appended\" offset=\"%llu\"/>\n"
            "        <DataArray type=\"" REAL_TYPE
            "\" Name=\"inv_mass\" NumberOfComponents=\"1\" format=\"appended\" offset=\"%llu\"/>\n"
            "      </PointData>\n"
            "      <CellData Scalars=\"stretch\">\n"
            "        <DataArray type=\"Float64\" Name=\"stretch\" NumberOfComponents=\"1\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "        <DataArray type=\"Int32\" Name=\"cell_kind\" NumberOfComponents=\"1\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "      </CellData>\n"
            "      <Points>\n"
            "        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "      </Points>\n"
            "      <Lines>\n"
            "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"appended\" offset=\"%llu\"/>\n"
            "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" offset=\"%llu\"/>\n"
            "      </Lines>\n"
            "      <Polys>\n"
            "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"appended\" offset=\"%llu\"/>\n"
            "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" offset=\"%llu\"/>\n"
            "      </Polys>\n"
            "    </Piece>\n"
            "  </PolyData>\n"
            "  <AppendedData encoding=\"raw\">\n   _",
            (unsigned long long)offset_of(b, 1), (unsigned long long)offset_of(b, 2),
            (unsigned long long)offset_of(b, 3), (unsigned long long)offset_of(b, 8),
            (unsigned long long)offset_of(b, 9), (unsigned long long)offset_of(b, 0),
            (unsigned long long)offset_of(b, 4), (unsigned long long)offset_of(b, 5),
            (unsigned long long)offset_of(b, 6), (unsigned long long)offset_of(b, 7));
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        fwrite(&b[i].bytes, 8, 1, f);
        if (b[i].bytes) fwrite(b[i].data, 1, (size_t)b[i].bytes, f);
    }
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    rc = hk_out_close(&o, 1);
done:
    free(pts);
    free(vel);
    free(frc);
    free(lconn);
    free(loff);
    free(pconn);
    free(poff);
    free(stretch);
    free(kind);
    return rc;
}

int hk_vtk_write_pvd(const char *path, int frames, const double *times, char *const *files)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    if (!f) return -1;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
               "  <Collection>\n");
    for (int i = 0; i < frames; i++)
        fprintf(f, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n", times[i], files[i]);
    fprintf(f, "  </Collection>\n</VTKFile>\n");
    return hk_out_close(&o, 1);
}

/* ------------------------------------------------------------------------ */
/* The vtk frame format: .vtp frames and frames.pvd, rewritten after every  */
/* frame so that an interrupted run still opens as one animation. Every     */
/* file goes through outfile.c (NAME.tmp, then rename): a kill at any      */
/* moment leaves the previous complete frames.pvd.                          */

typedef struct vtk_series {
    int count, cap;
    double *times;
    char **files; /* .vtp names, relative to the folder */
    int resumed;  /* the frames already in the folder have been looked for */
    char pvd[4200];
} vtk_series;

static void vtk_series_free(void *state)
{
    vtk_series *fr = state;
    if (!fr) return;
    for (int i = 0; i < fr->count; i++) free(fr->files[i]);
    free(fr->files);
    free(fr->times);
    free(fr);
}

/* Appends a frame to the collection; 0 or -1 (out of memory). */
static int push_frame(vtk_series *fr, const char *name, double time)
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
static int resume_frames(vtk_series *fr, const char *dir, long long first_step)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    earlier *e = NULL;
    int n = 0, cap = 0, rc = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        const long long step = frame_step(ent->d_name);
        if (step < 0 || step >= first_step || strlen(ent->d_name) >= sizeof e->name) continue;
        char path[4096 + sizeof ent->d_name + 2];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
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

/* One frame and the collection. When the first frame written is past step 0
 * (a restart), the collection first lists the frame_<step>.vtp already in the
 * folder from earlier steps, times read from their TimeValue, so frames.pvd
 * covers the whole run. */
static int write_vtk(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g)
{
    if (!s->state) {
        if (!(s->state = calloc(1, sizeof(vtk_series)))) return -1;
        s->free_state = vtk_series_free;
    }
    vtk_series *fr = s->state;
    if (hk_vtk_write_frame(path, w, g) != 0) return -1;
    const long long step = (long long)hk_world_step_count(w);
    if (!fr->resumed) {
        fr->resumed = 1;
        if (step > 0 && resume_frames(fr, s->dir, step) != 0) {
            errno = ENOMEM;
            return -1;
        }
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (push_frame(fr, name, hk_world_time(w)) != 0) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(fr->pvd, sizeof fr->pvd, "%s/frames.pvd", s->dir);
    if (hk_vtk_write_pvd(fr->pvd, fr->count, fr->times, fr->files) != 0) {
        s->failed = fr->pvd;
        return -1;
    }
    return 0;
}

const hk_frame_format hk_frame_format_vtk = {"vtk", "vtp", "VTK XML PolyData frames and frames.pvd (ParaView)",
                                             write_vtk};
