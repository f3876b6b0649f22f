"""One rule model: every option declared once, every scorer agreeing (issue 9).

The cases are generated from ``golflab.rules.OPTIONS``: a new option is covered here without
editing this file. For each rule set, ``score_hand`` (the scoring module), the EV model with
nothing hidden (``golflab.ev.Pool``) and the CPU players' estimate (``golflab.ai``) must give
the same score on random fully known grids; the EV model with hidden cards must equal a
brute-force average over every way the hidden cards can fall; and the EV fast paths must
agree with scoring the whole hand wherever they declare themselves valid (``FAST_PATHS``).
"""

from __future__ import annotations

import itertools
import random

import pytest

from golflab import Rules, score_hand
from golflab.ai.evaluate import hand_estimate, rule_table
from golflab.cards import ALL_CARDS, JOKER
from golflab.ev import FAST_PATHS, Pool
from golflab.model import HAND_BONUSES, RANK_OF, scoring_model
from golflab.rules import ONE_EYED, OPTIONS


def _variants():
    """(id, Rules) for the defaults, each option at each non-default value, and everything on."""
    out = [("defaults", {})]
    for opt in OPTIONS:
        if opt.kind is bool:
            values = [True]
        elif opt.kind is str:
            values = [c for c in opt.choices if c != opt.default]
        else:
            values = [v for v in opt.bounds if v != opt.default]
        out += [(f"{opt.name}={v}", {opt.name: v}) for v in values]
    every_bool = {o.name: True for o in OPTIONS if o.kind is bool}
    out += [(f"all_bools_jokers={j}", {**every_bool, "jokers": j}) for j in ("standard", "eagle_eye", "lucky_swing")]
    return out


VARIANTS = _variants()
IDS = [name for name, _ in VARIANTS]
#: cards a random hand is drawn from: every card, jokers too (hand-built hands may hold them)
CARDS = list(ALL_CARDS) + [JOKER, JOKER]
BY_RANK = {r: [c for c in CARDS if c.rank == r] for r in {c.rank for c in CARDS}}


def _rules(options: dict) -> Rules:
    return Rules(**{"rounds": 9, "initial_flips": 2, "flip_mode": "never", "jokers": "none", **options})


#: ranks whose pairs score in different ways (jacks: one-eyed; 2s and jokers: negative; kings: 0 or -2)
PAIRING = ("J", "2", "K", "5", "JK")


def _hands(rng: random.Random, count: int):
    """Random hands, biased toward pairs and repeated ranks (so bonuses and pairs happen): half
    hold two ranks only, one of them a rank some hand bonus names (its own ``HandBonus.ranks``),
    so that every declared bonus is earned, on whatever rank it is declared."""
    for _ in range(count):
        if rng.random() < 0.5:
            hand = rng.sample(CARDS, 6)
        else:  # few ranks: many pairs, fours of a kind, wolfpacks
            ranks = (rng.choice(rng.choice(HAND_BONUSES).ranks()), rng.choice(PAIRING))
            hand = [rng.choice(BY_RANK[rng.choice(ranks)]) for _ in range(6)]
        yield hand


@pytest.mark.parametrize("options", [o for _, o in VARIANTS], ids=IDS)
def test_score_hand_the_ev_model_and_the_ai_agree_on_fully_known_hands(options):
    rules = _rules(options)
    model, table = scoring_model(rules), rule_table(rules)
    pool = Pool({"5": 4}, rules)
    rng = random.Random(hash(tuple(sorted(options.items()))) & 0xFFFF)
    earned = set()
    for hand in _hands(rng, 300):
        kinds = [model.kind(c) for c in hand]
        expected = score_hand(hand, rules)
        assert model.hand_score(kinds) == expected, hand
        assert pool.hand_ev(kinds) == expected, hand
        assert hand_estimate(table.kinds(hand), table, 0.0) == expected, hand
        earned.update(b.rule for b in model.hand_bonuses(kinds))
    assert earned == {b.rule for b in model.bonuses}  # every bonus in play was checked, none by luck


def _card_of(kind: str):
    """A card of ``kind`` (a one-eyed jack for ``ONE_EYED``, a two-eyed one for ``J``)."""
    return {"JK": "JK", ONE_EYED: "JH", "J": "JD"}.get(kind, kind + "C")


@pytest.mark.parametrize("options", [o for _, o in VARIANTS], ids=IDS)
def test_the_ev_model_with_hidden_cards_is_the_exact_average(options):
    rules = _rules(options)
    model = scoring_model(rules)
    rng = random.Random(len(str(options)))
    kinds = [k for k in model.kinds if k != "JK" or rules.jokers != "none"]
    for _ in range(12):
        counts = {k: rng.randint(1, 2) for k in rng.sample(kinds, 3)}
        counts[rng.choice(["J", "2", "K"])] = 3
        pool = Pool(counts, rules)
        grid = [rng.choice(list(counts)) for _ in range(6)]
        for pos in rng.sample(range(6), rng.randint(1, 3)):
            grid[pos] = None
        hidden = [i for i, k in enumerate(grid) if k is None]
        cards = [k for k, c in counts.items() for _ in range(c)]
        total = n = 0
        for draw in itertools.permutations(cards, len(hidden)):
            full = list(grid)
            for pos, kind in zip(hidden, draw):
                full[pos] = kind
            total += score_hand([_card_of(k) for k in full], rules)
            n += 1
        assert pool.hand_ev(grid) == pytest.approx(total / n, abs=1e-9), (grid, counts)


@pytest.mark.parametrize("options", [o for _, o in VARIANTS], ids=IDS)
def test_ev_fast_paths_agree_with_whole_hand_scoring_where_they_say_they_hold(options):
    rules = _rules(options)
    model = scoring_model(rules)
    rng = random.Random(7)
    valid = {name: getattr(model, attr) for name, attr in FAST_PATHS.items()}
    for _ in range(60):
        counts = {k: rng.randint(1, 4) for k in rng.sample(list(model.kinds), 6)}
        pool = Pool(counts, rules)
        grid = [rng.choice(list(model.kinds)) if rng.random() < 0.6 else None for _ in range(6)]
        held = rng.choice(list(counts))
        exact = pool.hand_placements(grid, held)
        if valid["placements"]:
            assert pool.placements(grid, held) == pytest.approx(exact, abs=1e-9)
        if valid["best_change"]:
            assert pool.best_change(grid, held) == pytest.approx(min(exact.values()), abs=1e-9)
            drawn = pool.without(held).hand_placements(grid, held)
            assert pool.best_change(grid, held, drawn=True) == pytest.approx(min(drawn.values()), abs=1e-9)


def test_a_rule_that_adds_a_hand_bonus_turns_the_fast_paths_off():
    for bonus in HAND_BONUSES:
        assert not scoring_model(_rules({bonus.rule: True})).columns_independent
    assert scoring_model(_rules({})).columns_independent


def test_pairs_are_by_rank_and_values_by_kind():
    rules = _rules({"one_eyed_jacks": True})
    assert RANK_OF[ONE_EYED] == "J"
    assert score_hand(["JH", "5S", "5C", "JD", "6S", "6D"], rules) == 0 + 11 + 11  # any two jacks pair
    assert score_hand(["JH", "5S", "5C", "QD", "6S", "6D"], rules) == 10 + 11 + 11  # JH is worth 0
    assert score_hand(["JD", "5S", "5C", "QD", "6S", "6D"], rules) == 20 + 11 + 11


# ------------------------------------------------------------------ the engine's whole-turn actions
import json  # noqa: E402

from golflab import Game, IllegalActionError, Phase, savefile  # noqa: E402


def _playing(rules: Rules, seed: int = 1) -> Game:
    """A 2-player game in the playing phase, seat 0 to draw, cards 0 and 1 of each seat face up."""
    game = Game(2, rules, seed)
    for action in ("flip 0", "flip 1", "flip 0", "flip 1"):
        game.apply(action)
    assert game.phase is Phase.PLAYING and game.current_player == 0
    return game


def test_flip_as_action_flips_one_card_as_the_whole_turn():
    game = _playing(_rules({"flip_as_action": True}))
    assert [str(a) for a in game.legal_actions()] == ["draw", "take", "flip 2", "flip 3", "flip 4", "flip 5"]
    game.apply("flip 4")
    assert game.face_up(0) == [True, True, False, False, True, False]
    assert game.current_player == 1 and game.turns == [1, 0] and game.held is None


def test_flip_as_action_on_the_last_card_goes_out():
    game = _playing(_rules({"flip_as_action": True}))
    for pos in (2, 3, 4):
        game.apply(f"flip {pos}")  # seat 0
        game.apply("draw").apply("discard")  # seat 1
    game.apply("flip 5")
    assert game.phase is Phase.FINAL_TURN and game.finisher == 0
    game.apply("flip 2")  # seat 1's final turn may be a flip too: it simply ends the turn
    assert game.phase is Phase.ROUND_OVER


def test_knock_turns_up_the_last_cards_and_goes_out():
    game = _playing(_rules({"knock_early": True, "flip_as_action": True}))
    assert "knock" not in [str(a) for a in game.legal_actions()]  # four face-down cards
    game.apply("flip 2").apply("draw").apply("discard").apply("flip 3").apply("draw").apply("discard")
    assert [str(a) for a in game.legal_actions()][-1] == "knock"  # two face-down cards left
    game.apply("knock")
    assert all(game.face_up(0)) and game.phase is Phase.FINAL_TURN and game.finisher == 0


@pytest.mark.parametrize("options, setup, action, words", [
    ({}, (), "knock", ["knock_early"]),
    ({}, (), "flip 3", ["flip_as_action"]),
    ({"knock_early": True}, (), "knock", ["one or two face-down cards", "4"]),
    ({"knock_early": True}, ("draw",), "knock", ["start of a turn"]),
    ({"flip_as_action": True}, ("draw",), "flip 3", ["instead of drawing"]),
    ({"flip_as_action": True}, (), "flip 0", ["already face up"]),
])
def test_whole_turn_actions_are_refused_with_the_rule_named(options, setup, action, words):
    game = _playing(_rules(options))
    for a in setup:
        game.apply(a)
    before = game.to_json()
    with pytest.raises(IllegalActionError) as exc:
        game.apply(action)
    assert all(w in str(exc.value) for w in words), str(exc.value)
    assert game.to_json() == before


def test_a_save_from_before_the_new_options_loads_with_them_off():
    game = _playing(_rules({"wolfpack": True}))
    data = json.loads(game.to_json())
    del data["checksum"]
    data["version"] = 1
    for name in ("one_eyed_jacks", "negative_pairs_keep_value", "four_of_a_kind", "flip_as_action", "knock_early"):
        del data["rules"][name]
    restored = Game.from_json(json.dumps(data))
    assert restored.rules == game.rules and restored.to_json() == game.to_json()
    data["version"] = 2  # a version-2 save always holds them
    data["checksum"] = savefile.checksum(data)
    with pytest.raises(ValueError, match="one_eyed_jacks"):
        Game.from_json(json.dumps(data))


def test_knock_and_whole_turn_flips_round_trip_through_a_save():
    game = _playing(_rules({"knock_early": True, "flip_as_action": True}), seed=3)
    game.apply("flip 2").apply("flip 2").apply("flip 3").apply("flip 3").apply("knock")
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


def test_the_rules_form_has_a_control_for_every_declared_option():
    from golflab_widgets.table.rules_form import RulesForm

    form = RulesForm()
    assert list(form.controls) == [o.name for o in OPTIONS]
    for opt in OPTIONS:  # each control round-trips a non-default value of its option
        value = True if opt.kind is bool else opt.choices[-1] if opt.kind is str else opt.bounds[1]
        form.set_rules(_rules({opt.name: value}))
        assert getattr(form.rules, opt.name) == value, opt.name
    form.set_rules(_rules({"decks": None}))
    assert form.rules.decks is None
