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


def classmates(store: Store, *names: str) -> list:
    """Learners ``names`` (made if new, without a password) put in one new class: rooms of no class
    are open to those who share a class with the host. The users, as ``names``."""
    teacher = store.ensure_user("classmates_teacher", role="teacher")
    klass = store.create_class(f"class of {names[0]}"[:64], teacher)
    invite = store.create_invite(klass, by=teacher, max_uses=len(names))
    learners = [store.ensure_user(name) for name in names]
    for learner in learners:
        store.join_class(learner, invite)
    return learners


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


def follow_room(url: str, code: str, worker: int, start_at: float) -> list[str]:
    """A page in its own process: refresh the room and play the host's seat (seat 0) whenever it is
    its turn, until the game is over; the log's actions it ends with."""
    from golflab.ai import CPUPlayer

    store = Store(url)
    host = store.user("host")
    room = store.room(code)
    while time.time() < start_at:
        time.sleep(0.001)
    for _ in range(100_000):
        room.refresh()
        if room.state != "playing":
            break
        seat = room.table.seat_to_move
        try:
            if seat is None:
                room.apply(0, "next", by=host)
            elif seat == 0:
                room.apply(0, str(CPUPlayer("Marcus", seed=len(room.log)).choose(room.observation(0))), by=host)
        except Exception as exc:  # another process played it first: the log moved on
            if "not legal" not in str(exc) and "cannot be played" not in str(exc):
                raise
    store.close()
    return [a for _, a, _ in room.log]


def guess(url: str, name: str, guesses: int, start_at: float) -> list[str]:
    """Try ``guesses`` wrong passwords for ``name`` from one source; each answer: "checked" (the
    password was checked and found wrong) or "waits" (refused by the throttle unchecked)."""
    store = Store(url)
    while time.time() < start_at:
        time.sleep(0.001)
    answers = []
    try:
        for i in range(guesses):
            try:
                store.sign_in(name, f"guess-{i}-wrong", source="203.0.113.9")
            except ValueError as exc:
                answers.append("waits" if "too many" in str(exc) else "checked")
    finally:
        store.close()
    return answers


def guess_room_codes(url: str, name: str, codes: "list[str]", start_at: float) -> list[str]:
    """``name`` tries each of ``codes`` (none a room's) in turn; each answer: "checked" (looked up and
    found no room) or "waits" (refused by the throttle unchecked)."""
    store = Store(url)
    user = store.user(name)
    while time.time() < start_at:
        time.sleep(0.001)
    answers = []
    try:
        for code in codes:
            try:
                store.join_room(code, user)
            except ValueError as exc:
                answers.append("waits" if "too many" in str(exc) else "checked")
    finally:
        store.close()
    return answers
