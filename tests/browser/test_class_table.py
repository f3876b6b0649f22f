"""The class table in a browser (golflab-voila, the shared test class store; issue 41, point 4): a
teacher opens it on the projector (1024x768), three learners join from their own pages (the class's
open table offered, or its code typed) and vote through a whole hole against the Expert by clicking
as at the table (two for one move, one for another); the teacher closes each vote and the majority's
move is played; every page shows the move, and the projector how the class voted. Prints the seconds
from a vote closing to the move on every page (median and slowest). Screenshots:
test-artifacts/class-table-*.png."""

from __future__ import annotations

import statistics
import time

import pytest

from tests.browser.board_hooks import GOLF, face_down_slots
from tests.browser.conftest import ARTIFACTS, class_tokens, open_signed_in
from tests.browser.test_a11y import assert_accessible, assert_fits_small_screens

TEACHER, PASSWORD, CLASS = "table_teacher", "table-pass-1", "Table class"
LEARNERS = ("table_ann", "table_bob", "table_cat")
WAIT = 120_000  # ms: a page, a vote's count, or a move reaching a page on a loaded 2-core machine
STATUS = ".golf-vote-status"
SECONDS = 120  # a vote stays open this long: long enough that the teacher closes each one


@pytest.fixture(scope="module")
def tokens(voila_server, class_store_url) -> dict:
    from golflab.classroom import Store

    store = Store(class_store_url)
    found = class_tokens(store, TEACHER, LEARNERS, PASSWORD, CLASS)
    store.close()
    return found


def vote_targets(page) -> tuple[str, str]:
    """Two different clicks a learner can vote with now (the same one when there is one)."""
    task = GOLF.awaiting(page)
    down = face_down_slots(page)
    if task in ("initial_flip", "flip"):
        return f".golf-slot-{down[0]}", f".golf-slot-{down[-1]}"
    if task == "draw":
        return ".golf-deck", ".golf-discard"
    if task == "place":
        return (f".golf-slot-{down[0]}" if down else ".golf-slot-0"), ".golf-action-discard"
    raise AssertionError(f"no vote to cast: the board awaits {task!r}: {page.inner_text(GOLF.selector)}")


def test_a_class_votes_a_hole_through_against_the_expert(browser, voila_server, tokens):
    ARTIFACTS.mkdir(exist_ok=True)
    teacher = open_signed_in(browser, voila_server, tokens[TEACHER], "class_table.ipynb",
                             ready=".golf-class-table-open")
    teacher.set_viewport_size({"width": 1024, "height": 768})
    teacher.fill(".golf-class-table-seconds input", str(SECONDS))
    teacher.click(".golf-class-table-open")
    teacher.wait_for_function("s => (document.querySelector(s) || {textContent: ''}).textContent.trim().length === 4",
                              arg=".golf-class-table-code", timeout=WAIT)  # the table is open: its code shows
    code = teacher.inner_text(".golf-class-table-code").strip()
    assert len(code) == 4, code
    learners = []
    for i, name in enumerate(LEARNERS):
        page = open_signed_in(browser, voila_server, tokens[name], "class_table.ipynb", ready=".golf-together-code")
        if i == 0:  # the class's open table is offered: no code to type
            page.click(f".golf-together-open >> text={code}", timeout=WAIT)
        else:
            page.fill(".golf-together-code input", code.lower())
            page.click(".golf-together-join")
        page.locator(".golf-together-waiting").wait_for(timeout=WAIT)
        learners.append(page)
    teacher.locator(".golf-class-table-voters", has_text="3 learners joined").wait_for(timeout=WAIT)
    teacher.screenshot(path=str(ARTIFACTS / "class-table-lobby.png"))
    teacher.click(".golf-class-table-start")

    reach: list[float] = []
    votes = 0
    while GOLF.awaiting(teacher) != "game-over":
        teacher.locator(STATUS, has_text="Vote now").wait_for(timeout=WAIT)
        for i, page in enumerate(learners):
            GOLF.wait_for_learner(page)
            first, other = vote_targets(page)
            page.click(other if i == 2 else first, timeout=WAIT)
            page.locator(".golf-my-vote", has_text="Your vote").wait_for(timeout=WAIT)
        teacher.locator(STATUS, has_text="3 of 3 voted").wait_for(timeout=WAIT)
        if votes == 1:  # the vote still open: its count-down and the learner's vote on the page
            learners[0].screenshot(path=str(ARTIFACTS / "class-table-learner-voted.png"))
            assert_accessible(learners[0], "a learner's page with a vote open and their vote taken")
        pages = [teacher, *learners]
        before = [GOLF.key(p) for p in pages]
        start = time.perf_counter()
        teacher.click(".golf-vote-close")
        for page, key in zip(pages, before):
            page.wait_for_function("([s, b]) => { const el = document.querySelector(s);"
                                   " return el && el.className + '|' + el.textContent !== b; }",
                                   arg=[GOLF.selector, key], timeout=WAIT)
            reach.append(time.perf_counter() - start)
        played = teacher.locator(".golf-vote-results .golf-vote-played td.num").first.inner_text(timeout=WAIT)
        assert played in ("2", "3"), played  # the majority's move (three when both clicks meant one move)
        votes += 1
        if votes == 2:
            assert_accessible(teacher, "the projector with a vote's results")
            teacher.screenshot(path=str(ARTIFACTS / "class-table-projector.png"))
        assert votes < 40, "the hole did not end"
    assert votes >= 4
    for page in learners:
        page.locator(".golf-vote-results", has_text="How the class voted").wait_for(timeout=WAIT)
        assert GOLF.awaiting(page) == "game-over"
    assert_accessible(learners[0], "a learner's page at the class table")
    assert_fits_small_screens(learners[0], "class_table.ipynb")  # a learner's phone or tablet, by touch
    teacher.screenshot(path=str(ARTIFACTS / "class-table-over.png"), full_page=True)
    print(f"\nclass table: {votes} votes; a closed vote's move on every page after a median of "
          f"{statistics.median(reach):.2f} s, at most {max(reach):.2f} s")
