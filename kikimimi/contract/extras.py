"""The optional parts of kikimimi (pyproject.toml's extras; README, "Extras").

A table, the simulator and the tests of what is installed run without any of
them; a command that needs one that is missing says in one line which extra
brings it, before it starts work, instead of a traceback after it.
"""
from __future__ import annotations

import importlib
from types import ModuleType

#: Each extra and the module it brings (the one whose absence is asked about)
EXTRAS = {"postgres": "psycopg", "report": "matplotlib", "cluster": "ray", "bench": "rlcard", "web": "starlette"}


class MissingExtra(ValueError):
    """An optional part was asked for and is not installed: the message names the extra."""


def advice(extra: str, what: str) -> str:
    """The one line for `what` without `extra`."""
    return (f"{what} needs the '{extra}' extra ({EXTRAS[extra]}), which is not installed: "
            f"pip install 'kikimimi[{extra}]' (in a checkout: KIKIMIMI_EXTRAS={extra} scripts/setup)")


def need(extra: str, what: str) -> ModuleType:
    """The extra's module, imported; MissingExtra with the one line when it is not installed."""
    try:
        return importlib.import_module(EXTRAS[extra])
    except ImportError:
        raise MissingExtra(advice(extra, what)) from None
