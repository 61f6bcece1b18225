"""The engine's own decision kinds, phases and event stages, and the log entries of what events did
(a leaf module every other module may import)."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Decision(StrEnum):
    """What the deciding seat must choose now."""

    DRAW = "draw"  # a cursed player: the top city or the top event
    PLAY = "play"  # play one event, or pass
    REACT = "react"  # reveal a protection card against the announced event, or not
    EXCHANGE = "exchange"  # accept or decline a Friendly exchange
    GIVE_CITY = "give_city"  # one of your own cities to give up
    GIVE_EVENT = "give_event"  # one of your own events to give up, face down


class Outcome(NamedTuple):
    """One public consequence of an event, in the order it happened.

    ``kind`` is one of:

    - ``"take"``: ``seat`` got city ``value`` from seat ``source``, or from the top (-1) or
      bottom (-2) of the city deck;
    - ``"lose"``: ``seat`` lost city ``value`` into the city deck;
    - ``"events"``: ``seat`` took ``value`` events from the top (-1) or bottom (-2) of the deck;
    - ``"discard"``: ``seat`` lost ``value`` events face down;
    - ``"return"``: ``seat`` put ``value`` events back into the event deck;
    - ``"reveal"``: ``seat`` revealed protection card ``value`` (an :class:`EventType`);
    - ``"complete"``: ``seat`` completed empire ``value``;
    - ``"wonders"``: ``seat`` scored the wonders bonus;
    - ``"accept"`` / ``"decline"``: ``seat`` answered a Friendly exchange;
    - ``"silence"``, ``"curse"``, ``"no_city"``: a restriction on ``seat``'s coming turns;
    - ``"extra_plays"``: ``seat`` may play ``value`` more events this turn.
    """

    kind: str
    seat: int
    source: int = -1
    value: int = 0


TOP, BOTTOM = -1, -2

# Phases of the game and stages of an event (shared by the state and its views).
SETUP, TURN, EVENT, OVER = range(4)
PHASE_NAMES = ("setup", "turn", "event", "over")
REACT_STAGE, RESOLVE_STAGE = 0, 1
STAGE_NAMES = ("react", "resolve")
