"""What the teacher's dashboard shows of a class's puzzle sets and of one learner's kept games.

``set_results_html(puzzle_set, results)``: a table per set, a ``golf-set-item-row`` per item: its
title, the move the teacher wants (and, when the coach finds another better, by how much), how many
learners answered, how many were right at the first try, and the most common wrong first answer,
each move in words with its notation after it (``move_words``).
``kept_games_html(records)``: a learner's kept games, each a link that replays it
(``replay.ipynb?game=<id>``: at any moment of it, *Link to this position* opens that moment on the
analysis board, where it can be saved into a set).
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from golflab import Position
from golflab.classroom.admin import when
from golflab.puzzles import describe

from ..position_links import position_link


def move_words(seen, action: str) -> str:
    """A move of a set's puzzle in words, its notation after it: "put the 2 at top left (over your 9)
    (swap 0)"; the notation alone if it is not a move there (an answer kept from older rules)."""
    try:
        text = describe(seen, action)
    except ValueError:
        return action
    return f"{text[:1].upper()}{text[1:]} ({action})"


def set_results_html(puzzle_set, results: Sequence) -> str:
    """One set's items and how the class answered them (``Store.set_results``)."""
    if not results:
        return (f"<p class='gl-note'><b>{escape(puzzle_set.name)}</b>: no puzzles yet. Save positions into it "
                "from the analysis board.</p>")
    rows = []
    for r in results:
        item = r.item
        seen = Position.parse(item.position).observation()  # the puzzle's seat, as the learner saw it
        move = escape(move_words(seen, item.answer)) + (
            f" <span class='gl-note'>(the coach finds it {item.loss:.1f} points worse than its best)</span>"
            if item.loss > 0 else "")
        wrong = ", ".join(f"{escape(move_words(seen, answer))}: {count}" for answer, count in r.wrong[:1]) or "–"
        rows.append(f"<tr class='golf-set-item-row' data-title='{escape(item.title)}'>"
                    f"<td>{item.seq}. <a href='{escape(position_link(item.position))}' target='_blank'>"
                    f"{escape(item.title)}</a></td><td>{move}</td>"
                    f"<td class='num'>{r.answered} of {r.learners}</td>"
                    f"<td class='num golf-set-right-first'>{r.right_first}</td>"
                    f"<td class='golf-set-common-wrong'>{wrong}</td></tr>")
    head = ("<tr><th>Puzzle</th><th>Move wanted</th><th>Answered</th><th>Right at the first try</th>"
            "<th>Most common wrong answer</th></tr>")
    return (f"<h3 class='golf-set-results-name'>{escape(puzzle_set.name)}</h3>"
            f"<table class='golf-set-results-table'>{head}{''.join(rows)}</table>")


def kept_games_html(records: Sequence, now: float) -> str:
    """A learner's kept games, newest first, each a link replaying it."""
    if not records:
        return "<p class='gl-note'>No kept games yet.</p>"
    items = "".join(f"<li><a class='golf-learner-game' href='replay.ipynb?game={r.id}' target='_blank'>"
                    f"Replay the game played {when(r.played_at, now)}</a>: {r.holes} "
                    f"hole{'' if r.holes == 1 else 's'}, {r.points} points{' (a room)' if r.room else ''}</li>"
                    for r in records)
    return f"<ul>{items}</ul>"
