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


#: Every file of the repository a reader is pointed at: the README, docs/, and the code's own
#: comments and docstrings (kikimimi/, games/, tests/, bench/, examples/, scripts/).
SOURCES = [*DOCS, *sorted(p for top in ("kikimimi", "games", "tests", "bench", "examples", "scripts")
                          for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".md", ".toml") and p.is_file()
                          and not any(part in ("build", ".venv") or part.endswith(".egg-info") for part in p.parts))]
PATH = re.compile(r"(?<![\w/.-])((?:docs|kikimimi|tests|bench|games|scripts|udev|hardware|voices|examples)/[\w./-]*\w\.(?:py|md|toml))")
#: A tracker's issue number: the repository holds the reason, so a reference names the file that
#: does.  Another project's issues (nfcpy's, libnfc's: real-chip traces) are cited as theirs.
ISSUE = re.compile(r"(?<![\w/#])(?:[Ii]ssues?|ISSUE)[ -]#?\d+")
OTHERS = re.compile(r"(nfcpy|libnfc|rdm6300|pyopenjtalk|github\.com/\S+)[^.\n]{0,12}issues? #\d+", re.I)


def test_every_file_a_source_names_is_there():
    missing = []
    for source in SOURCES:
        for n, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            for path in PATH.findall(line):
                written = "my-table" in path or f"--tagmap {path}" in line  # what the owner's commands write
                if not (ROOT / path).exists() and not written and "GAME" not in path and "NAME" not in path:
                    missing.append(f"{source.relative_to(ROOT)}:{n}: {path}")
    assert missing == [], "\n".join(missing)


def test_no_source_names_an_issue_number():
    found = [f"{source.relative_to(ROOT)}:{n}: {line.strip()[:120]}" for source in SOURCES
             for n, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1)
             if ISSUE.search(OTHERS.sub("", line))]
    assert found == [], "\n".join(found)
