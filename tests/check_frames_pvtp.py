#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_frames_pvtp.py — a run's VTK frames written in pieces over MPI ranks, read by VTK's own parallel reader
(Debian's python3-vtk9), equal to the frames one process writes, point for point.

Usage: check_frames_pvtp.py ONE_DIR RANKS_DIR

ONE_DIR holds the frames of a run as one process (frames.pvd listing frame_<step>.vtp), RANKS_DIR the same run's
over ranks (frames.pvd listing frame_<step>.pvtp, each tying one piece per rank). Both collections list the same
frames at the same times (the colliders' files too). Each .pvtp is read with vtkXMLPPolyDataReader (any VTK error
or warning fails the check), each .vtp with vtkXMLPolyDataReader; then, frame by frame:
- every point whose vtkGhostType is 0 is a particle of the world once (particle_id covers 0..N-1 once), and its
  position, velocity, force, inv_mass, body_id (and contacts, with colliders) are the one-process frame's point
  particle_id to the bit; a ghost point (vtkGhostType 1) is a copy: the same values;
- the lines and the triangles, each as its particles in order with its stretch and body_id, are the one-process
  frame's, each once (as multisets: the pieces list them rank by rank).
Exit status 0 when all holds. Needs no numpy.
"""
import math
import os
import struct
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import vtkmodules.vtkCommonCore as core
import vtkmodules.vtkIOXML as vx

import vtk_read


def fail(msg):
    print("check_frames_pvtp: FAIL: " + msg)
    sys.exit(1)


def read(reader_cls, path):
    return vtk_read.read(reader_cls, path, fail)


def bits(x):
    """A float's bits (NaN equal to NaN)."""
    return struct.pack("<d", x)


def collection(folder):
    entries = ET.parse(os.path.join(folder, "frames.pvd")).getroot().find("Collection").findall("DataSet")
    if not entries:
        fail(f"{folder}/frames.pvd lists no frame")
    return [(e.get("timestep"), e.get("part"), e.get("file")) for e in entries]


POINT_ARRAYS = ("velocity", "force", "inv_mass", "body_id", "contacts")


def point_values(pd, p):
    """A point's position and point data, as bits."""
    data = pd.GetPointData()
    v = [bits(c) for c in pd.GetPoint(p)]
    for name in POINT_ARRAYS:
        a = data.GetArray(name)
        if a is not None:
            v += [bits(a.GetComponent(p, c)) for c in range(a.GetNumberOfComponents())]
    return tuple(v)


def cells(pd, pid):
    """The cells as (kind, particles in order, stretch bits, body_id), counted; pid maps a point to its particle."""
    out = Counter()
    st, body = pd.GetCellData().GetArray("stretch"), pd.GetCellData().GetArray("body_id")
    ids = core.vtkIdList()
    for c in range(pd.GetNumberOfCells()):
        pd.GetCellPoints(c, ids)
        corners = tuple(pid(ids.GetId(k)) for k in range(ids.GetNumberOfIds()))
        out[(len(corners), corners, bits(st.GetValue(c)), body.GetValue(c))] += 1
    return out


def compare(one_path, ranks_path):
    one = read(vx.vtkXMLPolyDataReader, one_path)
    parts = read(vx.vtkXMLPPolyDataReader, ranks_path)
    n = one.GetNumberOfPoints()
    ghost, pid_arr = parts.GetPointData().GetArray("vtkGhostType"), parts.GetPointData().GetArray("particle_id")
    if ghost is None or pid_arr is None:
        fail(f"{ranks_path}: no vtkGhostType or particle_id")
    for name in POINT_ARRAYS:
        if (one.GetPointData().GetArray(name) is None) != (parts.GetPointData().GetArray(name) is None):
            fail(f"{ranks_path}: point array {name} where the one-process frame has none, or none where it has one")
    seen = [0] * n
    for p in range(parts.GetNumberOfPoints()):
        q = int(pid_arr.GetValue(p))
        if not 0 <= q < n:
            fail(f"{ranks_path}: point {p} is particle {q}, not one of the {n}")
        if point_values(parts, p) != point_values(one, q):
            fail(f"{ranks_path}: particle {q} (point {p}, ghost {ghost.GetValue(p)}): {parts.GetPoint(p)}, "
                 f"one process {one.GetPoint(q)} (or its point data differs)")
        if ghost.GetValue(p) == 0:
            seen[q] += 1
        elif ghost.GetValue(p) != 1:
            fail(f"{ranks_path}: point {p}: vtkGhostType {ghost.GetValue(p)}")
    for q in range(n):
        if seen[q] != 1:
            fail(f"{ranks_path}: particle {q} is a point of its own {seen[q]} times")
    got, want = cells(parts, lambda p: int(pid_arr.GetValue(p))), cells(one, lambda p: p)
    if got != want:
        extra, missing = got - want, want - got
        fail(f"{ranks_path}: {sum(extra.values())} cells the one-process frame lacks (one: {next(iter(extra), None)}), "
             f"{sum(missing.values())} it has that the pieces lack (one: {next(iter(missing), None)})")
    return n, parts.GetNumberOfCells()


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    one_dir, ranks_dir = sys.argv[1], sys.argv[2]
    one, ranks = collection(one_dir), collection(ranks_dir)
    if len(one) != len(ranks):
        fail(f"{len(one)} frames in {one_dir}, {len(ranks)} in {ranks_dir}")
    frames = 0
    for (t1, part1, f1), (tr, partr, fr) in zip(one, ranks):
        if t1 != tr or part1 != partr:
            fail(f"{fr}: time {tr} part {partr}, one process {f1}: time {t1} part {part1}")
        if part1 == "1":  # the colliders' surfaces: rank 0 writes the file one process writes
            with open(os.path.join(one_dir, f1), "rb") as a, open(os.path.join(ranks_dir, fr), "rb") as b:
                if a.read() != b.read():
                    fail(f"{fr}: not the bytes of {f1}")
            continue
        if not (f1.endswith(".vtp") and fr.endswith(".pvtp")):
            fail(f"frames {f1} and {fr}: expected a .vtp and a .pvtp")
        n, c = compare(os.path.join(one_dir, f1), os.path.join(ranks_dir, fr))
        frames += 1
    print(f"check_frames_pvtp: ok: {frames} frames of {n} particles and {c} cells, read in pieces by VTK "
          f"{core.vtkVersion.GetVTKVersion()}, equal the one-process frames")


if __name__ == "__main__":
    main()
