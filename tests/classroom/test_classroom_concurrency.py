"""Many processes writing one class store at once lose nothing, on SQLite and PostgreSQL.
(``benchmarks/classroom_store.py`` runs the same with 30 processes and prints the rate.)"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from golflab.classroom import Store
from tests.support.classroom_workers import count_attempts, record_attempts, register, run_at_once

PROCESSES, ATTEMPTS = 6, 12


def test_processes_recording_at_once_lose_nothing(database_url):
    store = Store(database_url)
    names = [f"learner{i}" for i in range(PROCESSES)]
    for name in names:
        store.create_user(name)
    results = run_at_once(record_attempts, [(database_url, name, ATTEMPTS) for name in names])
    assert sum(written for written, _ in results) == PROCESSES * ATTEMPTS
    assert count_attempts(store) == PROCESSES * ATTEMPTS
    for name in names:  # each learner's own rating saw every one of their puzzles
        assert store.puzzle_profile(store.user(name), by=store.user(name)).attempts == ATTEMPTS // 2
    store.close()


def test_an_invite_is_never_used_beyond_its_limit_by_racing_processes(database_url):
    store = Store(database_url)
    teacher = store.create_user("mrs_lee", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    invite = store.create_invite(klass, by=teacher, max_uses=3)
    joined = run_at_once(register, [(database_url, f"kid{i}", invite) for i in range(6)])
    assert sum(joined) == 3
    assert len(store.learners(klass, by=teacher)) == 3
    store.close()


def test_threads_sharing_one_store_lose_nothing(database_url):
    store = Store(database_url)
    users = [store.create_user(f"t{i}") for i in range(4)]

    def work(user):
        for i in range(10):
            store.record_puzzle(user, f"p{i}", i % 2 == 0)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(work, users))
    assert count_attempts(store) == 40
    store.close()
