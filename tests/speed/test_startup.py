"""Start-up loads only what the command needs: `kikimimi --help`
must not import game plugins, numpy or the records layer, and a command
still finds its module and a plugin's command still works."""
from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from kikimimi.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
heavy = sorted(m for m in sys.modules
               if m == "numpy" or m.startswith("kikimimi_games") or m.startswith("kikimimi.records")
               or m == "kikimimi.table.engine" or m == "transitions")
print("HEAVY", " ".join(heavy))
"""


def _heavy(argv: list[str]) -> tuple[list[str], str]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("HEAVY"))
    return line.split()[1:], out


def test_help_imports_no_game_numpy_or_records():
    heavy, out = _heavy(["--help"])
    assert heavy == [], heavy
    assert "replay" in out and "serve" in out and "onisagashi" in out


def test_a_command_imports_only_its_own_module():
    heavy, _ = _heavy(["doctor", "--help"])
    assert "numpy" not in heavy and not any(m.startswith("kikimimi_games") for m in heavy)


def test_plugin_command_still_runs(tmp_path):
    obs = tmp_path / "obs.json"
    obs.write_text('{"rules": "beginner", "players": 5, "me": 1, "hand": ["mion", "tofu", "swamp"], "history": []}')
    done = subprocess.run([sys.executable, "-m", "kikimimi.cli", "onisagashi", "solve", str(obs)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert '"best"' in done.stdout


def test_unknown_command_is_one_usage_error():
    done = subprocess.run([sys.executable, "-m", "kikimimi.cli", "bogus"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "invalid choice: 'bogus'" in done.stderr and "Traceback" not in done.stderr
