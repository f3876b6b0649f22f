"""Teachers' puzzle sets (issue 41, point 3): a teacher saves positions (golflab's notation), each
with the move they want, a title and a note, into a named set of their class; a set is assigned
like a lesson (``Store.create_assignment``); learners answer its items, and the teacher sees per
item how many were right at the first try and the most common wrong answers.

A learner's first answer to an item is the one that counts: their answers to it are written one at
a time (the user's row is updated first, which holds the others back), so exactly one is first. A
removed item keeps its answers but is no longer served or counted. Who may call what:
``permissions.TABLE``.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterable

from sqlalchemy import and_, case, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from golflab.actions import one_of
from golflab.equivalence import same_move
from golflab.game import Game
from golflab.position import Position

from . import database, progress, schema, security
from .records import Klass, PuzzleSet, SetAnswer, SetItem, SetItemResult, User
from .rows import learner_rows

T = schema
MAX_SET_NAME = 64
MAX_TITLE = 120
MAX_NOTE = 2_000
#: The items a set serves at most (removed ones aside).
MAX_ITEMS = 50


class PuzzleSetsMixin:
    """The class store's puzzle sets (mixed into ``Store``)."""

    def create_puzzle_set(self, klass: Klass, name: str, *, by: User) -> PuzzleSet:
        """A new, empty set named ``name`` (stripped, 1 to 64 characters, any script) in ``klass``; a
        class has one set of a name, in any case and spacing."""
        name, key = _set_name(name)
        now = self.clock()

        def work(conn):
            taken = conn.execute(select(T.puzzle_sets.c.name).where(and_(
                T.puzzle_sets.c.class_id == klass.id, T.puzzle_sets.c.name_key == key))).scalar()
            if taken is not None:
                raise _name_taken(taken, klass)
            try:
                sid = conn.execute(insert(T.puzzle_sets).values(
                    class_id=klass.id, name=name, name_key=key, created_by=by.id,
                    created_at=now)).inserted_primary_key[0]
            except IntegrityError:  # another page made it meanwhile
                raise _name_taken(name, klass) from None
            return PuzzleSet(sid, klass.id, name, 0, now)

        return self.transaction(work)

    def rename_puzzle_set(self, puzzle_set: PuzzleSet, name: str, *, by: User) -> PuzzleSet:
        """The set under a new name (the rules of ``create_puzzle_set``'s; its items, answers and
        assignments stay with it); a ValueError, nothing changed, when another set of the class has it."""
        name, key = _set_name(name)
        s, klass = T.puzzle_sets, self.class_of_set(puzzle_set.id)  # the store's word, not the record's

        def work(conn):
            taken = conn.execute(select(s.c.name).where(and_(s.c.class_id == klass.id, s.c.name_key == key,
                                                             s.c.id != puzzle_set.id))).scalar()
            if taken is not None:
                raise _name_taken(taken, klass)
            try:
                conn.execute(update(s).where(s.c.id == puzzle_set.id).values(name=name, name_key=key))
            except IntegrityError:  # another page gave that name meanwhile
                raise _name_taken(name, klass) from None
            return read_set(conn, puzzle_set.id)

        return self.transaction(work)

    def puzzle_sets(self, klass: Klass, *, by: User) -> list[PuzzleSet]:
        """The class's sets, oldest first (``items``: the items each serves)."""
        with database.reading(self.engine) as conn:
            rows = conn.execute(_sets().where(T.puzzle_sets.c.class_id == klass.id)
                                .order_by(T.puzzle_sets.c.created_at, T.puzzle_sets.c.id)).all()
        return [_puzzle_set(r) for r in rows]

    def puzzle_set(self, set_id: int, *, by: User) -> PuzzleSet:
        """The set of that id (an unknown id: ValueError)."""
        with database.reading(self.engine) as conn:
            found = read_set(conn, set_id)
        if found is None:
            raise _unknown("puzzle set", set_id)
        return found

    def add_set_item(self, puzzle_set: PuzzleSet, position: str, answer: str, *, by: User, title: str,
                     note: str = "", loss: float = 0.0) -> SetItem:
        """Add ``position`` (golflab's notation, kept in normal form) to the set, with the move the
        teacher wants (``answer``: a legal move there), a title (1 to 120 characters), a note (at most
        2,000) and ``loss``: the points by which that move is worse than the coach's best (0: the
        best). A set serves at most ``MAX_ITEMS``; the item takes the set's next number."""
        position, legal, _ = _legal_moves(position)
        answer = one_of(answer, legal)
        title = _title(title)
        if not isinstance(note, str) or len(note) > MAX_NOTE or "\x00" in note:
            raise ValueError(f"a note is text of at most {MAX_NOTE:,} characters, got {security.shown(note)}")
        if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not math.isfinite(loss) or loss < 0:
            raise ValueError(f"loss must be a number of points of 0 or more (0: the coach's best move), "
                             f"got {security.shown(loss)}")
        i = T.set_items
        now = self.clock()

        def work(conn):
            # the set's row locked first: two pages adding at once number their items in turn
            conn.execute(select(T.puzzle_sets.c.id).where(T.puzzle_sets.c.id == puzzle_set.id).with_for_update())
            last, served = conn.execute(select(func.coalesce(func.max(i.c.seq), 0), func.coalesce(
                func.sum(case((i.c.removed.is_(False), 1), else_=0)), 0)).where(i.c.set_id == puzzle_set.id)).one()
            if served >= MAX_ITEMS:
                raise ValueError(f"the set {puzzle_set.name!r} has {MAX_ITEMS} items, its limit: remove one "
                                 "or start another set")
            values = dict(set_id=puzzle_set.id, seq=last + 1, position=position, answer=answer, title=title,
                          note=note, loss=float(loss))
            iid = conn.execute(insert(i).values(**values, created_by=by.id, created_at=now,
                                                removed=False)).inserted_primary_key[0]
            return SetItem(iid, **values)

        return self.transaction(work)

    def set_items(self, puzzle_set: PuzzleSet, *, by: User) -> list[SetItem]:
        """The set's items in order (removed ones left out)."""
        with database.reading(self.engine) as conn:
            return _served_items(conn, puzzle_set.id)

    def remove_set_item(self, item_id: int, *, by: User) -> None:
        """Serve the item no more (its answers are kept)."""
        self.transaction(lambda conn: conn.execute(
            update(T.set_items).where(T.set_items.c.id == item_id).values(removed=True)))

    def record_set_answer(self, user: User, item_id: int, answer: str) -> SetAnswer:
        """Keep ``user``'s answer to a set item (a legal move at its position): right when it is the
        teacher's move, or the same move up to the grid's symmetry (``equivalence.same_move``); first
        when ``user`` had not answered the item before."""
        actor = user
        i, a = T.set_items, T.set_answers
        now = self.clock()

        def work(conn):
            # first: this learner's answers wait their turn here, so exactly one is their first
            conn.execute(update(T.users).where(T.users.c.id == actor.id).values(last_seen=now))
            item = conn.execute(select(i).where(i.c.id == item_id)).first()
            if item is None:
                raise _unknown("set item", item_id)
            if item.removed:
                raise ValueError(f"the set item {item.id} ({item.title!r}) was removed by its teacher: "
                                 "it takes no more answers")
            _, legal, played = _legal_moves(item.position)
            move = one_of(answer, legal)
            seen = conn.execute(select(a.c.id).where(and_(a.c.item_id == item.id, a.c.user_id == actor.id))
                                .limit(1)).first()
            right = same_move(played.observation(played.current_player), move, item.answer)  # the mover's grid
            done = SetAnswer(item.id, move, right, seen is None)
            conn.execute(insert(a).values(item_id=item.id, user_id=actor.id, answer=move, correct=done.correct,
                                          first_try=done.first_try, at=now))
            return done

        return self.transaction(work)

    def set_progress(self, user: User, puzzle_set: PuzzleSet, *, by: User) -> dict[int, SetAnswer]:
        """Each item of the set that ``user`` answered (removed ones left out): their first answer."""
        with database.reading(self.engine) as conn:
            rows = _first_answers(conn, puzzle_set.id, [user.id])
        return {r.item_id: SetAnswer(r.item_id, r.answer, bool(r.correct), True) for r in rows}

    def set_results(self, puzzle_set: PuzzleSet, *, by: User) -> list[SetItemResult]:
        """Each item of the set, in order, as its teacher's dashboard shows it: the class's active
        learners, how many answered, how many were right at the first try, and the wrong first
        answers counted (a teacher's own tries are not counted). Read in a fixed number of
        statements, whatever the class's size."""
        with database.reading(self.engine) as conn:
            items = _served_items(conn, puzzle_set.id)
            class_id = read_set(conn, puzzle_set.id).class_id  # the store's, not the record's word
            learners = [r.id for r in learner_rows(conn, class_id) if r.active]
            answers = progress.group(_first_answers(conn, puzzle_set.id, learners), key="item_id")
        return [_result(item, len(learners), answers.get(item.id, ())) for item in items]

    def class_of_set(self, set_id: int) -> Klass:
        """The class of puzzle set ``set_id``, or a ValueError."""
        return self._class_of(T.puzzle_sets.c.id == _id(set_id, "puzzle set"), "puzzle set", set_id)

    def class_of_item(self, item_id: int) -> Klass:
        """The class of set item ``item_id`` (removed or not), or a ValueError."""
        return self._class_of(T.set_items.c.id == _id(item_id, "set item"), "set item", item_id)

    def _class_of(self, where, what: str, value) -> Klass:
        q = (select(T.classes).join(T.puzzle_sets, T.puzzle_sets.c.class_id == T.classes.c.id)
             .outerjoin(T.set_items, T.set_items.c.set_id == T.puzzle_sets.c.id).where(where).limit(1))
        with database.reading(self.engine) as conn:
            row = conn.execute(q).first()
        if row is None:
            raise _unknown(what, value)
        return Klass.from_row(row)


# -- rows the store reads too (an assignment's set) ---------------------------------------

def read_set(conn, set_id: int) -> "PuzzleSet | None":
    """Puzzle set ``set_id`` with the items it serves, or None."""
    row = conn.execute(_sets().where(T.puzzle_sets.c.id == set_id)).first()
    return None if row is None else _puzzle_set(row)


def done_sets(conn, user_ids: "list[int]", set_ids: Iterable) -> "dict[int, frozenset]":
    """Each of ``user_ids``: those of ``set_ids`` (None among them ignored) whose every served item
    they answered (``progress.sets_done``); two statements whatever the users, none without a set."""
    wanted = sorted({s for s in set_ids if s is not None})
    if not wanted:
        return {u: frozenset() for u in user_ids}
    i, a = T.set_items, T.set_answers
    served = and_(i.c.set_id.in_(wanted), i.c.removed.is_(False))
    items = [(r.set_id, r.id) for r in conn.execute(select(i.c.set_id, i.c.id).where(served))]
    answered = progress.group(conn.execute(select(a.c.user_id, a.c.item_id).distinct()
                                           .join(i, i.c.id == a.c.item_id)
                                           .where(and_(served, a.c.user_id.in_(user_ids)))))
    return {u: progress.sets_done(items, (r.item_id for r in answered.get(u, ()))) for u in user_ids}


# -- helpers ----------------------------------------------------------------------------

def _sets():
    """The sets, each with the number of items it serves (``items``)."""
    s, i = T.puzzle_sets, T.set_items
    return (select(s.c.id, s.c.class_id, s.c.name, s.c.created_at, func.count(i.c.id).label("items"))
            .select_from(s.outerjoin(i, and_(i.c.set_id == s.c.id, i.c.removed.is_(False))))
            .group_by(s.c.id, s.c.class_id, s.c.name, s.c.created_at))


def _puzzle_set(row) -> PuzzleSet:
    return PuzzleSet(row.id, row.class_id, row.name, row.items, row.created_at)


def _served_items(conn, set_id: int) -> list[SetItem]:
    i = T.set_items
    rows = conn.execute(select(i).where(and_(i.c.set_id == set_id, i.c.removed.is_(False))).order_by(i.c.seq))
    return [SetItem(r.id, r.set_id, r.seq, r.position, r.answer, r.title, r.note, r.loss) for r in rows]


def _first_answers(conn, set_id: int, user_ids: "list[int]") -> list:
    """The first answers of ``user_ids`` to the set's served items: (item_id, user_id, answer, correct)."""
    i, a = T.set_items, T.set_answers
    return conn.execute(select(a.c.item_id, a.c.user_id, a.c.answer, a.c.correct).join(i, i.c.id == a.c.item_id)
                        .where(and_(i.c.set_id == set_id, i.c.removed.is_(False), a.c.first_try.is_(True),
                                    a.c.user_id.in_(user_ids))).order_by(a.c.id)).all()


def _result(item: SetItem, learners: int, firsts) -> SetItemResult:
    """An item's result from its learners' first answers (rows with ``answer`` and ``correct``)."""
    wrong = Counter(r.answer for r in firsts if not r.correct)
    return SetItemResult(item, learners, len(firsts), sum(bool(r.correct) for r in firsts),
                         tuple(sorted(wrong.items(), key=lambda w: (-w[1], w[0]))))


def _set_name(name: object) -> "tuple[str, str]":
    """A set's name, stripped, and its key (case-folded, its spaces made one), or a ValueError."""
    stripped = name.strip() if isinstance(name, str) else None
    key = None if stripped is None else security.name_key(" ".join(stripped.split()))
    if not stripped or len(stripped) > MAX_SET_NAME or len(key) > MAX_SET_NAME or not stripped.isprintable():
        raise ValueError(f"a set's name is 1 to {MAX_SET_NAME} printable characters (any script), "
                         f"got {security.shown(name)}")
    return stripped, key


def _name_taken(name: str, klass: Klass) -> ValueError:
    return ValueError(f"the class {klass.name} already has a set named {name!r}: choose another name")


def _title(title: object) -> str:
    stripped = title.strip() if isinstance(title, str) else None
    if not stripped or len(stripped) > MAX_TITLE or not stripped.isprintable():
        raise ValueError(f"a title is 1 to {MAX_TITLE} printable characters on one line, got {security.shown(title)}")
    return stripped


def _legal_moves(position: object) -> "tuple[str, list[str], Game]":
    """``position`` in normal form, the moves legal there and its game (its seat to move is the
    game's current player), or a ValueError (unreadable, or a position at which nobody can move)."""
    try:
        parsed = Position.parse(position)
        game = parsed.game()
        legal = [action.notation for action in game.legal_actions()]
    except ValueError as exc:
        raise ValueError(f"position: {exc}") from None
    if not legal:
        raise ValueError(f"position: nobody can move at {parsed.stage!r} (the hole or the game is over): an item "
                         "needs a position with a move to find")
    return str(parsed), legal, game


def _id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**31:
        raise _unknown(what, value)
    return value


def _unknown(what: str, value: object) -> ValueError:
    return ValueError(f"no {what} has the id {security.shown(value)}")
