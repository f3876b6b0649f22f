"""Hot-seat: several people at one screen with CPU players filling the other seats (issue 11).
The status names whose turn it is; between two people's turns the board hides behind "Pass
to <name>", so a drawn card is seen only by the seat that drew it."""

from __future__ import annotations

import pytest
from golflab_widgets.table import GolfTable

from golflab import Phase, Rules

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
    assert "Ann (seat 1)" in table.board.mine_label.value
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


def test_new_game_keeps_the_people_and_the_panel_makes_a_one_learner_game():
    table = hot()
    table.slots[0].click()
    table.new_game_button.click()
    table.new_game_button.click()  # the second press confirms
    assert table.hotseat and list(table.game.players) == ["Ann", "Ben", "Sofia"] and table.game.history == []
    table.setup.new_game_button.click()
    assert not table.hotseat and list(table.game.players) == ["You", "Sofia"] and table.humans == {0}


@pytest.mark.parametrize("players, humans, message", [
    (["Ann", "Ben", "Sofia"], ["Cleo"], "every human must be one of the players"),
    (["Ann", "Sofia"], ["Sofia"], "is a CPU personality"),
    (["Ann", "Ann", "Sofia"], ["Ann"], "a different name"),
    (["Ann", "Nobody"], ["Ann"], "Nobody"),
    (3, ["Ann"], "must list every seat's name"),
    (["Ann", "Ben"], [], "humans must be a list"),
    (["Ann", "Ben"], "Ann", "humans must be a list"),
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
    assert "You (seat 1)" in table.board.mine_label.value


def test_a_refused_one_learner_new_game_keeps_the_hot_seat_game():
    table = hot()
    saved = table.save()
    with pytest.raises(ValueError, match="Nobody"):
        table.new_game(players=["Nobody"])
    assert table.hotseat and table.save() == saved and table.humans == {0, 1}
    table.slots[0].click()
    table.slots[1].click()
    assert table.passing_to == "Ben"
