"""The explorers' plotly charts: ``ChartSlot`` (``figure``) holds one ``Chart``, replaced whole for
every result (``draw``, or ``set_traces``).

Plotly is imported only when the first chart is drawn (its import takes about a second), and under
Voila each chart ships ``plotly_module.stub(...)`` instead of plotly's 5 MB module (``plotly_module``).
"""

from __future__ import annotations

import functools
import sys
from html import escape
from typing import Sequence

import ipywidgets as w

from . import plotly_module


@functools.cache
def chart_class() -> type:
    """``Chart``: a plotly ``FigureWidget`` that opens its comm only once it is fully built.

    Why: plotly's FigureWidget opens its comm (the page's model) before it sets its data and
    layout, so the page receives them as later update messages. anywidget queues every
    message to a model until the model's module has loaded, and gives up after 2 s: the
    model then drops every later message for the page's life ("[anywidget] Failed to
    initialize model." in the console). plotly's module is 5 MB, which loads slower than
    that on a busy machine, so a chart kept its first data. A ``Chart`` sends its complete
    state (traces and layout) in the message that creates its model and is never changed
    afterwards: ``ChartSlot`` replaces it whole for new data. Under Voila it ships
    ``plotly_module.stub(...)`` instead of the 5 MB module: a few lines that import, once per
    page, plotly.js's basic bundle (bars, scatter) or plotly's own module (any other trace).
    """
    skip_iri_grammars()
    import plotly.graph_objects as go

    class Chart(go.FigureWidget):
        __doc__ = chart_class.__doc__

        def __init__(self, *args, opened: bool = True, **kwargs) -> None:
            self._opening_deferred = True
            super().__init__(*args, **kwargs)
            if plotly_module.in_voila():  # a module loaded once per page, light for bars and scatter
                self._esm = plotly_module.stub(plotly_module.uses_light(trace.type for trace in self.data))
            if opened:
                self.open_built()

        def open_built(self) -> None:
            """Open the comm of a chart built with ``opened=False`` (its whole state at once)."""
            self._opening_deferred = False
            self.open()

        def open(self) -> None:
            if not getattr(self, "_opening_deferred", False):
                super().open()

    return Chart


def skip_iri_grammars() -> None:
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
    by plotly (its import takes about a second) nor the browser by an empty chart's model.
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
        chart = chart_class()(data=list(traces), layout=merged, opened=False)  # built and checked once
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
