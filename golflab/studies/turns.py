"""Pace and house rules: turns per player per hole (``turn_study``, ``turn_distribution``,
``turn_summary``) and two rule sets side by side (``simulate_holes``, ``compare_rules``,
``hole_lengths``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from ..rules import FLIP_MODES, Rules
from ..simulation import simulate
from .common import load_pandas
from .personalities import personality_table

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


# ------------------------------------------------------------------------- turn counts
def turn_distribution(rounds: "pd.DataFrame", by: str | None = None) -> "pd.DataFrame":
    """Turns per player per hole, as a histogram with its CDF.

    ``rounds`` is a simulation's ``.rounds`` frame (one row per player per hole, with a
    ``turns`` column). ``by`` names a column to split on (e.g. ``"flip_mode"``); the result
    has columns ``group`` (the value of ``by``, or ``"all"``), ``turns``, ``count``,
    ``share`` (of that group's rows) and ``cdf`` (share with at most that many turns).
    """
    pd = load_pandas()
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
    pd = load_pandas()
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
    pd = load_pandas()
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

    pd = load_pandas()
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
