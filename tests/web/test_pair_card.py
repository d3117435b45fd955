"""The owner's PAIR card: a pairing code said into one seat's earphone, and nowhere else.

The table is a served bot game with its web console (conftest `served`); the
card is scanned on seat 2's hand reader as a reader thread submits it, and
the code is read from what the daemon hands its sound outputs
(`earphone_only`, what `kikimimi serve` feeds its outputs from), then typed
into the pairing page over TLS."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kikimimi.contract.kit import PAIR_TAG, kit_for
from kikimimi.contract.pairing import folder_for
from kikimimi.contract.phrases import Phrasebook
from kikimimi.table.pair_card import PairCard

DIGITS = {Phrasebook("en", ("core", "setup")).names[f"digit:{d}"]: str(d) for d in range(10)}


def scan(seat: int | None, **more):
    return {"reader": "field"} if seat is None else {"reader": "hand", "seat": seat, "tag": PAIR_TAG, **more}


def code_heard(ears: list[dict], start: int = 0) -> str:
    """The code in the lines the outputs were handed: six digits, said twice."""
    said = [DIGITS[ev["text"]] for ev in ears[start:] if ev["key"] == "pair-digit"]
    assert len(said) == 12 and said[:6] == said[6:], said
    return "".join(said[:6])


def codes_waiting(served) -> int:
    path = served.store.folder / "codes.json"
    return len(json.loads(path.read_text())) if path.exists() else 0


def test_pair_on_seat_2_says_a_code_in_that_earphone_only_and_it_pairs_one_phone_once(served):
    d = served.host.daemon
    told: list[dict] = []
    ears: list[dict] = []
    printed: list[str] = []
    d.subscribe(lambda line, events: told.extend(events))  # the API, consoles, web pages, event log
    d.earphone_only.append(ears.extend)  # the sound outputs
    PairCard(d, web=True, complain=printed.append).attach()
    audience = served.client(served.audience_port)
    audience.tls = False
    audience_stream = audience.events("/api/audience/events")
    referee = served.paired("referee")
    referee_stream = referee.events("/api/referee/events")
    for stream in (audience_stream, referee_stream):
        stream.until(lambda m: m.get("welcome"))
    before = codes_waiting(served)

    # during play: refused in seat 2's earphone, no code made, nothing journaled
    journal = served.journal.read_bytes()
    refused = d.submit(scan(2))
    assert [(ev["to"], ev["key"]) for ev in refused] == [("seat:2", "pair-not-now")]
    assert ears == [] and codes_waiting(served) == before and served.journal.read_bytes() == journal

    d.submit({"console": "pause"})
    journal = served.journal.read_bytes()
    told.clear()
    assert d.submit(scan(2)) == []
    code = code_heard(ears)
    assert {ev["to"] for ev in ears} == {"seat:2"}  # seat 1's and seat 3's earphones heard nothing
    assert ears[0]["key"] == "pair-code-referee" and ears[-1]["key"] == "pair-owner-next"
    assert d.submit(scan(2, removed=True)) == []  # lifting it says nothing
    first = len(ears)
    d.submit(scan(2))  # again at once: the owner's code
    owner_code = code_heard(ears, first)
    assert ears[first]["key"] == "pair-code-owner" and owner_code != code
    assert {ev["to"] for ev in ears} == {"seat:2"}

    # nobody else has the digits: no listener, no speaker line, not the journal, not the box's log
    assert told == [] and served.journal.read_bytes() == journal
    assert not any(str(ev.get("key", "")).startswith("pair-") for ev in d.log)  # the event log: public view's source
    assert len(printed) == 2 and "referee pairing code was said into seat 2's earphone" in printed[0]
    assert "owner" in printed[1]
    for secret in (code, owner_code):
        assert not any(secret in line for line in printed)
    d.submit({"console": "resume"})  # then the streams carry the resume: they are past the scans
    for stream in (audience_stream, referee_stream):
        stream.until(lambda m: any("state=running" in ev.get("text", "") for ev in m.get("events", [])))
    for stream in (audience_stream, referee_stream):
        raw = bytes(stream.raw).decode()
        assert code not in raw and owner_code not in raw and "pair-digit" not in raw and "pair-code" not in raw
        stream.close()
    speaker = [ev for ev in told if ev.get("to") == "table"]
    assert not any(w in ev.get("text", "") for ev in speaker for w in DIGITS)

    # the code pairs a phone over TLS, once; the owner's code pairs an owner
    phone = served.client()
    answer = phone.post("/api/pair", {"code": code}, csrf=False)
    assert answer.status == 200, answer.body
    assert phone.get("/api/session").json()["role"] == "referee"
    again = served.client().post("/api/pair", {"code": code}, csrf=False)
    assert again.status == 403 and "wrong, used or expired" in again.json()["error"]
    owner = served.client()
    assert owner.post("/api/pair", {"code": owner_code}, csrf=False).status == 200
    assert owner.get("/api/session").json()["role"] == "owner"
    stored = (served.store.folder / "codes.json").read_text() + (served.store.folder / "devices.json").read_text()
    assert code not in stored and owner_code not in stored


def test_pair_with_no_web_console_says_and_prints_how_to_enable_it(served):
    d = served.host.daemon
    ears: list[dict] = []
    printed: list[str] = []
    d.earphone_only.append(ears.extend)
    PairCard(d, web=False, complain=printed.append).attach()
    before = codes_waiting(served)
    said = d.submit(scan(3))
    assert [(ev["to"], ev["key"]) for ev in said] == [("seat:3", "pair-no-web")]
    assert "web console" in said[0]["text"]
    assert len(printed) == 1 and "[web]" in printed[0] and "docs/web.md" in printed[0] and "\n" not in printed[0]
    assert ears == [] and codes_waiting(served) == before
    # on the field reader: where the card goes, on the speaker (no code, nothing secret)
    assert [(ev["to"], ev["key"]) for ev in d.submit({"reader": "field", "tag": PAIR_TAG})] == [
        ("table", "pair-on-hand-reader")]


def test_every_kit_holds_one_pair_card_among_the_tables_pieces():
    for game, players in (("trident", 3), ("witch", 5), ("intrigue", 4)):
        kit = kit_for(game, players)
        assert PAIR_TAG in kit.table and PAIR_TAG not in kit.own and kit.copies()[PAIR_TAG] == 1


SIM_TABLE = Path(__file__).resolve().parents[2] / "games" / "trident" / "sim.toml"


def _serve_script(tmp_path: Path, web: bool) -> tuple[subprocess.CompletedProcess, Path]:
    """`kikimimi serve` of a simulated Trident, its readers a script: PAIR on seat 2 during play,
    then paused; the table ends with the script."""
    journal = tmp_path / "t.jsonl"
    table = tmp_path / "table.toml"
    table.write_text(SIM_TABLE.read_text().replace('journal = "var/trident-sim.jsonl"', f'journal = "{journal}"')
                     + ('\n[web]\nbind = ["127.0.0.1:8443"]\n' if web else ""))
    script = tmp_path / "script.jsonl"
    script.write_text("\n".join(json.dumps(line) for line in (
        {"game": "trident", "players": 3, "options": {}, "lang": "en", "version": 1},
        {"t": 0.1, **scan(2)}, {"t": 0.2, "console": "pause"}, {"t": 0.3, **scan(2)})) + "\n")
    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "serve", str(table), "--sim-readers", str(script),
                           "--speed", "0", "--fresh"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return proc, folder_for(journal)


def test_serve_makes_the_code_and_its_terminal_prints_that_it_was_said_never_the_digits(tmp_path):
    proc, folder = _serve_script(tmp_path, web=True)
    assert "[ seat 2 ear] The PAIR tag works between games, or while the clock is paused." in proc.stdout
    assert proc.stderr.count("a referee pairing code was said into seat 2's earphone") == 1, proc.stderr
    codes = json.loads((folder / "codes.json").read_text())
    assert [c["role"] for c in codes.values()] == ["referee"]  # made, waiting, stored as its HMAC only
    spoken = set(DIGITS)  # the referee's text on the terminal shows every line but the code's
    assert not [line for line in proc.stdout.splitlines() if line.rsplit("] ", 1)[-1] in spoken]
    assert "pairing code for the web console" not in proc.stdout


def test_serve_without_web_says_and_prints_how_to_enable_it(tmp_path):
    proc, folder = _serve_script(tmp_path, web=False)
    assert proc.stdout.count("[ seat 2 ear] This table has no web console") == 2  # in play and paused alike
    assert proc.stderr.count("no web console") == 2 and "[web] with bind" in proc.stderr
    assert not (folder / "codes.json").exists()


def test_a_referees_stand_in_scan_of_pair_makes_no_code_and_never_reaches_the_game(served):
    """Only the card on a hand reader makes a code: `scan 2 cmd:pair` typed at a console is the
    game's input, and no game knows the tag ("not a piece of this game", to the referee)."""
    d = served.host.daemon
    ears: list[dict] = []
    d.earphone_only.append(ears.extend)
    PairCard(d, web=True, complain=lambda _: None).attach()
    d.submit({"console": "pause"})
    before = codes_waiting(served)
    events = d.submit({"console": "scan 2 cmd:pair"})
    assert [ev["type"] for ev in events] == ["error"] and "cmd:pair" in events[0]["message"], events[0]["message"]
    assert ears == [] and codes_waiting(served) == before
