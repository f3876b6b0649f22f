"""The coach's determinizations: from an observation alone, the cards its seat cannot see
shuffled into every face-down position and the draw pile, the same for equal observations."""

from __future__ import annotations

import hashlib
import random
from typing import Any, Sequence

from ..actions import Action
from ..cards import build_deck
from ..game import Game, Observation

#: The sizes of the seeds a world draws after its deal: its own generator's, then its CPUs'.
WORLD_SEED_BITS, BOT_SEED_BITS = 63, 48


def observation_seed(obs: Observation) -> int:
    """A seed computed from everything the observation shows (equal observations, equal seeds)."""
    parts = (
        obs.seat, str(obs.phase), obs.round, obs.current_player,
        [[str(c) for c in g] for g in obs.grids], [str(c) for c in obs.discard_pile],
        str(obs.drawn), str(obs.taken), obs.draw_pile_size, [str(a) for a in obs.legal_actions],
        sorted(obs.rules.to_dict().items()), list(obs.totals), list(obs.players), obs.awaiting,
        obs.first_player, obs.finisher, list(obs.turns),
    )
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big")


def position_key(obs: Observation) -> tuple:
    """What a valuation of ``obs`` reads, as a hashable value (equal positions, equal keys): its
    seed's digest and the counts that digest leaves out."""
    return observation_seed(obs), tuple(obs.holes_won), obs.holding


def check_to_move(obs: Any) -> None:
    if not isinstance(obs, Observation):
        raise ValueError(f"the coach needs an Observation (game.observation(seat)), got {type(obs).__name__}")
    if obs.seat != obs.current_player or not obs.legal_actions:
        mover = "no one is to move" if obs.seat == obs.current_player else f"seat {obs.current_player} is to move"
        raise ValueError(
            f"the coach advises the seat to move: this observation is seat {obs.seat}'s, but {mover} "
            "(pass game.observation(game.current_player))")


def unseen_cards(obs: Observation) -> list:
    """The cards this seat cannot see (the deck minus every visible card), in a fixed order."""
    n = len(obs.players)
    deck = build_deck(obs.rules.decks_for(n), obs.rules.jokers)
    left: dict = {}
    for c in deck:
        left[c] = left.get(c, 0) + 1
    seen = [c for g in obs.grids for c in g if c is not None] + list(obs.discard_pile)
    if obs.drawn is not None:
        seen.append(obs.drawn)
    for c in seen:
        left[c] -= 1
    return sorted((c for c, k in left.items() for _ in range(k)), key=str)


def determinize(obs: Observation, rng: random.Random, unseen: list | None = None) -> Game:
    """A full game consistent with the observation: the unseen cards shuffled by ``rng`` into
    every face-down position and the draw pile. Reads nothing but ``obs``."""
    grids, draw, world_seed = deal_world(obs, rng, unseen)
    return Game.from_position(obs, grids, draw, world_seed)


def check_unseen(obs: Observation, unseen: list) -> None:
    down = sum(c is None for grid in obs.grids for c in grid)
    if len(unseen) != down + obs.draw_pile_size:
        raise ValueError(
            f"the observation is inconsistent: {len(unseen)} unseen cards for {down} face-down cards and a "
            f"draw pile of {obs.draw_pile_size}")


def deal_world(obs: Observation, rng: random.Random, unseen: list | None = None,
               on_top: Sequence = ()) -> tuple[list, list, int]:
    """``determinize``'s deal: every seat's six cards, the draw pile (drawn from the end) and
    the seed of the world's own generator (its reshuffles), all drawn from ``rng``. ``on_top``:
    unseen cards put on top of the pile instead of dealt (its last card is drawn first)."""
    cards = list(unseen if unseen is not None else unseen_cards(obs))
    for card in on_top:
        cards.remove(card)
    rng.shuffle(cards)
    check_unseen(obs, [*cards, *on_top])
    it = iter(cards)
    grids = [[c if c is not None else next(it) for c in grid] for grid in obs.grids]
    return grids, [*it, *on_top], rng.getrandbits(WORLD_SEED_BITS)


#: The grid's symmetries: the columns in any order, the rows kept or exchanged (as position maps).
_SYMMETRIES = tuple(
    tuple(cols[i % 3] + (3 * (1 - i // 3) if flip else 3 * (i // 3)) for i in range(6))
    for cols in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)) for flip in (False, True))


def meets_hidden(act: Action, up: list) -> bool:
    """Does ``act`` flip or swap at one of the seat's face-down positions (``up``: its flags)?
    Then the rollouts first ``align`` the seat's hidden cards."""
    return act.kind in ("flip", "swap") and not up[act.pos]


def align(grid: list, up: list, pos: int) -> list:
    """The seat's hidden cards moved so that the card at its first face-down position lands at
    ``pos``: by a grid symmetry that fixes every face-up position when there is one (then
    equivalent positions get equal values), else by exchanging the two cards."""
    first = up.index(False)
    for sym in _SYMMETRIES:
        if sym[first] == pos and all(sym[i] == i for i in range(6) if up[i]):
            out = list(grid)
            for i in range(6):
                if not up[i]:
                    out[sym[i]] = grid[i]
            return out
    out = list(grid)
    out[first], out[pos] = grid[pos], grid[first]
    return out
