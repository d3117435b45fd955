"""Fresh Debian roots, made with mmdebstrap, that prove the README on the boxes owners build.

Two checks (docs/box.md):

* `play SUITE`: a minbase root of Debian SUITE (bookworm = 12, trixie = 13) with only
  `python3 git ca-certificates`, the checkout cloned into it, and the README's first command
  (`scripts/play`) run there as root with a clean environment (`env -i`): it must exit 0,
  play a game, and leave a venv in which `import pyopenjtalk` speaks Japanese; then a small
  smoke subset of the suite runs in that venv.
* `arm64 SUITE`: the built wheel and its aarch64 dependency wheels (every compiled one must
  exist as an aarch64 wheel: a hard dependency without one fails here) installed into an
  arm64 root of SUITE run under qemu-user (binfmt_misc), where a simulated game must print
  the same bytes as on this machine.

Only the host's CA bundle, its apt configuration (the `Acquire::` settings) and its pip
configuration go into a root, so the root reaches the same package registries this machine
does; proxies in the environment are passed on.  Needs root, mmdebstrap and (for arm64)
qemu-user-static; `.ci/run` installs them (`python3 tests/box/fresh_roots.py deps`).

Run by hand: `python3 tests/box/fresh_roots.py play bookworm` (prints the timings).
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITES = {"bookworm": "12", "trixie": "13"}
#: Debian's Python in each suite (the arm64 wheels are fetched for it)
PYTHONS = {"bookworm": "3.11", "trixie": "3.13"}
MIRROR_DEFAULT = "http://deb.debian.org/debian"
#: The host packages the checks need, installed by `deps` (Debian names)
HOST_PACKAGES = ("mmdebstrap", "qemu-user-static", "binfmt-support", "arch-test")
#: The seed of the game both checks play; the arm64 bytes are compared with this machine's
SEED = "7"
#: A smoke subset of the suite, run in the fresh root's venv (about a minute)
SMOKE = ("tests/test_every_game.py", "tests/evening/test_doctor.py", "tests/core/test_config.py")
PROXY_VARS = ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")


class RootFailed(Exception):
    """A step in a fresh root failed: the message names the step and ends with its output."""


def log(msg: str) -> None:
    print(f"fresh-roots: {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], step: str, timeout: float = 1800, **kwargs: object) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)  # type: ignore[call-overload]
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
        raise RootFailed(f"{step}: exit {proc.returncode}\n{tail}")
    return proc


def host_mirror() -> str:
    """The Debian mirror this machine's apt uses (its deb822 or one-line sources), else deb.debian.org."""
    for path in sorted(Path("/etc/apt/sources.list.d").glob("*.sources")):
        for line in path.read_text().splitlines():
            if line.startswith("URIs:") and "security" not in line:
                return line.split()[1]
    sources = Path("/etc/apt/sources.list")
    if sources.exists():
        for line in sources.read_text().splitlines():
            parts = line.split()
            if parts[:1] == ["deb"] and "security" not in line:
                return next(p for p in parts[1:] if "://" in p)
    return MIRROR_DEFAULT


def apt_options() -> list[Path]:
    """The host's apt settings that decide how it reaches the archive (Acquire::...: proxies,
    date checks of a snapshot mirror); hooks of packages the root does not have stay out."""
    folder = Path("/etc/apt/apt.conf.d")
    return [p for p in sorted(folder.iterdir()) if p.is_file()
            and "Acquire::" in (text := p.read_text(errors="replace")) and "Invoke" not in text]


def proxies() -> dict[str, str]:
    return {k: os.environ[k] for k in PROXY_VARS if k in os.environ}


def deps() -> None:
    """Install what the checks need on this machine and switch binfmt_misc on (fresh CI box)."""
    missing = [p for p in HOST_PACKAGES if subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout != "install ok installed"]
    if missing:
        log(f"installing {' '.join(missing)}")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run(["apt-get", "-o", "DPkg::Lock::Timeout=600", "update", "-qq"], "apt-get update", env=env)
        run(["apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y", "-qq", "--no-install-recommends",
             *missing], "apt-get install", env=env)
    binfmt = Path("/proc/sys/fs/binfmt_misc")
    if not (binfmt / "status").exists():
        run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(binfmt)], "mount binfmt_misc")
    if not (binfmt / "qemu-aarch64").exists():
        run(["update-binfmts", "--enable", "qemu-aarch64"], "update-binfmts --enable qemu-aarch64")


#: The arm64 roots: these packages and everything they depend on, unpacked (mmdebstrap's
#: `extract`, /usr merged as Debian 12 and 13 install it) but not configured: no maintainer
#: script runs under qemu (compiling the standard library there took minutes), and nothing
#: is fetched inside (pip --no-index), so no apt and no CA bundle; libstdc++6 (numpy's C++), which
#: minbase has through apt, is named
ARM64_PACKAGES = "python3,python3-venv,bash,coreutils,grep,dash,libc-bin,libstdc++6,libgcc-s1,zlib1g"
MERGED_USR_HOOK = "/usr/share/mmdebstrap/hooks/merged-usr/setup00.sh"


def make_root(suite: str, target: Path, arch: str | None = None, include: str = "python3,git,ca-certificates",
              variant: str = "minbase", hooks: tuple[str, ...] = ()) -> float:
    """A root of `suite` in `target` (minbase: what a fresh Debian box has); returns the seconds it took."""
    start = time.monotonic()
    cmd = ["mmdebstrap", "--quiet", f"--variant={variant}", f"--include={include}", *hooks]
    cmd += [f"--aptopt={p}" for p in apt_options()]
    if arch:
        cmd.append(f"--architectures={arch}")
    cmd += [suite, str(target), host_mirror()]
    run(cmd, f"mmdebstrap {suite}{' ' + arch if arch else ''}", env={**os.environ, **proxies()})
    copy_config(target)
    return time.monotonic() - start


def copy_config(root: Path) -> None:
    """The CA bundle (also as a local CA, so the root's update-ca-certificates keeps it), pip's
    configuration, and the resolver's address: nothing else of this machine."""
    bundle = Path("/etc/ssl/certs/ca-certificates.crt")
    if bundle.exists():
        (root / "etc/ssl/certs").mkdir(parents=True, exist_ok=True)
        shutil.copy(bundle, root / "etc/ssl/certs/ca-certificates.crt")
        (root / "usr/local/share/ca-certificates").mkdir(parents=True, exist_ok=True)
        shutil.copy(bundle, root / "usr/local/share/ca-certificates/host-bundle.crt")
    for conf in (Path("/etc/pip.conf"), Path("/etc/xdg/pip")):
        if conf.is_dir():
            shutil.copytree(conf, root / conf.relative_to("/"), dirs_exist_ok=True)
        elif conf.exists():
            shutil.copy(conf, root / conf.relative_to("/"))
    for name in ("resolv.conf", "hosts"):
        src = Path("/etc") / name
        if src.exists():
            (root / "etc" / name).unlink(missing_ok=True)
            shutil.copy(src, root / "etc" / name)


def in_root(root: Path, script: str, step: str, timeout: float = 2400,
            extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """bash -c SCRIPT as root in `root` with a clean environment, /proc, /dev and /sys mounted
    in a mount namespace of its own (gone when it ends)."""
    env = {"HOME": "/root", "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "LANG": "C.UTF-8", "TERM": "dumb", **proxies(), **(extra_env or {})}
    envs = " ".join(f"{k}={sh_quote(v)}" for k, v in env.items())
    r = sh_quote(str(root))
    outer = (f"mount --make-rprivate / && mount -t proc proc {r}/proc && mount --rbind /dev {r}/dev "
             f"&& mount -t sysfs sysfs {r}/sys && mount -t tmpfs tmpfs {r}/tmp "
             f"&& exec chroot {r} /usr/bin/env -i {envs} bash -c {sh_quote(script)}")
    return run(["unshare", "--mount", "--fork", "/bin/sh", "-c", outer], step, timeout=timeout)


def sh_quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def clone(root: Path, without: str | None = None) -> None:
    """The checkout's HEAD, cloned where the README keeps the tree; `without` drops a Debian
    package from setup's lists (the check must then fail: docs/box.md)."""
    run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(root / "opt/kikimimi")], "git clone")
    if without:
        setup = root / "opt/kikimimi/scripts/setup"
        text = setup.read_text()
        cut = text.replace(f" {without} ", " ").replace(f"({without} ", "(").replace(f" {without})", ")")
        cut = cut.replace(f'"python$pyver-venv"', '') if without == "python3-venv" else cut
        assert cut != text, f"{without} is not in scripts/setup"
        setup.write_text(cut)


def play(suite: str, work: Path, without: str | None = None, smoke: bool = True) -> dict[str, float]:
    """The README's scripts/play in a fresh root of `suite`; returns each step's seconds."""
    took: dict[str, float] = {}
    root = work / f"{suite}-amd64"
    took["root"] = make_root(suite, root)
    clone(root, without)
    start = time.monotonic()
    played = in_root(root, f"cd /opt/kikimimi && SEED={SEED} scripts/play", f"{suite}: scripts/play")
    took["scripts/play"] = time.monotonic() - start
    if "Place 1:" not in played.stdout:
        raise RootFailed(f"{suite}: scripts/play exited 0 but played no game:\n{played.stdout[-2000:]}")
    start = time.monotonic()
    again = in_root(root, "cd /opt/kikimimi && SEED=7 scripts/play", f"{suite}: scripts/play again")
    took["scripts/play again"] = time.monotonic() - start
    if "installing" in again.stderr:
        raise RootFailed(f"{suite}: a second scripts/play installed again:\n{again.stderr}")
    ja = in_root(root, "cd /opt/kikimimi && OPEN_JTALK_DICT_DIR=/var/lib/mecab/dic/open-jtalk/naist-jdic "
                 ".venv/bin/python -c 'import pyopenjtalk; print(pyopenjtalk.g2p(\"鬼探し\", kana=True))'",
                 f"{suite}: import pyopenjtalk in the venv scripts/play made")
    if ja.stdout.strip() != "オニサガシ":
        raise RootFailed(f"{suite}: Open JTalk reads 鬼探し as {ja.stdout.strip()!r}")
    if smoke:
        start = time.monotonic()
        in_root(root, f"cd /opt/kikimimi && .venv/bin/python -m pytest -x -q -p no:cacheprovider {' '.join(SMOKE)}",
                f"{suite}: the smoke tests")
        took["smoke tests"] = time.monotonic() - start
    return took


def aarch64_wheels(python: str, work: Path, wheel: Path) -> Path:
    """The wheel's dependencies for Linux aarch64 and CPython `python`: the compiled ones as
    aarch64 wheels from the registry (`--only-binary`: a hard dependency without one fails
    here), the pure-Python ones that come only as sources built here (they are the same on
    every machine)."""
    pure = work / "pure"
    if not pure.exists():
        host = work / "host-wheels"
        run([sys.executable, "-m", "pip", "wheel", "-q", "-w", str(host), str(wheel)], "pip wheel (this machine)")
        pure.mkdir()
        for w in host.glob("*-none-any.whl"):
            shutil.copy(w, pure)
    out = work / f"aarch64-cp{python.replace('.', '')}"
    run([sys.executable, "-m", "pip", "download", "-q", *aarch64_tags(python),
         "--find-links", str(pure), "-d", str(out), str(wheel)],
        f"aarch64 wheels for Python {python} (a hard dependency without an aarch64 wheel fails here)")
    shutil.copy(wheel, out)
    return out


def aarch64_tags(python: str) -> list[str]:
    """pip's options for wheels a Debian arm64 CPython `python` runs (glibc 2.17 and later)."""
    plats = [a for m in range(17, 42) for a in ("--platform", f"manylinux_2_{m}_aarch64")]
    abi = f"cp{python.replace('.', '')}"
    return ["--only-binary=:all:", *plats, "--platform", "manylinux2014_aarch64", "--platform", "linux_aarch64",
            "--python-version", python, "--implementation", "cp", "--abi", abi, "--abi", "abi3", "--abi", "none"]


def build_wheel(work: Path) -> Path:
    out = work / "wheel"
    if not out.exists():
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
             str(ROOT)], "pip wheel kikimimi")
    return next(out.glob("kikimimi-*.whl"))


def sim_command(python: str) -> str:
    cli = f"{python} -m kikimimi.cli"
    return f"{cli} sim trident --seed {SEED} && {cli} sim onisagashi --seed {SEED} --lang ja --narrate"


def arm64(suite: str, work: Path) -> dict[str, float]:
    """The wheel on an arm64 root of `suite` under qemu-user: the game's bytes equal this machine's."""
    took: dict[str, float] = {}
    start = time.monotonic()
    wheels = aarch64_wheels(PYTHONS[suite], work, build_wheel(work))
    took["wheels"] = time.monotonic() - start
    root = work / f"{suite}-arm64"
    took["root"] = make_root(suite, root, "arm64", ARM64_PACKAGES, variant="extract",
                             hooks=(f"--setup-hook={MERGED_USR_HOOK}",))
    start = time.monotonic()
    in_root(root, "uname -m | grep -qx aarch64 && python3 -m venv --without-pip /opt/kikimimi",
            f"{suite} arm64: python3 -m venv")
    # The files go in with this machine's pip (the same install, only not emulated: pip under
    # qemu took over seven minutes for these wheels); what runs there is what runs on a Pi
    site = root / f"opt/kikimimi/lib/python{PYTHONS[suite]}/site-packages"
    run([sys.executable, "-m", "pip", "install", "-q", "--no-compile", "--no-index", "--find-links", str(wheels),
         *aarch64_tags(PYTHONS[suite]), "--target", str(site), "kikimimi"],
        f"{suite} arm64: pip install of the wheel and its aarch64 wheels into the root's venv")
    took["install"] = time.monotonic() - start
    start = time.monotonic()
    there = in_root(root, sim_command("/opt/kikimimi/bin/python"), f"{suite} arm64: kikimimi sim")
    took["sim"] = time.monotonic() - start
    here = subprocess.run(["bash", "-c", sim_command(sh_quote(sys.executable))],
                          capture_output=True, text=True, check=True, cwd="/")
    if there.stdout != here.stdout or not here.stdout:
        raise RootFailed(f"{suite} arm64: the simulated games differ from this machine's "
                         f"({len(there.stdout)} bytes there, {len(here.stdout)} here)")
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", choices=("deps", "play", "arm64"))
    parser.add_argument("suites", nargs="*", default=list(SUITES))
    parser.add_argument("--without", help="drop this Debian package from the clone's scripts/setup (it must fail)")
    parser.add_argument("--no-smoke", action="store_true", help="skip the smoke subset of the suite")
    parser.add_argument("--keep", action="store_true", help="keep the roots (their folder is printed)")
    args = parser.parse_args(argv)
    if args.check == "deps":
        deps()
        return 0
    work = Path(tempfile.mkdtemp(prefix="kikimimi-roots."))
    code = 0
    try:
        for suite in args.suites:
            start = time.monotonic()
            try:
                took = (play(suite, work, args.without, not args.no_smoke) if args.check == "play"
                        else arm64(suite, work))
            except RootFailed as exc:
                log(f"{args.check} {suite}: FAILED {exc}")
                code = 1
                continue
            steps = ", ".join(f"{k} {v:.0f} s" for k, v in took.items())
            log(f"{args.check} {suite} ({platform.machine()} host): ok in {time.monotonic() - start:.0f} s ({steps})")
    finally:
        if args.keep:
            log(f"roots kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
