"""`kikimimi doctor`'s wording: without a table file it says what it checked and what to
pass (not a complaint about a table file it was never given); `--listen` gives each
missing output its fix once."""
import subprocess
import sys

from kikimimi.cli.doctor import NO_TABLE
from support.virtual_sound import AlsaFileDevices
from voice_needs import need


def doctor(*args, env=None):
    return subprocess.run([sys.executable, "-m", "kikimimi.cli", "doctor", *args], env=env,
                          capture_output=True, text=True, timeout=300)


def test_without_a_table_file_it_says_what_it_checked_and_what_to_pass():
    proc = doctor()
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == NO_TABLE and "kikimimi doctor TABLE.toml" in NO_TABLE
    assert not any("table file" in line for line in lines[:-1]), proc.stdout  # no finding about a file not given


def test_listen_says_each_fix_once(tmp_path):
    need("espeak-ng", "libportaudio2", "alsa")
    alsa = AlsaFileDevices(tmp_path / "alsa", {"kkspk": 2}, rate=48000)
    cfg = tmp_path / "t.toml"
    cfg.write_text('[table]\ngame = "trident"\nplayers = 2\nlang = "en"\n'
                   + "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "sim"\n' for s in (1, 2))
                   + '[readers.field]\nrole = "field"\ndriver = "sim"\n'
                   '[audio.outputs.speaker]\ndevice = "kkspk"\n[audio.outputs.seat-1]\nusb = "9-9.9"\n')
    env = alsa.env()
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    proc = doctor("--listen", str(cfg), env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    found = {line.split(":")[0]: line for line in proc.stdout.splitlines() if line.startswith("[FIX]")}
    assert set(found) == {"[FIX] listen seat-1", "[FIX] listen seat-2"}, proc.stdout
    assert found["[FIX] listen seat-1"].endswith("plug it back in that port, or run kikimimi table setup again")
    assert found["[FIX] listen seat-2"].endswith("add [audio.outputs.seat-2] to the table file")
    for line in found.values():  # one fix a line: no second "->" one after the problem's own
        assert "->" not in line and line.count("table setup") <= 1
