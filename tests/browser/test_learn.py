"""The learn app (the table with the coach on) in a real browser, through the CSS hooks: a
hint, a graded bad move, the review after the hole, and a costly decision opened in the
replay viewer. Screenshots of each state go to test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TIMEOUT = 60_000  # ms: the coach computes on a machine shared with other work
STATUS = ".golf-status"


def task(page) -> str:
    """Wait while the CPU players move; then what the table waits for (its golf-await-* class)."""
    page.wait_for_function("s => { const el = document.querySelector(s);"
                           " return el && !el.classList.contains('golf-await-cpu'); }", arg=STATUS, timeout=TIMEOUT)
    classes = page.get_attribute(STATUS, "class") or ""
    return next((c[len("golf-await-"):] for c in classes.split() if c.startswith("golf-await-")), "")


def click(page, selector: str) -> None:
    """Click and wait until the status line changes."""
    before = page.eval_on_selector(STATUS, "el => el.className + '|' + el.textContent")
    page.click(selector, timeout=TIMEOUT)
    page.wait_for_function("([s, b]) => { const el = document.querySelector(s);"
                           " return el && el.className + '|' + el.textContent !== b; }",
                           arg=[STATUS, before], timeout=TIMEOUT)


def settled(page, selector: str) -> str:
    """The text of ``selector`` once the coach has finished thinking."""
    page.wait_for_function("s => { const el = document.querySelector(s);"
                           " return el && el.textContent.trim() && !el.textContent.includes('thinking'); }",
                           arg=selector, timeout=TIMEOUT)
    return page.inner_text(selector)


def face_down(page) -> list[int]:
    classes = page.eval_on_selector_all(".golf-slot.golf-back", "els => els.map(e => e.className)")
    return sorted(int(m.group(1)) for c in classes for m in [re.search(r"golf-slot-(\d)", c)] if m)


def careless(page, n: int, now: str) -> None:
    """A careless learner: takes the discard when it can and swaps it in at position n % 6."""
    if now in ("initial_flip", "flip"):
        click(page, f".golf-slot-{face_down(page)[0]}")
    elif now == "draw":
        taken = "golf-legal" in (page.get_attribute(".golf-discard", "class") or "")
        click(page, ".golf-discard" if taken else ".golf-deck")
    elif now == "place":
        click(page, f".golf-slot-{n % 6}")
    else:
        pytest.fail(f"unexpected state {now!r}: {page.inner_text(STATUS)}")


def test_hint_grade_review_and_replay_through_the_hooks(page, voila_server, app_opener, widget_error_finder):
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 1400})
    app_opener(page, voila_server, "learn.ipynb")
    assert page.locator(".golf-coach").first.is_visible()
    while task(page) == "initial_flip":
        click(page, f".golf-slot-{face_down(page)[0]}")
    assert task(page) == "draw"

    page.click(".golf-hint")
    hint = settled(page, ".golf-hint-text")
    assert "\u2605 best" in hint and "draw" in hint and "take" in hint
    page.screenshot(path=str(ARTIFACTS / "learn-hint.png"), full_page=True)

    bad = None
    for n in range(200):
        now = task(page)
        if now in ("next-round", "new-game"):
            break
        careless(page, n, now)
        grade = settled(page, ".golf-grade")
        if bad is None and re.search(r"BLUNDER|MISTAKE", grade):
            bad = grade
            page.screenshot(path=str(ARTIFACTS / "learn-grade-bad-move.png"), full_page=True)
    assert bad is not None, "the careless learner was never graded MISTAKE or BLUNDER"
    assert re.search(r"\d+\.\d points lost \(better: [a-z]+( \d)?\)", bad), bad
    assert task(page) == "next-round"

    accuracy = settled(page, ".golf-accuracy")
    assert 0 <= float(accuracy) <= 100
    page.wait_for_function("() => document.querySelector('.golf-review-box').innerText.includes('Costliest decisions')",
                           timeout=TIMEOUT)  # the review's rows are new widgets: the page builds them a moment later
    review = page.inner_text(".golf-review-box")
    assert "Review after hole 1" in review and "Costliest decisions" in review, review[-1500:]
    for word in ("OPTIMAL", "GOOD", "QUESTIONABLE", "MISTAKE", "BLUNDER"):
        assert word in review
    page.wait_for_selector(".golf-review-box .js-plotly-plot .bars", timeout=TIMEOUT)  # the chart drew its bars
    page.locator(".golf-review-box").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "learn-review.png"), full_page=True)

    page.click(".golf-review-show-0")
    page.wait_for_selector(".golf-review-box .golf-replay-step", timeout=TIMEOUT)
    note = page.inner_text(".golf-replay-note")
    assert "you played" in note and "the better move was" in note
    page.locator(".golf-review-box .golf-replay").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "learn-costly-decision.png"))

    page.click(".golf-review")  # the Review button closes the review ...
    page.wait_for_selector(".golf-review-box", state="hidden", timeout=TIMEOUT)
    page.click(".golf-review")  # ... and opens it again
    page.wait_for_selector(".golf-review-box", state="visible", timeout=TIMEOUT)

    page.click(".golf-coach")  # the coach off: no hint, no grade
    page.wait_for_selector(".golf-hint", state="hidden", timeout=TIMEOUT)
    # each widget hides in its own message: wait for the grade's too (it never reappears)
    page.wait_for_selector(".golf-grade", state="hidden", timeout=TIMEOUT)
    page.wait_for_timeout(500)
    assert not page.locator(".golf-grade").first.is_visible()
    assert not widget_error_finder(page)
