"""Scoring a hand and a round, with breakdowns a teacher can read aloud (spec section 6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from .cards import Card, parse_cards
from .model import COLUMNS, ROUND_ADJUSTMENTS, BonusScore, scoring_model
from .rules import Rules, card_value

__all__ = ["ADJUSTMENT_ORDER", "COLUMNS", "Adjustment", "BonusScore", "ColumnScore", "HandBreakdown",
           "RoundBreakdown", "hand_breakdown", "pair_gain", "round_breakdown", "score_hand", "score_round",
           "unpaired_total", "wasted_pairs"]
#: The round adjustments' rules, in the order they apply (``model.ROUND_ADJUSTMENTS``).
ADJUSTMENT_ORDER = tuple(a.rule for a in ROUND_ADJUSTMENTS)


@dataclass(frozen=True)
class ColumnScore:
    """One column: its two positions, its cards, whether they pair, and its points."""

    positions: tuple[int, int]
    cards: tuple[Card, Card]
    paired: bool
    points: int
    note: str


@dataclass(frozen=True)
class HandBreakdown:
    """A hand's score column by column, plus its hand bonuses (wolfpack, four of a kind)."""

    columns: tuple[ColumnScore, ...]
    bonuses: tuple[BonusScore, ...]
    total: int

    @property
    def wolfpack(self) -> int:
        """Points of the wolfpack bonus (0 when it does not apply)."""
        return sum(b.points for b in self.bonuses if b.rule == "wolfpack")

    def lines(self) -> list[str]:
        """Plain-language lines explaining the score."""
        out = [f"column {c.positions[0]}/{c.positions[1]}: {c.cards[0]} {c.cards[1]} = {c.points:+d} ({c.note})"
               for c in self.columns]
        out += [f"{b.rule}: {b.reason} {b.points:+d}" for b in self.bonuses]
        out.append(f"hand total {self.total}")
        return out


@dataclass(frozen=True)
class Adjustment:
    """A round adjustment applied to one seat."""

    rule: str
    seat: int
    points: int
    reason: str


@dataclass(frozen=True)
class RoundBreakdown:
    """Hand scores, then each adjustment in spec order, then the round scores."""

    hands: tuple[HandBreakdown, ...]
    hand_scores: tuple[int, ...]
    adjustments: tuple[Adjustment, ...]
    scores: tuple[int, ...]
    finisher: int | None
    winners: tuple[int, ...] = field(default=())

    def adjustments_for(self, seat: int) -> list[Adjustment]:
        return [a for a in self.adjustments if a.seat == seat]


def _six(cards: Iterable) -> list[Card]:
    hand = parse_cards(cards)
    if len(hand) != 6:
        raise ValueError(f"a hand has exactly 6 cards in grid order (0-2 top, 3-5 bottom), got {len(hand)}")
    return hand


def hand_breakdown(cards: Iterable, rules: Rules | None = None) -> HandBreakdown:
    """Score 6 cards (Cards or codes, grid order) column by column, then the hand bonuses."""
    model = scoring_model(rules or Rules())
    hand = _six(cards)
    kinds = [model.kind(c) for c in hand]
    columns = tuple(
        ColumnScore((a, b), (hand[a], hand[b]), hand[a].rank == hand[b].rank,
                    model.column_points(kinds[a], kinds[b]), model.column_note(kinds[a], kinds[b]))
        for a, b in COLUMNS)
    bonuses = tuple(model.hand_bonuses(kinds))
    return HandBreakdown(columns, bonuses, sum(c.points for c in columns) + sum(b.points for b in bonuses))


def score_hand(cards: Iterable, rules: Rules | None = None) -> int:
    """The score of a 6-card hand (Cards or codes, grid order) under ``rules``."""
    return hand_breakdown(cards, rules).total


def round_breakdown(
    hands: Sequence[Iterable], rules: Rules | None = None, finisher: int | None = None
) -> RoundBreakdown:
    """Score every hand, then apply the round adjustments in the spec's order.

    ``finisher`` is the seat that went out (None for a stalled round: the knock
    rules then do not apply).
    """
    rules = rules or Rules()
    if len(hands) < 1:
        raise ValueError("score_round needs at least one hand")
    if finisher is not None and not (isinstance(finisher, int) and 0 <= finisher < len(hands)):
        raise ValueError(f"finisher must be a seat index 0-{len(hands) - 1} or None, got {finisher!r}")
    details = tuple(hand_breakdown(h, rules) for h in hands)
    base = tuple(d.total for d in details)
    scores = list(base)
    adjustments: list[Adjustment] = []
    for adjustment in scoring_model(rules).adjustments:
        for seat in adjustment.seats(scores, finisher):
            scores[seat] += adjustment.points
            adjustments.append(Adjustment(adjustment.rule, seat, adjustment.points, adjustment.reason))
    low = min(scores)
    winners = tuple(i for i, s in enumerate(scores) if s == low)
    return RoundBreakdown(details, base, tuple(adjustments), tuple(scores), finisher, winners)


def score_round(hands: Sequence[Iterable], rules: Rules | None = None, finisher: int | None = None) -> list[int]:
    """Round scores of all hands after the adjustments (spec section 6)."""
    return list(round_breakdown(hands, rules, finisher).scores)


def pair_gain(column: ColumnScore, rules: Rules) -> int:
    """Points ``column`` would score unpaired minus what it scores: what its pair saves (negative:
    the pair throws points away, as a pair of negative cards does unless they keep their value).
    0 for a column that is no pair."""
    if not column.paired:
        return 0
    return sum(card_value(c, rules) for c in column.cards) - column.points


def wasted_pairs(breakdown: HandBreakdown, rules: Rules) -> list[ColumnScore]:
    """The columns whose pair throws points away: they score more than the same two cards
    apart, and no hand bonus rewards pairs of their rank."""
    bonus_ranks = {b.rank for b in breakdown.bonuses}
    return [c for c in breakdown.columns
            if c.paired and pair_gain(c, rules) < 0 and c.cards[0].rank not in bonus_ranks]


def unpaired_total(breakdown: HandBreakdown, rules: Rules) -> int:
    """The hand's score with every wasted pair counted as two single cards."""
    return breakdown.total + sum(pair_gain(c, rules) for c in wasted_pairs(breakdown, rules))
