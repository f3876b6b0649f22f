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
