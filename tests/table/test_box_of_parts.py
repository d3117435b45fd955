"""The box of parts: the README's owner commands, read from its owner block and run
as written, against emulated hardware, then the first moves of two games of one evening.

Each README line is run verbatim by bash in a folder laid out like the owner's /opt/kikimimi
(this checkout's udev/, scripts/ and .venv, a fresh hardware/), with only the substitutions
of SUBSTITUTIONS, each saying why: a README line that no rule covers, or a rule whose line
has gone, fails the first test, so the README cannot drift away from what is run here.

The box mixes reader kinds, as a real one does: three PN532 chips emulated on pseudo-terminals
(the hands) and a PN533 board emulated at the USB transport (the field, in USB port 1-2.1).  The
README's commands run as child processes, so the USB reader reaches them through a test-only seam:
tests/table/usb_seam on PYTHONPATH (its sitecustomize.py) replaces nfcpy's libusb transport with
one whose chip is the emulator in this process, served over a unix socket
(tests/support/usb_socket.py); the one chip keeps its state from `table setup` to `doctor` to
`serve`.  Every placement of both games (Trident, then 鬼探し chosen by the referee's console) is
an enrolled tag, and costs the reader one chip command (the emulators count them).
"""
from __future__ import annotations

import json
import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import uuid
from collections import Counter
from pathlib import Path

import pytest

from kikimimi.contract.kit import kit_for, missing_copies
from kikimimi.design.sim import play
from kikimimi.contract.tagmap import load_tagmap, write_tagmap
from support.ntag import Ntag213
from support.pn532_emulator import PN532Emulator
from support.placement import lines, placement_cost
from support.usb_device import UsbReaderEmulator
from support.usb_pn53x import Pn533Emulator
from support.usb_socket import UsbSocketServer
from kikimimi.testkit.script import journal_inputs, wait_until
from test_readme_owner_path import owner_lines
from test_service import Place, exec_argv, outside_tmp, verify
from unit_sandbox import sandboxed

ROOT = Path(__file__).resolve().parents[2]
GAMES, PLAYERS = ("trident", "onisagashi"), 3
READERS = ("hand-1", "hand-2", "hand-3", "field")
USB_READER, USB_PORT = "field", "1-2.1"  # the box's one USB reader: a PN533 board beside the speaker
SEAM = Path(__file__).with_name("usb_seam")  # its sitecustomize.py puts the USB reader into the children
Reader = PN532Emulator | UsbReaderEmulator

#: README line (a regular expression on the line as written, its comment cut) -> what the box does
#: with it.  "run" lines are run by bash verbatim; the others say why they cannot be, here.
SUBSTITUTIONS: dict[str, str] = {
    r"cd /opt/kikimimi": "run: in the box's /opt/kikimimi, a temporary folder laid out like it",
    r"sudo scripts/setup": "not run: it made the .venv these tests run in (CI runs it on a fresh machine); "
                           "bash -n checks it",
    r'export PATH="\$PWD/\.venv/bin:\$PATH"': "run: kikimimi is then .venv/bin/kikimimi",
    r"sudo cp udev/[\w.-]+ /etc/[\w/.-]+/": "run without sudo (the tests run as root or skip), /etc in the box",
    r"sudo modprobe -r [\w ]+": "not run: no kernel modules here; the modules are the blacklist's "
                                "(test_readme_owner_path.py)",
    r"sudo udevadm control --reload && sudo udevadm trigger": "not run: no udev here; the rules are "
                                                               "checked by the set-up tests",
    r'sudo usermod -aG audio,plugdev,dialout "\$USER"': "not run: the tests run as root",
    r"kikimimi table setup hardware/my-table\.toml --game trident onisagashi --players 3 --lang en":
        "not run yet: the spoken set-up is tests/table/test_setup_by_ear.py; the box writes the file it "
        "writes (readers by path, a tag map per game, every kit enrolled)",
    r"kikimimi doctor --listen hardware/my-table\.toml": "not run yet: tests/table/test_doctor_listen.py",
    r'sudo "\$\(command -v kikimimi\)" service install hardware/my-table\.toml':
        "run without sudo, with --unit-dir in the box, --user a throwaway system user and --python a venv of "
        "the system's Python (this machine's .venv is built on an interpreter under /root)",
    r"sudo systemctl enable --now kikimimi-my-table": "no systemd is PID 1 here: systemd-analyze verify "
                                                      "of the unit, then its ExecStart run",
}


def rule_of(line: str) -> str:
    found = [rule for rule in SUBSTITUTIONS if re.fullmatch(rule, line)]
    assert len(found) == 1, f"README owner line {line!r}: {len(found)} substitution rules match it; " \
                            "the box-of-parts test must be told how to run it"
    return found[0]


def test_every_owner_line_has_exactly_one_way_to_run_it_here():
    lines = owner_lines()
    rules = [rule_of(line) for line in lines]
    assert set(rules) == set(SUBSTITUTIONS), "a substitution whose README line has gone"
    # the rules are not a blanket: a changed line is caught
    with pytest.raises(AssertionError):
        rule_of(lines[-1].replace("enable --now", "start"))


class Box:
    """/opt/kikimimi as the owner has it (the checkout's udev/, scripts/ and .venv; a fresh
    hardware/) and the box's own /etc, in a folder a service user can read."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="kk-box-", dir=outside_tmp()))  # PrivateTmp=yes hides /tmp
        self.dir.chmod(0o755)
        self.opt = self.dir / "opt" / "kikimimi"
        self.opt.mkdir(parents=True)
        for name in ("udev", "scripts"):
            (self.opt / name).symlink_to(ROOT / name)
        (self.opt / ".venv").symlink_to(Path(sys.executable).parent.parent)
        (self.opt / "hardware").mkdir()
        for d in (self.dir, self.dir / "opt", self.opt, self.opt / "hardware"):
            d.chmod(0o755)
        self.etc = self.dir / "etc"
        for sub in ("udev/rules.d", "modprobe.d", "systemd/system"):
            (self.etc / sub).mkdir(parents=True)
        self.env = {**os.environ}

    def bash(self, line: str, after: str = "") -> subprocess.CompletedProcess:
        """`line` as the owner types it (sudo dropped, /etc the box's), then `after`, in one bash."""
        typed = re.sub(r"(?<![\w/])/etc/", f"{self.etc}/", line.removeprefix("sudo "))
        script = f"set -e\ncd {shlex.quote(str(self.opt))}\n{typed}\n{after}"
        return subprocess.run(["bash", "-c", script], env=self.env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def box():
    made = Box()
    yield made
    shutil.rmtree(made.dir, ignore_errors=True)


@pytest.fixture
def service_user():
    if os.geteuid() != 0:
        pytest.skip("service install creates its user as root; the tests do not run as root")
    name = "kk-b" + uuid.uuid4().hex[:8]
    yield name
    subprocess.run(["userdel", name], capture_output=True, timeout=60)
    subprocess.run(["groupdel", name], capture_output=True, timeout=60)


@pytest.fixture
def box_users(service_user):
    """The owner (who ran `sudo service install`) and another user of the box, both unprivileged."""
    made = []
    for _ in range(2):
        name = "kk-p" + uuid.uuid4().hex[:8]
        subprocess.run(["useradd", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
                       check=True, capture_output=True, timeout=60)
        made.append(name)
    yield made[0], made[1]
    for name in made:
        subprocess.run(["userdel", name], capture_output=True, timeout=60)
        subprocess.run(["groupdel", name], capture_output=True, timeout=60)


def uid_of(n: int) -> str:
    return f"04b0{n:010x}"


def driver_of(emu: Reader) -> str:
    return "usb" if isinstance(emu, UsbReaderEmulator) else "pn532"


def enrolled_evening(hardware: Path, emus: dict[str, Reader]) -> tuple[Path, dict[str, dict[str, str]]]:
    """The table file the spoken set-up writes for this box (readers by path, each with its own
    driver, a tag map per game of the evening, every kit enrolled), and each game's piece -> uid,
    seat by seat for a player's own."""
    by_piece = enrolled_maps(hardware)
    readers = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "{driver_of(emus[f"hand-{s}"])}"\n'
                      f'path = "{emus[f"hand-{s}"].path}"\npoll_ms = 20\n' for s in range(1, PLAYERS + 1))
    readers += (f'[readers.field]\nrole = "field"\ndriver = "{driver_of(emus["field"])}"\n'
                f'path = "{emus["field"].path}"\npoll_ms = 20\n')
    table = hardware / "my-table.toml"
    table.write_text(f'[table]\ngame = "trident"\nplayers = {PLAYERS}\nlang = "en"\n'
                     'tagmap = "tagmaps/my-table-trident.toml"\n' + readers
                     + '[games.onisagashi]\ntagmap = "tagmaps/my-table-onisagashi.toml"\n')
    return table, by_piece


def enrolled_maps(hardware: Path, left: tuple[str, ...] = ()) -> dict[str, dict[str, str]]:
    """Every game's tag map, as the set-up's enrolment leaves it (a player's own tag is one physical
    tag in every game's map), but for the own pieces `left` for the players to enrol; each game's
    piece -> uid ("SEAT:piece" for a player's own), those left out included."""
    uids = iter(range(1, 10_000))
    own: dict[tuple[int, str], str] = {}  # (seat, piece) -> uid: one physical tag for every game
    by_piece: dict[str, dict[str, str]] = {}
    for game in GAMES:
        kit = kit_for(game, PLAYERS)
        tags: dict[str, str] = {}
        named: dict[str, str] = {}
        for piece in kit.table:  # the table's pieces, one tag each (a game's own: its own tags)
            named[piece] = uid = uid_of(next(uids))
            tags[uid] = piece
        for seat in range(1, PLAYERS + 1):  # each player's own set: one tag a piece, in every game's map
            for piece in kit.own:
                named[f"{seat}:{piece}"] = uid = own.setdefault((seat, piece), uid_of(next(uids)))
                if piece not in left:
                    tags[uid] = piece
        assert left or missing_copies(kit, tags) == {}, game
        write_tagmap(hardware / "tagmaps" / f"my-table-{game}.toml", tags)
        by_piece[game] = named
    return by_piece


def first_moves(game: str, count: int) -> list[dict]:
    """The first `count` placements of a bot game of `game` (who scans which piece on which reader)."""
    script, _ = play(game, 7, PLAYERS)
    moves = [line for line in script[1:] if line.get("reader") in ("hand", "field") and "tag" in line
             and not line.get("removed")]
    return moves[:count]




def _talk(cost: Counter) -> int:
    """Chip commands beyond the reader's own polling (activation, reads): what a placement
    costs besides the poll that found it (the field switched off between polls is polling too)."""
    return sum(n for name, n in cost.items() if name not in ("InListPassiveTarget", "RFConfiguration"))




class BoxPn533(Pn533Emulator):
    """The box's USB reader, a PN533 board whose chip logs each command it runs and whether it
    listed a tag: a USB reader's host polls (or waits) without end, so what a placement cost is
    the command that listed the tag and whatever the host sent after it, up to its next poll."""

    def power_on(self) -> None:
        super().power_on()
        self.log: list[tuple[str, bool]] = getattr(self, "log", [])
        self.costs: list[Counter[str]] = getattr(self, "costs", [])  # each placement's commands, by name
        chip, run = self.chip, self.chip.run

        def logged(code: int, params: bytes) -> bytes | None:
            reply = run(code, params)
            handler = getattr(chip, f"_cmd_{code:02x}", None)
            self.log.append((handler.__doc__ if handler else f"unknown {code:02x}",
                             code == 0x4A and reply is not None and reply[:1] != b"\x00"))
            return reply
        chip.run = logged  # type: ignore[method-assign]

    def placement(self, since: int) -> Counter[str] | None:
        """The commands from the poll that listed the tag to the next poll, None until that one came."""
        log = self.log[since:]
        start = next((k for k, (_, listed) in enumerate(log) if listed), None)
        if start is None:
            return None
        end = next((k for k in range(start + 1, len(log)) if log[k][0] == "InListPassiveTarget"), None)
        return None if end is None else Counter(name for name, _ in log[start:end])


def usb_placement_cost(emu: BoxPn533, uid: str, events: Path, what: str) -> Counter[str]:
    """`placement_cost` for the USB reader: a few polls of an empty field first (the last piece's
    lifting seen), then the tag placed until the table answered it and the reader polled again."""
    polled = emu.commands["InListPassiveTarget"]
    wait_until(lambda: emu.commands["InListPassiveTarget"] >= polled + 3, f"{what}: the reader polling")
    since, count = len(emu.log), lines(events)
    emu.place(Ntag213(uid))
    wait_until(lambda: lines(events) > count and emu.placement(since) is not None, what, pause=0.005,
               said=lambda: f"events {lines(events)} (were {count}); the reader's last commands {emu.log[-8:]}")
    emu.remove()
    cost = emu.placement(since)
    assert cost is not None
    emu.costs.append(cost)
    return cost


def play_first_moves(game: str, moves: list[dict], by_piece: dict[str, str], emus: dict[str, Reader],
                     events: Path) -> list[tuple[str, int]]:
    costs = []
    for move in moves:
        reader = "field" if move["reader"] == "field" else f"hand-{move['seat']}"
        piece = move["tag"]
        uid = by_piece.get(f"{move.get('seat')}:{piece}") or by_piece[piece]
        what, emu = f"{game}: {piece} on {reader}", emus[reader]
        if isinstance(emu, BoxPn533):  # the poll that listed it, and any other command up to the next poll
            costs.append((what, 1 + _talk(usb_placement_cost(emu, uid, events, what))))
        else:  # the waiting poll it answered (sent before the tag came), and any other command
            costs.append((what, 1 + _talk(placement_cost(emu, uid, events, what))))
    return costs


@pytest.fixture
def python():
    """An interpreter the service's user can run, seeing this checkout's packages (test_service.py's)."""
    made = Place("kk-box-python-")
    yield made
    shutil.rmtree(made.dir, ignore_errors=True)


def owner_path_until_setup(box: Box) -> dict[str, str]:
    """cd, PATH, the udev rules and the blacklist copied: the lines before the set-up, as written."""
    lines = {rule_of(line): line for line in owner_lines()}
    at = {what: next(line for rule, line in lines.items() if re.search(what, rule))
          for what in ("cd ", "scripts/setup", "export PATH", "table setup", "doctor --listen", "service install",
                       "systemctl")}
    cps = [line for line in owner_lines() if rule_of(line).startswith("sudo cp")]
    assert len(cps) == 2
    # cd /opt/kikimimi, then the PATH line: kikimimi is the box's .venv/bin/kikimimi
    found = box.bash(at["cd "].replace("/opt/kikimimi", str(box.opt)), f"{at['export PATH']}\ncommand -v kikimimi")
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == str(box.opt / ".venv" / "bin" / "kikimimi")
    box.env["PATH"] = f"{box.opt / '.venv' / 'bin'}:{box.env['PATH']}"
    assert box.bash(f"bash -n {at['scripts/setup'].split()[-1]}").returncode == 0
    # the udev rules and the blacklist, copied where the README says (in the box's /etc)
    for line in cps:
        done = box.bash(line)
        assert done.returncode == 0, (line, done.stderr)
        source, folder = line.split()[-2:]
        assert (box.etc / folder.removeprefix("/etc/") / Path(source).name).read_bytes() == \
            (ROOT / source).read_bytes()
    return at


def as_person(name: str, argv: list[str]) -> list[str]:
    entry = pwd.getpwnam(name)
    return ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups", "--", *argv]


def the_service_reaches(box: Box, emus: dict[str, Reader], user: str) -> None:
    """The box's PN532 terminals and USB reader nodes, the service's user's to open (udev's GROUP=
    on a real box); the USB reader's socket was opened to it when served (`usb_seam`)."""
    uid = pwd.getpwnam(user).pw_uid
    for emu in emus.values():
        if isinstance(emu, PN532Emulator):
            os.chown(os.path.realpath(emu.path), uid, -1)
    for node in (box.dir / "usb-socket" / "dev").rglob("*"):
        if node.is_file():
            os.chown(node, uid, -1)


def install_serve_and_play(box: Box, at: dict[str, str], by_piece: dict[str, dict[str, str]],
                           emus: dict[str, Reader], service_user: str, python: str,
                           people: tuple[str, str]) -> None:
    """service install (the unit verified), its ExecStart serving the table file as the service's user
    in the unit's sandbox, the first moves of Trident, the owner's console choosing 鬼探し (another
    user refused), its first moves; each placement's cost checked."""
    hardware = box.opt / "hardware"
    table = hardware / "my-table.toml"
    owner, other = people
    proc = None
    try:
        # service install, as written (sudo dropped: SUDO_USER is the owner's), into the box's unit folder,
        # for a throwaway user
        box.env["SUDO_USER"] = owner
        installed = box.bash(f"{at['service install']} --unit-dir {box.etc / 'systemd' / 'system'} "
                             f"--user {service_user} --python {python}")
        del box.env["SUDO_USER"]
        assert installed.returncode == 0, installed.stdout + installed.stderr
        assert f"added {owner} to the group {service_user}" in installed.stdout
        unit_name = at["systemctl"].split()[-1]
        unit = box.etc / "systemd" / "system" / f"{unit_name}.service"
        assert unit.exists(), sorted(p.name for p in unit.parent.iterdir())
        assert verify(unit) == []
        text = unit.read_text()
        assert f"User={service_user}\n" in text
        argv = exec_argv(text)
        assert argv[-2:] == ["serve", str(table)]
        # systemctl enable --now: the unit's own command line as its user, in its sandbox (unit_sandbox.py)
        journal = hardware / "var" / "my-table.jsonl"  # the file's default
        events = journal.with_name("events.jsonl")  # where the service may write
        the_service_reaches(box, emus, service_user)
        argv, env = sandboxed(text, "--voice", "text", "--quiet", "--events", str(events),
                              devices=(str(box.dir / "usb-socket" / "dev"),))
        env.update({k: v for k, v in box.env.items() if k.startswith("KIKIMIMI_") or k == "PYTHONPATH"})
        said = box.dir / "serve.err"
        with said.open("w") as err:
            proc = subprocess.Popen(argv, cwd=table.parent, env=env, stdout=subprocess.DEVNULL, stderr=err, text=True)
        wait_until(lambda: all(e.commands["InListPassiveTarget"] >= 2 for e in emus.values()) or proc.poll() is not None,
                   "the readers polling", timeout=60,
                   said=lambda: f"{ {n: e.commands['InListPassiveTarget'] for n, e in emus.items()} }; {said.read_text()[-2000:]}")
        assert proc.poll() is None, said.read_text()
        costs = play_first_moves("trident", first_moves("trident", 20), by_piece["trident"], emus, events)
        # the referee ends the first game and chooses the second, in the console the README names
        # (as the owner, a second user: `kikimimi` is the service's interpreter's, which the owner can run)
        them = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent"}
        nosy = subprocess.run(as_person(other, [python, "-m", "kikimimi.cli", "console", str(table), "--plain"]),
                              cwd="/", env=them, input="quit\n", capture_output=True, text=True, timeout=60)
        assert nosy.returncode != 0 and len(nosy.stderr.strip().splitlines()) == 1, nosy.stdout + nosy.stderr
        assert f"closed to {other}" in nosy.stderr and "Traceback" not in nosy.stderr, nosy.stderr
        console = subprocess.run(as_person(owner, [python, "-m", "kikimimi.cli", "console", str(table), "--plain"]),
                                 cwd="/", env=them, input="stop\ngame onisagashi\nquit\n", capture_output=True,
                                 text=True, timeout=60)
        assert console.returncode == 0 and "Traceback" not in console.stderr, console.stdout + console.stderr
        wait_until(lambda: _game(journal) == "onisagashi", "鬼探し started")
        costs += play_first_moves("onisagashi", first_moves("onisagashi", 12), by_piece["onisagashi"], emus, events)
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
    log = [json.loads(line) for line in events.read_text().splitlines()]
    over = next(k for k, e in enumerate(log) if e["type"] == "game-over")
    # Trident was played: its opening set the suit, pieces went to the field, and the referee stopped it
    assert {"suit", "play"} <= {e["type"] for e in log[:over]} and log[over]["reason"] == "stopped"
    # 鬼探し was played in its own journal, every piece read by its uid in 鬼探し's own map
    assert _game(journal) == "onisagashi"
    placed = [i for i in journal_inputs(journal) if isinstance(i, dict) and "uid" in i and not i.get("removed")]
    assert len(placed) == sum(what.startswith("onisagashi") for what, _ in costs)
    oni = dict(load_tagmap(hardware / "tagmaps" / "my-table-onisagashi.toml"))
    dealt = [e["params"]["card"] for e in log[over:] if e.get("key") == "hand-card"]
    assert dealt and dealt == [oni[i["uid"]] for i in placed if oni[i["uid"]].startswith("oni:card-")][:len(dealt)]
    assert {game for game in GAMES if any(what.startswith(game) for what, _ in costs)} == set(GAMES)
    # every placement of both games, on the PN532s and on the USB reader: one chip command
    assert any(what.endswith(f"on {USB_READER}") for what, _ in costs)
    usb = emus[USB_READER]
    assert isinstance(usb, BoxPn533) and usb.costs
    # (before USB PN53x readers took the PN532's path, nfcpy's sense cost 3 here: the listing poll,
    # then ReadRegister and WriteRegister of CIU_RxMode to turn the CRC check off for a Type 2 tag)
    assert costs == [(what, 1) for what, _ in costs], usb.costs


def usb_seam(box: Box, sysfs: Path, emu: UsbReaderEmulator) -> UsbSocketServer:
    """The USB reader served to the box's children: the seam on their PYTHONPATH, the socket and
    the box's sysfs in their environment."""
    server = UsbSocketServer(box.dir / "usb-socket", [emu]).start()
    server.folder.chmod(0o755)  # the served table's user connects (its udev GROUP= on a real box)
    os.chmod(server.path, 0o666)
    box.env.update(server.env())
    box.env["KIKIMIMI_SYSFS"] = str(sysfs)
    box.env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SEAM), box.env.get("PYTHONPATH", "")) if p)
    return server


def stop_readers(emus: dict[str, Reader], server: UsbSocketServer | None) -> None:
    if server is not None:
        server.stop()
    for emu in emus.values():
        if isinstance(emu, PN532Emulator):
            emu.stop()


def test_the_owner_path_runs_as_written_and_two_games_are_played_on_enrolled_pieces(box, service_user, python,
                                                                                   box_users):
    """The quick box: the set-up's table file written by the test (the spoken set-up is the next test's)."""
    at = owner_path_until_setup(box)
    emus: dict[str, Reader] = {name: PN532Emulator(str(box.dir / name)).start()
                               for name in READERS if name != USB_READER}
    sysfs = box.dir / "sys"
    emus[USB_READER] = usb = BoxPn533(sysfs / "bus" / "usb" / "devices", USB_PORT)
    server = usb_seam(box, sysfs, usb)
    try:
        table, by_piece = enrolled_evening(box.opt / "hardware", emus)
        assert table.relative_to(box.opt).as_posix() in at["table setup"]
        install_serve_and_play(box, at, by_piece, emus, service_user, python.python, box_users)
    finally:
        stop_readers(emus, server)


def _game(journal: Path) -> str | None:
    from kikimimi.contract.script import read_script

    try:
        return read_script(journal).header.game
    except Exception:
        return None


#: The owner's speech rate (`table setup --rate`, kept in the table file for doctor and the games):
#: a fast listener's, which is most of what makes the spoken part quick
RATE, WPM = 48000, 400
CARDS = ("kkc0", "kkc1", "kkc2", "kkc3")
SPEAKER_CARD, FIELD_READER = "1-1.1", USB_PORT
PEOPLE = {"ann": (1, "1-1.4", "1-2.3"), "bob": (2, "1-1.2", "1-2.4"), "cat": (3, "1-1.3", "1-2.2")}  # seat, ear, reader
LEFT = ("cmd:agree",)  # what the players enrol by ear here; the rest of the kits is enrolled already


def spoken_clips(cache: Path, names: dict[str, str], kept: int, total: int) -> dict:
    from kikimimi.contract.phrases import Phrasebook
    from voice_play import expected_clip

    book = Phrasebook("en", ("core", "setup"))
    texts = {k: v for k, v in book.phrases.items() if k.startswith("setup-") and "{" not in v}
    texts["setup-done"] = book.render("setup-done", {"players": PLAYERS})
    texts["setup-start"] = book.render("setup-start", {"cards": len(CARDS), "readers": len(CARDS)})
    for seat in range(1, PLAYERS + 1):
        texts[f"seat-{seat}"] = book.render("setup-seat-prompt" if seat == 1 else "setup-seat-next", {"seat": seat})
        texts[f"you-are-{seat}"] = book.render("setup-you-are", {"seat": seat})
    texts["enrol-start"] = book.render("enrol-start", {})
    texts["enrol-all-done"] = book.render("enrol-all-done", {"tags": total})
    texts["enrol-skip"] = book.render("enrol-skip", {"count": kept})
    for piece in LEFT:
        texts[f"scan-{piece}"] = book.render("enrol-scan", {"name": names[piece]})
        texts[f"done-{piece}"] = book.render("enrol-done", {"name": names[piece]})
    clips = {k: expected_clip(t, cache, RATE, wpm=WPM) for k, t in texts.items()}
    for seat in range(1, PLAYERS + 1):  # doctor --listen, at the rate the set-up kept in the table file
        clips[f"listen-seat-{seat}"] = expected_clip(f"Seat {seat}.", cache, RATE, wpm=WPM)
    clips["listen-speaker"] = expected_clip("Speaker.", cache, RATE, wpm=WPM)
    return clips


@pytest.mark.flaky(reruns=1)  # the test players listen in real time, as in test_setup_by_ear.py
def test_the_spoken_setup_as_written_enrols_the_kits_and_the_evening_is_played(box, service_user, python,
                                                                                box_users):
    from kikimimi.box.setup.enrol import EveningKit, piece_names
    from support.usbtree import FakeUsbTree
    from support.virtual_sound import PulseNullSinks
    from listener import Person, Table
    from voice_needs import need

    need("espeak-ng", "libportaudio2", "alsa", "pulseaudio", "libasound2-plugins")
    at = owner_path_until_setup(box)
    hardware = box.opt / "hardware"
    by_piece = enrolled_maps(hardware, left=LEFT)  # an enrolment stopped earlier: only the AGREE tags left
    kit = EveningKit([kit_for(g, PLAYERS) for g in GAMES],
                     {g: hardware / "tagmaps" / f"my-table-{g}.toml" for g in GAMES})
    kept = len(kit.own) - len(LEFT)
    cache = box.dir / "clips"
    clips = spoken_clips(cache, piece_names(list(GAMES), "en"), kept, kit.total())
    # the box's USB: four cards, three PN532 adapters and a PN533 board, found in an order of their own
    tree = FakeUsbTree(box.dir / "usb")
    card_ports = [PEOPLE["bob"][1], SPEAKER_CARD, PEOPLE["cat"][1], PEOPLE["ann"][1]]
    tree.boot(card_ports, CARDS)
    sink = {port: CARDS[k] for k, port in enumerate(card_ports)}
    reader_ports = [PEOPLE["cat"][2], PEOPLE["ann"][2], PEOPLE["bob"][2]]
    emu_at: dict[str, Reader] = {port: PN532Emulator(str(box.dir / "usb" / f"ttyUSB{k}")).start()
                                 for k, port in enumerate(reader_ports)}
    by_path = tree.plug_serial({port: emu.path for port, emu in emu_at.items()})  # type: ignore[union-attr]
    emu_at[FIELD_READER] = usb = BoxPn533(tree.sys / "bus" / "usb" / "devices", FIELD_READER)
    pulse = PulseNullSinks(box.dir / "pulse", {c: 2 for c in CARDS}, rate=RATE)
    pulse.start()
    for c in CARDS:
        pulse.record(c)
    speaker = sink[SPEAKER_CARD]
    people = [Person("helper", emu_at[FIELD_READER], {speaker: {"setup-speaker-prompt"}})]
    for who, (seat, ear, reader) in PEOPLE.items():
        people.append(Person(who, emu_at[reader], {sink[ear]: {"setup-earphone-prompt"}, speaker: {f"seat-{seat}"}},
                             pieces={(sink[ear], f"scan-{p}"): [by_piece["trident"][f"{seat}:{p}"]] for p in LEFT}))
    listeners = Table({c: pulse.raw_path(c) for c in CARDS}, {c: 2 for c in CARDS}, clips, people, RATE).start()
    emus = {"field": emu_at[FIELD_READER], **{f"hand-{seat}": emu_at[reader] for seat, _, reader in PEOPLE.values()}}
    box.env = tree.env({**pulse.env(), "PATH": box.env["PATH"], "XDG_CACHE_HOME": str(box.dir / "xdg")})
    server = usb_seam(box, tree.sys, usb)
    heard: dict[str, list[str]] = {}
    try:
        # the README's set-up line, as written, with the test's speech rate and timings, the box's
        # /dev/serial/by-path and udev folder
        took = {"start": time.monotonic()}  # seconds from the set-up's start, printed at the end
        setup = box.bash(f"{at['table setup']} --rate {WPM} --answer-seconds 3 --enrol-seconds 30 "
                         f"--serial-dir {tree.by_path} --cache-dir {cache} "
                         f"--udev {box.etc / 'udev' / 'rules.d' / '99-kikimimi-my-table.rules'}")
        took["setup"] = time.monotonic() - took["start"]
        heard = {p.name: [ph for _, ph in p.heard] for p in people}
        assert setup.returncode == 0, \
            f"{heard}; not told: {listeners.misses}\n{setup.stdout[-3000:]}{setup.stderr[-3000:]}"
        # the recording lags the table under load: wait for the word itself (the bound is a hang guard)
        wait_until(lambda: "enrol-all-done" in [ph for _, ph in people[0].heard], "the speaker's last word",
                   timeout=90)
        cfg = tomllib.loads((hardware / "my-table.toml").read_text())
        assert cfg["audio"]["rate"] == WPM  # the rate chosen at the set-up is the table's
        # each reader with its own driver: the field the PN533 in its USB port, the hands PN532s by path
        assert (cfg["readers"]["field"]["driver"], cfg["readers"]["field"]["path"]) == ("usb", f"usb:{USB_PORT}")
        for who, (seat, ear, reader) in PEOPLE.items():
            assert (cfg["readers"][f"hand-{seat}"]["driver"], cfg["readers"][f"hand-{seat}"]["path"]) == \
                ("pn532", by_path[reader]), who
            assert cfg["audio"]["outputs"][f"seat-{seat}"]["usb"] == ear, who
        for game in GAMES:  # every game's kit whole, each player's AGREE tag enrolled by ear
            tags = load_tagmap(hardware / "tagmaps" / f"my-table-{game}.toml")
            assert missing_copies(kit_for(game, PLAYERS), tags) == {}, game
            for seat, _, _ in PEOPLE.values():
                assert tags[by_piece[game][f"{seat}:cmd:agree"]] == "cmd:agree"
        # doctor --listen, as written: each earphone says its seat, heard by its wearer only
        took["before doctor"] = time.monotonic() - took["start"]
        doctor = box.bash(at["doctor --listen"])
        took["doctor"] = time.monotonic() - took["start"]
        assert doctor.returncode == 0, doctor.stdout + doctor.stderr
        wait_until(lambda: all(f"listen-seat-{seat}" in [ph for _, ph in p.heard]
                               for p in people[1:] for seat in [PEOPLE[p.name][0]]), "each seat's name heard",
                   timeout=90)
        heard = {p.name: [ph for _, ph in p.heard] for p in people}
        for who, (seat, _, _) in PEOPLE.items():
            assert [ph for ph in heard[who] if ph.startswith("listen-seat-")] == [f"listen-seat-{seat}"], heard[who]
            assert f"you-are-{seat}" in heard[who] and "done-cmd:agree" in heard[who], \
                f"{who} heard {heard[who]}; every sink: {listeners.log}; not told: {listeners.misses}; took {took}"
        start = took["start"]
        print("box of parts, seconds from the set-up's start:",
              {k: round(v, 1) for k, v in took.items() if k != "start"},
              [(round(at - start, 1), sink, phrase) for at, (sink, phrase) in zip(listeners.heard_at, listeners.log)])
    finally:
        listeners.stop()
        pulse.stop()
    try:
        install_serve_and_play(box, at, by_piece, emus, service_user, python.python, box_users)
    finally:
        stop_readers(emus, server)
