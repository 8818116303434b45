/* vtk_piece.h — a distributed world's VTK frame: each rank's piece, and the .pvtp that ties the pieces together. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_VTK_PIECE_H
#define HOOKE_VTK_PIECE_H

#include <stddef.h>

#include "hooke/hooke.h"

/* This rank's piece of the frame stem (DIR/frame_<step>): stem_p<rank>.vtp, the arrays of a whole frame (vtk.h)
 * over the particles this rank computes, each point once and in their global order, then the ghost points its
 * cells reach (a spring's other end, a triangle's corner in the next rank's rows: copies of what that rank
 * holds, vtkGhostType 1), with point data "particle_id" (Int32: the particle's index in the whole world). The
 * cells are those whose first particle (a lattice spring's source, a triangle's first corner) this rank
 * computes, so every spring and triangle of the world is in one piece: read together, the pieces are the frame
 * one process writes, point for point by particle_id. Every rank calls it: it brings the halo rows up to date
 * first (part.h), their broken springs and the largest stretch at each particle included. Returns 0, or -1 with
 * errno set and the file that could not be written in failed. */
int hk_vtk_write_piece(const char *stem, const hk_world *w, char *failed, size_t failed_len);
/* Rank 0's stem.pvtp: the PPolyData of the pieces stem_p0.vtp .. stem_p<ranks - 1>.vtp, with their arrays (the
 * contacts where the world has colliders). 0, or -1 with errno set. */
int hk_vtk_write_pvtp(const char *stem, const hk_world *w, int ranks);

#endif
