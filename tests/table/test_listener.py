"""The test players' ears (listener.py) cut a recording into phrases the same way however late they read it."""
import numpy as np
import pytest

from listener import Person, Table, best_match

RATE = 48000


def clip(seed: int, seconds: float) -> np.ndarray:
    """A stand-in phrase: shaped noise with a short pause inside it (shorter than PAUSE_S)."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    sound = (0.3 * rng.standard_normal(n) * np.hanning(n)).astype(np.float32)
    sound[n // 2: n // 2 + int(0.15 * RATE)] = 0.0
    return sound


def recording(*parts: np.ndarray) -> bytes:
    stereo = np.repeat(np.concatenate(parts)[:, None], 2, axis=1)
    return stereo.astype("<f4").tobytes()


def gap(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * RATE), np.float32)


class Reader:
    def __init__(self):
        self.placed = []
        self.events = []

    def place(self, tag):
        self.placed.append(tag)
        self.events.append("place")

    def remove(self):
        self.events.append("remove")


def test_two_phrases_and_the_pause_between_read_at_once_are_two_phrases(tmp_path):
    # a starved listener thread reads seconds of recording at once: the set-up's 0.6 s between two
    # phrases falls inside one read (heard as one unknown sound, and nobody scanned)
    clips = {"prompt": clip(1, 1.2), "bound": clip(2, 0.8)}
    raw = tmp_path / "ear.raw"
    raw.write_bytes(recording(gap(0.2), clips["bound"], gap(0.6), clips["prompt"], gap(0.5)))
    ann = Person("ann", Reader(), {"ear": {"prompt"}})
    table = Table({"ear": raw}, {"ear": 2}, clips, [ann], RATE)
    table._read("ear")  # one read of everything, as after a long stall
    assert table.log == [("ear", "bound"), ("ear", "prompt")], table.misses
    assert len(ann.reader.placed) == 1  # she scanned once, for her prompt


def test_a_read_that_ends_inside_a_pause_goes_on_counting_it(tmp_path):
    clips = {"prompt": clip(1, 1.2), "bound": clip(2, 0.8)}
    raw = tmp_path / "ear.raw"
    whole = recording(clips["bound"], gap(0.6), clips["prompt"], gap(0.5))
    table = Table({"ear": raw}, {"ear": 2}, clips, [], RATE)
    frame = 8
    for cut in (0.5, 0.9, 1.0, 2.0, 3.1):  # reads ending anywhere: mid-phrase, mid-pause, the end
        raw.write_bytes(whole[: int(cut * RATE) * frame])
        table._read("ear")
    assert table.log == [("ear", "bound"), ("ear", "prompt")], table.misses


def test_a_piece_stays_on_the_reader_until_the_table_answers(tmp_path):
    # lifted after a fixed 0.4 s, a piece could be gone before a starved reader polled it;
    # a player leaves it until the table says something back
    clips = {"prompt": clip(1, 1.2), "bound": clip(2, 0.8)}
    raw = tmp_path / "ear.raw"
    ann = Person("ann", Reader(), {"ear": {"prompt"}})
    table = Table({"ear": raw}, {"ear": 2}, clips, [ann], RATE)
    raw.write_bytes(recording(clips["prompt"], gap(0.5)))
    table._read("ear")
    assert ann.reader.events == ["place"]
    raw.write_bytes(recording(clips["prompt"], gap(0.5), clips["bound"], gap(0.5)))
    table._read("ear")
    assert ann.reader.events == ["place", "remove"]


# 600: the fast listener's rate the spoken set-up tests run at (test_setup_by_ear.py, test_box_of_parts.py)
@pytest.mark.parametrize("wpm", [230, 300])
def test_phrases_that_differ_in_one_word_are_told_apart_across_a_dropout(tmp_path, wpm):
    # under load the recording has dropouts (the sink played silence while the player was starved);
    # one alignment for the whole sound then heard "You are seat 1." as seat 2
    from kikimimi.contract.phrases import Phrasebook
    from voice_needs import need
    from voice_play import expected_clip

    need("espeak-ng")
    book = Phrasebook("en", ("core", "setup"))
    clips = {f"you-are-{n}": expected_clip(book.render("setup-you-are", {"seat": n}), tmp_path, RATE, wpm=wpm)
             for n in (1, 2, 3)}
    said = clips["you-are-1"]
    wrong = []
    for cut in np.linspace(0.2, 0.8, 7):
        for ms in (30, 60, 100, 200):
            at = int(said.size * cut)
            heard = np.concatenate([said[:at], np.zeros(ms * RATE // 1000, np.float32), said[at:]])
            got, _ = best_match(heard, clips)
            if got != "you-are-1":
                wrong.append((round(float(cut), 1), ms, got))
    assert wrong == []
