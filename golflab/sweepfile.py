"""A sweep's output file (``golflab.sweep``): only ever its own.

``check_out(out)`` accepts a ``.csv`` or ``.parquet`` path that is a regular file if it
exists; ``locked(out)`` holds the advisory lock ``OUT.lock`` (its text: ``pid host``) so a
second sweep on the same file is refused at once, naming the holder. ``finished(...)``
checks every line of an existing CSV file against the sweep (header, each cell's settings,
the personality and the ``check`` column, a SHA-256 of the row: a changed, emptied or
re-encoded value, CRLF, bad UTF-8 or another sweep's row is ``Refused`` naming the file
and line, the file left as it was) and cuts away only what an interruption left unfinished.
A Parquet table holds its CSV text in its metadata (``PARQUET_KEY``), checked the same way
and against the table (``parquet_record``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import socket
import stat
import tempfile
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Iterator, Sequence

if TYPE_CHECKING:
    from .sweep import Cell

SUFFIXES = (".csv", ".parquet")
#: The parquet metadata key holding the sweep's CSV text.
PARQUET_KEY = b"golflab.sweep.csv"
#: The last column: a checksum of the row's other fields (``row_check``), so that a resumed
#: sweep tells a row that was changed after it was written.
CHECK_COLUMN = "check"
KEY_START = "cell,players,"  # how every sweep's header begins
_LONGEST_LINE = 1 << 16  # far longer than any row a sweep writes


def row_check(fields: Sequence[str]) -> str:
    """The ``check`` field of a row with these other fields: 12 hex digits of their SHA-256."""
    return hashlib.sha256(csv_line(fields).encode()).hexdigest()[:12]


def check_out(out: str) -> str:
    """``"csv"`` or ``"parquet"`` for a usable ``out`` path; a ValueError if it has another
    suffix, or exists and is not a regular file (a directory, a FIFO, a device such as
    ``/dev/full`` or ``/dev/stdout``: a sweep reads its file back to resume)."""
    if not out:
        raise ValueError("--out needs a file name ending in .csv or .parquet, got ''")
    suffix = os.path.splitext(out)[1].lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"--out must end in .csv or .parquet, got {out!r}")
    for path in (out, partial_path(out) if suffix == ".parquet" else out):
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


def partial_path(out: str) -> str:
    """Where a parquet sweep's rows are written until every cell is done."""
    return out + ".partial.csv"


class Refused(ValueError):
    """``out`` holds something this sweep did not write (or is being written by another)."""


def foreign(path: str, why: str) -> Refused:
    """A Refused saying what ``path`` holds instead of this sweep's rows."""
    return Refused(f"{path} {why}: choose another file or remove it")


@contextmanager
def locked(out: str) -> Iterator[str]:
    """Hold the advisory lock ``OUT.lock`` beside the file ``out`` names (however it is
    spelled: through a symlink or ``..``; its text: ``pid host``) while the body runs; a
    Refused naming the holder if another process holds it. The lock file is removed after."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): run unlocked
        yield ""
        return
    path = os.path.realpath(out) + ".lock"
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


def csv_line(fields: Sequence[str]) -> str:
    """One CSV line as a sweep writes it."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(fields)
    return buffer.getvalue()


def _row_problem(fields: list[str], at: int, personality: str) -> str | None:
    """What is wrong with a row whose settings are this sweep's (None if it is as written);
    ``at``: the index of its personality field."""
    if fields[-1] != row_check(fields[:-1]):
        return "it was changed after it was written (its check differs)"
    if fields[at] != personality:
        return f"it is not the row of {personality}"
    return None


def scan(f: IO[bytes], path: str, header: list[str], cells: Sequence[Cell], games: int, seed: int,
         analyze: bool) -> tuple[int, int, bool]:
    """Check the sweep file open in ``f`` line by line: ``(cells complete, their end offset,
    anything after them)``. Anything after them must be a cut-short piece of the next cell
    (rows an interruption left, or a header cut short); a byte that this sweep would not
    have written (another sweep's or anyone's file, an emptied value, CRLF, bad UTF-8) is a
    Refused naming the file and line."""
    head = csv_line(header).encode()
    start = f.read(len(head))
    if start != head:
        if head.startswith(start):  # empty, or the header cut short
            return 0, 0, bool(start)
        if start.startswith(KEY_START.encode()):
            raise foreign(path, "holds another sweep (its columns differ)")
        raise foreign(path, "was not written by a sweep (its first line is not a sweep's header)")
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
                    raise foreign(path, f"was not written by this sweep (line {number} is too long for a sweep row)")
                _check_cut(raw, key, path, number)
                return done, offset, True
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise foreign(path, f"has a line that is not UTF-8 text (line {number})") from None
            try:
                fields = next(csv.reader([text[:-1]]), [])
            except csv.Error:  # e.g. a carriage return inside a field
                fields = []
            if csv_line(fields) != text or len(fields) != len(header):
                problem = "it is not a line as a sweep writes it (fields, quoting or line ending differ)"
            elif fields[:len(key)] != key:
                raise foreign(path, f"holds another sweep (line {number}, a row of cell {cell.index}, has other "
                                     "settings)")
            else:
                problem = _row_problem(fields, header.index("personality"), personality)
            if problem:
                raise foreign(path, f"does not hold this sweep's row at line {number} (cell {cell.index}): "
                                     f"{problem}")
            size += len(raw)
        offset += size
    if f.read(1):
        raise foreign(path, "holds another sweep (it has more rows than this one)")
    return len(cells), offset, False


def _check_cut(raw: bytes, key: list[str], path: str, number: int) -> None:
    """A last line without its newline must be the start of a row of the cell it would begin."""
    start = csv_line(key)[:-1] + ","
    text = raw.decode("utf-8", "ignore")  # a cut may split a character
    if not (start.startswith(text) or text.startswith(start)):
        raise foreign(path, f"does not hold this sweep's row at line {number}: its last line was not cut "
                             "short from one")


def finished(path: str, header: list[str], cells: Sequence[Cell], games: int, seed: int, analyze: bool) -> int:
    """The number of leading cells complete in the CSV file ``path`` (0 if it does not
    exist). Once the whole file is checked (``scan``), a cut-short piece after them is
    truncated away."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return 0
    with f:
        done, offset, cut = scan(f, path, header, cells, games, seed, analyze)
    if cut:
        with open(path, "r+b") as f:
            f.truncate(offset)
    return done


def parquet_record(out: str, header: list[str], cells: Sequence[Cell], games: int, seed: int,
                   analyze: bool) -> "tuple[bytes, int] | None":
    """The CSV text of an existing parquet ``out`` and its number of complete cells (None if
    there is no such file), checked as a CSV file is and against the table itself; Refused
    if it is not this sweep's."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(out)
    except FileNotFoundError:
        return None
    except (pa.ArrowException, OSError) as exc:
        raise foreign(out, f"was not written by a sweep (it is not a readable parquet file: {exc})") from None
    text = (schema.metadata or {}).get(PARQUET_KEY)
    if text is None:
        raise foreign(out, "was not written by golflab sweep (it has no sweep record in its metadata)")
    done, _offset, cut = scan(io.BytesIO(text), out, header, cells, games, seed, analyze)
    if cut:
        raise foreign(out, "was not written by a sweep (its record is cut short)")
    try:
        same = pd.read_parquet(out).equals(read_table(text))
    except (pa.ArrowException, OSError, ValueError):
        same = False
    if not same:
        raise foreign(out, "has rows that differ from its sweep record (the file was changed)")
    return text, done


def read_table(text: bytes):
    """A sweep's CSV text as a DataFrame (empty fields are missing values)."""
    import pandas as pd

    return pd.read_csv(io.BytesIO(text), keep_default_na=False, na_values=[""])


def write_parquet(text: bytes, out: str) -> None:
    """The table ``text`` as parquet at ``out``, with ``text`` in its metadata; atomic."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(read_table(text), preserve_index=False)
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


__all__ = ["CHECK_COLUMN", "PARQUET_KEY", "SUFFIXES", "Refused", "check_out", "csv_line", "finished", "locked",
           "parquet_record", "partial_path", "read_table", "row_check", "scan", "write_parquet"]
