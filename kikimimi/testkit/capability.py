"""What a bot *can* reach, not only what it did: the capability half of the knowledge tests.

`kikimimi/testkit/knowledge.py` checks behaviour: a bot's inputs do not move
when what its seat cannot see is changed.  A bot that holds the whole table
but happens not to read it passes that test, and one line would make it read
it.  `leaks` walks every object reachable from a bot (attributes, slots,
containers, closures' cells, bound methods' objects, partials, suspended
generators' locals), to a bounded depth, and reports each one a test calls
forbidden: the game's table or play object, another seat's secret, the deal's
seed or generator.  Modules, classes and functions' globals are not walked:
they are the program, shared by every seat, not something handed to one.
"""
from __future__ import annotations

import random
import types
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

#: How deep the walk goes from the bot (a bot's own structures are a few levels deep).
DEPTH = 12
#: How many objects one walk visits at most (a bot holds a few thousand at most).
LIMIT = 200_000

_ATOMS = (str, bytes, int, float, complex, bool, type(None), range)
_SKIP = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
         types.FrameType)


@dataclass(frozen=True)
class Leak:
    """One forbidden object and the path from the bot to it (`bot.mind.seat.sim`)."""

    path: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}: {self.why}"


def _slots(obj: Any) -> Iterator[str]:
    for cls in type(obj).__mro__:
        names = cls.__dict__.get("__slots__", ())
        yield from ([names] if isinstance(names, str) else names)


class Probe:
    """A bot's method as `audit` seats it: every call's arguments are walked first (a
    bot handed the table on each call holds it as surely as one that keeps it).  The
    walk never enters a probe: it is the test's, not the bot's."""

    __slots__ = ("method", "name", "check")

    def __init__(self, method: Callable[..., Any], name: str, check: Callable[[str, Any], None]):
        self.method, self.name, self.check = method, name, check

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for i, a in enumerate(args):
            self.check(f"{self.name}(argument {i + 1})", a)
        for k, a in kwargs.items():
            self.check(f"{self.name}({k}=)", a)
        return self.method(*args, **kwargs)


def children(obj: Any) -> Iterator[tuple[str, Any]]:
    """(step, child) for every object `obj` holds directly, as a bot could follow it."""
    if isinstance(obj, Probe):
        return
    if isinstance(obj, _ATOMS) or isinstance(obj, _SKIP) and not isinstance(obj, types.FunctionType):
        return
    if isinstance(obj, types.FunctionType):  # a closure's cells and defaults; never its globals
        for name, cell in zip(obj.__code__.co_freevars, obj.__closure__ or ()):
            try:
                yield f"<cell {name}>", cell.cell_contents
            except ValueError:  # an empty cell
                pass
        for i, d in enumerate(obj.__defaults__ or ()):
            yield f"<default {i}>", d
        yield from (((f"<kwdefault {k}>", v) for k, v in (obj.__kwdefaults__ or {}).items()))
        return
    if isinstance(obj, types.MethodType):
        yield ".__self__", obj.__self__
        yield ".__func__", obj.__func__
        return
    if isinstance(obj, types.GeneratorType | types.CoroutineType):
        frame = obj.gi_frame if isinstance(obj, types.GeneratorType) else obj.cr_frame
        if frame is not None:
            yield from ((f"<local {k}>", v) for k, v in frame.f_locals.items())
        return
    if isinstance(obj, Mapping):
        for k, v in list(obj.items()):
            yield f"<key {k!r}>", k
            yield f"[{k!r}]", v
    elif isinstance(obj, list | tuple | set | frozenset | deque):
        for i, v in enumerate(list(obj)):
            yield f"[{i}]", v
    if hasattr(obj, "func") and hasattr(obj, "args") and hasattr(obj, "keywords"):  # functools.partial
        yield ".func", obj.func
        yield ".args", obj.args
        yield ".keywords", obj.keywords
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict) and not isinstance(obj, Mapping | type):
        for k, v in list(d.items()):
            yield f".{k}", v
    for name in _slots(obj):
        if name in ("__dict__", "__weakref__"):
            continue
        try:
            yield f".{name}", object.__getattribute__(obj, name)
        except AttributeError:  # an unset slot
            pass


def reachable(root: Any, depth: int = DEPTH, limit: int = LIMIT, name: str = "bot") -> Iterator[tuple[str, Any]]:
    """(path, object) for every object reachable from `root`, each once, breadth first."""
    seen = {id(root)}
    todo: deque[tuple[str, Any, int]] = deque([(name, root, 0)])
    keep = [root]  # the walked objects stay alive, so no id is reused during the walk
    while todo:
        path, obj, level = todo.popleft()
        yield path, obj
        if level >= depth or len(seen) > limit:
            continue
        for step, child in children(obj):
            if id(child) in seen:
                continue
            seen.add(id(child))
            keep.append(child)
            todo.append((path + (step if step.startswith(("[", ".")) else f" {step}"), child, level + 1))


Forbidden = Callable[[Any], "str | None"]


def leaks(bot: Any, *forbidden: Forbidden, depth: int = DEPTH, name: str = "bot") -> list[Leak]:
    """Every reachable object some `forbidden(obj)` names (a reason), with its path."""
    out = []
    for path, obj in reachable(bot, depth, name=name):
        for rule in forbidden:
            why = rule(obj)
            if why:
                out.append(Leak(path, why))
    return out


def instances(*classes: type, name: str = "the table") -> Forbidden:
    """Forbid any object of these classes (the game's table, its engine, its play object)."""
    def rule(obj: Any) -> str | None:
        return f"{name} ({type(obj).__name__})" if isinstance(obj, classes) else None
    return rule


def same_objects(*objects: Any, name: str = "the table's own object") -> Forbidden:
    """Forbid these very objects (the deal's generator, the table's hands)."""
    ids = {id(o) for o in objects}
    return lambda obj: name if id(obj) in ids else None


def deal_seed(seed: int, *generators: random.Random) -> Forbidden:
    """Forbid the deal's seed (as a number, or inside a string) and any generator in the
    state of one of the deal's `generators` (a copy of it replays the deal).  Use a seed no
    other number in a bot is likely to equal (a seat, a count)."""
    states: list[Any] = []  # worked out at the first generator met (most walks meet none)
    text = str(seed)

    def rule(obj: Any) -> str | None:
        if type(obj) is int and obj == seed or isinstance(obj, str) and text in obj:
            return f"the deal's seed {seed}"
        if isinstance(obj, random.Random):
            if not states:
                states.append({g.getstate() for g in generators})
            if obj.getstate() in states[0]:
                return "a generator in the deal's state"
        return None
    return rule


def public_collections(log: Iterable[Mapping[str, Any]]) -> list[list[str]]:
    """Every list said in public (a declaration's cards, a vote's seats), as strings: a secret
    collection that equals one was said aloud, by its owner or by chance, and is not a leak."""
    from kikimimi.contract.protocol import visible_to

    out = []
    for ev in log:
        if visible_to(ev, None):
            for v in (*ev.values(), *(ev.get("params") or {}).values()):
                if isinstance(v, list | tuple):
                    out.append([str(x) for x in v])
    return out


def containers_equal(secrets: Mapping[str, Any], public: Iterable[Any] = ()) -> Forbidden:
    """Forbid a container holding exactly a secret collection (another seat's hand, the basket):
    `secrets` names each (sorted) collection; a single piece a seat heard is not one, nor a
    collection said in `public` (`public_collections`)."""
    said = {tuple(sorted(map(str, v))) for v in public}
    wanted = {key: k for k, v in secrets.items() if len(v) >= 2
              and (key := tuple(sorted(map(str, v)))) not in said}

    def rule(obj: Any) -> str | None:
        if isinstance(obj, list | tuple | set | frozenset | deque) and len(obj) >= 2:
            try:
                key = tuple(sorted(map(str, obj)))
            except TypeError:
                return None
            return wanted.get(key)
        return None
    return rule


def strings(secrets: Mapping[str, str]) -> Forbidden:
    """Forbid these strings anywhere (another seat's card tag), named by the secret they are."""
    return lambda obj: secrets.get(obj) if isinstance(obj, str) else None


def bots_of(simulation: Any) -> dict[int, Any]:
    """The seated bots of a bot table, by seat (a table keeps them as a dict or a list;
    an ear table's referee, seat None, is not a seat)."""
    bots = simulation.bots
    if isinstance(bots, Mapping):
        return dict(bots)
    return {b.seat: b for b in bots if getattr(b, "seat", None) is not None}


#: forbidden(simulation, seat, log so far) -> the rules a walk from that seat's bot must not meet
Rules = Callable[[Any, int, list[Any]], "list[Forbidden]"]


def audit(game: str, seed: int, players: int, options: Mapping[str, Any] | None, bot: str | None,
          forbidden: Rules, every: int = 40, max_inputs: int = 2_000,
          seat_bots: Callable[[Any], Mapping[int, Any]] = bots_of) -> tuple[list[Leak], int]:
    """Play one bot game (`kikimimi.design.sim.play`) and walk every seat's bot after its first
    input and every `every` inputs after, and at the end, and what each of its methods is
    handed at every call: (the leaks found, the walks made)."""
    from kikimimi.design.sim import play  # the driver sits above this helper's users

    tables: list[Any] = []
    log: list[Any] = []
    found: list[Leak] = []
    walks = 0
    inputs = 0

    def probe(seat: int, b: Any) -> None:
        """Walk what each of the bot's own methods is handed, at every call."""
        def check(where: str, arg: Any) -> None:
            rules = forbidden(tables[0], seat, log)
            found.extend(Leak(f"seat {seat}: {leak.path}", leak.why)
                         for leak in leaks(arg, *rules, depth=4, name=where))
        for name in dir(type(b)):
            if name.startswith("__") or not callable(getattr(type(b), name, None)) \
                    or isinstance(getattr(type(b), name), staticmethod | classmethod | type):
                continue
            try:
                setattr(b, name, Probe(getattr(b, name), name, check))
            except AttributeError:  # a slotted bot: its arguments go unwalked
                return

    def seat_probes(table: Any) -> None:
        tables.append(table)
        for seat, b in seat_bots(table).items():
            probe(seat, b)

    def walk() -> None:
        nonlocal walks
        table = tables[0]
        for seat, b in seat_bots(table).items():
            rules = forbidden(table, seat, log)
            found.extend(Leak(f"seat {seat}: {leak.path}", leak.why) for leak in leaks(b, *rules))
            walks += 1

    def watch(line: dict[str, Any], events: Any) -> None:
        nonlocal inputs
        log.extend(events)
        inputs += 1
        if inputs % every == 1:
            walk()

    play(game, seed, players, options, bot, prepare=seat_probes, watch=watch, max_inputs=max_inputs)
    walk()
    return found, walks


def secret_events(log: list[Any], seat: int) -> Forbidden:
    """Forbid the very logged events `seat` may not learn, and the parameters they carry
    (a bot handed another seat's `your-role`, or the log itself, holds its secret)."""
    from kikimimi.contract.protocol import visible_to

    key = (id(log), len(log), seat)
    if key in _SECRETS:  # asked at every call a bot takes: the log is walked once per length
        return _SECRETS[key]
    if len(_SECRETS) > 64:
        _SECRETS.clear()
    hidden = [ev for ev in log if not visible_to(ev, seat)]
    objects = [*hidden, *(ev["params"] for ev in hidden if isinstance(ev.get("params"), dict) and ev["params"])]
    rule = same_objects(*objects, name="another seat's private event")
    ids = {id(log)}
    _SECRETS[key] = lambda obj: "the whole log" if id(obj) in ids else rule(obj)
    return _SECRETS[key]


_SECRETS: dict[tuple[int, int, int], Forbidden] = {}


def cards_of_others(cards: Mapping[int, str], seat: int) -> Forbidden:
    """Forbid another seat's card tag (its role or job in the tag's name, `witch:role-witch-1`)."""
    return strings({tag: f"seat {s}'s card {tag}" for s, tag in cards.items() if s != seat})
