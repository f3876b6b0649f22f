"""A run from end to end but for what it keeps: its arguments checked (``checked``), its games
played in chunks here, in worker processes or on an executor, each chunk's result passed on in
game order (``run``)."""

from __future__ import annotations

from contextlib import closing

from ..rules import Rules
from .dispatch import uses_kernel
from .games import Task
from .players import resolve_players
from .pool import in_order, in_pool
from .progress import auto_progress
from .tasks import play_task

#: Most games per task handed to a worker process (results are merged in game order).
CHUNK = 25


def checked(players, games, rules, seed, processes, progress, executor=None) -> tuple:
    """``simulate``'s arguments, checked: the personalities, the rules and the progress
    callable (or None); anything wrong is a ValueError saying what is allowed."""
    personalities = resolve_players(players)
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")
    for name, value, lo in (("games", games, 1), ("processes", processes, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < lo:
            raise ValueError(f"{name} must be a whole number >= {lo}, got {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    if executor is not None:
        if not callable(getattr(executor, "submit", None)):
            raise ValueError("executor must have submit(fn, *args), as a concurrent.futures executor or a "
                             f"dask.distributed Client has; got {type(executor).__name__}")
        if processes != 1:
            raise ValueError(f"give processes or executor, not both (processes={processes})")
    return personalities, rules, auto_progress(progress)


def run(personalities, games, rules, seed, processes, report, analyze, decision_rows, consume,
        executor=None) -> None:
    """Play the games in chunks (here, in worker processes or on ``executor``) and pass each
    chunk's ``play_task`` result to ``consume`` in game order, reporting progress. Tasks are
    made as they are handed out and only a few per worker wait, so memory does not grow with
    ``games``."""
    chunk = max(1, min(CHUNK, games // 50))  # about 50 progress steps, at most CHUNK games each
    kernel = uses_kernel(personalities, rules, games, analyze)
    tasks = (Task(tuple(personalities), rules, seed, a, min(a + chunk, games), bool(analyze), decision_rows, kernel)
             for a in range(0, games, chunk))
    done = 0

    def take(task: Task, result) -> None:
        nonlocal done
        consume(result)
        done += task.stop - task.start
        if report:
            report(done, games)

    if report:
        report(0, games)
    workers = min(processes, -(-games // chunk))
    if executor is not None:
        with closing(in_order(executor, play_task, tasks)) as results:  # cancels what is left on an error
            for task, result in results:
                take(task, result)
    elif workers == 1:
        for task in tasks:
            take(task, play_task(task))
    else:
        in_pool(play_task, tasks, workers, take)
