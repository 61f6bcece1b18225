"""A refused play names what is wrong with it: an action number outside 1 to 6 is said to be one,
not refused as if that card could take such an action at another time."""

from __future__ import annotations

import pytest

from sdk.games.bruges.actions import Play
from sdk.games.errors import IllegalActionError

from .builders import at_turn, c


def test_an_action_number_outside_the_six_is_named_as_such() -> None:
    card = c("cook", "red")
    state = at_turn(2, dice=(1, 2, 4, 5, 6), hands={0: [card, c("cook", "blue")], 1: [c("beggar", "blue")]})
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"action 7 is not one of the actions 1 to 6 \(B15\)"):
        state.apply(Play(card, 7))
    assert state.to_json() == before
