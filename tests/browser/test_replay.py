"""The replay app in a real browser: stepping through a simulated game with the
golf-replay-* hooks, a seat's view and the teacher's, the moves told in words.
Screenshots at a few steps go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TIMEOUT = 60_000
STEP = ".golf-replay-step"


def step(page) -> tuple[int, int]:
    k, n = page.inner_text(STEP).split("/")
    return int(k), int(n)


def press(page, hook: str) -> tuple[int, int]:
    """Press a golf-replay-* button and wait until the step shown changes."""
    before = page.inner_text(STEP)
    page.click(f".golf-replay-{hook}", timeout=TIMEOUT)
    page.wait_for_function("([s, b]) => document.querySelector(s).textContent !== b", arg=[STEP, before],
                           timeout=TIMEOUT)
    return step(page)


def test_step_through_a_game(page, voila_server, app_opener, widget_error_finder):
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 1000})
    app_opener(page, voila_server, "replay.ipynb", ready=STEP)
    k, n = step(page)
    assert k == 0 and n > 50
    assert "The deal" in page.inner_text(".golf-replay-moves")
    assert page.locator(".golf-replay .golf-hidden").count() == 24  # teacher's view: every face-down card shown
    page.screenshot(path=str(ARTIFACTS / "replay-deal.png"), full_page=True)

    assert press(page, "next") == (1, n)
    assert press(page, "next") == (2, n)
    moves = page.locator(".golf-replay-moves")
    for words in ("Move 2", "turned up the", "Next"):
        expect(moves).to_contain_text(words, timeout=TIMEOUT)
    for _ in range(10):
        press(page, "next")
    page.screenshot(path=str(ARTIFACTS / "replay-step-12.png"), full_page=True)

    page.select_option(".golf-replay-view select", label="Maya's view")
    page.wait_for_function("() => document.querySelectorAll('.golf-replay .golf-hidden').length === 0",
                           timeout=TIMEOUT)
    page.screenshot(path=str(ARTIFACTS / "replay-step-12-maya.png"), full_page=True)

    assert press(page, "last") == (n, n)
    expect(moves).to_contain_text("The end of the recorded game", timeout=TIMEOUT)
    expect(page.locator(".golf-replay").first).to_contain_text("is over", timeout=TIMEOUT)
    page.screenshot(path=str(ARTIFACTS / "replay-last.png"), full_page=True)
    assert press(page, "prev") == (n - 1, n)
    assert press(page, "first") == (0, n)
    assert not widget_error_finder(page)
