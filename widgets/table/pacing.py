"""Pacing CPU moves on a board (the golf table and the Codepiece table): with a delay the
moves run one at a time in an asyncio task on the kernel's event loop (callbacks never
block); with delay 0, or in a plain script with no running loop, they are all played at once.

``CpuPacer`` holds that logic apart from any one game, so a board only says what is pending,
how to play one move and how to redraw; ``guarded`` turns a callback's exception into the
board's friendly status (``self._fail``) instead of a traceback; ``show_speed`` puts a delay
into a board's speed menu.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)


#: The speed menu's choices: (label, seconds between CPU moves).
SPEEDS = (("Instant", 0.0), ("Fast", 0.25), ("Normal", 0.6), ("Slow", 1.2))
#: The longest pause between CPU moves, in seconds.
MAX_CPU_DELAY = 10.0


def delay_ok(seconds) -> bool:
    """True for a number of seconds from 0 to ``MAX_CPU_DELAY``."""
    return not isinstance(seconds, bool) and isinstance(seconds, (int, float)) and 0 <= seconds <= MAX_CPU_DELAY


#: The class a speed menu carries for the delay the board plays at (``speed-applied-slow`` ...): set
#: by the kernel once the board uses it, so a page (a test) can tell that its choice has arrived.
APPLIED_CLASS = "speed-applied-"


def show_speed(menu, seconds: float) -> None:
    """Select ``seconds`` in a speed menu (``SPEEDS``, plus an entry for any other delay), and mark
    the menu with its ``APPLIED_CLASS``."""
    options = list(SPEEDS)
    if all(abs(v - seconds) > 1e-9 for _, v in options):
        options.append((f"{seconds:g} s", float(seconds)))
    if list(menu.options) != options:
        menu.options = options
    label, menu.value = next((label, v) for label, v in options if abs(v - seconds) <= 1e-9)
    applied = APPLIED_CLASS + label.lower().replace(" ", "").replace(".", "-")
    for old in [c for c in menu._dom_classes if c.startswith(APPLIED_CLASS) and c != applied]:
        menu.remove_class(old)
    menu.add_class(applied)


def guarded(method):
    """A widget callback that never shows a traceback: an exception goes to ``self._fail``."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
            self._fail(exc)
            return None

    return wrapper


class CpuSpeed:
    """The CPU-speed part of a board that has a ``pacer`` (``CpuPacer``), a ``speed`` menu and a
    ``_syncing`` flag: the ``cpu_delay`` property, shown in the menu, and the pacer rescheduled
    once the board's game exists (``playing_started``)."""

    @property
    def cpu_delay(self) -> float:
        """Seconds between CPU moves; 0 plays them instantly."""
        return self.pacer.delay

    @cpu_delay.setter
    def cpu_delay(self, seconds: float) -> None:
        self.pacer.delay = seconds
        self._syncing = True
        try:
            show_speed(self.speed, self.pacer.delay)
        finally:
            self._syncing = False
        if self.playing_started():
            self.pacer.schedule()

    def playing_started(self) -> bool:
        """True once the board has a game to pace (a board says how it knows)."""
        raise NotImplementedError

    @guarded
    def _on_speed(self, change) -> None:
        """The speed menu's observer: a choice made in the page paces the board from now on."""
        if not self._syncing and change["new"] is not None and change["new"] != self.pacer.delay:
            self.cpu_delay = float(change["new"])


class CpuPacer:
    """Plays CPU moves while ``pending()`` is true: ``step()`` plays one, ``render()`` redraws,
    ``on_error(exc)`` reports a failure. ``delay`` is the pause in seconds before each move."""

    def __init__(self, pending: Callable[[], bool], step: Callable[[], None], render: Callable[[], None],
                 on_error: Callable[[BaseException], None], delay: float = 0.0, max_steps: int = 10_000) -> None:
        self._pending, self._step, self._render, self._on_error = pending, step, render, on_error
        self.max_steps = max_steps
        self._token = 0
        self._task: asyncio.Task | None = None
        self.delay = delay

    @property
    def delay(self) -> float:
        return self._delay

    @delay.setter
    def delay(self, seconds: float) -> None:
        if not delay_ok(seconds):
            raise ValueError(f"cpu_delay must be a number of seconds from 0 to {MAX_CPU_DELAY:g}, got {seconds!r}")
        self._delay = float(seconds)

    @property
    def active(self) -> bool:
        """True while moves are being played one by one with pauses."""
        return self._task is not None and not self._task.done()

    def stop(self) -> None:
        """Stop the paced task, if any (it only ever waits in its sleep when this runs)."""
        self._token += 1
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    def run_now(self) -> int:
        """Play every pending move now, without pauses, then redraw; returns how many were played."""
        self.stop()
        played = 0
        while self._pending() and played < self.max_steps:
            self._step()
            played += 1
        self._render()
        return played

    def schedule(self) -> None:
        """Let the CPU move: now (delay 0 or no running event loop) or paced on the loop."""
        if not self._pending():
            return
        self.stop()
        if self._delay <= 0:
            self.run_now()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a plain script: nothing would run a paced task
            self.run_now()
            return
        self._task = loop.create_task(self._pace(self._token))

    async def _pace(self, token: int) -> None:
        try:
            while token == self._token and self._pending():
                await asyncio.sleep(self._delay)
                if token != self._token:
                    return
                self._step()
                self._render()
        except Exception as exc:
            log.exception("paced CPU move failed")
            self._on_error(exc)
