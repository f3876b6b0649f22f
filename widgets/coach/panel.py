"""``Coach``: the coach at a ``GolfTable`` — hints, a grade for every decision, a review.

``Coach(table, on=True)`` attaches to a table through its public hooks (``on_move``,
``on_start``, ``coach_slot``, ``review_slot``); a table without a coach is unchanged.

* ``golf-coach``: the toggle that turns coaching on and off.
* ``golf-hint`` (button) and ``golf-hint-text``: every option of the learner's decision with
  its value (``golflab.coach.hint``: expected hole points against the table's average,
  lower is better), the best marked.
* ``golf-grade``: after each decision of the learner, its grade word, the points lost, the
  better move and why (``golflab.coach.grade``, the same valuation as the hint).
* ``golf-review`` (button) opens the review, shown by itself after each hole and at the end:
  accuracy (``golf-accuracy``, a number 0-100), decisions per grade, the costliest ones
  (each opens a ``ReplayViewer`` at the board as it was, with the better move) and a plotly
  chart of points lost per turn. *Replay this game* (``golf-open-replay``) opens the whole
  game in the replay viewer.

* Tutor mode (``golf-tutor-toggle``; ``Coach(table, tutor=True)``): before a move that loses
  ``TUTOR_LOSS`` points or more, the bar says so in one sentence (``golf-tutor``) and offers
  *Play it anyway* (``golf-tutor-play``) or *Think again* (``golf-tutor-think``); nothing is
  played until the learner chooses.
* *Retry* (``golf-review-retry-N``) beside each costly decision of the review: the board as it
  was and one button per move (``golf-retry-option-A``); the better move is told only after a
  try, and a right retry is marked.

Words come from ``golflab.words``: moves as the board names them, points lost compared with
the best move; notation and ± sit under *Details* (``golf-details``).

The coach computes after the page has shown "thinking…" (``replay.later``), so a slow
valuation never leaves the page without feedback.
"""

from __future__ import annotations

import logging
from html import escape

import ipywidgets as w

from golflab import Observation, Phase
from golflab import words as plain
from golflab.analysis import GRADES
from golflab.coach import CoachGrade, Option, Review, grade, hint
from golflab.replays import state_at

from ..explorers.charts import ChartSlot
from ..table import view
from ..table.golf_table import GolfTable
from .controls import button
from .replay import ReplayViewer, board_html, grade_words, later

log = logging.getLogger(__name__)

COSTLIEST = 3
#: The tutor stops a move that loses at least this many points (by the coach's values) and asks first.
TUTOR_LOSS = 5.0
#: A retried move at most this many points worse than the best counts as right.
RETRY_TOLERANCE = 0.05
GRADE_COLOURS = {"OPTIMAL": "#2e7d32", "GOOD": "#7cb342", "QUESTIONABLE": "#f9a825", "MISTAKE": "#ef6c00",
                 "BLUNDER": "#c62828"}
CHART_SIZE = (720, 280)

COACH_CSS = """
<style>
.golf-coach-bar{background:#e8eaf6;border-radius:8px;padding:4px 10px;margin:4px 0}
.golf-hint-text table{border-collapse:collapse;font-size:14px;margin:2px 0}
.golf-hint-text td{padding:2px 8px;border-bottom:1px solid #c5cae9;vertical-align:top}
.golf-hint-text tr.golf-best td{font-weight:700;background:#e8f5e9}
.golf-hint-text .golf-note,.golf-review-box .golf-note{font-size:12px;color:#455a64}
.golf-grade{font-size:15px}
.golf-grade-word{display:inline-block;color:#fff;font-weight:700;border-radius:5px;padding:0 7px;margin-right:4px;
 line-height:1.5}
.golf-hint-text td:first-child,.golf-hint-text td:nth-child(2),.golf-hint-text td:nth-child(3){white-space:nowrap}
.golf-review-box{background:#fff;border:1px solid #c5cae9;border-radius:10px;padding:8px 12px;margin:6px 0}
.golf-review-box h3{margin:2px 0 6px 0;font-size:17px}
.golf-accuracy{font-size:22px;font-weight:700;color:#1a237e}
.golf-thinking{color:#5c6bc0;font-style:italic}
.golf-hint-text ol{margin:2px 0;padding-left:22px}
.golf-tutor{background:#fff3e0;border-left:5px solid #ef6c00;border-radius:6px;padding:4px 10px;margin:4px 0}
.golf-retry{background:#f1f8e9;border:1px solid #c5e1a5;border-radius:8px;padding:6px 10px;margin:4px 0}
.golf-retry-right{color:#2e7d32;font-weight:700}
.golf-retry-wrong{color:#c62828;font-weight:700}
</style>
"""


def _move_label(obs: Observation, action) -> str:
    """A move in words, capitalized as a button says it ("Swap it into the top left")."""
    said = plain.move(obs, action)
    return said[:1].upper() + said[1:]


def _word(quality: str) -> str:
    return (f'<span class="golf-grade-word golf-grade-{quality.lower()}" '
            f'style="background:{GRADE_COLOURS[quality]}">{quality}</span>')


def details_html(rows: list[tuple[str, str, str]], extra: str = "") -> str:
    """The *Details* toggle (``golf-details``, closed): the moves in notation with value \u00b1 one
    standard error and the points lost, the definition, and ``extra`` (HTML)."""
    table = "".join(f"<tr><td>{escape(a)}</td><td>{escape(v)}</td><td>{escape(lost)}</td></tr>" for a, v, lost in rows)
    head = "<tr><td><b>move</b></td><td><b>value</b></td><td><b>points lost</b></td></tr>" if rows else ""
    return view.details_toggle(f"<table>{head}{table}</table>{extra}"
                               f"<div class='golf-note'>{escape(plain.LOSS_DEFINITION)}</div>")


def hint_html(options: list[Option], obs: Observation) -> str:
    """The hint in plain words: every move (as the board names it), best first and marked, the
    others with the points they lose compared with the best move, a move equal to another (the same
    move up to the grid's symmetry, ``Option.same_as``) said so; notation and \u00b1 under *Details*."""
    items = []
    for i, o in enumerate(options):
        said = escape(plain.describe(obs, o.action))
        same = " (an equal place in your grid: the same move as one above)" if o.same_as else ""
        if i == 0:
            items.append(f'<li class="golf-best"><b>\u2605 Best.</b> {said}</li>')
        elif o.same_as == options[0].action:
            items.append(f'<li class="golf-best-too"><b>\u2605 Best too.</b> {said} '
                         f"<span class='golf-note'>{escape(same)}</span></li>")
        else:
            lost = plain.loss_words(max(0.0, o.value - options[0].value))
            items.append(f"<li>{said} <span class='golf-note'>{escape(lost + same)}.</span></li>")
    why = "".join(f"<div class='golf-note'>{escape(o.action)}: {escape(o.reason)}</div>" for o in options)
    return f"<ol>{''.join(items)}</ol>{details_html(plain.details_rows(options), why)}"


def grade_html(g: CoachGrade, better: bool = True) -> str:
    """A grade badge: the grade word, the points lost compared with the best move, the rule the
    move broke and one *Better* sentence; the coach's notation under *Details*. ``better=False``:
    the better move kept hidden (a review row not yet retried)."""
    if not better:
        return f"{_word(g.grade)} {escape(grade_words(g, word=False).split(plain.BETTER)[0].strip())}"
    note = f"<div class='golf-note'>You played {escape(g.action)}; best {escape(g.best)}. {escape(g.reason)}</div>"
    return (f"{_word(g.grade)} {escape(grade_words(g, word=False))}"
            f"{details_html(plain.details_rows(list(g.options)), note)}")


def loss_per_turn(graded: Review) -> tuple[list[str], list[float], list[str]]:
    """Points lost per turn of the learner (``hole 2, turn 3``; ``hole 2, flips`` for the initial
    flips): the labels, the points and the worst grade of each turn, in play order."""
    labels: list[str] = []
    points: list[float] = []
    worst: list[str] = []
    for g in graded.grades:
        label = f"hole {g.round}, " + ("flips" if g.turn == 0 else f"turn {g.turn}")
        if not labels or labels[-1] != label:
            labels.append(label)
            points.append(0.0)
            worst.append("OPTIMAL")
        points[-1] += g.ev_loss
        if GRADES.index(g.grade) > GRADES.index(worst[-1]):
            worst[-1] = g.grade
    return labels, points, worst


class Coach:
    """The coach at ``table`` (a ``GolfTable``); ``on``: coaching on from the start.

    Its widgets are attributes (``toggle``, ``hint_button``, ``hint_text``, ``grade_badge``,
    ``review_button``, ``review_box``, ``accuracy``, ``chart``, ``replay_button``), so code
    can press them. ``grades``: the learner's graded decisions, by their index in
    ``table.game.history``; ``review`` the review built from them.
    """

    def __init__(self, table: GolfTable, on: bool = True, tutor: bool = False) -> None:
        if not isinstance(table, GolfTable):
            raise ValueError(f"a Coach attaches to a widgets.GolfTable, got {type(table).__name__}")  # noqa: TRY004
        for name, value in (("on", on), ("tutor", tutor)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, got {value!r}")  # noqa: TRY004
        self.table = table
        self.errors: list[str] = []
        self.grades: dict[int, CoachGrade] = {}
        #: Retried decisions (by step): True once retried right.
        self.retried: dict[int, bool] = {}
        self._rows: dict[int, w.HTML] = {}  # the review's costly decisions, by step
        self.held: str | None = None
        self._jobs: list = []
        self.tutor_toggle = w.ToggleButton(value=tutor, description="Tutor", icon="hand-paper-o",
                                           tooltip="Before a move that loses 5 points or more, ask first")
        self.tutor_toggle.add_class("golf-tutor-toggle")
        self.tutor_text = w.HTML()
        self.tutor_play = button("Play it anyway", "check", "golf-tutor-play", "Play the move you chose")
        self.tutor_think = button("Think again", "undo", "golf-tutor-think", "Choose another move")
        self.tutor_box = w.HBox([self.tutor_text, self.tutor_play, self.tutor_think],
                                layout=w.Layout(flex_flow="row wrap", align_items="center", display="none"))
        self.tutor_box.add_class("golf-tutor")
        self.retry_box = w.VBox(layout=w.Layout(display="none"))
        self.retry_box.add_class("golf-retry")
        self.toggle = w.ToggleButton(value=on, description="Coach", icon="graduation-cap",
                                     tooltip="Turn the coach on: hints, a grade for each of your moves, a review")
        self.toggle.add_class("golf-coach")
        self.hint_button = button("Hint", "lightbulb-o", "golf-hint", "What would the coach play here, and why?")
        self.hint_text = w.HTML()
        self.hint_text.add_class("golf-hint-text")
        self.grade_badge = w.HTML()
        self.grade_badge.add_class("golf-grade")
        self.review_button = button("Review", "list", "golf-review", "Your game so far, graded by the coach")
        self.replay_button = button("Replay this game", "film", "golf-open-replay",
                                     "Step through this game move by move, with the coach's grades")
        self.accuracy = w.HTML()
        self.summary = w.HTML()
        self.costly_box = w.VBox()
        self.chart = ChartSlot(*CHART_SIZE, showlegend=False)
        self.replay_box = w.VBox()
        self.review_box = w.VBox([w.HTML(COACH_CSS), self.accuracy, self.summary, self.costly_box, self.retry_box,
                                  self.chart,
                                  w.HBox([self.replay_button]), self.replay_box])
        self.review_box.add_class("golf-review-box")
        self.bar = w.VBox([
            w.HTML(COACH_CSS),
            w.HBox([self.toggle, self.tutor_toggle, self.hint_button, self.review_button, self.grade_badge],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.tutor_box,
            self.hint_text,
        ])
        self.bar.add_class("golf-coach-bar")
        self.toggle.observe(self._on_toggle, names="value")
        self.hint_button.on_click(self._guard(lambda _b: self.show_hint()))
        self.review_button.on_click(self._guard(lambda _b: self._toggle_review()))
        self.replay_button.on_click(self._guard(lambda _b: self.open_replay()))
        self.tutor_play.on_click(self._guard(lambda _b: self.play_anyway()))
        self.tutor_think.on_click(self._guard(lambda _b: self.think_again()))
        table.tutor = self._guard(self.ask_first)
        table.on_move(self._guard(self._on_move))
        table.on_start(self._guard(self._on_start))
        table.grader = self.grade_finished
        table.coach_slot.children = [self.bar]
        table.review_slot.children = [self.review_box]
        self._on_start()

    # ------------------------------------------------------------------ public
    @property
    def on(self) -> bool:
        """True while the coach is on."""
        return self.toggle.value

    @property
    def review(self) -> Review:
        """The learner's graded decisions so far, as a ``golflab.coach.Review``."""
        return Review(self.table.human_seat, [self.grades[s] for s in sorted(self.grades)])

    def show_hint(self) -> None:
        """Show every option of the learner's decision, valued; says why not when there is none."""
        obs = self._decision()
        if obs is None:
            self.hint_text.value = "<i>The coach gives a hint when it is your move and you have a choice.</i>"
            return
        self.hint_text.value = '<span class="golf-thinking">The coach is thinking\u2026</span>'
        history = len(self.table.game.history)

        def work() -> None:
            options = hint(obs)
            if len(self.table.game.history) == history:  # nobody moved meanwhile
                self.hint_text.value = hint_html(options, obs)

        later(self._guard(work))

    def show_review(self) -> None:
        """Open the review of the learner's graded decisions so far."""
        graded = self.review
        counts = " \u00b7 ".join(f"{_word(q)} {graded.counts[q]}" for q in GRADES)
        hole = self.table.game.round
        title = "Game review" if self.table.game.phase is Phase.GAME_OVER else f"Review after hole {hole}"
        self.accuracy.value = (f"<h3>{title}</h3>Accuracy <span class='golf-accuracy'>{graded.accuracy:g}</span> "
                               f"<span class='golf-note'>(100 = every move the coach's best; a move losing 5 points "
                               f"counts about 37) over {len(graded.grades)} decisions</span>")
        self.summary.value = f"<div>{counts}</div>"
        rows = []
        for i, g in enumerate(graded.costliest(COSTLIEST)):
            show = button("Show", "eye", f"golf-review-show-{i}", "Open the board as it was, with the better move")
            show.layout.min_width = "84px"
            show.on_click(self._guard(lambda _b, g=g: self.show_decision(g)))
            retry = button("Retry", "repeat", f"golf-review-retry-{i}", "Try this decision again from its position")
            retry.layout.min_width = "84px"
            retry.on_click(self._guard(lambda _b, g=g: self.retry(g)))
            said = w.HTML(self._row_html(g))
            self._rows[g.step] = said
            rows.append(w.HBox([show, retry, said], layout=w.Layout(align_items="center")))
        if not rows:
            rows = [w.HTML("<div class='golf-note'>No decision lost points: nothing to show.</div>")]
        self.costly_box.children = [w.HTML("<b>Costliest decisions</b>")] + rows
        labels, points, worst = loss_per_turn(graded)
        import plotly.graph_objects as go

        self.chart.draw([go.Bar(x=labels, y=points, marker_color=[GRADE_COLOURS[q] for q in worst],
                                hovertext=worst)],
                        title="Points lost per turn (colour: the turn's worst grade)",
                        yaxis_title="points lost", xaxis_title="hole and turn")
        self.review_box.layout.display = None

    def show_decision(self, g: CoachGrade) -> ReplayViewer:
        """Open the replay viewer at the board before decision ``g``, with the better move."""
        viewer = self.open_replay(step=g.step)
        viewer.go(g.step, f"The board before your move (hole {g.round}, turn {g.turn}). {grade_words(g)}")
        return viewer

    def _row_html(self, g: CoachGrade) -> str:
        """A costly decision in the review: the better move hidden until it was retried (or shown)."""
        tried = g.step in self.retried
        mark = " <span class='golf-retry-right'>\u2713 You retried it right.</span>" if self.retried.get(g.step) else ""
        return (f"Hole {g.round}, turn {g.turn}: you chose to <b>{escape(self._move(g, g.action))}</b>.{mark} "
                f"{grade_html(g, better=tried)}")

    def retry(self, g: CoachGrade) -> None:
        """Open decision ``g`` again at its position: the board as it was and one button per move
        (``golf-retry-option-A``); the better move stays hidden until the learner has tried."""
        if g.observation is None or g.step is None:
            raise ValueError("this decision has no position kept, so it cannot be retried")
        obs = g.observation
        board = w.HTML(board_html(state_at(self.table.game, g.step), self.table.human_seat))
        feedback = w.HTML()
        feedback.add_class("golf-retry-feedback")
        buttons = []
        for act in obs.legal_actions:
            b = button(_move_label(obs, act), "", f"golf-retry-option-{str(act).replace(' ', '-')}",
                        "Play this move here")
            b.on_click(self._guard(lambda _b, a=str(act): self.try_again(g, a, feedback)))
            buttons.append(b)
        self.retry_box.children = [
            w.HTML(f"<b>Retry: hole {g.round}, turn {g.turn}.</b> The board as it was. What do you play now?"),
            board, w.HBox(buttons, layout=w.Layout(flex_flow="row wrap")), feedback]
        self.retry_box.layout.display = None

    def try_again(self, g: CoachGrade, action: str, feedback: w.HTML | None = None) -> bool:
        """Grade ``action`` retried at ``g``'s position; True (and marked) when it is a best move.
        The better move is told only now, after the try."""
        obs = g.observation
        retried = grade(obs, action)
        right = retried.ev_loss <= RETRY_TOLERANCE
        self.retried[g.step] = self.retried.get(g.step, False) or right
        if g.step in self._rows:
            self._rows[g.step].value = self._row_html(g)
        verdict = ("<span class='golf-retry-right'>\u2713 Right!</span>" if right
                   else "<span class='golf-retry-wrong'>Not yet.</span>")
        text = f"<b>{escape(_move_label(obs, action))}</b>: {verdict} {escape(grade_words(retried, word=False))}"
        if feedback is not None:
            feedback.value = text
        return right

    # ----------------------------------------------------------------- tutor
    @property
    def tutor(self) -> bool:
        """True while tutor mode is on (and the coach is on)."""
        return self.on and self.tutor_toggle.value

    def ask_first(self, obs: Observation, action) -> bool:
        """The table's check before the learner's move: True (the move is held, the question
        shown) when tutor mode is on and the move loses ``TUTOR_LOSS`` points or more."""
        self._clear_tutor()
        if not self.tutor or len(obs.legal_actions) < 2:
            return False
        options = hint(obs)
        mine = next(o for o in options if o.action == str(action))
        loss = mine.value - options[0].value
        if loss < TUTOR_LOSS:
            return False
        self.held = str(action)
        said = plain.move(obs, action)
        self.tutor_text.value = (f"<b>Careful:</b> if you {escape(said)}, you lose {loss:.1f} points compared "
                                 "with the best move.")
        self.tutor_box.layout.display = None
        return True

    def play_anyway(self) -> None:
        """Play the held move (*Play it anyway*)."""
        action, self.held = self.held, None
        self._clear_tutor()
        if action is not None:
            self.table.play_anyway(action)

    def think_again(self) -> None:
        """Drop the held move (*Think again*): nothing was played; the learner chooses again."""
        self._clear_tutor()

    def open_replay(self, step: int = 0) -> ReplayViewer:
        """The table's game in a ``ReplayViewer`` (the learner's view, with the coach's grades)."""
        viewer = ReplayViewer(self.table.game, seat=self.table.human_seat, review=self.review, step=step,
                              opener=False)
        self.replay_box.children = [viewer]
        self.review_box.layout.display = None
        return viewer

    def grade_finished(self, keep) -> None:
        """Call ``keep(accuracy, blunders)`` for the finished game once every grade asked for is in
        (the table keeps the game with them); ``keep()`` when the coach is off or graded nothing."""
        if not self.on:
            keep()
            return

        def done() -> None:
            graded = self.review
            if graded.grades:
                keep(graded.accuracy, graded.counts["BLUNDER"])
            else:
                keep()

        self._soon(done)

    # ---------------------------------------------------------------- internal
    def _clear_tutor(self) -> None:
        self.held = None
        self.tutor_text.value = ""
        self.tutor_box.layout.display = "none"

    @staticmethod
    def _move(g: CoachGrade, action: str) -> str:
        return plain.move(g.observation, action) if g.observation is not None else action

    def _guard(self, fn):
        """``fn`` whose errors are logged and shown in the grade badge, never raised into the table."""

        def run(*args):
            try:
                return fn(*args)
            except Exception as exc:
                log.exception("coach callback failed")
                self.errors.append(f"{type(exc).__name__}: {exc}")
                self.grade_badge.value = f"<i>The coach could not answer ({escape(str(exc))}).</i>"
                return None

        return run

    def _decision(self) -> Observation | None:
        """The learner's observation when it is their move with more than one option, else None."""
        game, seat = self.table.game, self.table.human_seat
        if game.phase is Phase.ROUND_OVER or game.phase is Phase.GAME_OVER or game.current_player != seat:
            return None
        obs = game.observation(seat)
        return obs if len(obs.legal_actions) > 1 else None

    def _on_toggle(self, _change=None) -> None:
        shown = None if self.on else "none"
        for widget in (self.hint_button, self.review_button, self.hint_text, self.grade_badge, self.tutor_toggle):
            widget.layout.display = shown
        if not self.on:
            self.review_box.layout.display = "none"
            self._clear_tutor()

    def _toggle_review(self) -> None:
        if self.review_box.layout.display == "none":
            self.show_review()
        else:
            self.review_box.layout.display = "none"

    def _on_start(self) -> None:
        self.grades = {}
        self.retried = {}
        self._rows = {}
        self.retry_box.children = []
        self.retry_box.layout.display = "none"
        self._clear_tutor()
        self.hint_text.value = ""
        self.grade_badge.value = ""
        self.replay_box.children = []
        self.review_box.layout.display = "none"
        self._on_toggle()

    def _on_move(self, before: Observation, action: str, step: int) -> None:
        self.hint_text.value = ""
        self._clear_tutor()
        if self.on and before.seat == self.table.human_seat and len(before.legal_actions) > 1:
            self.grade_badge.value = '<span class="golf-thinking">Grading your move: thinking\u2026</span>'
            game = self.table.game
            self._soon(lambda: self._grade(game, before, action, step))
        if self.on and self.table.game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            self._soon(self.show_review)  # after every grade asked for before it
        elif self.review_box.layout.display is None and before.seat == self.table.human_seat:
            self.review_box.layout.display = "none"  # a new hole is under way

    def _soon(self, job) -> None:
        """Run ``job`` after the page has shown what is set now, after the jobs queued before it."""
        self._jobs.append(self._guard(job))
        if len(self._jobs) == 1:
            later(self._run_jobs)

    def _run_jobs(self) -> None:
        while self._jobs:
            self._jobs[0]()
            self._jobs.pop(0)

    def _grade(self, game, before: Observation, action: str, step: int) -> None:
        if self.table.game is not game:  # a new game started meanwhile
            return
        g = grade(before, action, step=step)
        self.grades[step] = g
        self.grade_badge.value = grade_html(g)
