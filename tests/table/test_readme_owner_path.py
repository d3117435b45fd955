"""The README's owner path, read from the README itself: the steps in the order an owner
takes them, every file it names in the repository, every `kikimimi` line accepted by the
real command line as written (so the README and the CLI cannot drift apart), and the modules
it unloads the ones the blacklist keeps off.  The lines that need root, udev or systemd are
not run here; the spoken set-up and its enrolment run in tests/table/test_setup_by_ear.py."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from kikimimi.cli import build_parser

ROOT = Path(__file__).parents[2]


def owner_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- owner:.*?```sh\n(.*?)```\n<!-- /owner -->", text, re.S)
    assert block, "the README lost its owner's block"
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def kikimimi_argv(line: str) -> list[str] | None:
    words = shlex.split(line)
    if words[:1] == ["sudo"]:
        words = words[1:]
    if words[:1] == ["kikimimi"] or words[:1] == ["$(command -v kikimimi)"]:
        return words[1:]
    return None


def test_the_owner_path_is_in_the_order_an_owner_takes_it():
    lines = owner_lines()

    def at(pattern: str) -> int:
        found = [k for k, line in enumerate(lines) if re.search(pattern, line)]
        assert found, pattern
        return found[0]
    steps = [r"scripts/setup", r"PATH=.*\.venv/bin", r"99-kikimimi\.rules /etc/udev/rules\.d",
             r"kikimimi-blacklist\.conf /etc/modprobe\.d", r"udevadm trigger", r"usermod -aG audio,plugdev,dialout",
             r"kikimimi table setup", r"kikimimi doctor --listen", r"service install", r"systemctl enable --now kikimimi-"]
    assert [at(s) for s in steps] == sorted(at(s) for s in steps)


def test_every_file_the_owner_path_names_is_in_the_repository():
    for line in owner_lines():
        for path in re.findall(r"(?<![/\w])((?:udev|scripts)/[\w.-]+)", line):
            assert (ROOT / path).is_file(), path


@pytest.mark.parametrize("line", [line for line in owner_lines() if kikimimi_argv(line) is not None])
def test_every_kikimimi_line_is_accepted_by_the_command_line_as_written(line):
    argv = kikimimi_argv(line)
    assert argv is not None
    try:
        args = build_parser(argv[0]).parse_args(argv)
    except SystemExit as exc:  # argparse's own refusal
        pytest.fail(f"{line!r}: refused by the command line ({exc})")
    if argv[:2] == ["table", "setup"]:
        from kikimimi.contract.registry import declaration

        assert len(args.game) >= 2, "the README's set-up is an evening of games"
        for game in args.game:
            declaration(game).check_players(args.players)
        assert not args.no_enrol


def test_the_modules_unloaded_are_the_ones_the_blacklist_keeps_off():
    unloaded = next(line for line in owner_lines() if "modprobe -r" in line).split("modprobe -r", 1)[1].split()
    listed = re.findall(r"^blacklist (\S+)", (ROOT / "udev" / "kikimimi-blacklist.conf").read_text(), re.M)
    assert sorted(unloaded) == sorted(listed)
