"""``Greeting`` (``golf-greeting``): the landing page's welcome for the learner at the keyboard.

A signed-in learner is greeted by name with their lesson stars (``golf-greeting-lessons``), puzzle
rating and streak (``golf-greeting-puzzles``), their class's assignments (``golf-assignment``,
with ``golf-assignment-done`` once done; lesson and puzzles, due date in words) and *My games*; a
teacher also gets a link to the class dashboard (``golf-class-dashboard``). For a guest (or a
store that cannot be opened) it shows nothing: the page's ``AccountBar`` already says, in one
sentence, that progress is not kept (or why). A store problem met later is said in a sentence.
"""

from __future__ import annotations

from html import escape

import ipywidgets as w

from . import learner_progress as progress
from .my_games import MyGames

DASHBOARD = "class.ipynb"
GREETING_CSS = """<style>
.golf-greeting{max-width:900px;font:15px/1.5 system-ui,sans-serif;background:#f1f8e9;border-radius:10px;
 padding:6px 14px;margin:6px 0}
.golf-greeting h2{margin:4px 0}
.golf-greeting ul{margin:2px 0;padding-left:20px}
.golf-stars{color:#f9a825;letter-spacing:1px}
.golf-assignment-done{color:#2e7d32}
</style>"""


def stars_html(stars: int) -> str:
    return f'<span class="golf-stars">{progress.stars_text(stars)}</span>'


def lessons_html(done: dict) -> str:
    """Each lesson with the learner's stars (or how far they got), linked to its notebook."""
    items = []
    for key, (title, notebook) in progress.LESSONS.items():
        got = done.get(key)
        if got is None:
            state = "not started"
        elif got.answered < got.items:
            state = f"{got.answered} of {got.items} answered"
        else:
            state = stars_html(got.stars) + (" done" if got.done else " (answer more right at the first try for "
                                             "the lesson to count as done)")
        items.append(f'<li><a href="{escape(notebook)}" target="_self">{escape(title)}</a>: {state}</li>')
    return f'<div class="golf-greeting-lessons"><b>Your lessons</b><ul>{"".join(items)}</ul></div>'


def puzzles_html(profile) -> str:
    if profile is None or profile.attempts == 0:
        return ('<div class="golf-greeting-puzzles"><b>Puzzles:</b> none tried yet. <a href="puzzles.ipynb" '
                'target="_self">Try one</a>.</div>')
    due = (f" \u00b7 {len(profile.due)} missed puzzle{'s' if len(profile.due) != 1 else ''} back for another try"
           if profile.due else "")
    rating = escape(progress.rating_words(profile.rating, profile.rd))
    return (f'<div class="golf-greeting-puzzles"><b>Puzzles:</b> {rating} \u00b7 '
            f"streak {profile.streak} (best {profile.best_streak}) \u00b7 solved {profile.solved} of "
            f"{profile.attempts}{due}</div>")


def assignment_words(a, now: "float | None" = None, sets: "dict | None" = None) -> tuple[str, bool]:
    """An assignment in words (what, when due, how far) and whether it is done; ``sets``: the
    teacher's puzzle sets (``PuzzleSet``) by id, for their names."""
    what = progress.assignment_parts(a, {i: s.name for i, s in (sets or {}).items()})
    lesson_ok = a.lesson_done is not False
    puzzles_ok = (a.puzzles_solved or 0) >= a.puzzles
    set_ok = a.set_done is not False
    done = lesson_ok and puzzles_ok and set_ok
    far = []
    if a.lesson and not lesson_ok:
        far.append("lesson not done yet")
    if a.puzzles and not puzzles_ok:
        far.append(f"{a.puzzles_solved or 0} of {a.puzzles} puzzles solved")
    if not set_ok:
        far.append("set not finished yet")
    state = "done \u2714" if done else ", ".join(far)
    return f"{' and '.join(what)}: {progress.due_words(a.due_at, now)} \u2014 {state}", done


def assignments_html(assignments) -> str:
    if not assignments:
        return ""
    items = []
    sets = {s.id: s for s in progress.assigned_sets(assignments)}
    for a in assignments:
        words, done = assignment_words(a, sets=sets)
        link = ""
        if a.puzzle_set in sets:
            link = f' <a class="golf-assignment-set" href="puzzles.ipynb?set={a.puzzle_set}">Solve the set</a>'
        items.append(f'<li class="golf-assignment{" golf-assignment-done" if done else ""}">{escape(words)}'
                     f'{link}</li>')
    return f'<div class="golf-assignments"><b>Set by your teacher</b><ul>{"".join(items)}</ul></div>'


def welcome(name: str, returning: bool) -> str:
    """``Welcome back, ann!`` for someone with progress kept (lessons, puzzles or games), else
    ``Welcome, ann!``: a first visit is not greeted as a return."""
    return f"Welcome{' back' if returning else ''}, {escape(name)}!"


class Greeting(w.VBox):
    """The welcome for whoever is at the keyboard (see the module). ``my_games``: list their games too."""

    def __init__(self, my_games: bool = True) -> None:
        self.text = w.HTML()
        self.games: MyGames | None = None
        super().__init__([w.HTML(GREETING_CSS), self.text])
        self.add_class("golf-greeting")
        session = progress.session()
        if not session.signed_in:  # the account bar says that progress is not kept
            self.layout.display = "none"
            return
        user = session.user
        teacher = (f'<div><a class="golf-class-dashboard" href="{DASHBOARD}" target="_self">Open your class '
                   "dashboard</a>: your learners' progress, who is stuck, assignments and invite codes.</div>"
                   if user.teaches else "")
        lessons, profile = progress.lesson_progress(), progress.puzzle_profile()
        returning = bool(lessons or (profile and profile.attempts) or progress.my_games(limit=1))
        parts = [f"<h2>{welcome(user.name, returning)}</h2>",
                 teacher, lessons_html(lessons), puzzles_html(profile), assignments_html(progress.assignments())]
        if session.problem:
            parts.append(f'<div class="golf-progress-problem">{escape(session.problem)}</div>')
        self.text.value = "".join(parts)
        if not user.teaches:  # a learner chooses whether they appear on their class leaderboard
            from .dashboard import LeaderboardOptIn

            self.children = (*self.children, LeaderboardOptIn(session))
        if my_games:
            self.games = MyGames()
            self.children = (*self.children, self.games)
