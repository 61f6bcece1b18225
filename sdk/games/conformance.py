"""The game contract's conformance checks as plain functions, so the test suite and a command that
admits a family's games run the same code. Each check plays seeded
random games and raises :class:`AssertionError` saying what broke; it returns nothing on success.

They follow the random-simulation tests of game libraries and PettingZoo's API test: random play to the end,
JSON round trips at every step, clone independence, illegal steps refused with their rule named and
the state unchanged, re-simulation from the recorded steps, every decision's codecs, the secrecy
property (a state that differs only in what seat p cannot see gives p the same observation and the
same request), simultaneous decisions, and the spectator view."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from sdk.games.decisions import DecisionContext
from sdk.games.errors import IllegalActionError
from sdk.games.plugin import GamePlugin, GameState

MAX_STEPS = 100_000

Params = Mapping[str, Any]


def players_for(plugin: GamePlugin, seed: int) -> int:
    """The table size a seed plays at: every size from the least to the most, in turn."""
    return plugin.min_players + seed % (plugin.max_players - plugin.min_players + 1)


def context(seat: int, decision_id: int) -> DecisionContext:
    return DecisionContext("conformance", decision_id, seat, 1000, 10_000)


def walk(plugin: GamePlugin, seed: int, players: int, params: Params) -> Iterator[tuple[GameState, Any]]:
    """A random game, yielding each state with the step about to be applied to it."""
    rng = random.Random(seed)
    state = plugin.new_state(players, params)
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


def _refused(state: GameState, step: Any, what: str) -> None:
    """``step`` must be refused naming its rule, the state unchanged."""
    before = state.to_json()
    try:
        state.apply(step)
    except IllegalActionError as error:
        assert error.rule.strip(), "the error must name the broken rule"
    else:
        raise AssertionError(f"{what} was accepted")
    assert state.to_json() == before, f"{what}, refused, changed the state"


def check_random_play(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    """Random play ends with a score and a rank per seat; ties in score may be broken, never reversed."""
    kinds_seen: set[str] = set()
    state: GameState | None = None
    for state, _ in walk(plugin, seed, players, params):
        if not state.is_chance_node():
            assert 0 <= state.current_player < players, f"player {state.current_player} of {players}"
            kinds_seen.add(plugin.decision_kind(state))
    final = plugin.new_state(players, params) if state is None else state
    assert kinds_seen <= set(plugin.decisions.kinds), f"undeclared decision kinds {kinds_seen}"
    assert final.is_terminal()
    scores, ranks = final.scores(), final.ranks()
    counts = f"{len(scores)} scores and {len(ranks)} ranks at {players} seats"
    assert len(scores) == len(ranks) == players, counts
    for seat in range(players):
        better = sum(other > scores[seat] for other in scores)
        worse = sum(other < scores[seat] for other in scores)
        assert 1 + better <= ranks[seat] <= players - worse, f"ranks {ranks} reverse scores {scores}"


def check_json_round_trips(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    for state, step in walk(plugin, seed, players, params):
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data, "a state's JSON does not round-trip"
        assert plugin.state_from_json(json.loads(json.dumps(data))).to_json() == data
        encoded = plugin.step_to_json(step)
        assert plugin.step_from_json(json.loads(json.dumps(encoded))) == step, f"step {step!r}"


def check_clone_independent(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    for number, (state, step) in enumerate(walk(plugin, seed, players, params)):
        if number % 7:
            continue
        before = state.to_json()
        copy = state.clone()
        copy.apply(step)
        assert state.to_json() == before, "applying a step to a clone changed the original"


def check_illegal_refused(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    """A step of another kind than the one awaited, one legal earlier but not now, or any step once
    the game is over, is refused naming its rule and changes nothing."""
    seen: dict[str, Any] = {}
    refused = 0
    state: GameState | None = None
    step: Any = None
    for state, step in walk(plugin, seed, players, params):
        pending = "chance" if state.is_chance_node() else plugin.decision_kind(state)
        legal = None if state.is_chance_node() else state.legal_actions()
        for kind, other in list(seen.items()):
            if kind == pending and (legal is None or other in legal):
                continue
            _refused(state, other, f"an illegal {kind} step {other!r}")
            refused += 1
        seen[pending] = step
    assert state is not None and state.is_terminal()
    _refused(state, step, "a step after the end")
    # With two kinds of step or more, some step is of another kind than the one awaited; a game of one
    # kind (dropping a disc, say) may end before any earlier step turns illegal.
    assert refused > 0 or len(seen) == 1, "no illegal step was tried"


def check_resimulation(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    replayed = plugin.new_state(players, params)
    for state, step in walk(plugin, seed, players, params):
        assert replayed.to_json() == state.to_json(), "re-simulating the recorded steps diverged"
        replayed.apply(plugin.step_from_json(json.loads(json.dumps(plugin.step_to_json(step)))))
    assert replayed.is_terminal()


def check_wire(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    """Requests from observations, decoded as a bot would; replies encoded and decoded to the same action;
    the safe default is deterministic and legal."""
    counts: dict[int, int] = {}
    for state, step in walk(plugin, seed, players, params):
        if state.is_chance_node():
            continue
        seat = state.current_player
        counts[seat] = counts.get(seat, 0) + 1
        spec = plugin.decisions[plugin.decision_kind(state)]
        request = spec.encode_request(plugin.observe(state, seat), context(seat, counts[seat]))
        assert isinstance(request, spec.request_type)
        received = spec.request_type.FromString(request.SerializeToString())
        answer = plugin.random_action(spec.decode_request(received), random.Random(counts[seat]))
        trial = state.clone()
        trial.apply(answer)  # what the bot works out from the wire is legal
        reply = spec.reply_type.FromString(spec.encode_reply(step, counts[seat]).SerializeToString())
        assert getattr(reply, "decision_id", None) == counts[seat]
        assert spec.decode_reply(reply) == step, "a reply does not decode to the step it encodes"
        default = plugin.default_action(state)
        assert default == plugin.default_action(state.clone()), "the safe default must be deterministic"
        state.clone().apply(default)


def check_secrecy(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    """A seat cannot tell states that differ in what it may not see: same observation, same request."""
    rng = random.Random(seed)
    for number, (state, _) in enumerate(walk(plugin, seed, players, params)):
        if number % 3:
            continue
        for seat in range(players):
            twin = plugin.resample_hidden(state, seat, rng)
            assert plugin.observe(twin, seat) == plugin.observe(state, seat), f"step {number}, seat {seat}"
            if not state.is_chance_node() and state.current_player == seat:
                spec = plugin.decisions[plugin.decision_kind(state)]
                mine = spec.encode_request(plugin.observe(state, seat), context(seat, 1)).SerializeToString()
                theirs = spec.encode_request(plugin.observe(twin, seat), context(seat, 1)).SerializeToString()
                assert mine == theirs, f"step {number}: seat {seat}'s request tells hidden state apart"
                assert plugin.decision_kind(twin) == plugin.decision_kind(state)


def check_simultaneous(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    """Every seat of a group is asked from the group's first position; what it works out from that
    request is legal when the engine reaches it, whatever the seats before it chose."""
    rng = random.Random(seed)
    for state, _ in walk(plugin, seed, players, params):
        if state.is_chance_node():
            continue
        group = plugin.deciding_seats(state)
        assert group and group[0] == state.current_player and len(set(group)) == len(group), f"{group}"
        assert all(0 <= seat < players for seat in group)
        if len(group) == 1:
            continue
        kind = plugin.decision_kind(state)
        spec = plugin.decisions[kind]
        requests = {
            seat: spec.request_type.FromString(
                spec.encode_request(plugin.observe(state, seat), context(seat, 1)).SerializeToString()
            )
            for seat in group
        }
        trial = state.clone()
        for seat in group:
            assert not trial.is_chance_node() and trial.current_player == seat
            assert plugin.decision_kind(trial) == kind
            trial.apply(plugin.random_action(spec.decode_request(requests[seat]), rng))


def unseen_decisions(
    plugin: GamePlugin, seed: int, players: int, params: Params
) -> Iterator[tuple[int, Any, Any]]:
    """(seat, its observation before, after) around each decision of another seat that the seat learns
    nothing of (``describe`` gives None), after which the same kind of decision is due of someone
    else again: e.g. one seat after another declining to react, unseen by the rest."""
    for state, step in walk(plugin, seed, players, params):
        if state.is_chance_node():
            continue
        after = state.clone()
        after.apply(step)
        if after.is_terminal() or after.is_chance_node():
            continue
        if plugin.decision_kind(after) != plugin.decision_kind(state):
            continue
        deciding = {*plugin.deciding_seats(state), *plugin.deciding_seats(after)}
        for seat in range(players):
            if seat not in deciding and plugin.describe(state, step, seat) is None:
                yield seat, plugin.observe(state, seat), plugin.observe(after, seat)


def check_unseen_decisions(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    """While others are asked in turn about something hidden from a seat, its observation stays."""
    for seat, before, after in unseen_decisions(plugin, seed, players, params):
        assert before == after, f"seat {seat} saw a decision it learns nothing of"


def redrawn(plugin: GamePlugin, state: GameState, rng: random.Random) -> Iterator[tuple[str, GameState]]:
    """States a spectator must not tell from ``state``: each seat's hidden information redrawn, and
    (where the game determinizes) a full state dealt from each seat's observation."""
    determinize = getattr(plugin, "determinize", None)
    for seat in range(len(state.scores())):
        yield f"seat {seat}'s secrets redrawn", plugin.resample_hidden(state, seat, rng)
        if determinize is not None and not state.is_terminal() and not state.is_chance_node():
            yield f"dealt from seat {seat}'s observation", determinize(plugin.observe(state, seat), rng)


def check_spectator_view(plugin: GamePlugin, seed: int, players: int, params: Params) -> None:
    """The public is shown no hand, deck order, hidden card or pending choice: the spectator view stays
    the same whatever any seat's secrets are."""
    rng = random.Random(seed)
    for number, (state, step) in enumerate(walk(plugin, seed, players, params)):
        if number % 3:
            continue
        shown = plugin.spectator_view(state)
        assert json.loads(json.dumps(shown)) == shown
        for how, twin in redrawn(plugin, state, rng):
            assert plugin.spectator_view(twin) == shown, f"step {number}: the spectator view changed: {how}"
        text = plugin.spectator_describe(state, step)
        told = [plugin.describe(state, step, seat) for seat in range(players)]
        assert text is None or text in told or "hidden" in text, f"step {number}: spectators told {text!r}"
        assert text is not None or None in told, "a step every seat learns of is shown to spectators"


Check = Callable[[GamePlugin, int, int, Params], None]

#: Every check, by the name a report gives it.
CHECKS: dict[str, Check] = {
    "random play": check_random_play,
    "JSON round trips": check_json_round_trips,
    "clone independence": check_clone_independent,
    "illegal steps refused": check_illegal_refused,
    "re-simulation": check_resimulation,
    "codecs": check_wire,
    "secrecy": check_secrecy,
    "simultaneous decisions": check_simultaneous,
    "unseen decisions": check_unseen_decisions,
    "spectator view": check_spectator_view,
}
