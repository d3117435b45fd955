"""The set-up's mistakes, each said where it happened and asked again (a scripted table)."""
import pytest

from kikimimi.box.setup.dialogue import SetupFailed, run_dialogue


class ScriptedTable:
    """Answers each question from a script: (card, phrase key) -> the readers scanned, in turn."""

    def __init__(self, answers):
        self.answers = {k: list(v) for k, v in answers.items()}
        self.said = []
        self._last = None

    def say(self, card, key, /, **params):
        self.said.append((card, key, params.get("seat")))
        self._last = (card, key if "seat" not in params else f"{key}:{params['seat']}")

    def say_all(self, targets, key, /, **params):
        for card in targets:
            self.said.append((card, key, None))

    def clear(self):
        pass

    def scans(self):
        queue = self.answers.get(self._last)
        return queue.pop(0) if queue else []


def test_nobody_two_scans_and_a_reader_for_two_cards_are_said_and_asked_again():
    table = ScriptedTable({
        ("c1", "setup-speaker-prompt"): [[]],          # c1 is an earphone: silence, the speaker comes later
        ("c2", "setup-speaker-prompt"): [["rF"]],
        ("c1", "setup-earphone-prompt"): [[], ["rA", "rB"], ["rF"], ["rA"]],  # nobody, two, the field's, right
        ("c3", "setup-earphone-prompt"): [["rB"]],
        ("c2", "setup-seat-prompt:1"): [["rB"]],
        ("c2", "setup-seat-next:2"): [["rB"], ["rA"]],  # seat 2 scanned on seat 1's reader first
    })
    b = run_dialogue(table, ["c1", "c2", "c3"], players=2, attempts=4)
    assert (b.speaker, b.field_reader) == ("c2", "rF")
    assert b.pairs == {"c1": "rA", "c3": "rB"}
    assert b.seats == {1: ("c3", "rB"), 2: ("c1", "rA")}
    said_c1 = [k for c, k, _ in table.said if c == "c1"]
    assert said_c1.count("setup-earphone-prompt") == 4
    assert ["setup-nobody", "setup-two-scans", "setup-reader-taken"] == [
        k for k in said_c1 if k in ("setup-nobody", "setup-two-scans", "setup-reader-taken")]
    assert ("c2", "setup-already-seated", None) in table.said
    assert ("c3", "setup-you-are", 1) in table.said and ("c1", "setup-you-are", 2) in table.said
    # a seat's line went into that seat's earphone only
    assert [c for c, k, _ in table.said if k == "setup-you-are"] == ["c3", "c1"]


def test_a_card_nobody_answers_is_left_out_and_too_few_seats_stop_the_setup_aloud():
    table = ScriptedTable({("c2", "setup-speaker-prompt"): [["rF"]], ("c1", "setup-earphone-prompt"): [["rA"]]})
    with pytest.raises(SetupFailed):
        run_dialogue(table, ["c1", "c2", "c3"], players=2, attempts=2)
    assert ("c2", "setup-card-left-out", None) in table.said
    assert table.said[-1] == ("c2", "setup-too-few", None)


def test_the_table_file_names_cards_by_serial_only_where_the_serial_tells_them_apart():
    import tomllib

    from kikimimi.box.setup.dialogue import Binding
    from kikimimi.box.setup.found import FoundCard, FoundReader
    from kikimimi.box.setup.tablefile import table_toml
    from kikimimi.voice.devices import Device
    from kikimimi.voice.identity import SoundCard

    cards = {f"c{k}": FoundCard(f"c{k}", SoundCard(k, f"D{k}", f"1-2.{k}", serial), Device(k, f"D{k}", 2, 48000))
             for k, serial in ((1, "AB12"), (2, "0001"), (3, "0001"), (4, "bad serial"))}
    readers = {f"r{k}": FoundReader(f"r{k}", f"/dev/serial/by-path/p-usb-0:1.{k}:1.0-port0", f"1.{k}")
               for k in range(1, 5)}
    b = Binding(speaker="c1", field_reader="r1", pairs={"c2": "r2", "c3": "r3", "c4": "r4"},
                seats={1: ("c2", "r2"), 2: ("c3", "r3"), 3: ("c4", "r4")})
    outputs = tomllib.loads(table_toml(b, "trident", 3, "en", readers, cards))["audio"]["outputs"]
    assert outputs["speaker"] == {"serial": "AB12", "channels": [1, 2]}
    assert outputs["seat-1"] == {"usb": "1-2.2", "channels": [1, 2]}  # "0001" twice: by port
    assert outputs["seat-2"] == {"usb": "1-2.3", "channels": [1, 2]}
    assert outputs["seat-3"] == {"usb": "1-2.4", "channels": [1, 2]}  # a serial a file cannot hold: by port
