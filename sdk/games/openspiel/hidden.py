"""Redrawing what a seat cannot see (``resample_hidden``), from OpenSpiel's definition of it.

- Sequential games with perfect information hide nothing: the state itself.
- Where OpenSpiel implements ``resample_from_infostate``, its redraw, whose history becomes ours
  (where its steps replay legally and it redraws something: some games' redraws do not replay,
  colored_trails' gives the state back; those are redrawn as below).
- Elsewhere, a replay of the history in which every step not the seat's own (chance outcomes,
  the other seats' actions) is redrawn at random among those that leave the seat's
  information-state string (its observation string, where the game has none), whether it is
  asked and whether the game is over, as they were after that step; where no redraw fits, the step
  is kept, and a dead end keeps the state as it is.
  The secrecy check then verifies that the rest of what a seat is sent (the observation string
  and tensors, the legal actions) tells no more than that string.
"""

from __future__ import annotations

import random
from typing import Any

from sdk.games.errors import IllegalActionError

from .loader import pyspiel
from .observation import deciding, public_history
from .state import State


def _view(state: State, seat: int) -> tuple[str, bool, bool]:
    """What the seat knows: its information-state (or observation) string, whether it is asked now
    and whether the game is over, which a seat always learns and some games' strings leave out (in
    phantom tic-tac-toe an opponent's move into an occupied cell is played again, unseen, so the
    string alone does not say whose turn it is, nor that the opponent's unseen line has won)."""
    kind = state.loaded.game.get_type()
    if kind.provides_information_state_string:
        known = str(state.spiel.information_state_string(seat))
    else:
        known = str(state.spiel.observation_string(seat))
    return known, seat in deciding(state), state.is_terminal()


#: Games whose ``resample_from_infostate`` raised: not asked again (OpenSpiel prints each refusal).
_UNIMPLEMENTED: set[str] = set()


def _by_openspiel(state: State, seat: int, rng: random.Random) -> State | None:
    """OpenSpiel's own redraw, or None where the game does not implement it here."""
    if state.pending or state.is_chance_node() or state.is_terminal() or state.loaded.name in _UNIMPLEMENTED:
        return None
    sampler = pyspiel().UniformProbabilitySampler(rng.randrange(2**31), 0.0, 1.0)
    try:
        drawn: Any = state.spiel.resample_from_infostate(seat, sampler)
    except pyspiel().SpielError:
        _UNIMPLEMENTED.add(state.loaded.name)
        return None
    redrawn = State(state.loaded)
    try:
        for step in drawn.full_history():
            redrawn.apply(redrawn.step_of(int(step.action)))
    except IllegalActionError:
        return None  # a redrawn history our rules refuse (bridge's, euchre's): the replay redraws instead
    if redrawn.history == state.history:
        return None  # colored_trails' redraw gives the state back, hiding nothing: the replay redraws
    return redrawn


def _by_replay(state: State, seat: int, rng: random.Random) -> State:
    original = State(state.loaded)
    redrawn = State(state.loaded)
    for step in state.history:
        mover = original.current_player
        original.apply(step)
        target = _view(original, seat)
        options = [step]
        if mover != seat:
            others = [action for action in redrawn.legal_actions() if action != step]
            rng.shuffle(others)
            options = [*others, step]
        for option in options:
            trial = redrawn.clone()
            try:
                trial.apply(option)
            except ValueError:
                continue
            if _view(trial, seat) == target:
                redrawn = trial
                break
        else:
            return state.clone()
    return redrawn


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    if public_history(state):
        return state.clone()
    return _by_openspiel(state, seat, rng) or _by_replay(state, seat, rng)
