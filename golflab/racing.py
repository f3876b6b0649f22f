"""Racing on paired differences: how many samples each option of a decision needs.

Every option is valued on the same samples (common random numbers: sample ``i`` is the same
world for every option), so the difference between two options is measured sample by sample
and its standard error is small. ``race`` values every option on ``first`` samples, then
doubles the samples of the options still in the race, round after round, until each is
settled against the current best (the lowest mean; an option settled against an earlier best
comes back into the race when it is not settled against the current one):

* **separated**: its paired difference to the best exceeds ``SEPARATION`` standard errors;
* **no longer matters**: the difference and its standard error are both at most
  ``INDIFFERENCE`` points;

or until ``budget`` samples have been spent in all. A settled option leaves the race (its
samples stop where they are). ``precision`` (optional) keeps the best and the runner-up in
the race until the standard error of their difference is at most that many points (a quoted
gap then means something), within the same budget. Deterministic: the samples are drawn by
the caller's ``sample`` function, the same samples whatever batch asks for them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

__all__ = ["INDIFFERENCE", "SEPARATION", "Estimate", "paired", "race"]

#: Standard errors of the paired difference that separate an option from the best.
SEPARATION = 3.0
#: Points below which a difference (and its standard error) no longer matters.
INDIFFERENCE = 0.1


@dataclass(frozen=True)
class Estimate:
    """One option after the race: ``value`` (its mean, or the best's mean plus the paired
    difference when it left the race with fewer samples than the best), ``se`` (standard error
    of its own mean), ``gap_se`` (standard error of its paired difference to the best; 0 for
    the best), ``samples`` and ``same_as`` (the move whose samples it shares, being the same move
    up to a symmetry; "" when it was valued itself)."""

    action: str
    value: float
    se: float
    gap_se: float
    samples: int
    same_as: str = ""


def mean(xs: Sequence[float]) -> float:
    """The mean of ``xs`` (as the race computes its means: ``sum / len``)."""
    return sum(xs) / len(xs)


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    mean_ = mean(xs)
    if n < 2:
        return mean_, 0.0
    var = sum((x - mean_) ** 2 for x in xs) / (n - 1)
    return mean_, math.sqrt(var / n)


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a[i] - b[i]`` over the samples both have."""
    n = min(len(a), len(b))
    return _mean_se([x - y for x, y in zip(a[:n], b[:n])])


def _settled(diff: float, se: float) -> bool:
    """Whether an option ``diff`` points behind the best (standard error ``se``) may leave the race:
    one ahead of the best on the samples they share (fewer than the best's) is not settled."""
    return diff > SEPARATION * se or (0 <= diff <= INDIFFERENCE and se <= INDIFFERENCE)


def race(actions: Sequence[str], sample: Callable[[str, int, int], list], *, first: int, budget: int,
         precision: float | None = None) -> list[Estimate]:
    """Race ``actions`` (see the module); ``sample(action, start, stop)`` returns the action's
    results on samples ``start`` to ``stop - 1``. Returns an ``Estimate`` per action, best
    (lowest value) first, ties in the given order."""
    results: dict[str, list] = {a: [] for a in actions}
    active = list(actions)
    target = first
    while True:
        for a in active:
            if len(results[a]) < target:
                results[a] += sample(a, len(results[a]), target)
        means = {a: sum(results[a]) / len(results[a]) for a in active}
        best = min(active, key=means.get)  # ties: the given order
        # every option against the current best: one settled against an earlier best comes back
        # when its samples no longer settle it against this one
        active = [best] + [a for a in actions if a != best and not _settled(*paired(results[a], results[best]))]
        if precision is not None and len(actions) > 1:
            runner = min((a for a in actions if a != best), key=lambda a: paired(results[a], results[best])[0])
            if paired(results[runner], results[best])[1] > precision and runner not in active:
                active.append(runner)
        if len(active) == 1:
            break
        spent = sum(len(r) for r in results.values())
        room = budget - spent
        grow = target
        while grow > 0 and sum(max(0, target + grow - len(results[a])) for a in active) > room:
            grow //= 2
        if grow == 0:
            break
        target += grow
    return _estimates(actions, results, best)


def _estimates(actions: Sequence[str], results: dict, best: str) -> list[Estimate]:
    top = results[best]
    top_mean, _ = _mean_se(top)
    out = []
    for a in actions:
        mean, se = _mean_se(results[a])
        diff, gap_se = paired(results[a], top)
        value = mean if len(results[a]) >= len(top) else top_mean + diff
        out.append(Estimate(a, value, se, 0.0 if a == best else gap_se, len(results[a])))
    # the race's best first (an option that came back and was cut short by the budget may show a
    # lower value on its fewer samples), then by value; stable: ties keep the given order
    out.sort(key=lambda e: (e.action != best, e.value))
    return out
