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

The coach computes after the page has shown "thinking…" (``replay.later``), so a slow
valuation never leaves the page without feedback.
"""

from __future__ import annotations

import logging
from html import escape

import ipywidgets as w

from golflab import Observation, Phase
from golflab.analysis import GRADES
from golflab.coach import CoachGrade, Option, Review, grade, hint

from .explorers.base import ChartSlot
from .replay import ReplayViewer, grade_words, later
from .table import GolfTable

log = logging.getLogger(__name__)

COSTLIEST = 3
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
</style>
"""


def _button(description: str, icon: str, hook: str, tooltip: str, **kwargs) -> w.Button:
    b = w.Button(description=description, icon=icon, tooltip=tooltip, layout=w.Layout(width="auto"), **kwargs)
    b.add_class(hook)
    return b


def _word(quality: str) -> str:
    return (f'<span class="golf-grade-word golf-grade-{quality.lower()}" '
            f'style="background:{GRADE_COLOURS[quality]}">{quality}</span>')


def hint_html(options: list[Option]) -> str:
    """The hint: every option with its value and reason, best first and marked."""
    rows = []
    for i, o in enumerate(options):
        mark = "\u2605 best" if i == 0 else f"+{o.value - options[0].value:.1f}"
        rows.append(f'<tr class="{"golf-best" if i == 0 else ""}"><td>{escape(mark)}</td><td>{escape(o.action)}</td>'
                    f"<td>{o.value:+.1f} \u00b1 {o.se:.1f}</td><td>{escape(o.reason)}</td></tr>")
    return ("<table><tr><td></td><td><b>move</b></td><td><b>value</b></td><td><b>what it does</b></td></tr>"
            f"{''.join(rows)}</table><div class='golf-note'>Value: your expected score for this hole minus the "
            "others' average, from simulated play-outs (lower is better; \u00b1 one standard error). The column "
            "right of \u2605 says how many points each move gives away.</div>")


def grade_html(g: CoachGrade) -> str:
    """A grade badge: the grade word, the points lost, the better move and why."""
    return f"{_word(g.grade)} {escape(grade_words(g, word=False))}"


def loss_per_turn(graded: Review) -> tuple[list[str], list[float], list[str]]:
    """Points lost per turn of the learner (``H2 T3``; ``H2 flips`` for the initial flips): the
    labels, the points and the worst grade of each turn, in play order."""
    labels: list[str] = []
    points: list[float] = []
    worst: list[str] = []
    for g in graded.grades:
        label = f"H{g.round} " + ("flips" if g.turn == 0 else f"T{g.turn}")
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

    def __init__(self, table: GolfTable, on: bool = True) -> None:
        if not isinstance(table, GolfTable):
            raise ValueError(f"a Coach attaches to a widgets.GolfTable, got {type(table).__name__}")  # noqa: TRY004
        if not isinstance(on, bool):
            raise ValueError(f"on must be True or False, got {on!r}")  # noqa: TRY004
        self.table = table
        self.errors: list[str] = []
        self.grades: dict[int, CoachGrade] = {}
        self._jobs: list = []
        self.toggle = w.ToggleButton(value=on, description="Coach", icon="graduation-cap",
                                     tooltip="Turn the coach on: hints, a grade for each of your moves, a review")
        self.toggle.add_class("golf-coach")
        self.hint_button = _button("Hint", "lightbulb-o", "golf-hint", "What would the coach play here, and why?")
        self.hint_text = w.HTML()
        self.hint_text.add_class("golf-hint-text")
        self.grade_badge = w.HTML()
        self.grade_badge.add_class("golf-grade")
        self.review_button = _button("Review", "list", "golf-review", "Your game so far, graded by the coach")
        self.replay_button = _button("Replay this game", "film", "golf-open-replay",
                                     "Step through this game move by move, with the coach's grades")
        self.accuracy = w.HTML()
        self.summary = w.HTML()
        self.costly_box = w.VBox()
        self.chart = ChartSlot(*CHART_SIZE, showlegend=False)
        self.replay_box = w.VBox()
        self.review_box = w.VBox([w.HTML(COACH_CSS), self.accuracy, self.summary, self.costly_box, self.chart,
                                  w.HBox([self.replay_button]), self.replay_box])
        self.review_box.add_class("golf-review-box")
        self.bar = w.VBox([
            w.HTML(COACH_CSS),
            w.HBox([self.toggle, self.hint_button, self.review_button, self.grade_badge],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.hint_text,
        ])
        self.bar.add_class("golf-coach-bar")
        self.toggle.observe(self._on_toggle, names="value")
        self.hint_button.on_click(self._guard(lambda _b: self.show_hint()))
        self.review_button.on_click(self._guard(lambda _b: self._toggle_review()))
        self.replay_button.on_click(self._guard(lambda _b: self.open_replay()))
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
                self.hint_text.value = hint_html(options)

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
            show = _button("Show", "eye", f"golf-review-show-{i}", "Open the board as it was, with the better move")
            show.layout.min_width = "84px"
            show.on_click(self._guard(lambda _b, g=g: self.show_decision(g)))
            rows.append(w.HBox([show, w.HTML(f"Hole {g.round}, turn {g.turn}: you played <b>{escape(g.action)}</b> "
                                             f"\u2014 {grade_html(g)}")], layout=w.Layout(align_items="center")))
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
        viewer.go(g.step, f"The board before your move (hole {g.round}, turn {g.turn}): you played {g.action}, "
                          f"{g.grade}, {g.ev_loss:.1f} points lost; the better move was {g.best}.")
        return viewer

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
        for widget in (self.hint_button, self.review_button, self.hint_text, self.grade_badge):
            widget.layout.display = shown
        if not self.on:
            self.review_box.layout.display = "none"

    def _toggle_review(self) -> None:
        if self.review_box.layout.display == "none":
            self.show_review()
        else:
            self.review_box.layout.display = "none"

    def _on_start(self) -> None:
        self.grades = {}
        self.hint_text.value = ""
        self.grade_badge.value = ""
        self.replay_box.children = []
        self.review_box.layout.display = "none"
        self._on_toggle()

    def _on_move(self, before: Observation, action: str, step: int) -> None:
        self.hint_text.value = ""
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
