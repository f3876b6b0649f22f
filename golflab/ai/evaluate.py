"""Fast card arithmetic for the CPU players: per-rules value tables, column scores,
and estimates of face-down cards from the cards a seat has not seen.

Grids here are lists of six kinds (ranks such as ``"K"``, ``"JK"``, and ``ONE_EYED`` for a
one-eyed jack under ``one_eyed_jacks``) or None for a face-down card. Values, pair points
and hand bonuses come from the scoring model (``golflab.model``), so a hand with nothing
hidden is estimated exactly as ``score_hand`` scores it. Everything is computed from an
``Observation``: never from hidden cards. The unseen pool itself (``unseen_counts``) comes
from ``golflab.ev``.
"""

from __future__ import annotations

from ..ev import deck_counts
from ..model import ALL_KINDS, ALL_RANKS, PARTNER, RANK_OF, per_rules, scoring_model
from ..rules import Rules, value_tier

__all__ = ["ALL_KINDS", "ALL_RANKS", "PARTNER", "RuleTable", "column_score", "column_scores", "hand_estimate",
           "placement_gains", "ranks_of", "rule_table", "seen_points", "table_unseen_mean", "unseen_mean"]


class RuleTable:
    """Card values and deck composition under one ``Rules``, computed once and cached.

    ``value``/``tier``/``pair`` by kind (``pair[k]``: points of a column pairing ``k``'s rank);
    ``twin``: the other kind of the same rank (the jacks under ``one_eyed_jacks``).
    """

    __slots__ = ("rules", "model", "value", "tier", "pair", "twin", "eagle", "one_eyed", "pair_wastes",
                 "_decks", "_grid_memo", "_pile_memo")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.model = model = scoring_model(rules)
        self.value = dict(model.value)
        self.tier = {r: value_tier(v) for r, v in self.value.items()}
        self.pair = {k: model.pair_points[RANK_OF[k]] for k in ALL_KINDS}
        self.one_eyed = rules.one_eyed_jacks
        self.twin = {"J": "J1", "J1": "J"} if self.one_eyed else {}
        self.eagle = rules.jokers == "eagle_eye"
        self.pair_wastes = model.pair_wastes
        self._decks: dict[int, tuple[dict[str, int], int, int]] = {}
        # the last grids and discard pile summed by seen_points (compared by content)
        self._grid_memo: tuple = ([], 0, 0)
        self._pile_memo: tuple = ((), 0)

    def kinds(self, grid) -> list:
        """A grid of Cards/None as kinds/None."""
        if self.one_eyed:
            kind = self.model.kind
            return [c and kind(c) for c in grid]
        return [c and c.rank for c in grid]  # a Card is always true

    def pairs(self, a: "str | None", b: "str | None") -> bool:
        """Do kinds ``a`` and ``b`` (None: face down, never) make a column pair?"""
        return a is not None and (a == b or self.twin.get(a) == b)

    def pair_score(self, rank: str) -> int:
        """Points of a column holding two cards of ``rank`` (a kind)."""
        return self.pair[rank]

    def negative_pair(self, rank: str, partner: "str | None") -> bool:
        """True when putting ``rank`` beside ``partner`` would make a pair that throws points
        away (``model.pair_wastes``: two 2s score 0, not -4), which a CPU player never makes.
        Under ``negative_pairs_keep_value`` no pair does; eagle_eye jokers (+2 each, -4 as a
        pair) never do."""
        return partner == rank and self.pair_wastes[rank]

    def deck(self, players: int) -> tuple[dict[str, int], int, int]:
        """(count per rank, number of cards, sum of their values) of the full deck."""
        found = self._decks.get(players)
        if found is None:
            counts = deck_counts(self.rules, players)
            total = sum(counts.values())
            points = sum(self.value[r] * n for r, n in counts.items())
            found = self._decks[players] = (counts, total, points)
        return found


rule_table = per_rules(RuleTable)


def unseen_mean(obs) -> float:
    """The mean value of the cards the seat has not seen: the estimate of one face-down card.

    Equal to ``golflab.ev.expected_unseen_value(obs)``, computed from the deck's total
    instead of a full unseen pool: it runs on every CPU decision, so it must be cheap.
    """
    return table_unseen_mean(obs, rule_table(obs.rules))


def table_unseen_mean(obs, table: RuleTable) -> float:
    """``unseen_mean`` with the observation's ``RuleTable`` already at hand."""
    _, total, points = table.deck(len(obs.players))
    seen, count = seen_points(obs, table)
    left = total - count
    if left <= 0:
        return points / total
    return (points - seen) / left


def seen_points(obs, table: RuleTable) -> tuple[int, int]:
    """(sum of values, number) of ``obs.visible_cards()`` under ``table``'s rules.

    Consecutive observations mostly share their grids and discard pile (a pile grows or
    loses its top card), so the last grids and pile summed are kept and compared by
    content: only what changed is summed again. The result is the same whole number.
    """
    if table.one_eyed:  # values by kind: no memo
        kind, value = table.model.kind, table.value
        held = obs.drawn if obs.taken is None else obs.taken
        cards = [c for g in obs.grids for c in g if c is not None] + list(obs.discard_pile)
        cards += [held] if held is not None else []
        return sum(value[kind(c)] for c in cards), len(cards)
    value = table.value
    grids = obs.grids
    memo = table._grid_memo
    if memo[0] == grids:
        grid_points, grid_count = memo[1], memo[2]
    else:
        seen = [value[c.rank] for g in grids for c in g if c is not None]
        grid_points, grid_count = sum(seen), len(seen)
        table._grid_memo = ([list(g) for g in grids], grid_points, grid_count)
    pile = obs.discard_pile
    old, pile_points = table._pile_memo
    n, m = len(old), len(pile)
    if m >= n and pile[:n] == old:
        for c in pile[n:]:
            pile_points += value[c.rank]
    elif m == n - 1 and old[:m] == pile:
        pile_points -= value[old[-1].rank]
    else:
        pile_points = sum([value[c.rank] for c in pile])
    table._pile_memo = (tuple(pile), pile_points)
    held = obs.drawn if obs.taken is None else obs.taken
    if held is None:
        return grid_points + pile_points, grid_count + m
    return grid_points + pile_points + value[held.rank], grid_count + m + 1


def column_score(a: "str | None", b: "str | None", table: RuleTable, unknown: float) -> float:
    """Points of a column of ranks ``a`` and ``b`` (None: face down, counted as ``unknown``)."""
    value = table.value
    if a is None:
        return unknown + (unknown if b is None else value[b])
    if b is None:
        return value[a] + unknown
    if a == b or table.twin.get(a) == b:
        return table.pair[a]
    return value[a] + value[b]


def hand_estimate(grid: list, table: RuleTable, unknown: float) -> float:
    """A hand's score with each face-down card counted as ``unknown`` (exact when all are known:
    the hand bonuses of its known paired columns count)."""
    total = (column_score(grid[0], grid[3], table, unknown) + column_score(grid[1], grid[4], table, unknown)
             + column_score(grid[2], grid[5], table, unknown))
    if table.model.bonuses:
        total += sum(b.points for b in table.model.hand_bonuses(grid))
    return total


def column_scores(grid: list, table: RuleTable, unknown: float) -> tuple:
    """The ``column_score`` of each position's column, by position (0-5)."""
    c0 = column_score(grid[0], grid[3], table, unknown)
    c1 = column_score(grid[1], grid[4], table, unknown)
    c2 = column_score(grid[2], grid[5], table, unknown)
    return c0, c1, c2, c0, c1, c2


def placement_gains(grid: list, rank: str, table: RuleTable, unknown: float, columns: tuple | None = None
                    ) -> list[float]:
    """How many points the hand improves (estimated) if a card of ``rank`` replaces each of the
    six positions: the hand estimate before minus after (hand bonuses aside). ``columns``: the
    grid's ``column_scores`` when already computed."""
    value = table.value
    own = value[rank]
    pair = table.pair[rank]
    twin = table.twin.get(rank)
    if columns is None:
        columns = column_scores(grid, table, unknown)
    return [column - (own + unknown if partner is None else pair if partner == rank or partner == twin and twin
                      else own + value[partner])
            for column, partner in zip(columns, (grid[3], grid[4], grid[5], grid[0], grid[1], grid[2]))]


def ranks_of(grid, rules: "Rules | None" = None) -> list:
    """A grid of Cards/None as kinds/None (ranks, and ``ONE_EYED`` under ``rules.one_eyed_jacks``)."""
    if rules is not None and rules.one_eyed_jacks:
        return rule_table(rules).kinds(grid)
    return [c and c.rank for c in grid]  # a Card is always true
