"""Which actions are legal, and why one is not: stated once here.

* ``legal_actions(stage, rules, up, can_take, held_source, flip_optional)``: the legal actions
  of the seat to move (spec sections 3-7 and 12). ``Game.legal_actions`` (so every
  ``Observation.legal_actions``) and ``Game.apply`` (``is_legal``) read it; its compiled twin is
  ``golflab.kernel.engine.legal_codes``, pinned equal by ``tests/kernel/test_legal_parity.py``.
* ``why_illegal(observation, action)``: why an action the declaration does not list is
  refused, as a ``Refusal``: a reason (one of ``REASONS``) for code that words it its own way
  (the golf table's plain words) and the engine's own note (in ``IllegalActionError``).
  ``Game.why_illegal`` and ``Observation.why_illegal`` answer with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .actions import DISCARD, DRAW, FLIP, KNOCK, SKIP, SWAP, TAKE, Action
from .rules import Rules

__all__ = ["REASONS", "Refusal", "is_legal", "legal_actions", "why_illegal"]

#: Why an action is refused, each with the engine's note (``{pos}``: the action's card,
#: ``{down}``: the face-down cards of the seat to move); empty where the legal actions say it all.
REASONS = {
    "not_your_turn": "",  # the observing seat is not the one to move
    "between_holes": "",  # the hole is over (or the game): nothing to play
    "knock_off": " (knock needs the knock_early house rule)",
    "knock_not_now": " (knock is a whole turn: only at the start of a turn, before drawing)",
    "knock_count": " (knock needs one or two face-down cards; this seat has {down})",
    "flip_off": " (flip N as a whole turn needs the flip_as_action house rule)",
    "flip_after_draw": " (flip N as a whole turn comes instead of drawing, not after a draw)",
    "face_up": " (card {pos} is already face up)",
    "holding": "",  # a card is held: it must be placed first
    "flip_first": "",  # a flip is awaited (the initial flips, or the one after a discard)
    "pile_empty": "",  # nothing to take from the discard pile
    "taken_swaps": "",  # a card taken from the discard pile must be swapped, not discarded
    "nothing_held": "",  # no card is held, so there is nothing to place or discard
    "no_skip": "",  # no optional flip to skip
}


@dataclass(frozen=True)
class Refusal:
    """Why ``action`` is not legal now: ``reason`` (a key of ``REASONS``) and ``note`` (the
    engine's words for it, empty where the legal actions say it all; starts with a space)."""

    action: Action
    reason: str
    note: str


def _declared(stage: str | None, rules: Rules, up: Sequence[bool], can_take: bool, held_source: str | None,
              flip_optional: bool) -> list[Action]:
    """The declaration itself (``legal_actions`` says what the arguments are)."""
    if stage == "draw":
        acts = [DRAW, TAKE] if can_take else [DRAW]
        if rules.flip_as_action or rules.knock_early:  # whole-turn actions (spec section 12)
            down = [i for i in range(6) if not up[i]]
            if rules.flip_as_action:
                acts += [FLIP[i] for i in down]
            if rules.knock_early and 1 <= len(down) <= 2:
                acts.append(KNOCK)
        return acts
    if stage == "place":
        return [*SWAP, DISCARD] if held_source == "draw" else list(SWAP)
    if stage == "initial_flip" or stage == "flip":
        acts = [FLIP[i] for i in range(6) if not up[i]]
        if stage == "flip" and flip_optional:
            acts.append(SKIP)
        return acts
    return []


#: the declaration's answers, by everything it reads: the legal actions and their notations
_answers: dict[tuple, tuple[tuple[Action, ...], frozenset[str]]] = {}


def _answer(stage, rules, up, can_take, held_source, flip_optional) -> tuple[tuple[Action, ...], frozenset[str]]:
    key = (stage, can_take, held_source, flip_optional, rules.flip_as_action, rules.knock_early, *up)
    found = _answers.get(key)
    if found is None:
        acts = tuple(_declared(stage, rules, up, can_take, held_source, flip_optional))
        found = _answers[key] = (acts, frozenset(a.notation for a in acts))
    return found


def legal_actions(stage: str | None, rules: Rules, up: Sequence[bool], can_take: bool,
                  held_source: str | None, flip_optional: bool) -> list[Action]:
    """The legal actions of the seat to move: ``stage`` is what it must do (``Game.awaiting``:
    initial_flip, draw, place, flip, or None between holes), ``up`` its six face-up flags,
    ``can_take`` whether the discard pile holds a card, ``held_source`` where its held card
    came from ("draw" or "take"), ``flip_optional`` whether the flip after a discard may be skipped."""
    return list(_answer(stage, rules, up, can_take, held_source, flip_optional)[0])


def is_legal(action: Action, stage: str | None, rules: Rules, up: Sequence[bool], can_take: bool,
             held_source: str | None, flip_optional: bool) -> bool:
    """Is ``action`` one of ``legal_actions(...)`` (the same arguments after it)? Read from the
    same declaration, without building the list (``Game.apply`` asks it at every move)."""
    return action.notation in _answer(stage, rules, up, can_take, held_source, flip_optional)[1]


def why_illegal(observation, action: "Action | str") -> Refusal | None:
    """Why ``action`` (an Action or its notation) is not legal for the seat of ``observation``
    (a ``golflab.Observation``) now, or None when it is. Not an action at all: IllegalActionError."""
    obs, a = observation, Action.parse(action)
    if a in obs.legal_actions:
        return None
    if obs.awaiting is None:
        reason = "between_holes"
    elif obs.current_player != obs.seat:
        reason = "not_your_turn"
    else:
        reason = _reason(obs.awaiting, obs.rules, a, obs.grids[obs.seat])
    down = sum(c is None for c in obs.grids[obs.current_player])
    return Refusal(a, reason, REASONS[reason].format(pos=a.pos, down=down))


def _reason(stage: str, rules: Rules, a: Action, grid: Sequence) -> str:
    """Which rule refuses ``a`` (not legal) at ``stage`` for a seat whose grid is ``grid`` (None: face down)."""
    kind = a.kind
    if kind == "knock":
        return "knock_off" if not rules.knock_early else "knock_not_now" if stage != "draw" else "knock_count"
    if stage == "place":
        if kind == "flip":
            return "flip_after_draw" if rules.flip_as_action else "holding"
        return "taken_swaps" if kind == "discard" else "holding"
    if stage == "draw":
        if kind == "flip":
            return "face_up" if rules.flip_as_action else "flip_off"
        return "pile_empty" if kind == "take" else "no_skip" if kind == "skip" else "nothing_held"
    # the initial flips, or the flip after a discard
    if kind == "flip":
        return "face_up"
    return "no_skip" if kind == "skip" else "flip_first"
