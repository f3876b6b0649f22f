"""Worker processes that write to one class store at once (the concurrency test and
``benchmarks/classroom_store.py`` share them). Each runs in its own process, as 30 Voila
kernels of a class would, and opens its own ``Store``."""

from __future__ import annotations

import multiprocessing
import time

from golflab.classroom import Store


def record_attempts(url: str, name: str, attempts: int, start_at: float) -> "tuple[int, float]":
    """Sign ``name`` in and record ``attempts`` exercise and puzzle attempts; (written, seconds)."""
    store = Store(url)
    user = store.user(name)
    while time.time() < start_at:  # every process starts writing at the same moment
        time.sleep(0.001)
    began = time.perf_counter()
    for i in range(attempts):
        if i % 2:
            store.record_puzzle(user, f"puzzle-{i % 7}", i % 3 != 0, skill="pairs")
        else:
            store.record_exercise(user, "lesson1", f"item-{i}", i % 3 == 0, lesson_items=attempts, skill="scoring")
    seconds = time.perf_counter() - began
    store.close()
    return attempts, seconds


def register(url: str, name: str, invite: str, start_at: float) -> bool:
    """Try to register ``name`` with ``invite``; True if it worked, False if the code ran out."""
    store = Store(url)
    while time.time() < start_at:
        time.sleep(0.001)
    try:
        store.register(name, "pass-123", invite)
        return True
    except ValueError:
        return False
    finally:
        store.close()


def run_at_once(target, argument_lists: list[tuple], delay: float = 3.0) -> list:
    """Run ``target(*args, start_at)`` in one process per argument list, all starting together."""
    start_at = time.time() + delay
    with multiprocessing.get_context("spawn").Pool(len(argument_lists)) as pool:
        return pool.starmap(target, [(*args, start_at) for args in argument_lists])


def count_attempts(store: Store) -> int:
    from sqlalchemy import func, select

    from golflab.classroom import schema

    with store.engine.connect() as conn:
        return sum(conn.execute(select(func.count()).select_from(t)).scalar_one()
                   for t in (schema.exercise_attempts, schema.puzzle_attempts))
