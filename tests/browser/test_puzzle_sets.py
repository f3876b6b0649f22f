"""A teacher's own puzzles, in a browser (golflab-voila, the shared test class store; issue 41, point 3):
the teacher opens a learner's kept game from the class dashboard, steps to a moment, opens it on the
analysis board by its link and saves it into a new puzzle set (a move the coach finds worse is said
so first); assigns the set; one learner follows the landing page's link to it and answers right,
another chooses it on the puzzles page and answers wrong; the dashboard then shows the item's first
tries and its most common wrong answer; axe finds nothing serious on the three pages. Screenshots:
test-artifacts/sets-*.png."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from golflab import Game, Position, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import Store
from golflab.puzzles import check_answer, describe
from tests.browser.conftest import ARTIFACTS, NEXT_FRAMES, class_tokens, open_app, open_signed_in
from tests.browser.test_a11y import assert_accessible

TEACHER, PASSWORD, CLASS = "sets_teacher", "sets-pass-1", "Sets class"
ANN, BOB = "sets_ann", "sets_bob"
SET_NAME = "Week 1: draw or take"
TITLE = "From Ann's game"
WAIT = 120_000  # ms: a page, or the coach checking a move, on a loaded 2-core machine
STEP = ".golf-replay-step"
SAID = ".golf-set-said"


def kept_game(seed: int) -> Game:
    """A hole ``ANN`` played (seat 0) against a CPU player, to the end."""
    game = Game(players=[ANN, "Sofia"], rules=Rules(rounds=1), seed=seed)
    bots = [CPUPlayer("Marcus", seed=seed * 10 + i) for i in range(2)]
    while game.phase != "game_over":
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    return game


@pytest.fixture(scope="module")
def tokens(voila_server, class_store_url) -> dict:
    store = Store(class_store_url)
    found = class_tokens(store, TEACHER, (ANN, BOB), PASSWORD, CLASS)
    store.record_game(store.user(ANN), kept_game(5), 0)
    store.close()
    return found


def _said(page, words: str) -> str:
    page.locator(SAID, has_text=words).wait_for(timeout=WAIT)
    return page.inner_text(SAID)


def _shoot(page, name: str, height: int = 2000) -> None:
    page.set_viewport_size({"width": 1024, "height": height})  # Voila scrolls its own pane: show all of it
    page.wait_for_function("h => window.innerHeight === h", arg=height)
    page.evaluate(NEXT_FRAMES)
    page.screenshot(path=str(ARTIFACTS / f"sets-{name}.png"))
    page.set_viewport_size({"width": 1024, "height": 768})


def save_a_moment_of_the_learners_game(page, server) -> tuple[str, str]:
    """The teacher's way from the dashboard to a saved puzzle; (the position saved, the move)."""
    open_app(page, server, "class.ipynb", ready=".golf-roster")
    page.select_option(".golf-learner-choice select", label=ANN)
    replay = page.locator(".golf-learner-games a.golf-learner-game").first
    replay.wait_for(timeout=WAIT)
    page.goto(f"{server.base}/voila/render/{replay.get_attribute('href')}", wait_until="domcontentloaded")
    page.locator(STEP).wait_for(timeout=WAIT)
    for _ in range(8):  # past both players' first two flips, into the draws and swaps
        before = page.inner_text(STEP)
        page.click(".golf-replay-next")
        page.wait_for_function("([s, b]) => document.querySelector(s).textContent !== b", arg=[STEP, before])
    link = page.locator(".golf-position-link a").get_attribute("href")
    text = parse_qs(urlsplit(link).query)["position"][0]
    obs = Position.parse(text).observation()
    moves = [a.notation for a in obs.legal_actions]
    best = check_answer(obs, moves[0]).best
    worse = next(m for m in moves if not check_answer(obs, m).is_best)  # not the best nor the same move

    page.goto(f"{server.base}/voila/render/{link}", wait_until="domcontentloaded")
    page.click(".golf-set-saver .jupyter-widget-Collapse-header", timeout=WAIT)  # the panel opens
    page.fill(".golf-set-name input", SET_NAME)
    page.fill(".golf-set-title input", TITLE)
    page.fill(".golf-set-note textarea", "Count the cards you can still pair.")
    page.select_option(".golf-set-move select", label=f"{describe(obs, worse)} ({worse})")
    page.click(".golf-set-save")
    said = _said(page, "Save it anyway?")
    assert "worse than its best" in said
    expect(page.locator(".golf-set-save-anyway")).to_be_visible(timeout=WAIT)
    page.select_option(".golf-set-move select", label=f"{describe(obs, best)} ({best})")  # a change of mind
    page.locator(".golf-set-save-anyway").wait_for(state="hidden", timeout=WAIT)  # the check no longer stands
    page.click(".golf-set-save")
    said = _said(page, "Saved as puzzle 1")
    assert SET_NAME in said and CLASS in said and "the best move" in said
    assert_accessible(page, "the analysis board with the saving panel open")
    _shoot(page, "saved")
    return str(Position.parse(text)), best


def test_a_moment_of_a_learners_game_becomes_a_set_the_class_solves(browser, voila_server, tokens,
                                                                    class_store_url):
    ARTIFACTS.mkdir(exist_ok=True)
    teacher = open_signed_in(browser, voila_server, tokens[TEACHER], "index.ipynb", ready="text=Play golf")
    teacher.set_viewport_size({"width": 1024, "height": 768})
    position, best = save_a_moment_of_the_learners_game(teacher, voila_server)

    store = Store(class_store_url)
    try:
        klass = store.classes(store.user(TEACHER))[0]
        (saved,) = store.puzzle_sets(klass, by=store.user(TEACHER))
        (item,) = store.set_items(saved, by=store.user(TEACHER))
        assert (saved.name, item.position, item.answer, item.title, item.loss) == (SET_NAME, position, best, TITLE, 0.0)
    finally:
        store.close()

    open_app(teacher, voila_server, "class.ipynb", ready=".golf-roster")
    teacher.select_option(".golf-assign-lesson select", label="no lesson")
    teacher.fill(".golf-assign-puzzles input", "0")
    teacher.select_option(".golf-assign-set select", label=SET_NAME)
    teacher.click(".golf-assign-create")
    teacher.locator(".golf-assignments", has_text=f"the puzzle set {SET_NAME}").wait_for(timeout=WAIT)

    ann = open_signed_in(browser, voila_server, tokens[ANN], "index.ipynb", ready=".golf-assignment-set")
    ann.click(".golf-assignment-set")
    ann.locator(".golf-puzzle-options button").first.wait_for(timeout=WAIT)
    assert TITLE in ann.inner_text(".golf-puzzle-score") and "puzzle 1 of 1" in ann.inner_text(".golf-puzzle-score")
    ann.click(f".golf-puzzle-option-{best.replace(' ', '-')}")
    ann.locator(".golf-puzzle-feedback.golf-puzzle-right").wait_for(timeout=WAIT)
    assert "Count the cards you can still pair." in ann.inner_text(".golf-puzzle-feedback")
    assert_accessible(ann, "a teacher's puzzle set, answered")
    _shoot(ann, "learner-right", 1200)

    bob = open_signed_in(browser, voila_server, tokens[BOB], "puzzles.ipynb", ready=".golf-puzzle-source")
    bob.select_option(".golf-puzzle-source select", label=f"{SET_NAME} (1 puzzle from your teacher)")
    bob.locator(".golf-puzzle-score", has_text=TITLE).wait_for(timeout=WAIT)
    options = [b.get_attribute("class") for b in bob.locator(".golf-puzzle-options button").all()]
    wrong_hook = next(re.search(r"golf-puzzle-option-\S+", c).group(0) for c in options
                      if f"golf-puzzle-option-{best.replace(' ', '-')}" not in c)
    bob.click(f".{wrong_hook}")
    bob.locator(".golf-puzzle-feedback.golf-puzzle-wrong").wait_for(timeout=WAIT)
    bob.click(".golf-puzzle-next")
    bob.locator(".golf-puzzle-feedback", has_text="that was the last puzzle of the set").wait_for(timeout=WAIT)

    teacher.click(".golf-dashboard-refresh")
    row = teacher.locator(".golf-set-item-row", has_text=TITLE)
    row.locator(".golf-set-right-first", has_text="1").wait_for(timeout=WAIT)
    text = row.inner_text()
    wrong = wrong_hook[len("golf-puzzle-option-"):].replace("-", " ")
    assert "2 of 2" in text and f"({wrong}): 1" in text, text  # the wrong answer in words, its notation after
    assert "2 of 2 finished" in teacher.inner_text(".golf-assignment-row")  # each answered the set's one puzzle
    assert_accessible(teacher, "the dashboard with a puzzle set's results")
    _shoot(teacher, "dashboard", 2400)
