/* vtk_piece.c — a distributed world's VTK frame: each rank's piece (its particles and the ghost points its cells
 * reach), and the .pvtp that ties the pieces together. */
/* SPDX-License-Identifier: MIT */
#include "vtk_piece.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faces.h"
#include "outfile.h"
#include "part.h"
#include "response.h"
#include "spring_vec.h"
#include "vtkxml.h"
#include "world.h"

#ifdef HOOKE_DOUBLE
#define REAL_TYPE "Float64"
#else
#define REAL_TYPE "Float32"
#endif

/* A piece being made: its points (storage indices: the rank's own particles, then the ghosts), its cells. */
typedef struct piece {
    const hk_world *w;
    int32_t *local; /* per storage index: its point in the piece, -1 none */
    int32_t *point; /* the points as storage indices */
    int64_t npoint, nown;
    int32_t *line, *line_body; /* 2 points per line */
    double *stretch;           /* per line, r / L0 */
    int64_t nline, capline;
    int32_t *tri, *tri_body; /* 3 points per triangle */
    int64_t ntri;
    double *at; /* per storage index: the largest r / L0 of the unbroken springs at it (-inf: none) */
    int oom;
} piece;

static void piece_free(piece *pc)
{
    free(pc->local);
    free(pc->point);
    free(pc->line);
    free(pc->line_body);
    free(pc->stretch);
    free(pc->tri);
    free(pc->tri_body);
    free(pc->at);
}

/* The piece's point of storage index i: a ghost added where it is not one yet. */
static int32_t point_of(piece *pc, int64_t i)
{
    if (pc->local[i] < 0) {
        pc->local[i] = (int32_t)pc->npoint;
        pc->point[pc->npoint++] = (int32_t)i;
    }
    return pc->local[i];
}

/* A spring's r / L0, as a whole frame has it (geometry.c). */
static double spring_stretch(const hk_family *f, const hk_particles *p, int64_t slot, int64_t a, int64_t b, hk_real L0)
{
    hk_real d[3];
    hk_spring_delta(f, p, slot, a, b, d);
    const double dx = d[0], dy = d[1], dz = d[2];
    return L0 > 0 ? sqrt(dx * dx + dy * dy + dz * dz) / (double)L0 : 1.0;
}

static void add_line(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *ctx)
{
    piece *pc = ctx;
    if (pc->oom || pc->nline >= pc->capline) {
        pc->oom = 1;
        return;
    }
    pc->line[2 * pc->nline] = point_of(pc, a);
    pc->line[2 * pc->nline + 1] = point_of(pc, b);
    pc->line_body[pc->nline] = f->body;
    pc->stretch[pc->nline++] = spring_stretch(f, &pc->w->p, slot, a, b, L0);
}

static void mark_stretch(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *ctx)
{
    piece *pc = ctx;
    const double s = spring_stretch(f, &pc->w->p, slot, a, b, L0);
    if (s > pc->at[a]) pc->at[a] = s;
    if (s > pc->at[b]) pc->at[b] = s;
}

/* The halo rows as their owners hold them now: positions, velocities and forces, each breakable lattice's broken
 * springs, and (at) the largest stretch at each particle. Every rank calls it. 0 or -1 (out of memory). */
static int bring_halo(const hk_world *w, piece *pc)
{
    hk_particles *p = (hk_particles *)&w->p;
    hk_real *const a[9] = {p->qx, p->qy, p->qz, p->vx, p->vy, p->vz, p->fx, p->fy, p->fz};
    hk_part_exchange_arrays(w, a, 9);
    double *flags = malloc((size_t)(p->count ? p->count : 1) * sizeof *flags);
    int failed = !flags;
    for (int fi = 0; fi < w->family_count; fi++) { /* every rank, each family alike: with room or not */
        hk_family *f = &w->families[fi];
        const hk_body *b = &w->bodies[f->body];
        if (f->kind != HK_FAMILY_LATTICE || !f->broken || w->part->body[f->body].owner >= 0) continue;
        const int64_t base = hk_body_base(b);
        for (int64_t l = f->lo; flags && l < f->hi; l++) flags[base + l] = f->broken[l];
        hk_part_exchange_doubles(w, flags ? flags : &(double){0});
        for (int64_t l = f->lo; flags && l < f->hi; l++) f->broken[l] = flags[base + l] != 0;
    }
    free(flags);
    for (int i = 0; pc->at && i < p->count; i++) pc->at[i] = -INFINITY;
    for (int fi = 0; pc->at && fi < w->family_count; fi++) hk_springs_visit(&w->families[fi], mark_stretch, pc);
    hk_part_exchange_doubles(w, pc->at ? pc->at : &(double){0}); /* a ghost corner's, from its owner */
    return failed || !pc->at ? -1 : 0;
}

/* The piece's cells: the springs whose source this rank computes, then the triangles whose first corner it does,
 * each with the points it reaches. 0 or -1 (out of memory). */
static int make_cells(const hk_world *w, piece *pc)
{
    int64_t tris = 0;
    for (int b = 0; b < w->body_count; b++) tris += hk_body_face_capacity(w, b);
    pc->capline = hk_world_spring_count(w);
    pc->line = malloc((size_t)(2 * pc->capline + 1) * sizeof *pc->line);
    pc->line_body = malloc((size_t)(pc->capline + 1) * sizeof *pc->line_body);
    pc->stretch = malloc((size_t)(pc->capline + 1) * sizeof *pc->stretch);
    pc->tri = malloc((size_t)(3 * tris + 1) * sizeof *pc->tri);
    pc->tri_body = malloc((size_t)(tris + 1) * sizeof *pc->tri_body);
    if (!pc->line || !pc->line_body || !pc->stretch || !pc->tri || !pc->tri_body) return -1;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        int64_t l0, l1;
        if (hk_part_owned(w, f->body, &l0, &l1)) hk_springs_visit_sources(f, l0, l1, add_line, pc);
    }
    for (int b = 0; b < w->body_count; b++) {
        int64_t l0, l1;
        if (!hk_part_owned(w, b, &l0, &l1)) continue;
        int32_t *t = pc->tri + 3 * pc->ntri;
        const int64_t n = hk_body_faces_from(w, b, l0, l1, t);
        for (int64_t k = 0; k < 3 * n; k++) t[k] = point_of(pc, t[k]);
        for (int64_t k = 0; k < n; k++) pc->tri_body[pc->ntri + k] = b;
        pc->ntri += n;
    }
    return pc->oom ? -1 : 0;
}

/* The compressed arrays of a piece, in the order of a whole frame's (vtk.c), then its ghost flags and ids. */
enum {
    VELOCITY,
    FORCE,
    INV_MASS,
    POINT_BODY,
    CONTACTS,
    GHOST,
    PARTICLE_ID,
    POINTS,
    STRETCH,
    CELL_BODY,
    LINE_CONN,
    LINE_OFF,
    TRI_CONN,
    TRI_OFF,
    BLOBS
};

/* The topology of n cells of k corners into conn and off blobs; 0 or -1. */
static int topology(const hk_world *w, const int32_t *cells, int64_t n, int k, hk_vtk_blob *conn, hk_vtk_blob *off,
                    int *wide)
{
    *wide = (int64_t)k * n > INT32_MAX;
    const size_t size = *wide ? 8 : 4;
    unsigned char *o = malloc((size_t)(n + 1) * size);
    if (!o) return -1;
    for (int64_t i = 0; i < n; i++) {
        const int64_t v = (int64_t)k * (i + 1);
        if (*wide)
            memcpy(o + 8 * i, &v, 8);
        else
            memcpy(o + 4 * i, &(int32_t){(int32_t)v}, 4);
    }
    const int rc = hk_vtk_compress(w, cells, (uint64_t)(k * n) * sizeof *cells, conn) != 0 ||
                           hk_vtk_compress(w, o, (uint64_t)n * size, off) != 0
                       ? -1
                       : 0;
    free(o);
    return rc;
}

/* The piece's arrays compressed into blob; 0 or -1 (errno set). */
static int piece_blobs(const hk_world *w, const piece *pc, int colliders, hk_vtk_blob *blob, int wide[2])
{
    const hk_particles *p = &w->p;
    const size_t n = (size_t)pc->npoint, cells = (size_t)(pc->nline + pc->ntri);
    hk_real *vec = malloc((3 * n + 1) * sizeof *vec);
    double *pos = malloc((3 * n + 1) * sizeof *pos), *stretch = malloc((cells + 1) * sizeof *stretch);
    int32_t *i32 = malloc((n > cells ? n : cells) * sizeof *i32 + 4), *count = NULL;
    unsigned char *ghost = malloc(n + 1);
    int rc = -1;
    if (!vec || !pos || !stretch || !i32 || !ghost) goto done;
    if (colliders && !(count = calloc((size_t)p->count + 1, sizeof *count))) goto done;
    if (colliders) (void)hk_contact_counts(w, count); /* a ghost's from its place now: its owner's count */
    const hk_real *const v[2][3] = {{p->vx, p->vy, p->vz}, {p->fx, p->fy, p->fz}};
    for (int a = 0; a < 2; a++) {
        for (size_t k = 0; k < n; k++)
            for (int c = 0; c < 3; c++) vec[3 * k + c] = v[a][c][pc->point[k]];
        if (hk_vtk_compress(w, vec, 3 * n * sizeof *vec, &blob[a == 0 ? VELOCITY : FORCE]) != 0) goto done;
    }
    for (size_t k = 0; k < n; k++) vec[k] = p->inv_mass[pc->point[k]];
    if (hk_vtk_compress(w, vec, n * sizeof *vec, &blob[INV_MASS]) != 0) goto done;
    for (size_t k = 0; k < n; k++) i32[k] = hk_body_of(w, pc->point[k]);
    if (hk_vtk_compress(w, i32, n * sizeof *i32, &blob[POINT_BODY]) != 0) goto done;
    if (colliders) {
        for (size_t k = 0; k < n; k++) i32[k] = count[pc->point[k]];
        if (hk_vtk_compress(w, i32, n * sizeof *i32, &blob[CONTACTS]) != 0) goto done;
    }
    for (size_t k = 0; k < n; k++) ghost[k] = k >= (size_t)pc->nown; /* vtkDataSetAttributes::DUPLICATEPOINT */
    if (hk_vtk_compress(w, ghost, n, &blob[GHOST]) != 0) goto done;
    for (size_t k = 0; k < n; k++) {
        const int i = pc->point[k];
        i32[k] = (int32_t)hk_global_index(&w->bodies[hk_body_of(w, i)], i);
    }
    if (hk_vtk_compress(w, i32, n * sizeof *i32, &blob[PARTICLE_ID]) != 0) goto done;
    for (size_t k = 0; k < n; k++) {
        const int i = pc->point[k];
        hk_particle_position(w, &w->bodies[hk_body_of(w, i)], i, pos + 3 * k);
    }
    if (hk_vtk_compress(w, pos, 3 * n * sizeof *pos, &blob[POINTS]) != 0) goto done;
    /* cell data: the lines', then the triangles' (the largest stretch at their corners; NaN where none) */
    if (pc->nline) memcpy(stretch, pc->stretch, (size_t)pc->nline * sizeof *stretch);
    for (int64_t t = 0; t < pc->ntri; t++) {
        double s = -INFINITY;
        for (int c = 0; c < 3; c++) s = fmax(s, pc->at[pc->point[pc->tri[3 * t + c]]]);
        stretch[pc->nline + t] = s > -INFINITY ? s : NAN;
    }
    if (hk_vtk_compress(w, stretch, cells * sizeof *stretch, &blob[STRETCH]) != 0) goto done;
    if (pc->nline) memcpy(i32, pc->line_body, (size_t)pc->nline * sizeof *i32);
    if (pc->ntri) memcpy(i32 + pc->nline, pc->tri_body, (size_t)pc->ntri * sizeof *i32);
    if (hk_vtk_compress(w, i32, cells * sizeof *i32, &blob[CELL_BODY]) != 0) goto done;
    if (topology(w, pc->line, pc->nline, 2, &blob[LINE_CONN], &blob[LINE_OFF], &wide[0]) != 0 ||
        topology(w, pc->tri, pc->ntri, 3, &blob[TRI_CONN], &blob[TRI_OFF], &wide[1]) != 0)
        goto done;
    rc = 0;
done:
    if (rc) errno = ENOMEM;
    free(vec);
    free(pos);
    free(stretch);
    free(i32);
    free(ghost);
    free(count);
    return rc;
}

int hk_vtk_write_piece(const char *stem, const hk_world *w, char *failed, size_t failed_len)
{
    const int rank = w->part->rank;
    snprintf(failed, failed_len, "%s_p%d.vtp", stem, rank);
    const hk_particles *p = &w->p;
    piece pc = {.w = w};
    pc.local = malloc((size_t)(p->count ? p->count : 1) * sizeof *pc.local);
    pc.point = malloc((size_t)(p->count ? p->count : 1) * sizeof *pc.point);
    pc.at = malloc((size_t)(p->count ? p->count : 1) * sizeof *pc.at);
    int rc = bring_halo(w, &pc); /* every rank, with room or not */
    hk_vtk_blob blob[BLOBS];
    memset(blob, 0, sizeof blob);
    int wide[2] = {0, 0};
    const int colliders = hk_world_collider_count(w) > 0;
    if (rc == 0 && pc.local && pc.point) {
        for (int i = 0; i < p->count; i++) pc.local[i] = -1;
        int one[2];
        const int *span, spans = hk_world_spans(w, one, &span);
        for (int s = 0; s < spans; s++)
            for (int i = span[2 * s]; i < span[2 * s + 1]; i++) point_of(&pc, i);
        pc.nown = pc.npoint;
        rc = make_cells(w, &pc) != 0 || piece_blobs(w, &pc, colliders, blob, wide) != 0 ? -1 : 0;
    } else {
        rc = -1;
    }
    if (rc == 0) {
        const hk_vtk_array a[] = {
            {HK_VTK_POINT_DATA, "velocity", REAL_TYPE, 3, &blob[VELOCITY]},
            {HK_VTK_POINT_DATA, "force", REAL_TYPE, 3, &blob[FORCE]},
            {HK_VTK_POINT_DATA, "inv_mass", REAL_TYPE, 1, &blob[INV_MASS]},
            {HK_VTK_POINT_DATA, "body_id", "Int32", 1, &blob[POINT_BODY]},
            {HK_VTK_POINT_DATA, "contacts", "Int32", 1, &blob[CONTACTS]}, /* with colliders only: left out below */
            {HK_VTK_POINT_DATA, "vtkGhostType", "UInt8", 1, &blob[GHOST]},
            {HK_VTK_POINT_DATA, "particle_id", "Int32", 1, &blob[PARTICLE_ID]},
            {HK_VTK_CELL_DATA, "stretch", "Float64", 1, &blob[STRETCH]},
            {HK_VTK_CELL_DATA, "body_id", "Int32", 1, &blob[CELL_BODY]},
            {HK_VTK_POINTS, "Points", "Float64", 3, &blob[POINTS]},
            {HK_VTK_LINES, "connectivity", "Int32", 1, &blob[LINE_CONN]},
            {HK_VTK_LINES, "offsets", wide[0] ? "Int64" : "Int32", 1, &blob[LINE_OFF]},
            {HK_VTK_POLYS, "connectivity", "Int32", 1, &blob[TRI_CONN]},
            {HK_VTK_POLYS, "offsets", wide[1] ? "Int64" : "Int32", 1, &blob[TRI_OFF]},
        };
        hk_vtk_array kept[sizeof a / sizeof a[0]];
        int count = 0;
        for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
            if (a[i].blob->data) kept[count++] = a[i];
        const hk_vtp_piece vp = {.time = hk_world_time(w),
                                 .points = pc.npoint,
                                 .lines = pc.nline,
                                 .polys = pc.ntri,
                                 .arrays = kept,
                                 .count = count};
        rc = hk_vtp_write(failed, &vp);
    } else {
        errno = ENOMEM;
    }
    for (int i = 0; i < BLOBS; i++) hk_vtk_blob_free(&blob[i]);
    piece_free(&pc);
    return rc;
}

int hk_vtk_write_pvtp(const char *stem, const hk_world *w, int ranks)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.pvtp", stem);
    const char *name = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem; /* the pieces beside it */
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    if (!f) return -1;
    fprintf(f, "<?xml version=\"1.0\"?>\n"
               "<VTKFile type=\"PPolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
               "  <PPolyData GhostLevel=\"1\">\n"
               "    <PPointData Vectors=\"velocity\">\n"
               "      <PDataArray type=\"" REAL_TYPE "\" Name=\"velocity\" NumberOfComponents=\"3\"/>\n"
               "      <PDataArray type=\"" REAL_TYPE "\" Name=\"force\" NumberOfComponents=\"3\"/>\n"
               "      <PDataArray type=\"" REAL_TYPE "\" Name=\"inv_mass\" NumberOfComponents=\"1\"/>\n"
               "      <PDataArray type=\"Int32\" Name=\"body_id\" NumberOfComponents=\"1\"/>\n");
    if (hk_world_collider_count(w) > 0)
        fprintf(f, "      <PDataArray type=\"Int32\" Name=\"contacts\" NumberOfComponents=\"1\"/>\n");
    fprintf(f, "      <PDataArray type=\"UInt8\" Name=\"vtkGhostType\" NumberOfComponents=\"1\"/>\n"
               "      <PDataArray type=\"Int32\" Name=\"particle_id\" NumberOfComponents=\"1\"/>\n"
               "    </PPointData>\n"
               "    <PCellData Scalars=\"stretch\">\n"
               "      <PDataArray type=\"Float64\" Name=\"stretch\" NumberOfComponents=\"1\"/>\n"
               "      <PDataArray type=\"Int32\" Name=\"body_id\" NumberOfComponents=\"1\"/>\n"
               "    </PCellData>\n"
               "    <PPoints>\n"
               "      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
               "    </PPoints>\n");
    for (int r = 0; r < ranks; r++) fprintf(f, "    <Piece Source=\"%s_p%d.vtp\"/>\n", name, r);
    fprintf(f, "  </PPolyData>\n</VTKFile>\n");
    return hk_out_close(&o, 1);
}
