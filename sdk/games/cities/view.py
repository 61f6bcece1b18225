"""Cities for viewers and terminals: the position as plain data (:func:`view`) and text
(:func:`render`), and each step in words (:func:`describe`), all from what the viewing seat may
know (``State.observation``); the organiser's view (``seat=None``) shows every hand."""

from __future__ import annotations

from typing import Any

from sdk.games.score_rows import rows_json

from .actions import (
    Deck,
    Draw,
    EducationMode,
    Exchange,
    GiveCity,
    GiveEvent,
    Pass,
    Play,
    React,
    Shuffle,
    Step,
)
from .cards import CITIES, EMPIRE_MASKS, NEUTRAL_MASK, WONDER_MASK, Empire, EventType, Side, cities_of
from .observation import Observation, PlayedEvent
from .phases import Outcome
from .scoring import score_rows
from .state import State

#: The nouns of the game's rules: no code outside the game may use them (a conformance test checks).
NOUNS = (
    "empire", "empires", "wonder", "wonders", "capital", "capitals", "unification", "commander",
    "festival", "barbarians", "plague", "protection", "espionage",
)  # fmt: skip

#: Played events the view keeps (the most recent last).
LOG_SHOWN = 6
#: Cards named from the top of a shuffled deck in the organiser's step text (the step holds them all).
SHUFFLE_SHOWN = 5


# --- words ---------------------------------------------------------------------------------------------


def _city(city: int | None) -> str:
    return "?" if city is None else CITIES[city].name


def _event(event: int) -> str:
    return EventType(event).display_name


def _empire(empire: int) -> str:
    return Empire(empire).name.capitalize()


def _plural(count: int, word: str, many: str = "") -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def _events(events: tuple[EventType, ...] | list[EventType]) -> str:
    return ", ".join(_event(ev) for ev in events)


def play_text(play: Play, returned: int | None = None) -> str:
    """The play in words; ``returned``: how many events Education gave back, when which is secret."""
    name = _event(play.event)
    target = "" if play.target is None else f"seat {play.target}"
    if play.education == EducationMode.EXCHANGE:
        given = _plural(returned, "event") if returned is not None else _events(play.returns)
        return f"{name}, giving back {given}"
    if play.education == EducationMode.DISCARD:
        return f"{name}: {target} discards 5 events"
    if play.give_city is not None:
        return f"{name} with {target}: {_city(play.give_city)} for {_city(play.take_city)}"
    if play.take_city is not None:
        return f"{name} on {target}, taking {_city(play.take_city)}"
    if play.side is not None:
        return f"{name} on the {Side(play.side).name.lower()}"
    if play.empire is not None:
        return f"{name} of {_empire(play.empire)}"
    if target:
        return f"{name} on {target}"
    return name


def outcome_text(item: Outcome) -> str:
    """One consequence of an event in words."""
    kind, seat, source, value = item
    who = f"seat {seat}"
    if kind == "take":
        where = {-1: "the deck", -2: "the bottom of the deck"}.get(source, f"seat {source}")
        return f"{who} takes {_city(value)} from {where}"
    if kind == "events":
        bottom = " from the bottom" if source == -2 else ""
        return f"{who} takes {_plural(value, 'event')}{bottom}"
    texts = {
        "lose": lambda: f"{who} loses {_city(value)}",
        "discard": lambda: f"{who} discards {_plural(value, 'event')} face down",
        "return": lambda: f"{who} gives back {_plural(value, 'event')}",
        "reveal": lambda: f"{who} reveals {_event(value)}",
        "complete": lambda: f"{who} completes {_empire(value)}",
        "wonders": lambda: f"{who} scores the wonders bonus",
        "accept": lambda: f"{who} accepts the exchange",
        "decline": lambda: f"{who} declines the exchange",
        "silence": lambda: f"{who} is silenced for two turns",
        "curse": lambda: f"{who} is cursed for the next turn",
        "no_city": lambda: f"{who} takes no city next turn",
        "extra_plays": lambda: f"{who} may play {_plural(value, 'more event')}",
    }
    text = texts.get(kind)
    return text() if text else f"{who}: {kind} {value}"


# --- the position as plain data ------------------------------------------------------------------------


def _counts(counts: list[int] | tuple[int, ...]) -> list[dict[str, Any]]:
    return [
        {"event": EventType(ev).name.lower(), "name": _event(ev), "count": n}
        for ev, n in enumerate(counts)
        if n
    ]


def _city_data(city: int) -> dict[str, Any]:
    card = CITIES[city]
    return {"id": city, "name": card.name, "capital": card.capital, "wonder": card.wonder}


def _groups(held: int) -> list[dict[str, Any]]:
    """Held cities by empire (neutral last), only groups holding something."""
    groups = []
    for empire in Empire:
        cities = cities_of(held & EMPIRE_MASKS[empire])
        if cities:
            groups.append(
                {
                    "empire": empire.name.lower(),
                    "name": _empire(empire),
                    "cities": [_city_data(c) for c in cities],
                    "of": 6,
                }
            )
    neutral = cities_of(held & NEUTRAL_MASK)
    if neutral:
        groups.append(
            {"empire": "neutral", "name": "Neutral", "cities": [_city_data(c) for c in neutral], "of": 6}
        )
    return groups


def _restrictions(obs: Observation, seat: int) -> list[str]:
    found = []
    if obs.active == seat and obs.phase in ("turn", "event"):
        found += [
            text
            for on, text in (
                (obs.curse_now, "cursed this turn"),
                (obs.silent_now, "silenced this turn"),
                (obs.no_city_now, "no city this turn"),
            )
            if on
        ]
    if obs.silenced[seat]:
        found.append(f"silenced for {_plural(obs.silenced[seat], 'more turn')}")
    if obs.cursed >> seat & 1:
        found.append("cursed next turn")
    if obs.no_city >> seat & 1:
        found.append("no city next turn")
    return found


def _reveals(reveals: tuple[tuple[int, EventType], ...]) -> list[dict[str, Any]]:
    return [{"seat": seat, "name": _event(card)} for seat, card in reveals]


def _played(record: PlayedEvent) -> dict[str, Any]:
    return {
        "turn": record.turn,
        "seat": record.seat,
        "event": record.play.event.name.lower(),
        "name": _event(record.play.event),
        "text": play_text(record.play, record.returned),
        "revealed": _reveals(record.revealed),
        "outcome": [outcome_text(item) for item in record.outcome],
    }


def _resolving(state: State, obs: Observation, seat: int | None) -> dict[str, Any] | None:
    res = obs.resolving
    if res is None:
        return None
    secret = seat is not None and seat != res.seat
    play = res.play if secret or state.ev_play is None else state.ev_play
    giving = None
    if res.give_seat >= 0:
        left = res.give[1] + res.give[3]
        parts = [_plural(left, "city", "cities")] if left else []
        if res.give_events:
            parts.append(_plural(res.give_events, "event"))
        if parts:
            giving = f"seat {res.give_seat} still gives up {' and '.join(parts)}"
    return {
        "seat": res.seat,
        "event": res.play.event.name.lower(),
        "name": _event(res.play.event),
        "text": play_text(play, res.returned if secret else None),
        "stage": res.stage,
        "revealed": _reveals(res.revealed),
        "outcome": [outcome_text(item) for item in res.outcome],
        "giving": giving,
    }


def _deciding(state: State, obs: Observation, seat: int | None) -> dict[str, Any] | None:
    if seat is None:
        if state.is_terminal() or state.is_chance_node() or state.pending is None:
            return None
        return {"seat": state.decider, "kind": str(state.pending)}
    if obs.pending is not None:
        return {"seat": seat, "kind": str(obs.pending.kind)}
    if obs.waiting is not None:
        return {"seat": obs.waiting_seat, "kind": str(obs.waiting)}
    return None


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The position as plain data; with ``seat``, only what that seat may know."""
    obs = state.observation(0 if seat is None else seat)
    seats = []
    for s in range(state.n):
        own = seat is None or s == seat
        held, done = obs.held[s], obs.done[s]
        seats.append(
            {
                "seat": s,
                "score": obs.scores[s],
                "held": held.bit_count(),
                "groups": _groups(held),
                "completed": [
                    {"empire": e.name.lower(), "name": _empire(e)} for e in Empire if done & EMPIRE_MASKS[e]
                ],
                "wonders": obs.wonders == s,
                "wonders_owned": ((held | done) & WONDER_MASK).bit_count(),
                "hand_size": obs.hand_sizes[s],
                "hand": (_counts(state.hands[s]) if seat is None else _counts(obs.hand)) if own else None,
                "face_down": obs.face_down[s],
                "face_down_cards": (
                    (_counts(state.face_down[s]) if seat is None else _counts(obs.own_face_down))
                    if own
                    else None
                ),
                "restrictions": _restrictions(obs, s),
            }
        )
    log = obs.log[-LOG_SHOWN:]
    shown: dict[str, Any] = {
        "round": obs.round,
        "max_rounds": obs.params.max_rounds,
        "turn": obs.turn,
        "size": obs.params.size,
        "phase": obs.phase,
        "active": obs.active,
        "plays_left": obs.plays_left,
        "viewer": seat,
        "wonders_bonus": obs.wonders,
        "decks": {"cities": obs.city_deck.bit_count(), "events": obs.event_deck_size},
        "deciding": _deciding(state, obs, seat),
        "seats": seats,
        "resolving": _resolving(state, obs, seat),
        "log": [_played(record) for record in log],
        "played": len(obs.log),
    }
    if state.is_terminal():
        shown["final_scoring"] = rows_json(score_rows(state))
    return shown


def render(state: State, seat: int | None = None) -> str:
    """The position as text, from :func:`view`."""
    data = view(state, seat)
    decks = data["decks"]
    phase = {"setup": ", setting up", "event": ", an event under way", "over": ", game over"}
    head = (
        f"Cities ({data['size']}), round {data['round']}/{data['max_rounds']}, turn {data['turn']}"
        f"{phase.get(data['phase'], '')}; city deck {decks['cities']}, event deck {decks['events']}"
    )
    lines = [head + "  (* capital, + wonder)"]
    deciding = data["deciding"]
    if deciding is not None:
        lines.append(f"deciding: seat {deciding['seat']} ({deciding['kind']})")
    for s in data["seats"]:
        mark = ">" if s["seat"] == data["active"] and data["phase"] != "over" else " "
        groups = "; ".join(
            f"{g['name']} {len(g['cities'])}{'' if g['empire'] == 'neutral' else '/' + str(g['of'])}: "
            + ", ".join(
                c["name"] + ("*" if c["capital"] else "") + ("+" if c["wonder"] else "") for c in g["cities"]
            )
            for g in s["groups"]
        )
        completed = ", ".join(c["name"] for c in s["completed"])
        lines.append(
            f"{mark}seat {s['seat']}: score {s['score']}, {_plural(s['held'], 'city', 'cities')}"
            + (f", completed {completed}" if completed else "")
            + (", wonders bonus" if s["wonders"] else "")
        )
        if groups:
            lines.append(f"    {groups}")
        if s["hand"] is not None:
            cards = ", ".join(
                f"{c['name']}" + (f" x{c['count']}" if c["count"] > 1 else "") for c in s["hand"]
            )
            lines.append(f"    hand ({s['hand_size']}): {cards or 'empty'}")
        else:
            lines.append(f"    hand: {_plural(s['hand_size'], 'event')}")
        if s["face_down"]:
            which = s["face_down_cards"]
            names = (
                "" if which is None else ": " + ", ".join(c["name"] for c in which for _ in range(c["count"]))
            )
            lines.append(f"    lost face down: {s['face_down']}{names}")
        if s["restrictions"]:
            lines.append(f"    {', '.join(s['restrictions'])}")
    res = data["resolving"]
    if res is not None:
        lines.append(f"resolving ({res['stage']}): seat {res['seat']} plays {res['text']}")
        lines += [f"    {text}" for text in res["outcome"]]
        if res["giving"]:
            lines.append(f"    {res['giving']}")
    for record in data["log"][-3:]:
        outcome = "; ".join(record["outcome"]) or "nothing happens"
        lines.append(f"turn {record['turn']}: seat {record['seat']} played {record['text']}: {outcome}")
    return "\n".join(lines)


def describe(state: State, step: Step, seat: int | None = None) -> str | None:
    """``step`` in words, as ``seat`` learns of it (None: it learns nothing)."""
    decider = None if state.is_chance_node() else state.current_player
    own = seat is None or seat == decider
    match step:
        case Shuffle(deck, order):
            name = "city" if deck == Deck.CITY else "event"
            if seat is not None:
                return f"the {name} deck is shuffled"
            top = order[:SHUFFLE_SHOWN]
            cards = [_city(c) for c in top] if deck == Deck.CITY else [_event(ev) for ev in top]
            more = ", …" if len(order) > SHUFFLE_SHOWN else ""
            return (
                f"the {name} deck is shuffled ({_plural(len(order), 'card')}; top: {', '.join(cards)}{more})"
            )
        case Draw(take):
            return "takes the top city" if take == Deck.CITY else "takes the top event"
        case Pass():
            return "passes"
        case Play():
            return f"plays {play_text(step, None if own else len(step.returns))}"
        case React(card):
            if card is None:
                return "reveals no protection" if own else None
            return f"reveals {_event(card)} against {_event(state.ev)}"
        case Exchange(accept):
            return "accepts the exchange" if accept else "declines the exchange"
        case GiveCity(city):
            where = "into the city deck" if state.give_to < 0 else f"to seat {state.give_to}"
            return f"gives up {_city(city)} {where}"
        case GiveEvent(event):
            return f"discards {_event(event)} face down" if own else "discards an event face down"
    raise TypeError(f"not a Cities step: {step!r}")


def summary(state: State) -> dict[str, Any]:
    """A finished game in a few figures, for match lists."""
    return {
        "rounds": state.round,
        "turns": state.turn,
        "events_played": len(state.log),
        "completed": [[_empire(e) for e in Empire if done & EMPIRE_MASKS[e]] for done in state.done],
        "wonders_bonus": None if state.wonders < 0 else state.wonders,
        "cities_held": [held.bit_count() for held in state.held],
    }
