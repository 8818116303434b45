/* vtk.h — VTK XML PolyData frames (.vtp, raw appended binary) and the .pvd collection that makes them one animation. */
#ifndef HOOKE_VTK_H
#define HOOKE_VTK_H

#include "hooke/hooke.h"
#include "geometry.h"

/* One frame: particles as points (point data "velocity" [m/s], "force" [N],
 * "inv_mass" [1/kg]), springs as lines then surface triangles as polys (cell
 * data "stretch" r/L0, NaN on triangles, and "cell_kind" 1 spring, 2
 * triangle). Binary blocks carry a UInt64 byte count (header_type UInt64),
 * little-endian. Returns 0 or -1 (errno set). */
int hk_vtk_write_frame(const char *path, const hk_world *w, const hk_geometry *m);

/* The collection: one DataSet per frame, timestep = simulated time [s];
 * file names are relative to the .pvd's folder. Returns 0 or -1. */
int hk_vtk_write_pvd(const char *path, int frames, const double *times, char *const *files);

#endif
