#!/usr/bin/env python3
# check_report.py — bench/report.py rewrites docs/benchmarks.md without losing the sections other commands wrote.
# usage: python3 tests/check_report.py [SOURCE_DIR]
# SPDX-License-Identifier: MIT
import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import report  # noqa: E402

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


# A report of its own sections and one of another command's, then a rewrite that measured only its own: the other
# comes back where it was, and what the rewrite measured is the rewrite's.
before = "# t\n\n## Machine\n\nold m\n\n## Contact\n\nc 1\nc 2\n\n## SIMD against the scalar reference\n\nold s\n"
after = "# t\n\n## Machine\n\nnew m\n\n## SIMD against the scalar reference\n\nnew s\n"
text, kept = report.keep_sections(before, after)
expect(kept == ["## Contact"], "kept %r, expected ['## Contact']" % kept)
expect(text == "# t\n\n## Machine\n\nnew m\n\n## Contact\n\nc 1\nc 2\n\n## SIMD against the scalar reference\n\nnew s\n",
       "the rewrite with the kept section reads %r" % text)
text, kept = report.keep_sections(after, after)
expect(kept == [] and text == after, "a rewrite that lacks nothing changed: %r" % kept)

# The shipped report cut down to the sections report.py renders gets every other section back, byte for byte.
with open(os.path.join(ROOT, "docs", "benchmarks.md")) as f:
    shipped = f.read()
rendered = ("## Machine", "## Commands", "## Targets", "## SIMD against", "## `hooke bench`", "## JSON",
            "## Back to back", "## Many bodies", "## Every case")
lines = shipped.split("\n")
heads = [i for i, ln in enumerate(lines) if ln.startswith("## ")]
cut = lines[:heads[0]]
for a, b in zip(heads, heads[1:] + [len(lines)]):
    if lines[a].startswith(rendered):
        cut += lines[a:b]
text, kept = report.keep_sections(shipped, "\n".join(cut))
expect(text == shipped, "docs/benchmarks.md did not come back whole (kept %r)" % kept)
expect(len(kept) == len(heads) - sum(lines[a].startswith(rendered) for a in heads),
       "kept %d sections of %d" % (len(kept), len(heads)))

for f in failures:
    print("check_report: " + f, file=sys.stderr)
print("check_report: %s" % ("FAILED" if failures else "keep_sections keeps every section it should"))
sys.exit(1 if failures else 0)
