"""The teacher's dashboard (``notebooks/class.ipynb``) and a learner's leaderboard opt-in.

``ClassDashboard`` shows one of the signed-in teacher's classes: the roster (``golf-roster``,
a ``golf-roster-row`` per learner), a heat map of lesson stars, the chosen learner's accuracy
trend, puzzle rating and kept games (each a replay link), who is stuck, assignments (a lesson,
puzzles, a puzzle set of the teacher's own), how the class answered each puzzle set, invite
codes, learner accounts, a CSV download and the class leaderboard. Anyone else (a learner, a
guest) sees one plain refusal and nothing of any class. Every store call goes through ``_act``: a
refusal or an unreachable store is one sentence in the status line and changes nothing.

``LeaderboardOptIn`` is the learner's side: a checkbox to appear on their class leaderboard.
"""

from __future__ import annotations

import base64
import re
from html import escape
from typing import Callable, Sequence

import ipywidgets as w

from golflab.classroom import Klass, StoreUnavailable, User
from golflab.classroom.admin import new_password, when

from ..a11y import name_control
from ..explorers.charts import ChartSlot
from ..hooks import hooked_button, hooked_html
from . import learner_progress as progress
from .session import PageSession, page_session
from .set_results import kept_games_html, set_results_html

#: The five lessons: (the key their exercises are kept under, title), from ``progress.LESSONS``.
LESSONS = tuple((key, title) for key, (title, _notebook) in progress.LESSONS.items())
DIFFICULTIES = ("any", "easy", "medium", "hard")
LEARNER_GAMES = 20  # the newest kept games listed for the chosen learner
SIGNIN = "/golflab/signin?next=/voila/render/class.ipynb"
REFUSAL_STYLE = ("font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;background:#e3f2fd;"
                 "border-left:4px solid #1565c0;padding:8px 14px;margin:6px 0")
LINK_STYLE = "color:#1565c0;text-decoration:underline"
STAR_COLOURS = ((0.0, "#eeeeee"), (0.33, "#ffe0b2"), (0.67, "#ffb74d"), (1.0, "#e65100"))
DASHBOARD_CSS = """<style>
.golf-dashboard{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1b}
.golf-dashboard h2{margin:14px 0 4px;font-size:16px}
.golf-dashboard table{border-collapse:collapse;font-size:13px}
.golf-dashboard th,.golf-dashboard td{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left}
.golf-dashboard th{background:#f3f3f3}
.golf-dashboard td.num{text-align:right}
.golf-dashboard .golf-roster-inactive{color:#888}
.golf-dashboard .gl-note{color:#555}
.golf-dashboard-problem{background:#fff3e0;border-left:4px solid #e65100;padding:3px 8px}
.golf-password{font:16px monospace;background:#e8f5e9;padding:2px 6px}
</style>"""


def lesson_title(key: str) -> str:
    return dict(LESSONS).get(key, key)


def star_matrix(rows: Sequence[dict]) -> "tuple[list[str], list[str], list[list]]":
    """(learners, lesson keys, stars) from ``Store.roster`` rows: the five lessons, then any other
    lesson found; a cell is 0-3 stars, or None where the learner has not started the lesson."""
    found = sorted({k[len("stars:"):] for row in rows for k in row if k.startswith("stars:")})
    lessons = [key for key, _ in LESSONS] + [k for k in found if k not in dict(LESSONS)]
    z = [[row.get(f"stars:{lesson}") for lesson in lessons] for row in rows]
    return [row["name"] for row in rows], lessons, z


def _number(value, fmt: str) -> str:
    return "–" if value is None else fmt.format(value)


def roster_html(rows: Sequence[dict], now: float) -> str:
    """The roster table: a ``golf-roster-row`` per learner."""
    head = ("<tr><th>Learner</th><th>Last seen</th><th>Games</th><th>Points per hole</th>"
            "<th>Latest accuracy</th><th>Puzzle rating</th><th>Account</th></tr>")
    body = []
    for r in rows:
        cls = "golf-roster-row" + ("" if r["active"] else " golf-roster-inactive")
        body.append(f"<tr class='{cls}' data-name='{escape(r['name'])}'><td>{escape(r['name'])}</td>"
                    f"<td>{when(r['last_seen'], now)}</td><td class='num'>{r['games']}</td>"
                    f"<td class='num'>{_number(r['points_per_hole'], '{:.1f}')}</td>"
                    f"<td class='num'>{_number(r['accuracy'], '{:.0f}%')}</td>"
                    f"<td class='num'>{r['puzzle_rating']}</td>"
                    f"<td>{'active' if r['active'] else 'deactivated'}</td></tr>")
    if not body:
        return "<p class='gl-note'>No learners yet: make an invite code below and give it to your class.</p>"
    return f"<table>{head}{''.join(body)}</table>"


def stuck_html(found: Sequence[dict]) -> str:
    if not found:
        return "<p class='gl-note'>Nobody is stuck: no learner has missed the same skill three times in a row.</p>"
    items = "".join(f"<li><b>{escape(s['name'])}</b> has missed <i>{escape(s['skill'])}</i> "
                    f"{s['misses']} times in a row</li>" for s in found)
    return f"<ul>{items}</ul>"


def assignment_words(a, sets: "dict[int, str] | None" = None) -> str:
    """An assignment in words; ``sets``: the class's puzzle sets' names by id."""
    return " and ".join(progress.assignment_parts(a, sets))


def assignments_html(progress, now: float, sets: "dict[int, str] | None" = None) -> str:
    if not progress:
        return "<p class='gl-note'>No assignments yet.</p>"
    rows = "".join(f"<tr class='golf-assignment-row'><td>{escape(assignment_words(a, sets))}</td>"
                   f"<td>{'due ' + when(a.due_at, now) if a.due_at > now else 'was due ' + when(a.due_at, now)}</td>"
                   f"<td class='num'>{done} of {total} finished</td></tr>" for a, done, total in progress)
    return f"<table><tr><th>Assignment</th><th>Due</th><th>Learners</th></tr>{rows}</table>"


def invites_html(invites: Sequence[dict], now: float) -> str:
    if not invites:
        return "<p class='gl-note'>No invite codes yet.</p>"
    rows = "".join(f"<tr class='golf-invite-row'><td><code>{i['code']}</code></td>"
                   f"<td class='num'>{i['uses']} of {i['max_uses']}</td>"
                   f"<td>{('expires ' if i['expires_at'] > now else 'expired ') + when(i['expires_at'], now)}</td>"
                   f"<td>{'in use' if i['active'] else 'not in use'}</td></tr>" for i in invites)
    return f"<table><tr><th>Code</th><th>Used</th><th>Expiry</th><th>State</th></tr>{rows}</table>"


def leaderboard_html(board: Sequence[dict]) -> str:
    if not board:
        return "<p class='gl-note'>Nobody has chosen to appear on the leaderboard yet.</p>"
    items = "".join(f"<li>{escape(b['name'])}: {b['puzzle_rating']}</li>" for b in board)
    return f"<ol class='golf-leaderboard-list'>{items}</ol>"


def csv_download(text: str, class_name: str) -> str:
    """An HTML link downloading ``text`` as ``golflab-<class>.csv``."""
    filename = "golflab-" + (re.sub(r"[^A-Za-z0-9_-]+", "-", class_name).strip("-") or "class") + ".csv"
    href = "data:text/csv;charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f"<a class='golf-class-csv-link' download='{filename}' href='{href}'>"
            f"\u2b07 Download the class as {filename}</a>")


#: What the lesson stars' place says while no learner of the class has started a lesson.
NO_STARS = ("<p class='gl-note'>No lesson stars yet: each learner's stars show here once they start "
            "a lesson.</p>")


def _labelled(widget: w.Widget, label: str, cls: str, width: str = "90px") -> w.HBox:
    widget.add_class(cls)
    widget.layout.width = width
    return w.HBox([w.HTML(f"{label}&nbsp;"), widget], layout=w.Layout(align_items="center", margin="0 12px 0 0"))


def _rating_range(ratings: Sequence[float]) -> list[float]:
    """A y range that shows differences between ratings (bars from 0 would all look alike)."""
    low, high = min(ratings, default=1500), max(ratings, default=1500)
    return [min(low, 1500) - 150, max(high, 1500) + 150]


class ClassDashboard(w.VBox):
    """One of the teacher's classes at a glance (see the module's docstring).

    ``session`` is the page's ``PageSession`` (default: ``page_session()``). ``klass`` is the class
    shown (None before one is chosen or for anyone not allowed), ``rows`` its roster.
    """

    def __init__(self, session: "PageSession | None" = None) -> None:
        super().__init__()
        self.add_class("golf-dashboard")
        self.session = page_session() if session is None else session
        self.store, self.user = self.session.store, self.session.user
        self.klass: "Klass | None" = None
        self.rows: list[dict] = []
        self.learners: list[User] = []
        refusal = self._refusal()
        if refusal is not None:
            self.refusal = hooked_html("golf-dashboard-refused", f"<div style='{REFUSAL_STYLE}'>{refusal}</div>")
            self.children = (self.refusal,)
            return
        self.refusal = None
        self._build()
        self.refresh()

    # -- who may look -------------------------------------------------------------------

    def _refusal(self) -> "str | None":
        if self.session.problem:
            return f"<p>The class dashboard cannot open: {escape(self.session.problem)}</p>"
        if self.user is None:
            return ("<p><b>This page is for teachers.</b> Sign in as a teacher to see your classes: "
                    f"<a href='{SIGNIN}' style='{LINK_STYLE}'>sign in</a>.</p>")
        if not self.user.teaches:
            return (f"<p><b>This page is for teachers.</b> You are signed in as {escape(self.user.name)}, "
                    f"a learner: your own progress is on <a href='index.ipynb' style='{LINK_STYLE}'>"
                    "the landing page</a>.</p>")
        return None

    # -- the page -----------------------------------------------------------------------

    def _build(self) -> None:
        self.status = hooked_html("golf-dashboard-status")
        self.class_choice = name_control(w.Dropdown(options=[], layout=w.Layout(width="320px")), "class")
        self.class_choice.add_class("golf-class-choice")
        self._classes: dict[int, Klass] = {}
        self._quiet = False  # options being replaced: the dropdowns' callbacks wait
        self.class_choice.observe(lambda change: self._quiet or self.show_class(), names="value")
        self.refresh_button = hooked_button("Refresh", "golf-dashboard-refresh")
        self.refresh_button.on_click(lambda _: self.refresh())
        self.new_class_name = name_control(w.Text(placeholder="a new class's name, e.g. 6B"), "new class name")
        self.new_class_button = hooked_button("Create class", "golf-class-create")
        self.new_class_button.on_click(lambda _: self.create_class(self.new_class_name.value))

        self.roster = hooked_html("golf-roster")
        self.heatmap = self._heatmap_slot(1)
        self.no_stars = hooked_html("golf-stars-none", NO_STARS)
        self.heatmap_box = w.Box([self.heatmap])
        self.learner_choice = name_control(w.Dropdown(options=[], layout=w.Layout(width="220px")), "learner")
        self.learner_choice.add_class("golf-learner-choice")
        self.learner_choice.observe(lambda change: self._quiet or self._act(self.show_learner), names="value")
        self.accuracy_chart = ChartSlot(460, 300, title="Accuracy in graded games", xaxis_title="graded game",
                                        xaxis_tickformat="d", yaxis_title="accuracy (%)",
                                        yaxis_range=[0, 100])
        self.rating_chart = ChartSlot(460, 300, title="Puzzle rating", yaxis_title="rating")
        for slot, cls in ((self.accuracy_chart, "golf-accuracy-trend"), (self.rating_chart, "golf-rating-chart")):
            slot.add_class(cls)
        self.deactivate_button = hooked_button("Deactivate", "golf-learner-deactivate", "warning")
        self.reactivate_button = hooked_button("Reactivate", "golf-learner-reactivate")
        self.reset_button = hooked_button("Reset password", "golf-learner-reset")
        self.deactivate_button.on_click(lambda _: self.set_active(False))
        self.reactivate_button.on_click(lambda _: self.set_active(True))
        self.reset_button.on_click(lambda _: self.reset_password())
        self.learner_note = hooked_html("golf-learner-note")
        self.stuck = hooked_html("golf-stuck")

        self.assign_lesson = name_control(w.Dropdown(options=[("no lesson", None)] + [(t, k) for k, t in LESSONS]),
                                          "lesson")
        self.assign_puzzles = name_control(w.BoundedIntText(value=5, min=0, max=100), "puzzles")
        self.assign_difficulty = name_control(w.Dropdown(options=DIFFICULTIES, value="any"), "difficulty")
        self.assign_set = name_control(w.Dropdown(options=[("no puzzle set", None)], layout=w.Layout(width="220px")),
                                       "puzzle set")
        self.assign_days = name_control(w.BoundedIntText(value=7, min=1, max=365), "days until due")
        self.assign_button = hooked_button("Set assignment", "golf-assign-create", "primary")
        self.assign_button.on_click(lambda _: self.create_assignment(
            self.assign_lesson.value, self.assign_puzzles.value, self.assign_difficulty.value, self.assign_days.value,
            self.assign_set.value))
        self.assignments = hooked_html("golf-assignments")
        self.sets: dict = {}  # the class's puzzle sets by id
        self.set_results = hooked_html("golf-set-results")
        self.set_item_choice = name_control(w.Dropdown(options=[], layout=w.Layout(width="320px")), "puzzle to remove")
        self.set_item_choice.add_class("golf-set-item-choice")
        self.set_item_remove = hooked_button("Remove this puzzle", "golf-set-item-remove")
        self.set_item_remove.on_click(lambda _: self.remove_set_item(self.set_item_choice.value))
        self.set_choice = name_control(w.Dropdown(options=[]), "puzzle set to rename")
        self.set_name = name_control(w.Text(placeholder="its new name"), "new name")
        self.set_rename = hooked_button("Rename the set", "golf-set-rename")
        self.set_rename.on_click(lambda _: self.rename_set(self.set_choice.value, self.set_name.value))
        self.learner_games = hooked_html("golf-learner-games")

        self.invite_uses = name_control(w.BoundedIntText(value=30, min=1, max=1000), "uses")
        self.invite_days = name_control(w.BoundedIntText(value=7, min=1, max=365), "days valid")
        self.invite_button = hooked_button("Make an invite code", "golf-invite-create", "primary")
        self.invite_button.on_click(lambda _: self.create_invite(self.invite_uses.value, self.invite_days.value))
        self.invite_note = hooked_html("golf-invite-note")
        self.invites = hooked_html("golf-invites")
        self.invite_choice = name_control(w.Dropdown(options=[], layout=w.Layout(width="140px")), "invite code")
        self.invite_choice.add_class("golf-invite-choice")
        self.invite_off = hooked_button("Stop this code", "golf-invite-deactivate")
        self.invite_off.on_click(lambda _: self.deactivate_invite(self.invite_choice.value))

        self.csv = hooked_html("golf-class-csv")
        self.leaderboard = hooked_html("golf-class-leaderboard")

        def h(text: str) -> w.HTML:
            return w.HTML(f"<h2>{text}</h2>")  # the sections under the page's title (h1)

        row = w.Layout(align_items="center", flex_flow="row wrap")
        self.class_part = w.VBox([
            h("Roster"), self.roster, h("Lesson stars"), self.heatmap_box,
            h("One learner"), w.HBox([w.HTML("Learner&nbsp;"), self.learner_choice, self.deactivate_button,
                                      self.reactivate_button, self.reset_button], layout=row),
            self.learner_note, w.HBox([self.accuracy_chart, self.rating_chart], layout=row),
            w.HTML("<h3>Kept games</h3><p class='gl-note'>Replay one; at any moment, <i>Link to this position</i> "
                   "opens it on the analysis board, where you can save it as a puzzle for the class.</p>"),
            self.learner_games,
            h("Who is stuck"), self.stuck,
            h("Assignments"),
            w.HBox([_labelled(self.assign_lesson, "Lesson", "golf-assign-lesson", "250px"),
                    _labelled(self.assign_puzzles, "Puzzles", "golf-assign-puzzles", "70px"),
                    _labelled(self.assign_difficulty, "at", "golf-assign-difficulty", "100px"),
                    _labelled(self.assign_set, "Puzzle set", "golf-assign-set", "220px"),
                    _labelled(self.assign_days, "due in (days)", "golf-assign-days", "70px"),
                    self.assign_button], layout=row),
            self.assignments,
            h("Puzzle sets"),
            w.HTML("<p class='gl-note'>Your own puzzles: save a position from the <a href='analysis.ipynb' "
                   f"style='{LINK_STYLE}' target='_blank'>analysis board</a> into a set, then assign the set "
                   "above.</p>"),
            self.set_results,
            w.HBox([self.set_item_choice, self.set_item_remove], layout=row),
            w.HBox([_labelled(self.set_choice, "Set", "golf-set-rename-choice", "220px"),
                    _labelled(self.set_name, "new name", "golf-set-rename-name", "220px"), self.set_rename],
                   layout=row),
            h("Invite codes"),
            w.HBox([_labelled(self.invite_uses, "Learners", "golf-invite-uses", "80px"),
                    _labelled(self.invite_days, "days", "golf-invite-days", "70px"), self.invite_button], layout=row),
            self.invite_note, self.invites, w.HBox([self.invite_choice, self.invite_off], layout=row),
            h("Export"), self.csv,
            h("Class leaderboard"),
            w.HTML("<p class='gl-note'>Only learners who chose to appear are listed, by puzzle rating.</p>"),
            self.leaderboard])
        self.children = (
            w.HTML(DASHBOARD_CSS),
            w.HBox([w.HTML("Class&nbsp;"), self.class_choice, self.refresh_button], layout=row),
            w.HBox([self.new_class_name, self.new_class_button], layout=row),
            self.status, self.class_part)

    def _heatmap_slot(self, learners: int) -> ChartSlot:
        slot = ChartSlot(760, min(900, 150 + 26 * max(learners, 1)), title="Stars per lesson (0-3)")
        slot.add_class("golf-stars-heatmap")
        return slot

    # -- doing things -------------------------------------------------------------------

    def _act(self, work: Callable[[], object], done: str = "") -> bool:
        """Run ``work`` (store calls); a refusal or a store problem is the status line. True if done."""
        try:
            work()
        except (ValueError, PermissionError) as exc:
            if self.session.ended(exc):
                self.status.value = (f"<p>{escape(self.session.problem)} "
                                     f"<a href='{SIGNIN}' style='{LINK_STYLE}'>Sign in</a></p>")
                self.status.add_class("golf-dashboard-problem")
                return False
            self._say(f"Not done: {exc}.", problem=True)
            return False
        except StoreUnavailable as exc:
            self._say(f"The class store cannot be reached just now ({exc}). Nothing was changed.", problem=True)
            return False
        self._say(done)
        return True

    def _say(self, text: str, problem: bool = False) -> None:
        self.status.value = f"<p>{escape(text)}</p>" if text else ""
        (self.status.add_class if problem else self.status.remove_class)("golf-dashboard-problem")

    def _choose(self, dropdown: w.Dropdown, options: list, value) -> None:
        """New options for ``dropdown`` and its value (kept if still offered), its callback quiet."""
        values = [o[1] if isinstance(o, tuple) else o for o in options]
        self._quiet = True
        try:
            dropdown.options = options
            dropdown.value = value if value in values else (values[0] if values else None)
        finally:
            self._quiet = False

    def refresh(self, select: "int | None" = None) -> None:
        """Read the teacher's classes again and redraw the chosen one (or the class ``select``)."""
        def work():
            classes = self.store.classes(self.user)
            self._classes = {k.id: k for k in classes}
            self._choose(self.class_choice, [(f"{k.name} · code {k.code}", k.id) for k in classes],
                         select if select is not None else self.class_choice.value)
        if self._act(work):
            self.show_class()

    def show_class(self) -> None:
        """Draw everything for the chosen class."""
        klass = self._classes.get(self.class_choice.value) if self.class_choice.value is not None else None
        self.klass = klass
        self.class_part.layout.display = None if klass else "none"
        if klass is None:
            self._say("You have no classes yet: name one above and press Create class.")
            return
        self._act(self._draw_class)

    def _draw_class(self) -> None:
        klass, now = self.klass, self.store.clock()
        self.rows = self.store.roster(klass, by=self.user)
        self.learners = self.store.learners(klass, by=self.user)
        self.roster.value = roster_html(self.rows, now)
        self.draw_heatmap()
        self._choose(self.learner_choice, [u.name for u in self.learners], self.learner_choice.value)
        self.show_learner()
        self.stuck.value = stuck_html(self.store.stuck(klass, by=self.user))
        self.show_assignments()
        self.show_invites()
        self.csv.value = csv_download(self.store.export_csv(klass, by=self.user), klass.name)
        self.leaderboard.value = leaderboard_html(self.store.leaderboard(klass, by=self.user))

    def draw_heatmap(self) -> None:
        import plotly.graph_objects as go

        names, lessons, z = star_matrix(self.rows)
        self.stars = (names, lessons, z)
        if all(stars is None for row in z for stars in row):  # a new class: a sentence, not a chart's bare axes
            self.heatmap_box.children = (self.no_stars,)
            self._heatmap_rows = None
            return
        if len(names) + 1 != getattr(self, "_heatmap_rows", None):  # its height follows the class's size
            self.heatmap = self._heatmap_slot(len(names))
            self.heatmap_box.children = (self.heatmap,)
            self._heatmap_rows = len(names) + 1
        labels = [lesson_title(k).split(":")[0] for k in lessons]
        text = [["" if s is None else "★" * s + "☆" * (3 - s) for s in row] for row in z]
        self.heatmap.draw([go.Heatmap(z=z, x=labels, y=names, text=text, texttemplate="%{text}", zmin=0, zmax=3,
                                      colorscale=[list(c) for c in STAR_COLOURS], xgap=2, ygap=2,
                                      colorbar=dict(title="stars", tickvals=[0, 1, 2, 3]),
                                      customdata=[[lesson_title(k) for k in lessons]] * len(names),
                                      hovertemplate="%{y}, %{customdata}: %{z} stars<extra></extra>")],
                          yaxis=dict(autorange="reversed"), margin=dict(l=120, r=20, t=50, b=50))

    def chosen_learner(self) -> "User | None":
        return next((u for u in self.learners if u.name == self.learner_choice.value), None)

    def show_learner(self) -> None:
        """The chosen learner's accuracy trend and puzzle rating against the class."""
        import plotly.graph_objects as go

        learner = self.chosen_learner()
        self.learner_note.value = ""
        for button in (self.deactivate_button, self.reactivate_button, self.reset_button):
            button.disabled = learner is None
        if learner is None:
            self.learner_games.value = ""
            return
        self.deactivate_button.disabled, self.reactivate_button.disabled = not learner.active, learner.active
        self.learner_games.value = kept_games_html(self.store.games(learner, by=self.user, limit=LEARNER_GAMES),
                                                   self.store.clock())
        trend = self.store.learner_stats(learner, by=self.user).accuracy_trend
        now = self.store.clock()
        profile = self.store.puzzle_profile(learner, by=self.user)
        self.accuracy_chart.draw(
            [go.Scatter(x=list(range(1, len(trend) + 1)), y=[a for _, a in trend], mode="lines+markers",
                        name=learner.name, customdata=[progress.when_words(t, now) for t, _ in trend],
                        hovertemplate="game %{x}, played %{customdata}<br>accuracy %{y:.0f}%<extra></extra>")],
            xaxis_range=[0.5, max(len(trend), 1) + 0.5], xaxis_dtick=1 if len(trend) <= 12 else None,
            title=f"{learner.name}: accuracy in graded games" + ("" if trend else " (none yet)"))
        names = [r["name"] for r in self.rows]
        colours = ["#e65100" if n == learner.name else "#90a4ae" for n in names]
        self.rating_chart.draw(
            [go.Bar(x=names, y=[r["puzzle_rating"] for r in self.rows], marker_color=colours)],
            yaxis_range=_rating_range([r["puzzle_rating"] for r in self.rows]),
            title=f"{learner.name}: " + (f"puzzle rating {profile.rating:.0f} ± {2 * profile.rd:.0f} ({profile.solved}"
                                         f" of {profile.attempts} solved)" if profile.attempts else "no puzzles yet"))

    def create_class(self, name: str) -> None:
        made = []
        if self._act(lambda: made.append(self.store.create_class(name, self.user))):
            self.new_class_name.value = ""
            self.refresh(select=made[0].id)
            self._say(f"Class {made[0].name} created. Make an invite code for it below: that is the code your "
                      "learners type the first time they sign in.")

    def create_assignment(self, lesson: "str | None", puzzles: int, difficulty: str, days: int,
                          puzzle_set: "int | None" = None) -> None:
        level = None if difficulty == "any" else difficulty
        chosen = self.sets.get(puzzle_set) if puzzle_set is not None else None
        if self._act(lambda: self.store.create_assignment(self.klass, by=self.user, lesson=lesson, puzzles=puzzles,
                                                          difficulty=level, due_days=days, puzzle_set=chosen)):
            self.show_assignments()
            self._say("Assignment set: your learners see it on their landing page.")

    def show_assignments(self) -> None:
        """The assignments with how many finished them, the puzzle sets to assign, and how the class
        answered each set's puzzles."""
        self.sets = {s.id: s for s in self.store.puzzle_sets(self.klass, by=self.user)}
        self._choose(self.assign_set, [("no puzzle set", None)] + [(s.name, s.id) for s in self.sets.values()],
                     self.assign_set.value)
        self.assignments.value = assignments_html(self.store.assignment_progress(self.klass, by=self.user),
                                                  self.store.clock(), {i: s.name for i, s in self.sets.items()})
        results = {s.id: self.store.set_results(s, by=self.user) for s in self.sets.values()}
        self.set_results.value = "".join(set_results_html(s, results[s.id]) for s in self.sets.values()) or (
            "<p class='gl-note'>No puzzle sets yet.</p>")
        items = [(f"{s.name} · {r.item.seq}. {r.item.title}", r.item.id) for s in self.sets.values()
                 for r in results[s.id]]
        self._choose(self.set_item_choice, items, self.set_item_choice.value)
        self.set_item_remove.disabled = not items
        self._choose(self.set_choice, [(s.name, s.id) for s in self.sets.values()], self.set_choice.value)
        self.set_rename.disabled = not self.sets

    def rename_set(self, set_id: "int | None", name: str) -> None:
        """Give a puzzle set a new name (its puzzles, answers and assignments stay with it)."""
        chosen = self.sets.get(set_id)
        if chosen is not None and self._act(lambda: self.store.rename_puzzle_set(chosen, name, by=self.user)):
            self.set_name.value = ""
            self.show_assignments()
            self._say(f"The set {chosen.name} is now {self.sets[set_id].name}.")

    def remove_set_item(self, item_id: "int | None") -> None:
        """Take a puzzle out of its set: no longer served or counted (the answers to it are kept)."""
        if item_id is not None and self._act(lambda: self.store.remove_set_item(item_id, by=self.user)):
            self.show_assignments()
            self._say("Puzzle removed from its set: learners no longer get it.")

    def create_invite(self, uses: int, days: int) -> None:
        code = []
        if self._act(lambda: code.append(self.store.create_invite(self.klass, by=self.user, max_uses=uses,
                                                                  expires_days=days))):
            self.invite_note.value = (f"<p>New invite code: <code class='golf-invite-code'>{code[0]}</code>, for up "
                                      f"to {uses} learners, for {days} day{'' if days == 1 else 's'}. Learners type "
                                      "it the first time they sign in.</p>")
            self.show_invites()

    def show_invites(self) -> None:
        invites = self.store.invites(self.klass, by=self.user)
        self.invites.value = invites_html(invites, self.store.clock())
        self._choose(self.invite_choice, [i["code"] for i in invites if i["active"]], self.invite_choice.value)
        self.invite_off.disabled = not self.invite_choice.options

    def deactivate_invite(self, code: "str | None") -> None:
        if code is None:
            return
        if self._act(lambda: self.store.deactivate_invite(code, by=self.user), f"The code {code} is no longer in use."):
            self.show_invites()

    def set_active(self, active: bool) -> None:
        learner = self.chosen_learner()
        if learner is None:
            return
        change = self.store.reactivate if active else self.store.deactivate
        words = "may sign in again" if active else "is deactivated: their sessions have ended"
        if self._act(lambda: change(learner, by=self.user), f"{learner.name} {words}."):
            self._act(self._draw_class, f"{learner.name} {words}.")

    def reset_password(self) -> None:
        learner = self.chosen_learner()
        if learner is None:
            return
        password = new_password()
        if self._act(lambda: self.store.reset_password(learner, password, by=self.user)):
            self.learner_note.value = (f"<p>New password for <b>{escape(learner.name)}</b>: "
                                       f"<span class='golf-password'>{password}</span>. "
                                       "Give it to them now: it is not shown again.</p>")


class LeaderboardOptIn(w.VBox):
    """A learner's choice to appear on their class leaderboard (``golf-leaderboard-optin``), and the
    leaderboard of each of their classes. Empty for a guest or a teacher."""

    def __init__(self, session: "PageSession | None" = None) -> None:
        super().__init__()
        self.add_class("golf-leaderboard")
        self.session = page_session() if session is None else session
        self.store, self.user = self.session.store, self.session.user
        self.checkbox = None
        if self.store is None or self.user is None or self.user.teaches or self.session.problem:
            return
        self.note = hooked_html("golf-leaderboard-note")
        self.boards = w.HTML()
        self.checkbox = w.Checkbox(description="Show me on my class leaderboard (by puzzle rating)", indent=False,
                                   layout=w.Layout(width="auto"))  # the whole sentence, not cut at the default width
        self.checkbox.add_class("golf-leaderboard-optin")
        try:
            self.classes = self.store.classes(self.user)
            self.checkbox.value = self._on_board()
        except (StoreUnavailable, PermissionError) as exc:
            self.note.value = f"<p>The leaderboard cannot be shown just now ({escape(str(exc))}).</p>"
            self.classes = []
        self.checkbox.observe(self._changed, names="value")
        self._show()
        self.children = (self.checkbox, self.note, self.boards)

    def _on_board(self) -> bool:
        return any(b["name"] == self.user.name for k in self.classes for b in self.store.leaderboard(k, by=self.user))

    def _changed(self, change) -> None:
        try:
            self.store.set_leaderboard(self.user, bool(change["new"]), by=self.user)
        except (StoreUnavailable, PermissionError, ValueError) as exc:
            self.note.value = f"<p>Your choice could not be kept just now ({escape(str(exc))}).</p>"
            with self.checkbox.hold_trait_notifications():
                self.checkbox.unobserve(self._changed, names="value")
                self.checkbox.value = change["old"]
                self.checkbox.observe(self._changed, names="value")
            return
        self.note.value = ""
        self._show()

    def _show(self) -> None:
        try:
            parts = [f"<b>{escape(k.name)}</b>{leaderboard_html(self.store.leaderboard(k, by=self.user))}"
                     for k in self.classes]
        except (StoreUnavailable, PermissionError) as exc:
            parts = [f"<p>The leaderboard cannot be shown just now ({escape(str(exc))}).</p>"]
        self.boards.value = "".join(parts)
