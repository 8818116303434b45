/* mesh.h — closed triangle meshes: storage, validation, the icosphere and the file readers' helpers. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_MESH_H
#define HOOKE_MESH_H

#include <stddef.h>

#include "face_force.h" /* hk_face_volume */
#include "hooke/hooke.h"

/* Faces per volume block: each block is summed in double by one thread, the
 * blocks in block order (bit-identical for any thread count). */
#define HK_FACE_BLOCK 256

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
