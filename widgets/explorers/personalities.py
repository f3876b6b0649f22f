"""Personalities: a round-robin of the eight CPU personalities at every 4-player table,
ranked by mean round score with 95% confidence intervals, win and go-out rates and the
quality of their decisions."""

from __future__ import annotations

from typing import Hashable

import ipywidgets as w

from golflab import Rules
from golflab.strategy import personality_table, round_robin, round_robin_tables

from ..rules_form import RulesForm
from .base import Explorer, figure, personality_names, players_control, set_traces, table_html

GRADE_COLORS = {"optimal": "#1b7837", "good": "#a6dba0", "questionable": "#f1d77b", "mistake": "#f4a582",
                "blunder": "#b2182b"}


TABLE_SIZE = 4


class PersonalityExplorer(Explorer):
    """The round-robin: every 4-player table of the chosen personalities (``players``,
    default all eight: 70 tables). ``samples`` is games per table."""

    TITLE = "Personalities"
    SAMPLE_UNIT = "games per table"
    SAMPLE_UNIT_ONE = "game per table"
    SAMPLE_OPTIONS = (1, 3, 10)

    def __init__(self, rules: Rules | None = None, players=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.players = players_control(players or personality_names())
        self.watch(self.players)
        self.rules = RulesForm(rules or Rules(), options=("flip_mode", "jokers", "super_kings", "ten_penny",
                                                           "knock_penalty", "knock_bonus"))
        self.rules.on_change(lambda _r: self._changed())
        self.score_fig = figure(600, 380, title="Mean round score (95% CI): lower is better",
                                xaxis_title="points per hole", yaxis=dict(autorange="reversed"))
        self.rates_fig = figure(600, 380, title="Win and go-out rates per hole", barmode="group",
                                xaxis=dict(title="share of holes", tickformat=".0%"),
                                yaxis=dict(autorange="reversed"))
        self.quality_fig = figure(600, 360, title="Decision quality", barmode="stack",
                                  xaxis=dict(title="share of decisions", tickformat=".0%"),
                                  yaxis=dict(autorange="reversed"))
        self.table = w.HTML()
        self.children = [
            self.header(self.TITLE, "Every 4-player table of the chosen personalities (70 tables for all eight) plays "
                        "the chosen number of games. Ranking by mean round score; the bars are 95% confidence "
                        "intervals, so overlapping bars mean the sample cannot separate those two."),
            w.HBox([self.rules]),
            self.controls_row(w.HTML("<b>Personalities</b>"), self.players),
            self.status,
            w.HBox([self.score_fig, self.rates_fig], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.quality_fig, self.table], layout=w.Layout(flex_flow="row wrap")),
            self.downloads,
        ]
        if self._auto:
            self.refresh()

    def inputs(self) -> Hashable:
        names = tuple(self.players.value)
        if len(names) < TABLE_SIZE:
            raise ValueError(f"choose at least {TABLE_SIZE} personalities for 4-player tables (got {len(names)})")
        return (self.rules.rules, names, self.samples.value, self.seed.value)

    def describe(self, key) -> str:
        games = f"{key[2]} game{'s' if key[2] > 1 else ''}"
        return f"{games} per table at {len(round_robin_tables(key[1], TABLE_SIZE))} tables, seed {key[3]}"

    def compute(self, key) -> dict:
        rules, names, games, seed = key
        rounds, decisions = round_robin(names, games, rules, seed, size=TABLE_SIZE)
        return {"ranking": personality_table(rounds, decisions)}

    def render(self, result) -> None:
        import plotly.graph_objects as go

        t = result["ranking"]
        set_traces(self.score_fig, [go.Scatter(
            x=t["mean_score"], y=t["personality"], mode="markers", marker=dict(size=10, color="#2166ac"),
            error_x=dict(type="data", symmetric=False, array=t["ci_high"] - t["mean_score"],
                         arrayminus=t["mean_score"] - t["ci_low"]), name="mean score", showlegend=False)])
        set_traces(self.rates_fig, [
            go.Bar(y=t["personality"], x=t["win_rate"], orientation="h", name="won the hole", marker_color="#1b7837",
                   error_x=dict(type="data", symmetric=False, array=t["win_high"] - t["win_rate"],
                                arrayminus=t["win_rate"] - t["win_low"])),
            go.Bar(y=t["personality"], x=t["go_out_rate"], orientation="h", name="went out", marker_color="#e08214"),
        ])
        set_traces(self.quality_fig, [go.Bar(y=t["personality"], x=t[g], orientation="h", name=g, marker_color=c)
                                      for g, c in GRADE_COLORS.items() if g in t.columns])
        shown = t[["rank", "personality", "holes", "mean_score", "ci_low", "ci_high", "win_rate", "go_out_rate"]]
        self.table.value = table_html(shown, "{:.3f}")
