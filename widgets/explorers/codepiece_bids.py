"""Codepiece bids: how often a contract is made, by bid and by the declarer's hand
strength, from deals of four ``CodepieceCPU`` players (Wilson 95% intervals)."""

from __future__ import annotations

from collections.abc import Hashable

import ipywidgets as w

from golflab.codepiece.selfplay import bid_records, made_by

from .charts import figure, set_traces
from .explorer import Explorer
from .tables import table_html

#: How the declarer's hand strength is measured: (label, row column, bin width, top bin).
MEASURES = {
    "hcp": ("high-card points (ace 4, king 3, queen 2, jack 1)", "hcp", 4, 20),
    "estimate": ("the CPU's own trick estimate", "estimate", 1, 9),
}


def strength_bin(value: float, width: int, top: int) -> int:
    """The lower edge of ``value``'s bin (bins ``width`` wide; ``top`` and above share one)."""
    return min(int(value // width) * width, top)


def bin_label(low: int, width: int, top: int) -> str:
    if low >= top:
        return f"{low}+"
    return str(low) if width == 1 else f"{low}-{low + width - 1}"


class CodepieceBidExplorer(Explorer):
    """Share of contracts made, by bid and by hand strength, with 95% intervals."""

    TITLE = "Codepiece: how often is a bid made?"
    SAMPLE_UNIT = "deals"
    SAMPLE_UNIT_ONE = "deal"
    SAMPLE_OPTIONS = (400, 2000, 10000)

    def __init__(self, measure: str = "hcp", **kwargs) -> None:
        super().__init__(**kwargs)
        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")
        self.measure = w.Dropdown(options=[(v[0], k) for k, v in MEASURES.items()], value=measure,
                                  description="Strength", layout=w.Layout(width="400px"))
        self.measure.add_class("explorer-measure")
        self.watch(self.measure)
        self.bid_fig = figure(470, 340, title="Bids made, by bid (7: all passed)", xaxis=dict(title="bid", dtick=1),
                              yaxis=dict(title="share made", tickformat=".0%", range=[0, 1.05]))
        self.strength_fig = figure(470, 340, title="Bids made, by the declarer's hand strength",
                                   yaxis=dict(title="share made", tickformat=".0%", range=[0, 1.05]))
        self.tables = w.HTML()
        self.children = [
            self.header(self.TITLE, "Four CPU players bid and play each deal (the dealer moves round). A bid costs "
                        "twice what it earns, so it pays only when it is made more than two times in three: "
                        "the dashed line. Bars show the share of contracts made, whiskers the 95% interval; "
                        "few deals in a group mean a wide interval. Choose a larger sample to narrow them."),
            self.controls_row(self.measure),
            self.status,
            w.HBox([self.bid_fig, self.strength_fig], layout=w.Layout(flex_flow="row wrap")),
            self.tables,
            self.downloads,
        ]
        self.start()

    def inputs(self) -> Hashable:
        return (self.measure.value, self.samples.value, self.seed.value)

    def describe(self, key) -> str:
        return f"{key[1]:,} CPU self-play deals, seed {key[2]}"

    def compute(self, key) -> dict:
        import pandas as pd

        measure, deals, seed = key
        _label, column, width, top = MEASURES[measure]
        rows = bid_records(deals, seed)
        by_bid = pd.DataFrame(made_by(rows, lambda r: r["bid"])).rename(columns={"group": "bid"})
        by_strength = pd.DataFrame(made_by(rows, lambda r: strength_bin(r[column], width, top)))
        by_strength.insert(0, "strength", [bin_label(g, width, top) for g in by_strength["group"]])
        return {"made_by_bid": by_bid, "made_by_strength": by_strength.drop(columns="group"),
                "deals": pd.DataFrame(rows)}

    def render(self, result) -> None:
        import plotly.graph_objects as go

        def bars(frame, x):
            return go.Bar(x=frame[x].astype(str), y=frame["rate"], marker_color="#2166ac",
                          customdata=frame[["deals", "low", "high"]].to_numpy(),
                          error_y=dict(type="data", symmetric=False, array=frame["high"] - frame["rate"],
                                       arrayminus=frame["rate"] - frame["low"]),
                          hovertemplate="%{y:.0%} made of %{customdata[0]} deals "
                                        "(95%: %{customdata[1]:.0%}-%{customdata[2]:.0%})<extra></extra>")

        line = [dict(type="line", xref="paper", x0=0, x1=1, y0=2 / 3, y1=2 / 3, line=dict(dash="dash", color="#888"))]
        set_traces(self.bid_fig, [bars(result["made_by_bid"], "bid")], xaxis=dict(type="category"), shapes=line)
        set_traces(self.strength_fig, [bars(result["made_by_strength"], "strength")],
                   xaxis=dict(title=MEASURES[self.measure.value][0]), shapes=line)
        self.tables.value = ("<b>By bid</b>" + table_html(result["made_by_bid"], "{:.2f}") +
                             "<b>By hand strength</b>" + table_html(result["made_by_strength"], "{:.2f}"))
