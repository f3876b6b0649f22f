"""The class table (``class_table.ipynb``): the whole class plays one seat of a golf room against a CPU
player, or two halves of the class play each other, the teacher's page on the projector, each
learner voting for their team's move from their own.

``ClassTable()`` is the teacher's page: choose a class, the opponent (a CPU player, or *Two halves
of the class*: ``HALVES``) and the seconds a vote stays open, open the table
(``Store.create_class_table``; its code shows large), wait for the learners to join (each half
counted) and start. While a team is to move, the page counts down and says how many of it voted;
the vote closes at zero, or at *Close the vote now* (``Room.close_vote``: most votes, a tie or no
vote decided by the coach), and then shows how the team voted and what each option was worth. Both
halves see the projector, so with halves it shows only what the whole table sees: the card the
half to move drew stays hidden, and Half A's grid stays at the bottom whoever is to move.

``PlayTogether()`` is a learner's page: join their class's open table (or type its code;
``Room.join_team`` gives the half), see their team's seat as it sees it (never another seat's
hidden card) and click a card or a pile as at the table: the click is a vote, which a second click
changes until the vote closes; on the other half's turn it is refused. ``ClassTableApp()`` shows the
one of them the signed-in user's role needs.

Hooks: ``golf-class-table`` (the teacher's page), ``golf-class-table-class``,
``golf-class-table-opponent``, ``golf-class-table-seconds``, ``golf-class-table-open``,
``golf-class-table-code``, ``golf-class-table-voters``, ``golf-class-table-start``,
``golf-vote-status`` (the count-down and the votes), ``golf-vote-close``, ``golf-vote-results`` (a
``golf-vote-row`` per option, ``data-action``, the played one ``golf-vote-played``); a learner's:
``golf-together``, ``golf-together-open`` (a button per open table of the learner's classes),
``golf-together-code``, ``golf-together-join``, ``golf-together-message``,
``golf-my-vote``; the boards keep the table's hooks (``golf-status``, ``golf-slot-N``, ...).
"""

from __future__ import annotations

import logging
from html import escape

import ipywidgets as w

from golflab.ai import PROFILES
from golflab.classroom import StoreUnavailable
from golflab.classroom.class_tables import HALVES
from golflab.classroom.room_games import NEXT
from golflab.puzzles import describe

from ..a11y import name_control
from ..account.session import PageSession, page_session
from ..hooks import hooked_button, hooked_html
from ..table import words
from ..table.display_size import PROJECTING_CSS, resolve_large, set_large, set_projecting
from .board import GolfRoomBoard, RoomFollower
from .offers import offered_rooms
from .ticking import every_second

log = logging.getLogger(__name__)

#: The opponents a class may play against (label, value): the CPU players, the strongest first, then
#: the other half of the class.
OPPONENTS = (*((name, name) for name in ("Expert", *(n for n in PROFILES if n != "Expert"))),
             ("Two halves of the class", HALVES))
DEFAULT_SECONDS = 30
#: What the boards say under a half's seat (the other half's, or either on the projector).
TEAM_STYLE = "its half of the class votes"
REFUSED = ("<p><b>The class table is opened by a teacher.</b> Learners: open it as <i>Play together</i> and "
           "join your class's table.</p>")
WAITING = "<p>Waiting for your teacher to deal.</p>"
VOTE_CSS = """<style>
.golf-vote-status{font:600 18px/1.4 system-ui,sans-serif;margin:6px 0}
.golf-class-table-code{font:700 40px/1.2 ui-monospace,monospace;letter-spacing:6px}
.golf-vote-results table{border-collapse:collapse;font-size:15px}
.golf-vote-results th,.golf-vote-results td{padding:3px 10px;border-bottom:1px solid #ccc;text-align:left}
.golf-vote-results th.golf-nowrap{white-space:nowrap}
.golf-vote-results td.num{text-align:right}
.golf-vote-played{background:#e8f5e9;font-weight:600}
.golf-my-vote{font:600 16px system-ui,sans-serif;color:#0d47a1;margin:4px 0}
</style>"""
DECIDED = {"votes": "The move with most votes was played.",
           "tie": "The votes were tied: the coach's better move of the tied ones was played.",
           "coach": "Nobody voted: the coach's best move was played."}


def votes_words(count: int, voters: int) -> str:
    return f"{count} of {voters} voted" if voters else f"{count} voted"


def has_halves(room) -> bool:
    """Whether two halves of the class play each other at ``room`` (else the class plays a CPU player)."""
    return len(room.team_seats) > 1


def team_name(room, seat: int) -> str:
    """Who votes for ``seat``: "the class", or its half ("Half A")."""
    return room.players[seat] if has_halves(room) else "the class"


def results_html(closed, obs, team: str = "the class") -> str:
    """How ``team`` voted on a closed vote and what each option was worth (the coach's values, lower is
    better), the move played first."""
    if closed is None:
        return ""
    order = sorted(closed.values, key=lambda a: (a != closed.action, closed.values[a]))
    rows = "".join(
        f"<tr class='golf-vote-row{' golf-vote-played' if a == closed.action else ''}' data-action='{escape(a)}'>"
        f"<td>{escape(_option_words(obs, a))}</td><td class='num'>{closed.votes.get(a, 0)}</td>"
        f"<td class='num'>{closed.values[a]:+.1f}</td></tr>" for a in order)
    total = sum(closed.votes.values())
    return (f"<h2>How {escape(team)} voted (move {closed.turn + 1}, {total} vote{'' if total == 1 else 's'})</h2>"
            "<table><tr><th>Option</th><th class='golf-nowrap'>Votes</th><th>Worth (points, lower is better)</th>"
            f"</tr>{rows}</table>"
            f"<p>{escape(DECIDED.get(closed.decided_by, ''))}</p>")


def closed_html(room, closed, views: "DecisionViews") -> str:
    """``results_html`` for a vote closed at ``room``: its team named, its options worded from its view."""
    return results_html(closed, views.get(closed.turn), team_name(room, closed.seat))


def _option_words(obs, action: str) -> str:
    text = describe(obs, action) if obs is not None else action
    return text[0].upper() + text[1:]


class DecisionViews:
    """The view of the team seat deciding each move a class voted for, noted as a page shows the room
    (the words of a vote's options name the cards of that moment). Only noted, never shown: the
    results show once the move is played, and public."""

    def __init__(self) -> None:
        self._views: dict = {}

    def note(self, room, game) -> None:
        seat = game.current_player
        if seat in room.team_seats and game.phase in words.ACTIVE_PHASES:
            self._views.setdefault(len(room.log), game.observation(seat))

    def get(self, turn: int):
        return self._views.get(turn)


class ProjectorBoard(GolfRoomBoard):
    """The class's seat drawn for the projector: the teacher's page holds it (so it is never away),
    but its moves come from the votes; from here only the next hole is dealt. With two halves, both
    see the projector: it tells the game as the half not to move sees it (``view_seat``: never the
    card the half to move drew), Half A's grid at the bottom throughout (``layout``). ``on_redraw`` is
    called after each redraw."""

    on_redraw = None
    person_style = TEAM_STYLE

    def view_seat(self, game) -> int:
        """The class's seat against a CPU player; with two halves, the half not to move: the card the
        other half drew stays hidden (both halves' face-down cards are hidden to all)."""
        if not has_halves(self.room):
            return self.seat
        return next(s for s in self.room.team_seats if s != game.current_player)

    def layout(self, game) -> "tuple[int, bool]":
        """With two halves, Half A at the bottom whoever is to move, drawn with only what the whole
        table sees (the grids stay in place from turn to turn); else the class's seat."""
        if not has_halves(self.room):
            return self.seat, False
        return self.room.team_seats[0], True

    def act(self, action: str, target: str = "", pos: "int | None" = None) -> bool:
        if action == NEXT:
            return super().act(action, target, pos)
        return self._refuse("The class votes for this move: the votes decide it when the vote closes.")

    def redraw(self) -> None:
        super().redraw()
        if self.on_redraw is not None:
            self.on_redraw()

    def _keep(self) -> None:
        """A class's game is nobody's own game: it is not kept."""


class TeamBoard(GolfRoomBoard):
    """A learner's page at the class table: the team's seat as it sees it; a click is a vote."""

    person_style = TEAM_STYLE

    def __init__(self, room, seat: int, user, **kwargs) -> None:
        self.my_vote = w.HTML()
        self.my_vote.add_class("golf-my-vote")
        self.my_vote.add_class("golf-live")
        self.voted: "tuple[int, str] | None" = None  # (turn, action) of this learner's vote
        self.last_closed = None
        self.views = DecisionViews()
        self.results = w.HTML()
        self.results.add_class("golf-vote-results")
        super().__init__(room, seat, user, **kwargs)
        self.children = (*self.children[:2], self.my_vote, self.results, *self.children[2:])

    def _follow(self, room, seat: int, user, *, tab, follow: bool, large) -> None:
        """Follow the room without a seat: the teacher's page holds the team's seat."""
        set_large(self, resolve_large(large))
        self.follower = RoomFollower(room, self.redraw, user=user, tab=tab)
        self.follower.step()
        self.redraw()
        if follow:
            self.follower.start()

    def _notes(self) -> "list[str]":
        return [*filter(None, [self.follower.problem])]

    def act(self, action: str, target: str = "", pos: "int | None" = None) -> bool:
        """Vote for ``action`` (a click on the table); False (the status says why) when refused."""
        self._sync()
        if action == NEXT:
            return self._refuse("Your teacher deals the next hole from the projector.")
        obs = self.game.observation(self.seat)
        mover = obs.current_player
        if mover != self.seat and mover in self.room.team_seats and self.game.phase in words.ACTIVE_PHASES:
            return self._refuse(f"It is {self.room.players[mover]}'s turn: the other half votes for this move. "
                                f"Your half, {self.room.players[self.seat]}, votes when its turn comes.")
        if mover != self.seat or self.game.phase not in words.ACTIVE_PHASES \
                or action not in {str(a) for a in obs.legal_actions}:
            return self._refuse(words.refusal(obs, target, pos))
        try:
            turn = self.room.vote(action, by=self.user)
        except (ValueError, PermissionError, StoreUnavailable) as exc:
            return self._refuse(f"Your vote was not counted: {exc}.")
        self.voted = (turn, action)
        self.my_vote.value = escape(f"Your vote: {_option_words(obs, action)}. Click another to change it "
                                    "until the vote closes.")
        return True

    def redraw(self) -> None:
        super().redraw()
        if self.voted is not None and self.voted[0] != len(self.room.log):
            self.voted = None
            self.my_vote.value = ""
        self.views.note(self.room, self.game)
        closed = self.room.closed_votes()
        if closed and closed[-1] != self.last_closed:
            self.last_closed = closed[-1]
            self.results.value = closed_html(self.room, closed[-1], self.views)

    def _keep(self) -> None:
        """The class's game is nobody's own game: it is not kept."""


class ClassTable(w.VBox):
    """The teacher's projector page (see the module). ``follow=False`` leaves the room's polling and
    the count-down to the caller (``board.follower.step()``, ``tick()``: tests)."""

    def __init__(self, session: "PageSession | None" = None, *, follow: bool = True) -> None:
        super().__init__()
        self.add_class("golf-class-table")
        self.session = page_session() if session is None else session
        self.follow = follow
        self.room = self.board = None
        self.vote_turn: "int | None" = None  # the move being voted on now
        self.left = 0  # seconds until the vote closes
        self.views = DecisionViews()
        user = self.session.user
        if self.session.store is None or user is None or not user.teaches:
            self.children = (hooked_html("golf-class-table-refused", REFUSED),)
            return
        self.classes = {k.id: k for k in self.session.store.classes(user)}
        self.klass = name_control(w.Dropdown(options=[(k.name, k.id) for k in self.classes.values()],
                                             value=next(iter(self.classes), None)), "class")
        self.klass.add_class("golf-class-table-class")
        self.opponent = name_control(w.Dropdown(options=OPPONENTS, value="Expert"), "opponent")
        self.opponent.add_class("golf-class-table-opponent")
        self.seconds = name_control(w.BoundedIntText(value=DEFAULT_SECONDS, min=5, max=600), "seconds to vote")
        self.seconds.add_class("golf-class-table-seconds")
        self.open_button = hooked_button("Open the class table", "golf-class-table-open", "primary")
        self.open_button.on_click(lambda _b: self.open_table())
        self.message = hooked_html("golf-class-table-message")
        self.code = hooked_html("golf-class-table-code")
        self.voters = hooked_html("golf-class-table-voters")
        self.start_button = hooked_button("Start: deal the cards", "golf-class-table-start", "success")
        self.start_button.on_click(lambda _b: self.start())
        self.start_button.layout.display = "none"
        self.vote_status = hooked_html("golf-vote-status")
        self.vote_status.add_class("golf-live")
        self.close_button = hooked_button("Close the vote now", "golf-vote-close", "warning")
        self.close_button.on_click(lambda _b: self.close_vote())
        self.close_button.layout.display = "none"
        self.results = hooked_html("golf-vote-results")
        self.board_slot = w.VBox()
        row = w.Layout(align_items="center", flex_flow="row wrap")
        self.setup = w.VBox([w.HBox([w.HTML("Class&nbsp;"), self.klass, w.HTML("&nbsp;against&nbsp;"), self.opponent,
                                     w.HTML("&nbsp;seconds to vote&nbsp;"), self.seconds, self.open_button],
                                    layout=row)])
        vote = w.HBox([self.vote_status, self.close_button], layout=w.Layout(align_items="center", grid_gap="16px",
                                                                             flex_flow="row wrap"))
        self.children = (w.HTML(VOTE_CSS + PROJECTING_CSS), self.setup, self.message, self.code, self.voters,
                         w.HBox([self.start_button]), vote, self.results, self.board_slot)

    # -- the store ------------------------------------------------------------------------

    def _act(self, work) -> bool:
        """Run ``work()`` (store calls): True when done; a refusal is said and changes nothing."""
        if not self.session.attempt(work, self._say):
            return False
        self.message.value = ""
        return True

    def _say(self, text: str) -> None:
        self.message.value = escape(text)

    def open_table(self) -> None:
        """Open a class table for the chosen class: its code, for the learners to join."""
        klass = self.classes.get(self.klass.value)
        made = []
        if klass is None:
            self.message.value = "You have no class yet: create one on the class dashboard first."
            return
        if self._act(lambda: made.append(self.session.store.create_class_table(
                klass, by=self.session.user, opponent=self.opponent.value, vote_seconds=self.seconds.value))):
            self.room = made[0]
            self.setup.layout.display = "none"
            set_projecting(self, True)
            self.code.value = escape(self.room.code)
            self.start_button.layout.display = None
            self.show_voters()
            self._every_second(self.show_voters, lambda: self.board is None)  # who joined, until the deal

    def show_voters(self) -> None:
        """Who has joined so far (read again)."""
        if self.room is None:
            return
        voters = self.room.voters()
        count = sum(voters.values())
        each = (" (" + ", ".join(f"{self.room.players[s]} {n}" for s, n in voters.items()) + ")"
                if has_halves(self.room) else "")
        where = "" if self.room.state != "lobby" else " Learners: open Play together and type the code above."
        self.voters.value = escape(f"{count} learner{'' if count == 1 else 's'} joined{each}.{where}")

    def start(self) -> None:
        """Deal: the class's first move is voted at once."""
        if self.room is None or not self._act(lambda: self.room.start(by=self.session.user)):
            return
        self.start_button.layout.display = "none"
        self.code.value = escape(f"Code {self.room.code}")
        self.board = ProjectorBoard(self.room, self.room.team_seats[0], self.session.user, follow=self.follow,
                                    large=True)
        self.board.on_redraw = self._after_redraw
        self.board_slot.children = (self.board,)
        self._after_redraw()

    # -- the vote -------------------------------------------------------------------------

    def _after_redraw(self) -> None:
        """After each move: a new vote when a team is to move, else no vote."""
        room, board = self.room, self.board
        if board is None:
            return
        self.views.note(room, board.game)
        to_move = room.table.seat_to_move if room.state == "playing" and room.table is not None else None
        turn = len(room.log)
        if to_move in room.team_seats and board.game.phase in words.ACTIVE_PHASES:
            if self.vote_turn != turn:
                self.vote_turn, self.left = turn, room.vote_seconds
                self.close_button.layout.display = None
                self._schedule()
            self.show_vote()
        else:
            self.vote_turn = None
            self.close_button.layout.display = "none"
            self.vote_status.value = ""
        self.show_voters()

    def show_vote(self) -> None:
        """The count-down and how many voted."""
        if self.vote_turn is None:
            return
        tally = self.room.tally()
        team = self.room.voters().get(tally.seat, 0)
        now = (f"{self.room.players[tally.seat]}: vote now for your half's move" if has_halves(self.room)
               else "Vote now for the class's move")
        self.vote_status.value = escape(f"{now}: {self.left} s left \u00b7 {votes_words(tally.voters, team)}")

    def tick(self) -> None:
        """One second of the vote has passed; at zero the vote closes."""
        if self.vote_turn is None:
            return
        self.left -= 1
        if self.left <= 0:
            self.close_vote()
        else:
            self.show_vote()

    def _schedule(self) -> None:
        turn = self.vote_turn
        self._every_second(self.tick, lambda: self.vote_turn == turn)

    def _every_second(self, work, while_) -> None:
        """Run ``work`` each second while ``while_()`` holds (nothing when the page does not follow:
        tests call the work themselves)."""
        if self.follow:
            every_second(work, while_, f"class table {self.room.code}")

    def close_vote(self) -> None:
        """Close the vote now: the move is played, and how the class voted shows."""
        if self.room is None or self.vote_turn is None:
            return
        closed = []
        turn = self.vote_turn
        self.vote_turn = None
        if not self._act(lambda: closed.append(self.room.close_vote(by=self.session.user, turn=turn))):
            self.vote_turn = turn  # nothing was played: the vote goes on
            return
        self.close_button.layout.display = "none"
        self.results.value = closed_html(self.room, closed[0], self.views)
        self.board.follower.step()
        self.board.redraw()


class PlayTogether(w.VBox):
    """A learner's page at the class table (see the module). ``follow=False``: tests poll."""

    def __init__(self, session: "PageSession | None" = None, *, follow: bool = True) -> None:
        super().__init__()
        self.add_class("golf-together")
        self.session = page_session() if session is None else session
        self.follow = follow
        self.board = None
        self.message = hooked_html("golf-together-message")
        self.message.add_class("golf-live")
        if self.session.store is None or self.session.user is None:
            self.children = (hooked_html("golf-together-guest", "<p>Sign in to vote with your class.</p>"),)
            return
        self.code = name_control(w.Text(placeholder="the code on the projector, e.g. KQZT",
                                        layout=w.Layout(width="220px")), "class table code")
        self.code.add_class("golf-together-code")
        self.join_button = hooked_button("Join the class table", "golf-together-join", "primary")
        self.join_button.on_click(lambda _b: self.join(self.code.value))
        self.board_slot = w.VBox()
        self.open_tables = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.joining = w.VBox([self.open_tables, w.HBox([self.code, self.join_button])])
        self.children = (w.HTML(VOTE_CSS), self.joining, self.message, self.board_slot)
        self.show_open_tables()

    def show_open_tables(self) -> None:
        """A button for each open class table of the learner's classes: joining needs no code."""
        self.open_tables.children = offered_rooms(self.session, "class_tables",
                                                  lambda t: f"Join your class's table {t.code}", "golf-together-open",
                                                  self.join)

    def join(self, code: str) -> bool:
        """Join the class table of ``code`` (True), or say why not."""
        store, user = self.session.store, self.session.user
        joined = []

        def work():
            room = store.room(code.strip().upper())
            joined.append((room, room.join_team(by=user)))

        if not self.session.attempt(work, lambda text: setattr(self.message, "value", escape(text)),
                                    "You could not join", "Try again."):
            return False
        room, seat = joined[0]
        self.room, self.seat = room, seat
        self.joining.layout.display = "none"  # joined: the table is all the page needs now
        turn = (f"You are in {room.players[seat]}: when it is {room.players[seat]}'s turn" if has_halves(room)
                else "When it is the class's turn")
        self.message.value = escape(f"You joined the class table {room.code}. {turn}, click the card or pile you "
                                    "would play: that is your vote.")
        self.lobby = RoomFollower(room, self._lobby_changed, user=user)
        self._lobby_changed()
        if self.follow and self.board is None:
            self.lobby.start()
        return True

    def poll(self) -> None:
        """One look at the room while waiting for the deal (what ``follow`` does by itself)."""
        if self.board is None and self.lobby.step():
            self._lobby_changed()

    def _lobby_changed(self) -> None:
        if self.board is not None:
            return
        if self.room.state == "lobby":
            self.board_slot.children = (hooked_html("golf-together-waiting", WAITING),)
            return
        self.lobby.stop()
        self.board = TeamBoard(self.room, self.seat, self.session.user, follow=self.follow)
        self.board_slot.children = (self.board,)


def ClassTableApp(session: "PageSession | None" = None) -> w.VBox:  # noqa: N802 (a widget, as a class is)
    """The class table as the signed-in user needs it: a teacher's projector page, else a learner's."""
    session = page_session() if session is None else session
    user = session.user
    return ClassTable(session) if user is not None and user.teaches else PlayTogether(session)
