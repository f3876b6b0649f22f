"""The Expert CPU: plays the coach's best option, accepted wherever a personality name is."""

from __future__ import annotations

import subprocess
import sys

import pytest

from golflab import Game, Rules, simulate
from golflab.ai import (
    CPU_NAMES,
    EXPERT,
    PROFILES,
    CPUPlayer,
    get_profile,
    personality_names,
)
from golflab.ai.expert import expert_move
from golflab.coach import hint


def test_expert_is_a_cpu_name_but_not_a_personality():
    assert "Expert" not in PROFILES and len(PROFILES) == 8
    assert CPU_NAMES == (*PROFILES, "Expert", *(f"Level {n}" for n in range(1, 9)))  # then the levels
    assert get_profile("expert") is EXPERT
    assert personality_names("Sofia, expert") == ["Sofia", "Expert"]
    with pytest.raises(ValueError, match="Expert"):
        personality_names(["Nobody"])


def test_expert_plays_the_hints_best_option_legally_and_deterministically():
    game = Game(["Expert", "Sofia", "Maya"], Rules(rounds=1), seed=3)
    sofia, maya = CPUPlayer("Sofia", seed=1), CPUPlayer("Maya", seed=2)
    checked = 0
    while not game.is_over:
        seat = game.current_player
        obs = game.observation(seat)
        if seat == 0:
            move = expert_move(obs, samples=3)
            assert move in obs.legal_actions
            if len(obs.legal_actions) > 1:
                assert move.notation == hint(obs, samples=3)[0].action
                checked += 1
        else:
            move = (sofia if seat == 1 else maya).choose(obs)
        game.apply(move)
    assert checked > 3
    game = Game(["Expert", "Sofia"], Rules(rounds=1), seed=4)
    while game.current_player != 0 or len(game.legal_actions()) < 2:
        game.apply(CPUPlayer("Sofia", seed=0).choose(game.observation(game.current_player)))
    obs = game.observation(0)
    a, b = CPUPlayer("Expert", seed=1).choose(obs), CPUPlayer("Expert", seed=2).choose(obs)
    assert a == b and a in obs.legal_actions and a.notation == hint(obs)[0].action


def test_expert_needs_the_seat_to_move():
    game = Game(["Expert", "Sofia"], Rules(rounds=1), seed=4)
    with pytest.raises(ValueError, match="seat to move"):
        CPUPlayer("Expert").choose(game.observation(1))


def test_simulate_and_the_cli_accept_the_expert():
    result = simulate(["Expert", "Sofia"], 1, rules=Rules(rounds=1), seed=1, processes=1)
    assert set(result.rounds.personality) == {"Expert", "Sofia"}
    out = subprocess.run([sys.executable, "-m", "golflab", "simulate", "--players", "expert,Sofia", "--games", "1",
                          "--rule", "rounds=1", "--processes", "1"], check=False, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert any(line.split()[:1] == ["Expert"] for line in out.stdout.splitlines())
