"""The coach: every option valued by what it leads to, decisions graded, a game reviewed.

``hint(obs)`` values each legal option of the seat to move in **expected points for this
seat relative to the table** (lower is better): the seat's hole score minus the mean hole
score of the other seats, at the end of the hole. ``-3.0`` means "you finish this hole about
3 points below the others' average".

The method (determinized rollouts with common random numbers):

1. From the observation alone, the *unseen cards* are the full deck minus every visible card
   (face-up grid cards, the discard pile, the card this seat holds). They are shuffled with
   a ``random.Random`` seeded from the observation itself (``observation_seed``) and dealt
   into every face-down position and the draw pile (its known size): one *determinization*.
   No hidden card of the real game is ever read, so two games that differ only in hidden
   cards give the same hint.
2. Each legal option is applied to the same determinizations (common random numbers: every
   option meets the same hidden cards, draw-pile order and CPU random choices) and the hole
   is played out by CPU personalities: each opponent by its personality when its seat name
   is one (``"Maya 2"`` is Maya), else by ``ROLLOUT_PROFILE``; this seat too, after the
   option, by ``ROLLOUT_PROFILE``.
   The hole is played on for ``HORIZON`` (3) table rounds past the option, then each hand is
   scored at its exact expectation. At a draw decision *draw* is a chance node: in each world
   the top card of the pile is drawn and put to its best use, the best of its three best uses
   by one-step EV raced on rollouts (``valuation.CHANCE_USES``: what a learner following the
   coach then does), and *take* is followed by the taken card's best use. Moves that are one
   move up to the grid's symmetry (two face-down cards under face-down cards) are valued once
   and share that value (``golflab.equivalence``, ``Option.same_as``).
3. An option's ``value`` is the mean over the samples of (this seat's hole score, with every
   round adjustment, minus the others' mean); ``se`` is its standard error (the samples'
   standard deviation over the square root of their number). Differences between options
   are much more precise than each ``se`` because of the common random numbers.

So the values carry tempo the one-step EV (``golflab.ev``) misses: going out ends the hole
for the others, a face-down card may still become a pair, opponents close to going out end
the hole sooner.

How many samples (``golflab.racing``): by default the options race on their paired
differences. Each is valued on ``MIN_SAMPLES`` determinizations, then the options still in
the race get twice as many, and so on, until the best option is ``racing.SEPARATION`` (3)
standard errors of their paired difference ahead of each other option, or that difference
and its standard error are both under ``racing.INDIFFERENCE`` (0.1 point), or the hint has
spent ``HINT_ROLLOUTS`` rollouts. ``samples=`` values every option on a fixed number instead.
Sample ``i`` is the same world whatever batch draws it, so the same observation and arguments
always give the same hint.

One valuation (``valuation.value``, which ``hints.evaluate`` calls): hints, grades, reviews,
puzzles, the tutor and the Expert CPU (the hint's best, raced within more rollouts:
``expert.EXPERT_ROLLOUTS``) value options the same way, the horizon and the treatment of
*draw* chosen by ``benchmarks/valuation.py``; ``valuation.reference`` is its check, played to the
end of the hole. Bulk grading in ``golflab.simulate`` and ``golflab.analysis.grade`` stays
one-step exact EV (``golflab.ev``) for speed.

``grade(obs, action)`` grades one decision with spec section 11's five grades: the points
lost against the best option (``analysis.EV_LOSS_LIMITS``) or the spec's named cases
(``analysis.named_case``), whichever is worse. ``review(game, seat)`` grades every decision
of a seat (moves with a single legal action are no decision and are left out) with
``accuracy`` (see ``accuracy``), a ``decisions`` DataFrame and ``costliest(n)``. For speed a
review values only the move played and the ``REVIEW_CANDIDATES`` best options by one-step EV
(raced within ``REVIEW_ROLLOUTS`` rollouts), unless the full hint of that position was already
asked for (the table grading a move live): then its values are used.

Error bars: ``se`` is an option's own standard error; ``gap_se`` the standard error of its
difference to the best, much smaller because the options share their samples. A value is an
estimate of what the option leads to when the hole is played on by the CPU personalities (and
exact EV past the horizon), not a proof of the best play.

The package, one module a job: ``worlds`` (determinizations), ``rollouts`` (an option played
out, in Python or compiled), ``leaf`` (a correction of the rollouts' leaf fitted to play, on
trial: ``rollouts.LEAF``, None by default), ``valuation`` (the one valuation: rollouts, the chance node, the
race), ``card_use`` (a drawn or taken card's best use: the chance node), ``search`` (the
Expert's former search, kept for comparison), ``reasons`` (the
sentences), ``hints`` (the options valued, kept for reuse), ``grades`` (one decision),
``review`` (a game), ``expert`` (the Expert CPUs).
"""

from __future__ import annotations

from .grades import REVIEW_ROLLOUTS, CoachGrade, grade
from .hints import HINT_ROLLOUTS, MIN_SAMPLES, PRECISE_ROLLOUTS, Option, clear_cache, hint, rollouts_spent
from .review import ACCURACY_SCALE, REVIEW_CANDIDATES, Review, accuracy, review
from .rollouts import HORIZON, ROLLOUT_PROFILE
from .worlds import determinize, observation_seed

__all__ = [
    "ACCURACY_SCALE", "HINT_ROLLOUTS", "HORIZON", "MIN_SAMPLES", "PRECISE_ROLLOUTS", "REVIEW_CANDIDATES",
    "REVIEW_ROLLOUTS", "ROLLOUT_PROFILE", "CoachGrade", "Option", "Review", "accuracy", "clear_cache", "determinize",
    "grade", "hint", "observation_seed", "review", "rollouts_spent",
]
