"""What the jobs do: the night's acts, resolved in one fixed order when the
night ends, deaths and their consequences, and the abilities that ride on a
day vote (madam, thief).

The order (a ruling, the app's as its community documents it): curses and
threats first (a frog has no ability tonight), then marks and protection,
then the shots, then what the living learn, then conversions and returns.
Everything a seat learns is said into its earphone only; the morning's
public announcements collect in `game.announce`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from kikimimi.protocol import REFEREE, TABLE, Event, event, say, seat_audience

from .jobs import Job

if TYPE_CHECKING:
    from .game import Mafia42Game


def effective(game: "Mafia42Game", seat: int) -> Job | None:
    """The ability a living seat uses tonight (a thief's borrowed one), or None."""
    p = game.p[seat]
    if not p.s.alive or not game.able(seat):
        return None
    job = game.catalogue[p.borrowed or p.s.job]
    if job.effect == "inherit":  # a converted fanatic takes over the dead leader's converting
        leader_alive = any(q.s.alive and game.catalogue[q.s.job].effect == "convert" for q in game.p.values())
        if not p.s.converted or leader_alive:
            return None
        job = next(j for j in game.catalogue.jobs.values() if j.effect == "convert")
    if job.uses and p.used.get(job.effect, 0) >= job.uses:
        return None
    if game.day < job.from_night or (job.nights == "odd" and game.day % 2 == 0):
        return None
    return job


def _is_mafia(game: "Mafia42Game", seat: int) -> bool:
    """A mafioso proper (not a helper), as the contact triggers mean it."""
    job = game.catalogue[game.p[seat].s.job]
    return game.p[seat].s.team == "mafia" and not job.helper


def _contact(game: "Mafia42Game", seat: int, out: list[Event]) -> None:
    p = game.p[seat]
    if p.s.contacted or not game.catalogue[p.original].helper:
        return
    p.s.contacted = True
    team = game.mafia_team()
    out.append(event("contact", seat=seat, private=[seat_audience(n) for n in team]))
    out.append(game.tell(seat, "contact-made", True, seats=[n for n in team if n != seat] or ["-"]))
    for n in team:
        if n != seat:
            out.append(game.tell(n, "helper-joined", True, seat=seat, job=f"job:{p.original}"))


def choose(game: "Mafia42Game", seat: int, target: int) -> list[Event]:
    """A night scan: every living seat scans (cover); the same answer for all."""
    job = effective(game, seat)
    if job is not None and job.effect == "learn-job":
        return _spy(game, seat, target)
    game.choices[seat] = target
    if seat in game.order:
        game.order.remove(seat)
    game.order.append(seat)
    out = [game.tell(seat, "night-choice", seat=target)]
    if job is not None and job.effect == "kill" and job.joint:
        for n in game.mafia_team():
            out.append(game.tell(n, "mafia-aim", seat=target, by=seat))
    return out


def _spy(game: "Mafia42Game", seat: int, target: int) -> list[Event]:
    """The spy's look is answered at once; finding a mafioso gives one more look."""
    out = [game.tell(seat, "night-choice", seat=target)]
    looks = game.spy_looks.get(seat, 0)
    again = game.catalogue[game.p[seat].s.job].again_on_contact and seat in game.spy_bonus
    allowed = 2 if game.p[seat].s.contacted and again else 1
    if looks >= allowed:
        return out
    game.spy_looks[seat] = looks + 1
    game.choices[seat] = target
    out.append(game.tell(seat, "job-of", True, seat=target, job=f"job:{game.p[target].s.job}"))
    if _is_mafia(game, target) and not game.p[seat].s.contacted:
        _contact(game, seat, out)
        game.spy_bonus.add(seat)  # the extra look of tonight
        game.causes.append("spy")
    return out


def resolve(game: "Mafia42Game") -> list[Event]:
    """The night ends: apply every act in the fixed order; return private news and deaths."""
    out: list[Event] = []
    day = game.day
    acting: dict[int, Job] = {}
    for seat in sorted(game.choices):
        job = effective(game, seat)
        if job is not None and job.acts == "night":
            acting[seat] = job

    def by(effect: str) -> list[tuple[int, int]]:
        return [(s, game.choices[s]) for s, j in acting.items() if j.effect == effect]

    def use(seat: int, job: Job) -> None:
        game.p[seat].used[job.effect] = game.p[seat].used.get(job.effect, 0) + 1

    for seat, target in by("curse"):
        game.p[target].frog_until = day
        out.append(game.tell(seat, "cursed", True, seat=target))
        if _is_mafia(game, target):
            _contact(game, seat, out)
            game.causes.append("witch")
    acting = {s: j for s, j in acting.items() if game.able(s)}  # frogs lose tonight's act
    for seat, target in by("threaten"):
        game.p[target].s.threatened = True
        game.causes.append("gangster")
        out.append(game.tell(seat, "threatened-done", True, seat=target))
    for seat, target in by("swap"):
        if target != seat:
            game.p[seat].mark = target
            use(seat, acting[seat])
            out.append(game.tell(seat, "magic-set", True, seat=target))
    protected = {target for _, target in by("protect")}
    beast_marks: dict[int, int] = {}
    for seat, target in by("mark"):
        if not (game.p[seat].s.contacted and _last_of_mafia(game)):
            beast_marks[seat] = target
            out.append(game.tell(seat, "marked", True, seat=target))
    # the shots: the mafia's joint target (the latest choice), or the tamed beastman alone
    shooters = [s for s in game.order if s in acting and acting[s].effect == "kill" and acting[s].joint]
    shot = game.choices[shooters[-1]] if shooters else None
    if shot is None:
        beasts = [s for s in game.order if s in acting and acting[s].kills_when_last
                  and game.p[s].s.contacted and _last_of_mafia(game)]
        shot = game.choices[beasts[-1]] if beasts else None
        shooters = beasts[-1:]
    if shot is not None:
        for beast, mark in beast_marks.items():
            if mark == shot:
                _tame(game, beast, out)
        out += _shoot(game, shot, protected, shooters)
    for seat, target in by("avenge"):
        if game.p[seat].s.client_killed and game.p[target].s.alive and target != seat:
            out += kill(game, target, "night", "mercenary")
            game.causes.append("mercenary")
    # what the living learn
    for seat, target in by("check-mafia"):
        t = game.p[target]
        found = _is_mafia(game, target) and t.frog_until < day
        out.append(game.tell(seat, "police-mafia" if found else "police-not-mafia", True, seat=target))
    for seat, target in by("read-dead"):
        t = game.p[target]
        if not t.s.alive and not t.rested:
            t.rested = True
            out.append(game.tell(seat, "job-of", True, seat=target, job=f"job:{t.s.job}"))
    for seat, target in by("scoop"):
        use(seat, acting[seat])
        game.announce.append(say(TABLE, "scoop", seat=target, job=f"job:{game.p[target].s.job}"))
    _society(game, by("envoy"), out)
    for seat, target in by("convert"):
        out += _convert(game, seat, target)
    for seat, target in by("resurrect"):
        t = game.p[target]
        if not t.s.alive and not t.rested:
            use(seat, acting[seat])
            game.set_alive(target, True)
            t.s.job = "citizen"
            game.causes.append("clergy")
            out.append(event("revived", seat=target))
            game.announce.append(say(TABLE, "revived", seat=target))
    for n, p in game.p.items():
        if not p.s.alive and p.revive_on == day and not p.rested:
            game.set_alive(n, True)
            p.revive_on = 0
            p.used["revive-self"] = 1
            game.causes.append("scientist")
            out.append(event("revived", seat=n))
            game.announce.append(say(TABLE, "revived", seat=n))
        p.borrowed = ""
    return out


def _last_of_mafia(game: "Mafia42Game") -> bool:
    return not any(p.s.alive and _is_mafia(game, n) for n, p in game.p.items())


def _tame(game: "Mafia42Game", beast: int, out: list[Event]) -> None:
    if not game.p[beast].s.contacted:
        game.causes.append("beastman")
        _contact(game, beast, out)


def _shoot(game: "Mafia42Game", target: int, protected: set[int], shooters: list[int]) -> list[Event]:
    out: list[Event] = []
    t = game.p[target]
    if not t.s.alive:
        return out
    job = game.catalogue[t.s.job]
    game.causes.append("mafia")
    if job.shot_proof:
        _tame(game, target, out)
        return out
    if target in protected:
        game.causes.append("doctor")
        game.announce.append(say(TABLE, "saved", seat=target))
        return out
    if job.effect == "take-bullet":
        partner = [n for n, p in game.p.items() if n != target and p.s.alive and p.s.job == t.s.job]
        if partner:
            mafia = tuple(n for n, p in game.p.items() if p.s.alive and _is_mafia(game, n))
            t.s.grudge_against = mafia
            game.causes.append("lover")
            out.append(game.tell(target, "lover-died-for-you", True, seat=partner[0]))
            return out + kill(game, partner[0], "night", "mafia")
    return out + kill(game, target, "night", "mafia")


def kill(game: "Mafia42Game", seat: int, when: str, cause: str) -> list[Event]:
    """A death and what follows from it (the magician's trick, the mercenary's client, the scientist)."""
    p = game.p[seat]
    out: list[Event] = []
    if not p.s.alive:
        return out
    job = game.catalogue[p.s.job]
    if job.effect == "swap" and p.mark and p.mark != seat and game.p[p.mark].s.alive:
        victim = p.mark
        p.mark = 0
        game.causes.append("magician")
        plays = game.p[victim].s.job
        p.s.side = p.s.team  # he plays on as the victim, for his own side
        p.s.job = plays
        out.append(game.tell(seat, "magic-fired", True, seat=victim, job=f"job:{plays}"))
        return out + kill(game, victim, when, cause)
    game.set_alive(seat, False, cause)
    out += [event("death", seat=seat, when=when),
            event("death-cause", seat=seat, cause=cause, private=REFEREE)]
    if when == "night":
        game.announce.append(say(TABLE, "died", seat=seat))
    elif seat != game.accused:  # the magician's target, dying by day in the executed seat's place
        out.append(say(TABLE, "died-by-day", seat=seat))
    for n, q in game.p.items():
        if q.client == seat and when == "night" and q.s.alive and not q.s.client_killed:
            q.s.client_killed = True
            out.append(game.tell(n, "client-killed", True, seat=seat))
    if job.effect == "revive-self" and not p.used.get("revive-self"):
        p.revive_on = game.day + 1
        _contact(game, seat, out)
    return out


def _society(game: "Mafia42Game", acts: list[tuple[int, int]], out: list[Event]) -> None:
    for seat, target in acts:
        me, other = game.p[seat], game.p[target]
        if me.sun and not me.found_moon and other.original == "society" and not other.sun:
            me.found_moon = True
            out.append(game.tell(seat, "found-moon", True, seat=target))
            out.append(game.tell(target, "sun-is", True, seat=seat))
        elif not me.sun and other.sun and other.found_moon and other.s.alive:
            game.fired.envoy = True
            game.causes.append("society")
            game.announce.append(say(TABLE, "envoy"))


def _convert(game: "Mafia42Game", seat: int, target: int) -> list[Event]:
    leader_alive = any(p.s.alive and p.s.job == "cult-leader" for p in game.p.values())
    me = game.p[seat]
    if me.s.job == "fanatic" and (leader_alive or not me.s.converted):
        return []
    t = game.p[target]
    job = game.catalogue[t.s.job]
    if target == seat or not t.s.alive or (t.s.team == "cult" and t.s.converted):
        return []
    if t.s.team == "mafia" or job.unconvertible:
        return [game.tell(seat, "convert-failed", True, seat=target)]
    game.set_team(target, "cult")
    t.s.converted = True
    game.causes.append("cult-leader")
    leaders = [n for n, p in game.p.items() if p.s.alive and p.s.job in ("cult-leader",)] or [seat]
    return [event("converted", seat=target, private=[seat_audience(seat), seat_audience(target)]),
            game.tell(seat, "converted-job", True, seat=target, job=f"job:{t.s.job}"),
            game.tell(target, "you-converted", True, seat=leaders[0])]


def day_abilities(game: "Mafia42Game", out: list[Event]) -> None:
    """The madam and the thief act through their vote, with no scan of their own."""
    for voter, target in sorted(game.vote.ballots.items()):
        p = game.p[voter]
        if not p.s.alive or not game.able(voter):
            continue
        job = game.catalogue[p.s.job]
        if job.effect == "seduce":
            game.p[target].seduced_until = game.day + 1
            out.append(game.tell(voter, "seduced", True, seat=target))
            out.append(game.tell(target, "you-seduced", True))
            if _is_mafia(game, target):
                game.causes.append("madam")
                _contact(game, voter, out)
        elif job.effect == "rob" and target != voter:
            p.borrowed = game.p[target].s.job
            out.append(game.tell(voter, "robbed", True, seat=target, job=f"job:{p.borrowed}"))
            if _is_mafia(game, target):
                game.causes.append("thief")
                _contact(game, voter, out)
