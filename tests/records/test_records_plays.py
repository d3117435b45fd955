"""Every game's result in the club records (game history per player), on SQLite and PostgreSQL."""
from __future__ import annotations

import pytest

from kikimimi import records
from kikimimi.records import AlreadyRecorded, Club, RecordsError
from kikimimi.records.plays import history, plays
from kikimimi.design.sim import play

GAMES = (("trident", 3, {}), ("onisagashi", 4, {}), ("witch", 5, {}), ("mafia42", 4, {}), ("intrigue", 4, {}))


def _ended(game: str, players: int, options: dict, seed: int = 1) -> dict:
    _, log = play(game, seed, players, options)
    return next(ev for ev in log if ev["type"] == "game-over")


def test_every_game_reaches_each_players_history_once(db_url):
    with Club(db_url, create=True) as club:
        for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
            club.add_player(name, name.lower())
    seated = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve"}
    ended = {}
    for n, (game, players, options) in enumerate(GAMES):
        ended[game] = ev = _ended(game, players, options)
        got = records.record_play(game, ev, {s: p for s, p in seated.items() if s <= players}, db=db_url,
                                  table="club-1", game_id=f"sha256:{n}")
        assert (got.game, got.players, got.table) == (game, players, "club-1")
        with pytest.raises(AlreadyRecorded):  # the same game offered again writes nothing
            records.record_play(game, ev, {1: "Ann"}, db=db_url, game_id=f"sha256:{n}")
    with Club(db_url, create=False) as club:
        assert [p.game for p in plays(club)] == [g for g, _, _ in GAMES]
        ann = history(club, "Ann")
        assert [r.play.game for r in ann] == [g for g, _, _ in GAMES]
        for r in ann:
            entry = next(e for e in ended[r.play.game]["ranking"] if e["seat"] == 1)
            assert r.place == entry["place"] and r.won == entry.get("won", entry["place"] == 1)
            assert r.team == entry.get("team")
        assert [r.play.game for r in history(club, "Eve")] == ["witch"]
        assert [r.play.game for r in history(club, "Bob", game="mafia42")] == ["mafia42"]
        assert club.player("Ann").ladder.games == 0  # the ladder moves with the Trident's sessions only
        if ended["mafia42"].get("winner"):
            assert plays(club)[3].winner == ended["mafia42"]["winner"]


def test_a_guest_seat_and_malformed_results_are_refused_in_one_line(db_url):
    with Club(db_url, create=True) as club:
        club.add_player("Ann", "あん")
    ev = _ended("trident", 3, {})
    got = records.record_play("trident", ev, {2: "Ann"}, db=db_url)  # seats 1 and 3: guests
    with Club(db_url, create=False) as club:
        assert [r.seat for r in history(club, "Ann")] == [2]
        assert club.conn.value("SELECT count(*) FROM play_results WHERE play_id = ? AND player_id IS NULL",
                               (got.id,)) == 2
    bad = [({**ev, "ranking": "first"}, "ranking"), ({**ev, "ranking": [{"seat": 0, "place": 1}]}, "seat and a place"),
           ({**ev, "ranking": [{"seat": 1, "place": 1}, {"seat": 1, "place": 2}]}, "one seat twice"),
           ({**ev, "ranking": [{"seat": 1, "place": 1, "won": "yes"}]}, "true or false"),
           ({**ev, "winner": "x" * 99}, "winner"), ({**ev, "type": "say"}, "not a game-over")]
    for event, why in bad:
        with pytest.raises(RecordsError, match=why):
            records.record_play("trident", event, {}, db=db_url)
    with pytest.raises(RecordsError, match="no player"):
        records.record_play("trident", ev, {1: "Nobody"}, db=db_url)
    with pytest.raises(RecordsError, match="seat 7"):
        records.record_play("trident", ev, {7: "Ann"}, db=db_url)
    with Club(db_url, create=False) as club:
        assert len(plays(club)) == 1  # nothing refused was written
