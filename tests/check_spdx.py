#!/usr/bin/env python3
# check_spdx.py — every source file of the tree names its licence (an SPDX line near its top) and docs/LICENSE
# holds that licence's text. usage: python3 tests/check_spdx.py [SOURCE_DIR]
# SPDX-License-Identifier: MIT
import os
import re
import sys

TAG = "SPDX-License-Identifier: MIT"
SOURCE = re.compile(r"(\.(c|h|in|cmake|py|sh)|^CMakeLists\.txt)$")
FOLDERS = ("src", "tests", "bench", "docs", ".ci")


def sources(root):
    yield os.path.join(root, "CMakeLists.txt")
    for folder in FOLDERS:
        for here, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = sorted(d for d in dirs if d not in ("corpus", "__pycache__"))
            for name in sorted(files):
                if SOURCE.search(name) or folder == ".ci":
                    yield os.path.join(here, name)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    missing = []
    count = 0
    for path in sources(root):
        count += 1
        with open(path, encoding="utf-8", errors="replace") as f:
            head = [f.readline() for _ in range(8)]
        if not any(TAG in line for line in head):
            missing.append(os.path.relpath(path, root))
    with open(os.path.join(root, "docs", "LICENSE"), encoding="utf-8") as f:
        licence = f.read()
    if not licence.startswith("MIT License") or "WITHOUT WARRANTY OF ANY KIND" not in licence:
        print("check_spdx.py: docs/LICENSE is not the MIT licence's text", file=sys.stderr)
        return 1
    for path in missing:
        print(f"check_spdx.py: {path}: no '{TAG}' line in its first 8 lines", file=sys.stderr)
    if missing:
        return 1
    print(f"check_spdx.py: {count} source files name their licence ({TAG}); docs/LICENSE holds its text")
    return 0


if __name__ == "__main__":
    sys.exit(main())
