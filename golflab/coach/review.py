"""Reviews: every decision of one seat in a game graded, with an accuracy and the costliest."""

from __future__ import annotations

import math

from ..analysis import GRADES
from ..game import Game, Phase
from .grades import CoachGrade, grade

#: Options ``review`` values beside the move played: the best ones by one-step EV.
REVIEW_CANDIDATES = 2
#: Points lost at which a decision's accuracy falls to 1/e (about 37): see ``accuracy``.
ACCURACY_SCALE = 5.0


def accuracy(losses) -> float:
    """Accuracy 0-100 from the points lost per decision: ``100 * mean(exp(-loss / ACCURACY_SCALE))``.

    A decision with no loss scores 100, one losing 5 points about 37, 10 points about 14;
    no decisions at all is 100. Rounded to one decimal.
    """
    losses = [float(x) for x in losses]
    if any(x < 0 or math.isnan(x) for x in losses):
        raise ValueError(f"points lost must be 0 or more, got {losses}")
    if not losses:
        return 100.0
    return round(100 * sum(math.exp(-x / ACCURACY_SCALE) for x in losses) / len(losses), 1)


class Review:
    """Every decision of one seat in a game (``review(game, seat)``).

    ``grades``: a ``CoachGrade`` per decision in play order; ``decisions``: a pandas
    DataFrame (round, turn, action, best, grade, ev_loss, reason, step); ``accuracy``
    (0-100, see ``accuracy``); ``counts``: decisions per grade; ``costliest(n)``.
    """

    def __init__(self, seat: int, grades: list[CoachGrade]) -> None:
        self.seat = seat
        self.grades = list(grades)
        self.accuracy = accuracy(g.ev_loss for g in self.grades)
        self.counts = {q: sum(g.grade == q for g in self.grades) for q in GRADES}

    @property
    def decisions(self):
        import pandas as pd

        cols = ["round", "turn", "action", "best", "grade", "ev_loss", "reason", "step"]
        return pd.DataFrame([[getattr(g, c) for c in cols] for g in self.grades], columns=cols)

    def costliest(self, n: int = 3) -> list[CoachGrade]:
        """The ``n`` decisions that lost the most points, worst first (ties in play order);
        decisions that lost nothing are left out."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a whole number 0 or more, got {n!r}")
        lost = [g for g in self.grades if g.ev_loss > 0]
        return sorted(lost, key=lambda g: -g.ev_loss)[:n]

    def __repr__(self) -> str:
        return f"<Review seat {self.seat}: {len(self.grades)} decisions, accuracy {self.accuracy}>"


def review(game: Game, seat: int, *, samples: int | None = None,
           candidates: int = REVIEW_CANDIDATES) -> Review:
    """Grade every decision ``seat`` made in ``game`` so far (replayed from its seed and history).

    Moves with a single legal action are no decision and are left out. Each decision is
    graded by ``grade(obs, move, samples=samples, candidates=candidates)``: the move played
    and the ``candidates`` best options by one-step EV, raced as a hint's options are (within
    ``REVIEW_ROLLOUTS`` rollouts; ``samples``: a fixed number per option instead), or the full
    hint when one was already asked for that position (as the table's live grades do).
    """
    if not isinstance(game, Game):
        raise ValueError(f"review needs a golflab.Game, got {type(game).__name__}")  # noqa: TRY004
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be a seat index 0-{game.num_players - 1}, got {seat!r}")
    g = Game(list(game.players), game.rules, seed=game.seed)
    grades = []
    for step, act in enumerate(game.history):
        if g.phase is Phase.ROUND_OVER:
            g.next_round()
        if g.current_player == seat and len(g.legal_actions()) > 1:
            grades.append(grade(g.observation(seat), act, samples=samples, candidates=candidates, step=step))
        g.apply(act)
    return Review(seat, grades)
