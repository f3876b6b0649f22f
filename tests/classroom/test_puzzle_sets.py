"""Teachers' puzzle sets in the class store (issue 41, point 3): a teacher saves positions with the
move they want into a named set of their class, learners answer its items, the teacher sees per item
the right first tries and the most common wrong answer; an assignment may set one. Run against
SQLite and PostgreSQL alike (the ``store`` fixture)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import text

from golflab.classroom import PuzzleSet, SetAnswer, Store
from golflab.classroom import database as db
from golflab.classroom.progress import finished
from golflab.classroom.schema import assignments, puzzle_sets, set_answers, set_items
from tests.support.class_fill import counted

HOLDS = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D"  # swap 0..5, discard
TOOK = "KH  5D ? ? ? 2C / 9S ? ? ? 7H ? ;  discard 3C; deck 38; seat 1 took 4S"  # swap 0..5 (not normal form)
TO_DRAW = "KH KS 9D 2C 5H JD / 9S 4H 4D QC 7H ?; discard 3H 6S; deck 38; seat 1 to draw, seat 0 went out"
HOLE_OVER = "KH KS 9D 2C 5H JD / 9S 4H 4D QC 7H 3C; discard 3H 6S; deck 38; seat 1 ended the hole"


@pytest.fixture
def klass(store):
    """A teacher, their class 6B with learners ann, bob and cy, and a set with three items."""
    teacher = store.create_user("mrs_lee", role="teacher")
    k = store.create_class("6B", teacher=teacher)
    invite = store.create_invite(k, by=teacher)
    learners = [store.register(name, "pass-123", invite) for name in ("ann", "bob", "cy")]
    return teacher, k, learners


def filled_set(store, teacher, k, name="Pairs first") -> "tuple[PuzzleSet, list]":
    ps = store.create_puzzle_set(k, name, by=teacher)
    items = [store.add_set_item(ps, HOLDS, "swap 3", by=teacher, title="Pair the fives", note="Look below."),
             store.add_set_item(ps, TOOK, " Swap 5 ", by=teacher, title=" Where does it go? ", loss=1.5),
             store.add_set_item(ps, TO_DRAW, "take", by=teacher, title="Draw or take")]
    return ps, items


def snapshot(store: Store) -> dict:
    """Every row of the sets' tables and the assignments: a refused call leaves them unchanged."""
    with store.engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(t.select()).all()), key=repr)
                for t in (puzzle_sets, set_items, set_answers, assignments)}


def test_a_set_round_trip_first_tries_results_and_removed_items(store, klass):
    teacher, k, (ann, bob, cy) = klass
    ps, items = filled_set(store, teacher, k)
    assert [i.seq for i in items] == [1, 2, 3]
    assert items[1].position == "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 3C; deck 38; seat 1 took 4S"
    assert (items[1].answer, items[1].title, items[1].loss) == ("swap 5", "Where does it go?", 1.5)
    assert store.puzzle_sets(k, by=ann) == [PuzzleSet(ps.id, k.id, "Pairs first", 3, ps.created_at)]
    assert store.puzzle_set(ps.id, by=bob) == store.puzzle_sets(k, by=teacher)[0]
    assert store.set_items(ps, by=cy) == items

    first, again = store.record_set_answer(ann, items[0].id, "DISCARD"), store.record_set_answer(ann, items[0].id,
                                                                                                 "swap 3")
    assert (first, again) == (SetAnswer(items[0].id, "discard", False, True), SetAnswer(items[0].id, "swap 3", True,
                                                                                         False))
    store.record_set_answer(bob, items[0].id, "swap 0")
    store.record_set_answer(cy, items[0].id, "discard")
    store.record_set_answer(bob, items[1].id, "swap 5")
    store.record_set_answer(teacher, items[1].id, "swap 0")  # a teacher trying their set: kept, not counted
    # top right is the same move as the answer, bottom right (face-down cards under face-down cards): right
    assert store.record_set_answer(cy, items[1].id, "swap 2") == SetAnswer(items[1].id, "swap 2", True, True)
    assert store.set_progress(ann, ps, by=ann) == {items[0].id: first}
    assert store.set_progress(bob, ps, by=teacher) == {items[0].id: SetAnswer(items[0].id, "swap 0", False, True),
                                                       items[1].id: SetAnswer(items[1].id, "swap 5", True, True)}
    results = store.set_results(ps, by=teacher)
    assert [(r.item, r.learners, r.answered, r.right_first, r.wrong) for r in results] == [
        (items[0], 3, 3, 0, (("discard", 2), ("swap 0", 1))),
        (items[1], 3, 2, 2, ()),
        (items[2], 3, 0, 0, ())]

    store.remove_set_item(items[0].id, by=teacher)
    assert store.set_items(ps, by=ann) == items[1:]
    assert store.puzzle_set(ps.id, by=ann).items == 2
    assert [r.item for r in store.set_results(ps, by=teacher)] == items[1:]
    assert store.set_progress(ann, ps, by=ann) == {}
    with pytest.raises(ValueError, match="was removed by its teacher"):
        store.record_set_answer(bob, items[0].id, "swap 3")
    store.deactivate(cy, by=teacher)  # only active learners are counted
    assert store.set_results(ps, by=teacher)[0].learners == 2
    item = store.add_set_item(ps, HOLDS, "discard", by=teacher, title="Again")
    assert item.seq == 4  # a removed item keeps its number


def test_wrong_answers_tied_are_listed_by_their_text(store, klass):
    teacher, k, (ann, bob, cy) = klass
    ps, items = filled_set(store, teacher, k)
    for learner, answer in ((ann, "swap 4"), (bob, "discard"), (cy, "swap 3")):
        store.record_set_answer(learner, items[0].id, answer)
    assert store.set_results(ps, by=teacher)[0].wrong == (("discard", 1), ("swap 4", 1))


def test_a_name_in_another_script_is_kept_and_one_name_a_class(store, klass):
    teacher, k, (ann, _, _) = klass
    ps = store.create_puzzle_set(k, "  Пазлы 5Б ", by=teacher)
    assert ps.name == "Пазлы 5Б"
    before = snapshot(store)
    with pytest.raises(ValueError, match="the class 6B already has a set named 'Пазлы 5Б'"):
        store.create_puzzle_set(k, "пазлы   5б", by=teacher)
    assert snapshot(store) == before
    other = store.create_class("7A", teacher=teacher)
    assert store.create_puzzle_set(other, "Пазлы 5Б", by=teacher).class_id == other.id
    assert [s.name for s in store.puzzle_sets(k, by=ann)] == ["Пазлы 5Б"]


def test_a_set_is_renamed_and_keeps_its_items_answers_and_assignment(store, klass):
    teacher, k, (ann, _, _) = klass
    ps, items = filled_set(store, teacher, k)
    store.record_set_answer(ann, items[0].id, "swap 3")
    store.create_assignment(k, by=teacher, puzzle_set=ps)
    renamed = store.rename_puzzle_set(ps, "  Пары сначала ", by=teacher)
    assert (renamed.id, renamed.name, renamed.items) == (ps.id, "Пары сначала", 3)
    assert [s.name for s in store.puzzle_sets(k, by=ann)] == ["Пары сначала"]
    assert [i.id for i in store.set_items(renamed, by=ann)] == [i.id for i in items]
    assert store.set_progress(ann, renamed, by=ann)[items[0].id].correct
    assert store.assignment_progress(k, by=teacher)[0][0].puzzle_set == ps.id
    assert store.rename_puzzle_set(renamed, "пары СНАЧАЛА", by=teacher).name == "пары СНАЧАЛА"  # its own name


REFUSED = [
    ("create_puzzle_set", "", "a set's name is 1 to 64 printable characters"),
    ("create_puzzle_set", "   ", "a set's name is 1 to 64"),
    ("create_puzzle_set", "x" * 65, "a set's name is 1 to 64"),
    ("create_puzzle_set", 5, "a set's name is 1 to 64"),
    ("create_puzzle_set", "tab\there", "a set's name is 1 to 64 printable"),
    ("create_puzzle_set", "Pairs FIRST", "already has a set named 'Pairs first'"),
    ("rename", "  pairs   first", "the class 6B already has a set named 'Pairs first': choose another name"),
    ("rename", "", "a set's name is 1 to 64 printable characters"),
    ("rename", "x" * 65, "a set's name is 1 to 64"),
    ("rename", None, "a set's name is 1 to 64"),
    ("add", dict(position="garbage"), "^position: not a position"),
    ("add", dict(position=HOLE_OVER), "^position: nobody can move at 'hole over' \\(the hole or the game is over\\)"),
    ("add", dict(answer="flip 2"), r"'flip 2' is not a move here; the moves are swap 0, swap 1, .*swap 5, discard"),
    ("add", dict(answer="fly"), r"'fly' is not a move here; the moves are swap 0, .*discard"),
    ("add", dict(answer=3), "3 is not a move here; the moves are"),
    ("add", dict(title=" "), "a title is 1 to 120"),
    ("add", dict(title="x" * 121), "a title is 1 to 120"),
    ("add", dict(title=None), "a title is 1 to 120"),
    ("add", dict(note="x" * 2001), "a note is text of at most 2,000 characters"),
    ("add", dict(loss=-0.5), "loss must be a number of points of 0 or more"),
    ("add", dict(loss=float("nan")), "loss must be"),
    ("add", dict(loss=float("inf")), "loss must be"),
    ("add", dict(loss=True), "loss must be"),
    ("add", dict(loss="1"), "loss must be"),
    ("answer", "flip 0", r"'flip 0' is not a move here; the moves are swap 0, .*discard"),
    ("answer", "", "'' is not a move here"),
    ("answer", None, "None is not a move here"),
    ("unknown item", "discard", "no set item has the id 999999"),
    ("unknown set", None, "no puzzle set has the id 999999"),
    ("not a set", None, "expected a puzzle set \\(from the store\\), got dict"),
    ("not a set to see", None, "expected a puzzle set \\(from the store\\), got dict"),
    ("assign another class's set", None, "is not one of the class 6B's: set one of its own"),
    ("assign an empty set", None, "has no items yet: add positions"),
    ("assign nothing", None, "needs a lesson, some puzzles, a puzzle set, or any mix"),
]


def test_bad_input_is_refused_saying_what_is_allowed_and_changes_nothing(store, klass):
    """Each of ``REFUSED`` (in one test: a fresh class store for each costs a second)."""
    teacher, k, (ann, _, _) = klass
    ps, items = filled_set(store, teacher, k)
    other = store.create_puzzle_set(store.create_class("7A", teacher=teacher), "Elsewhere", by=teacher)
    empty = store.create_puzzle_set(k, "Empty", by=teacher)
    calls = {
        "create_puzzle_set": lambda value: store.create_puzzle_set(k, value, by=teacher),
        "rename": lambda value: store.rename_puzzle_set(empty, value, by=teacher),
        "add": lambda value: store.add_set_item(ps, **{"position": HOLDS, "answer": "swap 3", "by": teacher,
                                                       "title": "A title", **value}),
        "answer": lambda value: store.record_set_answer(ann, items[0].id, value),
        "unknown item": lambda value: store.record_set_answer(ann, 999_999, value),
        "unknown set": lambda _: store.puzzle_set(999_999, by=teacher),
        "not a set": lambda _: store.set_items({"id": ps.id}, by=teacher),
        "not a set to see": lambda _: store.set_progress(ann, {"id": ps.id}, by=ann),
        "assign another class's set": lambda _: store.create_assignment(k, by=teacher, puzzle_set=other),
        "assign an empty set": lambda _: store.create_assignment(k, by=teacher, puzzle_set=empty),
        "assign nothing": lambda _: store.create_assignment(k, by=teacher),
    }
    before = snapshot(store)
    for call, value, words in REFUSED:
        with pytest.raises(ValueError, match=words):
            calls[call](value)
        assert snapshot(store) == before, (call, value)


def test_a_set_serves_at_most_50_items(store, klass):
    teacher, k, _ = klass
    ps = store.create_puzzle_set(k, "Long", by=teacher)
    for n in range(50):
        store.add_set_item(ps, HOLDS, "discard", by=teacher, title=f"Item {n + 1}")
    before = snapshot(store)
    with pytest.raises(ValueError, match="has 50 items, its limit: remove one"):
        store.add_set_item(ps, HOLDS, "discard", by=teacher, title="One more")
    assert snapshot(store) == before
    store.remove_set_item(store.set_items(ps, by=teacher)[0].id, by=teacher)
    assert store.add_set_item(ps, HOLDS, "discard", by=teacher, title="One more").seq == 51


def test_who_may_make_read_and_answer_a_set(store, klass):
    teacher, k, (ann, bob, _) = klass
    ps, items = filled_set(store, teacher, k)
    other_teacher = store.create_user("mr_ray", role="teacher")
    other_class = store.create_class("7A", teacher=other_teacher)
    dan = store.register("dan", "pass-123", store.create_invite(other_class, by=other_teacher))
    before = snapshot(store)
    refused = [
        (lambda: store.create_puzzle_set(k, "Mine", by=ann), "ann does not teach the class 6B"),
        (lambda: store.add_set_item(ps, HOLDS, "discard", by=ann, title="x"), "ann does not teach the class 6B"),
        (lambda: store.remove_set_item(items[0].id, by=ann), "ann does not teach the class 6B"),
        (lambda: store.rename_puzzle_set(ps, "Ann's now", by=ann), "ann does not teach the class 6B"),
        (lambda: store.rename_puzzle_set(ps, "Ray's now", by=other_teacher), "mr_ray does not teach the class 6B"),
        (lambda: store.set_results(ps, by=ann), "ann does not teach the class 6B"),
        (lambda: store.puzzle_sets(k, by=dan), "dan is not in the class 6B"),
        (lambda: store.puzzle_set(ps.id, by=dan), "dan is not in the class 6B"),
        (lambda: store.set_items(ps, by=dan), "dan is not in the class 6B"),
        (lambda: store.record_set_answer(dan, items[0].id, "swap 3"), "dan is not in the class 6B"),
        (lambda: store.set_progress(ann, ps, by=bob), "bob may not see ann's records"),
        (lambda: store.set_progress(ann, ps, by=other_teacher), "mr_ray may not see ann's records"),
        (lambda: store.create_puzzle_set(k, "Theirs", by=other_teacher), "mr_ray does not teach the class 6B"),
        (lambda: store.add_set_item(ps, HOLDS, "discard", by=other_teacher, title="x"), "mr_ray does not teach"),
        (lambda: store.remove_set_item(items[0].id, by=other_teacher), "mr_ray does not teach the class 6B"),
        (lambda: store.set_results(ps, by=other_teacher), "mr_ray does not teach the class 6B"),
        (lambda: store.set_items(ps, by=other_teacher), "mr_ray is not in the class 6B"),
    ]
    for call, words in refused:
        with pytest.raises(PermissionError, match=words):
            call()
    assert snapshot(store) == before
    # a record naming another class's set is judged by the set the store has, not by its class_id
    forged = PuzzleSet(ps.id, other_class.id, ps.name, 3, ps.created_at)
    with pytest.raises(PermissionError, match="mr_ray does not teach the class 6B"):
        store.set_results(forged, by=other_teacher)
    admin = store.create_user("head", role="admin")
    assert len(store.set_results(ps, by=admin)) == 3


def test_an_assignment_with_a_set_is_done_once_every_item_is_answered(store, klass, clock):
    teacher, k, (ann, bob, cy) = klass
    ps, items = filled_set(store, teacher, k)
    made = store.create_assignment(k, by=teacher, puzzle_set=ps, lesson="lesson1", due_days=3)
    assert (made.puzzle_set, made.set_done) == (ps.id, None)
    [mine] = store.assignments(ann)
    assert (mine.puzzle_set, mine.set_done, finished(mine)) == (ps.id, False, False)
    for item in items[:2]:
        store.record_set_answer(ann, item.id, "discard" if item.seq == 1 else "swap 0")  # wrong answers count
    assert store.assignments(ann)[0].set_done is False
    store.record_set_answer(ann, items[2].id, "draw")
    store.record_exercise(ann, "lesson1", "a", True, lesson_items=1)
    [mine] = store.assignments(ann)
    assert (mine.set_done, mine.lesson_done, finished(mine)) == (True, True, True)
    store.record_set_answer(bob, items[0].id, "swap 3")
    store.remove_set_item(items[1].id, by=teacher)
    store.remove_set_item(items[2].id, by=teacher)  # bob answered every item the set still serves
    store.record_exercise(bob, "lesson1", "a", True, lesson_items=1)
    [(assignment, done, of)] = store.assignment_progress(k, by=teacher)
    assert (assignment.puzzle_set, done, of) == (ps.id, 2, 3)
    assert store.class_assignments(k, by=teacher)[0].puzzle_set == ps.id


def test_items_added_at_once_from_two_pages_are_numbered_in_turn(store, klass):
    teacher, k, _ = klass
    ps = store.create_puzzle_set(k, "Busy", by=teacher)

    def add(page):
        return [store.add_set_item(ps, HOLDS, "discard", by=teacher, title=f"{page} {n}").seq for n in range(5)]

    with ThreadPoolExecutor(2) as pool:
        seqs = sorted(s for page in pool.map(add, ("left", "right")) for s in page)
    assert seqs == list(range(1, 11))
    assert [i.seq for i in store.set_items(ps, by=teacher)] == seqs


def test_the_results_are_read_in_the_same_statements_for_any_class_size(store, klass):
    teacher, k, learners = klass
    ps, items = filled_set(store, teacher, k)
    counts = []
    for more in (0, 4):
        invite = store.create_invite(k, by=teacher)
        for n in range(more):
            learners.append(store.register(f"kid{n}", "pass-123", invite))
        for learner in learners:
            store.record_set_answer(learner, items[0].id, "discard")
        with counted(store) as statements:
            assert store.set_results(ps, by=teacher)[0].learners == len(learners)
        counts.append(len(statements))
    assert counts[0] == counts[1], counts


def test_an_older_store_keeps_its_assignments_when_sets_arrive(database_url, clock):
    engine = db.make_engine(database_url)
    db.migrate(engine, target="0006")
    with engine.begin() as conn:  # a class and an assignment written by revision 0006
        conn.execute(text("INSERT INTO users (id, name, name_key, role, active, hub, leaderboard, created_at) "
                          "VALUES (1, 'mrs_lee', 'mrs_lee', 'teacher', :t, :f, :f, 1.0)"), {"t": True, "f": False})
        conn.execute(text("INSERT INTO classes (id, name, code, teacher_id, active, created_at) "
                          "VALUES (1, '6B', 'ABCDEF', 1, :t, 1.0)"), {"t": True})
        conn.execute(text("INSERT INTO assignments (class_id, lesson, puzzles, due_at, created_by, created_at) "
                          "VALUES (1, 'lesson1', 2, 9.0, 1, 1.0)"))
    engine.dispose()
    store = Store(database_url, clock=clock)  # upgraded on open
    teacher = store.user("mrs_lee")
    [k] = store.classes(teacher)
    [a] = store.class_assignments(k, by=teacher)
    assert (a.lesson, a.puzzles, a.puzzle_set) == ("lesson1", 2, None)
    ps = store.create_puzzle_set(k, "New", by=teacher)
    store.add_set_item(ps, HOLDS, "discard", by=teacher, title="First")
    assert store.create_assignment(k, by=teacher, puzzle_set=ps).puzzle_set == ps.id
    store.close()
