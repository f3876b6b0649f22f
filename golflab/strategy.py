"""Numbers behind the strategy explorers: pure functions on rules, engine values and
simulation frames (pandas), with no widgets.

* ``tier_table(rules)``: each rank's value and tier under the house rules (spec section 2).
* ``play_events`` / ``rank_stats``: CPU games step by step (the games of ``simulate``), and
  how they treat each rank (kept to the end, discarded when drawn, points at the end).
* ``calculator_observation``, ``placement_table``, ``column_chances``: the exact pairing
  calculator (``golflab.ev``); ``pairing_study`` / ``pairing_table`` / ``partner_table``:
  what completing a pair is worth by rank and phase, predicted and realised.
* ``turn_study``, ``turn_distribution``, ``turn_summary``: turns per player per hole.
* ``round_robin`` / ``personality_table``: the personalities at every 4-player table.
* ``compare_rules``, ``hole_lengths``, ``relative_scores``: two rule sets side by side.
* ``mean_ci`` / ``rate_ci``: confidence intervals (normal approximation / Wilson).

pandas is imported lazily so that ``import golflab.strategy`` stays light.
"""

from __future__ import annotations

import math
from itertools import combinations
from statistics import NormalDist
from typing import TYPE_CHECKING, Iterable, Sequence

from .cards import JOKER_RANK, RANKS
from .rules import TIER_ADVICE, TIERS, Rules, rank_value, value_tier

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: Ranks in chart order: ace to king, then the joker.
CHART_RANKS = (*RANKS, JOKER_RANK)


def _pd():
    import pandas as pd

    return pd


def chart_ranks(rules: Rules) -> tuple[str, ...]:
    """The ranks that exist under ``rules`` (the joker only when the joker mode adds jokers)."""
    return CHART_RANKS if rules.jokers != "none" else RANKS


# ----------------------------------------------------------------------------- tiers
def tier_table(rules: Rules | None = None) -> "pd.DataFrame":
    """One row per rank in play: its value and tier under ``rules`` and under standard values.

    Columns: ``rank``, ``value``, ``tier``, ``tier_order`` (0 = Excellent ... 5 = Terrible),
    ``advice``, ``standard_value``, ``standard_tier`` and ``moved`` (the house rules put the
    rank in another tier than standard values do). The standard joker is -2 (spec section 2).
    """
    rules = rules or Rules()
    rows = []
    for rank in chart_ranks(rules):
        value = rank_value(rank, rules)
        std = rank_value(rank, None)
        tier, std_tier = value_tier(value), value_tier(std)
        rows.append({
            "rank": rank, "value": value, "tier": tier, "tier_order": TIERS.index(tier),
            "advice": TIER_ADVICE[tier], "standard_value": std, "standard_tier": std_tier,
            "moved": tier != std_tier,
        })
    return _pd().DataFrame(rows)


# ------------------------------------------------------------------------- statistics
def mean_ci(values: Iterable[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its normal-approximation confidence interval.

    Uses the sample standard deviation; with fewer than two values the interval is
    ``(nan, nan)`` around the mean (nan for no values at all).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(xs) / n
    if n < 2:
        return (mean, math.nan, math.nan)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def rate_ci(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """``(rate, low, high)`` for a proportion: the Wilson score interval (good near 0 and 1)."""
    if trials <= 0:
        return (math.nan, math.nan, math.nan)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be from 0 to trials ({trials}), got {successes}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))


# ------------------------------------------------------------------------- turn counts
def turn_distribution(rounds: "pd.DataFrame", by: str | None = None) -> "pd.DataFrame":
    """Turns per player per hole, as a histogram with its CDF.

    ``rounds`` is a simulation's ``.rounds`` frame (one row per player per hole, with a
    ``turns`` column). ``by`` names a column to split on (e.g. ``"flip_mode"``); the result
    has columns ``group`` (the value of ``by``, or ``"all"``), ``turns``, ``count``,
    ``share`` (of that group's rows) and ``cdf`` (share with at most that many turns).
    """
    pd = _pd()
    if "turns" not in rounds.columns:
        raise ValueError("the rounds frame has no 'turns' column: pass a simulation's .rounds")
    if by is not None and by not in rounds.columns:
        raise ValueError(f"cannot split by {by!r}: the rounds frame has columns {', '.join(map(str, rounds.columns))}")
    groups = [("all", rounds)] if by is None else list(rounds.groupby(by, sort=False))
    parts = []
    for key, frame in groups:
        counts = frame["turns"].value_counts().sort_index()
        part = pd.DataFrame({"turns": counts.index.astype(int), "count": counts.to_numpy()})
        part["share"] = part["count"] / part["count"].sum()
        part["cdf"] = part["share"].cumsum()
        part.insert(0, "group", key)
        parts.append(part)
    if not parts:
        return pd.DataFrame(columns=["group", "turns", "count", "share", "cdf"])
    return pd.concat(parts, ignore_index=True)


def turn_summary(rounds: "pd.DataFrame", by: str | None = None, low: int = 4, high: int = 8) -> "pd.DataFrame":
    """Per group: rows, min, median, mean and max turns, and the shares below ``low``,
    within ``low``-``high`` and above ``high`` (the spec's "4-8 turns, minimum 4")."""
    pd = _pd()
    dist = turn_distribution(rounds, by)
    rows = []
    for key, part in dist.groupby("group", sort=False):
        turns = part["turns"].to_numpy()
        share = part["share"].to_numpy()
        counts = part["count"].to_numpy()
        n = int(counts.sum())
        cdf = part["cdf"].to_numpy()
        median = int(turns[(cdf >= 0.5).argmax()])
        rows.append({
            "group": key, "rows": n, "min": int(turns.min()), "median": median,
            "mean": float((turns * counts).sum() / n), "max": int(turns.max()),
            f"below_{low}": float(share[turns < low].sum()),
            f"in_{low}_{high}": float(share[(turns >= low) & (turns <= high)].sum()),
            f"above_{high}": float(share[turns > high].sum()),
        })
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------ per-rank stats
RANK_COUNTERS = ("dealt", "placed", "drawn", "discarded", "taken", "swapped_out", "final", "points")


def card_contributions(cards: Sequence, rules: Rules) -> list[tuple[str, float]]:
    """``(rank, points)`` for each card of a final 6-card hand: its value when unpaired,
    half its column's points when paired (0, or -2 for an eagle-eye joker pair).

    The sum is the hand score without the wolfpack bonus (which belongs to no one card).
    """
    from .scoring import hand_breakdown

    return _contributions(hand_breakdown(cards, rules), rules)


def _contributions(hand, rules: Rules) -> list[tuple[str, float]]:
    return [(card.rank, col.points / 2 if col.paired else rank_value(card.rank, rules))
            for col in hand.columns for card in col.cards]


def play_events(players: Sequence[str], holes: int, rules: Rules | None = None, seed: int = 0):
    """Play CPU games and yield what happens, for statistics that need more than
    ``golflab.simulate``'s frames (final grids, held cards, omniscient checks).

    Plays whole games of ``rules.rounds`` holes until at least ``holes`` holes are done,
    with a ``golflab.ai.CPUPlayer`` per personality in ``players`` (a name may repeat).
    The games are those of ``golflab.simulate(players, games, rules, seed)``: the same
    game and CPU seeds. Yields ``("decision", game, obs, action)`` before each action is
    applied (``obs`` is the acting seat's observation, ``action`` the CPU's choice; do not
    change ``game``), and ``("hole_over", game, None, None)`` after each hole is scored.
    """
    from .simulation import play_games, resolve_players

    rules = rules or Rules()
    if isinstance(holes, bool) or not isinstance(holes, int) or holes < 1:
        raise ValueError(f"holes must be a whole number of at least 1, got {holes!r}")
    personalities = resolve_players(players)
    games = math.ceil(holes / rules.rounds)
    for kind, _index, game, obs, action in play_games(personalities, rules, seed, 0, games):
        yield (kind, game, obs, action)


def rank_stats(players: Sequence[str], holes: int, rules: Rules | None = None, seed: int = 0) -> "pd.DataFrame":
    """How simulated CPU play treats each rank, over ``holes`` holes of ``play_events``.

    One row per rank in play with the raw counts (``dealt`` into grids, ``placed`` by a
    swap, ``drawn`` from the draw pile, ``discarded`` straight after being drawn, ``taken``
    from the discard pile, ``swapped_out`` of a grid, ``final`` in a grid at the end of a
    hole, ``points`` they scored there) and the rates a player asks about:

    * ``kept_to_end``: of the cards of this rank that were in a grid (dealt or placed), the
      share still there when the hole is scored;
    * ``discard_rate``: of the cards of this rank drawn from the pile, the share discarded;
    * ``mean_points``: mean points one such card contributes to its final hand (see
      ``card_contributions``: a paired card counts half its column);
    * ``points_per_hand``: points the rank contributes to an average final hand.
    """
    rules = rules or Rules()
    players = tuple(players)
    counts = {r: dict.fromkeys(RANK_COUNTERS, 0) for r in CHART_RANKS}
    hands = games = 0
    new_hole = True
    for kind, game, obs, action in play_events(players, holes, rules, seed):
        if kind == "hole_over":
            new_hole = True
            for hand in game.round_results[-1].hands:
                hands += 1
                for rank, pts in _contributions(hand, rules):
                    counts[rank]["final"] += 1
                    counts[rank]["points"] += pts
            continue
        if new_hole:  # the first decision of a hole: count the deal
            new_hole = False
            games += game.round == 1
            for s in range(len(obs.players)):
                for card in game.grid(s):
                    counts[card.rank]["dealt"] += 1
        if obs.awaiting == "place" and obs.taken is None:  # holding a card drawn from the pile
            counts[obs.drawn.rank]["drawn"] += 1
        if action.kind == "swap":
            counts[obs.drawn.rank]["placed"] += 1
            counts[game.grid(obs.seat)[action.pos].rank]["swapped_out"] += 1
        elif action.kind == "discard":
            counts[obs.drawn.rank]["discarded"] += 1
        elif action.kind == "take":
            counts[obs.discard_top.rank]["taken"] += 1
    pd = _pd()
    frame = tier_table(rules)[["rank", "value", "tier"]].merge(
        pd.DataFrame([{"rank": r, **counts[r]} for r in chart_ranks(rules)]), on="rank")
    held = frame["dealt"] + frame["placed"]
    frame["kept_to_end"] = frame["final"] / held.where(held > 0)
    frame["discard_rate"] = frame["discarded"] / frame["drawn"].where(frame["drawn"] > 0)
    frame["mean_points"] = frame["points"] / frame["final"].where(frame["final"] > 0)
    frame["points_per_hand"] = frame["points"] / max(hands, 1)
    frame.attrs.update(hands=hands, holes=hands // len(players), games=games)
    return frame


# ----------------------------------------------------------------------------- pairing
COLUMNS = ((0, 3), (1, 4), (2, 5))
_PARTNER = (3, 4, 5, 0, 1, 2)


def _grid_ranks(grid: Sequence, rules: Rules) -> list[str | None]:
    if isinstance(grid, str) or len(grid) != 6:
        raise ValueError("a grid has 6 positions in grid order (0-2 top, 3-5 bottom); "
                         f"give a rank (A 2-9 T J Q K JK) or None (face down) for each, got {grid!r}")
    return [None if c in (None, "", "?") else _check_rank(c, rules) for c in grid]


def _check_rank(card, rules: Rules) -> str:
    from .cards import Card

    rank = card if isinstance(card, str) and card in CHART_RANKS else Card.parse(card).rank
    if rank == JOKER_RANK and rules.jokers == "none":
        raise ValueError("there are no jokers with jokers='none': choose a joker mode or another rank")
    return rank


def calculator_observation(grid: Sequence, drawn, rules: Rules | None = None, players: int = 4):
    """An ``Observation`` of seat 0 holding ``drawn`` (drawn from the pile) with ``grid``
    (6 ranks or cards, None for face down) and nothing else visible: every opponent card
    face down, an empty discard pile. Suits are assigned in order (they do not score);
    more cards of a rank than the deck holds is a ValueError.
    """
    from collections import Counter

    from .cards import SUITS, Card
    from .ev import deck_counts
    from .game import Observation, Phase

    rules = rules or Rules()
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise ValueError(f"players must be a whole number from 2 to 6, got {players!r}")
    ranks = _grid_ranks(grid, rules)
    held = _check_rank(drawn, rules)
    seen = Counter(r for r in ranks if r is not None)
    seen[held] += 1
    in_deck = deck_counts(rules, players)
    for rank, n in seen.items():
        if n > in_deck.get(rank, 0):
            raise ValueError(f"{n} cards of rank {rank} shown but the deck for {players} players under these rules "
                             f"holds {in_deck.get(rank, 0)}")
    used: Counter = Counter()

    def card(rank: str):
        if rank == JOKER_RANK:
            return Card(JOKER_RANK)
        used[rank] += 1
        return Card(rank, SUITS[(used[rank] - 1) % 4])

    cards = [None if r is None else card(r) for r in ranks]
    hand = card(held)
    return Observation(
        seat=0, phase=Phase.PLAYING, round=1, current_player=0,
        grids=[cards] + [[None] * 6 for _ in range(players - 1)], discard_top=None, drawn=hand,
        draw_pile_size=sum(in_deck.values()) - 6 * players - 1, legal_actions=[], rules=rules,
        totals=[0] * players, players=tuple(f"Player {i + 1}" for i in range(players)), discard_pile=(),
        taken=None, holding=True, awaiting="place", first_player=0, finisher=None,
        turns=(0,) * players, holes_won=(0,) * players,
    )


def placement_table(obs, card=None) -> "pd.DataFrame":
    """Every placement of the held card (or ``card``) with its exact expected change of the
    hand score (``golflab.ev.placement_evs``; lower is better): columns ``action``, ``ev``,
    ``replaces`` (the card there, ``?`` when face down), ``completes_pair`` and ``best``
    (the lowest expected change; ties all marked)."""
    from .ev import placement_evs

    held = obs.drawn if card is None else card
    evs = placement_evs(obs, held)
    grid = obs.my_grid
    rank = _check_rank(held, obs.rules)
    rows = []
    for action, ev in evs.items():
        pos = int(action.split()[1]) if action.startswith("swap") else None
        partner = None if pos is None else grid[_PARTNER[pos]]
        rows.append({
            "action": action, "ev": ev,
            "replaces": "" if pos is None else ("?" if grid[pos] is None else str(grid[pos])),
            "completes_pair": bool(partner is not None and partner.rank == rank and
                                   (grid[pos] is None or grid[pos].rank != rank)),
        })
    frame = _pd().DataFrame(rows)
    frame["best"] = frame["ev"] <= frame["ev"].min() + 1e-9
    return frame


def column_chances(obs, draws: Sequence[int] = (3, 6)) -> "pd.DataFrame":
    """For each column of the observing seat's grid: can it still be paired, and how likely?

    ``p_pair_now`` is the chance the column is a pair already (1 or 0 when both cards are
    up; two face-down cards: the exact chance they share a rank, without eagle-eye
    distinctions). For a column with one face-up card of rank r and one face-down card,
    ``p_within_k`` is the exact chance that one of the next k unseen cards to come to light
    (the face-down partner first, then cards drawn) is an r (``golflab.ev.pair_probability``).
    """
    from .ev import pair_probability, unseen_counts

    counts = unseen_counts(obs)
    n = sum(counts.values())
    grid = obs.my_grid
    rows = []
    for col, (a, b) in enumerate(COLUMNS):
        ca, cb = grid[a], grid[b]
        row = {"column": f"{a}/{b}", "top": "?" if ca is None else str(ca), "bottom": "?" if cb is None else str(cb)}
        if ca is not None and cb is not None:
            row["p_pair_now"] = float(ca.rank == cb.rank)
            row.update({f"p_within_{k}": row["p_pair_now"] for k in draws})
        elif ca is None and cb is None:
            row["p_pair_now"] = sum(c * (c - 1) for c in counts.values()) / (n * (n - 1)) if n > 1 else 0.0
            row.update({f"p_within_{k}": math.nan for k in draws})
        else:
            up = ca or cb
            row["p_pair_now"] = pair_probability(up.rank, counts, 1)
            row.update({f"p_within_{k}": pair_probability(up.rank, counts, min(k, n)) for k in draws})
        rows.append(row)
    return _pd().DataFrame(rows)


def pairing_study(players: Sequence[str], holes: int, rules: Rules | None = None,
                  seed: int = 0) -> "tuple[pd.DataFrame, pd.DataFrame]":
    """Pairing in simulated play (``play_events``), predicted and realised.

    ``situations``: one row per moment a player held a card that could complete a column
    pair (a face-up card of the same rank whose partner is not that rank): ``rank``,
    ``phase`` (``golflab.analysis.game_phase``), ``source`` (draw/take), ``pair_ev`` (exact
    expected hand change of pairing), ``elsewhere_ev`` (best other placement, discarding
    included when allowed), ``gain`` (``elsewhere_ev - pair_ev``: points pairing is
    expected to save over the best alternative), ``realised`` (the true change pairing
    would have made, from the hidden cards: its mean checks ``pair_ev``) and ``chose_pair``.

    ``partners``: one row per decision and column with one face-up card and one face-down
    card: ``rank``, ``phase``, ``predicted`` (exact chance the hidden partner matches) and
    ``matched`` (it did).
    """
    from .analysis import game_phase
    from .ev import pair_probability, placement_evs, unseen_counts
    from .scoring import score_hand

    rules = rules or Rules()
    situations, partners = [], []
    for kind, game, obs, action in play_events(players, holes, rules, seed):
        if kind != "decision" or obs.awaiting != "place":
            continue
        grid, held = obs.my_grid, obs.drawn
        true = game.grid(obs.seat)
        phase = game_phase(obs)
        counts = unseen_counts(obs)
        for a, b in COLUMNS:
            for up, down in ((a, b), (b, a)):
                if grid[up] is not None and grid[down] is None:
                    partners.append({"rank": grid[up].rank, "phase": phase,
                                     "predicted": pair_probability(grid[up].rank, counts, 1),
                                     "matched": true[down].rank == grid[up].rank})
        evs = None
        for pos in range(6):
            partner = grid[_PARTNER[pos]]
            if partner is None or partner.rank != held.rank or (grid[pos] is not None and grid[pos].rank == held.rank):
                continue
            evs = evs or placement_evs(obs, held)
            key = f"swap {pos}"
            elsewhere = min(v for k, v in evs.items() if k != key)
            after = list(true)
            after[pos] = held
            situations.append({
                "rank": held.rank, "phase": phase, "source": "take" if obs.taken is not None else "draw",
                "pair_ev": evs[key], "elsewhere_ev": elsewhere, "gain": elsewhere - evs[key],
                "realised": score_hand(after, rules) - score_hand(true, rules), "chose_pair": action == key,
            })
    pd = _pd()
    cols_s = ["rank", "phase", "source", "pair_ev", "elsewhere_ev", "gain", "realised", "chose_pair"]
    cols_p = ["rank", "phase", "predicted", "matched"]
    return pd.DataFrame(situations, columns=cols_s), pd.DataFrame(partners, columns=cols_p)


def pairing_table(situations: "pd.DataFrame") -> "pd.DataFrame":
    """``pairing_study`` situations by rank and phase: ``situations``, mean ``pair_ev``,
    ``elsewhere_ev``, ``gain`` and ``realised``, and ``chose_pair`` (share of CPU players
    who paired). Ranks in chart order, phases early/mid/late."""
    from .analysis import PHASES

    pd = _pd()
    if situations.empty:
        return pd.DataFrame(columns=["rank", "phase", "situations", "pair_ev", "elsewhere_ev", "gain",
                                     "realised", "chose_pair"])
    out = (situations.groupby(["rank", "phase"], sort=False)
           .agg(situations=("gain", "size"), pair_ev=("pair_ev", "mean"), elsewhere_ev=("elsewhere_ev", "mean"),
                gain=("gain", "mean"), realised=("realised", "mean"), chose_pair=("chose_pair", "mean"))
           .reset_index())
    out["_r"] = out["rank"].map(CHART_RANKS.index)
    out["_p"] = out["phase"].map(PHASES.index)
    return out.sort_values(["_r", "_p"]).drop(columns=["_r", "_p"]).reset_index(drop=True)


def partner_table(partners: "pd.DataFrame") -> "pd.DataFrame":
    """``pairing_study`` partner checks by rank: ``columns`` seen, mean ``predicted``
    chance that the hidden partner matches, and the ``observed`` rate."""
    pd = _pd()
    if partners.empty:
        return pd.DataFrame(columns=["rank", "columns", "predicted", "observed"])
    out = (partners.groupby("rank", sort=False)
           .agg(columns=("matched", "size"), predicted=("predicted", "mean"), observed=("matched", "mean"))
           .reset_index())
    out["_r"] = out["rank"].map(CHART_RANKS.index)
    return out.sort_values("_r").drop(columns="_r").reset_index(drop=True)


# ---------------------------------------------------------------------- personalities
def round_robin_tables(names: Sequence[str], size: int = 4) -> list[tuple[str, ...]]:
    """Every table of ``size`` distinct personalities from ``names`` (each combination once,
    seated in the order of ``names``): for the eight personalities, 70 tables of four."""
    names = tuple(names)
    if len(set(names)) != len(names):
        raise ValueError(f"personality names must be distinct, got {names}")
    if not 2 <= size <= 6 or size > len(names):
        raise ValueError(f"table size must be from 2 to min(6, {len(names)} personalities), got {size}")
    return list(combinations(names, size))


def table_seed(seed: int, table: int) -> int:
    """The simulation seed of round-robin table ``table`` (stable across runs)."""
    import random

    return random.Random(f"golflab.round_robin:{seed}:{table}").getrandbits(31)


def round_robin(names: Sequence[str] | None = None, games_per_table: int = 1, rules: Rules | None = None,
                seed: int = 0, size: int = 4, analyze: bool = True) -> "tuple[pd.DataFrame, pd.DataFrame]":
    """Play every ``size``-table of ``names`` (default: all personalities) for
    ``games_per_table`` games with ``golflab.simulate``; returns its ``rounds`` and
    ``decisions`` frames concatenated, with a ``table`` column (the table's index)."""
    from .simulation import simulate

    if names is None:
        from .ai import PROFILES

        names = tuple(PROFILES)
    pd = _pd()
    rounds, decisions = [], []
    for t, table in enumerate(round_robin_tables(names, size)):
        result = simulate(list(table), games_per_table, rules=rules, seed=table_seed(seed, t), progress=False,
                          analyze=analyze)
        rounds.append(result.rounds.assign(table=t))
        if analyze:
            decisions.append(result.decisions.assign(table=t))
    return (pd.concat(rounds, ignore_index=True),
            pd.concat(decisions, ignore_index=True) if decisions else pd.DataFrame())


def relative_scores(rounds: "pd.DataFrame") -> "pd.Series":
    """Each row's round score minus the mean score of its hole's table: who beats the table.

    Holes are identified by ``table`` (when present), ``game`` and ``round``.
    """
    keys = [k for k in ("table", "game", "round") if k in rounds.columns]
    return rounds["score"] - rounds.groupby(keys)["score"].transform("mean")


def personality_table(rounds: "pd.DataFrame", decisions: "pd.DataFrame | None" = None,
                      confidence: float = 0.95) -> "pd.DataFrame":
    """One row per personality, best (lowest mean round score) first: ``rank``, ``holes``,
    ``mean_score`` with ``ci_low``/``ci_high`` (normal approximation), ``edge`` (mean score
    relative to the table, see ``relative_scores``), ``win_rate`` (holes won, ties
    counted as wins) with its Wilson interval ``win_low``/``win_high``, ``go_out_rate`` and, given ``decisions``, the share of each quality
    grade (``optimal`` ... ``blunder``) among that personality's decisions."""
    pd = _pd()
    frame = rounds.assign(_edge=relative_scores(rounds))
    rows = []
    for name, part in frame.groupby("personality", sort=False):
        mean, low, high = mean_ci(part["score"], confidence)
        win, win_low, win_high = rate_ci(int(part["won_hole"].sum()), len(part), confidence)
        rows.append({"personality": name, "holes": len(part), "mean_score": mean, "ci_low": low, "ci_high": high,
                     "edge": float(part["_edge"].mean()), "win_rate": win, "win_low": win_low, "win_high": win_high,
                     "go_out_rate": float(part["went_out"].mean())})
    out = pd.DataFrame(rows)
    if decisions is not None and not decisions.empty:
        from .analysis import GRADES

        shares = pd.crosstab(decisions["personality"], decisions["quality"], normalize="index")
        shares = shares.reindex(columns=list(GRADES), fill_value=0.0)
        shares.columns = [g.lower() for g in GRADES]
        out = out.merge(shares, left_on="personality", right_index=True, how="left")
    out = out.sort_values(["mean_score", "personality"]).reset_index(drop=True)
    out.insert(0, "rank", range(1, len(out) + 1))
    return out


# ------------------------------------------------------------------------- house rules
def hole_lengths(rounds: "pd.DataFrame") -> "pd.DataFrame":
    """One row per hole: ``turns`` (the most turns any player took: how many times round
    the table the hole lasted) and whether someone went out."""
    keys = [k for k in ("table", "game", "round") if k in rounds.columns]
    return (rounds.groupby(keys).agg(turns=("turns", "max"), went_out=("went_out", "any")).reset_index())


def compare_rules(frames: "dict[str, pd.DataFrame]", confidence: float = 0.95) -> "pd.DataFrame":
    """Personalities under several rule sets: ``frames`` maps a label to a ``rounds``
    frame. One row per personality and label: ``mean_score`` with its interval, ``edge``
    (score relative to the table) and ``delta_edge`` (edge minus the edge under the first
    label: negative means the personality gains from that rule set)."""
    pd = _pd()
    parts = []
    for label, rounds in frames.items():
        table = personality_table(rounds, None, confidence)[["personality", "mean_score", "ci_low", "ci_high",
                                                              "edge", "win_rate"]]
        parts.append(table.assign(rules=label))
    out = pd.concat(parts, ignore_index=True)
    first = out[out["rules"] == next(iter(frames))].set_index("personality")["edge"]
    out["delta_edge"] = out["edge"] - out["personality"].map(first)
    return out[["rules", "personality", "mean_score", "ci_low", "ci_high", "edge", "delta_edge", "win_rate"]]


# ------------------------------------------------------------------------- turn study
TURN_SPLITS = ("flip_mode", "initial_flips", "players", "personality")


def simulate_holes(players: Sequence[str], holes: int, rules: Rules | None = None, seed: int = 0,
                   analyze: bool = False):
    """``golflab.simulate`` for at least ``holes`` holes: whole games of ``rules.rounds``."""
    from .simulation import simulate

    rules = rules or Rules()
    if isinstance(holes, bool) or not isinstance(holes, int) or holes < 1:
        raise ValueError(f"holes must be a whole number of at least 1, got {holes!r}")
    return simulate(list(players), math.ceil(holes / rules.rounds), rules=rules, seed=seed, progress=False,
                    analyze=analyze)


def turn_study(players: Sequence[str], holes: int, rules: Rules | None = None, seed: int = 0,
               by: str | None = None) -> "pd.DataFrame":
    """The ``rounds`` frames behind a turn-count comparison, with a column named ``by``.

    ``by``: None (one simulation), ``"flip_mode"`` / ``"initial_flips"`` (one simulation
    per value of that option, the rest of ``rules`` unchanged), ``"players"`` (tables of
    2 to 6 seats filled from ``players`` in order, repeating them when needed) or
    ``"personality"`` (one simulation, split by the seat's personality). Each simulation
    plays ``holes`` holes from the same ``seed``.
    """
    from .rules import FLIP_MODES

    pd = _pd()
    rules = rules or Rules()
    players = list(players)
    if by not in (None, *TURN_SPLITS):
        raise ValueError(f"cannot compare turn counts by {by!r}: choose one of {', '.join(TURN_SPLITS)} or None")
    if by in (None, "personality"):
        return simulate_holes(players, holes, rules, seed).rounds
    if by == "players":
        runs = [(n, [players[i % len(players)] for i in range(n)], rules) for n in range(2, 7)]
    else:
        values = FLIP_MODES if by == "flip_mode" else (0, 1, 2)
        runs = [(v, players, rules.replace(**{by: v})) for v in values]
    frames = [simulate_holes(p, holes, r, seed).rounds.assign(**{by: value}) for value, p, r in runs]
    return pd.concat(frames, ignore_index=True)
