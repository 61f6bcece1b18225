"""Balanced designs: tables in which every pair of entrants meets equally often, found by local search.

When a round robin would have too many tables to play every ``players``-subset, :mod:`.schedule`
plays a design from here instead: pairs meet equally often ±1 (at least once) and entrants play
equally many tables ±1, in close to the fewest tables that allow it. The search is bounded by a
fixed amount of work counted in moves and draws only from ``Random.random()``, so a design is a
pure function of (entrants, players, seed), rebuildable whenever a schedule is.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations
from math import comb

__all__ = ["balanced_design", "stable_sample"]

_SEARCH_WORK = 30
"""Moves priced per entrant² looking for smaller designs than the first one found: the
bound on generation time (about 0.3 s at 100 entrants). More buys a few percent fewer tables."""
_SEARCH_FLOOR = 50_000
"""Moves priced at least, whatever the size: small designs are cheap and worth the search."""
_ATTEMPT_WORK = 5
"""Moves priced per entrant² in one attempt at balancing a given number of tables."""
_TENURE = 10
"""Steps during which an entrant may not return to the table it was moved from."""
_MAX_GROWTH = 200
"""Tables added to a design the search cannot balance before giving up."""
_LOW = (1 << 20) - 1
"""Mask of the low bits of a packed greedy score, which hold the entrant."""


@lru_cache(maxsize=32)
def balanced_design(entrants: int, players: int, *, seed: int) -> tuple[tuple[int, ...], ...]:
    """Tables (sorted ``players``-tuples) in which pairs meet equally often ±1 (at least once)
    and entrants play equally often ±1, in close to the fewest tables possible.

    A greedy cover (start each table with the least-played entrant, add whoever repeats
    the fewest pairs) is balanced by local search, which then removes tables while it can
    still rebalance the rest, and, with few entrants, tries smaller sizes from scratch; all
    within a fixed amount of work, counted in moves, so the result is deterministic.
    """
    n, k = entrants, players
    if not 2 <= k <= n:
        raise ValueError(f"players must be between 2 and entrants ({n}), got {k}")
    if n >= _LOW:
        raise ValueError(f"at most {_LOW - 1} entrants, got {n}")
    if k in (2, n):
        # Every pair must meet, and pairs are tables: nothing smaller than all of them.
        return tuple(combinations(range(n), k))
    if k == n - 1:
        # Tables leave out one entrant each; leaving out all but entrant 0 once is the
        # smallest balanced choice (leave-out counts may differ at one entrant only).
        return tuple(tuple(e for e in range(n) if e != out) for out in range(1, n))
    rng = random.Random(seed)
    label = stable_sample(rng, n, n)
    search = _Search(n, k, [[label[e] for e in table] for table in _greedy_cover(n, k)], rng)
    attempt = _ATTEMPT_WORK * n * n + 2_000
    # 1. Repair the greedy cover; in small cases no balanced design of its size may exist
    # (or be found): add tables until one is.
    growth = 0
    while not (_plausible(n, k, len(search.tables)) and search.run(search.work + attempt)):
        growth += 1
        if growth > _MAX_GROWTH:  # pragma: no cover - not reached for any tested size
            raise RuntimeError(f"no balanced design found for {n} entrants, {k} players")
        search.add_table(search.fresh_table())
    best = search.snapshot()
    budget = search.work + _SEARCH_WORK * n * n + _SEARCH_FLOOR
    lower = -(-comb(n, 2) // comb(k, 2))
    sizes = [size for size in range(lower, len(best)) if _plausible(n, k, size)]
    # 2. Remove tables while the search can rebalance the rest. Some sizes are much
    # harder than their neighbours (e.g. every entrant in exactly as many tables): after
    # a failure, try the next size down once, from the last success.
    failed = False
    while sizes and search.work < budget:
        target = sizes.pop()
        while len(search.tables) > target:
            search.remove_table(search.most_redundant_table())
        if search.run(min(budget, search.work + attempt)):
            best, failed = search.snapshot(), False
        elif failed:
            break
        else:
            search, failed = _Search(n, k, best, rng, work=search.work), True
    # 3. With few entrants, balanced sizes are sparse and step 2 stops at a gap: try each
    # size upwards from the bound, from random tables, doubling the effort per size after
    # each fruitless pass, while work is left (large designs have used it up by now).
    work, effort = search.work, attempt
    sizes = [size for size in range(lower, len(best)) if _plausible(n, k, size)]
    while sizes and work < budget:
        for i, size in enumerate(sizes):
            trial = _Search(n, k, [stable_sample(rng, n, k) for _ in range(size)], rng, work=work)
            found = trial.run(min(budget, work + effort))
            work = trial.work
            if found:
                best, sizes = trial.snapshot(), sizes[:i]
                break
            if work >= budget:
                break
        else:
            effort *= 2
    return tuple(tuple(sorted(table)) for table in best)


def _plausible(n: int, k: int, size: int) -> bool:
    """Whether counting allows a balanced design of ``size`` tables (necessary, not sufficient).

    Balance forces the two pair counts lo, hi and table counts rlo, rhi, and how many
    entrants play rhi tables; an entrant playing r tables then meets
    d = r(k-1) - lo(n-1) partners hi times, and those degrees must form a graph.
    """
    pairs, slots = n * (n - 1) // 2, size * k * (k - 1) // 2
    lo, hi = slots // pairs, -(-slots // pairs)
    rlo = size * k // n
    busy = size * k - n * rlo  # entrants who play rlo + 1 tables
    low, high = rlo * (k - 1) - lo * (n - 1), (rlo + 1) * (k - 1) - lo * (n - 1)
    spread = (hi - lo) * (n - 1)
    if lo < 1 or (busy < n and not 0 <= low <= spread) or (busy > 0 and not 0 <= high <= spread):
        return False
    return _graphical(high, busy, low, n - busy)


def _graphical(high: int, many: int, low: int, rest: int) -> bool:
    """Erdős-Gallai for ``many`` vertices of degree ``high`` and ``rest`` of degree ``low``."""
    if (high * many + low * rest) % 2:
        return False
    total = 0
    for i in range(1, many + rest + 1):
        total += high if i <= many else low
        tail = max(0, many - i) * min(high, i) + min(rest, many + rest - i) * min(low, i)
        if total > i * (i - 1) + tail:
            return False
    return True


def _greedy_cover(n: int, k: int) -> list[list[int]]:
    """Tables until every pair has met: each starts with a least-played entrant who still
    has someone to meet, then adds whoever makes the fewest third, then second meetings,
    then has played least; remaining ties go to the lowest index (the caller relabels).
    """
    full = (1 << n) - 1
    met = [1 << a for a in range(n)]  # meeting oneself: a full row means nobody left to meet
    twice = [0] * n
    played = [0] * n
    levels = [full]  # levels[p]: entrants who have played p tables
    floor = 0  # lowest non-empty level
    open_ = full  # entrants with someone left to meet
    unmet = n * (n - 1) // 2
    tables: list[list[int]] = []

    def least_played(within: int) -> int:
        """The least-played entrant of a non-empty set, lowest index first."""
        for level in levels[floor:]:
            if found := within & level:
                return (found & -found).bit_length() - 1
        raise AssertionError("empty set")  # pragma: no cover

    while unmet:
        members = [least_played(open_)]
        mask, seen = 1 << members[0], met[members[0]]
        for _ in range(k - 1):
            if fresh := full & ~seen:  # someone who has met nobody at the table yet
                best = least_played(fresh)
            else:  # pack the criteria into one int, the index in the low bits
                best = (
                    min(
                        [
                            (twice[c] & mask).bit_count() << 60
                            | (met[c] & mask).bit_count() << 40
                            | played[c] << 20
                            | c
                            for c in range(n)
                            if not mask >> c & 1
                        ]
                    )
                    & _LOW
                )
            members.append(best)
            mask |= 1 << best
            seen |= met[best]
        for i, a in enumerate(members):
            levels[played[a]] ^= 1 << a
            played[a] += 1
            if played[a] == len(levels):
                levels.append(0)
            levels[played[a]] |= 1 << a
            for b in members[i + 1 :]:
                if met[a] >> b & 1:
                    twice[a] |= 1 << b
                    twice[b] |= 1 << a
                else:
                    met[a] |= 1 << b
                    met[b] |= 1 << a
                    unmet -= 1
        while not levels[floor]:
            floor += 1
        for a in members:
            if met[a] == full:
                open_ &= ~(1 << a)
        tables.append(members)
    return tables


class _Search:
    """Local search over tables: a move replaces one member of one table by an outsider.

    The cost counts how far each pair count lies outside [lo, hi] and each entrant's
    table count outside [rlo, rhi]: the only bands that allow ±1 balance for the current
    number of tables. A step picks a random violation and makes the cheapest move that
    mends it (ties broken at random; moving someone straight back is tabu for a while).

    Per entrant, bitsets of partners by pair count (``below``: < lo, ``upto``: <= lo,
    ``from_``: >= hi, ``above``: > hi) price a move in four popcounts.
    """

    def __init__(self, n: int, k: int, tables: list[list[int]], rng: random.Random, *, work: int = 0) -> None:
        self.n, self.k, self.rng = n, k, rng
        self.tables = [list(t) for t in tables]
        self.tmask = [_mask(t) for t in self.tables]
        self.count = [[0] * n for _ in range(n)]
        self.played = [0] * n
        # Tables of each entrant; iterated sorted, since set order is an implementation detail.
        self.where: list[set[int]] = [set() for _ in range(n)]
        for t, table in enumerate(self.tables):
            for a in table:
                self.played[a] += 1
                self.where[a].add(t)
                row = self.count[a]
                for b in table:
                    if b != a:
                        row[b] += 1
        self.below = [0] * n
        self.upto = [0] * n
        self.from_ = [0] * n
        self.above = [0] * n
        self.lo = self.hi = self.rlo = self.rhi = -1
        self.pcost: list[int] = []
        self.ins: list[int] = []
        self.rem: list[int] = []
        self.violations: list[int] = []
        self.position: dict[int, int] = {}
        self.cost = 0
        self.step = 0
        self.work = work
        """Moves priced so far: the deterministic clock that bounds the search."""
        self.tabu: dict[tuple[int, int], int] = {}
        self._retarget()

    # --- bookkeeping

    def _entrant_cost(self, played: int) -> int:
        return max(0, self.rlo - played, played - self.rhi)

    def _retarget(self) -> None:
        """Set the bands for the current number of tables and recount what they change."""
        n, k, size = self.n, self.k, len(self.tables)
        pairs = n * (n - 1) // 2
        slots = size * comb(k, 2)
        lo, hi = slots // pairs, -(-slots // pairs)
        for a in range(n):  # entrant violations under the old band
            if n * n + a in self.position:
                self.cost -= self._entrant_cost(self.played[a])
                self._unflag(n * n + a)
        self.rlo, self.rhi = size * k // n, -(-size * k // n)
        rlo, rhi, limit = self.rlo, self.rhi, size + 2
        # Indexed by count: cost of a pair, change in cost of an entrant playing one more
        # (ins) or one less (rem) table; built from runs since this runs per table removed.
        self.pcost = pcost = [*range(lo, 0, -1), *[0] * (hi - lo + 1), *range(1, limit - hi)]
        self.ins = [*[-1] * rlo, *[0] * (rhi - rlo), *[1] * (limit - rhi)]
        self.rem = [0, *[1] * rlo, *[0] * (rhi - rlo), *[-1] * (limit - rhi - 1)]
        if (lo, hi) != (self.lo, self.hi):
            self.lo, self.hi = lo, hi
            for key in [key for key in self.violations if key < n * n]:
                self._unflag(key)
            self.cost = 0
            for a in range(n):
                row = self.count[a]
                below = upto = from_ = above = 0
                for b in range(n):
                    if b == a:
                        continue
                    c, bit = row[b], 1 << b
                    if c < lo:
                        below |= bit
                    if c <= lo:
                        upto |= bit
                    if c >= hi:
                        from_ |= bit
                    if c > hi:
                        above |= bit
                    if b > a and pcost[c]:
                        self.cost += pcost[c]
                        self._flag(a * n + b)
                self.below[a], self.upto[a], self.from_[a], self.above[a] = below, upto, from_, above
        for a in range(n):
            if c := self._entrant_cost(self.played[a]):
                self.cost += c
                self._flag(n * n + a)

    def _flag(self, key: int) -> None:
        if key not in self.position:
            self.position[key] = len(self.violations)
            self.violations.append(key)

    def _unflag(self, key: int) -> None:
        pos = self.position.pop(key, None)
        if pos is not None:
            last = self.violations.pop()
            if pos < len(self.violations):
                self.violations[pos] = last
                self.position[last] = pos

    def _bump(self, a: int, b: int, sign: int) -> None:
        """Change the count of pair (a, b) by ``sign``, keeping bitsets and violations."""
        old = self.count[a][b]
        new = old + sign
        self.count[a][b] = self.count[b][a] = new
        before, after = self.pcost[old], self.pcost[new]
        if before != after:
            self.cost += after - before
            key = a * self.n + b if a < b else b * self.n + a
            if not before:
                self._flag(key)
            elif not after:
                self._unflag(key)
        lo, hi = self.lo, self.hi
        for bits, was, now in (
            (self.below, old < lo, new < lo),
            (self.upto, old <= lo, new <= lo),
            (self.from_, old >= hi, new >= hi),
            (self.above, old > hi, new > hi),
        ):
            if was != now:
                bits[a] ^= 1 << b
                bits[b] ^= 1 << a

    def _bump_played(self, a: int, sign: int) -> None:
        old = self.played[a]
        self.played[a] = old + sign
        before, after = self._entrant_cost(old), self._entrant_cost(old + sign)
        self.cost += after - before
        if after and not before:
            self._flag(self.n * self.n + a)
        elif before and not after:
            self._unflag(self.n * self.n + a)

    def apply(self, t: int, x: int, y: int) -> None:
        """Replace ``x`` by ``y`` at table ``t``."""
        table = self.tables[t]
        for m in table:
            if m != x:
                self._bump(x, m, -1)
                self._bump(y, m, 1)
        table[table.index(x)] = y
        self.tmask[t] ^= (1 << x) | (1 << y)
        self.where[x].discard(t)
        self.where[y].add(t)
        self._bump_played(x, -1)
        self._bump_played(y, 1)
        self.tabu[(t, x)] = self.step + _TENURE

    def _count_table(self, table: list[int], sign: int) -> None:
        for i, a in enumerate(table):
            self._bump_played(a, sign)
            for b in table[i + 1 :]:
                self._bump(a, b, sign)

    def add_table(self, table: list[int]) -> None:
        t = len(self.tables)
        self.tables.append(list(table))
        self.tmask.append(_mask(table))
        for a in table:
            self.where[a].add(t)
        self._count_table(table, 1)
        self.tabu.clear()
        self._retarget()

    def remove_table(self, t: int) -> None:
        table = self.tables[t]
        self._count_table(table, -1)
        for a in table:
            self.where[a].discard(t)
        last = len(self.tables) - 1
        if t != last:
            moved = self.tables[t] = self.tables[last]
            self.tmask[t] = self.tmask[last]
            for a in moved:
                self.where[a].discard(last)
                self.where[a].add(t)
        self.tables.pop()
        self.tmask.pop()
        self.tabu.clear()
        self._retarget()

    def fresh_table(self) -> list[int]:
        """A table of least-played entrants who have met each other least."""
        n, rank = self.n, stable_sample(self.rng, self.n, self.n)
        members = [min(range(n), key=lambda a: (self.played[a], rank[a]))]
        for _ in range(self.k - 1):
            members.append(
                min(
                    (c for c in range(n) if c not in members),
                    key=lambda c: (sum(self.count[c][m] for m in members), self.played[c], rank[c]),
                )
            )
        return members

    def most_redundant_table(self) -> int:
        """Of a sample of tables, the one whose removal breaks the fewest counts."""
        size = len(self.tables)
        sample = range(size) if size <= 64 else stable_sample(self.rng, size, 64)
        upto, above, rem, played = self.upto, self.above, self.rem, self.played

        def loss(t: int) -> int:
            tm = self.tmask[t]
            pairs = sum((upto[a] & tm).bit_count() - (above[a] & tm).bit_count() for a in self.tables[t])
            return pairs // 2 + sum(rem[played[a]] for a in self.tables[t])

        return min(sample, key=loss)

    def snapshot(self) -> list[list[int]]:
        return list(map(list, self.tables))

    # --- search

    def run(self, work_limit: int) -> bool:
        """Search until no violation is left (True) or :attr:`work` reaches ``work_limit``."""
        n = self.n
        while self.cost:
            if self.work >= work_limit:
                return False
            self.step += 1
            key = self.violations[_below(self.rng, len(self.violations))]
            if key >= n * n:
                moves = self._entrant_moves(key - n * n)
            else:
                a, b = divmod(key, n)
                moves = self._meet_moves(a, b) if self.count[a][b] < self.lo else self._part_moves(a, b)
            self.work += len(moves) + 1
            move = self._choose(moves)
            if move is not None:
                self.apply(*move)
        return True

    def _choose(self, moves: list[tuple[int, int, int, int]]) -> tuple[int, int, int] | None:
        """The cheapest move not tabu (unless it mends everything), ties broken at random."""
        best: tuple[int, int, int] | None = None
        best_delta = 1 << 30
        ties = 0
        tabu, step, cost, rng = self.tabu, self.step, self.cost, self.rng
        for delta, t, x, y in moves:
            if delta > best_delta or (tabu.get((t, y), 0) > step and cost + delta > 0):
                continue
            if delta < best_delta:
                best, best_delta, ties = (t, x, y), delta, 1
            else:
                ties += 1
                if _below(rng, ties) == 0:
                    best = (t, x, y)
        return best

    def _price(self, t: int, x: int, y: int) -> int:
        others = self.tmask[t] & ~(1 << x)
        return (
            (self.upto[x] & others).bit_count()
            - (self.above[x] & others).bit_count()
            + (self.from_[y] & others).bit_count()
            - (self.below[y] & others).bit_count()
            + self.rem[self.played[x]]
            + self.ins[self.played[y]]
        )

    def _meet_moves(self, a: int, b: int) -> list[tuple[int, int, int, int]]:
        """Moves that bring a and b together: one takes a seat at a table of the other."""
        tmask, upto, above, rem, played = self.tmask, self.upto, self.above, self.rem, self.played
        moves: list[tuple[int, int, int, int]] = []
        for t, u, v in [(t, a, b) for t in sorted(self.where[a])] + [
            (t, b, a) for t in sorted(self.where[b])
        ]:
            tm = tmask[t]
            if tm >> v & 1:
                continue
            fv, bv = self.from_[v], self.below[v]
            base = (fv & tm).bit_count() - (bv & tm).bit_count() + self.ins[played[v]]
            for x in self.tables[t]:
                if x != u:
                    delta = (
                        base
                        - (fv >> x & 1)
                        + (bv >> x & 1)
                        + (upto[x] & tm).bit_count()
                        - (above[x] & tm).bit_count()
                        + rem[played[x]]
                    )
                    moves.append((delta, t, x, v))
        return moves

    def _part_moves(self, a: int, b: int) -> list[tuple[int, int, int, int]]:
        """Moves that make a and b meet once less: one leaves a table they share."""
        moves: list[tuple[int, int, int, int]] = []
        for t in sorted(self.where[a] & self.where[b]):
            tm = self.tmask[t]
            for x in (a, b):
                moves.extend((self._price(t, x, y), t, x, y) for y in range(self.n) if not tm >> y & 1)
        return moves

    def _entrant_moves(self, a: int) -> list[tuple[int, int, int, int]]:
        """Moves that give an entrant who plays too much (too little) a table less (more)."""
        n, played, tmask = self.n, self.played, self.tmask
        # Someone above the band implies someone below its middle, and the reverse:
        # the extremes on the other side are the natural partners.
        if played[a] > self.rhi:
            least = min(played)
            takers = [y for y in range(n) if played[y] == least]
            return [
                (self._price(t, a, y), t, a, y)
                for t in sorted(self.where[a])
                for y in takers
                if not tmask[t] >> y & 1
            ]
        most = max(played)
        givers = [x for x in range(n) if played[x] == most]
        return [
            (self._price(t, x, a), t, x, a)
            for x in givers
            for t in sorted(self.where[x])
            if not tmask[t] >> a & 1
        ]


def _mask(members: Iterable[int]) -> int:
    bits = 0
    for m in members:
        bits |= 1 << m
    return bits


# Python keeps the sequence of ``Random.random()`` for a given seed stable across versions,
# but not that of shuffle, sample or randrange: schedules must be rebuildable later.


def _below(rng: random.Random, n: int) -> int:
    """A random integer in range(n), from ``random()`` alone."""
    return int(rng.random() * n)


def stable_sample(rng: random.Random, n: int, k: int) -> list[int]:
    """``k`` distinct random integers of range(n) in random order, from ``random()`` alone."""
    pool = list(range(n))
    for i in range(k):
        j = i + _below(rng, n - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]
