"""`Table.feed_placed`, the bot driver's way in for a plain placement,
must answer every line exactly as `feed` answers the same line: twin tables are
fed the same lines, one through each, and their logs and states compared, for
the lines it takes itself and for every kind it hands back to `feed`."""
from __future__ import annotations

from typing import Any

from kikimimi.table.engine import LogEvent, Table, default_tagmap
from kikimimi.contract.hints import HINT_TAG
from kikimimi.contract.script import Header
from kikimimi.design.sim import play


def _twins(game: str, players: int, **table_args: Any) -> tuple[Table, Table]:
    header = Header(game, players, {}, "en", {"seed": 1})
    tagmap = default_tagmap(game) if game != "toy" else {}
    a, b = (Table(header, tagmap=tagmap, **table_args) for _ in range(2))
    assert a.start() == b.start()
    return a, b


def _placed(table: Table, number: int, line: dict[str, Any]) -> list[LogEvent]:
    reader = line.get("reader")
    return table.feed_placed(number, line, line["t"], reader, line.get("seat") if reader == "hand" else None,
                             line.get("tag"))


def _state(table: Table) -> tuple[Any, ...]:
    return table.seq, table.t, table.inputs, dict(table.timers), table.game.over, dict(table.choices)


def _same(a: Table, b: Table, number: int, line: dict[str, Any]) -> list[LogEvent]:
    got = _placed(b, number, line)
    assert got == a.feed(number, dict(line)), (number, line)
    assert _state(a) == _state(b)
    return got


def test_a_whole_bot_game_and_odd_lines_log_as_feed_logs_them():
    script, log = play("trident", 4, 3)
    a, b = _twins("trident", 3)
    number, taken = 1, 0
    for line in script[1:]:
        number += 1
        if "console" in line:
            assert b.feed(number, line) == a.feed(number, line)
            continue
        t = line["t"]
        seq = b.seq
        _same(a, b, number, line)
        taken += b.seq > seq
        # after every placement, lines the fast path must hand back to feed
        for odd in ({"t": t, "reader": "hand", "seat": 9, "tag": line["tag"]},
                    {"t": t, "reader": "hand", "seat": True, "tag": line["tag"]},
                    {"t": t, "reader": "hand", "seat": 1, "tag": "trident:no-such-piece"},
                    {"t": t, "reader": "hand", "seat": 1, "tag": 7},
                    {"t": t - 0.5, "reader": "field", "tag": line["tag"]},
                    {"t": t, "reader": "light", "tag": line["tag"]}):
            number += 1
            assert _same(a, b, number, odd)[0]["type"] == "error"
    assert taken > 50 and b.game.over
    number += 1  # a piece after the end: "the game is over", said back
    over = _same(a, b, number, {"t": a.t + 1.0, "reader": "hand", "seat": 2, "tag": script[-2].get("tag")})
    assert [ev["type"] for ev in over] == ["error", "say"]


def test_a_bot_game_with_questions_pending_logs_as_feed_logs_it():
    """イントリーグ asks seats questions (`kikimimi.contract.choices`): a scan then is an answer, the runtime's."""
    script, _ = play("intrigue", 2, 4)
    a, b = _twins("intrigue", 4)
    asked = 0
    for number, line in enumerate(script[1:], start=2):
        if "tag" in line and set(line) <= {"t", "reader", "seat", "tag"}:
            asked += bool(b.choices)
            _same(a, b, number, line)
        else:
            assert b.feed(number, line) == a.feed(number, line)
    assert asked > 0


def test_hint_and_a_table_without_a_field_reader_go_through_feed():
    a, b = _twins("trident", 3, has_field=False)
    hint = _same(a, b, 2, {"t": 1.0, "reader": "hand", "seat": 2, "tag": HINT_TAG})
    assert hint and all(ev["type"] != "error" for ev in hint)
    no_field = _same(a, b, 3, {"t": 2.0, "reader": "field", "tag": "trident:heart-3"})
    assert no_field[0]["message"].endswith("this table has no field reader")


def test_a_timer_due_fires_first_as_through_feed(toy):
    a, b = _twins("toy", 2)
    assert a.timers == {"idle": 10.0}
    fired = _same(a, b, 2, {"t": 11.0, "reader": "hand", "seat": 1, "tag": "toy:stone-1"})
    assert fired[0]["type"] == "turn" and fired[0]["seat"] == 2 and a.timers == {"idle": 20.0}
    assert fired[-1]["key"] == "stone"  # the line itself, after the timer
