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

from kikimimi.checks import Check
from kikimimi.phrases import LANGUAGES, CatalogueError, Phrasebook
from kikimimi.registry import game_class, game_names
from kikimimi.table_config import ConfigError, TableConfig, load_table_config


def system_checks() -> list[Check]:
    out = [Check("python", sys.version_info >= (3, 11), sys.version.split()[0],
                 "install Python 3.11 or newer")]
    espeak = shutil.which("espeak-ng")
    out.append(Check("speech engine", espeak is not None, espeak or "espeak-ng not found",
                     "apt-get install espeak-ng"))
    portaudio = ctypes.util.find_library("portaudio")
    out.append(Check("audio library", portaudio is not None, portaudio or "PortAudio not found",
                     "apt-get install libportaudio2"))
    return out


def game_checks() -> list[Check]:
    out = []
    for name in game_names():
        try:
            cls = game_class(name)
        except Exception as exc:
            out.append(Check(f"game {name}", False, f"plugin does not load: {exc}",
                             "reinstall the package that provides it (pip install .)"))
            continue
        out.append(Check(f"game {name}", True, f"{cls.__module__}.{cls.__qualname__}"))
        for lang in LANGUAGES:
            try:
                book = Phrasebook(lang, ("core", name))
            except CatalogueError as exc:
                out.append(Check(f"voices {name}/{lang}", False, str(exc), "fix the TOML file named"))
                continue
            if not book.phrases:
                out.append(Check(f"voices {name}/{lang}", False, "no phrases", f"add voices/{name}/{lang}.toml"))
    return out


def _part_checks(module: str, *args: object) -> list[Check]:
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return []
        raise
    return list(mod.doctor_checks(*args))


def config_checks(path: str | Path) -> tuple[TableConfig | None, list[Check]]:
    try:
        config = load_table_config(path)
    except ConfigError as exc:
        return None, [Check("table config", False, str(exc), "fix the key named in the file")]
    out = [Check("table config", True,
                 f"{config.path}: {config.game} for {config.players}, {len(config.readers)} readers, lang {config.lang}")]
    journal_dir = config.journal.parent
    writable = os.access(journal_dir if journal_dir.exists() else journal_dir.parent, os.W_OK)
    out.append(Check("journal", writable, str(config.journal),
                     f"make {journal_dir} writable, or set table.journal"))
    real = {rid: s for rid, s in config.readers.items() if s["driver"] != "sim"}
    if real:
        out += _part_checks("kikimimi.readers.checks", real)
    else:
        out.append(Check("readers", True, "simulated (keyboard or script)"))
    out += _part_checks("kikimimi.voice.checks", config.audio, config.players)
    return config, out


def run(config_path: str | None) -> list[Check]:
    checks = system_checks() + game_checks()
    if config_path:
        checks += config_checks(config_path)[1]
    else:
        checks += _part_checks("kikimimi.voice.checks", None, 3)
    return checks
