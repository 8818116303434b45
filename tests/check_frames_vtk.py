#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_frames_vtk.py — hooke's vtk and blender frames read by VTK's own XML readers (Debian's python3-vtk9).

Usage: check_frames_vtk.py HOOKE [SCENE [RUN FLAGS...]]

Runs HOOKE on a four-body scene (cloth, rope, jelly, free points; or on SCENE)
with --format vtk,blender (and the run flags given) and checks, with a strict XML parser and VTK's
vtkXMLPolyDataReader (any VTK error or warning fails the check): frames.pvd
lists .vtp files that exist; every .vtp reads as one PolyData holding every
particle once, the springs as lines and the surface triangles as polys, and
nothing else; point and cell arrays are all there, stretch is never NaN; body_id per point
and per cell is the body's (four-body scene); the last frame's points equal
--state-out as the build stores them; and frames.pc2's last sample equals
them too. Exit status 0 when all holds. Needs no numpy.
"""
import math
import os
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import vtkmodules.vtkCommonCore as core
import vtkmodules.vtkCommonDataModel as dm
import vtkmodules.vtkIOXML as vx

import vtk_read

FOUR = """world
 gravity 0 -9.81 0
end
body cloth
 nx 4
 ny 3
 spacing 0.1
 mass 0.01
 pins two_corners
 springs structural k 100
 springs shear k 100
end
body rope
 count 5
 mass 0.01
 spacing 0.1
 origin 0 1 0
 pin 0
 springs chain k 100
end
body jelly
 nx 3
 ny 3
 nz 3
 spacing 0.1
 origin 1 1 1
 mass 0.01
 springs all k 100
end
body points
 point 2 2 2 0.01
 point 2.5 2 2 0.01
end
run
 dt 1e-3
 steps 10
end
"""
FIRST = [0, 12, 17, 44, 46]  # first particle of each body, then the count


def fail(msg):
    print("check_frames_vtk: FAIL: " + msg)
    sys.exit(1)


def read(reader_cls, path):
    return vtk_read.read(reader_cls, path, fail)


def body_of(p):
    return max(b for b in range(4) if FIRST[b] <= p)


def check_block(pd, name, n, four):
    if pd.GetNumberOfPoints() != n:
        fail(f"{name}: {pd.GetNumberOfPoints()} points, expected {n}")
    pdata, cdata = pd.GetPointData(), pd.GetCellData()
    for a in ("velocity", "force", "inv_mass", "body_id"):
        if pdata.GetArray(a) is None:
            fail(f"{name}: no point array {a}")
    for a in ("stretch", "body_id"):
        if cdata.GetArray(a) is None:
            fail(f"{name}: no cell array {a}")
    st = cdata.GetArray("stretch")
    for c in range(pd.GetNumberOfCells()):
        if math.isnan(st.GetValue(c)):
            fail(f"{name}: cell {c} has a NaN stretch")
    if not four:
        return
    pb, cb = pdata.GetArray("body_id"), cdata.GetArray("body_id")
    for p in range(n):
        if pb.GetValue(p) != body_of(p):
            fail(f"{name}: point {p} has body_id {pb.GetValue(p)}")
    ids = core.vtkIdList()
    for c in range(pd.GetNumberOfCells()):
        pd.GetCellPoints(c, ids)
        for k in range(ids.GetNumberOfIds()):
            if body_of(ids.GetId(k)) != cb.GetValue(c):
                fail(f"{name}: cell {c} has body_id {cb.GetValue(c)}, its point {ids.GetId(k)} is not that body's")


def main():
    if len(sys.argv) < 2:
        fail(__doc__)
    hooke = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        four = len(sys.argv) == 2
        scene = os.path.join(tmp, "four.scene") if four else sys.argv[2]
        if four:
            with open(scene, "w") as f:
                f.write(FOUR)
        out, state = os.path.join(tmp, "frames"), os.path.join(tmp, "run.state")
        args = [hooke, "run", scene, "--out", out, "--format", "vtk,blender", "--state-out", state, "--quiet"]
        args += ["--every", "5"] if four else sys.argv[3:]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        with open(state) as f:
            head = f.readline().split()
            n = int(head[4].split("=")[1])
            double = head[-1] == "real=double"
            f.readline()
            xyz = [tuple(float(v) for v in f.readline().split()[1:4]) for _ in range(n)]
        # positions are doubles in every build (body origin plus local offset); the state's 17 digits round-trip them
        entries = ET.parse(os.path.join(out, "frames.pvd")).getroot().find("Collection").findall("DataSet")
        if not entries:
            fail("frames.pvd lists no frame")
        for e in entries:
            vtp = os.path.join(out, e.get("file"))
            if not vtp.endswith(".vtp"):
                fail(f"frames.pvd lists {vtp}, not a .vtp")
            pd = read(vx.vtkXMLPolyDataReader, vtp)
            if pd.GetNumberOfVerts() or pd.GetNumberOfStrips():
                fail(f"{vtp}: vertices or strips")
            if pd.GetNumberOfLines() + pd.GetNumberOfPolys() != pd.GetNumberOfCells():
                fail(f"{vtp}: cells other than lines and triangles")
            check_block(pd, vtp, n, four)
        last = pd
        for i in range(n):
            if last.GetPoint(i) != xyz[i]:
                fail(f"last frame, point {i}: {last.GetPoint(i)} != state {xyz[i]}")
        with open(os.path.join(out, "frames.pc2"), "rb") as f:
            data = f.read()
        sig, ver, pts, start, rate, samples = struct.unpack("<12siiffi", data[:32])
        if sig != b"POINTCACHE2\0" or ver != 1 or pts != n or samples != len(entries):
            fail(f"frames.pc2 header {sig, ver, pts, start, rate, samples}, {len(entries)} frames")
        if len(data) != 32 + samples * n * 12:
            fail("frames.pc2 size")
        at = 32 + (samples - 1) * n * 12
        for i in range(n):
            p = struct.unpack_from("<3f", data, at + 12 * i)
            if p != tuple(struct.unpack("<3f", struct.pack("<3f", *xyz[i]))):
                fail(f"frames.pc2 last sample, point {i}: {p} != {xyz[i]}")
        print(f"check_frames_vtk: ok: {len(entries)} frames of {n} particles read by VTK "
              f"{core.vtkVersion.GetVTKVersion()}; last frame and PC2 sample equal --state-out")


if __name__ == "__main__":
    main()
