"""The legal actions, computed by the reference (``Game.legal_actions``) and by the compiled code
(``gradedgames.legal_codes``, which the compiled grader values), must be the same at every
position. Random games under random rules (``test_kernel_parity.random_rules``) are played
both ways with the same deals and the same uniformly random legal actions; at each decision
the two legal sets are compared, as ``ActionCode``s in order. A check that never sees an
action kind checks nothing: every kind must have been legal somewhere in the sample.

Also pinned here: ``Game.apply`` accepts exactly the actions of ``legal_actions`` (both read
``golflab.legality``'s one declaration; ``apply`` asks ``is_legal``, without building the list), and
``Game.why_illegal`` explains every other one."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from golflab import Game, IllegalActionError, Phase
from golflab.actions import ACTIONS, ActionCode
from golflab.kernel import PLAY, game_seeds, refusal
from golflab.legality import REASONS
from golflab.seeding import game_seed
from golflab.sim.games import seat_names
from tests.kernel.test_kernel_parity import random_rules
from tests.support.kernel_marks import needs_compiled

#: random rule combinations and games per combination
COMBINATIONS, GAMES = 24, 2


def walk(rng: random.Random, rules, seats: int, seed: int, index: int, compiled: bool = True):
    """Play game ``index`` of a run with master ``seed`` with random legal actions (drawn from
    ``rng``), yielding ``(game, legal)`` before each: the reference ``Game`` and a callable
    giving the compiled game's legal action codes at the same position (with ``compiled``; else
    None). Both games must stay in step (the same seat to move, the same end)."""
    game = Game(seat_names(["P"] * seats), rules, seed=game_seed(seed, index))
    if not compiled:
        while not game.is_over:
            if game.phase is Phase.ROUND_OVER:
                game.next_round()
                continue
            yield game, None
            game.apply(rng.choice(game.legal_actions()))
        return
    from golflab.gradedgames import legal_codes  # local: these compile with numba on import
    from golflab.kernel import engine
    from golflab.kernel.layout import PHASE_GAME_OVER, S_CURRENT, S_PHASE
    from golflab.kernel.mt19937 import seed_rows
    from golflab.kernel.tables import rule_arrays

    R, deck = rule_arrays(rules, seats)
    game_rng = seed_rows(game_seeds(seed, index, index + 1, seats))[0][0]
    G = engine.new_game(R, deck, seats, game_rng)
    outs = engine.new_outputs(1, rules.rounds, seats)
    out = np.empty(16, dtype=np.int64)
    while True:
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        more = engine.to_move(G, R, deck, game_rng)
        assert more == (game.phase is not Phase.GAME_OVER), f"the games ended apart (game {index}, seed {seed})"
        if not more:
            assert G[5][S_PHASE] == PHASE_GAME_OVER
            return
        assert G[5][S_CURRENT] == game.current_player
        yield game, lambda: out[:legal_codes(G, R, out)].tolist()
        action = rng.choice(game.legal_actions())
        game.apply(action)
        engine.apply(G, R, action.code, game_rng, outs, 0)


def positions(rng: random.Random, compiled: bool = True):
    """``(game, legal)`` at every decision of the sample (see ``walk``)."""
    played = 0
    while played < COMBINATIONS:
        rules, seats = random_rules(rng), rng.randint(2, 6)
        if compiled and refusal(rules, (), PLAY) is not None:
            continue
        try:
            Game(seat_names(["P"] * seats), rules, seed=0)
        except ValueError:  # too few cards for this table under these rules
            continue
        played += 1
        seed = rng.getrandbits(32)
        for index in range(GAMES):
            yield from walk(rng, rules, seats, seed, index, compiled)


@needs_compiled
def test_the_compiled_legal_actions_are_the_references():
    seen: Counter = Counter()
    count = 0
    for game, legal in positions(random.Random(24)):
        reference = [int(a.code) for a in game.legal_actions()]
        assert legal() == reference, f"{game.awaiting} under {game.rules.changes()}"
        seen.update(ActionCode(c).name if c >= ActionCode.DRAW else ActionCode(c - c % 6).name for c in reference)
        count += 1
    assert count > 1000, count
    never = {c.name for c in ActionCode} - set(seen)
    assert not never, f"never legal in {count} positions: {never}"


def test_apply_accepts_exactly_the_legal_actions():
    """``Game.apply`` agrees with ``legal_actions`` (it checks legality without building the
    list): each legal action is accepted (on a copy), every other one is an IllegalActionError
    that leaves the game as it was, and ``why_illegal`` gives its reason (the error's note)."""
    refused = accepted = 0
    reasons: Counter = Counter()
    for k, (game, _) in enumerate(positions(random.Random(25), compiled=False)):
        if k % 4:
            continue
        legal = game.legal_actions()
        before = (game.to_json(), game.current_player, legal)
        for action in ACTIONS:
            if action in legal:
                assert game.why_illegal(action) is None
                game.copy().apply(action)
                accepted += 1
            else:
                why = game.why_illegal(action)
                with pytest.raises(IllegalActionError) as refusal_error:
                    game.apply(action)
                assert why.reason in REASONS and why.note in str(refusal_error.value)
                reasons[why.reason] += 1
                refused += 1
        assert (game.to_json(), game.current_player, game.legal_actions()) == before
    assert accepted > 1000 and refused > 5000, (accepted, refused)
    # every reason a seat to move meets in play (not another seat's turn, which a game never asks
    # about; an empty discard pile at a draw does not happen in play: tests/test_legality.py)
    assert set(reasons) == set(REASONS) - {"not_your_turn", "between_holes", "pile_empty"}, reasons
