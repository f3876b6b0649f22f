"""The large display in the apps (issue 11): ``?large=1`` on an app's URL shows the table and a
lesson's exercises large (``golf-large``), each app reading it the same way; without it they
are normal size."""

from __future__ import annotations

import pytest

STEP_TIMEOUT = 90_000  # ms


def _font_px(page, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)"))


@pytest.mark.parametrize("notebook, board, text", [
    ("play.ipynb", ".golf-table", ".golf-status"),
    ("lesson2_scoring_and_pairs.ipynb", ".golf-exercise-set", ".golf-exercise-progress"),
])
def test_large_on_the_url_makes_the_board_large(page, voila_server, app_opener, notebook, board, text):
    page.set_viewport_size({"width": 1024, "height": 768})
    app_opener(page, voila_server, notebook, ready=text, timeout=STEP_TIMEOUT)
    assert "golf-large" not in page.get_attribute(board, "class")
    normal = _font_px(page, text)
    app_opener(page, voila_server, f"{notebook}?large=1", ready=text, timeout=STEP_TIMEOUT)
    assert "golf-large" in page.get_attribute(board, "class")
    assert _font_px(page, text) >= normal + 6, "the large display's type is not larger"
    page.locator(board).scroll_into_view_if_needed()
    name = notebook.split("_")[0].removesuffix(".ipynb")
    page.screenshot(path=str(voila_server.log_path.parent / f"large-{name}-1024.png"))


def test_at_1024x768_the_large_table_shows_the_learners_whole_grid(page, voila_server, app_opener):
    """The large display is for projectors at 1024x768: with the table at the top of the screen the
    learner's bottom row is in view, not below the fold (it was at 800 px: the lessons' large card
    size also applied to the opponents' grids, and the CPU speed label took a line of its own)."""
    page.set_viewport_size({"width": 1024, "height": 768})
    app_opener(page, voila_server, "play.ipynb?large=1", ready=".golf-slot-5", timeout=STEP_TIMEOUT)
    # Voila scrolls its cells inside a container: bring the table's top to the top of the screen
    page.wait_for_function("() => { const t = document.querySelector('.golf-table');"
                           " t.scrollIntoView({block: 'start'}); return Math.abs(t.getBoundingClientRect().top) < 1; }",
                           timeout=STEP_TIMEOUT)
    bottoms = page.evaluate("() => [0, 1, 2, 3, 4, 5].map(i => document.querySelector('.golf-slot-' + i)"
                            ".getBoundingClientRect().bottom)")
    assert max(bottoms) <= 768, f"the learner's cards end at {max(bottoms):.0f} px, below the 768 px screen"
    mine = page.eval_on_selector(".golf-slot-0", "e => e.getBoundingClientRect().height")
    theirs = page.eval_on_selector(".golf-opp .gl-card", "e => e.getBoundingClientRect().height")
    assert theirs < mine * 0.6, (theirs, mine)  # the opponents' cards stay smaller than the learner's
    page.screenshot(path=str(voila_server.log_path.parent / "large-table-1024x768.png"))
