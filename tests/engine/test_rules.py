"""Card values, tiers and the ``Rules`` options (spec sections 1, 2 and 8)."""

import pytest

from golflab import FLIP_MODES, JOKER_MODES, RULE_HELP, TIERS, Rules, card_tier, card_value, value_tier
from golflab.rules import BOOL_RULES

pytestmark = pytest.mark.usefixtures("clean_env")

# ------------------------------------------------------------------ values
STANDARD_VALUES = {"A": 1, "2": -2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                   "T": 10, "J": 10, "Q": 10, "K": 0}


@pytest.mark.parametrize("rank, points", STANDARD_VALUES.items())
def test_standard_card_values(rank, points):
    for suit in "SHDC":
        assert card_value(rank + suit, Rules()) == points
    assert card_value(rank + "S") == points  # no rules means the standard values


def test_ten_penny_makes_a_ten_worth_one():
    rules = Rules(ten_penny=True)
    assert card_value("TD", rules) == 1
    assert card_value("JD", rules) == 10 and card_value("QD", rules) == 10 and card_value("KD", rules) == 0


def test_super_kings_makes_a_king_worth_minus_two():
    rules = Rules(super_kings=True)
    assert card_value("KH", rules) == -2
    assert card_value("TH", rules) == 10 and card_value("2H", rules) == -2


@pytest.mark.parametrize("mode, points", [("standard", -2), ("lucky_swing", -5), ("eagle_eye", 2)])
def test_joker_value_follows_the_joker_mode(mode, points):
    assert card_value("JK", Rules(jokers=mode)) == points


@pytest.mark.parametrize("rule", ["knock_penalty", "knock_bonus", "underdog_bonus", "tied_shame",
                                  "blackjack", "wolfpack"])
def test_round_rules_do_not_change_card_values(rule):
    rules = Rules(**{rule: True})
    for rank, points in STANDARD_VALUES.items():
        assert card_value(rank + "C", rules) == points


# ------------------------------------------------------------------ tiers
@pytest.mark.parametrize(
    "code, tier",
    [("JK", "Excellent"), ("2S", "Excellent"), ("KS", "Good"), ("AS", "Decent"),
     ("3S", "Neutral"), ("4S", "Neutral"), ("5S", "Neutral"), ("6S", "Bad"), ("7S", "Bad"),
     ("8S", "Terrible"), ("9S", "Terrible"), ("TS", "Terrible"), ("JS", "Terrible"), ("QS", "Terrible")],
)
def test_value_tiers_under_standard_values(code, tier):
    assert card_tier(code, Rules(jokers="standard")) == tier


def test_ten_penny_moves_a_ten_to_decent():
    assert card_tier("TH", Rules(ten_penny=True)) == "Decent"


def test_super_kings_moves_a_king_to_excellent():
    assert card_tier("KH", Rules(super_kings=True)) == "Excellent"


def test_tiers_follow_the_effective_joker_value():
    assert card_tier("JK", Rules(jokers="lucky_swing")) == "Excellent"
    assert card_tier("JK", Rules(jokers="eagle_eye")) == "Neutral"  # +2


def test_value_tier_covers_every_value_in_order():
    assert [value_tier(v) for v in (-5, -2, 0, 1, 2, 5, 6, 7, 8, 10)] == [
        "Excellent", "Excellent", "Good", "Decent", "Neutral", "Neutral", "Bad", "Bad", "Terrible", "Terrible"]
    assert TIERS == ("Excellent", "Good", "Decent", "Neutral", "Bad", "Terrible")


# ------------------------------------------------------------------ defaults
def test_defaults_follow_the_options_summary(clean_env):
    rules = Rules()
    assert (rules.rounds, rules.initial_flips, rules.flip_mode, rules.jokers) == (9, 2, "never", "none")
    assert rules.decks is None and rules.max_turns == 50
    assert not any(getattr(rules, b) for b in BOOL_RULES)
    assert repr(rules) == "Rules()"


def test_rules_are_frozen_and_comparable():
    rules = Rules(flip_mode="always", jokers="eagle_eye", knock_penalty=True, rounds=18)
    with pytest.raises(AttributeError):
        rules.rounds = 3
    assert rules == Rules(rounds=18, flip_mode="always", jokers="eagle_eye", knock_penalty=True)
    assert hash(rules) == hash(Rules(**rules.to_dict()))
    assert rules.replace(rounds=1).rounds == 1 and rules.rounds == 18


@pytest.mark.parametrize("rounds", [1, 9, 18])
def test_any_number_of_rounds_from_1_to_18(rounds):
    assert Rules(rounds=rounds).rounds == rounds


def test_every_option_has_help():
    assert set(RULE_HELP) >= set(Rules().to_dict())


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"rounds": 0}, ["rounds", "1", "18"]),
        ({"rounds": 19}, ["rounds", "1", "18"]),
        ({"rounds": "9"}, ["rounds", "1", "18"]),
        ({"rounds": 9.0}, ["rounds", "1", "18"]),
        ({"rounds": True}, ["rounds", "1", "18"]),
        ({"initial_flips": 3}, ["initial_flips", "0", "2"]),
        ({"initial_flips": -1}, ["initial_flips", "0", "2"]),
        ({"flip_mode": "sometimes"}, ["flip_mode", "never", "always", "endgame"]),
        ({"flip_mode": "ALWAYS"}, ["flip_mode", "never", "always", "endgame"]),
        ({"jokers": "wild"}, ["jokers", "none", "standard", "lucky_swing", "eagle_eye"]),
        ({"jokers": True}, ["jokers", "none", "standard", "lucky_swing", "eagle_eye"]),
        ({"decks": 0}, ["decks", "1", "3"]),
        ({"decks": 4}, ["decks", "1", "3"]),
        ({"max_turns": 9}, ["max_turns", "10", "500"]),
        ({"max_turns": 501}, ["max_turns", "10", "500"]),
        *[({name: 1}, [name, "True or False"]) for name in BOOL_RULES],
        *[({name: "yes"}, [name, "True or False"]) for name in BOOL_RULES],
        ({"use_jokers": "yes"}, ["use_jokers", "True or False"]),
        ({"lucky_swing": 1}, ["lucky_swing", "True or False"]),
        ({"eagle_eye": None, "use_jokers": 0}, ["use_jokers", "True or False"]),
        ({"flip_on_discard": "on"}, ["flip_on_discard", "True or False"]),
    ],
)
def test_bad_option_values_are_a_value_error_naming_option_and_allowed_values(kwargs, words):
    with pytest.raises(ValueError) as exc:
        Rules(**kwargs)
    for word in words:
        assert word in str(exc.value)


def test_from_dict_rejects_unknown_options_and_non_mappings():
    with pytest.raises(ValueError, match="unknown rule option.*colour.*allowed"):
        Rules.from_dict({"colour": "red"})
    with pytest.raises(ValueError, match="mapping"):
        Rules.from_dict(["rounds", 3])
    assert Rules.from_dict(Rules(rounds=3).to_dict()) == Rules(rounds=3)


# ------------------------------------------------------------------ seed spellings
def test_use_jokers_alone_means_standard(clean_env):
    assert Rules(use_jokers=True).jokers == "standard"
    assert Rules(use_jokers=False).jokers == "none"


def test_use_jokers_with_lucky_swing_means_lucky_swing():
    assert Rules(use_jokers=True, lucky_swing=True).jokers == "lucky_swing"
    assert Rules(lucky_swing=True).jokers == "lucky_swing"


def test_use_jokers_with_eagle_eye_means_eagle_eye():
    assert Rules(use_jokers=True, eagle_eye=True).jokers == "eagle_eye"
    assert Rules(eagle_eye=True).jokers == "eagle_eye"


def test_lucky_swing_and_eagle_eye_together_is_a_clear_error():
    with pytest.raises(ValueError, match="lucky_swing and eagle_eye"):
        Rules(use_jokers=True, lucky_swing=True, eagle_eye=True)


def test_seed_spellings_that_contradict_are_a_clear_error():
    with pytest.raises(ValueError, match="use_jokers=False"):
        Rules(use_jokers=False, eagle_eye=True)
    with pytest.raises(ValueError, match="contradicts"):
        Rules(jokers="standard", lucky_swing=True)
    with pytest.raises(ValueError, match="contradicts"):
        Rules(flip_on_discard=True, flip_mode="endgame")
    with pytest.raises(ValueError, match="flip_on_discard=False contradicts"):
        Rules(flip_on_discard=False, flip_mode="always")
    assert Rules(jokers="eagle_eye", use_jokers=True, eagle_eye=True).jokers == "eagle_eye"
    assert Rules(flip_on_discard=False, flip_mode="endgame").flip_mode == "endgame"  # an optional flip


def test_flip_on_discard_means_flip_mode_always(clean_env):
    assert Rules(flip_on_discard=True).flip_mode == "always"
    assert Rules(flip_on_discard=False).flip_mode == "never"


@pytest.mark.parametrize("mode", JOKER_MODES)
def test_every_joker_mode_is_accepted(mode):
    assert Rules(jokers=mode).jokers == mode


@pytest.mark.parametrize("mode", FLIP_MODES)
def test_every_flip_mode_is_accepted(mode):
    assert Rules(flip_mode=mode).flip_mode == mode


# ------------------------------------------------------------------ environment defaults
def test_default_rounds_from_environment(clean_env):
    clean_env.setenv("DEFAULT_ROUNDS", "18")
    assert Rules().rounds == 18
    assert Rules(rounds=3).rounds == 3  # explicit wins


def test_default_initial_flips_from_environment(clean_env):
    clean_env.setenv("DEFAULT_INITIAL_FLIPS", "0")
    assert Rules().initial_flips == 0
    assert Rules(initial_flips=1).initial_flips == 1


@pytest.mark.parametrize("raw, mode", [("true", "standard"), ("1", "standard"), ("false", "none"),
                                       ("eagle_eye", "eagle_eye"), ("Lucky_Swing", "lucky_swing")])
def test_default_use_jokers_from_environment(clean_env, raw, mode):
    clean_env.setenv("DEFAULT_USE_JOKERS", raw)
    assert Rules().jokers == mode


def test_explicit_jokers_win_over_the_environment(clean_env):
    clean_env.setenv("DEFAULT_USE_JOKERS", "true")
    assert Rules(jokers="none").jokers == "none"
    assert Rules(use_jokers=False).jokers == "none"
    assert Rules(eagle_eye=True).jokers == "eagle_eye"


def test_default_flip_mode_from_environment(clean_env):
    clean_env.setenv("DEFAULT_FLIP_MODE", "endgame")
    assert Rules().flip_mode == "endgame"
    assert Rules(flip_mode="never").flip_mode == "never"
    assert Rules(flip_on_discard=True).flip_mode == "always"
    assert Rules(flip_on_discard=False).flip_mode == "never"


@pytest.mark.parametrize(
    "var, raw",
    [("DEFAULT_ROUNDS", "nine"), ("DEFAULT_ROUNDS", "0"), ("DEFAULT_ROUNDS", "30"),
     ("DEFAULT_INITIAL_FLIPS", "3"), ("DEFAULT_INITIAL_FLIPS", "two"),
     ("DEFAULT_USE_JOKERS", "maybe"), ("DEFAULT_FLIP_MODE", "sometimes")],
)
def test_bad_environment_value_names_the_variable(clean_env, var, raw):
    clean_env.setenv(var, raw)
    with pytest.raises(ValueError, match=var):
        Rules()


def test_bad_environment_value_is_ignored_when_the_option_is_explicit(clean_env):
    clean_env.setenv("DEFAULT_ROUNDS", "nine")
    clean_env.setenv("DEFAULT_FLIP_MODE", "sometimes")
    clean_env.setenv("DEFAULT_INITIAL_FLIPS", "x")
    clean_env.setenv("DEFAULT_USE_JOKERS", "x")
    assert Rules(rounds=2, flip_mode="always", initial_flips=1, jokers="none").rounds == 2


def test_describe_names_the_active_options():
    text = Rules(rounds=1, jokers="eagle_eye", wolfpack=True, decks=2).describe()
    for part in ("1 hole", "eagle_eye", "wolfpack", "2 decks"):
        assert part in text


# ------------------------------------------------------------------ the declaration
from golflab.rules import ALIASES, OPTIONS, options_affecting  # noqa: E402


@pytest.mark.parametrize("kwargs, unknown", [({"players": 1}, "players"), ({"colour": "red", "rounds": 3}, "colour"),
                                             ({"Wolfpack": True}, "Wolfpack")])
def test_an_unknown_option_is_a_value_error_naming_it_and_listing_the_valid_ones(kwargs, unknown):
    with pytest.raises(ValueError) as exc:
        Rules(**kwargs)
    text = str(exc.value)
    assert unknown in text and "allowed" in text
    for name in [o.name for o in OPTIONS] + list(ALIASES):
        assert name in text


def test_fields_help_and_defaults_are_generated_from_the_declaration(clean_env):
    names = [o.name for o in OPTIONS]
    assert list(Rules().to_dict()) == names
    assert list(RULE_HELP) == names and all(RULE_HELP[o.name] == o.help for o in OPTIONS)
    assert Rules().to_dict() == {o.name: o.default for o in OPTIONS}
    assert BOOL_RULES == tuple(o.name for o in OPTIONS if o.kind is bool)


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_every_option_round_trips_and_shows_in_changes(option, clean_env):
    if option.kind is bool:
        value = True
    elif option.kind is int:
        value = option.bounds[0] if option.bounds[0] != option.default else option.bounds[1]
    else:
        value = option.choices[-1]
    rules = Rules(**{option.name: value})
    assert getattr(rules, option.name) == value
    assert rules.changes() == {option.name: value}
    assert Rules.from_dict(rules.to_dict()) == rules
    assert option.name in repr(rules)


@pytest.mark.parametrize("option", [o for o in OPTIONS if o.env], ids=lambda o: o.name)
@pytest.mark.parametrize("raw", ["abc", "-1", "99"])
def test_every_bad_environment_default_names_the_variable_and_what_is_allowed(option, raw, clean_env):
    clean_env.setenv(option.env, raw)
    with pytest.raises(ValueError) as exc:
        Rules()
    assert option.env in str(exc.value) and option.allowed() in str(exc.value)


def test_options_say_what_they_affect():
    assert "wolfpack" in options_affecting("hand_bonus") and "four_of_a_kind" in options_affecting("hand_bonus")
    assert set(options_affecting("card_values")) == {"jokers", "super_kings", "ten_penny", "one_eyed_jacks"}
    with pytest.raises(ValueError, match="unknown part"):
        options_affecting("colour")


def test_one_eyed_jacks_values_and_tiers_follow_the_card():
    rules = Rules(one_eyed_jacks=True)
    assert card_value("JH", rules) == 0 and card_value("JS", rules) == 0
    assert card_value("JD", rules) == 10 and card_value("JC", rules) == 10
    assert card_tier("JH", rules) == "Good" and card_tier("JD", rules) == "Terrible"
    assert card_value("JH", Rules()) == 10
