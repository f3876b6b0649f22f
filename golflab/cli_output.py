"""Where the command line writes (``golflab.cli``): stdout, stderr, the ``--csv`` file; SIGTERM.

``say``/``write``/``flush`` raise ``OutputError`` when stdout is closed or cannot be written
(a full disk), after pointing it at the null device so that nothing fails again at exit;
``complain`` writes one line on stderr if there is one. ``on_sigterm`` makes SIGTERM raise
``Terminated`` (a KeyboardInterrupt), so a run ends as after Ctrl-C, cleaned up; ``watching``
raises it again between chunks if that raise was lost; inside ``sigterm_held`` it waits for the
block's end (a file made and its owner known, as one step), and inside an import or numba's
loading for its end.
``CsvRounds`` writes ``--csv`` beside itself and puts it in place once the run is complete.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import signal
import socket
import sys
import tempfile
import threading
from typing import Any, Callable, Iterator

from .sim.results import ROUND_COLUMNS


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit code 2."""


class OutputError(Exception):
    """Standard output cannot be written (closed, or a full disk): one line, exit code 1."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the run is so that it ends as a Ctrl-C does (cleaned up)."""


def say(text: str) -> None:
    """``text`` as lines on stdout (see ``_write``)."""
    write(text + "\n")


def write(text: str) -> None:
    """Write ``text`` on stdout; OutputError if it cannot be written (a closed pipe stays a
    BrokenPipeError)."""
    if sys.stdout is None:
        raise OutputError("standard output is closed")
    try:
        sys.stdout.write(text)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _output_error(exc) from None


def flush() -> None:
    """Flush stdout now (a closed pipe or a full disk shows here, not at interpreter exit)."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _output_error(exc) from None


def _output_error(exc: OSError) -> OutputError:
    discard_stdout()  # what is still buffered cannot be written either: drop it
    return OutputError(exc.strerror or str(exc))


def discard_stdout() -> None:
    """Point stdout's file descriptor at the null device (its buffer then flushes there)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. captured in tests)
        pass


def complain(text: str) -> None:
    """``text`` as one line on stderr (see ``one_line``), if there is a stderr to write to."""
    if sys.stderr is None:
        return
    try:
        print(one_line(text), file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def one_line(text: str, longest: int = 200) -> str:
    """``text`` on one line (a line break shown as ``\\n``), every run of more than ``longest``
    characters without a space (a huge argument echoed back) cut to its start and length."""
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    return re.sub(r"\S{%d,}" % (longest + 1), lambda m: f"{m.group()[:60]}... ({len(m.group())} characters)", text)


_terminated = False  # SIGTERM came (set by on_sigterm's handler)
_raised = False  # check_terminated raised Terminated for it
_held = 0  # how many sigterm_held blocks this process is in
RESEND_AFTER = 0.05  # seconds: how often a SIGTERM that came where it would half make things tries again


def on_sigterm() -> Callable[[], None]:
    """Make SIGTERM raise Terminated in this process (so the run is cleaned up as after a
    Ctrl-C): at once; at the end of a ``sigterm_held`` block; after an import or numba's loading
    (``HALF_MADE``: a timer (SIGALRM) tries again every RESEND_AFTER seconds until neither runs, unless
    ``check_terminated`` raised it first). A second SIGTERM ends the process at once; a forked
    worker that inherits the handler ends as SIGTERM would. Returns what puts the previous
    handling back (nothing to do when not in the main thread, where signals cannot be set)."""
    global _terminated, _raised
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    pid = os.getpid()
    _terminated = _raised = False
    timer = hasattr(signal, "setitimer")  # not on Windows: there check_terminated raises it

    def came(frame, again: bool) -> None:
        global _terminated, _raised
        if os.getpid() != pid or (_terminated and not again):  # a forked worker, or a second SIGTERM
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        if _raised:  # a late try: Terminated is on its way already
            return
        _terminated = True
        if _half_made(frame):
            if timer:
                signal.setitimer(signal.ITIMER_REAL, RESEND_AFTER)
            return
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends it at once
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)  # no try is left to come
        if not _held:
            _raised = True
            raise Terminated

    unraisable = sys.unraisablehook

    def quiet(info) -> None:  # a Terminated Python dropped: no traceback, check_terminated raises it
        if not isinstance(info.exc_value, Terminated):
            unraisable(info)

    previous = signal.signal(signal.SIGTERM, lambda signum, frame: came(frame, again=False))
    previous_alarm = signal.signal(signal.SIGALRM, lambda signum, frame: came(frame, again=True)) if timer else None
    if timer:
        signal.siginterrupt(signal.SIGALRM, False)  # the C code it lands in sees no EINTR: its calls restart
    sys.unraisablehook = quiet

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_alarm)
        sys.unraisablehook = unraisable

    return restore


#: Where a SIGTERM raised would leave things half made, by the file of a running frame: an import
#: (inside numpy's C core, 1 run in about 400 on a loaded machine and once in CI: the import that
#: followed failed, "cannot load module more than once per process", exit 1), and numba's or
#: llvmlite's Python code loading or compiling the kernel (a segfault at exit, once in 348 runs).
HALF_MADE = re.compile(r"^<frozen importlib|[\\/](?:numba|llvmlite)[\\/]")


def _half_made(frame) -> bool:
    """True when ``frame`` or a caller runs where a Terminated raised would leave things half made
    (HALF_MADE)."""
    while frame is not None:
        if HALF_MADE.search(frame.f_code.co_filename):
            return True
        frame = frame.f_back
    return False


def check_terminated() -> None:
    """Raise Terminated if SIGTERM came. Its handler raises at once, wherever the run is; but
    Python drops an exception raised inside a callback it calls itself (a weakref's, say,
    while a module is imported), and the run would go on to the end. This raises it again."""
    global _raised
    if _terminated:
        _raised = True
        raise Terminated


@contextlib.contextmanager
def sigterm_held() -> Iterator[None]:
    """A block that SIGTERM does not interrupt: one that comes meanwhile is raised (Terminated)
    as the outermost such block ends. Used where a file is made and its owner must know it
    before anything can stop the run (else the signal, raised between the two, leaves it)."""
    global _held
    _held += 1
    try:
        yield
    finally:
        _held -= 1
    if not _held:
        check_terminated()


def watching(progress: Callable[[int, int], Any] | None) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` for a long run that first checks for SIGTERM
    (``check_terminated``), then calls ``progress`` if there is one."""

    def report(done: int, total: int) -> None:
        check_terminated()
        if progress is not None:
            progress(done, total)

    return report


class CsvRounds:
    """Round rows written to the ``--csv`` file as they come. A regular file is written
    beside itself and replaced only once the run is complete (an interrupted, terminated or
    failed run leaves it as it was); a device or pipe (``/dev/stdout``) is written to
    directly. The file beside it, ``.NAME.golflab-HOST-PID-*.partial``, names its run: one
    left by a run that was killed (its process on this host is gone) is removed by the next
    run writing the same file."""

    def __init__(self, path: str) -> None:
        self.path = path
        special = os.path.exists(path) and not os.path.isfile(path)
        self.target = None if special else os.path.realpath(path)  # a symlink's file is replaced
        self.partial = None
        self.header = True
        try:
            if self.target is None:
                self.file = open(path, "w", newline="")
                return
            folder, name = os.path.split(self.target)
            _remove_stale_partials(folder, name)
            with sigterm_held():  # the partial file and self.partial as one step
                fd, self.partial = tempfile.mkstemp(
                    prefix=f"{_partial_base(name, socket.gethostname())}{os.getpid()}-", suffix=".partial", dir=folder)
            os.chmod(self.partial, os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o666 & ~_umask())
            self.file = os.fdopen(fd, "w", newline="")
        except OSError as exc:
            self._discard()
            raise self._error(exc) from None
        except BaseException:  # e.g. SIGTERM's Terminated while the file is being made: nothing is left
            self._discard()
            raise

    def __call__(self, rows: list) -> None:
        import pandas as pd

        try:
            pd.DataFrame(rows, columns=list(ROUND_COLUMNS)).to_csv(self.file, index=False, header=self.header)
        except OSError as exc:  # e.g. a full disk: stops the run
            raise self._error(exc) from None
        self.header = False

    def finish(self, complete: bool) -> None:
        """Close the file; once ``complete``, put it in place (else drop it)."""
        try:
            self.file.close()
            if complete and self.partial is not None:
                os.replace(self.partial, self.target)
                self.partial = None
        except OSError as exc:
            if complete:
                raise self._error(exc) from None
        finally:
            self._discard()

    def _discard(self) -> None:
        if self.partial is not None and os.path.exists(self.partial):
            os.unlink(self.partial)

    def _error(self, exc: OSError) -> UsageError:
        return UsageError(f"cannot write --csv {self.path}: {exc.strerror or exc}")


def _partial_base(name: str, host: str) -> str:
    """How the partial files of ``name`` written on ``host`` begin (the process id follows)."""
    return f".{name}.golflab-{host}-"


def _remove_stale_partials(folder: str, name: str) -> None:
    """Remove the partial files of ``name`` left by killed runs on this host (see ``CsvRounds``)."""
    base = _partial_base(name, socket.gethostname())
    ours = re.compile(re.escape(base) + r"(\d+)-[a-z0-9_]+\.partial")
    for path in glob.glob(os.path.join(glob.escape(folder), glob.escape(base) + "*.partial")):
        found = ours.fullmatch(os.path.basename(path))
        if found and not _alive(int(found.group(1))):
            try:
                os.unlink(path)
            except OSError:  # gone meanwhile, or not ours to remove
                pass


def _alive(pid: int) -> bool:
    """True if process ``pid`` exists on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


__all__ = ["CsvRounds", "OutputError", "Terminated", "UsageError", "complain", "discard_stdout", "flush",
           "check_terminated", "on_sigterm", "one_line", "say", "sigterm_held", "watching", "write"]
