"""Time in 闇に笑う魔女: speech that costs virtual time, the microphone, silence,
the witches' night chat and the dead room (the rules file's "Time" section).

`Talk` is a part of `WitchGame`: it reads and charges the clocks the game
keeps (`day_clock`, `night_clock`, `allowance`) and says nothing of votes or
powers.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from kikimimi.game import (REFEREE, TABLE, error, event, Event, Input, refusal, say, seat_audience,
                           set_timer)
from kikimimi.roles import Roster, VirtualClock, Vote, chars_to_minutes, team_event, team_say
from kikimimi.roles import claims as claim_channel

from .rules import MAX_PLAYERS, ROLES

#: Below this many minutes a speaker hears its allowance after each speech.
LOW_ALLOWANCE = 30


#: The timer that takes the hour off the day, a while after silence won its majority.
SILENCE_TIMER = "silence"


class Talk:
    """Speech, the microphone, silence, the night chat and the dead room."""

    # kept by WitchGame
    opts: dict[str, Any]
    roster: Roster
    phase: str
    day: int
    day_clock: VirtualClock
    night_clock: VirtualClock
    allowance: dict[int, VirtualClock]
    votes: list[Vote]
    silenced: set[int]
    silence_due: bool
    talk_over: bool
    mic: tuple[int, float, str, int] | None
    fired: Any

    if TYPE_CHECKING:  # declared only: the layer's own (HiddenRoleGame.lot) must stay the one that runs
        def lot(self, t: float, what: str) -> random.Random: ...

    def _silence(self, seat: int, t: float) -> list[Event]:
        """More than half of the living chose silence: the day loses an hour, and it may happen again.

        Cover (docs/witch.md): who chose it stays secret, so the hour is lost a
        while after the choice that made the majority (a lot of 15-45 s, to the hundredth, on the
        table's secret seed, the day and who chose), never at that scan."""
        if self.talk_over:
            return refusal(seat, "the talk is over", "day-over")
        self.silenced.add(seat)
        out = [say(seat_audience(seat), "silence-noted")]
        if 2 * len(self.silenced) <= len(self.roster.alive()) or self.silence_due:
            return out
        self.silence_due = True
        lot = self.lot(t, f"silence-{self.day}-{sorted(self.silenced)}")
        # A drawn fraction too: a whole number of seconds after the scan kept the scan's
        # fraction in the announcement's time, which named the scan.
        return out + [set_timer(SILENCE_TIMER, t + round(lot.uniform(15.0, 45.0), 2))]

    def on_timer(self, name: str, t: float) -> list[Event]:
        if name != SILENCE_TIMER or not self.silence_due:
            return []
        self.silence_due = False
        if self.phase != "day" or self.talk_over:  # the day ended first: nothing to shorten
            self.silenced = set()
            return []
        self.silenced = set()
        self.day_clock.shorten(self.opts["silence_minutes"])
        self.fired["silence"] += 1
        out = [event("silence", day_left=self.day_clock.left), say(TABLE, "silence", minutes=self.day_clock.left)]
        return out + self._talk_check()

    def _talk_check(self) -> list[Event]:
        """The day's time ran out: nobody speaks any more; the count of unvoted players is announced."""
        if self.talk_over or self.day_clock.open:
            return []
        self.talk_over = True
        # How many have not voted is the referee's: a ballot and a power's target are the
        # same motion (a seat token), so the count would tell powers from votes.
        missing = len(self.votes[-1].missing)
        call = "vote-now-acts" if self.opts["day_acts"] == "together" else "vote-now"
        return [event("vote-call", missing=missing, private=REFEREE), say(TABLE, call)]

    # -- speech ---------------------------------------------------------------------
    def speak(self, seat: int, width: int, t: float, text: str | None = None) -> list[Event]:
        """A speech of `width` half-width characters; `text` when it was typed."""
        me = seat_audience(seat)
        if not self.roster.is_alive(seat):
            return self.dead_room(seat, text or "")
        minutes = width // self.opts["chars_per_minute"]
        if self.phase == "prologue":
            return [event("speech", seat=seat, minutes=0, day_left=None)] + (speech_lines(seat, text) if text else [])
        if self.phase == "night":
            return self._night_speech(seat, minutes, text)
        if self.phase != "day":
            return refusal(seat, f"no speech in the {self.phase}", "not-now")
        why = self._may_not_speak(seat)
        if why:
            return refusal(seat, "you may not speak now", why)
        hours = self.day_clock.spend(minutes)
        allowance = self.allowance[seat]
        allowance.spend(minutes)
        out = [event("speech", seat=seat, minutes=minutes, day_left=self.day_clock.left)]
        if text:
            out += speech_lines(seat, text)
        if hours and self.day_clock.open:
            out.append(say(TABLE, "day-hours", hours=min(hours)))
        if allowance.left <= LOW_ALLOWANCE:
            out.append(say(me, "allowance-left", minutes=max(0, allowance.left)))
        return out + self._talk_check()

    def _may_not_speak(self, seat: int) -> str | None:
        if not self.day_clock.open or self.talk_over:
            return "day-over"
        if self.allowance[seat].left <= 0:  # the seed: only the *last* speech of the day may overrun
            return "allowance-spent"
        return None

    def _night_speech(self, seat: int, minutes: int, text: str | None) -> list[Event]:
        """The witches' chat: their earphones and the dead room read it; the island hears laughter."""
        if self.roster.role(seat) != "witch":
            return refusal(seat, "only the witches talk at night", "night-silent")
        if not self.night_clock.open:
            return refusal(seat, "the night's time is spent", "night-over")
        self.night_clock.spend(minutes)
        readers = self.roster.holders("witch", alive_only=True) + self.roster.dead()
        out = [team_event("speech", readers, seat=seat, minutes=minutes, night_left=self.night_clock.left)]
        out += team_say(readers, "night-speech", seat=seat, text=text or "")
        return out + [event("laugh", night_left=self.night_clock.left), say(TABLE, "laugh")]

    def field_refusal(self) -> str:
        """What the speaker says of a piece the field reader has no use for."""
        return "field-seats-only"

    def on_field(self, inp: Input) -> list[Event]:
        """The field reader is the microphone: a seat token resting on it is that seat speaking."""
        tag = inp.tag or ""
        if not tag.startswith("seat:"):
            if inp.removed:  # lifting the refused piece off again says nothing
                return []
            # a role card looks like any other: naming it in public would deal it to everyone
            return [error(f"{tag} has no use on the field", private=REFEREE), say(TABLE, self.field_refusal())]
        seat = int(tag[5:])
        if inp.removed:
            if self.mic is None or self.mic[0] != seat:
                return []
            _, since, phase, day = self.mic
            self.mic = None
            off = [event("mic", seat=seat, on=False)]
            if (phase, day) != (self.phase, self.day):  # the phase ended under the token: nothing to charge
                return off
            width = int((inp.t - since) * self.opts["token_chars_per_second"])
            return off + self.speak(seat, width, inp.t)
        speaking = self._speaker()
        if speaking is not None:
            if speaking == seat:
                return []
            return [error(f"seat {speaking} is speaking"), say(TABLE, "mic-busy", seat=speaking)]
        if self.phase not in ("prologue", "day") or not self.roster.is_alive(seat):
            return [error(f"seat {seat} cannot take the microphone now"), say(TABLE, "mic-refused", seat=seat)]
        why = self._may_not_speak(seat) if self.phase == "day" else None
        if why:
            return [error(f"seat {seat} may not speak now", private=seat_audience(seat)),
                    say(TABLE, "mic-refused", seat=seat), say(seat_audience(seat), why)]
        self.mic = (seat, inp.t, self.phase, self.day)
        return [event("mic", seat=seat, on=True)]

    def _speaker(self) -> int | None:
        """The seat on the microphone in this phase (a token left from an earlier phase holds nothing)."""
        if self.mic is None or self.mic[2:] != (self.phase, self.day):
            return None
        return self.mic[0]

    def dead_room(self, seat: int, text: str) -> list[Event]:
        """Only the dead hear the dead room; a living speaker cannot read it."""
        dead = self.roster.dead()
        return [team_event("deadroom", dead, seat=seat, text=text)] + team_say(
            dead, "deadroom-speech", seat=seat, text=text)



def width(text: str) -> int:
    """Half-width characters of a typed speech: a full-width character counts 2."""
    return chars_to_minutes(text, 1)


#: What a claim line may name (the bots' claim channel, kikimimi.roles.claims).
CLAIMS = claim_channel.Vocabulary.of(ROLES, ("witch", "human"), MAX_PLAYERS)


def speech_lines(seat: int, text: str) -> list[Event]:
    """A speech on the speaker.  `text` stays as typed (the bots read claims from it);
    what is said is `said`: the text, or for a claim line ("CO mirror; FOUND mirror 6
    human") each claim in the table's language after it (the claim channel's
    words were heard at Japanese tables)."""
    found: tuple[claim_channel.Claim, ...] = ()
    if claim_channel.looks_like_claims(text):
        try:
            found = claim_channel.parse(text, CLAIMS)
        except claim_channel.ClaimError:
            found = ()
    if not found:
        return [say(TABLE, "speech", seat=seat, text=text, said=text)]
    out = [say(TABLE, "speech", seat=seat, text=text, said="claims")]
    for c in found:
        if c.kind == "CO":
            out.append(say(TABLE, "claim-co", role=f"role:{c.role}"))
        elif c.kind == "FOUND":
            out.append(say(TABLE, "claim-found", role=f"role:{c.role}", target=c.target, result=f"found:{c.result}"))
        elif c.kind == "VOTE":
            out.append(say(TABLE, "claim-vote", target=c.target))
        else:
            out.append(say(TABLE, "claim-estimate", target=c.target, role=f"role:{c.role}"))
    return out
