"""CSV export of a club's records, for spreadsheets and club newsletters."""
from __future__ import annotations

import csv
import json
from typing import TextIO

from kikimimi.records.club import Club
from kikimimi.records.ladder import Rank, peerage_key, rank_key

TABLES = ("players", "games", "settlements")


def write_csv(club: Club, what: str, out: TextIO) -> int:
    """Write one table as CSV with a header row; returns the number of rows."""
    if what not in TABLES:
        raise ValueError(f"export what must be one of {', '.join(TABLES)}")
    writer = csv.writer(out, lineterminator="\n")
    rows = 0
    if what == "players":
        writer.writerow("id name kana form rank peerage wins firsts games crashes sessions contests".split())
        for p in club.players():
            lad = p.ladder
            writer.writerow([p.id, p.name, p.kana, p.form, rank_key(lad.rank, p.form),
                             peerage_key(lad.peerage, p.form), lad.wins, lad.firsts, lad.games,
                             lad.crashes, lad.sessions, lad.contests])
            rows += 1
    elif what == "games":
        writer.writerow("session game recorded_at reason seat player place pieces points crash rank_during".split())
        for r in club.conn.execute(
            "SELECT g.session_id, g.number, g.recorded_at, g.reason, gr.seat, p.name, gr.place, gr.pieces, "
            "gr.points, gr.crash, gr.rank_during, p.form FROM games g JOIN game_results gr ON gr.game_id = g.id "
            "JOIN players p ON p.id = gr.player_id ORDER BY g.id, gr.place"
        ):
            writer.writerow([*r[:9], bool(r[9]), rank_key(Rank(r[10]), r[11])])
            rows += 1
    else:
        writer.writerow("id player session contest at rank_before rank_after peerage_before peerage_after "
                        "wins_before wins_after reasons".split())
        for r in club.conn.execute(
            "SELECT s.*, p.name, p.form FROM settlements s JOIN players p ON p.id = s.player_id ORDER BY s.id"
        ):
            form = r["form"]
            writer.writerow([r["id"], r["name"], r["session_id"], r["contest_id"], r["at"],
                             rank_key(Rank(r["rank_before"]), form), rank_key(Rank(r["rank_after"]), form),
                             peerage_key(r["peerage_before"], form), peerage_key(r["peerage_after"], form),
                             r["wins_before"], r["wins_after"], " ".join(json.loads(r["reasons"]))])
            rows += 1
    return rows
