"""`kikimimi doctor`: what is configured, what is found, what is missing, each with the fix.

The checks of each part live with that part (`kikimimi.readers.checks`,
`kikimimi.voice.checks`); this module only gathers them, so a table that
does not speak or does not read gets one list of things to mend.
"""
from __future__ import annotations

import ctypes.util
import importlib
import os
import shutil
import sys
from pathlib import Path
from typing import Any, Sequence

from kikimimi.contract.finding import Check
from kikimimi.contract.phrases import LANGUAGES, CatalogueError, Phrasebook
from kikimimi.contract.registry import declaration, game_names
from kikimimi.table.secret_seed import doctor_line
from kikimimi.table.config import ConfigError, TableConfig, load_table_config


def system_checks() -> list[Check]:
    out = [Check("python", sys.version_info >= (3, 11), sys.version.split()[0],
                 "install Python 3.11 or newer")]
    espeak = shutil.which("espeak-ng")
    out.append(Check("speech engine", espeak is not None, espeak or "espeak-ng not found",
                     "apt-get install espeak-ng"))
    portaudio = ctypes.util.find_library("portaudio")
    out.append(Check("audio library", portaudio is not None, portaudio or "PortAudio not found",
                     "apt-get install libportaudio2"))
    out += _reader_kind_checks()
    venv = venv_check()
    if venv is not None:
        out.append(venv)
    out += _part_checks("kikimimi.box.pi_power")  # a Raspberry Pi's under-voltage and throttling; nothing elsewhere
    return out


def venv_check(prefix: Path | None = None) -> Check | None:
    """A tree copied (or moved) after `scripts/setup` keeps its venv's scripts, whose first line
    names the interpreter of the venv they were made in: they run the old tree's program, or
    nothing once it is gone, and say nothing of it.  None outside a venv."""
    prefix = Path(sys.prefix if prefix is None else prefix)
    if not (prefix / "pyvenv.cfg").is_file():
        return None
    script = prefix / "bin" / "kikimimi"
    try:
        with script.open("rb") as f:
            first = f.readline(4096).decode("utf-8", "replace").strip()
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    named = first[2:].strip().split()[0] if first[2:].strip() else ""
    if Path(os.path.abspath(named)).parent == prefix / "bin":
        return Check("virtual environment", True, f"{prefix}: its scripts run its own interpreter")
    return Check("virtual environment", False,
                 f"{script} starts {named}, another venv's interpreter (the tree was copied after its set-up)",
                 f"rebuild it here: rm -rf {prefix} && scripts/setup")


def _reader_kind_checks() -> list[Check]:
    """What each reader kind checks of the machine with or without a table (a USB reader's
    libusb), and the installed kinds that did not load."""
    from kikimimi.readers import registry

    out = [c for kind in registry.kinds() if kind.system_checks for c in kind.system_checks()]
    out += [Check(f"reader kind {name}", False, why, "reinstall the package that provides it")
            for name, why in registry.problems().items()]
    return out


def game_checks() -> list[Check]:
    out = []
    for name in game_names():
        try:
            decl = declaration(name)
        except Exception as exc:
            out.append(Check(f"game {name}", False, f"plugin does not load: {exc}",
                             "reinstall the package that provides it (pip install .)"))
            continue
        out.append(Check(f"game {name}", True, f"{decl.play.__module__}.{decl.play.__qualname__}"))
        for lang in LANGUAGES:
            try:
                book = Phrasebook(lang, ("core", name))
            except CatalogueError as exc:
                out.append(Check(f"voices {name}/{lang}", False, str(exc), "fix the TOML file named"))
                continue
            if not book.phrases:
                out.append(Check(f"voices {name}/{lang}", False, "no phrases", f"add phrases/{lang}.toml to the game's package"))
    return out


def _part_checks(module: str, *args: object, **kwargs: object) -> list[Check]:
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return []
        raise
    return list(mod.doctor_checks(*args, **kwargs))


#: Where doctor looks for the installed udev rules instead of the system's folders
#: (colon-separated): a test, or a box image built elsewhere, names its own, so what
#: this machine has installed in /etc/udev/rules.d never changes the answer.
RULES_DIRS_ENV = "KIKIMIMI_UDEV_RULES"


def udev_rules_dirs(given: Sequence[str] | None = None) -> dict[str, Sequence[str]]:
    """The rules folders to pass on: the caller's, else $KIKIMIMI_UDEV_RULES, else the part's default."""
    if given is not None:
        return {"rules_dirs": list(given)}
    env = os.environ.get(RULES_DIRS_ENV)
    if env is not None:
        return {"rules_dirs": [d for d in env.split(":") if d]}
    return {}


def config_checks(path: str | Path,
                  rules_dirs: Sequence[str] | None = None) -> tuple[TableConfig | None, list[Check]]:
    try:
        config = load_table_config(path)
    except ConfigError as exc:
        # The loader's own line (file, key or line and column); the fix must not invent a key.
        return None, [Check("table config", False, str(exc), f"correct {path} where the message points")]
    out = [Check("table config", True,
                 f"{config.path}: {config.game} for {config.players}, {len(config.readers)} readers, lang {config.lang}")]
    out.append(_journal_check(config.journal))
    from kikimimi.readers import registry
    from kikimimi.readers.kind import Where

    real = {rid: s for rid, s in config.readers.items() if not registry.simulated(s)}
    if real:
        out += _part_checks("kikimimi.readers.checks", real, **udev_rules_dirs(rules_dirs))
        out += _reader_identity(real)
    else:  # a simulated table: what its kind says of itself
        out += [c for kind, own in registry.by_kind(config.readers) if kind.checks for c in kind.checks(own, Where())]
    out += _part_checks("kikimimi.box.kit_checks", config)  # the look-alike sets the table needs, read out
    seed = doctor_line(config.game, dict(config.options))
    if seed is not None:
        out.append(Check("secret seed", True, seed))
    audio = _part_checks("kikimimi.voice.checks", config.audio, config.players, config.lang)
    out += audio if config.audio is not None else _without_audio(audio)
    return config, out


def _reader_identity(readers: dict[str, dict]) -> list[Check]:
    """Paths the kernel numbers anew at a replug or a reboot (/dev/ttyUSB0, nfcpy's usb:BUS:DEVICE),
    as each reader's kind tells them (`ReaderKind.renumbered`): one line for each way of numbering."""
    from kikimimi.readers import registry
    from kikimimi.readers.kind import Renumbered

    numbered: dict[Renumbered, list[str]] = {}
    for kind in registry.kinds():  # in the registry's order, so the lines come in one order
        if kind.renumbered is not None:
            numbered.setdefault(kind.renumbered, [])
    for rid, s in readers.items():
        way = getattr(registry.kind_of(s), "renumbered", None)
        if way is not None and way.pattern.fullmatch(str(s.get("path", ""))):
            numbered[way].append(f"{rid} ({s['path']})")
    out = [Check("reader identity", False, f"{', '.join(names)}: {way.why}", way.fix)
           for way, names in numbered.items() if names]
    return out or [Check("reader identity", True, "every reader is named by something a reboot keeps")]


def _journal_check(journal: Path) -> Check:
    """`serve` creates the journal's folders itself: what matters is that it may."""
    folder = journal.parent
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.is_dir() and os.access(existing, os.W_OK | os.X_OK):
        made = "" if existing == folder else f" ({folder} is created when the table starts)"
        return Check("journal", True, f"{journal}{made}")
    return Check("journal", False, f"{existing} is not writable by this user, so {journal} cannot be written",
                 f"make {existing} writable, or set table.journal to a folder you own")


def _without_audio(checks: list[Check]) -> list[Check]:
    """A table with no [audio] speaks as text on purpose: no sound card is not a fault there."""
    out = []
    for check in checks:
        if not check.ok and check.name == "audio outputs":
            check = Check("audio outputs", True, "none configured: the table speaks as text "
                          "(add [audio.outputs.speaker] and [audio.outputs.seat-N] for sound cards)")
        elif not check.ok and check.name == "audio devices":
            check = Check("audio devices", True, f"{check.detail} (not needed: this table has no [audio])")
        out.append(check)
    return out


def run(config_path: str | None) -> list[Check]:
    checks = system_checks() + game_checks()
    if config_path:
        checks += config_checks(config_path)[1]
    else:  # the machine's sound only: which outputs a table has is the table file's to say
        checks += [c for c in _part_checks("kikimimi.voice.checks", None, 3) if c.name != "audio outputs"]
    return checks


def listen(config_path: str, pause: float = 0.5) -> list[Check]:
    """`doctor --listen`: "speaker", then "seat 1", "seat 2", … through each output in turn,
    so a table checks its earphones by ear; one finding per output, said or not."""
    import time

    from kikimimi.voice.config import SPEAKER
    from kikimimi.voice.output import AudioOutput

    config = load_table_config(config_path)
    if config.audio is None:
        return [Check("listen", False, "no [audio] in the table file: nothing to listen to",
                      "run kikimimi table setup, or add [audio.outputs.*]")]
    out = AudioOutput.from_config(config.audio, config.players, config.lang)
    book = Phrasebook(config.lang, ("core", "setup"))
    lines: list[tuple[str, str, str, dict[str, int]]] = [(SPEAKER, "table", "listen-speaker", {})] + [
        (f"seat-{n}", f"seat:{n}", "listen-seat", {"seat": n}) for n in range(1, config.players + 1)]
    kit_said = _kit_by_ear(config, book)
    checks = []
    try:
        out.prepare([book.render(key, params) for _, _, key, params in lines]
                    + [book.render(key, params) for key, params in kit_said], progress=False)
        for name, audience, key, params in lines:
            text = book.render(key, params)
            problem = out.problems.get(name)
            if problem is not None:  # never re-routed: "seat 2" in another earphone would mislead
                checks.append(Check(f"listen {name}", False, problem))  # each problem ends with its own fix
                continue
            said = out.emit([{"type": "say", "to": audience, "key": key, "params": params, "text": text}])
            out.wait_idle(timeout=30)
            device = out.lane_device[name].name
            checks.append(Check(f"listen {name}", not said, f"said {text!r} on {device!r}" if not said
                                else "; ".join(said), "check the device named"))
            time.sleep(pause)
        checks.append(_say_kit(out, SPEAKER, kit_said, book))
    finally:
        out.close()
    return checks


def _kit_by_ear(config: TableConfig, book: Phrasebook) -> list[tuple[str, dict[str, Any]]]:
    """The kit's lines for the speaker, for every game of the evening: the pieces each player
    holds, the table's, and (with real readers) the pieces that game's tag map lacks.  The kit
    is public: nobody's secret is in it."""
    from kikimimi.box.kit_checks import evening_choices
    from kikimimi.contract.kit import kit_for, missing_copies, spoken_lines, tags_checked
    from kikimimi.box.setup.enrol import piece_names

    out: list[tuple[str, dict[str, Any]]] = []
    for choice in evening_choices(config):
        try:
            kit = kit_for(choice.game, choice.players, choice.options)
        except Exception:  # a plugin that cannot say its kit: `doctor` without --listen says why
            return []
        names = piece_names([choice.game], book.lang, kit.own + kit.table)  # the enrolment's words
        out += spoken_lines(kit, missing_copies(kit, choice.tagmap) if tags_checked(config) else None, book, names)
    return out


def _say_kit(out: Any, speaker: str, said: list[tuple[str, dict[str, Any]]], book: Phrasebook) -> Check:
    """One finding for the kit read out on the speaker (after "speaker", "seat 1", …)."""
    if not said:
        return Check("listen kit", False, "the game cannot list its kit", "run kikimimi doctor TABLE.toml")
    if speaker in out.problems:
        return Check("listen kit", False, "not said: the speaker cannot play", "plug it in, or run kikimimi table setup")
    problems = out.emit([{"type": "say", "to": "table", "key": key, "params": params,
                          "text": book.render(key, params)} for key, params in said])
    out.wait_idle(timeout=120)
    return Check("listen kit", not problems, f"said the kit in {len(said)} lines on the speaker" if not problems
                 else "; ".join(problems), "check the speaker")
