"""A real box mixes reader kinds (three PN532 boards on serial adapters and an RC-S380, say):
`kikimimi table setup` finds both in one pass (`--driver auto`, the default), and the table file
names each reader's own driver, so `serve` opens each as what it is."""
from __future__ import annotations

import os
import tomllib

from kikimimi.readers.factory import make_driver
from kikimimi.box.setup.dialogue import Binding
from kikimimi.box.setup.found import find_readers
from kikimimi.box.setup.tablefile import table_toml, udev_rules
from support.usb_rcs380 import RcS380Emulator
from kikimimi.voice.devices import Device
from kikimimi.voice.identity import SoundCard


def _box(tmp_path):
    """Three serial adapters by port and one RC-S380 in a USB port."""
    by_path = tmp_path / "by-path"
    by_path.mkdir()
    for chain in ("1.3", "1.1", "1.2"):
        os.symlink("/dev/null", by_path / f"pci-0000:00:14.0-usb-0:{chain}:1.0-port0")
    devices = tmp_path / "sys" / "bus" / "usb" / "devices"
    RcS380Emulator(devices, "1-1.4")
    return by_path, devices


def test_auto_finds_both_kinds_each_with_its_driver(tmp_path):
    by_path, devices = _box(tmp_path)
    found, looked = find_readers("auto", by_path, devices)
    assert [(r.id, r.port, r.driver) for r in found] == [
        ("r1", "1.1", "pn532"), ("r2", "1.2", "pn532"), ("r3", "1.3", "pn532"), ("r4", "1.4", "usb")]
    assert found[3].path == "usb:1-1.4" and "PN532" in looked and "USB" in looked
    # a named kind still finds that kind alone
    assert [r.driver for r in find_readers("pn532", by_path, devices)[0]] == ["pn532"] * 3
    assert [r.path for r in find_readers("usb", by_path, devices)[0]] == ["usb:1-1.4"]
    assert [r.driver for r in find_readers("rdm6300", by_path, devices)[0]] == ["rdm6300"] * 3


def test_the_table_file_names_each_readers_own_driver_and_serve_opens_it_so(tmp_path):
    from kikimimi.readers.nfc_driver import NfcDriver, open_pn532
    from kikimimi.readers.usb_readers import open_usb_reader

    by_path, devices = _box(tmp_path)
    readers = {r.id: r for r in find_readers("auto", by_path, devices)[0]}
    cards = {f"c{k}": FoundCard(k) for k in range(1, 5)}
    # the RC-S380 answered from beside the speaker: it is the field reader
    b = Binding(speaker="c1", field_reader="r4", pairs={"c2": "r1", "c3": "r2", "c4": "r3"},
                seats={1: ("c2", "r1"), 2: ("c3", "r2"), 3: ("c4", "r3")})
    table = tomllib.loads(table_toml(b, "trident", 3, "en", readers, cards))
    drivers = {rid: (s["driver"], s["path"]) for rid, s in table["readers"].items()}
    assert drivers == {"hand-1": ("pn532", readers["r1"].path), "hand-2": ("pn532", readers["r2"].path),
                       "hand-3": ("pn532", readers["r3"].path), "field": ("usb", "usb:1-1.4")}
    for rid, section in table["readers"].items():  # what serve builds from each section (nothing opened yet)
        driver = make_driver(rid, section)
        assert isinstance(driver, NfcDriver) and driver.where == section["path"]
        opens = open_usb_reader if section["driver"] == "usb" else open_pn532
        assert driver.opener.func is opens and driver.opener.args[0] == section["path"]  # type: ignore[attr-defined]
    rules = udev_rules(b, readers)
    assert rules.count("SUBSYSTEM==") == 3 and "kikimimi-hand-3" in rules
    assert 'SYMLINK+="kikimimi-field"' not in rules and "usb:1-1.4" in rules  # a USB reader has no tty to name


def FoundCard(k: int):
    from kikimimi.box.setup.found import FoundCard as Found

    return Found(f"c{k}", SoundCard(k, f"D{k}", f"1-2.{k}", None), Device(k, f"D{k}", 2, 48000))


def test_the_rate_the_setup_was_spoken_at_is_kept_for_the_table(tmp_path):
    """`--rate` (an owner who listens fast) is the table's rate too: doctor --listen and the games
    speak at it ([audio] rate, which every output takes unless it names its own)."""
    from kikimimi.voice.config import parse_audio

    by_path, devices = _box(tmp_path)
    readers = {r.id: r for r in find_readers("auto", by_path, devices)[0]}
    cards = {f"c{k}": FoundCard(k) for k in range(1, 5)}
    b = Binding(speaker="c1", field_reader="r4", pairs={"c2": "r1", "c3": "r2", "c4": "r3"},
                seats={1: ("c2", "r1"), 2: ("c3", "r2"), 3: ("c4", "r3")})
    kept = tomllib.loads(table_toml(b, "trident", 3, "en", readers, cards, rate=300))
    assert kept["audio"]["rate"] == 300 and parse_audio(kept["audio"], 3).rate == 300
    assert "rate" not in tomllib.loads(table_toml(b, "trident", 3, "en", readers, cards))["audio"]


def test_a_rate_out_of_range_is_refused_in_one_line(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "table", "setup", str(tmp_path / "t.toml"),
                           "--rate", "5"], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "--rate must be from 40 to 600" in proc.stderr and not (tmp_path / "t.toml").exists()
