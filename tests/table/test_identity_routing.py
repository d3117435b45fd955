"""A reboot renumbers identical sound cards; a table named by USB port still routes each secret home.

No USB sound card exists here, so sysfs is a tree shaped like the kernel's
(tests/support/usbtree.py); every clip still plays through real PortAudio
into ALSA file devices, read back sample for sample.
"""
import subprocess
import sys

import numpy as np
import pytest

from support.usbtree import FakeUsbTree
from kikimimi.voice.devices import Device
from kikimimi.voice.config import parse_audio
from kikimimi.voice.identity import IdentityError, SoundCard, check_outputs, resolve
from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, find_clip, play, say

RATE = 48000
SPEAKER, SEAT1, SEAT2 = "1-1.1", "1-1.2", "1-1.3"
IDS = ["kkc0", "kkc1", "kkc2"]
SECRET1, SECRET2, TABLE = "Your hand: heart three.", "Your hand: spade eight.", "Seat two, your turn."
BY_PORT = {"outputs": {"speaker": {"usb": SPEAKER}, "seat-1": {"usb": SEAT1}, "seat-2": {"usb": SEAT2}}}


def boot_and_play(tmp_path, name, order, audio, clip_cache):
    """Cards enumerated in `order` (ports); play two secrets and a public line; what each port heard."""
    need("espeak-ng", "libportaudio2", "alsa")
    tree = FakeUsbTree(tmp_path / name)
    tree.boot(order, IDS)
    alsa = AlsaFileDevices(tmp_path / name / "alsa", {i: 2 for i in IDS}, rate=RATE)
    result = play({"audio": audio, "players": 2, "lang": "en", "cache_dir": str(clip_cache),
                   "steps": [{"emit": [say("seat:1", SECRET1, "hand-piece"), say("seat:2", SECRET2, "hand-piece"),
                                       say("table", TABLE, "turn")]}, {"wait": 60}]},
                  tree.env(alsa.env()), tmp_path / name)
    heard = {port: (alsa.read(IDS[k])[:, 0] if alsa.raw_path(IDS[k]).exists() else np.zeros(0, np.float32))
             for k, port in enumerate(order)}
    return result, heard


def holds(channel, clip):
    if not channel.size or not channel.any() or channel.size < clip.size:
        return False
    start = find_clip(channel, clip)
    # a clip that would run past the end of what the port played is not held there (a longer
    # clip than the one that port heard, after a long silence under load, used to raise instead)
    if start < 0 or start + clip.size > channel.size:
        return False
    return bool(np.allclose(channel[start:start + clip.size], clip, atol=1e-7))


@pytest.mark.parametrize("order", [[SEAT1, SEAT2, SPEAKER], [SEAT2, SPEAKER, SEAT1], [SPEAKER, SEAT2, SEAT1]])
def test_after_any_enumeration_order_each_secret_reaches_only_its_port(tmp_path, clip_cache, order):
    result, heard = boot_and_play(tmp_path, "boot", order, BY_PORT, clip_cache)
    assert result["problems"] == [], result
    s1, s2, table = (expected_clip(t, clip_cache, RATE) for t in (SECRET1, SECRET2, TABLE))
    assert holds(heard[SEAT1], s1) and not holds(heard[SEAT1], s2) and not holds(heard[SEAT1], table)
    assert holds(heard[SEAT2], s2) and not holds(heard[SEAT2], s1) and not holds(heard[SEAT2], table)
    assert holds(heard[SPEAKER], table) and not holds(heard[SPEAKER], s1) and not holds(heard[SPEAKER], s2)


def test_a_card_named_by_its_number_would_whisper_to_the_wrong_seat_after_a_reboot(tmp_path, clip_cache):
    """The contrast that makes the test above mean something: the same reshuffle, a config by card
    name (what seat 1's card was called on the first boot), and seat 1's secret lands in seat 2's ear."""
    by_name = {"outputs": {"speaker": {"device": "kkc2"}, "seat-1": {"device": "kkc0"}, "seat-2": {"device": "kkc1"}}}
    _, first = boot_and_play(tmp_path, "first", [SEAT1, SEAT2, SPEAKER], by_name, clip_cache)
    s1 = expected_clip(SECRET1, clip_cache, RATE)
    assert holds(first[SEAT1], s1)
    _, after = boot_and_play(tmp_path, "after", [SEAT2, SPEAKER, SEAT1], by_name, clip_cache)
    assert holds(after[SEAT2], s1) and not holds(after[SEAT1], s1)


def _serve(tmp_path, audio_toml, order, serials=None):
    need("libportaudio2", "alsa")
    tree = FakeUsbTree(tmp_path / "usb")
    tree.boot(order, IDS, serials)
    alsa = AlsaFileDevices(tmp_path / "alsa", {i: 2 for i in IDS}, rate=RATE)
    cfg = tmp_path / "t.toml"
    cfg.write_text('[table]\ngame = "trident"\nplayers = 2\nlang = "en"\n'
                   '[readers.hand-1]\nrole = "hand"\nseat = 1\ndriver = "sim"\n'
                   '[readers.hand-2]\nrole = "hand"\nseat = 2\ndriver = "sim"\n'
                   '[readers.field]\nrole = "field"\ndriver = "sim"\n' + audio_toml)
    return subprocess.run([sys.executable, "-m", "kikimimi.cli", "serve", str(cfg), "--sim-readers", "/dev/null"],
                          env=tree.env(alsa.env()), capture_output=True, text=True, timeout=60)


def test_serve_refuses_two_outputs_on_one_card_in_one_line(tmp_path):
    proc = _serve(tmp_path, '[audio.outputs.speaker]\nusb = "1-1.1"\n[audio.outputs.seat-1]\nusb = "1-1.2"\n'
                            '[audio.outputs.seat-2]\nusb = "1-1.2"\n', [SEAT1, SEAT2, SPEAKER])
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "seat-2" in lines[0] and "another's secrets" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_serve_refuses_a_serial_number_two_cards_share(tmp_path):
    proc = _serve(tmp_path, '[audio.outputs.speaker]\nusb = "1-1.1"\n[audio.outputs.seat-1]\nserial = "0001"\n'
                            '[audio.outputs.seat-2]\nusb = "1-1.3"\n', [SEAT1, SEAT2, SPEAKER],
                  {SEAT1: "0001", SEAT2: "0001"})
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "names 2 cards" in lines[0] and "USB port instead" in lines[0], proc.stderr


def test_identical_cards_by_portaudio_name_are_ambiguous_by_port_they_are_not():
    devices = [Device(0, "USB Audio Device: - (hw:1,0)", 2, 48000), Device(1, "USB Audio Device: - (hw:2,0)", 2, 48000),
               Device(2, "HDA Intel PCH: ALC3232 Analog (hw:0,0)", 2, 48000)]
    cards = [SoundCard(0, "PCH", None, None), SoundCard(1, "Device", "1-1.2", None), SoundCard(2, "Device_1", "1-1.3", None)]
    spec = parse_audio({"outputs": {"seat-1": {"device": "USB Audio Device: - (hw:1,0)"}}}, 2)
    with pytest.raises(IdentityError, match="one of 2 identical cards.*usb ="):
        check_outputs(spec.outputs, devices, cards)
    by_port = parse_audio({"outputs": {"seat-1": {"usb": "1-1.3"}, "seat-2": {"usb": "1-1.2"},
                                       "speaker": {"device": "PCH"}}}, 2)
    found = check_outputs(by_port.outputs, devices, cards)
    assert found["seat-1"].index == 1 and found["seat-2"].index == 0 and found["speaker"].index == 2
    with pytest.raises(LookupError, match="no sound card at usb '1-1.4'"):
        resolve(parse_audio({"outputs": {"seat-1": {"usb": "1-1.4"}}}, 2).outputs["seat-1"], devices, cards)


def test_an_identity_key_is_checked_when_the_file_is_read():
    with pytest.raises(ValueError, match="device and usb both name the card"):
        parse_audio({"outputs": {"seat-1": {"device": "x", "usb": "1-1.2"}}}, 2)
    with pytest.raises(ValueError, match=r"seat-1.usb: must be a USB port"):
        parse_audio({"outputs": {"seat-1": {"usb": "/dev/snd/pcmC1D0p"}}}, 2)


def test_two_readers_on_one_device_are_refused_when_the_file_is_read(tmp_path):
    from kikimimi.table.config import ConfigError, load_table_config
    from support.usbtree import FakeUsbTree as Tree

    tty = tmp_path / "ttyUSB0"
    tty.write_text("")
    links = Tree(tmp_path / "usb").plug_serial({"1-1.1": str(tty)})
    cfg = tmp_path / "t.toml"
    cfg.write_text('[table]\ngame = "trident"\nplayers = 2\n'
                   f'[readers.hand-1]\nrole = "hand"\nseat = 1\ndriver = "pn532"\npath = "{links["1-1.1"]}"\n'
                   f'[readers.hand-2]\nrole = "hand"\nseat = 2\ndriver = "pn532"\npath = "{tty}"\n')
    with pytest.raises(ConfigError, match=r"readers.hand-2.path: .* is the device of readers.hand-1 too"):
        load_table_config(cfg)


def test_doctor_names_readers_numbered_in_plug_order_and_passes_ports(tmp_path):
    from kikimimi.box.doctor import config_checks

    def table(paths):
        cfg = tmp_path / "t.toml"
        cfg.write_text('[table]\ngame = "trident"\nplayers = 2\n' + "".join(
            f'[readers.hand-{n}]\nrole = "hand"\nseat = {n}\ndriver = "rdm6300"\npath = "{p}"\n'
            for n, p in enumerate(paths, 1)))
        return {c.name: c for c in config_checks(cfg)[1]}

    numbered = table(["/dev/ttyUSB3", "/dev/serial/by-path/pci-0000:00:14.0-usb-0:1.2:1.0-port0"])["reader identity"]
    assert not numbered.ok and "hand-1 (/dev/ttyUSB3)" in numbered.detail and "hand-2" not in numbered.detail
    assert table(["/dev/serial/by-path/a-usb-0:1.1:1.0-port0", "/dev/serial/by-id/usb-FTDI_A5-if00-port0"])[
        "reader identity"].ok
