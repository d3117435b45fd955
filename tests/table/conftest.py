"""The voice tests' helpers (virtual devices, the player child, expected clips) serve here too."""
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "voice"))

#: A checkout under /tmp (a CI clone may be one) is hidden by the unit's PrivateTmp=yes: the
#: service tests' stand-in sandbox binds this one folder back (unit_sandbox.py), and
#: `service install` takes "the program" there as seen (kikimimi/box/service.py, TEST_VISIBLE).
CHECKOUT = Path(__file__).resolve().parents[2]
if any(CHECKOUT == Path(tmp) or Path(tmp) in CHECKOUT.parents for tmp in ("/tmp", "/var/tmp")):
    os.environ["KIKIMIMI_TEST_VISIBLE_CHECKOUT"] = str(CHECKOUT)


@pytest.fixture(scope="session")
def clip_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("clips")


@pytest.fixture(scope="session")
def xdg_cache(tmp_path_factory) -> Path:
    """One XDG_CACHE_HOME for every served table here: serve renders its game's phrases once."""
    return tmp_path_factory.mktemp("xdg")


@pytest.fixture
def usb_only_table(tmp_path) -> dict:
    """Four RC-S380s (three hands and the field) plugged in by port: their sysfs folders
    under tmp_path/usb, and the table's reader sections naming them."""
    for k, port in enumerate(("1-1.1", "1-1.2", "1-1.3", "1-1.4")):
        folder = tmp_path / "usb" / port
        folder.mkdir(parents=True)
        for f, v in {"idVendor": "054c", "idProduct": "06c3", "busnum": "1", "devnum": str(5 + k)}.items():
            (folder / f).write_text(v + "\n")
    sections = {f"hand-{s}": {"driver": "usb", "path": f"usb:1-1.{s}"} for s in (1, 2, 3)}
    sections["field"] = {"driver": "usb", "path": "usb:1-1.4"}
    return sections
