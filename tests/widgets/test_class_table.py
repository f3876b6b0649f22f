"""The class table's pages driven from Python on a real SQLite class store (issue 41, point 4): the
teacher opens it, three learners join by its code and vote through a whole hole against a CPU player
by clicking as at the table; the vote closes at the end of its count-down and plays the majority's
move; each page then shows how the class voted and what each option was worth. Refusals are said
and change nothing; a learner never sees another seat's hidden cards."""

from __future__ import annotations

import pytest
from golflab_widgets.account.session import PageSession
from golflab_widgets.rooms.class_table import ClassTable, ClassTableApp, PlayTogether

from golflab.classroom import Store
from tests.support.widget_state import page_state

PASSWORD = "pass-word-1"
LEARNERS = ("ann", "bob", "cat")
SECONDS = 5


@pytest.fixture
def world(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'class.db'}")
    lee = store.create_user("mrs_lee", PASSWORD, role="teacher")
    falcons = store.create_class("Falcons", lee)
    invite = store.create_invite(falcons, by=lee)
    users = {n: store.register(n, PASSWORD, invite) for n in LEARNERS}
    ng = store.create_user("mr_ng", PASSWORD, role="teacher")
    users["zed"] = store.register("zed", PASSWORD, store.create_invite(store.create_class("Owls", ng), by=ng))
    yield dict(store=store, lee=lee, **users)
    store.close()


def opened(world, opponent: str = "Sofia") -> ClassTable:
    """The teacher's page with a class table opened against ``opponent`` (the browser test plays the
    Expert, whose every move is valued by many rollouts: here a personality answers at once)."""
    projector = ClassTable(PageSession(world["store"], world["lee"]), follow=False)
    projector.opponent.value, projector.seconds.value = opponent, SECONDS
    projector.open_table()
    assert projector.room is not None, projector.message.value
    return projector


def poll(page) -> None:
    if page.board.follower.step():
        page.board.redraw()


def test_three_learners_vote_a_hole_through_against_a_cpu_player(world):
    projector = opened(world)
    code = projector.room.code
    assert code in projector.code.value and projector.start_button.layout.display is None
    learners = {n: PlayTogether(PageSession(world["store"], world[n]), follow=False) for n in LEARNERS}
    (offered,) = learners["ann"].open_tables.children  # the class's open table: no code to type
    assert code in offered.description
    offered.click()
    for page in learners.values():
        assert page.join(code.lower())
        assert "Waiting for your teacher" in page_state(page)
    projector.show_voters()
    assert "3 learners joined" in projector.voters.value
    projector.start()
    for page in learners.values():
        page.poll()
        assert page.board is not None
    played = 0
    for _ in range(80):
        poll(projector)
        if projector.room.state == "over":
            break
        assert projector.vote_turn is not None, projector.board.status_text  # the CPU replies at once
        assert f"{SECONDS} s left" in projector.vote_status.value and "0 of 3 voted" in projector.vote_status.value
        choices = []
        for i, page in enumerate(learners.values()):
            poll(page)
            obs = page.board.game.observation(page.board.seat)
            assert obs.seat == projector.room.team_seats[0]  # the class's seat: its own view, no one else's
            legal = sorted(str(a) for a in obs.legal_actions)
            choices.append(legal[0] if i < 2 else legal[-1])  # two for the first, one for the last
            assert page.board.act(legal[-1])  # a first vote ...
            assert page.board.act(choices[-1])  # ... changed
            assert "Your vote:" in page.board.my_vote.value
        projector.show_vote()
        assert "3 of 3 voted" in projector.vote_status.value
        for _second in range(SECONDS):
            projector.tick()
        assert projector.vote_turn is None or projector.vote_turn != played
        closed = projector.room.closed_votes()[-1]
        assert closed.action == choices[0] and closed.decided_by == "votes"
        assert closed.votes == ({choices[0]: 2, choices[2]: 1} if choices[0] != choices[2] else {choices[0]: 3})
        assert "How the class voted" in projector.results.value and "golf-vote-played" in projector.results.value
        played += 1
    assert projector.room.state == "over" and played >= 4
    for page in learners.values():
        poll(page)
        assert "How the class voted" in page.board.results.value
        assert page.board.my_vote.value == ""


def test_refusals_are_said_and_change_nothing(world):
    projector = opened(world)
    code = projector.room.code
    zed = PlayTogether(PageSession(world["store"], world["zed"]), follow=False)
    assert zed.open_tables.children == ()  # another class's table is not offered
    assert not zed.join(code) and "could not join" in zed.message.value
    assert not PlayTogether(PageSession(world["store"], world["ann"]), follow=False).join("ZZZZ")
    ann = PlayTogether(PageSession(world["store"], world["ann"]), follow=False)
    assert ann.join(code)
    projector.start()
    ann.poll()
    log = list(projector.room.log)
    assert not ann.board.act("next") and "deals the next hole" in ann.board.status_text
    assert not projector.board.act("draw") and "The class votes" in projector.board.status_text
    projector.board.follower.step()
    assert projector.room.log == log


def test_a_learner_opening_the_app_gets_the_voting_page_and_a_guest_a_sentence(world):
    assert isinstance(ClassTableApp(PageSession(world["store"], world["ann"])), PlayTogether)
    assert isinstance(ClassTableApp(PageSession(world["store"], world["lee"])), ClassTable)
    assert "Sign in to vote" in page_state(ClassTableApp(PageSession()))
    refused = ClassTable(PageSession(world["store"], world["ann"]), follow=False)
    assert "opened by a teacher" in page_state(refused) and refused.room is None
