"""The position as plain data for the web viewer and as text, built from one seat's observation
(or, for the organiser, ``seat=None``, from the full state: every hand and house card shown), and
each step in words as a seat learns of it."""

from __future__ import annotations

from typing import Any

from sdk.games.score_rows import rows_json

from .actions import (
    ACTION_NAMES,
    FIRE_HOUSE,
    FIRE_NAMES,
    Activate,
    Advance,
    CancelPenalty,
    DrawPile,
    End,
    Expose,
    FireChoice,
    PenaltyOrder,
    PlagueDiscard,
    Play,
    Roll,
    Step,
)
from .cards import CARD_COLOUR, CARD_PERSON, COLOURS, PERSONS, card_name
from .observation import observe
from .phases import MAJORITY_NAMES, PENALTY_NAMES, PHASE_NAMES
from .scoring import score_rows
from .state import State

#: The nouns of the game's rules: no code outside the game may use them (a conformance test checks).
NOUNS = (
    "canal", "canals", "guilder", "guilders", "statue", "statues", "reputation", "threat", "threats",
    "majority", "majorities", "penalty", "penalties", "houses", "persons", "knight", "jester", "flood",
    "raid", "intrigue",
)  # fmt: skip


def _card(card: int) -> dict[str, Any]:
    person = PERSONS[CARD_PERSON[card]]
    return {
        "id": f"{person.id}:{COLOURS[CARD_COLOUR[card]]}",
        "person": person.name,
        "colour": COLOURS[CARD_COLOUR[card]],
        "group": person.group,
        "price": person.price,
        "kind": person.kind,
    }


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The position as plain data; with ``seat``, only what that seat may know."""
    obs = observe(state, 0 if seat is None else seat)
    seats = []
    for s in range(state.n):
        own = seat is None or s == seat
        if seat is None:
            hand: list[dict[str, Any]] | None = [_card(c) for c in sorted(state.hands[s])]
        elif own:
            hand = [_card(c) for c in obs.hand]
        else:
            hand = [_card(c) for c in obs.public_hands[s]] or None
        houses = [
            {
                "colour": COLOURS[h.colour],
                "card": _card(state.houses[s][i][0]) if own else None,
                "person": _card(h.person) if h.person >= 0 else None,
                "rotated": h.rotated,
            }
            for i, h in enumerate(obs.houses[s])
        ]
        seats.append(
            {
                "seat": s,
                "score": obs.scores[s],
                "guilders": obs.guilders[s],
                "reputation": obs.reputation[s],
                "workers": dict(zip(COLOURS, obs.workers[s], strict=True)),
                "threats": dict(zip(COLOURS, obs.threats[s], strict=True)),
                "canals": list(obs.canals[s]),
                "statues": list(obs.statues[s]),
                "majorities": [MAJORITY_NAMES[k] for k in range(3) if obs.majorities[s][k]],
                "houses": houses,
                "hand_size": sum(obs.hand_colours[s]),
                "hand_colours": dict(zip(COLOURS, obs.hand_colours[s], strict=True)),
                "hand": hand,
                "blind": (
                    dict(zip(COLOURS, obs.blind_colours, strict=True))
                    if seat is not None and s == seat and any(obs.blind_colours)
                    else None
                ),
                "start": s == obs.start,
            }
        )
    deciding = None
    if not state.is_terminal() and not state.is_chance_node() and state.decision is not None:
        deciding = {"seat": state.decider, "kind": state.decision}
    canal_colours = [[COLOURS[c] for c in section] for section in state.params.canal_colours]
    shown: dict[str, Any] = {
        "round": obs.round,
        "final_round": obs.final_round if obs.final_round >= 0 else None,
        "phase": PHASE_NAMES[obs.phase],
        "lap": obs.lap + 1,
        "active": obs.active if obs.active >= 0 else None,
        "viewer": seat,
        "dice": dict(zip(COLOURS, obs.dice, strict=True)) if obs.dice else None,
        "piles": [
            {
                "size": obs.pile_sizes[p],
                "top": COLOURS[obs.pile_colours[p]] if obs.pile_colours[p] >= 0 else None,
            }
            for p in (0, 1)
        ],
        "extra_pile": obs.extra_size,
        "discard": [_card(c) for c in obs.discard[-8:]],
        "discard_size": len(obs.discard),
        "statue_stack": list(obs.statue_stack),
        "supply": dict(zip(COLOURS, obs.supply, strict=True)),
        "canal_colours": canal_colours,
        "canal_costs": list(state.params.canal_costs),
        "reputation_points": list(state.params.reputation_points),
        "penalties": dict(zip(COLOURS, PENALTY_NAMES, strict=True)),
        "deciding": deciding,
        "seats": seats,
    }
    if state.is_terminal():
        shown["final_scoring"] = rows_json(score_rows(state))
    return shown


def render(state: State, seat: int | None = None) -> str:
    """The position as text, from :func:`view`."""
    data = view(state, seat)
    final = f" (final round {data['final_round']})" if data["final_round"] else ""
    piles = ", ".join(f"pile {i + 1}: {p['size']} ({p['top'] or '-'})" for i, p in enumerate(data["piles"]))
    lines = [f"Bruges, round {data['round']}{final}, {data['phase']}; {piles}, extra {data['extra_pile']}"]
    if data["dice"]:
        lines.append("dice: " + " ".join(f"{c} {v}" for c, v in data["dice"].items()))
    if data["deciding"]:
        lines.append(f"deciding: seat {data['deciding']['seat']} ({data['deciding']['kind']})")
    for s in data["seats"]:
        mark = ">" if s["seat"] == data["active"] else " "
        workers = " ".join(f"{c[:2]}{n}" for c, n in s["workers"].items() if n)
        threats = " ".join(f"{c[:2]}{n}" for c, n in s["threats"].items() if n)
        lines.append(
            f"{mark}seat {s['seat']}{' (start)' if s['start'] else ''}: score {s['score']}, "
            f"{s['guilders']} guilders, reputation {s['reputation']}, workers [{workers}], "
            f"threats [{threats}], canals A{s['canals'][0]} B{s['canals'][1]}, statues {s['statues']}, "
            f"majorities {s['majorities']}"
        )
        houses = ", ".join(
            f"{h['colour']} house: "
            + (f"{h['person']['person']}{' (rotated)' if h['rotated'] else ''}" if h["person"] else "empty")
            for h in s["houses"]
        )
        if houses:
            lines.append(f"    {houses}")
        if s["hand"] is not None:
            cards = ", ".join(f"{c['colour']} {c['person']}" for c in s["hand"])
            blind = ", ".join(f"{n} {c}" for c, n in (s["blind"] or {}).items() if n)
            lines.append(
                f"    hand ({s['hand_size']}): {cards or 'empty'}"
                + (f"; drawn blind: {blind}" if blind else "")
            )
        else:
            colours = ", ".join(f"{n} {c}" for c, n in s["hand_colours"].items() if n)
            lines.append(f"    hand: {colours or 'empty'}")
    return "\n".join(lines)


__all__ = ["render", "view"]


def describe(state: State, step: Step, seat: int | None = None) -> str | None:
    """``step`` in words, as ``seat`` learns of it (None: it learns nothing)."""
    decider = None if state.is_chance_node() else state.current_player
    match step:
        case Expose(pile, card):
            colour = COLOURS[CARD_COLOUR[card]]
            shown = card_name(card) if seat is None else f"a {colour} card"
            return f"draw pile {pile + 1} shows {shown} on top"
        case Roll(dice):
            return "dice: " + ", ".join(f"{COLOURS[c]} {d}" for c, d in enumerate(dice))
        case DrawPile(pile):
            return f"draws from pile {pile + 1}"
        case PenaltyOrder(colour):
            return f"resolves {PENALTY_NAMES[colour]} next"
        case CancelPenalty(cancel):
            return "cancels the penalty with the Knight" if cancel else "lets the penalty apply"
        case PlagueDiscard(card):
            return f"loses {card_name(card)} to Plague"
        case FireChoice(option, card):
            lost = (
                f"the house of {card_name(card)}"
                if option == FIRE_HOUSE
                else FIRE_NAMES[option].replace("_", " ")
            )
            return f"loses {lost} to Fire"
        case Advance(advance):
            return "buys a reputation step" if advance else "does not buy a reputation step"
        case Activate(card, _, _):
            return f"activates {card_name(card)}"
        case Play(card, action, arg):
            own = seat is None or seat == decider
            if action == 5 and not own:
                return f"builds a {COLOURS[CARD_COLOUR[card]]} house"
            where = f" in section {'AB'[arg]}" if action == 4 else ""
            return f"plays {card_name(card)} for {ACTION_NAMES[action]}{where}"
        case End():
            return "ends the turn"
    raise TypeError(f"not a Bruges step: {step!r}")
