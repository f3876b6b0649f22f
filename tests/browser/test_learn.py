"""The learn app (the table with the coach on) in a real browser, through the CSS hooks: a
hint (Details closed and open), a graded bad move, the review after the hole, a costly
decision opened in the replay viewer and retried, and tutor mode asking before a costly
move. Screenshots of each state go to test-artifacts/."""

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


def careless_target(page, n: int, now: str) -> str:
    """What a careless learner clicks: the discard when it can, swapped in at position n % 6."""
    if now in ("initial_flip", "flip"):
        return f".golf-slot-{face_down(page)[0]}"
    if now == "draw":
        taken = "golf-legal" in (page.get_attribute(".golf-discard", "class") or "")
        return ".golf-discard" if taken else ".golf-deck"
    if now == "place":
        return f".golf-slot-{n % 6}"
    pytest.fail(f"unexpected state {now!r}: {page.inner_text(STATUS)}")


def careless(page, n: int, now: str) -> None:
    click(page, careless_target(page, n, now))


def tutor_off(page) -> None:
    """Turn tutor mode off (on by default in learn.ipynb)."""
    page.click(".golf-tutor-toggle")
    page.wait_for_function("() => !document.querySelector('.golf-tutor-toggle').classList.contains('mod-active')",
                           timeout=TIMEOUT)


def test_hint_grade_review_and_replay_through_the_hooks(page, voila_server, app_opener, widget_error_finder):
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 1400})
    app_opener(page, voila_server, "learn.ipynb")
    assert page.locator(".golf-coach").first.is_visible()
    tutor_off(page)
    while task(page) == "initial_flip":
        click(page, f".golf-slot-{face_down(page)[0]}")
    assert task(page) == "draw"

    page.click(".golf-hint")
    hint = settled(page, ".golf-hint-text")
    assert "\u2605 Best." in hint and "Draw an unknown card" in hint and "compared with the best move" in hint
    assert "\u00b1" not in hint and "Details" in hint  # notation and error bars stay closed
    page.locator(".golf-hint-text").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "learn-hint-details-closed.png"))
    page.click(".golf-hint-text .golf-details summary")
    opened = page.inner_text(".golf-hint-text")
    assert "\u00b1" in opened and "take" in opened and "standard error" in opened
    page.screenshot(path=str(ARTIFACTS / "learn-hint-details-open.png"))

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
    assert re.search(r"\d+\.\d points lost compared with the best move\.", bad) and bad.count("Better:") == 1, bad
    assert not re.search(r"\b(swap|flip) \d|position \d", bad.split("Details")[0]), bad
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
    ticks = page.eval_on_selector_all(".golf-review-box .js-plotly-plot .xtick text",
                                      "els => els.map(e => e.textContent)")
    assert ticks and all(t.startswith("hole 1, ") for t in ticks), ticks  # turns in words, not 'H1 T3'

    page.click(".golf-review-show-0")
    page.wait_for_selector(".golf-review-box .golf-replay-step", timeout=TIMEOUT)
    note = page.inner_text(".golf-replay-note")
    assert "The board before your move" in note and "Better:" in note
    page.locator(".golf-review-box .golf-replay").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "learn-costly-decision.png"))

    page.click(".golf-review-retry-0")  # retry it: the better move hidden until a try
    page.wait_for_selector(".golf-retry [class*='golf-retry-option-']", timeout=TIMEOUT)
    assert "Better" not in page.inner_text(".golf-retry")
    page.locator(".golf-retry").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "learn-retry.png"))
    options = page.eval_on_selector_all(".golf-retry button", "els => els.map(e => [...e.classList].find("
                                        "c => c.startsWith('golf-retry-option-')))")
    for option in options:  # until the right one: each wrong try tells the better move
        tried = page.inner_text(f".{option}").strip()
        page.click(f".{option}")
        page.wait_for_function(  # the answer to this try: it names the move tried
            "(tried) => document.querySelector('.golf-retry-feedback').textContent.startsWith(tried + ':')",
            arg=tried, timeout=TIMEOUT)
        if "Right!" in page.inner_text(".golf-retry-feedback"):
            break
        assert "Better:" in page.inner_text(".golf-retry-feedback")
    assert "Right!" in page.inner_text(".golf-retry-feedback")
    page.screenshot(path=str(ARTIFACTS / "learn-retry-right.png"))
    assert "You retried it right." in page.inner_text(".golf-review-box")

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


def test_tutor_mode_asks_before_a_costly_move(page, voila_server, app_opener, widget_error_finder):
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 1100})
    app_opener(page, voila_server, "learn.ipynb")
    assert "mod-active" in (page.get_attribute(".golf-tutor-toggle", "class") or "")  # on by default
    for n in range(200):
        now = task(page)
        if now in ("next-round", "new-game"):
            pytest.fail("no careless move lost 5 points or more")
        target = careless_target(page, n, now)
        before = page.eval_on_selector(STATUS, "el => el.className + '|' + el.textContent")
        page.click(target, timeout=TIMEOUT)
        page.wait_for_function(  # the move was played, or the tutor asks first
            "([s, b]) => { const el = document.querySelector(s); const t = document.querySelector('.golf-tutor');"
            " return (el && el.className + '|' + el.textContent !== b) || (t && t.offsetParent !== null); }",
            arg=[STATUS, before], timeout=TIMEOUT)
        if page.locator(".golf-tutor").first.is_visible():
            break
    asked = page.inner_text(".golf-tutor")
    assert "Careful:" in asked and "compared with the best move" in asked, asked
    assert "Play it anyway" in asked and "Think again" in asked
    assert page.eval_on_selector(STATUS, "el => el.className + '|' + el.textContent") == before  # nothing played
    page.locator(".golf-tutor").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "learn-tutor-prompt.png"))
    page.click(".golf-tutor-think")
    page.wait_for_selector(".golf-tutor", state="hidden", timeout=TIMEOUT)
    assert page.eval_on_selector(STATUS, "el => el.className + '|' + el.textContent") == before  # still nothing
    page.click(target, timeout=TIMEOUT)  # the same move again: asked again
    page.wait_for_selector(".golf-tutor", state="visible", timeout=TIMEOUT)
    click(page, ".golf-tutor-play")  # played now: the status line moves on
    page.wait_for_selector(".golf-tutor", state="hidden", timeout=TIMEOUT)
    assert not widget_error_finder(page)
