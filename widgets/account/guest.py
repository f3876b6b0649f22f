"""A guest's progress in this kernel: lesson answers, puzzle results and finished games.

Anyone whose progress the class store does not keep (not signed in, or the store failing) has it
here, one ``GuestProgress`` per kernel (``guest_progress``: one page, one kernel, one visitor); the
apps add to it (``add_exercise``, ``add_puzzle``, ``add_game``) through ``learner_progress``, and
the account bar offers it as a JSON file to download and upload again (``to_json``, ``parse``).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Callable

from golflab import Game
from golflab.excerpt import excerpt, json_kind

FORMAT = "golflab.progress"
VERSION = 1
MAX_KEY = 128  # lesson, item and puzzle names (as the class store allows)
MAX_GAMES = 200
MAX_ATTEMPTS = 20_000
MAX_FILE_CHARS = 32 * 1024 * 1024


def _key(value, what: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_KEY or not value.isprintable():
        raise ValueError(f"{what} must be text of 1 to {MAX_KEY} printable characters, got {excerpt(value)}")
    return value


def _flag(value, what: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{what} must be true or false, got {json_kind(value)}")
    return value


def _game(text, what: str = "a game") -> str:
    if not isinstance(text, str):
        raise ValueError(f"{what} must be the text of a saved game, got {json_kind(text)}")
    Game.from_json(text)  # a ValueError saying what is wrong with the save
    return text


def _merged(first: list, then: list) -> list:
    """``first``, then what ``then`` holds beyond it (counting repeats): loading a file twice adds nothing."""
    seen = Counter(json.dumps(x, sort_keys=True) for x in first)
    out = list(first)
    for item in then:
        key = json.dumps(item, sort_keys=True)
        if seen[key]:
            seen[key] -= 1
        else:
            out.append(item)
    return out


class GuestProgress:
    """A guest's progress kept in this kernel: lesson answers, puzzle results and finished games,
    saved to and loaded from a JSON file (``to_json``, ``load``)."""

    def __init__(self) -> None:
        self.games: list[str] = []
        self.exercises: list[dict] = []
        self.puzzles: list[dict] = []
        self._listeners: list[Callable[[], None]] = []

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change (the account bar refreshes its download link)."""
        self._listeners.append(callback)

    def _changed(self) -> None:
        for callback in list(self._listeners):
            callback()

    def add_game(self, save_text: str) -> None:
        """A finished game, as ``Game.to_json`` wrote it (the same game twice is kept once)."""
        _game(save_text)
        if save_text not in self.games:
            if len(self.games) >= MAX_GAMES:
                raise ValueError(f"a progress file keeps at most {MAX_GAMES} games")
            self.games.append(save_text)
            self._changed()

    def add_exercise(self, lesson: str, item: str, correct: bool) -> None:
        """One answer to a lesson's exercise ``item``."""
        entry = {"lesson": _key(lesson, "lesson"), "item": _key(item, "item"), "correct": _flag(correct, "correct")}
        self._append(self.exercises, entry, "lesson answers")

    def add_puzzle(self, key: str, correct: bool) -> None:
        """One attempt at the puzzle ``key``."""
        self._append(self.puzzles, {"key": _key(key, "puzzle"), "correct": _flag(correct, "correct")}, "puzzles")

    def _append(self, entries: list, entry: dict, what: str) -> None:
        if len(entries) >= MAX_ATTEMPTS:
            raise ValueError(f"a progress file keeps at most {MAX_ATTEMPTS:,} {what}")
        entries.append(entry)
        self._changed()

    def first_tries(self, lesson: str) -> dict[str, bool]:
        """Each answered item of ``lesson``: whether its first answer was right (the lesson's ticks)."""
        ticks: dict[str, bool] = {}
        for e in self.exercises:
            if e["lesson"] == lesson:
                ticks.setdefault(e["item"], e["correct"])
        return ticks

    @property
    def empty(self) -> bool:
        return not (self.games or self.exercises or self.puzzles)

    def summary(self) -> str:
        return (f"{len(self.exercises)} lesson answer{'s' * (len(self.exercises) != 1)}, "
                f"{len(self.puzzles)} puzzle{'s' * (len(self.puzzles) != 1)} and "
                f"{len(self.games)} game{'s' * (len(self.games) != 1)}")

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, "exercises": self.exercises,
                           "puzzles": self.puzzles, "games": self.games}, indent=1)

    def load(self, text: "str | bytes") -> None:
        """Add a progress file's contents (what this visit holds already stays). A file that is not
        a golflab progress file, or has any bad entry, is refused with a ValueError and changes nothing."""
        exercises, puzzles, games = parse(text)
        if len(_merged(games, self.games)) > MAX_GAMES:
            raise ValueError(f"together with this visit's games that is more than {MAX_GAMES} games")
        self.exercises = _merged(exercises, self.exercises)
        self.puzzles = _merged(puzzles, self.puzzles)
        self.games = _merged(games, self.games)
        self._changed()

    def clear(self) -> None:
        self.games, self.exercises, self.puzzles = [], [], []
        self._changed()


def parse(text: "str | bytes") -> tuple[list, list, list]:
    """The exercises, puzzles and games of a progress file, every entry checked (a ValueError otherwise)."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("not a golflab progress file: it is not text (UTF-8)") from None
    if not isinstance(text, str):
        raise ValueError(f"not a golflab progress file: expected text, got {type(text).__name__}")
    if len(text) > MAX_FILE_CHARS:
        raise ValueError(f"not a golflab progress file: {len(text):,} characters is more than the "
                         f"{MAX_FILE_CHARS:,} a progress file may hold")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"not a golflab progress file: invalid JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a golflab progress file: expected an object with format {FORMAT!r}")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise ValueError(f"progress file version {excerpt(data.get('version'))} is not supported (expected {VERSION})")
    keys = {"format", "version", "exercises", "puzzles", "games"}
    if set(data) != keys:
        odd = sorted(set(data) ^ keys)
        raise ValueError(f"a progress file holds exactly {', '.join(sorted(keys))}; this one differs in "
                         f"{', '.join(map(repr, odd))}")
    lists = []
    for name, limit in (("exercises", MAX_ATTEMPTS), ("puzzles", MAX_ATTEMPTS), ("games", MAX_GAMES)):
        if not isinstance(data[name], list):
            raise ValueError(f"{name} must be a list, got {json_kind(data[name])}")
        if len(data[name]) > limit:
            raise ValueError(f"a progress file keeps at most {limit:,} {name}, this one has {len(data[name]):,}")
        lists.append(data[name])
    exercises = [_entry(e, i, ("lesson", "item", "correct"), "exercises") for i, e in enumerate(lists[0])]
    puzzles = [_entry(e, i, ("key", "correct"), "puzzles") for i, e in enumerate(lists[1])]
    games = []
    for i, g in enumerate(lists[2]):
        try:
            games.append(_game(g, f"games[{i}]"))
        except ValueError as exc:
            raise ValueError(f"games[{i}] is not a valid game: {exc}") from None
    return exercises, puzzles, games


def _entry(entry, index: int, fields: tuple, name: str) -> dict:
    where = f"{name}[{index}]"
    if not isinstance(entry, dict) or set(entry) != set(fields):
        raise ValueError(f"{where} must be an object with exactly {', '.join(fields)}, got {excerpt(entry)}")
    return {f: (_flag(entry[f], f"{where}.{f}") if f == "correct" else _key(entry[f], f"{where}.{f}"))
            for f in fields}


#: This kernel's guest progress (one page, one kernel, one visitor).
guest_progress = GuestProgress()

__all__ = ["FORMAT", "MAX_FILE_CHARS", "VERSION", "GuestProgress", "guest_progress", "parse"]
