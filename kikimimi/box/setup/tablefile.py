"""The table file (and udev rules) a spoken set-up writes, naming every device by its USB port."""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kikimimi.readers.registry import kind
from kikimimi.box.setup.dialogue import Binding
from kikimimi.box.setup.found import FoundCard, FoundReader


def _value(v: Any) -> str:
    """A TOML value: JSON's string escapes are TOML's basic-string escapes."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(str(v))


def _section(name: str, body: Mapping[str, Any]) -> str:
    return f"[{name}]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in body.items()) + "\n"


def tagmap_names(table_file: Path, games: Sequence[str]) -> dict[str, str]:
    """Each game's tag map, relative to the table file: `tagmaps/<table>-<game>.toml`."""
    return {game: f"tagmaps/{table_file.stem}-{game}.toml" for game in games}


def table_toml(binding: Binding, game: str, players: int, lang: str,
               readers: Mapping[str, FoundReader], cards: Mapping[str, FoundCard],
               options: Mapping[str, Any] | None = None, tagmaps: Mapping[str, str] | None = None,
               rate: int | None = None) -> str:
    """The table file; `tagmaps` (game -> file) names every game of the evening, `game` first.
    Each reader is written with its own driver (a box may mix PN532 boards and USB readers).
    `rate`: the speech rate the set-up was spoken at, kept as the table's ([audio] rate), so
    `doctor --listen` and the games speak at the rate the owner chose."""
    maps = dict(tagmaps or {})
    head: dict[str, Any] = {"game": game, "players": players, "lang": lang}
    if game in maps:
        head["tagmap"] = maps[game]
    out = [
        "# Written by `kikimimi table setup`: every reader and sound card is named by the USB\n"
        "# port it is plugged into, so a reboot or a replug cannot swap two seats.  Keep each\n"
        "# device in its port, or run the set-up again after moving one.  Each game of the\n"
        "# evening has its own tag map, enrolled by ear at the end of the set-up.\n",
        _section("table", head),
    ]
    if options:
        out[-1] = out[-1].rstrip("\n") + "\n" + f"options = {{ {', '.join(f'{k} = {_value(v)}' for k, v in options.items())} }}\n\n"
    for seat, (_card, reader) in sorted(binding.seats.items()):
        out.append(_section(f"readers.hand-{seat}", {"role": "hand", "seat": seat,
                                                      "driver": readers[reader].driver,
                                                      "path": readers[reader].path}))
    if binding.field_reader is not None:
        out.append(_section("readers.field", {"role": "field", "driver": readers[binding.field_reader].driver,
                                              "path": readers[binding.field_reader].path}))
    if rate is not None:
        out.append(_section("audio", {"rate": rate}))
    named = ([("speaker", binding.speaker)] if binding.speaker else []) + [
        (f"seat-{seat}", card) for seat, (card, _r) in sorted(binding.seats.items())]
    serials = Counter(c.card.serial for c in cards.values() if c.card.serial)
    for name, card_id in named:
        found = cards[card_id]
        body: dict[str, Any] = dict(found.card.identity)
        if "serial" in body and serials[body["serial"]] > 1 and found.card.usb_port:
            body = {"usb": found.card.usb_port}  # cheap cards share one serial: only the port tells them apart
        if "device" in body:  # not a USB card: its PortAudio name, which is not numbered by order
            body["device"] = found.device.name
        body["channels"] = [1, 2] if found.device.channels >= 2 else [1]
        out.append(_section(f"audio.outputs.{name}", body))
    for other, path in maps.items():
        if other != game:
            out.append(_section(f"games.{other}", {"tagmap": path}))
    return "".join(out)


def udev_rules(binding: Binding, readers: Mapping[str, FoundReader]) -> str:
    """One rule per bound serial reader: group plugdev and a /dev/kikimimi-* name by USB port.
    A USB reader has no tty to name: the table file names it by port, and the shipped
    udev/99-kikimimi.rules gives it to plugdev."""
    lines = ["# Written by `kikimimi table setup`: each reader by the USB port it is plugged into.",
             "# Install: sudo cp THIS_FILE /etc/udev/rules.d/99-kikimimi-table.rules && "
             "sudo udevadm control --reload && sudo udevadm trigger"]
    named = [(f"kikimimi-hand-{seat}", reader) for seat, (_c, reader) in sorted(binding.seats.items())]
    if binding.field_reader is not None:
        named.append(("kikimimi-field", binding.field_reader))
    for name, reader in named:
        if not getattr(kind(readers[reader].driver), "tty", False):  # a USB reader, named by its port
            lines.append(f"# {name}: the USB reader {readers[reader].path} (access: udev/99-kikimimi.rules)")
            continue
        lines.append(f'SUBSYSTEM=="tty", ENV{{ID_PATH}}=="{readers[reader].id_path}", '
                     f'GROUP="plugdev", MODE="0660", SYMLINK+="{name}"')
    return "\n".join(lines) + "\n"


def write_new(path: Path, text: str) -> None:
    """Write a file in one piece (a half-written table file must never be left behind)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
