"""Pairing EV: a calculator (set a grid and a drawn card, see the exact expected change of
each placement and of discarding) and what completing a pair is worth by rank and phase
in simulated play, with the exact predictions checked against what really happened."""

from __future__ import annotations

from typing import Hashable

import ipywidgets as w

from golflab import Card, Rules
from golflab import words as plain
from golflab.strategy import (
    CHART_RANKS,
    calculator_observation,
    column_chances,
    pairing_study,
    pairing_table,
    partner_table,
    placement_table,
)
from golflab.words import rules_words

from ..a11y import name_control
from .cache import LRUCache
from .charts import figure
from .explorer import Explorer
from .players_control import DEFAULT_TABLE, check_players, players_control
from .study_rules import study_form, study_options
from .tables import table_html

FACE_DOWN = "?"
DEFAULT_GRID = ("7", FACE_DOWN, "K", FACE_DOWN, "9", FACE_DOWN)
#: What the calculator and the study depend on: card values, pair points and hand bonuses.
STUDIES = ("card_values", "pairs", "hand_bonus")
#: The options that change them, from the declaration (``golflab.OPTIONS``).
RULE_OPTIONS = study_options(*STUDIES)
#: Rule rows shown above the charts; the others fold into "More house rules".
SHOWN_RULES = 3
PHASE_COLORS = {"early": "#92c5de", "mid": "#4393c3", "late": "#053061"}
CHANCE_HEADINGS = {"p_pair_now": "a pair now", "p_within_3": "within 3 cards", "p_within_6": "within 6 cards"}


def _slot(value: str, label: str) -> w.Dropdown:
    options = [("face down", FACE_DOWN)] + [(plain.rank_name(r), r) for r in CHART_RANKS]
    return w.Dropdown(options=options, value=value, description=label, layout=w.Layout(width="205px"),
                      style={"description_width": "106px"})


def placement_words(action: str) -> str:
    """A placement as the chart names it: ``swap 3`` -> ``bottom left``; ``discard``."""
    kind, _, pos = action.partition(" ")
    return plain.position(int(pos)) if kind == "swap" else kind


def card_words(code: str) -> str:
    """A card of the column table in words: ``7S`` -> ``7 of spades``, ``?`` -> ``face down``."""
    return "face down" if code == FACE_DOWN else plain.card_name(Card.parse(code), suit=True)


def chances_in_words(frame):
    """``column_chances`` as a learner reads it: columns named as the board names them, cards by name."""
    return frame.assign(column=[plain.COLUMNS[int(c.split("/")[0])] for c in frame["column"]],
                        top=[card_words(c) for c in frame["top"]], bottom=[card_words(c) for c in frame["bottom"]]
                        ).rename(columns=lambda c: CHANCE_HEADINGS.get(c, c))


class PairingExplorer(Explorer):
    """The pairing calculator and the pairing-by-phase study.

    ``grid`` is six ranks (``"?"`` for face down), ``drawn`` the drawn rank. The
    calculator's deck is the one for ``len(players)`` players under the chosen rules.
    """

    TITLE = "Pairing EV"
    SAMPLE_UNIT = "holes"
    SAMPLE_OPTIONS = (180, 900, 4500)

    def __init__(self, rules: Rules | None = None, players=None, grid=DEFAULT_GRID, drawn: str = "7",
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.study_cache = LRUCache(self.CACHE_SIZE)
        self.rules = study_form(rules, RULE_OPTIONS, SHOWN_RULES)
        self.rules.on_change(lambda _r: self.changed())
        self.players = players_control(players or DEFAULT_TABLE)
        self.watch(self.players)
        self.slots = [_slot(v, plain.position(i)) for i, v in enumerate(grid)]
        for i, s in enumerate(self.slots):
            s.add_class(f"pairing-slot-{i}")
            self.watch(s)
        self.drawn = _slot(drawn, "")
        self.drawn.options = self.drawn.options[1:]
        self.drawn.value = drawn
        self.drawn.add_class("pairing-drawn")
        name_control(self.drawn, "drawn card")  # "Drawn card" shows beside it, outside its label
        self.watch(self.drawn)
        self.ev_fig = figure(520, 300, title="Expected change of your hand score (lower is better)",
                             xaxis_title="placement", yaxis_title="points")
        self.chances = w.HTML()
        self.chances.add_class("explorer-result")
        self.gain_fig = figure(520, 320, title="Points saved by pairing vs the best alternative, by phase",
                               xaxis_title="rank of the pair", yaxis_title="points saved", barmode="group")
        self.check_fig = figure(400, 320, title="Check: predicted vs realised change of pairing",
                                xaxis_title="predicted (exact EV)", yaxis_title="realised (mean)")
        self.partner_fig = figure(440, 320, title="Check: chance a hidden partner already matches",
                                  xaxis_title="rank", yaxis=dict(title="probability", tickformat=".1%"),
                                  barmode="group")
        grid_box = w.VBox([w.HBox(self.slots[:3]), w.HBox(self.slots[3:]),
                           w.HBox([w.HTML("<b>Drawn card</b>&nbsp;"), self.drawn])])
        self.children = [
            self.header("Set your grid (face-up ranks, or face down) and the card you drew. The first chart gives "
                        "the expected change of your hand score for each placement. The best is green and starred; "
                        "one that completes a pair is purple. The charts below it are the simulated study."),
            w.HBox([self.rules]),
            self.controls_row(w.HTML("<b>Players</b>"), self.players),
            self.status,
            w.HBox([w.VBox([grid_box, self.chances], layout=w.Layout(width="630px")), self.ev_fig],
                   layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.gain_fig, self.check_fig, self.partner_fig], layout=w.Layout(flex_flow="row wrap")),
            self.downloads,
        ]
        self.start()

    @property
    def grid(self) -> list:
        return [None if s.value == FACE_DOWN else s.value for s in self.slots]

    def study_key(self, key) -> tuple:
        return key[:4]

    def inputs(self) -> Hashable:
        return (self.rules.rules, check_players(self.players.value), self.samples.value, self.seed.value,
                tuple(self.grid), self.drawn.value)

    def describe(self, key) -> str:
        rules, players, holes, seed, grid, drawn = key
        return (f"where to put a drawn {plain.rank_name(drawn)}, and the pairing study of {holes:,} simulated holes "
                f"under {rules_words(rules, RULE_OPTIONS)}. Players: {', '.join(players)}; seed {seed}")

    def compute(self, key) -> dict:
        rules, players, holes, seed, grid, drawn = key
        obs = calculator_observation(grid, drawn, rules, len(players))
        placements = placement_table(obs)
        chances = column_chances(obs)

        def study():
            situations, partners = pairing_study(players, holes, rules, seed)
            return pairing_table(situations), partner_table(partners)

        by_phase, partner = self.study_cache.get(self.study_key(key), study)
        return {"placements": placements, "column_chances": chances, "pairing_by_phase": by_phase,
                "partner_check": partner}

    def render(self, result) -> None:
        import plotly.graph_objects as go

        pl = result["placements"]
        colors = ["#1b7837" if b else ("#762a83" if p else "#999") for b, p in zip(pl["best"], pl["completes_pair"])]
        labels = [placement_words(a) + (" (pair)" if p else "") for a, p in zip(pl["action"], pl["completes_pair"])]
        text = [f"{v:+.2f}" + (" \u2605 best" if b else "") for v, b in zip(pl["ev"], pl["best"])]
        self.ev_fig.draw([go.Bar(x=labels, y=pl["ev"], marker_color=colors, text=text, textposition="outside",
                                 cliponaxis=False, name="expected change", showlegend=False)])
        card = plain.rank_name(self.shown[5]) if self.shown else "card"
        best = " or ".join(f"put the {card} at {placement_words(a)}" if a.startswith("swap") else f"discard the {card}"
                           for a in pl.loc[pl["best"], "action"])
        self.chances.value = (f"<p><b>Best move: {best}</b> (expected change "
                              f"{pl['ev'].min():+.2f} points). Chance of a pair, per column:</p>"
                              + table_html(chances_in_words(result["column_chances"]), "{:.1%}"))
        by_phase = result["pairing_by_phase"]
        traces = []
        for phase, color in PHASE_COLORS.items():
            part = by_phase[by_phase["phase"] == phase]
            traces.append(go.Bar(x=[plain.rank_name(r) for r in part["rank"]], y=part["gain"], name=phase,
                                 marker_color=color,
                                 customdata=part["situations"],
                                 hovertemplate="%{x}, " + phase + ": %{y:.2f} points (%{customdata} cases)"
                                 "<extra></extra>"))
        self.gain_fig.draw(traces, xaxis=dict(categoryorder="array",
                                              categoryarray=[plain.rank_name(r) for r in CHART_RANKS]))
        lo = float(min(by_phase["pair_ev"].min(), by_phase["realised"].min(), 0)) if len(by_phase) else -1
        hi = float(max(by_phase["pair_ev"].max(), by_phase["realised"].max(), 0)) if len(by_phase) else 1
        self.check_fig.draw([
            go.Scatter(x=[lo, hi], y=[lo, hi], mode="lines", line=dict(dash="dot", color="#999"), name="equal"),
            go.Scatter(x=by_phase["pair_ev"], y=by_phase["realised"], mode="markers", name="rank \u00d7 phase",
                       text=[f"{plain.rank_name(r)}, {p}" for r, p in zip(by_phase["rank"], by_phase["phase"])],
                       marker=dict(size=(by_phase["situations"] ** 0.5 * 2).clip(5, 30), color="#4393c3")),
        ])
        partner = result["partner_check"]
        self.partner_fig.draw([
            go.Bar(x=[plain.rank_name(r) for r in partner["rank"]], y=partner["predicted"], name="predicted",
                   marker_color="#4393c3"),
            go.Bar(x=[plain.rank_name(r) for r in partner["rank"]], y=partner["observed"], name="observed",
                   marker_color="#f4a582"),
        ])
