"""The mixing done in the audio callback, driven block by block without a device."""
import numpy as np
import pytest

from kikimimi.voice.config import parse_audio
from kikimimi.voice.mixer import Item, Lane


def ramp(n, start):
    return (start + np.arange(n, dtype=np.float32)) / 10000


def block(lanes, frames=64, channels=4):
    out = np.zeros((frames, channels), np.float32)
    for lane in lanes:
        lane.mix_into(out, frames)
    return out


def test_clips_play_in_order_into_their_own_channels_only():
    seat = Lane("seat-1", (2, 3), 1.0)
    seat.push(Item("a", 0.0, ramp(100, 1)))
    seat.push(Item("b", 0.0, ramp(50, 500)))
    out = np.concatenate([block([seat]) for _ in range(3)])
    np.testing.assert_array_equal(out[:100, 2], ramp(100, 1))
    np.testing.assert_array_equal(out[100:150, 3], ramp(50, 500))
    assert not out[:, :2].any() and not out[150:].any()
    assert seat.idle and seat.played == ["a", "b"]


def test_speaker_never_waits_behind_an_earphone():
    speaker, seat = Lane("speaker", (0, 1), 1.0), Lane("seat-1", (2, 3), 1.0)
    seat.push(Item("long", 0.0, ramp(1000, 1)))
    speaker.push(Item("news", 0.0, ramp(10, 1)))
    out = block([seat, speaker])
    np.testing.assert_array_equal(out[:10, 0], ramp(10, 1))


def test_a_new_hand_scan_cuts_the_stale_clip_and_queue():
    seat = Lane("seat-1", (0,), 1.0)
    seat.push(Item("old", 0.0, np.full(1000, 0.1, np.float32)))
    seat.push(Item("older", 0.0, np.full(1000, 0.2, np.float32)))
    first = block([seat], 64, 1)
    seat.cut()
    seat.push(Item("new", 0.0, np.full(30, 0.3, np.float32)))
    second = block([seat], 64, 1)
    assert np.all(first == np.float32(0.1))
    np.testing.assert_array_equal(second[:30, 0], np.float32(0.3))
    assert not second[30:].any()
    assert seat.played == ["old", "new"] and seat.idle


def test_a_clip_still_rendering_holds_its_place_in_the_queue():
    seat = Lane("seat-1", (0,), 1.0)
    first = Item("first", 0.0)  # samples arrive later
    seat.push(first)
    seat.push(Item("second", 0.0, np.full(10, 0.5, np.float32)))
    assert not block([seat], 16, 1).any() and not seat.idle
    first.samples = np.full(10, 0.25, np.float32)
    out = block([seat], 32, 1)
    np.testing.assert_array_equal(out[:10, 0], np.float32(0.25))
    np.testing.assert_array_equal(out[10:20, 0], np.float32(0.5))


def test_volume_scales_and_latency_is_recorded():
    seat = Lane("seat-1", (0,), 0.5)
    seat.push(Item("x", 0.0, np.full(8, 0.8, np.float32)))
    out = block([seat], 8, 1)
    np.testing.assert_array_equal(out[:, 0], np.float32(0.8) * np.float32(0.5))
    assert len(seat.latencies) == 1 and seat.latencies[0] > 0


@pytest.mark.parametrize("audio, key", [
    ({"outputs": {"seat-9": {"device": "x"}}}, "audio.outputs.seat-9"),
    ({"outputs": {"speakr": {"device": "x"}}}, "audio.outputs.speakr"),
    ({"outputs": {"seat-1": {"device": "x", "channels": [0, 1]}}}, "audio.outputs.seat-1.channels"),
    ({"outputs": {"seat-1": {"device": "x", "channels": [3, 4, 5]}}}, "audio.outputs.seat-1.channels"),
    ({"outputs": {"seat-1": {"device": True}}}, "audio.outputs.seat-1.device"),
    ({"outputs": {"speaker": {"device": "x", "volume": 9}}}, "audio.outputs.speaker.volume"),
    ({"outputs": {"speaker": {"devise": "x"}}}, "audio.outputs.speaker.devise"),
    ({"outputs": {"speaker": "USB"}}, "audio.outputs.speaker"),
    ({"rate": "fast"}, "audio.rate"),
    ({"pack": "/no/such/folder"}, "audio.pack"),
    ({"volume": 1}, "audio.volume"),
])
def test_broken_audio_config_names_the_key_in_one_line(audio, key):
    with pytest.raises(ValueError) as err:
        parse_audio(audio, players=4)
    message = str(err.value)
    assert message.startswith(key + ":") and "\n" not in message


def test_good_config_is_normalised():
    spec = parse_audio({"rate": 150, "outputs": {
        "speaker": {"device": "USB Audio", "channels": [1, 2]},
        "seat-2": {"device": "3", "channels": [4], "volume": 0.5}}}, players=2)
    assert spec.rate == 150
    assert spec.outputs["seat-2"].device == 3 and spec.outputs["seat-2"].channels == (3,)
    assert spec.outputs["seat-2"].audience == "seat:2" and spec.outputs["speaker"].audience == "table"
