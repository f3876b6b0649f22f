"""One way in: the landing page's groups and single start, puzzles in a new order each visit
(never on the lessons' seeds), the replay's hole selector, app text without code."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from golflab_widgets.coach.replay import ReplayViewer
from golflab_widgets.lessons import puzzle_board
from golflab_widgets.lessons.puzzle_board import FIRST_VISIT_SEED, PuzzleBoard, visit_seed

from golflab import Game, Phase, Rules
from golflab.ai import CPUPlayer
from golflab.taught import LESSON_PUZZLES

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def markdown(name: str) -> str:
    nb = json.loads((NOTEBOOKS / name).read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_landing_page_groups_the_apps_with_one_start():
    text = markdown("index.ipynb")
    groups = re.findall(r"^### (\w+)$", text, flags=re.MULTILINE)
    assert groups == ["Learn", "Play", "Explore", "Teach"]
    assert len(re.findall(r"start here", text, flags=re.IGNORECASE)) == 1
    linked = set(re.findall(r"\]\(([\w]+\.ipynb)\)", text))
    apps = {p.name for p in NOTEBOOKS.glob("*.ipynb")} - {"index.ipynb"}
    assert linked == apps
    nb = json.loads((NOTEBOOKS / "index.ipynb").read_text())
    assert "AccountBar()" in "".join(nb["cells"][0]["source"]) and "Greeting()" in "".join(nb["cells"][1]["source"])


@pytest.mark.parametrize("name", ["replay.ipynb", "codepiece.ipynb", "puzzles.ipynb", "learn.ipynb"])
def test_app_text_is_words_not_code(name):
    text = markdown(name)
    assert "`" not in text and "golflab." not in text and "()" not in text, name


def test_each_visit_has_its_own_puzzle_order_never_on_a_lessons_seed(monkeypatch):
    monkeypatch.delenv("GOLFLAB_SEED", raising=False)
    monkeypatch.setattr(puzzle_board.secrets, "randbelow", lambda n: 42)
    assert visit_seed() == FIRST_VISIT_SEED + 42  # a guest: at random
    learner = SimpleNamespace(rating=1500.0, streak=2, best_streak=4)
    first = visit_seed(learner)
    assert first == visit_seed(learner) >= FIRST_VISIT_SEED  # a signed-in learner: from the store's profile
    assert visit_seed(SimpleNamespace(rating=1512.5, streak=3, best_streak=4)) != first  # new as they progress
    lesson_seeds = {t.seed for t in LESSON_PUZZLES.values()}
    assert max(lesson_seeds) < 100 <= FIRST_VISIT_SEED * 100  # board seeds are 100 * visit seed + batch
    monkeypatch.setenv("GOLFLAB_SEED", "7")
    assert visit_seed() == 7


def test_the_puzzle_board_takes_the_visit_seed_and_keeps_keys_stable(monkeypatch):
    monkeypatch.setenv("GOLFLAB_SEED", "7")
    board = PuzzleBoard()
    assert board.seed == 7 and all(k.split(":")[2] == "700" for k in board.puzzle_keys)
    with pytest.raises(ValueError, match="seed must be None or a whole number"):
        PuzzleBoard(seed=-1)


def two_hole_game() -> Game:
    g = Game(["You", "Sofia"], Rules(rounds=2), seed=3)
    while g.phase is not Phase.GAME_OVER:
        if g.phase is Phase.ROUND_OVER:
            g.next_round()
            continue
        g.apply(CPUPlayer("Sofia", seed=len(g.history)).choose(g.observation(g.current_player)))
    return g


def test_the_replay_jumps_to_a_hole():
    v = ReplayViewer(two_hole_game(), seat=0)
    assert "golf-replay-hole" in v.hole._dom_classes and [n for _s, n in v.hole.options] == [1, 2]
    v.hole.value = 2
    assert v.state.round == 2 and v.step == v.hole_start(2) > 0
    v.go(v.hole_start(2) - 1)
    assert v.state.round == 1 and v.hole.value == 1  # the step before is hole 1's, and the selector follows
    v.go(0)
    assert v.hole.value == 1  # the selector follows the steps
    step = v.step
    with pytest.raises(ValueError, match="hole must be a hole of this game, from 1 to 2"):
        v.go_to_hole(3)
    assert v.step == step
