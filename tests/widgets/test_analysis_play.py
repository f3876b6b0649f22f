"""*Play from here* on the analysis board (widgets/coach/analysis_play.py, analysis_steps.py), driven
in Python: the position becomes a game dealt from one seed and is played on against CPU players (the
golf table) or step by step, each step valued again by the coach; the page never receives a card the
learner's seat cannot see; the analysis comes back at the moment reached or at the start; bad input is
refused, said, and changes nothing."""

from __future__ import annotations

import html

import pytest
from golflab_widgets.coach import analysis
from golflab_widgets.coach.analysis import AnalysisBoard
from golflab_widgets.coach.analysis_play import PlayOn
from golflab_widgets.coach.analysis_steps import move_hook
from golflab_widgets.table.golf_table import NOT_SAVED, GolfTable

from golflab import Card, Game, Position
from tests.support.widget_state import marks, page_state

#: Seat 1 drew the 8 of diamonds; seat 0 has a queen of spades face down that the teacher set there.
START = "KH 5D (QS) ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D"
SEED = 5


@pytest.fixture
def valued(monkeypatch) -> list:
    """The coach's valuations asked for (each an observation); the values themselves are the first
    analysis test's (test_analysis_board.py): here, what is valued and when."""
    asked = []
    monkeypatch.setattr(analysis, "hint", lambda obs: asked.append(obs) or [])
    return asked


def board_and_play(text: str = START) -> tuple[AnalysisBoard, PlayOn]:
    board = AnalysisBoard(text)
    return board, PlayOn(board)


def unseen_cards(game: Game, start: Position) -> list[Card]:
    """The cards no seat sees that the seed dealt (the position did not name them): every face-down
    card and the next cards of the draw pile."""
    known = {c for g in start.cards for c in g if c is not None}
    down = [c for s in range(game.num_players)
            for c, up in zip(game.grid(s), game.face_up(s)) if not up and c not in known]
    peek = game.copy()
    pile = []
    while peek.draw_pile_size and len(pile) < 3:  # the deck's next cards, without touching the game
        if peek.awaiting == "draw":
            peek.apply("draw")
            pile.append(peek.held)
        peek.apply("discard" if peek.awaiting == "place" else peek.legal_actions()[0])
    return down + pile


def test_play_against_cpus_deals_from_the_seed_and_the_page_never_holds_an_unseen_card(valued):
    board, play = board_and_play()
    assert board.play_slot.children == (play,) and play.seat.value == 1  # the position's seat plays
    assert [m.layout.display for m in play.cpus[:2]] == [None, "none"]  # a CPU at seat 0 only
    play.cpus[0].value = "Maya"
    play.seed.value = str(SEED)
    play.cpu_button.click()
    table = play.game_view
    assert isinstance(table, GolfTable) and board.playing and play.problem.value == ""
    assert board.analysis.layout.display == "none" and board.play_area.children == (play.frame,)
    start = Position.parse(START)
    dealt = start.game(SEED, players=["Maya", "You"])
    game = table.game
    assert list(game.players) == ["Maya", "You"] and game.seed == SEED and table.human_seat == 1
    assert [game.grid(s) for s in range(2)] == [dealt.grid(s) for s in range(2)]  # one seed, one deal
    assert game.grid(0)[2] == Card.parse("QS")  # the card the teacher set face down is there
    assert str(Position.of(game.observation(1))) == START.replace("(QS)", "?")  # what the position shows, no more
    assert "Played on from a position: You against Maya" in table.log_lines[0]

    table.cpu_delay = 0
    table.discard_action.click()  # the learner discards the 8; Maya plays her turn
    assert game.history[0] == "discard" and len(game.history) >= 3
    assert game.current_player == 1 and game.awaiting == "draw"
    assert_unseen_not_on_the_page(board, game, start)


def assert_unseen_not_on_the_page(board: AnalysisBoard, game: Game, start: Position) -> None:
    hidden = unseen_cards(game, start)
    assert len(hidden) >= 6
    shown = page_state(board)
    for card in hidden:
        for mark in marks(card):
            assert mark not in shown, f"the page holds {card} ({mark!r})"
    assert any(m in shown for m in marks(game.discard_pile[-1]))  # a card in sight is there: the check can fail


def test_a_game_played_on_from_a_position_is_neither_saved_nor_kept(valued):
    board, play = board_and_play()
    play.cpu_button.click()
    table = play.game_view
    assert table.from_position
    table.save_button.click()
    assert NOT_SAVED in table.status.value and "golf-refused" in table.status._dom_classes
    assert table.download.value == ""
    with pytest.raises(ValueError, match="cannot be saved as a file"):
        table.save()
    table.new_game()  # an ordinary deal again: saved as any game
    assert not table.from_position and Game.from_json(table.save()).seed == table.game.seed


def test_analyse_this_moment_shows_the_learners_view_and_back_shows_the_start(valued):
    board, play = board_and_play()
    play.cpu_button.click()
    table = play.game_view
    table.cpu_delay = 0
    table.discard_action.click()
    moment = Position.of(table.game.observation(1))
    play.analyse_button.click()
    assert not board.playing and board.analysis.layout.display is None and play.game_view is None
    assert board.position == moment and board.text.value == str(moment)
    assert "(QS)" not in board.text.value  # the learner's view: the teacher's face-down card is not in it
    assert valued[-1].seat == 1 and valued[-1].current_player == 1  # the coach values the moment reached
    assert not table.pacer.active

    play.cpu_button.click()  # on from the moment reached, then back to where that play started
    assert Position.of(play.game_view.game.observation(1)) == moment
    play.back_button.click()
    assert not board.playing and board.position == moment


def test_step_by_step_every_seats_move_is_entered_and_each_moment_valued_again(valued):
    board, play = board_and_play()
    play.seed.value = str(SEED)
    play.steps_button.click()
    steps = play.game_view
    assert board.playing and steps.game.grid(0)[2] == Card.parse("QS")
    assert "Seat 1 to move" in steps.status.value
    hooks = [c._dom_classes[0] for c in steps.moves.children]
    assert hooks == [move_hook(f"swap {i}") for i in range(6)] + [move_hook("discard")]
    assert valued[-1].seat == 1 and valued[-1].drawn == Card.parse("8D")
    before = len(valued)

    steps.moves.children[-1].click()  # seat 1 discards the 8
    assert steps.game.history == ["discard"] and "Seat 0 to move" in steps.status.value
    assert len(valued) == before + 1 and valued[-1].seat == 0  # the new moment, from seat 0's side
    assert "Seat 1: discard the 8 (discard)" in steps.move_log.value
    assert_unseen_not_on_the_page(board, steps.game, Position.parse(START))
    steps.text.value = "draw"
    steps.play_button.click()  # typed
    assert steps.game.history == ["discard", "draw"] and steps.text.value == ""
    drawn = steps.game.held
    assert any(m in steps.board.value for m in marks(drawn))  # the seat to move sees the card it drew
    assert steps.game.grid(0)[2] == Card.parse("QS") and "QS" not in steps.board.value  # face down stays unseen

    for typed, says in (("swap 9", "'swap 9' is not an action"), ("take", "take"), ("", "not an action")):
        steps.text.value = typed
        steps.play_button.click()
        said = html.unescape(steps.problem.value)
        assert said.startswith("That move was not played:") and says in said, said
        assert steps.game.history == ["discard", "draw"] and steps.game.held == drawn  # nothing changed
    steps.undo.click()
    assert steps.game.history == ["discard"] and "Seat 0 to move" in steps.status.value
    play.analyse_button.click()
    assert board.position == Position.parse("KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S 8D; deck 38; seat 0 to draw")


def test_bad_input_is_refused_saying_what_and_changes_nothing(valued):
    three = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ? / 3D ? ? ? 6H ?; discard 4S; deck 33; seat 1 to draw"
    board, play = board_and_play(three)
    play.seed.value = "x7"
    play.cpu_button.click()
    assert play.problem.value.startswith("Not played on: the seed must be a whole number from 0 to")
    assert not board.playing and play.game_view is None and board.position == Position.parse(three)
    play.seed.value = ""  # blank is 0
    play.cpus[0].value = play.cpus[2].value = "Maya"
    play.cpu_button.click()
    assert "each personality may appear once among the CPU opponents, got Maya twice" in play.problem.value
    assert not board.playing
    play.cpus[2].value = "Level 3"
    play.cpu_button.click()
    assert board.playing and play.problem.value == "" and play.game_view.game.seed == 0
    assert list(play.game_view.game.players) == ["Maya", "You", "Level 3"]
    play.back_button.click()

    assert not board.show(three.replace("9S", "KH"))  # the box holds an impossible position
    play.steps_button.click()
    assert "Not played on: the box does not hold a possible position" in play.problem.value and not board.playing
    over = "KH 5D 9D 2C 5H JD / 9S 4H 4D QC 7H 3C; discard 3H 6S; deck 38; seat 0 ended the hole"
    assert board.show(over)
    play.steps_button.click()
    assert "the hole is over in this position: there is nothing to play on" in play.problem.value


def test_the_table_plays_from_a_game_only_with_cpu_players_at_the_other_seats():
    start = Position.parse(START)
    table = GolfTable(["Sofia"], seed=1, cpu_delay=0)
    first = table.game
    for game, seat, says in ((start.game(0), 1, "unknown personality 'Seat 0'"),
                             (start.game(0, players=["Maya", "You"]), 2, "human_seat must be a seat from 0 to 1"),
                             ("KH", 0, "play_from takes a golflab.Game")):
        with pytest.raises(ValueError, match=says):
            table.play_from(game, seat)
        assert table.game is first and not table.from_position
