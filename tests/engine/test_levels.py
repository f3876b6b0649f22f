"""Levels 1 to 8 (golflab.ai.levels): names in every menu, legality, determinism, the kernel's
refusal of the levels it cannot play exactly, the table's suggestion and the ladder's order."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from golflab import Game, Rules, kernel
from golflab.ai import (
    CPU_NAMES,
    LEVEL_NAMES,
    LEVELS,
    CPUPlayer,
    get_level,
    get_profile,
    personality_names,
    suggest_level,
)
from golflab.simulation import resolve_players, simulate

ROOT = Path(__file__).resolve().parents[2]
CHEAP = [lv.name for lv in LEVELS if not lv.searches]


def _bench():
    spec = importlib.util.spec_from_file_location("levels_bench", ROOT / "benchmarks" / "levels.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _hole(names, seed):
    """One hole between ``names``; (the actions in order, the scores)."""
    game = Game([f"{n} {i}" for i, n in enumerate(names)], Rules(rounds=1), seed=seed)
    bots = [CPUPlayer(n, seed=seed * 10 + i) for i, n in enumerate(names)]
    actions = []
    while not game.is_over:
        obs = game.observation(game.current_player)
        action = bots[game.current_player].choose(obs)
        assert action in obs.legal_actions
        actions.append(str(action))
        game.apply(action)
    return actions, game.round_results[-1].scores


def test_levels_are_declared_once_and_named_in_order():
    assert LEVEL_NAMES == tuple(f"Level {n}" for n in range(1, 9))
    assert CPU_NAMES[-8:] == LEVEL_NAMES
    assert LEVELS[-1].search == 1 and not LEVELS[-1].blunder  # Level 8 is the Expert on every move


@pytest.mark.parametrize("spelling", ["Level 3", "level 3", " LEVEL 3 "])
def test_a_level_is_found_in_any_case(spelling):
    player = CPUPlayer(spelling, seed=1)
    assert player.name == "Level 3" and player.level is get_level("Level 3")
    assert personality_names([spelling]) == ["Level 3"]


def test_cheap_levels_play_legal_moves_and_repeat_with_the_same_seed():
    for seed in (1, 2):
        names = [CHEAP[0], CHEAP[1], CHEAP[2], CHEAP[4]]
        first = _hole(names, seed)
        assert first == _hole(names, seed)  # deterministic: same seed, same game
    assert _hole(["Level 1", "Level 1"], 5)[0] != _hole(["Level 1", "Level 1"], 6)[0]


def test_level_one_makes_random_moves_its_personality_would_not():
    base = get_level("Level 1").base
    a, _ = _hole([base, base], 11)
    b, _ = _hole(["Level 1", "Level 1"], 11)
    assert a != b


def test_search_levels_choose_legal_moves_deterministically():
    game = Game(["a", "b"], Rules(rounds=1), seed=3)
    bots = [CPUPlayer("Marcus", seed=1), CPUPlayer("Marcus", seed=2)]
    seen = 0
    while not game.is_over and seen < 2:
        obs = game.observation(game.current_player)
        if len(obs.legal_actions) > 1 and obs.awaiting in ("draw", "place"):
            for name in ("Level 6", "Level 7"):
                move = CPUPlayer(name, seed=seen).choose(obs)
                assert move in obs.legal_actions and move == CPUPlayer(name, seed=seen).choose(obs)
            assert CPUPlayer("Level 8", seed=seen).choose(obs) == CPUPlayer("Expert").choose(obs)
            seen += 1
        game.apply(bots[game.current_player].choose(obs))
    assert seen == 2


def test_levels_six_and_seven_search_two_rounds_ahead_and_level_eight_as_far_as_the_expert(monkeypatch):
    from golflab.ai.levels import SHORT_SEARCH
    from golflab.coach import expert, hints, rollouts

    monkeypatch.setattr(rollouts, "HORIZON", SHORT_SEARCH + 1)  # the coach's: the Expert's own
    asked = []

    def spy(obs, actions, samples, budget, precision=None, seed=None, policy=None, horizon=None, chance=None):
        asked.append(rollouts.rollout_horizon(horizon))
        return hints.evaluate(obs, actions, 1, horizon=horizon)

    monkeypatch.setattr(expert, "evaluate", spy)
    game = Game(["a", "b"], Rules(rounds=1), seed=3)
    while game.awaiting != "draw":  # past the initial flips, to a draw decision
        game.apply(CPUPlayer("Marcus", seed=1).choose(game.observation(game.current_player)))
    obs = game.observation(game.current_player)
    assert len(obs.legal_actions) > 1
    for name, horizon in (("Level 6", SHORT_SEARCH), ("Level 7", SHORT_SEARCH), ("Level 8", SHORT_SEARCH + 1)):
        asked.clear()
        for seed in range(12):
            CPUPlayer(name, seed=seed).choose(obs)
        assert asked and set(asked) == {horizon}, name
    assert [lv.horizon for lv in LEVELS if lv.searches] == [SHORT_SEARCH, SHORT_SEARCH, None]


def test_the_kernel_refuses_levels_it_cannot_play_exactly():
    for level in LEVELS:
        kind = kernel.seat_kind(level.name)
        assert (kind in kernel.SEAT_KINDS) == level.plain, (level.name, kind)
        refused = kernel.refusal(Rules(), [level.name, "Maya"])
        assert (refused is None) == level.plain
    assert not kernel.use_compiled(Rules(), ["Level 2", "Maya"])


def test_simulate_plays_levels_in_the_reference_with_the_same_results(monkeypatch):
    args = (["Level 2", "Maya", "Level 5"], 100)
    on = simulate(*args, rules=Rules(rounds=1), seed=4, analyze=False)
    monkeypatch.setenv(kernel.ENV, "0")
    off = simulate(*args, rules=Rules(rounds=1), seed=4, analyze=False)
    assert on.players == off.players and on.rounds.equals(off.rounds)


def test_a_plain_level_plays_exactly_its_personality_in_the_reference_and_the_kernel():
    level = next(lv for lv in LEVELS if lv.plain)
    ours = simulate([level.name, "Maya"], 20, rules=Rules(rounds=1), seed=2, analyze=False)
    theirs = simulate([level.base, "Maya"], 20, rules=Rules(rounds=1), seed=2, analyze=False)
    assert list(ours.rounds["score"]) == list(theirs.rounds["score"])
    if kernel.enabled():
        ours, theirs = (kernel.play([who, "Maya"], Rules(rounds=1), 2, 0, 20) for who in (level.name, level.base))
        assert ours.scores.tolist() == theirs.scores.tolist()


def test_every_level_is_accepted_by_every_menu():
    from golflab_widgets.explorers.players_control import players_control
    from golflab_widgets.table.setup import NewGamePanel, check_opponents, table_settings

    assert resolve_players(["level 1", "Level 8"]) == ["Level 1", "Level 8"]
    assert check_opponents(list(LEVEL_NAMES[:5])) == LEVEL_NAMES[:5]
    panel = NewGamePanel(table_settings(["Level 4", "Sofia"], None, 1, 0))
    for menu in panel.personalities:
        assert set(LEVEL_NAMES) <= {value for _, value in menu.options}
    assert panel.settings().opponents == ("Level 4", "Sofia")
    ctl = players_control(["Sofia", "Maya"])
    assert set(LEVEL_NAMES) <= {value for _, value in ctl.add.options}
    ctl.add.value = "Level 7"
    assert ctl.value == ("Sofia", "Maya", "Level 7")


def test_the_cli_simulates_levels():
    out = subprocess.run([sys.executable, "-m", "golflab", "simulate", "--players", "Level 3,maya", "--games", "2",
                          "--seed", "1", "--no-analysis"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "Level 3, Maya" in out.stdout.splitlines()[0]


@pytest.mark.parametrize("bad", ["Level 9", "Level 0", "Level", "Levle 3"])
def test_bad_level_names_say_what_is_allowed(bad):
    for check in (get_profile, lambda n: personality_names([n]), lambda n: resolve_players([n, "Maya"])):
        with pytest.raises(ValueError, match="Expert, or Level 1 to Level 8"):
            check(bad)
    from golflab_widgets.table.setup import table_settings

    with pytest.raises(ValueError, match="Level 1 to Level 8"):
        table_settings([bad, "Sofia"], None, 1, 0)


def test_the_suggestion_follows_the_rating_then_the_newest_game():
    assert suggest_level().level.number == 3
    assert suggest_level(rating=1500).level.number == 4 and suggest_level(rating=900).level.number == 1
    assert suggest_level(rating=2500).level.number == 8 and suggest_level(rating=1650).level.number == 5
    won = (["You", "Level 5", "Maya"], [10, 20, 30], 0)
    lost = (["Level 5", "You"], [10, 20], 1)
    middle = (["Level 2", "You", "Level 6"], [10, 20, 30], 1)
    assert suggest_level(games=[won, lost]).level.number == 6
    assert suggest_level(games=[lost, won]).level.number == 4
    assert suggest_level(games=[middle]).level.number == 6
    assert suggest_level(games=[(["You", "Sofia"], [5, 9], 0)]).level.number == 5
    assert suggest_level(games=[(["Level 8", "You"], [1, 9], 1)]).level.number == 7
    assert suggest_level(rating=1200, games=[won]).reason == "your rating is 1200"


def test_the_table_suggests_a_level_the_learner_can_take_or_change(monkeypatch):
    from golflab_widgets.account import guest as account
    from golflab_widgets.table.setup import NewGamePanel, table_settings

    monkeypatch.setattr(account, "guest_progress", account.GuestProgress())
    game = Game(["You", "Level 2"], Rules(rounds=1), seed=3)
    bots = [CPUPlayer("Kenji", seed=1), CPUPlayer("Level 2", seed=2)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    account.guest_progress.add_game(game.to_json())
    you, cpu = game.totals
    want = 3 if you <= cpu else 1
    panel = NewGamePanel(table_settings(["Sofia", "Maya"], None, 1, 0))
    assert f"Level {want}" in panel.suggestion.value and panel.use_level.description == f"Play Level {want}"
    panel.personalities[1].value = f"Level {want}"
    panel.use_level.click()  # taken: the first CPU seat, the menus swapped so each name stays once
    assert panel.settings().opponents == (f"Level {want}", "Sofia")
    panel.personalities[0].value = "Level 8"  # changed: any other choice stands
    assert panel.settings().opponents == ("Level 8", "Sofia")


def test_the_cheap_ladder_is_in_order_on_a_small_sample():
    bench = _bench()
    for low in range(1, 5):
        rung = bench.rung(low, 40, seed=0)
        assert rung.margin > 0, rung.line()


def test_the_ladder_benchmark_takes_the_experts_horizon(monkeypatch, capsys):
    from golflab.coach import rollouts

    monkeypatch.setattr(rollouts, "HORIZON", rollouts.HORIZON)  # restored after the test
    bench = _bench()
    with pytest.raises(SystemExit):
        bench.main(["--horizon", "0"])
    assert "--horizon must be 1 to 20 table rounds, got 0" in capsys.readouterr().err
    assert bench.main(["--pairs", "1", "--rounds", "4", "--positions", "0", "--horizon", "4"]) == 0
    assert "the Expert's horizon 4 table rounds" in capsys.readouterr().out
    assert rollouts.HORIZON == 4  # the coach's horizon, which the Expert reads when it moves


def test_a_signed_in_learner_is_suggested_a_level_from_their_rating_else_their_kept_games(monkeypatch):
    from types import SimpleNamespace

    from golflab_widgets.account import learner_progress as progress
    from golflab_widgets.table.setup import learner_suggestion

    monkeypatch.setattr(progress, "session", lambda: SimpleNamespace(signed_in=True))
    monkeypatch.setattr(progress, "puzzle_profile", lambda: SimpleNamespace(rating=1700.0, attempts=4))
    assert learner_suggestion().level.name == "Level 5"
    kept = SimpleNamespace(players=("You", "Level 6"), scores=(30, 12), seat=0)
    monkeypatch.setattr(progress, "puzzle_profile", lambda: SimpleNamespace(rating=1500.0, attempts=0))
    monkeypatch.setattr(progress, "my_games", lambda limit=50: [kept])
    assert learner_suggestion().level.name == "Level 5"  # no puzzles yet: lost to Level 6, one down
