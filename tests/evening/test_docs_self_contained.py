"""The README is the whole guide: it and docs/ name only files of this repository (a clone
has no ../shared), and the contract and every game's rules are among them."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_no_document_points_outside_the_repository():
    outside = re.compile(r"\.\./shared|/work/|(?<![\w/])shared/(rules|seeds|CONTRACT|DESIGN)")
    found = [f"{doc.relative_to(ROOT)}:{n}: {line.strip()}" for doc in DOCS
             for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1) if outside.search(line)]
    assert found == []


def test_every_document_the_readme_and_docs_name_is_in_the_repository():
    named = {(doc, m.group(1)) for doc in DOCS
             for m in re.finditer(r"`((?:docs|udev|scripts|hardware|games|kikimimi|tests|bench|voices)/[^`*{}\s]+)`",
                                  doc.read_text(encoding="utf-8"))}
    missing = [f"{doc.relative_to(ROOT)}: {path}" for doc, path in named
               if not (ROOT / path.rstrip("/").split("::")[0]).exists() and "GAME" not in path and "<" not in path]
    assert missing == []


def test_the_contract_and_every_games_rules_are_docs():
    import tomllib

    # the games this project ships (its entry points), not a test's toy registered in the process
    shipped = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]["kikimimi.games"]
    assert "## Table script (input)" in (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
    assert len(shipped) == 5
    for game in shipped:
        assert (ROOT / "docs" / "rules" / f"{game}.md").is_file(), game
