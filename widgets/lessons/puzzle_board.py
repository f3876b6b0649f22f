"""Puzzles from real play, one at a time: the board as the seat sees it, the options as buttons.

``position_html(obs)`` draws a position (also used by the lessons' exercises); ``PuzzleBoard``
serves ``golflab.puzzles.generate`` puzzles with feedback, a running score and streak,
difficulty by gap and selectable house rules. Hooks: ``golf-puzzle-option-<action>`` (spaces
as dashes: ``golf-puzzle-option-swap-3``), ``golf-puzzle-feedback``, ``golf-puzzle-next``,
``golf-puzzle-score``, ``golf-puzzle-question``, ``golf-puzzle-difficulty``.

Each answer is kept (``widgets.progress``) under the puzzle's ``puzzle_key``: a signed-in
learner's rating and its change (``golf-puzzle-rating``) and streak carry over from visit to
visit, and the puzzles they missed that are due again come first.

A signed-in learner whose class was assigned a teacher's puzzle set (``golflab.classroom``'s puzzle
sets, saved from the analysis board) chooses it in ``golf-puzzle-source``: the board then serves the
set's items in order, each answer kept with the set (the first try is what counts, on the board and
the teacher's dashboard; a finished set earns stars as a lesson does), and says when the set is
done; the same choice brings back puzzles from real play.

Puzzles are made one at a time (``puzzle_maker.MAKER``, in a background thread): a board waits for
its first puzzle only, and the next is made while the learner reads an answer. ``prepare()``, run
before the page's request (``golflab-voila`` preheats each app's kernel up to it), makes a visit's
first puzzle ahead when its seed is known before the visitor is (``GOLFLAB_SEED``, or a guest's).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from html import escape

import ipywidgets as w

from golflab import Observation, Position, Rules
from golflab.classroom import lesson_summary
from golflab.display import card_html, grid_html
from golflab.puzzles import DIFFICULTY, POSITION_NAMES, VALUE_MEANING, Puzzle, decision_kind, describe, set_puzzle
from golflab.rules import options_affecting
from golflab.words import card_name

from ..a11y import name_control
from ..account import learner_progress as progress
from ..account.session import awaiting_request, requested
from ..position_links import LINK_CLASS, link_html
from ..table.rules_form import RulesForm
from .puzzle_maker import MAKER
from .rules_html import LESSON_CSS

#: Puzzles per seed: a visit's puzzles are those of ``generate(BATCH, 100 * seed + batch, ...)`` for
#: batch 0, 1, ... (made one at a time).
BATCH = 5
#: A board's difficulty and kind unless told (the app's).
DEFAULT_DIFFICULTY, DEFAULT_KIND = "medium", "place"
#: Visit seeds start here, so a visit's puzzles (generate seeds ``100 * seed + batch``) never share a
#: seed with the lessons' puzzles (``golflab.taught``: seeds under 100).
FIRST_VISIT_SEED = 1000
#: The house rules a learner may change for puzzles: everything that changes a decision's value.
PUZZLE_OPTIONS = ("flip_mode", "jokers", *options_affecting("card_values", "pairs", "hand_bonus"))
KIND_CHOICES = (("Any decision", None), ("Draw or take", "turn"), ("Where the card goes", "place"),
                ("Your last face-down card", "last_card"))
BOARD_CSS = """<style>
.golf-position .gl-me{background:#f1f8e9;border-radius:8px;padding:4px 8px}
.golf-position .gl-held{display:inline-block;vertical-align:top;margin:4px 12px;text-align:center;
 font:12px system-ui,sans-serif}
.golf-puzzle-feedback{font:14px/1.45 system-ui,sans-serif;padding:6px 10px;border-radius:4px;margin:4px 0}
.golf-puzzle-right{background:#e8f5e9;border-left:4px solid #2e7d32}
.golf-puzzle-wrong{background:#ffebee;border-left:4px solid #c62828}
.golf-puzzle-score{font:600 14px system-ui,sans-serif}
.golf-puzzle-options button{height:auto !important;min-height:44px;white-space:normal !important;font-size:14px}
</style>"""


def rules_digest(rules: Rules) -> str:
    """A short fingerprint of the house rules puzzles are made under (12 hex digits)."""
    changes = json.dumps(rules.replace(rounds=1).changes(), sort_keys=True, default=str)
    return hashlib.sha256(changes.encode()).hexdigest()[:12]


def puzzle_key(rules: Rules, seed: int, difficulty: str, kind: str | None, index: int) -> str:
    """The stable name of puzzle ``index`` of ``generate(BATCH, seed, rules, DIFFICULTY[difficulty], kind)``:
    ``golf:<rules digest>:<seed>:<difficulty>:<kind or any>:<index>``, enough to make it again."""
    return f"golf:{rules_digest(rules)}:{seed}:{difficulty}:{kind or 'any'}:{index}"


def parse_puzzle_key(key: str) -> tuple[str, int, str, str | None, int] | None:
    """(rules digest, seed, difficulty, kind, index) of a ``puzzle_key``; None for any other text."""
    parts = key.split(":")
    if len(parts) != 6 or parts[0] != "golf" or parts[3] not in DIFFICULTY:
        return None
    try:
        seed, index = int(parts[2]), int(parts[5])
    except ValueError:
        return None
    kind = None if parts[4] == "any" else parts[4]
    if (kind is not None and kind not in dict(KIND_CHOICES).values()) or not 0 <= index < BATCH:
        return None
    return parts[1], seed, parts[3], kind, index


_guest_seeds: list[int] = []  # a guest seed drawn by prepare(), for the next guest's visit


def visit_seed(profile=None) -> int:
    """The puzzles' seed for this visit: ``GOLFLAB_SEED`` when set (tests, a class on one seed); a
    signed-in learner's from their rating and streaks (new as they progress); a guest's at random
    (the one ``prepare`` drew, if any). Never a lesson's seed, so a puzzle is not a lesson's worked
    example."""
    from ..table.golf_table import env_seed  # the table's reading of GOLFLAB_SEED

    fixed = env_seed()
    if fixed is not None:
        return fixed
    if profile is not None:
        state = f"{profile.rating:.1f}:{profile.streak}:{profile.best_streak}"
        return FIRST_VISIT_SEED + int(hashlib.sha256(state.encode()).hexdigest()[:8], 16) % 1_000_000
    return _guest_seeds.pop() if _guest_seeds else FIRST_VISIT_SEED + secrets.randbelow(1_000_000)


def prepare() -> None:
    """Start making this visit's first puzzle (app defaults, no house rules) when its seed is known:
    ``GOLFLAB_SEED``; else, in a kernel started ahead of its page (``awaiting_request``), a guest's
    drawn now (``visit_seed`` gives it to the next guest; a signed-in learner's seed depends on
    their rating, and a kernel that holds its request leaves the visitor's puzzles to the board).
    Returns at once."""
    from ..table.golf_table import env_seed

    seed = env_seed()
    if seed is None:
        if not awaiting_request():
            return
        _guest_seeds[:] = [FIRST_VISIT_SEED + secrets.randbelow(1_000_000)]
        seed = _guest_seeds[0]
    MAKER.ahead(Rules(), seed * 100, DIFFICULTY[DEFAULT_DIFFICULTY], DEFAULT_KIND, 0)


def position_html(obs: Observation) -> str:
    """The table as ``obs``'s seat sees it: the others' grids, the piles, its own grid and card in hand."""
    seats = []
    for seat, grid in enumerate(obs.grids):
        if seat == obs.seat:
            continue
        seats.append(f'<div class="gl-seat"><div class="gl-name">{escape(obs.players[seat])}</div>'
                     f"{grid_html(grid)}</div>")
    top = card_html(obs.discard_top) if obs.discard_top is not None else card_html(None, extra_class="gl-empty")
    piles = (f'<div class="gl-piles">deck<br>{card_html(None, False)}<br>{obs.draw_pile_size} cards</div>'
             f'<div class="gl-piles">discard pile<br>{top}</div>')
    held = ""
    if obs.drawn is not None:
        where = "taken from the discard pile" if obs.taken is not None else "drawn from the deck"
        held = f'<div class="gl-held">in your hand<br>{card_html(obs.drawn)}<br>{where}</div>'
    me = (f'<div class="gl-seat gl-me"><div class="gl-name">You ({escape(obs.players[obs.seat])})</div>'
          f"{grid_html(obs.my_grid)}</div>")
    return (f'{LESSON_CSS}{BOARD_CSS}<div class="golf-lesson golf-position"><div>{"".join(seats)}</div>'
            f"<div>{piles}</div><div>{me}{held}</div></div>")


def question_text(obs: Observation) -> str:
    """The puzzle's question in plain words: what the seat holds or may take, and which option is best."""
    legal = {str(a) for a in obs.legal_actions}
    if obs.awaiting == "draw":
        top = card_name(obs.discard_top, suit=True)
        return f"Your turn. Draw from the deck, or take the {top}? Which option is best?"
    held = (f"You took the {card_name(obs.drawn, suit=True)} from the discard pile: it must go into your grid."
            if "discard" not in legal else f"You drew the {card_name(obs.drawn, suit=True)}.")
    left = obs.face_down()
    last = (f" Your last face-down card is at {POSITION_NAMES[left[0]]}: a card put there takes you out."
            if len(left) == 1 else "")
    return f"{held}{last} Which option is best?"


def option_class(action: str) -> str:
    """The CSS hook of an option button: ``golf-puzzle-option-swap-3``."""
    return "golf-puzzle-option-" + action.replace(" ", "-")


def options_table_html(puzzle: Puzzle, chosen: str | None = None) -> str:
    """Every option with its value, best first (the answer in bold, the learner's choice named)."""
    obs = puzzle.observation
    bold = ' style="font-weight:600"'
    mine = " (your choice)"
    rows = "".join(
        f"<tr{bold if puzzle.is_answer(o.action) else ''}>"
        f"<td style='text-align:left'>{escape(describe(obs, o.action))}{mine if o.action == chosen else ''}</td>"
        f"<td style='text-align:right;padding-left:12px'>{o.value:+.1f}</td></tr>" for o in puzzle.options)
    return (f"<table><tr><th style='text-align:left'>option</th><th>value</th></tr>{rows}</table>"
            f"<div class='gl-note'>Value: {escape(VALUE_MEANING[puzzle.valuation])}, in points; lower is better.</div>")


def feedback_html(puzzle: Puzzle, chosen: str) -> str:
    """Right or wrong, what every option is worth (best first) and why the answer is best."""
    obs = puzzle.observation
    right = puzzle.is_answer(chosen)
    head = ("\u2714 Right!" if right else
            f"\u2718 Not the best: {escape(describe(obs, chosen))} is "
            f"{puzzle.value(chosen) - puzzle.options[0].value:.1f} points worse than the best option.")
    return f"<div><b>{head}</b></div>{options_table_html(puzzle, chosen)}<div>{escape(puzzle.explanation)}</div>"


class PuzzleBoard(w.VBox):
    """One puzzle at a time from ``golflab.puzzles.generate``; ``answer(action)`` is a button press.

    ``seed``: None (the app) gives each visit its own order (``visit_seed``); a number gives the
    same puzzles every time (the puzzle keys name the seed, so each puzzle keeps its key)."""

    def __init__(self, seed: int | None = None, rules: Rules | None = None, difficulty: str = DEFAULT_DIFFICULTY,
                 kind: str | None = DEFAULT_KIND) -> None:
        if difficulty not in DIFFICULTY:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTY)}, got {difficulty!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise ValueError(f"seed must be None or a whole number 0 or more, got {seed!r}")
        self.seed = visit_seed(progress.puzzle_profile()) if seed is None else seed
        self.solved = self.tried = self.streak = self.best_streak = 0
        self.puzzles: list[Puzzle] = []
        self.puzzle_keys: list[str] = []  # each puzzle's puzzle_key
        self.due: list[str] = []  # the learner's missed puzzles due again, still to serve
        self.again: set[int] = set()  # the indexes of the puzzles served again
        self.rating: tuple[float, float, float | None] | None = None  # rating_words' arguments: rating, rd, last change
        self._batches = self._made = 0  # the batch served from, and how many of its puzzles were tried
        self.index = 0
        self.chosen: str | None = None
        self.puzzle_set = None  # the teacher's set served (a PuzzleSet), or None: puzzles from play
        self.set_items: list = []
        self.set_firsts: dict = {}  # the learner's first answer to each item of the set answered so far
        self.sets = {s.id: s for s in progress.assigned_sets()}
        self.source = name_control(w.Dropdown(options=[("Puzzles from real play", None)] + [
            (f"{s.name} ({s.items} puzzle{'' if s.items == 1 else 's'} from your teacher)", s.id)
            for s in self.sets.values()],
            value=None, layout=w.Layout(width="420px")), "puzzles to solve")
        self.source.add_class("golf-puzzle-source")
        self.source.observe(lambda change: self.choose_set(change["new"]), names="value")
        asked = requested_set()
        self.form = RulesForm(rules, options=PUZZLE_OPTIONS)
        self.form.on_change(lambda _rules: self.restart())
        self.difficulty = w.ToggleButtons(  # the gap in words, on the button's tooltip
            options=[(name, name) for name in DIFFICULTY], value=difficulty, style={"button_width": "90px"},
            tooltips=[f"The best move beats the next best by {gap:g} points or more" for gap in DIFFICULTY.values()])
        self.difficulty.add_class("golf-puzzle-difficulty")
        self.difficulty.observe(lambda _c: self.restart(), names="value")
        self.kind = name_control(w.Dropdown(options=list(KIND_CHOICES), value=kind, layout=w.Layout(width="220px")),
                                 "kind of puzzle")
        self.kind.add_class("golf-puzzle-kind")
        self.kind.observe(lambda _c: self.restart(), names="value")
        self.score = w.HTML()
        self.score.add_class("golf-puzzle-score")
        self.board = w.HTML()
        self.question = w.HTML()
        self.question.add_class("golf-puzzle-question")
        self.options = w.HBox(layout=w.Layout(flex_flow="row wrap", max_width="900px"))
        self.options.add_class("golf-puzzle-options")
        self.feedback = w.HTML()
        self.feedback.add_class("golf-puzzle-feedback")
        self.feedback.add_class("golf-live")  # read out when it changes (a11y.html.j2)
        self.next_button = w.Button(description="Next puzzle", button_style="primary", disabled=True)
        self.next_button.add_class("golf-puzzle-next")
        self.next_button.on_click(lambda _b: self.next())
        settings = w.Accordion([w.VBox([w.HBox([w.HTML("<b>Kind</b>&nbsp;"), self.kind]), self.form])],
                               selected_index=None)
        settings.set_title(0, "House rules and kind of puzzle")
        row = w.Layout(flex_flow="row wrap", align_items="center")
        self.play_settings = w.VBox([w.HBox([w.HTML("<b>Difficulty</b>&nbsp;"), self.difficulty], layout=row),
                                     settings])
        source = w.HBox([w.HTML("<b>Solve</b>&nbsp;"), self.source], layout=row)
        super().__init__([w.HTML(BOARD_CSS), *([source] if self.sets else []), self.play_settings, self.score,
                          self.board, self.question, self.options, self.feedback, self.next_button])
        profile = progress.puzzle_profile()
        if profile is not None:
            self.streak, self.best_streak = profile.streak, profile.best_streak
            self.rating = (profile.rating, profile.rd, None)
        if asked in self.sets:
            self.source.value = asked  # serves the set (choose_set)
        else:
            self.restart()

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.index]

    def _next_key(self) -> str:
        """The key of the next puzzle to serve: a missed one due again, else the batches' next one not
        served yet."""
        if self.due:
            return self.due[0]
        batches, made = self._batches, self._made
        while True:
            if made == BATCH:
                batches, made = batches + 1, 0
            key = puzzle_key(self.form.rules, self.seed * 100 + batches, self.difficulty.value, self.kind.value, made)
            if key not in self.puzzle_keys:  # else a due one served already
                return key
            made += 1

    def _puzzle(self, key: str, wait: bool = True) -> Puzzle | None:
        """The puzzle a key names (made again from it), waiting for it; or only start making it."""
        _digest, seed, difficulty, kind, index = parse_puzzle_key(key)
        args = (self.form.rules, seed, DIFFICULTY[difficulty], kind, index)
        made = MAKER.ahead(*args)
        return made.result() if wait else None

    def _set_puzzle(self, index: int, wait: bool = True) -> Puzzle | None:
        """The set's item ``index`` as a puzzle (made on the maker's worker), waiting for it; or only
        start making it."""
        item = self.set_items[index]
        made = MAKER.submit(("set item", item.id), _item_puzzle, item.position, item.answer, item.title, item.note)
        return made.result() if wait else None

    def _grow(self) -> None:
        """Add the next puzzle: a missed one due again if any (skipped if it cannot be made again),
        else the next of the batches (of a set: its next item). A ValueError when there is no more."""
        if self.puzzle_set is not None:
            index = len(self.puzzles)
            if index == len(self.set_items):
                raise ValueError(f"that was the last puzzle of the set {self.puzzle_set.name}: choose another "
                                 "set or puzzles from real play above")
            self.puzzles.append(self._set_puzzle(index))
            self.puzzle_keys.append(f"set item {self.set_items[index].id}")
            return
        while True:
            key = self._next_key()
            again = bool(self.due) and self.due[0] == key
            if again:
                self.due.pop(0)
            else:
                self._batches = parse_puzzle_key(key)[1] - self.seed * 100
                self._made = parse_puzzle_key(key)[4] + 1
            try:
                puzzle = self._puzzle(key)
            except ValueError:
                if again:
                    continue
                raise
            if again:
                self.again.add(len(self.puzzles))
            self.puzzles.append(puzzle)
            self.puzzle_keys.append(key)
            return

    def restart(self) -> None:
        """New puzzles for the current rules, difficulty and kind (the score carries on); a signed-in
        learner's missed puzzles under these rules that are due again come first."""
        profile = progress.puzzle_profile() if self.puzzle_set is None else None
        digest = rules_digest(self.form.rules)
        kept = self.puzzles, self.puzzle_keys, self.due, self.again, self._batches, self._made
        self.puzzles, self.puzzle_keys, self.again, self._batches, self._made = [], [], set(), 0, 0
        self.due = [k for k in (profile.due if profile else ()) if (parse_puzzle_key(k) or ("",))[0] == digest]
        try:
            self._grow()
        except ValueError as err:
            self.puzzles, self.puzzle_keys, self.due, self.again, self._batches, self._made = kept
            self.feedback.value = f"<b>No puzzles {self._where()}:</b> {escape(str(err))}"
            return
        self.index = 0
        self._show()

    def _where(self) -> str:
        return "with these settings" if self.puzzle_set is None else "in this set"

    def choose_set(self, set_id: "int | None") -> None:
        """Serve the teacher's set ``set_id`` (one of ``sets``) from its first item, or (None) puzzles
        from real play again; the running score starts again for a set."""
        chosen = self.sets.get(set_id) if set_id is not None else None
        items = progress.set_items(chosen) if chosen is not None else []
        if chosen is not None and not items:
            self.feedback.value = (f"<b>The set {escape(chosen.name)} has no puzzles to solve just now.</b> "
                                   f"{escape(progress.problem() or '')}")
            return
        self.puzzle_set, self.set_items = chosen, items
        self.set_firsts = progress.set_progress(chosen) if chosen is not None else {}
        self.play_settings.layout.display = "none" if chosen is not None else None
        if chosen is not None:
            self.solved = self.tried = 0
        self.restart()

    def next(self) -> None:
        """The next puzzle (made now unless made already); when there is none, the feedback says so
        and the answered puzzle stays."""
        if self.index + 1 == len(self.puzzles):
            kept = list(self.due), self._batches, self._made
            try:
                self._grow()
            except ValueError as err:
                self.due, self._batches, self._made = kept
                said = feedback_html(self.puzzle, self.chosen) if self.chosen is not None else ""
                self.feedback.value = f"{said}<div><b>No more puzzles {self._where()}:</b> {escape(str(err))}</div>"
                self.next_button.disabled = True
                return
        self.index += 1
        self._show()

    def answer(self, action: str) -> bool:
        """Answer the shown puzzle with ``action`` (a notation); True when it is the best option.

        Only the first answer to a puzzle counts; a ValueError names the options otherwise."""
        puzzle = self.puzzle
        puzzle.value(action)  # refuses an action that is not an option, changing nothing
        if self.chosen is not None:
            raise ValueError("this puzzle is answered already: press Next puzzle")
        self.chosen = action
        right = puzzle.is_answer(action)  # the answer's move, or the same move (the other equal face-down card)
        self.tried += 1
        self.solved += right
        self.streak = self.streak + 1 if right else 0
        if self.puzzle_set is not None:  # the teacher's set keeps the answer itself; no rating moves
            if progress.record_set_answer(self.set_items[self.index].id, action) is not None:
                self.set_firsts = progress.set_progress(self.puzzle_set)
        else:
            kept = progress.record_puzzle(self.puzzle_keys[self.index], right,
                                          skill="best-" + decision_kind(puzzle.observation).replace("_", "-"))
            if kept is not None:  # the learner's streak over every visit, and their rating
                self.streak, self.rating = kept.streak, (kept.rating, kept.rd, kept.change)
        self.best_streak = max(self.best_streak, self.streak)
        self._show_score()
        for button in self.options.children:
            button.disabled = True
            if puzzle.is_answer(button.action):
                button.button_style = "success"
            elif button.action == action:
                button.button_style = "danger"
        self.next_button.disabled = False
        if self.puzzle_set is not None:
            if self.index + 1 < len(self.set_items):
                self._set_puzzle(self.index + 1, wait=False)  # made while the learner reads the answer
        elif self.index + 1 == len(self.puzzles):
            self._puzzle(self._next_key(), wait=False)  # made while the learner reads the answer
        self.feedback.value = feedback_html(puzzle, action) + (  # answered: the values are no secret now
            f'<div class="{LINK_CLASS}">{link_html(puzzle.observation)}</div>')
        self.feedback.remove_class("golf-puzzle-wrong" if right else "golf-puzzle-right")
        self.feedback.add_class("golf-puzzle-right" if right else "golf-puzzle-wrong")  # last: tests wait for it
        return right

    def _show_score(self) -> None:
        rating = ""
        if self.rating is not None:
            rating = f' · <span class="golf-puzzle-rating">{escape(progress.rating_words(*self.rating))}</span>'
        problem = progress.problem()
        problem = f'<div class="golf-progress-problem">{escape(problem)}</div>' if problem else ""
        if self.puzzle_set is not None:
            item, firsts = self.set_items[self.index], self.set_firsts
            right = sum(a.correct for a in firsts.values())
            done = lesson_summary(self.puzzle_set.name, len(self.set_items), len(firsts), right)
            stars = f" · set done {progress.stars_text(done.stars)}" if len(firsts) >= len(self.set_items) else ""
            self.score.value = (f"{escape(self.puzzle_set.name)}: puzzle {self.index + 1} of {len(self.set_items)}"
                                f" · <b>{escape(item.title)}</b> · right at the first try {right} of "
                                f"{len(firsts)}{stars}{problem}")
            return
        self.score.value = (f"Puzzle {self.index + 1} · solved {self.solved} of {self.tried} · streak "
                            f"{self.streak} (best {self.best_streak}){rating}{problem}")

    def _show(self) -> None:
        puzzle = self.puzzle
        obs = puzzle.observation
        self.chosen = None
        self.board.value = position_html(obs)
        again = "A puzzle you missed before, back for another try. " if self.index in self.again else ""
        self.question.value = f"<b>{escape(again + question_text(obs))}</b>"
        buttons = []
        for opt in sorted(puzzle.options, key=lambda o: o.action):  # a fixed order, not best first
            label = describe(obs, opt.action)
            button = w.Button(description=label[0].upper() + label[1:], tooltip="Choose this option",
                              layout=w.Layout(width="auto", margin="2px 6px 2px 0"))
            button.action = opt.action
            button.add_class(option_class(opt.action))
            button.on_click(lambda b: self.answer(b.action))
            buttons.append(button)
        self.options.children = buttons
        self.feedback.value = ""
        self.feedback.remove_class("golf-puzzle-right")
        self.feedback.remove_class("golf-puzzle-wrong")
        self.next_button.disabled = True
        self._show_score()


def requested_set(environ=None) -> "int | None":
    """The teacher's set asked for on the app's address (``puzzles.ipynb?set=12``, the landing
    page's link to an assigned set), or None."""
    text = requested("set", environ) or ""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 18 else None


def _item_puzzle(position: str, answer: str, title: str, note: str) -> Puzzle:
    """An item of a teacher's set as a puzzle (``golflab.puzzles.set_puzzle``)."""
    return set_puzzle(Position.parse(position).observation(), answer, title, note)


def worked_example_html(puzzle: Puzzle) -> str:
    """A puzzle solved for a lesson: the position, the question, every option's worth and why."""
    return (f"{position_html(puzzle.observation)}<div class='golf-lesson'><p><b>"
            f"{escape(question_text(puzzle.observation))}</b></p>{options_table_html(puzzle)}"
            f"<p>{escape(puzzle.explanation)}</p></div>")
