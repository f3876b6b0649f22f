"""Rooms at the table (golflab_widgets.rooms.panel, room_board, room_follow) on a real SQLite store:
two learners' pages in one room follow each other's moves, refusals are plain and change nothing,
a page's widget state never holds another seat's hidden cards (nor the draw pile or the seed), a
second tab of the same learner watches, an away player's turns are played by a CPU and said, the
finished game is kept for each learner, and the teacher watches with every card shown."""

from __future__ import annotations

import html
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from golflab_widgets.account.session import PageSession
from golflab_widgets.rooms.board import CodepieceRoomBoard, GolfRoomBoard, RoomWatch
from golflab_widgets.rooms.follow import FULL_REFRESH_SECONDS, RoomFollower
from golflab_widgets.rooms.panel import GUEST_WORDS, ROOM_REVIEW_SAMPLES, RoomsPanel, TeacherRooms, coach_grader

from golflab import Position, Rules
from golflab.classroom import Store
from golflab.classroom.rooms import TAB_STALE_SECONDS
from golflab.coach import review
from tests.support.widget_state import marks, page_state

START = 1_800_000_000.0
PASSWORD = "secret-pw1"
SEED = 20_261_126


@pytest.fixture
def world(tmp_path):
    """A class (Falcons: ann, bob, cat, taught by mrs_lee) and another class (Owls: zed)."""
    now = [START]
    store = Store(f"sqlite:///{tmp_path / 'class.db'}", clock=lambda: now[0])
    lee = store.create_user("mrs_lee", PASSWORD, role="teacher")
    ng = store.create_user("mr_ng", PASSWORD, role="teacher")
    falcons, owls = store.create_class("Falcons", lee), store.create_class("Owls", ng)
    invite = store.create_invite(falcons, by=lee)
    users = {n: store.register(n, PASSWORD, invite) for n in ("ann", "bob", "cat")}
    users["zed"] = store.register("zed", PASSWORD, store.create_invite(owls, by=ng))
    yield dict(store=store, now=now, lee=lee, ng=ng, falcons=falcons, owls=owls, **users)
    store.close()


def panel(world, name: str, game: str = "golf") -> RoomsPanel:
    return RoomsPanel(game, session=PageSession(world["store"], world[name]), follow=False)


def started_room(world, seats: int = 3, cpus: int = 1):
    """ann hosts (seat 0), bob joins (seat 1), CPU players fill the rest; ann starts."""
    store = world["store"]
    room = store.create_room(world["ann"], Rules(rounds=1), seats=seats, cpus=["Maya"] * cpus,
                             seed=SEED)
    store.join_room(room.code, world["bob"])
    room.start(by=world["ann"])
    return room.code


def boards(world, code: str):
    store = world["store"]
    return (GolfRoomBoard(store.room(code), 0, world["ann"], follow=False),
            GolfRoomBoard(store.room(code), 1, world["bob"], follow=False))


def poll(*pages) -> None:
    for page in pages:
        if page.follower.step():
            page.redraw()


def play_some(world, pages, *, until, seed: int = 7, limit: int = 500) -> None:
    """Both pages play random legal moves (their own seats only) until ``until()``."""
    rng = random.Random(seed)
    for _ in range(limit):
        poll(*pages)
        if until():
            return
        table = pages[0].room.table
        if table.between:
            assert pages[0].act("next")
            continue
        mover = next((p for p in pages if p.seat == table.seat_to_move), None)
        if mover is None:  # a CPU's turn: a poll plays it
            continue
        obs = mover.game.observation(mover.seat)
        assert mover.act(str(rng.choice(obs.legal_actions)))
    raise AssertionError("the condition was never met")


def test_two_learners_pages_follow_each_others_moves(world):
    code = started_room(world)
    ann, bob = boards(world, code)
    assert "Your turn" in ann.status_text and "ann's turn" in bob.status_text
    assert "waiting for ann to turn cards face up" in bob.status_text and "thinking" not in bob.status_text
    ann.board.slots[0].click()  # ann turns up her first card
    assert ann.room.log[-1][:2] == (0, "flip 0")
    before = bob.board.opponents.value
    poll(bob)
    assert bob.room.log[-1][:2] == (0, "flip 0")
    assert bob.board.opponents.value != before  # ann's card is face up on bob's page now
    assert "ann: flip 0" in bob.log_box.value
    ann.board.slots[1].click()
    poll(ann, bob)  # then the CPU or bob: whoever it is, both pages say the same
    assert ann.room.log == bob.room.log
    assert [m.text for m in ann.story.moves] == [m.text for m in bob.story.moves]


def said_moves(page) -> str:
    """The moves a room page's status line (its live region) names."""
    found = re.search(r'<span class="golf-last">(.*?)</span>', page.board.status.value)
    return html.unescape(found.group(1)) if found else ""


def test_a_room_page_names_every_move_that_came_at_once_and_a_page_that_opens_only_the_last(world):
    """bob's move and the two CPU players' after it reach ann's page in one read: her status line (the
    page's live region) names all three, so a screen reader hears each turn; a page opened mid-game
    names only the last move it caught up on."""
    code = started_room(world, seats=4, cpus=2)  # ann 0, bob 1, the CPU players 2 and 3
    ann, bob = boards(world, code)
    rng, heard = random.Random(3), []
    for _ in range(200):
        poll(bob)
        table = bob.room.table
        if table.seat_to_move == 1:
            before = len(ann.story.moves)
            assert bob.act(str(rng.choice(bob.game.observation(1).legal_actions)))
            poll(ann)
            new = ann.story.moves[before:]
            heard.append(len(new))
            said = "Last move: " if len(new) == 1 else "Last moves: "
            assert said_moves(ann) == said + " ".join(m.text + "." for m in new), said_moves(ann)
            if len(new) >= 3:
                break
        elif table.seat_to_move == 0:
            poll(ann)
            assert ann.act(str(rng.choice(ann.game.observation(0).legal_actions)))
    assert max(heard) >= 3, heard  # bob's move and both CPU players' came at once
    opened = GolfRoomBoard(world["store"].room(code), 0, world["ann"], follow=False)
    assert said_moves(opened) == f"Last move: {opened.story.moves[-1].text}."


def test_a_refusal_right_after_moves_came_shows_the_board_and_names_those_moves(world):
    """bob's move and the CPU players' after it have not reached ann's page when she clicks: her
    click reads them, so her refusal comes with the board as it is now and its status names them."""
    code = started_room(world, seats=4, cpus=2)  # ann 0, bob 1, the CPU players 2 and 3
    ann, bob = boards(world, code)
    rng = random.Random(5)
    for _ in range(200):  # to bob's turn after the initial flips: his move and the CPU players' come next
        poll(ann, bob)
        page = {0: ann, 1: bob}[bob.room.table.seat_to_move]
        if page is bob and bob.game.awaiting == "draw":
            break
        assert page.act(str(rng.choice(page.game.observation(page.seat).legal_actions)))
    before = len(ann.story.moves)
    while bob.room.table.seat_to_move == 1:
        assert bob.act(str(rng.choice(bob.game.observation(1).legal_actions)))
    assert not ann.act("discard", "discard")  # her page has not read bob's move yet; she has drawn nothing
    new = ann.story.moves[before:]
    assert len(new) >= 2, new  # bob's, then the CPU players'
    assert said_moves(ann) == "Last moves: " + " ".join(m.text + "." for m in new), said_moves(ann)
    assert "golf-refused" in ann.board.status._dom_classes
    assert ann.board.deck_button.disabled is False  # drawn as it is now: her turn, the deck to draw from


def test_the_teachers_watch_changes_its_status_last(world):
    """The status line is what a watcher (a test, a screen reader's live region) waits on: when it
    changes, the board, the scores and the moves it speaks of have changed already."""
    code = started_room(world)
    ann, bob = boards(world, code)
    watch = RoomWatch(world["store"].room(code), follow=False)
    changed: list[str] = []
    for name in ("title", "status", "table", "scores", "log_box"):
        getattr(watch, name).observe(lambda _change, name=name: changed.append(name), "value")
    for moves in (4, 9, 14):
        play_some(world, (ann, bob), until=lambda moves=moves: len(ann.room.log) >= moves)
        changed.clear()
        assert watch.follower.step()
        watch.redraw()
        assert changed[-1] == "status" and {"table", "log_box"} <= set(changed), changed


def test_a_move_for_a_seat_not_yours_is_refused_and_changes_nothing(world):
    code = started_room(world)
    ann, bob = boards(world, code)
    bob.board.deck_button.click()
    bob.board.slots[2].click()
    assert "Please wait: it is ann's turn" in bob.status_text
    assert "golf-refused" in bob.board.status._dom_classes
    assert ann.room.log == [] and world["store"].room(code).log == []
    with pytest.raises(PermissionError):  # the engine refuses anyway
        world["store"].room(code).apply(0, "flip 0", by=world["bob"])
    assert world["store"].room(code).log == []


def test_refusals_are_said_plainly_and_change_nothing(world):
    store = world["store"]
    host = panel(world, "ann")
    host.seats.value, host.cpus.value = 2, 0
    assert host.create()
    code = host.room.code
    assert panel(world, "bob").join(code)
    cat = panel(world, "cat")
    assert not cat.join(code)
    assert "is full" in cat.message.value and "Nothing was changed" in cat.message.value
    assert not cat.join("ZZZZ") and "check the code with the host" in cat.message.value
    assert not cat.join("A1") and "room code" in cat.message.value
    zed = panel(world, "zed")
    room2 = store.create_room(world["ann"], Rules(rounds=1), seats=3)
    assert not zed.join(room2.code) and "belongs to another class" in zed.message.value
    assert store.room(room2.code).players == ("ann", None, None)
    world["now"][0] += 61 * 60  # idle past ROOM_TIMEOUT_MINUTES
    assert not cat.join(room2.code) and "has closed" in cat.message.value
    assert store.room(code).players == ("ann", "bob") and cat.room is None and cat.board is None
    bob = panel(world, "bob")
    bob.join(code)
    assert not bob.start() and "only the host" in bob.message.value
    cards = store.create_room(world["ann"], {"deals": 1}, seats=4, game="codepiece")
    assert not cat.join(cards.code) and "open the Codepiece app" in cat.message.value
    assert store.room(cards.code).players == ("ann", None, None, None)  # cat took no seat


def test_a_page_learns_nothing_of_a_room_it_may_not_join_and_waits_after_wrong_codes(world):
    from golflab.classroom import throttle

    cards = world["store"].create_room(world["ann"], {"deals": 1}, seats=4, game="codepiece")
    zed = panel(world, "zed")  # the play app: a Codepiece room of another class is no room for zed
    assert not zed.join(cards.code) and "belongs to another class" in zed.message.value
    assert "Codepiece" not in zed.message.value
    for code in ("ACDE", "FGHJ", "KMNP", "QRTU")[:throttle.FREE_FAILURES - 1]:
        assert not zed.join(code) and "no room has the code" in zed.message.value
    assert not zed.join("VWXY") and "too many wrong room codes: try again in 30 seconds" in zed.message.value


def test_guest_sees_one_sentence(world):
    guest = RoomsPanel(session=PageSession(), follow=False)
    text = page_state(guest)
    assert GUEST_WORDS.replace("'", "&#x27;")[:40] in text or GUEST_WORDS[:40] in text
    assert "golf-room-create" not in text


def test_lobby_lists_who_joined_and_the_host_starts(world):
    host = panel(world, "ann")
    host.holes.value, host.seats.value, host.cpus.value = 1, 4, 1
    assert host.create()
    code = host.room.code
    assert code in host.code.value and host.start_button.layout.display is None
    bob = panel(world, "bob")
    assert bob.join(code.lower())
    assert bob.start_button.layout.display == "none"
    host.follower.step()
    host._lobby_changed()
    assert "bob" in host.lobby.value and "empty" in host.lobby.value and "Maya (CPU)" not in host.lobby.value
    assert "Start when everyone is here" in host.lobby.value and "Waiting for" not in host.lobby.value
    assert "Waiting for ann to start" in bob.lobby.value  # the host is told to start, the others to wait
    assert "scrollIntoView" not in bob.scroller.value
    assert host.start()
    assert isinstance(host.board, GolfRoomBoard)
    bob.follower.step()  # bob's lobby sees the start and opens his seat's board
    bob._lobby_changed()
    assert isinstance(bob.board, GolfRoomBoard) and bob.board.seat == 1
    # the page scrolls to the board (a solo table may sit above the panel)
    assert bob.board_slot.children == (bob.scroller, bob.board) and "scrollIntoView" in bob.scroller.value
    assert 'closest(".golf-room-board-slot")' in html.unescape(bob.scroller.value)
    assert host.room.players[3] is not None and host.room.seats[3].cpu  # a CPU took the empty seat


def play_until_bob_holds_a_drawn_card(world, ann, bob) -> None:
    """Play the room on until bob (seat 1) holds a card drawn from the deck; both pages polled."""

    def bob_holds_a_drawn_card() -> bool:
        g = ann.room.game()
        return g.current_player == 1 and g.held is not None and g.held_source == "draw"

    play_some(world, (ann, bob), until=bob_holds_a_drawn_card)
    poll(ann, bob)


def test_a_page_never_receives_another_seats_hidden_cards_nor_the_deck_nor_the_seed(world):
    code = started_room(world)
    ann, bob = boards(world, code)
    game = world["store"].room(code).game()
    assert Rules(rounds=1).decks_for(3) == 1  # one deck: a card seen anywhere is that very card
    play_until_bob_holds_a_drawn_card(world, ann, bob)
    game = ann.room.game()
    hidden = [c for s in (1, 2) for c, up in zip(game.grid(s), game.face_up(s)) if not up] + [game.held]
    peek = game.copy()  # the next card of the draw pile, without touching the room
    peek.apply("discard")
    assert peek.awaiting == "draw"
    peek.apply("draw")
    hidden.append(peek.held)
    text = page_state(ann)
    assert len(hidden) >= 5
    for card in hidden:
        for mark in marks(card):
            assert mark not in text, f"ann's page holds {card} ({mark!r})"
    assert str(SEED) not in text
    mine = page_state(bob)
    assert any(m in mine for m in marks(game.held))  # bob sees his own drawn card: the check can fail


def linked_position(page) -> Position:
    """The position the room page's link opens (``analysis.ipynb?position=...``)."""
    found = re.search(r'href="([^"]+)"', page.link.value)
    assert found and "golf-position-link" in page.link._dom_classes, page.link.value
    query = urlsplit(html.unescape(found.group(1))).query
    return Position.parse(parse_qs(query)["position"][0])


def test_a_room_page_links_the_moment_as_its_own_seat_sees_it(world):
    """The link on a live room's page opens the moment on the analysis board from that page's seat:
    the seat's own view (Position.of its observation), never a card it cannot see."""
    code = started_room(world)
    ann, bob = boards(world, code)
    assert linked_position(ann) == Position.of(ann.game.observation(0))
    assert linked_position(ann).stage == "turn up"
    play_until_bob_holds_a_drawn_card(world, ann, bob)
    game = ann.room.game()
    for page, seat in ((ann, 0), (bob, 1)):
        linked = linked_position(page)
        assert linked == Position.of(game.observation(seat)) and linked.seat == seat
        face_up = [c for c, up in zip(game.grid(seat), game.face_up(seat)) if up]
        assert [c for c in linked.cards[seat] if c is not None] == face_up and len(face_up) < 6  # none face down
    assert "; seat 1 holds ?, seen by seat 0;" in str(linked_position(ann))  # bob's drawn card unseen
    assert linked_position(bob).held == game.held  # bob sees his own


def test_a_newer_tab_of_the_same_learner_plays_and_the_older_one_watches(world):
    code = started_room(world)
    ann, _bob = boards(world, code)
    assert ann.holds_seat
    newer = GolfRoomBoard(world["store"].room(code), 0, world["ann"], follow=False)  # a reload, or a second tab
    assert newer.holds_seat and "only watches" not in page_state(newer)
    assert not ann.act("flip 0", "slot", 0) and "only watches" in ann.status_text  # its next move asks first
    assert "only watches" in page_state(ann) and world["store"].room(code).log == []
    assert newer.act("flip 0", "slot", 0)
    world["now"][0] += TAB_STALE_SECONDS + 1  # the newer tab closed (quiet): the older one plays again
    ann.follower.step(heartbeat=True)
    assert ann.holds_seat and ann.act("flip 1", "slot", 1)


def test_a_reload_returns_to_the_same_seat_by_itself(world):
    code = started_room(world)
    again = panel(world, "bob")  # a new page of bob's: no code typed
    assert again.room is not None and again.room.code == code
    assert again.seat == 1 and isinstance(again.board, GolfRoomBoard)
    assert again.join(code) and again.seat == 1  # typing the code again changes nothing


def test_an_away_players_turns_are_played_by_a_cpu_and_said(world):
    code = started_room(world)
    ann, bob = boards(world, code)
    ann.act("flip 0")
    ann.act("flip 1")
    world["now"][0] += world["store"].turn_timeout + 1  # nobody heard from for longer than the timeout
    ann.follower.claim_now()  # ann is back: only bob is away
    poll(ann)
    moved = [entry for entry in ann.room.log if entry[0] == 1]
    assert moved and all(cpu for _seat, _action, cpu in moved)  # bob's turns, played by a CPU
    table = ann.room.table
    if table.seat_to_move == 1:
        assert "bob is away, so a CPU plays for bob" in ann.status_text


def test_the_finished_game_is_kept_for_each_learner(world):
    code = started_room(world)
    ann, bob = boards(world, code)
    play_some(world, (ann, bob), until=lambda: ann.room.state == "over")
    poll(ann, bob)
    for page, name in ((ann, "ann"), (bob, "bob")):
        assert page.kept is not None and "kept in your games" in page.note.value
        games = world["store"].games(world[name], by=world[name])
        assert [g.room for g in games] == [code]
    assert "Game over" in ann.status_text


def test_a_graded_game_is_kept_with_the_coachs_accuracy(world):
    code = started_room(world)
    calls = []

    def grader(game, seat, keep):
        calls.append(seat)
        keep(87.5, 1)

    ann = GolfRoomBoard(world["store"].room(code), 0, world["ann"], follow=False, grader=grader)
    bob = GolfRoomBoard(world["store"].room(code), 1, world["bob"], follow=False)
    play_some(world, (ann, bob), until=lambda: ann.room.state == "over")
    poll(ann, bob)
    assert calls == [0]
    assert world["store"].games(world["ann"], by=world["ann"])[0].accuracy == 87.5


def test_the_teacher_watches_every_card_and_a_learner_cannot(world):
    code = started_room(world)
    ann, bob = boards(world, code)
    ann.act("flip 0")
    teacher = TeacherRooms(PageSession(world["store"], world["lee"]), follow=False)
    assert [c for _label, c in teacher.room_list.options] == [code]
    assert teacher.room_list.value == code  # the Watch button watches it without choosing first
    watch = teacher.watch_room(code)
    assert isinstance(watch, RoomWatch) and "golf-large" in watch._dom_classes
    text = page_state(watch)
    game = world["store"].room(code).game()
    for seat in range(3):
        for card in game.grid(seat):
            assert f'title="{card.code}"' in text
    assert not teacher.watch_room("ZZZZ") and "not an open room" in teacher.message.value
    assert "golf-room-info" not in teacher.message._dom_classes  # a refusal: in the problem's dark red
    other = TeacherRooms(PageSession(world["store"], world["ng"]), follow=False)
    assert other.room_list.options == ()
    # no room is news, not an error: in the text's own colour (issue 38 point 7: it was red)
    assert "No open room" in other.message.value and "golf-room-info" in other.message._dom_classes
    assert not other.watch_room(code) and "golf-room-info" not in other.message._dom_classes
    learner = TeacherRooms(PageSession(world["store"], world["ann"]), follow=False)
    assert "Only a signed-in teacher" in page_state(learner) and code not in page_state(learner)


def test_codepiece_room_pages_show_only_their_own_hand(world):
    store = world["store"]
    host = panel(world, "ann", "codepiece")
    host.holes.value, host.cpus.value = 1, 2
    assert host.create()
    code = host.room.code
    bob = panel(world, "bob", "codepiece")
    assert bob.join(code)
    assert host.start()
    bob.follower.step()
    bob._lobby_changed()
    room = store.room(code)
    text = page_state(host.board)
    for seat in (1, 2, 3):
        for card in room.observation(seat)["hand"]:
            assert f"cp-card-{card}" not in text
    assert all(f"cp-card-{c}" in text for c in room.observation(0)["hand"])
    table = room.table
    page = host.board if table.seat_to_move == 0 else bob.board if table.seat_to_move == 1 else None
    if page is not None:
        other = bob.board if page is host.board else host.board
        assert not other.act(table.legal()[0]) and "Please wait" in other.status_text
        assert page.act(table.legal()[0])
        assert not other.act("no_such_move")  # its page had not read that move: the refusal shows it
        assert other.room.log == page.room.log and other.log_lines[-1] == page.log_lines[-1]
    host.board.redraw()
    told = [line for line in host.board.log_lines if line != "Next deal dealt."]
    # sentences ("Left bids 9."), not "Left: bid 9"
    assert told and all(line.endswith(".") and ": " not in line for line in told), told


def test_a_codepiece_rooms_page_is_told_once_when_the_match_is_over(world):
    """As a golf room's: the rooms panel then gives the page's own table back."""
    store = world["store"]
    room = store.create_room(world["ann"], {"deals": 1}, seats=4, cpus=["CPU"] * 3, game="codepiece", seed=SEED)
    room.start(by=world["ann"])
    told = []
    page = CodepieceRoomBoard(store.room(room.code), 0, world["ann"], follow=False, on_over=lambda: told.append(1))
    for _ in range(200):
        poll(page)
        if page.room.game().over:
            break
        assert told == []  # not before the match is over
        table = page.room.table
        if table.seat_to_move == 0 and table.legal():
            assert page.act(table.legal()[0])
    page.redraw()
    page.redraw()
    assert page.room.game().over and "The match is over" in page.status_text and told == [1]


def test_the_coach_grades_only_the_learners_own_moves(world):
    code = started_room(world)
    ann, bob = boards(world, code)
    play_some(world, (ann, bob), until=lambda: ann.room.state == "over")
    game = ann.room.game()
    kept = []
    coach_grader(game, 1, lambda *args: kept.append(args))
    [(accuracy, blunders)] = kept
    assert 0 <= accuracy <= 100 and blunders >= 0
    graded = review(game, 1, samples=ROOM_REVIEW_SAMPLES)
    assert (accuracy, blunders) == (graded.accuracy, graded.counts["BLUNDER"])
    assert graded.grades and {ann.room.log[g.step][0] for g in graded.grades} == {1}  # bob's decisions only (1 hole)


def test_a_playing_rooms_page_reads_it_all_only_when_a_move_came_or_each_second(world):
    code = started_room(world)
    room = world["store"].room(code)
    clock = [100.0]
    follower = RoomFollower(room, lambda: None, seat=1, user=world["bob"], clock=lambda: clock[0])
    follower.claim_now()
    reads = []
    room.refresh = lambda real=room.refresh: reads.append(1) or real()
    for _ in range(3):
        clock[0] += 0.15
        assert not follower.step()
    assert reads == []  # nothing new: only the moves were counted
    world["store"].room(code).apply(0, "flip 0", by=world["ann"])  # another page's move
    clock[0] += 0.15
    assert follower.step() and reads == [1] and room.log[-1][:2] == (0, "flip 0")
    clock[0] += FULL_REFRESH_SECONDS
    follower.step()
    assert reads == [1, 1]  # and a whole read every second (seats, away players' turns)


def _skip_a_move(store, code: str) -> None:
    """Corrupt room ``code``: a move logged after a gap in ``seq``, as a bad write could leave it."""
    from sqlalchemy import func, insert, select

    from golflab.classroom import schema as T

    with store.engine.begin() as conn:
        moves = conn.execute(select(func.count()).where(T.room_log.c.room == code)).scalar_one()
        conn.execute(insert(T.room_log).values(room=code, seq=moves + 1, seat=0, action="flip 0", by_cpu=False,
                                               at=START))


def test_a_broken_room_is_said_and_closed_while_the_others_are_listed(world):
    store = world["store"]
    good = started_room(world)
    bad = store.create_room(world["cat"], Rules(rounds=1), seats=2, cpus=["Maya"], seed=SEED)
    bad.start(by=world["cat"])
    board = GolfRoomBoard(store.room(bad.code), 0, world["cat"], follow=False)
    _skip_a_move(store, bad.code)
    teacher = TeacherRooms(PageSession(store, world["lee"]), follow=False)
    assert [c for _label, c in teacher.room_list.options] == [good]
    assert f"Room {bad.code} is broken (its moves skip" in teacher.message.value
    assert "closed" in teacher.message.value
    teacher.list_rooms()  # closed now: no longer listed, nor said again
    assert [c for _label, c in teacher.room_list.options] == [good] and teacher.message.value == ""
    poll(board)  # the page at the broken table says so and stops following
    assert "is broken" in board.follower.problem and board.follower.done
    cat = panel(world, "cat")  # cat's page does not go back to the broken room, nor fail
    assert cat.room is None
    assert not cat.join(bad.code) and "is broken" in cat.message.value


def test_every_room_deals_its_own_cards_whatever_golflab_seed(world, monkeypatch):
    monkeypatch.setenv("GOLFLAB_SEED", "7")
    rooms = []
    for name in ("ann", "bob"):
        page = panel(world, name)
        assert page.create()
        rooms.append(world["store"].room(page.room.code))
    assert rooms[0].seed != rooms[1].seed


def test_a_learner_named_like_a_cpu_gets_other_cpus_and_starts(world):
    store = world["store"]
    store.register("Sofia", PASSWORD, store.create_invite(world["falcons"], by=world["lee"]))
    world["Sofia"] = store.user("Sofia")
    page = panel(world, "Sofia")
    page.seats.value, page.cpus.value = 2, 1
    assert page.create()
    assert page.room.seats[1].cpu not in (None, "Sofia")
    assert page.start() and store.room(page.room.code).state == "playing"


def test_after_sign_out_the_open_page_creates_no_room_and_says_it_is_signed_out(world, monkeypatch):
    store = world["store"]
    monkeypatch.setenv("GOLFLAB_ACCOUNT_URL", "/golflab")
    token = store.sign_in("ann", PASSWORD)
    page = RoomsPanel(session=PageSession(store, store.user_for(token)), follow=False)
    store.sign_out(token)
    assert not page.create() and page.room is None
    assert "signed out" in page.message.value and 'href="/golflab/signin' in page.message.value
    assert store.open_room_of(world["ann"]) is None and not page.session.signed_in


def test_the_pages_own_table_waits_while_its_learner_plays_a_room_and_comes_back_after(world):
    from golflab_widgets import GolfTable
    from golflab_widgets.rooms.panel import AWAY_WORDS

    solo = GolfTable(players=["Sofia"], rules=Rules(rounds=1), seed=3, cpu_delay=0)
    before = solo.save()
    host = RoomsPanel("golf", session=PageSession(world["store"], world["ann"]), follow=False, table=solo)
    host.holes.value, host.seats.value, host.cpus.value = 1, 2, 1
    assert host.create() and host.start()
    away = AWAY_WORDS.format(code=host.room.code)
    assert solo.set_aside_for == away and solo.status_text == away and "Your turn" not in solo.status_text
    assert solo.awaiting == "aside" and solo.board.felt.layout.display == "none"
    solo.slots[0].click()  # a click on the hidden table (a kernel-side click) is refused and changes nothing
    assert solo.save() == before and away in solo.status_text
    assert solo.new_game_button.disabled  # no new deal behind the learner's back, even by a kernel-side click
    solo.new_game_button.click()
    solo.new_game_button.click()
    assert solo.save() == before and away in solo.status_text
    board = host.board
    play_some(world, (board,), until=lambda: board.room.state == "over")  # ann and a CPU play the hole out
    poll(board)
    assert "Game over" in board.status_text
    assert solo.set_aside_for is None and solo.board.felt.layout.display is None
    assert solo.status_text.startswith("Your turn") and solo.save() == before and not solo.new_game_button.disabled
    with pytest.raises(ValueError, match="needs a note"):
        solo.set_aside(" ")
