"""The analysis board (widgets/analysis.py) driven in Python: a position typed or opened from a
link is drawn and valued by the coach as the table's hint values it; a refused text changes
nothing but the problem line."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from golflab_widgets.analysis import EXAMPLE, AnalysisBoard, position_link, requested_position
from golflab_widgets.coach_panel import hint_html

from golflab import Game, Position, Rules
from golflab.ai import CPUPlayer
from golflab.coach import hint


def test_a_position_is_drawn_and_every_option_valued_as_the_coach_values_it():
    board = AnalysisBoard(EXAMPLE)
    pos = Position.parse(EXAMPLE)
    obs = pos.observation()
    assert board.problem.value == "" and board.position == pos
    assert board.values.value == "<h4>The coach's values</h4>" + hint_html(hint(obs), obs)
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
