"""What every strategy explorer shares: the sample-size and seed controls, the visible
"computing" state, an LRU cache of results keyed by the inputs, CSV downloads of the data
behind every chart, and plotly figure widgets with a fixed size.

A subclass gives ``inputs()`` (a hashable key of everything the result depends on),
``compute(key)`` (a dict of pandas frames, computed through golflab) and ``render(result)``
(puts the frames into its figures and tables). ``refresh()`` ties them together; every
control a subclass adds calls ``self.watch(control)`` so a change recomputes.
"""

from __future__ import annotations

import base64
import time
from collections import OrderedDict
from html import escape
from typing import Any, Callable, Hashable, Mapping, Sequence

import ipywidgets as w

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


def figure(width: int = 640, height: int = 360, **layout):
    """A plotly ``FigureWidget`` with an explicit size (needed to draw inside Voila)."""
    import plotly.graph_objects as go

    base = dict(width=width, height=height, margin=dict(l=60, r=20, t=50, b=50), template="plotly_white")
    base.update(layout)
    return go.FigureWidget(layout=base)


def set_traces(fig, traces: Sequence) -> None:
    """Replace every trace of ``fig`` with ``traces`` in one update."""
    with fig.batch_update():
        fig.data = ()
        fig.add_traces(list(traces))


def sync_figure(fig) -> None:
    """Make ``fig``'s synced widget state its current data and layout.

    plotly's ``FigureWidget`` syncs its full state only when it is built and sends later
    changes as one-off messages, which are lost when no page is showing it yet (Voila runs
    the notebook, computing the first result, before the page connects). Assigning the
    state again fixes what a page loads; pages already showing the figure got the messages.
    """
    from copy import deepcopy

    fig._widget_data = deepcopy(fig._data)
    fig._widget_layout = deepcopy(fig._layout_obj._props)


def table_html(frame, float_format: str = "{:.3g}", max_rows: int = 60) -> str:
    """A compact HTML table of ``frame`` (numbers formatted, no index)."""
    shown = frame.head(max_rows)
    formatters = {c: float_format.format for c in shown.columns if shown[c].dtype.kind == "f"}
    return ("<div style='overflow-x:auto'>" +
            shown.to_html(index=False, border=0, classes="explorer-table", formatters=formatters, escape=True) +
            "</div><style>.explorer-table{border-collapse:collapse;font:12px system-ui,sans-serif}"
            ".explorer-table th,.explorer-table td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
            ".explorer-table th{background:#f3f3f3}</style>")


DEFAULT_TABLE = ("Sofia", "Maya", "Priya", "Marcus")


def personality_names() -> tuple[str, ...]:
    """The CPU personalities, in the order of ``golflab.ai.PROFILES``."""
    from golflab.ai import PROFILES

    return tuple(PROFILES)


def players_control(default: Sequence[str] = DEFAULT_TABLE) -> w.TagsInput:
    """Which CPU personalities sit at the table (2-6 distinct names, in seat order)."""
    ctl = w.TagsInput(value=list(default), allowed_tags=list(personality_names()), allow_duplicates=False,
                      layout=w.Layout(width="420px"))
    ctl.add_class("explorer-players")
    return ctl


def check_players(names: Sequence[str]) -> tuple[str, ...]:
    """The seat list as a tuple, or a ValueError saying what is allowed."""
    names = tuple(names)
    if not 2 <= len(names) <= 6:
        raise ValueError(f"choose 2 to 6 players (got {len(names)}) from {', '.join(personality_names())}")
    return names


class Explorer(w.VBox):
    """Base of the five explorers. See the module docstring for the subclass contract.

    ``samples`` is the sample size (the meaning of its unit is the subclass's
    ``SAMPLE_UNIT``); the choices are ``SAMPLE_OPTIONS``, the first one being the quick
    default. ``seed`` drives every random choice, so the same inputs give the same output.
    """

    TITLE = "Explorer"
    SAMPLE_UNIT = "rounds"
    SAMPLE_UNIT_ONE = "round"
    SAMPLE_OPTIONS: tuple[int, ...] = (400, 2000, 10000)
    CACHE_SIZE = 16

    def __init__(self, *, samples: int | None = None, seed: int = 0, auto: bool = True) -> None:
        options = [(f"{n:,} {self.SAMPLE_UNIT_ONE if n == 1 else self.SAMPLE_UNIT}" + (" (quick)" if i == 0 else ""), n)
                   for i, n in enumerate(self.SAMPLE_OPTIONS)]
        samples = self.SAMPLE_OPTIONS[0] if samples is None else samples
        if samples not in self.SAMPLE_OPTIONS:
            raise ValueError(f"samples must be one of {', '.join(map(str, self.SAMPLE_OPTIONS))}, got {samples!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}")
        self.samples = w.Dropdown(options=options, value=samples, description="Sample",
                                  layout=w.Layout(width="330px"))
        self.samples.add_class("explorer-samples")
        self.seed = w.BoundedIntText(value=seed, min=0, max=MAX_SEED, description="Seed",
                                     layout=w.Layout(width="180px"))
        self.seed.add_class("explorer-seed")
        self.status = w.HTML()
        self.status.add_class("explorer-status")
        self.downloads = w.HTML()
        self.downloads.add_class("explorer-downloads")
        self.cache = LRUCache(self.CACHE_SIZE)
        self.result: Mapping[str, Any] | None = None
        self.error: str | None = None
        self.computing = False
        self._auto = auto
        self._paused = False
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
        """One line on what was computed (shown in the status line)."""
        return f"{self.samples.value:,} {self.SAMPLE_UNIT}, seed {self.seed.value}"

    # -- shared behaviour ------------------------------------------------------------
    def controls_row(self, *extra: w.Widget) -> w.HBox:
        """The sample and seed controls, after any ``extra`` ones."""
        return w.HBox([*extra, self.samples, self.seed], layout=w.Layout(flex_flow="row wrap", align_items="center"))

    def watch(self, control: w.Widget) -> None:
        """Recompute when ``control``'s value changes."""
        control.observe(lambda _change: self._changed(), names="value")

    def _changed(self) -> None:
        if self._auto and not self._paused:
            self.refresh()

    def refresh(self) -> Mapping[str, Any] | None:
        """Compute (or fetch from the cache) the result for the current inputs and show it.

        While it runs the explorer carries the CSS class ``explorer-computing`` and the
        status line says so. A failure is shown in the status line (class
        ``explorer-error``) and leaves the previous charts as they were.
        """
        try:
            key = self.inputs()
        except ValueError as exc:
            return self._fail(str(exc))
        cached = key in self.cache
        self.computing = True
        self.add_class("explorer-computing")
        self.remove_class("explorer-error")
        if not cached:
            self.status.value = (f"<span style='color:#8a5a00'>\u23f3 Computing {escape(self.describe(key))}\u2026"
                                 "</span>")
        start = time.perf_counter()
        try:
            result = self.cache.get(key, lambda: self.compute(key))
            self.render(result)
            for fig in self.figures():
                sync_figure(fig)
        except Exception as exc:  # shown to the user; the old charts stay
            return self._fail(f"{type(exc).__name__}: {exc}")
        finally:
            self.computing = False
            self.remove_class("explorer-computing")
        elapsed = time.perf_counter() - start
        self.result, self.error = result, None
        self.downloads.value = "".join(csv_link(frame, f"{name}.csv", f"{name}.csv")
                                       for name, frame in result.items() if hasattr(frame, "to_csv"))
        how = "from cache" if cached else f"in {elapsed:.1f} s"
        self.status.value = f"<span style='color:#2e7d32'>\u2714 {escape(self.describe(key))} ({how})</span>"
        return result

    def figures(self) -> list:
        """The explorer's plotly figures (every ``FigureWidget`` attribute)."""
        import plotly.graph_objects as go

        return [v for v in vars(self).values() if isinstance(v, go.FigureWidget)]

    def _fail(self, message: str) -> None:
        self.error = message
        self.add_class("explorer-error")
        self.status.value = f"<span style='color:#c62828'>\u26a0 Could not compute: {escape(message)}</span>"
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
                    explorer.refresh()
                return False

        return _Batch()

    @staticmethod
    def header(title: str, text: str) -> w.HTML:
        return w.HTML(f"<h3 style='margin:4px 0'>{escape(title)}</h3>"
                      f"<div style='color:#444;font-size:13px;max-width:900px'>{text}</div>")
