"""Running a run's tasks elsewhere, results in task order: on any ``concurrent.futures``-style
executor (``in_order``) or in worker processes of our own (``in_pool``; ``worker_pool`` keeps
them for several runs), whose start and end are safe against Ctrl-C and SIGTERM (``sigint_mask``,
``ignore_interrupts``)."""

from __future__ import annotations

import signal
import threading
from collections import deque
from contextlib import contextmanager
from typing import Callable, Iterator


def in_order(executor, fn: Callable, items, window: int = 64):
    """Yield ``(item, fn(item))`` for each of ``items`` in order, computed on ``executor``
    (``submit(fn, item)``; futures with ``result()`` and ``cancel()``: ``concurrent.futures``
    or a Dask ``Client``), with at most ``window`` submitted and not yet taken. If the
    caller stops early or an error is raised, the pending futures are cancelled (the
    executor itself stays up: it is the caller's)."""
    waiting: deque = deque()
    try:
        for item in items:
            waiting.append((item, executor.submit(fn, item)))
            if len(waiting) >= window:
                item, future = waiting.popleft()
                yield item, future.result()
        while waiting:
            item, future = waiting.popleft()
            yield item, future.result()
    finally:
        for _item, future in waiting:
            future.cancel()


@contextmanager
def worker_pool(workers: int) -> Iterator["PoolExecutor"]:
    """``workers`` worker processes, as an executor for ``in_order`` (``submit``), for as long as
    the ``with`` block runs: closed and joined when it ends, terminated at once on an error or an
    interrupt. One pool serves many runs (a sweep's cells): each worker process starts, and imports
    golflab and its compiled code, once.

    Workers ignore Ctrl-C (the parent terminates them): SIGINT and SIGTERM are blocked while
    they start, so none is lost by the parent (a SIGTERM raised inside the pool's start would
    leave a half-built pool nobody terminates, and the run hanging) or caught by a worker
    before its initializer ignores it."""
    import multiprocessing  # local: only runs with worker processes need it

    blocked = sigint_mask(signal.SIG_BLOCK)
    pool = None
    try:
        pool = multiprocessing.get_context(start_method()).Pool(workers, initializer=ignore_interrupts)
        sigint_mask(signal.SIG_SETMASK, blocked)  # a Ctrl-C or SIGTERM that came meanwhile is raised here
        blocked = None
        yield PoolExecutor(pool)
    except BaseException:
        if pool is not None:
            pool.terminate()
        raise
    finally:
        sigint_mask(signal.SIG_SETMASK, blocked)
        if pool is not None:
            pool.close()
            pool.join()


class PoolExecutor:
    """A ``multiprocessing`` pool seen as ``in_order`` sees an executor: ``submit(fn, *args)``
    returns a pending result with ``result()`` (and ``cancel()``, which cannot stop a task once
    queued: ``worker_pool`` terminates the workers instead)."""

    def __init__(self, pool) -> None:
        self.pool = pool

    def submit(self, fn: Callable, *args) -> "_Pending":
        return _Pending(self.pool.apply_async(fn, args))


class _Pending:
    def __init__(self, result) -> None:
        self._result = result

    def result(self):
        return self._result.get()

    def cancel(self) -> bool:
        return False


def in_pool(fn: Callable, tasks, workers: int, take: Callable) -> None:
    """``take(task, fn(task))`` for each task, ``fn`` run in ``workers`` worker processes of their
    own (``worker_pool``), in task order, with at most 4 tasks per worker queued. An error or an
    interrupt (here or in ``take``) terminates the workers at once. ``fn`` must be a module-level
    function (it is pickled)."""
    with worker_pool(workers) as pool:
        for task, result in in_order(pool, fn, tasks, window=4 * workers):
            take(task, result)


def sigint_mask(how, mask=None):
    """Block or unblock SIGINT and SIGTERM in this thread (``how``: SIG_BLOCK, SIG_UNBLOCK, or
    SIG_SETMASK to ``mask``); returns the previous mask. Does nothing where signal masks do not
    exist, or for SIG_SETMASK without a mask."""
    if not hasattr(signal, "pthread_sigmask") or (how == signal.SIG_SETMASK and mask is None):
        return None
    return signal.pthread_sigmask(how, mask if how == signal.SIG_SETMASK else {signal.SIGINT, signal.SIGTERM})


def ignore_interrupts() -> None:
    """A worker's initializer: ignore Ctrl-C, then take SIGINT and SIGTERM off the mask it was
    started with (the parent ends its workers with SIGTERM)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sigint_mask(signal.SIG_UNBLOCK)


def start_method() -> str:
    """fork when this process runs no other threads (fast, and scripts need no
    ``if __name__ == "__main__"`` guard); otherwise (a Jupyter kernel, a GUI) forkserver,
    which is safe with threads; spawn where neither exists."""
    import multiprocessing  # local: only runs with worker processes need it

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"
