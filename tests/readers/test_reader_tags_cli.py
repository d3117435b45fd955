"""`kikimimi tags enroll|check` end to end against the PN532 emulator."""
from __future__ import annotations

import argparse
import time
import tomllib

from kikimimi.cli import tags
from kikimimi.readers.nfc_driver import close_quietly, identify, open_pn532, sense
from support.ntag import Ntag213


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kikimimi")
    tags.add_parser(p.add_subparsers(dest="command", required=True))
    return p


def test_enroll_writes_names_records_uids_and_refuses_reuse(pn532s, tmp_path):
    emu = pn532s()
    t1, t2, t3 = Ntag213("04000000000001"), Ntag213("04000000000002", writable=False), Ntag213("04000000000003")
    said: list[str] = []

    def put(tag: Ntag213) -> None:
        emu.remove()
        time.sleep(0.05)
        emu.place(tag)

    def speak(text: str) -> None:  # the person at the table, answering each prompt
        said.append(text)
        if text == "Scan seat 1.":
            put(t1)
        elif text == "Scan seat 2.":
            put(t1)  # the tag of seat 1 again: must be refused
        elif text.startswith("That tag is already"):
            put(t2)
        elif text == "Scan seat 3.":
            put(t3)

    tagmap = tmp_path / "seat.toml"
    rc = tags.enroll("seat", f"pn532:{emu.path}", tagmap, lang="en", speak=speak, players=3,
                     timeout_s=5, poll_ms=10)
    assert rc == 0, said
    assert said == ["Scan seat 1.", "seat 1: done.", "Scan seat 2.", "That tag is already seat 1. Take another tag.",
                    "seat 2: done, uid only (read-only).", "Scan seat 3.", "seat 3: done.",
                    "All 3 pieces of seat are enrolled."]
    saved = tomllib.loads(tagmap.read_text())["tags"]
    assert saved == {t1.uid_hex: "seat:1", t2.uid_hex: "seat:2", t3.uid_hex: "seat:3"}
    assert (t1.text(), t2.text(), t3.text()) == ("seat:1", None, "seat:3")
    clf = open_pn532(emu.path)  # a fresh nfcpy session reads the written record back
    try:
        assert identify(clf, sense(clf)) == "seat:3"
    finally:
        close_quietly(clf)

    out: list[str] = []
    assert tags.check("seat", tagmap, players=3, out=out.append) == 0
    assert out == ["seat: 3 of 3 pieces enrolled"]
    out.clear()
    assert tags.check("seat", tagmap, players=4, out=out.append) == 1
    assert out[0] == "missing: seat:4"


def test_enroll_resumes_and_stops_on_timeout(pn532s, tmp_path):
    emu = pn532s()
    tagmap = tmp_path / "seat.toml"
    tags.write_tagmap(tagmap, {"04000000000001": "seat:1"})
    said: list[str] = []
    rc = tags.enroll("seat", f"pn532:{emu.path}", tagmap, lang="ja", speak=said.append, players=2,
                     timeout_s=0.4, poll_ms=10)
    assert rc == 1
    assert said[0] == "1 こ は とうろく ずみ です。"
    assert said[1].endswith("を かざして ください。") and "2" in said[1]
    assert "とめます" in said[2]
    assert tomllib.loads(tagmap.read_text())["tags"] == {"04000000000001": "seat:1"}  # nothing lost


def test_cli_enroll_and_check_through_argparse(pn532s, tmp_path, capsys):
    emu = pn532s()
    emu.place(Ntag213("04000000000007"))  # resting on the reader when enrolment starts
    tagmap = tmp_path / "m.toml"
    args = parser().parse_args(["tags", "enroll", "seat", "--reader", f"pn532:{emu.path}",
                                "--tagmap", str(tagmap), "--lang", "en", "--players", "1", "--timeout", "5"])
    assert args.func(args) == 0
    assert emu.tag.text() == "seat:1"
    tagmap.write_text(tagmap.read_text() + '"04000000000008" = "seat:1"\n"04000000000009" = "seat:7"\n')
    args = parser().parse_args(["tags", "check", "seat", "--tagmap", str(tagmap), "--players", "2"])
    assert args.func(args) == 1
    printed = capsys.readouterr().out.splitlines()
    assert "missing: seat:2" in printed
    assert "duplicated: seat:1 on 2 tags (04000000000007, 04000000000008)" in printed
    assert any(line.startswith("unknown: seat:7") for line in printed)


def test_bad_reader_spec_and_unknown_set_are_one_line_errors(tmp_path, capsys):
    args = parser().parse_args(["tags", "enroll", "seat", "--reader", "pn532", "--tagmap", str(tmp_path / "m")])
    assert args.func(args) == 2
    args = parser().parse_args(["tags", "check", "nosuchgame", "--tagmap", str(tmp_path / "m")])
    assert args.func(args) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "DRIVER:PATH" in err[0] and "nosuchgame" in err[1]


def test_game_plugin_pieces_in_natural_order():
    pieces = tags.pieces_of("trident", 3)
    hearts = [p for p in pieces if p.startswith("trident:heart-")]
    assert hearts[:3] == ["trident:heart-1", "trident:heart-2", "trident:heart-3"]
    assert all(p.startswith("trident:") for p in pieces)


def test_a_game_whose_tag_set_is_not_its_name_lists_its_pieces():
    """鬼探し's pieces are `oni:…`: enrolling `onisagashi` walks them (it once refused: no `onisagashi:…`)."""
    pieces = tags.pieces_of("onisagashi", 5)
    assert pieces and all(p.startswith("oni:") for p in pieces)
    assert len(pieces) == len(set(pieces))


def test_enroll_with_a_missing_device_says_so_at_once_and_speaks_no_prompt(tmp_path, capsys):
    """A reader that is not there waited the whole --timeout and spoke the first
    prompt (in kana, the default language) to nobody; now one line at once, nothing spoken."""
    said: list[str] = []
    started = time.monotonic()
    try:
        tags.enroll("seat", f"pn532:{tmp_path / 'no-such-reader'}", tmp_path / "seat.toml", lang="ja",
                    speak=said.append, players=3, timeout_s=30)
    except tags.TagsError as exc:
        line = str(exc)
    else:
        raise AssertionError(f"enrolled with no reader; said {said}")
    assert said == [] and "no-such-reader" in line and "\n" not in line
    assert time.monotonic() - started < 10  # the --timeout (30 s) was not waited: a hang guard, not a speed test
    args = parser().parse_args(["tags", "enroll", "seat", "--reader", f"pn532:{tmp_path / 'gone'}",
                                "--tagmap", str(tmp_path / "seat.toml"), "--timeout", "30"])
    assert args.func(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("kikimimi tags: the reader pn532:") and "gone" in err and err.count("\n") == 1
