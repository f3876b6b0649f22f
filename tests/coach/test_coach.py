"""The coach (golflab.coach): hints by determinized rollouts, grades, reviews, accuracy."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.analysis import GRADES
from golflab.cards import build_deck
from golflab.coach import accuracy, grade, hint, review
from golflab.game import Phase
from golflab.scoring import round_breakdown

NAMES = ["Sofia", "Maya", "Priya", "Marcus"]


def play_until(seed: int, stop, rules: Rules | None = None, limit: int = 400):
    """Play a game with CPU players until ``stop(game)`` is true (or None when it never is)."""
    game = Game(NAMES, rules or Rules(rounds=1), seed=seed)
    bots = [CPUPlayer(n, seed=seed + i) for i, n in enumerate(NAMES)]
    for _ in range(limit):
        if game.is_over or game.phase is Phase.ROUND_OVER:
            return None
        if stop(game):
            return game
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    return None


def find(stop, seeds=range(200), rules: Rules | None = None):
    for seed in seeds:
        game = play_until(seed, stop, rules)
        if game is not None:
            return game
    raise AssertionError("no such position in the seeds tried")


def mid_place(game) -> bool:
    return game.awaiting == "place" and game.held_source == "draw" and game.turns[game.current_player] >= 2


def test_hint_values_every_legal_option_best_first():
    game = find(mid_place)
    obs = game.observation(game.current_player)
    options = hint(obs, samples=8)
    assert sorted(o.action for o in options) == sorted(str(a) for a in obs.legal_actions)
    assert [o.value for o in options] == sorted(o.value for o in options)
    for o in options:
        assert o.samples == 8 and o.se >= 0 and math.isfinite(o.value)
        assert isinstance(o.reason, str) and o.reason and "\n" not in o.reason


def test_equal_observations_give_equal_hints_whatever_the_hidden_cards():
    game = find(mid_place)
    seat = game.current_player
    other = game.copy()
    # exchange hidden cards: an opponent's face-down card, this seat's face-down card and draw-pile cards
    opp = (seat + 1) % 4
    o_pos = other.face_up(opp).index(False)
    m_pos = other.face_up(seat).index(False)
    other._grids[opp][o_pos], other._draw[0] = other._draw[0], other._grids[opp][o_pos]
    other._grids[seat][m_pos], other._draw[1] = other._draw[1], other._grids[seat][m_pos]
    other._draw.reverse()
    assert other.grid(opp) != game.grid(opp) and other.grid(seat) != game.grid(seat)
    a, b = game.observation(seat), other.observation(seat)
    assert a == b
    assert hint(a, samples=6) == hint(b, samples=6)


def test_hint_is_deterministic_and_needs_the_seat_to_move():
    from golflab import coach

    game = find(mid_place)
    obs = game.observation(game.current_player)
    first = hint(obs, samples=5)
    coach.clear_cache()
    assert hint(obs, samples=5) == first
    with pytest.raises(ValueError, match="seat to move"):
        hint(game.observation((game.current_player + 1) % 4))
    with pytest.raises(ValueError, match="samples"):
        hint(obs, samples=0)


def last_final_place(game) -> bool:
    """The last player's final turn, holding a drawn card, with face-down cards of their own:
    after the next decision the hole is scored and only their face-down cards are unknown."""
    if game.phase is not Phase.FINAL_TURN or game.awaiting != "place" or game.held_source != "draw":
        return False
    seat = game.current_player
    return seat == (game.finisher - 1) % 4 and 1 <= game.face_up(seat).count(False) <= 2


def brute_force(obs, action: str) -> float:
    """Exact expected (own score - others' mean) after ``action``: every ordering of the unseen
    cards into this seat's face-down positions (everything else is face up)."""
    seat = obs.seat
    assert all(c is not None for s, g in enumerate(obs.grids) if s != seat for c in g)
    left = Counter(build_deck(obs.rules.decks_for(4), obs.rules.jokers))
    left.subtract([c for g in obs.grids for c in g if c is not None] + list(obs.discard_pile) + [obs.drawn])
    unseen = list(left.elements())
    down = [i for i, c in enumerate(obs.my_grid) if c is None]
    total = count = 0.0
    for cards in itertools.permutations(unseen, len(down)):
        grids = [list(g) for g in obs.grids]
        for pos, card in zip(down, cards):
            grids[seat][pos] = card
        if action != "discard":
            grids[seat][int(action.split()[1])] = obs.drawn
        scores = round_breakdown(grids, obs.rules, obs.finisher).scores
        total += scores[seat] - (sum(scores) - scores[seat]) / 3
        count += 1
    return total / count


def test_hint_values_match_brute_force_on_a_last_final_turn():
    game = find(last_final_place, seeds=range(400))
    obs = game.observation(game.current_player)
    options = hint(obs, samples=400)
    for o in options:
        exact = brute_force(obs, o.action)
        assert abs(o.value - exact) <= 4 * o.se + 0.05, (o, exact)
    # the coach's best option is the exact best (or within the noise of it)
    exact_best = min(brute_force(obs, o.action) for o in options)
    assert brute_force(obs, options[0].action) <= exact_best + 4 * options[0].se + 0.05


def drew_a_two(game) -> bool:
    return game.awaiting == "place" and game.held_source == "draw" and game.held.rank == "2"


def test_discarding_a_drawn_two_is_graded_a_blunder():
    game = find(drew_a_two)
    obs = game.observation(game.current_player)
    g = grade(obs, "discard", samples=6)
    assert g.grade == "BLUNDER" and g.case == "discarded_twos"
    assert g.best != "discard" and g.action == "discard" and "2" in g.reason
    best = grade(obs, g.best, samples=6)
    assert best.grade == "OPTIMAL" and best.ev_loss == 0 and best.reason.startswith("Best move")


def test_a_costly_swap_is_graded_by_the_points_lost():
    game = find(last_final_place, seeds=range(400))
    obs = game.observation(game.current_player)
    options = hint(obs, samples=40)
    worst = options[-1]
    g = grade(obs, worst.action, samples=40)
    assert g.ev_loss == pytest.approx(worst.value - options[0].value)
    limits = [("OPTIMAL", 0.05), ("GOOD", 2.0), ("QUESTIONABLE", 5.0), ("MISTAKE", 10.0)]
    by_loss = next((name for name, limit in limits if g.ev_loss <= limit), "BLUNDER")
    assert GRADES.index(g.grade) >= GRADES.index(by_loss)
    assert f"{g.ev_loss:.1f} points" in g.reason
    with pytest.raises(ValueError, match="not legal"):
        grade(obs, "take")


def test_accuracy_formula():
    assert accuracy([]) == 100.0
    assert accuracy([0, 0, 0]) == 100.0
    assert accuracy([5]) == round(100 * math.exp(-1), 1) == 36.8
    assert accuracy([0, 10]) == round(50 * (1 + math.exp(-2)), 1)
    assert accuracy([1, 2]) > accuracy([1, 3])
    with pytest.raises(ValueError, match="0 or more"):
        accuracy([-1])


def test_review_grades_every_decision_of_the_seat():
    game = Game(NAMES, Rules(rounds=1), seed=7)
    bots = [CPUPlayer(n, seed=i) for i, n in enumerate(NAMES)]
    chosen = 0
    while not game.is_over:
        seat = game.current_player
        chosen += seat == 1 and len(game.legal_actions()) > 1
        game.apply(bots[seat].choose(game.observation(seat)))
    r = review(game, 1, samples=3)
    df = r.decisions
    assert list(df.columns[:7]) == ["round", "turn", "action", "best", "grade", "ev_loss", "reason"]
    assert len(df) == chosen > 0
    assert set(df.grade) <= set(GRADES) and (df.ev_loss >= 0).all()
    assert r.accuracy == accuracy(df.ev_loss)
    assert sum(r.counts.values()) == chosen
    worst = r.costliest(2)
    assert [g.ev_loss for g in worst] == sorted((g.ev_loss for g in worst), reverse=True)
    assert all(g.ev_loss > 0 for g in worst)
    assert all(game.history[g.step] == g.action for g in r.grades)
    assert all(g.best == g.action for g in r.grades if g.ev_loss == 0)  # ties go to the move played
    with pytest.raises(ValueError, match="seat"):
        review(game, 4)
    with pytest.raises(ValueError, match="n must be"):
        r.costliest(-1)


def test_grading_with_candidates_values_options_as_the_full_hint_does():
    from golflab import coach

    game = find(mid_place)
    obs = game.observation(game.current_player)
    full = {o.action: o.value for o in hint(obs, samples=5)}
    coach.clear_cache()
    worst = max(full, key=full.get)
    g = grade(obs, worst, samples=5, candidates=2)
    assert 2 <= len(g.options) <= 3 and worst in [o.action for o in g.options]
    assert all(o.value == full[o.action] for o in g.options)
    with pytest.raises(ValueError, match="candidates"):
        coach.clear_cache()
        grade(obs, worst, samples=5, candidates=0)


@pytest.mark.parametrize("rules, action, words", [
    (Rules(rounds=1, knock_early=True), "knock", "Knocking turns your"),
    (Rules(rounds=1, flip_as_action=True), "flip", "as your whole turn"),
    (Rules(rounds=1, flip_mode="endgame"), "skip", "Skipping the flip"),
])
def test_hint_values_the_house_rules_moves(rules, action, words):
    def offers(game):
        return any(str(a).split()[0] == action for a in game.legal_actions()) and game.awaiting != "initial_flip"

    game = find(offers, rules=rules)
    options = hint(game.observation(game.current_player), samples=3)
    mine = [o for o in options if o.action.split()[0] == action]
    assert mine and all(words in o.reason and math.isfinite(o.value) for o in mine)


def test_review_reuses_the_full_hints_asked_for_during_play(small_search):
    """The hints' race within fewer rollouts (``small_search``): which values a review reuses does
    not depend on how many rollouts made them."""
    from golflab import coach

    game = Game(NAMES, Rules(rounds=1), seed=9)
    bots = [CPUPlayer(n, seed=i) for i, n in enumerate(NAMES)]
    live = {}
    while not game.is_over:
        seat = game.current_player
        obs = game.observation(seat)
        action = bots[seat].choose(obs)
        if seat == 2 and len(obs.legal_actions) > 1:
            live[len(game.history)] = grade(obs, action)  # as the table grades a move with the coach on
        game.apply(action)
    r = review(game, 2)
    assert len(r.grades) == len(live) > 0
    for g in r.grades:
        assert g.options == live[g.step].options and len(g.options) == len(g.observation.legal_actions)
    coach.clear_cache()
    cold = review(game, 2)
    assert any(len(g.options) < len(g.observation.legal_actions) for g in cold.grades)


# ------------------------------------------------------------------ the race (golflab.racing)
def synthetic(offsets: dict, noise: float, shared: float = 10.0, seed: int = 0):
    """A ``sample`` function: option a's result on sample i is offsets[a] + shared world noise
    (the same for every option: common random numbers) + its own noise of sd ``noise``."""
    import random

    calls = []

    def sample(action, start, stop):
        calls.append((action, start, stop))
        out = []
        for i in range(start, stop):
            world = random.Random(seed * 100_003 + i).gauss(0, shared)
            own = random.Random((ord(action) * 1_000_003 + i) * 7919 + seed).gauss(0, noise) if noise else 0.0
            out.append(offsets[action] + world + own)
        return out

    return sample, calls


def test_the_race_separates_the_best_by_three_paired_standard_errors_and_stops():
    from golflab.racing import INDIFFERENCE, SEPARATION, race

    sample, calls = synthetic({"a": 0.0, "b": 0.5, "c": 4.0}, noise=1.5)
    out = race(["c", "b", "a"], sample, first=16, budget=10_000)
    assert [e.action for e in out] == ["a", "b", "c"]
    best = out[0]
    for e in out[1:]:
        gap = e.value - best.value
        assert gap > SEPARATION * e.gap_se or (gap <= INDIFFERENCE and e.gap_se <= INDIFFERENCE)
        assert e.gap_se < e.se  # the shared world noise cancels in the paired difference
    assert out[2].samples == 16 < out[1].samples  # the clear loser left the race after the first round
    assert sum(e.samples for e in out) < 10_000
    # sample i is asked for once per option, in order
    for action in "abc":
        spans = [(s, t) for a, s, t in calls if a == action]
        assert spans[0][0] == 0 and all(t == s2 for (_, t), (s2, _) in zip(spans, spans[1:]))


def test_the_race_stops_when_the_difference_no_longer_matters_or_at_the_budget():
    from golflab.racing import race

    sample, _ = synthetic({"a": 0.0, "b": 0.0}, noise=0.0)
    out = race(["a", "b"], sample, first=16, budget=10_000)
    assert [e.samples for e in out] == [16, 16] and out[1].gap_se == 0  # equal options: one round
    sample, _ = synthetic({"a": 0.0, "b": 0.3}, noise=8.0)
    out = race(["a", "b"], sample, first=16, budget=500)
    assert sum(e.samples for e in out) <= 500 and min(e.samples for e in out) > 16


def test_an_option_settled_against_an_earlier_best_comes_back_when_the_best_changes():
    """b is clearly behind a on the first samples; a then turns out bad and c, noisy, becomes the
    best: b, ahead of c on the samples they share, comes back into the race and wins it."""
    import random

    from golflab.racing import race

    def sample(action, start, stop):
        out = []
        for i in range(start, stop):
            own = random.Random(ord(action) * 1_000_003 + i + 105)  # c ahead of b on the first samples
            if action == "a":
                out.append(own.gauss(0.0, 0.1) if i < 16 else 10.0)
            elif action == "b":
                out.append(own.gauss(1.0, 0.1))
            else:
                out.append(own.gauss(1.5, 8.0))
        return out

    out = race(["a", "b", "c"], sample, first=16, budget=20_000)  # before: c best on 64 samples, b left at 16
    assert out[0].action == "b" and out[0].samples > 16 and out[0].gap_se == 0
    assert [e.action for e in out[1:]] == ["c", "a"] and all(e.value >= out[0].value for e in out)


def test_the_race_with_a_precision_measures_the_gap_to_the_runner_up():
    from golflab.racing import race

    sample, _ = synthetic({"a": 0.0, "b": 5.0, "c": 9.0}, noise=4.0)
    quick = race(["a", "b", "c"], sample, first=16, budget=10_000)
    precise = race(["a", "b", "c"], sample, first=16, budget=10_000, precision=0.2)
    assert quick[1].gap_se > 0.2 >= precise[1].gap_se and precise[1].action == "b"
    assert abs(precise[1].value - precise[0].value - 5.0) < 3 * precise[1].gap_se


def raced_apart(game) -> bool:
    """A mid-hole placement whose race lets an option go after its first round."""
    from golflab import coach

    return mid_place(game) and any(o.samples == coach.MIN_SAMPLES
                                   for o in hint(game.observation(game.current_player)))


def test_the_default_hint_races_its_options_deterministically():
    from golflab import coach
    from golflab.racing import INDIFFERENCE, SEPARATION

    game = find(raced_apart)
    obs = game.observation(game.current_player)
    options = hint(obs)
    total = coach.rollouts_spent(options)
    assert total <= coach.HINT_ROLLOUTS and len({o.samples for o in options}) > 1
    best = options[0]
    assert best.gap_se == 0
    settled = [o.value - best.value > SEPARATION * o.gap_se
               or (o.value - best.value <= INDIFFERENCE and o.gap_se <= INDIFFERENCE) for o in options[1:]]
    assert all(settled) or total > coach.HINT_ROLLOUTS - len(options) * best.samples
    coach.clear_cache()
    assert hint(obs) == options
    # sample i is the same world for every option and every scheme: an option that left the
    # race after the first round has the spread (se) of the fixed hint with that many samples
    coach.clear_cache()
    fixed = {o.action: o for o in hint(obs, samples=coach.MIN_SAMPLES)}
    first_round = [o for o in options if o.samples == coach.MIN_SAMPLES]
    assert first_round and all(o.se == fixed[o.action].se for o in first_round)
    other = hint(obs, samples=coach.MIN_SAMPLES, seed=coach.observation_seed(obs) + 1)
    assert {o.action: o.value for o in other} != {a: o.value for a, o in fixed.items()}


def test_hint_with_an_explicit_seed_values_each_position(monkeypatch):
    """The cache is keyed on the position: two positions with the same legal actions and the
    same explicit seed get their own values, and the same position is valued only once."""
    from golflab import coach
    from golflab.coach import hints
    games = (play_until(seed, mid_place) for seed in range(200))
    a, b = itertools.islice((g.observation(g.current_player) for g in games if g is not None), 2)
    assert [str(x) for x in a.legal_actions] == [str(x) for x in b.legal_actions] and a != b
    coach.clear_cache()
    values = {o.action: o.value for o in hint(b, samples=8, seed=5)}
    coach.clear_cache()
    hint(a, samples=8, seed=5)
    assert {o.action: o.value for o in hint(b, samples=8, seed=5)} == values
    valued = []
    monkeypatch.setattr(hints, "value", lambda *args, **kwargs: valued.append(args) or [])  # the one valuation
    hint(b, samples=8, seed=5)
    assert valued == []


def test_hint_refuses_bad_precision_and_seed():
    game = find(mid_place)
    obs = game.observation(game.current_player)
    for kwargs, words in [({"precision": 0}, "precision must be"), ({"precision": "x"}, "precision must be"),
                          ({"samples": 8, "precision": 0.5}, "not both"), ({"seed": 1.5}, "seed must be"),
                          ({"seed": True}, "seed must be")]:
        with pytest.raises(ValueError, match=words):
            hint(obs, **kwargs)


def test_review_races_the_candidates_within_its_budget(monkeypatch):
    """Within a budget of a third of ``REVIEW_ROLLOUTS`` (so that it binds sooner, and the Python
    reference's review takes seconds): the race stops at whatever budget it is given."""
    from golflab import coach
    from golflab.coach import grades

    budget = coach.REVIEW_ROLLOUTS // 3
    monkeypatch.setattr(grades, "REVIEW_ROLLOUTS", budget)
    game = Game(NAMES, Rules(rounds=1), seed=7)
    bots = [CPUPlayer(n, seed=i) for i, n in enumerate(NAMES)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    coach.clear_cache()
    r = review(game, 1)
    spent = [coach.rollouts_spent(g.options) for g in r.grades]
    assert spent and max(spent) <= budget, spent
    assert max(spent) > budget // 2, spent  # the race went on while the options were close
    assert all(o.samples >= coach.MIN_SAMPLES for g in r.grades for o in g.options)
