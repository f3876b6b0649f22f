"""A reloaded Play page resumes the game in play (issue 38, point 7), driven from Python: the page's
side of the browser slot is played by setting what a page sends (``found``, ``answered``)."""

from __future__ import annotations

import json

import pytest
from golflab_widgets import GolfTable
from golflab_widgets.tab_slot import MAX_CHARS, TabSlot
from golflab_widgets.table.resume import KEY

from golflab import Phase, Rules
from tests.widgets.test_progress import Classroom, play_to_end, text
from tests.widgets.test_progress import _clean_env as _clean_env  # noqa: F401  (autouse: a guest after each test)


def table(seed: int = 11, **kwargs) -> GolfTable:
    return GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=2), seed=seed, cpu_delay=0,
                     resume_on_reload=True, **kwargs)


def page_answers(slot: TabSlot, found: str = "") -> None:
    """What the page's script does as it draws the slot: say what the browser held."""
    slot.set_state({"found": found, "answered": True})


def kept(slot: TabSlot) -> dict:
    return json.loads(slot.value)


def flip_first(t: GolfTable) -> None:
    """The learner's first legal move, clicked: a card to flip, or the deck."""
    action = str(t.game.observation(t.human_seat).legal_actions[0])
    before = t.save()
    if action == "draw":
        t.deck_button.click()
    else:
        assert action.startswith("flip "), action
        t.slots[int(action.split()[1])].click()
    assert t.save() != before


def test_nothing_is_kept_before_the_page_answers_then_every_move_is():
    t = table()
    assert t.tab_slot.key == KEY and t.tab_slot in t.children
    assert t.tab_slot.value == ""  # the page has not said whose it is yet
    page_answers(t.tab_slot)
    assert t.tab_slot.value == ""  # a deal nobody has played in is not worth resuming
    flip_first(t)
    assert kept(t.tab_slot)["game"] == t.save() and t.learner_has_moved


def test_a_reloaded_page_resumes_the_game_in_play_and_says_so():
    before = table(seed=5)
    page_answers(before.tab_slot)
    flip_first(before)
    flip_first(before)
    saved, held = before.save(), before.tab_slot.value
    after = table(seed=99)  # the reload: a new kernel deals a new game
    page_answers(after.tab_slot, held)
    assert after.save() == saved
    assert "Resumed the game you were playing" in after.status_text + " ".join(after.log_lines)
    assert not after.learner_has_moved
    flip_first(after)  # and it plays on
    assert kept(after.tab_slot)["game"] == after.save()


def test_a_page_the_learner_has_played_on_is_not_replaced():
    before = table(seed=5)
    page_answers(before.tab_slot)
    flip_first(before)
    after = table(seed=99)
    flip_first(after)  # a move before the page answered (a kernel-side click)
    mine = after.save()
    page_answers(after.tab_slot, before.tab_slot.value)
    assert after.save() == mine and kept(after.tab_slot)["game"] == mine


@pytest.mark.parametrize("found", [
    "not json", "[1, 2]", json.dumps({"who": "", "game": "{}"}), json.dumps({"who": "", "game": 3}),
    json.dumps({"who": "", "game": json.dumps({"players": ["You", "Nobody"], "seed": 1})}),
    "x" * (MAX_CHARS + 10),
])
def test_anything_else_the_browser_sends_is_forgotten_and_the_new_deal_stays(found):
    t = table(seed=7)
    deal = t.save()
    page_answers(t.tab_slot, found)
    assert t.save() == deal and t.tab_slot.value == "" and "Resumed" not in t.status_text


def test_a_resumed_game_is_kept_before_the_next_move_and_a_new_game_forgets_it():
    before = table(seed=5)
    page_answers(before.tab_slot)
    flip_first(before)
    after = table(seed=99)
    page_answers(after.tab_slot, before.tab_slot.value)
    assert kept(after.tab_slot)["game"] == before.save()  # a second reload finds it still
    after.new_game(seed=8)
    assert after.tab_slot.value == ""


def test_a_finished_game_is_forgotten():
    t = table(seed=3)
    page_answers(t.tab_slot)
    play_to_end(t)
    assert t.game.phase is Phase.GAME_OVER and t.tab_slot.value == ""


def test_a_game_is_resumed_only_for_whoever_played_it_signed_out_and_in_as_another(tmp_path):
    room = Classroom(tmp_path)
    room.sign_in("ann")
    ann = table(seed=5)
    page_answers(ann.tab_slot)
    flip_first(ann)
    anns = ann.tab_slot.value
    assert kept(ann.tab_slot)["who"] == str(room.ann.id)
    room.sign_in("bob")  # bob signs in in the same tab: ann's game stays hers
    bob = table(seed=99)
    deal = bob.save()
    page_answers(bob.tab_slot, anns)
    assert bob.save() == deal and bob.tab_slot.value == ""
    flip_first(bob)
    assert kept(bob.tab_slot)["who"] == str(room.bob.id)
    room.sign_in("ann")
    again = table(seed=42)
    page_answers(again.tab_slot, anns)
    assert again.save() == ann.save()
    assert "Resumed" in text(again)


def test_a_slot_needs_a_key_and_answers_late_listeners_at_once():
    with pytest.raises(ValueError, match="needs a key"):
        TabSlot("  ")
    slot = TabSlot("k")
    page_answers(slot, "held")
    heard = []
    slot.on_answer(heard.append)
    assert heard == ["held"]
    slot.keep("y" * (MAX_CHARS + 1))
    assert slot.value == ""


def test_a_game_played_on_from_a_position_is_not_kept_in_the_tab():
    """It cannot be saved (it never started from a deal): the tab forgets the game kept before."""
    from golflab import Position

    t = table()
    page_answers(t.tab_slot)
    flip_first(t)
    assert t.tab_slot.value  # the ordinary game in play is kept
    start = Position.parse("KH 5D ? ? ? 2C / 9S ? ? ? 7H ? / 3D ? ? ? 6H ?; discard 4S; deck 33; seat 0 to draw")
    t.play_from(start.game(4, players=["You", "Sofia", "Maya"]), 0)
    t.deck_button.click()
    assert t.learner_has_moved and t.from_position and t.tab_slot.value == ""
    assert not t.errors and "golf-error" not in t.status._dom_classes
