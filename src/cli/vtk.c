/* vtk.c — writes frames as VTK XML PolyData with raw appended binary data, and the .pvd time series. */
#include "vtk.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    hk_real *pts = malloc(3 * n * sizeof *pts + 1), *vel = malloc(3 * n * sizeof *vel + 1),
            *frc = malloc(3 * n * sizeof *frc + 1);
    int64_t *lconn = malloc((size_t)(2 * m->lines + 1) * 8), *loff = malloc((size_t)(m->lines + 1) * 8);
    int64_t *pconn = malloc((size_t)(3 * m->tris + 1) * 8), *poff = malloc((size_t)(m->tris + 1) * 8);
    double *stretch = malloc((size_t)(ncells + 1) * sizeof(double));
    int32_t *kind = malloc((size_t)(ncells + 1) * sizeof(int32_t));
    int rc = -1;
    FILE *f = NULL;
    if (!pts || !vel || !frc || !lconn || !loff || !pconn || !poff || !stretch || !kind) {
        errno = ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        pts[3 * i] = p->x[i], pts[3 * i + 1] = p->y[i], pts[3 * i + 2] = p->z[i];
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
        {pts, 3 * n * sizeof(hk_real)},       {vel, 3 * n * sizeof(hk_real)},        {frc, 3 * n * sizeof(hk_real)},
        {p->inv_mass, n * sizeof(hk_real)},   {lconn, (uint64_t)(2 * m->lines) * 8}, {loff, (uint64_t)m->lines * 8},
        {pconn, (uint64_t)(3 * m->tris) * 8}, {poff, (uint64_t)m->tris * 8},         {stretch, (uint64_t)ncells * 8},
        {kind, (uint64_t)ncells * 4},
    };
    f = fopen(path, "wb");
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
            "        <DataArray type=\"" REAL_TYPE
            "\" Name=\"Points\" NumberOfComponents=\"3\" format=\"appended\" offset=\"%llu\"/>\n"
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
    rc = ferror(f) ? -1 : 0;
done:
    if (f && fclose(f) != 0) rc = -1;
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
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
               "  <Collection>\n");
    for (int i = 0; i < frames; i++)
        fprintf(f, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n", times[i], files[i]);
    fprintf(f, "  </Collection>\n</VTKFile>\n");
    int rc = ferror(f) ? -1 : 0;
    if (fclose(f) != 0) rc = -1;
    return rc;
}
