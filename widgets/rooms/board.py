"""A room's table as one player's page sees it, and as the teacher watches it.

* ``GolfRoomBoard``: the golf board (``widgets.table_board.Board``, with its hooks) drawn from
  this page's seat only (``view_seat``; ``layout``: a class table's projector with two halves shows
  only what the whole table sees, Half A at the bottom); its clicks go to ``room.apply`` for that
  seat. Below it, the link that opens the moment on the analysis board (``golf-position-link``,
  ``widgets.position_links``), as this seat sees it.
* ``CodepieceRoomBoard``: the same for a Codepiece room (``widgets.codepiece_view``'s
  rendering and the Codepiece table's hooks).
* ``RoomWatch``: the teacher's view of any room, every card shown, without a seat.

Each follows the room's log with a ``RoomFollower`` (``widgets.room_follow``). What a page
receives is drawn from its seat's observation only: never another seat's face-down cards, a
card another seat drew, the draw pile or the room's seed (which would give them all).
"""

from __future__ import annotations

import functools
import logging
from html import escape
from typing import Callable

import ipywidgets as w

from golflab import Action, Game, IllegalActionError, Phase, Rules
from golflab import words as plain
from golflab.ai import CPU_NAMES, get_profile
from golflab.classroom import StoreUnavailable
from golflab.classroom.room_games import NEXT  # the room log's "deal the next hole (or deal)"
from golflab.display import card_html

from ..coach.replay import board_html
from ..codepiece import view as cp_view
from ..codepiece import words as cp_words
from ..position_links import LINK_CLASS, link_html
from ..table import view, words
from ..table.board import Board, set_classes
from ..table.display_size import LARGE_CSS, resolve_large, set_large, size_toggle
from .follow import RoomFollower

log = logging.getLogger(__name__)

OWN_PAGE = "plays from their own page"
ROOM_CSS = """<style>
.golf-room-log{max-width:1100px}
.golf-room-watching{background:#e3f2fd;border-left:6px solid #1565c0;border-radius:6px;padding:6px 12px;
 font-size:15px;color:#0d3c61;margin:4px 0}
.golf-watch-seat .gl-card.golf-down{opacity:.55;outline:2px dashed #fff}
</style>"""
#: What the teacher's view says the player to move is about to do (``Game.awaiting``).
AWAITING_WORDS = {"initial_flip": "turning cards face up", "draw": "drawing or taking the discard",
                  "place": "placing the card in hand", "flip": "flipping a face-down card"}
#: A finished game's keeper: ``grader(game, seat, keep)`` calls ``keep(accuracy, blunders)`` (learn.ipynb).
Grader = Callable[[Game, int, Callable[..., None]], None]


def watching_words() -> str:
    return ("This seat is open in a newer tab or window of yours, so this page only watches. Play there, "
            "or reload this page to play here; if you close the other one, this page takes over within a few seconds.")


def _story(room, viewer: int) -> tuple[Game, words.Chronicle]:
    """A fresh replay of ``room``'s golf game told from ``viewer`` (its first log line without the seed)."""
    game = Game(list(room.players), Rules.from_dict(room.rules), room.seed)
    return game, words.Chronicle(game, f"Room {room.code}: {', '.join(game.players)}. Rules: {game.rules.describe()}.")


def _catch_up(room, game: Game, story: words.Chronicle, seen: int, viewer: Callable[[Game], int]) -> int:
    """Replay ``room.log[seen:]`` on ``game``, each move told from the seat ``viewer(game)`` gives
    before it; the number of log entries replayed in all."""
    for _seat, action, _cpu in room.log[seen:]:
        if action == NEXT:
            story.next_hole(game, viewer(game))
        else:
            story.play(game, Action.parse(action), viewer(game))
    return len(room.log)


def golf_turn_words(room, game: Game, seat: int) -> str:
    """The status line at a golf room's table, from ``seat``: whose turn (a CPU's, or an away
    player's played by a CPU), what to do now, or how the hole or the game ended."""
    if game.phase is Phase.GAME_OVER:
        return words.game_over_words(game)
    if game.phase is Phase.ROUND_OVER:
        return words.hole_over_words(game) + " Read the scores, then anyone at the table may press Next hole."
    obs = game.observation(seat)
    if obs.current_player == seat:
        return words.prompt(obs)
    mover = obs.current_player
    if room.seats[mover].team:
        return team_waiting_words(obs)
    person = room.seats[mover].cpu is None and not room.away(mover)
    return words.waiting(obs, _seat_style(room, mover), person=person) + _away_note(room, mover)


def team_waiting_words(obs) -> str:
    """The status while a class table's team seat (a half of the class) decides its move."""
    name = obs.players[obs.current_player]
    last = f" (a last turn after {obs.players[obs.finisher]} went out)" if obs.phase is Phase.FINAL_TURN else ""
    return f"{name} is choosing its move{last}: its learners vote on their own pages…"


def _seat_style(room, seat: int) -> str:
    cpu = room.seats[seat].cpu
    if cpu is None:
        return ""
    return f"CPU, {get_profile(cpu).style}" if cpu in CPU_NAMES else "CPU"


def codepiece_log_line(names: list, seat: "int | None", action: str) -> str:
    """One entry of a Codepiece room's log told as a sentence ("Left bids 9."), as the Codepiece
    table tells it; ``seat`` None: the dealer."""
    if action == NEXT:
        return "Next deal dealt."
    return f"{cp_words.move_words('Dealer' if seat is None else names[seat], action)}."


def _away_note(room, seat: int) -> str:
    if room.away(seat):
        name = room.players[seat]
        return f" {name} is away, so a CPU plays for {name} until they come back."
    return ""


class SeatBoard:
    """What the golf and Codepiece room boards share: the seat's controls and the move's way into the
    room's log. A board sets ``room``, ``seat``, ``user``, ``on_over``, ``follower`` and ``_status``, and has
    ``redraw()`` and ``_refuse(text)``."""

    @property
    def status_text(self) -> str:
        return self._status

    @property
    def holds_seat(self) -> bool:
        """This page holds its seat's controls (False: another tab of the same learner does)."""
        return self.follower.holds

    def _follow(self, room, seat: int, user, *, tab: "str | None", follow: bool, large: "bool | None") -> None:
        """The board's last step of construction: its size, then claim the seat, draw, and follow the log."""
        set_large(self, resolve_large(large))
        self.follower = RoomFollower(room, self.redraw, seat=seat, user=user, tab=tab)
        self.follower.claim_now()
        self.redraw()
        if follow:
            self.follower.start()

    def _tell_over(self) -> None:
        """Call ``on_over`` once, the first time the game or match shows over (the rooms panel gives
        the page's own table back)."""
        if self.on_over is not None:
            told, self.on_over = self.on_over, None
            told()

    def _refusal_before_checks(self) -> "str | None":
        """Why no move can be played from this page now (None: the board's own checks come next)."""
        self.follower.step(heartbeat=True)  # a newer page of the learner may hold the seat since the last one
        if not self.follower.holds:
            return watching_words()
        if self.room.state != "playing":
            return f"Room {self.room.code} is {self.room.state}: no move can be played."
        return None

    def _append(self, action: str) -> bool:
        """Append a move the board's checks passed, then show the room; False (said) if the room refused."""
        try:
            self.room.apply(self.seat, action, by=self.user)
        except (IllegalActionError, PermissionError, ValueError, StoreUnavailable) as exc:
            self.follower.step()
            self.redraw()
            return self._refuse(f"That move was not played: {exc}.")
        self.follower.step()
        self.redraw()
        return True


class GolfRoomBoard(SeatBoard, w.VBox):
    """The golf table of ``room`` from ``seat`` (held by ``user``); follows the room's log.

    ``follow=False`` leaves the polling to the caller (``board.follower.step()`` then
    ``board.redraw()``: tests). ``grader``: grades the finished game before it is kept. ``hold``:
    where a game the store could not keep is held to be kept later (``PageSession.hold``). ``on_over``:
    called once when the game is over (the rooms panel gives the page's own table back)."""

    #: What the board says under another person's seat (a CPU's: its style).
    person_style = OWN_PAGE

    def __init__(self, room, seat: int, user, *, tab: "str | None" = None, grader: "Grader | None" = None,
                 follow: bool = True, large: "bool | None" = None, hold: "Callable | None" = None,
                 on_over: "Callable[[], None] | None" = None) -> None:
        self.room, self.seat, self.user, self.grader, self.hold = room, seat, user, grader, hold
        self.on_over = on_over
        self.board = b = Board()
        b.toolbar.layout.display = "none"  # no New game, CPU speed, save or settings in a room
        b.more.layout.display = "none"
        b.person_style = self.person_style  # people here play from their own page
        b.shows_log = False  # the log in ``more`` is hidden: the room's own is below, kept in step once
        self.log_box = w.HTML()
        self.log_box.add_class("golf-room-log")
        self.note = w.HTML()
        self.link = w.HTML()
        self.link.add_class(LINK_CLASS)
        self.kept = None
        self._keeping = False
        self.game, self.story = _story(room, seat)
        self._seen = 0
        self._status = ""
        self._last_moves = words.LastMoves()  # what the status line names (``redraw``)
        self._opened = False  # drawn once: the moves caught up on at the page's opening are behind it
        for pos, slot in enumerate(b.slots):
            slot.on_click(functools.partial(self._on_slot, pos))
        for button, action, target in ((b.deck_button, "draw", "deck"), (b.discard_button, "take", "discard_pile"),
                                       (b.discard_action, "discard", "discard"), (b.skip_action, "skip", "skip"),
                                       (b.knock_action, "knock", "knock"), (b.next_round_button, NEXT, "next")):
            button.on_click(functools.partial(self._on_button, action, target))
        children = list(b.children)
        children.insert(children.index(b.status) + 1, self.note)
        super().__init__([w.HTML(ROOM_CSS), *children, self.link,
                          w.HTML("<b>Moves at this table (newest first)</b>"), self.log_box])
        self.add_class("golf-table")
        self.add_class("golf-room-board")
        self._follow(room, seat, user, tab=tab, follow=follow, large=large)

    # ------------------------------------------------------------------ public
    def act(self, action: str, target: str = "", pos: "int | None" = None) -> bool:
        """Play ``action`` for this page's seat, as a click would; False (and the status says why) when
        it is refused, with nothing appended."""
        refused = self._refusal_before_checks()
        if self._sync():  # moves came since the board was drawn: show them before any refusal
            self.redraw()
        if refused:
            return self._refuse(refused)
        if action != NEXT:
            obs = self.game.observation(self.seat)
            if obs.current_player != self.seat or self.game.phase not in words.ACTIVE_PHASES \
                    or action not in {str(a) for a in obs.legal_actions}:
                return self._refuse(words.refusal(obs, target, pos))
        elif self.game.phase is not Phase.ROUND_OVER:
            return self._refuse("There is no finished hole to leave: " + golf_turn_words(
                self.room, self.game, self.view_seat(self.game)))
        return self._append(action)

    def redraw(self) -> None:
        """Show the room as it is now (after ``follower.step()``)."""
        self._sync()
        self._last_moves.drawn()  # a person's move and the CPU players' after it come at once
        self._opened = True
        b, seen = self.board, self.view_seat(self.game)
        bottom, public = self.layout(self.game)
        b.draw(self.game, bottom, self.story.log_lines, self.story.moves, self.story.notation, public=public)
        b.next_round_button.layout.display = (None if self.game.phase is Phase.ROUND_OVER and self.follower.holds
                                              else "none")
        self.log_box.value = view.log_html(self.story.log_lines, self.story.notation)
        self.link.value = link_html(self.game.observation(seen))  # the page's view: no hidden card
        self.note.value = "".join(f'<div class="golf-room-watching">{escape(note)}</div>' for note in self._notes())
        self._set_status(golf_turn_words(self.room, self.game, seen))
        if self.room.state == "over":
            self._keep()

    def stop(self) -> None:
        self.follower.stop()

    def view_seat(self, game: Game) -> int:
        """The seat whose view of ``game`` this page shows and tells: its own."""
        return self.seat

    def layout(self, game: Game) -> "tuple[int, bool]":
        """The seat drawn at the bottom of the board, and whether it is drawn with only what the whole
        table sees (``Board.draw``'s ``public``): this page's view seat, as it sees it."""
        return self.view_seat(game), False

    # ---------------------------------------------------------------- internal
    def _notes(self) -> "list[str]":
        """What the page says under the status: another tab holds the seat, a store problem."""
        return [*([] if self.follower.holds else [watching_words()]), *filter(None, [self.follower.problem])]

    def _sync(self) -> int:
        """Replay the moves the room read since; note them for the status line (a page that opens
        names only the last of the moves it catches up on). Returns how many moves came."""
        before = len(self.story.moves)
        self._seen = _catch_up(self.room, self.game, self.story, self._seen, self.view_seat)
        new = [m.text + "." for m in self.story.moves[before:]]
        self._last_moves.played(new if self._opened else new[-1:])
        return len(new)

    def _set_status(self, text: str, extra: str = "") -> None:
        self._status = text
        awaiting = words.awaiting(self.game, self.view_seat(self.game))
        if self.game.phase is Phase.GAME_OVER:
            awaiting = "game-over"
        self.board.show_status(text, awaiting, self._last_moves.said, extra)
        if awaiting == "game-over":
            self._tell_over()

    def _refuse(self, text: str) -> bool:
        self._set_status(text, "golf-refused")
        return False

    def _keep(self) -> None:
        """Keep the finished game in the learner's games, once (graded first when a grader is set)."""
        if self.kept is not None or self._keeping:
            return
        self._keeping = True

        def keep(accuracy: "float | None" = None, blunders: "int | None" = None) -> None:
            try:
                self.kept = self.room.keep(by=self.user, accuracy=accuracy, blunders=blunders)
                said = "This game is kept in your games (My games)." if self.kept is not None else ""
            except StoreUnavailable as exc:  # held on the page, kept with the learner's next progress
                self._keeping = False  # a later redraw tries again
                if self.hold is not None:
                    self.hold("record_game", self.room.game(), self.seat, accuracy=accuracy, blunders=blunders,
                              room=self.room.code)
                said = (f"This game could not be kept just now ({exc}). This page holds it and keeps it "
                        "as soon as the store answers again.")
            if said:
                self.note.value += f'<div class="golf-save-note golf-room-kept">{escape(said)}</div>'

        if self.grader is None:
            keep()
        else:
            self.grader(self.game, self.seat, keep)

    def _on_slot(self, pos: int, _button=None) -> None:
        kind = "swap" if self.game.awaiting == "place" else "flip"
        self._guarded(f"{kind} {pos}", "slot", pos)

    def _on_button(self, action: str, target: str, _button=None) -> None:
        self._guarded(action, target)

    def _guarded(self, action: str, target: str, pos: "int | None" = None) -> None:
        try:
            self.act(action, target, pos)
        except Exception as exc:  # a click must never leave the page without a word
            log.exception("room move failed")
            self._set_status(f"Sorry, something went wrong ({exc}). Try again.", "golf-error")


# --------------------------------------------------------------------- Codepiece
class CodepieceRoomBoard(SeatBoard, w.VBox):
    """A Codepiece room from ``seat``: the Codepiece table's hooks (``cp-card-XX``, ``cp-bid-N``,
    ``cp-pass``, ``cp-trump-S``, ``cp-status``, ``cp-next-deal``), drawn from this seat's state.
    ``on_over``: called once when the match is over (as ``GolfRoomBoard``'s)."""

    def __init__(self, room, seat: int, user, *, tab: "str | None" = None, follow: bool = True,
                 large: "bool | None" = None, on_over: "Callable[[], None] | None" = None) -> None:
        from ..codepiece.board import ALL_CARDS, BIDS

        self.room, self.seat, self.user, self.on_over = room, seat, user, on_over
        self.names = ["You" if s == seat else (n or "an empty seat") for s, n in enumerate(room.players)]
        self.info, self.felt, self.status, self.note, self.summary = (w.HTML() for _ in range(5))
        self.status.add_class("cp-status")
        self._status = ""
        self.cards = {}
        for code in ALL_CARDS:
            button = w.Button(description=cp_words.card_label(code), tooltip=cp_words.card_words(code),
                              layout=w.Layout(width="52px", height="64px"))
            button.on_click(functools.partial(self._on_action, code))
            self.cards[code] = button
        self.hand = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.hand.add_class("cp-hand")
        self.pass_button = self._button("Pass", "cp-pass", "pass")
        self.bid_buttons = {b: self._button(f"Bid {b}", f"cp-bid-{b}", f"bid_{b}", button_style="info") for b in BIDS}
        self.trump_buttons = {s: self._button(f"{cp_words.SUIT_SYMBOLS[s]} {cp_words.SUIT_NAMES[s]}", f"cp-trump-{s}",
                                              f"trump_{s}", button_style="warning") for s in "SHDC"}
        self.next_deal_button = self._button("Next deal", "cp-next-deal", NEXT, icon="forward", button_style="success")
        self.bid_row = w.HBox([w.HTML("<b>Your bid:</b>&nbsp;"), self.pass_button, *self.bid_buttons.values()])
        self.trump_row = w.HBox([w.HTML("<b>Trump:</b>&nbsp;"), *self.trump_buttons.values()])
        self.log_box = w.HTML()
        self.log_lines: list[str] = []
        self._seen = 0
        super().__init__([w.HTML(cp_view.CSS + ROOM_CSS + LARGE_CSS),
                          w.HBox([self.felt, self.info], layout=w.Layout(align_items="flex-start", grid_gap="16px")),
                          self.status, self.note, self.bid_row, self.trump_row, self.hand, self.summary,
                          w.HBox([self.next_deal_button]), w.HTML("<b>Moves (newest first)</b>"), self.log_box])
        self.add_class("cp-table")
        self.add_class("golf-room-board")
        self._follow(room, seat, user, tab=tab, follow=follow, large=large)

    def _button(self, description: str, hook: str, action: str, **kwargs) -> w.Button:
        button = w.Button(description=description, layout=w.Layout(width="auto"), **kwargs)
        button.add_class(hook)
        button.on_click(functools.partial(self._on_action, action))
        return button

    def state(self) -> dict:
        return self.room.observation(self.seat)

    def act(self, action: str) -> bool:
        """Play ``action`` for this page's seat; False (the status says why) when refused."""
        refused = self._refusal_before_checks()
        if len(self.room.log) > self._seen:  # moves came since the board was drawn: show them before any refusal
            self.redraw()
        if refused:
            return self._refuse(refused)
        state = self.state()
        if action == NEXT:
            if NEXT not in self.room.table.legal():
                return self._refuse("The deal is still being played: " + cp_words.situation(state, self.names)[0])
        elif action not in state["legal_actions"]:
            return self._refuse(cp_words.refusal(state, action, self.names))
        return self._append(action)

    def redraw(self) -> None:
        self.log_lines += [codepiece_log_line(self.names, seat, action)
                           for seat, action, _cpu in self.room.log[self._seen:]]
        self._seen = len(self.room.log)
        self.log_box.value = view.log_html(self.log_lines)
        if self.room.table is None:
            return
        m = self.room.game()
        state = self.state()
        done = state["completed_tricks"]
        self.info.value = cp_view.info_html(state, self.names, m.deal_number, m.deals, m.scores)
        self.felt.value = cp_view.trick_html(state, self.names, tuple(done[-1]) if done else None)
        legal = set(state["legal_actions"]) if self.follower.holds else set()
        self.hand.children = [self.cards[c] for c in state["hand"]]
        choosing_card = state["phase"] == "play" and bool(legal)
        for code in state["hand"]:
            button = self.cards[code]
            button.disabled = code not in legal
            mark = ("cp-legal" if code in legal else "cp-dim") if choosing_card else ""
            set_classes(button, ("cp-card", f"cp-card-{code}", "cp-red" if code[1] in "HD" else "cp-black"), (mark,))
        self.bid_row.layout.display = None if state["phase"] == "bidding" else "none"
        self.pass_button.disabled = "pass" not in legal
        for b, button in self.bid_buttons.items():
            button.disabled = f"bid_{b}" not in legal
        mine = state["current_player"] == self.seat
        self.trump_row.layout.display = None if state["phase"] == "trump" and mine else "none"
        for s, button in self.trump_buttons.items():
            button.disabled = f"trump_{s}" not in legal
        self.summary.value = cp_view.summary_html(state, self.names, m.results, m.scores, m.over) if m.deal_over else ""
        self.next_deal_button.layout.display = None if m.deal_over and not m.over and self.follower.holds else "none"
        self.note.value = (f'<div class="golf-room-watching">{escape(watching_words())}</div>'
                           if not self.follower.holds else "")
        text, awaiting = cp_words.situation(state, self.names)
        if awaiting == "cpu":
            mover = state["current_player"]
            text += _away_note(self.room, mover) if self.room.seats[mover].cpu is None else " (a CPU player)"
        if m.over:
            text, awaiting = f"{text} The match is over.", "match-over"
        elif m.deal_over:
            text = f"{text} Anyone at the table may press Next deal ({m.deal_number + 1} of {m.deals})."
        self._set_status(text, awaiting)

    def stop(self) -> None:
        self.follower.stop()

    def _set_status(self, text: str, awaiting: str, extra: str = "") -> None:
        self._status, self._awaiting = text, awaiting
        with self.status.hold_sync():
            self.status.value = escape(text)
            set_classes(self.status, ("cp-status", "golf-live", f"cp-await-{awaiting}"), (extra,))
        if awaiting == "match-over":
            self._tell_over()

    def _refuse(self, text: str) -> bool:
        self._set_status(text, getattr(self, "_awaiting", "cpu"), "cp-refused")
        return False

    def _on_action(self, action: str, _button=None) -> None:
        try:
            self.act(action)
        except Exception as exc:
            log.exception("room move failed")
            self._set_status(f"Sorry, something went wrong ({exc}). Try again.", "cpu", "cp-error")


# --------------------------------------------------------------------- teacher
class RoomWatch(w.VBox):
    """The teacher's view of ``room``: every seat's cards face up (face-down ones dimmed and dashed),
    whose turn it is, the scores and the moves; large for a projector by default. No seat, no controls."""

    def __init__(self, room, *, follow: bool = True, large: "bool | None" = True) -> None:
        self.room = room
        self.title, self.status, self.table, self.scores, self.log_box = (w.HTML() for _ in range(5))
        self.status.add_class("golf-status")
        self.scores.add_class("golf-scores")
        self.log_box.add_class("golf-room-log")
        self.game = self.story = None
        self._seen = 0
        self.cp_lines: list[str] = []
        super().__init__([w.HTML(view.TABLE_CSS + cp_view.CSS + ROOM_CSS + LARGE_CSS), self.title, self.status,
                          self.table, self.scores, w.HTML("<b>Moves (newest first)</b>"), self.log_box])
        self.add_class("golf-table")
        self.add_class("golf-room-watch-view")
        set_large(self, resolve_large(large))
        self.size = size_toggle(self)
        self.children = (self.children[0], w.HBox([self.size]), *self.children[1:])
        self.follower = RoomFollower(room, self.redraw)
        self.follower.step()
        self.redraw()
        if follow:
            self.follower.start()

    def stop(self) -> None:
        self.follower.stop()

    def redraw(self) -> None:
        r = self.room
        seats = ", ".join(f"{s.name or 'empty'}" + (" (CPU)" if s.cpu else "") for s in r.seats)
        self.title.value = (f"<h3 style='margin:4px 0'>Room {escape(r.code)} \u00b7 {escape(r.kind)} \u00b7 "
                            f"{escape(r.state)}</h3><div>Seats: {escape(seats)}</div>")
        if r.table is None:
            self.status.value = "Waiting in the lobby for the host to start."
            return
        if r.kind == "golf":
            self._draw_golf()
        elif r.is_study:
            self._draw_study()
        else:
            self._draw_codepiece()

    def _draw_study(self) -> None:
        """A study: the page its teacher shows now, as the class sees it."""
        page = self.room.table.view(0)
        self.table.value = board_html(page.position.game(0), page.position.seat) + f"<p>{escape(page.note)}</p>"
        self.scores.value = self.log_box.value = ""
        self.status.value = escape(f"A study, {page.title}: page {page.number} of {page.count}"
                                   + (" (ended)." if page.ended else "."))  # last: what a watcher waits on

    def _draw_golf(self) -> None:
        r = self.room
        if self.game is None:
            self.game, self.story = _story(r, 0)
        self._seen = _catch_up(r, self.game, self.story, self._seen, lambda _game: 0)
        g = self.game
        live = g.phase in words.ACTIVE_PHASES
        seats = []
        for s, name in enumerate(g.players):
            up = g.face_up(s)
            grid = "".join(card_html(c, True, "" if up[i] else "golf-down") for i, c in enumerate(g.grid(s)))
            holding = ""
            if live and s == g.current_player and g.held is not None:
                holding = (f"holds the {plain.card_name(g.held, suit=True)} "
                           f"({'from the deck' if g.held_source == 'draw' else 'taken'})")
            away = " \u00b7 away (a CPU plays)" if r.away(s) else ""
            cls = "golf-opp golf-watch-seat" + (" golf-active" if live and s == g.current_player else "")
            seats.append(f'<div class="{cls}"><div class="gl-name">{escape(name)} \u00b7 total {g.totals[s]}'
                         f"{escape(away)}</div><div class='gl-grid'>{grid}</div>"
                         f'<div class="golf-holding">{escape(holding)}</div></div>')
        top = g.discard_pile[-1] if g.discard_pile else None
        piles = (f'<div class="golf-opp"><div class="gl-name">Discard pile</div>{card_html(top, top is not None)}'
                 f'<div class="golf-pile-label">deck: {g.draw_pile_size} cards</div></div>')
        self.table.value = (view.rules_bar_html(g.rules, g.round) +
                            f'<div class="golf-felt"><div class="golf-opponents">{"".join(seats)}{piles}</div></div>')
        self.scores.value = view.scores_html(g.players, g.round_results, g.totals, g.rules.rounds)
        self.log_box.value = view.log_html(self.story.log_lines, self.story.notation)
        if g.phase is Phase.GAME_OVER or g.phase is Phase.ROUND_OVER:  # the status last: what a watcher waits on
            self.status.value = escape(golf_turn_words(r, g, 0))
        else:
            mover = g.players[g.current_player]
            doing = AWAITING_WORDS[g.awaiting]
            self.status.value = escape(f"{mover}'s turn: {doing}." + _away_note(r, g.current_player))

    def _draw_codepiece(self) -> None:
        r = self.room
        m = r.game()
        names = [n or "?" for n in r.players]
        self.cp_lines += [codepiece_log_line(names, seat, action) for seat, action, _cpu in r.log[self._seen:]]
        self._seen = len(r.log)
        state = r.observation(0)
        done = state["completed_tricks"]
        hands = "".join(f"<div><b>{escape(names[s])}</b> (team {s % 2 + 1}): "
                        + " ".join(escape(cp_words.card_label(c)) for c in r.observation(s)["hand"]) + "</div>"
                        for s in range(4))
        self.table.value = (cp_view.trick_html(state, names, tuple(done[-1]) if done else None)
                            + f'<div class="cp-info">{hands}</div>'
                            + cp_view.info_html(state, names, m.deal_number, m.deals, m.scores))
        mover = state["current_player"]
        self.scores.value = ""
        self.log_box.value = view.log_html(self.cp_lines)
        self.status.value = escape("The match is over." if m.over else "The deal is over." if m.deal_over
                                   else f"{names[mover]} to play." + _away_note(r, mover))  # last, as above
