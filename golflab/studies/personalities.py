"""The personalities study: a round robin of 4-player tables (``round_robin``) and
``personality_table``."""

from __future__ import annotations

import random
from itertools import combinations
from typing import TYPE_CHECKING, Sequence

from ..ai import PROFILES, personality_names
from ..analysis import GRADES
from ..rules import Rules
from ..simulation import ROUND_COLUMNS, resolve_players, simulate, summarize, uses_kernel
from .common import load_pandas, mean_ci, rate_ci

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


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

    return random.Random(f"golflab.round_robin:{seed}:{table}").getrandbits(31)


def round_robin(names: Sequence[str] | None = None, games_per_table: int = 1, rules: Rules | None = None,
                seed: int = 0, size: int = 4, analyze: bool = True) -> "tuple[pd.DataFrame, pd.DataFrame]":
    """Play every ``size``-table of ``names`` (default: all personalities) for
    ``games_per_table`` games with ``golflab.simulate``; returns its ``rounds`` and
    ``decisions`` frames concatenated, with a ``table`` column (the table's index)."""

    pd = load_pandas()
    rounds, decisions = [], []
    for t, table in _tables(names, games_per_table, rules, size, analyze):
        result = simulate(list(table), games_per_table, rules=rules, seed=table_seed(seed, t), progress=False,
                          analyze=analyze)
        rounds.append(result.rounds.assign(table=t))
        if analyze:
            decisions.append(result.decisions.assign(table=t))
    return (pd.concat(rounds, ignore_index=True),
            pd.concat(decisions, ignore_index=True) if decisions else pd.DataFrame())


def round_robin_grades(names: Sequence[str] | None = None, games_per_table: int = 1, rules: Rules | None = None,
                       seed: int = 0, size: int = 4) -> "tuple[pd.DataFrame, pd.DataFrame]":
    """``round_robin``'s games, its ``rounds`` frame and, instead of every decision, how many
    decisions of each grade each personality made (``SimulationSummary.grade_counts``): all
    ``personality_table`` needs, for less time and memory than the ``decisions`` frame."""

    pd = load_pandas()
    rounds, grades = [], []
    for t, table in _tables(names, games_per_table, rules, size, True):
        rows: list = []
        result = summarize(list(table), games_per_table, rules=rules, seed=table_seed(seed, t), progress=False,
                           rounds=rows.extend)
        rounds.append(pd.DataFrame(rows, columns=list(ROUND_COLUMNS)).assign(table=t))
        grades.append(result.grade_counts())
    counts = pd.concat(grades).groupby(level=0, sort=False).sum() if grades else pd.DataFrame()
    return pd.concat(rounds, ignore_index=True), counts


def _tables(names, games_per_table: int, rules: Rules | None, size: int, analyze: bool) -> list:
    """The round robin's (index, table) pairs, with the compiled kernel loaded if it pays."""

    names = tuple(PROFILES) if names is None else tuple(personality_names(names, distinct=True))
    tables = round_robin_tables(names, size)
    _load_kernel_for(tables, games_per_table, rules or Rules(), analyze)
    return list(enumerate(tables))


def _load_kernel_for(tables: Sequence[tuple[str, ...]], games_per_table: int, rules: Rules, analyze: bool) -> None:
    """Load the compiled kernel when the whole round robin is big enough to pay for it
    (``simulation.uses_kernel``): each table alone is a run too small to load it, so a fresh
    process would otherwise play every table in Python (the same games, about five times slower)."""

    if tables and uses_kernel(resolve_players(tables[0]), rules, len(tables) * games_per_table, analyze):
        from ..kernel import engine  # noqa: F401  (importing it loads the compiled code; uses_kernel then says yes)


def relative_scores(rounds: "pd.DataFrame") -> "pd.Series":
    """Each row's round score minus the mean score of its hole's table: who beats the table.

    Holes are identified by ``table`` (when present), ``game`` and ``round``.
    """
    keys = [k for k in ("table", "game", "round") if k in rounds.columns]
    return rounds["score"] - rounds.groupby(keys)["score"].transform("mean")


def personality_table(rounds: "pd.DataFrame", decisions: "pd.DataFrame | None" = None,
                      confidence: float = 0.95, grades: "pd.DataFrame | None" = None) -> "pd.DataFrame":
    """One row per personality, best (lowest mean round score) first: ``rank``, ``holes``,
    ``mean_score`` with ``ci_low``/``ci_high`` (normal approximation), ``edge`` (mean score
    relative to the table, see ``relative_scores``), ``win_rate`` (holes won, ties
    counted as wins) with its Wilson interval ``win_low``/``win_high``, ``go_out_rate`` and,
    given ``decisions`` (or their ``grades``: counts by personality and grade, as
    ``round_robin_grades`` gives), the share of each quality grade (``optimal`` ...
    ``blunder``) among that personality's decisions."""
    pd = load_pandas()
    frame = rounds.assign(_edge=relative_scores(rounds))
    rows = []
    for name, part in frame.groupby("personality", sort=False):
        mean, low, high = mean_ci(part["score"], confidence)
        win, win_low, win_high = rate_ci(int(part["won_hole"].sum()), len(part), confidence)
        rows.append({"personality": name, "holes": len(part), "mean_score": mean, "ci_low": low, "ci_high": high,
                     "edge": float(part["_edge"].mean()), "win_rate": win, "win_low": win_low, "win_high": win_high,
                     "go_out_rate": float(part["went_out"].mean())})
    out = pd.DataFrame(rows)
    if grades is None and decisions is not None and not decisions.empty:
        grades = pd.crosstab(decisions["personality"], decisions["quality"])
    if grades is not None and not grades.empty:

        grades = grades.reindex(columns=list(GRADES), fill_value=0)
        shares = grades.div(grades.sum(axis=1), axis=0)
        shares.columns = [g.lower() for g in GRADES]
        out = out.merge(shares, left_on="personality", right_index=True, how="left")
    out = out.sort_values(["mean_score", "personality"]).reset_index(drop=True)
    out.insert(0, "rank", range(1, len(out) + 1))
    return out
