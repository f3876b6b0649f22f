"""A learner's progress in a real browser on the standalone server (golflab-voila): sign in, answer
a lesson exercise that completes the lesson, reload, the star and the ticks are still there; the
landing page greets the learner with stars, assignment and My games, whose link opens the game
in the replay; another learner's game is refused. Screenshots (looked at): test-artifacts/
progress-lesson-star.png, progress-greeting.png, progress-my-games.png, progress-replay.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import Store
from tests.browser.board_hooks import shoot_whole
from tests.browser.conftest import ARTIFACTS
from tests.browser.learner_steps import (
    LESSON2,
    PROGRESS,
    STARS,
    WAIT,
    answered_all_but_the_first,
    earn_the_lesson2_star,
    sign_in,
)

NAME, PASSWORD, OTHER = "pia", "pia-pass-1", "quinn"
LESSON = LESSON2


def finished_game(seed: int) -> Game:
    game = Game(players=["You", "Sofia"], rules=Rules(rounds=1), seed=seed)
    while game.awaiting:
        game.apply(CPUPlayer("Sofia", seed=len(game.history)).choose(game.observation(game.current_player)))
    return game


@pytest.fixture(scope="module")
def classroom(voila_server, class_store_url):
    """pia, in a class with an assignment, who answered lesson 2's items 2-9 on an earlier visit and
    kept a game; quinn, another learner with a game of his own."""
    store = Store(class_store_url)
    teacher = store.user("mr_ode") or store.create_user("mr_ode", password="teach-pass-1", role="teacher")
    klass = store.create_class("7C", teacher=teacher)
    invite = store.create_invite(klass, by=teacher)
    pia, quinn = store.register(NAME, PASSWORD, invite), store.register(OTHER, "quinn-pass-1", invite)
    store.create_assignment(klass, by=teacher, lesson="lesson2", puzzles=3, difficulty="medium", due_days=5)
    answered_all_but_the_first(store, pia)
    mine = store.record_game(pia, finished_game(3), 0)
    theirs = store.record_game(quinn, finished_game(4), 0)
    yield store, pia, mine, theirs
    store.close()


def test_a_lesson_star_survives_a_reload_and_the_landing_page_greets_the_learner(page, voila_server, classroom):
    store, pia, mine, theirs = classroom
    ARTIFACTS.mkdir(exist_ok=True)
    sign_in(page, voila_server.base, NAME, PASSWORD, f"/voila/render/{LESSON}")
    earn_the_lesson2_star(page)
    stars = page.locator(STARS)
    assert store.lesson_progress(pia, by=pia)["lesson2"].stars == 3

    page.reload()
    page.locator(PROGRESS).wait_for(timeout=120_000)
    expect(page.locator(PROGRESS)).to_contain_text("9 of 9 answered, 9 right", timeout=WAIT)
    expect(stars).to_have_text("\u2605\u2605\u2605", timeout=WAIT)
    assert "right on an earlier visit" in page.locator(".golf-exercise-0 .golf-exercise-feedback").inner_text()
    page.locator(PROGRESS).scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "progress-lesson-star.png"))

    page.goto(voila_server.url("index.ipynb"), wait_until="domcontentloaded")
    greeting = page.locator(".golf-greeting")
    greeting.locator(".golf-my-games-row").first.wait_for(timeout=120_000)
    said = greeting.inner_text()
    assert f"Welcome back, {NAME}!" in said
    assert re.search(r"Lesson 2: scoring and pairs\s*:\s*\u2605\u2605\u2605 done", said)
    assert re.search(r"Lesson 2: scoring and pairs and 3 medium puzzles: due in 5 days \u2014 0 of 3 puzzles", said)
    assert greeting.locator(".golf-my-games-row").count() == 1  # pia's game only, not quinn's
    shoot_whole(page, "progress-greeting")
    greeting.locator(".golf-my-games").screenshot(path=str(ARTIFACTS / "progress-my-games.png"))

    greeting.locator("a.golf-my-games-open").click()
    page.wait_for_url(re.compile(rf"/voila/render/replay\.ipynb\?game={mine.id}$"), timeout=WAIT)
    message = page.locator(".golf-replay-message")
    expect(message).to_contain_text("Your game of today", timeout=120_000)
    expect(page.locator(".golf-replay-step")).to_have_text(re.compile(r"^0 / \d+$"))
    page.screenshot(path=str(ARTIFACTS / "progress-replay.png"))

    page.goto(voila_server.url("replay.ipynb") + f"?game={theirs.id}", wait_until="domcontentloaded")
    expect(page.locator(".golf-replay-message")).to_contain_text(f"there is no kept game {theirs.id} of yours",
                                                                timeout=120_000)
