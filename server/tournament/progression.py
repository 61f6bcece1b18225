"""A tournament's schedule as it unfolds: stage by stage, and round by round where the next
tables depend on results.

A round of a stage whose tables depend on results (swiss, knockout, a stopping rule, an SPRT)
is formed only from the stored results of the stage's completed rounds: a barrier between
rounds. Match ids, indices and seeds follow from the position of a match in the schedule
(stage, round, table, rotation), so replaying the progression over the results a database
holds gives back exactly the matches already played, and the same next round, whoever played
them and however often the run was interrupted.

A single stage of a format that does not look at results, with a fixed number of rounds, is
handed over as one batch: the whole schedule at once, played without barriers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import trueskill

from server.seeds import derive_seed
from server.store.repository import MatchResult

from .formats import FORMATS, PlayedRound, RoundContext, Table, ranking
from .formats.knockout import Tree, levels, tree
from .ratings import rate
from .schedule import ScheduledMatch, round_matches
from .sprt import SprtState, evaluate, pair_outcome
from .stopping import PairBelief, least_settled


@dataclass(frozen=True, slots=True)
class StopRule:
    """``until``: rounds are added until the ranking is settled with ``confidence``."""

    confidence: float
    max_rounds: int


@dataclass(frozen=True, slots=True)
class SprtRule:
    """``sprt``: pairs are added until the test accepts H0 or H1, or ``max_rounds`` pairs."""

    p0: float
    p1: float
    alpha: float
    beta: float
    max_rounds: int


@dataclass(frozen=True, slots=True)
class StageRules:
    """One stage: its format and how long it lasts."""

    name: str
    """Prefix of its match ids; "" for a bracket of one stage."""
    format: str
    rounds: int
    groups: int = 1
    advance: int | None = None
    until: StopRule | None = None
    settle: int | None = None
    sprt: SprtRule | None = None
    reseed: bool = False
    """A knockout: seed those who go on again after every level, instead of a fixed tree."""

    @property
    def most_rounds(self) -> int:
        """The most rounds the stage can have (fixes the width of round numbers in match ids)."""
        if self.sprt is not None:
            return self.sprt.max_rounds
        if self.until is not None:
            return max(self.rounds, self.until.max_rounds)
        return self.rounds


@dataclass(frozen=True, slots=True)
class Plan:
    """All that decides a tournament's schedule."""

    names: tuple[str, ...]
    players: int
    seed: int
    duplicate: bool
    max_tables: int
    candidates: frozenset[int]
    stages: tuple[StageRules, ...]


@dataclass
class _Stage:
    """The stage being played: its entrants, groups, and completed rounds."""

    index: int
    rules: StageRules
    groups: tuple[tuple[int, ...], ...]
    seed: int
    rounds: list[PlayedRound] = field(default_factory=list)
    """Completed rounds, each with the tables and results of every group."""
    group_rounds: list[list[PlayedRound]] = field(default_factory=list)
    """The same rounds, per group."""
    ratings: list[trueskill.Rating] = field(default_factory=list)
    """Every entrant's rating over the completed rounds, brought up to date round by round."""


class Progression:
    """Hands out the schedule batch by batch, each formed from the results of the ones before."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self._next_index = 0
        self._pending: list[ScheduledMatch] = []
        self._stage = self._start(0, tuple(range(len(plan.names))))
        self._done = False
        self.status = ""
        """One line on how settled the stage is (the least settled pair, the SPRT's LLR)."""
        self._verdicts: dict[int, str] = {}

    @property
    def static(self) -> bool:
        """Whether the whole schedule is known before any result: one stage of a format that does
        not look at results, for a fixed number of rounds. It is then handed out as one batch."""
        (rules, *others) = self.plan.stages
        by_rounds = rules.until is None and rules.sprt is None
        return not others and by_rounds and not FORMATS[rules.format].adaptive

    def next_batch(self, results: Mapping[int, MatchResult]) -> list[ScheduledMatch] | None:
        """The next matches to play, once every match of the previous batch is in ``results``;
        None when the tournament is over."""
        if self._pending:
            self._record([results[m.index] for m in self._pending])
        self._pending = []
        while not self._done:
            batch = self._next_in_stage()
            if batch:
                self._pending = batch
                self._next_index += len(batch)
                return batch
            self._finish_stage()
        return None

    # --- stages

    def _start(self, index: int, entrants: tuple[int, ...]) -> _Stage:
        rules = self.plan.stages[index]
        count = rules.groups
        # Snake seeding: seed k goes to group k, k+1 to the next, and back at the end of a lap.
        members: list[list[int]] = [[] for _ in range(count)]
        for i, entrant in enumerate(entrants):
            lap, pos = divmod(i, count)
            members[pos if lap % 2 == 0 else count - 1 - pos].append(entrant)
        seed = self.plan.seed if not rules.name else derive_seed(self.plan.seed, "stage", rules.name)
        stage = _Stage(index, rules, tuple(map(tuple, members)), seed)
        stage.group_rounds = [[] for _ in range(count)]
        stage.ratings, _ = rate(len(self.plan.names), ())
        return stage

    def _finish_stage(self) -> None:
        stage = self._stage
        if stage.index + 1 == len(self.plan.stages):
            self._done = True
            return
        advance = stage.rules.advance
        assert advance is not None  # validated: every stage but the last says how many go on
        rankings = [[e for e, _ in ranking(group, stage.ratings)] for group in stage.groups]
        going_on = tuple(ranked[place] for place in range(advance) for ranked in rankings)
        self._stage = self._start(stage.index + 1, going_on)

    def _record(self, results: list[MatchResult]) -> None:
        """File the results of the batch handed out last under its rounds and groups."""
        stage = self._stage
        by_table: dict[tuple[int, int], list[MatchResult]] = {}
        for match, result in zip(self._pending, results, strict=True):
            by_table.setdefault((match.round, match.table), []).append(result)
        for round_, tables in sorted(self._pending_tables.items()):
            played = tuple(r for n in range(len(tables)) for r in by_table[(round_, n)])
            stage.rounds.append(PlayedRound(tuple(t for _, t in tables), played))
            stage.ratings, _ = rate(
                len(self.plan.names), sorted(played, key=lambda r: r.index), stage.ratings
            )
            for group in range(len(stage.groups)):
                mine = [n for n, (g, _) in enumerate(tables) if g == group]
                stage.group_rounds[group].append(
                    PlayedRound(
                        tuple(tables[n][1] for n in mine),
                        tuple(r for n in mine for r in by_table[(round_, n)]),
                    )
                )
        self._update_status()

    # --- rounds

    _pending_tables: dict[int, list[tuple[int, Table]]]
    """(group, table) of each round of the batch handed out last."""

    def _context(self, group: int, round_: int) -> RoundContext:
        stage = self._stage
        return RoundContext(
            pool=stage.groups[group],
            players=self.plan.players,
            round=round_,
            seed=stage.seed if len(stage.groups) == 1 else derive_seed(stage.seed, "group", group),
            max_tables=self.plan.max_tables,
            candidates=self.plan.candidates,
            advance=stage.rules.advance or 1,
            ratings=tuple(stage.ratings),
            history=tuple(stage.group_rounds[group]),
            reseed=stage.rules.reseed,
        )

    def _next_in_stage(self) -> list[ScheduledMatch]:
        """The next round of the stage (several at once when nothing depends on results);
        [] when the stage is over."""
        stage = self._stage
        rules = stage.rules
        played = len(stage.rounds)
        form = FORMATS[rules.format]
        if self._stage_over(played):
            return []
        last = rules.rounds if self.static else played + 1
        batch: list[ScheduledMatch] = []
        self._pending_tables = {}
        for round_ in range(played + 1, last + 1):
            tables: list[tuple[int, Table]] = []
            for group in range(len(stage.groups)):
                formed = form.tables(self._context(group, round_))
                if formed is None:
                    return []
                tables += [(group, t) for t in formed]
            self._pending_tables[round_] = tables
            batch += round_matches(
                [t for _, t in tables],
                round_=round_,
                rounds=levels_or_rounds(rules, stage, self.plan.players),
                seed=stage.seed,
                duplicate=self.plan.duplicate,
                first_index=self._next_index + len(batch),
                prefix=rules.name,
                repeats=rules.rounds if form.ends_itself else 1,
            )
        return batch

    def _stage_over(self, played: int) -> bool:
        rules = self._stage.rules
        if FORMATS[rules.format].ends_itself:
            return False  # the format says when: its tables come back None
        if rules.sprt is not None:
            state = self.sprt_state()
            return state is not None and (state.verdict != "continue" or played >= rules.sprt.max_rounds)
        if rules.until is not None:
            if played >= rules.until.max_rounds:
                return True
            belief = self.least_settled()
            return (
                played >= rules.rounds and belief is not None and belief.probability >= rules.until.confidence
            )
        return played >= rules.rounds

    def knockout(self) -> Tree | None:
        """The bracket of the stage being played, when it is a knockout: as far as the results
        handed in so far settle it."""
        rules = self._stage.rules
        if rules.format != "knockout":
            return None
        return tree(self._context(0, len(self._stage.rounds) + 1))

    # --- how settled

    def least_settled(self) -> PairBelief | None:
        """The least settled pair the stopping rule checks, over every group."""
        stage = self._stage
        if not stage.rounds:
            return None
        beliefs = [least_settled(ranking(group, stage.ratings), stage.rules.settle) for group in stage.groups]
        return min((b for b in beliefs if b is not None), key=lambda b: b.probability, default=None)

    def sprt_state(self) -> SprtState | None:
        """Where the SPRT of the stage stands (None without one)."""
        rules = self._stage.rules.sprt
        if rules is None:
            return None
        (candidate,) = self.plan.candidates
        counts = [0] * 5
        for played in self._stage.rounds:
            first, second = (_score(result, candidate) for result in played.results)
            counts[pair_outcome(first, second)] += 1
        return evaluate(counts, rules.p0, rules.p1, rules.alpha, rules.beta)

    def _update_status(self) -> None:
        stage = self._stage
        rules = stage.rules
        names = self.plan.names
        where = f"{rules.name}: " if rules.name else ""
        if (state := self.sprt_state()) is not None:
            self.status = f"{where}SPRT {state.line()}"
            if state.verdict != "continue" or state.pairs >= (rules.sprt.max_rounds if rules.sprt else 0):
                verdict = "no decision" if state.verdict == "continue" else f"{state.verdict} accepted"
                self._set_verdict(f"{where}SPRT: {verdict}, {state.line()}")
        elif rules.until is not None and (belief := self.least_settled()) is not None:
            pair = f"{names[belief.above]} > {names[belief.below]} at {belief.probability:.3f}"
            self.status = f"{where}least settled: {pair}"
            played = len(stage.rounds)
            if played >= rules.until.max_rounds or (
                played >= rules.rounds and belief.probability >= rules.until.confidence
            ):
                how = "settled" if belief.probability >= rules.until.confidence else "max_rounds reached"
                self._set_verdict(f"{where}{how} after {played} rounds; least settled pair {pair}")

    def _set_verdict(self, line: str) -> None:
        self._verdicts[self._stage.index] = line

    @property
    def verdicts(self) -> list[str]:
        """One line per stage with a stopping rule or an SPRT that has stopped: why it stopped."""
        return [self._verdicts[i] for i in sorted(self._verdicts)]


def _score(result: MatchResult, entrant: int) -> float:
    """1 for finishing ahead of every other seat, 1/2 for sharing first place, 0 otherwise."""
    seat = result.entrants.index(entrant)
    rank = result.ranks[seat]
    if rank != 1:
        return 0.0
    return 1.0 if result.ranks.count(1) == 1 else 0.5


def levels_or_rounds(rules: StageRules, stage: _Stage, players: int) -> int:
    """The most rounds of the stage: a knockout's levels, else :attr:`StageRules.most_rounds`."""
    if FORMATS[rules.format].ends_itself:
        return max(len(levels(len(group), players, rules.advance or 1)) for group in stage.groups)
    return rules.most_rounds
