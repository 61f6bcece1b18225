"""One conformance suite for every installed game, in the manner of OpenSpiel's random-simulation
test and PettingZoo's API test: random play to the end, JSON round trips at every step, clone
independence, illegal steps refused with their rule named and the state unchanged, re-simulation
from the recorded steps, every declared decision kind's codecs, and the secrecy property: a state
that differs only in what seat p cannot see gives p the same observation and the same request."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from sdk.games.decisions import DecisionContext
from sdk.games.errors import IllegalActionError
from sdk.games.plugin import GamePlugin, GameState
from sdk.games.registry import get_game

from .example_install import installed_games_with_example

GAMES = installed_games_with_example()
SEEDS = range(4)
MAX_STEPS = 100_000


@dataclass
class Trace:
    """A random game: every step as JSON, and the decision points met on the way."""

    players: int
    steps: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)


def _players(plugin: GamePlugin, seed: int) -> int:
    return plugin.min_players + seed % (plugin.max_players - plugin.min_players + 1)


def _context(seat: int, decision_id: int) -> DecisionContext:
    return DecisionContext("conformance", decision_id, seat, 1000, 10_000)


def _walk(plugin: GamePlugin, seed: int) -> Iterator[tuple[GameState, Any]]:
    """A random game, yielding each state with the step about to be applied to it."""
    rng = random.Random(seed)
    state = plugin.new_state(_players(plugin, seed), {})
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return
        if state.is_chance_node():
            step = state.sample_chance(rng)
        else:
            step = plugin.random_action(plugin.observe(state, state.current_player), rng)
        yield state, step
        state.apply(step)
    raise AssertionError(f"no end after {MAX_STEPS} steps")


@pytest.fixture(params=GAMES)
def plugin(request: pytest.FixtureRequest) -> GamePlugin:
    return get_game(request.param)


def test_every_example_and_real_game_is_installed() -> None:
    assert "blind_auction" in GAMES and len(GAMES) >= 2


@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_reaches_the_end_with_a_result(plugin: GamePlugin, seed: int) -> None:
    players = _players(plugin, seed)
    kinds_seen: set[str] = set()
    state: GameState | None = None
    for state, _ in _walk(plugin, seed):
        if not state.is_chance_node():
            assert 0 <= state.current_player < players
            kinds_seen.add(plugin.decision_kind(state))
    final = plugin.new_state(players, {}) if state is None else state
    assert kinds_seen <= set(plugin.decisions.kinds)
    assert final.is_terminal()
    scores, ranks = final.scores(), final.ranks()
    assert len(scores) == len(ranks) == players
    for seat in range(players):  # a game may break ties in score (e.g. by cards held), never reverse them
        better = sum(other > scores[seat] for other in scores)
        worse = sum(other < scores[seat] for other in scores)
        assert 1 + better <= ranks[seat] <= players - worse


@pytest.mark.parametrize("seed", SEEDS)
def test_json_round_trips_at_every_step(plugin: GamePlugin, seed: int) -> None:
    for state, step in _walk(plugin, seed):
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data
        assert plugin.state_from_json(json.loads(json.dumps(data))).to_json() == data
        encoded = plugin.step_to_json(step)
        assert plugin.step_from_json(json.loads(json.dumps(encoded))) == step


@pytest.mark.parametrize("seed", SEEDS)
def test_a_clone_is_independent(plugin: GamePlugin, seed: int) -> None:
    for number, (state, step) in enumerate(_walk(plugin, seed)):
        if number % 7:
            continue
        before = state.to_json()
        copy = state.clone()
        copy.apply(step)
        assert state.to_json() == before, "applying a step to a clone changed the original"


@pytest.mark.parametrize("seed", SEEDS)
def test_illegal_steps_are_refused_naming_the_rule_and_change_nothing(plugin: GamePlugin, seed: int) -> None:
    """A step of another kind than the one awaited, one legal earlier but not now, or any step once
    the game is over, is refused."""
    seen: dict[str, Any] = {}
    refused = 0
    for state, step in _walk(plugin, seed):
        pending = "chance" if state.is_chance_node() else plugin.decision_kind(state)
        legal = None if state.is_chance_node() else state.legal_actions()
        for kind, other in list(seen.items()):
            if kind == pending and (legal is None or other in legal):
                continue
            before = state.to_json()
            with pytest.raises(IllegalActionError) as caught:
                state.apply(other)
            assert caught.value.rule.strip(), "the error must name the broken rule"
            assert state.to_json() == before, f"a refused {kind} step changed the state"
            refused += 1
        seen[pending] = step
    assert state.is_terminal()  # the walk's state, at its end: no step is legal any more
    before = state.to_json()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(step)
    assert caught.value.rule.strip(), "the error must name the broken rule"
    assert state.to_json() == before, "a step refused after the end changed the state"
    # With two kinds of step or more, some step is of another kind than the one awaited; a game of one
    # kind (Connect Four's drops) may end before any earlier step turns illegal.
    assert refused > 0 or len(seen) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_the_recorded_steps_re_simulate_the_game(plugin: GamePlugin, seed: int) -> None:
    replayed = plugin.new_state(_players(plugin, seed), {})
    for state, step in _walk(plugin, seed):
        assert replayed.to_json() == state.to_json()
        replayed.apply(plugin.step_from_json(json.loads(json.dumps(plugin.step_to_json(step)))))
    assert replayed.is_terminal()


@pytest.mark.parametrize("seed", SEEDS)
def test_every_decision_crosses_the_wire_and_back(plugin: GamePlugin, seed: int) -> None:
    """Requests from observations, decoded as a bot would; replies encoded and decoded to the same action."""
    counts: dict[int, int] = {}
    for state, step in _walk(plugin, seed):
        if state.is_chance_node():
            continue
        seat = state.current_player
        counts[seat] = counts.get(seat, 0) + 1
        spec = plugin.decisions[plugin.decision_kind(state)]
        request = spec.encode_request(plugin.observe(state, seat), _context(seat, counts[seat]))
        assert isinstance(request, spec.request_type)
        received = spec.request_type.FromString(request.SerializeToString())
        answer = plugin.random_action(spec.decode_request(received), random.Random(counts[seat]))
        trial = state.clone()
        trial.apply(answer)  # what the bot works out from the wire is legal
        reply = spec.reply_type.FromString(spec.encode_reply(step, counts[seat]).SerializeToString())
        assert getattr(reply, "decision_id", None) == counts[seat]
        assert spec.decode_reply(reply) == step
        default = plugin.default_action(state)
        assert default == plugin.default_action(state.clone()), "the safe default must be deterministic"
        state.clone().apply(default)


@pytest.mark.parametrize("seed", SEEDS)
def test_secrecy_a_seat_cannot_tell_states_that_differ_in_what_it_may_not_see(
    plugin: GamePlugin, seed: int
) -> None:
    rng = random.Random(seed)
    for number, (state, _) in enumerate(_walk(plugin, seed)):
        if number % 3:
            continue
        players = len(state.scores())
        for seat in range(players):
            twin = plugin.resample_hidden(state, seat, rng)
            assert plugin.observe(twin, seat) == plugin.observe(state, seat)
            if not state.is_chance_node() and state.current_player == seat:
                spec = plugin.decisions[plugin.decision_kind(state)]
                context = _context(seat, 1)
                mine = spec.encode_request(plugin.observe(state, seat), context).SerializeToString()
                theirs = spec.encode_request(plugin.observe(twin, seat), context).SerializeToString()
                assert mine == theirs
                assert plugin.decision_kind(twin) == plugin.decision_kind(state)


@pytest.mark.parametrize("seed", SEEDS)
def test_seats_asked_together_can_all_answer_from_the_same_position(plugin: GamePlugin, seed: int) -> None:
    """Simultaneous decisions: every seat of a group is asked from the group's first position; what
    it works out from that request is legal when the engine reaches it, whatever the seats before it
    chose, and the kind asked is the kind due."""
    rng = random.Random(seed)
    for state, _ in _walk(plugin, seed):
        if state.is_chance_node():
            continue
        group = plugin.deciding_seats(state)
        assert group and group[0] == state.current_player and len(set(group)) == len(group)
        assert all(0 <= seat < len(state.scores()) for seat in group)
        if len(group) == 1:
            continue
        kind = plugin.decision_kind(state)
        spec = plugin.decisions[kind]
        requests = {
            seat: spec.request_type.FromString(
                spec.encode_request(plugin.observe(state, seat), _context(seat, 1)).SerializeToString()
            )
            for seat in group
        }
        trial = state.clone()
        for seat in group:
            assert not trial.is_chance_node() and trial.current_player == seat
            assert plugin.decision_kind(trial) == kind
            trial.apply(plugin.random_action(spec.decode_request(requests[seat]), rng))


def unseen_decisions(plugin: GamePlugin, seed: int) -> Iterator[tuple[int, Any, Any]]:
    """(seat, its observation before, after) around each decision of another seat that the seat learns
    nothing of (``describe`` gives None), after which the same kind of decision is due of someone
    else again: e.g. one seat after another declining to react, unseen by the rest."""
    for state, step in _walk(plugin, seed):
        if state.is_chance_node():
            continue
        after = state.clone()
        after.apply(step)
        if after.is_terminal() or after.is_chance_node():
            continue
        if plugin.decision_kind(after) != plugin.decision_kind(state):
            continue
        deciding = {*plugin.deciding_seats(state), *plugin.deciding_seats(after)}
        for seat in range(len(state.scores())):
            if seat not in deciding and plugin.describe(state, step, seat) is None:
                yield seat, plugin.observe(state, seat), plugin.observe(after, seat)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seat_sees_nothing_of_decisions_it_does_not_learn_of(plugin: GamePlugin, seed: int) -> None:
    """Every seat at every moment, not only the deciding one: while others are asked in turn about
    something hidden from it (who is asked included), its observation stays as it was."""
    for seat, before, after in unseen_decisions(plugin, seed):
        assert before == after, f"seat {seat} saw a decision it learns nothing of"


def test_the_unseen_decisions_property_has_cases_to_check() -> None:
    """Its first case: seats asked one after another whether to reveal protection (Cities, C12)."""
    assert sum(1 for name in GAMES for seed in SEEDS for _ in unseen_decisions(get_game(name), seed)) > 0


def test_the_example_game_asks_its_bids_together() -> None:
    """The property above has something to check: blind bids are simultaneous decisions."""
    plugin = get_game("blind_auction")
    groups = [
        plugin.deciding_seats(state)
        for state, _ in _walk(plugin, 1)
        if not state.is_chance_node() and plugin.decision_kind(state) == "bid"
    ]
    assert any(len(group) == _players(plugin, 1) for group in groups)


def test_the_secrecy_check_catches_a_leak() -> None:
    """The property has teeth: an observation that showed another seat's pending bid would fail it."""
    plugin = get_game("blind_auction")
    rng = random.Random(3)
    leaks = 0
    for state, _ in _walk(plugin, 3):
        if state.is_chance_node():
            continue
        for seat in range(len(state.scores())):
            twin = plugin.resample_hidden(state, seat, rng)
            if twin.to_json()["bids"] != state.to_json()["bids"]:
                leaks += 1  # a view including everyone's bids would now differ
    assert leaks > 0


def _redrawn(plugin: GamePlugin, state: GameState, rng: random.Random) -> Iterator[tuple[str, GameState]]:
    """States a spectator must not tell from ``state``: each seat's hidden information redrawn, and
    (where the game determinizes) a full state dealt from each seat's observation."""
    determinize = getattr(plugin, "determinize", None)
    for seat in range(len(state.scores())):
        yield f"seat {seat}'s secrets redrawn", plugin.resample_hidden(state, seat, rng)
        if determinize is not None and not state.is_terminal() and not state.is_chance_node():
            yield f"dealt from seat {seat}'s observation", determinize(plugin.observe(state, seat), rng)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_spectator_view_holds_only_what_every_seat_may_know(plugin: GamePlugin, seed: int) -> None:
    """A match in progress is shown to the public as a spectator sees it: no hand, deck order, hidden
    card or pending choice, so it stays the same whatever any seat's secrets are."""
    rng = random.Random(seed)
    for number, (state, step) in enumerate(_walk(plugin, seed)):
        if number % 3:
            continue
        shown = plugin.spectator_view(state)
        assert json.loads(json.dumps(shown)) == shown
        for how, twin in _redrawn(plugin, state, rng):
            assert plugin.spectator_view(twin) == shown, f"step {number}: the spectator view changed: {how}"
        text = plugin.spectator_describe(state, step)
        told = [plugin.describe(state, step, seat) for seat in range(len(state.scores()))]
        assert text is None or text in told or "hidden" in text
        assert text is not None or None in told, "a step every seat learns of is shown to spectators"


def test_the_spectator_view_check_catches_a_leak() -> None:
    """The property has teeth: a spectator shown the organiser's view would see redrawn hands change."""
    plugin = get_game("blind_auction")
    rng = random.Random(5)
    leaks = sum(
        plugin.view(plugin.resample_hidden(state, seat, rng), None) != plugin.view(state, None)
        for number, (state, _) in enumerate(_walk(plugin, 5))
        for seat in range(len(state.scores()))
        if number % 3 == 0
    )
    assert leaks > 0


def test_a_spectator_is_shown_the_public_part_of_the_position() -> None:
    """The default spectator view keeps what every seat is shown alike, not just nothing."""
    plugin = get_game("blind_auction")
    state = plugin.new_state(2, {})
    shown = plugin.spectator_view(state)
    assert shown["scores"] == [0, 0] and shown["hands"] == [None, None]
