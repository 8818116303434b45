#!/usr/bin/env python3
"""check_deps.py — the README's table of dependencies is .ci/deps's: the same parts, the same packages in each.

usage: python3 tests/check_deps.py SOURCE_DIR   (exit 0 when they agree; 1 with what differs)
"""
# SPDX-License-Identifier: MIT
import re
import sys


def main(root):
    script = open(f"{root}/.ci/deps", encoding="utf-8").read()
    table = dict(re.findall(r'^\s*\[(\w+)\]="([^"]*)"', script, re.M))
    readme = open(f"{root}/README.md", encoding="utf-8").read()
    at = readme.index("<!-- deps -->")
    rows = {}
    for line in readme[at:].splitlines()[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("part", "---"):
            continue
        rows[cells[0]] = cells[1].strip("`")
    bad = []
    if not table:
        bad.append(".ci/deps: no parts found")
    for name in sorted(set(table) | set(rows)):
        want, got = table.get(name), rows.get(name)
        if want is None:
            bad.append(f"README.md names part {name}, which .ci/deps does not have")
        elif got is None:
            bad.append(f"README.md's table of dependencies lacks part {name} of .ci/deps ({want})")
        elif want.split() != got.split():
            bad.append(f"part {name}: .ci/deps installs '{want}', README.md says '{got}'")
    for b in bad:
        print("check_deps.py:", b, file=sys.stderr)
    if not bad:
        print(f"check_deps.py: README.md's {len(rows)} parts are .ci/deps's")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
