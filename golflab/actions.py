"""Actions and their one string notation: ``flip N``, ``draw``, ``take``, ``swap N``,
``discard``, ``skip`` and ``knock`` (N a grid position 0-5). ``flip N`` at the start of a
turn exists only under ``flip_as_action``, ``knock`` only under ``knock_early``."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from .excerpt import excerpt

KINDS = ("flip", "draw", "take", "swap", "discard", "skip", "knock")
#: How to write an action (for messages).
NOTATION = "flip N, draw, take, swap N, discard, skip or knock (N a position 0-5)"
_POSITIONAL = ("flip", "swap")


class ActionCode(IntEnum):
    """Every action as one integer, the encoding of the compiled code (``golflab.kernel``,
    ``golflab.kernel.grade``), declared here once: ``flip N`` is ``FLIP + N`` (0-5), ``swap N``
    is ``SWAP + N`` (6-11), then the actions without a position. ``Action.code`` gives it."""

    FLIP = 0
    SWAP = 6
    DRAW = 12
    TAKE = 13
    DISCARD = 14
    SKIP = 15
    KNOCK = 16


class IllegalActionError(ValueError):
    """An action that is not legal now (or not an action at all). The game is unchanged."""


def _is_action(kind, pos) -> bool:
    """True for a kind of KINDS with a position 0-5 exactly when it takes one."""
    if not isinstance(kind, str) or kind not in KINDS:
        return False
    if kind in _POSITIONAL:
        return type(pos) is int and 0 <= pos <= 5
    return pos is None


class Action:
    """One move. Interned: ``Action.parse("swap 3") is SWAP[3]``.

    ``Action(kind, pos)`` accepts only a real action (``Action("swap", 3)``); anything
    else (``Action(None)``, ``Action("swap", 9)``) is an IllegalActionError.
    """

    __slots__ = ("kind", "pos", "notation", "code")
    _by_text: dict[str, "Action"] = {}

    def __init__(self, kind: str, pos: int | None = None) -> None:
        if not _is_action(kind, pos):
            shown = repr(kind) if pos is None else f"{kind!r}, {pos!r}"
            raise IllegalActionError(
                f"Action({shown}) is not an action: write {NOTATION}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "pos", pos)
        object.__setattr__(self, "notation", kind if pos is None else f"{kind} {pos}")
        object.__setattr__(self, "code", ActionCode[kind.upper()] + (pos or 0))

    def __setattr__(self, name, value):
        raise AttributeError("Action is immutable")

    def __reduce__(self):
        return (Action.parse, (self.notation,))

    @classmethod
    def parse(cls, text: "str | Action") -> "Action":
        """Parse notation (case and spacing are forgiven); unknown text is an IllegalActionError."""
        if isinstance(text, Action):
            return text
        if isinstance(text, str):
            found = cls._by_text.get(" ".join(text.lower().split()))
            if found is not None:
                return found
        raise IllegalActionError(
            f"{text!r} is not an action: write {NOTATION}"
        )

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Action({self.notation!r})"

    def __eq__(self, other):
        if isinstance(other, Action):
            return self.notation == other.notation
        if isinstance(other, str):
            return self.notation == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.notation)


FLIP = tuple(Action("flip", i) for i in range(6))
SWAP = tuple(Action("swap", i) for i in range(6))
DRAW = Action("draw")
TAKE = Action("take")
DISCARD = Action("discard")
SKIP = Action("skip")
KNOCK = Action("knock")
#: Every action in the order of its code (``ACTIONS[a.code] is a``).
ACTIONS = (*FLIP, *SWAP, DRAW, TAKE, DISCARD, SKIP, KNOCK)
for _a in ACTIONS:
    Action._by_text[_a.notation] = _a
    if _a.pos is not None:
        Action._by_text[f"{_a.kind}{_a.pos}"] = _a


def one_of(answer: object, legal: "Sequence[str]") -> str:
    """``answer`` (a move written any way ``Action.parse`` forgives) in its notation, when it is one of
    the ``legal`` moves' notations; else a ValueError naming them (a teacher's move for a puzzle, a
    learner's answer to it)."""
    if not legal:
        raise ValueError("there is no move to make at this position (the hole is over or nobody can act)")
    try:
        move = Action.parse(answer).notation if isinstance(answer, str) else None
    except ValueError:
        move = None
    if move not in legal:
        raise ValueError(f"{excerpt(answer)} is not a move here; the moves are {', '.join(legal)}")
    return move
