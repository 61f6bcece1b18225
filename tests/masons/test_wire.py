"""Masons on the wire: observations and every reply kind round trip; malformed replies are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from sdk.games.decisions import DecisionContext, MalformedReplyError
from sdk.games.masons.actions import Connect, FinalScore, Houses, Score, Swap, Towers, Wall
from sdk.games.masons.cards import CARDS
from sdk.games.masons.decisions import DECISIONS
from sdk.games.masons.observation import observe
from sdk.games.masons.protocol import masons_pb2 as pb
from sdk.games.masons.wire import decode_observation, encode_observation

from .positions import scoring_example
from .walk import walk


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_every_observation_round_trips(seed: int, players: int) -> None:
    for number, (state, _) in enumerate(walk(seed, players)):
        if number % 5:
            continue
        for seat in range(players):
            o = observe(state, seat)
            wire = pb.Observation.FromString(encode_observation(o).SerializeToString())
            assert decode_observation(wire) == o


def test_a_full_board_round_trips() -> None:
    state = scoring_example()
    state.roll = (2, 5, 0)
    o = observe(state, 3)
    assert decode_observation(pb.Observation.FromString(encode_observation(o).SerializeToString())) == o


@pytest.mark.parametrize(
    ("kind", "action"),
    [
        ("wall", Wall(0)),
        ("wall", Wall(81)),
        ("towers", Towers((-1, 0))),
        ("towers", Towers((2, 1))),
        ("houses", Houses((4,))),
        ("houses", Houses((0, -1))),
        ("connect_city", Connect(None)),
        ("connect_city", Connect(0)),
        ("score_cards", Score((0, 0))),
        ("score_cards", Score((27,), discard=True)),
        ("swap", Swap(())),
        ("swap", Swap((1, 1, 5))),
        ("final_score", FinalScore(None, ())),
        ("final_score", FinalScore(0, (3, 4))),
        ("final_score", FinalScore(None, (26,))),
    ],
)
def test_every_kind_of_action_round_trips(kind: str, action: object) -> None:
    spec = DECISIONS[kind]
    reply = spec.reply_type.FromString(spec.encode_reply(action, 7).SerializeToString())
    assert reply.decision_id == 7  # type: ignore[attr-defined]
    assert spec.decode_reply(reply) == action


@pytest.mark.parametrize(
    ("kind", "reply", "field"),
    [
        ("wall", pb.WallReply(decision_id=1), "line"),
        ("wall", pb.WallReply(decision_id=1, line=82), "line 82"),
        ("towers", pb.TowersReply(decision_id=1, colours=[0]), "colours"),
        ("houses", pb.HousesReply(decision_id=1), "colours"),
        ("connect_city", pb.ConnectCityReply(decision_id=1), "alone"),
        ("score_cards", pb.ScoreCardsReply(decision_id=1), "cards"),
    ],
)
def test_a_reply_without_an_action_is_refused_naming_the_field(kind: str, reply: object, field: str) -> None:
    with pytest.raises(MalformedReplyError, match=field):
        DECISIONS[kind].decode_reply(reply)


def test_a_request_carries_the_context_and_the_observation() -> None:
    state = scoring_example()
    o = observe(state, 0)
    spec = DECISIONS["score_cards"]
    request = spec.encode_request(o, DecisionContext("m", 3, 0, 1000, 5000))
    assert request.context.decision_id == 3  # type: ignore[attr-defined]
    assert spec.decode_request(spec.request_type.FromString(request.SerializeToString())) == o


def test_the_proto_lists_every_card_kind_in_order() -> None:
    proto = Path(__file__).resolve().parents[2] / "sdk/games/masons/proto/smtourney/masons/v1/masons.proto"
    text = proto.read_text()
    for n, card in enumerate(CARDS):
        assert f"//   {n:2d} {card.name:<20s} {card.copies}" in text
