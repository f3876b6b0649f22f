"""``Game.from_position``: a game standing where an observation shows, the hidden cards given."""

from __future__ import annotations

import random

import pytest

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.cards import build_deck

PLAYERS = ["Sofia", "Maya", "Kenji"]


def positions(rules: Rules, seed: int):
    """(game copy, observation of the seat to move) at every decision of a CPU game."""
    game = Game(PLAYERS, rules, seed=seed)
    bots = [CPUPlayer(p, seed=s) for s, p in enumerate(PLAYERS)]
    while not game.is_over:
        if game.phase == "round_over":
            game.next_round()
            continue
        obs = game.observation(game.current_player)
        yield game.copy(), obs
        game.apply(bots[game.current_player].choose(obs))


def unseen_pile(game: Game, obs) -> list:
    """A draw pile for the rebuilt game: the cards no grid and no discard shows, any order."""
    left = build_deck(game.rules.decks_for(len(PLAYERS)), game.rules.jokers)
    shown = [c for s in range(len(PLAYERS)) for c in game.grid(s)] + list(obs.discard_pile)
    if game.held is not None:
        shown.append(game.held)
    for card in shown:
        left.remove(card)
    random.Random(len(left)).shuffle(left)
    return left[:obs.draw_pile_size]


@pytest.mark.parametrize("options", [
    {},
    {"flip_as_action": True, "knock_early": True, "initial_flips": 0},
    {"flip_mode": "always", "jokers": "standard", "blackjack": True},
])
def test_a_game_from_a_position_shows_every_seat_what_the_game_shows(options):
    """Rebuilt at any decision (initial flips, draws, places, flips, final turns, later holes)
    from the observation and the true hidden cards, every seat's observation is the game's,
    legal actions and counters included, and the hole plays on to a scored end."""
    rules = Rules(rounds=2, **options)
    stages = set()
    for k, (game, obs) in enumerate(positions(rules, seed=5)):
        if k % 3:
            continue
        rebuilt = Game.from_position(obs, [game.grid(s) for s in range(3)], unseen_pile(game, obs), seed=k)
        for seat in range(3):
            assert rebuilt.observation(seat) == game.observation(seat)
        assert [rebuilt.grid(s) for s in range(3)] == [game.grid(s) for s in range(3)]
        stages.add((str(obs.phase), obs.awaiting))
        bots = [CPUPlayer(p, seed=k + s) for s, p in enumerate(PLAYERS)]
        while rebuilt.phase not in ("round_over", "game_over"):
            rebuilt.apply(bots[rebuilt.current_player].choose(rebuilt.observation(rebuilt.current_player)))
        assert rebuilt.round_results[-1].scores
    assert {a for _, a in stages} >= {"draw", "place"}
    assert any(p == "final_turn" for p, _ in stages)


def test_a_position_the_cards_do_not_fit_is_refused_and_names_what_is_wrong():
    game, obs = next((g, o) for g, o in positions(Rules(), seed=1) if o.grids[0].count(None) < 6)
    grids = [game.grid(s) for s in range(3)]
    pile = unseen_pile(game, obs)
    with pytest.raises(ValueError, match="six cards for each of the 3 seats"):
        Game.from_position(obs, grids[:2], pile)
    wrong = [list(g) for g in grids]
    up = next(i for i, c in enumerate(obs.grids[0]) if c is not None)
    wrong[0][up] = next(c for c in pile if c != grids[0][up])
    with pytest.raises(ValueError, match="seat 0's grid must hold six cards that agree with its face-up ones"):
        Game.from_position(obs, wrong, pile)
    with pytest.raises(ValueError, match=f"draw_pile must hold the observation's {obs.draw_pile_size} cards"):
        Game.from_position(obs, grids, pile[:-1])
