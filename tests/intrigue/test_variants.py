"""Editions, house-rule options, hidden bribes, hint and the referee's console."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kikimimi.contract.parts import diagram
from kikimimi.table.engine import public_view, run_script
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import visible_to
from kikimimi.contract.script import ScriptError
from kikimimi.contract.registry import declaration
from kikimimi_games.intrigue import EDITIONS, IntrigueGame

from .helpers import A, Script

GAME_SOURCE = Path(__file__).parents[2] / "games" / "intrigue" / "game.py"


def test_editions_are_the_rules_tables_numbers():
    c, a = EDITIONS["classic"], EDITIONS["amigo"]
    assert (c.incomes, c.roles, c.advisors_each, c.start_cash, c.rounds, c.step) == (
        (10_000, 20_000, 30_000, 50_000, 100_000), ("finance", "law", "military", "science", "church"),
        10, 320_000, 6, 10_000)
    assert (a.incomes, a.roles, a.advisors_each, a.start_cash, a.rounds, a.step) == (
        (1_000, 3_000, 6_000, 10_000), ("finance", "law", "military", "science"), 8, 32_000, 5, 1_000)


def test_amigo_uses_four_sections_four_roles_and_its_own_numbers():
    s = Script(edition="amigo")
    s.scan(1, A("1-church-1"))
    church = s.line
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 3)
    paid = s.line
    s.place(2, "1-law-1", 5)
    five = s.line
    s.scan(2, "intrigue:section-4")
    r = s.run()
    assert r.of("cash", 1)[0]["cash"] == 32_000
    assert r.keys(church) == ["not-this-edition"]
    assert r.of("offer", paid)[0]["amount"] == 3_000  # three steps of 1,000
    assert r.cash(1) == 29_000 and r.cash(2) == 35_000
    assert r.keys(five) == ["not-this-edition"]
    assert r.of("hire")[0]["section"] == 4
    assert len(r.snap["hands"][2]) == 8  # 8 advisors each
    assert r.at(1)[0]["params"]["rounds"] == 5


def test_amigo_round_incomes():
    s = Script(edition="amigo", rounds=2)
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    s.offer(1, 0).place(2, "1-law-1", 4).send(2, "2-law-1", 3).send(2, "2-finance-1", 4)
    s.offer(1, 0).offer(2, 0).place(3, "1-finance-1", 2).place(3, "2-law-1", 1)
    s.send(3, "3-law-1", 4).send(3, "3-finance-1", 1)
    s.offer(2, 0).offer(3, 0).place(4, "2-finance-1", 3).place(4, "3-law-1", 1)
    s.send(4, "4-law-1", 2).send(4, "4-finance-1", 1)
    r = s.run()
    # Round 2, seat 1: law in 2's section 4 (10,000) + finance in 3's section 2 (3,000).
    assert r.of("income")[-1] == {**r.of("income")[-1], "seat": 1, "amount": 13_000}
    assert r.cash(1) == 45_000


@pytest.mark.parametrize("options, word", [
    ({"edition": "deluxe"}, "edition"), ({"rounds": 0}, "rounds"), ({"step": -1}, "step"),
    ({"start_cash": "lots"}, "start_cash"), ({"bribes": "secret"}, "bribes"), ({"colour": "red"}, "colour"),
    ({"incomes": [1, 2]}, "incomes"), ({"rounds": True}, "rounds"),
])
def test_a_bad_option_is_refused_in_one_line(options, word):
    with pytest.raises(ScriptError) as exc:
        run_script([{"game": "intrigue", "players": 4, "options": options}])
    assert word in str(exc.value) and "\n" not in str(exc.value)


@pytest.mark.parametrize("players", [3, 6])
def test_four_or_five_players(players):
    with pytest.raises(ScriptError):
        run_script([{"game": "intrigue", "players": players}])


def test_house_rules_override_each_number():
    s = Script(start_cash=1_000, step=500, rounds=1, incomes=[1, 2, 3, 4, 5])
    r = s.run()
    assert r.of("cash", 1)[0]["cash"] == 1_000
    assert r.of("game-over")  # one round, nothing to send: over at once
    s = Script(step=500, incomes=[1, 2, 3, 4, 5]).send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 3)
    s.place(2, "1-law-1", 5)
    r = s.run()
    assert r.of("offer")[0]["amount"] == 1_500
    hired = [e for e in r.at(s.line) if e.get("key") == "hired"][0]
    assert r.of("hire")[0]["section"] == 5 and hired["params"]["income"] == 5


def hidden_game() -> Script:
    s = Script(bribes="hidden")
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    # hidden bribes are a dial whose start only the bidder hears: turn it to two steps
    dial = [e for e in s.run().log if e.get("key") == "offer-dial"][-1]
    assert dial["to"] == "seat:1"
    start, top = dial["params"]["amount"] // 10_000, 320_000 // 10_000  # seat 1's cash: the start
    return s.offer(1, (2 - start) % (top + 1))


def test_hidden_bribes_are_heard_only_by_the_offerer_and_the_owner():
    s = hidden_game()
    r = s.run()
    offer = r.of("offer", s.line)[0]
    assert offer["private"] == ["seat:1", "seat:2"] and offer["amount"] == 20_000
    assert visible_to(offer, 1) and visible_to(offer, 2) and not visible_to(offer, 3) and not visible_to(offer, None)
    table = [e for e in r.at(s.line) if e["type"] == "say" and e["to"] == "table"]
    assert [e["key"] for e in table] == ["offer-hidden", "place-call"]
    assert '"amount": 20000' not in json.dumps(public_view(r.log))
    heard = {e["to"] for e in r.at(s.line) if e["type"] == "say" and e["key"] == "offer-made"}
    assert heard == {"seat:1", "seat:2"}
    for seat in (3, 4):
        mine = [e for e in r.log if visible_to(e, seat)]
        assert '"amount": 20000' not in json.dumps(mine) and not re.search(r"\b20000 ducats", json.dumps(mine))


def test_open_bribes_are_announced_on_the_speaker():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 2)
    r = s.run()
    offer = r.of("offer", s.line)[0]
    assert "private" not in offer
    assert [e["text"] for e in r.at(s.line) if e["type"] == "say" and e["to"] == "table"][0] == \
        "Seat 1 offers 20000 ducats to seat 2 for its law advisor."


def test_hint_tells_the_board_and_only_the_asking_seats_own_cash():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 1).place(2, "1-law-1", 4)
    s.cmd(3, "hint")
    r = s.run()
    said = [e for e in r.at(s.line) if e["type"] == "say"]
    assert {e["to"] for e in said} == {"seat:3"}
    assert [(e["seat"], e["private"]) for e in r.of("hint", s.line)] == [(3, "seat:3")]  # who asked: not public
    texts = [e["text"] for e in said]
    assert "Round 1 of 6. Seat 2's turn: sending advisors." in texts
    assert "Seat 2's mansion, section 4, 50000: seat 1's law advisor." in texts
    assert "Seat 3's garden: seat 1's finance advisor is waiting." in texts
    assert "Your cash: 320000 ducats." in texts
    assert not any("310000" in t or "330000" in t for t in texts)  # seats 1 and 2's balances
    s.console("hint 1")
    r = s.run()
    assert "Your cash: 310000 ducats." in [e.get("text") for e in r.at(s.line)]
    assert {e.get("to", e.get("private")) for e in r.at(s.line)} == {"seat:1"}


def test_hint_during_offers_names_the_offer_being_made():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).cmd(4, "hint")
    r = s.run()
    assert "Now offering: seat 1 for its law advisor." in [e.get("text") for e in r.at(s.line)]


def test_the_referee_console_plays_the_same_acts():
    s = Script()
    s.console("send 1 advisor-1-law-1 2").console("scan 1 advisor-1-finance-1").console("act 1 3")
    s.console("bribe 1").console("bribe 1").console("ok 1")
    s.console("place 2 advisor-1-law-1 5")
    s.console("send 2 advisor-2-law-1 3").console("send 2 advisor-2-finance-1 4")
    s.console("bribe 1").console("next")
    r = s.run()
    assert [(e["seat"], e["target"]) for e in r.of("dispatch")] == [(1, 2), (1, 3), (2, 3), (2, 4)]
    assert [e["amount"] for e in r.of("offer")] == [20_000, 10_000]
    assert r.of("hire")[0]["section"] == 5
    assert not r.of("error")


@pytest.mark.parametrize("line", ["dance", "hint 9", "place 2 advisor-9-law-1 3", "act 1", "next",
                                  "place 1 advisor-1-law-1 7", "send 1 nonsense 2", "scan x y"])
def test_a_bad_console_line_is_one_error_and_changes_nothing(line):
    s = Script().console(line)
    r = s.run()
    errors = r.errors(s.line)
    assert len(errors) >= 1 and all("\n" not in e["message"] for e in errors)
    assert not r.of("dispatch") and r.snap["phase"] == "dispatching"


def test_referee_commands_list_every_console_word():
    cmds = declaration("intrigue").referee_commands()
    assert all(isinstance(s, str) and isinstance(h, str) and h for s, h in cmds)
    words = {s.split()[0] for s, _ in cmds}
    assert words == {"act", "place", "send", "bribe", "ok", "next", "hint", "stop"}  # scan: the runtime's
    for command in declaration("intrigue").commands:  # the help is the table the console line is parsed by
        assert callable(getattr(IntrigueGame, command.run))


def test_stop_ends_the_game_ranked_by_cash():
    r = Script().console("stop").run()
    assert r.of("game-over")[0]["reason"] == "stopped"
    s = Script().console("stop").scan(1, A("1-law-1"))
    assert s.run().keys(s.line) == ["game-is-over"]


def test_pieces_on_the_field_reader_and_lifted_pieces():
    s = Script()
    s.add({"reader": "field", "tag": A("1-law-1")})
    field = s.line
    s.add({"reader": "hand", "seat": 1, "tag": A("1-law-1"), "removed": True})
    lifted = s.line
    r = s.run()
    assert r.keys(field) == ["hand-reader-only"] and r.errors(field)
    assert r.at(lifted) == []


def used_keys() -> set[str]:
    src = GAME_SOURCE.read_text()
    keys = set(re.findall(r'(?:_announce|_tell|\bline)\((?:[^,()]+, )?"([a-z-]+)"', src))
    keys |= set(re.findall(r'refusal\([^,()]+, f?"[^"]*", "([a-z-]+)"', src))
    keys |= set(re.findall(r'choices\.ask_[a-z_]+\([^,()]+, "[a-z-]+", "([a-z-]+)"', src))  # a question's prompt
    keys |= {f"game-over-{r}" for r in ("end", "stopped")}
    return keys


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_phrase_the_game_says_is_in_both_catalogues(lang):
    book = Phrasebook(lang, ("core", "intrigue"))
    keys = used_keys()
    assert len(keys) > 40
    assert sorted(k for k in keys if not book.has(k)) == []
    for role in EDITIONS["classic"].roles:
        assert book.name(role) != role or lang == "en"


def test_japanese_is_written_with_kanji_in_the_seeds_words():
    book = Phrasebook("ja", ("core", "intrigue"))
    text = " ".join(book.phrases.values())
    for word in ("顧問", "賄賂", "邸宅", "庭", "競合", "収入", "銀行", "派遣", "除外", "デュカ"):
        assert word in text
    r = Script(lang="ja").send(1, "1-law-1", 2).run()
    assert r.log[-2]["text"] == "1番は法務の顧問を2番の庭に送り込みました。"


def test_a_script_with_an_unknown_option_fails_replay_in_one_line(tmp_path):
    script = tmp_path / "bad.jsonl"
    script.write_text(json.dumps({"game": "intrigue", "players": 4, "options": {"rounds": "many"}}) + "\n")
    run = subprocess.run([sys.executable, "-m", "kikimimi.cli", "replay", str(script)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "rounds" in run.stderr and len(run.stderr.strip().splitlines()) == 1


WORDS = st.sampled_from(["act", "scan", "place", "send", "bribe", "ok", "next", "hint", "stop", "1", "2", "5",
                         "²", "１", "advisor-1-law-1", "intrigue:section-3", "seat:2", "-1", "99999999999999999999"])


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.one_of(st.lists(WORDS, min_size=1, max_size=4).map(" ".join), st.text(min_size=1, max_size=30)),
                min_size=1, max_size=12))
def test_any_console_line_is_answered_without_a_traceback(lines):
    s = Script()
    for line in lines:
        if line.strip():
            s.console(line)
    r = s.run()  # Run asserts no internal error
    assert all("\n" not in e["message"] for e in r.of("error"))


def test_the_diagram_draws_the_steps_of_a_turn():
    text = diagram(declaration("intrigue"))
    for state in ("turn", "offers", "placing", "dispatching", "over"):
        assert f'state "{state}"' in text
    for trigger in ("call_offers", "call_placing", "call_dispatch", "begin_turn", "finish"):
        assert trigger in text
    with pytest.raises(ValueError):
        diagram(declaration("intrigue"), "dot")


def test_situation_repeats_whose_turn_and_the_waiting_call_on_the_speaker():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).cmd(1, "bribe")
    r = s.run()
    again = r.game.situation()
    assert [(e.fields["to"], e.fields["key"]) for e in again] == [("table", "turn"), ("table", "offer-call")]
    assert again[1].fields["params"]["advisor"] == A("1-law-1")
    assert r.game.taps == 1  # repeating the call keeps the offer in the making
    s.cmd(1, "ok")
    r = s.run()
    assert [e.fields["key"] for e in r.game.situation()] == ["turn", "place-call"]
    s.place(2, "1-law-1", 5)
    r = s.run()
    assert [e.fields["key"] for e in r.game.situation()] == ["turn", "dispatch-call"]
    assert all(e.fields["to"] == "table" and "cash" not in e.fields["params"] for e in r.game.situation())


def test_sight_is_public_the_hint_adds_only_the_seats_own_facts():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    r = s.run()
    assert r.game.sight(1) == r.game.sight(3)  # the board is the same for every seat
    assert not any("cash" in params for _, params in r.game.sight(1))


def test_the_tables_phrases_are_rendered_before_play():
    from kikimimi.voice.domains import table_texts

    got = table_texts("intrigue", 4, {"edition": "amigo"}, "en")
    assert "Seat 3's turn." in got.texts and "Round 5." in got.texts and "Round 6." not in got.texts
    assert "Seat 2 sends a science advisor to seat 4's garden." in got.texts
    assert "Seat 2 sends a church advisor to seat 4's garden." not in got.texts  # amigo has no church
    assert "Your cash: 45000 ducats." in got.texts and "Your offer: 3000 ducats." in got.texts
    assert "Seat 1 gives seat 2's law advisor section 4, paying 10000." in got.texts
    assert "Seat 1 gives seat 2's law advisor section 4, paying 1000." not in got.texts  # section 1's income
    assert set(got.on_demand) == {"rank", "hint-hand"}
