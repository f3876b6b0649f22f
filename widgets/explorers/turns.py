"""Turn counts: how many turns each player gets in a hole (histogram and CDF), compared
by flip mode, initial flips, number of players or personality, against the spec's
"typical rounds last 4-8 turns per player; the minimum to go out is 4"."""

from __future__ import annotations

from typing import Hashable

import ipywidgets as w

from golflab import Rules
from golflab.strategy import TURN_SPLITS, turn_distribution, turn_study, turn_summary
from golflab.words import rules_words

from .charts import figure
from .explorer import Explorer
from .players_control import DEFAULT_TABLE, check_players, players_control
from .study_rules import study_form, study_options
from .tables import table_html

SPLIT_LABELS = {"flip_mode": "flip mode", "initial_flips": "initial flips", "players": "number of players",
                "personality": "personality"}
#: How many turns a hole lasts depends on the deal and on what a turn may do.
STUDIES = ("deal", "turn")
#: The options that change them, from the declaration (``golflab.OPTIONS``).
RULE_OPTIONS = study_options(*STUDIES)
#: Rule rows shown above the charts; the others fold into "More house rules".
SHOWN_RULES = 2
#: The summary's headings in words.
SUMMARY_HEADINGS = {"rows": "players", "below_4": "fewer than 4", "in_4_8": "4 to 8", "above_8": "more than 8"}
PALETTE = ("#2166ac", "#b2182b", "#1b7837", "#762a83", "#e08214", "#35978f", "#8c510a", "#c51b7d")


class TurnCountExplorer(Explorer):
    """Distribution of turns per player per hole, one series per value of ``compare``."""

    TITLE = "Turn counts"
    SAMPLE_UNIT = "holes per series"
    SAMPLE_OPTIONS = (180, 900, 4500)

    def __init__(self, rules: Rules | None = None, players=None, compare: str = "flip_mode", **kwargs) -> None:
        super().__init__(**kwargs)
        if compare not in TURN_SPLITS:
            raise ValueError(f"compare must be one of {', '.join(TURN_SPLITS)}, got {compare!r}")
        self.rules = study_form(rules, RULE_OPTIONS, SHOWN_RULES)
        self.rules.on_change(lambda _r: self.changed())
        self.players = players_control(players or DEFAULT_TABLE)
        self.watch(self.players)
        self.compare = w.Dropdown(options=[(SPLIT_LABELS[k], k) for k in TURN_SPLITS], value=compare,
                                  description="Compare by", layout=w.Layout(width="240px"))
        self.compare.add_class("explorer-compare")
        self.watch(self.compare)
        self.compare.observe(lambda _c: self._disable_compared(), names="value")
        self._disable_compared()
        self.hist_fig = figure(520, 320, title="Turns per player per hole", xaxis_title="turns",
                               yaxis=dict(title="share of players", tickformat=".0%"), barmode="group")
        self.cdf_fig = figure(520, 320, title="Cumulative: share with at most N turns", xaxis_title="turns",
                              yaxis=dict(title="share", tickformat=".0%", range=[0, 1.02]))
        self.summary = w.HTML()
        self.summary.add_class("explorer-result")
        self.children = [
            self.header("Each series is simulated CPU play; the shaded band is the spec's typical 4-8 turns per "
                        "player. The table says, per series, how many players took fewer than 4 turns, 4-8, or "
                        "more than 8."),
            w.HBox([self.rules]),
            self.controls_row(self.compare, w.HTML("<b>Players</b>"), self.players),
            self.status,
            w.HBox([self.hist_fig, self.cdf_fig], layout=w.Layout(flex_flow="row wrap")),
            self.summary,
            self.downloads,
        ]
        self.start()

    def _disable_compared(self) -> None:
        """The rule control that is being compared has no effect: grey it out."""
        for name, ctl in self.rules.controls.items():
            ctl.disabled = name == self.compare.value

    def inputs(self) -> Hashable:
        by, rules = self.compare.value, self.rules.rules
        if by in self.rules.controls:  # the compared option's own control does not matter
            rules = rules.replace(**{by: Rules().to_dict()[by]})
        return (rules, check_players(self.players.value), by, self.samples.value, self.seed.value)

    def describe(self, key) -> str:
        rules, players, by, holes, seed = key
        fixed = tuple(o for o in RULE_OPTIONS if o != by)
        return (f"turns per hole by {SPLIT_LABELS[by]}: {holes:,} simulated holes per series under "
                f"{rules_words(rules, fixed)}. Players: {', '.join(players)}; seed {seed}")

    def compute(self, key) -> dict:
        rules, players, by, holes, seed = key
        rounds = turn_study(players, holes, rules, seed, by)
        return {"turn_distribution": turn_distribution(rounds, by), "turn_summary": turn_summary(rounds, by)}

    def render(self, result) -> None:
        import plotly.graph_objects as go

        dist = result["turn_distribution"]
        hist, cdf = [], []
        for i, (group, part) in enumerate(dist.groupby("group", sort=False)):
            color = PALETTE[i % len(PALETTE)]
            hist.append(go.Bar(x=part["turns"], y=part["share"], name=str(group), marker_color=color))
            cdf.append(go.Scatter(x=part["turns"], y=part["cdf"], name=str(group), mode="lines+markers",
                                  line=dict(shape="hv", color=color)))
        band = [dict(type="rect", xref="x", yref="paper", x0=3.5, x1=8.5, y0=0, y1=1,
                     fillcolor="#4daf4a", opacity=0.10, line_width=0, layer="below")]
        self.hist_fig.draw(hist, shapes=band)
        self.cdf_fig.draw(cdf, shapes=band)
        summary = result["turn_summary"].rename(columns={"group": SPLIT_LABELS[self.compare.value], **SUMMARY_HEADINGS})
        self.summary.value = table_html(summary, "{:.2f}")
