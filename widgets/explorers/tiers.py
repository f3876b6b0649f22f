"""Card tiers: each rank's value and tier under the house rules, next to what simulated
CPU play does with it (kept to the end, discarded when drawn, points at the end)."""

from __future__ import annotations

from typing import Hashable

import ipywidgets as w

from golflab import TIERS, Rules
from golflab.rules import options_affecting
from golflab.strategy import rank_stats, tier_table

from ..rules_form import RulesForm
from .base import DEFAULT_TABLE, Explorer, check_players, figure, players_control, rules_words, table_html

TIER_COLORS = {"Excellent": "#1b7837", "Good": "#5aae61", "Decent": "#a6dba0", "Neutral": "#f1d77b",
               "Bad": "#f4a582", "Terrible": "#b2182b"}
#: The options that change card values (so move cards between tiers), from the declaration.
TIER_OPTIONS = options_affecting("card_values")


class TierExplorer(Explorer):
    """Card values and tiers (exact) beside per-rank statistics of simulated play.

    ``rules`` is a ``RulesForm`` for the options that move cards between tiers (those that
    affect card values: jokers, super kings, ten penny, one-eyed jacks) plus the flip mode;
    ``players`` the CPU table. Cards whose value depends on the suit (one-eyed jacks) get a
    bar each, named by their cards.
    """

    TITLE = "Card tiers"
    SAMPLE_UNIT = "holes"
    SAMPLE_OPTIONS = (180, 900, 4500)

    def __init__(self, rules: Rules | None = None, players=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rules = RulesForm(rules or Rules(), options=(*TIER_OPTIONS, "flip_mode"))
        self.rules.on_change(lambda _r: self._changed())
        self.players = players_control(players or DEFAULT_TABLE)
        self.watch(self.players)
        self.value_fig = figure(440, 300, title="Value and tier of each rank", yaxis_title="points",
                                xaxis_title="rank", barmode="overlay")
        self.play_fig = figure(440, 300, title="What simulated play does with each rank",
                               yaxis=dict(title="share", tickformat=".0%", range=[0, 1]), xaxis_title="rank",
                               barmode="group", legend=dict(orientation="h", y=1.12, x=0))
        self.points_fig = figure(440, 300, title="Mean points a card scores at the end of a hole",
                                 yaxis_title="points per card", xaxis_title="rank")
        self.table = w.HTML()
        self.table.add_class("explorer-result")
        self.children = [
            self.header("Toggle jokers, super kings or ten penny and watch cards move between tiers; the other "
                        "charts show how CPU players treat each rank in simulated holes."),
            w.HBox([self.rules]),
            self.controls_row(w.HTML("<b>Players</b>"), self.players),
            self.status,
            w.HBox([self.value_fig, self.play_fig, self.points_fig], layout=w.Layout(flex_flow="row wrap")),
            self.table,
            self.downloads,
        ]
        self.start()

    def inputs(self) -> Hashable:
        return (self.rules.rules, check_players(self.players.value), self.samples.value, self.seed.value)

    def describe(self, key) -> str:
        rules, players, holes, seed = key
        return (f"card tiers under {rules_words(rules, (*TIER_OPTIONS, 'flip_mode'))} and play statistics from "
                f"{holes:,} simulated holes ({', '.join(players)}; seed {seed})")

    def compute(self, key) -> dict:
        rules, players, holes, seed = key
        stats = rank_stats(players, holes, rules, seed)
        return {"tiers": tier_table(rules), "rank_stats": stats}

    def render(self, result) -> None:
        import plotly.graph_objects as go

        tiers, stats = result["tiers"], result["rank_stats"]
        ranks = list(tiers["label"])
        traces = []
        for tier in TIERS:
            part = tiers[tiers["tier"] == tier]
            traces.append(go.Bar(x=part["label"], y=part["value"], name=tier, marker_color=TIER_COLORS[tier],
                                 text=part["value"], textposition="outside", cliponaxis=False,
                                 hovertemplate="%{x}: %{y} points, " + tier + "<extra></extra>",
                                 showlegend=not part.empty))
        traces.append(go.Scatter(x=tiers["label"], y=tiers["standard_value"], mode="markers", name="standard value",
                                 marker=dict(symbol="line-ew-open", size=22, color="#333", line=dict(width=2))))
        self.value_fig.draw(traces, xaxis=dict(categoryarray=ranks, categoryorder="array"))
        colors = [TIER_COLORS[t] for t in stats["tier"]]
        self.play_fig.draw([
            go.Bar(x=stats["label"], y=stats["kept_to_end"], name="kept to the end", marker_color="#2166ac"),
            go.Bar(x=stats["label"], y=stats["discard_rate"], name="discarded when drawn", marker_color="#d6604d"),
        ])
        self.points_fig.draw([go.Bar(x=stats["label"], y=stats["mean_points"], marker_color=colors,
                                     name="mean points", showlegend=False)])
        moved = tiers[tiers["moved"]]
        note = ("<p><b>Moved by the house rules:</b> " + ", ".join(
            f"{r.label} {r.standard_tier} \u2192 {r.tier}" for r in moved.itertuples()) + "</p>") if len(moved) else ""
        self.table.value = note + table_html(
            stats[["label", "value", "tier", "kept_to_end", "discard_rate", "mean_points"]]
            .rename(columns={"label": "rank"}), "{:.2f}")
