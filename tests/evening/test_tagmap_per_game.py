"""Each game of an evening is played with its own tag map, down to the readers: a real
`kikimimi serve` on emulated PN532 readers resumes a finished Trident game, the next game
(鬼探し) is chosen by its card and started by everyone's AGREE, and then a 鬼探し piece
enrolled only in 鬼探し's map is known by its uid alone: no chip command beyond the waiting
poll's answer, as the Trident's pieces were (before, the readers kept the first game's uids
and read every later game's piece for a name).  Served again, the table resumes 鬼探し and its
readers start with 鬼探し's map (before, with the table file's first game's)."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections import Counter

from kikimimi.contract.script import read_script
from kikimimi.design.sim import play
from support.ntag import Ntag213
from support.pn532_emulator import PN532Emulator
from support.placement import placement_cost
from kikimimi.testkit.script import journal_inputs, pn532_trident_table, wait_until

ONI_CARD = "04aaaa00000001"
AGREE = {seat: f"04a9000000000{seat}" for seat in (1, 2, 3)}
TOKEN = "04b00000000001"  # 鬼探し's oni:token-bat, enrolled in 鬼探し's map only
STRANGER = "04dd0000000001"  # in no map


def _table(tmp_path) -> None:
    text = pn532_trident_table(tmp_path, poll_ms=20)
    (tmp_path / "tags.toml").write_text("[tags]\n" + "".join(f'"{u}" = "cmd:agree"\n' for u in AGREE.values()))
    (tmp_path / "oni.toml").write_text(f'[tags]\n"{TOKEN}" = "oni:token-bat"\n'
                                       + "".join(f'"{u}" = "cmd:agree"\n' for u in AGREE.values()))
    text += f'[games.onisagashi]\ntagmap = "oni.toml"\ncard = "{ONI_CARD}"\n'
    (tmp_path / "table.toml").write_text(text)
    script, _ = play("trident", 1, 3)  # a finished Trident game: the evening waits for the next
    (tmp_path / "journal.jsonl").write_text("".join(json.dumps(line) + "\n" for line in script))


def _game(journal) -> str | None:
    """The game of the journal now (None while the next game's journal is being put in place)."""
    try:
        return read_script(journal).header.game
    except Exception:
        return None




def _serve(tmp_path, events) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", str(tmp_path / "table.toml"),
                             "--voice", "text", "--quiet", "--events", str(events)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return proc


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)


def test_the_next_game_of_an_evening_reads_its_own_enrolled_pieces_by_uid(tmp_path):
    _table(tmp_path)
    journal, events = tmp_path / "journal.jsonl", tmp_path / "events.jsonl"
    emus = {name: PN532Emulator(str(tmp_path / name)).start() for name in ("hand-1", "hand-2", "hand-3", "field")}
    proc = _serve(tmp_path, events)
    try:
        wait_until(lambda: all(e.commands["InListPassiveTarget"] >= 2 for e in emus.values()) or proc.poll() is not None,
                   "the readers polling", timeout=30)
        assert proc.poll() is None, proc.stderr.read()
        placement_cost(emus["field"], ONI_CARD, events, "the game card")  # 鬼探し is next
        agree_costs = []
        for seat in (1, 2, 3):
            if seat == 3:  # the last AGREE starts 鬼探し: a new journal, its header 鬼探し's
                emu = emus["hand-3"]
                wait_until(lambda: emu.waiting_for_card, "hand 3 waiting")
                before = Counter(emu.commands)
                emu.place(Ntag213(AGREE[3]))
                wait_until(lambda: _game(journal) == "onisagashi", "鬼探し started")
                cost = Counter(emu.commands)
                cost.subtract(before)
                agree_costs.append(+cost)
                emu.remove()
            else:
                agree_costs.append(placement_cost(emus[f"hand-{seat}"], AGREE[seat], events, f"seat {seat}'s AGREE"))
        token = placement_cost(emus["hand-1"], TOKEN, events, "the 鬼探し token")
        stranger = placement_cost(emus["hand-2"], STRANGER, events, "a tag in no map")
        _stop(proc)
        # served again: it resumes 鬼探し, and its readers start with 鬼探し's map, not the table's first game's
        polls = {name: e.commands["InListPassiveTarget"] for name, e in emus.items()}
        proc = _serve(tmp_path, events)
        wait_until(lambda: all(e.commands["InListPassiveTarget"] >= polls[n] + 2 for n, e in emus.items())
                   or proc.poll() is not None, "the readers polling again", timeout=30)
        assert proc.poll() is None, proc.stderr.read()
        resumed = placement_cost(emus["hand-2"], TOKEN, events, "the 鬼探し token after the restart")
    finally:
        _stop(proc)
        for emu in emus.values():
            emu.stop()
    inputs = journal_inputs(journal)
    assert _game(journal) == "onisagashi"
    assert {"reader": "hand", "seat": 1, "uid": TOKEN} in [{k: v for k, v in i.items() if k != "t"} for i in inputs]
    assert {"reader": "hand", "seat": 2, "uid": TOKEN} in [{k: v for k, v in i.items() if k != "t"} for i in inputs]
    # an enrolled piece: the waiting poll's answer is the whole read, no command goes to the tag
    # (resting checks are polls too; the field's next wait may be armed within the window)
    for cost in (*agree_costs, token, resumed):
        assert _talk(cost) == 0, cost
    assert _talk(stranger) >= 1, stranger  # a stranger is read for the name written on it


def _talk(cost: Counter) -> int:
    """Commands that talk to the tag (activation and reads), not the reader's own polling."""
    return sum(n for name, n in cost.items() if name not in ("InListPassiveTarget", "RFConfiguration"))
