"""Studies in the class store ("follow me", issue 41, point 4): a teacher opens a study of positions
with notes and turns its pages as moves of a room's log, which every learner's page reads; each
page is kept as its player to move sees it. Run against SQLite and PostgreSQL alike (the
``store`` fixture)."""

from __future__ import annotations

import pytest

from golflab import IllegalActionError, Position
from golflab.classroom import StudyPage
from golflab.classroom import schema as T
from golflab.classroom.study_game import MAX_PAGES, pages_from_text, shown_position

ROOM_TABLES = (T.rooms, T.room_seats, T.room_log, T.room_voters)
#: Seat 1 holds the 8 of diamonds it drew; seat 0's position 3 is a face-down queen its teacher knows.
HOLDS = "KH 5D ? (QS) ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D"
DRAW = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 39; seat 0 to draw"
TOOK = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 3C; deck 38; seat 1 took 4S"
PAGES = [(HOLDS, "Swap it or discard it?"), (DRAW, "Take the 4?"), (TOOK, "Where does the 4 go?")]


@pytest.fixture
def klass(store):
    """A teacher, their class 6B with learners ann and bob, and another class's eve and its teacher."""
    teacher = store.create_user("mrs_lee", role="teacher")
    k = store.create_class("6B", teacher=teacher)
    invite = store.create_invite(k, by=teacher)
    learners = {n: store.register(n, "pass-123", invite) for n in ("ann", "bob")}
    other = store.create_user("mr_ray", role="teacher")
    eve = store.register("eve", "pass-123", store.create_invite(store.create_class("7A", teacher=other), by=other))
    return teacher, k, learners, eve, other


def snapshot(store) -> dict:
    with store.engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(t.select()).all()), key=repr) for t in ROOM_TABLES}


def test_learners_pages_follow_the_teachers_page_turns(store, klass):
    teacher, k, u, _, _ = klass
    study = store.create_study(k, by=teacher, title="  Monday's three  ", pages=PAGES)
    assert (study.state, study.kind, study.is_study) == ("playing", "study", True)
    pages = {n: store.room(study.code) for n in u}  # each learner's own page, read from the store
    assert [s.code for s in store.studies(k, by=u["ann"])] == [study.code]
    first = pages["ann"].study_page(by=u["ann"])
    assert isinstance(first, StudyPage)
    assert (first.number, first.count, first.title, first.note, first.ended) == (1, 3, "Monday's three",
                                                                               "Swap it or discard it?", False)
    for number in (3, 2):
        study.apply(0, f"page {number}", by=teacher)
        for name, page in pages.items():
            assert page.refresh() == 1
            shown = page.study_page(by=u[name])
            assert (shown.number, shown.note, str(shown.position)) == (number, PAGES[number - 1][1],
                                                                      str(shown_position(PAGES[number - 1][0])))
    study.apply(0, "end", by=teacher)
    pages["bob"].refresh()
    last = pages["bob"].study_page(by=u["bob"])
    assert (last.number, last.ended, pages["bob"].state) == (2, True, "over")
    assert store.studies(k, by=u["bob"]) == []  # an ended study is no longer offered
    assert [entry[1] for entry in store.room(study.code).log] == ["page 3", "page 2", "end"]


def test_each_learner_following_is_counted_once(store, klass):
    teacher, k, u, eve, other = klass
    study = store.create_study(k, by=teacher, title="Count", pages=PAGES)
    assert study.followers() == 0
    for name in ("ann", "bob", "ann"):  # ann's second page is the same learner
        page = store.room(study.code)
        assert page.follow_study(by=u[name]).number == 1
    study.follow_study(by=teacher)  # its teacher's own pages are not the class
    assert study.followers() == 2
    before = snapshot(store)
    with pytest.raises(PermissionError, match="eve is not in the class 6B"):
        store.room(study.code).follow_study(by=eve)
    study.apply(0, "end", by=teacher)
    ended = snapshot(store)
    with pytest.raises(ValueError, match="has ended: ask your teacher for the new one"):
        store.room(study.code).follow_study(by=u["ann"])
    assert snapshot(store) == ended and before["room_log"] != ended["room_log"]
    room = store.create_room(u["ann"], seats=2, cpus=["Sofia"])
    for call in (room.followers, lambda: room.follow_study(by=u["ann"]), lambda: room.study_page(by=u["ann"])):
        with pytest.raises(ValueError, match="is not a study: it plays golf"):
            call()


def test_a_page_is_kept_as_its_player_to_move_sees_it(store, klass):
    teacher, k, u, _, _ = klass
    study = store.create_study(k, by=teacher, title="Hidden", pages=PAGES[:1])
    with store.engine.connect() as conn:
        stored = conn.execute(T.rooms.select().where(T.rooms.c.code == study.code)).one().rules
    assert "QS" not in stored and "(" not in stored  # the face-down queen its teacher knew is not kept
    shown = store.room(study.code).study_page(by=u["ann"]).position
    assert shown.cards[0][3] is None and not shown.up[0][3]
    assert (shown.seat, shown.mover, shown.held) == (1, 1, Position.parse(HOLDS).held)  # the mover sees its card
    # another seat's view of a card drawn and not seen: no view of the player to move to show
    unseen = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds ?, seen by seat 0"
    with pytest.raises(ValueError, match="page 2 shows seat 0's view while seat 1 holds a card"):
        store.create_study(k, by=teacher, title="Unseen", pages=[(DRAW, ""), (unseen, "")])
    # a view from another seat without a drawn card is shown from the mover's side
    other_side = store.create_study(k, by=teacher, title="Side", pages=[(DRAW + ", seen by seat 1", "")])
    assert store.room(other_side.code).study_page(by=u["ann"]).position.seat == 0


@pytest.mark.parametrize("title, pages, said", [
    ("", PAGES, "a study's title is 1 to 100 characters"),
    ("x" * 101, PAGES, "a study's title is 1 to 100 characters"),
    ("T", [], f"a study has 1 to {MAX_PAGES} pages, got 0"),
    ("T", [(DRAW, "")] * (MAX_PAGES + 1), f"a study has 1 to {MAX_PAGES} pages, got {MAX_PAGES + 1}"),
    ("T", "not pages", "a study's pages are (position, note) pairs"),
    ("T", [DRAW], "page 1: expected a (position, note) pair"),
    ("T", [(DRAW, ""), ("KH KH KH KH KH KH / ?", "")], "page 2: "),
    ("T", [(DRAW, "n" * 2001)], "page 1: a note is text of at most 2000 characters"),
])
def test_a_study_that_cannot_be_made_is_refused_and_changes_nothing(store, klass, title, pages, said):
    teacher, k, *_ = klass
    before = snapshot(store)
    with pytest.raises(ValueError, match=said.replace("(", r"\(").replace(")", r"\)")):
        store.create_study(k, by=teacher, title=title, pages=pages)
    assert snapshot(store) == before


def test_who_may_do_what(store, klass):
    teacher, k, u, eve, other = klass
    study = store.create_study(k, by=teacher, title="Ours", pages=PAGES)
    before = snapshot(store)
    for refused in (lambda: store.create_study(k, by=u["ann"], title="Mine", pages=PAGES),  # a learner
                    lambda: store.create_study(k, by=other, title="Theirs", pages=PAGES),  # another class's teacher
                    lambda: store.studies(k, by=eve),
                    lambda: store.room(study.code).study_page(by=eve),  # another class's learner
                    lambda: store.room(study.code).study_page(by=other),
                    lambda: store.room(study.code).apply(0, "page 2", by=u["ann"])):  # only its teacher turns
        with pytest.raises(PermissionError):
            refused()
    for illegal, said in (("page 1", r"legal: page 2, page 3, end"), ("page 4", "not legal"), ("next", "not legal"),
                          ("swap 1", "not legal")):
        with pytest.raises(IllegalActionError, match=said):
            study.apply(0, illegal, by=teacher)
    with pytest.raises(ValueError, match="is a study: follow it from Follow me"):
        store.join_room(study.code, u["ann"])
    with pytest.raises(ValueError, match="is a study: it holds pages, not a game"):
        study.game()
    assert snapshot(store) == before
    study.apply(0, "end", by=teacher)
    with pytest.raises(IllegalActionError, match="over"):
        study.apply(0, "page 2", by=teacher)


def test_a_study_is_not_played_for_its_away_teacher_nor_rated(store, klass):
    teacher, k, u, _, _ = klass
    study = store.create_study(k, by=teacher, title="Quiet", pages=PAGES)
    store.clock = lambda: study.last_activity + 10 * store.turn_timeout  # the teacher's page unheard for long
    page = store.room(study.code)
    assert page.refresh() == 0 and page.log == []  # nobody turned a page for them
    study.apply(0, "end", by=teacher)
    assert store.room(study.code).rated is False


def test_pages_typed_one_a_line():
    link = ("https://hub.example/voila/render/analysis.ipynb?position=KH%205D%20%3F%20%3F%20%3F%202C%20%2F%209S%20%3F"
            "%20%3F%20%3F%207H%20%3F%3B%20discard%204S%3B%20deck%2039%3B%20seat%200%20to%20draw")
    typed = f"{HOLDS} | Swap it | or not?\n\n  {link} |  Take the 4?  \n{TOOK}\n"
    assert pages_from_text(typed) == [(HOLDS, "Swap it | or not?"), (DRAW, "Take the 4?"), (TOOK, "")]
    for bad, said in (("", "no page typed"), (" | a note only", "line 1: expected a position before the note"),
                      (f"{DRAW}\nanalysis.ipynb?game=3 | x", "line 2: the link holds no position")):
        with pytest.raises(ValueError, match=said):
            pages_from_text(bad)
