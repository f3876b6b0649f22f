"""The tables' environment settings, read by one helper each for both boards: GOLFLAB_SEED
(a whole number from 0, as the new-game panel takes it) and GOLFLAB_CPU_DELAY (seconds
from 0 to 10); a bad value is a ValueError naming the variable and what is allowed."""

from __future__ import annotations

import pytest
from golflab_widgets import GolfTable
from golflab_widgets.codepiece.board import CodepieceTable
from golflab_widgets.table.setup import MAX_SEED

from golflab import Rules


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    for var in ("GOLFLAB_CPU_DELAY", "GOLFLAB_SEED", "DEFAULT_ROUNDS", "DEFAULT_INITIAL_FLIPS",
                "DEFAULT_USE_JOKERS", "DEFAULT_FLIP_MODE"):
        monkeypatch.delenv(var, raising=False)


def golf(**kwargs):
    return GolfTable(players=["Sofia"], rules=Rules(rounds=1), cpu_delay=kwargs.pop("cpu_delay", 0), **kwargs)


def codepiece(**kwargs):
    return CodepieceTable(deals=1, cpu_delay=kwargs.pop("cpu_delay", 0), **kwargs)


BOARDS = pytest.mark.parametrize("make", [golf, codepiece], ids=["golf", "codepiece"])


@BOARDS
@pytest.mark.parametrize("value", ["-1", "abc", "1.5", "+3", str(MAX_SEED + 1), "9" * 5000])
def test_a_bad_seed_from_the_environment_is_refused_alike_naming_the_variable(monkeypatch, make, value):
    monkeypatch.setenv("GOLFLAB_SEED", value)
    with pytest.raises(ValueError, match=rf"^environment variable GOLFLAB_SEED must be a whole number from 0 to "
                                         rf"{MAX_SEED}, got ") as err:
        make()
    assert len(str(err.value)) < 200  # a long value is quoted in part


@BOARDS
@pytest.mark.parametrize("value, seed", [("8", 8), (" 0 ", 0), (str(MAX_SEED), MAX_SEED)])
def test_a_seed_from_the_environment_is_used(monkeypatch, make, value, seed):
    monkeypatch.setenv("GOLFLAB_SEED", value)
    board = make()
    assert (board.game.seed if make is golf else board.match.seed) == seed
    assert (make(seed=3).game.seed if make is golf else make(seed=3).match.seed) == 3  # an argument wins


@BOARDS
@pytest.mark.parametrize("value", ["-1", "11", "nan", "inf", "soon"])
def test_a_bad_cpu_delay_from_the_environment_is_refused_alike_naming_the_variable(monkeypatch, make, value):
    monkeypatch.setenv("GOLFLAB_CPU_DELAY", value)
    with pytest.raises(ValueError, match=r"^environment variable GOLFLAB_CPU_DELAY must be a number of seconds "
                                         r"from 0 to 10, got "):
        make(cpu_delay=None)


@BOARDS
def test_a_cpu_delay_from_the_environment_is_used(monkeypatch, make):
    monkeypatch.setenv("GOLFLAB_CPU_DELAY", "0.25")
    assert make(cpu_delay=None, seed=1).cpu_delay == 0.25
