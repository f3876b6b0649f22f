"""The puzzles app in a real browser: a wrong option explained with every option's worth, then a
puzzle solved through the hooks, with the running score. Screenshots go to test-artifacts/."""

from __future__ import annotations

from golflab_widgets.lessons.puzzle_board import BATCH, option_class
from playwright.sync_api import expect

from golflab import Rules
from golflab.puzzles import DIFFICULTY, generate
from tests.browser.board_hooks import shoot_whole

FEEDBACK = ".golf-puzzle-feedback"
WAIT = 30_000  # ms for the kernel to answer a click




def test_solve_puzzles_through_the_hooks(page, voila_server, app_opener):
    # The app's first puzzles: PuzzleBoard() on the visit seed (GOLFLAB_SEED=7 under test: generate seed 700),
    # medium difficulty, "where the card goes".
    first, second = generate(BATCH, seed=700, rules=Rules(), min_gap=DIFFICULTY["medium"], kind="place")[:2]
    app_opener(page, voila_server, "puzzles.ipynb", ready="." + option_class(first.answer), timeout=120_000)
    assert "Which option is best?" in page.locator(".golf-puzzle-question").inner_text()
    shoot_whole(page, "puzzles-question")

    wrong = first.options[1].action
    page.locator("." + option_class(wrong)).click()
    page.wait_for_selector(".golf-puzzle-wrong", timeout=WAIT)
    text = page.locator(FEEDBACK).inner_text()
    assert "Not the best" in text and "(your choice)" in text
    assert all(f"{o.value:+.1f}" in text for o in first.options)
    expect(page.locator(".golf-puzzle-score")).to_contain_text("solved 0 of 1", timeout=WAIT)
    shoot_whole(page, "puzzles-wrong")

    page.locator(".golf-puzzle-next").click()
    page.wait_for_selector("." + option_class(second.answer) + ":not([disabled])", timeout=WAIT)
    page.locator("." + option_class(second.answer)).click()
    page.wait_for_selector(".golf-puzzle-right", timeout=WAIT)
    assert "Right!" in page.locator(FEEDBACK).inner_text()
    expect(page.locator(".golf-puzzle-score")).to_contain_text("solved 1 of 2 · streak 1", timeout=WAIT)
    shoot_whole(page, "puzzles-right")
