"""One number for one option wherever it is shown: the hint, the grade, the review, the puzzle
and the Expert value a position by the coach's one valuation (``golflab.coach.valuation``)."""

from __future__ import annotations

from golflab import Game, Rules, coach
from golflab.ai import CPUPlayer
from golflab.coach import hints, valuation
from golflab.coach.expert import EXPERT_ROLLOUTS, expert_move, expert_options
from golflab.puzzles import GAP_PRECISION, generate

SAMPLES = 12


def _positions():
    """A draw decision and the place decision after it, of seat 0 in a two-seat hole."""
    game = Game(["Expert", "Sofia"], Rules(rounds=1), seed=11)
    bots = [CPUPlayer("Marcus", seed=1), CPUPlayer("Sofia", seed=2)]
    found = {}
    while len(found) < 2:
        obs = game.observation(game.current_player)
        if game.current_player == 0 and len(obs.legal_actions) > 1 and obs.awaiting in ("draw", "place"):
            found.setdefault(obs.awaiting, obs)
        game.apply(bots[game.current_player].choose(obs))
    return found["draw"], found["place"]


def _values(options) -> dict[str, float]:
    return {o.action: o.value for o in options}


def test_the_hint_the_grade_and_the_expert_give_the_same_values_for_the_same_samples():
    for obs in _positions():
        coach.clear_cache()
        hinted = _values(coach.hint(obs, samples=SAMPLES))
        for action in hinted:  # every grade, afresh: the same values, whichever move is graded
            coach.clear_cache()
            assert _values(coach.grade(obs, action, samples=SAMPLES).options) == hinted
        coach.clear_cache()
        assert _values(expert_options(obs, samples=SAMPLES)) == hinted
        coach.clear_cache()
        graded = coach.grade(obs, min(hinted, key=hinted.get), samples=SAMPLES)
        assert graded.grade == "OPTIMAL" and graded.ev_loss == 0


def test_a_review_grades_by_the_hints_values():
    game = Game(["Expert", "Sofia"], Rules(rounds=1), seed=5)
    bots = [CPUPlayer("Marcus", seed=1), CPUPlayer("Sofia", seed=2)]
    for _ in range(10):
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    coach.clear_cache()
    reviewed = coach.review(game, 0, samples=SAMPLES)
    assert reviewed.grades
    for g in reviewed.grades:
        coach.clear_cache()
        hinted = _values(coach.hint(g.observation, samples=SAMPLES))
        assert all(hinted[o.action] == o.value for o in g.options)  # the options it valued, as the hint does


def test_the_expert_plays_the_first_of_its_options_valued_as_a_hint_with_more_rollouts():
    draw, place = _positions()
    for obs in (draw, place):
        coach.clear_cache()
        options = expert_options(obs)
        legal = tuple(a.notation for a in obs.legal_actions)
        assert options == hints.evaluate(obs, legal, None, EXPERT_ROLLOUTS)
        assert expert_move(obs).notation == options[0].action
    assert EXPERT_ROLLOUTS > hints.HINT_ROLLOUTS


def test_a_puzzle_quotes_the_hints_values():
    puzzle = generate(1, seed=0, min_gap=2.0)[0]
    coach.clear_cache()
    assert _values(puzzle.options) == _values(coach.hint(puzzle.observation, precision=GAP_PRECISION))


def test_draw_as_a_chance_node_is_its_own_valuation_on_the_same_worlds():
    draw, _ = _positions()
    legal = tuple(a.notation for a in draw.legal_actions)
    assert "draw" in legal and "take" in legal
    coach.clear_cache()
    policy = _values(hints.evaluate(draw, legal, SAMPLES, chance=False))
    chance = _values(hints.evaluate(draw, legal, SAMPLES, chance=True))
    assert chance["draw"] != policy["draw"]  # not the other's cached values
    assert {a: v for a, v in chance.items() if a not in ("draw", "take")} == {
        a: v for a, v in policy.items() if a not in ("draw", "take")}  # the other options meet the same worlds
    coach.clear_cache()
    assert _values(hints.evaluate(draw, legal, SAMPLES, chance=True)) == chance  # deterministic
    assert _values(coach.hint(draw, samples=SAMPLES)) == (chance if valuation.CHANCE_DRAW else policy)


def test_other_samples_value_take_followed_by_the_same_use(monkeypatch):
    """The use *take* is followed by belongs to the position, not to the samples: a hint
    re-valued from another seed (as a puzzle's check does) races the same uses on the same
    worlds of the taken position; only the end-of-hole check chooses its own."""
    draw, _ = _positions()
    assert "take" in {a.notation for a in draw.legal_actions}
    found = []
    real = valuation.card_use.best_use

    def recorded(obs, card, *args):
        after, use = real(obs, card, *args)
        if card is None:  # take's (the drawn cards' uses are by one-step EV: no race)
            found.append((args[2], use))
        return after, use

    monkeypatch.setattr(valuation.card_use, "best_use", recorded)
    own = coach.observation_seed(draw)
    for seed in (own, own ^ 0xC0FFEE, own ^ 1):
        coach.clear_cache()
        coach.hint(draw, samples=SAMPLES, seed=seed)
    assert len(found) == 3 and found[0][0] == 0 and found.count(found[0]) == 3
    found.clear()
    valuation.reference(draw, 4, own ^ 0xC0FFEE, horizon=2)
    assert [salt for salt, _ in found] == [0xC0FFEE]


def test_a_cards_best_use_looks_as_far_as_the_coach_does_when_it_runs(monkeypatch):
    """``card_use`` reads ``rollouts.HORIZON`` when its rollouts run, not when it was imported."""
    from golflab.coach import card_use, rollouts
    from golflab.coach.worlds import unseen_cards

    seen = []

    class Recording(rollouts.Samples):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            seen.append(self.horizon)

    monkeypatch.setattr(card_use, "Samples", Recording)
    monkeypatch.setattr(rollouts, "HORIZON", 1)
    obs = next(o for o in _positions() if o.awaiting == "draw")
    after = card_use.drawn_observation(obs, unseen_cards(obs)[0])
    card_use.best_of(after, count=3)
    assert seen == [1]
