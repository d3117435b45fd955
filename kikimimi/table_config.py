"""Table configs: which reader is whose, which output is whose, in one TOML file.

    [table]
    game = "trident"
    players = 3
    lang = "ja"
    tagmap = "tagmaps/trident.toml"       # relative to this file
    journal = "var/trident-table.jsonl"   # the table script; resumed on restart
    options = { scoring = "competition" }

    [readers.hand-1]
    role = "hand"
    seat = 1
    driver = "pn532"                      # pn532 | usb | rdm6300 | sim
    path = "/dev/kikimimi-hand-1"

    [readers.field]
    role = "field"
    driver = "pn532"
    path = "/dev/kikimimi-field"

    [audio.outputs.speaker]
    device = "USB Audio"
    channels = [1, 2]

A config that cannot run a table is refused before anything opens, with
one line naming the file, the key and the problem.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kikimimi.registry import UnknownGame, game_class
from kikimimi.tagmap import TagMapError, load_tagmap

DRIVERS = ("pn532", "usb", "rdm6300", "sim")
READER_KEYS = {"role", "seat", "driver", "path", "poll_ms", "debounce_ms", "ignore_at_connect", "baud",
               "hold_ms", "retry_ms"}


class ConfigError(ValueError):
    """One line: file, key, problem."""


@dataclass
class TableConfig:
    path: Path
    game: str
    players: int
    lang: str
    options: dict[str, Any]
    tagmap: dict[str, str]
    journal: Path
    readers: dict[str, dict[str, Any]]
    audio: dict[str, Any] | None
    records: dict[str, Any] = field(default_factory=dict)

    @property
    def hand_seats(self) -> set[int]:
        return {r["seat"] for r in self.readers.values() if r["role"] == "hand"}

    @property
    def has_field(self) -> bool:
        return any(r["role"] == "field" for r in self.readers.values())

    @property
    def simulated(self) -> bool:
        return all(r["driver"] == "sim" for r in self.readers.values())


def load_table_config(path: str | Path) -> TableConfig:
    p = Path(path)
    where = str(p)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({exc})") from None

    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{where}: {key}: {problem}")

    table = data.get("table")
    if not isinstance(table, dict):
        raise fail("[table]", "missing (it names the game and the players)")
    game = table.get("game")
    try:
        cls = game_class(str(game))
    except UnknownGame as exc:
        raise fail("table.game", str(exc)) from None
    players = table.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise fail("table.players", "must be a whole number")
    if not cls.min_players <= players <= cls.max_players:
        raise fail("table.players", f"{cls.name} is for {cls.min_players}-{cls.max_players} players, not {players}")
    lang = table.get("lang", "ja")
    if lang not in ("ja", "en"):
        raise fail("table.lang", f'must be "ja" or "en", not {lang!r}')
    options = table.get("options", {})
    if not isinstance(options, dict):
        raise fail("table.options", "must be a table")
    tagmap: dict[str, str] = {}
    if "tagmap" in table:
        try:
            tagmap = load_tagmap(p.parent / str(table["tagmap"]))
        except TagMapError as exc:
            raise fail("table.tagmap", str(exc)) from None
    journal = Path(str(table.get("journal", f"var/{p.stem}.jsonl"))).expanduser()
    if not journal.is_absolute():
        journal = p.parent / journal

    readers = data.get("readers")
    if not isinstance(readers, dict) or not readers:
        raise fail("[readers]", "no readers configured (add [readers.hand-1], ... and [readers.field])")
    seats_seen: dict[int, str] = {}
    fields = []
    for rid, section in readers.items():
        key = f"readers.{rid}"
        if not isinstance(section, dict):
            raise fail(key, "must be a table")
        unknown = set(section) - READER_KEYS
        if unknown:
            raise fail(f"{key}.{sorted(unknown)[0]}", f"unknown key (known: {', '.join(sorted(READER_KEYS))})")
        role = section.get("role")
        if role not in ("hand", "field"):
            raise fail(f"{key}.role", f'must be "hand" or "field", not {role!r}')
        driver = section.get("driver")
        if driver not in DRIVERS:
            raise fail(f"{key}.driver", f"must be one of {', '.join(DRIVERS)}, not {driver!r}")
        if driver != "sim" and not isinstance(section.get("path"), str):
            raise fail(f"{key}.path", f"a {driver} reader needs the device path")
        if role == "hand":
            seat = section.get("seat")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= players:
                raise fail(f"{key}.seat", f"must be a seat 1-{players}, not {seat!r}")
            if seat in seats_seen:
                raise fail(f"{key}.seat", f"seat {seat} already has hand reader {seats_seen[seat]}")
            seats_seen[seat] = rid
        else:
            if "seat" in section:
                raise fail(f"{key}.seat", "a field reader belongs to no seat")
            fields.append(rid)
    if len(fields) > 1:
        raise fail(f"readers.{fields[1]}", f"a second field reader (already {fields[0]})")
    missing = sorted(set(range(1, players + 1)) - set(seats_seen))
    if missing:
        raise fail("[readers]", f"no hand reader for seat {missing[0]}")

    audio = data.get("audio")
    if audio is not None and not isinstance(audio, dict):
        raise fail("[audio]", "must be a table")
    records = data.get("records", {})
    if not isinstance(records, dict):
        raise fail("[records]", "must be a table")
    return TableConfig(p, cls.name, players, lang, dict(options), tagmap, journal,
                       {rid: dict(s) for rid, s in readers.items()}, audio, dict(records))
