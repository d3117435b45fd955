"""Trident game-over events as the game emits them (docs/contract.md), for feeding
the public recording API in tests."""
from __future__ import annotations

SEATS = (1, 2, 3)


def game_over(winner: int, crash: int | None = None, seats=SEATS) -> dict:
    """A 3-player game-over: `winner` seat 1st, `crash` seat crashed (last)."""
    if crash is not None and crash == winner:
        raise ValueError("the winner cannot crash")
    middle = [s for s in seats if s not in (winner, crash)]
    order = [winner, *middle] + ([crash] if crash is not None else [])
    ranking = [
        {"seat": s, "place": i + 1, "pieces": 0 if i == 0 else i + 1, "points": 0 if i == 0 else 3 * i,
         "crash": s == crash}
        for i, s in enumerate(order)
    ]
    return {"type": "game-over", "reason": "crash" if crash is not None else "out", "ranking": ranking}


def play_session(club, players, results, kind: str | None = None):
    """Start a session for three players (seat order) and record `results`:
    each a winner index (0..2) or a (winner, crasher) pair of indexes.
    Returns the last GameRecord (which carries the settlements when it
    completed the session)."""
    kind = kind or ("half" if len(results) == 5 else "full")
    seats = {i + 1: p for i, p in enumerate(players)}
    info = club.start_session(kind, seats)
    record = None
    for r in results:
        winner, crash = (r, None) if isinstance(r, int) else r
        record = club.record_game_over(
            info.id, game_over(winner + 1, None if crash is None else crash + 1), seats
        )
    return info.id, record


def play(club, spec: str, names=("A", "B", "C")):
    """Play one session from a compact spec, one token per game: the winner's
    letter, then optionally the crasher's letter in lower case ("Ab": A wins,
    B crashes).  Seats follow `names`.  10 tokens = full trial, 5 = half;
    fewer leaves the session open.  Returns (session id, last GameRecord)."""
    tokens = spec.split() if " " in spec.strip() else list(spec.replace(" ", ""))
    # "AAb" without spaces is ambiguous; a spec with crashes must use spaces.
    idx = {n.upper(): i for i, n in enumerate(names)}
    results = []
    for tok in tokens:
        winner = idx[tok[0]]
        crash = idx[tok[1].upper()] if len(tok) > 1 else None
        results.append(winner if crash is None else (winner, crash))
    kind = "half" if len(results) == 5 else "full"
    seats = {i + 1: n for i, n in enumerate(names)}
    info = club.start_session(kind, seats)
    record = None
    for r in results:
        winner, crash = (r, None) if isinstance(r, int) else r
        record = club.record_game_over(info.id, game_over(winner + 1, None if crash is None else crash + 1), seats)
    return info.id, record


def new_club_players(club, names=("A", "B", "C"), form="king"):
    for n in names:
        club.add_player(n, n.lower() + "かな", form)
