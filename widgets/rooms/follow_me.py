"""Follow me (``follow_me.ipynb``): a teacher steps through a study, a list of positions with notes,
on the projector, and every learner's page follows, each learner trying moves on their own copy.

``FollowMe()`` is the teacher's page: choose a class, a title and the pages (the positions of one
of the class's puzzle sets, with their titles and notes, or positions typed or pasted one a line,
a link to a position as well, each followed by ``" | "`` and its note), open the study
(``Store.create_study``; its code shows large), then turn its pages (*Previous page*, *Next page*, a
button per page, *End the study*): each turn is a move of the study's room (``Room.apply``).
``FollowStudy()`` is a learner's page: follow their class's open study (or type its code); the page
the teacher shows appears, with the teacher's note, as its player to move sees it (a study never
holds a face-down card the teacher knew, nor another seat's drawn card: ``study_game``). Below
it, the learner plays moves on their own copy, step by step (``analysis_steps.StepBoard``), the
coach's values in a closed section to open once they have chosen. ``FollowMeApp()`` shows the one
of them the signed-in user's role needs.

Hooks: the teacher's ``golf-study`` with ``golf-study-class``, ``golf-study-title``,
``golf-study-set``, ``golf-study-pages``, ``golf-study-open``, ``golf-study-message``,
``golf-study-code``, ``golf-study-followers`` (how many learners follow), ``golf-study-prev``,
``golf-study-next``, ``golf-study-goto`` (a button a page, its words the page's number),
``golf-study-end``; the learner's ``golf-follow``
with ``golf-follow-open`` (a button per open study of their classes), ``golf-follow-code``,
``golf-follow-join``, ``golf-follow-message``; both show a ``golf-study-view``:
``golf-study-heading`` (the title, "Page 2 of 3"), ``golf-study-note``, ``golf-position-link`` (the
page's position on the analysis board) and the step board's hooks
(``golf-step-move-<move>``, ``golf-step-status``, ``golf-step-values``, ...).
"""

from __future__ import annotations

import logging
from html import escape

import ipywidgets as w

from golflab.classroom import StoreUnavailable
from golflab.classroom.study_game import END, MAX_PAGES, page_action, pages_from_text

from ..a11y import name_control
from ..account.session import PageSession, page_session
from ..coach.analysis import ANALYSIS_CSS
from ..coach.analysis_steps import StepBoard
from ..coach.panel import COACH_CSS
from ..coach.replay import REPLAY_CSS
from ..hooks import hooked, hooked_button, hooked_html
from ..position_links import LINK_CLASS, link_html
from ..table.display_size import PROJECTING_CSS, set_projecting
from ..table.view import TABLE_CSS
from .follow import RoomFollower
from .offers import offered_rooms
from .ticking import every_second

log = logging.getLogger(__name__)

REFUSED = ("<p><b>A study is opened by a teacher.</b> Learners: open <i>Follow me</i> and follow your class's "
           "study.</p>")
NO_SET = "(none: type the positions below)"
PAGES_HINT = ("One page a line: a position in golflab's notation, or a link to one, then ' | ' and your note, e.g.\n"
              "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D | Swap it, or discard it?")
STUDY_CSS = """<style>
.golf-study-code{font:700 40px/1.2 ui-monospace,monospace;letter-spacing:6px}
.golf-study-heading h2{margin:4px 0;font-size:22px}
.golf-study-heading p{margin:2px 0;font:600 16px system-ui,sans-serif;color:#37474f}
.golf-study-note{font-size:18px;line-height:1.45;background:#fffde7;border-left:6px solid #f9a825;border-radius:6px;
 padding:8px 14px;margin:6px 0;max-width:1000px}
.golf-study-note:empty{display:none}
.golf-study-message{font-size:15px}
</style>"""


def study_heading_html(page) -> str:
    """A study page's heading: its title, and which page of how many (or that the study has ended)."""
    where = f"Page {page.number} of {page.count}"
    if page.ended:
        where += " \u00b7 the study has ended: this page stays for you to play on"
    return f"<h2>{escape(page.title)}</h2><p>{escape(where)}</p>"


def note_html(note: str) -> str:
    return "<br>".join(escape(line) for line in note.splitlines())


class StudyView(w.VBox):
    """One page of a study: its heading, the teacher's note and a step board on this page's own copy
    (a new copy each time another page shows)."""

    def __init__(self) -> None:
        self.page = None
        self.heading = hooked(hooked_html("golf-study-heading"), "golf-live")  # a page turn is read out
        self.note = hooked(hooked_html("golf-study-note"), "golf-live")
        self.board_slot = w.VBox()
        self.link = hooked_html(LINK_CLASS)  # the page's position on the analysis board, to keep or share
        self.steps: "StepBoard | None" = None
        super().__init__([self.heading, self.note, self.board_slot, self.link])
        self.add_class("golf-study-view")
        for hook in ("golf-analysis", "golf-replay", "golf-table"):  # the analysis board's look of cards and seats
            self.add_class(hook)

    def show(self, page) -> None:
        """Show ``page`` (a ``StudyPage``); the learner's copy starts again only when the page changed."""
        moved = self.page is None or (page.number, page.position) != (self.page.number, self.page.position)
        self.page = page
        if moved:  # the new copy first: the heading says the page has come once it has
            self.steps = StepBoard(page.position.game(0), values_closed=True)
            self.board_slot.children = (self.steps,)
            self.note.value = note_html(page.note)
            self.link.value = link_html(page.position)
        self.heading.value = study_heading_html(page)


class _StudyPage(w.VBox):
    """What the teacher's and the learner's pages share: the session, the CSS, a message line."""

    def __init__(self, session: "PageSession | None", hook: str) -> None:
        super().__init__()
        self.add_class(hook)
        self.session = page_session() if session is None else session
        self.room = None
        self.view = StudyView()
        self.message = hooked_html(f"{hook}-message")
        self.message.add_class("golf-live")

    def _act(self, work, failed: str) -> bool:
        """Run ``work()``; on a refusal say why after ``failed`` and change nothing (False)."""
        return self.session.attempt(work, self._say, failed)

    def _say(self, text: str) -> None:
        self.message.value = escape(text)

    @property
    def css(self) -> w.HTML:
        return w.HTML(TABLE_CSS + REPLAY_CSS + COACH_CSS + ANALYSIS_CSS + STUDY_CSS + PROJECTING_CSS)


class FollowMe(_StudyPage):
    """The teacher's page (see the module). ``follow=False`` leaves counting the followers to the
    caller (``show_followers()``: tests)."""

    def __init__(self, session: "PageSession | None" = None, *, follow: bool = True) -> None:
        super().__init__(session, "golf-study")
        self.follow = follow
        user = self.session.user
        if self.session.store is None or user is None or not user.teaches:
            self.children = (hooked_html("golf-study-refused", REFUSED),)
            return
        store = self.session.store
        self.classes = {k.id: k for k in store.classes(user)}
        self.klass = hooked(name_control(w.Dropdown(options=[(k.name, k.id) for k in self.classes.values()],
                                                    value=next(iter(self.classes), None)), "class"),
                            "golf-study-class")
        self.title = hooked(name_control(w.Text(placeholder="e.g. When to take the discard",
                                                layout=w.Layout(width="360px", max_width="100%")), "study title"),
                            "golf-study-title")
        self.puzzle_set = hooked(name_control(w.Dropdown(layout=w.Layout(width="360px", max_width="100%")),
                                              "pages from a puzzle set"), "golf-study-set")
        self.pages = hooked(name_control(w.Textarea(placeholder=PAGES_HINT, rows=5,
                                                    layout=w.Layout(width="100%")), "pages typed"),
                            "golf-study-pages")
        self.open_button = hooked_button("Open the study", "golf-study-open", "primary")
        self.open_button.on_click(lambda _b: self.open_study())
        self.klass.observe(lambda _c: self._show_sets(), names="value")
        self.code = hooked_html("golf-study-code")
        self.followers = hooked_html("golf-study-followers")
        self.prev_button = hooked_button("\u2190 Previous page", "golf-study-prev")
        self.next_button = hooked_button("Next page \u2192", "golf-study-next", "primary")
        self.end_button = hooked_button("End the study", "golf-study-end", "warning")
        self.prev_button.on_click(lambda _b: self.turn(self.view.page.number - 1))
        self.next_button.on_click(lambda _b: self.turn(self.view.page.number + 1))
        self.end_button.on_click(lambda _b: self.end())
        self.goto = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.controls = w.HBox([self.prev_button, self.next_button, self.goto, self.end_button],
                               layout=w.Layout(flex_flow="row wrap", align_items="center", display="none"))
        row = w.Layout(flex_flow="row wrap", align_items="center")
        self.setup = w.VBox([w.HBox([w.HTML("Class&nbsp;"), self.klass, w.HTML("&nbsp;title&nbsp;"), self.title],
                                    layout=row),
                             w.HBox([w.HTML("Pages from a puzzle set&nbsp;"), self.puzzle_set], layout=row),
                             w.HTML(f"<span class='golf-note'>or type them, one a line (at most {MAX_PAGES}): a "
                                    "position or a link to one, then ' | ' and your note.</span>"),
                             self.pages, w.HBox([self.open_button])])
        self.children = (self.css, self.setup, self.message, self.code, self.followers, self.controls, self.view)
        self._show_sets()

    def _show_sets(self) -> None:
        klass = self.classes.get(self.klass.value)
        sets = []
        if klass is not None:
            try:
                sets = self.session.store.puzzle_sets(klass, by=self.session.user)
            except (ValueError, PermissionError, StoreUnavailable) as exc:
                log.warning("puzzle sets not listed: %s", exc)
        self.puzzle_set.options = [(NO_SET, None)] + [(f"{s.name} ({s.items} position{'' if s.items == 1 else 's'})",
                                                       s.id) for s in sets]
        self.puzzle_set.value = None

    def _chosen_pages(self) -> "list[tuple[str, str]]":
        """The pages asked for: the chosen puzzle set's positions (title and note as the page's note),
        else the lines typed."""
        if self.puzzle_set.value is None:
            return pages_from_text(self.pages.value)
        store, user = self.session.store, self.session.user
        items = store.set_items(store.puzzle_set(self.puzzle_set.value, by=user), by=user)
        if not items:
            raise ValueError("that puzzle set has no position yet")
        return [(item.position, "\n".join(filter(None, (item.title, item.note)))) for item in items]

    def open_study(self) -> bool:
        """Open the study (its code for the learners, its first page shown); False, said, when refused."""
        klass = self.classes.get(self.klass.value)
        if klass is None:
            self.message.value = "You have no class yet: create one on the class dashboard first."
            return False
        made = []
        if not self._act(lambda: made.append(self.session.store.create_study(
                klass, by=self.session.user, title=self.title.value, pages=self._chosen_pages())),
                "The study was not opened"):
            return False
        self.room = made[0]
        self.setup.layout.display = "none"
        self.code.value = escape(f"Code {self.room.code}")
        self.message.value = escape("Learners: open Follow me and follow your class's study, or type the code above.")
        count = self.room.study_page(by=self.session.user).count
        self.goto.children = [self._goto_button(n) for n in range(1, count + 1)]
        self.controls.layout.display = None
        set_projecting(self, True)
        self._show()
        self.show_followers()
        room = self.room
        if self.follow:  # the class coming in, counted each second while the study is open
            every_second(self.show_followers, lambda: self.room is room and room.state == "playing",
                         f"study {room.code}")
        return True

    def show_followers(self) -> None:
        """How many learners follow the study (read again)."""
        if self.room is None:
            return
        count = []
        if self.session.attempt(lambda: count.append(self.room.followers()), self._say):
            self.followers.value = escape(f"{count[0]} learner{'' if count[0] == 1 else 's'} following.")

    def _goto_button(self, number: int) -> w.Button:
        button = hooked(w.Button(description=str(number), tooltip=f"Show page {number}",
                                 layout=w.Layout(width="44px")), "golf-study-goto")
        button.on_click(lambda _b: self.turn(number))
        return button

    def turn(self, number: int) -> bool:
        """Show page ``number`` (from 1) on every page that follows; False, said, when refused."""
        if self.room is None:
            return False
        if self._act(lambda: self.room.apply(0, page_action(number), by=self.session.user), "Not turned"):
            self.message.value = ""
            self._show()
            return True
        return False

    def end(self) -> bool:
        """End the study: learners keep its last page to play on."""
        if self.room is None or not self._act(lambda: self.room.apply(0, END, by=self.session.user), "Not ended"):
            return False
        self.message.value = "The study has ended. Open a new one above."
        self.controls.layout.display = "none"
        self.setup.layout.display = None
        self.followers.value = ""
        set_projecting(self, False)
        self._show()
        return True

    def _show(self) -> None:
        page = self.room.study_page(by=self.session.user)
        self.view.show(page)
        self.prev_button.disabled = page.ended or page.number == 1
        self.next_button.disabled = page.ended or page.number == page.count
        for button in self.goto.children:
            button.button_style = "info" if button.description == str(page.number) else ""


class FollowStudy(_StudyPage):
    """A learner's page (see the module). ``follow=False``: tests poll (``poll``)."""

    def __init__(self, session: "PageSession | None" = None, *, follow: bool = True) -> None:
        super().__init__(session, "golf-follow")
        self.follow = follow
        self.follower = None
        if self.session.store is None or self.session.user is None:
            self.children = (hooked_html("golf-follow-guest", "<p>Sign in to follow your class's study.</p>"),)
            return
        self.code = hooked(name_control(w.Text(placeholder="the code on the projector, e.g. KQZT",
                                               layout=w.Layout(width="220px")), "study code"), "golf-follow-code")
        self.join_button = hooked_button("Follow the study", "golf-follow-join", "primary")
        self.join_button.on_click(lambda _b: self.follow_study(self.code.value))
        self.open_studies = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.children = (self.css, self.open_studies, w.HBox([self.code, self.join_button]), self.message, self.view)
        self.show_open_studies()

    def show_open_studies(self) -> None:
        """A button for each open study of the learner's classes: following needs no code."""
        user = self.session.user
        self.open_studies.children = offered_rooms(
            self.session, "studies", lambda s: f"Follow {s.study_page(by=user).title} ({s.code})", "golf-follow-open",
            self.follow_study)

    def follow_study(self, code: str) -> bool:
        """Follow the study of ``code`` (True), or say why not."""
        store, user = self.session.store, self.session.user
        found = []
        if not self._act(lambda: found.append(store.room(code.strip().upper())), "You could not follow it"):
            return False
        room = found[0]
        if not room.is_study:
            self.message.value = escape(f"Room {room.code} is not a study: join it from the app of its game.")
            return False
        if not self._act(lambda: room.follow_study(by=user), "You could not follow it"):
            return False
        if self.follower is not None:
            self.follower.stop()
        self.room = room
        self.follower = RoomFollower(room, self.redraw, user=user)
        self.message.value = escape(f"You follow the study {room.code}: the page your teacher shows appears here. "
                                    "Try your move on your own copy below.")
        self.redraw()
        if self.follow:
            self.follower.start()
        return True

    def poll(self) -> bool:
        """One look at the study (what ``follow`` does by itself); True when it changed."""
        if self.follower is not None and self.follower.step():
            self.redraw()
            return True
        return False

    def redraw(self) -> None:
        """Show the page the study shows now; a page signed out since says so and stops following."""
        if self.follower.problem:
            self.message.value = escape(self.follower.problem)
        if self.room.state == "closed":
            self.message.value = "The study has closed."
            return
        shown = []

        def read() -> None:
            shown.append(self.room.study_page(by=self.session.user))

        if self.session.signed_in and self.session.attempt(read, self._say, "The page cannot be shown"):
            self.view.show(shown[0])
        elif not self.session.signed_in:
            self.follower.stop()


def FollowMeApp(session: "PageSession | None" = None) -> w.VBox:  # noqa: N802 (a widget, as a class is)
    """Follow me as the signed-in user needs it: a teacher's study page, else a learner's."""
    session = page_session() if session is None else session
    user = session.user
    return FollowMe(session) if user is not None and user.teaches else FollowStudy(session)
