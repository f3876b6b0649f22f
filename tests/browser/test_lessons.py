"""The lessons in a real browser: each opens with its exercises and links, and an exercise is
answered through the hooks (a refused entry, a wrong answer explained, then the right one).
Full-page screenshots of each lesson go to test-artifacts/."""

from __future__ import annotations

import re

import pytest
from board_hooks import shoot_whole
from playwright.sync_api import expect

from golflab import Game, score_hand

LESSONS = ["lesson1_deal_and_turn.ipynb", "lesson2_scoring_and_pairs.ipynb", "lesson3_which_card_to_replace.ipynb",
           "lesson4_when_to_go_out.ipynb", "lesson5_house_rules.ipynb"]
PROGRESS = ".golf-exercise-progress"
WAIT = 30_000  # ms for the kernel to answer a click
FIRST_HAND = Game(players=2, seed=4).grid(0)  # lesson 2's first exercise: ScoreHand.dealt(4)




@pytest.mark.parametrize("index", range(len(LESSONS)), ids=[n.split("_")[0] for n in LESSONS])
def test_each_lesson_opens_with_exercises_and_links(page, voila_server, app_opener, index):
    name = LESSONS[index]
    app_opener(page, voila_server, name, ready=PROGRESS, timeout=120_000)
    assert re.search(r"0 of \d+ answered, 0 right", page.locator(PROGRESS).inner_text())
    assert page.locator(".golf-exercise-check").count() >= 3
    hrefs = [a.get_attribute("href") or "" for a in page.locator("a").all()]
    assert any(h.endswith("index.ipynb") for h in hrefs)
    following = LESSONS[index + 1] if index + 1 < len(LESSONS) else "puzzles.ipynb"
    assert any(h.endswith(following) for h in hrefs)
    shoot_whole(page, f"lesson{index + 1}")


def test_answer_a_lesson_exercise(page, voila_server, app_opener):
    app_opener(page, voila_server, LESSONS[1], ready=PROGRESS, timeout=120_000)
    box = page.locator(".golf-exercise-0")
    number = box.locator(".golf-exercise-number input")
    check = box.locator(".golf-exercise-check")
    feedback = box.locator(".golf-exercise-feedback")
    right = score_hand(FIRST_HAND)

    number.fill("twelve")
    check.click()
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-refused", timeout=WAIT)
    assert '"twelve" is not a number' in feedback.inner_text()
    assert "0 of" in page.locator(PROGRESS).inner_text()

    number.fill(str(right + 3))
    check.click()
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-wrong", timeout=WAIT)
    assert f"you said {right + 3}, the hand scores {right}" in feedback.inner_text()
    assert "Left column" in feedback.inner_text()
    box.scroll_into_view_if_needed()
    shoot_whole(page, "lesson2-exercise-wrong")

    number.fill(str(right))
    check.click()
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-right", timeout=WAIT)
    assert f"Right: the hand scores {right}" in feedback.inner_text()
    expect(page.locator(PROGRESS)).to_contain_text(re.compile(r"1 of \d+ answered, 1 right"), timeout=WAIT)
    shoot_whole(page, "lesson2-exercise-right")
