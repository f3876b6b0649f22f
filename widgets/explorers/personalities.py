"""Personalities: a round-robin of the eight CPU personalities at every 4-player table,
ranked by mean round score with 95% confidence intervals, win and go-out rates and the
quality of their decisions."""

from __future__ import annotations

from typing import Hashable

import ipywidgets as w

from golflab import Rules
from golflab.strategy import personality_table, round_robin_grades, round_robin_tables
from golflab.words import rules_words

from .charts import figure
from .explorer import Explorer
from .players_control import personality_names, players_control
from .study_rules import study_form, study_options
from .tables import table_html

GRADE_COLORS = {"optimal": "#1b7837", "good": "#a6dba0", "questionable": "#f1d77b", "mistake": "#f4a582",
                "blunder": "#b2182b"}


TABLE_SIZE = 4
#: A personality's score depends on everything a hole's play and scoring does (not on the
#: game's length): the deal, the turn, card values, pairs, hand bonuses, round adjustments.
STUDIES = ("deal", "turn", "card_values", "pairs", "hand_bonus", "round")
#: The options that change them, from the declaration (``golflab.OPTIONS``).
RULE_OPTIONS = study_options(*STUDIES)
#: Rule rows shown above the charts; the others fold into "More house rules".
SHOWN_RULES = 5


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
        self.rules = study_form(rules, RULE_OPTIONS, SHOWN_RULES)
        self.rules.on_change(lambda _r: self.changed())
        self.score_fig = figure(440, 320, title="Mean round score (95% CI): lower is better",
                                xaxis_title="points per hole", yaxis=dict(autorange="reversed"))
        self.rates_fig = figure(440, 320, title="Win and go-out rates per hole", barmode="group",
                                xaxis=dict(title="share of holes", tickformat=".0%"),
                                yaxis=dict(autorange="reversed"), legend=dict(orientation="h", y=1.1, x=0))
        self.quality_fig = figure(440, 320, title="Decision quality", barmode="stack",
                                  xaxis=dict(title="share of decisions", tickformat=".0%"),
                                  yaxis=dict(autorange="reversed"),
                                  legend=dict(orientation="h", y=-0.2, x=0, traceorder="normal"))
        self.table = w.HTML()
        self.table.add_class("explorer-result")
        self.children = [
            self.header("Remove a personality with its \u00d7, or bring one back from the menu beside them (at "
                        "least 4 for 4-player tables). The whiskers are 95% confidence intervals: overlapping "
                        "whiskers mean the sample cannot separate those two."),
            w.HBox([self.rules]),
            self.controls_row(w.HTML("<b>Personalities</b>"), self.players),
            self.status,
            w.HBox([self.score_fig, self.rates_fig, self.quality_fig], layout=w.Layout(flex_flow="row wrap")),
            self.table,
            self.downloads,
        ]
        self.start()

    def inputs(self) -> Hashable:
        names = tuple(self.players.value)
        if len(names) < TABLE_SIZE:
            raise ValueError(f"choose at least {TABLE_SIZE} personalities for 4-player tables (got {len(names)})")
        return (self.rules.rules, names, self.samples.value, self.seed.value)

    def describe(self, key) -> str:
        rules, names, games, seed = key
        return (f"round-robin of {len(names)} personalities under {rules_words(rules, RULE_OPTIONS)}. {games} "
                f"game{'s' if games > 1 else ''} per table at {len(round_robin_tables(names, TABLE_SIZE))} tables; "
                f"seed {seed}")

    def compute(self, key) -> dict:
        rules, names, games, seed = key
        rounds, grades = round_robin_grades(names, games, rules, seed, size=TABLE_SIZE)
        return {"ranking": personality_table(rounds, grades=grades)}

    def render(self, result) -> None:
        import plotly.graph_objects as go

        t = result["ranking"]
        self.score_fig.draw([go.Scatter(
            x=t["mean_score"], y=t["personality"], mode="markers", marker=dict(size=10, color="#2166ac"),
            error_x=dict(type="data", symmetric=False, array=t["ci_high"] - t["mean_score"],
                         arrayminus=t["mean_score"] - t["ci_low"]), name="mean score", showlegend=False)])
        self.rates_fig.draw([
            go.Bar(y=t["personality"], x=t["win_rate"], orientation="h", name="won the hole", marker_color="#1b7837",
                   error_x=dict(type="data", symmetric=False, array=t["win_high"] - t["win_rate"],
                                arrayminus=t["win_rate"] - t["win_low"])),
            go.Bar(y=t["personality"], x=t["go_out_rate"], orientation="h", name="went out", marker_color="#e08214"),
        ])
        self.quality_fig.draw([go.Bar(y=t["personality"], x=t[g], orientation="h", name=g, marker_color=c)
                               for g, c in GRADE_COLORS.items() if g in t.columns])
        shown = t[["rank", "personality", "holes", "mean_score", "ci_low", "ci_high", "win_rate", "go_out_rate"]]
        self.table.value = table_html(shown, "{:.3f}")
