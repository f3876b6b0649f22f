"""House rules: a frozen, validated ``Rules`` value, card values and value tiers.

Defaults come from the rules spec (section 8). ``DEFAULT_ROUNDS``,
``DEFAULT_INITIAL_FLIPS``, ``DEFAULT_USE_JOKERS`` and ``DEFAULT_FLIP_MODE`` in the
environment override the built-in defaults; explicit arguments override both.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any

from .cards import Card

FLIP_MODES = ("never", "always", "endgame")
JOKER_MODES = ("none", "standard", "lucky_swing", "eagle_eye")
BOOL_RULES = (
    "super_kings",
    "ten_penny",
    "knock_penalty",
    "knock_bonus",
    "underdog_bonus",
    "tied_shame",
    "blackjack",
    "wolfpack",
)
#: One line per option, for rule bars and new-game panels.
RULE_HELP = {
    "rounds": "Number of holes in the game (1-18).",
    "initial_flips": "Cards each player turns face up before the first turn (0-2).",
    "flip_mode": "never: no flip after discarding; always: flip one card after every discard; "
    "endgame: may flip once anyone has at most one face-down card.",
    "jokers": "none; standard (-2 each, a pair scores 0); lucky_swing (a single -5 joker); "
    "eagle_eye (+2 each, a pair scores -4).",
    "super_kings": "Kings are worth -2 instead of 0.",
    "ten_penny": "Tens are worth 1 instead of 10.",
    "knock_penalty": "The player who goes out gets +10 unless they are lowest (ties are safe).",
    "knock_bonus": "The player who goes out gets -5.",
    "underdog_bonus": "The lowest score of the hole gets -3 (ties included).",
    "tied_shame": "Players whose scores tie with another player's get +5.",
    "blackjack": "A hand of exactly 21 scores 0.",
    "wolfpack": "Two columns of paired jacks give a further -5.",
    "decks": "Decks in play: 1-3, or automatic (1 for up to 4 players, 2 for 5-6).",
    "max_turns": "Turns per player before a stalled hole ends (10-500).",
}
TIERS = ("Excellent", "Good", "Decent", "Neutral", "Bad", "Terrible")
TIER_ADVICE = {
    "Excellent": "always keep, never pair",
    "Good": "safe, good for pairing",
    "Decent": "low risk",
    "Neutral": "acceptable",
    "Bad": "replace when possible",
    "Terrible": "replace first",
}

_ENV = {
    "rounds": "DEFAULT_ROUNDS",
    "initial_flips": "DEFAULT_INITIAL_FLIPS",
    "jokers": "DEFAULT_USE_JOKERS",
    "flip_mode": "DEFAULT_FLIP_MODE",
}
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _env_default(name: str, builtin: Any) -> Any:
    var = _ENV[name]
    raw = os.environ.get(var)
    if raw is None:
        return builtin
    text = raw.strip().lower()
    if name in ("rounds", "initial_flips"):
        lo, hi = (1, 18) if name == "rounds" else (0, 2)
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not lo <= value <= hi:
            raise ValueError(f"environment variable {var}={raw!r} is not allowed: use a whole number from {lo} to {hi}")
        return value
    if name == "jokers":
        if text in _TRUE:
            return "standard"
        if text in _FALSE:
            return "none"
        if text in JOKER_MODES:
            return text
        raise ValueError(
            f"environment variable {var}={raw!r} is not allowed: use true/false or one of "
            + ", ".join(JOKER_MODES)
        )
    if text not in FLIP_MODES:
        raise ValueError(f"environment variable {var}={raw!r} is not allowed: use one of " + ", ".join(FLIP_MODES))
    return text


def _check_int(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be from {lo} to {hi}, got {value}")
    return value


@dataclass(frozen=True, init=False)
class Rules:
    """The options of one game (spec section 8). Frozen and validated at creation.

    Besides the option names, the seed's spellings are accepted: ``use_jokers``,
    ``lucky_swing``, ``eagle_eye`` (joker modes) and ``flip_on_discard`` (True means
    ``always``; False means ``never`` unless ``flip_mode`` says ``endgame``).
    """

    rounds: int
    initial_flips: int
    flip_mode: str
    jokers: str
    super_kings: bool
    ten_penny: bool
    knock_penalty: bool
    knock_bonus: bool
    underdog_bonus: bool
    tied_shame: bool
    blackjack: bool
    wolfpack: bool
    decks: int | None
    max_turns: int

    def __init__(
        self,
        rounds: int | None = None,
        initial_flips: int | None = None,
        flip_mode: str | None = None,
        jokers: str | None = None,
        super_kings: bool = False,
        ten_penny: bool = False,
        knock_penalty: bool = False,
        knock_bonus: bool = False,
        underdog_bonus: bool = False,
        tied_shame: bool = False,
        blackjack: bool = False,
        wolfpack: bool = False,
        decks: int | None = None,
        max_turns: int = 50,
        *,
        use_jokers: bool | None = None,
        lucky_swing: bool | None = None,
        eagle_eye: bool | None = None,
        flip_on_discard: bool | None = None,
    ) -> None:
        jokers = _joker_mode(jokers, use_jokers, lucky_swing, eagle_eye)
        if flip_on_discard is not None:
            if not isinstance(flip_on_discard, bool):
                raise ValueError(f"flip_on_discard must be True or False, got {flip_on_discard!r}")
            if flip_on_discard:
                if flip_mode not in (None, "always"):
                    raise ValueError(
                        f"flip_on_discard=True means flip_mode='always', which contradicts flip_mode={flip_mode!r}"
                    )
                flip_mode = "always"
            elif flip_mode is None:
                flip_mode = "never"  # an explicit False wins over DEFAULT_FLIP_MODE
            elif flip_mode == "always":
                raise ValueError("flip_on_discard=False contradicts flip_mode='always' (a flip after every discard)")
        set_ = object.__setattr__
        set_(self, "rounds", _check_int("rounds", _env_default("rounds", 9) if rounds is None else rounds, 1, 18))
        set_(
            self,
            "initial_flips",
            _check_int(
                "initial_flips", _env_default("initial_flips", 2) if initial_flips is None else initial_flips, 0, 2
            ),
        )
        flip_mode = _env_default("flip_mode", "never") if flip_mode is None else flip_mode
        if flip_mode not in FLIP_MODES:
            raise ValueError(f"flip_mode must be one of {', '.join(FLIP_MODES)}, got {flip_mode!r}")
        set_(self, "flip_mode", flip_mode)
        if jokers not in JOKER_MODES:
            raise ValueError(f"jokers must be one of {', '.join(JOKER_MODES)}, got {jokers!r}")
        set_(self, "jokers", jokers)
        for name, value in zip(
            BOOL_RULES,
            (super_kings, ten_penny, knock_penalty, knock_bonus, underdog_bonus, tied_shame, blackjack, wolfpack),
        ):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, got {value!r}")
            set_(self, name, value)
        set_(self, "decks", None if decks is None else _check_int("decks", decks, 1, 3))
        set_(self, "max_turns", _check_int("max_turns", max_turns, 10, 500))
        set_(self, "_values", _value_table(self))

    # -- conveniences -------------------------------------------------------------
    def replace(self, **changes: Any) -> "Rules":
        """A copy with some options changed (validated like the constructor)."""
        return Rules(**{**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """The options as a plain dict (JSON-ready); ``Rules(**d)`` rebuilds it."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a mapping of option names to values, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)} | {"use_jokers", "lucky_swing", "eagle_eye", "flip_on_discard"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule option(s) {', '.join(unknown)}; allowed: {', '.join(sorted(known))}")
        return cls(**data)

    def decks_for(self, players: int) -> int:
        """Decks used with this many players (automatic: 1 for 2-4, 2 for 5-6)."""
        if self.decks is not None:
            return self.decks
        return 1 if players <= 4 else 2

    def changes(self) -> dict[str, Any]:
        """The options that differ from the built-in defaults."""
        base = {
            "rounds": 9, "initial_flips": 2, "flip_mode": "never", "jokers": "none",
            "decks": None, "max_turns": 50, **{b: False for b in BOOL_RULES},
        }
        return {k: v for k, v in self.to_dict().items() if base[k] != v}

    def describe(self) -> str:
        """A one-line summary, e.g. ``9 holes · 2 initial flips · flip: never · no jokers``."""
        parts = [f"{self.rounds} hole{'s' if self.rounds != 1 else ''}", f"{self.initial_flips} initial flips",
                 f"flip: {self.flip_mode}", "no jokers" if self.jokers == "none" else f"jokers: {self.jokers}"]
        parts += [b.replace("_", " ") for b in BOOL_RULES if getattr(self, b)]
        if self.decks is not None:
            parts.append(f"{self.decks} deck{'s' if self.decks > 1 else ''}")
        if self.max_turns != 50:
            parts.append(f"max {self.max_turns} turns")
        return " \u00b7 ".join(parts)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.changes().items())
        return f"Rules({inner})"


def _joker_mode(jokers, use_jokers, lucky_swing, eagle_eye) -> str:
    for name, value in (("use_jokers", use_jokers), ("lucky_swing", lucky_swing), ("eagle_eye", eagle_eye)):
        if value is not None and not isinstance(value, bool):
            raise ValueError(f"{name} must be True or False, got {value!r}")
    if lucky_swing and eagle_eye:
        raise ValueError("lucky_swing and eagle_eye cannot both be on: choose one joker mode")
    seed_given = any(v is not None for v in (use_jokers, lucky_swing, eagle_eye))
    if not seed_given:
        return _env_default("jokers", "none") if jokers is None else jokers
    if use_jokers is False and (lucky_swing or eagle_eye):
        raise ValueError("use_jokers=False contradicts lucky_swing/eagle_eye=True: those modes need jokers")
    if lucky_swing:
        mode = "lucky_swing"
    elif eagle_eye:
        mode = "eagle_eye"
    elif use_jokers:
        mode = "standard"
    else:
        mode = "none"
    if jokers is not None and jokers != mode:
        raise ValueError(f"jokers={jokers!r} contradicts the seed options, which mean jokers={mode!r}")
    return mode


_JOKER_VALUES = {"none": -2, "standard": -2, "lucky_swing": -5, "eagle_eye": 2}
_BASE_VALUES = {"A": 1, "2": -2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "T": 10, "J": 10, "Q": 10, "K": 0}
_STANDARD = {**_BASE_VALUES, "JK": -2}


def _value_table(rules: Rules) -> dict[str, int]:
    values = dict(_BASE_VALUES)
    if rules.ten_penny:
        values["T"] = 1
    if rules.super_kings:
        values["K"] = -2
    values["JK"] = _JOKER_VALUES[rules.jokers]
    return values


def rank_value(rank: str, rules: Rules | None = None) -> int:
    """Points of a rank (``"K"``, ``"JK"``...) under ``rules``."""
    table = _STANDARD if rules is None else rules.__dict__["_values"]
    return table[rank]


def card_value(card: "Card | str", rules: Rules | None = None) -> int:
    """Points of one unpaired card under ``rules`` (spec section 2).

    A joker under ``jokers="none"`` (only reachable through hand-built hands) counts
    as a standard joker, -2.
    """
    return rank_value(Card.parse(card).rank, rules)


def value_tier(value: int) -> str:
    """The teaching tier of an effective card value (spec section 2)."""
    if value <= -2:
        return "Excellent"
    if value == 0:
        return "Good"
    if value == 1:
        return "Decent"
    if value <= 5:
        return "Neutral"
    if value <= 7:
        return "Bad"
    return "Terrible"


def card_tier(card: "Card | str", rules: Rules | None = None) -> str:
    """The tier of a card under ``rules``: ``Excellent`` ... ``Terrible``."""
    return value_tier(card_value(card, rules))
