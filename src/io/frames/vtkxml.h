/* vtkxml.h — VTK XML PolyData with zlib-compressed appended arrays, and the .pvd collection around them. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_VTKXML_H
#define HOOKE_VTKXML_H

#include <stdint.h>

#include "world.h"

/* One data array compressed as the VTK XML format stores it with
 * compressor="vtkZLibDataCompressor" and header_type="UInt64": a header of
 * UInt64 values [number of blocks, bytes per block, bytes in the last
 * block when it is partial (else 0), compressed bytes of each block], then
 * each block deflated on its own (zlib stream) and stored back to back.
 * Blocks are HK_VTK_BLOCK bytes of the raw array (the last may be
 * shorter); the header and data are little-endian. The bytes do not depend
 * on the number of threads that compressed them. */
typedef struct hk_vtk_blob {
    unsigned char *data;
    uint64_t size; /* [bytes] header and blocks */
} hk_vtk_blob;

#define HK_VTK_BLOCK 32768 /* [bytes] raw bytes per compressed block, as VTK's own writer uses */
#define HK_VTK_ZLEVEL 1    /* zlib level: docs/performance-notes.md, "Compressed VTK frames" */

/* Compresses bytes of data into *out, the blocks in parallel on w's team
 * (world.h hk_team_for). 0, or -1 with errno set (ENOMEM). */
int hk_vtk_compress(const hk_world *w, const void *data, uint64_t bytes, hk_vtk_blob *out);
void hk_vtk_blob_free(hk_vtk_blob *b);

/* Where an array goes in a PolyData piece. */
typedef enum hk_vtk_section {
    HK_VTK_POINT_DATA,
    HK_VTK_CELL_DATA,
    HK_VTK_POINTS,
    HK_VTK_LINES,
    HK_VTK_POLYS,
    HK_VTK_SECTIONS
} hk_vtk_section;

/* One DataArray: its section, Name, type ("Float32", "Float64", "Int32",
 * "Int64"), NumberOfComponents and compressed data. */
typedef struct hk_vtk_array {
    hk_vtk_section section;
    const char *name, *type;
    int components;
    const hk_vtk_blob *blob;
} hk_vtk_array;

/* One PolyData file with a single piece: the field data TimeValue [s],
 * the counts, and the arrays (in each section, in the order given; the
 * first PointData array is its active Vectors, the first CellData array
 * its active Scalars). Written whole (outfile.c). 0, or -1 with errno set. */
typedef struct hk_vtp_piece {
    double time;
    int64_t points, lines, polys;
    const hk_vtk_array *arrays;
    int count;
} hk_vtp_piece;
int hk_vtp_write(const char *path, const hk_vtp_piece *piece);

/* A Collection (.pvd): one DataSet per file, timestep = times[i] [s], part
 * parts[i] (NULL: all 0); file names relative to the .pvd's folder. 0, or
 * -1 with errno set. */
int hk_pvd_write(const char *path, int count, const double *times, char *const *files, const int *parts);

#endif
