"""Ctrl-C on `kikimimi serve`: a real SIGINT to a real table.  It answers where the
game is kept, that nothing announced is lost and the exact command that resumes it,
exits 130 with no traceback; and that command does resume the game.

Each waits on the line or file that shows serve is where the test means it to be,
then on its exit with a generous hang guard: a busy machine (load 25)
outran a fixed 60 s.  A serve still running at the guard is made to dump its
threads (faulthandler, on SIGABRT) into the failure, so a real hang says where."""
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from kikimimi.api import paths
from kikimimi.contract.script import ScriptError, read_script
from kikimimi.testkit.script import wait_until
from kikimimi.testkit.tables import sim_table_toml


HANG_GUARD_S = 240  # under pytest's own 300 s: only a hung serve reaches it


def _as_from_a_terminal() -> None:
    """Ctrl-C as a terminal delivers it.  A suite started in the background (`... &`, as CI
    and bench/suite_under_load.py runs are) ignores SIGINT, every child inherits that, and
    Python then installs no handler: the SIGINT was lost and serve waited on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def serve(folder: Path, *args: str) -> subprocess.Popen:
    err = open(folder / "serve.err", "a")
    return subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "kikimimi.cli", "serve", "table.toml",
                             "--voice", "text", "--quiet", *args], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=err, text=True, cwd=folder, preexec_fn=_as_from_a_terminal)


def exit_code(proc: subprocess.Popen, err: Path) -> int:
    """serve's exit status once it ends; at the hang guard, its threads' stacks in the failure."""
    try:
        return proc.wait(timeout=HANG_GUARD_S)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)  # faulthandler writes every thread's stack to serve.err
        proc.wait(timeout=30)
        raise AssertionError(f"serve still running {HANG_GUARD_S} s after Ctrl-C:\n{err.read_text()}") from None


def inputs(journal: Path) -> int:
    try:
        return len(read_script(journal).lines)
    except (OSError, ScriptError):  # not yet there, or its header half written
        return -1


def test_ctrl_c_says_where_the_game_is_and_how_to_resume_it(tmp_path):
    (tmp_path / "table.toml").write_text(sim_table_toml("trident", 3, "var/table.jsonl"))
    journal = tmp_path / "var" / "table.jsonl"
    err = tmp_path / "serve.err"
    proc = serve(tmp_path, "--fresh")
    try:
        proc.stdin.write("1 agree\n")  # an input, journaled before it is applied
        proc.stdin.flush()
        wait_until(lambda: inputs(journal) == 1 or proc.poll() is not None,
                   "the scan journaled", HANG_GUARD_S, said=err.read_text)
        before = err.read_text()
        proc.send_signal(signal.SIGINT)
        assert exit_code(proc, err) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
    said = err.read_text()[len(before):]
    lines = said.strip().splitlines()
    assert 1 <= len(lines) <= 3 and "Traceback" not in said, said
    assert f"The game is kept in {journal}" in said and "nothing announced is lost" in said
    command = said.split("to resume it: ", 1)[1].splitlines()[0]
    assert shlex.split(command) == ["kikimimi", "serve", "table.toml", "--voice", "text", "--quiet"]  # no --fresh
    # the command it gives resumes the game: the scan is replayed, not lost
    again = subprocess.run([sys.executable, "-m", "kikimimi.cli", *shlex.split(command)[1:]], cwd=tmp_path,
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert again.returncode == 0 and f"resumed {journal.relative_to(tmp_path)} (1 inputs replayed)" in again.stderr, \
        again.stderr


def test_ctrl_c_while_the_table_waits_for_its_readers_gives_the_same_answer(tmp_path):
    """Before the table plays (here: waiting up to 120 s for readers that are not there)."""
    readers = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "pn532"\npath = "{tmp_path}/none-{s}"\n'
                      for s in (1, 2, 3))
    (tmp_path / "table.toml").write_text('[table]\ngame = "trident"\nplayers = 3\nlang = "en"\n'
                                         'journal = "var/table.jsonl"\nready_wait = 120\n' + readers)
    journal = tmp_path / "var" / "table.jsonl"
    secret = paths.secret_file(journal)
    err = tmp_path / "serve.err"
    proc = serve(tmp_path)
    try:
        # each reader's line that it cannot be opened: the readers are started, the API before them
        wait_until(lambda: all(f"(hand-{s}) cannot be opened" in err.read_text() for s in (1, 2, 3))
                   or proc.poll() is not None, "the readers' wait", HANG_GUARD_S, said=err.read_text)
        assert secret.exists(), err.read_text()
        proc.send_signal(signal.SIGINT)
        assert exit_code(proc, err) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
    said = err.read_text()
    assert "Traceback" not in said and f"The game is kept in {journal}" in said, said
    assert "to resume it: kikimimi serve table.toml --voice text --quiet" in said
