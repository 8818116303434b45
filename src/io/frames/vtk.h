/* vtk.h — VTK XML frames for ParaView: per frame one .vtp (springs as lines, surfaces as triangles), and the .pvd. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_VTK_H
#define HOOKE_VTK_H

#include <stddef.h>

#include "geometry.h"
#include "hooke/hooke.h"

/* One frame at path DIR/NAME.vtp: one PolyData whose lines are the
 * unbroken springs and whose polys are the surface triangles. Every
 * particle is a point, stored once, point i being particle i, its position
 * in Float64 (the world position, body origin plus local), with point data
 * "velocity" [m/s], "force" [N] and "inv_mass" [1/kg] as the build's
 * floating type holds them (Float32, or Float64 in a double build) and
 * "body_id" (Int32, the body's index in the scene, from 0). Cell data,
 * over the lines first and then the triangles (VTK's order of a PolyData's
 * cells): "stretch" (Float64: a spring's r/L0; a triangle's, the largest
 * r/L0 of the unbroken springs at its corners, NaN when there is none) and
 * "body_id" (Int32). Field data TimeValue [s]. Arrays are zlib-compressed
 * appended raw binary (vtkxml.h). Returns 0, or -1 with errno set and the
 * path of the file that could not be written in failed. */
int hk_vtk_write_frame(const char *path, const hk_world *w, const hk_geometry *m, char *failed, size_t failed_len);

#endif
