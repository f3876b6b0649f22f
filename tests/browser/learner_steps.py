"""Steps a learner takes in the browser that more than one test needs: signing in on the sign-in
page, and the lesson 2 exercise whose right first answer completes the lesson (a star) when the
eight others were answered on an earlier visit (``answered_all_but_the_first``)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from golflab import Game, score_hand

LESSON2 = "lesson2_scoring_and_pairs.ipynb"
#: Lesson 2's nine exercises as the learner's progress names them (<n>-<skill>: widgets.lessons.sets).
LESSON2_ITEMS = ("1-score-hand", "2-pairs", "3-score-hand", "4-pairs", "5-score-hand", "6-pairs", "7-score-hand",
                 "8-pairs", "9-score-hand")
FIRST_HAND = Game(players=2, seed=4).grid(0)  # lesson 2's first exercise: ScoreHand.dealt(4)
PROGRESS = ".golf-exercise-progress"
STARS = f"{PROGRESS} .golf-lesson-stars"
WAIT = 60_000


def sign_in(page, base: str, name: str, password: str, next_path: str) -> None:
    """Sign in on ``base``'s sign-in page and land on ``next_path`` (a path under ``base``)."""
    page.goto(f"{base}/golflab/signin?next={next_path}", wait_until="load")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(re.escape(next_path) + "$"), timeout=WAIT)


def answered_all_but_the_first(store, learner) -> None:
    """Lesson 2's items 2-9 answered right, as on an earlier visit."""
    for item in LESSON2_ITEMS[1:]:
        store.record_exercise(learner, "lesson2", item, True, lesson_items=len(LESSON2_ITEMS),
                              skill=item.split("-", 1)[1])


def earn_the_lesson2_star(page) -> None:
    """On lesson 2's page, with items 2-9 answered before: answer the first right, and the page
    shows three stars."""
    page.locator(PROGRESS).wait_for(timeout=120_000)
    expect(page.locator(PROGRESS)).to_contain_text("8 of 9 answered, 8 right", timeout=WAIT)  # the earlier visit
    box = page.locator(".golf-exercise-0")
    box.locator(".golf-exercise-number input").fill(str(score_hand(FIRST_HAND)))
    box.locator(".golf-exercise-check").click()
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-right", timeout=WAIT)
    expect(page.locator(STARS)).to_have_text("\u2605\u2605\u2605", timeout=WAIT)
