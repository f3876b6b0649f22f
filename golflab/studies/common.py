"""Shared by the studies: chart ranks, lazy pandas, confidence intervals."""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import TYPE_CHECKING, Iterable

from ..cards import JOKER_RANK, RANKS
from ..rules import ONE_EYED, Rules

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd  # noqa: F401

#: Ranks in chart order: ace to king, then the joker.
CHART_RANKS = (*RANKS, JOKER_RANK)


def load_pandas():
    import pandas as pd

    return pd


def chart_ranks(rules: Rules) -> tuple[str, ...]:
    """The card kinds in play under ``rules``, in chart order: the ranks, the one-eyed jacks
    (``ONE_EYED``) after the other jacks under ``one_eyed_jacks`` (their value differs), and
    the joker only when the joker mode adds jokers."""
    out = RANKS
    if rules.one_eyed_jacks:
        after_jacks = RANKS.index("J") + 1
        out = (*RANKS[:after_jacks], ONE_EYED, *RANKS[after_jacks:])
    return (*out, JOKER_RANK) if rules.jokers != "none" else out


def kind_label(kind: str, rules: Rules) -> str:
    """How a chart names a kind: its rank, or which jacks under ``one_eyed_jacks``."""
    if rules.one_eyed_jacks and kind in ("J", ONE_EYED):
        return "J (JH JS)" if kind == ONE_EYED else "J (JD JC)"
    return kind


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
