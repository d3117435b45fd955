"""Properties of any マフィア42 game: random inputs never crash it, bot games
always end and replay identically, and the public view holds no job or team
secret (only what the rules publish: the reporter's scoop, the roles shown
at the end)."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kikimimi.table.engine import public_view, run_script
from kikimimi.contract.phrases import Phrasebook
from kikimimi.roles import missing_layer_phrases
from kikimimi.design.sim import play

from .table import internal_errors, over

SECRET_TYPES = {"job", "power", "contact", "converted", "death-cause", "out-cause", "partners", "hint"}
GAMES = [(4, "classic"), (6, "general"), (8, "classic"), (9, "cult"), (12, "cult"), (12, "general")]


def assert_no_public_secret(log):
    public = public_view(log)
    end = next((i for i, e in enumerate(public) if e["type"] == "game-over"), len(public))
    for ev in public[:end]:
        assert ev["type"] not in SECRET_TYPES, ev
        assert "private" not in ev
        if ev["type"] == "say":
            assert ev["to"] == "table"
            spoken = json.dumps(ev.get("params", {}))
            assert ev["key"] == "scoop" or "job:" not in spoken, ev
            assert "team:" not in spoken, ev
        if ev["type"] == "error":
            assert "job" not in ev["message"] and "mafia" not in ev["message"], ev


def test_bot_games_end_replay_identically_and_keep_secrets():
    for seed, (players, mode) in enumerate(GAMES):
        script, log = play("mafia42", seed, players, {"mode": mode})
        assert over(log) is not None and not internal_errors(log), (players, mode)
        assert run_script(script) == log
        assert_no_public_secret(log)
        assert not [e for e in log if e["type"] == "error" and "private" not in e]


def test_many_bot_games_end():
    winners = set()
    for seed in range(40):
        players, mode = GAMES[seed % len(GAMES)]
        _, log = play("mafia42", 100 + seed, players, {"mode": mode})
        end = over(log)
        assert end is not None and not internal_errors(log)
        winners.add(end["winner"])
    assert {"mafia", "citizens"} <= winners


JOBS = ["mafia", "spy", "madam", "police", "doctor", "lover", "lover", "judge", "society", "society",
        "cult-leader", "fanatic"]
LINE = st.one_of(
    st.builds(lambda s, n: {"reader": "hand", "seat": s, "tag": f"seat:{n}"},
              st.integers(1, 12), st.integers(1, 12)),
    st.builds(lambda s, c: {"reader": "hand", "seat": s, "tag": f"cmd:{c}"}, st.integers(1, 12),
              st.sampled_from(["yes", "no", "ok", "hint", "extend", "shorten", "pass"])),
    st.builds(lambda s, j, n: {"reader": "hand", "seat": s, "tag": f"mafia42:job-{j}-{n}"},
              st.integers(1, 12), st.sampled_from(JOBS), st.integers(1, 3)),
    st.builds(lambda c: {"console": c}, st.sampled_from(
        ["next", "next", "act 1 2", "yes 3", "no 4", "hint 5", "extend 6", "chat 1 hello", "chat 9 x",
         "act 99 1", "bogus", "act 1"])),
    st.just({"reader": "field", "tag": "seat:1"}),
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(0, 40), LINE), max_size=60))
def test_random_inputs_never_crash_and_never_leak(lines):
    deal = [{"t": 0.1 * i, "reader": "hand", "seat": i,
             "tag": f"mafia42:job-{j}-{JOBS[:i - 1].count(j) + 1}"} for i, j in enumerate(JOBS, 1)]
    t, script = deal[-1]["t"], [{"game": "mafia42", "players": 12, "options": {"mode": "cult", "jobs": JOBS}}]
    script += deal
    for dt, line in lines:
        t += dt
        script.append({"t": round(t, 3), **line})
    log = run_script(script)
    assert not internal_errors(log)
    assert_no_public_secret(log)


def test_catalogues_cover_every_phrase_and_name_the_game_says():
    _, log = play("mafia42", 7, 12, {"mode": "cult"})
    keys = {e["key"] for e in log if e["type"] == "say"}
    for lang in ("ja", "en"):
        book = Phrasebook(lang, ("core", "mafia42"))
        assert missing_layer_phrases("mafia42", lang) == []
        assert [k for k in keys if not book.has(k)] == []
        for job in Phrasebook("en", ("mafia42",)).names:
            assert job in book.names, (lang, job)
    import tomllib
    from kikimimi.contract.game_files import phrases_file

    en, ja = (tomllib.loads(phrases_file("mafia42", lang).read_text(encoding="utf-8")) for lang in ("en", "ja"))
    assert set(en["phrases"]) == set(ja["phrases"]) and set(en["names"]) == set(ja["names"])
    from kikimimi_games.mafia42.jobs import default_catalogue

    assert {f"job:{j}" for j in default_catalogue().jobs} <= set(en["names"])


def test_every_phrase_parameter_has_its_values_for_the_voice():
    from kikimimi.voice.domains import table_texts

    own = set(Phrasebook("ja", ("mafia42",)).phrases)
    for players, options in ((4, {}), (12, {"mode": "cult"})):
        got = table_texts("mafia42", players, options, "ja")
        assert [k for k, why in got.on_demand.items()  # typed chat text is said as typed
                if k in own and why.startswith("no domain") and why != "no domain for text"] == []
        assert "マフィアの標的は3番です。" in got.texts


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5), st.sampled_from([0.2, 0.9, 2.5, 4.0])),
                min_size=1, max_size=14))
def test_a_tally_reading_holds_every_voters_ballot_and_comes_once(scans):
    """A reading is the sum of every voter's ballot, read once a vote at a moment
    no scan chose; a reading of some ballots is tied to the seats seen scanning before it."""
    from .table import Table

    t = Table(["mafia", "police", "citizen", "citizen", "citizen"], vote=40).night().next().next()
    for voter, target, dt in scans:
        t.hand(voter, f"seat:{target}", dt=dt)
    log = t.next().run()
    start = next(e["t"] for e in log if e["type"] == "phase" and e["phase"] == "vote")
    scanned: set[int] = set()
    readings = 0
    for ev in log:
        if ev["t"] < start:
            continue
        if ev["type"] == "say" and ev["key"] == "voted":
            scanned.add(int(ev["to"].removeprefix("seat:")))
        elif ev["type"] == "tally" and not ev["final"]:
            readings += 1
            assert scanned == {1, 2, 3, 4, 5} and ev["in"] is None, (scans, ev)
        elif ev["type"] == "say" and ev["key"] == "tally-entry" and ev["to"] == "table":
            assert ev["in"] is None or of_final(log, ev)
    assert readings <= 1


def of_final(log, ev):
    """A tally line spoken on an input is the final tally (the referee's `next`)."""
    return any(e["type"] == "tally" and e["final"] and e["in"] == ev["in"] for e in log)
