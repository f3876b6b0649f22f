"""Exact expected values from what one seat can see (spec sections 2, 6 and 9).

The model: every card the seat cannot see (its own and the opponents' face-down cards,
the draw pile) is, from the seat's point of view, a uniformly shuffled *unseen pool*
whose composition is the full deck (``Rules.decks_for`` and the joker mode) minus every
visible card (face-up grid cards, the discard pile, the card the seat holds). Each
face-down position is a draw without replacement from that pool, so

* one face-down card has the pool's mean value (``expected_unseen_value``);
* a column is scored exactly: the chance that its face-down card(s) pair is taken from
  the pool's counts per rank (two face-down cards: c(c-1) / N(N-1) per rank), with the
  pair points of the scoring model (0, -4 for ``eagle_eye`` jokers, the sum of negative
  cards under ``negative_pairs_keep_value``);
* columns add up by linearity of expectation, and each hand bonus (``wolfpack``,
  ``four_of_a_kind``: two or more columns paired in one rank) is added with its exact
  probability (inclusion-exclusion over the columns, hypergeometric in the unseen cards
  of the rank).

Values are hand-score points: **lower is better** (golf). A "change" is the expected
hand score after a move minus before it, so a negative change is an improvement.
Opponents' behaviour is not modelled (what they hold back or pass is not inferred).

From an observation: ``unseen_counts(obs)``, ``expected_unseen_value(obs)``,
``hand_ev(obs, seat)``, ``placement_evs(obs, card)``, ``take_ev(obs)``, ``draw_ev(obs)``,
``action_values(obs)`` (every legal action). From counts alone: ``deck_counts(rules,
players)``, ``pair_probability(rank, counts, draws)`` and ``Pool(counts, rules)`` with
``mean``, ``column_ev``, ``hand_ev``, ``placements`` and ``best_change`` on grids of kinds
(ranks, and ``rules.ONE_EYED`` for one-eyed jacks under ``one_eyed_jacks``).

Card values, pair points and hand bonuses come from ``golflab.model`` (the scoring model
``score_hand`` uses): a hand with nothing hidden has ``hand_ev == score_hand``.

This module is the reference. ``Pool.draw_ev`` (the hot spot of grading) runs compiled when
numba is installed (``golflab.fastev``; ``compiled=False`` for the Python loop), with the
same results bit for bit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb
from numbers import Integral
from operator import attrgetter
from typing import Mapping, Sequence

from .cards import Card, build_deck
from .expectations import beside_down, both_down, paired_columns_ev
from .fastev import draw_ev_function
from .model import ALL_KINDS, ALL_RANKS, COLUMN_OF, PARTNER, RANK_OF, ScoringModel, scoring_model
from .rules import Rules

__all__ = ["ALL_KINDS", "ALL_RANKS", "COLUMN_OF", "FAST_PATHS", "PARTNER", "SWAP_NAMES", "DecisionValues", "Pool",
           "action_values", "deck_counts", "draw_ev", "expected_unseen_value", "hand_ev", "pair_probability",
           "placement_evs", "take_ev", "unseen_counts", "unseen_pool"]

_KIND_SET = frozenset(ALL_KINDS)
SWAP_NAMES = tuple(f"swap {i}" for i in range(6))
#: The fast paths of ``Pool`` and the ``ScoringModel`` attribute that says when each is valid:
#: they score only the column that changes, which holds when a hand scores as the sum of its
#: columns (no hand bonus on). Otherwise the whole hand is scored (``Pool.hand_placements``).
FAST_PATHS = {"best_change": "columns_independent", "placements": "columns_independent"}
_deck_cache: dict[tuple[int, str, bool], dict[str, int]] = {}
_RANK = attrgetter("rank")


def deck_counts(rules: Rules, players: int) -> dict[str, int]:
    """Kind -> number of cards of that kind in the full deck for ``rules`` and ``players``
    (kinds are ranks, and ``ONE_EYED`` for the one-eyed jacks under ``one_eyed_jacks``)."""
    key = (rules.decks_for(players), rules.jokers, rules.one_eyed_jacks)
    counts = _deck_cache.get(key)
    if counts is None:
        counts = {}
        kind = scoring_model(rules).kind
        for card in build_deck(*key[:2]):
            k = kind(card)
            counts[k] = counts.get(k, 0) + 1
        _deck_cache[key] = counts
    return dict(counts)


def unseen_counts(obs) -> dict[str, int]:
    """Kind -> number of cards of that kind the observing seat cannot see.

    The full deck minus face-up grid cards (every seat), the discard pile and the card
    this seat holds (or the card the current player took, which everybody saw).
    """
    counts = deck_counts(obs.rules, len(obs.players))
    seen = [c for g in obs.grids for c in g if c is not None]
    seen += obs.discard_pile
    held = obs.drawn if obs.taken is None else obs.taken
    if held is not None:
        seen.append(held)
    model = scoring_model(obs.rules)
    for k, n in Counter(map(model.kind if model.one_eyed else _RANK, seen)).items():
        left = counts.get(k, 0) - n
        if left < 0:
            raise ValueError(f"the observation shows more {k} cards than the deck holds")
        counts[k] = left
    return counts


def _kind(card, model: ScoringModel) -> str:
    if isinstance(card, Card):
        return model.kind(card)
    if isinstance(card, str) and card in _KIND_SET:
        return card
    return model.kind(Card.parse(card))


_NONE = (0, 0)


def _group_term(size: int, points: int, pair: int) -> int:
    """A rank's share of the pair sum: with ``size`` unseen cards of the rank worth ``points``
    in all, the sum over ordered pairs of them of (their values - the pair's points)."""
    return (size - 1) * (2 * points - pair * size) if size > 1 else 0


class _RankCounts:
    """A pool's unseen cards of each rank by ``[rank]``, 0 for a rank it has none of (as the
    kernel's array), looked up only for the ranks an expectation needs."""

    __slots__ = ("group",)

    def __init__(self, group: dict[str, tuple[int, int]]) -> None:
        self.group = group

    def __getitem__(self, rank: str) -> int:
        return self.group.get(rank, _NONE)[0]


class Pool:
    """The unseen pool: counts per kind plus the sums the exact formulas need.

    ``Pool(counts, rules)``; ``pool.without(kind)`` is the pool after one card of that
    kind has come out of it (for example the card just drawn). Pairs are by rank: the
    pool keeps each rank's count and points (``group``).
    """

    __slots__ = ("counts", "rules", "model", "values", "pair_points", "size", "total", "mean", "group",
                 "_pairs", "_both_down")

    def __init__(self, counts: Mapping[str, int], rules: Rules) -> None:
        kept = {r: c for r, c in counts.items() if c}
        if not _KIND_SET.issuperset(kept):
            bad = sorted(set(kept) - _KIND_SET)
            raise ValueError(f"unknown rank(s) {', '.join(bad)} in counts: allowed {' '.join(ALL_KINDS)}")
        if not all(type(c) is int and c > 0 for c in kept.values()):
            if not all(isinstance(c, Integral) and not isinstance(c, bool) and c > 0 for c in kept.values()):
                raise ValueError(f"unseen counts must be whole numbers >= 0, got {dict(counts)}")
            kept = {r: int(c) for r, c in kept.items()}  # e.g. numpy integers from a data frame
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")
        self._fill(kept, rules)

    @classmethod
    def _of(cls, counts: dict[str, int], rules: Rules) -> "Pool":
        """A pool of counts known to be valid (``unseen_counts``: kinds, whole numbers >= 0)."""
        pool = cls.__new__(cls)
        pool._fill({k: c for k, c in counts.items() if c}, rules)
        return pool

    def _fill(self, kept: dict[str, int], rules: Rules) -> None:
        self.counts = kept
        model = self.model = scoring_model(rules)
        self.rules = rules
        self.values = v = model.value
        self.pair_points = pp = model.pair_points
        group: dict[str, tuple[int, int]] = {}
        size = total = pairs = 0
        for k, c in kept.items():
            points = c * v[k]
            size += c
            total += points
            r = RANK_OF[k]
            if r in group:  # the second kind of a rank (jacks under one_eyed_jacks)
                n, s = group[r]
                group[r] = (n + c, s + points)
            else:
                group[r] = (c, points)
        for r, (n, s) in group.items():
            pairs += _group_term(n, s, pp[r])
        self.group = group
        self._set(size, total, pairs)

    def _set(self, size: int, total: int, pairs: int) -> None:
        self.size, self.total, self._pairs = size, total, pairs
        self.mean = total / size if size else 0.0
        self._both_down = both_down(self.mean, pairs, size)

    def without(self, kind: str) -> "Pool":
        c = self.counts.get(kind, 0)
        if c <= 0:
            raise ValueError(f"no unseen {kind} left to take out of the pool")
        out = Pool.__new__(Pool)
        out.counts = counts = dict(self.counts)
        if c == 1:
            del counts[kind]
        else:
            counts[kind] = c - 1
        out.rules, out.model, out.values, out.pair_points = self.rules, self.model, self.values, self.pair_points
        v, r = self.values[kind], RANK_OF[kind]
        n, s = self.group[r]
        pp = self.pair_points[r]
        out.group = group = dict(self.group)
        group[r] = (n - 1, s - v)
        out._set(self.size - 1, self.total - v,
                 self._pairs - _group_term(n, s, pp) + _group_term(n - 1, s - v, pp))
        return out

    def probability(self, kind: str) -> float:
        """Chance that one unseen card is of ``kind``."""
        return self.counts.get(kind, 0) / self.size if self.size else 0.0

    # -- columns ------------------------------------------------------------------
    def column_points(self, a: str, b: str) -> int:
        """Points of a column of two known kinds."""
        return self.model.column_points(a, b)

    def column_ev(self, a: str | None, b: str | None) -> float:
        """Expected points of a column; None is a face-down card (drawn from this pool)."""
        if a is not None and b is not None:
            return self.model.column_points(a, b)
        if a is None and b is None:
            return self._both_down
        k = a if a is not None else b
        r = RANK_OF[k]
        n, points = self.group.get(r, _NONE)
        return beside_down(self.values[k], self.mean, n / self.size if n else 0.0, n, points, self.pair_points[r])

    def bonus_ev(self, grid: Sequence[str | None]) -> float:
        """Expected hand bonuses: each bonus's points times the chance that the hand earns it, for
        each of its ranks (``paired_columns``: ``expectations.paired_columns_ev``). Any other kind
        is a NotImplementedError."""
        out = 0.0
        counts = _RankCounts(self.group)
        for bonus in self.model.bonuses:
            if bonus.kind != "paired_columns":
                raise NotImplementedError(f"the EV model has no expectation for {bonus.rule}'s kind {bonus.kind!r}")
            out = paired_columns_ev(out, bonus.points, grid, RANK_OF, None, bonus.ranks(), counts, self.size)
        return out

    def hand_ev(self, grid: Sequence[str | None]) -> float:
        """Expected hand score of six kinds in grid order (None: face down)."""
        unknown = sum(r is None for r in grid)
        if unknown > self.size:
            raise ValueError(f"{unknown} face-down cards but only {self.size} unseen cards: counts do not fit the hand")
        ev = self.column_ev(grid[0], grid[3]) + self.column_ev(grid[1], grid[4]) + self.column_ev(grid[2], grid[5])
        if self.model.bonuses:
            ev += self.bonus_ev(grid)
        return ev

    def best_change(self, grid: Sequence[str | None], kind: str, drawn: bool = False) -> float:
        """The lowest expected change of placing ``kind`` (discarding, 0, included).

        ``drawn=True``: ``kind`` is first taken out of this pool (the card just drawn),
        exactly as ``self.without(kind).best_change(grid, kind)`` but without copying.
        """
        n, total, pairs = self.size, self.total, self._pairs
        values, pair_points, group = self.values, self.pair_points, self.group
        rank = RANK_OF[kind]
        v_kind = values[kind]
        g_count, g_points = group.get(rank, (0, 0))
        if drawn:
            if self.counts.get(kind, 0) <= 0:
                raise ValueError(f"no unseen {kind} left to take out of the pool")
            pp = pair_points[rank]
            pairs += _group_term(g_count - 1, g_points - v_kind, pp) - _group_term(g_count, g_points, pp)
            n, total, g_count, g_points = n - 1, total - v_kind, g_count - 1, g_points - v_kind
        if not self.model.columns_independent or not n:
            pool = self.without(kind) if drawn else self
            return min(pool.hand_placements(grid, kind).values())
        mean = total / n
        inv = 1 / n
        both_unknown = both_down(mean, pairs, n)

        get = group.get
        one_kind = beside_down(v_kind, mean, g_count * inv, g_count, g_points, pair_points[rank])
        best = 0.0
        for pos in range(6):
            other = grid[PARTNER[pos]]
            old = grid[pos]
            if other is None:
                if old is None:
                    change = one_kind - both_unknown
                else:
                    r = RANK_OF[old]
                    c, s = (g_count, g_points) if r == rank else get(r, _NONE)
                    change = one_kind - beside_down(values[old], mean, c * inv, c, s, pair_points[r])
            else:
                r_other = RANK_OF[other]
                after = pair_points[rank] if rank == r_other else v_kind + values[other]
                if old is None:
                    c, s = (g_count, g_points) if r_other == rank else get(r_other, _NONE)
                    change = after - beside_down(values[other], mean, c * inv, c, s, pair_points[r_other])
                else:
                    change = after - (pair_points[r_other] if RANK_OF[old] == r_other else values[old] + values[other])
            if change < best:
                best = change
        return float(best)

    def draw_ev(self, grid: Sequence[str | None], compiled: bool = True) -> float:
        """Expected change of drawing one card of this pool and placing it as well as possible
        (discarding, 0, included). ``compiled=False``: always the pure-Python reference (the
        compiled ``golflab.fastev`` kernel, used when numba is installed, gives the same bits)."""
        n = self.size
        if not n:
            return 0.0
        if compiled and n >= 2 and self.model.columns_independent:
            fast = draw_ev_function(self.rules)
            if fast is not None:
                return fast(grid, self.counts, self.rules)
        total = 0.0
        for r, c in self.counts.items():
            total += c * self.best_change(grid, r, drawn=True)
        return total / n

    def placements(self, grid: Sequence[str | None], kind: str, can_discard: bool = True) -> dict[str, float]:
        """Expected hand-score change of putting ``kind`` at each position (and of discarding)."""
        if not self.model.columns_independent:
            return self.hand_placements(grid, kind, can_discard)
        if sum(r is None for r in grid) > self.size:
            self.hand_ev(grid)  # raises the clear error
        col = self.column_ev
        out = {}
        for pos in range(6):  # only the column that changes matters
            other = grid[PARTNER[pos]]
            out[SWAP_NAMES[pos]] = float(col(kind, other) - col(grid[pos], other))
        if can_discard:
            out["discard"] = 0.0
        return out

    def hand_placements(self, grid: Sequence[str | None], kind: str, can_discard: bool = True) -> dict[str, float]:
        """``placements`` by scoring the whole hand before and after (valid under every rule)."""
        base = self.hand_ev(grid)
        out = {}
        for pos in range(6):
            new = list(grid)
            new[pos] = kind
            out[SWAP_NAMES[pos]] = float(self.hand_ev(new) - base)
        if can_discard:
            out["discard"] = 0.0
        return out


def _kinds(grid: Sequence, rules: Rules) -> list[str | None]:
    if len(grid) != 6:
        raise ValueError(f"a grid has 6 positions (None for a face-down card), got {len(grid)}")
    model = scoring_model(rules)
    if not model.one_eyed:  # the common case: a card's kind is its rank
        return [None if c is None else c.rank if type(c) is Card else _kind(c, model) for c in grid]
    return [None if c is None else _kind(c, model) for c in grid]


def _pool(obs_or_counts, rules: Rules | None) -> Pool:
    if isinstance(obs_or_counts, Pool):
        return obs_or_counts
    if isinstance(obs_or_counts, Mapping):
        return Pool(obs_or_counts, rules or Rules())
    return Pool._of(unseen_counts(obs_or_counts), rules or obs_or_counts.rules)


def unseen_pool(obs) -> Pool:
    """The ``Pool`` of the cards the observing seat cannot see (``unseen_counts``)."""
    return Pool._of(unseen_counts(obs), obs.rules)


def expected_unseen_value(obs_or_counts, rules: Rules | None = None) -> float:
    """Mean effective value of one unseen card (from an observation or a kind -> count mapping)."""
    pool = _pool(obs_or_counts, rules)
    if not pool.size:
        raise ValueError("there are no unseen cards to take an expectation over")
    return pool.mean


def pair_probability(rank, counts: Mapping[str, int], draws: int = 1) -> float:
    """Exact chance that at least one of the next ``draws`` unseen cards has ``rank``.

    Hypergeometric: with N unseen cards of which m have the rank (counted over its kinds),
    ``1 - C(N - m, draws) / C(N, draws)``. ``draws=1`` is the chance that a face-down
    partner already matches; ``draws=k`` counts the cards the seat will still see
    (its face-down partner and its coming draws), all from the same unseen pool.
    """
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise ValueError(f"draws must be a whole number of cards >= 0, got {draws!r}")
    r = rank.rank if isinstance(rank, Card) else RANK_OF[rank] if rank in _KIND_SET else Card.parse(rank).rank
    n = sum(counts.values())
    m = sum(c for k, c in counts.items() if RANK_OF.get(k) == r)
    if draws > n:
        raise ValueError(f"cannot see {draws} more cards: only {n} are unseen")
    return _at_least_one(n, m, draws)


def _at_least_one(n: int, m: int, draws: int) -> float:
    """The chance that ``draws`` cards from ``n`` (``m`` of them wanted) hold at least one wanted."""
    return 1 - comb(n - m, draws) / comb(n, draws) if n else 0.0


def pair_chances(counts: Mapping[str, int], ranks) -> dict[str, float]:
    """``pair_probability(rank, counts)`` of each of ``ranks`` (one unseen card: the chance it has
    that rank), summing the pool once, for code that asks about several ranks of one pool."""
    n = sum(counts.values())
    by_rank: dict[str, int] = {}
    for k, c in counts.items():
        r = RANK_OF[k]
        by_rank[r] = by_rank.get(r, 0) + c
    return {r: _at_least_one(n, by_rank.get(r, 0), 1) for r in ranks}


def hand_ev(obs, seat: int | None = None) -> float:
    """Expected hand score of a seat (default: the observing one) from what this seat sees."""
    seat = obs.seat if seat is None else seat
    return _pool(obs, None).hand_ev(_kinds(obs.grids[seat], obs.rules))


def _held_kind_pool(obs, card, pool: Pool | None) -> tuple[str, Pool]:
    if pool is not None:
        return _kind(card, pool.model), pool
    model = scoring_model(obs.rules)
    kind = _kind(card, model)
    pool = _pool(obs, None)
    shown = {model.kind(c) for c in (obs.drawn, obs.taken, obs.discard_top) if c is not None}
    if kind not in shown:  # a hypothetical card: it comes out of the unseen pool
        pool = pool.without(kind)
    return kind, pool


def placement_evs(obs, card, can_discard: bool | None = None, pool: Pool | None = None) -> dict[str, float]:
    """Expected change of this seat's hand score for each ``swap N`` and for ``discard``.

    ``card`` is the card in hand (a Card or code). Face-down cards and the pairs they
    may make are taken in expectation over the unseen pool. If ``card`` is not one the
    seat can see (the held card, the taken card or the discard top) it is treated as
    coming out of the unseen pool. ``discard`` (always 0.0) is included unless the card
    was taken from the discard pile (``can_discard`` overrides).
    """
    kind, pool = _held_kind_pool(obs, card, pool)
    if can_discard is None:
        can_discard = obs.taken is None
    return pool.placements(_kinds(obs.my_grid, pool.rules), kind, can_discard)


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
    grid = _kinds(obs.my_grid, pool.rules)
    if obs.draw_pile_size:
        return pool.draw_ev(grid)
    source: dict[str, int] = {}
    kind = pool.model.kind
    for c in obs.discard_pile[:-1]:
        k = kind(c)
        source[k] = source.get(k, 0) + 1
    n = sum(source.values())
    if not n:
        return 0.0
    total = 0.0
    for r, c in source.items():
        total += c * pool.best_change(grid, r)
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
    discard: ``placement_evs`` of the held card; flips, skip and knock: 0 (revealing a card
    does not change its value), also as a whole turn (``flip_as_action``, ``knock_early``).
    """
    acts = [a.notation for a in obs.legal_actions]
    if not acts:
        raise ValueError("no legal actions in this observation: it is not this seat's move")
    if obs.awaiting in ("draw", "place"):
        pool = pool or _pool(obs, None)
    values: dict[str, float] = {}
    if obs.awaiting == "draw":
        values["draw"] = draw_ev(obs, pool)
        if "take" in acts:
            values["take"] = take_ev(obs, pool)[0]
        for a in acts:  # whole-turn flip N (flip_as_action) and knock (knock_early) reveal, changing nothing
            values.setdefault(a, 0.0)
    elif obs.awaiting == "place":
        evs = placement_evs(obs, obs.drawn, can_discard="discard" in acts, pool=pool)
        values = {a: evs[a] for a in acts}
    else:
        values = {a: 0.0 for a in acts}
    best = min(values, key=values.get)
    return DecisionValues(values, best, values[best])
