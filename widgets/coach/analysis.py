"""The analysis board: a teacher types or pastes a position (golflab's position notation,
``docs/position-notation.md``), sees it drawn as the replay draws a table, and the coach values
every option of the seat to move, as at the table with the coach (``golflab.coach.hint``).

``AnalysisBoard(text)`` opens ``text``; ``AnalysisBoard()`` opens the position on the app's
address (``analysis.ipynb?position=<text, URL-encoded>``: ``requested_position``), else
``EXAMPLE``. Hooks: ``golf-position-text`` (the text box), ``golf-position-show`` (the button
that shows what is typed), ``golf-position-problem`` (what is wrong with it, said in full),
``golf-analysis-board`` (the table), ``golf-analysis-values`` (the coach's values),
``golf-position-link`` (the link that opens this position). A refused text changes nothing but
the problem line: the board, the values and the link stay those of the last good position.

Helpers put themselves in its slots: a ``PositionEditor`` (``analysis_editor``) in
``editor_slot``, a ``SaveToSet`` (``analysis_save``: a teacher's puzzle sets) in ``save_slot``, a
``PlayOn`` (``analysis_play``) in ``play_slot``; while a game is played on from
the position, ``set_play(view)`` shows that game's view instead of the analysis.
"""

from __future__ import annotations

import dataclasses
import logging
from html import escape
from typing import Callable

import ipywidgets as w

from golflab import Position
from golflab.coach import hint

from ..account.session import requested
from ..position_links import LINK_CLASS, URL_PARAM, link_html
from ..table.view import TABLE_CSS
from .panel import COACH_CSS, hint_html
from .replay import REPLAY_CSS, board_html, later

log = logging.getLogger(__name__)

#: The position shown when none is asked for: seat 1 has drawn the 8 of diamonds.
EXAMPLE = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D"

ANALYSIS_CSS = """
<style>
.golf-analysis textarea{font:15px ui-monospace,monospace}
.golf-position-problem,.golf-play-problem,.golf-step-problem{color:#7f0000;font-size:14px}
.golf-position-problem:empty,.golf-play-problem:empty,.golf-step-problem:empty{display:none}
.golf-analysis-values,.golf-step-values{background:#fff;border:1px solid #c5cae9;border-radius:10px;padding:6px 12px;
 margin:6px 0}
.golf-analysis-values h2,.golf-step-values h2{margin:2px 0 4px 0;font-size:15px}
.golf-position-link{font-size:13px;word-break:break-all}
.golf-step-status{font-weight:600;font-size:15px;margin:4px 0}
.golf-play-heading{font-size:15px;margin:4px 0}
</style>
"""


def requested_position(environ=None) -> "str | None":
    """The position asked for on the app's address (``?position=...``), or None."""
    return requested(URL_PARAM, environ)


def coach_values_html(position: Position) -> str:
    """The coach's value of every option of the seat to move at ``position`` (``hint``, as at the
    table with the coach), or a sentence saying why there is nothing to value."""
    view = coach_view(position)
    obs = view.observation() if view is not None else None
    if obs is None:
        said = "The coach cannot see the card the player to move drew: show the position as that player sees it."
    elif not obs.legal_actions:
        said = "The hole is over: there is nothing to decide."
    else:
        try:
            return "<h2>The coach's values</h2>" + hint_html(hint(obs), obs)  # under the page's h1
        except Exception as exc:  # said on the page, never lost in the kernel's log
            log.exception("valuing %s", position)
            said = f"The coach could not value this position ({exc})."
    return escape(said)


def coach_view(position: Position) -> "Position | None":
    """The position as the seat to move sees it (the coach advises that seat), or None when
    that seat's view is not known (the position is another seat's, and the drawn card unseen)."""
    if position.seat == position.mover:
        return position
    if position.stage == "holds":
        return None
    return dataclasses.replace(position, seat=position.mover)


class AnalysisBoard(w.VBox):
    """Type or paste a position, see it drawn, and the coach's value of every option."""

    def __init__(self, position: "Position | str | None" = None) -> None:
        text = str(position) if position is not None else (requested_position() or EXAMPLE)
        self.position: Position | None = None
        self.text = w.Textarea(value=text, rows=2, layout=w.Layout(width="100%"),
                               placeholder="KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D")
        self.text.add_class("golf-position-text")
        self.show_button = w.Button(description="Show this position", icon="eye", button_style="primary",
                                    layout=w.Layout(width="auto"), tooltip="Draw the position and value its options")
        self.show_button.add_class("golf-position-show")
        self.show_button.on_click(lambda _b: self.show(self.text.value))
        self.problem = w.HTML()
        self.problem.add_class("golf-position-problem")
        self.board = w.HTML()
        self.board.add_class("golf-analysis-board")
        self.values = w.HTML()
        self.values.add_class("golf-analysis-values")
        self.link = w.HTML()
        self.link.add_class(LINK_CLASS)
        #: Where a ``PositionEditor`` (``analysis_editor``) puts itself, below the text box.
        self.editor_slot = w.VBox()
        #: Where a ``SaveToSet`` (``analysis_save``) puts itself, below the link.
        self.save_slot = w.VBox()
        #: Where a ``PlayOn`` (``analysis_play``) puts itself, below that.
        self.play_slot = w.VBox()
        #: Called with each position shown (an editor follows what is typed).
        self.on_show: list[Callable[[Position], None]] = []
        self.analysis = w.VBox([self.text, w.HBox([self.show_button]), self.editor_slot, self.problem, self.board,
                                self.values, self.link, self.save_slot, self.play_slot])
        self.play_area = w.VBox(layout=w.Layout(display="none"))
        super().__init__([w.HTML(TABLE_CSS + REPLAY_CSS + COACH_CSS + ANALYSIS_CSS), self.analysis, self.play_area])
        self.add_class("golf-analysis")
        self.add_class("golf-replay")
        self.add_class("golf-table")  # the table's look for cards and seats
        self.show(text)

    def show(self, text: str) -> bool:
        """Show the position ``text`` and start valuing it; False (and what is wrong, in the
        problem line) when it is not a possible position, everything else kept."""
        try:
            position = Position.parse(text)
        except ValueError as exc:
            kept = " The board still shows the last possible position." if self.position is not None else ""
            self.problem.value = escape(str(exc) + kept)
            return False
        self.problem.value = ""
        self.position = position
        self.text.value = str(position)
        self.board.value = board_html(position.game(0), position.seat)
        self.link.value = link_html(position)
        self.values.value = '<span class="golf-thinking">The coach is thinking\u2026</span>'
        for callback in self.on_show:
            callback(position)
        later(lambda: self._value(position))
        return True

    def say_problem(self, text: str) -> None:
        """Say ``text`` in the problem line ("" clears it); nothing else changes."""
        self.problem.value = escape(text)

    def set_play(self, view: "w.Widget | None") -> None:
        """Show ``view`` (a game played on from the position) instead of the analysis; None: the
        analysis again, as it was left."""
        self.play_area.children = () if view is None else (view,)
        self.play_area.layout.display = "none" if view is None else None
        self.analysis.layout.display = None if view is None else "none"

    @property
    def playing(self) -> bool:
        """True while a game played on from the position shows instead of the analysis."""
        return bool(self.play_area.children)

    def _value(self, position: Position) -> None:
        if self.position is not position:  # another position was shown meanwhile
            return
        html = coach_values_html(position)
        if self.position is position:
            self.values.value = html
