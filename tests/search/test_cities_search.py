"""The Cities search bot: legal, reproducible under a seed and its deal budget, blind to secrets."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from benchmarks.cities_information import Truth, play_mode
from benchmarks.search_strength import Game
from bots.cities import CitiesHeuristicBot
from bots.cities.search import CitiesSearchBot
from sdk.games import cities as ci
from sdk.games.decisions import DecisionContext
from sdk.games.registry import get_game

PLUGIN = get_game("cities")


def _context(seat: int, decision: int, match: str = "m") -> DecisionContext:
    return DecisionContext(match, decision, seat, 1000, 0, "cities")


def _decisions(players: int, seed: int) -> Iterator[tuple[ci.State, int]]:
    """Every decision of a game the heuristic plays in all seats: the true state and who decides."""
    heuristic = CitiesHeuristicBot()
    rng = random.Random(seed)
    state: ci.State = PLUGIN.new_state(players, {})  # type: ignore[assignment]
    asked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player
        yield state, seat
        asked += 1
        kind = PLUGIN.decision_kind(state)
        state.apply(heuristic.decide(kind, PLUGIN.observe(state, seat), _context(seat, asked)))


def _play_decisions(players: int, seed: int, every: int) -> list[tuple[ci.State, int]]:
    """Some play decisions with a real choice, spread over a whole game."""
    found = [
        (state.clone(), seat)
        for state, seat in _decisions(players, seed)
        if state.decision == ci.Decision.PLAY and len(state.legal_actions()) > 2
    ]
    return found[::every]


def _reproducible_bot() -> CitiesSearchBot:
    """The default bot with no time limit in practice: its deal budget alone ends each search."""
    return CitiesSearchBot(seconds=60.0)


def test_the_search_bot_answers_every_decision_of_a_game_legally() -> None:
    bot = CitiesSearchBot()
    for players, seed in ((2, 1), (4, 2)):
        for asked, (state, seat) in enumerate(_decisions(players, seed)):
            if asked % 3:
                continue
            action = bot.decide(
                PLUGIN.decision_kind(state), PLUGIN.observe(state, seat), _context(seat, asked)
            )
            assert action in state.legal_actions()


def test_a_seed_and_the_deal_budget_give_the_same_answer() -> None:
    positions = _play_decisions(2, 3, every=6)
    assert len(positions) >= 3
    for asked, (state, seat) in enumerate(positions):
        observation = PLUGIN.observe(state, seat)
        answers = {
            repr(_reproducible_bot().decide("play", observation, _context(seat, asked))) for _ in range(2)
        }
        assert len(answers) == 1


def test_the_search_sometimes_overrules_the_heuristic() -> None:
    """The search is not the heuristic under another name: over a game some answers differ."""
    bot = _reproducible_bot()
    heuristic = CitiesHeuristicBot()
    differ = 0
    for asked, (state, seat) in enumerate(_play_decisions(2, 4, every=1)):
        observation = PLUGIN.observe(state, seat)
        context = _context(seat, asked)
        differ += bot.decide("play", observation, context) != heuristic.decide("play", observation, context)
    assert differ > 0


def test_the_search_bot_never_reads_what_the_seat_may_not_see() -> None:
    """Two true states the seat cannot tell apart (the hidden part poisoned: redrawn) get the same answer."""
    bot = _reproducible_bot()
    for seed, (state, seat) in enumerate(_play_decisions(2, 5, every=5)):
        poisoned = PLUGIN.resample_hidden(state, seat, random.Random(seed + 1000))
        observation = PLUGIN.observe(state, seat)
        assert PLUGIN.observe(poisoned, seat) == observation
        assert poisoned.to_json() != state.to_json()  # the poison changed something hidden
        answers = [
            bot.decide("play", PLUGIN.observe(truth, seat), _context(seat, seed))
            for truth in (state, poisoned)
        ]
        assert answers[0] == answers[1]


def test_the_information_harness_deals_at_random_or_hands_over_the_truth() -> None:
    """benchmarks/cities_information.py: ``dealt`` is the bot's own deal, ``hands`` the true hands with
    both decks reshuffled, ``all`` the true state; a game played with the truth runs to its end."""
    state, seat = _play_decisions(2, 5, 1)[10]
    obs = PLUGIN.observe(state, seat)
    rival = 1 - seat
    dealt, hands, everything = (Truth(mode) for mode in ("dealt", "hands", "all"))
    for truth in (dealt, hands, everything):
        truth.show(state)
    random_deal = ci.determinize(obs, random.Random(3))
    assert dealt.deal(obs, random.Random(3)).hands == random_deal.hands
    shown = hands.deal(obs, random.Random(3))
    assert shown.hands[rival] == state.hands[rival]
    assert Counter(shown.event_deck) == Counter(state.event_deck)
    assert Counter(shown.city_deck) == Counter(state.city_deck)
    assert (shown.event_deck, shown.city_deck) != (state.event_deck, state.city_deck)
    whole = everything.deal(obs, random.Random(3))
    assert whole.hands == state.hands
    assert (whole.event_deck, whole.city_deck) == (state.event_deck, state.city_deck)
    assert whole is not state
    result = play_mode("all", Game("cities", "search", 2, 0, 11, 0))
    assert result.ranks and result.times_ms
