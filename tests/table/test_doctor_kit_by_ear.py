"""`kikimimi doctor --listen TABLE.toml` reads the kit out on the speaker after naming each output:
the pieces each player holds, the table's, and which pieces the tag map lacks, so an organiser with
no screen checks the box by ear.  Read back from real PortAudio devices (ALSA file devices)."""
import subprocess
import sys

from kikimimi.contract.kit import kit_for
from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, locate_clip

RATE = 48000
KIT = [
    "The kit of trident for 2 players: 63 tags.",
    "Each player holds 4 look-alike pieces: AGREE tag, HINT tag, PASS tag, TRIDENT tag.",
    "The table holds 55 pieces: PAIR tag, change clover 1 to 3, change diamond 1 to 3, change draw four, change heart 1 to 3, "
    "change spade 1 to 3, clover 1 to clover 8, diamond 1 to diamond 8, draw two 1, draw two 2, draw four 1 to 3, "
    "heart 1 to heart 8, spade 1 to spade 8, unknown 1 to 4.",  # the game's names (the enrolment's words)
    "2 pieces lack tagged copies.",
    "PASS tag: 1 of 2 tagged.",  # a player's own set first
    "spade 8: 0 of 1 tagged.",
]


def doctor_listen(cfg, alsa, xdg_cache) -> subprocess.CompletedProcess:
    env = alsa.env()
    env["XDG_CACHE_HOME"] = str(xdg_cache)
    return subprocess.run([sys.executable, "-m", "kikimimi.cli", "doctor", "--listen", str(cfg)],
                          env=env, capture_output=True, text=True, timeout=180)


def test_the_speaker_reads_the_kit_and_what_the_tag_map_lacks_and_no_earphone_hears_it(tmp_path, xdg_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    copies = kit_for("trident", 2).copies()  # the box as enrolled: one PASS and spade 8 not yet tagged
    copies["cmd:pass"] -= 1
    del copies["trident:spade-8"]
    uids = (f'"04{k:012x}" = "{piece}"' for k, piece in enumerate(p for p, n in copies.items() for _ in range(n)))
    (tmp_path / "tags.toml").write_text("[tags]\n" + "\n".join(uids) + "\n")
    alsa = AlsaFileDevices(tmp_path / "alsa", {"kkspk": 2, "kkear1": 2, "kkear2": 2}, rate=RATE)
    cfg = tmp_path / "t.toml"
    cfg.write_text('[table]\ngame = "trident"\nplayers = 2\nlang = "en"\ntagmap = "tags.toml"\n'
                   + "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "pn532"\n'
                             f'path = "{tmp_path}/hand-{s}"\n' for s in (1, 2))
                   + f'[readers.field]\nrole = "field"\ndriver = "pn532"\npath = "{tmp_path}/field"\n'
                   '[audio.outputs.speaker]\ndevice = "kkspk"\n[audio.outputs.seat-1]\ndevice = "kkear1"\n'
                   '[audio.outputs.seat-2]\ndevice = "kkear2"\n')
    proc = doctor_listen(cfg, alsa, xdg_cache)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[ok ] listen kit: said the kit in 6 lines on the speaker" in proc.stdout
    cache = xdg_cache / "kikimimi" / "clips"
    speaker = alsa.read("kkspk")[:, 0]
    at = [locate_clip(speaker, expected_clip(text, cache, RATE)) for text in ["Speaker.", *KIT]]
    assert all(a >= 0 for a in at) and at == sorted(at), at  # each said, in this order
    for ear in ("kkear1", "kkear2"):  # the kit is the speaker's: no earphone plays it
        heard = alsa.read(ear)[:, 0]
        assert all(locate_clip(heard, expected_clip(text, cache, RATE)) == -1 for text in KIT)


def test_a_table_that_cannot_play_on_the_speaker_reads_no_kit(tmp_path, xdg_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    alsa = AlsaFileDevices(tmp_path / "alsa", {"kkear1": 2, "kkear2": 2}, rate=RATE)
    cfg = tmp_path / "t.toml"
    cfg.write_text('[table]\ngame = "trident"\nplayers = 2\nlang = "en"\n'
                   + "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "sim"\n' for s in (1, 2))
                   + '[readers.field]\nrole = "field"\ndriver = "sim"\n'
                   '[audio.outputs.speaker]\ndevice = "kkgone"\n[audio.outputs.seat-1]\ndevice = "kkear1"\n'
                   '[audio.outputs.seat-2]\ndevice = "kkear2"\n')
    proc = doctor_listen(cfg, alsa, xdg_cache)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "[FIX] listen kit: not said: the speaker cannot play" in proc.stdout
    cache = xdg_cache / "kikimimi" / "clips"
    for ear in ("kkear1", "kkear2"):  # never re-routed to an earphone
        assert locate_clip(alsa.read(ear)[:, 0], expected_clip(KIT[0], cache, RATE)) == -1
