"""A sweep: every combination of some house rules x lineups of CPU personalities, summarised.

``make_cells(lineups, fixed, grid)`` lists the cells (the cartesian product of the
``grid``'s rule values, for each lineup, on top of the ``fixed`` rules), checked before
anything runs. ``run_sweep(cells, grid, games, seed, out)`` plays each cell with
``summarize`` (in this process, in worker processes, or on any executor such as a Dask
``Client``) and appends its summary (one row per personality, ``columns(grid)``) to the
CSV file ``out`` as soon as it is done. Rerun with the same arguments, it keeps the cells
already in the file, drops a cell cut short by an interruption, and computes only the
rest: the finished file is byte for byte that of an uninterrupted run. Cell ``i``'s games
are seeded from ``seed`` alone, like any ``simulate`` run.

``out`` is only ever this sweep's own file: it must end in ``.csv`` or ``.parquet``, be a
regular file if it exists, and every byte of it is checked before anything is written (a
file that another sweep or anything else wrote, or whose rows were changed, is refused
and left as it is). While a sweep runs it holds ``OUT.lock`` (an advisory lock naming its
process and host), so a second sweep on the same ``out`` is refused at once.

A ``.parquet`` ``out`` (needs pyarrow) is written from a ``.partial.csv`` beside it once
every cell is done, with that CSV text in its metadata (``PARQUET_KEY``): a rerun checks
it like a CSV file and recomputes nothing. The file checks are ``golflab.sweepfile``'s.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .game import Game
from .rules import RULE_HELP, Rules
from .sim.games import resolve_players, seat_names
from .sim.pool import worker_pool
from .sim.results import SUMMARY_COLUMNS, plain
from .sim.run import TextBar
from .simulation import summarize
from .sweepfile import (
    CHECK_COLUMN,
    Refused,
    check_out,
    csv_line,
    finished,
    locked,
    parquet_record,
    partial_path,
    row_check,
    write_parquet,
)

KEY_COLUMNS = ("cell", "players")
RUN_COLUMNS = ("rules", "games", "seed", "analysis")  # rules: every option not in the grid


@dataclass(frozen=True)
class Cell:
    """One cell of a sweep: its index, lineup, rules and the grid's values for it."""

    index: int
    players: tuple
    rules: Rules
    values: tuple  # (rule name, value) per grid rule, in grid order

    def key(self, games: int, seed: int, analyze: bool) -> list[str]:
        """The leading CSV fields of each of this cell's rows (all that makes its results)."""
        swept = {n for n, _v in self.values}
        others = ";".join(f"{n}={_text(v)}" for n, v in self.rules.to_dict().items() if n not in swept)
        return [str(self.index), "+".join(self.players), *(_text(v) for _n, v in self.values), others, str(games),
                str(seed), str(bool(analyze))]

    def personalities(self) -> int:
        """The number of summary rows: one per distinct personality."""
        return len(dict.fromkeys(self.players))


def _text(value: Any) -> str:
    return "auto" if value is None else str(value)


def columns(grid: dict) -> list[str]:
    """The output's columns for a sweep over ``grid``'s rules."""
    return [*KEY_COLUMNS, *grid, *RUN_COLUMNS, *SUMMARY_COLUMNS, CHECK_COLUMN]


def parse_grid(items: Sequence[str], parse_value: Callable[[str, str], Any]) -> dict[str, list]:
    """``NAME=V1,V2,...`` items -> {rule name: values}; ``parse_value(name, text)`` reads one
    value (as ``--rule`` does). An unknown rule, a missing ``=``, no values, a repeated value
    or rule is a ValueError."""
    grid: dict[str, list] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"--grid expects name=value1,value2,... (for example flip_mode=never,always), "
                             f"got {item!r}")
        if name not in RULE_HELP:
            raise ValueError(f"unknown rule {name!r} in --grid: allowed rules are {', '.join(RULE_HELP)}")
        if name in grid:
            raise ValueError(f"rule {name!r} is given twice in --grid: list all its values in one --grid")
        texts = [t.strip() for t in raw.split(",")]
        if not all(texts):
            raise ValueError(f"--grid {name} needs comma-separated values with none empty, got {raw!r}")
        values = [parse_value(name, t) for t in texts]
        if len(set(map(repr, values))) < len(values):
            raise ValueError(f"--grid {name} repeats a value: {raw!r}")
        grid[name] = values
    return grid


def make_cells(lineups: Sequence[Sequence], fixed: dict, grid: dict) -> list[Cell]:
    """Every (lineup, grid combination) as a ``Cell``, lineup by lineup; a rule both fixed and
    in the grid, a bad lineup or a combination the rules refuse (a bad value, a deck too
    small for the table) is a ValueError naming it."""
    both = sorted(set(fixed) & set(grid))
    if both:
        raise ValueError(f"rule {both[0]!r} is both fixed (--rule) and swept (--grid): give it once")
    if not lineups:
        raise ValueError("a sweep needs at least one lineup of players")
    cells = []
    for lineup in lineups:
        players = tuple(resolve_players(lineup))
        for combo in itertools.product(*grid.values()):
            values = tuple(zip(grid, combo))
            try:
                rules = Rules(**fixed, **dict(values))
                Game(seat_names(players), rules, seed=0)  # e.g. too few cards for the table
            except ValueError as exc:
                where = ", ".join(f"{n}={_text(v)}" for n, v in values) or "the fixed rules"
                raise ValueError(f"bad cell ({'+'.join(players)}; {where}): {exc}") from None
            cells.append(Cell(len(cells), players, rules, values))
    return cells


def _rows(cell: Cell, key: list[str], result) -> str:
    """A finished cell's summary as CSV text (empty fields where a value is missing)."""
    rows = [key + [_field(record[c]) for c in SUMMARY_COLUMNS] for record in result.summary().to_dict("records")]
    return "".join(csv_line([*row, row_check(row)]) for row in rows)


def _field(value: Any) -> str:
    import pandas as pd  # local: pandas is heavy; golflab imports without it

    return "" if value is None or value is pd.NA else str(plain(value))  # records may give None for NA


def run_sweep(cells: Sequence[Cell], grid: dict, games: int, seed: int, out: str, *, processes: int = 1,
              executor: Any = None, analyze: bool = True, progress: "Callable | bool | None" = None) -> int:
    """Play the ``cells`` not yet in ``out`` and append their rows; returns how many cells
    were already there. ``processes`` / ``executor``: as for ``summarize``. ``progress``:
    ``callable(done, total)`` over the sweep's games, True (or None) for a text bar on
    stderr, False for none. A bad ``out`` (see ``check_out``), a file this sweep did not
    write, or one another sweep is writing is a ValueError (``Refused``) naming it, and the
    file is left as it was."""
    parquet = check_out(out) == "parquet"
    if parquet:
        if importlib.util.find_spec("pyarrow") is None:
            raise ValueError(f"writing {out} needs pyarrow (not installed): give a .csv file instead")
    header = columns(grid)
    with locked(out):
        work = partial_path(out) if parquet else out
        if parquet:
            record = parquet_record(out, header, cells, games, seed, analyze)
            if record is not None and not os.path.exists(work):
                text, done = record
                if done == len(cells):
                    return done
                with open(work, "wb") as f:  # a smaller sweep's table: resume from it
                    f.write(text)
        skipped = finished(work, header, cells, games, seed, analyze)
        if skipped == 0 and (not os.path.exists(work) or os.path.getsize(work) == 0):
            with open(work, "w", newline="") as f:
                f.write(csv_line(header))
        _play(cells[skipped:], len(cells), games, seed, work, processes, executor, analyze, progress)
        if parquet:
            with open(work, "rb") as f:
                write_parquet(f.read(), out)
            os.unlink(work)
    return skipped


def _play(cells: Sequence[Cell], total_cells: int, games: int, seed: int, work: str, processes: int, executor: Any,
          analyze: bool, progress) -> None:
    """Play ``cells`` and append each one's rows to ``work`` as it is done."""
    report = SweepBar() if progress in (None, True) else (progress or None)
    total = total_cells * games
    if report:
        report((total_cells - len(cells)) * games, total)
    own_pool = executor is None and processes > 1 and len(cells) > 0
    try:
        # one pool of worker processes for every cell: each worker imports golflab and loads its compiled
        # code once, not once per cell (in a Jupyter kernel the workers start afresh, without the parent's imports)
        with worker_pool(processes) if own_pool else nullcontext(executor) as shared:
            for cell in cells:
                base = cell.index * games
                step = (lambda d, t, base=base: report(base + d, total)) if report else False
                result = summarize(list(cell.players), games, cell.rules, seed=seed,
                                   processes=1 if own_pool else processes, executor=shared,
                                   analyze=analyze, progress=step)
                text = _rows(cell, cell.key(games, seed, analyze), result)
                with open(work, "a", newline="") as f:  # one write per cell, flushed as the file closes
                    f.write(text)
    finally:
        if isinstance(report, SweepBar):
            report.close()


class SweepBar:
    """The sweep's text bar on stderr; none if stderr is closed or cannot be written (the
    sweep goes on)."""

    def __init__(self) -> None:
        self.bar = TextBar(label="sweeping") if sys.stderr is not None else None

    def __call__(self, done: int, total: int) -> None:
        self._safely(lambda: self.bar(done, total))

    def close(self) -> None:
        self._safely(lambda: self.bar.close())

    def _safely(self, show) -> None:
        if self.bar is None:
            return
        try:
            show()
        except (OSError, ValueError):  # e.g. stderr on a full disk, or closed meanwhile
            self.bar = None


__all__ = ["Cell", "Refused", "check_out", "columns", "locked", "make_cells", "parse_grid", "run_sweep"]
