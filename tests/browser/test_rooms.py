"""Play each other in the browser: three learners, each in their own Chromium context with their own
sign-in cookie, play a whole hole in one room of the play app (1 hole, 3 people and 1 CPU); one of
them reloads mid-hole and returns to their seat. No page's HTML holds another seat's face-down card or
another seat's drawn card, and axe finds nothing serious on a page while another player holds one.
The teacher watches the room from class.ipynb.

Screenshots: test-artifacts/rooms-lobby.png, rooms-board-start.png (a page as the game starts),
rooms-solo-table-aside.png (Play's own table then, set aside),
rooms-turn-seat1.png and rooms-turn-seat2.png (one moment from two seats), rooms-board-link.png (the
board with its link to the moment on the analysis board, from its own seat), rooms-teacher.png."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from golflab import Position
from golflab.classroom import Store
from tests.browser.conftest import ARTIFACTS, VIEWPORT, assert_not_clipped, class_tokens, open_signed_in
from tests.browser.test_a11y import SMALL_SCREENS, assert_accessible

PASSWORD = "rooms-pass-1"
LEARNERS = ("rita", "sam", "tess")
TEACHER = "mr_room"
BOARD = ".golf-room-board"
STATUS = f"{BOARD} .golf-status"
TIMEOUT = 60_000
PHONE = dict(zip(("width", "height"), SMALL_SCREENS[0]))


@pytest.fixture(scope="module")
def people(voila_server, class_store_url):
    """A teacher with a class of three learners; a session token for each."""
    store = Store(class_store_url)
    yield store, class_tokens(store, TEACHER, LEARNERS, PASSWORD, "Room class")
    store.close()


def open_as(browser, server, token: str, notebook: str, ready: str):
    """A signed-in page, given as long to load as every app's page (``OPEN_TIMEOUT``): the three
    learners' pages open one after another, each but the first on a kernel started for it."""
    return open_signed_in(browser, server, token, notebook, ready)


def join(page, code: str) -> None:
    page.fill(".golf-room-join-code input", code)
    page.click(".golf-room-join")
    page.locator(BOARD if page.locator(BOARD).count() else ".golf-room-lobby").first.wait_for(timeout=TIMEOUT)


def awaiting(page) -> str:
    classes = page.get_attribute(STATUS, "class") or ""
    return next((c[len("golf-await-"):] for c in classes.split() if c.startswith("golf-await-")), "")


def face_down(page) -> list[int]:
    return [i for i in range(6) if "golf-back" in (page.get_attribute(f"{BOARD} .golf-slot-{i}", "class") or "")]


def status_key(page) -> str:
    return page.eval_on_selector(STATUS, "el => el.className + '|' + el.textContent")


def play_one(page) -> bool:
    """One move for this page's seat if it is its turn; True when it played."""
    if page.locator(f"{BOARD} .golf-room-watching").count():
        return False
    what = awaiting(page)
    before = status_key(page)
    if what in ("initial_flip", "flip"):
        page.click(f"{BOARD} .golf-slot-{face_down(page)[0]}")
    elif what == "draw":
        page.click(f"{BOARD} .golf-deck")
    elif what == "place":
        page.click(f"{BOARD} .golf-action-discard")
    else:
        return False
    page.wait_for_function("([sel, before]) => { const el = document.querySelector(sel);"
                           " return el && (el.className + '|' + el.textContent) !== before; }",
                           arg=[STATUS, before], timeout=TIMEOUT)
    return True


def hidden_marks(store, code: str, seat: int) -> list[str]:
    """How the cards ``seat`` may not see would be written: other seats' face-down cards and a card
    another seat drew from the deck."""
    game = store.room(code).game()
    cards = [c for s in range(game.num_players) if s != seat
             for c, up in zip(game.grid(s), game.face_up(s)) if not up]
    if game.current_player != seat and game.held is not None and game.held_source == "draw":
        cards.append(game.held)
    return [m for c in cards for m in (f'title="{c.code}"', c.pretty)]


def assert_nothing_leaks(store, code: str, pages: dict) -> None:
    for seat, page in pages.items():
        html = page.inner_html(BOARD)
        text = page.inner_text(BOARD)
        for mark in hidden_marks(store, code, seat):
            assert mark not in html and mark not in text, f"seat {seat}'s page shows {mark!r}"


def test_three_learners_play_a_hole_in_one_room_and_one_reloads(browser, voila_server, people):
    store, tokens = people
    ARTIFACTS.mkdir(exist_ok=True)
    rita, sam, tess = (open_as(browser, voila_server, tokens[n], "play.ipynb", ".golf-room-create") for n in LEARNERS)
    rita.fill(".golf-room-holes input", "1")
    rita.press(".golf-room-holes input", "Enter")
    rita.fill(".golf-room-cpus input", "1")
    rita.press(".golf-room-cpus input", "Enter")
    rita.click(".golf-room-create")
    rita.locator(".golf-room-code").wait_for(timeout=TIMEOUT)
    code = rita.inner_text(".golf-room-code").strip()
    assert re.fullmatch(r"[A-Z]{4}", code), code
    assert_not_clipped(rita, ".golf-room-code")
    rita.set_viewport_size(PHONE)  # on a phone too (the phone rule's 28-px line once cut the code)
    assert_not_clipped(rita, ".golf-room-code")
    rita.set_viewport_size(VIEWPORT)
    join(sam, code)
    join(tess, code)
    rita.wait_for_function("() => /tess/.test(document.querySelector('.golf-room-lobby').textContent)",
                           timeout=TIMEOUT)  # the host's lobby updated by itself
    assert "sam" in rita.inner_text(".golf-room-lobby")
    rita.locator(".golf-room-panel").screenshot(path=str(ARTIFACTS / "rooms-lobby.png"))
    assert sam.locator(".golf-room-start").is_hidden()
    rita.click(".golf-room-start")
    pages = {0: rita, 1: sam, 2: tess}
    for page in pages.values():
        page.locator(STATUS).wait_for(timeout=TIMEOUT)
    # sam's page scrolled to the room's board by itself (Play's solo table sits above the panel):
    # the board's top at the window's top, or the page scrolled to its end with the board in view
    sam.wait_for_function("() => { const top = document.querySelector('.golf-room-board-slot')"
                          ".getBoundingClientRect().top; const end = document.scrollingElement;"
                          " return Math.abs(top) < 2 || (top > 0 && top < innerHeight / 2"
                          " && end.scrollTop + innerHeight >= end.scrollHeight - 2); }", timeout=TIMEOUT)
    sam.screenshot(path=str(ARTIFACTS / "rooms-board-start.png"))
    # Play's own table above waits, hidden, and says where its learner plays (not "Your turn")
    solo = sam.locator(".golf-table:not(.golf-room-board) .golf-status")
    assert f"You are playing in room {code} below" in solo.inner_text()
    assert sam.locator(".golf-table:not(.golf-room-board) .golf-felt").is_hidden()
    sam.locator(".golf-table:not(.golf-room-board)").screenshot(path=str(ARTIFACTS / "rooms-solo-table-aside.png"))
    teacher = open_as(browser, voila_server, tokens[TEACHER], "class.ipynb", ".golf-room-watch")
    teacher.click(".golf-room-watch")  # the newest room of the class is chosen already
    watch = teacher.locator(".golf-room-watch-view")
    watch.wait_for(timeout=TIMEOUT)
    assert code in watch.inner_text()
    assert "Your turn" in rita.inner_text(STATUS) and "rita's turn" in sam.inner_text(STATUS)

    reloaded = shot = held_checked = False
    deadline = time.monotonic() + 600
    while store.room(code).state != "over":
        assert time.monotonic() < deadline, "the hole did not finish"
        room = store.room(code)
        mover = room.table.seat_to_move
        if mover in pages and not shot and room.table.legal() and awaiting(pages[mover]) == "draw" \
                and len(room.log) > 8:
            other = pages[(mover + 1) % 3]
            other.wait_for_function("([sel, n]) => document.querySelector(sel).textContent.includes(n)",
                                    arg=[STATUS, f"{room.players[mover]}'s turn"], timeout=TIMEOUT)
            for page, name in ((pages[mover], "rooms-turn-seat1.png"), (other, "rooms-turn-seat2.png")):
                page.locator(f"{BOARD} .golf-rules-bar").scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / name))
            for seat, page in ((mover, pages[mover]), ((mover + 1) % 3, other)):  # each links its own view
                href = page.get_attribute(f"{BOARD} .golf-position-link a", "href")
                linked = Position.parse(parse_qs(urlsplit(href).query)["position"][0])
                assert linked == Position.of(room.game().observation(seat)), href
            pages[mover].locator(BOARD).screenshot(path=str(ARTIFACTS / "rooms-board-link.png"))
            teacher.wait_for_function("([sel, n]) => document.querySelector(sel).textContent.includes(n)",
                                      arg=[".golf-room-watch-view .golf-status", f"{room.players[mover]}'s turn"],
                                      timeout=TIMEOUT)  # the teacher's view follows the table too
            html = teacher.inner_html(".golf-room-watch-view")
            assert all(f'title="{c.code}"' in html for s in range(4) for c in room.game().grid(s))
            watch.scroll_into_view_if_needed()
            teacher.screenshot(path=str(ARTIFACTS / "rooms-teacher.png"))
            shot = True
        if not reloaded and len(room.log) > 12:  # sam reloads mid-hole and comes back to seat 2
            sam.reload(wait_until="domcontentloaded")  # the page returns to the room by itself
            sam.locator(STATUS).wait_for(timeout=TIMEOUT * 2)
            assert "sam \u00b7 total" in sam.inner_text(f"{BOARD} .golf-mine-label")
            sam.locator(f"{BOARD} .golf-room-watching").wait_for(state="detached", timeout=TIMEOUT)
            reloaded = True
            continue
        if mover in pages:
            if play_one(pages[mover]):
                if pages[mover].get_attribute(f"{BOARD} .golf-hand", "class") is not None and \
                        awaiting(pages[mover]) == "place":
                    assert_nothing_leaks(store, code, pages)  # a seat holds a card drawn from the deck
                    if not held_checked:  # what it holds, said on another page's active panel, is readable
                        other = pages[(mover + 1) % 3]
                        other.locator(f"{BOARD} .golf-opp.golf-active .golf-holding",
                                      has_text="holds a card from the deck").wait_for(timeout=TIMEOUT)
                        assert_accessible(other, "a room page while another player holds a drawn card")
                        held_checked = True
            else:
                pages[mover].wait_for_timeout(100)
        else:
            rita.wait_for_timeout(100)  # the CPU's turn: a page's poll plays it

    assert reloaded and shot and held_checked
    room = store.room(code)
    assert room.players[:3] == LEARNERS and sum(not cpu for _s, _a, cpu in room.log) > 0
    for page in pages.values():
        page.wait_for_function("sel => document.querySelector(sel).textContent.includes('Game over')", arg=STATUS,
                               timeout=TIMEOUT)
        page.locator(f"{BOARD} .golf-room-kept").wait_for(timeout=TIMEOUT)  # said once the store has it
        assert "kept in your games" in page.inner_text(f"{BOARD} .golf-room-kept")
    for name in LEARNERS:  # every learner's game kept in their My games
        user = store.user(name)
        assert [g.room for g in store.games(user, by=user)] == [code]
    log_texts = {seat: page.inner_text(f"{BOARD} .golf-room-log") for seat, page in pages.items()}
    assert len({len(t.splitlines()) for t in log_texts.values()}) == 1  # one shared log

    teacher.wait_for_function("sel => document.querySelector(sel).textContent.includes('Game over')",
                              arg=".golf-room-watch-view .golf-status", timeout=TIMEOUT)
    for page in (*pages.values(), teacher):
        page.context.close()
