"""The golf table driven from Python: its buttons pressed in code, as a learner would click."""

from __future__ import annotations

import asyncio
import base64
import datetime
import html
import json
import re
from pathlib import Path

import ipywidgets as w
import pytest
from golflab_widgets import GolfTable
from golflab_widgets.table.setup import MAX_SEED
from golflab_widgets.table.words import ranking

from golflab import Game, Phase, Rules
from golflab.words import card_name

HOOKS = ("golf-deck", "golf-discard", "golf-action-discard", "golf-action-skip", "golf-next-round",
         "golf-new-game", "golf-scores", "golf-status")


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    for var in ("GOLFLAB_CPU_DELAY", "GOLFLAB_SEED", "DEFAULT_ROUNDS", "DEFAULT_INITIAL_FLIPS",
                "DEFAULT_USE_JOKERS", "DEFAULT_FLIP_MODE"):
        monkeypatch.delenv(var, raising=False)


def table(**kwargs) -> GolfTable:
    kwargs.setdefault("players", ["Sofia", "Maya"])
    kwargs.setdefault("rules", Rules(rounds=2))
    kwargs.setdefault("seed", 11)
    kwargs.setdefault("cpu_delay", 0)
    return GolfTable(**kwargs)


def face_down(t: GolfTable) -> list[int]:
    return [i for i, s in enumerate(t.slots) if "golf-back" in s._dom_classes]


def visible(widget) -> bool:
    return widget.layout.display != "none"


def human_move(t: GolfTable) -> None:
    """One click of a simple learner: draw, swap into a face-down card (else discard)."""
    a = t.awaiting
    if a in ("initial_flip", "flip"):
        t.slots[face_down(t)[0]].click()
    elif a == "draw":
        t.deck_button.click()
    elif a == "place":
        down = face_down(t)
        if down:
            t.slots[down[0]].click()
        else:
            t.discard_action.click()
    elif a == "next-round":
        t.next_round_button.click()
    else:
        raise AssertionError(f"the learner cannot move now: {a} ({t.status_text})")


def play_to(t: GolfTable, stop: str, limit: int = 2000) -> None:
    for _ in range(limit):
        if t.awaiting == stop:
            return
        human_move(t)
    raise AssertionError(f"never reached {stop}")


# ------------------------------------------------------------------ a whole game
def test_whole_game_against_cpu_players_to_the_final_ranking():
    t = table(players=["Sofia", "Maya", "Marcus"], rules=Rules(rounds=2, knock_bonus=True))
    play_to(t, "next-round")
    g = t.game
    assert g.phase is Phase.ROUND_OVER and visible(t.next_round_button)
    res = g.round_results[-1]
    summary = t.summary.value
    assert "Hole 1 is over" in summary and "left column: " in summary
    for name in g.players:
        assert f"{name}: {res.scores[g.players.index(name)]}" in summary
    if res.finisher is not None:
        assert "knock bonus" in summary  # the adjustment is listed for the finisher
    assert "Hole 1</th>" in t.scores.value
    play_to(t, "new-game")
    g = t.game
    assert g.phase is Phase.GAME_OVER and len(g.round_results) == 2
    assert not visible(t.next_round_button)
    assert "Final ranking" in t.summary.value and "Game over" in t.status_text
    place, name, total = ranking(g.players, g.totals)[0]
    assert total == min(g.totals) and f"{name}" in t.status_text and str(total) in t.status_text
    scores = t.scores.value
    assert "Hole 2</th>" in scores
    totals_row = scores.split('class="golf-total"')[1]
    assert [int(x) for x in totals_row.split("<td>")[1:] for x in [x.split("<")[0]]] == g.totals
    for name in g.players:  # everybody moved, in notation
        assert any(line.startswith(f"H1 {name}: ") for line in t.story.notation)
    assert t.errors == []


def test_ranking_shares_places_on_ties():
    assert ranking(["A", "B", "C"], [5, 3, 5]) == [(1, "B", 3), (2, "A", 5), (2, "C", 5)]


def test_the_same_seed_and_clicks_give_the_same_game():
    a, b = table(seed=5), table(seed=5)
    play_to(a, "new-game")
    play_to(b, "new-game")
    assert a.save() == b.save()


def test_after_next_hole_card_backs_carry_no_face_text():
    """A back's button text is never "" (the browser would keep the old face) and shows no card."""
    t = table(players=["Sofia", "Maya", "Marcus"], rules=Rules(rounds=3))
    for _ in range(2):
        play_to(t, "next-round")
        t.next_round_button.click()
        backs = [s for s in t.slots if "golf-back" in s._dom_classes]
        assert len(backs) == 6 and all(s.description and not s.description.strip() for s in backs)


# ------------------------------------------------------------------ refusals
def test_illegal_clicks_change_nothing_and_say_why():
    t = table()
    assert t.awaiting == "initial_flip"
    before = t.save()
    for press, why in ((t.deck_button.click, "Flip a card first"),
                       (t.discard_button.click, "Flip a card first"),
                       (t.discard_action.click, "no drawn card"),
                       (t.skip_action.click, "no optional flip"),
                       (t.next_round_button.click, "no finished hole")):
        press()
        assert t.save() == before
        assert why in t.status_text and "golf-refused" in t.status._dom_classes
    t.slots[1].click()
    after_flip = t.save()
    t.slots[1].click()  # already face up
    assert t.save() == after_flip and "already face up" in t.status_text
    t.slots[4].click()
    assert t.awaiting == "draw"
    before = t.save()
    t.slots[0].click()
    assert t.save() == before and "Draw a card first" in t.status_text


def test_a_taken_card_cannot_be_discarded():
    t = table()
    play_to(t, "draw")
    t.discard_button.click()
    assert t.awaiting == "place" and "must be swapped" in t.status_text
    assert not visible(t.discard_action)
    before = t.save()
    t.discard_action.click()
    assert t.save() == before and "cannot be put back" in t.status_text


def test_double_actions_do_not_corrupt_the_game():
    t = table()
    play_to(t, "draw")
    t.deck_button.click()
    held = t.save()
    t.deck_button.click()  # a double click on the deck
    assert t.save() == held and "already hold a card" in t.status_text
    moves = len(t.game.history)
    down = face_down(t)[0]
    t.slots[down].click()
    t.slots[down].click()  # the second click lands on the learner's next turn (CPU moves are instant)
    assert len([h for h in t.game.history[moves:] if h.startswith("swap")]) >= 1
    assert Game.from_json(t.save()).to_json() == t.save()  # the state is consistent


def test_clicks_during_a_cpu_turn_are_refused():
    async def scenario():
        t = table(human_seat=1, cpu_delay=0.05)  # Sofia (seat 0) flips first, paced
        assert t.awaiting == "cpu" and t.cpu_pacing
        assert "Sofia's turn" in t.status_text
        before = t.save()
        for press in (t.deck_button.click, t.discard_button.click, t.slots[0].click, t.discard_action.click):
            press()
            assert t.save() == before
            assert "Please wait: it is Sofia's turn" in t.status_text
        for _ in range(200):
            if t.awaiting == "initial_flip":
                break
            await asyncio.sleep(0.02)
        assert t.awaiting == "initial_flip" and len(t.game.history) == 2  # Sofia's two flips, one at a time
        return t

    t = asyncio.run(scenario())
    assert t.errors == []


def test_run_cpu_turns_plays_pending_cpu_moves_at_once():
    async def scenario():
        t = table(human_seat=2, cpu_delay=5)
        assert t.awaiting == "cpu"
        played = t.run_cpu_turns()
        assert played == 4 and t.awaiting == "initial_flip" and not t.cpu_pacing
        return t

    asyncio.run(scenario())


def test_without_an_event_loop_cpu_moves_play_at_once():
    t = table(human_seat=1, cpu_delay=0.6)
    assert t.awaiting == "initial_flip" and len(t.game.history) == 2


# ------------------------------------------------------------------ status and buttons
def test_status_says_what_to_do_and_buttons_show_only_when_they_apply():
    t = table(rules=Rules(rounds=1, flip_mode="always"))
    assert "click 2 face-down cards" in t.status_text
    assert not visible(t.discard_action) and not visible(t.skip_action)
    assert all("golf-legal" in s._dom_classes for s in t.slots)
    play_to(t, "draw")
    top = t.game.discard_pile[-1]
    assert f"draw from the deck, or take the {card_name(top)} (" in t.status_text
    assert "golf-legal" in t.deck_button._dom_classes and "golf-legal" in t.discard_button._dom_classes
    assert not any("golf-legal" in s._dom_classes for s in t.slots)
    t.deck_button.click()
    assert "Click one of your cards to swap it in, or press Discard" in t.status_text
    assert visible(t.discard_action) and "you drew" in t.hand.value
    t.discard_action.click()
    assert t.awaiting == "flip" and "Flip one of your face-down cards" in t.status_text
    assert not visible(t.discard_action)
    down = face_down(t)
    assert [i for i, s in enumerate(t.slots) if "golf-legal" in s._dom_classes] == down


def test_optional_flip_offers_skip():
    t = table(rules=Rules(rounds=1, flip_mode="endgame", initial_flips=2))
    for _ in range(400):  # swap into face-down cards until someone has one face-down card left
        if t.awaiting == "flip":
            break
        if t.awaiting == "place" and len(face_down(t)) == 1:
            t.discard_action.click()
            continue
        human_move(t)
    assert t.awaiting == "flip" and visible(t.skip_action) and "Skip flip" in t.status_text
    moves = len(t.game.history)
    t.skip_action.click()
    assert t.game.history[moves] == "skip"


def test_css_hooks_are_on_the_board():
    t = table()
    classes = {c for wdg in (t.deck_button, t.discard_button, t.discard_action, t.skip_action,
                             t.next_round_button, t.new_game_button, t.scores, t.status) for c in wdg._dom_classes}
    assert set(HOOKS) <= classes
    assert [f"golf-slot-{i}" in s._dom_classes for i, s in enumerate(t.slots)] == [True] * 6


def test_opponents_show_name_style_and_face_down_backs():
    t = table(players=["Priya", "Kenji"])
    html = t.opponents.value
    assert "Priya" in html and "Pair Hunter" in html and "Kenji" in html and "Risk Taker" in html
    assert html.count("gl-back") == 12  # the learner flips first; the CPUs' cards are all face down
    t.slots[0].click()
    t.slots[1].click()
    assert t.opponents.value.count("gl-back") == 12 - 4  # now each CPU has turned up two cards
    assert "Hole 1 of 2" in t.rules_bar.value and Rules(rounds=2).describe() in t.rules_bar.value


# ------------------------------------------------------------------ save / resume
def downloaded(t: GolfTable) -> tuple[str, str]:
    """(file name, file text) of the table's download link."""
    m = re.search(r'download="([^"]+)" href="data:application/json;base64,([^"]+)"', t.download.value)
    assert m, t.download.value
    return m.group(1), base64.b64decode(m.group(2)).decode()


def uploaded(name: str, content: bytes) -> tuple[dict, ...]:
    """A FileUpload value as the browser sends it."""
    return ({"name": name, "type": "application/json", "size": len(content), "content": memoryview(content),
             "last_modified": datetime.datetime(2026, 1, 1)},)


def test_the_resume_button_reads_its_label_alone_before_and_after_a_file():
    """ipywidgets' FileUpload wrote its file count after the label: "Resume from a file (0)"."""
    t = table()
    assert t.upload.description == "Resume from a file" and not isinstance(t.upload, w.FileUpload)
    assert "golf-upload" in t.upload._dom_classes and t.upload.accept == ".json,application/json"
    t.upload.value = uploaded(t.save_filename, t.save().encode())
    assert t.upload.value == () and t.upload.description == "Resume from a file"
    assert t.status_text.startswith("Loaded a saved game")


def test_save_makes_a_json_file_to_download_not_text_in_a_box():
    t = table(seed=3)
    play_to(t, "draw")
    assert t.download.value == ""
    t.save_button.click()
    name, text = downloaded(t)
    assert name == "golf-3-hole-1.json" == t.save_filename and text == t.save()
    assert json.loads(text)["format"] == "golflab.game" and t.save_text.value == ""
    assert "Download golf-3-hole-1.json" in t.download.value and "Saved: press Download" in t.status_text


def test_save_and_resume_from_the_file_continue_exactly():
    a = table(players=["Sofia", "Maya", "Marcus"], rules=Rules(rounds=2), seed=3)
    for _ in range(9):
        human_move(a)
    a.save_button.click()
    name, text = downloaded(a)
    b = table(seed=99)
    b.upload.value = uploaded(name, text.encode())
    assert b.save() == text and b.awaiting == a.awaiting and "Loaded a saved game" in b.status_text
    assert b.upload.value == ()  # ready for another file
    assert b.log_lines == a.log_lines + ["Loaded a saved game: hole 1 of 2."]  # the log tells the saved moves
    assert b.moves == a.moves and b.recent.value == a.recent.value and b.opponents.value == a.opponents.value
    play_to(a, "new-game")
    play_to(b, "new-game")
    assert a.save() == b.save()


def test_the_paste_box_still_resumes_a_game():
    a = table(seed=3)
    play_to(a, "draw")
    b = table(seed=99)
    b.save_text.value = a.save()
    b.load_button.click()
    assert b.save() == a.save() and "Loaded a saved game" in b.status_text


@pytest.mark.parametrize("content, why", [
    (b"\xff\xfe\x00garbage", "bad.json is not a text file; choose a .json file made by Save game"),
    (b" " * 1_000_001, "bad.json is 1.0 MB, too large for a saved game (at most 1 MB)"),
    (b"not json", "invalid JSON"),
    (Game(["You", "Bob"], seed=1).to_json().encode(), "unknown personality 'Bob'"),
])
def test_a_bad_file_is_a_clear_message_and_changes_nothing(content, why):
    t = table()
    t.slots[0].click()
    before = t.save()
    t.upload.value = uploaded("bad.json", content)
    assert t.save() == before and t.upload.value == () and t.errors == []
    assert "Could not load that file: " in t.status_text and why in t.status_text
    assert "Nothing was changed" in t.status_text


@pytest.mark.parametrize("bad, why", [
    ("not json", "invalid JSON"),
    ('{"format": "something else"}', "not a saved golflab game"),
    (Game(["Ann", "Sofia"], seed=1).to_json(), "no single seat named 'You'"),
    (Game(["You", "Bob"], seed=1).to_json(), "unknown personality 'Bob'"),
])
def test_a_bad_load_is_a_friendly_message_and_changes_nothing(bad, why):
    t = table()
    t.slots[0].click()
    before = t.save()
    t.save_text.value = bad
    t.load_button.click()
    assert t.save() == before
    status = t.status_text
    assert "Could not load that game" in status and why in status and "Nothing was changed" in status
    with pytest.raises(ValueError):
        t.load(bad)


# ------------------------------------------------------------------ new game
def test_new_game_mid_game_asks_first_then_uses_the_panel():
    t = table()
    t.slots[0].click()
    before = t.save()
    t.new_game_button.click()
    assert t.save() == before and "Press New game again" in t.status_text
    panel = t.setup
    panel.count.value = 2
    panel.personalities[0].value = "Kenji"
    panel.personalities[1].value = "Diego"
    panel.seat.value = 2
    panel.seed.value = "42"
    panel.rules_form.controls["rounds"].value = 1
    panel.rules_form.controls["knock_penalty"].value = True
    t.new_game_button.click()
    g = t.game
    assert g.players == ("Kenji", "Diego", "You") and t.human_seat == 2 and g.seed == 42
    assert g.rules.rounds == 1 and g.rules.knock_penalty and g.history[:2] and t.awaiting == "initial_flip"


def test_new_game_with_bad_settings_changes_nothing():
    t = table()
    before = t.save()
    t.setup.personalities[1].value = t.setup.personalities[0].value
    t.new_game_button.click()
    assert t.save() == before and "Cannot start a new game" in t.status_text and "once" in t.status_text
    t.setup.personalities[1].value = "River"
    t.setup.seed.value = "abc"
    t.new_game_button.click()
    assert t.save() == before and "seed must be a whole number" in t.status_text


@pytest.mark.parametrize("seed", ["--5", "-5", "5-", "1e3", "4.0", "\u0665", str(2**63)])
def test_a_bad_seed_in_the_panel_is_a_plain_message_and_changes_nothing(seed):
    t = table()
    t.slots[0].click()
    t.new_game_button.click()  # the confirmation is asked first
    before = t.save()
    t.setup.seed.value = seed
    t.new_game_button.click()
    assert t.save() == before and "golf-refused" in t.status._dom_classes
    assert (f"Cannot start a new game: the seed must be a whole number from 0 to {MAX_SEED} or blank "
            f"(random), got {seed!r}") in t.status_text
    assert "invalid literal" not in t.status_text and t.errors == []


@pytest.mark.parametrize("seed, expected", [(" 42 ", 42), ("0", 0), (str(2**63 - 1), 2**63 - 1), ("", None)])
def test_the_panel_reads_a_plain_seed(seed, expected):
    t = table()
    t.setup.seed.value = seed
    assert t.setup.settings().seed == expected


def test_new_game_after_the_end_needs_one_click():
    t = table(rules=Rules(rounds=1))
    play_to(t, "new-game")
    t.new_game_button.click()
    assert t.game.round == 1 and t.game.phase is Phase.INITIAL_FLIP and t.game.history == []


# ------------------------------------------------------------------ errors and input
def test_an_exception_in_a_callback_becomes_a_friendly_status(monkeypatch):
    t = table()

    def boom(*_):
        raise RuntimeError("the engine fell over")

    monkeypatch.setattr(t.game, "apply", boom)
    t.slots[0].click()  # no exception escapes the callback
    assert "Sorry, something went wrong (the engine fell over)" in t.status_text
    assert "golf-error" in t.status._dom_classes and t.errors == ["RuntimeError: the engine fell over"]
    assert "Traceback" not in t.status.value


@pytest.mark.parametrize("kwargs, message", [
    ({"players": 7}, "2 to 6 players"),
    ({"players": 1}, "2 to 6 players"),
    ({"players": ["Sofia", "Nobody"]}, "unknown personality 'Nobody'"),
    ({"players": ["Sofia", "Sofia"]}, "once"),
    ({"human_seat": 3}, "human_seat must be a seat from 0 to 2"),
    ({"cpu_delay": -1}, "cpu_delay must be a number of seconds"),
    ({"seed": "x"}, "seed must be a whole number"),
    ({"rules": {"rounds": 2}}, "rules must be a golflab.Rules"),
    ({"players": None}, r"players must be a list of CPU personality names .* or a count from 2 to 6, got None"),
    ({"players": 3.5}, r"players must be .* a count from 2 to 6, got 3.5"),
    ({"players": [3, None]}, "personality names must be text, got 3"),
    ({"players": [["Sofia"]]}, "personality names must be text, got \\['Sofia'\\]"),
])
def test_bad_arguments_are_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        table(**kwargs)


def test_player_count_picks_default_personalities_and_env_settings(monkeypatch):
    monkeypatch.setenv("GOLFLAB_CPU_DELAY", "0")
    monkeypatch.setenv("GOLFLAB_SEED", "8")
    t = GolfTable(players=4, rules=Rules(rounds=1))
    assert t.game.players == ("You", "Sofia", "Maya", "Priya") and t.cpu_delay == 0 and t.game.seed == 8
    monkeypatch.setenv("GOLFLAB_CPU_DELAY", "fast")
    with pytest.raises(ValueError, match="GOLFLAB_CPU_DELAY"):
        GolfTable()


@pytest.mark.parametrize("value", ["-1", "11", "nan", "inf", "fast"])
def test_a_cpu_delay_from_the_environment_out_of_range_names_the_variable(monkeypatch, value):
    monkeypatch.setenv("GOLFLAB_CPU_DELAY", value)
    with pytest.raises(ValueError, match=r"GOLFLAB_CPU_DELAY must be a number of seconds from 0 to 10, got"):
        GolfTable(players=2)


def test_speed_setting_changes_the_delay():
    t = table(cpu_delay=0.6)
    assert t.speed.value == 0.6
    t.speed.value = 0.0
    assert t.cpu_delay == 0
    assert "speed-applied-instant" in t.speed._dom_classes  # the page can see the kernel plays at it
    t.cpu_delay = 0.05
    assert t.speed.value == 0.05 and "0.05 s" in [label for label, _ in t.speed.options]
    assert [c for c in t.speed._dom_classes if c.startswith("speed-applied-")] == ["speed-applied-0-05s"]


def test_the_rules_form_says_the_rules_it_makes_or_why_they_are_not_allowed():
    from golflab_widgets import RulesForm

    form = RulesForm(Rules())
    assert "golf-rules-summary" in form.summary._dom_classes and form.summary in form.children
    assert "Chosen: 9 holes, standard rules" in form.summary.value
    form.controls["rounds"].value = 1
    form.controls["knock_early"].value = True
    assert "Chosen: 1 hole, knock early" in form.summary.value
    form.controls["flip_as_action"].value = True
    form.controls["knock_early"].value = False
    assert "flip as action" in form.summary.value and "knock early" not in form.summary.value


def test_repr_is_short():
    assert repr(table()) == "<GolfTable: you against Sofia, Maya; 2 holes>"


def test_new_game_from_python_keeps_what_is_not_given():
    t = table(players=["Sage", "River"], human_seat=1)
    t.new_game(rules=Rules(rounds=3), seed=4)
    g = t.game
    assert g.players == ("Sage", "You", "River") and g.rules.rounds == 3 and g.seed == 4 and t.human_seat == 1
    assert t.setup.seed.value == ""  # the next game from the panel is random unless a seed is typed
    t.new_game(players=3, human_seat=0)
    assert t.game.players == ("You", "Sofia", "Maya") and t.game.rules.rounds == 3


def test_the_settings_panel_is_built_when_first_opened():
    t = table(players=["Kenji"], rules=Rules(rounds=3))
    assert t._setup is None  # not built yet: the page loads fewer widgets
    more = next(c for c in t.children if "golf-more" in c._dom_classes)
    more.selected_index = 1
    assert t._setup is not None and t._setup in t.board.settings_slot.children
    assert t.setup.count.value == 1 and t.setup.personalities[0].value == "Kenji"
    assert t.setup.rules_form.rules == Rules(rounds=3) and t.setup.seed.value == ""


def test_new_game_without_opening_the_panel_keeps_players_and_rules():
    t = table(players=["Kenji", "Sage"], rules=Rules(rounds=3), human_seat=2)
    t.new_game_button.click()
    t.new_game_button.click()  # the CPU players have flipped already: the second click confirms
    g = t.game
    assert g.players == ("Kenji", "Sage", "You") and g.rules.rounds == 3 and g.seed != 11


def test_a_cpu_players_card_drawn_from_the_deck_is_never_shown():
    t = table(players=["Sofia", "Maya", "Marcus"], rules=Rules(rounds=1), seed=2)
    play_to(t, "new-game")
    cpu_draws = [m.text for m in t.moves if m.action == "draw" and m.seat != t.human_seat]
    assert cpu_draws and all(text.endswith("drew from the deck") for text in cpu_draws)
    mine = [m.text for m in t.moves if m.action == "draw" and m.seat == t.human_seat]
    assert mine and all("drew the " in text for text in mine)  # the learner sees their own card
    assert all(f"Hole 1: {text}." in t.log_lines for text in cpu_draws + mine)  # the log tells the same
    # while a CPU player holds a card from the deck, the board shows its back only
    t2 = table(human_seat=1, cpu_delay=0)
    g = Game(["Sofia", "You", "Maya"], Rules(rounds=1), seed=3)
    while not (g.current_player == 0 and g.awaiting == "place" and g.held_source == "draw"):
        g.apply(g.legal_actions()[0] if g.current_player != 0 or g.awaiting != "draw" else "draw")
    t2.board.draw(g, 1, [])
    assert "holds a card from the deck" in t2.opponents.value
    assert g.held.pretty not in t2.opponents.value.split("holds")[1]


# ------------------------------------------------------------------ the board between turns
def opponent_changed(t: GolfTable) -> dict[str, int | None]:
    """Each opponent's highlighted grid position (golf-changed), from the board's HTML."""
    out = {}
    for seat_html in re.split(r'<div class="golf-opp[ "]', t.opponents.value)[1:]:
        name = seat_html.split('class="gl-name">')[1].split(" \u00b7")[0]
        grid = re.split(r'class="gl-grid"[^>]*>', seat_html, maxsplit=1)[1]  # its tag also names it (aria-label)
        cards = grid.split('<span class="gl-card ')[1:]
        marked = [pos for pos, card in enumerate(cards) if card.startswith("golf-changed")]
        assert len(marked) <= 1, seat_html
        out[name] = marked[0] if marked else None
    return out


def test_each_opponents_last_changed_card_is_highlighted():
    t = table(players=["Sofia", "Maya", "Marcus"], rules=Rules(rounds=2), seed=4)
    assert opponent_changed(t) == {"Sofia": None, "Maya": None, "Marcus": None}  # nobody has moved
    assert [m.action for m in t.moves] == t.game.history
    checked = 0
    while t.awaiting != "new-game":
        human_move(t)
        if t.awaiting != "draw":
            continue
        history = t.game.history
        assert [m.action for m in t.moves] == history
        for name, pos in opponent_changed(t).items():
            seat = t.game.players.index(name)
            own = [m.action for m in t.moves if m.seat == seat and m.hole == t.game.round]
            last_turn = own[max((i for i, a in enumerate(own) if a in ("draw", "take")), default=0):]
            changed = [int(a.split()[1]) for a in last_turn if a.startswith(("swap", "flip"))]
            assert pos == (changed[-1] if changed else None), (name, last_turn)
            checked += pos is not None
    assert checked > 10


def test_last_changed_reads_the_seats_latest_turn_only():
    from golflab_widgets.table.words import Move, last_changed
    moves = [Move(1, 1, "swap 2", ""), Move(2, 1, "flip 0", ""), Move(2, 1, "flip 4", ""), Move(2, 2, "draw", "")]
    assert last_changed(moves, 1, 1) == 2 and last_changed(moves, 2, 1) == 4
    assert last_changed(moves + [Move(2, 1, "draw", ""), Move(2, 1, "discard", "")], 2, 1) is None
    assert last_changed(moves + [Move(2, 1, "draw", ""), Move(2, 1, "discard", ""), Move(2, 1, "flip 5", "")],
                        2, 1) == 5
    assert last_changed(moves + [Move(2, 1, "take", ""), Move(2, 1, "swap 3", "")], 2, 1) == 3
    assert last_changed(moves, 2, 2) is None and last_changed(moves, 3, 1) is None


def test_the_last_moves_stay_in_view_newest_first():
    t = table(players=["Sofia", "Maya", "Marcus"], seed=4)
    play_to(t, "draw")
    items = re.findall(r"<li[^>]*>(.*?)</li>", t.recent.value)
    expected = [m.text for m in t.moves if m.hole == 1][::-1][:6]
    assert len(items) == 6 and [html.unescape(i) for i in items] == expected
    assert any(m.seat == 3 for m in t.moves[-6:])  # the CPU moves that flashed past are still there
    t.deck_button.click()
    assert html.unescape(re.findall(r"<li[^>]*>(.*?)</li>", t.recent.value)[0]).startswith("You drew the ")
    assert 'class="golf-you"' in t.recent.value


def test_at_the_instant_speed_the_status_names_every_cpu_move_since_the_learners_own():
    """The status line is the page's live region: a screen reader hears each CPU player's turn, not
    only the last one, when they all play at once; one move is said as "Last move"."""
    t = table(players=["Sofia", "Maya", "Marcus"], seed=4)
    t.slots[face_down(t)[0]].click()
    mine = re.search(r'<span class="golf-last">(.*?)</span>', t.status.value)
    assert mine and html.unescape(mine.group(1)) == f"Last move: {t.moves[-1].text}."
    t.slots[face_down(t)[0]].click()  # the second flip: Sofia, Maya and Marcus then flip theirs at once
    assert t.awaiting == "draw"
    cpu = [m for m in t.moves if m.hole == 1][2:]  # after the learner's two flips, every CPU flip
    assert len(cpu) == 6 and {m.seat for m in cpu} == {1, 2, 3}
    said = html.unescape(re.search(r'<span class="golf-last">(.*?)</span>', t.status.value).group(1))
    assert said == "Last moves: " + " ".join(m.text + "." for m in cpu), said


def test_after_next_hole_the_last_moves_start_afresh_and_the_board_scrolls_into_view():
    t = table(players=["Sofia"], rules=Rules(rounds=2), seed=4)
    play_to(t, "next-round")
    assert "scrollIntoView" not in t.board.scroller.value
    t.next_round_button.click()
    first = html.unescape(t.board.scroller.value)
    assert "scrollIntoView" in first and 'closest(".golf-table")' in first
    assert all(m.hole == 2 for m in t.moves[-1:]) and "Hole 1" not in t.recent.value
    texts = [html.unescape(i) for i in re.findall(r"<li[^>]*>(.*?)</li>", t.recent.value)]
    assert texts == ([m.text for m in t.moves if m.hole == 2][::-1] or ["No moves yet this hole."])


def test_the_move_log_opens_at_the_newest_move_in_readable_type():
    t = table(seed=4)
    play_to(t, "draw")
    hidden, shown = t.log_box.value.split("</details>")
    lines = [html.unescape(x) for x in re.findall(r"<div>(.*?)</div>", shown)]
    assert lines == t.log_lines[::-1] and lines[-1].startswith("New game")
    notation = [html.unescape(x) for x in re.findall(r"<div>(.*?)</div>", hidden)]  # behind Details, at the top
    assert notation == t.story.notation[::-1] and notation[-1] == "seed 4" and notation[0].startswith("H1 ")
    from golflab_widgets.table.view import TABLE_CSS
    log_rule = TABLE_CSS.split(".golf-log{")[1].split("}")[0]
    assert "monospace" not in log_rule and "14px" in log_rule
    assert "newest first" in t.more.get_title(0)


def test_the_settings_panel_has_its_own_new_game_button():
    t = table(players=["Kenji"], rules=Rules(rounds=3))
    t.slots[0].click()
    panel = t.setup
    assert panel.children[-2] is panel.new_game_button and panel.children[-3] is panel.rules_form
    panel.count.value = 2
    panel.seed.value = "5"
    panel.new_game_button.click()
    assert "Press New game again" in t.status_text and t.game.players == ("You", "Kenji")
    panel.new_game_button.click()
    assert t.game.players == ("You", "Kenji", "Sofia") and t.game.seed == 5 and t.game.rules.rounds == 3


def all_text(widget) -> list[str]:
    """Every piece of text a widget tree shows: HTML, descriptions, labels, titles, options."""
    out = []
    for name in ("value", "description", "tooltip", "placeholder"):
        value = getattr(widget, name, None)
        if isinstance(value, str) and name != "value" or isinstance(widget, w.HTML) and name == "value":
            out.append(value)
    out += [str(label) for label in getattr(widget, "_options_labels", ())]
    if isinstance(widget, w.Accordion):
        out += [widget.get_title(i) for i in range(len(widget.children))]
    for child in getattr(widget, "children", ()):
        out += all_text(child)
    return out


def test_holes_not_rounds_wherever_the_learner_reads():
    t = table(rules=Rules(rounds=3))
    t.setup  # noqa: B018 - build the panel too
    play_to(t, "next-round")
    texts = all_text(t)
    assert any("Holes" in x for x in texts)
    assert not [x for x in texts if re.search(r"\bround", x, re.IGNORECASE)]


def test_decks_shows_automatic_and_reads_back_as_automatic():
    from golflab_widgets import RulesForm
    form = RulesForm(Rules())
    decks = form.controls["decks"]
    assert decks.label == "automatic" and form.rules.decks is None and form.rules == Rules()
    form.set_rules(Rules(decks=2))
    assert decks.label == "2" and form.rules.decks == 2
    decks.label = "automatic"
    assert form.rules.decks is None
    assert RulesForm(Rules(), options=("decks", "jokers")).controls["decks"].label == "automatic"


def test_play_notebook_links_back_to_the_landing_page():
    nb = json.loads((Path(__file__).resolve().parents[2] / "notebooks" / "play.ipynb").read_text())
    text = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "](index.ipynb)" in text


def test_a_game_saved_as_a_hole_is_dealt_resumes_at_that_hole():
    a = table(human_seat=1, rules=Rules(rounds=3), seed=6)
    play_to(a, "next-round")
    a.next_round_button.click()
    assert a.game.round == 2 and a.awaiting == "initial_flip" and a.moves[-1].hole == 1
    b = table(seed=1)
    b.load(a.save())
    assert b.save() == a.save() and b.game.round == 2 and "No moves yet this hole." in b.recent.value
    assert b.log_lines[-2] == a.log_lines[-1] == "Hole 2 dealt: You start."


def test_the_status_text_and_its_await_class_reach_the_page_together(monkeypatch):
    """The browser tests (and the page) read both at once: never a new text with an old class."""
    t = table()
    sent = []
    monkeypatch.setattr(t.status, "send_state",
                        lambda key=None: sent.append({key} if isinstance(key, str) else set(key)))
    t.slots[0].click()
    t.slots[1].click()  # the CPU players then move: the class goes to golf-await-draw
    assert any("_dom_classes" in keys for keys in sent)
    assert all("value" in keys for keys in sent if "_dom_classes" in keys), sent


# ------------------------------------------------------------------ flip as action, knock early (spec section 12)
def test_a_face_down_card_can_be_flipped_before_drawing_under_flip_as_action():
    t = table(rules=Rules(rounds=1, flip_as_action=True), players=["Sofia"])
    play_to(t, "draw")
    assert "flip it as your whole turn" in t.status_text
    down = face_down(t)
    t.slots[down[0]].click()
    assert down[0] not in face_down(t)  # flipped, and the turn passed on (the CPU has moved since)
    assert any(m.action == f"flip {down[0]}" and "as the whole turn" in m.text for m in t.moves)
    plain = table(rules=Rules(rounds=1), players=["Sofia"])
    play_to(plain, "draw")
    assert "whole turn" not in plain.status_text
    before = plain.game.to_json()
    plain.slots[face_down(plain)[0]].click()
    assert plain.game.to_json() == before and "Draw a card first" in plain.status_text


def test_the_knock_button_shows_with_one_or_two_face_down_cards_and_goes_out():
    t = table(rules=Rules(rounds=1, knock_early=True), players=["Sofia"])
    assert "golf-action-knock" in t.knock_action._dom_classes
    play_to(t, "draw")
    while len(face_down(t)) > 2 and t.awaiting == "draw":
        assert not visible(t.knock_action)
        human_move(t)
        play_to(t, "draw")
    assert visible(t.knock_action) and "Knock" in t.status_text
    t.knock_action.click()
    assert any("knocked" in line for line in t.story.log_lines)
    assert t.game.finisher == t.human_seat or t.game.phase is not Phase.PLAYING


def test_a_knock_click_that_is_not_allowed_says_why():
    t = table(rules=Rules(rounds=1), players=["Sofia"])
    play_to(t, "draw")
    assert not visible(t.knock_action)
    before = t.game.to_json()
    t._on_knock()
    assert t.game.to_json() == before and "knock early is off" in t.status_text

def test_the_expert_can_be_an_opponent_from_python_and_from_the_panel():
    t = table(players=["Expert"], rules=Rules(rounds=1))
    assert t.game.players == ("You", "Expert")
    t.slots[0].click()
    t.slots[4].click()  # the learner's initial flips; the Expert moves next and plays legally
    assert t.game.history[:2] == ["flip 0", "flip 4"] and len(t.game.history) > 2
    panel = t.setup
    assert "Expert" in [value for _, value in panel.personalities[0].options]
    panel.personalities[0].value = "Expert"
    panel.count.value = 2
    panel.personalities[1].value = "Maya"
    panel.new_game_button.click()
    panel.new_game_button.click()
    assert t.game.players == ("You", "Expert", "Maya")


def test_rules_form_shows_choices_in_words_and_keeps_their_codes():
    """A form shows "Lucky swing", never the code lucky_swing; the rules still get the code."""
    from golflab_widgets.table.rules_form import RulesForm

    form = RulesForm(options=("jokers", "flip_mode"))
    jokers = form.controls["jokers"]
    assert [label for label, _ in jokers.options] == ["None", "Standard", "Lucky swing", "Eagle eye"]
    jokers.value = "lucky_swing"
    assert form.rules.jokers == "lucky_swing"
    rows = [row for row in form.children if row is not form.summary]
    texts = [row.children[-1].value for row in rows]  # each row: the control (labelled by its description), its help
    labels = [ctl.description for ctl in form.controls.values()]
    assert len(rows) == len(labels) == 2
    assert form.summary.value.endswith("Chosen: jokers: lucky swing</span>")
    assert all("_" not in text for text in texts + labels), (texts, labels)
    assert "Lucky swing: a single -5 joker" in texts[0]
