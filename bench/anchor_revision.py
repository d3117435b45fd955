"""The code of another git revision, importable beside this one: the anchor of a speed bench.

A speed figure means little on a shared, loaded machine unless the "before"
is measured in the same run.  `Revision` unpacks a commit (`git archive`)
into a temporary directory laid out as the installed packages are named
(`kikimimi`, `kikimimi_games`, `kikimimi_voices`, `kikimimi_hardware`), so a
bench can run the same measuring code in a subprocess with that directory
first on `PYTHONPATH` (it wins over the editable install, whose finder comes
after the path) and alternate old and new runs.  The directory also carries
the revision's own entry points (the game registry, from its pyproject.toml)
in a dist-info folder that comes first on the path, so each game resolves to
what that revision registered (a class then, a declaration now).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

#: Import name -> folder of the source tree (pyproject.toml's package-dir).
PACKAGES = {"kikimimi": "kikimimi", "kikimimi_games": "games", "kikimimi_voices": "voices",
            "kikimimi_hardware": "hardware"}
REPO = Path(__file__).resolve().parent.parent
#: main just before the engine work of docs/speed.md: the "before" of the engine benches.  Not `main`
#: itself, which holds the work once it is merged.
BEFORE = "ddf53dc"


class Revision:
    """`with Revision("main") as rev: rev.run([...])`: a command under that commit's code."""

    def __init__(self, rev: str) -> None:
        self.rev = rev
        self.commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", rev],
                                     check=True, capture_output=True, text=True).stdout.strip()
        self.root = Path(tempfile.mkdtemp(prefix=f"kikimimi-anchor-{self.commit}-"))

    def __enter__(self) -> "Revision":
        src = self.root / "src"
        src.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", self.commit], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
        site = self.root / "site"
        site.mkdir()
        for name, folder in PACKAGES.items():
            (site / name).symlink_to(src / folder)
        _entry_points(src / "pyproject.toml", site)
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(self.root / "site"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        return env


def _entry_points(pyproject: Path, site: Path) -> None:
    """A dist-info folder of the revision's entry points: importlib.metadata takes the first
    distribution of a name on the path, so the registry reads these, not the installed ones."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    info = site / f"kikimimi-{project.get('version', '0')}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: kikimimi\nVersion: {project.get('version', '0')}\n",
                                   encoding="utf-8")
    groups = {"console_scripts": project.get("scripts", {}), **project.get("entry-points", {})}
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in points.items()) + "\n"
        for group, points in groups.items() if points), encoding="utf-8")


def run_python(args: list[str], revision: Revision | None = None) -> str:
    """stdout of `python ARGS` under this tree's code, or the revision's (run
    from the temporary directory: `-c` puts the working directory first on the path)."""
    env = revision.env() if revision is not None else None
    done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          cwd=tempfile.gettempdir())
    if done.returncode:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def code_of(module: str, revision: Revision | None = None) -> str:
    """Where `module` is imported from (to show a bench measured what it says)."""
    return run_python(["-c", f"import {module} as m; print(m.__file__)"], revision).strip()
