"""Kit enrolment at the end of the spoken set-up (kikimimi/box/setup/enrol.py), with scripted
players: each scans the piece their own earphone names on their own reader.  Mistakes (a tag
scanned twice, a tag naming another piece) are refused aloud; an interrupted enrolment goes on
from the tag maps on disk; an evening gets one map a game, each holding its own kit."""
from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

from kikimimi.contract.kit import kit_for, missing_copies
from kikimimi.box.setup.enrol import EveningKit, enrol, piece_names
from kikimimi.contract.tagmap import load_tagmap

SEATS = {1: ("c1", "r1"), 2: ("c2", "r2"), 3: ("c3", "r3"), 4: ("c4", "r4")}
SPEAKER, FIELD = "c0", "r0"


class Players:
    """The table: what each card heard, and a player at each reader who scans what it was asked."""

    def __init__(self, names: dict[str, str], mistakes: dict[tuple[str, int], tuple[str, str | None]] | None = None,
                 stop_after: int | None = None) -> None:
        self.said: list[tuple[str, str, dict]] = []
        self.asked: dict[str, str] = {}  # card -> the piece name last asked for
        self.by_name = {v: k for k, v in names.items()}
        self.uids = (f"04{n:012x}" for n in itertools.count(1))
        self.mistakes = dict(mistakes or {})  # (reader, nth scan) -> (uid, name on the tag) scanned instead
        self.scans: Counter[str] = Counter()
        self.scanned: dict[str, str] = {}  # uid -> the piece its player meant
        self.stop_after = stop_after
        self.misses: Counter[str] = Counter()  # reader -> questions its player does not hear

    def say(self, card: str, key: str, /, **params) -> None:
        self.said.append((card, key, params))
        if key == "enrol-scan":
            self.asked[card] = params["name"]

    def scans_of(self, reader: str):
        card = SPEAKER if reader == FIELD else next(c for c, r in SEATS.values() if r == reader)

        def next_scan(left: float):
            if self.stop_after is not None and len(self.scanned) >= self.stop_after:
                return None  # the player walked away
            if self.misses[reader]:
                self.misses[reader] -= 1
                return None  # the question was not heard: no scan within the time given
            self.scans[reader] += 1
            if (reader, self.scans[reader]) in self.mistakes:
                uid, name = self.mistakes[(reader, self.scans[reader])]
                return uid, name, ""
            uid = next(self.uids)
            self.scanned[uid] = self.by_name.get(self.asked[card], self.asked[card])  # one of the pieces so named
            return uid, None, ""
        return next_scan

    def heard(self, card: str) -> list[tuple[str, dict]]:
        return [(k, p) for c, k, p in self.said if c == card]


def evening(tmp_path: Path, games=("trident", "intrigue"), players: int = 4) -> EveningKit:
    kits = [kit_for(g, players) for g in games]
    return EveningKit(kits, {g: tmp_path / f"{g}.toml" for g in games})


def test_each_player_enrols_their_own_set_by_ear_and_each_game_gets_its_own_map(tmp_path):
    kit = evening(tmp_path)
    names = piece_names(["trident", "intrigue"], "en")
    table = Players(names)
    assert enrol(table, kit, SEATS, SPEAKER, FIELD, names, timeout_s=5)
    trident, intrigue = kit_for("trident", 4), kit_for("intrigue", 4)
    maps = {g: load_tagmap(tmp_path / f"{g}.toml") for g in ("trident", "intrigue")}
    # every copy of every piece, each in the map of every game whose kit holds it, and nothing else
    assert missing_copies(trident, maps["trident"]) == {} and missing_copies(intrigue, maps["intrigue"]) == {}
    assert set(maps["trident"].values()) == set(trident.copies())
    assert set(maps["intrigue"].values()) == set(intrigue.copies())
    # a command tag both games use is one physical tag a player, in both maps
    hints = {uid for uid, p in maps["trident"].items() if p == "cmd:hint"}
    assert len(hints) == 4 and hints == {uid for uid, p in maps["intrigue"].items() if p == "cmd:hint"}
    # every tag was recorded as the piece its player was asked for (copies of one card share a name)
    recorded = {uid: p for m in maps.values() for uid, p in m.items()}
    assert recorded.keys() == table.scanned.keys()
    assert all(names.get(p, p) == names.get(table.scanned[uid], table.scanned[uid]) for uid, p in recorded.items())
    # each player heard their own set's names in their own earphone, and nobody else's
    own = set(kit.own)
    for seat, (card, _) in SEATS.items():
        done = [p["name"] for k, p in table.heard(card) if k == "enrol-done"]
        assert [table.by_name.get(n, n) for n in done] == kit.own
    assert [p["name"] for k, p in table.heard(SPEAKER) if k == "enrol-done"] == \
        [names.get(p, p) for p in kit.table]
    assert not own & {table.by_name.get(p["name"]) for k, p in table.heard(SPEAKER) if k == "enrol-done"} - set(kit.table)
    assert table.heard(SPEAKER)[-1] == ("enrol-all-done", {"tags": kit.total()})
    assert kit.total() == 4 * len(own) + len(kit.table)


def test_a_tag_already_enrolled_or_naming_another_piece_is_refused_by_voice(tmp_path):
    kit = evening(tmp_path, ("trident",), 2)
    names = piece_names(["trident"], "en")
    first_uid = "04000000000001"  # the scripted players' first tag: seat 1's first piece
    seats = {1: SEATS[1], 2: SEATS[2]}
    table = Players(names, {("r2", 1): (first_uid, None),  # seat 2 scans seat 1's tag
                            ("r2", 3): ("04ffffffffffff", "trident:heart-3")})  # a tag naming a card
    assert enrol(table, kit, seats, SPEAKER, FIELD, names, timeout_s=5)
    heard = table.heard("c2")
    refusals = [(k, p) for k, p in heard if k in ("enrol-taken", "enrol-again", "enrol-names-other")]
    assert refusals == [("enrol-again", {"other": names["cmd:agree"]}),
                        ("enrol-names-other", {"other": names["trident:heart-3"]})]
    # the piece was asked again, by name, after each refusal, and neither tag was recorded for seat 2
    asks = [p["name"] for k, p in heard if k == "enrol-scan"]
    assert asks == [names[p] for p in ("cmd:agree", "cmd:agree", "cmd:hint", "cmd:hint", *kit.own[2:])]
    tags = load_tagmap(tmp_path / "trident.toml")
    assert tags[first_uid] == "cmd:agree" and "04ffffffffffff" not in tags
    assert Counter(tags.values())["cmd:agree"] == 2
    assert not [k for k, _ in table.heard("c1") if k.startswith("enrol-") and k in ("enrol-again", "enrol-names-other")]


def test_an_interrupted_enrolment_goes_on_where_it_stopped(tmp_path):
    names = piece_names(["trident", "intrigue"], "en")
    table = Players(names, stop_after=len(evening(tmp_path).own) + 3)  # seat 2 stops after 3 pieces
    assert not enrol(table, evening(tmp_path), SEATS, SPEAKER, FIELD, names, timeout_s=5)
    assert ("enrol-timeout", {"seconds": 5}) in table.heard("c2")
    again = Players(names)
    again.uids = (f"05{n:012x}" for n in itertools.count(1))
    kit = evening(tmp_path)  # read back from the maps on disk
    assert enrol(again, kit, SEATS, SPEAKER, FIELD, names, timeout_s=5)
    # seat 1 was asked nothing, seat 2 only what was left, and was told what was kept
    assert not [k for k, _ in again.heard("c1") if k == "enrol-scan"]
    assert ("enrol-skip", {"count": 3}) in again.heard("c2")
    assert len([k for k, _ in again.heard("c2") if k == "enrol-scan"]) == len(kit.own) - 3
    for game in ("trident", "intrigue"):
        assert missing_copies(kit_for(game, 4), load_tagmap(tmp_path / f"{game}.toml")) == {}


def test_every_enrolment_line_is_in_both_languages_and_the_japanese_spells_no_latin_letter():
    import re

    from kikimimi.contract.phrases import Phrasebook
    from kikimimi.voice.readings import Readings, load_readings

    en, ja = (Phrasebook(lang, ("core", "setup")) for lang in ("en", "ja"))
    keys = {k for k in en.phrases if k.startswith("enrol-")}
    assert keys and keys == {k for k in ja.phrases if k.startswith("enrol-")}
    pieces = {p for g, n in (("trident", 4), ("intrigue", 5), ("witch", 12), ("mafia42", 12), ("onisagashi", 6))
              for p in kit_for(g, n).own if p.startswith(("seat:", "cmd:"))}
    names = piece_names([], "ja")
    assert pieces <= names.keys()  # a player's own seat tokens and command tags are named in Japanese
    readings = Readings(load_readings("ja"))
    said = [ja.render(k, {"name": names[p], "other": names[p], "count": 2, "seconds": 60, "tags": 9})
            for k in keys for p in sorted(pieces)]
    assert not [t for t in said if re.search(r"[A-Za-z]", readings(t))]  # Open JTalk would spell it out


def test_a_piece_not_scanned_in_time_is_asked_for_again():
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        kit = evening(Path(folder), ("trident",), 2)
        names = piece_names(["trident"], "en")
        table = Players(names)
        table.misses["r1"] = 2  # seat 1 misses the first question and its first reminder
        assert enrol(table, kit, {1: SEATS[1], 2: SEATS[2]}, SPEAKER, FIELD, names, timeout_s=60, remind_s=0.01)
    asks = [p["name"] for k, p in table.heard("c1") if k == "enrol-scan"]
    assert asks == [names["cmd:agree"]] * 3 + [names[p] for p in kit.own[1:]]
    assert not [k for k, _ in table.heard("c1") if k == "enrol-timeout"]
