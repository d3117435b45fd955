"""A unit's command run as its systemd would run it, as far as this machine allows without
systemd as PID 1: as the unit's User= (setpriv, its groups), in a mount namespace of its own
(unshare) where /tmp and /var/tmp are empty (PrivateTmp=yes), /home, /root and /run/user are
closed (ProtectHome=yes) and everything is read-only (ProtectSystem=strict) but ReadWritePaths=.
Not reproduced: the device policy, the system-call filter, the capability set (the tests check
those lines with systemd-analyze instead)."""
from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil

import pytest

from test_service import exec_argv


def setting(unit_text: str, key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in unit_text.splitlines() if line.startswith(f"{key}=")]


def sandboxed(unit_text: str, *extra: str, devices: tuple[str, ...] = ()) -> tuple[list[str], dict[str, str]]:
    """(argv, environment) of the unit's ExecStart (and `extra` arguments) in its sandbox;
    `devices`: a test's stand-ins for /dev nodes, left writable as /dev is."""
    if shutil.which("unshare") is None or shutil.which("setpriv") is None:
        pytest.skip("unshare and setpriv (util-linux) are needed to run the unit as systemd would")
    user = setting(unit_text, "User")[0]
    entry = pwd.getpwnam(user)
    rw = [re.sub(r"\\(.)", r"\1", w) for line in setting(unit_text, "ReadWritePaths")
          for w in re.findall(r'"((?:[^"\\]|\\.)*)"', line)]
    steps = ["set -e"]
    if setting(unit_text, "PrivateTmp") == ["yes"]:
        keep = os.environ.get("KIKIMIMI_TEST_VISIBLE_CHECKOUT")  # a checkout under /tmp (conftest.py)
        if keep:  # kept through the private /tmp, as the owner's tree would be outside it
            steps += ["mkdir -p /run/kk-checkout", f"mount --bind {shlex.quote(keep)} /run/kk-checkout"]
        steps += ["mount -t tmpfs -o mode=1777 tmpfs /tmp", "mount -t tmpfs -o mode=1777 tmpfs /var/tmp"]
        if keep:
            steps += [f"mkdir -p {shlex.quote(keep)}", f"mount --bind /run/kk-checkout {shlex.quote(keep)}"]
    if setting(unit_text, "ProtectHome") == ["yes"]:
        steps += [f"[ ! -d {h} ] || mount -t tmpfs -o mode=000 tmpfs {h}" for h in ("/home", "/root", "/run/user")]
    steps += [f"mount --bind {shlex.quote(p)} {shlex.quote(p)}" for p in [*rw, *devices]]
    if setting(unit_text, "ProtectSystem") == ["strict"]:
        steps.append("mount -o remount,bind,ro /")
    steps.append(f'exec setpriv --reuid={entry.pw_uid} --regid={entry.pw_gid} --init-groups -- "$@"')
    argv = ["unshare", "--mount", "--propagation", "private", "sh", "-c", "\n".join(steps), "sh",
            *exec_argv(unit_text), *extra]
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}
    for line in setting(unit_text, "Environment"):
        for word in re.findall(r'"([^"]*)"', line):
            key, _, value = word.partition("=")
            if "%" not in value:
                env[key] = value
    return argv, env
