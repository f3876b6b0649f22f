"""Every card face fits inside its card at every size the apps draw cards: a player's grid, an
opponent's small grid, the drawn card in hand, the replay's piles, and each on the large display
(the projector). A ten's corner index once wrapped on the small cards, so its bottom corner hung
below the card onto the felt, red on green. The page is the apps' own style sheets and
``golflab.display.card_html``; no kernel is needed."""

from __future__ import annotations

import pytest
from golflab_widgets.coach.replay import REPLAY_CSS
from golflab_widgets.table.display_size import LARGE_CSS
from golflab_widgets.table.view import TABLE_CSS

from golflab import Card
from golflab.display import card_html
from tests.browser.conftest import ARTIFACTS

#: Each place the apps size cards (its CSS custom properties): its wrapping classes, outermost first.
PLACES = {
    "grid": "", "opponent": "golf-opp", "hand": "golf-hand", "replay piles": "golf-replay golf-replay-piles",
    "large grid": "golf-large gl-grid", "large opponent": "golf-large golf-opp", "large hand": "golf-large golf-hand",
}
#: The widest and tallest faces: a ten of each suit colour, a queen, a joker.
FACES = [Card.parse(code) for code in ("TH", "TS", "QD", "JK")]

OVERFLOW = """cards => cards.flatMap(card => {
    const box = card.getBoundingClientRect();
    return [...card.children].map(part => [part, part.getBoundingClientRect()])
      .filter(([, r]) => r.left < box.left + 1 || r.right > box.right - 1
                         || r.top < box.top + 1 || r.bottom > box.bottom - 1)
      .map(([part, r]) => `${card.closest('[data-place]').dataset.place}: ${card.title}`
                          + ` ${part.className || 'index'} (${r.width.toFixed(1)} x ${r.height.toFixed(1)}`
                          + ` in ${box.width} x ${box.height})`); })"""


def nest(classes: str, inner: str) -> str:
    for cls in reversed(classes.split()):
        inner = f'<div class="{cls}">{inner}</div>'
    return inner


@pytest.fixture(scope="module")
def faces(browser):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    cards = "".join(card_html(card) for card in FACES)
    body = "".join(f'<div data-place="{name}" class="golf-felt">{nest(classes, cards)}</div>'
                   for name, classes in PLACES.items())
    # An ipywidgets HTML widget's content wraps words anywhere: the apps' cards are drawn inside one.
    page.set_content(TABLE_CSS + REPLAY_CSS + LARGE_CSS + f'<div style="overflow-wrap:anywhere">{body}</div>')
    yield page
    page.close()


def test_every_face_fits_inside_its_card_at_every_size(faces):
    ARTIFACTS.mkdir(exist_ok=True)
    faces.screenshot(path=str(ARTIFACTS / "card-faces.png"), full_page=True)
    assert faces.locator(".gl-card").count() == len(PLACES) * len(FACES)
    assert faces.eval_on_selector_all(".gl-card", OVERFLOW) == []


def test_the_check_sees_a_face_that_hangs_out_of_its_card(faces):
    """The check itself: a card made too small for its face is caught."""
    faces.evaluate("() => document.querySelector('[data-place=opponent] .gl-card').style.height = '20px'")
    try:
        assert faces.eval_on_selector_all(".gl-card", OVERFLOW)
    finally:
        faces.evaluate("() => document.querySelector('[data-place=opponent] .gl-card').style.height = ''")
