"""Puzzles from real play: positions where one option clearly beats the rest.

``generate(n, seed, rules, min_gap)`` plays games between CPU personalities (every choice
from ``seed``) and keeps decisions of the seat to move where the best option beats the
second best by at least ``min_gap`` points and, valued by the coach, by at least
``SEPARATION`` (3) standard errors of their paired difference. Each ``Puzzle`` holds the position as that
seat sees it (``observation``), the best action's notation (``answer``), every legal
action with its value (``options``, best first, shaped like ``golflab.coach.hint``'s) and
why the answer is best (``explanation``). ``stream`` makes the same puzzles one at a time, as
they are asked for (an app shows the first while the next is made).

Options are valued by ``value_options``: the coach's ``hint`` (rollouts to the end of the
hole: expected points against the table) or, switched in one line (``VALUATION``) or per call
(``valuation=``), the exact one-step EV of ``golflab.ev`` (expected change of the hand's
score). ``VALUE_MEANING`` says what a value means; lower is better either way. A coach-valued
position is first screened on ``coach.MIN_SAMPLES`` samples per option (kept when its gap
is within a standard error of ``min_gap`` or above), then valued with ``GAP_PRECISION``
(``hint(obs, precision=...)``): the gap a puzzle quotes has at most that standard error.

A teacher's own puzzle (an item of a class's puzzle set) is a position and the move the teacher
wants: ``check_answer(obs, answer)`` says whether the coach finds that move best, or by how many
points it is worse (before the teacher saves it); ``set_puzzle(obs, answer, title, note)`` makes it
a ``Puzzle`` valued as the generated ones are, its answer the teacher's move.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from numbers import Integral, Real

from . import words
from .actions import Action, one_of
from .ai import CPUPlayer, personality_names
from .equivalence import same_move
from .ev import PARTNER, action_values
from .game import Game, Observation, Phase
from .rules import Rules, card_value

__all__ = ["BEST_WITHIN", "DIFFICULTY", "GAP_PRECISION", "KINDS", "POSITION_NAMES", "SEPARATION", "VALUATION",
           "VALUATIONS", "VALUE_MEANING", "AnswerCheck", "Puzzle", "PuzzleOption", "check_answer", "cpu_hole",
           "decision_kind", "describe", "generate", "load_kernel", "one_step_options", "runner_up", "separated",
           "set_puzzle", "stream", "value_options"]

POSITION_NAMES = words.POSITIONS  # the board's names of the grid positions (one table: golflab.words)
#: Minimum gaps (points) per difficulty: a big gap is an easy puzzle.
DIFFICULTY = {"easy": 5.0, "medium": 2.0, "hard": 0.5}
#: The CPU personalities whose games the puzzles come from (seats in this order).
PLAYERS = ("Sofia", "Maya", "Priya", "Marcus")
#: The kinds of decision ``generate`` may keep: "turn" (draw from the deck or take the discard),
#: "place" (where the card in hand goes), "last_card" (a placement with one face-down card left:
#: whether to go out now).
KINDS = ("turn", "place", "last_card")
#: Standard errors of the paired difference by which a coach-valued answer beats the runner-up.
SEPARATION = 3.0
#: Standard error (points) of a coach-valued puzzle's quoted gap, at most.
GAP_PRECISION = 0.2
#: Games tried before ``generate`` gives up finding enough positions.
MAX_GAMES = 200
#: Points within which a teacher's move counts as the best (``check_answer``): the values are rounded
#: to a tenth where they are shown.
BEST_WITHIN = 0.05


@dataclass(frozen=True)
class PuzzleOption:
    """One legal action (``action``, its notation), its ``value`` (expected change of the
    seat's hand score, lower is better) and ``reason`` (one plain sentence)."""

    action: str
    value: float
    reason: str


@dataclass(frozen=True)
class Puzzle:
    """A position from real play and its best answer.

    ``gap`` is how many points the answer beats the second-best option by, ``gap_se`` its
    standard error (0 when exact); ``source`` says where the position comes from (game seed,
    hole, seat, turn).
    """

    observation: Observation
    answer: str
    options: tuple
    explanation: str
    gap: float
    source: str
    valuation: str = "coach"
    gap_se: float = 0.0

    def is_answer(self, action: str) -> bool:
        """Whether ``action`` (notation) is the answer: the answer's move, or one that is the same move
        up to the grid's symmetry (``equivalence.same_move``: the other face-down card under a
        face-down card)."""
        return same_move(self.observation, action, self.answer)

    def value(self, action: str) -> float:
        """The value of one option (by notation); a ValueError names the options otherwise."""
        note = Action.parse(action).notation
        for opt in self.options:
            if opt.action == note:
                return opt.value
        raise ValueError(f"{action!r} is not an option here; the options are "
                         f"{', '.join(o.action for o in self.options)}")


def describe(obs: Observation, action: str) -> str:
    """An action in plain words from the seat's view, e.g. ``put the 2 at top left (over your 9)``."""
    act = Action.parse(action)
    text = words.move(obs, act)
    if act.kind == "swap" and obs.drawn is not None:
        old = obs.my_grid[act.pos]
        text += f" (over your {words.card_name(old)})" if old is not None else " (over a face-down card)"
    return text


def _reason(value: float) -> str:
    if abs(value) < 0.05:
        return "On average it changes nothing."
    return f"On average it {'saves' if value < 0 else 'costs'} {words.points(round(abs(value), 1))}."


def one_step_options(obs: Observation) -> list[PuzzleOption]:
    """The exact one-step expected value (``golflab.ev.action_values``) of every legal action, best first."""
    values = action_values(obs).values
    order = sorted(values, key=lambda a: (values[a], a))
    return [PuzzleOption(a, round(float(values[a]), 2), _reason(values[a])) for a in order]


def _coach_options(obs: Observation) -> list:
    from .coach import hint  # rollouts: loaded only when used

    return hint(obs)


def _screen_options(obs: Observation) -> list:
    from .coach import MIN_SAMPLES, hint

    return hint(obs, samples=MIN_SAMPLES)


def _precise_options(obs: Observation) -> list:
    from .coach import hint

    return hint(obs, precision=GAP_PRECISION)


def separated(gap: float, gap_se: float, min_gap: float) -> bool:
    """Whether an answer ``gap`` points ahead of the runner-up (standard error ``gap_se``) makes
    a puzzle: at least ``min_gap`` points and at least ``SEPARATION`` standard errors."""
    return gap >= min_gap and gap >= SEPARATION * gap_se


VALUATIONS = {"coach": _coach_options, "one_step": one_step_options}
VALUE_MEANING = {
    "coach": "expected points you finish the hole with, against the other players' average",
    "one_step": "expected change of your hand's score",
}
#: The puzzles' valuation (one line to switch: "one_step" for the exact one-step EV).
VALUATION = "coach"


def value_options(obs: Observation, valuation: str | None = None) -> list:
    """Every legal action of ``obs``'s seat with its value, best first (``VALUATION`` unless given).

    Each option has ``action``, ``value`` (lower is better, see ``VALUE_MEANING``) and ``reason``."""
    name = VALUATION if valuation is None else valuation
    if name not in VALUATIONS:
        raise ValueError(f"valuation must be one of {', '.join(VALUATIONS)}, got {valuation!r}")
    return VALUATIONS[name](obs)


def _explain(obs: Observation, options: list[PuzzleOption], answer: str | None = None) -> str:
    """Why the answer (the best option unless given: one of the best's move) is best, in plain words
    (no notation, no position numbers)."""
    best = options[0] if answer is None else next(o for o in options if o.action == answer)
    second = runner_up(options, best.action)
    rules = obs.rules
    why = [f"Best: {describe(obs, best.action)}.",
           f"The next best, {describe(obs, second.action)}, loses "
           f"{words.points(round(second.value - best.value, 1))} compared with it."]
    act = Action.parse(best.action)
    if act.kind == "swap":
        partner = obs.my_grid[PARTNER[act.pos]]
        held = obs.drawn
        old = obs.my_grid[act.pos]
        if partner is not None and partner.rank == held.rank:
            why.append(f"It completes a pair with your {words.card_name(partner)} in the same column.")
        elif old is not None and card_value(old, rules) > card_value(held, rules):
            why.append(f"It trades {words.with_article(f'{card_value(old, rules)}-point card')} for "
                       f"{words.with_article(f'{card_value(held, rules)}-point one')}.")
        elif old is None:
            why.append("A face-down card is worth about an average card, and it may pair.")
    elif act.kind == "discard":
        why.append(f"The {words.card_name(obs.drawn)} would make every spot in your grid worse.")
    elif act.kind == "take":
        why.append(f"You know what the {words.card_name(obs.discard_top)} is worth; "
                   "a card from the deck could be better or worse.")
    elif act.kind == "draw":
        why.append(f"The {words.card_name(obs.discard_top)} would not help your grid enough, "
                   "so an unknown card is the better bet.")
    return " ".join(why)


@dataclass(frozen=True)
class AnswerCheck:
    """A move at a position against the coach's options (valued as a puzzle's, best first): ``loss``
    points worse than the best (0 when it is the best, ``BEST_WITHIN``), ``loss_se`` its standard
    error; ``words`` says so in a sentence."""

    answer: str
    best: str
    loss: float
    loss_se: float
    options: tuple
    words: str

    @property
    def is_best(self) -> bool:
        return self.loss == 0.0


def runner_up(options, answer: str):
    """The best option of ``options`` (best first) that is not the move ``answer`` nor the same move
    (``Option.same_as``), or None."""
    def move_of(option) -> str:  # the first of its equal moves
        return getattr(option, "same_as", "") or option.action

    move = next((move_of(o) for o in options if o.action == answer), answer)
    return next((o for o in options if move_of(o) != move), None)


def check_answer(obs: Observation, answer: str) -> AnswerCheck:
    """How the coach values the move ``answer`` at ``obs`` (the seat to move's view): the best move, or
    how many points worse than the best. The options are valued as a puzzle's are (``GAP_PRECISION``),
    so what is said here is what the puzzle made of it quotes. A ValueError when ``answer`` is not a move."""
    answer = one_of(answer, [a.notation for a in obs.legal_actions])
    options = tuple(_precise_options(obs)) if len(obs.legal_actions) > 1 else tuple(_coach_options(obs))
    best = options[0]
    chosen = next(o for o in options if o.action == answer)
    loss = chosen.value - best.value
    if loss < BEST_WITHIN:
        said = f"The coach finds this the best move: {describe(obs, answer)}."
        second = runner_up(options, answer)
        if second is not None:
            said += (f" The next best, {describe(obs, second.action)}, loses "
                     f"{words.points(round(second.value - best.value, 1))} compared with it.")
        return AnswerCheck(answer, best.action, 0.0, 0.0, options, said)
    said = (f"The coach values this move ({describe(obs, answer)}) {words.points(round(loss, 1))} worse than "
            f"its best: {describe(obs, best.action)}.")
    return AnswerCheck(answer, best.action, round(loss, 2), round(getattr(chosen, "gap_se", 0.0), 3), options, said)


def set_puzzle(obs: Observation, answer: str, title: str = "", note: str = "") -> Puzzle:
    """A teacher's puzzle: the position ``obs``, its answer the teacher's move ``answer``, every option
    valued as ``check_answer`` values them; the explanation is the teacher's ``note`` and then the
    coach's words (why its best is best, or how far the teacher's move is from it)."""
    check = check_answer(obs, answer)
    options = list(check.options)
    second = runner_up(options, check.answer)
    coach = _explain(obs, options, check.answer) if check.is_best and second is not None else check.words
    explanation = " ".join(part for part in (note.strip(), coach) if part)
    chosen = next(o.value for o in options if o.action == check.answer)
    gap = round(second.value - chosen, 2) if second is not None else 0.0
    gap_se = round(getattr(second, "gap_se", 0.0), 3) if second is not None else 0.0
    return Puzzle(obs, check.answer, tuple(options), explanation, gap,
                  f"a teacher's puzzle: {title}" if title else "a teacher's puzzle", "coach", gap_se)


def decision_kind(obs: Observation) -> str:
    """The kind of decision of ``obs`` (see ``KINDS``)."""
    if obs.awaiting == "draw":
        return "turn"
    return "last_card" if len(obs.face_down()) == 1 else "place"


def _check(n, seed, rules, min_gap, kind, valuation) -> Rules:
    if valuation not in VALUATIONS:
        raise ValueError(f"valuation must be one of {', '.join(VALUATIONS)}, got {valuation!r}")
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be None (any decision) or one of {', '.join(KINDS)}, got {kind!r}")
    if isinstance(n, bool) or not isinstance(n, Integral) or n < 1:
        raise ValueError(f"n must be a whole number of puzzles, 1 or more, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, Integral):
        raise ValueError(f"seed must be a whole number, got {seed!r}")  # noqa: TRY004 (bad input is a ValueError here)
    if isinstance(min_gap, bool) or not isinstance(min_gap, Real) or not 0 <= min_gap <= 30:
        raise ValueError(f"min_gap must be a number of points from 0 to 30, got {min_gap!r}")
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")  # noqa: TRY004
    return rules


def _play(game: Game, game_seed: int):
    """Play ``game``'s hole with CPU players (one per seat, named as the seats); yield each
    observation of the seat to move before its move."""
    bots = [CPUPlayer(name, seed=game_seed * 10 + s) for s, name in enumerate(game.players)]
    while game.phase in (Phase.INITIAL_FLIP, Phase.PLAYING, Phase.FINAL_TURN):
        obs = game.observation(game.current_player)
        yield obs
        game.apply(bots[obs.seat].choose(obs))


def cpu_hole(seed: int, rules: Rules | None = None, players: tuple = PLAYERS) -> Game:
    """One hole played to its end by CPU personalities (``players``) from ``seed``: a real hole
    to score and explain (the same hole ``generate`` takes positions from with that game seed)."""
    game = Game(players=list(personality_names(list(players))), rules=(rules or Rules()).replace(rounds=1),
                seed=seed)
    for _obs in _play(game, seed):
        pass
    return game


def _positions(seed: int, rules: Rules):
    """(game seed, seat, move, observation) at every decision of real CPU play, game after game."""
    names = personality_names(list(PLAYERS))
    for g in range(MAX_GAMES):
        game_seed = seed * 1000 + g
        game = Game(players=list(names), rules=rules.replace(rounds=1), seed=game_seed)
        for turn, obs in enumerate(_play(game, game_seed)):
            if obs.awaiting in ("draw", "place") and len(obs.legal_actions) > 1:
                yield game_seed, obs.seat, turn, obs


def _wanted(obs: Observation, kind: str | None) -> bool:
    found = decision_kind(obs)
    return kind is None or found == kind or (kind == "place" and found == "last_card")


def load_kernel() -> None:
    """Load the compiled rollouts now when they may be used (``golflab.kernel.enabled``), so every
    rollout of a puzzle's valuation runs compiled (a process that sets
    ``coach.rollouts.KERNEL_MIN_ROLLOUTS`` plays that many in Python first: the same values,
    several times the time)."""
    from . import kernel

    if kernel.enabled():
        importlib.import_module(".kernel.rollout", __package__)


def stream(seed: int = 0, rules: Rules | None = None, min_gap: float = 2.0, kind: str | None = None,
           valuation: str | None = None) -> Iterator[Puzzle]:
    """The puzzles of ``generate``'s arguments one at a time, made as they are asked for: the first
    ``n`` are ``generate(n, ...)``'s. Arguments are checked at once (a ValueError); asking for a
    puzzle past the last one ``MAX_GAMES`` games hold raises a ValueError saying so."""
    valuation = VALUATION if valuation is None else valuation
    rules = _check(1, seed, rules, min_gap, kind, valuation)
    return _stream(int(seed), rules, min_gap, kind, valuation)


def _stream(seed: int, rules: Rules, min_gap: float, kind: str | None, valuation: str) -> Iterator[Puzzle]:
    if valuation == "coach":
        load_kernel()
    taken: set = set()
    made = 0
    for game_seed, seat, turn, obs in _positions(seed, rules):
        if (game_seed, seat) in taken or not _wanted(obs, kind):
            continue
        if valuation == "coach":
            screen = _screen_options(obs)  # a quick look: could the gap reach min_gap?
            if screen[1].value - screen[0].value + screen[1].gap_se < min_gap:
                continue
            options = _precise_options(obs)
        else:
            options = value_options(obs, valuation)
        gap, gap_se = options[1].value - options[0].value, getattr(options[1], "gap_se", 0.0)
        if not separated(gap, gap_se, min_gap):
            continue
        taken.add((game_seed, seat))
        made += 1
        yield Puzzle(obs, options[0].action, tuple(options), _explain(obs, options), round(gap, 2),
                     f"game seed {game_seed}, seat {seat} ({obs.players[seat]}), move {turn}", valuation,
                     round(gap_se, 3))
    raise ValueError(f"only {made} positions with a gap of {min_gap} points or more in {MAX_GAMES} games")


def generate(n: int = 10, seed: int = 0, rules: Rules | None = None, min_gap: float = 2.0,
             kind: str | None = None, valuation: str | None = None) -> list[Puzzle]:
    """``n`` puzzles from CPU play where the best option beats the second by ``min_gap`` points or more
    (and, valued by the coach, by ``SEPARATION`` standard errors of their difference: ``separated``).

    ``valuation`` picks how options are valued (``VALUATIONS``; default ``VALUATION``).
    ``kind`` keeps one kind of decision only (``KINDS``; "place" includes "last_card").
    The same arguments give the same puzzles (``stream`` makes them one at a time). At most one
    puzzle is taken per seat and hole, so they come from different hands. A ValueError says what
    was wrong with an argument, or that ``MAX_GAMES`` games did not hold enough such positions.
    """
    _check(n, seed, rules, min_gap, kind, VALUATION if valuation is None else valuation)
    puzzles = stream(seed, rules, min_gap, kind, valuation)
    found: list[Puzzle] = []
    try:
        while len(found) < n:
            found.append(next(puzzles))
    except ValueError:
        raise ValueError(f"only {len(found)} of {n} positions with a gap of {min_gap} points or more in "
                         f"{MAX_GAMES} games: ask for fewer puzzles or a smaller min_gap") from None
    return found
