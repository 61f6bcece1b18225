"""Independent checks of Cities states and steps, for the property tests.

The card counts per size are recomputed here from C1/C3 with this module's own
code, so a mistake in the engine's tables cannot hide behind itself. Every check
raises ``AssertionError`` naming what broke.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from sdk.games import cities as ci
from sdk.games.cities.plays import nth_play, play_counts

E = ci.EventType
Emp = ci.Empire

#: C3, written out again: empires in play and neutral cities per size.
SIZES_REF: dict[str, tuple[set[int], bool]] = {
    "full": (set(range(8)), True),
    "regular": ({0, 1, 2, 3, 4, 5}, True),
    "fast": ({0, 1, 3, 4}, True),
    "very-short": ({1, 3, 4}, False),
}
#: The two empires (by discipline index) each Economic crisis names.
CRISIS_REF = {
    E.ECONOMIC_CRISIS_METALLURGY_ARMY: (5, 0),
    E.ECONOMIC_CRISIS_ENGINEERING_CULTURE: (7, 1),
    E.ECONOMIC_CRISIS_AGRICULTURE_SEAFARING: (3, 2),
    E.ECONOMIC_CRISIS_SLAVERY_FINANCES: (4, 6),
}
#: C1: copies of the event kinds printed more than once.
COPIES_REF = {
    E.UNIFICATION: 4,
    E.ATTACK: 6,
    E.TRADE: 4,
    E.EDUCATION: 3,
    E.CURSE: 3,
    E.UNREST: 2,
    E.PROTECTION: 2,
    E.VICTORY: 2,
    E.REBELLION: 2,
    E.BARBARIANS: 2,
    E.UNCOVERING_EXCAVATIONS: 2,
    E.ESPIONAGE: 2,
}


def cities_ref(size: str) -> set[int]:
    empires, neutral = SIZES_REF[size]
    return {c for c in range(54) if (c < 48 and c // 6 in empires) or (c >= 48 and neutral)}


def events_ref(size: str) -> Counter[int]:
    """Copies per kind in play for ``size`` (C1, C3)."""
    empires, _ = SIZES_REF[size]
    counts: Counter[int] = Counter()
    for ev in E:
        if ev.name.startswith("COMMANDER_") and ev - E.COMMANDER_ROME not in empires:
            continue
        if ev.name.startswith("ANGER_") and ev - E.ANGER_ROME not in empires:
            continue
        if ev in CRISIS_REF and not set(CRISIS_REF[ev]) & empires:
            continue
        counts[int(ev)] = COPIES_REF.get(ev, 1)
    return counts


def bits(mask: int) -> set[int]:
    return {i for i in range(mask.bit_length()) if mask >> i & 1}


def check_state(state: ci.State) -> None:
    """Conservation of cards, scores, counters, and a decision with something to decide."""
    size = state.params.size
    places: list[set[int]] = (
        [set(state.city_deck)] + [bits(h) for h in state.held] + [bits(d) for d in state.done]
    )
    assert len(state.city_deck) == len(places[0]), "a city twice in the deck"
    union: set[int] = set()
    for place in places:
        assert not union & place, f"cities {union & place} are in two places"
        union |= place
    assert union == cities_ref(size), f"cities missing or extra: {union ^ cities_ref(size)}"
    for done in state.done:
        for e in range(8):
            part = bits(done) & set(range(6 * e, 6 * e + 6))
            assert len(part) in (0, 6), "a completed empire is not whole"
    events: Counter[int] = Counter(state.event_deck)
    for seat in range(state.n):
        assert all(count >= 0 for count in state.hands[seat]), "a negative hand"
        assert sum(state.hands[seat]) == state.hand_sizes[seat], "hand size out of step"
        events.update({ev: count for ev, count in enumerate(state.hands[seat]) if count})
        events.update({ev: count for ev, count in enumerate(state.face_down[seat]) if count})
    for record in state.log:
        events[int(record.play.event)] += 1
        events.update(int(card) for _, card in record.revealed)
    if state.ev >= 0:
        events[state.ev] += 1
        events.update(card for _, card in state.reveals)
    assert +events == events_ref(size), (
        f"events not conserved: {(events - events_ref(size)) or (events_ref(size) - events)}"
    )
    expected = [len(bits(d)) // 6 + (5 if seat == state.wonders else 0) for seat, d in enumerate(state.done)]
    assert state.scores() == expected, "score is not empires + wonders bonus"
    assert len(state.ranks()) == state.n and min(state.ranks()) == 1
    player = state.current_player
    if state.is_terminal():
        assert player == ci.TERMINAL and state.decision is None and state.legal_actions() == []
    elif state.is_chance_node():
        assert player == ci.CHANCE and state.decision is None
    else:
        assert 0 <= player < state.n and state.decision is not None
        legal = state.legal_actions()
        assert legal, f"no legal action at {state!r}"
        assert len(set(legal)) == len(legal), "legal_actions repeats an action"
        if state.decision == ci.Decision.PLAY:
            assert legal[0] == ci.Pass() and len(legal) > 1, "a play decision with only Pass was asked"
        if state.decision == ci.Decision.REACT:
            assert legal[0] == ci.React(None) and len(legal) > 1


def check_round_trips(state: ci.State, step: ci.Step) -> None:
    """State and step survive JSON exactly."""
    data = json.loads(json.dumps(state.to_json()))
    again = ci.State.from_json(data)
    assert again == state and again.to_json() == state.to_json(), "state JSON round trip differs"
    assert ci.step_from_json(json.loads(json.dumps(ci.step_to_json(step)))) == step


def check_clone_independent(state: ci.State, step: ci.Step) -> None:
    """A clone moves on alone; apply and apply_unchecked agree."""
    before = state.to_json()
    copy, fast = state.clone(), state.clone()
    copy.apply(step)
    fast.apply_unchecked(step)
    assert copy.to_json() == fast.to_json(), "apply and apply_unchecked differ"
    assert state.to_json() == before, "applying to a clone changed the original"


def candidates(state: ci.State, rng: random.Random, count: int) -> list[ci.Action]:
    """Random actions of the pending kind, legal or not, to compare apply with legal_actions."""
    seat = state.current_player
    found: list[ci.Action] = []
    kinds = [ev for ev in E if state.hands[seat][ev]] or list(E)
    for _ in range(count):
        roll = rng.random()
        if roll < 0.6:
            found.append(
                ci.Play(
                    rng.choice(kinds),
                    target=rng.choice([None, rng.randrange(state.n)]),
                    side=rng.choice([None, ci.Side.WEST, ci.Side.EAST]),
                    empire=rng.choice([None, *Emp]) if rng.random() < 0.3 else None,
                    education=rng.choice([None, *ci.EducationMode]),
                    take_city=rng.choice([None, rng.randrange(54)]),
                    give_city=rng.choice([None, rng.randrange(54)]) if rng.random() < 0.4 else None,
                    returns=tuple(rng.choice(kinds) for _ in range(rng.randrange(3))),
                )
            )
        elif roll < 0.75:
            found.append(ci.GiveCity(rng.randrange(54)))
        elif roll < 0.85:
            found.append(ci.GiveEvent(rng.choice(list(E))))
        elif roll < 0.95:
            found.append(ci.React(rng.choice([None, *ci.PROTECTIONS, *kinds])))
        else:
            other: list[ci.Action] = [ci.Pass(), ci.Exchange(True), ci.Draw(ci.Deck.CITY)]
            found.append(rng.choice(other))
    return found


def check_legality(state: ci.State, rng: random.Random) -> None:
    """Every listed action applies; a random candidate applies exactly when it is listed."""
    legal = state.legal_actions()
    listed = set(legal)
    snapshot = state.to_json()
    for action in legal if len(legal) <= 60 else rng.sample(legal, 60):
        state.clone().apply(action)
    for candidate in candidates(state, rng, 25):
        trial = state.clone()
        try:
            trial.apply(candidate)
            accepted = True
        except ci.IllegalActionError as exc:
            accepted = False
            assert exc.rule.startswith("C"), exc.rule
            assert trial.to_json() == snapshot, f"refusing {candidate!r} changed the state"
        assert accepted == (candidate in listed), (
            f"{candidate!r}: accepted={accepted}, listed={candidate in listed}"
        )
    for _ in range(5):
        assert state.sample_action(rng) in listed
    if state.decision == ci.Decision.PLAY:
        seat = state.current_player
        decoded = [
            nth_play(state, seat, ev, k)
            for ev, count in play_counts(state, seat)
            for k in range(count)
        ]
        assert len(set(decoded)) == len(decoded) == len(legal) - 1, "the sampler's decoding is not one-to-one"
        assert set(decoded) == listed - {ci.Pass()}, (
            "the sampler decodes other plays than legal_actions lists"
        )
