"""A study's pages and the room game that turns them ("follow me", issue 41, point 4).

A study is a list of positions with notes that a teacher steps through while every learner's page
follows. It is held by a room (``game="study"``, ``Store.create_study``): its one seat is its
teacher's, and turning to a page is a move of the room's log (``"page 2"``; ``"end"`` ends the
study), checked and appended like any room's move and followed like any room's log. No second
mechanism for following.

Each page is kept as its player to move sees it (``shown_position``): a face-down card the teacher
knew, or a card another seat drew, is never stored, so no page of a learner can receive it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from golflab.actions import IllegalActionError
from golflab.position import Position

from . import security

#: The most pages a study holds.
MAX_PAGES = 30
#: The longest note of a page and the longest title, in characters.
MAX_NOTE = 2000
MAX_TITLE = 100
#: The log's action that ends a study (a page is ``"page N"``, N from 1).
END = "end"
PAGE = "page"
#: What parts a typed page: its position (or a link that opens it) and its note.
NOTE_MARK = " | "


@dataclass(frozen=True)
class StudyPage:
    """The page of a study shown now: ``number`` (from 1) of ``count``, its ``position`` as the
    player to move sees it, the teacher's ``note``, the study's ``title``; ``ended`` once the
    teacher has ended the study (the last page shown stays)."""
    number: int
    count: int
    position: Position
    note: str
    title: str
    ended: bool = False


def page_action(number: int) -> str:
    """The log's action that turns to page ``number`` (from 1)."""
    return f"{PAGE} {number}"


def shown_position(position: "Position | str", where: str = "the position") -> Position:
    """``position`` (or its text) as its player to move sees it: face-down cards unknown, and a
    card drawn shown only to the player who drew it. A ValueError (saying ``where``) when that
    player's view is not known: another seat's view of a card drawn and not yet seen."""
    try:
        pos = position if isinstance(position, Position) else Position.parse(position)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if pos.seat != pos.mover and pos.stage == "holds" and pos.held is None:
        raise ValueError(f"{where} shows seat {pos.seat}'s view while seat {pos.mover} holds a card it drew: "
                         f"a study shows the player to move's view, so give that card ('seat {pos.mover} holds 8D')")
    return Position.of(pos.game(0).observation(pos.mover))


def study_rules(title: object, pages: object) -> dict:
    """A new study's ``title`` and ``pages`` (``(position, note)`` pairs) as its room stores them,
    each position as its player to move sees it; a ValueError saying what is wrong and what is allowed."""
    if not isinstance(title, str) or not title.strip() or len(title.strip()) > MAX_TITLE:
        raise ValueError(f"a study's title is 1 to {MAX_TITLE} characters, got {security.shown(title)}")
    if isinstance(pages, (str, bytes)) or not hasattr(pages, "__iter__"):
        raise ValueError(f"a study's pages are (position, note) pairs, got {security.shown(pages)}")
    pages = list(pages)
    if not 1 <= len(pages) <= MAX_PAGES:
        raise ValueError(f"a study has 1 to {MAX_PAGES} pages, got {len(pages)}")
    stored = []
    for number, page in enumerate(pages, 1):
        if not isinstance(page, (tuple, list)) or len(page) != 2:
            raise ValueError(f"page {number}: expected a (position, note) pair, got {security.shown(page)}")
        position, note = page
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise ValueError(f"page {number}: a note is text of at most {MAX_NOTE} characters, "
                             f"got {security.shown(note)}")
        stored.append({"position": str(shown_position(position, f"page {number}")), "note": note.strip()})
    return {"title": title.strip(), "pages": stored}


def pages_from_text(text: str) -> "list[tuple[str, str]]":
    """A study's pages typed one a line: a position in golflab's notation, or a link that opens one
    (``analysis.ipynb?position=...``), then optionally ``" | "`` and the page's note. Blank lines are
    left out; a ValueError says which line is not a page. The positions are checked when the study
    is made (``study_rules``)."""
    pages = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        position, _mark, note = line.partition(NOTE_MARK.strip())
        position = position.strip()
        if "://" in position or ".ipynb" in position:  # a link: its position, decoded
            found = parse_qs(urlsplit(position).query).get("position")
            if not found:
                raise ValueError(f"line {number}: the link holds no position (expected ...?position=...)")
            position = found[0]
        if not position:
            raise ValueError(f"line {number}: expected a position before the note ('position | note')")
        pages.append((position, note.strip()))
    if not pages:
        raise ValueError("no page typed: write one position a line, then ' | ' and its note")
    return pages


class StudyRoomGame:
    """A study behind the room games' interface (``room_games``): seat 0, its teacher, is always to
    move until the study ends; its legal moves turn to another page or end it."""

    kind = "study"
    #: Nobody plays a study's turn for its teacher when they are away, and it moves no rating.
    cpu_covers_away = False
    rated = False

    def __init__(self, players: "list[str]", rules: dict, seed: int) -> None:
        self._players = tuple(players)
        self.title = rules["title"]
        self.pages = [(Position.parse(p["position"]), p["note"]) for p in rules["pages"]]
        self.number = 1
        self.over = False
        self.between = False

    @property
    def players(self) -> tuple:
        return self._players

    @property
    def seat_to_move(self) -> "int | None":
        return None if self.over else 0

    def legal(self) -> "list[str]":
        if self.over:
            return []
        return [page_action(n) for n in range(1, len(self.pages) + 1) if n != self.number] + [END]

    def apply(self, action: str) -> None:
        if action not in self.legal():
            why = "the study has ended" if self.over else f"legal: {', '.join(self.legal())}"
            raise IllegalActionError(f"{security.shown(action)} cannot be played in a study ({why})")
        if action == END:
            self.over = True
        else:
            self.number = int(action.split()[1])

    def cpu_action(self, name: str, seed: int) -> str:
        raise ValueError("no CPU player moves in a study")

    def view(self, seat: int) -> StudyPage:
        """The page shown now (the same for every page that follows the study)."""
        position, note = self.pages[self.number - 1]
        return StudyPage(self.number, len(self.pages), position, note, self.title, self.over)

    @property
    def totals(self) -> "list[int]":
        return [0] * len(self._players)

    def ranks(self) -> "list[int]":
        return [1] * len(self._players)


__all__ = ["END", "MAX_NOTE", "MAX_PAGES", "MAX_TITLE", "NOTE_MARK", "StudyPage", "StudyRoomGame",
           "page_action", "pages_from_text", "shown_position", "study_rules"]
