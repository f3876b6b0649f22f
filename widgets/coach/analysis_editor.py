"""Setting a position up by clicking, on the analysis board (``widgets.analysis``).

``PositionEditor(board)`` puts itself in ``board.editor_slot`` (a closed *Set up by clicking*
section) and starts from the position the board shows. Pick a card (``CardPicker``: type it or
choose rank and suit) and how it lies (``golf-edit-mode``: face up, face down and known, face
down and unknown), then click a place (``golf-edit-slot-S-I``: seat S, position I). The number
of players (``golf-edit-players``), the discard pile (``golf-edit-discard``, top last), the seat
to move (``golf-edit-mover``), what it is doing (``golf-edit-stage``), the card it holds
(``golf-edit-held``), who went out (``golf-edit-finisher``) and the deck (``golf-edit-deck``,
or *the rest*, ``golf-edit-fit``, counting what the decks have left) are set beside them, and the
house rules under *House rules* (``golf-edit-rules``: the table's ``RulesForm``, one control a rule,
``golf-rule-<option>``).

Every change writes the position's text (``golflab.position.position_text``) into the board's
box and shows it: the board draws and values it, or says in its problem line what is
impossible (the editor keeps what was clicked, so the next click can fix it). A position typed
in the box and shown is loaded back into the editor.
"""

from __future__ import annotations

import ipywidgets as w

from golflab import Card, Position, Rules, build_deck
from golflab.position import STAGES, position_text

from ..lessons.card_picker import CardPicker
from ..table.rules_form import RulesForm
from .analysis import AnalysisBoard
from .controls import hooked

MODES = ("face up", "face down, known", "face down, unknown")
MAX_SEATS = 6
NOBODY = -1  # "Went out": nobody (a menu shows no label for None)


def slot_token(card: str, mode: str) -> str:
    """A place as the notation writes it: ``KH``, ``(KH)`` (face down, known) or ``?``."""
    return card if mode == MODES[0] else f"({card})" if mode == MODES[1] else "?"


class PositionEditor(w.VBox):
    """Set the board's position up by clicking (see the module's words)."""

    def __init__(self, board: AnalysisBoard) -> None:
        self.board = board
        self.picker = CardPicker("KH")
        self.mode = hooked(w.ToggleButtons(options=MODES, value=MODES[0], description="Lay it"), "golf-edit-mode")
        self.players = hooked(w.Dropdown(options=list(range(2, MAX_SEATS + 1)), description="Players"),
                               "golf-edit-players")
        self.slots = [[hooked(w.Button(layout=w.Layout(width="56px", height="40px")), f"golf-edit-slot-{s}-{i}")
                       for i in range(6)] for s in range(MAX_SEATS)]
        for s, row in enumerate(self.slots):
            for i, button in enumerate(row):
                button.on_click(lambda _b, s=s, i=i: self.place(s, i))
        self.seat_boxes = [w.VBox([w.HTML(f"<b>Seat {s}</b>"), w.GridBox(row, layout=w.Layout(
            grid_template_columns="repeat(3, 60px)"))], layout=w.Layout(margin="0 14px 6px 0"))
            for s, row in enumerate(self.slots)]
        self.discard = hooked(w.Text(description="Discard pile", placeholder="top last, e.g. 9C 4S"),
                               "golf-edit-discard")
        self.mover = hooked(w.Dropdown(description="To move"), "golf-edit-mover")
        self.stage = hooked(w.Dropdown(options=[(words, stage) for stage, words in STAGES.items()],
                                        description="Doing"), "golf-edit-stage")
        self.held = hooked(w.Text(description="Holding", placeholder="the card drawn or taken"), "golf-edit-held")
        self.finisher = hooked(w.Dropdown(description="Went out"), "golf-edit-finisher")
        self.deck = hooked(w.BoundedIntText(min=0, max=3 * 54, description="Deck"), "golf-edit-deck")
        self.fit = hooked(w.Checkbox(value=True, description="the rest", indent=False), "golf-edit-fit")
        self.rules_form = RulesForm(Rules())
        rules_section = hooked(w.Accordion([self.rules_form], titles=("House rules",), selected_index=None),
                                "golf-edit-rules")
        self.tokens: list[list[str]] = [["?"] * 6 for _ in range(MAX_SEATS)]
        self.kept: Position | None = None  # the last position shown: its hole, totals and rules stay
        self._loading = False
        seats = w.HBox(self.seat_boxes, layout=w.Layout(flex_flow="row wrap"))
        body = w.VBox([w.HBox([self.picker, self.mode]), seats, self.players, self.discard,
                       w.HBox([self.mover, self.stage, self.held]), w.HBox([self.finisher, self.deck, self.fit]),
                       rules_section])
        section = w.Accordion([body], titles=("Set up by clicking",), selected_index=None)
        section.add_class("golf-edit")
        super().__init__([section])
        for control in (self.players, self.discard, self.mover, self.stage, self.held, self.finisher, self.deck,
                        self.fit, *self.rules_form.controls.values()):
            control.observe(lambda _c: self.write(), names="value")
        board.on_show.append(self.load)
        board.editor_slot.children = (self,)
        if board.position is not None:
            self.load(board.position)

    def place(self, seat: int, pos: int) -> None:
        """Lay the picked card (or a face-down unknown one) at ``seat``'s position ``pos``."""
        self.tokens[seat][pos] = slot_token(self.picker.value, self.mode.value)
        self.slots[seat][pos].description = self.tokens[seat][pos]
        self.write()

    def load(self, position: Position) -> None:
        """Show ``position`` in the editor's controls (what the board shows)."""
        self._loading = True
        try:
            self.kept = position
            n = len(position.cards)
            for s in range(MAX_SEATS):
                self.tokens[s] = ([str(c) if u else ("?" if c is None else f"({c})")
                                   for c, u in zip(position.cards[s], position.up[s])] if s < n else ["?"] * 6)
            self.players.value = n
            self._seats(n)
            self.discard.value = " ".join(map(str, position.discard))
            self.mover.value = position.mover
            self.stage.value = position.stage
            self.held.value = str(position.held) if position.held is not None else ""
            self.finisher.value = NOBODY if position.finisher is None else position.finisher
            self.deck.value = position.deck
            self.rules_form.set_rules(position.rules)
            self.fit.value = position.deck == self._rest(n, len(position.discard), position.stage)
        finally:
            self._loading = False

    def text(self) -> str:
        """The position the controls set up, as text (not checked: the board says what is wrong); a
        ValueError when the house rules chosen are not allowed together."""
        n = self.players.value
        cards = [[None if t == "?" else Card.parse(t.strip("()")) for t in self.tokens[s]] for s in range(n)]
        up = [[not t.startswith(("?", "(")) for t in self.tokens[s]] for s in range(n)]
        discard = self.discard.value.split()
        stage = self.stage.value
        deck = self._rest(n, len(discard), stage) if self.fit.value else self.deck.value
        held = self.held.value.strip() or "?"
        kept = self.kept
        return position_text(cards, up, discard, deck, self.mover.value, stage,
                             held if stage in ("holds", "took") else None,
                             None if self.finisher.value == NOBODY else self.finisher.value,
                             hole=kept.hole if kept else 1,
                             totals=(kept.totals if kept and len(kept.totals) == n else (0,) * n),
                             rules=self.rules_form.rules)

    def write(self) -> None:
        """Write the set-up position into the board's box and show it."""
        if self._loading:
            return
        self._seats(self.players.value)
        self.deck.disabled = self.fit.value
        try:
            text = self.text()
        except ValueError as exc:  # the rules form says it too, beside its controls
            self.board.say_problem(f"These house rules do not go together: {exc}. The board still shows the "
                                   "last possible position.")
            return
        self.board.text.value = text
        self.board.show(text)

    def _seats(self, n: int) -> None:
        """Show ``n`` seats' places, and the seats to choose from (keeping the choices that stay)."""
        was, self._loading = self._loading, True  # new options reset a menu's value: no write meanwhile
        try:
            for s, box in enumerate(self.seat_boxes):
                box.layout.display = None if s < n else "none"
                for i, button in enumerate(self.slots[s]):
                    button.description = self.tokens[s][i]
            if len(self.mover.options) != n:
                mover, finisher = self.mover.value, self.finisher.value
                seats = [(f"seat {s}", s) for s in range(n)]
                self.mover.options = seats
                self.finisher.options = [("nobody", NOBODY), *seats]
                self.mover.value = mover if mover is not None and mover < n else 0
                self.finisher.value = finisher if isinstance(finisher, int) and finisher < n else NOBODY
        finally:
            self._loading = was

    def _rest(self, n: int, discards: int, stage: str) -> int:
        """The deck that makes the cards add up: what the decks hold beyond the grids, the discard
        pile and a held card."""
        try:
            rules = self.rules_form.rules
        except ValueError:  # not allowed together: said when the position is written
            rules = self.kept.rules if self.kept else Rules()
        total = len(build_deck(rules.decks_for(n), rules.jokers))
        return max(0, total - 6 * n - discards - (stage in ("holds", "took")))
