"""Checking a Codepiece save (``CodepieceGame.to_json``, ``CodepieceMatch.to_json``) before it is replayed.

A save is read only as ``to_json`` writes it: JSON text of bounded size (checked before
parsing, and nesting too deep is refused, never a RecursionError), an object with the
expected format and version, exactly the expected keys and JSON types (``true`` is no
number, ``null`` is no seed). Anything else is a ValueError saying what is wrong and
quoting at most an excerpt of what it found; the replay then checks every action.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from ..excerpt import excerpt, json_kind

#: Actions in one deal: a bid or pass from each seat, the trump, then 52 cards.
MAX_DEAL_ACTIONS = 4 + 1 + 52
#: Characters a save spends on the longest action (``"trump_S", ``).
_ACTION_CHARS = len('"trump_S", ')
#: Room for everything but the actions (settings, a set deal's hands, layout).
_SLACK = 64 * 1024


def max_chars(deals: int) -> int:
    """The largest save accepted for ``deals`` deals, in characters."""
    return deals * MAX_DEAL_ACTIONS * _ACTION_CHARS + _SLACK


def load(text: Any, what: str, fmt: str, version: int, keys: Sequence[str], optional: Sequence[str] = (),
         limit: int = max_chars(1)) -> dict[str, Any]:
    """Parse the save of ``what`` ("saved Codepiece match"): size, JSON, format, version and keys."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ValueError(f"not a {what}: expected the JSON text to_json() writes, got {type(text).__name__}")
    if len(text) > limit:
        raise ValueError(f"not a {what}: {len(text):,} characters is too large (the longest one saves in "
                         f"under {limit:,})")
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(f"not a {what}: its JSON is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, undecodable bytes, an integer too long to read
        raise ValueError(f"not a {what}: it is not the JSON text to_json() writes ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError(f"not a {what} (expected an object with \"format\": \"{fmt}\")")
    if type(data.get("version")) is not int or data["version"] != version:
        raise ValueError(f"{what} version {excerpt(data.get('version'))} is not supported (only {version})")
    missing = [k for k in keys if k not in data]
    if missing:
        raise ValueError(f"the {what} lacks {', '.join(missing)}")
    allowed = ("format", "version", *keys, *optional)
    extra = [k for k in data if k not in allowed]
    if extra:
        shown = ", ".join(excerpt(k) for k in extra[:3]) + (f" and {len(extra) - 3} more" if len(extra) > 3 else "")
        raise ValueError(f"the {what} has unknown key(s) {shown}: it holds {', '.join(allowed)}")
    return data


def whole(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (no bound: None), else a ValueError."""
    if type(value) is not int or value < low or (high is not None and value > high):
        allowed = f"from {low} to {high}" if high is not None else f"of at least {low}"
        got = excerpt(value) if type(value) in (int, str) else json_kind(value)
        raise ValueError(f"{name} must be a whole number {allowed}, got {got}")
    return value


def actions(name: str, value: Any) -> list[str]:
    """``value`` when it is a list of strings (action notations), else a ValueError naming the first misfit."""
    if type(value) is not list:
        raise ValueError(f"{name} must be a list of action strings, got {json_kind(value)}")
    for i, action in enumerate(value):
        if type(action) is not str:
            raise ValueError(f"{name}, move {i + 1} must be an action string, got {json_kind(action)}")
    return value
