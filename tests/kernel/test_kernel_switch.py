"""The one switch of the compiled code (``golflab.kernel.use_compiled``): every rule option is
declared implemented or not, anything undeclared or unimplemented is played by the Python
reference, and the compiled code's constants are the reference's."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from golflab import Rules, kernel, model, simulate
from golflab.actions import ACTIONS, ActionCode
from golflab.ai import EXPERT, Profile
from golflab.model import HAND_BONUSES, RANK_OF, ROUND_ADJUSTMENTS, HandBonus, RoundAdjustment, scoring_model
from golflab.rules import OPTION, OPTIONS
from tests.support.kernel_marks import needs_compiled

PACKAGE = Path(kernel.__file__).resolve().parent.parent
CUSTOM = Profile("Tess", "Test profile", 7, 0.9, 0.3, 0.2)


@pytest.fixture
def declared(monkeypatch):
    """``kernel.IMPLEMENTED`` to change for one test (the refusal cache cleared around it)."""
    kernel.forget_verdicts()
    yield kernel.IMPLEMENTED
    monkeypatch.undo()
    kernel.forget_verdicts()


@pytest.mark.parametrize("part", list(kernel.IMPLEMENTED))
def test_every_rule_option_is_declared_implemented_or_not(part):
    """Adding an option to ``rules.OPTIONS`` without declaring it here fails this test."""
    declared = kernel.IMPLEMENTED[part]
    assert sorted(declared) == sorted(o.name for o in OPTIONS)
    for name, done in declared.items():
        assert done is True or (isinstance(done, tuple) and done), name
        if done is not True:
            assert all(OPTION[name].check(v) == v for v in done), name


def test_an_undeclared_option_is_refused_whatever_its_value(declared, monkeypatch):
    monkeypatch.delitem(declared[kernel.PLAY], "tied_shame")
    for rules in (Rules(), Rules(tied_shame=True)):
        assert "does not declare the rule option 'tied_shame'" in kernel.refusal(rules, ["Sofia"])
        assert not kernel.use_compiled(rules, ["Sofia"])
        with pytest.raises(ValueError, match="tied_shame"):
            kernel.play(["Sofia", "Maya"], rules, 1, 0, 1)


def test_the_grader_declares_what_it_implements_as_the_scoring_model_says():
    """The grader implements the rules whose hands score column by column."""
    for on in itertools.product((False, True), repeat=len(HAND_BONUSES)):
        rules = Rules(**{b.rule: v for b, v in zip(HAND_BONUSES, on)})
        assert (kernel.refusal(rules, (), kernel.GRADE) is None) == scoring_model(rules).columns_independent


def test_seat_kinds():
    seats = ("Sofia", "maya", CUSTOM, EXPERT, "Expert", "Classic Expert", "Level 2", "Level 4", "Level 6")
    assert [kernel.seat_kind(s) for s in seats] == [
        "personality", "personality", "profile", "expert", "expert", "expert", "level", "profile", "level"]
    assert kernel.refusal(Rules(), ["Sofia", CUSTOM]) is None
    assert "seat kind 'expert'" in kernel.refusal(Rules(), ["Sofia", "Expert"])
    with pytest.raises(ValueError, match="unknown|not a|personalit"):
        kernel.seat_kind("Nobody")
    with pytest.raises(ValueError, match="part must be one of play, grade"):
        kernel.refusal(Rules(), (), "rollouts")


@needs_compiled
def test_an_unimplemented_rule_value_falls_back_to_the_reference(declared, monkeypatch):
    """With ``blackjack=True`` declared unimplemented, every dispatch point leaves it to the
    reference: the same results, and the compiled code never called."""
    from golflab import coach, fastev, grading
    from golflab.analysis import grade
    from golflab.sim import games

    rules = Rules(rounds=2, blackjack=True)
    players = ["Sofia", "Maya", CUSTOM]
    monkeypatch.setenv(kernel.ENV, "0")
    reference = simulate(players, 30, rules, seed=4, progress=False, analyze=True)
    monkeypatch.setenv(kernel.ENV, "1")
    monkeypatch.setitem(declared[kernel.PLAY], "blackjack", (False,))
    monkeypatch.setitem(declared[kernel.GRADE], "blackjack", (False,))
    assert kernel.refusal(rules, players) == "the compiled code does not implement blackjack=True"
    assert not games.uses_kernel(players, rules, 10_000, analyze=False)
    assert not games.compiled_grading(rules)
    assert fastev.kernel(rules) is None and fastev.draw_ev_function(rules) is None
    with pytest.raises(ValueError, match="does not implement blackjack=True"):
        kernel.play(players, rules, 4, 0, 1)
    from golflab.kernel import tables

    with pytest.raises(ValueError, match="does not implement blackjack=True"):
        tables.rule_arrays(rules, 3)

    def not_here(*args, **kwargs):
        raise AssertionError("compiled code ran for rules it does not implement")

    for name in ("play", "place_records", "rollout_values"):
        monkeypatch.setattr(kernel, name, not_here)
    monkeypatch.setattr(games, "KERNEL_MIN_GAMES", 0)
    monkeypatch.setattr(coach.rollouts, "KERNEL_MIN_ROLLOUTS", 0)
    fast = simulate(players, 30, rules, seed=4, progress=False, analyze=True)
    assert fast.rounds.equals(reference.rounds) and fast.decisions.equals(reference.decisions)
    game = games.play_games(["Sofia", "Maya"], rules, 1, 0, 1, kernel=False)
    obs = next(e[3] for e in game if e[0] == "decision")
    assert grading.fast_grade(obs, obs.legal_actions[0]) == grade(obs, obs.legal_actions[0])
    coach.clear_cache()
    assert coach.hint(obs, samples=4)  # the rollouts in Python (kernel.rollout_values would raise)
    coach.clear_cache()


def test_the_kernel_computes_every_kind_declared_today():
    """A kind the kernel declares is one the model knows; every bonus and adjustment declared
    today is computed in play (the grader computes no hand bonus)."""
    from golflab.kernel import layout

    assert set(layout.BONUS_COMPUTED) <= set(model.BONUS_KINDS)
    assert set(layout.WHO_COMPUTED) <= set(model.WHO_SEATS)
    every = Rules(**{e.rule: True for e in (*HAND_BONUSES, *ROUND_ADJUSTMENTS)})
    assert kernel.refusal(every) is None
    assert "does not compute the hand bonus wolfpack" in kernel.refusal(every, (), kernel.GRADE)


@dataclass(frozen=True)
class CardsBonus(HandBonus):
    """A hand bonus of a new shape: ``cards`` cards of its rank anywhere in the hand."""

    cards: int = 3


def _cards_of_rank(bonus: CardsBonus, grid, pairs) -> list[str]:
    held = [RANK_OF[k] for k in grid if k is not None]
    return [rank for rank in bonus.ranks() if held.count(rank) >= bonus.cards]


def _highest(adjustment, scores, finisher) -> list[int]:
    return [seat for seat, s in enumerate(scores) if s == max(scores)]


def _declare_new_kinds(monkeypatch) -> None:
    """The issue's probes, declared as a newcomer would in ``model``: ``wolfpack`` becomes "three
    of a kind anywhere score -7" (a bonus kind with a ``cards`` field) and ``tied_shame`` "+5 to
    the highest score" (a new *who*); the reference implements both, the kernel neither."""
    monkeypatch.setitem(model.BONUS_KINDS, "cards_of_rank", _cards_of_rank)
    monkeypatch.setitem(model.WHO_SEATS, "highest", _highest)
    threes = CardsBonus("wolfpack", "cards_of_rank", -7, None, "three {rank}s", cards=3)
    monkeypatch.setattr(model, "HAND_BONUSES", (threes, *HAND_BONUSES[1:]))
    highest = RoundAdjustment("tied_shame", "highest", 5, "highest score of the hole")
    monkeypatch.setattr(model, "ROUND_ADJUSTMENTS", tuple(highest if a.rule == "tied_shame" else a
                                                          for a in ROUND_ADJUSTMENTS))
    kernel.forget_verdicts()


PROBES = pytest.mark.parametrize("rule, words", [
    ("wolfpack", "hand bonus wolfpack (its kind 'cards_of_rank')"),
    ("tied_shame", "round adjustment tied_shame (its kind 'highest')"),
])


@PROBES
def test_the_switch_refuses_a_bonus_or_adjustment_of_a_new_kind(monkeypatch, rule, words):
    try:
        _declare_new_kinds(monkeypatch)
        for part in kernel.IMPLEMENTED:
            assert words in kernel.refusal(Rules(**{rule: True}), ["Sofia"], part)
        assert kernel.refusal(Rules(), ["Sofia"]) is None  # off, it is not in play
    finally:
        monkeypatch.undo()
        kernel.forget_verdicts()


@needs_compiled
@PROBES
def test_a_bonus_or_adjustment_of_a_new_kind_is_played_by_the_reference(monkeypatch, rule, words):
    """The issue's probes: the switch refuses them, and ``simulate`` with the kernel on gives the
    reference's results, which the new kind changed."""
    from golflab.sim import games

    players = ["Sofia", "Maya", "Priya"]
    monkeypatch.setattr(games, "KERNEL_MIN_GAMES", 0)

    def run(kernel_on: bool):
        monkeypatch.setenv(kernel.ENV, "1" if kernel_on else "0")
        return simulate(players, 30, Rules(rounds=2, **{rule: True}), seed=5, progress=False, analyze=False).rounds

    before = run(True)
    assert kernel.use_compiled(Rules(rounds=2, **{rule: True}), players)
    try:
        _declare_new_kinds(monkeypatch)
        rules = Rules(rounds=2, **{rule: True})
        assert words in kernel.refusal(rules, players) and not kernel.use_compiled(rules, players)
        with pytest.raises(ValueError, match=re.escape(words)):
            kernel.play(players, rules, 5, 0, 1)
        fast, reference = run(True), run(False)
        assert fast.equals(reference)
        assert not reference["score"].equals(before["score"])  # the new kind applied
    finally:
        monkeypatch.undo()
        kernel.forget_verdicts()


@needs_compiled
def test_the_compiled_code_raises_on_a_kind_it_does_not_compute():
    """Behind the switch: the rule arrays and the compiled scoring refuse an unknown kind too."""
    from golflab.kernel import cpu, engine, layout, tables

    with pytest.raises(ValueError, match="does not compute tied_shame's kind 'highest'"):
        tables.kind_code("highest", layout.WHO_COMPUTED, "tied_shame")
    flags = np.zeros(layout.N_FLAGS + layout.ADJ_WIDTH, dtype=np.int64)
    flags[layout.N_FLAGS + layout.ADJ_WHO] = len(layout.WHO_COMPUTED)
    with pytest.raises(ValueError, match="round adjustment of a kind"):
        engine.apply_adjustments(np.array([3, 7], dtype=np.int64), -1, flags)
    R = tables.rule_arrays(Rules(), 2)[0]
    bonus = np.array([[len(layout.BONUS_COMPUTED), layout.NONE, -7]], dtype=np.int64)
    with pytest.raises(ValueError, match="hand bonus of a kind"):
        cpu.bonus_points(np.zeros(6, dtype=np.int64), R[tables.R_RANK_OF], bonus)


@needs_compiled
def test_graded_games_ask_the_switch_for_grading(declared, monkeypatch):
    """``gradedgames.play`` (where compiled grading runs) refuses what ``GRADE`` does not
    implement, even when ``PLAY`` does."""
    from golflab import gradedgames

    with pytest.raises(ValueError, match="hand bonus wolfpack"):
        gradedgames.play(["Sofia", "Maya"], Rules(wolfpack=True), 1, 0, 1)
    monkeypatch.setitem(declared[kernel.GRADE], "blackjack", (False,))
    assert kernel.use_compiled(Rules(blackjack=True), ["Sofia", "Maya"])
    with pytest.raises(ValueError, match="does not implement blackjack=True"):
        gradedgames.play(["Sofia", "Maya"], Rules(blackjack=True), 1, 0, 1)
    played, records, _ = gradedgames.play(["Sofia", "Maya"], Rules(), 1, 0, 1)
    assert len(records)


def test_rule_arrays_refuse_an_option_they_do_not_know(monkeypatch):
    from golflab.kernel import tables
    from golflab.rules import RuleOption

    new = RuleOption("new_rule", bool, False, "A rule the kernel does not read.", ("round",))
    monkeypatch.setattr(tables, "OPTIONS", (*OPTIONS, new))
    tables.rule_arrays.cache_clear()
    with pytest.raises(ValueError, match="do not know the rule option.s. new_rule"):
        tables.rule_arrays(Rules(), 2)
    tables.rule_arrays.cache_clear()


def test_rule_arrays_read_every_declared_option():
    from golflab.kernel import tables

    assert tables.READS == {o.name for o in OPTIONS}


def test_the_environment_variable_is_read_in_one_place():
    readers = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
               if re.search(r"environ[^\n]*(GOLFLAB_KERNEL|\bENV\b)", p.read_text())]
    assert readers == ["kernel/__init__.py"]


def test_one_action_encoding():
    """``actions.ActionCode`` is the compiled code's encoding everywhere."""
    from golflab import fastev
    from golflab.kernel import layout

    assert [a.code for a in ACTIONS] == list(range(len(ACTIONS)))
    assert layout.ACTION_NAMES == tuple(a.notation for a in ACTIONS)
    assert (layout.A_FLIP, layout.A_SWAP, layout.A_DRAW, layout.A_TAKE, layout.A_DISCARD, layout.A_SKIP,
            layout.A_KNOCK) == tuple(ActionCode)
    assert fastev.ACTION_CODES == {a.notation: a.code for a in ACTIONS}
    assert all(fastev.ACTION_OF_CODE[a.code] is a for a in ACTIONS)


@needs_compiled
def test_compiled_constants_are_the_references():
    from golflab import analysis, gradedgames
    from golflab.ai import decisions
    from golflab.kernel import cpu, layout
    from golflab.kernel import grade as gradekernel
    from golflab.model import ALL_KINDS, ALL_RANKS
    from golflab.rules import FLIP_MODES, TIERS

    shared = [n for n in vars(cpu) if n.isupper() and n in vars(decisions)]
    assert len(shared) >= 8 and all(np.array_equal(getattr(cpu, n), getattr(decisions, n)) for n in shared)
    assert (gradekernel.QUESTIONABLE_MARGIN, gradekernel.GOING_OUT_LIMIT) == (analysis.QUESTIONABLE_MARGIN,
                                                                            analysis.GOING_OUT_LIMIT)
    assert (gradekernel.R_TWO, gradekernel.R_KING, gradekernel.R_JOKER) == tuple(map(ALL_RANKS.index, ("2", "K", "JK")))
    cases = (gradekernel.C_JOKERS, gradekernel.C_TWOS, gradekernel.C_BAD_TAKE, gradekernel.C_NEG_PAIR,
             gradekernel.C_KINGS, gradekernel.C_GOOD_FOR_BAD, gradekernel.C_QUESTIONABLE)
    assert cases == tuple(range(len(analysis.CASES)))
    assert (gradekernel.SWAP0, gradekernel.DRAW, gradekernel.KNOCK) == (ActionCode.SWAP, ActionCode.DRAW,
                                                                       ActionCode.KNOCK)
    assert layout.KINDS == ALL_KINDS and layout.TIERS == TIERS and layout.FLIP_MODES == FLIP_MODES
    assert gradedgames.FLIP_ALWAYS == FLIP_MODES.index("always")


def test_the_compiled_cache_is_keyed_on_the_constants_it_compiles_in():
    from golflab.kernel import cache

    keyed = {p.relative_to(PACKAGE).as_posix() for p in cache.key_sources()}
    assert {"actions.py", "kernel/layout.py", "ai/decisions.py", "analysis.py", "model.py", "rules.py",
            "kernel/cpu.py", "kernel/grade.py"} <= keyed
