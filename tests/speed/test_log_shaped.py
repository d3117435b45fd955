"""An event handed to the table as one dict is the log entry itself
(`protocol.log_shaped`): written, it must be byte for byte its
`Event`'s line (`protocol.in_log_order` in every writer), and a dict handed
over twice must never renumber what the log already holds."""
from __future__ import annotations

import json
from typing import Any

import pytest

from kikimimi.api.client import ApiClient
from kikimimi.api.server import start_api
from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import Table, default_tagmap, log_line
from kikimimi.contract.protocol import TABLE, Event, as_event, in_log_order, log_shaped, new_event
from kikimimi.table.public import public_view
from kikimimi.contract.script import Header, dumps
from kikimimi.design.sim import play
from kikimimi_games.trident import PIECES, TridentGame
from kikimimi_games.trident.pieces import HAND_SIZE

PIECES_TAGS = {p.tag for p in PIECES}

STAMPS = ["seq", "t", "type", "in"]


def _table(lang: str = "en") -> Table:
    table = Table(Header("trident", 3, {}, lang, {"seed": 1}), tagmap=default_tagmap("trident"))
    table.start()
    return table


CASES = [
    ("say", {"to": TABLE, "key": "turn", "params": {"seat": 2}}),
    ("say", {"to": "seat:1", "key": "field-unknown", "params": {"piece": "trident:wild-1", "effect": "draw-2"}}),
    ("say", {"to": TABLE, "key": "choose-suit", "params": {}}),
    ("say", {"to": "seat:3", "key": "choose-suit"}),
    ("play", {"seat": 1, "tag": "trident:heart-3"}),
    ("draw", {"seat": 2, "tag": "trident:spade-1", "private": "seat:2"}),
]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("type_, fields", CASES)
def test_a_log_shaped_event_is_written_byte_for_byte_as_its_event(type_: str, fields: dict[str, Any],
                                                                    lang: str) -> None:
    a, b = _table(lang), _table(lang)
    shaped = log_shaped(type_, fields)
    assert next(iter(shaped)) == "type" and "seq" not in shaped
    (from_event,) = a._log_events([new_event(type_, dict(fields))], 7.0, 3)
    (logged,) = b._log_events([shaped], 7.0, 3)
    assert logged is shaped and logged == from_event  # the very dict, stamped in place: no copy
    assert list(from_event)[:4] == STAMPS and list(logged)[:4] != STAMPS  # so the writers must reorder
    line = json.dumps(from_event, ensure_ascii=False)
    assert json.dumps(in_log_order(logged), ensure_ascii=False) == line
    assert dumps(logged) == dumps(from_event) and log_line(logged) == log_line(from_event)
    assert public_view([logged]) == public_view([from_event])
    assert [list(ev) for ev in public_view([logged])] == [list(ev) for ev in public_view([from_event])]
    assert in_log_order(from_event) is from_event  # an entry in order is written as it is
    assert as_event(log_shaped(type_, fields)) == Event(type_, {"params": {}, **fields} if type_ == "say" else fields)


def test_a_dict_handed_over_twice_is_logged_as_a_copy_never_renumbered() -> None:
    table = _table()
    turn = log_shaped("turn", {"seat": 2})
    first, again = table._log_events([turn, turn], 5.0, 4)
    (later,) = table._log_events([turn], 6.0, 5)
    assert (first["seq"], again["seq"], later["seq"]) == (2, 3, 4)
    assert first is turn and again is not turn and later is not turn
    assert (first["t"], first["in"]) == (5.0, 4)  # the entry the log holds is as it was logged
    assert [list(in_log_order(ev)) for ev in (first, again, later)] == [STAMPS + ["seat"]] * 3


def test_a_log_shaped_event_the_table_keeps_goes_its_own_way() -> None:
    table = _table()
    logged = table._log_events([log_shaped("timer-set", {"name": "x", "at": 9.0})], 1.0, 2)
    assert table.timers == {"x": 9.0} and [list(ev) for ev in logged] == [STAMPS + ["name", "at"]]


def test_the_tridents_hot_paths_hand_over_fresh_log_shaped_dicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every dict the Trident hands the table is new (none seen twice in a game) and
    already in the log's order with the stamps still None; it is what the log holds."""
    seen: dict[int, Any] = {}  # id -> the dict itself (kept alive, so no id is reused)
    shaped = 0
    real = TridentGame.handle

    def handle(self: TridentGame, inp: Any) -> Any:
        nonlocal shaped
        out = real(self, inp)
        for ev in out:
            if type(ev) is dict:
                shaped += 1
                assert id(ev) not in seen, ev
                seen[id(ev)] = ev
                keys = list(ev)
                assert keys[0] == "type" and not {"seq", "t", "in", "text"} & set(keys), ev
                if ev["type"] == "say":
                    assert keys[1:] == ["to", "key", "params"][:len(keys) - 1], ev
        return out

    monkeypatch.setattr(TridentGame, "handle", handle)
    logs = [play("trident", seed, 2 + seed % 3)[1] for seed in range(6)]
    in_logs = {id(ev) for log in logs for ev in log}
    assert shaped > 1000 and set(seen) <= in_logs
    for log in logs:  # written, every entry is in the log's order
        assert all(list(in_log_order(ev))[:4] == STAMPS for ev in log)
        assert [json.loads(dumps(ev)) for ev in log] == log


@pytest.mark.parametrize("line", [{"t": 1.0, "seq": 5}, {"seq": 1}, {"type": "x", "seq": 1, "t": 2.0},
                                  {"t": 3.0, "type": "x", "seq": 1, "in": 2}, {"game": "trident", "seq": 1}])
def test_a_writer_leaves_any_other_dict_as_it_is(line: dict[str, Any]) -> None:
    """A script line (untrusted: any keys) is written as it came, never reordered or refused."""
    assert in_log_order(line) is line and dumps(line) == json.dumps(line, ensure_ascii=False)


async def _until(client: ApiClient, wanted: Any) -> dict[str, Any]:
    while True:
        push = await client.next_push(10.0)
        assert push is not None, "the table closed the connection"
        if wanted(push):
            return push


async def test_the_api_sends_entries_logged_in_place_in_the_logs_order(tmp_path) -> None:
    """The referee's welcome log, a submit's answer and the pushes (referee's and
    spectator's) are JSON of entries the Trident handed over as dicts: each
    arrives with its keys in the log's order (json.loads keeps the order sent)."""
    daemon = Daemon(Header("trident", 3, lang="en"), tmp_path / "j.jsonl")
    daemon.open()
    api = start_api(daemon)
    try:
        referee = await ApiClient.connect(api.socket_path)
        watcher = await ApiClient.connect(api.socket_path)
        spectator = await ApiClient.connect(api.public_path, spectator=True)
        answer = await referee.command("scan 1 trident:heart-1")  # the referee stands in for hand reader 1
        assert answer["ok"] and {"draw", "say"} <= {ev["type"] for ev in answer["events"]}
        pushed = await watcher.next_push()
        basket = iter(sorted(PIECES_TAGS - {"trident:heart-1"}))
        for seat in (1, 2, 3):  # the rest of the deal: its end is said on the speaker
            for _ in range(HAND_SIZE - (seat == 1)):
                daemon.submit({"reader": "hand", "seat": seat, "tag": next(basket)})
        public = await _until(spectator, lambda push: push.get("events"))
        assert public["events"][-1]["key"] == "opening-draw"
        late = await ApiClient.connect(api.socket_path)  # its welcome holds the deal
        for sent in (answer["events"], pushed["events"], public["events"], late.welcome["log"]):
            assert sent and all(list(ev)[:4] == STAMPS for ev in sent), sent
            says = [ev for ev in sent if ev["type"] == "say"]
            assert says and all(list(ev)[4:] == ["to", "key", "text", "params"][:len(ev) - 4] for ev in says)
        for client in (referee, watcher, spectator, late):
            await client.close()
    finally:
        api.stop()
        daemon.close()
