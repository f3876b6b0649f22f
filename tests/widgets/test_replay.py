"""The replay viewer driven from Python: opening a game (a Game, its JSON, a file, a
simulated game by index), stepping, views, the table's narration, grades, bad input."""

from __future__ import annotations

import dataclasses
import datetime
import html
import urllib.parse

import pytest
from golflab_widgets import GolfTable
from golflab_widgets.coach.replay import TEACHER, ReplayViewer, board_html, simulated_game
from golflab_widgets.table.words import Chronicle

import golflab
from golflab import Game, Phase, Rules
from golflab.ai import PROFILES, CPUPlayer
from golflab.coach import review


def played(seed: int = 3, rounds: int = 2) -> Game:
    """A finished game between three CPU players (seat 0 is "You", played by Sofia)."""
    g = Game(["You", "Maya", "Marcus"], Rules(rounds=rounds), seed=seed)
    while g.phase is not Phase.GAME_OVER:
        if g.phase is Phase.ROUND_OVER:
            g.next_round()
            continue
        name = "Sofia" if g.current_player == 0 else g.players[g.current_player]
        g.apply(CPUPlayer(name, seed=len(g.history)).choose(g.observation(g.current_player)))
    return g


@pytest.fixture(scope="module")
def game() -> Game:
    return played()


def words(viewer: ReplayViewer) -> str:
    return " ".join(html.unescape(viewer.text).split())


def test_a_game_its_json_and_its_file_replay_alike(game):
    views = [ReplayViewer(game), ReplayViewer(game.to_json()), ReplayViewer(game.to_json().encode())]
    for v in views:
        assert v.steps == len(game.history)
        v.last_button.click()
        assert v.state.to_json() == game.to_json()
    assert len({v.board.value for v in views}) == 1


def test_stepping_with_the_buttons(game):
    v = ReplayViewer(game, seat=0)
    n = len(game.history)
    assert v.step_label.value == f"0 / {n}" and "golf-replay-step" in v.step_label._dom_classes
    assert v.first_button.disabled and v.prev_button.disabled and not v.next_button.disabled
    v.next_button.click()
    v.next_button.click()
    assert v.step_label.value == f"2 / {n}"
    assert v.state.history == game.history[:2]
    v.prev_button.click()
    assert v.step == 1
    v.last_button.click()
    assert v.step_label.value == f"{n} / {n}" and v.next_button.disabled and v.last_button.disabled
    v.next_button.click()  # at the end: nothing happens
    assert v.step == n
    v.first_button.click()
    assert v.step == 0 and "The deal" in v.text
    for hook, b in (("golf-replay-first", v.first_button), ("golf-replay-prev", v.prev_button),
                    ("golf-replay-next", v.next_button), ("golf-replay-last", v.last_button)):
        assert hook in b._dom_classes


def test_each_step_is_the_game_after_that_many_moves(game):
    v = ReplayViewer(game)
    for k in (0, 1, 7, 30, len(game.history)):
        v.go(k)
        expected = Game.replay(list(game.players), game.rules, game.seed, game.history[:k])
        assert v.state.to_json() == expected.to_json()


def test_moves_are_told_in_the_tables_words(game):
    """The narration is the table's own (``status.move_words`` through the Chronicle)."""
    _, story = Chronicle.retold(game, 0)
    v = ReplayViewer(game, seat=0)
    for k in (1, 5, 12, len(game.history)):
        v.go(k)
        assert story.moves[k - 1].text in words(v)
        if k < len(game.history):
            assert story.moves[k].text in words(v)  # the next move, too


def test_a_seat_view_hides_what_that_seat_cannot_see_and_the_teacher_sees_all(game):
    v = ReplayViewer(game, seat=1)
    v.go(10)
    state = v.state
    backs = sum(not up for s in range(3) for up in state.face_up(s))
    assert state.phase is Phase.PLAYING and backs > 0
    grids = v.board.value.split("golf-replay-piles")[0]
    assert grids.count("gl-back") == backs and "golf-hidden" not in grids  # every face-down card a back
    v.view.value = TEACHER
    assert v.seat is None
    grids = v.board.value.split("golf-replay-piles")[0]
    assert grids.count("golf-hidden") == backs and "gl-back" not in grids
    for s in range(3):
        for card in state.grid(s):
            assert f'title="{card.code}"' in v.board.value


def test_a_seat_sees_only_its_own_drawn_card(game):
    step = next(k for k, a in enumerate(game.history) if a == "draw")  # the move before is the draw
    v = ReplayViewer(game)
    v.go(step + 1)
    mover = v.state.current_player
    held = v.state.observation(mover).drawn
    other = (mover + 1) % 3
    assert f'title="{held.code}"' in board_html(v.state, TEACHER).split("golf-replay-piles")[1]
    assert f'title="{held.code}"' in board_html(v.state, mover).split("golf-replay-piles")[1]
    assert f'title="{held.code}"' not in board_html(v.state, other).split("golf-replay-piles")[1]


def test_grades_show_with_the_moves_they_judge(game):
    graded = review(game, 0)
    v = ReplayViewer(game, seat=0, review=graded)
    g = graded.costliest(1)[0]
    v.go(g.step + 1)
    assert g.grade in v.text and f"{g.ev_loss:.1f} points lost" in v.text
    v2 = ReplayViewer(game, seat=0)
    assert v2.grade_seat() is not None  # no event loop: it runs at once
    v2.go(g.step + 1)
    assert words(v2) == words(v) and "accuracy" in v2.message.value


def test_grading_needs_a_seat_in_view(game):
    v = ReplayViewer(game)
    assert v.grade_seat() is None and "Choose a player" in v.message.value


def test_the_tables_saved_game_opens_in_the_viewer():
    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=1), seed=4, cpu_delay=0)
    for _ in range(300):
        if t.game.phase is Phase.GAME_OVER:
            break
        obs = t.game.observation(0)
        if t.awaiting in ("initial_flip", "flip"):
            t.slots[obs.face_down()[0]].click()
        elif t.awaiting == "draw":
            t.deck_button.click()
        elif t.awaiting == "place":
            t.discard_action.click() if not obs.face_down() else t.slots[obs.face_down()[0]].click()
    assert t.game.phase is Phase.GAME_OVER
    v = ReplayViewer()
    v.upload.value = ({"name": t.save_filename, "content": t.save().encode(), "type": "application/json",
                       "size": 1, "last_modified": datetime.datetime(2026, 1, 1)},)
    assert v.game is not None and v.steps == len(t.game.history) and v.upload.value == ()
    v.last_button.click()
    assert v.state.to_json() == t.game.to_json() and "Hole 1 is over" in v.board.value
    assert "Final ranking" in v.board.value


def test_bad_input_is_refused_and_changes_nothing(game):
    v = ReplayViewer(game, seat=0)
    v.go(5)
    before = (v.board.value, v.moves.value, v.step)
    for bad, match in (("", "no game text"), ("{not json", "JSON"), (b"\xff\xfe", "not text"), (42, "got int"),
                       (b"x" * 1_000_001, "too large")):
        with pytest.raises(ValueError, match=match):
            v.load(bad)
        assert (v.board.value, v.moves.value, v.step) == before
    for step in (-1, v.steps + 1, 2.0, True):
        with pytest.raises(ValueError, match="step must be"):
            v.go(step)
    with pytest.raises(ValueError, match="seat must be"):
        v.load(game, seat=3)
    v.paste.value = "not a game"
    v.load_button.click()
    assert "Could not open the pasted game" in v.message.value and "Nothing was changed" in v.message.value
    assert (v.board.value, v.moves.value, v.step) == before
    v.upload.value = ({"name": "photo.png", "content": b"\x89PNG\xff", "type": "image/png", "size": 5,
                       "last_modified": datetime.datetime(2026, 1, 1)},)
    assert "Could not open photo.png" in v.message.value and v.step == 5
    with pytest.raises(ValueError, match="Review"):
        v.set_review("graded")


def test_an_empty_viewer_waits_for_a_game():
    v = ReplayViewer()
    assert v.game is None and v.steps == 0 and v.step_label.value == "0 / 0"
    assert all(b.disabled for b in (v.first_button, v.prev_button, v.next_button, v.last_button))
    assert "Open a saved game" in v.moves.value and v.open_box.layout.display is None


# ------------------------------------------------------------------ simulate()
@pytest.fixture(scope="module")
def run():
    return golflab.simulate(["Sofia", "Maya", "Sofia"], games=3, rules=Rules(rounds=2), seed=7, progress=False,
                            analyze=False)


def test_a_simulated_game_opens_by_its_index_and_is_the_same_game(run):
    for index in range(3):
        g = simulated_game(run, index)
        rows = run.rounds[run.rounds["game"] == index].sort_values(["round", "seat"])
        assert [s for r in g.round_results for s in r.scores] == list(rows["score"])
        assert list(g.players) == ["Sofia", "Maya", "Sofia 2"] and g.phase is Phase.GAME_OVER
    v = ReplayViewer.from_simulation(run, 2, seat=1)
    assert v.seat == 1 and v.steps == len(simulated_game(run, 2).history)


def test_simulated_game_refuses_what_it_cannot_replay(run):
    for index in (-1, 3, "0", True):
        with pytest.raises(ValueError, match="index must be a game number from 0 to 2"):
            simulated_game(run, index)
    with pytest.raises(ValueError, match="result of golflab.simulate"):
        simulated_game("run", 0)
    custom = dataclasses.replace(PROFILES["Sofia"], name="Zed")
    odd = golflab.simulate([custom, "Maya"], games=1, rules=Rules(rounds=1), seed=1, progress=False, analyze=False)
    with pytest.raises(ValueError, match="custom personalities \\(Zed\\).*only their names"):
        simulated_game(odd, 0)


def test_every_moment_links_to_its_position_on_the_analysis_board(game):
    from golflab_widgets.position_links import position_link

    viewer = ReplayViewer(game)
    for step in (0, 5, viewer.steps):
        viewer.go(step)
        state = viewer.state
        link = position_link(golflab.Position.of(state))
        assert link in html.unescape(viewer.link.value), step
        assert golflab.Position.parse(urllib.parse.unquote(link.split("=", 1)[1])) == golflab.Position.of(state)
    assert ReplayViewer().link.value == ""  # no game: no link
