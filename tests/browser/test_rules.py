"""The rules app in a real browser: the score pad's lesson on pairs, a typed card refused with
an explanation, plain-language examples and the way back to the landing page. Screenshots of
each state at 1366x900 and 1024x768 go to test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
RESULT = ".golf-score-result"
WAIT = 30_000  # ms for the kernel to answer a change


def type_card(page, slot: int, text: str) -> None:
    box = page.locator(f".golf-score-slot-{slot} .golf-card-text input")
    box.fill(text)
    box.press("Enter")


def shoot(page, name: str) -> None:
    page.locator(".golf-score-slot-0").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"rules-{name}-{page.viewport_size['width']}.png"))


@pytest.mark.parametrize("size", [(1366, 900), (1024, 768)], ids=["1366", "1024"])
def test_score_pad_teaches_pairs_and_explains_a_bad_card(page, voila_server, app_opener, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    app_opener(page, voila_server, "rules.ipynb", ready=RESULT, timeout=120_000)
    result = page.locator(RESULT)
    assert "saves" in result.inner_text() and page.locator(".golf-score-warning").count() == 0
    shoot(page, "default")

    type_card(page, 4, "2D")  # under the 2 of spades: a pair of negative cards
    page.wait_for_selector(".golf-score-warning", timeout=WAIT)
    warning = page.locator(".golf-score-warning").inner_text()
    assert "pair of negative cards" in warning and "throws away 4 points" in warning
    assert "\u2714" not in warning
    shoot(page, "negative-pair")

    before = result.inner_html()
    type_card(page, 4, "KX")
    message = page.locator(".golf-score-message")
    message.wait_for(state="visible", timeout=WAIT)
    text = message.inner_text()
    assert "Bottom middle keeps the 2\u2666" in text and '"X" is not a suit' in text
    assert page.locator(".golf-score-slot-4 .golf-card-text input").input_value() == "2D"
    assert result.inner_html() == before  # nothing changed
    shoot(page, "bad-card")


def test_the_walkthrough_reads_as_teaching_text_and_links_home(page, voila_server, app_opener):
    app_opener(page, voila_server, "rules.ipynb", ready=RESULT, timeout=120_000)
    body = page.inner_text("body")
    for developer in ("legal now", "['", "knock_penalty:", "seat 0", "initial_flip \u00b7", "standard_value"):
        assert developer not in body
    assert re.search("Ann drew the (ace|king|queen|jack|ten|joker|[2-9]) from the deck", body)
    assert page.locator("a[href$='index.ipynb']").count() >= 1
