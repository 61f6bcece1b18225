"""Refusals name a choice in words a bot author can match to the wire (``ROME``), never as a Python
enum's repr (``<Empire.ROME: 0>``), whose number is the engine's, not the wire's."""

from __future__ import annotations

from sdk.games import cities as ci

from .builders import E, empire, expect_illegal, position

CHOICES = "C10 choices"


def test_a_choice_an_event_does_not_take_is_named_by_its_name() -> None:
    greece = empire(ci.Empire.GREECE)
    state = position(held={0: greece[:4], 1: greece[4:5]}, hands={0: [E.SMALL_FESTIVAL]})
    error = expect_illegal(state, ci.Play(E.SMALL_FESTIVAL, empire=ci.Empire.ROME), CHOICES)
    assert "(got ROME)" in str(error) and "<" not in str(error)


def test_an_education_mode_is_named_by_its_name() -> None:
    state = position(held={0: [], 1: []}, hands={0: [E.UNIFICATION]})
    error = expect_illegal(state, ci.Play(E.UNIFICATION, education=ci.EducationMode.DISCARD), CHOICES)
    assert "(got DISCARD)" in str(error) and "<" not in str(error)
