"""The capability walk (`kikimimi/testkit/capability.py`) follows every way a bot can hold
an object: slots, bound methods, partials, closures, suspended generators, containers;
and it stops at modules, classes, functions' globals and the test's own probes."""
from __future__ import annotations

import functools
import sys
from collections import deque
from typing import Any

from kikimimi.testkit.capability import Probe, leaks, same_objects

#: Reachable only through a module's globals: never reported.
GLOBAL_SECRET = ["in", "the", "module"]


class Slotted:
    __slots__ = ("kept", "unset")

    def __init__(self, kept: Any):
        self.kept = kept


class Holder:
    def look(self) -> list[str]:
        return GLOBAL_SECRET


def test_every_way_of_holding_an_object_is_followed():
    secrets = [[f"secret {i}"] for i in range(7)]
    holder = Holder()
    holder.secret = secrets[1]  # type: ignore[attr-defined]

    def gen(held: Any) -> Any:
        yield held
    suspended = gen(secrets[4])
    next(suspended)
    bot = {
        "slot": Slotted(secrets[0]),
        "method": holder.look,
        "partial": functools.partial(print, secrets[2]),
        "closure": lambda s=secrets[3]: s,
        "gen": suspended,
        "deque": deque([[secrets[5]]]),
        "plain": Holder().look,  # its object holds nothing; GLOBAL_SECRET only in the module
    }
    found = {leak.path for leak in leaks(bot, same_objects(*secrets, GLOBAL_SECRET, name="secret"))}
    assert found == {"bot['slot'].kept", "bot['method'].__self__.secret", "bot['partial'].args[0]",
                     "bot['closure'] <default 0>", "bot['gen'] <local held>", "bot['deque'][0][0]"}


def test_the_walk_stops_at_modules_classes_and_the_test_probes():
    module = sys.modules[__name__]
    probe = Probe(lambda: GLOBAL_SECRET, "act", lambda where, arg: None)
    assert leaks({"m": module, "c": Holder, "p": probe}, same_objects(GLOBAL_SECRET, name="secret")) == []


def test_the_depth_is_bounded():
    secret = ["deep"]
    deep: Any = secret
    for _ in range(30):
        deep = [deep]
    rule = same_objects(secret, name="secret")
    assert leaks(deep, rule) == []
    assert [leak.path for leak in leaks([[secret]], rule)] == ["bot[0][0]"]
