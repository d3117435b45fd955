"""The hidden-role layer: what 闇に笑う魔女, マフィア42 and the next such game share.

Read docs/roles.md first.  A game subclasses `HiddenRoleGame` and uses the
parts it needs: `Vote`/`decide` for day votes, `Night`/`settle` for night
actions with cover, `VirtualClock`/`PhaseTimer` for clocks, `team_say`/
`team_event` for team secrets.
"""
from .clock import PhaseTimer, VirtualClock, chars_to_minutes
from .deal import Deal, assign_with_preferences, card_tag, check_deck, parse_card
from .game import HiddenRoleGame
from .night import Night, Settlement, settle
from .phrases import LAYER_PHRASES, missing_layer_phrases
from .roster import Roster, audience, partners_of, ranking, team_event, team_say
from .vote import Decision, Vote, decide

__all__ = [
    "HiddenRoleGame", "Roster", "audience", "partners_of", "ranking", "team_event", "team_say",
    "Deal", "assign_with_preferences", "card_tag", "check_deck", "parse_card",
    "VirtualClock", "PhaseTimer", "chars_to_minutes", "Vote", "Decision", "decide",
    "Night", "Settlement", "settle", "LAYER_PHRASES", "missing_layer_phrases",
]
