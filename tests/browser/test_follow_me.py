"""Follow me in a browser (golflab-voila, the shared test class store; issue 41, point 4): a teacher
types a study of three positions with notes on the projector (1024x768) and opens it; two learners
follow it from their own pages (the class's study offered, or its code typed); the teacher turns
the pages and every learner's page follows; a learner tries a move on their own copy, which the
other's page does not show. Prints the seconds from a page turn to the page on every learner's
page (median and slowest). Screenshots: test-artifacts/follow-me-*.png."""

from __future__ import annotations

import statistics
import time

import pytest

from tests.browser.conftest import ARTIFACTS, class_tokens, open_signed_in
from tests.browser.test_a11y import assert_accessible, assert_fits_small_screens

TEACHER, PASSWORD, CLASS = "study_teacher", "study-pass-1", "Study class"
LEARNERS = ("study_ann", "study_bob")
WAIT = 120_000  # ms: a page, or a page turn reaching a learner, on a loaded 2-core machine
HEADING = ".golf-study-view .golf-study-heading"
PAGES = ("KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D | Swap the 8, or discard it?",
         "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 39; seat 0 to draw | Would you take the 4?",
         "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 3C; deck 38; seat 1 took 4S | Where does the 4 go?")


@pytest.fixture(scope="module")
def tokens(voila_server, class_store_url) -> dict:
    return class_tokens(class_store_url, TEACHER, LEARNERS, PASSWORD, CLASS)


def test_two_learners_follow_a_study_of_three_positions(browser, voila_server, tokens):
    ARTIFACTS.mkdir(exist_ok=True)
    teacher = open_signed_in(browser, voila_server, tokens[TEACHER], "follow_me.ipynb", ready=".golf-study-open")
    teacher.set_viewport_size({"width": 1024, "height": 768})
    teacher.fill(".golf-study-title input", "Monday's three")
    teacher.fill(".golf-study-pages textarea", "\n".join(PAGES))
    teacher.click(".golf-study-open")
    teacher.locator(HEADING, has_text="Page 1 of 3").wait_for(timeout=WAIT)
    code = teacher.inner_text(".golf-study-code").split()[-1]
    assert len(code) == 4, code
    learners = []
    for i, name in enumerate(LEARNERS):
        page = open_signed_in(browser, voila_server, tokens[name], "follow_me.ipynb", ready=".golf-follow-code")
        if i == 0:  # the class's study is offered: no code to type
            page.click(f".golf-follow-open >> text={code}", timeout=WAIT)
        else:
            page.fill(".golf-follow-code input", code.lower())
            page.click(".golf-follow-join")
        page.locator(HEADING, has_text="Page 1 of 3").wait_for(timeout=WAIT)
        assert "Swap the 8, or discard it?" in page.inner_text(".golf-study-note")
        learners.append(page)
    ann, bob = learners
    teacher.locator(".golf-study-followers", has_text="2 learners following").wait_for(timeout=WAIT)  # counted
    ann.click(".golf-step-move-discard", timeout=WAIT)  # ann tries a move on her own copy
    ann.locator(".golf-step-log", has_text="discard").wait_for(timeout=WAIT)
    ann.click(".golf-step-values-section .jupyter-widget-Collapse-header")  # open the coach's values
    ann.locator(".golf-step-values", has_text="The coach's values").wait_for(timeout=WAIT)  # valued, not thinking
    ann.screenshot(path=str(ARTIFACTS / "follow-me-learner-tried.png"), full_page=True)
    assert bob.locator(".golf-step-log li").count() == 0  # her copy is hers alone
    assert teacher.locator(".golf-step-log li").count() == 0

    reach: list[float] = []
    for number in (2, 3):
        start = time.perf_counter()
        teacher.click(".golf-study-next")
        for page in learners:
            page.locator(HEADING, has_text=f"Page {number} of 3").wait_for(timeout=WAIT)
            reach.append(time.perf_counter() - start)
            page.locator(".golf-step-log li").first.wait_for(state="detached", timeout=WAIT)  # a new page: a new copy
        teacher.locator(HEADING, has_text=f"Page {number} of 3").wait_for(timeout=WAIT)
        if number == 2:
            teacher.screenshot(path=str(ARTIFACTS / "follow-me-projector.png"))
            assert_accessible(teacher, "the projector showing a study's page")
            assert_fits_small_screens(teacher, "follow_me-teacher")  # a teacher's tablet, by touch too
            teacher.set_viewport_size({"width": 1024, "height": 768})
    assert "Where does the 4 go?" in bob.inner_text(".golf-study-note")
    assert_accessible(bob, "a learner's page following a study")
    teacher.click(".golf-study-end")
    for page in learners:
        page.locator(HEADING, has_text="the study has ended").wait_for(timeout=WAIT)
    bob.screenshot(path=str(ARTIFACTS / "follow-me-ended.png"), full_page=True)
    assert_fits_small_screens(bob, "follow_me.ipynb")  # a phone's and a tablet's screen, by touch
    print(f"\nfollow me: a page turn on every learner's page after a median of {statistics.median(reach):.2f} s, "
          f"at most {max(reach):.2f} s")
