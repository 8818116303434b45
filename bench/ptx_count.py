#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ptx_count.py — PTX instructions a spring term costs: hooke's device node kernel against the CUDA peer's.

usage: python3 bench/ptx_count.py BUILD_DIR [--peer PEER.cu] [--json OUT]

Reads the CUDA driver's PTX (BUILD_DIR/device_ptx/cuda/dev_cuda.ptx, written by nvcc with the module's flags:
device.cmake) and compiles the peer's kernel to PTX as its README builds it (nvcc -O3 -arch=sm_90), then counts, in
each, the instructions one spring term issues:

- hooke (kernel k_nodes): each loop of the kernel whose body holds a sqrt (a term loop: the node's springs, one
  term a sqrt; the compiler may unroll a loop, several terms an iteration) is listed with the costliest path
  through its body (its basic blocks from the loop's head to its back edge): its instructions a term, its global
  loads and its parameter/constant loads. A branch every node takes alike (the node's role in a term: source or
  target) costs one path's instructions, not both;
- the peer (kernel step: its 12 springs unrolled): the instructions from one spring's sqrt to the next one's, the
  median over its 11 gaps, which is one spring's whole text; likewise its loads.

The figure reported last is the ratio of the costlier fast loop's term (the loops with no branch but their own: the
nodes inside every term's box) to the peer's spring (both static counts of
PTX instructions; PTX is what both compilers hand the same assembler, ptxas). Exit 0; 1 where a file is missing.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

LABEL = re.compile(r"^\s*(\$[\w$]+):")
BRANCH = re.compile(r"^\s*(?:@!?%\w+\s+)?bra(?:\.uni)?\s+(\$[\w$]+);")
OPCODE = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][a-z0-9_]*(?:\.[a-z0-9_:]+)*)")


def functions(ptx):
    """{name: [lines of its body]} of the .entry functions."""
    out, name, body, depth = {}, None, [], 0
    for line in ptx.splitlines():
        m = re.match(r"^\.(?:visible\s+)?\.entry\s+(\w+)\(", line)
        if m:
            name, body, depth = m.group(1), [], 0
            continue
        if name is None:
            continue
        depth += line.count("{") - line.count("}")
        body.append(line)
        if depth == 0 and "}" in line:
            out[name] = body
            name = None
    return out


def instructions(lines):
    """(index in lines, opcode) of each instruction (labels, directives, braces and comments left out)."""
    out = []
    for k, line in enumerate(lines):
        text = line.split("//")[0].strip()
        if not text or text.startswith(".") or text in ("{", "}") or LABEL.match(text) or text.startswith(")"):
            continue
        m = OPCODE.match(text)
        if m:
            out.append((k, m.group(1)))
    return out


def tally(ops):
    """What a run of opcodes holds."""
    return {
        "instructions": len(ops),
        "global_loads": sum(o.startswith("ld.global") for o in ops),
        "param_or_const_loads": sum(o.startswith(("ld.param", "ld.const")) for o in ops),
        "generic_loads": sum(o.startswith("ld.") and o.split(".")[1] in ("f32", "f64", "u32", "s32", "u64", "s64",
                                                                          "u8", "v2", "v4", "b32", "b64")
                             for o in ops),
        "sqrt": sum(o.startswith("sqrt") for o in ops),
        "div": sum(o.startswith("div") for o in ops),
        "branches": sum(o.startswith("bra") for o in ops),
    }


def blocks_of(lines, lo, hi):
    """The basic blocks of lines[lo..hi]: [(start line, end line, [opcodes], [successor start lines])]."""
    ins = dict(instructions(lines))
    labels = {}
    for k in range(lo, hi + 1):
        m = LABEL.match(lines[k])
        if m:
            labels[m.group(1)] = k
    starts = sorted({lo} | {k for k in labels.values()} |
                    {k + 1 for k in range(lo, hi + 1) if BRANCH.match(lines[k]) and k + 1 <= hi})
    out = []
    for n, st in enumerate(starts):
        end = (starts[n + 1] - 1) if n + 1 < len(starts) else hi
        ops = [ins[k] for k in range(st, end + 1) if k in ins]
        succ = []
        last = max([k for k in range(st, end + 1) if k in ins], default=None)
        m = BRANCH.match(lines[last]) if last is not None else None
        if m:
            if m.group(1) in labels:
                succ.append(labels[m.group(1)])
            if not lines[last].strip().startswith("bra"):  # a predicated branch falls through too
                succ.append(end + 1)
        else:
            succ.append(end + 1)
        out.append((st, end, ops, succ))
    return out


def term_loops(lines):
    """Each loop (a branch back to a label before it) whose body holds a sqrt, innermost first: the tally of each
    path through its body from its head to its back edge, a term a sqrt on the path; the costliest path's tally a
    term is the loop's figure (a branch the same for every node, as the node's role in a term, takes one path)."""
    labels = {}
    for k, line in enumerate(lines):
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = k
    ins = instructions(lines)
    loops = []
    for k, line in enumerate(lines):
        m = BRANCH.match(line)
        if not (m and m.group(1) in labels and labels[m.group(1)] < k):
            continue
        lo = labels[m.group(1)]
        if not any(o.startswith("sqrt") for (i, o) in ins if lo <= i <= k):
            continue
        blocks = blocks_of(lines, lo, k)
        by_start = {b[0]: b for b in blocks}
        paths = []

        def walk(st, acc, seen):
            if len(paths) > 4096:
                return
            b = by_start.get(st)
            if b is None or st in seen:
                return
            acc = acc + b[2]
            if b[1] == k:  # the back edge's block
                paths.append(acc)
                return
            for nx in b[3]:
                if nx == lo:
                    paths.append(acc)
                elif lo < nx <= k:
                    walk(nx, acc, seen | {st})

        walk(lo, [], frozenset())
        best = None
        for ops in paths:
            roots = sum(o.startswith("sqrt") for o in ops)
            if not roots:
                continue
            t = tally(ops)
            per = {key: val / roots for key, val in t.items()}
            if best is None or per["instructions"] > best["instructions"]:
                best = dict(per, terms_an_iteration=roots)
        if best:
            loops.append({"from_line": lo, "to_line": k, "paths": len(paths), **best})
    inner = [a for a in loops
             if not any(b is not a and a["from_line"] <= b["from_line"] and b["to_line"] <= a["to_line"] for b in loops)]
    return inner


def spring_gaps(lines):
    """The tallies from each sqrt to the next (an unrolled kernel's springs)."""
    ins = instructions(lines)
    at = [n for n, (_, o) in enumerate(ins) if o.startswith("sqrt")]
    return [tally([o for (_, o) in ins[a:b]]) for a, b in zip(at, at[1:])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--peer", default=None, help="the CUDA peer's source (default: shared/anchors/gpu/cloth_cuda.cu "
                    "beside the checkout)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    ptx_path = os.path.join(args.build, "device_ptx", "cuda", "dev_cuda.ptx")
    if not os.path.exists(ptx_path):
        print(f"ptx_count: {ptx_path} is not there (a build with the CUDA driver: nvcc on the PATH)", file=sys.stderr)
        return 1
    peer = args.peer
    if not peer:
        for p in ("../../shared/anchors/gpu/cloth_cuda.cu", "../../../shared/anchors/gpu/cloth_cuda.cu"):
            if os.path.exists(os.path.join(here, p)):
                peer = os.path.normpath(os.path.join(here, p))
                break
    if not peer or not os.path.exists(peer):
        print("ptx_count: the peer's cloth_cuda.cu was not found (--peer PATH)", file=sys.stderr)
        return 1
    with open(ptx_path) as f:
        fns = functions(f.read())
    nodes = [v for k, v in fns.items() if "k_nodes" in k]
    if not nodes:
        print(f"ptx_count: no k_nodes kernel in {ptx_path}", file=sys.stderr)
        return 1
    loops = term_loops(nodes[0])
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "peer.ptx")
        subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-ptx", peer, "-o", out], check=True)
        with open(out) as f:
            pfns = functions(f.read())
    step = [v for k, v in pfns.items() if "step" in k]
    gaps = spring_gaps(step[0])
    peer_term = {key: statistics.median(g[key] for g in gaps) for key in gaps[0]}
    # the fast loops: no branch in a term but the loop's own and the node's role, with its join (a generic loop tests
    # each term's box, model and behaviour)
    fast_loops = [l for l in loops if l["branches"] <= 3]
    fast = max(fast_loops, key=lambda l: l["instructions"]) if fast_loops else None
    print(f"peer ({os.path.basename(peer)}, kernel step, {len(gaps) + 1} springs unrolled): a spring "
          f"{peer_term['instructions']:.0f} PTX instructions, {peer_term['global_loads']:.0f} global loads "
          f"(median of {len(gaps)} sqrt-to-sqrt gaps)")
    for n, l in enumerate(loops):
        print(f"hooke k_nodes term loop {n + 1} (PTX lines {l['from_line']}..{l['to_line']}, {l['paths']} paths, "
              f"{l['terms_an_iteration']} term(s) on the costliest): {l['instructions']:.1f} instructions a term, "
              f"{l['global_loads']:.1f} global loads, {l['param_or_const_loads']:.1f} parameter loads, "
              f"{l['generic_loads']:.1f} generic loads, {l['branches']:.1f} branches")
    if fast:
        print(f"ratio (the costlier fast term loop, the nodes inside every term's box, / the peer's spring): "
              f"{fast['instructions'] / peer_term['instructions']:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"peer": peer_term, "loops": loops,
                       "ratio": fast["instructions"] / peer_term["instructions"] if fast else None}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
