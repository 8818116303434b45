#!/usr/bin/env python3
# check_lists.py — the docs' lists of scene keys, body kinds, integrators and frame formats against the program's own.
# SPDX-License-Identifier: MIT
"""usage: python3 docs/check_lists.py HOOKE   (HOOKE: the program, build/hooke)

The lists a user reads in the docs are typed there once; this check (the
CTest `doc_lists`) reads the program's tables with `hooke info --list WHAT`
and fails, naming the page, the section and the name, where a page lists
other than the program does:

- docs/scene-format.md: each section's and each body kind's key table (the
  first column) holds exactly the keys of the section (`keys`); a body
  kind's section names each of its spring families; every body kind has its
  section `### \\`body KIND\\`` and no other exists (`bodies`); the names the
  `run` table's `integrator` row gives are integrators' names or aliases
  (`integrators`: the row points to that listing instead of typing it out).
- docs/user-guide.md: "Output formats" names the formats in the table's
  order (`LIST: ...`) and has a bullet for each (`formats`). (What a world
  accepts is shown there as `hooke info --list world-fields` prints it: an
  example docs/examples.sh checks.)
- README.md: the synopsis's `--format a,b,...` names the formats in order.

So a new key, body kind or format shows up here until its page says it,
and nothing else needs to list it by hand; an integrator needs no page
edit (the pages point to the listing).
"""
import re
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
failures = []


def listing(hooke, what):
    out = subprocess.run([hooke, "info", "--list", what], check=True, capture_output=True, text=True).stdout
    return [line.split() if what != "formats" else line.split(" ", 2) for line in out.splitlines() if line.strip()]


def fail(page, where, text):
    failures.append(f"{page}: {where}: {text}")


def sections(text, level):
    """{heading: body} of the headings of `level` (## or ###) in text; a body ends at the next heading of its
    level or above."""
    parts = re.split(r"^(#{1,%d}) (.+)$" % len(level), text, flags=re.M)
    return {parts[i + 1].strip(): parts[i + 2] for i in range(1, len(parts) - 2, 3) if parts[i] == level}


def first_table_keys(body):
    """The names in the first column of the first table of body (each `name` in the cell), or None."""
    rows = [line for line in body.splitlines() if line.startswith("|")]
    if len(rows) < 3:
        return None
    keys = []
    for row in rows[2:]:
        cell = row.split("|")[1]
        keys += re.findall(r"`([a-z_0-9.]+)`", cell)
    return keys


def compare(page, where, doc, program):
    for name in program:
        if name not in doc:
            fail(page, where, f"'{name}' is missing (the program has it)")
    for name in doc:
        if name not in program:
            fail(page, where, f"'{name}' is listed but the program has no such name")


def check_scene_format(hooke):
    page = "docs/scene-format.md"
    text = (root / page).read_text()
    heads = sections(text, "###")
    keys = {}
    for row in listing(hooke, "keys"):
        keys.setdefault(" ".join(row[:-1]), []).append(row[-1])
    bodies = {row[0]: row[1:] for row in listing(hooke, "bodies")}
    # every section's table
    for section, want in keys.items():
        if section == "springs":
            body = next((b for h, b in sections(text, "##").items() if "`springs` lines" in h), None)
        else:
            body = heads.get(f"`{section}`")
        if body is None:
            fail(page, section, "no section (### `%s`) documents its keys" % section)
            continue
        doc = first_table_keys(body)
        if doc is None:
            fail(page, section, "no table of keys")
            continue
        compare(page, f"section {section}", doc, want)
    # body kinds and their families
    documented = [h[len("`body ") : -1] for h in heads if h.startswith("`body ")]
    compare(page, "the body sections", documented, list(bodies))
    for kind, families in bodies.items():
        body = heads.get(f"`body {kind}`", "")
        for f in families:
            if f"`{f}`" not in body:
                fail(page, f"section body {kind}", f"spring family '{f}' is not named")
    # the integrator row
    names = [n for row in listing(hooke, "integrators") for n in row]
    row = next((line for line in heads.get("`run`", "").splitlines() if line.startswith("| `integrator` |")), None)
    if row is None:
        fail(page, "section run", "no `integrator` row")
    else:
        # the row points to the listing rather than typing it out: every name it gives must be one
        for name in re.findall(r"`([a-z_0-9]+)`", row.split("|")[5]):
            if name not in names:
                fail(page, "the integrator row", f"'{name}' is no integrator's name or alias")


def check_user_guide(hooke):
    page = "docs/user-guide.md"
    text = (root / page).read_text()
    heads = sections(text, "##")
    formats = [row[0] for row in listing(hooke, "formats")]
    body = heads.get("Output formats", "")
    m = re.search(r"\(LIST: ((?:`[a-z0-9]+`,\s*)+)comma separated", body)
    if not m:
        fail(page, "Output formats", "no '(LIST: `...`, comma separated' sentence")
    else:
        doc = re.findall(r"`([a-z0-9]+)`", m.group(1))
        compare(page, "Output formats, LIST", doc, formats)
        if doc != formats and sorted(doc) == sorted(formats):
            fail(page, "Output formats, LIST", f"in the order {doc}, the program's is {formats}")
    bullets = [b.lower() for b in re.findall(r"^- \*\*([A-Za-z0-9]+)\*\*", body, flags=re.M)]
    compare(page, "Output formats, the bullets", bullets, formats)


def check_readme(hooke):
    page = "README.md"
    formats = [row[0] for row in listing(hooke, "formats")]
    m = re.search(r"--format ([a-z0-9,]+)\]", (root / page).read_text())
    if not m:
        fail(page, "the synopsis", "no '--format a,b,...]'")
    elif m.group(1).split(",") != formats:
        fail(page, "the synopsis", f"--format {m.group(1)}, the program's formats are {','.join(formats)}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[0])
    hooke = sys.argv[1]
    check_scene_format(hooke)
    check_user_guide(hooke)
    check_readme(hooke)
    for f in failures:
        print("check_lists.py: " + f, file=sys.stderr)
    print(f"check_lists.py: {len(failures)} differences between the docs' lists and the program's")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
