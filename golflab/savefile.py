"""Checking a saved game (the text of ``Game.to_json``) before and after it is replayed.

A save is accepted only exactly as ``to_json`` wrote it: the same keys, the same JSON
types (``true`` is not ``1``), a history that replays to the recorded state, and a
checksum over players, rules, seed, history and state, so that changes the replay cannot
see (players reordered, a rule the game has not used yet) are refused too. Anything else
is a ValueError saying what is wrong. Saves of version 1 (before the checksum) are
still read, with every check but that one.

The version is derived, never bumped by hand: the newest ``since`` among the save's own
features (``CHECKSUM_SINCE``) and the rule options (``rules.OPTIONS``). A new option declared
``since=VERSION + 1`` raises it; ``tests/engine/test_saves.py`` replays a real save of every version.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .excerpt import json_kind
from .rules import OPTIONS

FORMAT = "golflab.game"
#: The first version whose saves carry a checksum.
CHECKSUM_SINCE = 2
#: The version saves are written in: the newest feature's ``since`` (the checksum's, an option's).
VERSION = max(CHECKSUM_SINCE, *(o.since for o in OPTIONS))
#: Versions ``load`` reads: every one up to ``VERSION``.
VERSIONS = tuple(range(1, VERSION + 1))
_KEYS = ("format", "version", "players", "rules", "seed", "history", "state")

#: Actions in the longest legal game: 18 holes; each of 6 seats makes 2 initial flips and
#: at most 501 turns (the 500-turn stall guard, or 500 then a final turn) of at most 3
#: actions (draw, discard, then flip or skip).
MAX_ACTIONS = 18 * 6 * (2 + 501 * 3)
#: The largest save accepted, in characters: that history, each action written as
#: ``"discard", `` (the longest), plus 64 KiB for the player names, the rules and the state.
MAX_SAVE_CHARS = MAX_ACTIONS * len('"discard", ') + 64 * 1024


def checksum(data: dict[str, Any]) -> str:
    """The first 16 hex digits of the sha256 of a save's content (its keys but ``checksum``)."""
    content = {k: v for k, v in data.items() if k != "checksum"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def load(text: "str | bytes") -> dict[str, Any]:
    """Parse a save and check its outline: size, keys and the type of each part."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ValueError(f"not a saved golflab game: invalid JSON (expected text, got {type(text).__name__})")
    if len(text) > MAX_SAVE_CHARS:
        raise ValueError(
            f"not a saved golflab game: {len(text):,} characters is too large (the longest legal game, "
            f"18 holes of 6 players each playing to the 500-turn limit, saves in under {MAX_SAVE_CHARS:,})")
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("not a saved golflab game: its JSON is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, undecodable bytes, an integer too long to read
        raise ValueError(f"not a saved golflab game: invalid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a saved golflab game: expected an object with format {FORMAT!r}")
    version = data.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise ValueError(f"saved game version {json.dumps(version)} is not supported (expected {VERSION}, "
                         f"or an older {', '.join(map(str, VERSIONS[:-1]))})")
    keys = _KEYS + (("checksum",) if version >= CHECKSUM_SINCE else ())
    missing = [k for k in keys if k not in data]
    if missing:
        raise ValueError(f"saved game is missing {', '.join(missing)}")
    extra = [k for k in data if k not in keys]
    if extra:
        raise ValueError(f"saved game has unknown key(s) {', '.join(map(repr, extra))}: "
                         f"a version {version} save holds exactly {', '.join(keys)}")
    _expect(data["players"], list, "players must be a list of 2 to 6 names")
    _expect(data["rules"], dict, "rules must be an object of rule options")
    _expect(data["seed"], int, "seed must be a whole number")
    if not isinstance(data["history"], list) or not all(isinstance(h, str) for h in data["history"]):
        raise ValueError("saved game history must be a list of action notations")
    state = data["state"]
    if not isinstance(state, dict) or type(state.get("round")) is not int:
        raise ValueError("saved game state must be an object with the hole number in 'round'")
    if version >= CHECKSUM_SINCE:
        _expect(data["checksum"], str, "checksum must be a string")
    return data


def check_restored(data: dict[str, Any], written: dict[str, Any]) -> None:
    """Refuse a save (``load``'s ``data``) unless it is exactly what the game it replays
    to writes (``written``: that game's save without the checksum)."""
    for key in ("players", "rules", "seed"):
        check_part(key, written[key], data[key])
    for i, (want, got) in enumerate(zip(written["history"], data["history"])):
        if want != got:
            raise ValueError(f"saved game history entry {i} ({got!r}) is not written as a save writes it ({want!r})")
    problem = _difference(written["state"], data["state"], "state")
    if problem:
        raise ValueError(f"saved game is corrupted: its history does not lead to its recorded state ({problem})")
    if "checksum" in data and data["checksum"] != checksum(written):
        raise ValueError("saved game was changed after it was saved: its checksum does not match its players, "
                         "rules, seed, history and state (players reordered? a rule edited?)")


def check_part(key: str, want: Any, got: Any) -> None:
    """Refuse part ``key`` of a save unless it is ``want`` in value and JSON type."""
    problem = _difference(want, got, key)
    if problem:
        raise ValueError(f"saved game does not match what a save writes: {problem}")


def _expect(value: Any, kind: type, what: str) -> None:
    if type(value) is not kind:  # exactly: true is no whole number
        raise ValueError(f"saved game {what}, got {json_kind(value)}")


def _difference(want: Any, got: Any, path: str) -> str | None:
    """Where and how ``got`` first differs from ``want`` in value or JSON type (None: nowhere).
    Says which part differs, never the value expected (it may be a face-down card)."""
    if type(want) is not type(got):
        return f"{path} is {json_kind(got)} where a save writes {json_kind(want)}"
    if isinstance(want, dict):
        missing = [k for k in want if k not in got]
        if missing:
            return f"{path} has no {', '.join(map(repr, missing))}"
        extra = [k for k in got if k not in want]
        if extra:
            return f"{path} has {', '.join(map(repr, extra))}, which a save never writes"
        return next(filter(None, (_difference(want[k], got[k], f"{path}.{k}") for k in want)), None)
    if isinstance(want, list):
        if len(want) != len(got):
            return f"{path} holds {len(got)} entries, not {len(want)}"
        return next(filter(None, (_difference(w, g, f"{path}[{i}]") for i, (w, g) in enumerate(zip(want, got)))),
                    None)
    return None if want == got else f"{path} differs"
