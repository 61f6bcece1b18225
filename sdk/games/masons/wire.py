"""Masons on the wire: observations and replies to and from ``smtourney.masons.v1`` messages.

Decoding a request gives back exactly the :class:`Observation` it was built from, so a bot
in Python works on the same object the referee observed.
"""

from __future__ import annotations

from sdk.games.decisions import MalformedReplyError
from sdk.games.masons.protocol import masons_pb2 as pb

from .actions import Connect, FinalScore, Houses, Score, Swap, Towers, Wall
from .board import LINE_COUNT, POINTS, spaces_of
from .observation import CityView, Observation


def _mask(lines: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for n in lines:
        mask |= 1 << n
    return mask


def encode_observation(o: Observation) -> pb.Observation:
    towers = [-1] * POINTS
    for colour, mask in enumerate(o.towers):
        for p in spaces_of(mask):
            towers[p] = colour
    return pb.Observation(
        seat=o.seat,
        players=o.players,
        phase=pb.Phase.ValueType(o.phase + 1),
        active=o.active,
        turn=o.turn,
        queue=o.queue,
        walls=spaces_of(o.walls),
        closed=spaces_of(o.closed),
        towers=towers,
        houses=[pb.SpaceHouses(count=h) for h in o.houses],
        cities=[pb.City(spaces=c.spaces, houses=c.houses, palaces=c.palaces) for c in o.cities],
        walls_left=o.walls_left,
        towers_left=o.towers_left,
        houses_left=o.houses_left,
        palaces_left=o.palaces_left,
        points=o.points,
        hand_sizes=o.hand_sizes,
        hand=o.hand,
        discards=o.discards,
        draw_size=o.draw_size,
        draws=[pb.PendingDraw(seat=s, count=c) for s, c in o.draws],
        wall=o.wall,
        roll=pb.Roll(tower=o.roll[0], house_a=o.roll[1], house_b=o.roll[2]) if o.roll else None,
        new_city=o.new_city,
        scored_city=o.scored_city,
        completed=o.completed,
        ending=o.ending,
    )


def decode_observation(m: pb.Observation) -> Observation:
    towers = [0, 0, 0]
    for p, colour in enumerate(m.towers):
        if colour >= 0:
            towers[colour] |= 1 << p
    return Observation(
        seat=m.seat,
        players=m.players,
        phase=int(m.phase) - 1,
        active=m.active,
        turn=m.turn,
        queue=tuple(m.queue),
        walls=_mask(list(m.walls)),
        closed=_mask(list(m.closed)),
        towers=tuple(towers),
        houses=tuple(tuple(h.count) for h in m.houses),
        cities=tuple(CityView(c.spaces, tuple(c.houses), tuple(c.palaces)) for c in m.cities),
        walls_left=m.walls_left,
        towers_left=tuple(m.towers_left),
        houses_left=tuple(m.houses_left),
        palaces_left=tuple(m.palaces_left),
        points=tuple(m.points),
        hand_sizes=tuple(m.hand_sizes),
        hand=tuple(m.hand),
        discards=tuple(m.discards),
        draw_size=m.draw_size,
        draws=tuple((d.seat, d.count) for d in m.draws),
        wall=m.wall,
        roll=(m.roll.tower, m.roll.house_a, m.roll.house_b) if m.HasField("roll") else (),
        new_city=m.new_city,
        scored_city=m.scored_city,
        completed=m.completed,
        ending=m.ending,
    )


# --- replies --------------------------------------------------------------------------------------------


def encode_wall(action: Wall, decision_id: int) -> pb.WallReply:
    return pb.WallReply(decision_id=decision_id, line=action.line)


def decode_wall(reply: pb.WallReply) -> Wall:
    if not reply.HasField("line"):
        raise MalformedReplyError("the reply names no line (field `line` is absent)")
    if reply.line >= LINE_COUNT:
        raise MalformedReplyError(f"line {reply.line} does not exist (lines are 0-{LINE_COUNT - 1})")
    return Wall(reply.line)


def encode_towers(action: Towers, decision_id: int) -> pb.TowersReply:
    return pb.TowersReply(decision_id=decision_id, colours=action.colours)


def decode_towers(reply: pb.TowersReply) -> Towers:
    if len(reply.colours) != 2:
        raise MalformedReplyError(f"`colours` needs 2 entries, not {len(reply.colours)}")
    return Towers((reply.colours[0], reply.colours[1]))


def encode_houses(action: Houses, decision_id: int) -> pb.HousesReply:
    return pb.HousesReply(decision_id=decision_id, colours=action.colours)


def decode_houses(reply: pb.HousesReply) -> Houses:
    if len(reply.colours) not in (1, 2):
        raise MalformedReplyError(f"`colours` needs 1 or 2 entries, not {len(reply.colours)}")
    return Houses(tuple(reply.colours))


def encode_connect(action: Connect, decision_id: int) -> pb.ConnectCityReply:
    if action.city is None:
        return pb.ConnectCityReply(decision_id=decision_id, alone=True)
    return pb.ConnectCityReply(decision_id=decision_id, city=action.city)


def decode_connect(reply: pb.ConnectCityReply) -> Connect:
    choice = reply.WhichOneof("choice")
    if choice == "city":
        return Connect(reply.city)
    if choice == "alone" and reply.alone:
        return Connect(None)
    raise MalformedReplyError("the reply sets neither `city` nor `alone`")


def encode_score(action: Score, decision_id: int) -> pb.ScoreCardsReply:
    return pb.ScoreCardsReply(decision_id=decision_id, cards=action.cards, discard=action.discard)


def decode_score(reply: pb.ScoreCardsReply) -> Score:
    if not reply.cards:
        raise MalformedReplyError("the reply names no card (field `cards` is empty)")
    return Score(tuple(reply.cards), reply.discard)


def encode_swap(action: Swap, decision_id: int) -> pb.SwapReply:
    return pb.SwapReply(decision_id=decision_id, cards=action.cards)


def decode_swap(reply: pb.SwapReply) -> Swap:
    return Swap(tuple(reply.cards))


def encode_final(action: FinalScore, decision_id: int) -> pb.FinalScoreReply:
    return pb.FinalScoreReply(decision_id=decision_id, city=action.city, cards=action.cards)


def decode_final(reply: pb.FinalScoreReply) -> FinalScore:
    return FinalScore(reply.city if reply.HasField("city") else None, tuple(reply.cards))
