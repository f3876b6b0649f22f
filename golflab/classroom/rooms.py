"""Rooms: a table that learners join with a short code, each from their own page, kept as an
append-only log of actions in the class store (``(room, seq)`` unique).

Every action is checked against the game replayed from the log before it is appended; when
another page appended first, the append is re-read and retried, so the log never holds a move
twice or a move that was not legal. CPU seats (and seats whose player is away longer than
``GOLFLAB_TURN_TIMEOUT`` seconds) are played from the room's seed: any page may append their
move, and the unique ``seq`` keeps exactly one. Rooms idle for ``ROOM_TIMEOUT_MINUTES`` close.

A CPU seat is named after its personality, marked "(CPU)" when a person at the table has that
name, so people and CPU seats never clash. A room whose rows cannot be read as a game (a move
that is not legal, unreadable rules or seed, a missing seat, a gap in the log) is closed when it
is read and raises ``RoomBroken``; a list of rooms shows it as a ``BrokenRoom`` and goes on.

A class table (``class_votes``) is a room whose team seats its class votes for.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, replace

from sqlalchemy import and_, func, insert, or_, select, update

from golflab.actions import IllegalActionError
from golflab.ai import PROFILES
from golflab.codepiece.match import derived_seed
from golflab.rules import Rules

from . import database, notify, permissions, ratings, schema, security, settings, throttle
from .class_votes import ClassTableRoom, team_names
from .errors import StoreConflict
from .records import Klass, User
from .room_games import CODEPIECE_DEALS, CODEPIECE_SEATS, GAMES, NEXT, new_room_game
from .rows import count_failure, rating_of, save_rating, throttle_row
from .study_room import StudyRoom

T = schema
MAX_PLAYERS_PER_ROOM = 6
ROOM_CODE_LENGTH = 4
ROOM_TIMEOUT_MINUTES = 60
DEFAULT_TURN_TIMEOUT = 60.0
#: A page that has not been heard from for this long no longer holds its seat's controls: an older
#: tab of the same learner, watching since a newer page took the seat, takes it back after this long.
TAB_STALE_SECONDS = 6.0
MAX_CPU_MOVES_PER_REFRESH = 2_000
MAX_SEED = 2**63 - 1
#: Who fills a seat nobody joined when the host starts.
FILL_CPUS = ("Marcus", "Sofia", "Maya", "Priya", "Kenji")
STATES = ("lobby", "playing", "over", "closed")
#: How a CPU seat named like a person at the table reads (no learner's name holds a space).
CPU_MARK = " (CPU)"


class RoomBroken(ValueError):
    """A room whose rows in the store cannot be read as a game; it has been closed."""


class OtherGame(ValueError):
    """A room joined from the app of another game: ``game`` is the one it plays (nothing changed)."""

    def __init__(self, code: str, game: str) -> None:
        super().__init__(f"room {code} plays {game}: join it from that game's app")
        self.game = game


@dataclass(frozen=True)
class BrokenRoom:
    """A room a list could not read: ``problem`` says why, in words (the room is closed)."""
    code: str
    problem: str
    state: str = "broken"
    kind: "str | None" = None
    players: tuple = ()


def cpu_seat_names(rows) -> "list[str | None]":
    """Each seat's name at the table (rows with ``user_id``, ``name`` and ``cpu``): a person's own
    name; a CPU's personality, with " (CPU)" when a person there has that name (in any case), and
    numbered if it still repeats; None while empty."""
    people = {r.name.casefold() for r in rows if r.user_id is not None and r.name}
    taken = set(people)
    names: "list[str | None]" = []
    for r in rows:
        if r.user_id is not None or r.cpu is None:
            names.append(r.name if r.user_id is not None else None)
            continue
        base = r.cpu + CPU_MARK if r.cpu.casefold() in people else r.cpu
        name, n = base, 2
        while name.casefold() in taken:
            name, n = f"{base} {n}", n + 1
        taken.add(name.casefold())
        names.append(name)
    return names


def fill_cpus(taken: "set[str]", count: int) -> "list[str]":
    """``count`` personalities for empty seats, none named like ``taken`` (casefolded names) while
    enough are left (``cpu_seat_names`` tells any repeat apart)."""
    order = list(dict.fromkeys((*FILL_CPUS, *PROFILES)))
    free = [n for n in order if n.casefold() not in taken]
    return (free + order * count)[:count]


def turn_timeout(environ=None) -> float:
    """``GOLFLAB_TURN_TIMEOUT``: seconds (5 to 3600) before an away player's turn is played by a CPU."""
    raw = settings.setting("GOLFLAB_TURN_TIMEOUT", environ=environ)
    if raw is None:
        return DEFAULT_TURN_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 5 <= value <= 3600:
        raise ValueError(f"GOLFLAB_TURN_TIMEOUT must be a number of seconds from 5 to 3600, got {raw[:40]!r}")
    return value


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: "int | None"
    name: "str | None"  # the user's name, the CPU's name, or None while empty
    cpu: "str | None"
    tab: "str | None"
    seen_at: "float | None"
    team: bool = False  # a class table's team seat: its class votes, its host plays the move

    @property
    def empty(self) -> bool:
        return self.user_id is None and self.cpu is None and not self.team


@permissions.guarded
class Room(ClassTableRoom, StudyRoom):
    """A room read from the store: ``refresh()`` follows the log that other pages append to. Who may
    start it, play a seat or keep its game: ``permissions.ROOM_TABLE``."""

    problem: "str | None" = None  # a room that reads is not broken (``BrokenRoom`` has words here)

    def __init__(self, store, code: str) -> None:
        self.store = store
        self.code = code
        self.log: list[tuple] = []  # (seat, action, by_cpu) in seq order
        self._game = None
        self._reload()

    # -- reading ------------------------------------------------------------------------

    def _reload(self) -> None:
        """Read the room and the moves appended since; RoomBroken (the room closed) if they are no game."""
        row, seats, new = self._read()
        if getattr(self, "created_at", row.created_at) != row.created_at:
            self.state = "closed"  # this room went quiet long ago and its code now names a new room
            return
        try:
            self._take(row, seats, new)
        except Exception as exc:  # whatever the rows hold, a broken room is said and closed, never raised raw
            self._break(exc)

    def _read(self) -> tuple:
        with database.reading(self.store.engine) as conn:
            row = conn.execute(select(T.rooms).where(T.rooms.c.code == self.code)).first()
            if row is None:
                raise ValueError(f"no room has the code {self.code}")
            seats = conn.execute(select(T.room_seats, T.users.c.name).outerjoin(
                T.users, T.users.c.id == T.room_seats.c.user_id).where(T.room_seats.c.room == self.code)
                .order_by(T.room_seats.c.seat)).all()
            new = conn.execute(select(T.room_log).where(and_(T.room_log.c.room == self.code,
                                                             T.room_log.c.seq >= len(self.log)))
                               .order_by(T.room_log.c.seq)).all()
        return row, seats, new

    def _take(self, row, seats, new) -> None:
        """Make the rows read by ``_read`` this room's state; _Damage (in words) when they are no game."""
        self.kind, self.host_id, self.class_id = row.game, row.host_id, row.class_id
        self.rules, self.n_seats = _stored("rules", row.rules, json.loads), row.seats
        self.seed = _stored("seed", row.seed, int)
        self.state, self.rated, self.last_activity = row.state, row.rated, row.last_activity
        self.created_at, self.vote_seconds = row.created_at, row.vote_seconds
        if [s.seat for s in seats] != list(range(self.n_seats)):
            missing = sorted(set(range(self.n_seats)) - {s.seat for s in seats})
            raise _Damage(f"its seat {missing[0]} is missing" if missing
                          else f"it has more than its {self.n_seats} seats")
        names = cpu_seat_names(seats)
        teams = [s.seat for s in seats if self.vote_seconds is not None and s.user_id is None and s.cpu is None]
        names = [dict(zip(teams, team_names(len(teams)))).get(s.seat, name) for s, name in zip(seats, names)]
        self.seats = [Seat(s.seat, s.user_id, name, s.cpu, s.tab, s.seen_at, s.seat in teams)
                      for s, name in zip(seats, names)]
        if self.state != "lobby" and self._game is None and None not in self.players:  # closed in the lobby: no game
            self._game = new_room_game(self.kind, self.players, self.rules, self.seed)
        for entry in new:
            if entry.seq != len(self.log):
                raise _Damage(f"its moves skip from {len(self.log)} to {entry.seq}")
            if self._game is None:
                raise _Damage("it holds moves but no game")
            try:
                self._game.apply(entry.action)
            except ValueError:
                raise _Damage(f"its move {entry.seq + 1}, {security.shown(entry.action)}, cannot be played") from None
            self.log.append((entry.seat, entry.action, entry.by_cpu))

    def _break(self, exc: Exception) -> None:
        """Close this room, whose rows are no game, and raise RoomBroken saying why."""
        why = str(exc) if isinstance(exc, _Damage) else f"its game cannot be set up ({security.shown(str(exc))})"
        self.store.transaction(_announcing(self.code, lambda conn: conn.execute(
            update(T.rooms).where(T.rooms.c.code == self.code).values(state="closed"))))
        self.state = "closed"
        raise RoomBroken(f"room {self.code} is broken ({why}), so it has closed: start a new room") from None

    @property
    def players(self) -> tuple:
        """Each seat's name (the user's or the CPU's; None while empty)."""
        return tuple(s.name for s in self.seats)

    @property
    def host(self) -> "str | None":
        """The host's name (None when the host holds no seat)."""
        return next((s.name for s in self.seats if s.user_id == self.host_id), None)

    def hosts(self, seat: "int | None") -> bool:
        """Whether the person at ``seat`` is the room's host (False for None, an empty or CPU seat)."""
        return seat is not None and 0 <= seat < len(self.seats) and self.seats[seat].user_id == self.host_id

    def seat_of(self, user: "User | None") -> "int | None":
        """The seat ``user`` holds here (None if none)."""
        if user is None:
            return None
        return next((s.seat for s in self.seats if s.user_id == user.id), None)

    def holds(self, user: User, seat: object) -> bool:
        """Whether ``user`` holds ``seat`` (a ValueError unless it is one of this room's seats). A seat
        this page saw empty is read again: another page of the user's may have joined it since (a seat
        once held stays its user's, so a held one is not). A class table's team seats are its host's."""
        self._check_seat(seat)
        if self.seats[seat].team:
            return user.id == self.host_id
        if self.seats[seat].user_id is None:
            self._reload()
        return self.seats[seat].user_id == user.id

    def game(self):
        """A copy of the whole game replayed from the log, every card shown (the teacher's view):
        playing on it changes the copy only."""
        if self._game is None:
            raise ValueError(f"room {self.code} has not started yet")
        if self.kind == "study":
            raise ValueError(f"room {self.code} is a study: it holds pages, not a game (study_page)")
        return self._game.game.copy() if self.kind == "golf" else copy.deepcopy(self._game.match)

    @property
    def table(self):
        """The room's game behind the common interface (``seat_to_move``, ``legal()``, ``view``)."""
        return self._game

    def observation(self, seat: int):
        """What ``seat`` may see (golf: ``Game.observation``; Codepiece: ``state(seat)``)."""
        if self._game is None:
            raise ValueError(f"room {self.code} has not started yet")
        return self._game.view(seat)

    def away(self, seat: int, now: "float | None" = None) -> bool:
        """Whether the player of ``seat`` has not been seen for longer than the turn timeout."""
        s = self.seats[seat]
        if s.cpu is not None or s.user_id is None:
            return False
        now = self.store.clock() if now is None else now
        return s.seen_at is None or now - s.seen_at > self.store.turn_timeout

    def __repr__(self) -> str:
        return f"Room({self.code!r}, {self.kind}, {self.state}, seats={list(self.players)}, moves={len(self.log)})"

    # -- acting -------------------------------------------------------------------------

    def refresh(self) -> int:
        """Read what other pages appended, play due CPU turns; the number of new moves."""
        before = len(self.log)
        self._reload()
        self._close_if_idle()
        if self.state == "playing":
            self._play_cpus()
            self._finish_if_over()
        return len(self.log) - before

    def start(self, *, by: User) -> "Room":
        """The host starts the room; empty seats get CPU players."""
        self._reload()
        if self.state != "lobby":
            raise ValueError(f"room {self.code} has already started")
        empty = [s.seat for s in self.seats if s.empty]
        taken = {n.casefold() for n in self.players if n} | {s.cpu.casefold() for s in self.seats if s.cpu}
        fill = dict(zip(empty, fill_cpus(taken, len(empty))))
        now = self.store.clock()

        def work(conn):
            done = conn.execute(update(T.rooms).where(and_(T.rooms.c.code == self.code, T.rooms.c.state == "lobby"))
                                .values(state="playing", last_activity=now))
            if done.rowcount != 1:
                raise ValueError(f"room {self.code} has already started")
            for seat, cpu in fill.items():
                conn.execute(update(T.room_seats).where(and_(T.room_seats.c.room == self.code,
                                                             T.room_seats.c.seat == seat)).values(cpu=cpu))

        self.store.transaction(_announcing(self.code, work))
        self.refresh()
        return self

    def apply(self, seat: int, action: str, *, by: User, at: "int | None" = None) -> "Room":
        """Play ``action`` for ``seat``; ``by`` must hold that seat. IllegalActionError when it is not
        legal now (nothing appended); PermissionError when the seat is not ``by``'s. ``at``: the move's
        place in the log (its seq), when it is meant for that one only: IllegalActionError once the log
        has moved past it (another page played it first)."""
        self._reload()
        if self.state != "playing":
            state = "waiting for its host to start" if self.state == "lobby" else self.state
            raise IllegalActionError(f"room {self.code} is {state}: {security.shown(action)} cannot be played")
        if at is not None and (isinstance(at, bool) or not isinstance(at, int) or at < 0):
            raise ValueError(f"at is the seq of the move meant (0 or more), got {security.shown(at)}")
        for _ in range(database.WRITE_ATTEMPTS):
            if at is not None and at != len(self.log):
                raise IllegalActionError(f"{security.shown(action)} was meant for move {at + 1} of room "
                                         f"{self.code}, which has {len(self.log)} moves now")
            legal = self._game.legal()
            to_move = self._game.seat_to_move
            if action == NEXT and NEXT in legal:
                pass  # any seated player deals the next hole
            elif to_move != seat:
                whose = "nobody's turn" if to_move is None else f"{self.players[to_move]}'s turn"
                raise IllegalActionError(f"{security.shown(action)} cannot be played now: it is {whose} "
                                         f"(legal: {', '.join(legal)})")
            elif action not in legal:
                raise IllegalActionError(f"{security.shown(action)} is not legal now (legal: {', '.join(legal)})")
            elif self.seats[seat].team and not self._voted_for(seat, action):
                raise IllegalActionError(f"{security.shown(action)} is {self.players[seat]}'s move at room "
                                         f"{self.code}: its class votes for it, and plays the closed vote's move")
            if self._append(seat if action != NEXT else None, action, by_cpu=False, tab_seat=seat):
                self._play_cpus()
                self._finish_if_over()
                return self
            self._reload()  # another page appended first: check again against the new state
        raise database.StoreUnavailable(f"room {self.code} is too busy to take a move just now: try again")

    def _check_seat(self, seat: object) -> None:
        """ValueError unless ``seat`` is one of this room's seats (saying which exist)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise ValueError(f"seat must be 0 to {self.n_seats - 1}, got {security.shown(seat)}")

    def _append(self, seat: "int | None", action: str, *, by_cpu: bool, tab_seat: "int | None" = None) -> bool:
        """Append at the next seq; False when another page took that seq first (nothing written)."""
        seq, now = len(self.log), self.store.clock()

        def work(conn):
            conn.execute(insert(T.room_log).values(room=self.code, seq=seq, seat=seat, action=action, by_cpu=by_cpu,
                                                   at=now))
            conn.execute(update(T.rooms).where(T.rooms.c.code == self.code).values(last_activity=now))

        try:
            self.store.transaction(_announcing(self.code, work))
        except StoreConflict:
            return False
        self._game.apply(action)
        self.log.append((seat, action, by_cpu))
        return True

    def _play_cpus(self) -> None:
        now = self.store.clock()
        for _ in range(MAX_CPU_MOVES_PER_REFRESH):
            seat = self._game.seat_to_move
            if seat is None:
                return
            s = self.seats[seat]
            if s.cpu is None and not (self._game.cpu_covers_away and self.away(seat, now)):
                return
            name = s.cpu or "Marcus"  # an away player's turns: a steady CPU plays them
            action = self._game.cpu_action(name, derived_seed(self.seed, seat, len(self.log)))
            if not self._append(seat, action, by_cpu=True):
                self._reload()

    def _finish_if_over(self) -> None:
        if self.state == "playing" and self._game.over:
            self.store.transaction(_announcing(self.code, lambda conn: conn.execute(update(T.rooms).where(and_(
                T.rooms.c.code == self.code, T.rooms.c.state == "playing")).values(state="over"))))
            self.state = "over"
            if self._game.rated and not self.is_class_table:  # a class's team has no table rating
                self._rate()

    def _close_if_idle(self) -> None:
        if self.state in ("lobby", "playing") and \
                self.store.clock() - self.last_activity > ROOM_TIMEOUT_MINUTES * 60:
            self.store.transaction(_announcing(self.code, lambda conn: conn.execute(
                update(T.rooms).where(T.rooms.c.code == self.code).values(state="closed"))))
            self.state = "closed"

    def subscribe(self, wake) -> "notify.Subscription | None":
        """Call ``wake(reason)`` (from another thread) when this room changes: its news on PostgreSQL
        (``notify.subscribe``); None on SQLite, whose rooms are polled."""
        return notify.subscribe(self.store.engine, self.code, wake)

    def claim(self, seat: int, tab: str, *, by: User, take: bool = False) -> bool:
        """Page ``tab`` says it is alive on ``seat`` (its heartbeat); True when it holds the seat's controls.

        The newest page holds them: a page that opens (a reload, a second tab) says ``take=True`` and
        holds them at once, without waiting for the page it replaces, whose kernel may live on. A
        heartbeat (``take=False``) holds them while no other page of the learner was heard from in the
        last ``TAB_STALE_SECONDS``; so an older tab watches, and plays again once the newer one closes."""
        now = self.store.clock()
        c = T.room_seats.c
        where = and_(c.room == self.code, c.seat == seat)
        if not take:  # one statement, its own check: no other page of the learner heard from lately
            where = and_(where, or_(c.tab.is_(None), c.tab == tab, c.seen_at.is_(None),
                                    c.seen_at < now - TAB_STALE_SECONDS))
        held = self.store.transaction(
            lambda conn: conn.execute(update(T.room_seats).where(where).values(tab=tab, seen_at=now)).rowcount == 1)
        if held:  # this page's seat as written; the rest of the room is read by ``refresh`` (a heartbeat
            # comes every few seconds per page, so it reads nothing more)
            self.seats = [replace(s, tab=tab, seen_at=now) if s.seat == seat else s for s in self.seats]
        return held

    def keep(self, *, by: User, accuracy: "float | None" = None, blunders: "int | None" = None):
        """Keep the finished golf game in ``by``'s games (once: a second call gives the same record)."""
        seat = self.seat_of(by)
        if seat is None or self.kind != "golf" or self.state != "over":
            return None
        return self.store.record_game(by, self._game.game, seat, accuracy=accuracy, blunders=blunders,
                                      room=self.code)

    def _rate(self) -> None:
        """Move every player's table rating (``ratings.rate_table``) once per room."""
        subjects = [ratings.table_subject(s.user_id, s.cpu) for s in self.seats]
        now, first = self.store.clock(), ratings.new_table_rating()

        def work(conn):
            done = conn.execute(update(T.rooms).where(and_(T.rooms.c.code == self.code, T.rooms.c.rated.is_(False)))
                                .values(rated=True))
            if done.rowcount != 1:
                return
            before = [rating_of(conn, subject, for_update=True, default=first) for subject in subjects]
            for subject, after in zip(subjects, ratings.rate_table(before, self._game.ranks())):
                save_rating(conn, subject, after, now)

        self.store.transaction(work)
        self.rated = True


class RoomsMixin:
    """The class store's rooms (mixed into ``Store``)."""

    @property
    def turn_timeout(self) -> float:
        return self._turn_timeout

    def create_room(self, host: User, rules: "Rules | dict | None" = None, *, seats: int = 4,
                    cpus: "list[str] | tuple" = (), game: str = "golf", seed: "int | None" = None) -> Room:
        """A room hosted by ``host`` (seat 0), with ``seats`` seats of which the last ``len(cpus)`` are
        those CPU players; a code of ``ROOM_CODE_LENGTH`` unambiguous letters."""
        actor = host
        if game not in GAMES:
            raise ValueError(f"a room plays one of {', '.join(GAMES)}, got {security.shown(game)}")
        rules_dict = room_rules(game, rules)
        if game == "codepiece" and seats != CODEPIECE_SEATS:
            raise ValueError(f"Codepiece is for {CODEPIECE_SEATS} seats, got {security.shown(seats)}")
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= MAX_PLAYERS_PER_ROOM:
            raise ValueError(f"a room has 2 to {MAX_PLAYERS_PER_ROOM} seats, got {security.shown(seats)}")
        cpus = list(cpus)
        if len(cpus) > seats - 1:
            raise ValueError(f"at most {seats - 1} of {seats} seats can be CPU players (the host takes one), "
                             f"got {len(cpus)}")
        for name in cpus:
            if game == "golf" and name not in PROFILES:
                raise ValueError(f"{security.shown(name)} is not a CPU player: choose from {', '.join(PROFILES)}")
            if game == "codepiece" and name != "CPU":
                raise ValueError(f"Codepiece rooms fill seats with \"CPU\" players, got {security.shown(name)}")
        seed = room_seed(seed)
        mine = self.classes(actor)
        class_id = mine[0].id if len(mine) == 1 and actor.role == "learner" else None
        seated = [actor.id] + [None] * (seats - 1 - len(cpus))
        now = self.clock()
        return Room(self, self.transaction(lambda conn: insert_room(
            conn, game=game, host_id=actor.id, class_id=class_id, rules=rules_dict, seed=seed, now=now,
            seats=[(user_id, None) for user_id in seated] + [(None, cpu) for cpu in cpus])))

    def room(self, code: str) -> Room:
        """The room with that code, read from the store (any process or kernel)."""
        code = security.check_code(code, ROOM_CODE_LENGTH, "room code")
        room = Room(self, code)
        room._close_if_idle()
        return room

    def join_room(self, code: str, user: User, *, game: "str | None" = None) -> int:
        """Seat ``user`` in the room (their seat again if they hold one); the seat.

        A room is open to its class (its members, its teacher and the admins); a room of no class,
        to those who share a class with its host. A code that opens no room for ``user`` counts as a
        wrong code: after ``throttle.FREE_FAILURES`` in a row they wait (``throttle.wait_after``)
        before trying another, their own rooms aside. ``game`` (the joining app's): a room of
        another game is refused as ``OtherGame``. Every refusal changes nothing but the count."""
        actor = user
        try:
            code = security.check_code(code, ROOM_CODE_LENGTH, "room code")
        except ValueError as exc:
            raise ValueError(f"{exc}: check the code with the host") from None
        refused = self.transaction(lambda conn: _try_code(conn, code, actor, self.clock()))
        if refused is not None:
            raise ValueError(refused)
        try:
            room = self.room(code)
        except RoomBroken:
            raise
        except ValueError as exc:  # gone since the code was tried
            raise ValueError(f"{exc}: check the code with the host") from None
        if room.kind == "study":
            raise ValueError(f"room {room.code} is a study: follow it from Follow me, nobody takes a seat")
        if game is not None and room.kind != game:
            raise OtherGame(room.code, room.kind)
        held = room.seat_of(actor)
        if held is not None:
            return held
        if room.is_class_table:
            raise ValueError(f"room {room.code} is a class table: its class votes for a team's moves "
                             "(join your team), nobody takes a seat")
        if room.state == "closed":
            raise ValueError(f"room {room.code} has closed (no move for {ROOM_TIMEOUT_MINUTES} minutes)")
        if room.state != "lobby":
            raise ValueError(f"room {room.code} has already started: ask its host for a new room")
        now = self.clock()

        def work(conn):
            free = conn.execute(select(T.room_seats.c.seat).where(and_(
                T.room_seats.c.room == room.code, T.room_seats.c.user_id.is_(None), T.room_seats.c.cpu.is_(None)))
                .order_by(T.room_seats.c.seat)).all()
            for (seat,) in free:
                done = conn.execute(update(T.room_seats).where(and_(
                    T.room_seats.c.room == room.code, T.room_seats.c.seat == seat, T.room_seats.c.user_id.is_(None)))
                    .values(user_id=actor.id, seen_at=now))
                if done.rowcount == 1:
                    conn.execute(update(T.rooms).where(T.rooms.c.code == room.code).values(last_activity=now))
                    return seat
            raise ValueError(f"room {room.code} is full ({room.n_seats} seats)")

        try:
            return self.transaction(_announcing(room.code, work))
        except StoreConflict:  # the same learner joining from two pages at once: the seat the other took
            held = self.room(code).seat_of(actor)
            if held is None:
                raise
            return held

    def open_room_of(self, user: User, game: "str | None" = None) -> "Room | None":
        """The room (in the lobby or playing, of ``game`` if given) where ``user`` holds a seat, the
        most recently active first: a reloaded page returns to it."""
        actor = user
        q = (select(T.rooms.c.code).join(T.room_seats, T.room_seats.c.room == T.rooms.c.code)
             .where(and_(T.room_seats.c.user_id == actor.id, T.rooms.c.state.in_(("lobby", "playing"))))
             .order_by(T.rooms.c.last_activity.desc()))
        if game is not None:
            q = q.where(T.rooms.c.game == game)
        with database.reading(self.engine) as conn:
            codes = [r.code for r in conn.execute(q.limit(5))]
        for code in codes:
            room = self.readable_room(code)
            if isinstance(room, Room) and room.state in ("lobby", "playing"):
                return room
        return None

    def rooms(self, klass: "Klass | None" = None, *, by: User) -> list[Room]:
        """Open rooms (not closed): of ``klass`` for its teacher, all for an admin; newest first."""
        q = select(T.rooms.c.code).where(T.rooms.c.state != "closed").order_by(T.rooms.c.created_at.desc())
        if klass is not None:
            members = select(T.members.c.user_id).where(T.members.c.class_id == klass.id)
            q = q.where((T.rooms.c.class_id == klass.id) | T.rooms.c.host_id.in_(members))
        with database.reading(self.engine) as conn:
            codes = [r.code for r in conn.execute(q)]
        return [r for r in (self.readable_room(c) for c in codes) if r is not None and r.state != "closed"]

    def readable_room(self, code: str) -> "Room | BrokenRoom | None":
        """Room ``code`` read on its own: a BrokenRoom (now closed) when its rows are no game, None when
        it has gone (its code used again), so that one room never breaks a list."""
        try:
            return self.room(code)
        except RoomBroken as exc:
            return BrokenRoom(code, str(exc))
        except ValueError:
            return None

    def table_rating(self, user: User) -> ratings.Rating:
        """``user``'s rating at the table (OpenSkill: ``rating`` is mu, ``rd`` sigma)."""
        with database.reading(self.engine) as conn:
            return rating_of(conn, ratings.table_subject(user.id), default=ratings.new_table_rating())


def open_class_rooms(store, klass: Klass, where) -> "list[Room]":
    """``klass``'s rooms still to play or playing that also meet ``where`` (a condition on the rooms
    table), newest first, each read on its own (a broken one left out: it has closed)."""
    r = T.rooms.c
    q = (select(r.code).where(and_(r.class_id == klass.id, where, r.state.in_(("lobby", "playing"))))
         .order_by(r.created_at.desc()))
    with database.reading(store.engine) as conn:
        codes = [row.code for row in conn.execute(q)]
    rooms = [store.readable_room(code) for code in codes]
    return [room for room in rooms if isinstance(room, Room) and room.state in ("lobby", "playing")]


def room_seed(seed: object) -> int:
    """A new room's seed: ``seed`` when it is a whole number from 0 to ``MAX_SEED``, a random one for None."""
    if seed is None:
        return random.SystemRandom().randrange(MAX_SEED)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {security.shown(seed)}")
    return seed


def insert_room(conn, *, game: str, host_id: int, class_id: "int | None", rules: dict, seed: int, now: float,
                seats: "list[tuple]", vote_seconds: "int | None" = None) -> str:
    """Write a new room in the lobby (checked input) and its ``seats``, each ``(user_id, cpu)`` (both
    None: empty, or a class table's team seat); its new code."""
    code = _new_code(conn, now - ROOM_TIMEOUT_MINUTES * 60)
    conn.execute(insert(T.rooms).values(code=code, game=game, host_id=host_id, class_id=class_id,
                                        rules=json.dumps(rules, sort_keys=True), seats=len(seats), seed=str(seed),
                                        state="lobby", rated=False, created_at=now, last_activity=now,
                                        vote_seconds=vote_seconds))
    for seat, (user_id, cpu) in enumerate(seats):
        conn.execute(insert(T.room_seats).values(room=code, seat=seat, cpu=cpu, user_id=user_id,
                                                 seen_at=now if user_id is not None else None))
    return code


def room_rules(game: str, rules) -> dict:
    """A new room's rules as stored (golf: ``Rules.to_dict``; Codepiece: its deals), or a ValueError."""
    if game == "golf":
        if rules is None:
            return Rules().to_dict()
        return (rules if isinstance(rules, Rules) else Rules.from_dict(rules)).to_dict()
    deals = (rules or {}).get("deals", 4) if isinstance(rules, dict) or rules is None else None
    if isinstance(deals, bool) or not isinstance(deals, int) or not CODEPIECE_DEALS[0] <= deals <= CODEPIECE_DEALS[1]:
        raise ValueError(f"a Codepiece room's rules are {{'deals': {CODEPIECE_DEALS[0]}-{CODEPIECE_DEALS[1]}}}, "
                         f"got {security.shown(rules)}")
    return {"deals": deals}


def _announcing(code: str, work):
    """``work(conn)`` that also tells room ``code``'s followers it changed, in the same transaction
    (so they hear of it only once it is committed)."""
    def run(conn):
        result = work(conn)
        notify.announce(conn, code)
        return result
    return run


def _try_code(conn, code: str, actor: User, now: float) -> "str | None":
    """In one transaction, with ``actor``'s count of wrong codes locked: why ``code`` is refused
    (counted as wrong when it opens no room for them), or None when they may go on."""
    if conn.execute(select(T.room_seats.c.seat).where(and_(T.room_seats.c.room == code,
                                                           T.room_seats.c.user_id == actor.id))).first():
        return None  # their own seat: no guess (a reload comes back while they wait)
    row = throttle_row(conn, T.room_code_failures, user_id=actor.id)
    if row.locked_until > now:
        return throttle.refusal(row.locked_until, now, "wrong room codes")
    room = conn.execute(select(T.rooms.c.class_id, T.rooms.c.host_id).where(T.rooms.c.code == code)).first()
    why = _closed_to(conn, actor, room, code)
    if why is not None:
        count_failure(conn, T.room_code_failures, row, now, user_id=actor.id)
    return why


def _closed_to(conn, actor: User, room, code: str) -> "str | None":
    """Why room ``code`` (its row: ``class_id``, ``host_id``; None if there is none) is not open to
    ``actor``, or None when it is: a class's room to its members, its teacher and the admins; a
    room of no class to whoever shares a class with its host (an admin shares every class)."""
    if room is None:
        return f"no room has the code {code}: check the code with the host"
    mine = _classes_of(conn, actor.id)
    if room.class_id is not None:
        return None if mine is None or room.class_id in mine else f"room {code} belongs to another class"
    theirs = _classes_of(conn, room.host_id)
    if room.host_id == actor.id or mine is None or (mine and (theirs is None or mine & theirs)):
        return None
    return (f"room {code} is open to its host's classes only, and you share no class with its host: "
            "join your class with its invite code first")


def _classes_of(conn, user_id: int) -> "set[int] | None":
    """The classes a user is in (a member, or their teacher while a teacher); None for an admin (all)."""
    role = conn.execute(select(T.users.c.role).where(T.users.c.id == user_id)).scalar()
    if role == "admin":
        return None
    members = select(T.members.c.class_id).where(T.members.c.user_id == user_id)
    ids = {r.class_id for r in conn.execute(members)}
    if role == "teacher":
        ids |= {r.id for r in conn.execute(select(T.classes.c.id).where(T.classes.c.teacher_id == user_id))}
    return ids


def count_moves(store, code: str) -> int:
    with database.reading(store.engine) as conn:
        return conn.execute(select(func.count()).where(T.room_log.c.room == code)).scalar_one()


class _Damage(Exception):
    """What is wrong with a room's rows, in words (``Room._break`` turns it into RoomBroken)."""


def _stored(what: str, raw: str, parse):
    try:
        return parse(raw)
    except (TypeError, ValueError):
        raise _Damage(f"its {what} cannot be read") from None


def _new_code(conn, quiet_since: float) -> str:
    """A code for a new room: a random free one, else the code of the room quiet the longest (since
    before ``quiet_since``); ValueError when every code names a room still in use."""
    for _ in range(50):
        code = security.new_code(ROOM_CODE_LENGTH)
        if _free_code(conn, code, quiet_since):
            return code
    oldest = conn.execute(select(T.rooms.c.code).where(T.rooms.c.last_activity < quiet_since)
                          .order_by(T.rooms.c.last_activity).limit(1)).scalar()
    if oldest is not None and _free_code(conn, oldest, quiet_since):
        return oldest
    raise ValueError(f"no free room code: every code names a room in use (one with no move for "
                     f"{ROOM_TIMEOUT_MINUTES} minutes frees its code), try again in a while")


def _free_code(conn, code: str, quiet_since: float) -> bool:
    """Whether ``code`` is free for a new room: unused, or freed now because its room has had no
    move since ``quiet_since`` (closed, or over and left): that room, its seats, its log and its
    votes are removed (its players keep their games)."""
    row = conn.execute(select(T.rooms.c.last_activity).where(T.rooms.c.code == code).with_for_update()).first()
    if row is None:
        return True
    if row.last_activity >= quiet_since:
        return False
    for table in (T.room_log, T.room_seats, T.room_voters, T.room_votes, T.room_vote_results):
        conn.execute(table.delete().where(table.c.room == code))
    conn.execute(T.rooms.delete().where(T.rooms.c.code == code))
    return True


def kept_from_room(conn, user_id: int, code: str) -> "int | None":
    """The id of the game ``user_id`` already kept from room ``code`` (not from an older room under
    the same code), or None; the user's seat row is locked first, so racing tabs keep it once."""
    conn.execute(select(T.room_seats.c.seat).where(and_(T.room_seats.c.room == code, T.room_seats.c.user_id == user_id))
                 .with_for_update()).first()
    since = conn.execute(select(T.rooms.c.created_at).where(T.rooms.c.code == code)).scalar()
    q = select(T.games.c.id).where(and_(T.games.c.user_id == user_id, T.games.c.room == code))
    if since is not None:
        q = q.where(T.games.c.played_at >= since)
    return conn.execute(q.order_by(T.games.c.id).limit(1)).scalar()
