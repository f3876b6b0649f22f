"""The one switch of the compiled code (``golflab.kernel.use_compiled``): every rule option is
declared implemented or not, anything undeclared or unimplemented is played by the Python
reference, and the compiled code's constants are the reference's."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from kernel_marks import needs_compiled

from golflab import Rules, kernel, simulate
from golflab.actions import ACTIONS, ActionCode
from golflab.ai import EXPERT, Profile
from golflab.model import HAND_BONUSES, scoring_model
from golflab.rules import OPTION, OPTIONS

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
    assert [kernel.seat_kind(s) for s in ("Sofia", "maya", CUSTOM, EXPERT, "Expert")] == [
        "personality", "personality", "profile", "expert", "expert"]
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
    from golflab.sim import dispatch, games

    rules = Rules(rounds=2, blackjack=True)
    players = ["Sofia", "Maya", CUSTOM]
    monkeypatch.setenv(kernel.ENV, "0")
    reference = simulate(players, 30, rules, seed=4, progress=False, analyze=True)
    monkeypatch.setenv(kernel.ENV, "1")
    monkeypatch.setitem(declared[kernel.PLAY], "blackjack", (False,))
    monkeypatch.setitem(declared[kernel.GRADE], "blackjack", (False,))
    assert kernel.refusal(rules, players) == "the compiled code does not implement blackjack=True"
    assert not dispatch.uses_kernel(players, rules, 10_000, analyze=False)
    assert not dispatch.compiled_grading(rules)
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
    monkeypatch.setattr(dispatch, "KERNEL_MIN_GAMES", 0)
    monkeypatch.setattr(coach.rollouts, "KERNEL_MIN_ROLLOUTS", 0)
    fast = simulate(players, 30, rules, seed=4, progress=False, analyze=True)
    assert fast.rounds.equals(reference.rounds) and fast.decisions.equals(reference.decisions)
    game = games.play_games(["Sofia", "Maya"], rules, 1, 0, 1, kernel=False)
    obs = next(e[3] for e in game if e[0] == "decision")
    assert grading.fast_grade(obs, obs.legal_actions[0]) == grade(obs, obs.legal_actions[0])
    coach.clear_cache()
    assert coach.hint(obs, samples=4)  # the rollouts in Python (kernel.rollout_values would raise)
    coach.clear_cache()


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
