"""A differential test of the compiled kernel against the Python reference, per position.

Random rule combinations (every option drawn from its declaration in ``rules.OPTIONS``) times
random lineups of two to six seats, personalities and random custom ``ai.Profile``s: each
game is played by ``kernel.play`` and by ``Game`` with the ``CPUPlayer``s and must match action
by action and hole by hole (``kernel_replay``). A check that never fires checks nothing, so
every rule that scores (round adjustments and hand bonuses, ``affects`` ``round`` or
``hand_bonus``) is played, on with random others, until the reference's scoring has applied it
``FIRES`` times, or the test fails. Hand bonuses rarely arise in play: their games are picked
from the deals (a seat dealt the bonus, played by a profile that keeps its cards).

``GOLFLAB_PARITY_SCALE`` (default 1) multiplies the samples, e.g. 20 for a long run.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from golflab import Game, Rules
from golflab.ai import PROFILES, Profile
from golflab.model import HAND_BONUSES, scoring_model
from golflab.rules import OPTIONS
from golflab.seeding import game_seed
from golflab.sim.games import seat_names
from tests.support.kernel_marks import needs_compiled
from tests.support.kernel_replay import assert_plays_the_reference

pytestmark = needs_compiled

SCALE = int(os.environ.get("GOLFLAB_PARITY_SCALE", "1"))
#: random combinations of the main test, each of GAMES games
COMBINATIONS, GAMES = 10 * SCALE, 3
#: times each scoring rule must fire; games tried for it at most
FIRES, MAX_GAMES = 2 * SCALE, 400 * SCALE
#: the longest game drawn (holes), to keep the test quick
MAX_ROUNDS = 3
SCORING = tuple(o.name for o in OPTIONS if {"round", "hand_bonus"} & set(o.affects))
BONUSES = {b.rule for b in HAND_BONUSES}


def random_rules(rng: random.Random, **fixed) -> Rules:
    """Every option at a random allowed value (holes at most ``MAX_ROUNDS``), then ``fixed``."""
    values = {}
    for o in OPTIONS:
        if o.kind is bool:
            values[o.name] = rng.random() < 0.5
        elif o.choices:
            values[o.name] = rng.choice(o.choices)
        else:
            lo, hi = o.bounds
            hi = min(hi, MAX_ROUNDS) if o.name == "rounds" else hi
            choices = [lo, hi, rng.randint(lo, hi), o.default if o.default is not None else lo]
            values[o.name] = None if o.optional and rng.random() < 0.4 else rng.choice(choices)
    return Rules(**{**values, **fixed})


def random_profile(rng: random.Random, name: str) -> Profile:
    return Profile(name, "random", rng.randint(-2, 12), round(rng.random(), 3), round(rng.random(), 3),
                   round(rng.random() * 0.4, 3))


def random_lineup(rng: random.Random, seats: int | None = None) -> list:
    """Two to six seats, each a personality or (one time in three) a random custom Profile."""
    seats = seats or rng.randint(2, 6)
    return [random_profile(rng, f"Custom{s}") if rng.random() < 1 / 3 else rng.choice(list(PROFILES))
            for s in range(seats)]


def test_random_rules_and_lineups_play_the_reference_games():
    rng = random.Random(20)
    fired: Counter = Counter()
    customs = 0
    for k in range(COMBINATIONS):
        rules, lineup = random_rules(rng), random_lineup(rng)
        customs += sum(isinstance(p, Profile) for p in lineup)
        fired += assert_plays_the_reference(lineup, rules, seed=k, start=0, stop=GAMES)
    assert customs and fired  # custom profiles played, and scoring rules applied


def _keeper(rng: random.Random) -> Profile:
    """A profile that keeps what it was dealt (replaces no face-up card below 13 points)."""
    return Profile("Keeper", "keeps its cards", 13, 1.0, round(rng.random(), 3), 0.0)


def _dealt_bonus(lineup, rules: Rules, seed: int, index: int, rule: str) -> int | None:
    """The seat dealt hand bonus ``rule`` in game ``index`` of a run, or None."""
    game = Game(seat_names([getattr(p, "name", p) for p in lineup]), rules, seed=game_seed(seed, index))
    model = scoring_model(rules)
    for seat in range(len(lineup)):
        kinds = [model.kind(c) for c in game.grid(seat)]
        if any(b.rule == rule for b in model.hand_bonuses(kinds)):
            return seat
    return None


def _sample(rng: random.Random, on: dict, rules_to_fire) -> tuple[Counter, int]:
    """Games under random rules with ``on`` and random lineups, each matching the kernel's,
    until each of ``rules_to_fire`` has applied ``FIRES`` times (or ``MAX_GAMES`` are played):
    what applied, and the games played. A hand bonus's games are picked from the deals."""
    fired: Counter = Counter()
    played = 0
    while played < MAX_GAMES:
        missing = [r for r in rules_to_fire if fired[r] < FIRES]
        if not missing:
            break
        lineup, seed = random_lineup(rng, 6 if missing[0] in BONUSES else None), rng.getrandbits(32)
        if missing[0] not in BONUSES:
            fired += assert_plays_the_reference(lineup, random_rules(rng, **on), seed, 0, GAMES)
            played += GAMES
            continue
        rules = random_rules(rng, **{**on, "rounds": 1, "decks": 3})
        index, seat = next(((i, s) for i in range(2000)
                            if (s := _dealt_bonus(lineup, rules, seed, i, missing[0])) is not None), (None, None))
        if index is not None:
            lineup[seat] = _keeper(rng)
            fired += assert_plays_the_reference(lineup, rules, seed, index, index + 1)
            played += 1
    return fired, played


@pytest.mark.parametrize("rule", SCORING)
def test_every_scoring_rule_fires_and_plays_the_reference(rule):
    """Random rules with ``rule`` on until the reference applied it ``FIRES`` times."""
    fired, played = _sample(random.Random(rule), {rule: True}, [rule])
    assert fired[rule] >= FIRES, f"{rule} applied {fired[rule]} times in {played} games: not checked"


def test_all_scoring_rules_together_fire_and_play_the_reference():
    """Every scoring rule on at once (their interplay), each seen to apply."""
    fired, played = _sample(random.Random(21), dict.fromkeys(SCORING, True), SCORING)
    missing = [r for r in SCORING if fired[r] < FIRES]
    assert not missing, f"{missing} applied fewer than {FIRES} times in {played} games with every scoring rule on"
