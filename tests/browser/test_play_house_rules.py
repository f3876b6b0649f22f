"""The play app with two turn house rules on (flip as action, knock early), set in the
new-game panel and played only through the CSS hooks: a whole-turn flip of a face-down
card before drawing, and a knock once the learner has one or two face-down cards, with the
status line's words checked each time. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

from tests.browser.board_hooks import GOLF, face_down_slots, wait_for_rules

STATUS, STEP_TIMEOUT = GOLF.selector, GOLF.timeout
awaiting, click_and_wait, wait_for_learner = GOLF.awaiting, GOLF.click_and_wait, GOLF.wait_for_learner
SEED = 7
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FLIP_OFFER = "Or click a face-down card to flip it as your whole turn (flip as action)."
KNOCK_OFFER = "Or press Knock to turn up your last face-down cards as your whole turn (knock early)."


def _status(page) -> str:
    return page.inner_text(STATUS)


def _my_last_move(page) -> tuple[str, str]:
    """The newest of the learner's moves in the game log, in words (``Hole 1: You turned up ...``) and
    in notation behind Details (``H1 You: flip 2``)."""
    lines = page.eval_on_selector_all(".golf-log > div", "els => els.map(e => e.textContent)")
    notation = page.eval_on_selector_all(".golf-log .golf-details div", "els => els.map(e => e.textContent)")
    return (next((line for line in lines if line.startswith("Hole 1: You ")), ""),
            next((line for line in notation if line.startswith("H1 You: ")), ""))


def _start_with_house_rules(page) -> None:
    """One hole with flip_as_action and knock_early on, chosen in the new-game panel (seed 7)."""
    page.click(".golf-more >> text=New game settings")
    seed = page.locator(".golf-more input[placeholder='blank = random']")
    seed.wait_for(timeout=STEP_TIMEOUT)
    seed.fill(str(SEED))
    seed.press("Enter")
    holes = page.locator(".golf-rule-rounds input")
    holes.wait_for(timeout=STEP_TIMEOUT)
    holes.fill("1")
    holes.press("Enter")
    for rule in ("flip_as_action", "knock_early"):
        page.locator(f".golf-rule-{rule} input").check()
    wait_for_rules(page, "1 hole,", "flip as action", "knock early", scope=".golf-more")
    page.click(".golf-new-game")  # nothing played yet: no confirmation needed
    page.wait_for_function("() => document.querySelector('.golf-rules').textContent.includes('Hole 1 of 1')",
                           timeout=STEP_TIMEOUT)
    page.wait_for_function(  # the move log shows the new game too (its own message, after the rules bar's)
        "() => { const lines = [...document.querySelectorAll('.golf-log > div')];"
        " return lines.length && lines[lines.length - 1].textContent.includes('Rules: 1 hole'); }",
        timeout=STEP_TIMEOUT)
    started = page.eval_on_selector_all(".golf-log > div", "els => els.map(e => e.textContent)")[-1]
    assert started.startswith("New game: ") and "flip as action \u00b7 knock early" in started, started
    assert page.eval_on_selector_all(".golf-log .golf-details div", "els => els.map(e => e.textContent)")[-1] == \
        f"seed {SEED}"  # behind Details


def _turn_up_initial_cards(page) -> None:
    while wait_for_learner(page) == "initial_flip":
        click_and_wait(page, f".golf-slot-{face_down_slots(page)[0]}")


def test_a_whole_turn_flip_then_a_knock_through_the_css_hooks(page, voila_server, app_opener):
    page.set_viewport_size({"width": 1366, "height": 900})
    app_opener(page, voila_server, "play.ipynb")
    _start_with_house_rules(page)
    _turn_up_initial_cards(page)

    # a whole-turn flip before drawing
    assert awaiting(page) == "draw", _status(page)
    assert FLIP_OFFER in _status(page)
    assert not page.locator(".golf-action-knock").is_visible()  # four face-down cards: no knock yet
    assert "Knock" not in _status(page)
    page.screenshot(path=str(ARTIFACTS / "play-house-rules-flip-offer.png"))
    down = face_down_slots(page)
    click_and_wait(page, f".golf-slot-{down[0]}")
    assert face_down_slots(page) == down[1:], "the flip turned up exactly the clicked card"
    assert wait_for_learner(page) == "draw", _status(page)  # the flip was the whole turn: the next one starts
    move, notation = _my_last_move(page)
    assert move.startswith("Hole 1: You turned up the ") and move.endswith(" as the whole turn."), move
    assert notation == f"H1 You: flip {down[0]}", notation

    # draw and swap into face-down cards until one or two are left, then knock
    while len(face_down_slots(page)) > 2:
        assert awaiting(page) == "draw", _status(page)
        assert KNOCK_OFFER not in _status(page)
        click_and_wait(page, ".golf-deck")
        assert awaiting(page) == "place", _status(page)
        click_and_wait(page, f".golf-slot-{face_down_slots(page)[0]}")
        wait_for_learner(page)
    assert awaiting(page) == "draw", _status(page)
    left = len(face_down_slots(page))
    assert left in (1, 2)
    assert KNOCK_OFFER in _status(page) and FLIP_OFFER in _status(page)
    assert page.locator(".golf-action-knock").is_visible()
    page.screenshot(path=str(ARTIFACTS / "play-house-rules-knock-offer.png"))
    click_and_wait(page, ".golf-action-knock")
    move, notation = _my_last_move(page)
    assert move.startswith("Hole 1: You knocked, turning up the ") and move.count(" and the ") == left - 1, move
    assert notation == "H1 You: knock", notation
    assert face_down_slots(page) == [], "the knock turned up every face-down card"
    page.wait_for_function(
        "sel => { const el = document.querySelector(sel); return el && !el.classList.contains('golf-await-cpu'); }",
        arg=STATUS, timeout=STEP_TIMEOUT)
    page.screenshot(path=str(ARTIFACTS / "play-house-rules-knocked.png"), full_page=True)
    assert awaiting(page) == "new-game", _status(page)  # going out ended the hole, and the one-hole game
    assert "Game over" in _status(page), _status(page)
