"""A contest (競技会) across several tables: each table plays one official
session attached to the contest, the standings gather every table's games,
and the referee's close records the winner's peerage step and rank.

Rulings (docs/records.md):

* A contest names its kind (full or half trial) and its number of tables;
  every table's session is of that kind, so every player plays the same
  number of games.  A table may start a new session only when its previous
  one has ended (an abandoned table may play again; both count).
* Standings: most 1st places in the contest's games; then fewest points
  left in hand (competition scoring, summed over the games); players equal
  on both share a place.
* Closing: every table's session must have ended; a tie at the top is not
  broken by the records — the referee names the winner of the play-off
  (`--winner`), who must be one of the tied.  The winner's step is the
  contest win of rules/trident.md (one peerage step and one rank), in the
  same transaction as the close.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kikimimi.records.basics import SESSION_KINDS, now
from kikimimi.records import contest_tables
from kikimimi.records.contest_tables import MAX_TABLES, ContestInfo, contest_in
from kikimimi.records.errors import RecordsError

if TYPE_CHECKING:
    from kikimimi.records.club import Club, Player, Settlement

__all__ = ["MAX_TABLES", "ContestInfo", "Standing", "claim_table", "close_contest", "contest", "contests",
           "standings", "start_contest"]


@dataclass(frozen=True)
class Standing:
    place: int  # equal players share a place
    player: Player
    wins: int  # 1st places in the contest's games
    points: int  # points left in hand, summed (fewer is better)
    games: int
    tables: tuple[int, ...]


def start_contest(club: Club, name: str, tables: int, kind: str = "half") -> ContestInfo:
    """Open a contest across `tables` tables, each playing a `kind` trial."""
    name = name.strip()
    if not name or len(name) > 80 or not name.isprintable():
        raise RecordsError("a contest needs a name of 1 to 80 printable characters")
    if not isinstance(tables, int) or not 1 <= tables <= MAX_TABLES:
        raise RecordsError(f"a contest has 1 to {MAX_TABLES} tables, not {tables}")
    if kind not in SESSION_KINDS:
        raise RecordsError(f"a contest's sessions are full or half trials, not {kind!r}")

    def body() -> int:
        if club.db.one("SELECT id FROM club_contests WHERE name = ?", (name,)) is not None:
            raise RecordsError(f"a contest named {name!r} already exists")
        return club.db.value(
            "INSERT INTO club_contests (name, table_count, kind, started_at) VALUES (?, ?, ?, ?) RETURNING id",
            (name, tables, kind, now()),
        )

    return contest(club, club._write(body))


def contest(club: Club, ref: int | str) -> ContestInfo:
    """A contest by id (int or "#2") or name."""
    return contest_in(club.db, ref)


def claim_table(club: Club, ref: int | str, table: int | None, kind: str) -> tuple[int, int]:
    """The contest id and table number for a new session (inside its transaction)."""
    return contest_tables.claim_table(club.db, ref, table, kind)


def contests(club: Club) -> list[ContestInfo]:
    return [contest(club, r[0]) for r in club.db.all("SELECT id FROM club_contests ORDER BY id")]


def standings(club: Club, ref: int | str) -> tuple[ContestInfo, list[Standing]]:
    """The contest's standings from every game recorded at its tables."""
    info = contest(club, ref)
    seated: dict[int, set[int]] = {}
    for pid, table in club.db.all(
        "SELECT sp.player_id, s.table_no FROM session_players sp JOIN sessions s ON s.id = sp.session_id "
        "WHERE s.contest_id = ?", (info.id,),
    ):
        seated.setdefault(pid, set()).add(table)
    totals = {pid: (0, 0, 0) for pid in seated}
    for pid, games, wins, points in club.db.all(
        "SELECT gr.player_id, count(*), sum(CASE WHEN gr.place = 1 THEN 1 ELSE 0 END), "
        "sum(coalesce(gr.points, 0)) FROM game_results gr JOIN games g ON g.id = gr.game_id "
        "JOIN sessions s ON s.id = g.session_id WHERE s.contest_id = ? GROUP BY gr.player_id", (info.id,),
    ):
        totals[pid] = (int(games), int(wins), int(points))
    order = sorted(totals, key=lambda pid: (-totals[pid][1], totals[pid][2], pid))
    out: list[Standing] = []
    for i, pid in enumerate(order):
        games, wins, points = totals[pid]
        place = i + 1
        if out and (out[-1].wins, out[-1].points) == (wins, points):
            place = out[-1].place
        out.append(Standing(place, club.player(pid), wins, points, games, tuple(sorted(seated[pid]))))
    return info, out


def close_contest(club: Club, ref: int | str, winner: int | str | None = None) -> tuple[ContestInfo, Settlement]:
    """The referee closes the contest: the winner's peerage step and rank are recorded with it."""
    def body() -> tuple[int, Settlement]:
        info, table = standings(club, ref)
        if info.status != "open":
            raise RecordsError(f"contest {info.name!r} is already closed")
        still = [(t, s) for t, s, status in info.sessions if status == "open"]
        if still:
            t, s = still[0]
            raise RecordsError(f"table {t} of contest {info.name!r} is still playing session {s}; end it first")
        if not table or table[0].games == 0:
            raise RecordsError(f"contest {info.name!r} has no games recorded; nothing to close")
        leaders = [s for s in table if s.place == 1]
        if winner is None:
            if len(leaders) > 1:
                names = ", ".join(s.player.name for s in leaders)
                raise RecordsError(f"tied at the top: {names}; play it off and close with --winner NAME")
            champion = leaders[0].player
        else:
            champion = club.player(winner)
            if champion.id not in {s.player.id for s in leaders}:
                raise RecordsError(f"{champion.name} is not at the top of contest {info.name!r}")
        settlement = club._win_contest(champion, info.name)
        club.db.execute(
            "UPDATE club_contests SET status = 'closed', closed_at = ?, won_id = ? WHERE id = ?",
            (now(), settlement.contest_id, info.id),
        )
        return info.id, settlement

    cid, settlement = club._write(body)
    return contest(club, cid), settlement
