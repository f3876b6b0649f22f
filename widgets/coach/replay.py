"""``ReplayViewer``: step through a recorded golf game, one move at a time.

A game is its seed, rules and history, so a replay is the game played again from its deal.
The viewer takes a ``golflab.Game``, its JSON text (``Game.to_json``, the table's *Save
game* file) or an uploaded file (``golf-replay-upload``), or a game of a ``simulate`` run
(``ReplayViewer.from_simulation(result, index)``).

Step ``k`` shows the table after the first ``k`` moves (``golf-replay-step`` reads
``"k / n"``; ``golf-replay-first|prev|next|last`` move through them), from one seat's view
(what that player could see) or, for a teacher, with every card shown (face-down cards
tinted blue and outlined dashed). The last move and the next one are told in words (the table's narration,
``widgets.status.move_words``), each with its grade when the game has been graded
(``grade_seat`` runs ``golflab.coach.review``, or pass a review in). ``open_kept(id)`` opens
one of the signed-in learner's kept games (``widgets.progress.kept_game``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as w

from golflab import Action, Game, Phase
from golflab import words as plain
from golflab.ai import PROFILES
from golflab.coach import CoachGrade, Review, review
from golflab.display import card_html
from golflab.replays import simulated_game, state_at  # noqa: F401 (state_at: the old import path)

from ..account import learner_progress as progress
from ..account.file_picker import FilePicker
from ..position_links import LINK_CLASS, link_html
from ..table import view, words
from ..table.setup import HUMAN_NAME
from .controls import button

TEACHER = -1  # the view value that shows every card
MAX_REPLAY_BYTES = 1_000_000

REPLAY_CSS = """
<style>
.golf-replay{max-width:1100px}
.golf-replay .golf-felt{margin:4px 0}
.golf-replay .golf-opp.golf-viewer:not(.golf-active){border-color:#90caf9}
.golf-replay .gl-card.golf-hidden{background:#e3f2fd;outline:2px dashed #1e88e5}
.golf-replay-piles{display:flex;gap:18px;align-items:flex-start;margin:6px 0 2px 0;font-size:13px;color:#e3f1e8;
 --gl-w:44px;--gl-h:62px;--gl-f:13px}
.golf-replay-moves{font-size:15px;line-height:1.5;background:#fff;border:1px solid #cfd8dc;border-radius:8px;
 padding:6px 12px;margin:4px 0}
.golf-replay-moves .golf-replay-grade{font-size:13px;color:#37474f;margin-left:18px}
.golf-replay-note{font-size:14px;background:#e3f2fd;border-left:5px solid #1565c0;border-radius:6px;
 padding:6px 10px;margin:4px 0}
.golf-replay-step{font:600 16px system-ui,sans-serif;padding:0 10px;line-height:32px}
</style>
"""


def grade_words(g: CoachGrade, word: bool = True) -> str:
    """One graded decision in plain words (``golflab.words.grade_text``): ``BLUNDER: 7.2 points
    lost compared with the best move. <the rule>. Better: <move>.`` (without ``BLUNDER:`` when
    ``word`` is false)."""
    if g.observation is not None:
        text = plain.grade_text(g.observation, g.action, g.best, g.grade, g.ev_loss, g.case)
    else:
        text = f"{g.grade}: {plain.loss_words(g.ev_loss)}."
    return text if word else text[len(g.grade) + 2:]


def _as_game(source: Any) -> Game:
    """A Game from a Game (a copy), JSON text or bytes; anything else is a ValueError."""
    if isinstance(source, Game):
        return source.copy()
    if isinstance(source, (bytes, bytearray)):
        if len(source) > MAX_REPLAY_BYTES:
            raise ValueError(f"the file is {len(source) / 1e6:.1f} MB, too large for a saved game "
                             f"(at most {MAX_REPLAY_BYTES / 1e6:g} MB)")
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("the file is not text: choose a .json file made by Save game") from None
    if isinstance(source, str):
        if not source.strip():
            raise ValueError("there is no game text: paste a saved game (.json) or choose its file")
        return Game.from_json(source)
    raise ValueError(f"a replay needs a golflab.Game, its JSON text or a saved .json file, got {type(source).__name__}")


class _Replayed:
    """A game played again from its deal: the table after each step and each move in words,
    told from every seat's view."""

    def __init__(self, game: Game) -> None:
        self.game = game
        g = Game(list(game.players), game.rules, game.seed)
        self.states = [g.copy()]
        self.movers: list[int] = []
        self.texts: list[list[str]] = []  # per step, per viewer
        seats = range(g.num_players)
        for i, notation in enumerate(game.history):
            if g.phase is Phase.ROUND_OVER:
                g.next_round()
            seat, action = g.current_player, Action.parse(notation)
            before = [g.observation(v) for v in seats]
            try:
                g.apply(action)
            except ValueError as exc:
                raise ValueError(f"move {i + 1} ({notation!r}) cannot be replayed: {exc}") from None
            self.movers.append(seat)
            self.texts.append([words.move_words(g.players[seat], action, before[v], g.observation(v), seat)
                               for v in seats])
            self.states.append(g.copy())

    def text(self, step: int, viewer: int) -> str:
        """Move ``step`` (1-based) in words, from ``viewer``'s seat (TEACHER: the mover's)."""
        mover = self.movers[step - 1]
        return self.texts[step - 1][mover if viewer == TEACHER else viewer]


def _seat_html(game: Game, seat: int, viewer: int, changed: int | None) -> str:
    """One seat's grid as ``viewer`` sees it (TEACHER: every card, face-down ones tinted)."""
    over = game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    cards, up = game.grid(seat), game.face_up(seat)
    cells = []
    for pos, (card, face_up) in enumerate(zip(cards, up)):
        shown = face_up or over or viewer == TEACHER
        extra = ("golf-hidden " if shown and not (face_up or over) else "") + ("golf-changed" if pos == changed else "")
        where = plain.position(pos) + (", face down" if "golf-hidden" in extra else "")
        cells.append(card_html(card, shown, extra, where))
    active = game.current_player == seat and not over
    name = game.players[seat]
    style = PROFILES[name].style if name in PROFILES else ""
    cls = "golf-opp" + (" golf-active" if active else "") + (" golf-viewer" if seat == viewer else "")
    return (f'<div class="{cls}"><div class="gl-name">{escape(name)} \u00b7 total {game.totals[seat]}</div>'
            f'<div class="golf-style">{escape(style)}</div>'
            f'<div class="gl-grid" role="group" aria-label="cards of {escape(name)}">{"".join(cells)}</div></div>')


def board_html(game: Game, viewer: int, changed: tuple[int, int | None] | None = None) -> str:
    """The table of ``game`` as ``viewer`` (a seat, or TEACHER) sees it: every seat, the piles
    and the card in play; a finished hole with its scores explained, and the final ranking."""
    seats = "".join(_seat_html(game, s, viewer, changed[1] if changed and changed[0] == s else None)
                    for s in range(game.num_players))
    obs = game.observation(game.current_player if viewer == TEACHER else viewer)
    top = obs.discard_top
    discard = card_html(top, True) if top is not None else '<span class="gl-card gl-empty"></span>'
    piles = (f'<div><span class="gl-card gl-back"></span><div>deck: {obs.draw_pile_size}</div></div>'
             f"<div>{discard}<div>discard pile</div></div>")
    if obs.holding:
        mover = game.players[game.current_player]
        held = obs.drawn if obs.drawn is not None else obs.taken
        if viewer == TEACHER:
            held = game.observation(game.current_player).drawn
        piles += f"<div>{card_html(held, held is not None)}<div>{escape(plain.subject_verb(mover, 'hold'))}</div></div>"
    felt = (f'<div class="golf-felt"><div class="golf-opponents">{seats}</div>'
            f'<div class="golf-replay-piles">{piles}</div></div>')
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and game.round_results:  # none: set up there
        felt += view.hole_summary_html(game.players, game.round_results[-1], len(game.round_results))
    if game.phase is Phase.GAME_OVER:
        felt += view.ranking_html(game.players, game.totals, game.holes_won)
    return felt


def later(callback: Callable[[], None]) -> None:
    """Run ``callback`` soon on the kernel's event loop (so the page shows what was set just
    before, e.g. "thinking…"), or now when no loop runs (a script or a test)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        callback()
        return
    loop.call_later(0.05, callback)


class ReplayViewer(w.VBox):
    """Step through a recorded game.

    ``game``: a ``golflab.Game``, its JSON text or the bytes of a saved file (None: choose
    a file or paste a game first). ``seat``: whose view to show (None: every card, for a
    teacher). ``review``: a ``golflab.coach.Review`` whose grades are shown with the moves.
    ``step``: where to start (default 0, the deal). ``opener``: offer to open another game
    (a file or pasted text) below the board. The controls are attributes
    (``first_button``, ``prev_button``, ``next_button``, ``last_button``, ``view``,
    ``grade_button``, ``upload``, ``paste``, ``load_button``), so code can press them.
    """

    def __init__(self, game: Any = None, *, seat: int | None = None, review: Review | None = None,
                 step: int = 0, opener: bool = True) -> None:
        self.first_button = button("First", "fast-backward", "golf-replay-first", "The deal")
        self.prev_button = button("Prev", "step-backward", "golf-replay-prev", "One move back")
        self.next_button = button("Next", "step-forward", "golf-replay-next", "One move on")
        self.last_button = button("Last", "fast-forward", "golf-replay-last", "The end of the game")
        self.step_label = w.HTML()
        self.step_label.add_class("golf-replay-step")
        self.view = w.Dropdown(description="View", style={"description_width": "initial"},
                               layout=w.Layout(width="260px"))
        self.view.add_class("golf-replay-view")
        self.grade_button = button("Grade moves", "graduation-cap", "golf-replay-grade",
                                    "Let the coach grade every decision of the seat in view")
        self.hole = w.Dropdown(description="Hole", style={"description_width": "initial"},
                               layout=w.Layout(width="120px"))
        self.hole.add_class("golf-replay-hole")
        self.board = w.HTML()
        self.link = w.HTML()  # this moment on the analysis board
        self.link.add_class(LINK_CLASS)
        self.moves = w.HTML()
        self.moves.add_class("golf-replay-moves-box")
        self.note = w.HTML()
        self.message = w.HTML()
        self.message.add_class("golf-replay-message")
        self.upload = FilePicker(accept=".json,application/json", description="Open a saved game", icon="upload",
                                 layout=w.Layout(width="auto"))
        self.upload.add_class("golf-replay-upload")
        self.paste = w.Textarea(placeholder="Or paste the text of a saved game (.json) here and press "
                                "Open pasted game.",
                                layout=w.Layout(width="98%", height="60px"))
        self.load_button = button("Open pasted game", "upload", "golf-replay-load", "Replay the pasted game")
        bar = w.HBox([self.first_button, self.prev_button, self.step_label, self.next_button, self.last_button,
                      self.hole, self.view, self.grade_button],
                     layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.open_box = w.VBox([w.HTML("<b>Open another game</b>"), w.HBox([self.upload]), self.paste,
                                w.HBox([self.load_button])])
        self.open_box.layout.display = None if opener else "none"
        super().__init__([w.HTML(view.TABLE_CSS + REPLAY_CSS), self.message, bar, self.note, self.moves, self.board,
                          self.link, self.open_box])
        self.add_class("golf-replay")
        self.add_class("golf-table")  # the table's look for cards and seats
        self._replay: _Replayed | None = None
        self._grades: dict[int, CoachGrade] = {}
        self._step = 0
        self._syncing = False
        for control, fn in ((self.first_button, lambda: 0), (self.prev_button, lambda: self._step - 1),
                           (self.next_button, lambda: self._step + 1), (self.last_button, lambda: self.steps)):
            control.on_click(lambda _b, fn=fn: self._go(fn()))
        self.view.observe(self._on_view, names="value")
        self.hole.observe(self._on_hole, names="value")
        self.grade_button.on_click(lambda _b: self.grade_seat())
        self.upload.observe(self._on_upload, names="value")
        self.load_button.on_click(self._on_paste)
        if game is None:
            self._render()
        else:
            self.load(game, seat=seat, review=review, step=step)

    @classmethod
    def from_simulation(cls, result: Any, index: int, **kwargs) -> ReplayViewer:
        """Game ``index`` of a ``golflab.simulate`` result, played again from its seed."""
        return cls(simulated_game(result, index), **kwargs)

    # ------------------------------------------------------------------ public
    @property
    def game(self) -> Game | None:
        """The game replayed (None before one is opened)."""
        return self._replay.game if self._replay else None

    @property
    def steps(self) -> int:
        """The number of moves in the game (the last step)."""
        return len(self._replay.movers) if self._replay else 0

    @property
    def step(self) -> int:
        """The moves shown so far: 0 is the deal, ``steps`` the end."""
        return self._step

    @property
    def seat(self) -> int | None:
        """The seat whose view is shown (None: every card)."""
        return None if self.view.value in (None, TEACHER) else self.view.value

    @property
    def state(self) -> Game | None:
        """The game as it stood at the current step (a copy: changing it changes nothing here)."""
        return self._replay.states[self._step].copy() if self._replay else None

    @property
    def text(self) -> str:
        """What the viewer shows in words: the step, the last and the next move, the note."""
        return re.sub(r"<[^>]+>", " ", f"{self.step_label.value} {self.note.value} {self.moves.value}")

    def load(self, game: Any, *, seat: int | None = None, review: Review | None = None, step: int = 0) -> None:
        """Open ``game`` (a Game, JSON text or bytes). Bad input is a ValueError and changes nothing."""
        replay = _Replayed(_as_game(game))
        n = replay.game.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat must be a seat from 0 to {n - 1} or None (every card), got {seat!r}")
        self._check_step(step, len(replay.movers))
        self._replay, self._grades, self._step = replay, {}, step
        self._syncing = True
        try:
            self.view.options = [("Every card (teacher)", TEACHER)] + [
                ("Your view" if name == HUMAN_NAME else f"{name}'s view", s)
                for s, name in enumerate(replay.game.players)]
            self.view.value = TEACHER if seat is None else seat
            self.hole.options = [(str(n), n) for n in range(1, replay.states[-1].round + 1)]
        finally:
            self._syncing = False
        self.note.value = ""
        self.message.value = ""
        if review is not None:
            self.set_review(review)
        self._render()

    def open_kept(self, record_id: Any) -> bool:
        """Open the signed-in learner's own kept game ``record_id`` from their seat; anything else
        (another learner's game, no such game, a guest) is refused in plain words, changing nothing."""
        try:
            record = progress.kept_game(record_id)
            self.load(record.game(), seat=record.seat)
        except ValueError as exc:
            self.message.value = (f'<div class="golf-replay-note golf-refused">Could not open that game: '
                                  f"{escape(str(exc))}. Nothing was changed.</div>")
            return False
        self.message.value = (f'<div class="golf-replay-note golf-replay-kept">Your game of '
                              f"{escape(progress.when_words(record.played_at))}: {record.points} points, "
                              f"{escape(progress.place_words(record.points, record.scores))}.</div>")
        return True

    def go(self, step: int, note: str = "") -> None:
        """Show step ``step`` (0 to ``steps``), with an optional ``note`` above the board."""
        self._check_step(step, self.steps)
        self._step = step
        self.note.value = f'<div class="golf-replay-note">{escape(note)}</div>' if note else ""
        self._render()

    def hole_start(self, hole: int) -> int:
        """The first step of hole ``hole`` (1 to the last hole played): its deal's first move shown."""
        holes = self._replay.states[-1].round if self._replay is not None else 0
        if isinstance(hole, bool) or not isinstance(hole, int) or not 1 <= hole <= holes:
            raise ValueError(f"hole must be a hole of this game, from 1 to {holes}, got {hole!r}")
        return next(k for k, state in enumerate(self._replay.states) if state.round == hole)

    def go_to_hole(self, hole: int) -> None:
        """Jump to the start of hole ``hole`` (as the *Hole* selector, ``golf-replay-hole``, does)."""
        self.go(self.hole_start(hole))

    def set_review(self, graded: Review) -> None:
        """Show ``graded``'s grades with the moves they judge."""
        if not isinstance(graded, Review):
            raise ValueError(f"review must be a golflab.coach.Review, got {type(graded).__name__}")  # noqa: TRY004
        self._grades = {g.step: g for g in graded.grades if g.step is not None}
        self._render()

    def grade_seat(self, seat: int | None = None) -> Review | None:
        """Grade every decision of ``seat`` (default: the seat in view) with the coach and show
        the grades; says "thinking…" while it works. Returns the review (None when it runs later)."""
        seat = self.seat if seat is None else seat
        if self._replay is None or seat is None:
            self.message.value = ('<div class="golf-replay-note">Choose a player\'s view to grade that '
                                  "player's moves.</div>")
            return None
        result: list[Review] = []
        name = self._replay.game.players[seat]
        self.message.value = (f'<div class="golf-replay-note golf-thinking">Grading {escape(name)}\'s moves: '
                              "thinking\u2026</div>")

        def work() -> None:
            result.append(review(self._replay.game, seat))
            self.message.value = (f'<div class="golf-replay-note">{escape(name)}: accuracy '
                                  f"{result[0].accuracy:g} over {len(result[0].grades)} decisions.</div>")
            self.set_review(result[0])

        later(work)
        return result[0] if result else None

    # ---------------------------------------------------------------- internal
    @staticmethod
    def _check_step(step: Any, steps: int) -> None:
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= steps:
            raise ValueError(f"step must be a whole number from 0 to {steps}, got {step!r}")

    def _go(self, step: int) -> None:
        if self._replay is not None:
            self.go(max(0, min(self.steps, step)))

    def _on_view(self, _change) -> None:
        if not self._syncing:
            self._render()

    def _on_hole(self, change) -> None:
        if not self._syncing and change["new"] is not None and self._replay is not None:
            self.go_to_hole(change["new"])

    def _open(self, source: Any, what: str) -> None:
        try:
            self.load(source)
        except ValueError as exc:
            self.message.value = (f'<div class="golf-replay-note golf-refused">Could not open {escape(what)}: '
                                  f"{escape(str(exc))}. Nothing was changed.</div>")

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        try:
            self._open(bytes(files[0]["content"]), files[0]["name"])
        finally:
            self.upload.value = ()

    def _on_paste(self, _button=None) -> None:
        self._open(self.paste.value, "the pasted game")

    def _move_html(self, step: int, label: str) -> str:
        viewer = self.view.value if self.view.value is not None else TEACHER
        said = self._replay.text(step, viewer)
        line = f"<div><b>{label} (hole {self._replay.states[step].round}):</b> {escape(said)}.</div>"
        graded = self._grades.get(step - 1)
        if graded is not None:
            line += (f'<div class="golf-replay-grade golf-grade-{graded.grade.lower()}">'
                     f"{escape(grade_words(graded))}</div>")
        return line

    def _render(self) -> None:
        replay = self._replay
        for b in (self.first_button, self.prev_button):
            b.disabled = replay is None or self._step == 0
        for b in (self.next_button, self.last_button):
            b.disabled = replay is None or self._step == self.steps
        self.grade_button.disabled = replay is None
        if replay is None:
            self.board.value = self.link.value = ""
            self.moves.value = '<div class="golf-replay-moves">Open a saved game to replay it.</div>'
        else:
            self._render_step(replay)
        # The step shown changes last, once the moves and the board it names are sent.
        self.step_label.value = f"{self._step} / {self.steps}"

    def _render_step(self, replay: _Replayed) -> None:
        viewer = self.view.value if self.view.value is not None else TEACHER
        state = replay.states[self._step]
        self._syncing = True
        try:
            self.hole.value = state.round  # the selector follows the steps
        finally:
            self._syncing = False
        changed = None
        lines = []
        if self._step > 0:
            lines.append(self._move_html(self._step, f"Move {self._step}"))
            mover = replay.movers[self._step - 1]
            changed = (mover, Action.parse(replay.game.history[self._step - 1]).pos)
        else:
            lines.append("<div><b>The deal.</b> Press Next to watch the first move.</div>")
        if self._step < self.steps:
            lines.append(self._move_html(self._step + 1, "Next"))
        else:
            lines.append("<div><b>The end of the recorded game.</b></div>")
        self.moves.value = f'<div class="golf-replay-moves">{"".join(lines)}</div>'
        self.board.value = board_html(state, viewer, changed)
        self.link.value = link_html(state)
