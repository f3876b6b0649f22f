"""simulate and summarize on an existing engine: concurrent.futures executors and Dask distributed."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from golflab import Rules
from golflab.simulation import in_order, simulate, summarize

PLAYERS = ["Sofia", "Maya", "Kenji"]
RULES = Rules(rounds=3)


@pytest.fixture(scope="module")
def reference():
    return simulate(PLAYERS, 12, RULES, seed=5, progress=False)


def _same(result, reference) -> None:
    assert result.rounds.equals(reference.rounds)
    assert result.decisions.equals(reference.decisions)
    assert result.quality == reference.quality


def test_a_thread_pool_executor_gives_the_same_result(reference):
    with ThreadPoolExecutor(3) as pool:
        _same(simulate(PLAYERS, 12, RULES, seed=5, progress=False, executor=pool), reference)


def test_a_process_pool_executor_gives_the_same_result_and_summary(reference):
    with ProcessPoolExecutor(2) as pool:
        _same(simulate(PLAYERS, 12, RULES, seed=5, progress=False, executor=pool), reference)
        summary = summarize(PLAYERS, 12, RULES, seed=5, progress=False, executor=pool)
    assert summary.to_dict() == reference.to_dict()


def test_progress_reaches_the_total_on_an_executor():
    seen = []
    with ThreadPoolExecutor(2) as pool:
        simulate(PLAYERS, 10, RULES, seed=1, progress=lambda d, t: seen.append((d, t)), executor=pool,
                 analyze=False)
    assert seen[0] == (0, 10) and seen[-1] == (10, 10)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


@pytest.mark.parametrize("kwargs, match", [
    ({"executor": object()}, "executor must have submit"),
    ({"executor": ThreadPoolExecutor(1), "processes": 2}, "processes or executor, not both"),
])
def test_a_bad_executor_is_a_clear_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulate(PLAYERS, 2, RULES, progress=False, **kwargs)


def test_in_order_keeps_the_order_and_cancels_what_is_left_when_stopped():
    class Recorder:
        def __init__(self):
            self.futures = []

        def submit(self, fn, item):
            from concurrent.futures import Future

            future = Future()
            if item < 3:
                future.set_result(fn(item))
            self.futures.append(future)
            return future

    rec = Recorder()
    results = in_order(rec, lambda x: x * 10, range(8), window=5)
    assert [next(results), next(results)] == [(0, 0), (1, 10)]
    results.close()
    assert [f.cancelled() for f in rec.futures] == [False, False, False, True, True, True]


def test_a_dask_local_cluster_client_works_unchanged(reference):
    import distributed  # the test extra's
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        _same(simulate(PLAYERS, 12, RULES, seed=5, progress=False, executor=client), reference)
        _same(simulate(PLAYERS, 12, RULES, seed=5, progress=False, executor=client.get_executor()), reference)
        summary = summarize(PLAYERS, 12, RULES, seed=5, progress=False, executor=client)
    assert summary.to_dict() == reference.to_dict()
