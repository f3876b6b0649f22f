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
it like a CSV file and recomputes nothing.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import os
import socket
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any, Callable, Iterator, Sequence

from .rules import RULE_HELP, Rules
from .simulation import _SUMMARY_COLUMNS, _TextBar, resolve_players, seat_names, summarize

KEY_COLUMNS = ("cell", "players")
RUN_COLUMNS = ("rules", "games", "seed", "analysis")  # rules: every option not in the grid
SUFFIXES = (".csv", ".parquet")
#: The parquet metadata key holding the sweep's CSV text.
PARQUET_KEY = b"golflab.sweep.csv"
#: The last column: a checksum of the row's other fields (``row_check``), so that a resumed
#: sweep tells a row that was changed after it was written.
CHECK_COLUMN = "check"
_LONGEST_LINE = 1 << 16  # far longer than any row a sweep writes


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
    return [*KEY_COLUMNS, *grid, *RUN_COLUMNS, *_SUMMARY_COLUMNS, CHECK_COLUMN]


def row_check(fields: Sequence[str]) -> str:
    """The ``check`` field of a row with these other fields: 12 hex digits of their SHA-256."""
    return hashlib.sha256(_line(fields).encode()).hexdigest()[:12]


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


# -- the output file: only ever our own --------------------------------------------------

def check_out(out: str) -> str:
    """``"csv"`` or ``"parquet"`` for a usable ``out`` path; a ValueError if it has another
    suffix, or exists and is not a regular file (a directory, a FIFO, a device such as
    ``/dev/full`` or ``/dev/stdout``: a sweep reads its file back to resume)."""
    if not out:
        raise ValueError("--out needs a file name ending in .csv or .parquet, got ''")
    suffix = os.path.splitext(out)[1].lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"--out must end in .csv or .parquet, got {out!r}")
    for path in (out, _partial(out) if suffix == ".parquet" else out):
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise ValueError(f"cannot read --out {path}: {exc.strerror or exc}") from None
        if not stat.S_ISREG(mode):
            raise ValueError(f"{path} is not a regular file (a sweep reads its --out back to resume): "
                             "give the path of a .csv or .parquet file")
    return suffix[1:]


def _partial(out: str) -> str:
    return out + ".partial.csv"


class Refused(ValueError):
    """``out`` holds something this sweep did not write (or is being written by another)."""


def _foreign(path: str, why: str) -> Refused:
    return Refused(f"{path} {why}: choose another file or remove it")


@contextmanager
def locked(out: str) -> Iterator[str]:
    """Hold the advisory lock ``out + ".lock"`` (its text: ``pid host``) while the body runs;
    a Refused naming the holder if another process holds it. The lock file is removed after."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): run unlocked
        yield ""
        return
    path = out + ".lock"
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 200).decode("utf-8", "replace").split()
            os.close(fd)
            who = f"pid {holder[0]} on {holder[1]}" if len(holder) == 2 else "another process"
            raise Refused(f"{out} is being written by another sweep ({who}; lock file {path}): "
                          "wait for it to finish or choose another --out") from None
        except BaseException:
            os.close(fd)
            raise
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:  # its holder removed it as we opened it
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
        yield path
    finally:
        try:
            os.unlink(path)
        finally:
            os.close(fd)


def _line(fields: Sequence[str]) -> str:
    """One CSV line as a sweep writes it."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(fields)
    return buffer.getvalue()


def _row_problem(fields: list[str], personality: str) -> str | None:
    """What is wrong with a row whose settings are this sweep's (None if it is as written)."""
    if fields[-1] != row_check(fields[:-1]):
        return "it was changed after it was written (its check differs)"
    if fields[-1 - len(_SUMMARY_COLUMNS)] != personality:
        return f"it is not the row of {personality}"
    return None


def _scan(f: IO[bytes], path: str, header: list[str], cells: Sequence[Cell], games: int, seed: int,
          analyze: bool) -> tuple[int, int, bool]:
    """Check the sweep file open in ``f`` line by line: ``(cells complete, their end offset,
    anything after them)``. Anything after them must be a cut-short piece of the next cell
    (rows an interruption left, or a header cut short); a byte that this sweep would not
    have written (another sweep's or anyone's file, an emptied value, CRLF, bad UTF-8) is a
    Refused naming the file and line."""
    head = _line(header).encode()
    start = f.read(len(head))
    if start != head:
        if head.startswith(start):  # empty, or the header cut short
            return 0, 0, bool(start)
        if start.startswith(_line(KEY_COLUMNS)[:-1].encode() + b","):
            raise _foreign(path, "holds another sweep (its columns differ)")
        raise _foreign(path, "was not written by a sweep (its first line is not a sweep's header)")
    offset, number = len(head), 1
    for done, cell in enumerate(cells):
        key = cell.key(games, seed, analyze)
        size = 0
        for personality in dict.fromkeys(cell.players):
            raw = f.readline(_LONGEST_LINE)
            number += 1
            if not raw:  # the file ends here
                return done, offset, size > 0
            if not raw.endswith(b"\n"):
                if len(raw) == _LONGEST_LINE:
                    raise _foreign(path, f"was not written by this sweep (line {number} is too long for a sweep row)")
                _check_cut(raw, key, path, number)
                return done, offset, True
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise _foreign(path, f"has a line that is not UTF-8 text (line {number})") from None
            try:
                fields = next(csv.reader([text[:-1]]), [])
            except csv.Error:  # e.g. a carriage return inside a field
                fields = []
            if _line(fields) != text or len(fields) != len(header):
                problem = "it is not a line as a sweep writes it (fields, quoting or line ending differ)"
            elif fields[:len(key)] != key:
                raise _foreign(path, f"holds another sweep (line {number}, a row of cell {cell.index}, has other "
                                     "settings)")
            else:
                problem = _row_problem(fields, personality)
            if problem:
                raise _foreign(path, f"does not hold this sweep's row at line {number} (cell {cell.index}): "
                                     f"{problem}")
            size += len(raw)
        offset += size
    if f.read(1):
        raise _foreign(path, "holds another sweep (it has more rows than this one)")
    return len(cells), offset, False


def _check_cut(raw: bytes, key: list[str], path: str, number: int) -> None:
    """A last line without its newline must be the start of a row of the cell it would begin."""
    start = _line(key)[:-1] + ","
    text = raw.decode("utf-8", "ignore")  # a cut may split a character
    if not (start.startswith(text) or text.startswith(start)):
        raise _foreign(path, f"does not hold this sweep's row at line {number}: its last line was not cut "
                             "short from one")


def _finished(path: str, header: list[str], cells: Sequence[Cell], games: int, seed: int, analyze: bool) -> int:
    """The number of leading cells complete in the CSV file ``path`` (0 if it does not
    exist). Once the whole file is checked (``_scan``), a cut-short piece after them is
    truncated away."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return 0
    with f:
        done, offset, cut = _scan(f, path, header, cells, games, seed, analyze)
    if cut:
        with open(path, "r+b") as f:
            f.truncate(offset)
    return done


def _parquet_text(out: str, header: list[str], cells: Sequence[Cell], games: int, seed: int,
                  analyze: bool) -> "bytes | None":
    """The CSV text of an existing parquet ``out`` (None if there is none), checked as a CSV
    file is and against the table itself; Refused if it is not this sweep's."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(out)
    except FileNotFoundError:
        return None
    except (pa.ArrowException, OSError) as exc:
        raise _foreign(out, f"was not written by a sweep (it is not a readable parquet file: {exc})") from None
    text = (schema.metadata or {}).get(PARQUET_KEY)
    if text is None:
        raise _foreign(out, "was not written by golflab sweep (it has no sweep record in its metadata)")
    _done, _offset, cut = _scan(io.BytesIO(text), out, header, cells, games, seed, analyze)
    if cut:
        raise _foreign(out, "was not written by a sweep (its record is cut short)")
    try:
        same = pd.read_parquet(out).equals(_table(text))
    except (pa.ArrowException, OSError, ValueError):
        same = False
    if not same:
        raise _foreign(out, "has rows that differ from its sweep record (the file was changed)")
    return text


def _table(text: bytes):
    import pandas as pd

    return pd.read_csv(io.BytesIO(text), keep_default_na=False, na_values=[""])


def _write_parquet(text: bytes, out: str) -> None:
    """The table ``text`` as parquet at ``out``, with ``text`` in its metadata; atomic."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(_table(text), preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), PARQUET_KEY: text})
    target = os.path.realpath(out)
    fd, tmp = tempfile.mkstemp(prefix=".golflab-sweep-", suffix=".parquet", dir=os.path.dirname(target))
    os.close(fd)
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _rows(cell: Cell, key: list[str], result) -> str:
    """A finished cell's summary as CSV text (empty fields where a value is missing)."""
    rows = [key + [_field(record[c]) for c in _SUMMARY_COLUMNS] for record in result.summary().to_dict("records")]
    return "".join(_line([*row, row_check(row)]) for row in rows)


def _field(value: Any) -> str:
    import pandas as pd

    from .simulation import _plain

    return "" if value is None or value is pd.NA else str(_plain(value))  # records may give None for NA


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
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise ValueError(f"writing {out} needs pyarrow (not installed): give a .csv file instead")
    header = columns(grid)
    with locked(out):
        work = _partial(out) if parquet else out
        if parquet:
            text = _parquet_text(out, header, cells, games, seed, analyze)
            if text is not None and not os.path.exists(work):
                done, _offset, _cut = _scan(io.BytesIO(text), out, header, cells, games, seed, analyze)
                if done == len(cells):
                    return done
                with open(work, "wb") as f:  # a smaller sweep's table: resume from it
                    f.write(text)
        skipped = _finished(work, header, cells, games, seed, analyze)
        if skipped == 0 and (not os.path.exists(work) or os.path.getsize(work) == 0):
            with open(work, "w", newline="") as f:
                f.write(_line(header))
        _play(cells[skipped:], len(cells), games, seed, work, processes, executor, analyze, progress)
        if parquet:
            with open(work, "rb") as f:
                _write_parquet(f.read(), out)
            os.unlink(work)
    return skipped


def _play(cells: Sequence[Cell], total_cells: int, games: int, seed: int, work: str, processes: int, executor: Any,
          analyze: bool, progress) -> None:
    """Play ``cells`` and append each one's rows to ``work`` as it is done."""
    import sys

    bar = progress in (None, True)
    report = (_TextBar(label="sweeping") if sys.stderr is not None else None) if bar else (progress or None)
    total = total_cells * games
    if report:
        report((total_cells - len(cells)) * games, total)
    try:
        for cell in cells:
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


__all__ = ["CHECK_COLUMN", "PARQUET_KEY", "SUFFIXES", "Cell", "Refused", "check_out", "columns", "locked",
           "make_cells", "parse_grid", "row_check", "run_sweep"]
