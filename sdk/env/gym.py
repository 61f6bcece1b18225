"""A game as a Gymnasium environment: one seat learns, in-process bots play the others.

Opponents are trusted bot classes named ``module:Class``, as ``smtourney duel`` names them; each is
asked through its game's decision table from its own observation, as the referee asks a bot. An
action the engine refuses, the learner's or an opponent's, is a strike as in a match: the game's
safe default is played instead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym

from sdk.bot import Bot, MatchInfo
from sdk.bot_loading import BotClassError, bot_class_problem, load_bot_class
from sdk.games.context_wire import context_from_message
from sdk.games.decisions import DecisionContext
from sdk.games.errors import IllegalActionError
from sdk.games.plugin import GamePlugin

from .aec import observation_space
from .table import Table

DECISION_MS = 1000  # what opponents are told of their clock (nothing is timed in-process)


class Opponent:
    """One seat's bot, asked as the referee asks it: a request built from its observation."""

    def __init__(self, target: str, table: Table, seat: int) -> None:
        bot_class = load_bot_class(target)
        problem = bot_class_problem(bot_class, table.plugin)
        if problem is not None:
            raise BotClassError(problem)
        self.bot: Bot = bot_class()
        self.table, self.seat, self.decisions, self.match_id = table, seat, 0, ""
        self.handlers = table.plugin.decisions.method_handlers(self.bot, context_from_message)

    def start(self, match_id: str) -> None:
        self.decisions, self.match_id = 0, match_id
        table = self.table
        self.bot.start_match(
            MatchInfo(
                match_id, table.plugin.name, self.seat, table.players, dict(table.params), DECISION_MS, 0
            )
        )

    def decide(self) -> Any:
        """The bot's action at the pending decision."""
        self.decisions += 1
        plugin = self.table.plugin
        spec = plugin.decisions[plugin.decision_kind(self.table.state)]
        context = DecisionContext(self.match_id, self.decisions, self.seat, DECISION_MS, 0)
        request = spec.encode_request(self.table.observation(self.seat), context)
        handler = self.handlers[spec.rpc]
        assert handler.unary_unary is not None
        return spec.decode_reply(handler.unary_unary(request, None))  # type: ignore[arg-type]


class GameGymEnv(gym.Env[dict[str, Any], Any]):
    """Seat ``seat`` decides; every other seat is an opponent bot. Reward at the end, by rank."""

    def __init__(
        self,
        game: str | GamePlugin,
        players: int = 2,
        seat: int = 0,
        opponents: Sequence[str] = ("bots.random:RandomBot",),
        params: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.table = Table(game, players, params)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat}")
        others = [other for other in range(players) if other != seat]
        if len(opponents) not in (1, len(others)):
            raise ValueError(f"give one opponent for every seat or {len(others)}, not {len(opponents)}")
        targets = list(opponents) * len(others) if len(opponents) == 1 else list(opponents)
        self.seat = seat
        self.opponents = {
            other: Opponent(target, self.table, other) for other, target in zip(others, targets, strict=True)
        }
        self.observation_space = observation_space(self.table)
        self.action_space = gym.spaces.Discrete(self.table.tensors.actions.size)
        self.metadata = {"render_modes": ["ansi"]}
        self.render_mode = render_mode
        self._chance = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game; ``seed`` restarts the chance stream (without one it runs on)."""
        super().reset(seed=seed)
        if seed is not None:
            self._chance = random.Random(seed)
        match_id = f"env-{self._chance.getrandbits(64):016x}"  # the seed's, so bots replay alike
        self.table.reset(self._chance)
        for opponent in self.opponents.values():
            opponent.start(match_id)
        self._play_opponents()
        return self._observe(), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Take action number ``action``; one outside the mask is a strike, as in a match: the
        game's safe default is played instead and ``info["strike"]`` says why."""
        info: dict[str, Any] = {}
        try:
            self.table.apply(int(action))
        except IllegalActionError as refusal:
            info["strike"] = str(refusal)
            self.table.apply_action(self.table.plugin.default_action(self.table.state))
        self._play_opponents()
        reward = self.table.rewards()[self.seat]
        return self._observe(), reward, self.table.over, False, info

    def render(self) -> str | None:
        return self.table.plugin.render(self.table.state) if self.render_mode == "ansi" else None

    def _observe(self) -> dict[str, Any]:
        return {"observation": self.table.tensor(self.seat), "action_mask": self.table.mask(self.seat)}

    def _play_opponents(self) -> None:
        table = self.table
        while not table.over and table.seat != self.seat:
            action = self.opponents[table.seat].decide()
            try:
                table.apply_action(action)
            except IllegalActionError:
                table.apply_action(table.plugin.default_action(table.state))


def gym_env(
    game: str | GamePlugin,
    players: int = 2,
    seat: int = 0,
    opponents: Sequence[str] = ("bots.random:RandomBot",),
    params: Mapping[str, Any] | None = None,
) -> GameGymEnv:
    """``game`` as a Gymnasium environment for ``seat``, the other seats played by ``opponents``
    (``module:Class``; one for all of them, or one each)."""
    return GameGymEnv(game, players, seat, opponents, params)
