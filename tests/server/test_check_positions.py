"""The positions ``smtourney bot check`` plays: each decision once, its label naming every reason it
was chosen, and forced choices found from the engine however a game's requests list the options."""

from __future__ import annotations

import json

import pytest

from sdk.games.registry import games
from server.bot_check import with_article
from server.check_positions import FORCED, positions


@pytest.mark.parametrize("name", sorted(games()))
def test_each_position_is_played_once_with_all_its_reasons(name: str) -> None:
    plugin = games()[name]
    found = positions(plugin)
    seen = {
        (p.players, p.seat, p.decision_id, json.dumps(p.state.to_json(), sort_keys=True, default=str))
        for p in found
    }
    assert len(seen) == len(found), [p.label for p in found]
    for position in found:
        reasons = position.label.split("; ")
        assert len(set(reasons)) == len(reasons) and all(reasons), position.label
    first = {plugin.decision_kind(p.state) for p in found if "the first position" in p.label}
    assert first == set(plugin.decisions.kinds)


def test_a_forced_choice_is_found_from_the_engine_when_the_request_does_not_show_it() -> None:
    forced = [p for plugin in games().values() for p in positions(plugin) if FORCED in p.label]
    assert forced, "no installed game shows a forced choice the requests do not list"
    assert all(len(p.state.legal_actions()) == 1 for p in forced)


def test_a_message_name_takes_the_article_a_reader_expects() -> None:
    assert with_article("AdvanceReputationReply") == "an AdvanceReputationReply"
    assert with_article("PlaceReply") == "a PlaceReply"
    assert with_article("ExchangeReply") == "an ExchangeReply"


def test_players_checks_tables_of_that_size_only() -> None:
    plugin = games()["saint_malo"]
    assert {p.players for p in positions(plugin)} == {plugin.min_players, plugin.max_players}
    only = positions(plugin, players=3)
    assert only and {p.players for p in only} == {3}
    assert {plugin.decision_kind(p.state) for p in only if "the first position" in p.label} == set(
        plugin.decisions.kinds
    )
