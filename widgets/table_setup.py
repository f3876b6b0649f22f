"""The new-game panel of the golf table: how many opponents, which personalities, your
seat, an optional seed, and every rule option (``RulesForm``, each with its explanation)."""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as w

from golflab import Rules
from golflab.ai import CPU_NAMES, PROFILES, get_profile, personality_names

from .rules_form import RulesForm

HUMAN_NAME = "You"
MAX_OPPONENTS = 5
MAX_SEED = 2**63 - 1  # a random game's seed is below 2**63: any seed from the move log can be typed back


@dataclass(frozen=True)
class TableSettings:
    """What a new game needs: the CPU personalities in seat order, the rules, the seed
    (None: a random one) and the learner's seat."""

    opponents: tuple[str, ...]
    rules: Rules
    seed: int | None
    human_seat: int

    @property
    def players(self) -> list[str]:
        """Seat names: the personalities with ``You`` inserted at the learner's seat."""
        names = list(self.opponents)
        names.insert(self.human_seat, HUMAN_NAME)
        return names


def check_opponents(names) -> tuple[str, ...]:
    """Validate CPU opponents: 1-5 distinct names from ``golflab.ai.CPU_NAMES`` (the eight
    personalities and the Expert)."""
    return tuple(personality_names([names] if isinstance(names, str) else names, count=(1, MAX_OPPONENTS),
                                   distinct=True, what="CPU opponents"))


def default_opponents(count: int) -> tuple[str, ...]:
    """The first ``count`` personalities in ``PROFILES`` order (deterministic)."""
    return tuple(list(PROFILES)[:count])


def _label(name: str) -> str:
    return f"{name} \u2014 {get_profile(name).style}"


class NewGamePanel(w.VBox):
    """Controls for the next game. ``panel.settings()`` validates them into TableSettings."""

    def __init__(self, settings: TableSettings) -> None:
        options = [(_label(n), n) for n in CPU_NAMES]
        self.count = w.Dropdown(options=list(range(1, MAX_OPPONENTS + 1)), description="Opponents",
                                layout=w.Layout(width="190px"))
        self.personalities = [w.Dropdown(options=options, layout=w.Layout(width="290px"))
                              for _ in range(MAX_OPPONENTS)]
        self.seat = w.Dropdown(description="Your seat", layout=w.Layout(width="190px"))
        self.seed = w.Text(description="Seed", placeholder="blank = random", layout=w.Layout(width="220px"))
        self.rules_form = RulesForm(settings.rules)
        self.new_game_button = w.Button(description="New game with these settings", icon="refresh",
                                        button_style="primary", layout=w.Layout(width="auto"),
                                        tooltip="Deal a new game with the players and rules above")
        self.new_game_button.add_class("golf-new-game-here")
        self.count.observe(lambda _: self._sync(), names="value")
        note = w.HTML("<span style='color:#555;font-size:12px'>Seat 1 starts the first hole; the start moves one "
                      "seat on every hole. The same seed deals the same cards.</span>")
        super().__init__([
            w.HTML("<b>Players</b>"),
            w.HBox([self.count, self.seat, self.seed]), note,
            w.VBox(self.personalities),
            w.HTML("<b>Rules</b>"), self.rules_form,
            self.new_game_button,
        ])
        self.show(settings)

    def _sync(self) -> None:
        n = self.count.value
        for i, dd in enumerate(self.personalities):
            dd.layout.display = None if i < n else "none"
            dd.description = f"CPU {i + 1}"
        seat = min(self.seat.value or 0, n)
        self.seat.options = [(f"{i + 1} of {n + 1}", i) for i in range(n + 1)]
        self.seat.value = seat

    def show(self, settings: TableSettings) -> None:
        """Put ``settings`` into the controls."""
        self.count.value = len(settings.opponents)
        names = list(settings.opponents) + [n for n in CPU_NAMES if n not in settings.opponents]
        for dd, name in zip(self.personalities, names):
            dd.value = name
        self._sync()
        self.seat.value = settings.human_seat
        self.seed.value = "" if settings.seed is None else str(settings.seed)
        self.rules_form.set_rules(settings.rules)

    def settings(self) -> TableSettings:
        """The validated settings (a ValueError saying what is wrong otherwise)."""
        n = self.count.value
        opponents = check_opponents([dd.value for dd in self.personalities[:n]])
        return TableSettings(opponents, self.rules_form.rules, parse_seed(self.seed.value), self.seat.value)


def parse_seed(text: str) -> int | None:
    """The seed typed in the panel: digits 0-9 only (None when blank), else a plain ValueError."""
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_SEED:
        raise ValueError(f"the seed must be a whole number from 0 to {MAX_SEED} or blank (random), got {text!r}")
    return int(text)
