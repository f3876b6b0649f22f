"""Grades: one decision against the best option valued, with spec section 11's five grades and
its named cases, in one plain sentence."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..actions import Action
from ..analysis import EV_LOSS_LIMITS, GRADES, named_case
from ..ev import action_values
from ..game import Observation, Phase
from .hints import Option, check_samples, evaluate, hint, known_hint
from .worlds import check_to_move

#: Rollouts a decision of ``review`` may spend in all (a whole game is graded, so fewer).
REVIEW_ROLLOUTS = 600


def by_loss(loss: float) -> str:
    for name, limit in EV_LOSS_LIMITS:
        if loss <= limit:
            return name
    return "BLUNDER"


@dataclass(frozen=True)
class CoachGrade:
    """The coach's verdict on one decision.

    ``grade`` one of ``analysis.GRADES``; ``ev_loss`` points lost against the best option
    (by the rollout values; 0 for the best); ``best`` the best option's notation; ``reason``
    one plain sentence; ``case`` the spec's named case (or None); ``options`` the hint.
    ``round``, ``turn`` (turns this seat completed this hole before the move, plus 1; 0 for
    initial flips) and ``step`` (the move's index in ``game.history``, or None) place it.
    """

    action: str
    best: str
    grade: str
    ev_loss: float
    reason: str
    case: str | None
    options: tuple
    round: int
    turn: int
    step: int | None = None
    observation: Observation | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return f"{self.action}: {self.grade} ({self.ev_loss:.1f} points lost; best {self.best}) - {self.reason}"


def graded_options(obs: Observation, action: str, samples: int | None, candidates: int | None) -> list[Option]:
    legal = tuple(str(a) for a in obs.legal_actions)
    if samples is not None:
        check_samples(samples)
    # a full hint already asked for (the default one, as the table's live grades ask, or these samples)
    full = known_hint(obs, samples)
    if full is not None:
        return full
    if candidates is None:
        return hint(obs, samples=samples)
    if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
        raise ValueError(f"candidates must be a whole number 1 or more, got {candidates!r}")
    if len(legal) <= candidates + 1:
        return evaluate(obs, legal, samples, REVIEW_ROLLOUTS)
    one_step = action_values(obs).values
    ranked = sorted(legal, key=lambda a: one_step[a])  # stable: ties in legal order
    chosen = [a for a in legal if a == action or a in ranked[:candidates]]
    return evaluate(obs, tuple(chosen), samples, REVIEW_ROLLOUTS)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def grade(observation: Observation, action: str | Action, *, samples: int | None = None,
          candidates: int | None = None, step: int | None = None) -> CoachGrade:
    """Grade ``action`` played from ``observation`` (the seat to move's, before the move).

    The grade is the worse of the points lost against the best option valued (at most 0.05
    OPTIMAL, 2 GOOD, 5 QUESTIONABLE, 10 MISTAKE, more BLUNDER: ``analysis.EV_LOSS_LIMITS``)
    and the spec's named cases (discarding a 2 is a BLUNDER, whatever it costs). An illegal
    action is a ValueError.

    By default every legal option is valued (``hint``). ``candidates=k`` values only the move
    played and the ``k`` best options by the one-step exact EV (``golflab.ev.action_values``),
    with the same rollouts, raced within ``REVIEW_ROLLOUTS`` (with ``samples``: exactly as the
    full hint values them), unless the full hint is already known (then it is used).
    ``review`` grades this way, for speed.
    """
    check_to_move(observation)
    act = Action.parse(action)
    if act not in observation.legal_actions:
        legal = ", ".join(str(a) for a in observation.legal_actions)
        raise ValueError(f"cannot grade {act.notation!r}: it is not legal here (legal actions are {legal})")
    options = graded_options(observation, act.notation, samples, candidates)
    best = options[0]
    mine = next(o for o in options if o.action == act.notation)
    loss = max(0.0, mine.value - best.value)
    quality = by_loss(loss)
    case, severity, why = named_case(observation, act)
    if case is not None and GRADES.index(severity) > GRADES.index(quality):
        quality = severity
    if loss == 0:
        best = mine  # a tie with the first option: the move played is a best one
    if loss <= EV_LOSS_LIMITS[0][1]:
        reason = f"Best move: {_lower_first(mine.reason)}"
    else:
        reason = (f"Better: {_lower_first(best.reason)}. Your move: {_lower_first(mine.reason)}, "
                  f"about {loss:.1f} points worse by the end of the hole")
    if case is not None:
        reason += f" ({why})"
    turn = 0 if observation.phase is Phase.INITIAL_FLIP else observation.turns[observation.seat] + 1
    return CoachGrade(act.notation, best.action, quality, loss, reason, case, tuple(options),
                      observation.round, turn, step, observation)
