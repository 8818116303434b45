# SPDX-License-Identifier: MIT
"""vtk_read.py — a VTK XML file read by one of VTK's own readers, failing on any error or warning it reports
(check_frames_vtk.py, check_frames_pvtp.py)."""


class Errors:
    """Collects VTK errors and warnings of a reader."""

    def __init__(self, obj):
        self.seen = []
        for ev in ("ErrorEvent", "WarningEvent"):
            obj.AddObserver(ev, self.on)

    def on(self, obj, ev):
        self.seen.append(ev)


def read(reader_cls, path, fail):
    """path's data set by reader_cls; fail(message) where VTK reported an error or a warning."""
    r = reader_cls()
    errors = Errors(r)
    r.SetFileName(path)
    r.Update()
    if errors.seen or r.GetErrorCode():
        fail(f"{path}: VTK reported {errors.seen or r.GetErrorCode()}")
    return r.GetOutput()
