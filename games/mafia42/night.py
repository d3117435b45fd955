"""What the jobs do: the night's acts, resolved in one fixed order when the
night ends, deaths and their consequences, and the abilities that ride on a
day vote (madam, thief).

The order (a ruling, the app's as its community documents it): curses and
threats first (a frog has no ability tonight), then marks and protection,
then the shots, then what the living learn, then conversions and returns.
Everything a seat learns is said into its earphone only; the morning's
public announcements collect in `board.announce`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kikimimi.game import TABLE, event, Event, say, seat_audience
from kikimimi.roles import Settlement, settle

from .board import Board
from .jobs import Job
from .power import side_of


def effective(board: Board, seat: int) -> Job | None:
    """The ability a living seat uses tonight (a thief's borrowed one), or None."""
    p = board.roster[seat]
    if not p.alive or not board.able(seat):
        return None
    job = board.catalogue[p.borrowed or p.job]
    if job.effect == "inherit":  # a converted fanatic takes over the dead leader's converting
        leader_alive = any(q.alive and board.catalogue[q.job].effect == "convert" for q in board.members())
        if not p.converted or leader_alive:
            return None
        job = next(j for j in board.catalogue.jobs.values() if j.effect == "convert")
    if job.uses and p.used.get(job.effect, 0) >= job.uses:
        return None
    if board.day < job.from_night or (job.nights == "odd" and board.day % 2 == 0):
        return None
    return job


def _is_mafia(board: Board, seat: int) -> bool:
    """A mafioso proper (not a helper), as the contact triggers mean it."""
    job = board.catalogue[board.roster[seat].job]
    return board.roster[seat].team == "mafia" and not job.helper


def _contact(board: Board, seat: int, out: list[Event]) -> None:
    p = board.roster[seat]
    if p.contacted or not board.catalogue[p.role or p.job].helper:
        return
    p.contacted = True
    team = board.mafia_team()
    out.append(event("contact", seat=seat, private=[seat_audience(n) for n in team]))
    out.append(board.tell(seat, "contact-made", True, seats=[n for n in team if n != seat] or ["-"]))
    for n in team:
        if n != seat:
            out.append(board.tell(n, "helper-joined", True, seat=seat, job=f"job:{p.role}"))


def choose(board: Board, seat: int, target: int) -> list[Event]:
    """A night scan: every living seat scans (cover); the same answer for all."""
    job = effective(board, seat)
    if job is not None and job.effect == "learn-job":
        return _spy(board, seat, target)
    board.choices[seat] = target
    if seat in board.order:
        board.order.remove(seat)
    board.order.append(seat)
    out = [board.tell(seat, "night-choice", seat=target)]
    team = board.mafia_team()
    if job is not None and job.effect == "kill" and job.joint and seat in team:
        for n in team:
            out.append(board.tell(n, "mafia-aim", seat=target, by=seat))
    return out


def _spy(board: Board, seat: int, target: int) -> list[Event]:
    """The spy's look is answered at once; finding a mafioso gives one more look."""
    out = [board.tell(seat, "night-choice", seat=target)]
    looks = board.spy_looks.get(seat, 0)
    again = board.catalogue[board.roster[seat].job].again_on_contact and seat in board.spy_bonus
    allowed = 2 if board.roster[seat].contacted and again else 1
    if looks >= allowed:
        return out
    board.spy_looks[seat] = looks + 1
    board.choices[seat] = target
    out.append(board.tell(seat, "job-of", True, seat=target, job=f"job:{board.roster[target].job}"))
    if _is_mafia(board, target) and not board.roster[seat].contacted:
        _contact(board, seat, out)
        board.spy_bonus.add(seat)  # the extra look of tonight
        board.causes.append("spy")
    return out


@dataclass
class Dusk:
    """Tonight as the steps read it: the scans, who still acts (a frog loses
    tonight's act mid-night), and what earlier steps left for later ones.
    Deaths happen at once on the board: later steps see them (the medium, the
    clergy) and a death's consequences follow it (the magician, the lover)."""

    board: Board
    acting: dict[int, Job]
    out: list[Event] = field(default_factory=list)
    protected: set[int] = field(default_factory=set)
    beast_marks: dict[int, int] = field(default_factory=dict)

    def by(self, effect: str) -> list[tuple[int, int]]:
        return [(s, self.board.choices[s]) for s, j in self.acting.items() if j.effect == effect]

    def use(self, seat: int) -> None:
        used = self.board.roster[seat].used
        effect = self.acting[seat].effect
        used[effect] = used.get(effect, 0) + 1


def curse(n: Dusk, _: Settlement) -> None:
    board = n.board
    for seat, target in n.by("curse"):
        board.roster[target].frog_until = board.day
        n.out.append(board.tell(seat, "cursed", True, seat=target))
        if _is_mafia(board, target):
            _contact(board, seat, n.out)
            board.causes.append("witch")
    n.acting = {s: j for s, j in n.acting.items() if board.able(s)}  # frogs lose tonight's act


def threaten(n: Dusk, _: Settlement) -> None:
    for seat, target in n.by("threaten"):
        n.board.roster[target].threatened = True
        n.board.causes.append("gangster")
        n.out.append(n.board.tell(seat, "threatened-done", True, seat=target))


def magic(n: Dusk, _: Settlement) -> None:
    for seat, target in n.by("swap"):
        if target != seat:
            n.board.roster[seat].mark = target
            n.use(seat)
            n.out.append(n.board.tell(seat, "magic-set", True, seat=target))


def protect(n: Dusk, _: Settlement) -> None:
    n.protected = {target for _, target in n.by("protect")}


def beast_mark(n: Dusk, _: Settlement) -> None:
    for seat, target in n.by("mark"):
        if not (n.board.roster[seat].contacted and _last_of_mafia(n.board)):
            n.beast_marks[seat] = target
            n.out.append(n.board.tell(seat, "marked", True, seat=target))


def shot(n: Dusk, _: Settlement) -> None:
    """The mafia's joint target (the latest choice of the mafia's side: a magician
    playing on as a mafioso is not of it), or the tamed beastman's alone."""
    board, acting, team = n.board, n.acting, n.board.mafia_team()
    shooters = [s for s in board.order if s in acting and acting[s].effect == "kill" and acting[s].joint
                and s in team]
    target = board.choices[shooters[-1]] if shooters else None
    if target is None:
        beasts = [s for s in board.order if s in acting and acting[s].kills_when_last
                  and board.roster[s].contacted and _last_of_mafia(board)]
        target = board.choices[beasts[-1]] if beasts else None
    if target is not None:
        for beast, mark in n.beast_marks.items():
            if mark == target:
                _tame(board, beast, n.out)
        n.out += _shoot(board, target, n.protected)


def avenge(n: Dusk, _: Settlement) -> None:
    for seat, target in n.by("avenge"):
        if n.board.roster[seat].client_killed and n.board.roster[target].alive and target != seat:
            n.out += kill(n.board, target, "night", "mercenary")
            n.board.causes.append("mercenary")


def police(n: Dusk, _: Settlement) -> None:
    board = n.board
    for seat, target in n.by("check-mafia"):
        found = _is_mafia(board, target) and board.roster[target].frog_until < board.day
        n.out.append(board.tell(seat, "police-mafia" if found else "police-not-mafia", True, seat=target))


def medium(n: Dusk, _: Settlement) -> None:
    for seat, target in n.by("read-dead"):
        t = n.board.roster[target]
        if not t.alive and not t.rested:
            t.rested = True
            n.out.append(n.board.tell(seat, "job-of", True, seat=target, job=f"job:{t.job}"))


def reporter(n: Dusk, _: Settlement) -> None:
    for seat, target in n.by("scoop"):
        n.use(seat)
        n.board.announce.append(say(TABLE, "scoop", seat=target, job=f"job:{n.board.roster[target].job}"))


def society(n: Dusk, _: Settlement) -> None:
    _society(n.board, n.by("envoy"), n.out)


def convert(n: Dusk, _: Settlement) -> None:
    for seat, target in n.by("convert"):
        n.out += _convert(n.board, seat, target)


def clergy(n: Dusk, _: Settlement) -> None:
    """A return without the job: the seat plays on as a citizen for the side it
    counted for, so a helper who never made contact (counted for the citizens)
    does not join the mafia, nor hear its aim, by coming back."""
    for seat, target in n.by("resurrect"):
        t = n.board.roster[target]
        if not t.alive and not t.rested:
            n.use(seat)
            n.out += _return(n.board, target, "clergy")
            side = side_of(t, n.board.catalogue)
            t.job = "citizen"
            if side_of(t, n.board.catalogue) != side:
                t.side = side


def scientist(n: Dusk, _: Settlement) -> None:
    board = n.board
    for seat, p in board.roster.seats.items():
        if not p.alive and p.revive_on == board.day and not p.rested:
            n.out += _return(board, seat, "scientist")
            p.revive_on = 0
            p.used["revive-self"] = 1
        p.borrowed = ""


#: The night's order (a ruling, the app's as its community documents it): curses
#: and threats first (a frog has no ability tonight), then marks and protection,
#: then the shots, then what the living learn, then conversions and returns.
STEPS = (curse, threaten, magic, protect, beast_mark, shot, avenge,
         police, medium, reporter, society, convert, clergy, scientist)


def resolve(board: Board) -> list[Event]:
    """The night ends: every act in the declared order; private news and deaths."""
    acting: dict[int, Job] = {}
    for seat in sorted(board.choices):
        job = effective(board, seat)
        if job is not None and job.acts == "night":
            acting[seat] = job
    dusk = Dusk(board, acting)
    settle(dusk, STEPS)
    return dusk.out


def _return(board: Board, seat: int, cause: str) -> list[Event]:
    """A dead seat comes back: public at once in the log, on the speaker in the morning."""
    board.roster.revive(seat)
    board.causes.append(cause)
    board.announce.append(say(TABLE, "revived", seat=seat))
    return [event("revived", seat=seat)]


def _last_of_mafia(board: Board) -> bool:
    return not any(p.alive and _is_mafia(board, n) for n, p in board.roster.seats.items())


def _tame(board: Board, beast: int, out: list[Event]) -> None:
    if not board.roster[beast].contacted:
        board.causes.append("beastman")
        _contact(board, beast, out)


def _shoot(board: Board, target: int, protected: set[int]) -> list[Event]:
    out: list[Event] = []
    t = board.roster[target]
    if not t.alive:
        return out
    job = board.catalogue[t.job]
    board.causes.append("mafia")
    if job.shot_proof:
        _tame(board, target, out)
        return out
    if target in protected:
        board.causes.append("doctor")
        board.announce.append(say(TABLE, "saved", seat=target))
        return out
    if job.effect == "take-bullet":
        partner = [n for n, p in board.roster.seats.items() if n != target and p.alive and p.job == t.job]
        if partner:
            mafia = tuple(n for n, p in board.roster.seats.items() if p.alive and _is_mafia(board, n))
            t.grudge_against = mafia
            board.causes.append("lover")
            out.append(board.tell(target, "lover-died-for-you", True, seat=partner[0]))
            return out + kill(board, partner[0], "night", "mafia")
    return out + kill(board, target, "night", "mafia")


def kill(board: Board, seat: int, when: str, cause: str) -> list[Event]:
    """A death and what follows from it (the magician's trick, the mercenary's client, the scientist)."""
    p = board.roster[seat]
    out: list[Event] = []
    if not p.alive:
        return out
    job = board.catalogue[p.job]
    if job.effect == "swap" and p.mark and p.mark != seat and board.roster[p.mark].alive:
        victim = p.mark
        p.mark = 0
        board.causes.append("magician")
        plays = board.roster[victim].job
        p.side = p.team  # he plays on as the victim, for his own side
        p.job = plays
        out.append(board.tell(seat, "magic-fired", True, seat=victim, job=f"job:{plays}"))
        return out + kill(board, victim, when, cause)
    out += board.leave(seat, cause, when)
    if when == "night":
        board.announce.append(say(TABLE, "died", seat=seat))
    elif seat != board.accused:  # the magician's target, dying by day in the executed seat's place
        out.append(say(TABLE, "died-by-day", seat=seat))
    for n, q in board.roster.seats.items():
        if q.client == seat and when == "night" and q.alive and not q.client_killed:
            q.client_killed = True
            out.append(board.tell(n, "client-killed", True, seat=seat))
    if job.effect == "revive-self" and not p.used.get("revive-self"):
        p.revive_on = board.day + 1
        _contact(board, seat, out)
    return out


def _society(board: Board, acts: list[tuple[int, int]], out: list[Event]) -> None:
    for seat, target in acts:
        me, other = board.roster[seat], board.roster[target]
        if me.sun and not me.found_moon and other.role == "society" and not other.sun:
            me.found_moon = True
            out.append(board.tell(seat, "found-moon", True, seat=target))
            out.append(board.tell(target, "sun-is", True, seat=seat))
        elif not me.sun and other.sun and other.found_moon and other.alive:
            board.fired.envoy = True
            board.causes.append("society")
            board.announce.append(say(TABLE, "envoy"))


def _convert(board: Board, seat: int, target: int) -> list[Event]:
    leader_alive = any(p.alive and p.job == "cult-leader" for p in board.members())
    me = board.roster[seat]
    if me.job == "fanatic" and (leader_alive or not me.converted):
        return []
    t = board.roster[target]
    job = board.catalogue[t.job]
    if target == seat or not t.alive or (t.team == "cult" and t.converted):
        return []
    if t.team == "mafia" or job.unconvertible:
        return [board.tell(seat, "convert-failed", True, seat=target)]
    t.team = "cult"
    t.converted = True
    board.causes.append("cult-leader")
    leaders = [n for n, p in board.roster.seats.items() if p.alive and p.job in ("cult-leader",)] or [seat]
    return [event("converted", seat=target, private=[seat_audience(seat), seat_audience(target)]),
            board.tell(seat, "converted-job", True, seat=target, job=f"job:{t.job}"),
            board.tell(target, "you-converted", True, seat=leaders[0])]


def day_abilities(board: Board, out: list[Event]) -> None:
    """The madam and the thief act through their vote, with no scan of their own."""
    for voter, target in sorted(board.vote.ballots.items()):
        p = board.roster[voter]
        if not p.alive or not board.able(voter):
            continue
        job = board.catalogue[p.job]
        if job.effect == "seduce":
            board.roster[target].seduced_until = board.day + 1
            out.append(board.tell(voter, "seduced", True, seat=target))
            out.append(board.tell(target, "you-seduced", True))
            if _is_mafia(board, target):
                board.causes.append("madam")
                _contact(board, voter, out)
        elif job.effect == "rob" and target != voter:
            p.borrowed = board.roster[target].job
            out.append(board.tell(voter, "robbed", True, seat=target, job=f"job:{p.borrowed}"))
            if _is_mafia(board, target):
                board.causes.append("thief")
                _contact(board, voter, out)
