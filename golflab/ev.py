"""Exact expected values from what one seat can see (spec sections 2, 6 and 9).

The model: every card the seat cannot see (its own and the opponents' face-down cards,
the draw pile) is, from the seat's point of view, a uniformly shuffled *unseen pool*
whose composition is the full deck (``Rules.decks_for`` and the joker mode) minus every
visible card (face-up grid cards, the discard pile, the card the seat holds). Each
face-down position is a draw without replacement from that pool, so

* one face-down card has the pool's mean value (``expected_unseen_value``);
* a column is scored exactly: the chance that its face-down card(s) pair is taken from
  the pool's counts (two face-down cards: c(c-1) / N(N-1) per rank), including the -4
  of ``eagle_eye`` joker pairs and 0 for every other pair;
* columns add up by linearity of expectation, and ``wolfpack`` (-5 for two or more
  columns of paired jacks) is added with its exact probability (inclusion-exclusion
  over the columns, hypergeometric in the unseen jacks).

Values are hand-score points: **lower is better** (golf). A "change" is the expected
hand score after a move minus before it, so a negative change is an improvement.
Opponents' behaviour is not modelled (what they hold back or pass is not inferred).

From an observation: ``unseen_counts(obs)``, ``expected_unseen_value(obs)``,
``hand_ev(obs, seat)``, ``placement_evs(obs, card)``, ``take_ev(obs)``, ``draw_ev(obs)``,
``action_values(obs)`` (every legal action). From counts alone: ``deck_counts(rules,
players)``, ``pair_probability(rank, counts, draws)`` and ``Pool(counts, rules)`` with
``mean``, ``column_ev``, ``hand_ev``, ``placements`` and ``best_change`` on grids of ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from numbers import Integral
from typing import Mapping, Sequence

from .cards import JOKER_RANK, RANKS, Card, build_deck
from .rules import Rules, rank_value

#: Ranks in a fixed order (jokers last).
ALL_RANKS = RANKS + (JOKER_RANK,)
COLUMN_OF = (0, 1, 2, 0, 1, 2)
PARTNER = (3, 4, 5, 0, 1, 2)
_COLUMNS = ((0, 3), (1, 4), (2, 5))
_RANK_SET = frozenset(ALL_RANKS)
SWAP_NAMES = tuple(f"swap {i}" for i in range(6))
_deck_cache: dict[tuple[int, str], dict[str, int]] = {}


def deck_counts(rules: Rules, players: int) -> dict[str, int]:
    """Rank -> number of cards of that rank in the full deck for ``rules`` and ``players``."""
    key = (rules.decks_for(players), rules.jokers)
    counts = _deck_cache.get(key)
    if counts is None:
        counts = {}
        for card in build_deck(*key):
            counts[card.rank] = counts.get(card.rank, 0) + 1
        _deck_cache[key] = counts
    return dict(counts)


def unseen_counts(obs) -> dict[str, int]:
    """Rank -> number of cards of that rank the observing seat cannot see.

    The full deck minus face-up grid cards (every seat), the discard pile and the card
    this seat holds (or the card the current player took, which everybody saw).
    """
    counts = deck_counts(obs.rules, len(obs.players))
    for card in obs.visible_cards():
        left = counts.get(card.rank, 0) - 1
        if left < 0:
            raise ValueError(f"the observation shows more {card.rank} cards than the deck holds")
        counts[card.rank] = left
    return counts


def _rank(card) -> str:
    if isinstance(card, Card):
        return card.rank
    if isinstance(card, str) and card in ALL_RANKS:
        return card
    return Card.parse(card).rank


class _Table:
    """Values and pair points of every rank under one ``Rules`` (computed once per rules)."""

    __slots__ = ("rules", "values", "pair_points", "weight")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.values = {r: rank_value(r, rules) for r in ALL_RANKS}
        self.pair_points = {r: 0 for r in ALL_RANKS}
        if rules.jokers == "eagle_eye":
            self.pair_points[JOKER_RANK] = -4
        # what a pair of the rank takes off a column's unpaired sum
        self.weight = {r: 2 * self.values[r] - self.pair_points[r] for r in ALL_RANKS}


_tables: dict[int, tuple[Rules, _Table]] = {}


def _table(rules: Rules) -> _Table:
    found = _tables.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_tables) > 256:
            _tables.clear()
        found = _tables[id(rules)] = (rules, _Table(rules))
    return found[1]


class Pool:
    """The unseen pool: counts per rank plus the sums the exact formulas need.

    ``Pool(counts, rules)``; ``pool.without(rank)`` is the pool after one card of that
    rank has come out of it (for example the card just drawn).
    """

    __slots__ = ("counts", "rules", "values", "pair_points", "size", "total", "mean", "_table", "_pairs",
                 "_pair_term")

    def __init__(self, counts: Mapping[str, int], rules: Rules) -> None:
        kept = {r: c for r, c in counts.items() if c}
        if not _RANK_SET.issuperset(kept):
            bad = sorted(set(kept) - _RANK_SET)
            raise ValueError(f"unknown rank(s) {', '.join(bad)} in counts: allowed {' '.join(ALL_RANKS)}")
        if not all(type(c) is int and c > 0 for c in kept.values()):
            if not all(isinstance(c, Integral) and not isinstance(c, bool) and c > 0 for c in kept.values()):
                raise ValueError(f"unseen counts must be whole numbers >= 0, got {dict(counts)}")
            kept = {r: int(c) for r, c in kept.items()}  # e.g. numpy integers from a data frame
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")
        self.counts = kept
        table = self._table = _table(rules)
        self.rules = rules
        self.values = v = table.values
        self.pair_points = table.pair_points
        w = table.weight
        size = total = pairs = 0
        for r, c in kept.items():
            size += c
            total += c * v[r]
            pairs += c * (c - 1) * w[r]
        self._set(size, total, pairs)

    def _set(self, size: int, total: int, pairs: int) -> None:
        self.size, self.total, self._pairs = size, total, pairs
        self.mean = total / size if size else 0.0
        self._pair_term = pairs / (size * (size - 1)) if size >= 2 else 0.0

    def without(self, rank: str) -> "Pool":
        c = self.counts.get(rank, 0)
        if c <= 0:
            raise ValueError(f"no unseen {rank} left to take out of the pool")
        out = Pool.__new__(Pool)
        out.counts = counts = dict(self.counts)
        if c == 1:
            del counts[rank]
        else:
            counts[rank] = c - 1
        out.rules, out.values, out.pair_points, out._table = self.rules, self.values, self.pair_points, self._table
        out._set(self.size - 1, self.total - self.values[rank], self._pairs - 2 * (c - 1) * self._table.weight[rank])
        return out

    def probability(self, rank: str) -> float:
        """Chance that one unseen card has ``rank``."""
        return self.counts.get(rank, 0) / self.size if self.size else 0.0

    # -- columns ------------------------------------------------------------------
    def column_points(self, a: str, b: str) -> int:
        """Points of a column of two known ranks."""
        if a == b:
            return self.pair_points[a]
        return self.values[a] + self.values[b]

    def column_ev(self, a: str | None, b: str | None) -> float:
        """Expected points of a column; None is a face-down card (drawn from this pool)."""
        if a is not None and b is not None:
            return self.column_points(a, b)
        if a is None and b is None:
            return 2 * self.mean - self._pair_term
        k = a if a is not None else b
        vk = self.values[k]
        return vk + self.mean - self.probability(k) * (2 * vk - self.pair_points[k])

    def _falling(self, count: int, m: int) -> float:
        out = 1.0
        for i in range(m):
            out *= (count - i) / (self.size - i) if self.size - i > 0 else 0.0
        return out

    def wolfpack_ev(self, grid: Sequence[str | None]) -> float:
        """Expected wolfpack bonus (-5 times the chance of two or more jack-pair columns)."""
        if not self.rules.wolfpack:
            return 0.0
        need = []  # unseen jacks each column still needs to be a jack pair
        for a, b in _COLUMNS:
            ra, rb = grid[a], grid[b]
            if (ra is not None and ra != "J") or (rb is not None and rb != "J"):
                continue
            need.append((ra is None) + (rb is None))
        if len(need) < 2:
            return 0.0
        jacks = self.counts.get("J", 0)

        def all_of(ms: Sequence[int]) -> float:
            return self._falling(jacks, sum(ms))

        p = sum(all_of((need[i], need[j])) for i in range(len(need)) for j in range(i + 1, len(need)))
        if len(need) == 3:
            p -= 2 * all_of(need)
        return -5 * p

    def hand_ev(self, grid: Sequence[str | None]) -> float:
        """Expected hand score of six ranks in grid order (None: face down)."""
        unknown = sum(r is None for r in grid)
        if unknown > self.size:
            raise ValueError(f"{unknown} face-down cards but only {self.size} unseen cards: counts do not fit the hand")
        ev = self.column_ev(grid[0], grid[3]) + self.column_ev(grid[1], grid[4]) + self.column_ev(grid[2], grid[5])
        return ev + self.wolfpack_ev(grid)

    def best_change(self, grid: Sequence[str | None], rank: str, drawn: bool = False) -> float:
        """The lowest expected change of placing ``rank`` (discarding, 0, included).

        ``drawn=True``: ``rank`` is first taken out of this pool (the card just drawn),
        exactly as ``self.without(rank).best_change(grid, rank)`` but without copying.
        """
        n, total, pairs = self.size, self.total, self._pairs
        counts, values, weight = self.counts, self.values, self._table.weight
        c_rank = counts.get(rank, 0)
        if drawn:
            if c_rank <= 0:
                raise ValueError(f"no unseen {rank} left to take out of the pool")
            n, total, pairs, c_rank = n - 1, total - values[rank], pairs - 2 * (c_rank - 1) * weight[rank], c_rank - 1
        if self.rules.wolfpack or not n:
            return min((self.without(rank) if drawn else self).placements(grid, rank).values())
        mean = total / n
        inv = 1 / n
        both_unknown = 2 * mean - (pairs / (n * (n - 1)) if n >= 2 else 0.0)
        pair_points = self.pair_points
        v_rank = values[rank]
        one_rank = v_rank + mean - c_rank * inv * weight[rank]  # rank beside a face-down card
        best = 0.0
        for pos in range(6):
            other = grid[PARTNER[pos]]
            old = grid[pos]
            if other is None:
                if old is None:
                    change = one_rank - both_unknown
                else:
                    c_old = c_rank if old == rank else counts.get(old, 0)
                    change = one_rank - (values[old] + mean - c_old * inv * weight[old])
            else:
                after = pair_points[rank] if rank == other else v_rank + values[other]
                if old is None:
                    c_other = c_rank if other == rank else counts.get(other, 0)
                    change = after - (values[other] + mean - c_other * inv * weight[other])
                else:
                    change = after - (pair_points[old] if old == other else values[old] + values[other])
            if change < best:
                best = change
        return float(best)

    def placements(self, grid: Sequence[str | None], rank: str, can_discard: bool = True) -> dict[str, float]:
        """Expected hand-score change of putting ``rank`` at each position (and of discarding)."""
        out = {}
        if self.rules.wolfpack:
            base = self.hand_ev(grid)
            for pos in range(6):
                new = list(grid)
                new[pos] = rank
                out[SWAP_NAMES[pos]] = float(self.hand_ev(new) - base)
        else:  # only the column that changes matters
            if sum(r is None for r in grid) > self.size:
                self.hand_ev(grid)  # raises the clear error
            col = self.column_ev
            for pos in range(6):
                other = grid[PARTNER[pos]]
                out[SWAP_NAMES[pos]] = float(col(rank, other) - col(grid[pos], other))
        if can_discard:
            out["discard"] = 0.0
        return out


def _ranks(grid: Sequence) -> list[str | None]:
    if len(grid) != 6:
        raise ValueError(f"a grid has 6 positions (None for a face-down card), got {len(grid)}")
    return [None if c is None else _rank(c) for c in grid]


def _pool(obs_or_counts, rules: Rules | None) -> Pool:
    if isinstance(obs_or_counts, Pool):
        return obs_or_counts
    if isinstance(obs_or_counts, Mapping):
        return Pool(obs_or_counts, rules or Rules())
    return Pool(unseen_counts(obs_or_counts), rules or obs_or_counts.rules)


def expected_unseen_value(obs_or_counts, rules: Rules | None = None) -> float:
    """Mean effective value of one unseen card (from an observation or a rank -> count mapping)."""
    pool = _pool(obs_or_counts, rules)
    if not pool.size:
        raise ValueError("there are no unseen cards to take an expectation over")
    return pool.mean


def pair_probability(rank, counts: Mapping[str, int], draws: int = 1) -> float:
    """Exact chance that at least one of the next ``draws`` unseen cards has ``rank``.

    Hypergeometric: with N unseen cards of which m have the rank,
    ``1 - C(N - m, draws) / C(N, draws)``. ``draws=1`` is the chance that a face-down
    partner already matches; ``draws=k`` counts the cards the seat will still see
    (its face-down partner and its coming draws), all from the same unseen pool.
    """
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise ValueError(f"draws must be a whole number of cards >= 0, got {draws!r}")
    r = _rank(rank)
    n = sum(counts.values())
    m = counts.get(r, 0)
    if draws > n:
        raise ValueError(f"cannot see {draws} more cards: only {n} are unseen")
    return 1 - comb(n - m, draws) / comb(n, draws) if n else 0.0


def hand_ev(obs, seat: int | None = None) -> float:
    """Expected hand score of a seat (default: the observing one) from what this seat sees."""
    seat = obs.seat if seat is None else seat
    return _pool(obs, None).hand_ev(_ranks(obs.grids[seat]))


def _held_rank_pool(obs, card, pool: Pool | None) -> tuple[str, Pool]:
    rank = _rank(card)
    if pool is not None:
        return rank, pool
    pool = _pool(obs, None)
    shown = {c.rank for c in (obs.drawn, obs.taken, obs.discard_top) if c is not None}
    if rank not in shown:  # a hypothetical card: it comes out of the unseen pool
        pool = pool.without(rank)
    return rank, pool


def placement_evs(obs, card, can_discard: bool | None = None, pool: Pool | None = None) -> dict[str, float]:
    """Expected change of this seat's hand score for each ``swap N`` and for ``discard``.

    ``card`` is the card in hand (a Card or code). Face-down cards and the pairs they
    may make are taken in expectation over the unseen pool. If ``card`` is not one the
    seat can see (the held card, the taken card or the discard top) it is treated as
    coming out of the unseen pool. ``discard`` (always 0.0) is included unless the card
    was taken from the discard pile (``can_discard`` overrides).
    """
    rank, pool = _held_rank_pool(obs, card, pool)
    if can_discard is None:
        can_discard = obs.taken is None
    return pool.placements(_ranks(obs.my_grid), rank, can_discard)


def take_ev(obs, pool: Pool | None = None) -> tuple[float, str]:
    """Best expected hand change of taking the discard top (it must be swapped) and the swap."""
    if obs.discard_top is None:
        raise ValueError("the discard pile is empty: there is nothing to take")
    evs = placement_evs(obs, obs.discard_top, can_discard=False, pool=pool or _pool(obs, None))
    best = min(evs, key=evs.get)
    return evs[best], best


def draw_ev(obs, pool: Pool | None = None) -> float:
    """Expected hand change of drawing from the pile, then placing the card as well as possible.

    The drawn card comes from the unseen pool (when the draw pile is empty: from the
    discard pile under its top card, which is reshuffled; nothing there ends the hole,
    change 0). Discarding (change 0) is always one of the options.
    """
    pool = pool or _pool(obs, None)
    grid = _ranks(obs.my_grid)
    if obs.draw_pile_size == 0:
        source: dict[str, int] = {}
        for c in obs.discard_pile[:-1]:
            source[c.rank] = source.get(c.rank, 0) + 1
        from_pool = False
    else:
        source = pool.counts
        from_pool = True
    n = sum(source.values())
    if not n:
        return 0.0
    total = 0.0
    for r, c in source.items():
        total += c * pool.best_change(grid, r, drawn=from_pool)
    return total / n


@dataclass(frozen=True)
class DecisionValues:
    """Expected hand change of every legal action now (lower is better), and the best one."""

    values: dict
    best_action: str
    best_value: float


def action_values(obs, pool: Pool | None = None) -> DecisionValues:
    """Expected hand-score change of each legal action of the observing seat.

    draw / take: the best placement that follows (``draw_ev`` / ``take_ev``); swap and
    discard: ``placement_evs`` of the held card; flips and skip: 0 (a flip reveals a card,
    it does not change its value).
    """
    acts = [str(a) for a in obs.legal_actions]
    if not acts:
        raise ValueError("no legal actions in this observation: it is not this seat's move")
    pool = pool or _pool(obs, None)
    values: dict[str, float] = {}
    if obs.awaiting == "draw":
        values["draw"] = draw_ev(obs, pool)
        if "take" in acts:
            values["take"] = take_ev(obs, pool)[0]
    elif obs.awaiting == "place":
        evs = placement_evs(obs, obs.drawn, can_discard="discard" in acts, pool=pool)
        values = {a: evs[a] for a in acts}
    else:
        values = {a: 0.0 for a in acts}
    best = min(values, key=values.get)
    return DecisionValues(values, best, values[best])
