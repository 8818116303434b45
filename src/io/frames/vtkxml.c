/* vtkxml.c — VTK XML PolyData with zlib-compressed appended arrays, and collection (.pvd) files. */
/* SPDX-License-Identifier: MIT */
#include "vtkxml.h"

#include "frame_mem.h"
#include "outfile.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

_Static_assert(HK_VTK_BLOCK <= (1u << 30), "a block's bound fits zlib's uLong on every platform");

/* Stores v as 8 little-endian bytes. */
static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* The blocks of one array, each deflated into its own slot of scratch. */
typedef struct deflate_pass {
    const unsigned char *src;
    uint64_t bytes, bound;
    unsigned char *scratch;
    uLongf *zsize;
    atomic_int failed;
} deflate_pass;

static void deflate_blocks(void *ctx, int64_t b0, int64_t b1)
{
    deflate_pass *d = ctx;
    for (int64_t b = b0; b < b1; b++) {
        const uint64_t at = (uint64_t)b * HK_VTK_BLOCK, n = d->bytes - at < HK_VTK_BLOCK ? d->bytes - at : HK_VTK_BLOCK;
        d->zsize[b] = (uLongf)d->bound;
        if (compress2(d->scratch + (uint64_t)b * d->bound, &d->zsize[b], d->src + at, (uLong)n, HK_VTK_ZLEVEL) != Z_OK)
            atomic_store_explicit(&d->failed, 1, memory_order_relaxed);
    }
}

int hk_vtk_compress(const hk_world *w, const void *data, uint64_t bytes, hk_vtk_blob *out)
{
    out->data = NULL;
    out->size = 0;
    const int64_t blocks = (int64_t)((bytes + HK_VTK_BLOCK - 1) / HK_VTK_BLOCK);
    const uint64_t head = 8 * (3 + (uint64_t)blocks), bound = compressBound(HK_VTK_BLOCK);
    /* every block deflated into its own slot of the scratch buffer, in parallel; then packed */
    unsigned char *scratch = blocks ? hk_frame_alloc((size_t)(blocks * (int64_t)bound)) : NULL;
    uLongf *zsize = malloc((size_t)(blocks + 1) * sizeof *zsize);
    if ((blocks && !scratch) || !zsize) {
        hk_frame_free(scratch);
        free(zsize);
        errno = ENOMEM;
        return -1;
    }
    deflate_pass d = {.src = data, .bytes = bytes, .bound = bound, .scratch = scratch, .zsize = zsize};
    atomic_init(&d.failed, 0);
    hk_team_for(w, hk_world_team(w), blocks, deflate_blocks, &d); /* the world's team: its threads or its host's pool */
    const int failed = atomic_load(&d.failed);
    uint64_t total = head;
    for (int64_t b = 0; b < blocks; b++) total += zsize[b];
    /* compress2 fails only when out of memory: every slot is compressBound large */
    if (failed || !(out->data = hk_frame_alloc((size_t)total))) {
        hk_frame_free(scratch);
        free(zsize);
        errno = ENOMEM;
        return -1;
    }
    put_u64(out->data, (uint64_t)blocks);
    put_u64(out->data + 8, HK_VTK_BLOCK);
    put_u64(out->data + 16, bytes % HK_VTK_BLOCK);
    uint64_t at = head;
    for (int64_t b = 0; b < blocks; b++) {
        put_u64(out->data + 24 + 8 * b, zsize[b]);
        memcpy(out->data + at, scratch + (uint64_t)b * bound, zsize[b]);
        at += zsize[b];
    }
    out->size = at;
    hk_frame_free(scratch);
    free(zsize);
    return 0;
}

void hk_vtk_blob_free(hk_vtk_blob *b)
{
    hk_frame_free(b->data);
    b->data = NULL;
    b->size = 0;
}

static const char *const section_tag[HK_VTK_SECTIONS] = {"PointData", "CellData", "Points", "Lines", "Polys"};

int hk_vtp_write(const char *path, const hk_vtp_piece *pc)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "wb");
    if (!f) return -1;
    fprintf(
        f,
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\" "
        "compressor=\"vtkZLibDataCompressor\">\n"
        "  <PolyData>\n"
        "    <FieldData>\n"
        "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">%.17g</DataArray>\n"
        "    </FieldData>\n"
        "    <Piece NumberOfPoints=\"%lld\" NumberOfVerts=\"0\" NumberOfLines=\"%lld\" NumberOfStrips=\"0\" "
        "NumberOfPolys=\"%lld\">\n",
        pc->time, (long long)pc->points, (long long)pc->lines, (long long)pc->polys);
    /* the appended blocks go in the order the elements are listed */
    uint64_t offset = 0;
    const hk_vtk_array **order = malloc((size_t)(pc->count + 1) * sizeof *order);
    if (!order) {
        errno = ENOMEM;
        return hk_out_close(&o, 0);
    }
    int listed = 0;
    for (int s = 0; s < HK_VTK_SECTIONS; s++) {
        int first = 1;
        for (int i = 0; i < pc->count; i++) {
            const hk_vtk_array *a = &pc->arrays[i];
            if (a->section != (hk_vtk_section)s) continue;
            if (first) {
                fprintf(f, "      <%s", section_tag[s]);
                if (s == HK_VTK_POINT_DATA) fprintf(f, " Vectors=\"%s\"", a->name);
                if (s == HK_VTK_CELL_DATA) fprintf(f, " Scalars=\"%s\"", a->name);
                fprintf(f, ">\n");
                first = 0;
            }
            fprintf(f,
                    "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"appended\" "
                    "offset=\"%llu\"/>\n",
                    a->type, a->name, a->components, (unsigned long long)offset);
            offset += a->blob->size;
            order[listed++] = a;
        }
        if (!first) fprintf(f, "      </%s>\n", section_tag[s]);
    }
    fprintf(f, "    </Piece>\n  </PolyData>\n  <AppendedData encoding=\"raw\">\n   _");
    for (int i = 0; i < listed; i++)
        if (order[i]->blob->size) fwrite(order[i]->blob->data, 1, (size_t)order[i]->blob->size, f);
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    free(order);
    return hk_out_close(&o, 1);
}

int hk_pvd_write(const char *path, int count, const double *times, char *const *files, const int *parts)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    if (!f) return -1;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
               "  <Collection>\n");
    for (int i = 0; i < count; i++)
        fprintf(f, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"%d\" file=\"%s\"/>\n", times[i],
                parts ? parts[i] : 0, files[i]);
    fprintf(f, "  </Collection>\n</VTKFile>\n");
    return hk_out_close(&o, 1);
}
