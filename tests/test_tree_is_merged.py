"""No file in the tree carries a merge's conflict markers.

Several engineers merge into main at once; a marker left in a phrase
catalogue or a doc parses (or reads) without an error until a table says it.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKERS = ("<" * 7 + " ", ">" * 7 + " ")


def test_no_tracked_file_holds_a_conflict_marker():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    left = []
    for name in filter(None, files.decode().split("\0")):
        path = ROOT / name
        if not path.is_file() or path.stat().st_size > 4 << 20:
            continue
        for n, line in enumerate(path.read_bytes().splitlines(), 1):
            if line.decode("utf-8", "replace").startswith(MARKERS):
                left.append(f"{name}:{n}")
    assert left == []
