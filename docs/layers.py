#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layers.py: hooke's source tree as layers of files, read from the code; checks the arrows and draws the picture.

    python3 docs/layers.py BUILD_DIR                 the layers, the arrows between folders, the loops
    python3 docs/layers.py BUILD_DIR --check         exit 1 if an arrow runs up a layer or between folders that
                                                     stand beside each other (BESIDE), or files call in a loop
    python3 docs/layers.py BUILD_DIR --svg FILE      also draws the layers (docs/img/layers.svg)

A file is a .c with the .h of the same name beside it (a header alone is a
file too). File A has an arrow to file B when A includes B's header (read
from the source text) or when A's object file uses a symbol that B's object
file defines (read with `nm` from BUILD_DIR, so a call is seen as the linker
sees it, macros and inline functions included). The layers are the table
LAYERS below, lowest first: an arrow may only go to the same layer or a
lower one, and inside a layer files may not form a loop of arrows (except
the pairs named in ALLOWED_LOOPS, each with its reason).
"""
import argparse
import os
import re
import subprocess
import sys
import zlib
from collections import defaultdict

# Folder (under src/) -> (layer, what it is). Lowest layer first; the longest
# folder that holds a file decides its layer.
LAYERS = [
    ("include", 0, "the public API: hooke.h"),
    ("core/world", 1, "the world's storage and the lookups every layer uses"),
    ("core/model", 2, "bodies and their spring families, surfaces, meshes, colouring"),
    ("core/dist", 3, "a world shared out over ranks: who computes which rows"),
    ("core/engine", 4, "the force pass: the parallel SIMD engine and its reference"),
    ("core/contact", 4, "contacts: walls, spheres and colliders (force, blocks, swept safety net)"),
    ("core/implicit", 5, "the implicit integrators: matrix-free system, CG, multigrid"),
    ("core/iterate", 5, "the iterated solvers: springs as constraints swept colour by colour"),
    ("core/fabric", 5, "cloth as fabric: strain limits kept by a projection after each substep"),
    ("core/step", 6, "a world's life and its step: integrators, checks, shares"),
    ("core/device", 6, "the device backend: the explicit step on a GPU, its drivers"),
    ("io", 7, "scene files, meshes in, frames and pictures out (in libhooke)"),
    ("cli", 8, "the program: its commands (libhooke_cli) and main"),
    ("python", 8, "the Python module hooke: the C extension _hooke over libhooke, beside the program"),
]

# Loops of files that are allowed to stay, each with its reason, as
# ({"io/x.c", "io/y.c"}, "why"): paths under src/, a .c or a header alone.
# There are none today; a new one is named here and in docs/architecture.md.
ALLOWED_LOOPS = []

# Folders of one layer that stand beside each other, with no arrow between them either way: the program and the
# Python module each stand on the library alone.
BESIDE = [("cli", "python")]

SYMBOL = re.compile(r"^\s*(?:[0-9a-fA-F]+\s+)?([A-Za-z])\s+(\S+)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    best = None
    for folder, level, _ in LAYERS:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best[0]):
                best = (folder, level)
    return best


def read_tree(src):
    """Every source file under src/, grouped into files (a .c with its .h)."""
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if not name.endswith((".c", ".h", ".in")) or name.endswith(".cpp"):
                continue
            full = os.path.join(root, name)
            rel = os.path.relpath(full, src)
            if rel.endswith(".in"):
                continue
            stem = rel[:-2]
            unit = stem + ".c" if os.path.exists(os.path.join(src, stem + ".c")) else rel
            files.setdefault(unit, []).append(rel)
    return files


def resolve_include(src, including, target, by_name):
    here = os.path.normpath(os.path.join(os.path.dirname(including), target))
    if os.path.exists(os.path.join(src, here)):
        return here
    hits = by_name.get(os.path.basename(target), [])
    return hits[0] if len(hits) == 1 else None


def objects(build):
    """{source path under src/: object file} from BUILD_DIR's CMake object folders."""
    found = {}
    for root, _, names in os.walk(build):
        for name in names:
            if not name.endswith(".c.o"):
                continue
            full = os.path.join(root, name)
            m = re.search(r"/src/(python/)?CMakeFiles/[^/]+\.dir/(.+)\.o$", full)
            if m:
                found.setdefault((m.group(1) or "") + m.group(2), full)
    return found


def symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        m = SYMBOL.match(line)
        if not m:
            continue
        kind, name = m.groups()
        if kind == "U":
            used.add(name)
        elif kind in "TDBRCVW":
            defined.add(name)
    return defined, used


def arrows(src, build):
    files = read_tree(src)
    unit_of = {rel: unit for unit, rels in files.items() for rel in rels}
    by_name = defaultdict(list)
    for rel in unit_of:
        by_name[os.path.basename(rel)].append(rel)
    edges = defaultdict(set)  # (a, b) -> {why}
    for unit, rels in files.items():
        for rel in rels:
            with open(os.path.join(src, rel), encoding="utf-8") as f:
                text = f.read()
            for target in INCLUDE.findall(text):
                hit = resolve_include(src, rel, target, by_name)
                if hit and unit_of[hit] != unit:
                    edges[(unit, unit_of[hit])].add("#include \"%s\"" % target)
    objs = objects(build)
    owner, uses = {}, {}
    for rel, obj in objs.items():
        if rel not in unit_of:
            continue
        defined, used = symbols(obj)
        uses[unit_of[rel]] = used
        for name in defined:
            owner.setdefault(name, unit_of[rel])
    for unit, used in uses.items():
        for name in used:
            b = owner.get(name)
            if b and b != unit:
                edges[(unit, b)].add(name)
    lines = {}
    for unit, rels in files.items():
        n = 0
        for rel in rels:
            with open(os.path.join(src, rel), encoding="utf-8") as f:
                n += sum(1 for _ in f)
        lines[unit] = n
    return files, edges, lines, sorted(objs)


def loops(nodes, edges):
    """Strongly connected components of more than one file (Tarjan)."""
    succ = defaultdict(list)
    for a, b in edges:
        if a in nodes and b in nodes:
            succ[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def folder_of(unit):
    hit = layer_of(unit)
    return hit[0] if hit else os.path.dirname(unit)


def draw_svg(path, files, edges, lines):
    """The layers as bands, top (the program) to bottom (the public header); a
    box per folder with its files; an arrow per pair of folders with the
    number of file arrows it stands for."""
    by_level = defaultdict(list)
    for folder, level, says in LAYERS:
        members = sorted(u for u in files if folder_of(u) == folder)
        if members:
            by_level[level].append((folder, says, members))
    levels = sorted(by_level, reverse=True)
    W, pad, row_h, col_gap = 1180, 18, 15, 16
    boxes, y = {}, 60
    parts = []
    for level in levels:
        groups = by_level[level]
        width = (W - 2 * pad - col_gap * (len(groups) - 1)) / len(groups)
        longest = max(len(u) - len(f) + 4 for f, _, m in groups for u in m)  # a name and its line count
        ncols = max(1, int(width // max(190, 6.8 * longest + 12)))
        height = max(len(m) for _, _, m in groups)
        height = 44 + row_h * ((height + ncols - 1) // ncols)
        x = pad
        for folder, says, members in groups:
            boxes[folder] = (x, y, width, height)
            parts.append('<rect x="%.0f" y="%d" width="%.0f" height="%d" rx="6" fill="#eef3f8" stroke="#4a6a8a"/>' % (x, y, width, height))
            parts.append('<text x="%.0f" y="%d" font-weight="bold" font-size="13">src/%s/</text>' % (x + 8, y + 16, folder))
            parts.append('<text x="%.0f" y="%d" font-size="11" fill="#444">layer %d: %s</text>' % (x + 8, y + 31, level, esc(says)))
            colw = width / ncols
            for i, unit in enumerate(members):
                cx = x + 8 + (i % ncols) * colw
                cy = y + 46 + (i // ncols) * row_h
                name = unit[len(folder) + 1:] if unit.startswith(folder + "/") else unit
                parts.append('<text x="%.0f" y="%d" font-size="11" font-family="monospace">%s <tspan fill="#888">%d</tspan></text>'
                             % (cx, cy + 6, esc(name), lines[unit]))
            x += width + col_gap
        y += height + 46
    counts = defaultdict(int)
    for a, b in edges:
        fa, fb = folder_of(a), folder_of(b)
        if fa != fb and fa in boxes and fb in boxes:
            counts[(fa, fb)] += 1
    arrows_svg = []
    for (fa, fb), n in sorted(counts.items()):
        ax, ay, aw, ah = boxes[fa]
        bx, by_, bw, bh = boxes[fb]
        up = layer_of(fb)[1] > layer_of(fa)[1]
        x1 = ax + aw * (0.25 + 0.5 * ((zlib.crc32(fb.encode()) % 97) / 97.0))
        x2 = bx + bw * (0.25 + 0.5 * ((zlib.crc32(fa.encode()) % 89) / 89.0))
        if by_ > ay:
            y1, y2 = ay + ah, by_
        elif by_ < ay:
            y1, y2 = ay, by_ + bh
        else:
            y1 = y2 = ay + ah / 2
            x1, x2 = (ax + aw, bx) if bx > ax else (ax, bx + bw)
        colour = "#c0392b" if up else "#5d6d7e"
        arrows_svg.append('<path d="M%.0f %.0f C %.0f %.0f, %.0f %.0f, %.0f %.0f" fill="none" stroke="%s" stroke-width="%.1f" marker-end="url(#head)" opacity="0.75"/>'
                          % (x1, y1, x1, (y1 + y2) / 2, x2, (y1 + y2) / 2, x2, y2, colour, 1.0 + min(n, 30) / 10.0))
        arrows_svg.append('<text x="%.0f" y="%.0f" font-size="10" fill="%s">%d</text>' % (x1 + 3, y1 + (11 if y2 > y1 else -4), colour, n))
    H = y + 10
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, sans-serif">\n'
            '<defs><marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto">'
            '<path d="M0 0 L10 5 L0 10 z" fill="#5d6d7e"/></marker></defs>\n'
            '<rect width="100%%" height="100%%" fill="white"/>\n'
            '<text x="%d" y="26" font-size="17" font-weight="bold">hooke: the layers of src/, top calls down</text>\n'
            '<text x="%d" y="44" font-size="11" fill="#444">a box per folder, its files with their lines (a .c and its .h together); an arrow per pair of folders, '
            'with how many file arrows (includes and calls) it stands for; red: one that runs up. Drawn by docs/layers.py from the tree.</text>\n'
            % (W, H, W, H, pad, pad))
    with open(path, "w", encoding="utf-8") as f:
        # arrows first: a box hides the part of an arrow that passes behind it
        f.write(head + "\n".join(arrows_svg) + "\n" + "\n".join(parts) + "\n</svg>\n")


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="a configured and built hooke build folder (its object files are read)")
    ap.add_argument("--src", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    ap.add_argument("--check", action="store_true", help="exit 1 on an arrow up a layer or a loop of files")
    ap.add_argument("--svg", help="draw the layers into this SVG file")
    ap.add_argument("--arrows", action="store_true", help="list every arrow between files, with what carries it")
    args = ap.parse_args()
    src = os.path.normpath(args.src)
    files, edges, lines, objs = arrows(src, args.build)
    if not objs:
        sys.exit("layers.py: no object files under %s/src/CMakeFiles: build hooke there first" % args.build)
    problems = []
    unplaced = sorted(u for u in files if layer_of(u) is None)
    for u in unplaced:
        problems.append("%s: in no layer (add its folder to LAYERS in docs/layers.py)" % u)

    print("Layers, top first (files, lines):")
    for folder, level, says in sorted(LAYERS, key=lambda r: -r[1]):
        members = [u for u in files if folder_of(u) == folder]
        print("  %d  src/%-15s %3d files %6d lines  %s" % (level, folder + "/", len(members), sum(lines[u] for u in members), says))

    print("\nArrows between folders (file arrows):")
    counts = defaultdict(int)
    for a, b in edges:
        if folder_of(a) != folder_of(b):
            counts[(folder_of(a), folder_of(b))] += 1
    for (fa, fb), n in sorted(counts.items()):
        print("  src/%s/ -> src/%s/: %d" % (fa, fb, n))

    for (a, b), why in sorted(edges.items()):
        la, lb = layer_of(a), layer_of(b)
        if la and lb and lb[1] > la[1]:
            problems.append("%s -> %s runs up from layer %d to %d: %s" % (a, b, la[1], lb[1], ", ".join(sorted(why))))
        if la and lb and ((la[0], lb[0]) in BESIDE or (lb[0], la[0]) in BESIDE):
            problems.append("%s -> %s: src/%s/ and src/%s/ stand beside each other: %s" % (a, b, la[0], lb[0],
                                                                                        ", ".join(sorted(why))))
    allowed = {frozenset(files): why for files, why in ALLOWED_LOOPS}
    found = loops(set(files), edges)
    print("\nLoops of files: %d" % len(found))
    for comp in found:
        ok = frozenset(comp) in allowed
        print("  %s%s" % (", ".join(comp), "\n      allowed: " + allowed[frozenset(comp)] if ok else ""))
        for a in comp:
            for b in comp:
                if (a, b) in edges:
                    print("      %s -> %s: %s" % (a, b, ", ".join(sorted(edges[(a, b)])[:6])))
        if not ok:
            problems.append("a loop of %d files: %s" % (len(comp), ", ".join(comp)))
    if args.arrows:
        print("\nEvery arrow:")
        for (a, b), why in sorted(edges.items()):
            print("  %s -> %s: %s" % (a, b, ", ".join(sorted(why))))
    if args.svg:
        draw_svg(args.svg, files, edges, lines)
        print("\nwrote %s" % args.svg)
    if problems:
        print("\n%d problem(s):" % len(problems))
        for p in problems:
            print("  " + p)
    if args.check and problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
