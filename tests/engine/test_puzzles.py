"""golflab.puzzles: deterministic, every answer beating the rest by min_gap, values checked by brute force."""

from __future__ import annotations

from collections import Counter

import pytest

from golflab import Card, Game, Rules, build_deck, score_hand
from golflab.ai import CPUPlayer
from golflab.coach import hint
from golflab.puzzles import (
    DIFFICULTY,
    GAP_PRECISION,
    KINDS,
    SEPARATION,
    VALUATION,
    VALUE_MEANING,
    decision_kind,
    describe,
    generate,
    one_step_options,
    separated,
    stream,
)

# -- brute force: every way the unseen cards can lie in the seat's face-down places ----------------

def _unseen(obs) -> Counter:
    deck = Counter(c.code for c in build_deck(obs.rules.decks_for(len(obs.grids)), obs.rules.jokers))
    deck.subtract(c.code for c in obs.visible_cards())
    return +deck


def _expected_score(grid, unseen: Counter, rules: Rules) -> float:
    """Mean hand score over every ordered filling of the None places from ``unseen`` (no replacement)."""
    holes = [i for i, c in enumerate(grid) if c is None]
    if not holes:
        return float(score_hand(grid, rules))
    total = sum(unseen.values())
    out = 0.0
    for code, count in unseen.items():
        rest = unseen.copy()
        rest[code] -= 1
        filled = list(grid)
        filled[holes[0]] = Card.parse(code)
        out += count / total * _expected_score(filled, +rest, rules)
    return out


def _place_values(obs, held: Card, unseen: Counter, can_discard: bool) -> dict[str, float]:
    grid, rules = obs.my_grid, obs.rules
    before = _expected_score(grid, unseen, rules)
    values = {"discard": 0.0} if can_discard else {}
    for pos in range(6):
        after = list(grid)
        after[pos] = held
        values[f"swap {pos}"] = _expected_score(after, unseen, rules) - before
    return values


def brute_force(obs) -> dict[str, float]:
    """The one-step value of every legal action, by enumeration."""
    unseen = _unseen(obs)
    legal = [str(a) for a in obs.legal_actions]
    if obs.awaiting == "place":
        values = _place_values(obs, obs.drawn, unseen, "discard" in legal)
        return {a: values[a] for a in legal}
    values = {"take": min(_place_values(obs, obs.discard_top, unseen, False).values())}
    total = sum(unseen.values())
    draw = 0.0
    for code, count in unseen.items():
        rest = unseen.copy()
        rest[code] -= 1
        draw += count / total * min(_place_values(obs, Card.parse(code), +rest, True).values())
    values["draw"] = draw
    return {a: values[a] for a in legal}


def late_positions(seed: int, rules: Rules, most_down: int = 1, count: int = 6):
    """Decisions of seat 0 in CPU play with at most ``most_down`` face-down cards of its own."""
    found = []
    game_seed = seed
    while len(found) < count:
        game = Game(players=["Sofia", "Maya", "Priya"], rules=rules.replace(rounds=1), seed=game_seed)
        bots = [CPUPlayer(name, seed=game_seed + s) for s, name in enumerate(["Sofia", "Maya", "Priya"])]
        while game.awaiting is not None and game.phase in ("playing", "final_turn", "initial_flip"):
            obs = game.observation(game.current_player)
            if (obs.seat == 0 and obs.awaiting in ("draw", "place") and len(obs.legal_actions) > 1
                    and len(obs.face_down()) <= most_down):
                found.append(obs)
            game.apply(bots[obs.seat].choose(obs))
        game_seed += 1
    return found[:count]


@pytest.mark.parametrize("rules", [Rules(), Rules(jokers="standard"), Rules(super_kings=True, ten_penny=True)],
                         ids=["standard", "jokers", "kings-tens"])
def test_values_match_brute_force_on_small_cases(rules):
    positions = late_positions(3, rules)
    assert {p.awaiting for p in positions} == {"draw", "place"}
    for obs in positions:
        expected = brute_force(obs)
        got = {o.action: o.value for o in one_step_options(obs)}
        assert got.keys() == expected.keys()
        for action, value in expected.items():
            assert got[action] == pytest.approx(value, abs=0.006), (action, obs)


def test_answer_is_the_brute_force_best_by_at_least_min_gap():
    puzzles = generate(n=5, seed=2, rules=Rules(), min_gap=1.0, kind="last_card", valuation="one_step")
    for p in puzzles:
        values = brute_force(p.observation)
        ranked = sorted(values, key=values.get)
        assert p.answer == ranked[0]
        assert values[ranked[1]] - values[ranked[0]] >= 1.0 - 0.01
        assert p.gap >= 1.0


@pytest.mark.parametrize("min_gap, valuation", [(0.5, "one_step"), (2.0, "one_step"), (5.0, "one_step"),
                                               (2.0, "coach")])
def test_every_puzzle_beats_the_second_best_by_min_gap(min_gap, valuation):
    for p in generate(n=6 if valuation == "one_step" else 3, seed=1, min_gap=min_gap, valuation=valuation):
        assert p.valuation == valuation
        values = [o.value for o in p.options]
        assert values == sorted(values)
        assert p.answer == p.options[0].action
        assert values[1] - values[0] >= min_gap
        assert {o.action for o in p.options} == {str(a) for a in p.observation.legal_actions}
        assert p.observation.seat == p.observation.current_player
        assert p.explanation.startswith(f"Best: {describe(p.observation, p.answer)}.")
        assert_plain_words(p.explanation)  # no notation, no position numbers, no card codes
        assert all(o.reason for o in p.options)


def test_the_coach_values_the_puzzles():
    assert VALUATION == "coach" and set(VALUE_MEANING) == {"coach", "one_step"}
    for p in generate(n=2, seed=0, min_gap=2.0, kind="place"):
        assert list(p.options) == hint(p.observation, precision=GAP_PRECISION)
        assert p.gap == pytest.approx(p.options[1].value - p.options[0].value, abs=0.01)
        assert p.gap_se == pytest.approx(p.options[1].gap_se, abs=0.001) and 0 < p.gap_se <= GAP_PRECISION


@pytest.mark.parametrize("difficulty", list(DIFFICULTY))
def test_a_puzzle_of_any_difficulty_beats_the_runner_up_by_three_standard_errors(difficulty):
    for p in generate(n=2, seed=2, min_gap=DIFFICULTY[difficulty]):
        assert p.gap >= SEPARATION * p.gap_se and p.gap >= DIFFICULTY[difficulty]
        assert p.gap_se == pytest.approx(p.options[1].gap_se, abs=0.001)


def test_a_gap_within_three_standard_errors_is_no_puzzle(monkeypatch):
    """A position whose answer leads by min_gap but by fewer than 3 standard errors is skipped."""
    from dataclasses import replace

    import golflab.puzzles as puzzles

    assert separated(2.0, 0.5, 2.0) and not separated(2.0, 0.7, 2.0) and not separated(1.9, 0.1, 2.0)
    first = generate(n=1, seed=3, min_gap=2.0)[0]
    precise = puzzles._precise_options

    def noisy(obs):
        options = precise(obs)
        if obs == first.observation:  # the same gap, but a standard error too large for it
            gap = options[1].value - options[0].value
            options = [options[0], replace(options[1], gap_se=gap / 2.9), *options[2:]]
        return options

    monkeypatch.setattr(puzzles, "_precise_options", noisy)
    again = generate(n=1, seed=3, min_gap=2.0)[0]
    assert again.observation != first.observation and again.gap >= SEPARATION * again.gap_se


def test_same_arguments_same_puzzles_and_another_seed_others():
    a = generate(n=2, seed=4, rules=Rules(jokers="standard"), min_gap=2.0)  # each puzzle costs seconds of valuing
    b = generate(n=2, seed=4, rules=Rules(jokers="standard"), min_gap=2.0)
    assert [(p.source, p.answer, p.options, p.explanation) for p in a] == \
        [(p.source, p.answer, p.options, p.explanation) for p in b]
    assert [p.observation for p in a] == [p.observation for p in b]
    c = generate(n=2, seed=5, rules=Rules(jokers="standard"), min_gap=2.0)
    assert [p.source for p in a] != [p.source for p in c]


@pytest.mark.parametrize("kind", KINDS)
def test_kind_keeps_that_kind_of_decision(kind):
    for p in generate(n=4, seed=0, min_gap=1.0, kind=kind, valuation="one_step"):
        found = decision_kind(p.observation)
        assert found == kind or (kind == "place" and found == "last_card")


def test_house_rules_are_the_puzzles_rules():
    rules = Rules(super_kings=True, jokers="eagle_eye")
    assert all(p.observation.rules == rules.replace(rounds=1) for p in generate(n=3, seed=0, rules=rules))


def test_difficulties_are_gaps_from_easy_to_hard():
    assert DIFFICULTY["easy"] > DIFFICULTY["medium"] > DIFFICULTY["hard"] > 0


def test_value_of_an_option_and_a_refused_one():
    p = generate(n=1, seed=0, min_gap=2.0)[0]
    assert p.value(p.answer) == p.options[0].value
    with pytest.raises(ValueError, match="is not an option here; the options are"):
        p.value("knock")


@pytest.mark.parametrize("kwargs, message", [
    ({"n": 0}, "n must be a whole number of puzzles, 1 or more"),
    ({"n": 2.5}, "n must be a whole number"),
    ({"seed": "x"}, "seed must be a whole number"),
    ({"min_gap": -1}, "min_gap must be a number of points from 0 to 30"),
    ({"min_gap": "big"}, "min_gap must be a number"),
    ({"rules": {"jokers": "standard"}}, "rules must be a golflab.Rules"),
    ({"kind": "flip"}, "kind must be None"),
    ({"valuation": "gut"}, "valuation must be one of coach, one_step"),
    ({"n": 50, "min_gap": 29.0, "valuation": "one_step"}, "ask for fewer puzzles or a smaller min_gap"),
])
def test_bad_arguments_are_refused_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        generate(**kwargs)


def test_stream_makes_generates_puzzles_one_at_a_time():
    made = stream(seed=0, min_gap=2.0, kind="place")
    first = next(made)
    both = generate(n=2, seed=0, min_gap=2.0, kind="place")
    assert [(p.source, p.answer, p.options) for p in (first, next(made))] == [
        (p.source, p.answer, p.options) for p in both]


def test_stream_refuses_bad_arguments_at_once_and_says_when_it_runs_out(monkeypatch):
    import golflab.puzzles as puzzles

    with pytest.raises(ValueError, match="seed must be a whole number"):
        stream(seed="x")  # before any puzzle is asked for
    monkeypatch.setattr(puzzles, "MAX_GAMES", 2)
    made = stream(seed=0, min_gap=29.0, valuation="one_step")
    with pytest.raises(ValueError, match="only 0 positions with a gap of 29.0 points or more in 2 games"):
        next(made)


def test_cpu_hole_plays_one_hole_to_its_end():
    from golflab.puzzles import cpu_hole

    game = cpu_hole(3, Rules(knock_penalty=True))
    assert game.is_over and len(game.round_results) == 1
    again = cpu_hole(3, Rules(knock_penalty=True))
    assert again.history == game.history


def assert_plain_words(text: str) -> None:
    """What a learner reads: words, not notation (``swap 3``), card codes (``J♠``) or "in expectation"."""
    import re

    assert not re.search(r"\b(swap|flip) \d|\((draw|take|discard|skip|knock)\)", text), text
    assert not re.search(r"(10|[2-9AJQKT])[\u2660\u2665\u2666\u2663]", text), text
    assert "in expectation" not in text and "position " not in text, text


def test_a_puzzles_words_are_plain():
    for valuation in ("one_step", "coach"):
        for p in generate(n=4, seed=3, min_gap=1.0, valuation=valuation):
            assert_plain_words(p.explanation)
            for option in p.options:
                assert_plain_words(describe(p.observation, option.action))
                assert_plain_words(option.reason)
