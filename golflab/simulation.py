"""Simulating many games between CPU personalities, with every decision graded: the public
front (``simulate``, ``summarize`` and the names they use); the parts live in ``golflab.sim``.

``simulate(players, games, rules, seed)`` plays ``games`` complete games between the
personalities named in ``players`` (keys of ``golflab.ai.PROFILES``; a name may repeat:
the seats are then called "Sofia", "Sofia 2", ...). Game ``i`` is seeded from the master
``seed`` and ``i`` alone (and each CPU from the game seed and its seat: ``golflab.seeding``),
so a run is reproducible and its games are the same whatever ``processes`` or ``executor`` is.

Scale-out uses existing engines: ``executor=`` takes any ``concurrent.futures``-style
executor (``submit(fn, arg)`` returning futures with ``result()``/``cancel()``), e.g. a
``ProcessPoolExecutor`` or a Dask distributed ``Client`` as it is.

pandas is needed for the result frames and is imported only when they are built.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .analysis import QualityCounters
from .rules import Rules
from .seeding import game_seed
from .sim.games import personality_name, play_games, resolve_players, seat_names, uses_kernel
from .sim.pool import in_order
from .sim.results import (
    DECISION_COLUMNS,
    ROUND_COLUMNS,
    SUMMARY_COLUMNS,
    SimulationResult,
    SimulationSummary,
    Tally,
    plain,
)
from .sim.run import CHUNK, Progress, TextBar, checked, run


def simulate(
    players: Sequence[str],
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    processes: int = 1,
    progress: "Progress | bool | None" = None,
    analyze: bool = True,
    executor: Any = None,
) -> SimulationResult:
    """Play ``games`` complete games between CPU personalities and collect the results.

    ``players``: 2-6 personality names (``golflab.ai.PROFILES`` keys, any case; may
    repeat) or ``golflab.ai.Profile`` values for custom personalities (give them names of
    their own: frames and the summary group by personality name). ``rules``: a ``Rules``
    (default ``Rules()``). ``seed``: the master seed; same arguments give the same
    result, whatever ``processes``. ``processes`` > 1 plays
    chunks of games in worker processes (``multiprocessing``) and merges them in game
    order. ``progress``: a ``callable(done, total)`` called as games finish; None shows a
    text bar on stderr when it is a terminal or a Jupyter kernel (silent otherwise);
    False never shows one. ``analyze``: grade every decision (``golflab.analysis``);
    without it ``decisions`` is empty and simulation runs several times faster.
    ``executor``: play the chunks on an existing engine instead (anything with
    ``submit(fn, arg)``: a ``concurrent.futures`` executor, a Dask distributed ``Client``);
    the result is the same. It is not shut down here.
    """
    import pandas as pd  # local: pandas is heavy; golflab imports without it

    personalities, rules, report = checked(players, games, rules, seed, processes, progress, executor)
    rounds: list = []
    decisions: list = []
    quality = QualityCounters()

    def consume(result) -> None:
        nonlocal quality
        r, d, q = result
        rounds.extend(r)
        decisions.extend(d)
        quality = quality + q

    run(personalities, games, rules, seed, processes, report, analyze, True, consume, executor)
    return SimulationResult(
        players=seat_names([personality_name(p) for p in personalities]), rules=rules, games=games, seed=seed,
        rounds=pd.DataFrame(rounds, columns=list(ROUND_COLUMNS)),
        decisions=pd.DataFrame(decisions, columns=list(DECISION_COLUMNS)),
        quality=quality,
    )


def summarize(
    players: Sequence[str],
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    processes: int = 1,
    progress: "Progress | bool | None" = None,
    analyze: bool = True,
    rounds: "Callable[[list], Any] | None" = None,
    executor: Any = None,
) -> SimulationSummary:
    """``simulate`` for runs of any length: the same games, but only running totals are
    kept, so memory does not grow with ``games``. Its ``summary()``, ``quality`` and
    ``to_dict()`` equal those of ``simulate`` with the same arguments. ``rounds``: a
    callable given each chunk's round rows (tuples in ``ROUND_COLUMNS`` order, game
    order), e.g. to write them out as they come. ``executor``: as for ``simulate``."""
    personalities, rules, report = checked(players, games, rules, seed, processes, progress, executor)
    tally = Tally()
    quality = QualityCounters()

    def consume(result) -> None:
        nonlocal quality
        r, grades, q = result
        tally.add_rounds(r)
        tally.add_grades(grades.items())
        quality = quality + q
        if rounds is not None:
            rounds(r)

    run(personalities, games, rules, seed, processes, report, analyze, False, consume, executor)
    return SimulationSummary(players=seat_names([personality_name(p) for p in personalities]), rules=rules, games=games,
                             seed=seed, quality=quality, tally=tally)


__all__ = ["CHUNK", "DECISION_COLUMNS", "Progress", "ROUND_COLUMNS", "SUMMARY_COLUMNS", "SimulationResult",
           "SimulationSummary", "TextBar", "game_seed", "in_order", "plain", "play_games", "resolve_players",
           "seat_names", "simulate", "summarize", "uses_kernel"]
