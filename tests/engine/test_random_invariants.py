"""Random-simulation invariants, in the style of OpenSpiel's ``random_sim_test``.

2,000 seeded random games across random combinations of every option and 2-6 players
(1-2 holes each). Every step checks the invariants below; a failure names the game's
seed and rules so it can be replayed.

* the number of cards in play never changes;
* phases only move forward as the spec says (section 7);
* each hole ends with exactly one finisher (the first seat to end a turn with six face-up
  cards) or is a stalled hole (every seat played ``max_turns`` turns);
* after the finisher every other seat gets exactly one final turn, in seat order;
* a live phase always has legal actions; observations never show a face-down card;
* a refused action leaves ``to_json()`` identical;
* ``from_json(to_json())`` taken at a random point continues identically;
* a whole-turn flip (``flip_as_action``) turns up exactly that card and ends the turn; a
  knock (``knock_early``) comes with one or two face-down cards and turns them all up.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from golflab import FLIP_MODES, JOKER_MODES, Game, IllegalActionError, Phase, Rules, build_deck, score_round
from golflab.actions import Action
from golflab.rules import BOOL_RULES

pytestmark = pytest.mark.usefixtures("clean_env")

GAMES = 2000
CHUNKS = 4
ALL_ACTIONS = [Action.parse(t) for t in
               [*(f"flip {i}" for i in range(6)), "draw", "take", *(f"swap {i}" for i in range(6)),
                "discard", "skip", "knock"]]
ALLOWED = {
    Phase.INITIAL_FLIP: {Phase.INITIAL_FLIP, Phase.PLAYING},
    Phase.PLAYING: {Phase.PLAYING, Phase.FINAL_TURN, Phase.ROUND_OVER, Phase.GAME_OVER},
    Phase.FINAL_TURN: {Phase.FINAL_TURN, Phase.ROUND_OVER, Phase.GAME_OVER},
}


def random_rules(rng: random.Random) -> Rules:
    options = {
        "rounds": rng.randint(1, 2),
        "initial_flips": rng.choice((0, 1, 2)),
        "flip_mode": rng.choice(FLIP_MODES),
        "jokers": rng.choice(JOKER_MODES),
        "max_turns": rng.choice((10, 12, 50)),
        **{name: rng.random() < 0.3 for name in BOOL_RULES},
    }
    if rng.random() < 0.3:
        options["decks"] = rng.randint(1, 3)
    return Rules(**options)


def choose(game: Game, rng: random.Random, staller: bool) -> Action:
    """A random legal action; a 'staller' seat discards and skips whenever it may."""
    acts = game.legal_actions()
    if staller:
        for a in acts:
            if a.kind in ("discard", "skip"):
                return a
    return acts[rng.randrange(len(acts))]


def card_count(game: Game) -> int:
    held = 1 if game.held is not None else 0
    return sum(len(game.grid(s)) for s in range(game.num_players)) + len(game.discard_pile) + game.draw_pile_size + held


class HoleWatch:
    """Tracks one hole from outside the engine: who went out, and the final turns that followed."""

    def __init__(self):
        self.finisher = None
        self.turns_at_finish = None
        self.final_order = []

    def after_action(self, game: Game, seat: int, action: Action, up_before: list[bool],
                     turns_before: list[int], phase_before: Phase, where: str) -> None:
        if game.turns[seat] != turns_before[seat] + 1:  # the turn goes on (or an initial flip)
            assert game.turns == turns_before, where
            return
        up = list(up_before)
        if action.kind in ("swap", "flip"):
            up[action.pos] = True
        elif action.kind == "knock":
            assert 1 <= up.count(False) <= 2, where
            up = [True] * 6
        if phase_before is Phase.PLAYING:
            went_out = all(up)
            assert went_out == (game.phase is Phase.FINAL_TURN), where
            if went_out:
                assert self.finisher is None, where
                self.finisher = seat
                self.turns_at_finish = list(game.turns)
        else:
            assert phase_before is Phase.FINAL_TURN and seat != self.finisher, where
            self.final_order.append(seat)
            assert all(game.face_up(seat)), where  # cards turned up after the final turn


def check_hole_end(game: Game, watch: HoleWatch, where: str) -> None:
    n, rules = game.num_players, game.rules
    result = game.round_results[-1]
    assert all(all(game.face_up(s)) for s in range(n)), where
    assert result.finisher == watch.finisher == game.finisher, where
    assert list(result.scores) == score_round([game.grid(s) for s in range(n)], rules, result.finisher), where
    if watch.finisher is None:  # a stalled hole
        assert min(game.turns) >= rules.max_turns, where
    else:
        f = watch.finisher
        assert watch.final_order == [(f + k) % n for k in range(1, n)], where
        last_turns = [game.turns[s] - watch.turns_at_finish[s] for s in range(n)]
        assert last_turns == [0 if s == f else 1 for s in range(n)], where


def play_checked(seed: int, seen: Counter) -> None:
    """Play one random game, checking every invariant; count what happened into ``seen``."""
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    rules = random_rules(rng)
    where = f"seed={seed} players={players} {rules!r}"
    game = Game(players, rules, seed=seed)
    cards = len(build_deck(rules.decks_for(players), rules.jokers))
    stallers = {s for s in range(players) if rng.random() < 0.15}
    save_at = rng.randrange(1, 60)
    twin, steps = None, 0
    watch = HoleWatch()
    hole = 1
    assert game.phase is (Phase.INITIAL_FLIP if rules.initial_flips else Phase.PLAYING), where
    while True:
        phase = game.phase
        if phase is Phase.GAME_OVER:
            break
        if phase is Phase.ROUND_OVER:
            assert game.legal_actions() == [] and game.round < rules.rounds, where
            game.next_round()
            if twin is not None:
                twin.next_round()
            hole += 1
            assert game.round == hole and game.first_player == (hole - 1) % players, where
            assert game.phase is (Phase.INITIAL_FLIP if rules.initial_flips else Phase.PLAYING), where
            assert card_count(game) == cards, where
            watch = HoleWatch()
            continue
        acts = game.legal_actions()
        assert acts, f"live phase {phase} without legal actions: {where}"
        if rng.random() < 0.05:  # a refused action changes nothing
            illegal = [a for a in ALL_ACTIONS if a not in acts]
            before = game.to_json()
            with pytest.raises(IllegalActionError):
                game.apply(rng.choice(illegal))
            seen["refusals"] += 1
            assert game.to_json() == before, where
            obs = game.observation(rng.randrange(players))
            for s in range(players):
                ups = game.face_up(s)
                assert all((c is None) == (not ups[i]) for i, c in enumerate(obs.grids[s])), where
        seat = game.current_player
        turns_before, up_before = game.turns, game.face_up(seat)
        action = choose(game, rng, seat in stallers)
        seen["reshuffles"] += action.kind == "draw" and game.draw_pile_size == 0
        whole_turn = game.held is None and phase is not Phase.INITIAL_FLIP and action.kind in ("flip", "knock") \
            and "draw" in [str(a) for a in acts]
        seen["flip_turn" if whole_turn and action.kind == "flip" else action.kind] += 1
        game.apply(action)
        if whole_turn:  # flip_as_action or knock_early: the turn is over, no card held
            assert game.held is None and game.turns[seat] == turns_before[seat] + 1, where
            assert (rules.flip_as_action if action.kind == "flip" else rules.knock_early), where
        if twin is not None:
            twin.apply(action)
        steps += 1
        if steps == save_at:
            twin = Game.from_json(game.to_json())
            seen["restored"] += 1
        assert card_count(game) == cards, where
        assert game.phase in ALLOWED[phase], f"{phase} -> {game.phase}: {where}"
        assert game.turns[seat] <= rules.max_turns + 1, where
        watch.after_action(game, seat, action, up_before, turns_before, phase, where)
        if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            check_hole_end(game, watch, where)
            seen["stalled holes" if watch.finisher is None else "finished holes"] += 1
            assert (game.phase is Phase.GAME_OVER) == (game.round == rules.rounds), where
        elif game.phase is Phase.FINAL_TURN:
            assert game.finisher == watch.finisher is not None, where
        else:
            assert watch.finisher is None and game.finisher is None, where
    assert game.round == rules.rounds and game.legal_actions() == [], where
    if twin is not None:
        assert twin.to_json() == game.to_json(), where
        assert twin.totals == game.totals, where


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk):
    per = GAMES // CHUNKS
    seen = Counter()
    for seed in range(chunk * per, (chunk + 1) * per):
        play_checked(seed, seen)
    # the random games really reach every case the invariants are about
    for case in ("refusals", "reshuffles", "restored", "stalled holes", "finished holes",
                 "flip", "draw", "take", "swap", "discard", "skip", "flip_turn", "knock"):
        assert seen[case] > 0, (case, seen)
