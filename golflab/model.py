"""The scoring model, written once: the column layout, card values by kind, pair points and
hand bonuses (spec sections 2, 6 and 12). ``scoring``, ``ev``, ``ai`` and ``analysis`` all
score through it.

A grid is six *kinds* in grid order (None: a face-down card). A card's kind is its rank,
except a one-eyed jack under ``one_eyed_jacks`` (``ONE_EYED``): cards of one kind have one
value, cards of one *rank* pair (any two jacks pair, whatever their suits).

Hand bonuses are named entries (``HAND_BONUSES``): each is a rule option whose bonus is
earned as its *kind* says (``BONUS_KINDS``; ``paired_columns``: once per rank, when two or
more columns of the hand are pairs of that rank). Round adjustments are named entries too
(``ROUND_ADJUSTMENTS``), each going to the seats its *who* names (``WHO_KINDS``). A new
bonus or adjustment of a known kind is one entry here and one option in ``rules.OPTIONS``;
a new kind is a function here (``BONUS_KINDS``, ``WHO_SEATS``), which the compiled kernel
refuses until it computes it too (``golflab.kernel.KINDS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from .cards import JOKER_RANK, RANKS, Card
from .rules import ONE_EYED, ONE_EYED_SUITS, Rules, card_kind, rank_value

#: Columns as (top, bottom) positions; a position's column and its partner in the column.
COLUMNS = ((0, 3), (1, 4), (2, 5))
COLUMN_OF = (0, 1, 2, 0, 1, 2)
PARTNER = (3, 4, 5, 0, 1, 2)
#: Every rank, jokers last.
ALL_RANKS = RANKS + (JOKER_RANK,)
#: Every kind: the ranks, then the one-eyed jack.
ALL_KINDS = ALL_RANKS + (ONE_EYED,)
#: The rank of each kind (what decides a pair).
RANK_OF = {**{r: r for r in ALL_RANKS}, ONE_EYED: "J"}


def _paired_columns(bonus: "HandBonus", grid: Sequence[str | None], pairs: list[str]) -> list[str]:
    return [rank for rank in bonus.ranks() if pairs.count(rank) >= 2]


#: How a hand earns each kind of hand bonus: the ranks it is earned for, given the bonus, a grid
#: of kinds (None: face down) and the rank of each of its known paired columns.
#: ``paired_columns``: two or more columns pair the rank.
BONUS_KINDS: dict[str, Callable[["HandBonus", Sequence["str | None"], list[str]], list[str]]] = {
    "paired_columns": _paired_columns,
}


@dataclass(frozen=True)
class HandBonus:
    """A hand bonus: ``points`` for each rank (``rank``; None: any rank) a hand earns it as its
    ``kind`` says (``BONUS_KINDS``), under the rule option ``rule``. ``text`` explains it
    (``{rank}`` is filled in)."""

    rule: str
    kind: str
    points: int
    rank: str | None
    text: str

    def __post_init__(self) -> None:
        if self.kind not in BONUS_KINDS:
            raise ValueError(f"kind must be one of {', '.join(BONUS_KINDS)}, got {self.kind!r}")

    def ranks(self) -> tuple[str, ...]:
        """The ranks this bonus may apply to."""
        return ALL_RANKS if self.rank is None else (self.rank,)

    def earned(self, grid: Sequence[str | None], pairs: list[str]) -> list[str]:
        """The ranks a grid of kinds earns this bonus for (``pairs``: its paired columns' ranks)."""
        return BONUS_KINDS[self.kind](self, grid, pairs)


#: Every hand bonus, in the order they are applied and shown.
HAND_BONUSES = (
    HandBonus("wolfpack", "paired_columns", -5, "J", "two columns of paired jacks"),
    HandBonus("four_of_a_kind", "paired_columns", -20, None, "four of a kind: two columns of paired {rank}s"),
)


def _score_is(adjustment: "RoundAdjustment", scores: Sequence[int], finisher: int | None) -> list[int]:
    return [seat for seat, s in enumerate(scores) if s == adjustment.score]


def _finisher(adjustment: "RoundAdjustment", scores: Sequence[int], finisher: int | None) -> list[int]:
    return [] if finisher is None else [finisher]


def _finisher_beaten(adjustment: "RoundAdjustment", scores: Sequence[int], finisher: int | None) -> list[int]:
    beaten = finisher is not None and any(s < scores[finisher] for seat, s in enumerate(scores) if seat != finisher)
    return [finisher] if beaten else []


def _lowest(adjustment: "RoundAdjustment", scores: Sequence[int], finisher: int | None) -> list[int]:
    low = min(scores)
    return [seat for seat, s in enumerate(scores) if s == low]


def _tied(adjustment: "RoundAdjustment", scores: Sequence[int], finisher: int | None) -> list[int]:
    return [seat for seat, s in enumerate(scores) if list(scores).count(s) > 1]


#: Who a round adjustment goes to, by kind: the seats, given the adjustment, the scores so far and
#: who went out (None: nobody). ``score_is``: every seat whose score is ``score``; ``finisher``: the
#: seat that went out; ``finisher_beaten``: the seat that went out, when another scored strictly
#: lower; ``lowest``: every seat with the lowest score; ``tied``: every seat whose score another
#: seat shares. The compiled code computes the kinds ``golflab.kernel.KINDS`` lists.
WHO_SEATS: dict[str, Callable[["RoundAdjustment", Sequence[int], "int | None"], list[int]]] = {
    "score_is": _score_is, "finisher": _finisher, "finisher_beaten": _finisher_beaten, "lowest": _lowest,
    "tied": _tied,
}
#: The kinds of who, in order.
WHO_KINDS = tuple(WHO_SEATS)


@dataclass(frozen=True)
class RoundAdjustment:
    """A round adjustment (spec sections 6 and 12): ``points`` to each seat ``who`` names
    (``WHO_KINDS``; ``score`` for ``score_is``), under the rule option ``rule``, for ``reason``.
    Applied in ``ROUND_ADJUSTMENTS`` order, each to the scores the earlier ones left."""

    rule: str
    who: str
    points: int
    reason: str
    score: int | None = None

    def __post_init__(self) -> None:
        if self.who not in WHO_SEATS:
            raise ValueError(f"who must be one of {', '.join(WHO_SEATS)}, got {self.who!r}")
        if (self.who == "score_is") != (self.score is not None):
            raise ValueError("score is given exactly when who is 'score_is'")

    def seats(self, scores: Sequence[int], finisher: int | None) -> list[int]:
        """The seats this adjustment goes to, given the scores so far and who went out (None:
        nobody, a stalled hole: then no finisher adjustment applies)."""
        return WHO_SEATS[self.who](self, scores, finisher)


#: Every round adjustment, in the order they apply (the spec's).
ROUND_ADJUSTMENTS = (
    RoundAdjustment("blackjack", "score_is", -21, "a hand of exactly 21 scores 0", score=21),
    RoundAdjustment("knock_penalty", "finisher_beaten", 10, "went out but another player scored lower"),
    RoundAdjustment("knock_bonus", "finisher", -5, "went out first"),
    RoundAdjustment("underdog_bonus", "lowest", -3, "lowest score of the hole"),
    RoundAdjustment("tied_shame", "tied", 5, "score tied with another player"),
)
#: Each round adjustment by its rule option.
ADJUSTMENT_OF = {a.rule: a for a in ROUND_ADJUSTMENTS}


@dataclass(frozen=True)
class BonusScore:
    """A hand bonus a hand earned: its rule, the rank, its points and a readable reason."""

    rule: str
    rank: str
    points: int
    reason: str


class ScoringModel:
    """Values, pair points and bonuses under one ``Rules`` (computed once; ``scoring_model``).

    ``value[kind]``, ``rank_of[kind]``, ``pair_points[rank]`` (what a column of two cards of
    that rank scores), ``pair_wastes[kind]`` (a pair of it scores more than its two cards:
    negative cards, unless their pairs keep their value), ``bonuses`` (the active ``HandBonus``
    entries), ``adjustments`` (the active ``RoundAdjustment`` entries, in order) and
    ``columns_independent`` (True when a hand scores as the sum of its columns: no bonus on).
    """

    __slots__ = ("rules", "value", "rank_of", "pair_points", "pair_wastes", "bonuses", "adjustments",
                 "columns_independent", "kinds", "one_eyed")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.value = {k: rank_value(k, rules) for k in ALL_KINDS}
        self.rank_of = RANK_OF
        self.pair_points = {r: pair_points(r, rules) for r in ALL_RANKS}
        #: per kind: does a column pair of two such cards score more than the two cards apart
        #: (two 2s score 0, not -4), so that pairing them throws points away?
        self.pair_wastes = {k: self.pair_points[RANK_OF[k]] > 2 * self.value[k] for k in ALL_KINDS}
        self.bonuses = tuple(b for b in HAND_BONUSES if getattr(rules, b.rule))
        self.adjustments = tuple(a for a in ROUND_ADJUSTMENTS if getattr(rules, a.rule))
        self.columns_independent = not self.bonuses
        #: the kinds cards can have under these rules
        self.kinds = ALL_KINDS if rules.one_eyed_jacks else ALL_RANKS
        self.one_eyed = rules.one_eyed_jacks

    def kind(self, card: "Card | str") -> str:
        """The kind of a card (a Card or code) under these rules."""
        if type(card) is Card:  # the common case, kept cheap
            if self.one_eyed and card.rank == "J" and card.suit in ONE_EYED_SUITS:
                return ONE_EYED
            return card.rank
        return card_kind(card, self.rules)

    def column_points(self, a: str, b: str) -> int:
        """Points of a column of two known kinds."""
        rank = RANK_OF[a]
        if rank == RANK_OF[b]:
            return self.pair_points[rank]
        return self.value[a] + self.value[b]

    def column_note(self, a: str, b: str) -> str:
        """Why a column of two known kinds scores what it does."""
        rank = RANK_OF[a]
        if rank != RANK_OF[b]:
            return f"{self.value[a]:+d} {self.value[b]:+d}"
        if rank == JOKER_RANK and self.rules.jokers == "eagle_eye":
            return "eagle-eye joker pair"
        if self.pair_points[rank]:
            return "negative pair keeps its value"
        return "pair cancels"

    def paired_ranks(self, grid: Sequence[str | None]) -> list[str]:
        """The rank of each known paired column of a grid of kinds."""
        out = []
        for a, b in COLUMNS:
            ka, kb = grid[a], grid[b]
            if ka is not None and kb is not None and RANK_OF[ka] == RANK_OF[kb]:
                out.append(RANK_OF[ka])
        return out

    def hand_bonuses(self, grid: Sequence[str | None]) -> list[BonusScore]:
        """The bonuses a grid of kinds has earned (face-down cards earn none)."""
        if not self.bonuses:
            return []
        pairs = self.paired_ranks(grid)
        return [BonusScore(bonus.rule, rank, bonus.points, bonus.text.format(rank=rank))
                for bonus in self.bonuses for rank in bonus.earned(grid, pairs)]

    def hand_score(self, grid: Sequence[str]) -> int:
        """The score of six known kinds (grid order)."""
        total = sum(self.column_points(grid[a], grid[b]) for a, b in COLUMNS)
        return total + sum(b.points for b in self.hand_bonuses(grid))


def pair_points(rank: str, rules: Rules) -> int:
    """What a column of two cards of ``rank`` scores (spec sections 6 and 12): 0, except -4 for
    eagle_eye jokers and, under ``negative_pairs_keep_value``, the sum of negative cards."""
    if rank == JOKER_RANK and rules.jokers == "eagle_eye":
        return -4
    value = rank_value(rank, rules)
    if rules.negative_pairs_keep_value and value < 0:
        return 2 * value
    return 0


def per_rules(make):
    """A cache of ``make(rules)`` looked up by the rules' identity (cheap on every call; an
    entry whose rules object is gone is replaced). ``make``'s result has a ``rules`` attribute."""
    cache: dict = {}

    def cached(rules: Rules):
        found = cache.get(id(rules))
        if found is None or found.rules is not rules:
            if len(cache) > 256:
                cache.clear()
            found = cache[id(rules)] = make(rules)
        return found

    cached.__doc__ = f"The cached ``{make.__name__}`` of ``rules`` (looked up by identity: cheap on every call)."
    return cached


scoring_model = per_rules(ScoringModel)
