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
    driver = "pn532"                      # a reader kind: pn532 | usb | rdm6300 | sim (kikimimi.readers.registry)
    path = "/dev/kikimimi-hand-1"

    [readers.field]
    role = "field"
    driver = "pn532"
    path = "/dev/kikimimi-field"

    [audio.outputs.speaker]
    device = "USB Audio"
    channels = [1, 2]

    [games.onisagashi]                    # more games for the evening (kikimimi/table/evening.py)
    players = 4                           # default: table.players
    tagmap = "tagmaps/onisagashi.toml"    # default: none
    options = { rules = "beginner" }
    card = "04a1b2c3d4e5f6"               # the game card's uid: on the field reader between games

A config that cannot run a table is refused before anything opens, with
one line naming the file, the key and the problem: the whole file is checked
against `SCHEMA` (an unknown section or key is a typo, never ignored), the
game checks its own options (`Declaration.check_options`), each reader's kind
checks its section (its keys are in the schema, `kikimimi.readers.registry`), and
the audio part checks `[audio]`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kikimimi.contract.game_files import sim_table_file
from kikimimi.readers import registry as reader_kinds
from kikimimi.contract.registry import UnknownGame, declaration, game_names
from kikimimi.contract.tagmap import TagMapError, load_tagmap

#: Largest table config read.
MAX_CONFIG_BYTES = 1024 * 1024


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _nonempty_str(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip())


#: What each key may hold: (check, what it must be).  Sections not listed are unknown.
Check = tuple[Callable[[Any], bool], str]
SCHEMA: dict[str, dict[str, Check]] = {
    "table": {
        "game": (_nonempty_str, "a game name"),
        "players": (_is_int, "a whole number"),
        "lang": (lambda v: v in ("ja", "en"), '"ja" or "en"'),
        "tagmap": (_nonempty_str, "a file name"),
        "journal": (_nonempty_str, "a file name"),
        "options": (lambda v: isinstance(v, dict), "a table of game options"),
        "ready_wait": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 120,
                       "seconds serve waits for the readers before it speaks, 0-120"),
    },
    "readers.*": {},  # every reader kind's keys, from the registry (`_reader_schema`)
    "records": {
        "db": (_nonempty_str, "a file name"),
    },
    "seat_bots": {  # bots in empty seats (docs/seat-bots.md)
        "delay": (lambda v: isinstance(v, list) and len(v) == 2
                  and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
                  and 0 <= v[0] <= v[1] <= 60, "[least, most] seconds a bot waits before it acts, 0-60"),
    },
    "web": {  # the web console (kikimimi web; docs/web.md)
        "bind": (lambda v: isinstance(v, list) and 0 < len(v) <= 8 and all(_nonempty_str(x) for x in v),
                 'a list of "ADDRESS:PORT" served over TLS'),
        "audience": (lambda v: isinstance(v, list) and len(v) <= 8 and all(_nonempty_str(x) for x in v),
                     'a list of "ADDRESS:PORT" serving the audience view as plain HTTP'),
        "names": (lambda v: isinstance(v, list) and len(v) <= 8 and all(_nonempty_str(x) and len(x) <= 253 for x in v),
                  "a list of host names a phone may use for the box"),
    },
    "games.*": {
        "players": (_is_int, "a whole number"),
        "tagmap": (_nonempty_str, "a file name"),
        "options": (lambda v: isinstance(v, dict), "a table of game options"),
        "card": (lambda v: _nonempty_str(v) and len(v) <= 64, "a tag uid (hex)"),
    },
}
#: Sections checked by their own part (`[audio]`: the voice part's parser).
DELEGATED = ("audio",)


def _reader_schema() -> dict[str, Check]:
    """What a `[readers.ID]` section may hold: the keys of every reader kind known."""
    names = reader_kinds.names()
    keys: dict[str, Check] = {name: (key.check, key.what) for name, key in reader_kinds.section_keys().items()}
    keys["driver"] = (lambda v: v in names, "one of " + ", ".join(names))
    return keys


class ConfigError(ValueError):
    """One line: file, key, problem."""


#: Seconds `serve` waits for every reader's first connect when `[table] ready_wait` is unset.
READY_WAIT = 10.0

@dataclass(frozen=True)
class GameChoice:
    """One game a table can play in an evening: its seats, options, tag set and card."""

    game: str
    players: int
    options: dict[str, Any]
    tagmap: dict[str, str]
    card: str | None = None  # the game card's uid (normalised), scanned on the field reader between games


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
    #: Every game of the evening by name, `game` (the first) included.
    games: dict[str, GameChoice] = field(default_factory=dict)
    #: `[seat_bots]`: `delay = [least, most]` seconds (kikimimi.bots.empty_seats.DELAY when unset).
    seat_bots: dict[str, Any] = field(default_factory=dict)
    #: `[table] ready_wait`: seconds serve waits for every reader's first connect (kikimimi.table.readiness).
    ready_wait: float = READY_WAIT
    #: `[web]`: the web console's addresses (kikimimi.web.serve).
    web: dict[str, Any] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        """Seats the table is built for: the most any of its games uses."""
        return max([self.players, *(g.players for g in self.games.values())])

    @property
    def hand_seats(self) -> set[int]:
        return {r["seat"] for r in self.readers.values() if r["role"] == "hand"}

    @property
    def has_field(self) -> bool:
        return any(r["role"] == "field" for r in self.readers.values())

    @property
    def simulated(self) -> bool:
        return all(reader_kinds.simulated(r) for r in self.readers.values())


def _read_toml(p: Path) -> dict[str, Any]:
    from kikimimi.contract.tomlfile import TomlFileError, read_toml

    try:
        return read_toml(p, MAX_CONFIG_BYTES, "table config")
    except TomlFileError as exc:
        raise ConfigError(str(exc)) from None


def _check_schema(data: Mapping[str, Any], fail: Callable[[str, str], ConfigError]) -> None:
    known = sorted({name.split(".")[0] for name in SCHEMA} | set(DELEGATED))
    for section, body in data.items():
        if section not in known:
            raise fail(f"[{section}]", f"unknown section (known: {', '.join(f'[{k}]' for k in known)})")
        if section in DELEGATED:
            continue
        if not isinstance(body, dict):
            raise fail(f"[{section}]", "must be a table")
        if section in ("readers", "games"):
            for rid, reader in body.items():
                if not isinstance(reader, dict):
                    raise fail(f"{section}.{rid}", "must be a table")
                schema = _reader_schema() if section == "readers" else SCHEMA["games.*"]
                _check_keys(f"{section}.{rid}", reader, schema, fail)
        else:
            _check_keys(section, body, SCHEMA[section], fail)


def _check_keys(where: str, body: Mapping[str, Any], schema: Mapping[str, Check],
                fail: Callable[[str, str], ConfigError]) -> None:
    for key, value in body.items():
        if key not in schema:
            raise fail(f"{where}.{key}", f"unknown key (known: {', '.join(sorted(schema))})")
        check, what = schema[key]
        if not check(value):
            raise fail(f"{where}.{key}", f"must be {what}, not {value!r}")


def load_table_config(path: str | Path, *, home: Path | None = None, served: bool = False) -> TableConfig:
    """The table a file describes; a game's name instead of a file (`kikimimi serve
    trident`) is that game's own simulated table (`sim.toml` in its package), whose
    relative paths (journal, tag map) are then taken from the current folder.

    `home`: what `~` in the journal's path is (the service's home, HOME= in its unit, for an
    install or a console finding the table the service runs); default the caller's own.
    `served`: the file is read to reach a table someone else serves (the console), so the
    journal's folder need not be the reader's to write."""
    p = Path(path)
    base: Path | None = None
    if not p.exists() and isinstance(path, str) and path.isidentifier():
        packaged = sim_table_file(path)
        if packaged is not None:
            p, base = Path(str(packaged)), Path.cwd()
        elif path not in game_names():  # `serve tridnet`: a game's name mistyped, not a file
            raise ConfigError(f"{path}: unknown game and no such table file (games: {', '.join(game_names())}; "
                              "or name a table file, kikimimi table setup writes one)")
    where = str(p)
    data = _read_toml(p)
    base = base or p.parent

    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{where}: {key}: {problem}")

    _check_schema(data, fail)
    table = data.get("table")
    if not isinstance(table, dict):
        raise fail("[table]", "missing (it names the game and the players)")
    game = table.get("game")
    if game is None:
        raise fail("table.game", "missing (the game this table plays)")
    try:
        decl = declaration(str(game))
    except UnknownGame as exc:
        raise fail("table.game", str(exc)) from None
    players = table.get("players")
    if players is None:
        raise fail("table.players", "missing (how many seats)")
    try:
        decl.check_players(players)
    except ValueError as exc:
        raise fail("table.players", str(exc)) from None
    lang = table.get("lang", "ja")
    options = table.get("options", {})
    try:
        decl.check_options(players, options)
    except ValueError as exc:
        raise fail("table.options", str(exc)) from None
    tagmap: dict[str, str] = {}
    if "tagmap" in table:
        try:
            tagmap = load_tagmap(base / str(table["tagmap"]))
        except TagMapError as exc:
            raise fail("table.tagmap", str(exc)) from None
    games = {decl.name: GameChoice(decl.name, players, dict(options), tagmap)}
    games.update(_evening_games(p, data.get("games", {}), players, games[decl.name], fail))
    top = max(g.players for g in games.values())
    journal = _expand_home(str(table.get("journal", f"var/{p.stem}.jsonl")), home)
    if not journal.is_absolute():
        journal = base / journal
    if not served:
        _check_journal_place(journal, fail)

    readers = data.get("readers")
    if not isinstance(readers, dict) or not readers:
        raise fail("[readers]", "no readers configured (add [readers.hand-1], ... and [readers.field])")
    seats_seen: dict[int, str] = {}
    fields = []
    for rid, section in readers.items():
        key = f"readers.{rid}"
        role = section.get("role")
        if role is None:
            raise fail(f"{key}.role", 'missing ("hand" or "field")')
        driver = section.get("driver")
        if driver is None:
            raise fail(f"{key}.driver", f"missing (one of {', '.join(reader_kinds.names())})")
        kind = reader_kinds.kind(driver)
        assert kind is not None  # the schema knows only the registry's names
        if kind.needs_path and not isinstance(section.get("path"), str):
            raise fail(f"{key}.path", f"a {driver} reader needs the device path")
        if role == "hand":
            seat = section.get("seat")
            if not _is_int(seat) or not 1 <= seat <= top:
                raise fail(f"{key}.seat", f"must be a seat 1-{top}, not {seat!r}")
            if seat in seats_seen:
                raise fail(f"{key}.seat", f"seat {seat} already has hand reader {seats_seen[seat]}")
            seats_seen[seat] = rid
        else:
            if "seat" in section:
                raise fail(f"{key}.seat", "a field reader belongs to no seat")
            fields.append(rid)
        if kind.open is not None:
            _check_driver(rid, section, fail)
    if len(fields) > 1:
        raise fail(f"readers.{fields[1]}", f"a second field reader (already {fields[0]})")
    _check_one_device_each(readers, fail)
    missing = sorted(set(range(1, top + 1)) - set(seats_seen))
    if missing:
        raise fail("[readers]", f"no hand reader for seat {missing[0]}")
    kinds = {("sim" if reader_kinds.simulated(r) else "hardware"): rid for rid, r in readers.items()}
    if len(kinds) > 1:
        raise fail(f"readers.{kinds['sim']}.driver",
                   f"a simulated reader beside hardware readers (readers.{kinds['hardware']}): "
                   "a table is all simulated or all hardware")

    audio = data.get("audio")
    if audio is not None:
        if not isinstance(audio, dict):
            raise fail("[audio]", "must be a table")
        pack = audio.get("pack")
        if isinstance(pack, str) and pack and not Path(pack).expanduser().is_absolute():
            # beside the table file, as its tag maps are: not wherever `serve` (or the install) was run from
            audio = {**audio, "pack": str(base / pack)}
        _check_audio(audio, top, fail)
    records = data.get("records", {})
    return TableConfig(p, decl.name, players, lang, dict(options), tagmap, journal,
                       {rid: dict(s) for rid, s in readers.items()}, audio, dict(records), games,
                       dict(data.get("seat_bots", {})), float(table.get("ready_wait", READY_WAIT)),
                       dict(data.get("web", {})))


def _expand_home(text: str, home: Path | None) -> Path:
    """`~` and `~/…` as `home` when given (`~user/…` is always that user's own)."""
    if home is not None and (text == "~" or text.startswith("~/")):
        return home / text[2:] if text != "~" else home
    return Path(text).expanduser()


def tagmap_paths(config: TableConfig) -> list[Path]:
    """Every tag map file the table reads ([table] and each [games.NAME]), as named in the file."""
    data = _read_toml(config.path)
    found = []
    for section in [data.get("table", {}), *data.get("games", {}).values()]:
        if isinstance(section, dict) and isinstance(section.get("tagmap"), str):
            found.append(config.path.parent / section["tagmap"])
    return list(dict.fromkeys(found))


def _evening_games(p: Path, sections: Mapping[str, Any], players: int, first: GameChoice,
                   fail: Callable[[str, str], ConfigError]) -> dict[str, GameChoice]:
    """The `[games.NAME]` sections: each a game of the evening, checked as [table]'s game is."""
    from kikimimi.contract.tagmap import normalise_uid

    out: dict[str, GameChoice] = {}
    cards: dict[str, str] = {}
    for name, section in sections.items():
        key = f"games.{name}"
        try:
            decl = declaration(str(name))
        except UnknownGame as exc:
            raise fail(key, str(exc)) from None
        if decl.name != name:
            raise fail(key, f"name the game {decl.name!r}")
        count = section.get("players", players if name != first.game else first.players)
        try:
            decl.check_players(count)
        except ValueError as exc:
            raise fail(f"{key}.players", str(exc)) from None
        options = section.get("options", first.options if name == first.game else {})
        try:
            decl.check_options(count, options)
        except ValueError as exc:
            raise fail(f"{key}.options", str(exc)) from None
        tagmap: dict[str, str] = first.tagmap if name == first.game and "tagmap" not in section else {}
        if "tagmap" in section:
            try:
                tagmap = load_tagmap(p.parent / str(section["tagmap"]))
            except TagMapError as exc:
                raise fail(f"{key}.tagmap", str(exc)) from None
        card = normalise_uid(section["card"]) if "card" in section else None
        if card is not None:
            if not card or any(c not in "0123456789abcdef" for c in card):
                raise fail(f"{key}.card", f"must be a tag uid in hex, not {section['card']!r}")
            if card in cards:
                raise fail(f"{key}.card", f"the same card as games.{cards[card]}")
            cards[card] = name
        out[decl.name] = GameChoice(decl.name, count, dict(options), tagmap, card)
    return out


def _check_one_device_each(readers: Mapping[str, Mapping[str, Any]],
                           fail: Callable[[str, str], ConfigError]) -> None:
    """Two readers on one device: one seat's scans would be read as another's."""
    import os

    seen: dict[str, str] = {}
    for rid, section in readers.items():
        path = section.get("path")
        if reader_kinds.simulated(section) or not isinstance(path, str) or not path.startswith("/"):
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise fail(f"readers.{rid}.path", f"{path} is the device of readers.{seen[real]} too ({real}): "
                       "give each reader its own port (kikimimi table setup finds them)")
        seen[real] = rid


def _check_journal_place(journal: Path, fail: Callable[[str, str], ConfigError]) -> None:
    """The journal's folder must be a folder we can write (or create) now, not at the first input."""
    import os

    folder = journal.parent
    while not folder.exists():
        if folder.parent == folder:
            break
        folder = folder.parent
    if journal.exists() and not journal.is_file():
        raise fail("table.journal", f"{journal} is not a regular file")
    if not folder.is_dir():
        raise fail("table.journal", f"{folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise fail("table.journal", f"cannot write in {folder}")


def _check_driver(rid: str, section: Mapping[str, Any], fail: Callable[[str, str], ConfigError]) -> None:
    try:
        from kikimimi.readers.factory import make_driver, make_settings
    except ImportError:
        return  # the reader part is not installed: `serve` says so when it starts the readers
    try:
        make_settings(rid, section)
        make_driver(rid, section)
    except ImportError:
        return
    except ValueError as exc:
        raise fail(f"readers.{rid}", str(exc)) from None


def _check_audio(audio: Mapping[str, Any], players: int, fail: Callable[[str, str], ConfigError]) -> None:
    try:
        from kikimimi.voice.config import parse_audio
    except ImportError:
        return
    try:
        parse_audio(audio, players)
    except ValueError as exc:
        raise fail("[audio]", str(exc)) from None
