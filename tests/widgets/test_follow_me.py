"""Follow me driven from Python on a real SQLite class store (issue 41, point 4): a teacher opens a
study of three positions, from typed lines or from a puzzle set, and turns its pages; two learners'
pages follow, each trying moves on their own copy, which changes nobody else's page. Refusals
are said and change nothing; a page never holds the face-down card its teacher knew."""

from __future__ import annotations

import pytest
from golflab_widgets.account.session import PageSession
from golflab_widgets.coach.analysis_steps import move_hook
from golflab_widgets.rooms.board import RoomWatch
from golflab_widgets.rooms.follow_me import FollowMe, FollowMeApp, FollowStudy

from golflab import Card
from golflab.classroom import Store
from tests.support.class_fill import falcons
from tests.support.widget_state import marks, page_state, widget_tree

PASSWORD = "pass-word-1"
#: Seat 1 holds the 8 of diamonds; seat 0's position 3 is a face-down queen of spades its teacher knows.
HOLDS = "KH 5D ? (QS) ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D"
DRAW = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 39; seat 0 to draw"
TOOK = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 3C; deck 38; seat 1 took 4S"
TYPED = f"{HOLDS} | Swap it, or discard it?\n{DRAW} | Take the 4?\n{TOOK}"


@pytest.fixture
def world(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'class.db'}")
    yield falcons(store, ("ann", "bob"), PASSWORD)
    store.close()


def teacher(world) -> FollowMe:
    return FollowMe(PageSession(world["store"], world["lee"]), follow=False)


def learner(world, name: str) -> FollowStudy:
    return FollowStudy(PageSession(world["store"], world[name]), follow=False)


def button(widget, hook: str):
    (found,) = [x for x in widget_tree(widget) if hook in getattr(x, "_dom_classes", ())]
    return found


def test_two_learners_follow_a_study_of_three_positions(world):
    projector = teacher(world)
    projector.title.value, projector.pages.value = "Monday", TYPED
    assert projector.open_study(), projector.message.value
    code = projector.room.code
    assert code in projector.code.value and [b.description for b in projector.goto.children] == ["1", "2", "3"]
    pages = {n: learner(world, n) for n in ("ann", "bob")}
    (offered,) = pages["ann"].open_studies.children  # the class's study: no code to type
    assert code in offered.description and "Monday" in offered.description
    offered.click()
    assert pages["bob"].follow_study(code.lower())
    projector.show_followers()
    assert projector.followers.value == "2 learners following."
    for page in pages.values():
        assert "Page 1 of 3" in page.view.heading.value and "Swap it, or discard it?" in page.view.note.value
        assert "analysis.ipynb?position=" in page.view.link.value and "%28QS%29" not in page.view.link.value
        assert all(mark not in page_state(page) for mark in marks(Card("Q", "S")))  # the card its teacher knew
        assert "8\u2666" in page_state(page) or "8D" in page_state(page)  # the mover's own drawn card
    # ann tries a move on her copy: bob's page and the teacher's do not change
    assert pages["ann"].view.steps.play("discard")
    assert pages["ann"].view.steps.played and not pages["bob"].view.steps.played
    assert not projector.view.steps.played and projector.room.log == []
    for number, note in ((2, "Take the 4?"), (3, "")):
        projector.next_button.click()
        assert f"Page {number} of 3" in projector.view.heading.value
        for page in pages.values():
            assert page.poll()
            assert f"Page {number} of 3" in page.view.heading.value and page.view.note.value == note
            assert not page.view.steps.played  # a new page: a new copy
    assert projector.next_button.disabled and not projector.prev_button.disabled
    projector.goto.children[0].click()  # straight to page 1
    pages["bob"].poll()
    assert "Page 1 of 3" in pages["bob"].view.heading.value
    bob_steps = pages["bob"].view.steps
    legal = [str(a) for a in bob_steps.game.legal_actions()]
    button(bob_steps, move_hook(legal[0])).click()  # a move's button on bob's copy
    assert bob_steps.played
    assert not pages["bob"].poll() and pages["bob"].view.steps is bob_steps  # nothing new: his copy stays
    projector.end_button.click()
    for page in pages.values():
        page.poll()
        assert "the study has ended" in page.view.heading.value and "Page 1 of 3" in page.view.heading.value
    assert [e[1] for e in projector.room.log] == ["page 2", "page 3", "page 1", "end"]
    assert projector.setup.layout.display is None  # ready for another study
    assert pages["ann"].open_studies.children  # still the button of the page's first look ...
    pages["ann"].show_open_studies()
    assert pages["ann"].open_studies.children == ()  # ... an ended study is no longer offered


def test_a_study_from_a_puzzle_set(world):
    store, lee = world["store"], world["lee"]
    made = store.create_puzzle_set(world["falcons"], "Discards", by=lee)
    store.add_set_item(made, DRAW, "take", by=lee, title="Take it", note="A 4 next to your 5.")
    store.add_set_item(made, TOOK, "swap 4", by=lee, title="Where?", note="")
    projector = teacher(world)
    assert [label for label, _ in projector.puzzle_set.options][1].startswith("Discards (2 positions)")
    projector.title.value, projector.puzzle_set.value = "From the set", made.id
    assert projector.open_study(), projector.message.value
    page = learner(world, "ann")
    assert page.follow_study(projector.room.code)
    assert "Page 1 of 2" in page.view.heading.value and page.view.note.value == "Take it<br>A 4 next to your 5."


def test_refusals_are_said_and_change_nothing(world):
    projector = teacher(world)
    projector.title.value, projector.pages.value = "Monday", f"{DRAW} | fine\nKH KH | broken"
    assert not projector.open_study()
    assert "The study was not opened: page 2:" in projector.message.value and projector.room is None
    assert world["store"].studies(world["falcons"], by=world["lee"]) == []
    projector.pages.value = TYPED
    projector.title.value = ""
    assert not projector.open_study() and "title is 1 to 100 characters" in projector.message.value
    projector.title.value = "Monday"
    assert projector.open_study()
    code = projector.room.code
    zed = learner(world, "zed")
    assert zed.open_studies.children == ()  # another class's study is not offered
    assert not zed.follow_study(code) and "could not follow it" in zed.message.value and zed.room is None
    ann = learner(world, "ann")
    assert not ann.follow_study("XXXX") and "no room has the code XXXX" in ann.message.value
    room = world["store"].create_room(world["ann"], seats=2, cpus=["Sofia"])
    assert not ann.follow_study(room.code) and "is not a study" in ann.message.value
    assert ann.follow_study(code)
    assert not projector.turn(1) and "Not turned" in projector.message.value  # page 1 shows already
    assert projector.room.log == []
    assert not ann.view.steps.play("swap 9") and "not played" in ann.view.steps.problem.value


def test_the_app_gives_each_role_its_page_and_a_guest_a_sentence(world):
    assert isinstance(FollowMeApp(PageSession(world["store"], world["ann"])), FollowStudy)
    assert isinstance(FollowMeApp(PageSession(world["store"], world["lee"])), FollowMe)
    assert "Sign in to follow" in page_state(FollowMeApp(PageSession()))
    refused = FollowMe(PageSession(world["store"], world["ann"]))
    assert "opened by a teacher" in page_state(refused) and refused.room is None


def test_the_teachers_room_list_shows_a_study_as_its_class_sees_it(world):
    study = world["store"].create_study(world["falcons"], by=world["lee"], title="Monday",
                                        pages=[(HOLDS, "Swap it?"), (DRAW, "Take it?")])
    watch = RoomWatch(study, follow=False)
    assert "A study, Monday: page 1 of 2." in watch.status.value and "Swap it?" in watch.table.value
    assert all(mark not in watch.table.value for mark in marks(Card("Q", "S")))
    study.apply(0, "page 2", by=world["lee"])
    watch.follower.step()
    watch.redraw()
    assert "page 2 of 2" in watch.status.value and "Take it?" in watch.table.value


def test_after_sign_out_the_open_pages_turn_nothing_and_say_they_are_signed_out(world):
    store = world["store"]
    token = store.sign_in("mrs_lee", PASSWORD)
    projector = FollowMe(PageSession(store, store.user_for(token)), follow=False)
    projector.title.value, projector.pages.value = "Monday", TYPED
    assert projector.open_study()
    ann_token = store.sign_in("ann", PASSWORD)
    ann = FollowStudy(PageSession(store, store.user_for(ann_token)), follow=False)
    store.sign_out(token)  # the teacher signs out on the classroom's computer: the projector's page turns nothing
    assert not projector.turn(2) and "signed out" in projector.message.value
    assert store.room(projector.room.code).log == [] and not projector.session.signed_in
    assert ann.follow_study(projector.room.code)
    store.room(projector.room.code).apply(0, "page 2", by=world["lee"])  # the teacher's other computer
    store.sign_out(ann_token)  # ann signs out in another tab: her open page shows no more pages
    assert ann.poll()  # the page turn reaches her page, which no longer shows it
    assert "signed out" in ann.message.value and "Page 1 of 3" in ann.view.heading.value
    assert not ann.session.signed_in
    bob_token = store.sign_in("bob", PASSWORD)
    bob = FollowStudy(PageSession(store, store.user_for(bob_token)), follow=False)
    store.sign_out(bob_token)
    assert not bob.follow_study(projector.room.code) and "signed out" in bob.message.value and bob.room is None
