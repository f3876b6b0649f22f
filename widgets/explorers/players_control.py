"""Which CPU players sit at an explorer's table: ``players_control`` and ``check_players``."""

from __future__ import annotations

from typing import Sequence

import ipywidgets as w

from ..a11y import name_control

#: The table an explorer seats unless told otherwise.
DEFAULT_TABLE = ("Sofia", "Maya", "Priya", "Marcus")


def personality_names() -> tuple[str, ...]:
    """The CPU personalities, in the order of ``golflab.ai.PROFILES`` (an explorer's default)."""
    from golflab.ai import PROFILES

    return tuple(PROFILES)


def cpu_names() -> tuple[str, ...]:
    """Every CPU player an explorer can seat: the personalities, then the Expert (slower: it
    plays the coach's rollouts), as ``golflab.ai.CPU_NAMES``."""
    from golflab.ai import CPU_NAMES

    return tuple(CPU_NAMES)


class PlayersControl(w.HBox):
    """Which CPU players take part: removable tags (``tags``, a ``TagsInput``, CSS class
    ``explorer-players``) and beside them an "Add a personality" menu (``add``, CSS class
    ``explorer-add-player``) listing the ones not chosen (the Expert too), so a removed one is
    easy to bring back. ``value`` is the chosen names in order; ``observe_value`` watches it."""

    PROMPT = "Add a personality\u2026"

    def __init__(self, default: Sequence[str]) -> None:
        self.tags = w.TagsInput(value=list(default), allowed_tags=list(cpu_names()), allow_duplicates=False,
                                layout=w.Layout(width="auto", max_width="460px"))
        self.tags.add_class("explorer-players")
        name_control(self.tags, "players at the table")
        self.add = name_control(w.Dropdown(layout=w.Layout(width="190px")), "add a player")
        self.add.add_class("explorer-add-player")
        self._offer()
        self.tags.observe(lambda _c: self._offer(), names="value")
        self.add.observe(self._picked, names="value")
        super().__init__([self.tags, self.add], layout=w.Layout(align_items="center", flex_flow="row wrap"))

    @property
    def value(self) -> tuple[str, ...]:
        return tuple(self.tags.value)

    @value.setter
    def value(self, names: Sequence[str]) -> None:
        self.tags.value = list(names)

    def observe_value(self, handler) -> None:
        """Call ``handler(change)`` whenever the chosen names change."""
        self.tags.observe(handler, names="value")

    def _offer(self) -> None:
        missing = [n for n in cpu_names() if n not in self.tags.value]
        self.add.options = [(self.PROMPT if missing else "All personalities chosen", "")] + [(n, n) for n in missing]
        self.add.value = ""
        self.add.disabled = not missing

    def _picked(self, change) -> None:
        if change["new"]:
            self.tags.value = [*self.tags.value, change["new"]]


def players_control(default: Sequence[str] = DEFAULT_TABLE) -> PlayersControl:
    """Which CPU personalities sit at the table (names in seat order), with an add-back menu."""
    return PlayersControl(default)


def check_players(names: Sequence[str]) -> tuple[str, ...]:
    """The seat list as a tuple, or a ValueError saying what is allowed."""
    from golflab.ai import CPU_NAMES_TEXT

    names = tuple(names)
    if not 2 <= len(names) <= 6:
        raise ValueError(f"choose 2 to 6 players (got {len(names)}). Choose them from {CPU_NAMES_TEXT}")
    return names
