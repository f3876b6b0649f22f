"""A lesson in a real browser: an exercise is answered through the hooks (a refused entry, a wrong
answer nudged without the answer, the answer shown on request, then typed: right, but not at the
first try). Screenshots of the nudge and the reveal go to test-artifacts/. Each lesson opening with
its exercises and links is checked on the page test_a11y opens for it (``assert_lesson_opened``);
the stars: tests/browser/test_progress.py."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from golflab import Game, score_hand
from tests.browser.board_hooks import ARTIFACTS, LESSON_PROGRESS, LESSONS, shoot_whole

WAIT = 30_000  # ms for the kernel to answer a click
FIRST_HAND = Game(players=2, seed=4).grid(0)  # lesson 2's first exercise: ScoreHand.dealt(4)


def test_answer_a_lesson_exercise(page, voila_server, app_opener):
    app_opener(page, voila_server, LESSONS[1], ready=LESSON_PROGRESS, timeout=120_000)
    box = page.locator(".golf-exercise-0")
    number = box.locator(".golf-exercise-number input")
    check = box.locator(".golf-exercise-check")
    feedback = box.locator(".golf-exercise-feedback")
    right = score_hand(FIRST_HAND)

    number.fill("twelve")
    check.click()
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-refused", timeout=WAIT)
    assert '"twelve" is not a number' in feedback.inner_text()
    assert "0 of" in page.locator(LESSON_PROGRESS).inner_text()

    number.fill(str(right + 3))
    check.click()
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-wrong", timeout=WAIT)
    nudge = feedback.inner_text()
    assert "column by column" in nudge and "Show the answer" in nudge
    assert not re.search(rf"\b{right}\b", nudge)  # a nudge, not the answer
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(ARTIFACTS / "lesson2-exercise-nudge.png"))

    box.locator(".golf-exercise-reveal").click()
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-revealed", timeout=WAIT)
    assert f"The hand scores {right}" in feedback.inner_text() and "Left column" in feedback.inner_text()
    expect(page.locator(LESSON_PROGRESS)).to_contain_text(re.compile(r"1 of \d+ answered, 0 right at the first try"),
                                                          timeout=WAIT)
    box.screenshot(path=str(ARTIFACTS / "lesson2-exercise-reveal.png"))

    number.fill(str(right))  # typing the answer shown finishes the question, but earns no first-try right
    check.click()
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-right", timeout=WAIT)
    assert f"Right: the hand scores {right}" in feedback.inner_text()
    assert "not at the first try" in feedback.inner_text()
    expect(page.locator(LESSON_PROGRESS)).to_contain_text(re.compile(r"1 of \d+ answered, 0 right at the first try"),
                                                          timeout=WAIT)

    pair = page.locator(".golf-exercise-1")  # will this pair (two queens) pay? right at the first try
    pair.locator(".golf-exercise-choice input[type=radio]").first.check()  # "Yes, it saves points"
    pair.locator(".golf-exercise-check").click()
    page.wait_for_selector(".golf-exercise-1 .golf-exercise-right", timeout=WAIT)
    expect(page.locator(LESSON_PROGRESS)).to_contain_text(re.compile(r"2 of \d+ answered, 1 right at the first try"),
                                                          timeout=WAIT)
    shoot_whole(page, "lesson2-exercise-right")
