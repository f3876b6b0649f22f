"""The learner's progress, kept from every app through one helper per kind of progress.

``record_game``, ``record_exercise``, ``record_puzzle`` and ``record_set_answer`` keep a finished
game, a lesson exercise attempt, a puzzle attempt and an answer to an item of a teacher's puzzle
set: in the class store for a signed-in learner (``page_session().keep``), else (not a set's
answer) in this kernel's ``guest_progress`` (``widgets.account.guest``: a guest may download it).
Each returns what the store gave back, or None (a guest, or a store problem: ``problem()`` then is
the sentence to show; the app goes on). The readers
(``my_games``, ``lesson_results``, ``lesson_stars``, ``puzzle_profile``, ``kept_game``,
``assigned_sets``, ``set_items``, ``set_progress``) read the signed-in learner's own records only.

``LESSONS`` names the lessons by the keys the store keeps them under (the dashboard's and the
assignments' lesson names); ``lesson_key`` finds the key of an exercise set's title.
"""

from __future__ import annotations

import logging
import math
import re
import time

from golflab.classroom import StoreUnavailable, settling

from .session import PageSession, page_session, requested

log = logging.getLogger(__name__)

#: The lessons: store key -> (title, notebook).
LESSONS = {
    "lesson1": ("Lesson 1: the deal and a turn", "lesson1_deal_and_turn.ipynb"),
    "lesson2": ("Lesson 2: scoring and pairs", "lesson2_scoring_and_pairs.ipynb"),
    "lesson3": ("Lesson 3: which card to replace", "lesson3_which_card_to_replace.ipynb"),
    "lesson4": ("Lesson 4: when to go out", "lesson4_when_to_go_out.ipynb"),
    "lesson5": ("Lesson 5: house rules", "lesson5_house_rules.ipynb"),
}
MAX_KEY = 128  # the store's longest lesson, item or puzzle key


def lesson_key(title: str) -> str:
    """The store key of an exercise set titled ``title``: ``lesson3`` for "Lesson 3 exercises",
    else the title in lower case with dashes (at most ``MAX_KEY`` characters)."""
    found = re.match(r"\s*lesson\s*(\d+)\b", title, re.IGNORECASE)
    if found and f"lesson{int(found[1])}" in LESSONS:
        return f"lesson{int(found[1])}"
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:MAX_KEY]
    return slug or "exercises"


def session() -> PageSession:
    """This page's session (see ``widgets.classroom_session``)."""
    return page_session()


def problem() -> "str | None":
    """Why progress is not being kept just now (a sentence), or None."""
    return session().problem


def _guest():
    """This kernel's guest progress (``guest.guest_progress``)."""
    from .guest import guest_progress

    return guest_progress


def _keep(method: str, guest_method: "str | None", guest_args: tuple, *args, **kwargs):
    """Keep one piece of progress in the store (signed in), else with the guest's progress (none
    when ``guest_method`` is None: a guest has no such progress)."""
    s = session()
    if s.signed_in:
        try:
            result = s.keep(method, *args, **kwargs)
        except (ValueError, PermissionError) as exc:  # e.g. the account was deactivated meanwhile
            log.warning("progress not kept: %s", exc)
            s.problem = f"Your progress could not be kept ({exc}). You can go on."
            return None
        if result is not None:
            return result
    guest = _guest() if guest_method is not None else None
    if guest is not None:
        try:
            getattr(guest, guest_method)(*guest_args)
        except ValueError as exc:
            log.warning("guest progress not kept: %s", exc)
    return None


def record_game(game, seat: int, *, accuracy: "float | None" = None, blunders: "int | None" = None):
    """Keep a finished game in which the learner held ``seat``: the ``GameRecord``, or None."""
    return _keep("record_game", "add_game", (game.to_json(),), game, seat, accuracy=accuracy, blunders=blunders)


def record_exercise(lesson: str, item: str, correct: bool, *, lesson_items: int, skill: "str | None" = None):
    """Keep an attempt at a lesson's exercise: True when it was the item's first try, or None."""
    return _keep("record_exercise", "add_exercise", (lesson, item, correct), lesson, item, correct,
                 lesson_items=lesson_items, skill=skill)


def record_puzzle(key: str, correct: bool, *, skill: "str | None" = None):
    """Keep a puzzle attempt: the ``PuzzleResult`` (rating, change, streak), or None."""
    return _keep("record_puzzle", "add_puzzle", (key, correct), key, correct, skill=skill)


def _read(method: str, *args, by: bool = True, user: bool = True, **kwargs):
    """``store.<method>(user, *args, by=user)`` for the signed-in learner (``by``: pass ``by=user``;
    ``user``: pass the learner first); None for a guest or a store problem."""
    s = session()
    if not s.signed_in or s.store is None:
        return None
    if by:
        kwargs["by"] = s.user
    try:
        return getattr(s.store, method)(*((s.user,) if user else ()), *args, **kwargs)
    except StoreUnavailable as exc:
        s.problem = f"Your progress cannot be read just now ({exc}). You can go on."
    except (ValueError, PermissionError) as exc:  # e.g. the account was deactivated meanwhile
        log.warning("progress not read: %s", exc)
        if s.ended(exc):
            return None
        s.problem = f"Your progress cannot be read ({exc}). You can go on."
    return None


def my_games(limit: int = 50) -> "list | None":
    """The learner's kept games (``GameRecord``), newest first; None for a guest or a store problem."""
    return _read("games", limit=limit)


def lesson_results(lesson: str) -> dict[str, bool]:
    """Each answered item of ``lesson``: was the latest answer right (empty for a guest)."""
    return _read("exercise_results", lesson) or {}


def lesson_progress() -> dict:
    """Per lesson key: the learner's ``LessonProgress`` (empty for a guest)."""
    return _read("lesson_progress") or {}


def lesson_stars(lesson: str):
    """The learner's ``LessonProgress`` in ``lesson`` (None: a guest, or nothing answered yet)."""
    return lesson_progress().get(lesson)


def puzzle_profile():
    """The learner's ``PuzzleProfile`` (rating, streaks, puzzles due again), or None."""
    return _read("puzzle_profile")


def assignments() -> "list | None":
    """The assignments of the learner's classes with their own progress, soonest due first; None for a guest."""
    return _read("assignments", by=False)


def assigned_sets(given: "list | None" = None) -> list:
    """The teachers' puzzle sets assigned to the learner's classes (``PuzzleSet``), soonest due first,
    each once; empty for a guest or a store problem. ``given``: the learner's assignments, read
    already (else read here)."""
    ids = list(dict.fromkeys(a.puzzle_set for a in (assignments() if given is None else given) or ()
                             if a.puzzle_set is not None))
    found = (_read("puzzle_set", i, user=False) for i in ids)
    return [s for s in found if s is not None]


def set_items(puzzle_set) -> list:
    """The items (``SetItem``) of a puzzle set of the learner's class, in order; empty on a problem."""
    return _read("set_items", puzzle_set, user=False) or []


def set_progress(puzzle_set) -> dict:
    """The learner's first answer (``SetAnswer``) to each item of ``puzzle_set`` they answered, by item id."""
    return _read("set_progress", puzzle_set) or {}


def record_set_answer(item_id: int, answer: str):
    """Keep an answer to an item of a teacher's puzzle set: the ``SetAnswer`` (right, first try), or None
    (a store problem, said by ``problem()``; an answer the store could not take is held and kept later)."""
    return _keep("record_set_answer", None, (), item_id, answer)


def assignment_parts(a, set_names: "dict[int, str] | None" = None) -> "list[str]":
    """What an assignment sets, in words (the dashboard and the learner's greeting say it alike): the
    lesson's title, the puzzles at their difficulty, the puzzle set by its name (``set_names`` by id)."""
    parts = []
    if a.lesson:
        parts.append(LESSONS.get(a.lesson, (a.lesson, ""))[0])
    if a.puzzles:
        level = f" {a.difficulty}" if a.difficulty else ""
        parts.append(f"{a.puzzles}{level} puzzle{'' if a.puzzles == 1 else 's'}")
    if a.puzzle_set is not None:
        parts.append(f"the puzzle set {(set_names or {}).get(a.puzzle_set, a.puzzle_set)}")
    return parts


def kept_game(record_id):
    """The learner's own kept game ``record_id`` (a ``GameRecord``). Anything else is a ValueError
    in plain words: not signed in, not a game number, or no such game of theirs (another learner's
    game is refused the same way as a missing one, so nothing about it shows)."""
    s = session()
    if not s.signed_in or s.store is None:
        raise ValueError(s.problem or "sign in to open your kept games: you are not signed in")
    text = str(record_id).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 18:  # "²" is a digit to isdigit(), not to int()
        raise ValueError(f"a kept game is opened by its number, e.g. ?game=12, got {text[:40]!r}")
    try:
        return s.store.game_record(int(text), by=s.user)
    except (ValueError, PermissionError):
        raise ValueError(f"there is no kept game {int(text)} of yours: you can open only your own games") from None
    except StoreUnavailable as exc:
        raise ValueError(f"your kept games cannot be read just now ({exc})") from None


def requested_game(environ=None) -> "str | None":
    """The ``game`` asked for on the app's address (``?game=12``), or None."""
    return requested("game", environ)


def rating_words(rating: float, rd: float, change: "float | None" = None) -> str:
    """A puzzle rating in words ("your rating 1338 (-162)"); while it is still settling, that the
    first puzzles move it most, so that a new solver's first miss does not read as a fall."""
    moved = "" if change is None else f" ({change:+.0f})"
    note = " \u00b7 still settling: your first puzzles move it most" if settling(rd) else ""
    return f"your rating {rating:.0f}{moved}{note}"


def stars_text(stars: int) -> str:
    """Lesson stars as people draw them: ``\u2605\u2605\u2606`` for 2 of 3."""
    return "\u2605" * stars + "\u2606" * (3 - stars)


def place_words(points: int, scores) -> str:
    """``1st of 4`` (``=1st`` when shared) for ``points`` among a game's final ``scores`` (lowest wins)."""
    place = 1 + sum(s < points for s in scores)
    shared = sum(s == points for s in scores) > 1
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{'=' if shared else ''}{place}{suffix} of {len(scores)}"


def when_words(at: float, now: "float | None" = None) -> str:
    """A date as people say it: ``today 14:05``, ``yesterday 09:30``, ``3 Nov 2026``."""
    now = time.time() if now is None else now
    day = time.strftime("%Y-%m-%d", time.localtime(at))
    if day == time.strftime("%Y-%m-%d", time.localtime(now)):
        return "today " + time.strftime("%H:%M", time.localtime(at))
    if day == time.strftime("%Y-%m-%d", time.localtime(now - 86_400)):
        return "yesterday " + time.strftime("%H:%M", time.localtime(at))
    return time.strftime("%d %b %Y", time.localtime(at)).lstrip("0")


def due_words(due_at: float, now: "float | None" = None) -> str:
    """When something is due, in words: ``due today``, ``due tomorrow``, ``due in 3 days``, ``2 days late``."""
    now = time.time() if now is None else now
    days = (due_at - now) / 86_400
    if days < 0:
        late = math.ceil(-days)
        return f"{late} day{'s' if late != 1 else ''} late"
    whole = round(days)
    if whole == 0:
        return "due today"
    if whole == 1:
        return "due tomorrow"
    return f"due in {whole} days"


def kept_words(record, players, seat: int, hotseat: bool) -> "str | None":
    """What the table says after a finished game: kept (for whom), the problem, or nothing (a guest)."""
    if record is not None:
        whose = f" for {players[seat]} (the first person's seat, the signed-in learner's)" if hotseat else ""
        return f"Game kept in My games{whose}."
    return problem()
