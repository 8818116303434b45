/* mesh.h — closed triangle meshes: storage, validation, volume, icosphere and the helpers the file readers (io/mesh/) share. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_MESH_H
#define HOOKE_MESH_H

#include <stddef.h>

#include "hooke/hooke.h"

/* Faces per volume block: each block is summed in double by one thread, the
 * blocks in block order (bit-identical for any thread count). */
#define HK_FACE_BLOCK 256

/* Gauss-divergence and signed-tetrahedron volume terms of one triangle (p1,
 * p2, p3 counter-clockwise from outside), in double. */
static inline double hk_face_volume(hk_volume_method method, const double p1[3], const double p2[3], const double p3[3])
{
    if (method == HK_VOLUME_TETRA) /* p1 . (p2 x p3) / 6 */
        return (p1[0] * (p2[1] * p3[2] - p2[2] * p3[1]) + p1[1] * (p2[2] * p3[0] - p2[0] * p3[2]) +
                p1[2] * (p2[0] * p3[1] - p2[1] * p3[0])) /
               6.0;
    /* x_mean n_x A with n A = N / 2, N = (p2 - p1) x (p3 - p1) */
    const double nx = (p2[1] - p1[1]) * (p3[2] - p1[2]) - (p2[2] - p1[2]) * (p3[1] - p1[1]);
    return (p1[0] + p2[0] + p3[0]) / 3.0 * nx * 0.5;
}

/* Loader helpers (mesh.c): a mesh under construction. */
int hk_mesh_push_vertex(hk_mesh *m, int *cap, hk_vec3 v);
int hk_mesh_push_face(hk_mesh *m, int *cap, int a, int b, int c, int line);
/* Formats "NAME:LINE: error: ..." (line 0: "NAME: error: ...") into err; returns -1. */
int hk_mesh_error(char *err, size_t errlen, const char *name, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
