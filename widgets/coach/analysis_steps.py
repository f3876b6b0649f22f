"""Playing on from a position step by step (the analysis board's *Play step by step*,
``analysis_play``): every seat's move is entered here, one at a time, and the coach values each
new moment.

``StepBoard(game)`` shows ``game`` as the seat to move sees it (``replay.board_html``: never a
face-down card, nor a card another seat drew) with the coach's values of its options
(``golf-step-values``, as the analysis board values a position). A move is entered by its button
(``golf-step-move-<move>``, the notation with dashes: ``golf-step-move-swap-3``) or typed
(``golf-step-text``, then ``golf-step-play``); ``golf-step-next-hole`` deals the next
hole, ``golf-step-undo`` takes the last move back. A move that is not legal now is said in
``golf-step-problem`` (the game's own words: the move, the phase, the moves allowed) and changes
nothing. ``golf-step-status`` says whose move it is; ``golf-step-log`` lists the moves played.
``StepBoard(game, values_closed=True)`` keeps the coach's values in a closed section
(``golf-step-values-section``) that the learner opens once they have chosen (a study's page).
"""

from __future__ import annotations

from html import escape

import ipywidgets as w

from golflab import Action, Game, Phase, Position
from golflab import words as plain

from .analysis import coach_values_html
from .controls import button
from .replay import board_html, later

#: The hooks' prefix of a move's button.
MOVE_HOOK = "golf-step-move-"


def move_hook(action: "Action | str") -> str:
    """A move's button hook: ``golf-step-move-swap-3``."""
    return MOVE_HOOK + str(action).replace(" ", "-")


class StepBoard(w.VBox):
    """Enter every seat's move of ``game`` one at a time; the coach values each moment."""

    def __init__(self, game: Game, *, values_closed: bool = False) -> None:
        self.game = game
        self.taken_back: list[Game] = []  # the game before each move played here, for Take back
        self.played: list[str] = []       # each move played here, in words
        self._shown = 0                   # counts the moments shown: a value arriving late is dropped
        self.status = w.HTML()
        self.status.add_class("golf-step-status")
        self.status.add_class("golf-live")
        self.board = w.HTML()
        self.board.add_class("golf-step-board")
        self.values = w.HTML()
        self.values.add_class("golf-step-values")
        self.moves = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.moves.add_class("golf-step-moves")
        self.text = w.Text(description="Or type it", placeholder="draw, take, swap 3, discard, flip 4, skip, knock",
                           style={"description_width": "initial"}, layout=w.Layout(width="420px"))
        self.text.add_class("golf-step-text")
        self.play_button = button("Play this move", "", "golf-step-play", "Play the move typed in the box")
        self.play_button.on_click(lambda _b: self.play(self.text.value))
        self.next_hole = button("Next hole", "forward", "golf-step-next-hole", "Deal the next hole",
                                 button_style="success")
        self.next_hole.on_click(lambda _b: self.deal_next_hole())
        self.undo = button("Take back the last move", "undo", "golf-step-undo",
                           "Go back to the moment before the last move")
        self.undo.on_click(lambda _b: self.take_back())
        self.problem = w.HTML()
        self.problem.add_class("golf-step-problem")
        self.problem.add_class("golf-live")  # a refusal is read out
        self.move_log = w.HTML()
        self.move_log.add_class("golf-step-log")
        values = self.values
        if values_closed:
            values = w.Accordion([self.values], titles=("The coach's values (open when you have chosen)",),
                                 selected_index=None)
            values.add_class("golf-step-values-section")
        super().__init__([self.status, self.board, self.moves,
                          w.HBox([self.text, self.play_button], layout=w.Layout(flex_flow="row wrap")),
                          self.problem, w.HBox([self.next_hole, self.undo]), values, self.move_log])
        self.add_class("golf-step-by-step")
        self._show()

    # ------------------------------------------------------------------ public
    def position(self) -> Position:
        """The moment reached, as the seat to move sees it."""
        return Position.of(self.game)

    def play(self, text: "str | Action") -> bool:
        """Play ``text`` (a move's notation) for the seat to move; False, with the reason in the
        problem line and nothing changed, when it is not a move or not legal now."""
        game = self.game
        if game.phase not in (Phase.INITIAL_FLIP, Phase.PLAYING, Phase.FINAL_TURN):
            return self._refuse("The hole is over: there is no move to play. "
                                + ("Press Next hole to deal the next one." if game.phase is Phase.ROUND_OVER
                                   else "The game is over."))
        seat, before = game.current_player, game.observation(game.current_player)
        kept = game.copy()
        try:
            action = Action.parse(text)
            game.apply(action)
        except ValueError as exc:  # not a move, or not legal now (IllegalActionError): the game is as it was
            return self._refuse(f"That move was not played: {exc}")
        self.taken_back.append(kept)
        self.played.append(f"Seat {seat}: {plain.move(before, action)} ({action})")
        self.text.value = ""
        self._show()
        return True

    def deal_next_hole(self) -> bool:
        """Deal the next hole once one is over; False (said) otherwise."""
        if self.game.phase is not Phase.ROUND_OVER:
            return self._refuse("There is no finished hole to leave: the hole is still being played."
                                if self.game.phase is not Phase.GAME_OVER else "The game is over.")
        self.taken_back.append(self.game.copy())
        self.game.next_round()
        self.played.append(f"Hole {self.game.round} dealt")
        self._show()
        return True

    def take_back(self) -> bool:
        """Go back to the moment before the last move (or deal); False (said) when none was played here."""
        if not self.taken_back:
            return self._refuse("No move has been played here yet: there is nothing to take back.")
        self.game = self.taken_back.pop()
        self.played.pop()
        self._show()
        return True

    # ---------------------------------------------------------------- internal
    def _refuse(self, text: str) -> bool:
        self.problem.value = escape(text)
        return False

    def _show(self) -> None:
        game = self.game
        self.problem.value = ""
        mover = game.current_player
        obs = game.observation(mover)
        active = game.phase in (Phase.INITIAL_FLIP, Phase.PLAYING, Phase.FINAL_TURN)
        if active:
            said = f"Seat {mover} to move: choose its move, or type it. The board shows what seat {mover} sees."
        elif game.phase is Phase.ROUND_OVER:
            said = "The hole is over: read the scores, then press Next hole."
        else:
            said = "The game is over."
        self.status.value = escape(f"Move {len(self.played) + 1}. {said}" if active else said)
        self.board.value = board_html(game, mover)
        buttons = []
        for action in obs.legal_actions if active else ():
            words = plain.move(obs, action)
            buttons.append(button(words[:1].upper() + words[1:], "", move_hook(action), f"{action}: {words}"))
            buttons[-1].on_click(lambda _b, a=str(action): self.play(a))
        self.moves.children = buttons
        self.next_hole.layout.display = None if game.phase is Phase.ROUND_OVER else "none"
        self.undo.disabled = not self.taken_back
        self.move_log.value = ("<b>Moves played here</b><ol>" + "".join(f"<li>{escape(m)}</li>" for m in self.played)
                          + "</ol>") if self.played else ""
        self.values.value = '<span class="golf-thinking">The coach is thinking\u2026</span>'
        self._shown += 1
        shown, moment = self._shown, self.position()
        later(lambda: self._value(moment, shown))

    def _value(self, moment: Position, shown: int) -> None:
        if self._shown != shown:  # moved on meanwhile
            return
        html = coach_values_html(moment)
        if self._shown == shown:
            self.values.value = html


__all__ = ["MOVE_HOOK", "StepBoard", "move_hook"]
