"""Steps and hands in words: cards by their readable names, the house die's free face as "any colour"."""

from __future__ import annotations

import random
import re

from sdk.games.masons.actions import Roll
from sdk.games.masons.cards import ANY_COLOUR, CARD_BY_NAME, CARDS
from sdk.games.masons.plugin import PLUGIN
from sdk.games.masons.state import State
from sdk.games.masons.view import card_title, describe, view
from sdk.games.play import RandomPolicy

RAW_ID = re.compile("|".join(re.escape(card.name) for card in sorted(CARDS, key=lambda c: -len(c.name))))


def test_every_card_has_words_of_its_own() -> None:
    titles = [card_title(k) for k in range(len(CARDS))]
    assert len(set(titles)) == len(CARDS) and not any("_" in title for title in titles)
    assert card_title(CARD_BY_NAME["land_tower_grey"]) == "Land: grey towers"
    assert card_title(CARD_BY_NAME["city_colour_pink"]) == "City: pink houses"


def test_no_step_or_hand_shows_a_raw_card_id_or_a_question_mark() -> None:
    rng = random.Random(7)
    for seed in range(3):
        state: State = PLUGIN.new_state(3, {})
        policies = [RandomPolicy(random.Random(seed * 10 + seat)) for seat in range(3)]
        texts: list[str] = []
        while not state.is_terminal():
            chance = state.is_chance_node()
            step = state.sample_chance(rng) if chance else policies[state.current_player](state)
            texts.append(describe(state, step) or "")
            state.apply(step)
        hands = [card["title"] for seat in view(state)["seats"] for card in seat["hand"]]
        assert not [text for text in texts + hands if RAW_ID.search(text) or "?" in text]
        assert any(text.startswith("plays ") for text in texts)


def test_the_free_face_of_a_house_die_is_any_colour() -> None:
    state: State = PLUGIN.new_state(2, {})
    assert describe(state, Roll(0, (ANY_COLOUR, 1))) == "rolls a black tower, any colour and green houses"
