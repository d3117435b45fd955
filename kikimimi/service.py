"""A table as a boot service: switch the box on and the table speaks.

`kikimimi service install TABLE.toml` writes a systemd unit that runs
`kikimimi serve TABLE.toml` as an unprivileged user in the groups that open
sound cards and readers, after the sound system, restarted when it fails
(a pulled cable that kills the process is a restart, not a dead table).
When the table is up it says so on the speaker, and a missing earphone or
reader is said too (`kikimimi.readiness`), so no screen is needed to know.
"""
from __future__ import annotations

import grp
import pwd
import re
import sys
from pathlib import Path

from kikimimi.table_config import load_table_config

UNIT_DIR = Path("/etc/systemd/system")
#: audio: /dev/snd; plugdev: readers named by udev/99-kikimimi.rules; dialout: /dev/ttyUSB* otherwise
GROUPS = ("audio", "plugdev", "dialout")
ADD_USER = "sudo adduser --system --group --home /var/lib/kikimimi kikimimi"


class ServiceError(ValueError):
    """One line: what cannot be installed, and the fix."""


def unit_name(config: Path) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]", "-", config.stem) or "table"
    return f"kikimimi-{stem}.service"


def unit_text(config: Path, user: str, groups: list[str], python: str = sys.executable) -> str:
    config = config.resolve()
    return "\n".join([
        "[Unit]",
        f"Description=kikimimi table ({config.name})",
        "Documentation=file://" + str(config),
        # after the sound system: ALSA's cards, and a system-wide sound server where one runs
        "After=sound.target pulseaudio.service pipewire.service network.target",
        "Wants=sound.target",
        "StartLimitIntervalSec=120",
        "StartLimitBurst=10",
        "",
        "[Service]",
        "Type=simple",
        f"User={user}",
        f"SupplementaryGroups={' '.join(groups)}" if groups else "",
        f"WorkingDirectory={config.parent}",
        f"ExecStart={python} -m kikimimi.cli serve {config}",
        "Restart=on-failure",
        "RestartSec=3",
        "Environment=PYTHONUNBUFFERED=1",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "ProtectSystem=full",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
    ]).replace("\n\n\n", "\n\n")


def install(config_path: str, user: str, unit_dir: Path = UNIT_DIR) -> Path:
    """Check the table file and the user, then write the unit; ServiceError says what is wrong."""
    config = Path(config_path)
    load_table_config(config)  # a table that cannot start must not become a service that restarts forever
    if " " in str(config.resolve()):
        raise ServiceError(f"{config.resolve()}: a table file path with spaces cannot be a service: move it")
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        raise ServiceError(f"no user {user!r}: create one ({ADD_USER}) or name another with --user") from None
    if entry.pw_uid == 0:
        raise ServiceError("a table runs as an unprivileged user, not root: --user kikimimi "
                           f"(create it: {ADD_USER})")
    groups = [g for g in GROUPS if _group_exists(g)]
    unit = unit_dir / unit_name(config)
    try:
        unit.write_text(unit_text(config, user, groups), encoding="utf-8")
    except OSError as exc:
        raise ServiceError(f"cannot write {unit}: {exc.strerror or exc} (run with sudo, or --unit-dir)") from None
    return unit


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False
