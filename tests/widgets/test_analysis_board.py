"""The analysis board (widgets/coach/analysis.py) driven in Python: a position typed or opened from a
link is drawn and valued by the coach as the table's hint values it; a refused text changes
nothing but the problem line."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from golflab_widgets.coach import analysis
from golflab_widgets.coach.analysis import EXAMPLE, AnalysisBoard, requested_position
from golflab_widgets.coach.analysis_editor import PositionEditor
from golflab_widgets.coach.panel import hint_html
from golflab_widgets.position_links import position_link

from golflab import Game, Position, Rules
from golflab.ai import CPUPlayer
from golflab.coach import hint


def test_a_position_is_drawn_and_every_option_valued_as_the_coach_values_it():
    board = AnalysisBoard(EXAMPLE)
    pos = Position.parse(EXAMPLE)
    obs = pos.observation()
    assert board.problem.value == "" and board.position == pos
    assert board.values.value == "<h2>The coach's values</h2>" + hint_html(hint(obs), obs)
    assert "deck: 38" in board.board.value and board.board.value.count("gl-card") >= 14
    assert position_link(pos) in board.link.value.replace("&amp;", "&")


def test_a_refused_text_says_why_and_keeps_the_last_position():
    board = AnalysisBoard(EXAMPLE)
    kept = (board.board.value, board.values.value, board.link.value, board.position)
    assert not board.show(EXAMPLE.replace("deck 38", "deck 30"))
    assert "impossible position: the cards do not add up" in board.problem.value
    assert (board.board.value, board.values.value, board.link.value, board.position) == kept
    assert not board.show("swap 3")
    assert board.problem.value.startswith("not a position:")
    assert board.show(EXAMPLE) and board.problem.value == ""


def test_the_link_opens_the_same_position():
    text = ("KH 5D (QS) ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds ?, seen by seat 0; "
            "hole 3, totals 12 -4; rules flip_mode=always knock_penalty=on")
    link = position_link(Position.parse(text))
    assert link.startswith("analysis.ipynb?position=") and " " not in link
    query = urlsplit(link).query
    assert parse_qs(query)["position"] == [text]
    assert requested_position({"QUERY_STRING": query}) == text
    assert requested_position({"QUERY_STRING": "large=1"}) is None
    board = AnalysisBoard(text)  # another seat's view, the drawn card unseen: nothing to value
    assert "cannot see the card the player to move drew" in board.values.value


def test_a_moment_of_a_played_game_opens_as_that_seat_saw_it():
    game = Game(["Sofia", "Maya"], Rules(rounds=1), seed=4)
    bots = [CPUPlayer("Sofia", seed=0), CPUPlayer("Maya", seed=1)]
    while game.phase != "game_over":
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    board = AnalysisBoard(game.position(1))
    assert board.position == game.position(1) and "nothing to decide" in board.values.value
    assert board.text.value == str(game.position(1))


def test_a_position_set_up_by_clicking_is_shown_and_an_impossible_one_said(monkeypatch):
    monkeypatch.setattr(analysis, "hint", lambda obs: [])  # the values are the first test's: here, the set-up
    board = AnalysisBoard(EXAMPLE)
    editor = PositionEditor(board)
    assert board.editor_slot.children == (editor,)
    assert [b.description for b in editor.slots[0]] == ["KH", "5D", "?", "?", "?", "2C"]
    editor.picker.value = "QS"
    editor.place(0, 2)  # the queen of spades face up at seat 0's top right
    assert board.problem.value == ""
    assert str(board.position).startswith("KH 5D QS ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D")
    editor.mode.value = "face down, known"
    editor.picker.value = "KH"
    editor.place(1, 1)  # a second king of hearts: refused, the board keeps the last good position
    assert "impossible position: KH is there 2 times" in board.problem.value
    assert editor.slots[1][1].description == "(KH)" and board.position.cards[1][1] is None
    editor.mode.value = "face down, unknown"
    editor.place(1, 1)
    assert board.problem.value == "" and board.position.cards[1][1] is None
    editor.players.value = 3  # a third seat, all face down: it has not turned up its two cards
    assert "seat 2 has fewer than the 2 face-up cards every seat turns up at the start" in board.problem.value
    editor.mode.value = "face up"
    for pos, card in ((0, "3D"), (4, "6H")):
        editor.picker.value = card
        editor.place(2, pos)
    assert board.problem.value == "" and board.position.deck == 52 - 18 - 1 - 1  # the deck counts what is left
    editor.stage.value = "draw"
    assert str(board.position) == "KH 5D QS ? ? 2C / 9S ? ? ? 7H ? / 3D ? ? ? 6H ?; discard 4S; deck 33; seat 1 to draw"
    assert editor.finisher.label == "nobody"
    editor.finisher.value = 0
    assert "seat 0 went out with a face-down card" in board.problem.value
    board.text.value = EXAMPLE
    board.show_button.click()  # typed and shown: the editor follows
    assert editor.players.value == 2 and editor.stage.value == "holds" and editor.held.value == "8D"
    assert editor.finisher.label == "nobody" and board.problem.value == ""


def test_house_rules_are_set_by_clicking_and_follow_a_typed_position(monkeypatch):
    monkeypatch.setattr(analysis, "hint", lambda obs: [])  # the values are the first test's: here, the rules
    board = AnalysisBoard(EXAMPLE)
    editor = PositionEditor(board)
    controls = editor.rules_form.controls
    assert "golf-edit-rules" in editor.children[0].children[0].children[-1]._dom_classes
    assert editor.rules_form.rules == Rules() and set(controls) >= {"knock_penalty", "flip_mode", "decks", "rounds"}
    controls["knock_penalty"].value = True
    assert board.problem.value == "" and board.position.rules.knock_penalty
    assert board.text.value == EXAMPLE + "; rules knock_penalty=on"
    controls["decks"].value = 2  # two decks: the rest of them is the deck
    assert board.position.rules.decks == 2 and board.position.deck == 104 - 12 - 1 - 1
    assert board.text.value.endswith("; deck 90; seat 1 holds 8D; rules knock_penalty=on decks=2")

    later = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D; hole 3, totals 12 -4; " \
            "rules flip_mode=always"
    assert board.show(later)  # typed: the form follows
    assert controls["flip_mode"].value == "always" and controls["knock_penalty"].value is False
    assert controls["decks"].value == 0  # the form's "automatic"
    controls["rounds"].value = 2  # hole 3 of a game of 2 holes: refused, the last position kept
    assert "impossible position: hole 3 in a game of 2 hole(s)" in board.problem.value
    assert board.position == Position.parse(later) and controls["rounds"].value == 2
    controls["rounds"].value = 9
    assert board.problem.value == "" and board.position == Position.parse(later)
