"""Checked exercises for the lessons: one widget (``Exercises``) serves every lesson.

A question knows its answer from the engine and checks a learner's answer:

* ``ScoreHand``: score this hand (a whole number);
* ``ScoreHole``: what does one seat score for the hole, house-rule adjustments included;
* ``PairPays``: will this column pair pay (does pairing save points)? yes or no;
* ``Choice``: a rule of the game with fixed options (made by ``widgets.lesson_sets``);
* ``BestOption``: which option is best here (from a ``golflab.puzzles`` puzzle) and, when
  asked, by how much over the second best, in ``BUCKETS`` (a little / clearly / a lot).

``question.check(choice=..., number=...)`` returns a ``Verdict``: right (and why), or a nudge
saying what to look at, never the answer; ``question.solution()`` gives the answer. Input that is
no answer (an empty box, a word for a number, a choice that is not offered) is a ValueError
saying what is allowed; it counts as nothing and changes nothing.

Hooks: ``golf-exercise-N`` (one box per question), ``golf-exercise-choice``,
``golf-exercise-bucket``, ``golf-exercise-number``, ``golf-exercise-check``,
``golf-exercise-reveal`` (Show the answer), ``golf-exercise-feedback`` (with
``golf-exercise-right``, ``golf-exercise-wrong`` holding a ``golf-exercise-nudge``,
``golf-exercise-revealed`` or ``golf-exercise-refused``) and ``golf-exercise-progress``
(answered and right at the first try); the whole set is ``golf-exercise-set`` (with
``golf-large`` when shown large, see ``widgets.display_size``).

Only first tries count: a question answered after its answer was shown is not right at the
first try. Each checked answer is kept (``widgets.progress``: the class store for a signed-in
learner) as item ``<n>-<skill>`` of the set's lesson; a signed-in learner sees the lesson's stars
(``golf-lesson-stars``, the store's rule: ``lesson_summary``) and, on a later visit, the ticks
of the items answered before.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import ipywidgets as w

from golflab import Action, Game, HandBreakdown, Rules, hand_breakdown, pair_gain, round_breakdown
from golflab.classroom.records import LessonProgress, lesson_summary  # not the store: no SQLAlchemy for a guest
from golflab.display import grid_html
from golflab.puzzles import SEPARATION, Puzzle, decision_kind, describe
from golflab.words import card_name, rules_words

from ..account import learner_progress as progress
from ..on_screen import answer_on_screen, shown_box
from ..table.display_size import LARGE_CSS, resolve_large, set_large
from .puzzle_board import BOARD_CSS, feedback_html, position_html, question_text
from .rules_html import COLUMN_NAMES, LESSON_CSS, adjustments_html, hand_html

#: How far (points) a gap a lesson quotes may move when re-valued (``tests/coach/test_taught_values.py``);
#: the exercises themselves ask for the gap in ``BUCKETS``.
MARGIN_TOLERANCE = 1.0
EXERCISE_CSS = """<style>
.golf-exercise{border:1px solid #ccc;border-radius:8px;padding:6px 12px;margin:8px 0;max-width:900px}
.golf-exercise-feedback{font:14px/1.45 system-ui,sans-serif}
.golf-exercise-right{background:#e8f5e9;border-left:4px solid #2e7d32;padding:4px 10px}
.golf-exercise-wrong{background:#ffebee;border-left:4px solid #c62828;padding:4px 10px}
.golf-exercise-refused{background:#fff3e0;border-left:4px solid #e65100;padding:4px 10px}
.golf-exercise-revealed{background:#e3f2fd;border-left:4px solid #1565c0;padding:4px 10px}
.golf-exercise .gl-note{color:#555}
.golf-large .golf-exercise-bucket label{font-size:20px}
.golf-exercise-progress{font:600 15px system-ui,sans-serif}
</style>"""


@dataclass(frozen=True)
class Verdict:
    """The result of checking an answer: ``correct``, ``message`` (one plain line) and ``detail``
    (HTML showing how the engine got its answer)."""

    correct: bool
    message: str
    detail: str = ""


def parse_number(text: str, whole: bool, what: str) -> float:
    """A typed number (``-3``, ``+4``, ``2.5``, the minus sign ``−``); a ValueError says what is allowed."""
    raw = str(text).strip().replace("\u2212", "-")
    example = "12 or -3" if whole else "2.5 or 4"
    if not raw:
        raise ValueError(f"the box is empty: type {what}, e.g. {example}")
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f'"{text}" is not a number: type {what}, e.g. {example}') from None
    if not math.isfinite(value):
        raise ValueError(f'"{text}" is not a usable number: type {what}, e.g. {example}')
    if whole and value != int(value):
        raise ValueError(f'"{text}" is not a whole number: {what} is a whole number, e.g. {example}')
    return value


def _grid(breakdown: HandBreakdown) -> str:
    """A scored hand's six cards as a grid (no score shown)."""
    cells = [None] * 6
    for col in breakdown.columns:
        for pos, card in zip(col.positions, col.cards):
            cells[pos] = card
    return grid_html(cells)


class Question(ABC):
    """A checked question. ``choices`` are ``(label, value)`` pairs (empty: no choice asked);
    ``number_label`` names the number asked for ('' when none); ``buckets`` (when not empty)
    replace the number with a choice of how big it is (its value is passed as ``number``).

    ``check`` returns a ``Verdict``: when wrong, its message is a nudge (what to look at) and
    never the answer; ``solution()`` shows the answer, only on request."""

    prompt: str = ""
    skill: str = "exercise"  # the skill it practises, as the learner's progress names it
    choices: tuple = ()
    number_label: str = ""
    whole_number: bool = True
    buckets: tuple = ()

    def figure(self) -> str:
        """HTML shown with the question (a hand or a position)."""
        return ""

    @property
    @abstractmethod
    def answer_kind(self) -> str:
        """What kind of answer is right (for variety: no kind may fill a lesson), e.g. ``"yes"``, ``"draw"``."""

    @abstractmethod
    def check(self, choice: str | None = None, number: str | None = None) -> Verdict:
        """The verdict on an answer; a ValueError when the input is no answer (see the module)."""

    @abstractmethod
    def solution(self) -> Verdict:
        """The answer and how the engine got it (a right ``Verdict`` shown when the learner asks)."""

    def _choice(self, choice, options: tuple | None = None) -> str:
        options = self.choices if options is None else options
        allowed = [value for _label, value in options]
        if choice is None or choice == "":
            raise ValueError("pick one of the options first: " + ", ".join(label for label, _v in options))
        if choice not in allowed:
            raise ValueError(f"{choice!r} is not one of the options; pick one of: "
                             + ", ".join(label for label, _v in options))
        return choice


def _wrong(nudge: str) -> Verdict:
    return Verdict(False, f"Not yet. {nudge}")


class ScoreHand(Question):
    """Score this hand under ``rules``: the engine's ``hand_breakdown`` total is the answer."""

    number_label = "Score"
    skill = "score-hand"

    def __init__(self, cards: Sequence, rules: Rules | None = None, prompt: str = "What does this hand score?"):
        self.rules = rules or Rules()
        self.breakdown = hand_breakdown(cards, self.rules)
        self.prompt = f"{prompt} House rules: {rules_words(self.rules, none='none')}."

    @classmethod
    def dealt(cls, seed: int, rules: Rules | None = None, seat: int = 0, **kwargs) -> ScoreHand:
        """The hand the engine deals to ``seat`` in a game from ``seed`` (every card face up)."""
        game = Game(players=2, rules=rules or Rules(), seed=seed)
        return cls(game.grid(seat), rules, **kwargs)

    @property
    def answer(self) -> int:
        return self.breakdown.total

    @property
    def answer_kind(self) -> str:
        return f"score {self.answer}"

    def figure(self) -> str:
        return f'<div class="golf-lesson">{_grid(self.breakdown)}</div>'

    def check(self, choice=None, number=None) -> Verdict:
        said = int(parse_number(number, True, "the hand's score"))
        if said == self.answer:
            return Verdict(True, f"Right: the hand scores {self.answer}.", hand_html(self.breakdown, self.rules))
        look = ("Score it column by column: two cards of the same rank in a column make a pair; "
                "otherwise add both cards' points.")
        if self.rules.changes():
            look += " Check what the house rules do to the cards in this hand."
        return _wrong(look)

    def solution(self) -> Verdict:
        return Verdict(True, f"The hand scores {self.answer}. Here it is column by column:",
                       hand_html(self.breakdown, self.rules))


class ScoreHole(Question):
    """What does ``seat`` score for the hole, after the house rules' adjustments (``round_breakdown``)?"""

    number_label = "Hole score"
    skill = "score-hole"

    def __init__(self, players: Sequence[str], hands: Sequence, rules: Rules, finisher: int | None, seat: int,
                 prompt: str = ""):
        if not 0 <= seat < len(players) or len(players) != len(hands):
            raise ValueError(f"seat must be one of the {len(players)} players (0-{len(players) - 1}) with a "
                             f"hand each, got seat {seat!r} and {len(hands)} hands")
        self.players, self.rules, self.seat = list(players), rules, seat
        self.result = round_breakdown(hands, rules, finisher=finisher)
        out = f" {players[finisher]} went out." if finisher is not None else ""
        self.prompt = prompt or (f"House rules: {rules_words(rules, none='none')}.{out} "
                                 f"What does {players[seat]} score for the hole?")

    @classmethod
    def from_game(cls, game: Game, seat: int | None = None, **kwargs) -> ScoreHole:
        """The last finished hole of ``game`` (e.g. ``golflab.puzzles.cpu_hole``); default seat:
        the one who went out (else seat 0)."""
        if not game.round_results:
            raise ValueError("this game has no finished hole yet: play a hole to its end first")
        result = game.round_results[-1]
        hands = [game.grid(s) for s in range(len(game.players))]
        if seat is None:
            seat = result.finisher if result.finisher is not None else 0
        return cls(game.players, hands, game.rules, result.finisher, seat, **kwargs)

    @property
    def answer(self) -> int:
        return self.result.scores[self.seat]

    @property
    def answer_kind(self) -> str:
        return f"score {self.answer}"

    def figure(self) -> str:
        seats = [f'<div class="gl-seat"><div class="gl-name">{escape(name)}</div>{_grid(hand)}</div>'
                 for name, hand in zip(self.players, self.result.hands)]
        return f'<div class="golf-lesson">{"".join(seats)}</div>'

    def _steps(self) -> str:
        changes = self.result.adjustments_for(self.seat)
        return "; ".join(f"{a.rule.replace('_', ' ')} {a.points:+d}" for a in changes) or "no adjustment"

    def check(self, choice=None, number=None) -> Verdict:
        said = int(parse_number(number, True, "the hole score"))
        name = self.players[self.seat]
        detail = adjustments_html(self.players, self.result, self.rules)
        if said == self.answer:
            return Verdict(True, f"Right: {name} scores {self.answer} ({self.result.hand_scores[self.seat]} "
                           f"in hand, {self._steps()}).", detail)
        return _wrong(f"First score {name}'s hand column by column. Then go through the house rules: "
                      "who went out, and did anyone score lower?")

    def solution(self) -> Verdict:
        name = self.players[self.seat]
        return Verdict(True, f"{name}'s hand scores {self.result.hand_scores[self.seat]}, then {self._steps()}: "
                       f"{self.answer} for the hole.", adjustments_html(self.players, self.result, self.rules))


class PairPays(Question):
    """Will the pair in ``column`` (0 left, 1 middle, 2 right) pay, i.e. score less than its two
    cards apart? The hand must hold a pair there."""

    choices = (("Yes, it saves points", "yes"), ("No, it saves nothing or costs points", "no"))
    skill = "pairs"

    def __init__(self, cards: Sequence, column: int, rules: Rules | None = None):
        self.rules = rules or Rules()
        self.breakdown = hand_breakdown(cards, self.rules)
        cols = {c.positions[0]: c for c in self.breakdown.columns}
        if column not in cols or not cols[column].paired:
            raise ValueError(f"column {column!r} of this hand is no pair: pick 0, 1 or 2 where both cards match")
        self.column = cols[column]
        self.gain = pair_gain(self.column, self.rules)
        a, b = (card_name(c, suit=True) for c in self.column.cards)
        self.prompt = (f"The {COLUMN_NAMES[column]} column pairs the {a} and the {b}. "
                       f"House rules: {rules_words(self.rules, none='none')}. Will this pair pay?")

    @property
    def answer(self) -> str:
        return "yes" if self.gain > 0 else "no"

    @property
    def answer_kind(self) -> str:
        return self.answer

    def figure(self) -> str:
        return f'<div class="golf-lesson">{_grid(self.breakdown)}</div>'

    def _why(self) -> str:
        apart = self.column.points + self.gain
        return (f"Apart the two cards score {apart}; as a pair they score {self.column.points}: the pair "
                + (f"saves {self.gain} points." if self.gain > 0 else
                   "saves nothing." if self.gain == 0 else f"throws away {-self.gain} points."))

    def check(self, choice=None, number=None) -> Verdict:
        said = self._choice(choice)
        if said == self.answer:
            return Verdict(True, "Right. " + self._why(), hand_html(self.breakdown, self.rules))
        look = "What would the two cards score apart? Compare it with what a pair scores."
        if self.rules.changes():
            look += " The house rules may change both."
        return _wrong(look)

    def solution(self) -> Verdict:
        return Verdict(True, ("Yes. " if self.answer == "yes" else "No. ") + self._why(),
                       hand_html(self.breakdown, self.rules))


class Choice(Question):
    """A question with fixed options and one right ``answer`` (a rule of the game, read from the
    engine by the generator that makes it): ``nudge`` says what to look at, ``why`` explains."""

    def __init__(self, prompt: str, choices: Sequence[tuple[str, str]], answer: str, *, skill: str, nudge: str,
                 why: str, figure: str = ""):
        self.prompt, self.choices, self.skill = prompt, tuple(choices), skill
        if answer not in [value for _label, value in self.choices]:
            raise ValueError(f"the answer {answer!r} is not one of the options")
        self.answer, self.nudge, self.why, self._figure = answer, nudge, why, figure

    @property
    def answer_kind(self) -> str:
        return self.answer

    def figure(self) -> str:
        return self._figure

    def _label(self) -> str:
        return next(label for label, value in self.choices if value == self.answer)

    def check(self, choice=None, number=None) -> Verdict:
        if self._choice(choice) == self.answer:
            return Verdict(True, f"Right. {self.why}")
        return _wrong(self.nudge)

    def solution(self) -> Verdict:
        return Verdict(True, f"{self._label()}. {self.why}")


def bucket_of(gap: float) -> str:
    """How much better, as the exercises ask it: ``little`` (under 2), ``clearly`` (2-5) or ``lot`` (over 5)."""
    return "little" if gap < 2 else "clearly" if gap <= 5 else "lot"


def option_kind(obs, action: str) -> str:
    """What kind of move ``action`` is: ``draw``, ``take``, ``discard``, ``pair`` (a swap that
    completes a column pair), ``face-down`` or ``face-up`` (a swap for such a card)."""
    act = Action.parse(action)
    if act.kind != "swap":
        return act.kind
    partner = obs.my_grid[(act.pos + 3) % 6]
    if partner is not None and obs.drawn is not None and partner.rank == obs.drawn.rank:
        return "pair"
    return "face-down" if obs.my_grid[act.pos] is None else "face-up"


class BestOption(Question):
    """Which option is best in a puzzle's position and (``margin``) by how much over the second
    best, in ``BUCKETS``. An estimated gap (``gap_se`` > 0) must lie in one bucket by
    ``SEPARATION`` standard errors either side, else it is refused."""

    def __init__(self, puzzle: Puzzle, margin: bool = True):
        self.puzzle = puzzle
        obs = puzzle.observation
        self.choices = tuple((describe(obs, o.action)[0].upper() + describe(obs, o.action)[1:], o.action)
                             for o in sorted(puzzle.options, key=lambda o: o.action))
        if margin:
            low, high = puzzle.gap - SEPARATION * puzzle.gap_se, puzzle.gap + SEPARATION * puzzle.gap_se
            if bucket_of(low) != bucket_of(high):
                raise ValueError(f"this puzzle's gap ({puzzle.gap:.2f} ± {puzzle.gap_se:.2f}) may lie in two "
                                 "buckets: value it more precisely or ask no margin")
            self.buckets = BUCKETS
        ask = " And by how much does it beat the second best?" if margin else ""
        self.prompt = f"House rules: {rules_words(obs.rules, none='none')}. {question_text(obs)}{ask}"
        self.skill = "best-" + decision_kind(obs).replace("_", "-")  # as the puzzles name it

    @property
    def answer(self) -> tuple[str, float]:
        return self.puzzle.answer, self.puzzle.gap

    @property
    def answer_kind(self) -> str:
        return option_kind(self.puzzle.observation, self.puzzle.answer)

    @property
    def bucket(self) -> str | None:
        """The right bucket (None when no margin is asked)."""
        return bucket_of(self.puzzle.gap) if self.buckets else None

    def figure(self) -> str:
        return position_html(self.puzzle.observation)

    def check(self, choice=None, number=None) -> Verdict:
        said = self._choice(choice)
        size = self._choice(number, self.buckets) if self.buckets else None
        if not self.puzzle.is_answer(said):
            return _wrong(NUDGES[decision_kind(self.puzzle.observation)])
        if size is not None and size != self.bucket:
            return _wrong("That is the best option. Now look again at how far ahead of the next best it is. "
                          "A pair of high cards saves a lot, a small swap only a little.")
        return Verdict(True, "Right: " + self._said(), feedback_html(self.puzzle, said))

    def _said(self) -> str:
        best = describe(self.puzzle.observation, self.puzzle.answer)
        if not self.buckets:
            return f"{best} is the best option."
        size = next(label for label, value in self.buckets if value == self.bucket)
        return f"{best} is the best option. The gap to the next best: {size[:1].lower()}{size[1:]}."

    def solution(self) -> Verdict:
        text = self._said()
        return Verdict(True, text[0].upper() + text[1:], feedback_html(self.puzzle, self.puzzle.answer))


#: How much better the best option is, as the exercises ask it (``bucket_of``).
BUCKETS = (("A little (under 2 points)", "little"), ("Clearly (2 to 5 points)", "clearly"),
           ("A lot (over 5 points)", "lot"))
#: What a wrong choice in each kind of decision should look at (never the answer).
NUDGES = {
    "turn": "Look at the top card of the discard pile. Would it lower one of your columns, or pair with a "
            "card you show? Compare that with an unknown card from the deck.",
    "place": "Look first for a face-up card of the same rank as yours. Then look at your highest face-up "
             "card, and at what a face-down card is worth on average.",
    "last_card": "A card put on your last face-down card takes you out. Look at what your hand would score, "
                 "and whether that spot is the best one for this card.",
}


class Exercises(w.VBox):
    """A lesson's exercises: one box per question (Check, Show the answer), progress on top.

    ``answer(i, choice=..., number=...)`` checks question ``i`` as the button does and returns
    the ``Verdict`` (None when the input was refused: the message says why, nothing changes).
    A wrong answer gets a nudge; ``reveal(i)`` shows the answer (the button does the same) and
    counts the question as not right at the first try. Only first tries count for the stars.
    ``large``: large cards and type for a projector (None: the teacher's setting, ``?large=1``
    on the app's URL or ``GOLFLAB_LARGE``, as for the table; see ``widgets.display_size``).
    ``lesson``: the lesson the answers are kept under (None: from the title, ``progress.lesson_key``).
    """

    def __init__(self, questions: Sequence[Question], title: str = "Exercises", large: bool | None = None,
                 lesson: str | None = None):
        is_large = resolve_large(large)
        if not questions:
            raise ValueError("an exercise set needs at least one question")
        self.questions = list(questions)
        self.results: list[bool | None] = [None] * len(self.questions)  # the latest answer of each
        self.first_try: list[bool | None] = [None] * len(self.questions)  # right at the first try?
        self.revealed: set[int] = set()
        self.lesson = progress.lesson_key(title) if lesson is None else lesson
        self.stars = None  # the learner's LessonProgress in this lesson (signed in)
        self.progress = w.HTML()
        self.progress.add_class("golf-exercise-progress")
        self.boxes = [self._box(i, q) for i, q in enumerate(self.questions)]
        super().__init__([w.HTML(LESSON_CSS + BOARD_CSS + EXERCISE_CSS + LARGE_CSS + f"<h3>{escape(title)}</h3>"),
                          self.progress, *self.boxes])
        self.add_class("golf-exercise-set")
        set_large(self, is_large)
        self._restore()
        self._show_progress()

    def _box(self, i: int, q: Question) -> w.VBox:
        parts: list[w.Widget] = [w.HTML(f"<b>{i + 1}. {escape(q.prompt)}</b>"), w.HTML(q.figure())]
        row: list[w.Widget] = []
        box_choice = box_number = None
        if q.choices:
            box_choice = w.RadioButtons(options=list(q.choices), value=None, layout=w.Layout(width="auto"))
            box_choice.add_class("golf-exercise-choice")
            parts.append(box_choice)
        if q.buckets:
            box_number = w.RadioButtons(options=list(q.buckets), value=None, description="Better by",
                                        layout=w.Layout(width="auto"))
            box_number.add_class("golf-exercise-bucket")
            parts.append(box_number)
        elif q.number_label:
            box_number = w.Text(placeholder="a number", layout=w.Layout(width="90px"))
            box_number.add_class("golf-exercise-number")
            row += [w.HTML(f"<b>{escape(q.number_label)}</b>&nbsp;"), box_number]
        check = w.Button(description="Check", button_style="primary", layout=w.Layout(width="auto"))
        check.add_class("golf-exercise-check")
        reveal = w.Button(description="Show the answer", layout=w.Layout(width="auto"))
        reveal.add_class("golf-exercise-reveal")
        feedback = w.HTML()
        feedback.add_class("golf-exercise-feedback")
        feedback.add_class("golf-live")  # read out when it changes (a11y.html.j2)
        shown = shown_box()
        check.on_click(lambda _b: self.answer(i, *answer_on_screen(shown, box_choice, box_number)))
        reveal.on_click(lambda _b: self.reveal(i))
        # buttons as wide as their words, in a row that wraps on a narrow screen ("Show the an…" was cut)
        buttons = w.HBox([*row, check, reveal], layout=w.Layout(flex_flow="row wrap", align_items="center"))
        box = w.VBox([*parts, buttons, feedback, shown])
        box.add_class("golf-exercise")
        box.add_class(f"golf-exercise-{i}")
        box.feedback = feedback
        return box

    def _question(self, i: int) -> Question:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(self.questions):
            raise ValueError(f"there are {len(self.questions)} questions here (0-{len(self.questions) - 1}), got {i!r}")
        return self.questions[i]

    def answer(self, i: int, choice: str | None = None, number: str | None = None) -> Verdict | None:
        """Check question ``i``; a refused input shows why and keeps the previous result."""
        question = self._question(i)
        feedback = self.boxes[i].feedback
        try:
            verdict = question.check(choice=choice, number=number)
        except ValueError as err:
            kept = {None: "", True: " (your earlier right answer still counts)",
                    False: " (your earlier answer still counts)"}[self.results[i]]
            feedback.value = f"<b>Not checked:</b> {escape(str(err))}.{kept}"
            self._mark(feedback, "golf-exercise-refused")
            return None
        if self.first_try[i] is None:
            self.first_try[i] = verdict.correct
        self.results[i] = verdict.correct
        self._keep(i, verdict.correct)
        self._show_progress()
        if verdict.correct:
            note = ("" if self.first_try[i] else
                    ' <span class="gl-note">(not at the first try, so it earns no star)</span>')
            feedback.value = f"<b>\u2714 {escape(verdict.message)}</b>{note}{verdict.detail}"
            self._mark(feedback, "golf-exercise-right")
        else:
            feedback.value = (f'<b>\u2718</b> <span class="golf-exercise-nudge">{escape(verdict.message)}</span> '
                              '<span class="gl-note">Try again, or press <i>Show the answer</i>.</span>')
            self._mark(feedback, "golf-exercise-wrong")  # last: the sign
        return verdict

    def reveal(self, i: int) -> Verdict:
        """Show question ``i``'s answer; unanswered until now, it is no longer right at the first try."""
        shown = self._question(i).solution()
        self.revealed.add(i)
        if self.first_try[i] is None:
            self.first_try[i] = False
            self.results[i] = False
            self._keep(i, False)
            self._show_progress()
        feedback = self.boxes[i].feedback
        feedback.value = (f"<b>The answer:</b> {escape(shown.message)}{shown.detail}"
                          '<div class="gl-note">Type or pick it to finish the question; it counts as not right '
                          "at the first try.</div>")
        self._mark(feedback, "golf-exercise-revealed")
        return shown

    @staticmethod
    def _mark(feedback: w.HTML, cls: str) -> None:
        for old in ("golf-exercise-right", "golf-exercise-wrong", "golf-exercise-refused", "golf-exercise-revealed"):
            feedback.remove_class(old)
        feedback.add_class(cls)

    # -- the learner's progress (widgets.progress), in one place --
    def item_id(self, i: int) -> str:
        """Question ``i``'s key in the learner's progress: its number and skill (``2-pairs``)."""
        return f"{i + 1}-{self.questions[i].skill}"

    def _restore(self) -> None:
        """A signed-in learner's earlier answers: their ticks, and the lesson's stars."""
        saved = progress.lesson_results(self.lesson)
        for i, box in enumerate(self.boxes):
            right = saved.get(self.item_id(i))
            if right is not None:
                self.results[i] = right
                self.first_try[i] = right  # tried before: a new answer is no first try (the store counts)
                box.feedback.value = ("<b>\u2714 You answered this one right on an earlier visit.</b>" if right else
                                      "<b>\u2718 Your earlier answer was not right: try again.</b>")
                self._mark(box.feedback, "golf-exercise-right" if right else "golf-exercise-wrong")
        self.stars = progress.lesson_stars(self.lesson) if saved else None

    def _keep(self, i: int, correct: bool) -> None:
        if progress.record_exercise(self.lesson, self.item_id(i), correct, lesson_items=len(self.questions),
                                    skill=self.questions[i].skill) is not None:
            self.stars = progress.lesson_stars(self.lesson)

    def summary(self) -> LessonProgress:
        """This page's first-try results: answered, right at the first try, stars and done
        (the class store's rule, ``lesson_summary``); a signed-in learner's come from the store."""
        return self.stars or lesson_summary(self.lesson, len(self.questions), self.done, self.first_try_right)

    def _progress_note(self) -> str:
        """The lesson's stars (signed in), or why the answers are not being kept."""
        problem = progress.problem()
        if problem:
            return f' <div class="golf-progress-problem">{escape(problem)}</div>'
        if self.stars is None:
            return ""
        stars = progress.stars_text(self.stars.stars)
        done = "lesson done" if self.stars.done else f"{self.stars.first_try_right} right at the first try"
        return (f' &nbsp; <span class="golf-lesson-stars" title="Stars come from answers right at the first '
                f'try, once every question is answered">{stars}</span> {done}')

    @property
    def done(self) -> int:
        return sum(r is not None for r in self.results)

    @property
    def right(self) -> int:
        return sum(r is True for r in self.results)

    @property
    def first_try_right(self) -> int:
        return sum(r is True for r in self.first_try)

    def _show_progress(self) -> None:
        total = len(self.questions)
        summary = self.summary()
        bar = "".join("\u2714" if r else "\u2718" if r is False else "\u25cb" for r in self.first_try)
        self.progress.value = (f"Progress {bar} &nbsp; {summary.answered} of {total} answered, "
                               f"{summary.first_try_right} right at the first try" + self._progress_note())
