"""Play each other: rooms joined with a short code, each learner at their own page.

* ``RoomsPanel``: *Play with others* at the table (play.ipynb, learn.ipynb, codepiece.ipynb):
  create a room (house rules, holes, seats, CPU players), its code shown large, join with a
  code, the lobby (who joined, live), the host's Start, then this page's seat at the table
  (``widgets.room_board``). Signed in only: a guest gets one sentence.
* ``TeacherRooms``: a teacher lists the class's rooms and watches one, every card shown.

CSS hooks: ``golf-room-create``, ``golf-room-code``, ``golf-room-join-code``, ``golf-room-join``,
``golf-room-lobby``, ``golf-room-start``, ``golf-room-watch``; ``golf-room-message`` (refusals),
``golf-room-holes``, ``golf-room-seats``, ``golf-room-cpus``, ``golf-room-guest``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as w

from golflab import Rules
from golflab.ai import PROFILES
from golflab.classroom import StoreUnavailable
from golflab.words import as_sentence

from ..a11y import name_control
from ..account.session import PageSession, page_session
from ..scroll import Scroller
from ..server.account_links import signin_link
from ..table.rules_form import ALL_OPTIONS, RulesForm

if TYPE_CHECKING:  # the rooms (and SQLAlchemy under them) load when a signed-in learner uses them
    from .board import RoomWatch

log = logging.getLogger(__name__)

GUEST_WORDS = ("Sign in to play with others: rooms are for signed-in learners, so everyone at the table "
               "knows who is who. You can still play the CPU players above.")
#: What the page's own table says while its learner plays a room's game further down the page.
AWAY_WORDS = ("You are playing in room {code} below: this table waits for you, and comes back when that game is "
              "over.")
CODEPIECE_SEATS = 4
#: Determinizations per graded decision at the end of a room's game: about 0.1 s a hole once the
#: coach is warm, so the game is kept moments after it ends (the table's review uses more).
ROOM_REVIEW_SAMPLES = 16
#: The room code's own line height wins over the phone rule that sets every HTML widget's to 28 px
#: (the Voila template's ``a11y.html.j2``): at 390 px the 64-px code was cut to a 28-px box.
PANEL_CSS = """<style>
.golf-room-panel{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1100px;
 border:1px solid #cfd8dc;border-radius:10px;padding:8px 12px;margin:8px 0}
.golf-room-panel .golf-room-code,.golf-room-panel .golf-room-code .widget-html-content{
 font:700 64px/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.25em;color:#0d47a1;height:auto}
.golf-room-lobby{font-size:16px}
.golf-room-message{font-size:15px;color:#7f0000}
.golf-room-message.golf-room-ok{color:#1b5e20}
.golf-room-message.golf-room-info{color:#1b1b1b}
</style>"""
#: The tones of a rooms message (``say``): a problem (dark red, no class), done (``ok``), or news that is
#: neither (``info``: "No open room in this class just now." is not an error).
TONES = ("problem", "ok", "info")


def say(message: w.HTML, html: str, tone: str = "problem") -> None:
    """Show ``html`` in a ``golf-room-message`` in its ``tone`` (one of TONES)."""
    message.value = html
    for other in TONES[1:]:
        (message.add_class if other == tone else message.remove_class)(f"golf-room-{other}")


def _button(description: str, hook: str, **kwargs) -> w.Button:
    button = w.Button(description=description, layout=w.Layout(width="auto"), **kwargs)
    button.add_class(hook)
    return button


def lobby_html(room, me: "int | None") -> str:
    """Who sits where in the lobby (or at the table), the page's own seat marked."""
    rows = []
    for s in room.seats:
        if s.cpu is not None:
            who = f"{escape(s.cpu)} (CPU)"
        elif s.user_id is None:
            who = "<i>empty: a CPU takes this seat when the host starts</i>"
        else:
            who = escape(s.name) + (" (host)" if room.hosts(s.seat) else "") + (" \u2014 you" if s.seat == me else "")
        team = f" \u00b7 team {s.seat % 2 + 1}" if room.kind == "codepiece" else ""  # partners sit across
        rows.append(f"<li>{who}{team}</li>")
    joined = sum(s.user_id is not None for s in room.seats)
    waiting = ("Start when everyone is here: empty seats go to CPU players" if room.hosts(me)
               else f"Waiting for {escape(room.host or 'the host')} to start")
    head = {"lobby": f"{waiting} ({joined} joined so far).",
            "playing": "Playing.", "over": "The game is over.", "closed": "This room has closed."}[room.state]
    return f"<div><b>{head}</b></div><ol style='list-style:none;padding-left:4px;margin:4px 0'>{''.join(rows)}</ol>"


def coach_grader(game, seat: int, keep) -> None:
    """Grade ``seat``'s decisions of the finished ``game`` with the coach, then ``keep(accuracy, blunders)``
    (off the event loop when there is one, so the page keeps following)."""
    from golflab.coach import review

    grade = functools.partial(review, samples=ROOM_REVIEW_SAMPLES)

    def done(graded) -> None:
        if graded.grades:
            keep(graded.accuracy, graded.counts["BLUNDER"])
        else:
            keep()

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        done(grade(game, seat))
        return
    future = loop.run_in_executor(None, grade, game, seat)

    def finished(f) -> None:
        try:
            done(f.result())
        except Exception:  # the game is kept ungraded rather than lost
            log.exception("grading the room's game failed")
            keep()

    future.add_done_callback(finished)


class RoomsPanel(w.VBox):
    """*Play with others*: create or join a room of ``game`` ("golf" or "codepiece") and play it here.

    ``session``: this page's ``PageSession`` (default: ``page_session()``). ``coach``: the coach
    grades this learner's moves of a finished golf game before it is kept. ``follow=False``: no
    polling task (tests call ``panel.follower.step()`` / the board's). ``table``: the page's own
    ``GolfTable``, set aside (``GolfTable.set_aside``) while a room's game is played here, so that
    it does not say "Your turn" above the room's board; it comes back when that game is over."""

    def __init__(self, game: str = "golf", *, session: "PageSession | None" = None, coach: bool = False,
                 rules: "Rules | None" = None, follow: bool = True, large: "bool | None" = None,
                 table=None) -> None:
        if game not in ("golf", "codepiece"):
            raise ValueError(f"game must be 'golf' or 'codepiece', got {game!r}")
        self.kind, self.coach, self.follow, self.large, self.table = game, coach, follow, large, table
        self.session = page_session() if session is None else session
        self.room = self.seat = self.board = self.follower = None
        self._base_rules = rules or Rules()
        self._rules_form: "RulesForm | None" = None
        head = w.HTML(PANEL_CSS)  # the notebook's own heading names it
        if not self.session.signed_in:
            said = self.session.note if self.session.problem else GUEST_WORDS
            note = w.HTML(f"<div class='golf-room-guest'>{escape(said)}</div>")
            super().__init__([head, note])
            self.add_class("golf-room-panel")
            return
        from golflab.classroom.rooms import ROOM_CODE_LENGTH

        self.message = w.HTML()
        self.message.add_class("golf-room-message")
        self.create_button = _button("Create a room", "golf-room-create", icon="plus", button_style="primary")
        self.join_code = name_control(w.Text(placeholder=f"{ROOM_CODE_LENGTH}-letter code",
                                             layout=w.Layout(width="150px")), "room code")
        self.join_code.add_class("golf-room-join-code")
        self.join_button = _button("Join", "golf-room-join", icon="sign-in", button_style="info")
        self.code = w.HTML()
        self.code.add_class("golf-room-code")
        self.lobby = w.HTML()
        self.lobby.add_class("golf-room-lobby")
        self.start_button = _button("Start the game", "golf-room-start", icon="play", button_style="success")
        self.start_button.layout.display = "none"
        self.board_slot = w.VBox()
        self.board_slot.add_class("golf-room-board-slot")
        self.scroller = Scroller(".golf-room-board-slot")  # to the room's board as it opens
        self.create_button.on_click(self._guard(lambda _b: self.create()))
        self.join_button.on_click(self._guard(lambda _b: self.join(self.join_code.value)))
        self.start_button.on_click(self._guard(lambda _b: self.start()))
        self.create_box = self._create_box()
        join_box = w.HBox([w.HTML("<b>Join a room:</b>&nbsp;"), self.join_code, self.join_button],
                          layout=w.Layout(align_items="center"))
        self.room_box = w.VBox([self.code, self.lobby, self.start_button], layout=w.Layout(display="none"))
        super().__init__([head, w.HTML("Play a friend from their own computer: one of you creates a room and "
                                       "tells the others its code; they type it under <b>Join a room</b>."),
                          self.create_box, join_box, self.message, self.room_box, self.board_slot])
        self.add_class("golf-room-panel")
        self._return_to_open_room()

    def _return_to_open_room(self) -> None:
        """A reloaded page (or a second tab) goes back to the learner's open room and seat by itself."""
        try:
            room = self.session.store.open_room_of(self.session.user, game=self.kind)
        except (ValueError, PermissionError, StoreUnavailable):
            return
        if room is not None:
            self.join(room.code)

    # ------------------------------------------------------------------ form
    def _create_box(self) -> w.VBox:
        from golflab.classroom.rooms import MAX_PLAYERS_PER_ROOM

        if self.kind == "golf":
            self.holes = w.BoundedIntText(value=self._base_rules.rounds, min=1, max=18, description="Holes",
                                          layout=w.Layout(width="150px"))
            self.seats = w.Dropdown(options=list(range(2, MAX_PLAYERS_PER_ROOM + 1)), value=4, description="Seats",
                                    layout=w.Layout(width="150px"))
            self.cpus = w.BoundedIntText(value=0, min=0, max=MAX_PLAYERS_PER_ROOM - 1, description="CPU players",
                                         style={"description_width": "initial"}, layout=w.Layout(width="150px"))
            self.holes.add_class("golf-room-holes")
            self.rules_box = w.Accordion(children=[w.VBox()], titles=("House rules",), selected_index=None)
            self.rules_box.observe(self._guard(self._on_rules_open), names="selected_index")
            controls = [self.holes, self.seats, self.cpus]
        else:
            self.holes = w.BoundedIntText(value=4, min=1, max=8, description="Deals", layout=w.Layout(width="150px"))
            self.seats = w.Dropdown(options=[CODEPIECE_SEATS], value=CODEPIECE_SEATS, description="Seats",
                                    layout=w.Layout(width="150px"), disabled=True)
            self.cpus = w.BoundedIntText(value=0, min=0, max=CODEPIECE_SEATS - 1, description="CPU players",
                                         style={"description_width": "initial"}, layout=w.Layout(width="150px"))
            self.holes.add_class("cp-room-deals")
            self.rules_box = w.VBox()
            controls = [self.holes, self.seats, self.cpus]
        self.seats.add_class("golf-room-seats")
        self.cpus.add_class("golf-room-cpus")
        hint = w.HTML("<span style='color:#555;font-size:13px'>CPU players take seats now; seats nobody joined "
                      "get a CPU player when the host starts.</span>")
        return w.VBox([w.HBox([*controls, self.create_button], layout=w.Layout(flex_flow="row wrap",
                                                                                  align_items="center")),
                       hint, self.rules_box])

    def _on_rules_open(self, change) -> None:
        if change["new"] == 0 and self._rules_form is None:
            self._rules_form = RulesForm(self._base_rules, [o for o in ALL_OPTIONS if o != "rounds"])
            self.rules_box.children = [self._rules_form]

    def rules(self):
        """The rules the form describes (golf: a ``Rules``; Codepiece: ``{"deals": n}``)."""
        if self.kind == "codepiece":
            return {"deals": self.holes.value}
        base = self._rules_form.rules if self._rules_form is not None else self._base_rules
        return base.replace(rounds=self.holes.value)

    # ---------------------------------------------------------------- actions
    def create(self) -> bool:
        """Create a room from the form and sit at seat 1 (the host); False (said) when refused. Every room
        deals from a seed of its own (never ``GOLFLAB_SEED``: one room's replay would show the next's cards)."""
        try:
            room = self.session.store.create_room(self.session.user, self.rules(), seats=self.seats.value,
                                                  cpus=self._cpu_names(self.cpus.value), game=self.kind)
        except (ValueError, PermissionError, StoreUnavailable) as exc:
            return self._refused(f"No room was created: {exc}.", exc)
        self._say(f"Room {room.code} is ready: tell the others its code.", ok=True)
        self.enter(room, 0)
        return True

    def _cpu_names(self, n: int) -> "list[str]":
        """The ``n`` CPU players the form adds: personalities not named like this learner (Codepiece: "CPU")."""
        if self.kind != "golf":
            return ["CPU"] * n
        mine = self.session.user.name.casefold()
        return [p for p in PROFILES if p.casefold() != mine][:n]

    def join(self, code: str) -> bool:
        """Join the room with ``code`` (a reload or a second tab gets its seat back); False (said) when refused."""
        from golflab.classroom.rooms import OtherGame

        store, user, code = self.session.store, self.session.user, str(code).strip().upper()
        try:
            seat = store.join_room(code, user, game=self.kind)
            room = store.room(code)
        except OtherGame as exc:
            app = "Codepiece" if exc.game == "codepiece" else "Play"
            return self._say(f"Room {code} plays {exc.game}: open the {app} app to join it. Nothing was changed.")
        except (ValueError, PermissionError, StoreUnavailable) as exc:
            return self._refused(f"Could not join: {exc}. Nothing was changed.", exc)
        self._say(f"You sit at the table of room {room.code}.", ok=True)
        self.enter(room, seat)
        return True

    def start(self) -> bool:
        """The host starts the room; False (said) when refused."""
        if self.room is None:
            return self._say("Create or join a room first.")
        try:
            self.room.start(by=self.session.user)
        except (ValueError, PermissionError, StoreUnavailable) as exc:
            return self._refused(f"The game did not start: {exc}.", exc)
        self._say("")
        self._lobby_changed()
        return True

    def enter(self, room, seat: int) -> None:
        """Show ``room`` from ``seat``: its lobby until it starts, then the table."""
        self.stop()
        self.room, self.seat = room, seat
        self.code.value = f"<div title='the room code'>{escape(room.code)}</div>"  # before its box shows
        self.create_box.layout.display = "none"
        self.room_box.layout.display = None
        from .follow import RoomFollower

        self.follower = RoomFollower(room, self._lobby_changed, seat=seat, user=self.session.user)
        self.follower.claim_now()
        self._lobby_changed()
        if self.follow and self.board is None:
            self.follower.start()

    def stop(self) -> None:
        """Stop following (the lobby's and the board's polling); the page's own table comes back."""
        if self.follower is not None:
            self.follower.stop()
        if self.board is not None:
            self.board.stop()
            self.board = None
            self.board_slot.children = []
            self._take_table_back()

    def _take_table_back(self) -> None:
        if self.table is not None and self.table.set_aside_for is not None:
            self.table.set_aside(None)

    # ---------------------------------------------------------------- drawing
    def _lobby_changed(self) -> None:
        room = self.room
        self.lobby.value = lobby_html(room, self.seat)
        self.start_button.layout.display = None if room.state == "lobby" and room.hosts(self.seat) else "none"
        if room.state != "lobby" and self.board is None and room.table is not None:
            self.follower.stop()
            from .board import CodepieceRoomBoard, GolfRoomBoard

            Board = GolfRoomBoard if room.kind == "golf" else CodepieceRoomBoard
            extra = {"grader": coach_grader} if self.coach and room.kind == "golf" else {}
            extra["on_over"] = self._take_table_back
            if room.kind == "golf":
                extra["hold"] = self.session.hold
            if self.table is not None:
                self.table.set_aside(AWAY_WORDS.format(code=room.code))
            self.board = Board(room, self.seat, self.session.user, tab=self.follower.tab, follow=self.follow,
                               large=self.large, **extra)
            self.board_slot.children = [self.scroller, self.board]
            self.scroller.now()  # the page's own table may sit above: the room's board is where play is

    def _say(self, text: str, ok: bool = False) -> bool:
        say(self.message, escape(text), "ok" if ok else "problem")
        return ok

    def _refused(self, text: str, exc: BaseException) -> bool:
        """Say a refusal (False); an ended session signs the page out and offers the sign-in link."""
        if not self.session.ended(exc):
            return self._say(text)
        self._say("")
        self.message.value = f"{escape(self.session.problem)} {signin_link()}"
        return False

    def _guard(self, fn):
        def run(*args):
            try:
                return fn(*args)
            except Exception as exc:  # a click must never leave the page without a word
                log.exception("rooms panel failed")
                self._say(f"Sorry, something went wrong ({exc}).")
        return run


class TeacherRooms(w.VBox):
    """A teacher's list of their class's rooms (``golf-room-watch`` watches the chosen one, large)."""

    def __init__(self, session: "PageSession | None" = None, *, follow: bool = True) -> None:
        self.session = page_session() if session is None else session
        self.follow = follow
        self.watch: "RoomWatch | None" = None
        head = w.HTML(PANEL_CSS + "<h3 style='margin:4px 0'>Rooms: watch a table</h3>")
        user = self.session.user
        if user is None or not user.teaches:
            super().__init__([head, w.HTML("<div class='golf-room-guest'>Only a signed-in teacher watches the "
                                           "class's rooms.</div>")])
            return
        self.klass = w.Dropdown(description="Class", options=[(k.name, k) for k in self.session.store.classes(user)])
        self.room_list = w.Dropdown(description="Room", options=[], layout=w.Layout(width="480px", max_width="100%"))
        self.room_list.add_class("golf-room-list")
        self.refresh_button = _button("Refresh the list", "golf-room-refresh", icon="refresh")
        self.watch_button = _button("Watch", "golf-room-watch", icon="eye", button_style="primary")
        self.message = w.HTML()
        self.message.add_class("golf-room-message")
        self.slot = w.VBox()
        self.refresh_button.on_click(lambda _b: self.list_rooms())
        self.klass.observe(lambda _c: self.list_rooms(), names="value")
        self.watch_button.on_click(lambda _b: self.watch_room(self.room_list.value))
        super().__init__([head, w.HBox([self.klass, self.refresh_button], layout=w.Layout(flex_flow="row wrap")),
                          w.HBox([self.room_list, self.watch_button], layout=w.Layout(flex_flow="row wrap")),
                          self.message, self.slot])
        self.add_class("golf-room-panel")
        self.list_rooms()

    def list_rooms(self) -> list:
        """The chosen class's open rooms, newest first (also shown in the list)."""
        if self.klass.value is None:
            say(self.message, "You have no class yet.", "info")
            return []
        try:
            listed = self.session.store.rooms(self.klass.value, by=self.session.user)
        except (PermissionError, StoreUnavailable) as exc:
            say(self.message, escape(f"The rooms cannot be listed: {exc}."))
            return []
        rooms = [r for r in listed if r.problem is None]
        broken = [as_sentence(r.problem) for r in listed if r.problem is not None]  # said once: they are closed now
        chosen = self.room_list.value
        self.room_list.options = [(f"{r.code} \u00b7 {r.kind} \u00b7 {r.state} \u00b7 "
                                   + ", ".join(n or "empty" for n in r.players), r.code) for r in rooms]
        codes = [r.code for r in rooms]  # a new list leaves the Dropdown on nothing: keep the choice, or the newest
        self.room_list.value = chosen if chosen in codes else (codes[0] if codes else None)
        said = [] if rooms else ["No open room in this class just now."]
        say(self.message, "<br>".join(escape(line) for line in broken + said), "problem" if broken else "info")
        return rooms

    def watch_room(self, code: "str | None") -> "RoomWatch | None":
        """Watch the room with ``code`` (every card shown, large)."""
        if not code:
            say(self.message, "Choose a room to watch (press Refresh the list for new ones).", "info")
            return None
        if code not in [r.code for r in self.list_rooms()]:
            say(self.message, escape(f"Room {code} is not an open room of {self.klass.value.name}."))
            return None
        if self.watch is not None:
            self.watch.stop()
        try:
            room = self.session.store.room(code)
        except (ValueError, StoreUnavailable) as exc:
            say(self.message, escape(f"That room cannot be watched: {exc}."))
            return None
        from .board import RoomWatch

        self.watch = RoomWatch(room, follow=self.follow)
        self.slot.children = [self.watch]
        self.message.value = ""
        return self.watch
