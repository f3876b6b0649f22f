"""What every strategy explorer shares: the sample-size and seed controls, the visible
"computing" state (old charts dimmed, the status line in words), an LRU cache of results
keyed by the inputs, CSV downloads of the data behind every chart, plotly charts that are
rebuilt whole for every result, and (with ``background=True``) recomputing on a worker
thread where the newest change replaces one still waiting.

A subclass gives ``inputs()`` (a hashable key of everything the result depends on),
``compute(key)`` (a dict of pandas frames, computed through golflab) and ``render(result)``
(draws the frames into its charts and tables). ``refresh()`` ties them together; every
control a subclass adds calls ``self.watch(control)`` so a change recomputes, and its
``__init__`` ends with ``self.start()`` (the first result; with ``background`` after the
page has shown). The result for the default inputs is shipped, computed ahead and checked
by the tests (``precomputed``).
"""

from __future__ import annotations

import base64
import sys
import threading
import time
from collections import OrderedDict
from html import escape
from typing import Any, Callable, Hashable, Mapping, Sequence

import ipywidgets as w

from . import plotly_module

#: Seeds the explorers accept (a non-negative 31-bit number).
MAX_SEED = 2**31 - 1


class LRUCache:
    """A small least-recently-used cache: ``get(key, make)`` returns the stored value or
    stores ``make()``. ``hits`` and ``misses`` count lookups."""

    def __init__(self, maxsize: int = 16) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 1:
            raise ValueError(f"maxsize must be a whole number of at least 1, got {maxsize!r}")
        self.maxsize = maxsize
        self._data: OrderedDict = OrderedDict()
        self.hits = self.misses = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        if key in self._data:
            self.hits += 1
            self._data.move_to_end(key)
            return self._data[key]
        self.misses += 1
        value = make()  # an exception here stores nothing
        self._data[key] = value
        if len(self._data) > self.maxsize:
            self._data.popitem(last=False)
        return value

    def clear(self) -> None:
        self._data.clear()


def csv_href(frame) -> str:
    """A ``data:`` URI holding ``frame`` as CSV (UTF-8, no index)."""
    data = frame.to_csv(index=False).encode("utf-8")
    return "data:text/csv;charset=utf-8;base64," + base64.b64encode(data).decode("ascii")


def csv_link(frame, filename: str, label: str | None = None) -> str:
    """An HTML download link (CSS class ``explorer-csv``) for the data behind a chart."""
    label = label or f"Download {filename}"
    return (f'<a class="explorer-csv" download="{escape(filename)}" href="{csv_href(frame)}" '
            f'style="margin-right:14px">\u2b07 {escape(label)}</a>')


def _chart_class():
    """``Chart``: a plotly ``FigureWidget`` that opens its comm only once it is fully built.

    Why: plotly's FigureWidget opens its comm (the page's model) before it sets its data and
    layout, so the page receives them as later update messages. anywidget queues every
    message to a model until the model's module has loaded, and gives up after 2 s: the
    model then drops every later message for the page's life ("[anywidget] Failed to
    initialize model." in the console). plotly's module is 5 MB per figure, which loads
    slower than that on a busy machine, so a chart kept its first data. A ``Chart`` sends
    its complete state (traces and layout) in the message that creates its model and is
    never changed afterwards: ``ChartSlot`` replaces it whole for new data. Under Voila it
    ships ``plotly_module.stub()`` instead of the 5 MB module, which the page then loads once.
    """
    global _CHART
    if _CHART is None:
        _skip_iri_grammars()
        import plotly.graph_objects as go

        class Chart(go.FigureWidget):
            __doc__ = _chart_class.__doc__

            def __init__(self, *args, opened: bool = True, **kwargs) -> None:
                if plotly_module.in_voila():
                    self._esm = _stub()  # plotly's module once per page (plotly_module)
                self._opening_deferred = True
                super().__init__(*args, **kwargs)
                if opened:
                    self.open_built()

            def open_built(self) -> None:
                """Open the comm of a chart built with ``opened=False`` (its whole state at once)."""
                self._opening_deferred = False
                self.open()

            def open(self) -> None:
                if not getattr(self, "_opening_deferred", False):
                    super().open()

        _CHART = Chart
    return _CHART


_CHART = None


def _stub() -> str:
    global _STUB
    if _STUB is None:
        _STUB = plotly_module.stub()
    return _STUB


_STUB = None


def _skip_iri_grammars() -> None:
    """plotly imports nbformat, nbformat imports jsonschema, and jsonschema imports
    ``rfc3987_syntax`` when it is installed (jupyter-events needs it in the server): that module
    builds 38 grammars as it is imported, about a second before the first chart can be drawn.
    Charts never validate IRIs, so unless it is already imported this kernel marks it absent
    (jsonschema then skips its "iri" formats, as it does when the package is not installed)."""
    sys.modules.setdefault("rfc3987_syntax", None)


class ChartSlot(w.Box):
    """The place of one plotly chart with a fixed size (CSS class ``explorer-chart``).

    ``draw(traces, **layout)`` shows a new chart (a fresh ``Chart`` holding exactly these
    traces and the slot's layout updated with ``layout``) and closes the previous one; an
    identical chart is kept as it is. ``figure`` is the chart shown, ``data`` its traces.

    Until the first ``draw`` the slot shows only the chart's title (``figure`` is None and
    ``data`` empty): no plotly chart is built for nothing, so an app's page is not held up
    by plotly (its import takes about a second) nor the browser by an empty chart's model
    (each carries plotly's 5 MB module).
    """

    def __init__(self, width: int = 640, height: int = 360, **layout) -> None:
        self.base_layout = dict(width=width, height=height, margin=dict(l=60, r=20, t=50, b=50),
                                template="plotly_white", **layout)
        super().__init__(layout=w.Layout(width=f"{width}px", height=f"{height}px", overflow="hidden"))
        self.add_class("explorer-chart")
        self.figure = None
        self._spec = None
        title = layout.get("title", "")
        title = title.get("text", "") if isinstance(title, dict) else title
        self.children = (w.HTML(f"<div style='font:17px \"Open Sans\",verdana,arial,sans-serif;color:#2a3f5f;"
                                f"padding:12px 0 0 20px'>{escape(str(title))}</div>"),)

    def draw(self, traces: Sequence, **layout) -> None:
        """Replace the chart with one showing ``traces``; ``layout`` updates the slot's layout."""
        import plotly.graph_objects as go

        merged = go.Layout(self.base_layout)
        merged.update(layout)
        chart = _chart_class()(data=list(traces), layout=merged, opened=False)  # built and checked once
        spec = chart.to_json()
        if spec == self._spec:  # the same chart: nothing to send
            return
        chart.open_built()
        old, self.figure, self._spec = self.figure, chart, spec
        self.children = (chart,)
        if old is not None:
            old.close()

    @property
    def data(self) -> tuple:
        return () if self.figure is None else self.figure.data


def figure(width: int = 640, height: int = 360, **layout) -> ChartSlot:
    """An empty ``ChartSlot`` of the given size and base layout (title, axes, ...)."""
    return ChartSlot(width, height, **layout)


def set_traces(fig: ChartSlot, traces: Sequence, **layout) -> None:
    """Show ``traces`` (and ``layout`` updates) in the chart slot ``fig``: ``fig.draw``."""
    fig.draw(traces, **layout)


def table_html(frame, float_format: str = "{:.3g}", max_rows: int = 60) -> str:
    """A compact HTML table of ``frame`` (numbers formatted, no index, headings in words:
    ``mean_score`` reads ``mean score``)."""
    shown = frame.head(max_rows).rename(columns=lambda c: str(c).replace("_", " "))
    formatters = {c: float_format.format for c in shown.columns if shown[c].dtype.kind == "f"}
    return ("<div style='overflow-x:auto'>" +
            shown.to_html(index=False, border=0, classes="explorer-table", formatters=formatters, escape=True) +
            "</div><style>.explorer-table{border-collapse:collapse;font:12px system-ui,sans-serif}"
            ".explorer-table th,.explorer-table td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
            ".explorer-table th{background:#f3f3f3}</style>")


DEFAULT_TABLE = ("Sofia", "Maya", "Priya", "Marcus")


def personality_names() -> tuple[str, ...]:
    """The CPU personalities, in the order of ``golflab.ai.PROFILES`` (an explorer's default)."""
    from golflab.ai import PROFILES

    return tuple(PROFILES)


def cpu_names() -> tuple[str, ...]:
    """Every CPU player an explorer can seat: the personalities, then the Expert (slower: it
    plays the coach's rollouts), as ``golflab.ai.CPU_NAMES``."""
    from golflab.ai import CPU_NAMES

    return tuple(CPU_NAMES)


class PlayersControl(w.HBox):
    """Which CPU players take part: removable tags (``tags``, a ``TagsInput``, CSS class
    ``explorer-players``) and beside them an "Add a personality" menu (``add``, CSS class
    ``explorer-add-player``) listing the ones not chosen (the Expert too), so a removed one is
    easy to bring back. ``value`` is the chosen names in order; observe ``tags`` for changes."""

    PROMPT = "Add a personality\u2026"

    def __init__(self, default: Sequence[str]) -> None:
        names = cpu_names()
        self.tags = w.TagsInput(value=list(default), allowed_tags=list(names), allow_duplicates=False,
                                layout=w.Layout(width="auto", max_width="460px"))
        self.tags.add_class("explorer-players")
        self.add = w.Dropdown(layout=w.Layout(width="190px"))
        self.add.add_class("explorer-add-player")
        self._offer()
        self.tags.observe(lambda _c: self._offer(), names="value")
        self.add.observe(self._picked, names="value")
        super().__init__([self.tags, self.add], layout=w.Layout(align_items="center", flex_flow="row wrap"))

    @property
    def value(self) -> tuple[str, ...]:
        return tuple(self.tags.value)

    @value.setter
    def value(self, names: Sequence[str]) -> None:
        self.tags.value = list(names)

    def _offer(self) -> None:
        missing = [n for n in cpu_names() if n not in self.tags.value]
        self.add.options = [(self.PROMPT if missing else "All personalities chosen", "")] + [(n, n) for n in missing]
        self.add.value = ""
        self.add.disabled = not missing

    def _picked(self, change) -> None:
        if change["new"]:
            self.tags.value = [*self.tags.value, change["new"]]


def players_control(default: Sequence[str] = DEFAULT_TABLE) -> PlayersControl:
    """Which CPU personalities sit at the table (names in seat order), with an add-back menu."""
    return PlayersControl(default)


def check_players(names: Sequence[str]) -> tuple[str, ...]:
    """The seat list as a tuple, or a ValueError saying what is allowed."""
    from golflab.ai import CPU_NAMES_TEXT

    names = tuple(names)
    if not 2 <= len(names) <= 6:
        raise ValueError(f"choose 2 to 6 players (got {len(names)}). Choose them from {CPU_NAMES_TEXT}")
    return names


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
        target = control.tags if isinstance(control, PlayersControl) else control
        target.observe(lambda _change: self._changed(), names="value")

    def _changed(self) -> None:
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
        from .precomputed import lookup

        try:
            key = self.inputs()
        except ValueError as exc:
            return self._fail(str(exc))
        cached = key in self.cache
        ahead = None if cached else lookup(self, key)
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
        self.downloads.value = "".join(csv_link(frame, f"{name}.csv", f"{name.replace('_', ' ')} (CSV)")
                                       for name, frame in result.items() if hasattr(frame, "to_csv"))
        how = ("from the cache" if cached else "computed ahead: the default inputs" if ahead is not None
               else f"computed in {elapsed:.1f} s")
        self._say("done", f"Done: {what} ({how}).")
        return result

    def start(self) -> None:
        """Show the first result, if ``auto``: a subclass calls this at the end of its
        ``__init__``. With ``background`` it is computed on the worker thread, so an app's
        page shows at once, its status line saying what is being computed, and the charts
        follow; without, at once (``refresh``)."""
        if not self._auto:
            return
        if not self._background:
            self.refresh()
            return
        from .precomputed import available

        try:
            ahead = available(self, self.inputs())
        except ValueError:  # refresh says what is wrong
            ahead = False
        self.add_class("explorer-computing")
        self._say("busy", "Drawing the charts\u2026" if ahead
                  else "Computing the first result\u2026 The charts appear when it is done.")
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
        top = f"<h3 style='margin:4px 0'>{escape(title[0])}</h3>" if title else ""
        return w.HTML(f"{top}<div style='color:#444;font-size:13px;line-height:1.35;max-width:1100px;"
                      f"margin:0 0 4px'>{text}</div>{EXPLORER_CSS}")
