"""The ``smtourney.cities.v1`` codec: observations and every action survive the wire unchanged, and
replies that carry no action are refused naming the field at fault."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from sdk.games import cities as ci
from sdk.games.cities.decisions import DECISIONS
from sdk.games.cities.protocol import cities_pb2 as pb
from sdk.games.cities.wire import decode_observation, encode_observation
from sdk.games.decisions import DecisionContext, MalformedReplyError

E = ci.EventType
D = ci.Decision


def walk(seed: int, players: int, size: str = "full") -> Iterator[ci.State]:
    """Every state of a random game, chance nodes included."""
    rng = random.Random(seed)
    state = ci.new_game(players, ci.Params(size=size))
    while not state.is_terminal():
        yield state
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.sample_action(rng))
    yield state


GAMES = [(seed, 2 + seed % 5, ("full", "regular", "fast", "very-short")[seed % 4]) for seed in range(12)]


def _through_bytes(message: Any) -> Any:
    return type(message).FromString(message.SerializeToString())


@pytest.mark.parametrize(("seed", "players", "size"), GAMES)
def test_every_observation_round_trips(seed: int, players: int, size: str) -> None:
    checked = 0
    for number, state in enumerate(walk(seed, players, size)):
        for seat in range(players):
            if (number + seat) % 3:
                continue
            observation = state.observation(seat)
            assert decode_observation(_through_bytes(encode_observation(observation))) == observation
            checked += 1
    assert checked > 30


def test_observations_with_everything_in_them_round_trip() -> None:
    """Over many games the checked observations hold each optional part at least once."""
    seen: set[str] = set()
    for seed in range(40):
        for state in walk(1000 + seed, 4):
            for seat in range(4):
                obs = state.observation(seat)
                parts = {
                    "resolving": obs.resolving is not None,
                    "pending": obs.pending is not None,
                    "waiting": obs.waiting is not None,
                    "wonders": obs.wonders >= 0,
                    "give_seat": obs.resolving is not None and obs.resolving.give_seat >= 0,
                    "give_to": obs.resolving is not None and obs.resolving.give_to >= 0,
                    "offer": obs.pending is not None and obs.pending.offer is not None,
                    "face_down": any(obs.own_face_down),
                    "returned": any(record.returned for record in obs.log),
                    "reveal": any(record.revealed for record in obs.log),
                    "chance": obs.chance is not None,
                }
                new = {name for name, present in parts.items() if present} - seen
                if new:
                    seen |= new
                    assert decode_observation(_through_bytes(encode_observation(obs))) == obs
    assert seen >= {"resolving", "pending", "waiting", "give_seat", "give_to", "offer", "face_down", "reveal"}


def _shape(action: ci.Action) -> str:
    if isinstance(action, ci.Play):
        if action.education is not None:
            return f"play/education/{action.education}"
        fields = ("target", "side", "empire", "take_city", "give_city")
        return "play/" + "+".join(f for f in fields if getattr(action, f) is not None)
    if isinstance(action, ci.React):
        return f"react/{action.card is not None}"
    return type(action).__name__


def test_every_kind_of_action_round_trips_through_its_reply() -> None:
    shapes: dict[str, int] = {}
    for seed in range(60):
        for state in walk(2000 + seed, 2 + seed % 5):
            if state.is_chance_node() or state.is_terminal():
                continue
            spec = DECISIONS[str(state.decision)]
            actions = state.legal_actions()
            for action in actions if len(actions) < 40 else random.Random(seed).sample(actions, 40):
                shapes[_shape(action)] = shapes.get(_shape(action), 0) + 1
                reply = _through_bytes(spec.encode_reply(action, 17))
                assert isinstance(reply, spec.reply_type) and getattr(reply, "decision_id", None) == 17
                assert spec.decode_reply(reply) == action
    expected = {
        "Draw",
        "Pass",
        "Exchange",
        "GiveCity",
        "GiveEvent",
        "react/True",
        "react/False",
        "play/",
        "play/target",
        "play/side",
        "play/empire",
        "play/target+take_city",
        "play/target+take_city+give_city",
        "play/education/exchange",
        "play/education/discard",
    }
    assert expected <= set(shapes), sorted(expected - set(shapes))


def test_plays_with_every_event_and_every_choice_round_trip() -> None:
    """Hand-built plays, legal or not: the codec carries what was chosen, nothing more or less."""
    plays = [ci.Play(ev) for ev in E]
    plays += [
        ci.Play(E.ATTACK, target=0, take_city=0),
        ci.Play(E.TRADE, target=5, take_city=53, give_city=0),
        ci.Play(E.UNREST, side=ci.Side.WEST),
        ci.Play(E.GREAT_UNREST, side=ci.Side.EAST),
        ci.Play(E.UNIFICATION, empire=ci.Empire.ROME),
        ci.Play(E.UNIFICATION, empire=ci.Empire.ETRUSCANS),
        ci.Play(E.EDUCATION, education=ci.EducationMode.EXCHANGE, returns=(E.FLOOD, E.ATTACK, E.ATTACK)),
        ci.Play(E.EDUCATION, education=ci.EducationMode.DISCARD, target=0),
    ]
    spec = DECISIONS["play"]
    for play in plays:
        assert spec.decode_reply(_through_bytes(spec.encode_reply(play, 1))) == play


def test_seat_zero_and_city_zero_are_not_absent() -> None:
    reply = DECISIONS["play"].encode_reply(ci.Play(E.ATTACK, target=0, take_city=0), 1)
    assert isinstance(reply, pb.PlayReply)
    assert reply.play.HasField("target") and reply.play.HasField("take_city")
    assert not reply.play.HasField("give_city")
    assert DECISIONS["give_city"].decode_reply(pb.GiveCityReply(decision_id=1, city=0)) == ci.GiveCity(0)


MALFORMED: list[tuple[str, Any, str]] = [
    ("draw", pb.DrawReply(decision_id=1), "`take`"),
    ("draw", pb.DrawReply(decision_id=1, take=pb.Deck.ValueType(3)), "`take`"),
    ("play", pb.PlayReply(decision_id=1), "`answer`"),
    ("play", pb.PlayReply(decision_id=1, play=pb.Play()), "`play.event`"),
    ("play", pb.PlayReply(play=pb.Play(event=pb.Event.ValueType(54))), "`play.event`"),
    ("play", pb.PlayReply(play=pb.Play(event=pb.EVENT_ATTACK, target=1, take_city=54)), "`play.take_city`"),
    ("play", pb.PlayReply(play=pb.Play(event=pb.EVENT_TRADE, give_city=1000)), "`play.give_city`"),
    ("play", pb.PlayReply(play=pb.Play(event=pb.EVENT_UNREST, side=pb.Side.ValueType(3))), "`play.side`"),
    (
        "play",
        pb.PlayReply(play=pb.Play(event=pb.EVENT_UNIFICATION, empire=pb.Empire.ValueType(9))),
        "`play.empire`",
    ),
    (
        "play",
        pb.PlayReply(play=pb.Play(event=pb.EVENT_EDUCATION, education=pb.Education.ValueType(3))),
        "`play.education`",
    ),
    (
        "play",
        pb.PlayReply(play=pb.Play(event=pb.EVENT_EDUCATION, returns=[pb.EVENT_FLOOD, pb.EVENT_UNSPECIFIED])),
        "`play.returns`",
    ),
    (
        "play",
        pb.PlayReply(play=pb.Play(event=pb.EVENT_EDUCATION, returns=[pb.EVENT_FLOOD] * 76)),
        "`play.returns`",
    ),
    ("react", pb.ReactReply(card=pb.Event.ValueType(54)), "`card`"),
    ("give_city", pb.GiveCityReply(decision_id=1), "`city`"),
    ("give_city", pb.GiveCityReply(city=54), "`city`"),
    ("give_event", pb.GiveEventReply(decision_id=1), "`event`"),
    ("give_event", pb.GiveEventReply(event=pb.Event.ValueType(99)), "`event`"),
]


@pytest.mark.parametrize(("kind", "reply", "field"), MALFORMED)
def test_a_reply_without_a_well_formed_action_is_refused_naming_the_field(
    kind: str, reply: Any, field: str
) -> None:
    with pytest.raises(MalformedReplyError) as caught:
        DECISIONS[kind].decode_reply(_through_bytes(reply))
    assert field in str(caught.value)


def test_well_formed_but_illegal_replies_decode_for_the_engine_to_refuse() -> None:
    """Seats out of range, events not in hand: the codec decodes them; the rules refuse them."""
    play = DECISIONS["play"].decode_reply(
        pb.PlayReply(play=pb.Play(event=pb.EVENT_ATTACK, target=9, take_city=3))
    )
    assert play == ci.Play(E.ATTACK, target=9, take_city=3)
    assert DECISIONS["react"].decode_reply(pb.ReactReply()) == ci.React(None)
    assert DECISIONS["react"].decode_reply(pb.ReactReply(card=pb.EVENT_FLOOD)) == ci.React(E.FLOOD)
    assert DECISIONS["exchange"].decode_reply(pb.ExchangeReply()) == ci.Exchange(False)


def test_a_request_carries_the_context_and_the_observation() -> None:
    state = next(s for s in walk(3, 3) if not s.is_chance_node() and s.decision == D.PLAY)
    seat = state.current_player
    spec = DECISIONS["play"]
    context = DecisionContext("m-1", 4, seat, 1500, 9000)
    request = _through_bytes(spec.encode_request(state.observation(seat), context))
    assert isinstance(request, pb.PlayRequest)
    assert (request.context.match_id, request.context.decision_id, request.context.seat) == ("m-1", 4, seat)
    assert (request.context.decision_ms, request.context.time_bank_ms) == (1500, 9000)
    decoded = spec.decode_request(request)
    assert decoded == state.observation(seat)
    assert decoded.pending is not None and decoded.pending.kind == D.PLAY


def test_wire_enums_follow_the_engine() -> None:
    assert [pb.Event.Name(pb.Event.ValueType(ev + 1)) for ev in E] == [f"EVENT_{ev.name}" for ev in E]
    assert [pb.Empire.Name(pb.Empire.ValueType(e + 1)) for e in ci.Empire] == [
        f"EMPIRE_{e.name}" for e in ci.Empire
    ]
    assert [pb.Side.Name(pb.Side.ValueType(s + 1)) for s in ci.Side] == [f"SIDE_{s.name}" for s in ci.Side]
    assert [pb.Decision.Name(pb.Decision.ValueType(i + 1)) for i in range(len(D))] == [
        f"DECISION_{d.name}" for d in D
    ]
    assert [pb.Size.Name(pb.Size.ValueType(i + 1)) for i in range(len(ci.SIZES))] == [
        "SIZE_" + size.upper().replace("-", "_") for size in ci.SIZES
    ]


def test_the_proto_lists_every_city_in_order() -> None:
    """The comment table bot authors read is the card table."""
    from pathlib import Path

    proto = Path(__file__).resolve().parents[2] / "sdk/games/cities/proto/smtourney/cities/v1/cities.proto"
    text = proto.read_text()
    for city in ci.CITIES:
        empire = "neutral" if city.empire is None else city.empire.name.lower()
        notes = " ".join(n for n, on in (("capital", city.capital), ("wonder", city.wonder)) if on)
        line = f"//   {city.id:2d} {city.name:<14} {empire:<10} {notes}".rstrip()
        assert line in text.splitlines(), line


def test_a_malformed_observation_is_refused_naming_the_field() -> None:
    state = next(s for s in walk(5, 2) if not s.is_chance_node())
    message = encode_observation(state.observation(state.current_player))
    broken = pb.Observation()
    broken.CopyFrom(message)
    broken.phase = pb.Phase.ValueType(9)
    with pytest.raises(ValueError, match=r"`observation\.phase`"):
        decode_observation(broken)
    broken.CopyFrom(message)
    broken.hand.add(event=pb.EVENT_FLOOD, count=0)
    with pytest.raises(ValueError, match=r"`observation\.hand`"):
        decode_observation(broken)
