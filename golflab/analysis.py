"""Grading decisions (spec section 11): OPTIMAL, GOOD, QUESTIONABLE, MISTAKE or BLUNDER.

``grade(observation, action)`` grades one decision from the acting seat's observation
*before* the action. Every legal alternative gets its expected hand-score change from
``golflab.ev`` (exact, over the cards the seat cannot see; lower is better), and the
move's ``ev_loss`` is how much worse it is than the best alternative. The grade is the
worse of two judgements:

* by EV loss: at most 0.05 OPTIMAL, at most 2 GOOD, at most 5 QUESTIONABLE, at most 10
  MISTAKE, more BLUNDER (points of expected hand score);
* the named cases of the spec's table (``case``; they are also the counters of
  ``QualityCounters``):

  ======================================  =====================================  ============
  case                                    when                                   severity
  ======================================  =====================================  ============
  ``discarded_jokers``                    discarding a joker (any joker mode)    BLUNDER
  ``discarded_twos``                      discarding a 2                         BLUNDER
  ``took_bad_card_without_pair``          taking a 10-point card (T/J/Q; not a   BLUNDER
                                          ten under ten_penny) from the discard
                                          pile with no face-up card of its rank
                                          whose column it could complete
  ``paired_negative_cards``               a swap that completes a column pair    MISTAKE
                                          of negative cards that scores more
                                          than their sum (eagle_eye joker pairs
                                          and every pair under
                                          negative_pairs_keep_value are allowed)
  ``discarded_kings``                     discarding a king                      MISTAKE
  ``swapped_good_for_bad``                swapping out a face-up card worth 1    MISTAKE
                                          or less for a card worth more, when
                                          the swap makes the hand worse
  ``questionable_moves``                  passing a 3-5 on the discard pile,     QUESTIONABLE
                                          discarding a drawn 4-6, when the
                                          alternative was at least 1 point
                                          better; going out with a hand over
                                          10 while some opponent is expected
                                          to score no more
  ======================================  =====================================  ============

Values are effective values under the active rules (``card_value``). Flips and skips
change no expected value: they are OPTIMAL unless they go out high. A flip as the whole
turn (``flip_as_action``, type ``flip_turn``) and a knock (``knock_early``) change nothing
either, so they are graded against drawing or taking by the expected gain given up, and a
knock that goes out high is questionable like any other going out. The game phase is
``early`` (every seat still has 4 or more face-down cards), ``late`` (some seat has 1 or
none, or the final turns are on) or ``mid``.

This module is the reference. ``golflab.grading.fast_grade`` gives the same Grade faster
(compiled with numba), and ``simulate`` grades whole runs in compiled code
(``golflab.gradedgames``); both are tested decision for decision against ``grade``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .actions import Action
from .ev import PARTNER, Pool, action_values, unseen_pool
from .model import scoring_model

GRADES = ("OPTIMAL", "GOOD", "QUESTIONABLE", "MISTAKE", "BLUNDER")
DECISION_TYPES = ("take_discard", "draw", "swap", "discard", "flip", "skip_flip", "flip_turn", "knock")
#: The decision types that start a turn (``flip_turn``: a flip as the whole turn, ``flip_as_action``).
TURN_TYPES = ("draw", "take_discard", "flip_turn", "knock")
PHASES = ("early", "mid", "late")
CASES = (
    "discarded_jokers",
    "discarded_twos",
    "took_bad_card_without_pair",
    "paired_negative_cards",
    "discarded_kings",
    "swapped_good_for_bad",
    "questionable_moves",
)
#: The grade each named case earns at least (the spec's table above).
CASE_SEVERITY = {"discarded_jokers": "BLUNDER", "discarded_twos": "BLUNDER", "took_bad_card_without_pair": "BLUNDER",
                 "paired_negative_cards": "MISTAKE", "discarded_kings": "MISTAKE", "swapped_good_for_bad": "MISTAKE",
                 "questionable_moves": "QUESTIONABLE"}
#: EV loss (points) up to which a move still earns each grade.
EV_LOSS_LIMITS = (("OPTIMAL", 0.05), ("GOOD", 2.0), ("QUESTIONABLE", 5.0), ("MISTAKE", 10.0))
#: How much better the alternative must be before passing a 3-5 or discarding a 4-6 is questionable.
QUESTIONABLE_MARGIN = 1.0
#: Going out with a hand above this is "going out high" (unless clearly lowest).
GOING_OUT_LIMIT = 10
_SEVERITY = {g: i for i, g in enumerate(GRADES)}
#: The decision type (the ``type`` column) of each kind of action (a flip at the draw stage is "flip_turn").
DECISION_TYPES = {"take": "take_discard", "draw": "draw", "swap": "swap", "discard": "discard", "flip": "flip",
         "skip": "skip_flip", "knock": "knock"}


@dataclass(frozen=True)
class Grade:
    """The verdict on one decision.

    ``ev`` is the expected change of the seat's hand score caused by the move (lower is
    better), ``best_ev`` that of the best legal alternative (``best_action``) and
    ``ev_loss = ev - best_ev`` (0 for the best move). ``case`` names a case of the
    spec's table (or None) and ``reason`` says in words why the grade is what it is.
    """

    type: str
    action: str
    quality: str
    ev: float
    best_ev: float
    ev_loss: float
    best_action: str
    case: str | None
    reason: str
    phase: str
    personality: str | None = None

    def __str__(self) -> str:
        """One line for a learner, e.g. ``discard: MISTAKE (ev +0.0, best swap 3 -5.5): ...``."""
        return (f"{self.action}: {self.quality} (ev {self.ev:+.1f}, best {self.best_action} {self.best_ev:+.1f})"
                f" - {self.reason}")


def game_phase(obs) -> str:
    """early / mid / late by the fewest face-down cards any seat has (final turns: late)."""
    return phase_of(min(_down(g) for g in obs.grids), obs.finisher is not None)


def phase_of(fewest_down: int, someone_out: bool) -> str:
    """``game_phase`` from the fewest face-down cards any seat has and whether someone went out."""
    if someone_out:
        return "late"
    if fewest_down >= 4:
        return "early"
    return "mid" if fewest_down >= 2 else "late"


def _down(grid) -> int:
    """Face-down cards in a grid (``list.count(None)`` would call every card's ``__eq__``)."""
    return ((grid[0] is None) + (grid[1] is None) + (grid[2] is None) + (grid[3] is None) + (grid[4] is None)
            + (grid[5] is None))


def _by_loss(loss: float) -> str:
    for name, limit in EV_LOSS_LIMITS:
        if loss <= limit:
            return name
    return "BLUNDER"


def _goes_out(obs, action: Action) -> bool:
    """Does this move turn the seat's last face-down card (going out in the playing phase)?"""
    if obs.phase != "playing":
        return False
    grid = obs.my_grid
    if action.kind == "knock":
        return _down(grid) > 0
    if _down(grid) != 1:
        return False
    if action.kind in ("swap", "flip"):
        return grid[action.pos] is None
    return action.kind == "discard" and obs.rules.flip_mode == "always"


def _going_out_high(obs, action: Action, pool: Pool, ev: float) -> tuple[bool, float]:
    mine = pool.hand_ev(_grid_kinds(obs.my_grid, pool)) + ev
    if mine <= GOING_OUT_LIMIT:
        return False, mine
    others = [pool.hand_ev(_grid_kinds(g, pool)) for s, g in enumerate(obs.grids) if s != obs.seat]
    return min(others) <= mine, mine


def _grid_kinds(grid, pool: Pool) -> list:
    kind = pool.model.kind
    return [None if c is None else kind(c) for c in grid]


def _named(case: str, why: str) -> tuple[str, str, str]:
    return case, CASE_SEVERITY[case], why


def _named_case(obs, action: Action, values) -> tuple[str | None, str, str]:
    """(case, severity, reason) of the spec's named cases, or (None, 'OPTIMAL', '')."""
    kind = action.kind
    if kind in ("flip", "skip", "knock"):
        return None, "OPTIMAL", ""
    model = scoring_model(obs.rules)
    card_kind, points = model.kind, model.value

    def value(card) -> int:
        return points[card_kind(card)]

    if kind == "discard":
        rank = obs.drawn.rank
        if rank == "JK":
            return _named("discarded_jokers", "discarding a joker throws away one of the best cards")
        if rank == "2":
            return _named("discarded_twos", "discarding a 2 throws away -2 points")
        if rank == "K":
            return _named("discarded_kings", "discarding a king throws away a safe 0")
        held = value(obs.drawn)
        if 4 <= held <= 6:
            best_swap = min(v for a, v in values.values.items() if a != "discard")
            if best_swap <= -QUESTIONABLE_MARGIN:
                return _named("questionable_moves",
                              f"discarding a {held}-point card when a swap would gain {-best_swap:.1f} points")
    elif kind == "take":
        top = obs.discard_top
        if value(top) >= 10:
            grid = obs.my_grid
            pairable = any(c is not None and c.rank == top.rank and
                           (grid[PARTNER[i]] is None or grid[PARTNER[i]].rank != top.rank)
                           for i, c in enumerate(grid))
            if not pairable:
                return _named("took_bad_card_without_pair",
                              f"taking a {value(top)}-point {top.rank} with no column it could pair")
    elif kind == "draw" and "take" in values.values:
        top = obs.discard_top
        loss = values.values["draw"] - values.values["take"]
        if 3 <= value(top) <= 5 and loss >= QUESTIONABLE_MARGIN:
            return _named("questionable_moves",
                          f"passing a {value(top)}-point {top.rank} that would gain {loss:.1f} points more")
    elif kind == "swap":
        held = obs.drawn
        v_held = value(held)
        partner = obs.my_grid[PARTNER[action.pos]]
        if partner is not None and partner.rank == held.rank and v_held < 0:
            pair, v_partner = model.pair_points[held.rank], value(partner)
            if pair > v_held + v_partner:
                return _named("paired_negative_cards",
                              f"pairing two {held.rank}s turns {v_held + v_partner} points into {pair}")
        old = obs.my_grid[action.pos]
        if old is not None:
            v_old = value(old)
            if v_old <= 1 and v_held > v_old and values.values[action.notation] > 0:
                return _named("swapped_good_for_bad",
                              f"swapping out a {v_old}-point {old.rank} for a {v_held}-point {held.rank}")
    return None, "OPTIMAL", ""


def _case(obs, act: Action, values, pool: Pool | None) -> tuple[str | None, str, str]:
    case, severity, why = _named_case(obs, act, values)
    if case is None and _goes_out(obs, act):
        high, mine = _going_out_high(obs, act, pool or unseen_pool(obs), values.values[act.notation])
        if high:
            case, severity = "questionable_moves", CASE_SEVERITY["questionable_moves"]
            why = f"going out with about {mine:.0f} points while an opponent is expected to score no more"
    return case, severity, why


def named_case(obs, action, pool: Pool | None = None) -> tuple[str | None, str, str]:
    """The spec's named case of ``action`` from ``obs`` (the acting seat's, before the move):
    ``(case, severity, reason)``, or ``(None, "OPTIMAL", "")`` when none applies. The coach
    (``golflab.coach``) grades with it beside its own valuation."""
    act = Action.parse(action)
    pool = pool or _needed_pool(obs)
    return _case(obs, act, action_values(obs, pool), pool)


def _needed_pool(obs) -> Pool | None:
    """The seat's unseen pool when valuing the move needs it (drawing, taking, placing), else
    None: flips and skips change nothing (``_case`` builds it if such a move goes out)."""
    return unseen_pool(obs) if obs.awaiting in ("draw", "place") else None


def grade(obs, action, personality: str | None = None, pool: Pool | None = None) -> Grade:
    """Grade ``action`` taken from observation ``obs`` (the acting seat's, before the move).

    Usable for a learner's move as well as a CPU's. ``pool`` (a ``golflab.ev.Pool`` of
    the seat's unseen cards) may be passed to save recomputing it. An action that is not
    legal in ``obs`` is a ValueError.
    """
    act = Action.parse(action)
    if act not in obs.legal_actions:
        legal = ", ".join(str(a) for a in obs.legal_actions) or "none"
        raise ValueError(f"cannot grade {act.notation!r}: it is not legal here (legal actions are {legal})")
    pool = pool or _needed_pool(obs)
    values = action_values(obs, pool)
    return verdict(obs, act, values.values[act.notation], values.best_value, values.best_action,
                   _case(obs, act, values, pool), personality)


def verdict(obs, act: Action, ev: float, best_ev: float, best_action: str, named: tuple, personality,
             phase: str | None = None) -> Grade:
    """The Grade of legal move ``act`` worth ``ev`` when the best is ``best_action`` worth
    ``best_ev``, with ``named`` the ``(case, severity, reason)`` of ``_case`` (``phase``:
    ``game_phase(obs)`` if known)."""
    loss = max(0.0, ev - best_ev)
    quality = _by_loss(loss)
    reason = (f"best move ({best_action})" if loss <= EV_LOSS_LIMITS[0][1]
              else f"{loss:.1f} points worse in expectation than {best_action}")
    case, severity, why = named
    if case is not None:
        if _SEVERITY[severity] >= _SEVERITY[quality]:
            quality, reason = severity, why
        else:
            reason = f"{why}; {reason}"
    # filled as the frozen dataclass's __init__ would, without its per-field setattr (one per decision)
    g = object.__new__(Grade)
    g.__dict__.update(
        type="flip_turn" if act.kind == "flip" and obs.awaiting == "draw" else DECISION_TYPES[act.kind],
        action=act.notation,
        quality=quality,
        ev=float(ev),
        best_ev=float(best_ev),
        ev_loss=loss,
        best_action=best_action,
        case=case,
        reason=reason,
        phase=phase or game_phase(obs),
        personality=personality,
    )
    return g


@dataclass
class QualityCounters:
    """Counts of the spec's named cases over a run, per turn (a turn starts with ``TURN_TYPES``).

    ``rates()`` gives each case per turn; ``grades`` counts every decision by grade.
    Counters add up with ``+`` (for merging runs).
    """

    discarded_jokers: int = 0
    discarded_twos: int = 0
    took_bad_card_without_pair: int = 0
    paired_negative_cards: int = 0
    discarded_kings: int = 0
    swapped_good_for_bad: int = 0
    questionable_moves: int = 0
    total_turns: int = 0
    total_decisions: int = 0
    grades: dict = field(default_factory=lambda: {g: 0 for g in GRADES})

    def add(self, g: Grade) -> None:
        """Count one graded decision."""
        self.total_decisions += 1
        if g.type in TURN_TYPES:
            self.total_turns += 1
        if g.case is not None:
            setattr(self, g.case, getattr(self, g.case) + 1)
        self.grades[g.quality] += 1

    def rates(self) -> dict[str, float]:
        """Each named case per turn (0.0 when there were no turns)."""
        turns = self.total_turns
        return {c: (getattr(self, c) / turns if turns else 0.0) for c in CASES}

    def to_dict(self) -> dict:
        """Counts, grade counts and per-turn rates as a JSON-ready dict."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "grades"}
        out["grades"] = dict(self.grades)
        out["rates"] = self.rates()
        return out

    def __add__(self, other: "QualityCounters") -> "QualityCounters":
        if not isinstance(other, QualityCounters):
            return NotImplemented
        out = QualityCounters()
        for f in fields(self):
            if f.name != "grades":
                setattr(out, f.name, getattr(self, f.name) + getattr(other, f.name))
        out.grades = {g: self.grades[g] + other.grades[g] for g in GRADES}
        return out
