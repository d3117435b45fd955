"""No import circle among the project's own modules (kikimimi/, games/, examples/), at any level,
and the layers of docs/layers.md kept.

Every import statement counts: a function-level one (hiding an import in a function does not
break a circle, it only delays it) and one under `if TYPE_CHECKING:` too (it does not run, but
it says the lower module knows the higher one, and mypy and a reader follow it round).  A
circle is broken by moving the shared piece down a layer, below both modules: a type the
lower module names goes into a module below both (a `Protocol` of what it reads)."""
from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where each installed package's source lives in the checkout (games/ installs as kikimimi_games).
PACKAGES = {"kikimimi": ROOT / "kikimimi", "kikimimi_games": ROOT / "games",
            **{p.name: p for p in sorted((ROOT / "examples").glob("*/kikimimi_*")) if p.is_dir()}}

#: docs/layers.md, bottom up: each of these modules imports only the modules listed before it.
BOTTOM = ("kikimimi.contract.options", "kikimimi.contract.protocol", "kikimimi.contract.hints", "kikimimi.contract.commands", "kikimimi.contract.declaration")


#: docs/layers.md: the runtime's folders, bottom up.  A module of a folder imports only its own
#: folder and the folders of lower layers (never one beside it on its layer, never one above).
LAYERS = (
    ("kikimimi.contract",),
    ("kikimimi.bots", "kikimimi.readers", "kikimimi.voice", "kikimimi.records"),
    ("kikimimi.table", "kikimimi.roles"),
    ("kikimimi.design",),
    ("kikimimi.api", "kikimimi.box", "kikimimi.testkit", "kikimimi.game"),
    ("kikimimi.console",),
    ("kikimimi.web",),
    ("kikimimi.cli",),
)


def folder_of(name: str) -> str | None:
    """The runtime folder (or the face module) a kikimimi module belongs to."""
    parts = name.split(".")
    return ".".join(parts[:2]) if parts[0] == "kikimimi" and len(parts) > 1 else None


def folder_breaches(graph: dict[str, set[str]], layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    """Each import of a kikimimi module that goes sideways or up between the folders of LAYERS,
    and each kikimimi module that sits in no folder of LAYERS, as one line."""
    rank = {folder: i for i, row in enumerate(layers) for folder in row}
    out = []
    for name, targets in sorted(graph.items()):
        here = folder_of(name)
        if here is None:
            continue
        if here not in rank:
            out.append(f"{name} sits in no folder of docs/layers.md")
            continue
        for target in sorted(targets):
            there = folder_of(target)
            if there is None or there == here or there not in rank:
                continue
            if rank[there] >= rank[here]:
                way = "beside it" if rank[there] == rank[here] else "above it"
                out.append(f"{name} imports {target}: {there} is {way} in docs/layers.md")
    return out


def modules(packages: dict[str, Path] = PACKAGES) -> dict[str, Path]:
    out = {}
    for package, folder in packages.items():
        for path in folder.rglob("*.py"):
            parts = [p for p in path.relative_to(folder).with_suffix("").parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules `name` imports anywhere in it, by the longest module name each import reaches."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    wanted: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            wanted += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            wanted += [base] + [f"{base}.{alias.name}" for alias in node.names]
    out = set()
    for target in wanted:
        while target and target not in known:
            target = target.rpartition(".")[0]
        # a module's own package __init__ runs before it anyway: not an edge of a circle
        if target and target != name and not (known[target].name == "__init__.py" and name.startswith(target + ".")):
            out.add(target)
    return out


def graph_of(known: dict[str, Path]) -> dict[str, set[str]]:
    return {name: imports(name, path, known) for name, path in known.items()}


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return None


def layer_breaches(graph: dict[str, set[str]]) -> list[str]:
    """Each import that goes against docs/layers.md, as one line."""
    out = []
    for i, name in enumerate(BOTTOM):
        above = graph.get(name, set()) - set(BOTTOM[:i])
        out += [f"{name} imports {a}: it may import only {', '.join(BOTTOM[:i]) or 'no project module'}"
                for a in sorted(above)]
    for name, targets in graph.items():
        top = name.split(".")[0]
        for target in sorted(targets):
            other = target.split(".")[0]
            if top == "kikimimi" and other != "kikimimi":
                out.append(f"{name} imports the game {target}: the runtime finds games by entry point only")
            elif top == "kikimimi_games" and other == "kikimimi_games" and name.split(".")[1] != target.split(".")[1]:
                out.append(f"{name} imports another game's {target}: shared pieces belong in kikimimi")
            elif top not in ("kikimimi", "kikimimi_games") and other not in (top, "kikimimi"):
                out.append(f"{name} imports {target}: an outside game imports only itself and kikimimi")
            if target.startswith("kikimimi.cli") and not name.startswith("kikimimi.cli"):
                out.append(f"{name} imports {target}: the command line is the top layer")
    return out


def test_no_import_circle_at_any_level() -> None:
    found = circle(graph_of(modules()))
    assert found is None, f"import circle: {' -> '.join(found or [])}"


def test_the_layers_hold() -> None:
    breaches = layer_breaches(graph_of(modules()))
    assert not breaches, "\n".join(breaches)


def test_the_folders_are_the_layers() -> None:
    breaches = folder_breaches(graph_of(modules()))
    assert not breaches, "\n".join(breaches)


def test_the_runtime_keeps_to_a_dozen_top_level_modules() -> None:
    top = sorted(p.name for p in (ROOT / "kikimimi").glob("*.py"))
    assert len(top) <= 12, top


def test_the_folder_check_sees_a_breach() -> None:
    graph = {"kikimimi.contract.kit": {"kikimimi.table.config"}, "kikimimi.bots.ear": {"kikimimi.voice.render"},
             "kikimimi.table.engine": {"kikimimi.contract.protocol", "kikimimi.table.journal"},
             "kikimimi.stray": set()}
    breaches = folder_breaches(graph)
    assert breaches == ["kikimimi.bots.ear imports kikimimi.voice.render: kikimimi.voice is beside it in docs/layers.md",
                        "kikimimi.contract.kit imports kikimimi.table.config: kikimimi.table is above it in docs/layers.md",
                        "kikimimi.stray sits in no folder of docs/layers.md"], breaches


def test_the_check_sees_a_circle(tmp_path: Path) -> None:
    """The check itself: two modules importing each other, one from inside a function, are a
    circle; so are two that know each other only for their types."""
    (tmp_path / "a.py").write_text("from pkg import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from pkg.a import x\n")
    (tmp_path / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import d\n")
    (tmp_path / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.c import C\n")
    (tmp_path / "e.py").write_text("import os\n")
    known = {f"pkg.{m}": tmp_path / f"{m}.py" for m in "abcde"}
    graph = graph_of(known)
    assert graph == {"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.c": {"pkg.d"}, "pkg.d": {"pkg.c"}, "pkg.e": set()}
    assert set(circle({k: graph[k] for k in ("pkg.c", "pkg.d", "pkg.e")}) or []) == {"pkg.c", "pkg.d"}
    assert set(circle({k: graph[k] for k in ("pkg.a", "pkg.b")}) or []) == {"pkg.a", "pkg.b"}
    assert circle({"pkg.e": set()}) is None


def test_the_check_sees_a_layer_broken() -> None:
    graph = {"kikimimi.contract.protocol": {"kikimimi.contract.options", "kikimimi.contract.declaration"}, "kikimimi.contract.declaration": set(),
             "kikimimi.table.engine": {"kikimimi_games.witch"}, "kikimimi_games.witch.bots": {"kikimimi_games.trident"},
             "kikimimi_highcard": {"kikimimi_games.trident", "kikimimi.contract.protocol"},
             "kikimimi.design.sim": {"kikimimi.cli.play"}}
    breaches = layer_breaches(graph)
    assert len(breaches) == 5, breaches
    assert breaches[0].startswith("kikimimi.contract.protocol imports kikimimi.contract.declaration: it may import only kikimimi.contract.options")


def test_examples_are_covered() -> None:
    assert "kikimimi_highcard" in modules() and "kikimimi_highcard.ear" in modules()


def test_the_built_in_games_have_one_name() -> None:
    """games/ installs as `kikimimi_games`; importing it as `games` too would load each file a
    second time, with classes distinct from the installed ones (an isinstance that fails)."""
    found = []
    for top in ("kikimimi", "games", "examples", "tests", "bench"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "build" in path.parts or ".venv" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in names if n.split(".")[0] == "games"]
    assert found == [], "\n".join(found)
