"""The Expert CPUs: the Expert plays the hint's best within more rollouts (golflab.coach.expert), the Classic
Expert the hint's best option; both accepted by name, legal and deterministic."""

from __future__ import annotations

import pytest

from golflab import Game, Rules
from golflab.ai import (
    CPU_NAMES,
    EXPERT,
    PROFILES,
    CPUPlayer,
    get_profile,
    personality_names,
)
from golflab.coach import card_use, hint, search
from golflab.coach.expert import classic_expert_move, classic_samples, expert_move
from golflab.coach.worlds import unseen_cards
from golflab.model import scoring_model
from tests.support.kernel_marks import needs_compiled


def test_expert_is_a_cpu_name_but_not_a_personality():
    assert "Expert" not in PROFILES and len(PROFILES) == 8
    assert CPU_NAMES == (*PROFILES, "Expert", *(f"Level {n}" for n in range(1, 9)))  # then the levels
    assert get_profile("expert") is EXPERT
    assert personality_names("Sofia, expert") == ["Sofia", "Expert"]
    with pytest.raises(ValueError, match="Expert"):
        personality_names(["Nobody"])


def test_classic_expert_plays_the_hints_best_option_legally_and_deterministically():
    game = Game(["Expert", "Sofia", "Maya"], Rules(rounds=1), seed=3)
    sofia, maya = CPUPlayer("Sofia", seed=1), CPUPlayer("Maya", seed=2)
    checked = 0
    while not game.is_over:
        seat = game.current_player
        obs = game.observation(seat)
        if seat == 0:
            move = classic_expert_move(obs, samples=3)
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
    a, b = CPUPlayer("Classic Expert", seed=1).choose(obs), CPUPlayer("classic expert", seed=2).choose(obs)
    assert a == b and a in obs.legal_actions and a.notation == hint(obs, samples=classic_samples(obs))[0].action


def test_the_classic_expert_spends_160_rollouts_a_move_split_evenly():
    game = Game(["Expert", "Sofia"], Rules(rounds=1), seed=4)
    seen = set()
    while not game.is_over and len(seen) < 3:
        obs = game.observation(game.current_player)
        n = len(obs.legal_actions)
        if game.current_player == 0 and n > 1 and n not in seen:
            seen.add(n)
            assert classic_samples(obs) == max(16, 160 // n)
            options = hint(obs, samples=classic_samples(obs))
            assert [o.samples for o in options] == [classic_samples(obs)] * n
            assert classic_expert_move(obs).notation == options[0].action
        game.apply(CPUPlayer("Sofia", seed=0).choose(obs))
    assert len(seen) == 3  # the first flips (6 and 5 options: 26 and 32 samples) and a draw (2: 80)


@pytest.mark.parametrize("name", ["Expert", "Classic Expert"])
def test_expert_needs_the_seat_to_move(name):
    game = Game(["Expert", "Sofia"], Rules(rounds=1), seed=4)
    with pytest.raises(ValueError, match="seat to move"):
        CPUPlayer(name).choose(game.observation(1))


def test_the_classic_expert_is_accepted_by_name_but_not_in_the_menus():
    assert "Classic Expert" not in CPU_NAMES  # the learners' menus read CPU_NAMES
    assert get_profile("classic expert").name == "Classic Expert"
    assert personality_names("Classic Expert, expert") == ["Classic Expert", "Expert"]
    from golflab import kernel

    assert kernel.refusal(Rules(), ["Classic Expert", "Sofia"]) is not None  # the reference plays it


def _experts_hole(seed: int) -> list[str]:
    """A hole of two Experts: every move checked legal; the actions played."""
    game = Game(["Expert 0", "Expert 1"], Rules(rounds=1), seed=seed)
    bots = [CPUPlayer("Expert"), CPUPlayer("Expert")]
    played = []
    while not game.is_over:
        obs = game.observation(game.current_player)
        move = bots[game.current_player].choose(obs)
        assert move in obs.legal_actions, (move, obs.legal_actions)
        played.append(move.notation)
        game.apply(move)
    return played


def test_the_expert_plays_legal_moves_and_a_game_replays_exactly_from_its_seed(small_search):
    from golflab import coach

    first = _experts_hole(7)
    coach.clear_cache()  # valued afresh, not remembered
    assert first == _experts_hole(7)


def _draw_position(seed: int):
    """The first draw decision of seat 0 with *take* and *draw* both legal, after Sofia's moves."""
    game = Game(["Expert", "Sofia"], Rules(rounds=1), seed=seed)
    sofia = CPUPlayer("Sofia", seed=0)
    while game.current_player != 0 or game.observation(0).awaiting != "draw":
        game.apply(sofia.choose(game.observation(game.current_player)))
    return game.observation(0)


def test_the_same_observation_gives_the_same_move_and_draw_is_valued_over_the_drawn_card():
    from golflab import coach

    obs = _draw_position(4)
    coach.clear_cache()
    a = expert_move(obs)
    coach.clear_cache()
    assert expert_move(obs) == a and a in obs.legal_actions
    # the chance node: one drawn card per kind of unseen card, each a legal place decision
    card = unseen_cards(obs)[0]
    after = card_use.drawn_observation(obs, card)
    assert after.awaiting == "place" and after.drawn == card
    assert after.draw_pile_size == obs.draw_pile_size - 1
    uses = card_use.candidate_uses(after)
    assert 1 <= len(uses) <= card_use.USES and set(uses) <= {x.notation for x in after.legal_actions}
    valued = search.draw_decision(obs)
    assert sorted(v.action for v in valued) == sorted(x.notation for x in obs.legal_actions)
    assert valued == search.draw_decision(obs)  # deterministic values too
    plan = card_use.use_plan(obs)
    assert set(plan) == {scoring_model(obs.rules).kind(c) for c in unseen_cards(obs)}
    for after, use in plan.values():
        assert after.awaiting == "place" and use in {x.notation for x in after.legal_actions}


def _worlds_cards(grids, pile, hidden) -> list:
    return sorted(map(str, [c for g, h in zip(grids, hidden) for c, x in zip(g, h) if x] + list(pile)))


def test_a_world_exchanged_for_a_drawn_card_holds_the_unseen_cards_of_the_observation_after_the_draw():
    import random

    from golflab.coach.rollouts import exchanged
    from golflab.coach.worlds import deal_world

    obs = _draw_position(4)
    hidden = [[c is None for c in g] for g in obs.grids]
    grids, pile, _ = deal_world(obs, random.Random(1))
    top = pile[-1]
    kind = scoring_model(obs.rules).kind
    other = next(c for c in unseen_cards(obs) if kind(c) == kind(top) and c != top) if sum(
        kind(c) == kind(top) for c in unseen_cards(obs)) > 1 else top
    after = card_use.drawn_observation(obs, other)
    new_grids, rest = exchanged(grids, pile[:-1], hidden, other, top)
    assert _worlds_cards(new_grids, rest, hidden) == sorted(map(str, unseen_cards(after)))
    assert grids != new_grids or pile[:-1] != rest or other == top  # the world given was not changed in place
    assert exchanged(grids, pile[:-1], hidden, top, top) == (grids, pile[:-1])


@needs_compiled
def test_draw_by_the_plan_gives_the_same_values_in_the_reference_and_compiled(monkeypatch):
    from golflab import kernel
    from golflab.coach.rollouts import Samples
    from golflab.coach.worlds import observation_seed

    obs = _draw_position(5)
    plan = card_use.use_plan(obs)
    monkeypatch.setenv(kernel.ENV, "0")
    reference = Samples(obs, observation_seed(obs)).drawn(plan, 0, 24)
    assert Samples(obs, observation_seed(obs)).drawn(plan, 8, 24) == reference[8:]  # any batch: the same worlds
    monkeypatch.setenv(kernel.ENV, "1")
    if not kernel.enabled():
        pytest.skip(f"the compiled kernel is off here: {kernel.off_reason()}")
    import golflab.kernel.rollout  # noqa: F401  (loaded: the rollouts run compiled at once)

    compiled = Samples(obs, observation_seed(obs))
    assert compiled.drawn(plan, 0, 24) == pytest.approx(reference, abs=1e-9)
    assert compiled.compiled is not None
    monkeypatch.setenv(kernel.ENV, "0")
    taken, use = card_use.best_use(obs)
    reference = Samples(obs, observation_seed(obs)).after(taken, use, 0, 16)
    monkeypatch.setenv(kernel.ENV, "1")
    assert Samples(obs, observation_seed(obs)).after(taken, use, 0, 16) == pytest.approx(reference, abs=1e-9)


def test_take_is_followed_by_the_best_use_of_the_taken_card_on_the_same_worlds():
    from golflab.coach.rollouts import Samples
    from golflab.coach.worlds import observation_seed

    obs = _draw_position(4)
    taken, use = card_use.best_use(obs)
    assert taken.awaiting == "place" and taken.drawn == obs.discard_pile[-1]
    assert taken.draw_pile_size == obs.draw_pile_size and unseen_cards(taken) == unseen_cards(obs)
    assert use in card_use.candidate_uses(taken)
    sample = Samples(obs, observation_seed(obs))
    after_take = sample.after(taken, use, 0, 12)
    assert len(after_take) == 12 and after_take == sample.after(taken, use, 0, 12)
    assert after_take != sample("take", 0, 12) or use == card_use.candidate_uses(taken)[0]


def test_the_screen_settles_only_options_no_better_use_could_save():
    from golflab.racing import Estimate

    best = Estimate("draw", -3.0, 0.3, 0.0, 256)
    assert search.behind(Estimate("take", -3.0 + search.USE_GAIN + 0.5, 0.3, 0.1, 256), best)
    assert not search.behind(Estimate("take", -3.0 + search.USE_GAIN - 0.5, 0.3, 0.1, 256), best)  # could be saved
    assert not search.behind(Estimate("take", -3.0 + search.USE_GAIN + 0.5, 0.3, 2.0, 256), best)  # too noisy


@needs_compiled
def test_the_reference_and_the_compiled_rollouts_give_the_same_legal_move(monkeypatch):
    from golflab import coach, kernel

    obs = _draw_position(5)
    monkeypatch.setenv(kernel.ENV, "0")
    coach.clear_cache()
    reference = expert_move(obs)
    assert reference in obs.legal_actions
    monkeypatch.setenv(kernel.ENV, "1")
    if kernel.enabled():
        import golflab.kernel.rollout  # noqa: F401  (loaded: the coach's rollouts run compiled at once)

        coach.clear_cache()
        assert expert_move(obs) == reference


def test_the_rollouts_play_this_seat_by_the_policy_and_opponents_as_themselves():
    from golflab.coach.rollouts import ROLLOUT_PROFILE, bot_profiles

    game = Game(["Expert", "Maya 2", "Classic Expert"], Rules(rounds=1), seed=3)
    obs = game.observation(0)
    assert [p.name for p in bot_profiles(obs)] == [ROLLOUT_PROFILE, "Maya", ROLLOUT_PROFILE]
    assert [p.name for p in bot_profiles(obs, "Kenji")] == ["Kenji", "Maya", "Kenji"]
    game = Game(["Expert", "Level 1", "Level 6 2", "Level 8", "Sofia 3"], Rules(rounds=1), seed=3)
    assert [p.name for p in bot_profiles(game.observation(0))] == [
        ROLLOUT_PROFILE, "Diego", "Kenji", ROLLOUT_PROFILE, "Sofia"]  # a level by its base; Level 8 is the Expert


def test_a_valuation_with_another_rollout_policy_is_its_own_and_deterministic():
    from golflab import coach
    from golflab.coach import hints

    obs = _draw_position(4)
    legal = tuple(a.notation for a in obs.legal_actions)
    coach.clear_cache()
    marcus = hints.evaluate(obs, legal, 8, policy="Marcus")
    kenji = hints.evaluate(obs, legal, 8, policy="Kenji")
    assert [o.value for o in marcus] != [o.value for o in kenji]  # not the other's cached values
    coach.clear_cache()
    assert hints.evaluate(obs, legal, 8, policy="Kenji") == kenji
    assert hint(obs, samples=8) == hints.evaluate(obs, legal, 8)  # the coach's own policy by default


@needs_compiled
def test_the_expert_looks_its_own_horizon_ahead_the_same_in_the_reference_and_compiled(monkeypatch):
    from golflab import coach, kernel
    from golflab.coach import hints
    from golflab.coach.rollouts import HORIZON, Samples, horizon_end
    from golflab.coach.worlds import observation_seed

    obs = _draw_position(6)
    assert horizon_end(obs.turns, 3) - horizon_end(obs.turns, 2) == len(obs.turns)  # one more table round
    assert horizon_end(obs.turns) == horizon_end(obs.turns, HORIZON)
    seed, legal = observation_seed(obs), tuple(a.notation for a in obs.legal_actions)
    monkeypatch.setenv(kernel.ENV, "0")
    shallow = Samples(obs, seed).after(obs, "draw", 0, 16)
    deep = Samples(obs, seed, horizon=HORIZON + 2).after(obs, "draw", 0, 16)
    assert deep != shallow  # the same worlds, played further before the leaf
    coach.clear_cache()
    valued = hints.evaluate(obs, legal, 8, horizon=HORIZON + 2)
    assert [o.value for o in valued] != [o.value for o in hints.evaluate(obs, legal, 8)]  # each cached as its own
    assert hints.evaluate(obs, legal, 8, horizon=HORIZON + 2) == valued
    monkeypatch.setenv(kernel.ENV, "1")
    if not kernel.enabled():
        pytest.skip(f"the compiled kernel is off here: {kernel.off_reason()}")
    import golflab.kernel.rollout  # noqa: F401  (loaded: the rollouts run compiled at once)

    compiled = Samples(obs, seed, horizon=HORIZON + 2)
    assert compiled.after(obs, "draw", 0, 16) == pytest.approx(deep, abs=1e-9)
    assert compiled.compiled is not None
    monkeypatch.setattr(search, "SEARCH_HORIZON", HORIZON + 2)  # read when the search runs
    assert search.search_horizon(None) == HORIZON + 2 and search.search_horizon(1) == 1
