"""Card tiers: each rank's value and tier under the house rules, next to what simulated
CPU play does with it (kept to the end, discarded when drawn, points at the end)."""

from __future__ import annotations

from html import escape
from typing import Hashable

import ipywidgets as w

from golflab import TIERS, Rules
from golflab import words as plain
from golflab.rules import options_affecting
from golflab.strategy import rank_stats, tier_table
from golflab.words import rules_words

from ..table.rules_form import RulesForm
from .charts import figure
from .explorer import Explorer
from .players_control import DEFAULT_TABLE, check_players, players_control
from .tables import table_html

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
        self.rules.on_change(lambda _r: self.changed())
        self.players = players_control(players or DEFAULT_TABLE)
        self.watch(self.players)
        self.value_fig = figure(440, 300, title="Value and tier of each rank", yaxis_title="points",
                                xaxis_title="rank", barmode="overlay")
        self.play_fig = figure(440, 300, title="What simulated play does with each rank",
                               yaxis=dict(title="share", tickformat=".0%", range=[0, 1]), xaxis_title="rank",
                               barmode="group", legend=dict(orientation="h", y=1.12, x=0))
        self.points_fig = figure(440, 300, title="Mean points a card scores at the end of a hole",
                                 yaxis_title="points per card", xaxis_title="rank")
        self.findings = w.HTML()
        self.findings.add_class("explorer-findings")
        self.findings.add_class("explorer-result")
        self.table = w.HTML()
        self.table.add_class("explorer-result")
        self.children = [
            self.header("Toggle jokers, super kings or ten penny and watch cards move between tiers. The other "
                        "charts show how CPU players treat each rank in simulated holes."),
            w.HBox([self.rules]),
            self.controls_row(w.HTML("<b>Players</b>"), self.players),
            self.status,
            w.HBox([self.value_fig, self.play_fig, self.points_fig], layout=w.Layout(flex_flow="row wrap")),
            self.findings,
            self.table,
            self.downloads,
        ]
        self.start()

    def inputs(self) -> Hashable:
        return (self.rules.rules, check_players(self.players.value), self.samples.value, self.seed.value)

    def describe(self, key) -> str:
        rules, players, holes, seed = key
        return (f"card tiers under {rules_words(rules, (*TIER_OPTIONS, 'flip_mode'))} and play statistics from "
                f"{holes:,} simulated holes. Players: {', '.join(players)}; seed {seed}")

    def compute(self, key) -> dict:
        rules, players, holes, seed = key
        stats = rank_stats(players, holes, rules, seed)
        return {"tiers": tier_table(rules), "rank_stats": stats}

    def render(self, result) -> None:
        import plotly.graph_objects as go

        tiers, stats = named(result["tiers"]), named(result["rank_stats"])
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
        self.findings.value = findings_html(stats, self.describe(self.shown))
        moved = tiers[tiers["moved"]]
        note = ("<p><b>Moved by the house rules:</b> " + ", ".join(
            f"{r.label}: {r.standard_tier} \u2192 {r.tier}" for r in moved.itertuples()) + "</p>") if len(moved) else ""
        self.table.value = note + table_html(
            stats[["label", "value", "tier", "kept_to_end", "discard_rate", "mean_points"]]
            .rename(columns={"label": "rank"}), "{:.2f}")


KEEPERS = ("Excellent", "Good", "Decent")


def named(frame):
    """``frame`` with its ``label`` column in words (``ten``, ``king``, ``one-eyed jacks``), as a learner reads it."""
    return frame.assign(label=[plain.rank_label(label) for label in frame["label"]])


def _span(values, scale: float = 1.0, fmt: str = "{:.0f}") -> str | None:
    """``a-b`` (or ``a`` when they print alike) of the values times ``scale``; None when none is known."""
    known = [v * scale for v in values if v == v]  # NaN (a rank never drawn, say) is left out
    if not known:
        return None
    low, high = fmt.format(min(known)), fmt.format(max(known))
    return low if low == high else f"{low}-{high}"


def _names(labels) -> str:
    labels = list(labels)
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def findings(stats, what: str) -> list[str]:
    """What the numbers of ``stats`` (``rank_stats``: one row per rank, its tier and what play did
    with it, labels in words: ``named``) say, in sentences; ``what`` names the computation they come
    from (``describe``)."""
    said = [f"From {what}:"]
    keep = stats[stats["tier"].isin(KEEPERS)]
    bad, terrible = stats[stats["tier"] == "Bad"], stats[stats["tier"] == "Terrible"]
    kept, rarely = _span(keep["kept_to_end"], 100), _span([keep["discard_rate"].max()], 100, "{:.1f}")
    if len(keep) and kept and rarely:
        drawn = ("never discarded when drawn" if rarely == "0.0"
                 else f"discarded when drawn at most {rarely}% of the time")
        said.append(f"The tiers are how the CPU players behave. {_names(keep['label'])} (Excellent to Decent) are "
                    f"kept to the end {kept}% of the time. They are {drawn}.")
        parts = [f"{_names(part['label'])} ({name}) {span}%" for part, name in ((bad, "Bad"), (terrible, "Terrible"))
                 if len(part) and (span := _span(part["discard_rate"], 100))]
        if parts:
            said.append("Discarded when drawn: " + "; ".join(parts) + ".")
    final = terrible[terrible["final"] > 0]
    if len(final):
        dealt = ((final["final"] - final["placed"]) / final["final"]).min()
        said.append(f"Terrible cards still end up in hands. Of the {_names(final['label'])} in a grid, "
                    f"{_span(final['kept_to_end'], 100)}% are still there when the hole is scored. Each costs "
                    f"{_span(final['mean_points'], fmt='{:.1f}')} points on average. They were dealt, not chosen: "
                    f"only {_span(final['placed'])} of each were ever swapped in. So at least "
                    f"{100 * max(dealt, 0):.0f}% of those left at the end were dealt and never replaced.")
    for row in stats[(stats["value"] < 0) & (stats["final"] > 0)].itertuples():
        if row.mean_points > row.value + 0.005:
            said.append(f"{plain.with_article(row.label).capitalize()} is worth {row.mean_points:.2f} points on "
                        f"average at the end, not {row.value}. A pair of them scores 0, so pairing them throws "
                        "their points away.")
    return said


def findings_html(stats, what: str) -> str:
    """``findings`` as the explorer shows them under its charts: "What the numbers say"."""
    head, *points = findings(stats, what)
    items = "".join(f"<li>{escape(p)}</li>" for p in points)
    return (f"<div style='max-width:1100px;font-size:13px;line-height:1.4'><b>What the numbers say</b> "
            f"<span style='color:#555'>{escape(head)}</span><ul style='margin:4px 0'>{items}</ul></div>")
