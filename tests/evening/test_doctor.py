"""`kikimimi doctor`: no false alarms on the shipped simulated tables; readers on one path,
a plain missing serial port and a TOML syntax error each named as they are."""
from __future__ import annotations

from pathlib import Path

import pytest

from kikimimi.cli import main
from kikimimi.box.doctor import RULES_DIRS_ENV, config_checks
from kikimimi.readers.checks import RULES

GAMES = Path(__file__).parents[2] / "games"


@pytest.mark.parametrize("path", sorted(GAMES.glob("*/sim.toml")), ids=lambda p: p.parent.name)
def test_a_shipped_simulated_table_has_nothing_to_fix(path):
    config, checks = config_checks(path)
    assert config is not None
    # the machine's speech install (Open JTalk for a Japanese table) is a finding about the
    # machine, not the config; everything the config decides must be ok
    assert [c.line() for c in checks if not c.ok and not c.name.startswith(("voice ", "speech"))] == []
    assert not any(c.name == f"voice {other}" for c in checks for other in ("ja", "en") if other != config.lang)


def test_a_journal_folder_serve_will_create_is_not_a_fault(tmp_path):
    (tmp_path / "t.toml").write_text((GAMES / "trident" / "sim.toml").read_text().replace(
        "var/trident-sim.jsonl", "deep/er/j.jsonl"))
    checks = {c.name: c for c in config_checks(tmp_path / "t.toml")[1]}
    assert checks["journal"].ok and "created when the table starts" in checks["journal"].detail


def _real_table(tmp_path: Path, paths: list[str]) -> Path:
    names = ["hand-1", "hand-2", "hand-3", "field"]
    body = "".join(
        f'[readers.{n}]\nrole = "{"field" if n == "field" else "hand"}"\n'
        + ("" if n == "field" else f"seat = {n[-1]}\n") + f'driver = "rdm6300"\npath = "{p}"\n'
        for n, p in zip(names, paths))
    path = tmp_path / "t.toml"
    path.write_text(f'[table]\ngame = "trident"\nplayers = 3\nlang = "en"\njournal = "j.jsonl"\n{body}')
    return path


def test_four_readers_on_one_path_are_caught(tmp_path):
    # the table file itself is refused now (serve would read one seat's scans as another's)
    config, checks = config_checks(_real_table(tmp_path, ["/dev/ttyUSB9"] * 4))
    assert config is None and len(checks) == 1 and not checks[0].ok
    assert "readers.hand-2.path: /dev/ttyUSB9 is the device of readers.hand-1 too" in checks[0].detail


def test_a_plain_missing_port_is_not_sent_to_the_udev_rules(tmp_path):
    paths = [f"/dev/ttyUSB{9 + i}" for i in range(4)]
    rules = tmp_path / "rules.d"  # a folder of its own: the host's /etc/udev/rules.d must not matter
    rules.mkdir()
    checks = {c.name: c for c in config_checks(_real_table(tmp_path, paths), rules_dirs=[str(rules)])[1]}
    hand = checks["reader hand-1"]
    assert not hand.ok and "/dev/ttyUSB9 does not exist" in hand.detail
    assert "udev" not in hand.fix and "correct the path" in hand.fix
    assert checks["udev rules"].ok and "not needed" in checks["udev rules"].detail
    assert "reader paths" not in checks


def test_the_rules_folder_comes_from_the_environment_when_not_given(tmp_path, monkeypatch):
    rules = tmp_path / "rules.d"
    rules.mkdir()
    (rules / RULES).write_text("# installed\n")
    monkeypatch.setenv(RULES_DIRS_ENV, f"{tmp_path / 'none'}:{rules}")
    table = _real_table(tmp_path, [f"/dev/ttyUSB{9 + i}" for i in range(4)])
    assert {c.name: c for c in config_checks(table)[1]}["udev rules"].detail == str(rules / RULES)
    monkeypatch.setenv(RULES_DIRS_ENV, str(tmp_path / "none"))
    assert "not needed" in {c.name: c for c in config_checks(table)[1]}["udev rules"].detail


def test_a_toml_syntax_error_is_shown_with_its_line_and_column(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_text('[table]\ngame = "trident"\nplayers = = 3\n')
    config, checks = config_checks(path)
    assert config is None and len(checks) == 1
    assert "line 3" in checks[0].detail and "column" in checks[0].detail
    assert "key named" not in checks[0].fix
    assert main(["doctor", str(path)]) == 1
    out = capsys.readouterr().out
    assert "line 3" in out and "Traceback" not in out


def test_a_copied_trees_venv_whose_scripts_run_the_old_interpreter_is_found(tmp_path):
    """A set-up tree copied elsewhere kept its venv's shebangs silently (the scripts ran
    the old tree's interpreter, or nothing once it was gone)."""
    import shutil
    import subprocess
    import sys

    from kikimimi.box.doctor import venv_check

    made = tmp_path / "old" / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(made)], check=True, timeout=120)
    (made / "bin" / "kikimimi").write_text(f"#!{made / 'bin' / 'python'}\nimport sys\n")
    shutil.copytree(tmp_path / "old", tmp_path / "copy", symlinks=True)
    here = venv_check(made)
    assert here is not None and here.ok, here
    copied = venv_check(tmp_path / "copy" / ".venv")
    assert copied is not None and not copied.ok
    assert str(made / "bin" / "python") in copied.detail and "rm -rf" in copied.fix and "scripts/setup" in copied.fix
    assert venv_check(tmp_path) is None  # not a venv: nothing to say
