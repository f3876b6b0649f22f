"""Regression baseline: fingerprints of seeded simulations pin every CPU decision.

Each case simulates a few seeded games with decision analysis and hashes the ``rounds``
and ``decisions`` frames (floats to 9 significant digits). Speed work on the engine, the
CPU players or the simulation loop must leave every fingerprint unchanged.

Regenerate only when decisions change on purpose (a new rule of play, a retuned
personality), never to make a speed change pass: ``python tests/simulation/test_simulation_fingerprint.py``
prints the current fingerprints in the form of ``EXPECTED``.
"""

from __future__ import annotations

import hashlib

import pytest

from golflab import Rules
from golflab.sim import games as sim_games
from golflab.simulation import simulate
from tests.support.kernel_marks import needs_compiled

FOUR = ("Sofia", "Maya", "Priya", "Marcus")
#: name -> (players, games, rules keyword arguments, seed)
CASES = {
    "default_4p": (FOUR, 30, {}, 3),
    "flip_always": (("Kenji", "Diego", "River"), 8, {"flip_mode": "always"}, 4),
    "flip_endgame": (("Sage", "Sofia", "Priya", "Maya"), 6, {"flip_mode": "endgame"}, 5),
    "eagle_eye": (("Maya", "Kenji", "Sofia", "River"), 6, {"jokers": "eagle_eye"}, 6),
    "two_players": (("Sofia", "Sage"), 12, {}, 7),
    "six_players": (("Sofia", "Maya", "Priya", "Marcus", "Kenji", "Diego"), 4, {}, 8),
    "house_rules": (("River", "Sage", "Diego"), 6,
                    {"jokers": "standard", "super_kings": True, "ten_penny": True, "knock_bonus": True,
                     "blackjack": True, "wolfpack": True, "initial_flips": 1}, 9),
    "knock_penalty": (("Maya", "Sofia", "Kenji", "Priya"), 6,
                      {"jokers": "lucky_swing", "knock_penalty": True, "max_turns": 12}, 10),
    # spec section 12 (pinned when those rules were added; the cases above have them off)
    "section12_scoring": (("Priya", "Maya", "Sofia", "Kenji"), 6,
                          {"one_eyed_jacks": True, "negative_pairs_keep_value": True, "four_of_a_kind": True,
                           "wolfpack": True, "super_kings": True, "jokers": "standard"}, 11),
    "section12_all": (("Sage", "Sofia", "Maya", "Diego"), 6,
                      {"one_eyed_jacks": True, "negative_pairs_keep_value": True, "four_of_a_kind": True,
                       "flip_as_action": True, "knock_early": True}, 12),
    # the remaining options (pinned with the sweep and executor work)
    "scoring_bonuses": (("Diego", "River", "Sofia"), 8,
                        {"underdog_bonus": True, "tied_shame": True, "decks": 2, "rounds": 5}, 13),
    # the option values still unpinned (pinned with the compiled kernel): no initial flips, the
    # shortest stall guard (every pressure mark at its earliest), three decks, one-hole and 18-hole games
    "no_flips_short_guard": (("Sofia", "Priya", "Marcus"), 8,
                         {"initial_flips": 0, "max_turns": 10, "flip_mode": "endgame"}, 14),
    "three_decks": (("Kenji", "Sage", "River", "Diego", "Maya"), 4, {"decks": 3, "rounds": 18}, 15),
    "one_hole": (("Maya", "Sage"), 40, {"rounds": 1, "jokers": "lucky_swing"}, 16),
}
EXPECTED = {
    'default_4p': 'b907cd4cae4883fc',
    'flip_always': '4fb7909241482f0f',
    'flip_endgame': '58b0cca051538c02',
    'eagle_eye': 'df35b94e59615345',
    'two_players': 'c057e009c649674a',
    'six_players': 'c1aa3816ebab4294',
    'house_rules': 'cfa63d9aa82c7931',
    'knock_penalty': 'a5366b71d445fbe1',
    'section12_scoring': 'b0366a88b3cdb7dd',
    'section12_all': '40430f4a72996f44',
    'scoring_bonuses': 'ac4924b01c346dae',
    'no_flips_short_guard': 'bbdce61ad9eef148',
    'three_decks': '03874f3d4c8a3cae',
    'one_hole': '9dd07213efc72ddd',
}


def run(name: str, analyze: bool = True):
    """The simulation of case ``name`` (explicit rules: the environment's defaults do not apply)."""
    players, games, options, seed = CASES[name]
    base = {"rounds": 9, "initial_flips": 2, "flip_mode": "never", "jokers": "none"}
    return simulate(list(players), games, Rules(**{**base, **options}), seed=seed, progress=False, analyze=analyze)


def fingerprint(name: str) -> str:
    """The sha256 (first 16 hex digits) of case ``name``'s rounds and decisions as CSV."""
    res = run(name)
    digest = hashlib.sha256()
    for frame in (res.rounds, res.decisions):
        digest.update(frame.to_csv(index=False, float_format="%.9g").encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("engine", ["reference", pytest.param("kernel", marks=needs_compiled)])
@pytest.mark.parametrize("name", list(CASES))
def test_simulation_fingerprint_is_unchanged(name, engine, monkeypatch):
    """Both ways of playing: the Python reference alone, and the compiled kernel's actions
    (replayed by the reference to grade them) however few the games. The kernel's cases skip
    where the compiled code is off (``GOLFLAB_KERNEL=0``: make test's reference lane)."""
    if engine == "reference":
        monkeypatch.setenv("GOLFLAB_KERNEL", "0")
    else:
        monkeypatch.setenv("GOLFLAB_KERNEL", "1")
        monkeypatch.setattr(sim_games, "KERNEL_MIN_GAMES", 0)
    assert fingerprint(name) == EXPECTED[name], (
        f"simulation case {name!r} changed ({engine}): CPU decisions or grades differ from the baseline")


@pytest.mark.parametrize("name", ["default_4p", "flip_always", "house_rules", "six_players"])
def test_games_are_the_same_without_analysis(name):
    """The faster path without grading plays exactly the same games."""
    assert run(name, analyze=False).rounds.equals(run(name).rounds)


if __name__ == "__main__":
    for case in CASES:
        print(f"    {case!r}: {fingerprint(case)!r},")
