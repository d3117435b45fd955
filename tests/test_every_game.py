"""The contract of every registered game, checked the same way for each, over its declaration
(`kikimimi.declaration.Declaration`, what the registry gives for the name): through the real CLI
(CONTRACT.md: replay identity, the public view), then what it declares (a play it makes, secrets,
phrases in both languages, ear bots, options, diagram, report, console table).  A new game is added
by registering it."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kikimimi.declared import diagram
from kikimimi.ear import EAR, game_figures
from kikimimi.engine import public_view, run_script
from kikimimi.phrases import Phrasebook
from kikimimi.declaration import Declaration
from kikimimi.protocol import REFEREE, TABLE, Play, seat_audience, visible_to
from kikimimi.registry import declaration, game_names
from kikimimi.sim import play
from kikimimi.testing.ear_spy import spy_on_ear_bots
from kikimimi.tuning import tune

GAMES = [name for name in game_names() if name != "toy"]


def kikimimi(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kikimimi.cli", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("game", GAMES)
def test_sim_record_then_replay_prints_the_identical_log(game, tmp_path):
    record = tmp_path / "game.jsonl"
    sim = kikimimi("sim", game, "--seed", "4", "--record", str(record))
    assert sim.returncode == 0, sim.stderr
    replay = kikimimi("replay", str(record))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout == sim.stdout
    log = [json.loads(line) for line in sim.stdout.splitlines()]
    assert log[-1]["type"] == "game-over" or any(ev["type"] == "game-over" for ev in log)
    assert not [ev for ev in log if ev["type"] == "error" and ev["message"].startswith("internal error")]


@pytest.mark.parametrize("game", GAMES)
def test_public_replay_holds_no_private_event(game, tmp_path):
    record = tmp_path / "game.jsonl"
    assert kikimimi("sim", game, "--seed", "2", "--record", str(record)).returncode == 0
    public = [json.loads(line) for line in kikimimi("replay", "--public", str(record)).stdout.splitlines()]
    assert public
    assert all("private" not in ev for ev in public)
    assert all(ev["to"] == "table" for ev in public if ev["type"] == "say")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_game_has_phrases_in_both_languages(game, lang):
    book = Phrasebook(lang, ("core", declaration(game).name))
    assert len(book.phrases) > 5
    # Japanese may use kanji: Open JTalk reads it (tests/voice/test_japanese.py pins readings).


# -- the contract: what every registered game declares, checked the same way for each ------------
#: What a declaration says: a play's class that also says it is a game written before the split.
DECLARED_ON_THE_PLAY = {"name", "min_players", "max_players", "official_players", "tag_sets", "options_schema",
                        "option_names", "bots", "bot_table", "ear_table", "report", "diagram_of", "kit",
                        "phrase_values", "secret_options", "pause_when_reader_lost", "pause_when_field_lost",
                        "check_options", "referee_commands"}


@pytest.mark.parametrize("game", GAMES)
def test_the_game_is_one_declaration_that_makes_plays(game):
    """The entry point names a declaration; each play it makes is a separate object that holds
    only play state and hooks (the static description lives once, in the declaration)."""
    decl = declaration(game)
    assert isinstance(decl, Declaration) and decl.name == game
    assert decl.min_players <= decl.default_players <= decl.max_players
    assert decl.known_tags(decl.default_players) and all(":" in t for t in decl.known_tags(decl.default_players))
    left = sorted(DECLARED_ON_THE_PLAY & set(dir(decl.play)))
    assert not left, f"{game}'s play class still declares {left}: they belong in its Declaration"
    one, two = decl.new_play(decl.default_players, {}), decl.new_play(decl.default_players, {})
    assert isinstance(one, Play) and one is not two and not one.over
    one.start(0.0)  # one play begun leaves another untouched
    assert two.snapshot() == decl.new_play(decl.default_players, {}).snapshot()
    one.close()
    two.close()


def _seeded(game: str, seed: int = 3, bot: str | None = None):
    decl = declaration(game)
    return play(game, seed, decl.default_players, {}, bot)


@pytest.mark.parametrize("game", GAMES)
def test_no_seat_hears_or_sees_another_seats_secret(game):
    """Every secret names only real audiences, and a seat's view of the log never holds an event
    addressed to another seat alone (what `visible_to` gives every bot and every earphone)."""
    decl = declaration(game)
    players = decl.default_players
    _, log = _seeded(game)
    seats = {seat_audience(s) for s in range(1, players + 1)}
    for ev in log:
        private = ev["to"] if ev["type"] == "say" else ev.get("private", TABLE)
        names = {private} if isinstance(private, str) else set(private)
        assert names <= seats | {TABLE, REFEREE}, ev
        for s in range(1, players + 1):
            if visible_to(ev, s):
                assert TABLE in names or seat_audience(s) in names, (s, ev)
    public = public_view(log)
    assert all("private" not in ev and (ev["type"] != "say" or ev["to"] == TABLE) for ev in public)


@pytest.mark.parametrize("game", GAMES)
def test_every_phrase_said_is_in_both_catalogues(game):
    """The keys of a seeded game (bots and ear bots) exist in English and Japanese, and the two
    catalogues hold the same keys."""
    en, ja = (Phrasebook(lang, ("core", game)) for lang in ("en", "ja"))
    said = {ev["key"] for bot in (None, EAR) for ev in _seeded(game, 5, bot)[1] if ev["type"] == "say"}
    assert said and not [k for k in said if not (en.has(k) and ja.has(k))]
    own_en, own_ja = (set(Phrasebook(lang, (game,)).phrases) for lang in ("en", "ja"))
    assert own_en == own_ja


@pytest.mark.parametrize("game", GAMES)
def test_ear_bots_finish_a_game_hearing_only_their_own_ears(game, monkeypatch):
    decl = declaration(game)
    assert EAR in decl.bots and decl.ear_table, f"{game} declares no ear bots (docs/ear.md)"
    calls = spy_on_ear_bots(monkeypatch, game)
    script, log = _seeded(game, 2, EAR)
    figures = game_figures(script, log)
    assert figures["finished"] and not figures["internal"], figures
    heard = [(seat, h) for seat, h, what in calls if what == "hear"]
    assert heard and all(h.to in ((TABLE, seat_audience(seat)) if seat else (TABLE,)) for seat, h in heard)


@pytest.mark.parametrize("game", GAMES)
def test_the_options_are_declared_once_and_refused_in_one_line(game):
    decl = declaration(game)
    players = decl.default_players
    names = decl.options.names if decl.options else decl.option_names
    assert decl.options is not None, f"{game} declares no options_schema"
    decl.check_options(players, decl.options.defaults)  # the defaults are a valid table
    for option in decl.options.options:
        if option.kind != "any":
            with pytest.raises(ValueError) as bad:
                decl.check_options(players, {option.name: "no such value!"})
            assert str(bad.value).startswith(option.name) and "\n" not in str(bad.value)
    with pytest.raises(ValueError, match="unknown option 'colour'") as bad:
        decl.check_options(players, {"colour": 1})
    assert "\n" not in str(bad.value)
    listed = kikimimi("sim", game, "--options")
    assert listed.returncode == 0 and all(b in listed.stdout for b in decl.bots)
    assert not names or all(n in listed.stdout for n in names)


@pytest.mark.parametrize("game", GAMES)
def test_the_diagram_is_mermaid_and_the_report_runs(game):
    decl = declaration(game)
    text = diagram(decl)
    assert "stateDiagram-v2" in text.split("\n")[:4] and "[*]" in text
    report = tune(decl, 2, 1, decl.default_players, {}, progress=False)
    assert report.strip() and "Traceback" not in report


@pytest.mark.parametrize("game", GAMES)
def test_the_console_is_the_table_and_refuses_in_one_line(game):
    decl = declaration(game)
    table = decl.commands
    assert table, f"{game} declares no console_commands"
    assert decl.referee_commands() == [(c.syntax, c.help) for c in table]
    assert {"hint", "stop"} <= {c.name for c in table}
    for command in table:
        assert isinstance(command.run, str) and callable(getattr(decl.play, command.run)) or callable(command.run)
    players = decl.default_players
    header = {"game": game, "players": players, "options": {}, "lang": "en"}
    lines = [header, {"t": 1.0, "console": "fly away"}, {"t": 2.0, "console": f"hint {players + 1}"},
             {"t": 3.0, "console": "hint 1"}, {"t": 4.0, "console": "stop"}]
    log = run_script(lines)
    errors = [ev for ev in log if ev["type"] == "error"]
    assert [e["in"] for e in errors[:2]] == [2, 3] and all("\n" not in e["message"] for e in errors)
    assert all(e.get("private") == REFEREE for e in errors)  # a console refusal is the referee's
    assert any(ev["type"] == "say" and ev["to"] == "seat:1" and ev["in"] == 4 for ev in log)  # hint 1
    assert log[-1]["type"] == "game-over" or any(ev["type"] == "game-over" and ev["in"] == 5 for ev in log)
