"""The class table's pages driven from Python on a real SQLite class store (issue 41, point 4): the
teacher opens it, three learners join by its code and vote through a whole hole against a CPU player
by clicking as at the table; the vote closes at the end of its count-down and plays the majority's
move; each page then shows how the class voted and what each option was worth. Two halves of a
class (four learners) play a hole against each other: the projector never shows the card a half
drew, a learner's page only their own half's. Refusals are said and change nothing; a learner never
sees another seat's hidden cards."""

from __future__ import annotations

import pytest
from golflab_widgets.account.session import PageSession
from golflab_widgets.rooms.class_table import ClassTable, ClassTableApp, PlayTogether

from golflab.classroom import Store
from golflab.classroom.class_tables import HALVES
from golflab.rules import Rules
from tests.support.class_fill import falcons
from tests.support.widget_state import marks, page_state

PASSWORD = "pass-word-1"
LEARNERS = ("ann", "bob", "cat")
FOUR = (*LEARNERS, "dan")
SECONDS = 5


@pytest.fixture
def world(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'class.db'}")
    yield falcons(store, FOUR, PASSWORD)
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
        assert page.joining.layout.display == "none"  # joined: no more code to type
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


def onward(room, seat: int) -> str:
    """A move that brings the hole nearer its end: from the deck into a face-down card, or a flip."""
    down = [i for i, c in enumerate(room.observation(seat).grids[seat]) if c is None]
    legal = sorted(room.table.legal())
    return next((a for a in (*(f"swap {i}" for i in down), *(f"flip {i}" for i in down), "draw") if a in legal),
                legal[0])


def shows(page, card) -> bool:
    text = page_state(page)
    return any(mark in text for mark in marks(card))


def test_two_halves_vote_a_hole_through_each_seeing_only_its_own_drawn_card(world):
    projector = opened(world, HALVES)
    room, code = projector.room, projector.room.code
    assert Rules.from_dict(room.rules).decks_for(2) == 1  # one deck: a card seen anywhere is that very card
    learners = [PlayTogether(PageSession(world["store"], world[n]), follow=False) for n in FOUR]
    for page in learners:
        assert page.join(code)
        assert f"You are in {room.players[page.seat]}" in page.message.value
    halves = {seat: [p for p in learners if p.seat == seat] for seat in room.team_seats}
    assert [len(h) for h in halves.values()] == [2, 2]  # join_team keeps the halves even
    projector.show_voters()
    assert "4 learners joined (Half A 2, Half B 2)" in projector.voters.value
    projector.start()
    for page in learners:
        page.poll()
    held = played = 0
    for _ in range(150):
        poll(projector)
        if room.state == "over":
            break
        mover = room.table.seat_to_move
        name, turn = room.players[mover], len(room.log)
        assert projector.vote_turn == turn, projector.board.status_text
        half_a = room.players[room.team_seats[0]]  # at the bottom of the projector whoever is to move
        below = projector.board.board
        assert f">{half_a} \u00b7 total" in below.mine_label.value and half_a not in below.opponents.value, half_a
        assert f"{name}: vote now" in projector.vote_status.value and "0 of 2 voted" in projector.vote_status.value
        for page in learners:
            poll(page)
            assert page.board.game.observation(page.board.seat).seat == page.seat  # its half's view only
        game = room.game()
        if game.held is not None and game.held_source == "draw":  # the half holds a card from the deck
            held += 1
            assert not shows(projector, game.held), f"the projector shows {name}'s drawn {game.held}"
            assert f"{name} is choosing its move" in projector.board.status_text
            board = projector.board.board  # a back in hand below, or the words above; nothing to click
            said = board.hand.value if mover == room.team_seats[0] else board.opponents.value
            assert (f"{name} drew" if mover == room.team_seats[0] else "holds a card from the deck") in said
            assert not any("click to" in slot.tooltip for slot in board.slots) and "you drew" not in board.hand.value
            assert "its half of the class votes" in page_state(projector)  # under the half's name, not a person's
            assert f"{name} drew the " not in page_state(projector)  # the log's words, the suit unsaid
            for page in learners:
                assert shows(page, game.held) == (page.seat == mover), (page.session.user.name, name)
                assert (f"{name} drew the " in page_state(page)) == (page.seat == mover)
        (other, *_), log = halves[1 - mover], list(room.log)
        move = onward(room, mover)
        assert not other.board.act(move)  # the other half's turn: refused, said, nothing changes
        assert f"It is {name}'s turn" in other.board.status_text and other.board.my_vote.value == ""
        assert room.tally().voters == 0 and room.log == log
        for page in halves[mover]:
            assert page.board.act(move) and "Your vote:" in page.board.my_vote.value
        projector.show_vote()
        assert "2 of 2 voted" in projector.vote_status.value
        for _second in range(SECONDS):
            projector.tick()
        closed = room.closed_votes()[-1]
        assert (closed.turn, closed.seat, closed.action, closed.votes) == (turn, mover, move, {move: 2})
        assert f"How {name} voted" in projector.results.value
        for page in learners:  # both halves read how this half voted: its move is public now
            poll(page)
            assert f"How {name} voted" in page.board.results.value
        played += 1
    assert room.state == "over" and held >= 4 and played >= 8
