"""A trained policy served as a bot: ``policy(tensor, mask) -> action index`` for any game with tensors.

The policy sees exactly what the learning environments (:mod:`sdk.env`) give it: the game's
:class:`~sdk.games.tensors.Tensors` encoding of the observation the bot's request carries, and the
:func:`~sdk.games.tensors.action_mask` of it, as numpy arrays made as the environments make them
(:mod:`sdk.tensor_arrays`), so a policy is served what it was trained on.

    python -m sdk.policy_bot bots.learned.policy:act --game example [--port N | --address unix:/p]

A game whose numbers depend on the table (an OpenSpiel game's tensor follows its parameters and
player count) is served for the table it was trained at: ``--players N --params '{"num_cards": 4}'``,
as ``aec_env`` took them.

In-process (``transport: inprocess``, ``smtourney duel``, a Gymnasium opponent) a module names a
class made by :func:`policy_bot_class`. An index outside the mask is answered with a legal action
instead, and said on standard error, rather than losing the match to a strike.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.games.registry import get_game
from sdk.games.tensors import action_mask, tensors_of
from sdk.serve import run
from sdk.tensor_arrays import MaskArray, TensorArray, mask_array, tensor_array

__all__ = ["Policy", "PolicyBot", "load_policy", "main", "policy_bot_class"]

Policy = Callable[[TensorArray, MaskArray], int]


class PolicyBot(Bot):
    """Answers every decision of one game with ``policy``'s choice among the legal actions."""

    def __init__(
        self, policy: Policy, game: str, players: int | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self.policy, self.game = policy, game
        self.tensors = tensors_of(get_game(game), players, params)

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        """The policy's action; a decision taken in parts is asked part by part, as the
        environments ask it, until the parts make the whole action."""
        tensors, in_parts = self.tensors, self.tensors.in_parts(observation)
        chosen: tuple[Any, ...] = ()
        while True:
            mask = mask_array(action_mask(tensors, observation, chosen))
            index = int(self.policy(tensor_array(tensors.encode(observation, chosen)), mask))
            if not 0 <= index < mask.size or not mask[index]:
                fallback = int(mask.argmax())
                print(
                    f"policy chose {index}, not a legal action; played {fallback}",
                    file=sys.stderr,
                    flush=True,
                )
                index = fallback
            choice = tensors.actions.action(index)
            if not in_parts:
                return choice
            chosen = (*chosen, choice)
            whole = tensors.whole(chosen)
            if whole is not None:
                return whole


def policy_bot_class(
    policy: Policy,
    game: str,
    name: str = "policy",
    version: str = "1",
    players: int | None = None,
    params: Mapping[str, Any] | None = None,
) -> type[Bot]:
    """A bot class serving ``policy`` for ``game``, for a module to name as ``module:Class``."""
    tensors_of(get_game(game), players, params)  # a game without tensors fails here, not at a decision

    class Served(PolicyBot):
        def __init__(self) -> None:
            super().__init__(policy, game, players, params)

    Served.name, Served.version, Served.games = name, version, (game,)
    return Served


def load_policy(target: str) -> Policy:
    """The function ``target`` (``module:function``) names, looked up as ``python -m`` would."""
    module_name, colon, function_name = target.partition(":")
    if not colon or not module_name or not function_name:
        raise ValueError(f"expected module:function (e.g. bots.learned.policy:act), got {target!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        found = getattr(importlib.import_module(module_name), function_name, None)
    except Exception as exc:  # anything the import runs may fail: report it in one line
        raise ValueError(f"cannot import {module_name!r}: {type(exc).__name__}: {exc}") from None
    if not callable(found):
        raise ValueError(f"module {module_name!r} has no function {function_name!r}")
    policy: Policy = found
    return policy


def main(argv: Sequence[str] | None = None) -> None:
    """Serve a policy; the serving options (``--port``, ``--address``, ...) are :func:`sdk.serve.run`'s."""
    parser = argparse.ArgumentParser(description="Serve policy(tensor, mask) -> action index as a bot.")
    parser.add_argument("policy", help="module:function, e.g. bots.learned.policy:act")
    parser.add_argument("--game", required=True, help="an installed game that declares tensors")
    parser.add_argument("--players", type=int, help="the table size trained for (default: the game's most)")
    parser.add_argument("--params", default="{}", help="the game's parameters trained with, as JSON")
    args, serving = parser.parse_known_args(argv)
    try:
        params = json.loads(args.params)
        if not isinstance(params, dict):
            raise ValueError(f"--params is a JSON object, not {args.params!r}")
        bot_class = policy_bot_class(
            load_policy(args.policy), args.game, name=args.policy, players=args.players, params=params
        )
    except json.JSONDecodeError as problem:
        print(f"error: --params is not JSON: {problem}", file=sys.stderr)
        raise SystemExit(2) from None
    except (KeyError, ValueError) as problem:
        print(f"error: {problem.args[0]}", file=sys.stderr)
        raise SystemExit(2) from None
    run(bot_class(), serving)


if __name__ == "__main__":
    main()
