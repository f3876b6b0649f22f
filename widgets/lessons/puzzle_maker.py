"""Puzzles made in one background thread, kept for the kernel's life: a page shows its first puzzle
without waiting for the rest, and the next is made while the learner reads the last one's answer.

``MAKER.ahead(rules, seed, min_gap, kind, index)`` starts making puzzle ``index`` of
``golflab.puzzles.stream(seed, rules, min_gap, kind)`` (and the ones before it) and returns at once;
``MAKER.get(...)`` waits for it (a ValueError when the stream has no such puzzle, or its arguments
are wrong); ``MAKER.submit(key, make, *args)`` makes any other puzzle (a teacher's) on the same
worker. One worker makes every puzzle, in each stream's order, so the puzzles are the same as
``generate``'s, whichever thread asks first.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, Iterator

from golflab import Rules
from golflab.puzzles import Puzzle, stream


class PuzzleMaker:
    """Makes and keeps puzzles by stream (house rules, seed, minimum gap, kind) and index."""

    def __init__(self) -> None:
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="golflab-puzzles")
        self._streams: dict[tuple, tuple[Iterator[Puzzle], list[Puzzle]]] = {}  # read by the worker only
        self._asked: dict[tuple, Future] = {}

    def _make(self, rules: Rules, spec: tuple, index: int) -> Puzzle:
        if spec not in self._streams:
            self._streams[spec] = stream(spec[0], rules, spec[1], spec[2]), []
        puzzles, made = self._streams[spec]
        try:
            while len(made) <= index:
                made.append(next(puzzles))
        except StopIteration:  # the stream ended with its ValueError when asked before
            raise ValueError(f"these settings hold only {len(made)} puzzles") from None
        return made[index]

    def ahead(self, rules: Rules, seed: int, min_gap: float, kind: str | None, index: int) -> Future:
        """Start making puzzle ``index`` of that stream unless asked before; its future."""
        spec = (seed, min_gap, kind, rules.replace(rounds=1))
        return self.submit((spec, index), self._make, rules, spec, index)

    def submit(self, key: tuple, make: Callable[..., Puzzle], *args) -> Future:
        """Start ``make(*args)`` on the worker unless ``key`` was asked before (a teacher's puzzle is
        keyed by its item); its future."""
        if key not in self._asked:
            self._asked[key] = self._worker.submit(make, *args)
        return self._asked[key]

    def get(self, rules: Rules, seed: int, min_gap: float, kind: str | None, index: int) -> Puzzle:
        """Puzzle ``index`` of ``stream(seed, rules, min_gap, kind)``, waiting until it is made."""
        return self.ahead(rules, seed, min_gap, kind, index).result()


#: The kernel's one maker (every board shares it, and ``puzzle_board.prepare``).
MAKER = PuzzleMaker()
