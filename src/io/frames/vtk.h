/* vtk.h — VTK XML frames for ParaView: per frame a .vtm of a springs and a surfaces block, and the .pvd series. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_VTK_H
#define HOOKE_VTK_H

#include <stddef.h>

#include "geometry.h"
#include "hooke/hooke.h"

/* One frame at path DIR/NAME.vtm: the blocks DIR/NAME_springs.vtp (the
 * unbroken springs as lines) and DIR/NAME_surfaces.vtp (the surface
 * triangles as polys), then the .vtm that names them (block 0 "springs",
 * block 1 "surfaces"). Both blocks hold every particle as a point, point i
 * being particle i, positions as the build's floating type holds them
 * (Float32, or Float64 in a double build), with point data "velocity"
 * [m/s], "force" [N], "inv_mass" [1/kg] and "body_id" (Int32, the body's
 * index in the scene, from 0); and cell data "stretch" (Float64: a
 * spring's r/L0; a triangle's, the largest r/L0 of the unbroken springs at
 * its corners, NaN when there is none) and "body_id" (Int32). Field data
 * TimeValue [s]. Arrays are zlib-compressed appended raw binary
 * (vtkxml.h). Returns 0, or -1 with errno set and the path of the file
 * that could not be written in failed. */
int hk_vtk_write_frame(const char *path, const hk_world *w, const hk_geometry *m, char *failed, size_t failed_len);

#endif
