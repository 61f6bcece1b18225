"""Blind auction: the rules engine (standard library only).

Prizes are shuffled face down (a chance node). Each round turns up the next
prize; every seat with cards bids one in secret (the engine takes the bids in seat
order from the round's first seat; the plugin asks them all at once); then all bids
are shown. The single highest bid wins (a tie for
highest: nobody wins); the winner keeps the prize or takes the bid card back.
Spent bids are gone. The game ends when the prizes or the bid cards run out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sdk.games.errors import IllegalActionError

CHANCE, TERMINAL = -1, -2
MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND = (1, 2, 3, 4, 5)


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the order of the face-down prizes, top first."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Bid:
    card: int


@dataclass(frozen=True, slots=True)
class Claim:
    keep: bool


Step = Shuffle | Bid | Claim


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know: the public table, its own hand, and whose bids are in."""

    seat: int
    players: int
    round: int
    prize: int
    prizes_left: int
    hand: tuple[int, ...]
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    bid_this_round: tuple[int, ...]
    last_bids: tuple[int, ...]
    winning_bid: int  # 0 unless this seat is claiming


class State:
    """A blind auction between 2-4 seats."""

    def __init__(self, players: int, prizes: int) -> None:
        self.players = players
        self.deck: list[int] = list(range(1, prizes + 1))
        self.shuffled = False
        self.round = 0
        self.prize = 0
        self.hands: list[list[int]] = [list(HAND) for _ in range(players)]
        self.bids: list[int] = [0] * players  # this round's bids (0 = none yet)
        self.last_bids: list[int] = [0] * players
        self.points: list[int] = [0] * players
        self.to_bid: list[int] = []  # seats still to bid this round, in order
        self.claimant = -1
        self.over = False

    # --- the contract -----------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if not self.shuffled:
            return CHANCE
        if self.claimant >= 0:
            return self.claimant
        return self.to_bid[0]

    @property
    def decision(self) -> str | None:
        if self.over or not self.shuffled:
            return None
        return "claim" if self.claimant >= 0 else "bid"

    def is_terminal(self) -> bool:
        return self.over

    def is_chance_node(self) -> bool:
        return not self.over and not self.shuffled

    def sample_chance(self, rng: random.Random) -> Shuffle:
        order = list(self.deck)
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def legal_actions(self) -> list[Any]:
        if self.decision == "claim":
            return [Claim(True), Claim(False)]
        if self.decision == "bid":
            return [Bid(card) for card in sorted(self.hands[self.to_bid[0]])]
        return []

    def apply(self, step: Any) -> None:
        """Apply ``step`` after checking every rule; a refused step changes nothing."""
        if self.over:
            raise IllegalActionError("end", "the game is over")
        if isinstance(step, Shuffle):
            if self.shuffled or sorted(step.order) != sorted(self.deck):
                raise IllegalActionError("setup", "a shuffle orders the face-down prizes, once")
            self.deck, self.shuffled = list(step.order), True
            self._next_round()
        elif isinstance(step, Bid):
            if self.decision != "bid":
                raise IllegalActionError("turn", f"a {self.decision or 'chance'} step is due, not a bid")
            if step.card not in self.hands[self.to_bid[0]]:
                raise IllegalActionError("bids", f"card {step.card} is not in the bidder's hand")
            seat = self.to_bid.pop(0)
            self.hands[seat].remove(step.card)
            self.bids[seat] = step.card
            if not self.to_bid:
                self._reveal()
        elif isinstance(step, Claim):
            if self.decision != "claim":
                raise IllegalActionError("turn", f"a {self.decision or 'chance'} step is due, not a claim")
            if step.keep:
                self.points[self.claimant] += self.prize
            else:
                self.hands[self.claimant].append(self.last_bids[self.claimant])
            self.claimant = -1
            self._next_round()
        else:
            raise IllegalActionError("steps", f"not a blind-auction step: {step!r}")

    def _reveal(self) -> None:
        self.last_bids, self.bids = self.bids, [0] * self.players
        top = max(self.last_bids)
        winners = [seat for seat, bid in enumerate(self.last_bids) if bid == top]
        if len(winners) == 1:
            self.claimant = winners[0]
        else:
            self._next_round()

    def _next_round(self) -> None:
        bidders = [seat for seat in range(self.players) if self.hands[seat]]
        if not self.deck or not bidders:
            self.over = True
            return
        self.round += 1
        self.prize = self.deck.pop(0)
        first = (self.round - 1) % self.players
        order = [(first + i) % self.players for i in range(self.players)]
        self.to_bid = [seat for seat in order if self.hands[seat]]

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.to_dict_copy())
        return other

    def to_dict_copy(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        for key in ("deck", "bids", "last_bids", "points", "to_bid"):
            data[key] = list(data[key])
        data["hands"] = [list(hand) for hand in self.hands]
        return data

    def scores(self) -> list[int]:
        return list(self.points)

    def ranks(self) -> list[int]:
        return [1 + sum(other > mine for other in self.points) for mine in self.points]

    def to_json(self) -> dict[str, Any]:
        return dict(sorted(self.to_dict_copy().items()))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        state = cls.__new__(cls)
        state.__dict__.update(data)
        state.__dict__.update(state.to_dict_copy())  # own lists, not the caller's
        return state

    # --- secrecy ----------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        claiming = seat == self.claimant
        return Observation(
            seat=seat,
            players=self.players,
            round=self.round,
            prize=self.prize,
            prizes_left=len(self.deck),
            hand=tuple(sorted(self.hands[seat])),
            scores=tuple(self.points),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            bid_this_round=tuple(s for s in range(self.players) if self.bids[s]),
            last_bids=tuple(self.last_bids),
            winning_bid=self.last_bids[seat] if claiming else 0,
        )

    def resample_hidden(self, seat: int, rng: random.Random) -> State:
        """Another state ``seat`` cannot tell apart: prize order and others' unshown bids redrawn."""
        other = self.clone()
        rng.shuffle(other.deck)
        for bidder in range(self.players):
            if bidder != seat and other.bids[bidder]:
                pool = [*other.hands[bidder], other.bids[bidder]]
                other.bids[bidder] = pool.pop(rng.randrange(len(pool)))
                other.hands[bidder] = pool
        return other


def new_game(players: int, prizes: int = 5) -> State:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"blind auction is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    return State(players, prizes)


def step_to_json(step: Step) -> dict[str, Any]:
    if isinstance(step, Shuffle):
        return {"type": "shuffle", "order": list(step.order)}
    if isinstance(step, Bid):
        return {"type": "bid", "card": step.card}
    return {"type": "claim", "keep": step.keep}


def step_from_json(data: dict[str, Any]) -> Step:
    kind = data.get("type")
    if kind == "shuffle":
        return Shuffle(tuple(int(v) for v in data["order"]))
    if kind == "bid":
        return Bid(int(data["card"]))
    if kind == "claim":
        return Claim(bool(data["keep"]))
    raise ValueError(f"not a blind-auction step: {data!r}")
