"""``Explorer``: what every strategy explorer shares: the sample-size and seed controls, the
visible "computing" state (old charts dimmed, the status line in words), an LRU cache of results
keyed by the inputs, CSV downloads of the data behind every chart, and (with ``background=True``)
recomputing on a worker thread where the newest change replaces one still waiting.

A subclass gives ``inputs()`` (a hashable key of everything the result depends on),
``compute(key)`` (a dict of pandas frames, computed through golflab) and ``render(result)``
(draws the frames into its charts and tables). ``refresh()`` ties them together; every
control a subclass adds calls ``self.watch(control)`` so a change recomputes (a control with
its own change hook calls ``self.changed()``), and its ``__init__`` ends with ``self.start()``
(the first result; with ``background`` after the page has shown). The result for the default
inputs is shipped, computed ahead and checked by the tests (``precomputed``).
"""

from __future__ import annotations

import threading
import time
from html import escape
from typing import Any, Hashable, Mapping

import ipywidgets as w

from ..account.session import awaiting_request
from . import precomputed
from .cache import LRUCache
from .charts import ChartSlot
from .downloads import csv_links

#: Seeds the explorers accept (a non-negative 31-bit number).
MAX_SEED = 2**31 - 1


#: Dims the charts and tables of an explorer while it computes (the status line says so).
EXPLORER_CSS = ("<style>"
                ".explorer.explorer-computing .explorer-chart,.explorer.explorer-computing .explorer-result"
                "{opacity:.35}</style>")
STATUS_COLORS = {"busy": "#8a5a00", "done": "#2e7d32", "error": "#c62828"}


class Explorer(w.VBox):
    """Base of the five explorers. See the module docstring for the subclass contract.

    ``samples`` is the sample size (the meaning of its unit is the subclass's
    ``SAMPLE_UNIT``); the choices are ``SAMPLE_OPTIONS``, the first one being the quick
    default. ``seed`` drives every random choice, so the same inputs give the same output.
    With ``background=True`` (the apps) the first result and every change are computed on a
    worker thread, so the page shows at once and stays responsive; a change made while one
    computes waits, and a newer change replaces it (``idle`` is set when no computation is
    running or waiting). Without it (scripts, tests) they are computed at once.
    """

    TITLE = "Explorer"
    SAMPLE_UNIT = "rounds"
    SAMPLE_UNIT_ONE = "round"
    SAMPLE_OPTIONS: tuple[int, ...] = (400, 2000, 10000)
    CACHE_SIZE = 16

    def __init__(self, *, samples: int | None = None, seed: int = 0, auto: bool = True,
                 background: bool = False) -> None:
        options = [(f"{n:,} {self.SAMPLE_UNIT_ONE if n == 1 else self.SAMPLE_UNIT}" + (" (quick)" if i == 0 else ""), n)
                   for i, n in enumerate(self.SAMPLE_OPTIONS)]
        samples = self.SAMPLE_OPTIONS[0] if samples is None else samples
        if samples not in self.SAMPLE_OPTIONS:
            raise ValueError(f"samples must be one of {', '.join(map(str, self.SAMPLE_OPTIONS))}, got {samples!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}")
        widest = max(len(label) for label, _ in options)
        self.samples = w.Dropdown(options=options, value=samples, description="Sample",
                                  layout=w.Layout(width=f"{widest * 7 + 120}px"))
        self.samples.add_class("explorer-samples")
        self.seed = w.BoundedIntText(value=seed, min=0, max=MAX_SEED, description="Seed",
                                     layout=w.Layout(width="170px"))
        self.seed.add_class("explorer-seed")
        self.status = w.HTML()
        self.status.add_class("explorer-status")
        self.downloads = w.HTML()
        self.downloads.add_class("explorer-downloads")
        self.cache = LRUCache(self.CACHE_SIZE)
        self.result: Mapping[str, Any] | None = None
        self.shown: Hashable | None = None  # the inputs of the result on show (set before ``render``)
        self.error: str | None = None
        self.computing = False
        self._auto = auto
        self._paused = False
        self._background = background
        self._lock = threading.Lock()
        self._waiting = False  # a change waits for the running computation
        self._working = False  # the worker thread is running
        self.idle = threading.Event()
        self.idle.set()
        super().__init__(layout=w.Layout(width="100%"))
        self.add_class("explorer")
        self.watch(self.samples)
        self.watch(self.seed)

    # -- subclass contract ---------------------------------------------------------
    def inputs(self) -> Hashable:  # pragma: no cover - abstract
        raise NotImplementedError

    def compute(self, key: Hashable) -> Mapping[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def render(self, result: Mapping[str, Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self, key: Hashable) -> str:
        """What was computed, in words (shown in the status line)."""
        return f"{self.samples.value:,} {self.SAMPLE_UNIT}, seed {self.seed.value}"

    # -- shared behaviour ------------------------------------------------------------
    def controls_row(self, *extra: w.Widget) -> w.HBox:
        """The sample and seed controls, after any ``extra`` ones."""
        return w.HBox([*extra, self.samples, self.seed], layout=w.Layout(flex_flow="row wrap", align_items="center"))

    def watch(self, control: w.Widget) -> None:
        """Recompute when ``control``'s value changes."""
        observe = getattr(control, "observe_value", None)  # a composite control (``PlayersControl``)
        if observe is not None:
            observe(lambda _change: self.changed())
        else:
            control.observe(lambda _change: self.changed(), names="value")

    def changed(self) -> None:
        """A control changed: recompute (``schedule``) unless ``auto`` is off or in a ``batch``."""
        if self._auto and not self._paused:
            self.schedule()

    def schedule(self) -> None:
        """Recompute for the current inputs: at once, or with ``background`` on the worker
        thread. A change made while a computation runs waits for it; a newer change replaces
        the waiting one (the worker always computes the inputs as they are when it starts)."""
        if not self._background:
            self.refresh()
            return
        with self._lock:
            busy = self._working
            self._waiting = True
            if not busy:
                self._working = True
                self.idle.clear()
        if busy:
            self._say("busy", "Computing\u2026 Your latest change is next; any change made before it is "
                              "skipped.")
            return
        threading.Thread(target=self._work, name=f"{type(self).__name__}-worker", daemon=True).start()

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    self._working = False
                    self.idle.set()
                    return
                self._waiting = False
            self.refresh()

    def _say(self, kind: str, text: str) -> None:
        self.status.value = f"<span style='color:{STATUS_COLORS[kind]}'>{escape(text)}</span>"

    def refresh(self) -> Mapping[str, Any] | None:
        """Compute (or fetch from the cache) the result for the current inputs and show it.

        While it runs the explorer carries the CSS class ``explorer-computing`` (its charts
        and tables are dimmed) and the status line says in words what it computes. A
        failure is shown in the status line (class ``explorer-error``) and leaves the
        previous charts as they were.
        """
        try:
            key = self.inputs()
        except ValueError as exc:
            return self._fail(str(exc))
        cached = key in self.cache
        ahead = None if cached else precomputed.lookup(self, key)
        what = self.describe(key)
        self.computing = True
        self.add_class("explorer-computing")
        self.remove_class("explorer-error")
        if not cached and ahead is None:
            self._say("busy", f"Computing {what}\u2026 " + ("The charts appear when it is done." if self.result is None
                                                             else "The dimmed charts still show the previous result."))
        start = time.perf_counter()
        shown = self.shown
        try:
            result = self.cache.get(key, lambda: self.compute(key) if ahead is None else ahead)
            self.shown = key
            self.render(result)
        except Exception as exc:  # shown to the user; the old charts stay
            self.shown = shown
            return self._fail(f"{type(exc).__name__}: {exc}")
        finally:
            self.computing = False
            self.remove_class("explorer-computing")
        elapsed = time.perf_counter() - start
        self.result, self.error = result, None
        self.downloads.value = csv_links(result)
        how = ("from the cache" if cached else "computed ahead: the default inputs" if ahead is not None
               else f"computed in {elapsed:.1f} s")
        self._say("done", f"Done: {what} ({how}).")
        return result

    def start(self) -> None:
        """Show the first result, if ``auto``: a subclass calls this at the end of its
        ``__init__``. A result shipped for the default inputs (``precomputed``) is drawn at once,
        before the notebook's cell ends, and so is every first result without ``background`` or
        in a kernel Voila started ahead of its page (``awaiting_request``): nobody waits for that
        kernel. Otherwise (``background``, inputs with no shipped result) it is computed on the
        worker thread, so an app's page shows at once, its status line saying what is being
        computed, and the charts follow. (A first result drawn on the thread could reach the page
        as it connected and be lost: the page asks for every widget's state, then listens to
        each; an update sent in between is dropped, and the page said "Drawing the charts…" for
        good, on every server that renders a page after its notebook ran.)"""
        if not self._auto:
            return
        try:
            ahead = precomputed.available(self, self.inputs())
        except ValueError:  # refresh says what is wrong
            ahead = False
        if ahead or not self._background or awaiting_request():
            self.refresh()
            return
        self.add_class("explorer-computing")
        self._say("busy", "Computing the first result\u2026 The charts appear when it is done.")
        self.schedule()

    def figures(self) -> list:
        """The explorer's charts (every ``ChartSlot`` attribute)."""
        return [v for v in vars(self).values() if isinstance(v, ChartSlot)]

    def _fail(self, message: str) -> None:
        self.error = message
        self.add_class("explorer-error")
        self._say("error", f"Could not compute: {message}")
        return None

    def batch(self):
        """A context manager: change several controls, then recompute once."""
        explorer = self

        class _Batch:
            def __enter__(self):
                explorer._paused = True
                return explorer

            def __exit__(self, *exc):
                explorer._paused = False
                if exc[0] is None and explorer._auto:
                    explorer.schedule()
                return False

        return _Batch()

    @staticmethod
    def header(*parts: str) -> w.HTML:
        """``header(text)``: the explorer's instructions (the notebook above it gives the
        title); ``header(title, text)`` also shows a title. Either carries the CSS that dims
        the charts while computing."""
        *title, text = parts
        top = f"<h2 style='margin:4px 0;font-size:1.17em'>{escape(title[0])}</h2>" if title else ""
        return w.HTML(f"{top}<div style='color:#444;font-size:13px;line-height:1.35;max-width:1100px;"
                      f"margin:0 0 4px'>{text}</div>{EXPLORER_CSS}")
