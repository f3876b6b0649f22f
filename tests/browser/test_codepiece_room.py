"""Codepiece against each other in the browser: two learners, each in their own Chromium context with
their own sign-in cookie, play a one-deal Codepiece room of the Codepiece app (2 people and 2 CPU
players) through the room board's hooks (cp-pass, cp-bid-N, cp-trump-S, cp-card-XX, cp-status): cora
bids the lowest bid left, cyd passes, and the other's page shows the bid. No page's HTML holds a
card of another seat's hand. The teacher watches the room from class.ipynb.

Screenshots: test-artifacts/codepiece-room-lobby.png, codepiece-room-bidding.png,
codepiece-room-trick-seat1.png and codepiece-room-trick-seat2.png (one moment from both seats),
codepiece-room-over.png, codepiece-room-teacher.png."""

from __future__ import annotations

import re
import time

import pytest

from golflab.classroom import Store
from tests.browser.board_hooks import StatusLine, enabled_hooks
from tests.browser.conftest import ARTIFACTS, assert_not_clipped, class_tokens, open_signed_in

PASSWORD = "cp-room-pass-1"
LEARNERS = ("cora", "cyd")
TEACHER = "ms_piece"
BOARD = ".golf-room-board"
STATUS = StatusLine(f"{BOARD} .cp-status", "cp-await-", 60_000)
LEGAL_CARDS = f"{BOARD} .cp-hand button.cp-card:not([disabled])"


@pytest.fixture(scope="module")
def people(voila_server, class_store_url):
    """A teacher with a class of two learners; a session token for each."""
    store = Store(class_store_url)
    yield store, class_tokens(store, TEACHER, LEARNERS, PASSWORD, "Codepiece class")
    store.close()


def open_as(browser, server, token: str, ready: str = ".golf-room-create", notebook: str = "codepiece.ipynb"):
    return open_signed_in(browser, server, token, notebook, ready)  # as long as every page (OPEN_TIMEOUT)


def play_one(page, bid: bool = False) -> "str | None":
    """One move for this page's seat if the board waits for it: the lowest bid when ``bid`` and one
    is left, else pass (or the only bid); spades; the first legal card. The hook it clicked, or None
    when the board did not wait for this seat."""
    what = STATUS.awaiting(page)
    if what == "bid":
        hooks = enabled_hooks(page, f"{BOARD} .cp-pass, {BOARD} [class*='cp-bid-']", "cp-")
        bids = sorted((h for h in hooks if h.startswith("cp-bid-")), key=lambda h: int(h.rsplit("-", 1)[1]))
        target = bids[0] if bid and bids else "cp-pass" if "cp-pass" in hooks else hooks[0]
        STATUS.click_and_wait(page, f"{BOARD} .{target}")
        return target
    if what == "trump":
        STATUS.click_and_wait(page, f"{BOARD} .cp-trump-S")
        return "cp-trump-S"
    if what == "card":
        legal = enabled_hooks(page, LEGAL_CARDS, "cp-card-")
        assert legal, page.inner_text(STATUS.selector)
        STATUS.click_and_wait(page, f"{BOARD} .{legal[0]}")
        assert page.locator(f"{BOARD} .cp-hand .{legal[0]}").count() == 0  # the card left the hand
        return legal[0]
    return None


def assert_no_other_hand_shows(store, code: str, pages: dict) -> None:
    room = store.room(code)
    for seat, page in pages.items():
        html = page.inner_html(BOARD)
        for other in range(4):
            if other != seat:
                for card in room.observation(other)["hand"]:
                    assert f"cp-card-{card}" not in html, f"seat {seat}'s page shows seat {other}'s {card}"


def test_two_learners_play_a_codepiece_room(browser, voila_server, people):
    store, tokens = people
    ARTIFACTS.mkdir(exist_ok=True)
    cora, cyd = (open_as(browser, voila_server, tokens[n]) for n in LEARNERS)
    cora.fill(".cp-room-deals input", "1")
    cora.press(".cp-room-deals input", "Enter")
    cora.fill(".golf-room-cpus input", "2")
    cora.press(".golf-room-cpus input", "Enter")
    cora.click(".golf-room-create")
    cora.locator(".golf-room-code").wait_for(timeout=STATUS.timeout)
    code = cora.inner_text(".golf-room-code").strip()
    assert re.fullmatch(r"[A-Z]{4}", code), code
    assert_not_clipped(cora, ".golf-room-code")
    cyd.fill(".golf-room-join-code input", code)
    cyd.click(".golf-room-join")
    cora.wait_for_function("() => /cyd/.test(document.querySelector('.golf-room-lobby').textContent)",
                           timeout=STATUS.timeout)  # the host's lobby updated by itself
    assert "team" in cora.inner_text(".golf-room-lobby")  # partners sit across
    cora.locator(".golf-room-panel").screenshot(path=str(ARTIFACTS / "codepiece-room-lobby.png"))
    cora.click(".golf-room-start")
    pages = {0: cora, 1: cyd}
    for page in pages.values():
        page.locator(STATUS.selector).wait_for(timeout=STATUS.timeout)
    room = store.room(code)
    assert room.kind == "codepiece" and room.players[:2] == LEARNERS

    teacher = open_as(browser, voila_server, tokens[TEACHER], ".golf-room-watch", "class.ipynb")
    teacher.click(".golf-room-watch")  # the newest room of the class is chosen already
    watch = teacher.locator(".golf-room-watch-view")
    watch.wait_for(timeout=STATUS.timeout)
    assert code in watch.inner_text()

    shots = {"bid": False, "trick": False}
    played = 0
    bids: list[str] = []
    deadline = time.monotonic() + 600
    while store.room(code).state != "over":
        assert time.monotonic() < deadline, "the deal did not finish"
        room = store.room(code)
        mover = room.table.seat_to_move
        page = pages.get(mover)
        if page is None:
            cora.wait_for_timeout(100)  # a CPU's turn: a page's poll plays it
            continue
        what = STATUS.wait_for_learner(page)
        if what == "bid" and not shots["bid"]:
            page.locator(BOARD).screenshot(path=str(ARTIFACTS / "codepiece-room-bidding.png"))
            shots["bid"] = True
        if what == "card" and not shots["trick"] and page.locator(f"{BOARD} .cp-trick .cp-played").count():
            other = pages[1 - mover]
            other.wait_for_function("([sel, name]) => document.querySelector(sel).textContent.includes(name)",
                                    arg=[STATUS.selector, room.players[mover]], timeout=STATUS.timeout)
            page.locator(BOARD).screenshot(path=str(ARTIFACTS / "codepiece-room-trick-seat1.png"))
            other.locator(BOARD).screenshot(path=str(ARTIFACTS / "codepiece-room-trick-seat2.png"))
            assert_no_other_hand_shows(store, code, pages)
            watch.screenshot(path=str(ARTIFACTS / "codepiece-room-teacher.png"))
            shots["trick"] = True
        clicked = play_one(page, bid=mover == 0)  # cora bids when she can; cyd passes
        if clicked is None:
            page.wait_for_timeout(100)
            continue
        played += 1
        if clicked.startswith("cp-bid-"):
            bids.append(clicked.rsplit("-", 1)[1])
            other = pages[1 - mover]  # the other learner's page tells the bid by itself
            other.wait_for_function("([sel, said]) => document.querySelector(sel).textContent.includes(said)",
                                    arg=[BOARD, f"bids {bids[-1]}"], timeout=STATUS.timeout)

    assert all(shots.values()) and played > 0
    room = store.room(code)
    assert sum(not cpu for _s, _a, cpu in room.log) == played  # every move of ours is in the room's log
    assert bids or any(a == "bid_13" for _s, a, _cpu in room.log), "cora had no bid left to make"
    assert [a for s, a, cpu in room.log if s == 0 and not cpu and a.startswith("bid_")] == [f"bid_{b}" for b in bids]
    for page in pages.values():
        page.wait_for_function("([sel, cls]) => document.querySelector(sel).classList.contains(cls)",
                               arg=[STATUS.selector, "cp-await-match-over"], timeout=STATUS.timeout)
        assert "The match is over." in page.inner_text(STATUS.selector)
    cora.locator(BOARD).screenshot(path=str(ARTIFACTS / "codepiece-room-over.png"))
    teacher.wait_for_function("([sel, code]) => document.querySelector(sel).textContent.includes(code)",
                              arg=[".golf-room-watch-view", code], timeout=STATUS.timeout)
    for page in (*pages.values(), teacher):
        page.context.close()
