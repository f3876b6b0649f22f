"""Hot-seat: several people at one screen with CPU players filling the other seats (issue 11).
The status names whose turn it is; between two people's turns the board hides behind "Pass
to <name>", so a drawn card is seen only by the seat that drew it."""

from __future__ import annotations

import json
from html import escape

import pytest
from golflab_widgets.table.golf_table import GolfTable

from golflab import Game, Phase, Rules

PEOPLE = {"players": ["Ann", "Ben", "Sofia"], "humans": ["Ann", "Ben"]}


def hot(seed: int = 3, **kwargs) -> GolfTable:
    return GolfTable(**{**PEOPLE, **kwargs}, seed=seed, cpu_delay=0, rules=Rules(rounds=2))


def click(table: GolfTable, action: str) -> None:
    """Press the board's control for ``action`` (the first legal one the test picks)."""
    kind, _, pos = action.partition(" ")
    buttons = {"draw": table.deck_button, "take": table.discard_button, "discard": table.discard_action,
               "skip": table.skip_action, "knock": table.knock_action}
    (table.slots[int(pos)] if pos else buttons[kind]).click()


def test_seats_names_and_the_first_persons_turn():
    table = hot()
    assert list(table.game.players) == ["Ann", "Ben", "Sofia"]
    assert table.hotseat and table.humans == {0, 1}
    assert table.human_seat == 0 and not table.cpu_to_move
    assert table.status_text.startswith("Ann, it is your turn. Click 2 face-down cards")
    assert table.awaiting == "initial_flip" and table.passing_to is None
    assert "Ann \u00b7 total" in table.board.mine_label.value and "seat" not in table.board.mine_label.value
    assert "Ben" in table.opponents.value and "plays at this screen" in table.opponents.value


def test_the_board_hides_between_two_peoples_turns_and_clicks_then_change_nothing():
    table = hot()
    table.slots[0].click()
    table.slots[1].click()  # Ann's two initial flips: Ben is next
    assert table.passing_to == "Ben" and table.awaiting == "pass"
    assert table.status_text.startswith("Pass to Ben")
    assert table.board.felt.layout.display == "none" and table.board.pass_panel.layout.display is None
    assert table.board.ready_button.description == "I am Ben, show my turn"
    saved = table.save()
    table.slots[2].click()
    assert table.save() == saved and "golf-refused" in table.status._dom_classes
    assert "hidden until Ben presses" in table.status_text
    table.board.ready_button.click()
    assert table.human_seat == 1 and table.passing_to is None
    assert table.board.felt.layout.display is None and table.board.pass_panel.layout.display == "none"
    assert table.status_text.startswith("Ben, it is your turn.")


def test_ready_with_nobody_to_pass_to_is_refused():
    with pytest.raises(ValueError, match="not waiting to be passed"):
        hot().ready()


def play_through(table: GolfTable, check=lambda t: None) -> int:
    """Play the game to its end through the board, the first legal action each time."""
    passes = 0
    for _ in range(5000):
        if table.game.phase is Phase.GAME_OVER:
            return passes
        check(table)
        if table.awaiting == "pass":
            passes += 1
            table.board.ready_button.click()
        elif table.awaiting == "next-round":
            table.next_round_button.click()
        else:
            obs = table.game.observation(table.human_seat)
            click(table, str(obs.legal_actions[0]))
    raise AssertionError("the game did not end")


def only_the_drawer_sees_a_drawn_card(table: GolfTable) -> None:
    g = table.game
    if table.awaiting == "pass":
        assert table.board.felt.layout.display == "none"
        return
    assert table.awaiting == "cpu" or g.current_player == table.human_seat, "a person's turn shown to another"
    holder = g.current_player
    if g.phase in (Phase.PLAYING, Phase.FINAL_TURN) and g.awaiting == "place" and holder != table.human_seat:
        assert g.observation(table.human_seat).drawn is None or g.observation(holder).taken is not None


def test_a_hot_seat_game_plays_through_with_a_pass_step_and_ends_named():
    table = hot()
    passes = play_through(table, only_the_drawer_sees_a_drawn_card)
    assert passes > 10 and not table.errors
    assert table.game.phase is Phase.GAME_OVER
    winner = min(zip(table.game.totals, table.game.players))[1]
    assert f"{winner} wins" in table.status_text or " and " in table.status_text


def test_the_same_seed_plays_the_same_game():
    a, b = hot(seed=11), hot(seed=11)
    play_through(a)
    play_through(b)
    assert a.game.history == b.game.history


def test_two_people_and_no_cpu():
    table = GolfTable(players=["Ann", "Ben"], humans=["Ann", "Ben"], seed=2, cpu_delay=0, rules=Rules(rounds=1))
    assert play_through(table) > 5 and table.game.phase is Phase.GAME_OVER


def test_teacher_against_the_class_cpus_between():
    table = GolfTable(players=["Teacher", "Maya", "Class", "Marcus"], humans=["Teacher", "Class"], seed=5,
                      cpu_delay=0, rules=Rules(rounds=1))
    assert table.humans == {0, 2}
    play_through(table)
    assert table.game.phase is Phase.GAME_OVER and not table.errors


def test_new_game_keeps_the_people_and_the_panel_shows_them():
    table = hot()
    table.slots[0].click()
    table.new_game_button.click()
    table.new_game_button.click()  # the second press confirms
    assert table.hotseat and list(table.game.players) == ["Ann", "Ben", "Sofia"] and table.game.history == []
    panel = table.setup
    assert panel.people.value == 2 and [b.value for b in panel.names[:2]] == ["Ann", "Ben"]
    assert panel.count.value == 1 and panel.personalities[0].value == "Sofia"
    assert panel.count.description == "CPU players" and panel.seat.layout.display == "none"
    panel.new_game_button.click()
    assert table.hotseat and list(table.game.players) == ["Ann", "Ben", "Sofia"] and table.humans == {0, 1}


def test_one_person_in_the_panel_makes_a_one_learner_game():
    table = hot()
    panel = table.setup
    panel.people.value = 1
    assert panel.count.description == "Opponents" and panel.seat.layout.display is None
    assert all(box.layout.display == "none" for box in panel.names)
    panel.new_game_button.click()
    assert not table.hotseat and list(table.game.players) == ["You", "Sofia"] and table.humans == {0}
    assert table.status_text.startswith("Your turn")


# ------------------------------------------------------------ the new-game panel
def fill_panel(table: GolfTable, people: list[str], cpus: list[str], seed: str) -> None:
    """Type ``people``, ``cpus`` and ``seed`` into ``table``'s new-game panel (not pressed)."""
    panel = table.setup
    panel.people.value = len(people)
    for box, name in zip(panel.names, people):
        box.value = name
    panel.count.value = len(cpus)
    for dd, name in zip(panel.personalities, cpus):
        dd.value = name
    panel.seed.value = seed


def panel_game(people: list[str], cpus: list[str], seed: str = "5") -> GolfTable:
    """A one-learner table whose new-game panel seats ``people`` and ``cpus``, then is pressed."""
    table = GolfTable(seed=1, cpu_delay=0)
    fill_panel(table, people, cpus, seed)
    table.setup.rules_form.controls["rounds"].value = 1
    table.setup.new_game_button.click()
    return table


def test_the_panel_seats_several_people_and_cpus_through_new_game():
    table = panel_game(["Teacher", "Class"], ["Maya", "Kenji"])
    assert table.hotseat and list(table.game.players) == ["Teacher", "Class", "Maya", "Kenji"]
    assert table.humans == {0, 1} and table.game.seed == 5 and table.game.rules.rounds == 1
    assert table.status_text.startswith("Teacher, it is your turn.")
    same = GolfTable(players=["Teacher", "Class", "Maya", "Kenji"], humans=["Teacher", "Class"], seed=5,
                     rules=table.game.rules, cpu_delay=0)
    assert play_through(table, only_the_drawer_sees_a_drawn_card) > 3 and not table.errors
    play_through(same)
    assert table.game.history == same.game.history  # the panel and Python start the same game


def test_the_panel_seats_people_with_no_cpu():
    table = panel_game(["Ann", "Ben", "Cleo"], [])
    assert table.hotseat and list(table.game.players) == ["Ann", "Ben", "Cleo"] and table.humans == {0, 1, 2}
    assert table.setup.count.options == (0, 1, 2, 3)
    table.setup.people.value = 6
    assert table.setup.count.options == (0,) and [b.layout.display for b in table.setup.names] == [None] * 6


@pytest.mark.parametrize("people, cpus, message", [
    (["Ann", ""], ["Maya"], "person 2 has no name: type a name for each person at this screen"),
    (["Ann", "  "], ["Maya"], "person 2 has no name"),
    (["Ann", "Ann"], ["Maya"], "two people are called 'Ann': every person needs a different name"),
    (["Ann", "Maya"], ["Sofia"], "'Maya' is a CPU personality; give the people other names"),
    (["Ann", "Maya"], ["Maya"], "'Maya' is a CPU personality"),
    (["Ann", "You"], ["Maya"], "'You' is the seat of the one learner"),
    (["Ann", "B" * 30], ["Maya"], "is too long: at most 20 characters"),
    (["Ann", "Ben"], ["Maya", "Maya"], "Maya"),
    (["Ann", "Ben"], ["Maya"], "the seed must be a whole number"),
])
def test_the_panel_refuses_bad_seating_plainly_and_changes_nothing(people, cpus, message):
    table = GolfTable(seed=1, cpu_delay=0)
    before = table.save()
    fill_panel(table, people, cpus, "x" if "seed" in message else "5")
    panel = table.setup
    panel.new_game_button.click()
    assert table.save() == before and not table.hotseat and "golf-refused" in table.status._dom_classes
    assert table.status_text.startswith("Cannot start a new game: ") and message in table.status_text
    assert "Fix it under New game settings" in table.status_text
    assert escape(message) in panel.problem.value and panel.problem.layout.display is None  # beside the button
    panel.people.value, panel.seed.value, panel.personalities[1].value = 1, "5", "Kenji"
    panel.new_game_button.click()
    assert table.game.seed == 5 and panel.problem.layout.display == "none"


def test_with_a_game_in_play_a_blank_name_is_answered_beside_the_panel_button_at_the_first_press():
    table = hot()
    table.slots[0].click()  # a game in play: New game would first ask to confirm
    before = table.save()
    panel = table.setup
    panel.names[1].value = ""
    panel.new_game_button.click()
    assert table.save() == before and panel.problem.layout.display is None
    assert "person 2 has no name" in panel.problem.value and "person 2 has no name" in table.status_text
    panel.names[1].value = "Ben"
    panel.new_game_button.click()  # valid now: beside the button, the request to press again
    assert table.save() == before and panel.problem.layout.display is None
    assert "this game is not finished" in panel.problem.value
    assert "Press New game with these settings again" in panel.problem.value
    panel.new_game_button.click()
    assert table.game.history == [] and panel.problem.layout.display == "none"


def test_a_table_with_cpus_between_the_people_keeps_its_seats_when_restarted_from_the_panel():
    table = GolfTable(players=["Teacher", "Maya", "Class", "Marcus"], humans=["Teacher", "Class"], seed=5,
                      cpu_delay=0, rules=Rules(rounds=1))
    panel = table.setup
    panel.new_game_button.click()
    assert list(table.game.players) == ["Teacher", "Maya", "Class", "Marcus"] and table.humans == {0, 2}
    panel.personalities[0].value = "Kenji"  # other names, the same people's seats
    panel.names[1].value = "Pupils"
    panel.new_game_button.click()
    assert list(table.game.players) == ["Teacher", "Kenji", "Pupils", "Marcus"] and table.humans == {0, 2}
    panel.count.value = 1  # seats 1 and 3 are still there
    panel.new_game_button.click()
    assert list(table.game.players) == ["Teacher", "Kenji", "Pupils"] and table.humans == {0, 2}
    panel.people.value = 3  # a third person: the seats do not fit, the people sit first
    panel.names[2].value = "Guest"
    panel.new_game_button.click()
    assert list(table.game.players) == ["Teacher", "Pupils", "Guest", "Kenji"] and table.humans == {0, 1, 2}


def test_the_panel_hooks():
    panel = GolfTable(seed=1, cpu_delay=0).setup
    assert "golf-people" in panel.people._dom_classes and "golf-cpu-count" in panel.count._dom_classes
    assert all({"golf-person-name", f"golf-person-name-{i}"} <= set(b._dom_classes) for i, b in enumerate(panel.names))
    assert all(f"golf-cpu-{i}" in dd._dom_classes for i, dd in enumerate(panel.personalities))
    assert "golf-your-seat" in panel.seat._dom_classes and "golf-seed" in panel.seed._dom_classes
    assert panel.people.value == 1 and all(box.layout.display == "none" for box in panel.names)


def test_the_toolbar_new_game_uses_the_opened_panel():
    table = GolfTable(seed=1, cpu_delay=0)
    panel = table.setup
    panel.people.value = 2
    panel.names[0].value, panel.names[1].value = "Ann", "Ben"
    table.new_game_button.click()  # nothing played yet: no confirmation
    assert table.hotseat and list(table.game.players) == ["Ann", "Ben", "Sofia", "Maya", "Marcus"]


# ------------------------------------------------------------ save and resume
def mid_turn(table: GolfTable) -> GolfTable:
    """Play until a person holds a card drawn from the deck (the board shows it to them only)."""
    for _ in range(500):
        if table.awaiting == "pass":
            table.board.ready_button.click()
        elif table.awaiting == "draw" and table.game.round == 1 and len(table.game.history) > 8:
            table.deck_button.click()
            assert table.awaiting == "place" and table.game.observation(table.human_seat).drawn is not None
            return table
        else:
            click(table, str(table.game.observation(table.human_seat).legal_actions[0]))
    raise AssertionError("no person drew a card")


def test_a_saved_hot_seat_game_resumes_hot_seat_behind_the_pass_step():
    a = mid_turn(hot())
    mover = a.game.players[a.game.current_player]
    text = a.save()
    b = GolfTable(seed=99, cpu_delay=0)  # a one-learner table resumes it
    b.save_text.value = text
    b.load_button.click()
    assert b.hotseat and b.humans == {0, 1} and b.save() == text
    assert "Loaded a saved hot-seat game (Ann and Ben at this screen): hole 1 of 2." in b.status_text
    assert b.passing_to == mover and b.awaiting == "pass"  # whoever loaded it hands the screen over
    assert b.board.felt.layout.display == "none"
    b.board.ready_button.click()
    assert b.human_seat == a.human_seat and b.awaiting == "place" and b.status_text.startswith(f"{mover}, it is")
    assert b.board.hand.value == a.board.hand.value  # the drawn card, to its drawer
    play_through(a)
    play_through(b, only_the_drawer_sees_a_drawn_card)
    assert a.save() == b.save() and not b.errors


def test_a_hot_seat_save_made_between_turns_and_one_with_no_cpu_resume_too():
    a = GolfTable(players=["Ann", "Ben"], humans=["Ann", "Ben"], seed=2, cpu_delay=0, rules=Rules(rounds=1))
    a.slots[0].click()
    a.slots[1].click()
    assert a.passing_to == "Ben"
    b = hot()
    b.load(a.save())
    assert b.hotseat and b.humans == {0, 1} and b.passing_to == "Ben" and b.game.history == a.game.history
    assert repr(b) == "<GolfTable: Ann and Ben at this screen; 1 holes>"
    assert repr(hot(players=["Ann", "Maya", "Ben", "Cleo"], humans=["Ann", "Ben", "Cleo"])) == (
        "<GolfTable: Ann, Ben and Cleo at this screen against Maya; 2 holes>")
    b.new_game_button.click()
    b.new_game_button.click()
    assert b.hotseat and list(b.game.players) == ["Ann", "Ben"]  # a new deal for the same people


def test_a_one_learner_save_still_resumes_as_before_even_on_a_hot_seat_table():
    a = GolfTable(players=["Sofia", "Maya"], seed=4, cpu_delay=0, human_seat=1)
    a.slots[0].click()
    b = hot()
    b.load(a.save())
    assert not b.hotseat and b.humans == {1} and b.human_seat == 1 and b.save() == a.save()
    assert b.status_text.startswith("Loaded a saved game: hole 1 of 9.")
    assert repr(b) == "<GolfTable: you against Sofia, Maya; 9 holes>"


@pytest.mark.parametrize("players, message", [
    (["Sofia", "Maya"], "no single seat named 'You' (one learner) nor two or more people's names"),
    (["Ann", "Maya"], "no single seat named 'You'"),
    (["Ann", "Ben", "Sofia", "Maya", "Marcus", "You"], "unknown personality 'Ann'"),
    (["Ann", "C" * 25, "Maya"], "too long: at most 20 characters"),
])
def test_a_save_with_no_seat_for_people_is_refused_and_changes_nothing(players, message):
    table = hot()
    table.slots[0].click()
    before = table.save()
    table.save_text.value = Game(players, Rules(), seed=1).to_json()
    table.load_button.click()
    assert table.save() == before and table.hotseat and table.humans == {0, 1}
    assert "Could not load that game" in table.status_text and message in table.status_text


@pytest.mark.parametrize("players, humans, message", [
    (["Ann", "Ben", "Sofia"], ["Ann", "Cleo"], "every human must be one of the players"),
    (["Ann", "Ben", "Sofia"], ["Ann", "Sofia"], "is a CPU personality"),
    (["Ann", "Ann", "Sofia", "Ben"], ["Ann", "Ben"], "a different name"),
    (["Ann", "Ben", "Ben"], ["Ann", "Ben", "Ben"], "two people are called 'Ben'"),
    (["Ann", "Ben", "Nobody"], ["Ann", "Ben"], "Nobody"),
    (["Ann", "Sofia"], ["Ann"], "2 to 6 names, got 1; for one learner against CPU players leave humans out"),
    (["You", "Ben", "Sofia"], ["You", "Ben"], "'You' is the seat of the one learner"),
    (["A" * 21, "Ben"], ["A" * 21, "Ben"], "too long: at most 20 characters"),
    (3, ["Ann"], "must list every seat's name"),
    (["Ann", "Ben"], [], "humans must be a list"),
    (["Ann", "Ben"], "Ann", "humans must be a list"),
    (["Ann", "Ben"], ["Ann", 3], "a person's name is text, got 3"),
    (["Ann"], ["Ann"], "2 to 6 players"),
])
def test_bad_seating_is_refused_clearly(players, humans, message):
    with pytest.raises(ValueError, match=message):
        GolfTable(players=players, humans=humans, cpu_delay=0)
    table = hot()
    saved = table.save()
    with pytest.raises(ValueError, match=message):
        table.new_game(players=players, humans=humans)
    assert table.save() == saved and table.hotseat


def test_a_one_learner_table_is_unchanged():
    table = GolfTable(seed=1, cpu_delay=0)
    assert not table.hotseat and table.humans == {0} and table.status_text.startswith("Your turn")
    assert "You \u00b7 total" in table.board.mine_label.value


def test_a_refused_one_learner_new_game_keeps_the_hot_seat_game():
    table = hot()
    saved = table.save()
    with pytest.raises(ValueError, match="Nobody"):
        table.new_game(players=["Nobody"])
    assert table.hotseat and table.save() == saved and table.humans == {0, 1}
    table.slots[0].click()
    table.slots[1].click()
    assert table.passing_to == "Ben"


def as_version_1(text: str) -> str:
    """A save as golflab wrote it before the checksum (version 1)."""
    data = json.loads(text)
    del data["checksum"]
    return json.dumps({**data, "version": 1})


@pytest.mark.parametrize("make, hotseat, humans", [
    (lambda: GolfTable(players=["Sofia", "Maya"], seed=4, cpu_delay=0), False, {0}),
    (lambda: hot(seed=4), True, {0, 1}),
])
def test_version_1_saves_resume_the_same_way(make, hotseat, humans):
    a = make()
    a.slots[0].click()
    a.slots[1].click()
    b = GolfTable(seed=9, cpu_delay=0)
    b.load(as_version_1(a.save()))
    assert b.hotseat is hotseat and b.humans == humans and b.game.history == a.game.history
