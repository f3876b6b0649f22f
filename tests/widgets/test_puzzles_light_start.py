"""A guest's app kernel imports only what its first screen needs: the rooms (and SQLAlchemy under
them) load when a signed-in learner uses them, and the puzzles page's first cell makes its first
puzzle while the page is asked for (issue 22 point 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def imported_after(code: str) -> set[str]:
    """The top-level packages a fresh guest process has imported after running ``code``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GOLFLAB_", "HTTP_", "DATABASE_URL"))}
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=NOTEBOOKS,
                         check=True, timeout=300)
    return set(out.stdout.strip().splitlines()[-1].split())


def test_a_guests_rooms_panel_imports_no_sqlalchemy():
    loaded = imported_after("from golflab_widgets.account.account_bar import AccountBar\nAccountBar()\n"
                            "from golflab_widgets.rooms.panel import RoomsPanel\nRoomsPanel()\nRoomsPanel('codepiece')")
    assert "sqlalchemy" not in loaded and "argon2" not in loaded


def test_a_guests_lesson_exercises_import_no_sqlalchemy():
    loaded = imported_after("from golflab_widgets.account.account_bar import AccountBar\nAccountBar()\n"
                            "from golflab_widgets.lessons.exercise import Exercises\n"
                            "from golflab_widgets.lessons.sets import lesson_questions\n"
                            "Exercises(lesson_questions(1), title='Lesson 1 exercises')")
    assert "sqlalchemy" not in loaded and "argon2" not in loaded


def test_the_puzzles_page_prepares_its_first_puzzle_before_it_waits_for_the_request():
    cells = [c for c in json.loads((NOTEBOOKS / "puzzles.ipynb").read_text())["cells"] if c["cell_type"] == "code"]
    first = "".join(cells[0]["source"])
    assert first.index("prepare()") < first.index("AccountBar()")  # AccountBar waits for the page's request
    assert "".join(cells[-1]["source"]).startswith("PuzzleBoard()")
