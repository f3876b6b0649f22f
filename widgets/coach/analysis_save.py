"""Save the analysis board's position as a puzzle of a class's puzzle set (a teacher's own puzzles).

``SaveToSet(board)`` puts itself in the board's ``save_slot``. A signed-in teacher chooses one of
their classes, a set (an existing one, or a new name), the move they want and a title and note;
*Check and save* asks the coach about that move (``golflab.puzzles.check_answer``, valued as the
puzzle will quote it): the best move is saved at once; another is saved only after the teacher reads
by how much it is worse and presses *Save anyway*. Anyone else sees nothing of it. Hooks:
``golf-set-saver``, ``golf-set-class``, ``golf-set-name``, ``golf-set-move``, ``golf-set-title``,
``golf-set-note``, ``golf-set-save``, ``golf-set-save-anyway``, ``golf-set-said``.
"""

from __future__ import annotations

import logging
from html import escape

import ipywidgets as w

from golflab import Position
from golflab.puzzles import AnswerCheck, check_answer, describe

from ..a11y import name_control
from ..account.session import PageSession, page_session
from ..hooks import hooked
from .analysis import AnalysisBoard, coach_view

log = logging.getLogger(__name__)
#: Why the check's points may differ from the board's: the puzzle is valued with more rollouts.
PRECISION_NOTE = ("These are the values the puzzle will show, from more of the coach's rollouts than the quick "
                  "values above, so they may differ from them a little.")


class SaveToSet(w.VBox):
    """The teacher's *Save as a puzzle for my class* panel under an ``AnalysisBoard``."""

    def __init__(self, board: AnalysisBoard, session: "PageSession | None" = None) -> None:
        super().__init__()
        self.board = board
        self.session = page_session() if session is None else session
        self.checked: "tuple[str, str, AnswerCheck] | None" = None  # (position, move, the coach's check)
        board.save_slot.children = (self,)
        user = self.session.user
        if self.session.store is None or user is None or not user.teaches:
            return
        self.add_class("golf-set-saver")
        self.klass = hooked(name_control(w.Dropdown(options=[], layout=w.Layout(width="260px")), "class"),
                             "golf-set-class")
        self.set_name = hooked(name_control(w.Combobox(placeholder="a set's name: one of yours, or a new one",
                                                        ensure_option=False, layout=w.Layout(width="320px")),
                                             "puzzle set"), "golf-set-name")
        self.move = hooked(name_control(w.Dropdown(options=[], layout=w.Layout(width="420px")), "the move you want"),
                            "golf-set-move")
        self.title = hooked(name_control(w.Text(placeholder="e.g. Keep the pair in mind",
                                                 layout=w.Layout(width="420px")), "title"), "golf-set-title")
        self.note = hooked(name_control(w.Textarea(placeholder="shown with the answer (optional)", rows=2,
                                                    layout=w.Layout(width="420px")), "note"), "golf-set-note")
        self.save_button = hooked(w.Button(description="Check and save", icon="check", button_style="primary",
                                            layout=w.Layout(width="auto")), "golf-set-save")
        self.anyway_button = hooked(w.Button(description="Save anyway", layout=w.Layout(width="auto", display="none")),
                                     "golf-set-save-anyway")
        self.said = hooked(w.HTML(), "golf-set-said")
        self.said.add_class("golf-live")  # read out when it changes (a11y.html.j2)
        self.save_button.on_click(lambda _b: self.check_and_save())
        self.anyway_button.on_click(lambda _b: self.save_anyway())
        self.klass.observe(lambda _c: self._act(self._show_sets), names="value")
        for control in (self.move, self.set_name, self.klass):
            control.observe(lambda _c: self._forget_check(), names="value")
        row = w.Layout(align_items="center", flex_flow="row wrap")
        box = w.VBox([w.HBox([w.HTML("Class&nbsp;"), self.klass, w.HTML("&nbsp;Set&nbsp;"), self.set_name],
                             layout=row),
                      w.HBox([w.HTML("Move&nbsp;"), self.move], layout=row),
                      w.HBox([w.HTML("Title&nbsp;"), self.title], layout=row),
                      w.HBox([w.HTML("Note&nbsp;"), self.note], layout=row),
                      w.HBox([self.save_button, self.anyway_button], layout=row), self.said])
        panel = w.Accordion([box], selected_index=None)
        panel.set_title(0, "Save as a puzzle for my class")
        self.children = (panel,)
        board.on_show.append(self.follow)
        self._act(self._show_classes)
        if board.position is not None:
            self.follow(board.position)

    # -- following the board --------------------------------------------------------------

    def follow(self, position: Position) -> None:
        """Offer the moves of the seat to move at ``position`` (as that seat sees it)."""
        view = coach_view(position)
        obs = view.observation() if view is not None else None
        moves = [a.notation for a in obs.legal_actions] if obs is not None else []
        self.move.options = [(f"{describe(obs, m)} ({m})", m) for m in moves]
        self.save_button.disabled = not moves
        self._forget_check()
        if not moves:
            self._say("There is no move to save here: show a position where the player to move can choose.")

    def _forget_check(self) -> None:
        self.checked = None
        self.anyway_button.layout.display = "none"

    # -- the store ------------------------------------------------------------------------

    def _act(self, work) -> bool:
        """Run ``work`` (store calls); a refusal, an ended session or an unreachable store is said
        in the panel and changes nothing. True when done."""
        return self.session.attempt(work, self._say, "Not saved", "Nothing was saved.")

    def _show_classes(self) -> None:
        classes = self.session.store.classes(self.session.user)
        self._classes = {k.id: k for k in classes}
        kept = self.klass.value
        self.klass.options = [(k.name, k.id) for k in classes]
        self.klass.value = kept if kept in self._classes else (classes[0].id if classes else None)
        if not classes:
            self._say("You have no class yet: create one on the class dashboard, then save puzzles for it here.")
        self._show_sets()

    def _show_sets(self) -> None:
        klass = self._classes.get(self.klass.value) if self.klass.value is not None else None
        self._sets = self.session.store.puzzle_sets(klass, by=self.session.user) if klass else []
        self.set_name.options = [s.name for s in self._sets]

    def _say(self, text: str) -> None:
        self.said.value = f"<p>{escape(text)}</p>" if text else ""

    # -- saving ---------------------------------------------------------------------------

    def check_and_save(self) -> None:
        """Ask the coach about the chosen move; save it when it is the best, else say by how much it is
        worse and offer *Save anyway*."""
        position, move = self.board.position, self.move.value
        if position is None or move is None:
            return self._say("Show a position and choose the move you want first.")
        if not self.set_name.value.strip() or not self.title.value.strip():
            return self._say("Give the puzzle a set (a name of yours, or a new one) and a title first.")
        view = coach_view(position)
        self._say("The coach is checking the move\u2026")
        try:
            check = check_answer(view.observation(), move)
        except ValueError as exc:
            return self._say(f"Not saved: {exc}.")
        if check.is_best:
            return self._save(str(view), check)
        self.checked = (str(view), move, check)
        self.anyway_button.layout.display = None  # shown before the words that offer it
        self._say(f"{check.words} Learners answering it will be told so. {PRECISION_NOTE} Save it anyway?")

    def save_anyway(self) -> None:
        """Save the move the coach found worse, as checked (nothing when the choice changed since)."""
        if self.checked is not None and self.checked[1] == self.move.value:
            self._save(self.checked[0], self.checked[2])

    def _save(self, position: str, check: AnswerCheck) -> None:
        store, user = self.session.store, self.session.user
        klass = self._classes.get(self.klass.value)
        name = self.set_name.value.strip()
        saved = []

        def work():
            self._show_sets()
            chosen = next((s for s in self._sets if s.name.casefold() == name.casefold()), None)
            if chosen is None:
                chosen = store.create_puzzle_set(klass, name, by=user)
            item = store.add_set_item(chosen, position, check.answer, by=user, title=self.title.value,
                                      note=self.note.value, loss=check.loss)
            saved.append((chosen, item))
            self._show_sets()

        if klass is None:
            return self._say("Choose one of your classes first.")
        if self._act(work):
            chosen, item = saved[0]
            self._forget_check()
            self.title.value = self.note.value = ""
            self._say(f"Saved as puzzle {item.seq} of the set {chosen.name} ({klass.name}). {check.words} "
                      f"{PRECISION_NOTE} Assign the set to the class on the class dashboard.")
