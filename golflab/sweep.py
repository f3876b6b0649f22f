"""A sweep: every combination of some house rules x lineups of CPU personalities, summarised.

``make_cells(lineups, fixed, grid)`` lists the cells (the cartesian product of the
``grid``'s rule values, for each lineup, on top of the ``fixed`` rules), checked before
anything runs. ``run_sweep(cells, games, seed, out)`` plays each cell with ``summarize``
(in this process, in worker processes, or on any executor such as a Dask ``Client``)
and appends its summary (one row per personality, ``columns(grid)``) to the CSV file
``out`` as soon as it is done. Rerun with the same arguments, it keeps the cells already
in the file, drops a cell cut short by an interruption, and computes only the rest: the
finished file is byte for byte that of an uninterrupted run. Cell ``i``'s games are
seeded from ``seed`` alone, like any ``simulate`` run.

A ``.parquet`` ``out`` (needs pyarrow) is written from a ``.partial.csv`` beside it once
every cell is done.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .rules import RULE_HELP, Rules
from .simulation import _SUMMARY_COLUMNS, _TextBar, resolve_players, seat_names, summarize

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
    return [*KEY_COLUMNS, *grid, *RUN_COLUMNS, *_SUMMARY_COLUMNS]


def parse_grid(items: Sequence[str], parse_value: Callable[[str], Any]) -> dict[str, list]:
    """``NAME=V1,V2,...`` items -> {rule name: values}; ``parse_value`` reads one value.
    An unknown rule, a missing ``=``, no values, a repeated value or rule is a ValueError."""
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
        values = [parse_value(t) for t in texts]
        if len(set(map(repr, values))) < len(values):
            raise ValueError(f"--grid {name} repeats a value: {raw!r}")
        grid[name] = values
    return grid


def make_cells(lineups: Sequence[Sequence], fixed: dict, grid: dict) -> list[Cell]:
    """Every (lineup, grid combination) as a ``Cell``, lineup by lineup; a rule both fixed and
    in the grid, a bad lineup or a combination the rules refuse (a bad value, a deck too
    small for the table) is a ValueError naming it."""
    from .game import Game

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


def _finished(path: str, header: list[str], cells: Sequence[Cell], games: int, seed: int, analyze: bool) -> int:
    """The number of leading cells complete in the CSV file ``path`` (0 if it does not exist).
    Anything after them that is cut short (a partial line or cell) is truncated away; a
    header or a complete row that another sweep would have written is a ValueError."""
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]  # the last piece has no newline: cut short (or empty)
    if not complete:
        if data:  # the header itself was cut short
            _truncate(path, 0)
        return 0
    if next(csv.reader([complete[0].decode()])) != header:
        raise ValueError(f"{path} holds another sweep (its columns differ): choose another file or remove it")
    offset, row = len(complete[0]) + 1, 1
    for done, cell in enumerate(cells):
        key = cell.key(games, seed, analyze)
        want = cell.personalities()
        rows = complete[row:row + want]
        for line in rows:
            fields = next(csv.reader([line.decode()]), [])
            if len(fields) != len(header) or fields[:len(key)] != key:
                raise ValueError(f"{path} holds another sweep (a row of cell {cell.index} differs): "
                                 "choose another file or remove it")
        if len(rows) < want:  # the file ends inside this cell
            _truncate(path, offset)
            return done
        offset += sum(len(line) + 1 for line in rows)
        row += want
    if row < len(complete) or tail:
        raise ValueError(f"{path} holds another sweep (it has more rows than this one): "
                         "choose another file or remove it")
    return len(cells)


def _truncate(path: str, size: int) -> None:
    with open(path, "r+b") as f:
        f.truncate(size)


def _rows(cell: Cell, key: list[str], result) -> str:
    """A finished cell's summary as CSV text (empty fields where a value is missing)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for record in result.summary().to_dict("records"):
        writer.writerow(key + [_field(record[c]) for c in _SUMMARY_COLUMNS])
    return buffer.getvalue()


def _field(value: Any) -> str:
    import pandas as pd

    from .simulation import _plain

    return "" if value is pd.NA else str(_plain(value))


def run_sweep(cells: Sequence[Cell], grid: dict, games: int, seed: int, out: str, *, processes: int = 1,
              executor: Any = None, analyze: bool = True, progress: "Callable | bool | None" = None) -> int:
    """Play the ``cells`` not yet in ``out`` and append their rows; returns how many cells
    were already there. ``processes`` / ``executor``: as for ``summarize``. ``progress``:
    ``callable(done, total)`` over the sweep's games, True (or None) for a text bar on
    stderr, False for none."""
    parquet = out.lower().endswith(".parquet")
    if parquet:
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise ValueError(f"writing {out} needs pyarrow (not installed): give a .csv file instead")
    work = out + ".partial.csv" if parquet else out
    header = columns(grid)
    skipped = _finished(work, header, cells, games, seed, analyze)
    report = _TextBar(label="sweeping") if progress in (None, True) else (progress or None)
    total = len(cells) * games
    if skipped == 0:  # a new file, or one holding at most the header
        with open(work, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerow(header)
    if report:
        report(skipped * games, total)
    try:
        for cell in cells[skipped:]:
            base = cell.index * games
            step = (lambda d, t, base=base: report(base + d, total)) if report else False
            result = summarize(list(cell.players), games, cell.rules, seed=seed, processes=processes,
                               executor=executor, analyze=analyze, progress=step)
            text = _rows(cell, cell.key(games, seed, analyze), result)
            with open(work, "a", newline="") as f:  # one write per cell, flushed as the file closes
                f.write(text)
    finally:
        if isinstance(report, _TextBar):
            report.close()
    if parquet:
        import pandas as pd

        pd.read_csv(work, keep_default_na=False, na_values=[""]).to_parquet(out, index=False)
        os.unlink(work)
    return skipped


__all__ = ["Cell", "columns", "make_cells", "parse_grid", "run_sweep"]
