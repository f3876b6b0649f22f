"""Playing on from the analysis board's position: *Play from here* (``widgets.coach.analysis``).

``PlayOn(board)`` puts itself in ``board.play_slot`` (a closed *Play from here* section,
``golf-play``). The position shown becomes a game (``Position.game``, as ``Game.from_position``
makes it): what the position leaves unknown (face-down cards, the deck, a drawn card not seen) is
dealt from the seed (``golf-play-seed``; blank is 0), so the same seed deals the same cards and
the CPU players choose the same moves. Then

* *Play against CPU players* (``golf-play-cpus``): the golf table (``GolfTable.play_from``) from
  the learner's seat (``golf-play-seat``), a CPU personality at every other seat
  (``golf-play-cpu-S``, seat S). The learner sees that seat's view only, as at any table;
* *Play step by step* (``golf-play-steps``): every seat's move entered on the board, the coach
  valuing each moment (``analysis_steps.StepBoard``).

While playing, the analysis gives way to the game, with ``golf-play-analyse`` (analyse the moment
reached, as the learner's seat sees it; step by step, as the seat to move sees it) and
``golf-play-back`` (the position play started from) above it; both bring the analysis back. What
is refused (a position that is not possible, a hole that is over, a bad seed, one personality at
two seats) is said in ``golf-play-problem`` and changes nothing.
"""

from __future__ import annotations

from html import escape

import ipywidgets as w

from golflab import Position
from golflab.ai import CPU_NAMES

from ..table.golf_table import GolfTable
from ..table.setup import HUMAN_NAME, MAX_SEED, check_opponents, cpu_label, default_opponents, parse_seed
from .analysis import AnalysisBoard
from .analysis_steps import StepBoard
from .controls import button, hooked

MAX_SEATS = 6
LABEL = {"description_width": "initial"}
#: What the position's stage must not be to play on from it.
OVER = ("hole over", "game over")


class PlayOn(w.VBox):
    """*Play from here* on ``board`` (see the module's words)."""

    def __init__(self, board: AnalysisBoard) -> None:
        self.board = board
        self.start: Position | None = None  # the position play started from, while playing
        self._view_seat: int | None = None  # whose view the last position shown was
        self.game_view: GolfTable | StepBoard | None = None
        self.seat = hooked(w.Dropdown(description="Your seat", style=LABEL), "golf-play-seat")
        firsts = default_opponents(MAX_SEATS)  # a different personality at every seat
        self.cpus = [hooked(w.Dropdown(options=[(cpu_label(n), n) for n in CPU_NAMES], value=firsts[s],
                                        description=f"CPU at seat {s}", style=LABEL,
                                        layout=w.Layout(width="420px", max_width="100%")), f"golf-play-cpu-{s}")
                     for s in range(MAX_SEATS)]
        self.seed = hooked(w.Text(value="0", description="Seed", placeholder="blank = 0", style=LABEL,
                                   layout=w.Layout(width="200px")), "golf-play-seed")
        self.cpu_button = button("Play against CPU players", "play", "golf-play-cpus",
                                 "Play your seat on from this position against CPU players", button_style="primary")
        self.steps_button = button("Play step by step", "step-forward", "golf-play-steps",
                                   "Enter every seat's move here; the coach values each moment")
        self.cpu_button.on_click(lambda _b: self.play_cpus())
        self.steps_button.on_click(lambda _b: self.play_steps())
        self.problem = hooked(w.HTML(), "golf-play-problem")
        self.problem.add_class("golf-live")
        self.seat.observe(lambda _c: self._show_cpus(), names="value")
        note = w.HTML("<span class='golf-note'>The cards the position leaves unknown are dealt from the seed: "
                      "the same seed deals the same cards. Against CPU players you play your seat and see only "
                      "what it sees. Step by step you enter every seat's move, and the coach values each new "
                      "moment.</span>")
        body = w.VBox([note, w.HBox([self.seat, self.seed], layout=w.Layout(flex_flow="row wrap")),
                       w.VBox(self.cpus), w.HBox([self.cpu_button, self.steps_button]), self.problem])
        section = hooked(w.Accordion([body], titles=("Play from here",), selected_index=None), "golf-play")
        self.heading = hooked(w.HTML(), "golf-play-heading")
        self.analyse_button = button("Analyse this moment", "search", "golf-play-analyse",
                                     "Stop playing and show this moment on the analysis board", button_style="primary")
        self.back_button = button("Back to the start position", "undo", "golf-play-back",
                                  "Stop playing and show the position play started from")
        self.analyse_button.on_click(lambda _b: self.analyse())
        self.back_button.on_click(lambda _b: self.back())
        self.frame = hooked(w.VBox(), "golf-play-frame")
        super().__init__([section])
        board.on_show.append(self._seats)
        board.play_slot.children = (self,)
        if board.position is not None:
            self._seats(board.position)

    # ------------------------------------------------------------------ public
    def play_cpus(self) -> bool:
        """Play the learner's seat on from the position against CPU players; False (said) when refused."""
        try:
            start, seed = self._start()
            seat = self.seat.value
            names = [HUMAN_NAME if s == seat else self.cpus[s].value for s in range(len(start.cards))]
            opponents = check_opponents(names[:seat] + names[seat + 1:])
            table = GolfTable(list(opponents), start.rules, seed, human_seat=seat)
            table.play_from(start.game(seed, players=names), seat)
        except ValueError as exc:
            return self._refuse(exc)
        others = ", ".join(f"{n} (seat {s})" for s, n in enumerate(names) if s != seat)
        self._open(start, table, f"You play seat {seat} on from the position against {others}; seed {seed}.")
        return True

    def play_steps(self) -> bool:
        """Play on from the position step by step (every seat's move entered here); False (said) when refused."""
        try:
            start, seed = self._start()
        except ValueError as exc:
            return self._refuse(exc)
        steps = StepBoard(start.game(seed))
        self._open(start, steps, f"Step by step from the position, seed {seed}: enter each seat's move in turn.")
        return True

    def moment(self) -> Position | None:
        """The moment reached in play, as the learner's seat sees it (step by step: the seat to
        move); None when nothing is played."""
        view = self.game_view
        if isinstance(view, GolfTable):
            return Position.of(view.game.observation(view.human_seat))
        return view.position() if view is not None else None

    def analyse(self) -> None:
        """Stop playing and analyse the moment reached."""
        moment = self.moment()
        if moment is not None:
            self._close(moment)

    def back(self) -> None:
        """Stop playing and show the position play started from."""
        if self.start is not None:
            self._close(self.start)

    # ---------------------------------------------------------------- internal
    def _start(self) -> tuple[Position, int]:
        """The position to play on from and the seed (a ValueError saying what is refused)."""
        start = self.board.position
        if start is None or self.board.problem.value:
            raise ValueError("the box does not hold a possible position: fix what the board says first, then "
                             "play on from it")
        if start.stage in OVER:
            raise ValueError("the hole is over in this position: there is nothing to play on. Set up a moment "
                             "before its end")
        try:
            seed = parse_seed(self.seed.value)
        except ValueError:
            raise ValueError(f"the seed must be a whole number from 0 to {MAX_SEED} (blank is 0), got "
                             f"{self.seed.value.strip()[:40]!r}") from None
        return start, 0 if seed is None else seed

    def _refuse(self, exc: ValueError) -> bool:
        text = str(exc).rstrip(".")
        self.problem.value = escape(f"Not played on: {text}. Nothing was changed.")
        return False

    def _open(self, start: Position, view: "GolfTable | StepBoard", heading: str) -> None:
        self.problem.value = ""
        self.start, self.game_view = start, view
        self.heading.value = f"<b>Playing on.</b> {escape(heading)}"
        self.frame.children = (self.heading, w.HBox([self.analyse_button, self.back_button],
                                                    layout=w.Layout(flex_flow="row wrap")), view)
        self.board.set_play(self.frame)

    def _close(self, position: Position) -> None:
        view, self.game_view, self.start = self.game_view, None, None
        if isinstance(view, GolfTable):
            view.pacer.stop()  # its CPU players stop with it
        self.frame.children = ()
        self.board.set_play(None)
        self.board.text.value = str(position)
        self.board.show(str(position))

    def _seats(self, position: Position) -> None:
        """Offer the seats of ``position`` (the learner's: the seat whose view it is)."""
        n = len(position.cards)
        if len(self.seat.options) != n:
            self.seat.options = [(f"seat {s}", s) for s in range(n)]
            self._view_seat = None
        if position.seat != self._view_seat:  # a learner's choice stays while the view does
            self._view_seat = self.seat.value = position.seat
        self._show_cpus()

    def _show_cpus(self) -> None:
        n = len(self.seat.options)
        for s, menu in enumerate(self.cpus):
            menu.layout.display = None if s < n and s != self.seat.value else "none"
