"""House-rules lab: two rule sets side by side (two ``RulesForm``s) with the same CPU
table: score distributions, hole length, and which personalities gain or lose."""

from __future__ import annotations

from typing import Hashable

import ipywidgets as w

from golflab import Rules
from golflab.rules import AFFECTS
from golflab.strategy import compare_rules, hole_lengths, simulate_holes
from golflab.words import rules_words

from ..table.rules_form import RulesForm
from .cache import LRUCache
from .charts import figure
from .explorer import Explorer
from .players_control import check_players, personality_names, players_control
from .study_rules import study_options
from .tables import table_html

#: The lab compares holes, so every option that changes a hole (all but the game's length).
STUDIES = tuple(part for part in AFFECTS if part != "game")
#: The options that change them, from the declaration (``golflab.OPTIONS``).
LAB_OPTIONS = study_options(*STUDIES)
COLORS = {"A": "#2166ac", "B": "#b2182b"}


class HouseRulesLab(Explorer):
    """Rules A against rules B with the same players and seed."""

    TITLE = "House-rules lab"
    SAMPLE_UNIT = "holes per rule set"
    SAMPLE_OPTIONS = (270, 900, 4500)

    def __init__(self, rules_a: Rules | None = None, rules_b: Rules | None = None, players=None, **kwargs) -> None:
        super().__init__(**kwargs)
        #: each rule set's simulated rounds: a change to one rule set simulates only that one again
        self.study_cache = LRUCache(2 * self.CACHE_SIZE)
        self.rules_a = RulesForm(rules_a or Rules(), options=LAB_OPTIONS)
        self.rules_b = RulesForm(rules_b or Rules(flip_mode="always"), options=LAB_OPTIONS)
        for form in (self.rules_a, self.rules_b):
            form.on_change(lambda _r: self.changed())
        self.players = players_control(players or personality_names()[:6])
        self.watch(self.players)
        self.score_fig = figure(440, 300, title="Round scores", xaxis_title="round score",
                                yaxis=dict(title="share of players", tickformat=".0%"), barmode="overlay")
        self.length_fig = figure(440, 300, title="Hole length: turns of the longest player", xaxis_title="turns",
                                 yaxis=dict(title="share of holes", tickformat=".0%"), barmode="group")
        self.gain_fig = figure(440, 300, title="Who gains under B? (score vs the table)",
                               xaxis_title="B minus A (negative: gains under B)")
        self.table = w.HTML()
        self.table.add_class("explorer-result")
        box = dict(border="1px solid #ddd", padding="6px", margin="2px", width="49%", min_width="420px")
        self.children = [
            self.header("Lower scores are better. A personality gains under B when its score relative to the rest "
                        "of the table drops. The rule sets are below the charts."),
            self.controls_row(w.HTML("<b>Players</b>"), self.players),
            self.status,
            w.HBox([self.score_fig, self.length_fig, self.gain_fig], layout=w.Layout(flex_flow="row wrap")),
            w.HTML("<b>Set the two rule sets here</b> (the charts above follow every change):"),
            w.HBox([w.VBox([w.HTML("<b style='color:#2166ac'>Rules A</b>"), self.rules_a], layout=w.Layout(**box)),
                    w.VBox([w.HTML("<b style='color:#b2182b'>Rules B</b>"), self.rules_b], layout=w.Layout(**box))],
                   layout=w.Layout(flex_flow="row wrap")),
            self.table,
            self.downloads,
        ]
        self.start()

    def inputs(self) -> Hashable:
        return (self.rules_a.rules, self.rules_b.rules, check_players(self.players.value), self.samples.value,
                self.seed.value)

    def describe(self, key) -> str:
        rules_a, rules_b, players, holes, seed = key
        return (f"rules A ({rules_words(rules_a, LAB_OPTIONS)}) against rules B ({rules_words(rules_b, LAB_OPTIONS)}): "
                f"{holes:,} simulated holes each. Players: {', '.join(players)}; seed {seed}")

    def compute(self, key) -> dict:
        import pandas as pd

        rules_a, rules_b, players, holes, seed = key
        runs = {label: self.study_cache.get((rules, players, holes, seed),
                                            lambda rules=rules: simulate_holes(players, holes, rules, seed).rounds)
                for label, rules in (("A", rules_a), ("B", rules_b))}
        scores = pd.concat([r[["personality", "score", "turns"]].assign(rules=k) for k, r in runs.items()],
                           ignore_index=True)
        lengths = pd.concat([hole_lengths(r).assign(rules=k) for k, r in runs.items()], ignore_index=True)
        return {"scores": scores, "hole_lengths": lengths, "personalities": compare_rules(runs)}

    def render(self, result) -> None:
        import plotly.graph_objects as go

        scores, lengths, per = result["scores"], result["hole_lengths"], result["personalities"]
        self.score_fig.draw([score_bars(scores.loc[scores["rules"] == k, "score"], f"rules {k}", c)
                             for k, c in COLORS.items()])
        traces = []
        for k, c in COLORS.items():
            counts = lengths.loc[lengths["rules"] == k, "turns"].value_counts(normalize=True).sort_index()
            traces.append(go.Bar(x=counts.index, y=counts.to_numpy(), name=f"rules {k}", marker_color=c))
        self.length_fig.draw(traces)
        b = per[per["rules"] == "B"].sort_values("delta_edge")
        self.gain_fig.draw([go.Bar(
            y=b["personality"], x=b["delta_edge"], orientation="h", showlegend=False,
            marker_color=["#1b7837" if d < 0 else "#b2182b" for d in b["delta_edge"]],
            text=[f"{d:+.2f}" for d in b["delta_edge"]], textposition="auto")])
        summary = (scores.groupby("rules").agg(mean_score=("score", "mean"), mean_turns=("turns", "mean"))
                   .join(lengths.groupby("rules").agg(hole_length=("turns", "mean"),
                                                      someone_went_out=("went_out", "mean")))
                   .reset_index())
        self.table.value = table_html(summary, "{:.2f}") + table_html(per, "{:.2f}")


#: The width of the score chart's bins (round scores).
SCORE_BIN = 2


def score_shares(scores, width: int = SCORE_BIN):
    """The share of ``scores`` (whole numbers) in each bin of ``width`` scores, ``low`` to ``high``
    (bins start at multiples of ``width``), in score order: a histogram computed here, so that its
    chart is bars (drawn by plotly.js's basic bundle: ``plotly_module``)."""
    import pandas as pd

    low = (scores // width) * width
    shares = low.value_counts(normalize=True).sort_index()
    return pd.DataFrame({"low": shares.index.astype(int), "high": shares.index.astype(int) + width - 1,
                         "share": shares.to_numpy()})


def score_bars(scores, name: str, color: str):
    """``scores`` as a histogram of bars: one bar per bin of ``score_shares``, as wide as its bin."""
    import plotly.graph_objects as go

    bins = score_shares(scores)
    spans = [f"{low} to {high}" for low, high in zip(bins["low"], bins["high"])]
    return go.Bar(x=bins["low"] + (SCORE_BIN - 1) / 2, y=bins["share"], width=SCORE_BIN, name=name,
                  marker_color=color, opacity=0.55, customdata=spans,
                  hovertemplate="scores %{customdata}: %{y:.1%}<extra>" + name + "</extra>")
