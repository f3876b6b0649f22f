"""House rules: one declaration per option, a frozen validated ``Rules``, card values and tiers.

``OPTIONS`` declares every option once (name, type, choices or bounds, default,
environment variable, the seed's alias spellings, a one-line help and what it affects);
the ``Rules`` fields, their validation, ``RULE_HELP``, ``BOOL_RULES``, ``changes()`` and
``describe()`` are generated from it, and so are the rule forms and explorers' option lists.

Defaults come from the rules spec (section 8). ``DEFAULT_ROUNDS``,
``DEFAULT_INITIAL_FLIPS``, ``DEFAULT_USE_JOKERS`` and ``DEFAULT_FLIP_MODE`` in the
environment override the built-in defaults; explicit arguments override both. A variable
set to an empty (or blank) value counts as unset, for every one of them: the built-in
default applies.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .cards import JOKER_RANK, Card

FLIP_MODES = ("never", "always", "endgame")
JOKER_MODES = ("none", "standard", "lucky_swing", "eagle_eye")

#: What an option affects (``RuleOption.affects``): the game's shape, the deal, a turn's
#: moves, card values, pair points, hand bonuses, round adjustments.
AFFECTS = ("game", "deal", "turn", "card_values", "pairs", "hand_bonus", "round")


@dataclass(frozen=True)
class RuleOption:
    """The declaration of one rule option.

    ``kind`` is ``bool``, ``int`` (with ``bounds``) or ``str`` (with ``choices``);
    ``optional``: None is allowed (it means ``none_label``, e.g. automatic decks);
    ``env``: the environment variable overriding the default (``env_aliases`` maps extra
    spellings accepted there); ``aliases``: the seed's spellings that map onto it;
    ``affects``: which parts of the game it changes (``AFFECTS``); ``since``: the first
    save version (``golflab.savefile``, whose ``VERSION`` is the newest ``since``) that always
    holds it (an older save without it loads with the default): a new option is declared
    ``since=savefile.VERSION + 1``. ``choice_help``: a few words on each of the ``choices``, in
    order; the help then reads ``choice: words; ...`` (``help`` left empty) and a form shows
    each choice by its ``choice_label`` with ``help_in_words``.
    """

    name: str
    kind: type
    default: Any
    help: str
    affects: tuple[str, ...]
    choices: tuple = ()
    bounds: tuple[int, int] | None = None
    optional: bool = False
    none_label: str = ""
    env: str | None = None
    env_aliases: tuple[tuple[str, Any], ...] = ()
    aliases: tuple[str, ...] = ()
    since: int = 1
    title: str = ""
    choice_help: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.choice_help and not self.help:
            object.__setattr__(self, "help", "; ".join(f"{c}: {h}" for c, h in zip(self.choices, self.choice_help))
                               + ".")

    @property
    def label(self) -> str:
        """A form label: ``title`` if given, else the name in words (``"Knock early"``)."""
        return self.title or self.name.replace("_", " ").capitalize()

    @staticmethod
    def choice_label(choice: str) -> str:
        """A choice in words, as a form shows it: ``lucky_swing`` -> ``Lucky swing``."""
        return choice.replace("_", " ").capitalize()

    def help_in_words(self) -> str:
        """The help as a form shows it: a sentence per choice, by its label (``Lucky swing: a single -5 joker.``)."""
        if not self.choice_help:
            return self.help
        return " ".join(f"{self.choice_label(c)}: {h}." for c, h in zip(self.choices, self.choice_help))

    def allowed(self) -> str:
        """What the option accepts, in words (for error messages)."""
        if self.kind is bool:
            return "True or False"
        if self.kind is int:
            lo, hi = self.bounds
            return f"a whole number from {lo} to {hi}" + (f" or None ({self.none_label})" if self.optional else "")
        return "one of " + ", ".join(self.choices)

    def check(self, value: Any) -> Any:
        """``value`` if it is allowed, else a ValueError naming the option and what is allowed."""
        if value is None and self.optional:
            return None
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be True or False, got {value!r}")
        elif self.kind is int:
            lo, hi = self.bounds
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{self.name} must be a whole number from {lo} to {hi}, got {value!r}")
            if not lo <= value <= hi:
                raise ValueError(f"{self.name} must be from {lo} to {hi}, got {value}")
        elif not isinstance(value, str) or value not in self.choices:
            raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, got {value!r}")
        return value

    def from_env(self) -> Any:
        """The default, overridden by ``self.env`` when set to a non-blank value (a blank one
        counts as unset; a bad one is a ValueError naming it)."""
        raw = os.environ.get(self.env) if self.env else None
        if raw is None or not raw.strip():
            return self.default
        text = raw.strip().lower()
        aliases = dict(self.env_aliases)
        if text in aliases:
            return aliases[text]
        try:
            value = int(text) if self.kind is int else text
            return self.check(value)
        except ValueError:
            extra = list(aliases)
            also = f" ({'/'.join(extra)} also accepted)" if extra else ""
            raise ValueError(f"environment variable {self.env}={raw!r} is not allowed: use "
                             f"{self.allowed()}{also}") from None


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _flag(name: str, help: str, *affects: str, since: int = 1) -> RuleOption:
    return RuleOption(name, bool, False, help, affects, since=since)


#: Every rule option, in the order of the spec's options summary (section 8 and 12).
OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("rounds", int, 9, "Number of holes in the game (1-18).", ("game",), bounds=(1, 18),
           env="DEFAULT_ROUNDS", title="Holes"),
    RuleOption("initial_flips", int, 2, "Cards each player turns face up before the first turn (0-2).", ("deal",),
           bounds=(0, 2), env="DEFAULT_INITIAL_FLIPS"),
    RuleOption("flip_mode", str, "never", "", ("turn",), choices=FLIP_MODES,
           choice_help=("no flip after discarding", "flip one card after every discard",
                        "may flip once anyone has at most one face-down card"),
           env="DEFAULT_FLIP_MODE", aliases=("flip_on_discard",)),
    RuleOption("jokers", str, "none", "", ("deal", "card_values", "pairs"), choices=JOKER_MODES,
           choice_help=("no jokers", "two jokers per deck, -2 each, a pair scores 0", "a single -5 joker",
                        "two jokers per deck, +2 each, a pair scores -4"),
           env="DEFAULT_USE_JOKERS", env_aliases=(*((t, "standard") for t in _TRUE), *((f, "none") for f in _FALSE)),
           aliases=("use_jokers", "lucky_swing", "eagle_eye")),
    _flag("super_kings", "Kings are worth -2 instead of 0.", "card_values"),
    _flag("ten_penny", "Tens are worth 1 instead of 10.", "card_values"),
    _flag("knock_penalty", "The player who goes out gets +10 unless they are lowest (ties are safe).", "round"),
    _flag("knock_bonus", "The player who goes out gets -5.", "round"),
    _flag("underdog_bonus", "The lowest score of the hole gets -3 (ties included).", "round"),
    _flag("tied_shame", "Players whose scores tie with another player's get +5.", "round"),
    _flag("blackjack", "A hand of exactly 21 scores 0.", "round"),
    _flag("wolfpack", "Two columns of paired jacks give a further -5.", "hand_bonus"),
    _flag("one_eyed_jacks", "The one-eyed jacks (hearts and spades) are worth 0 instead of 10.", "card_values",
          since=2),
    _flag("negative_pairs_keep_value", "A pair of negative cards keeps its sum (two 2s score -4, not 0).", "pairs",
          since=2),
    _flag("four_of_a_kind", "Two paired columns of one rank (four of a kind) give a further -20.", "hand_bonus",
          since=2),
    _flag("flip_as_action", "Instead of drawing, a player may flip one face-down card as the whole turn.", "turn",
          since=2),
    _flag("knock_early", "Instead of drawing, a player with 1-2 face-down cards may turn them all up: a knock.",
          "turn", since=2),
    RuleOption("decks", int, None, "Decks in play: 1-3, or automatic (1 for up to 4 players, 2 for 5-6).", ("deal",),
           bounds=(1, 3), optional=True, none_label="automatic"),
    RuleOption("max_turns", int, 50, "Turns per player before a stalled hole ends (10-500).", ("game",),
           bounds=(10, 500)),
)
OPTION = {o.name: o for o in OPTIONS}
BOOL_RULES = tuple(o.name for o in OPTIONS if o.kind is bool)
#: One line per option, for rule bars and new-game panels.
RULE_HELP = {o.name: o.help for o in OPTIONS}
#: The seed's spellings accepted by ``Rules(...)`` besides the option names.
ALIASES = tuple(a for o in OPTIONS for a in o.aliases)
DEFAULTS = {o.name: o.default for o in OPTIONS}


def options_affecting(*parts: str) -> tuple[str, ...]:
    """The names of the options that affect any of ``parts`` (see ``AFFECTS``), in order."""
    bad = [p for p in parts if p not in AFFECTS]
    if bad:
        raise ValueError(f"unknown part(s) {', '.join(bad)}: allowed {', '.join(AFFECTS)}")
    return tuple(o.name for o in OPTIONS if set(o.affects) & set(parts))


TIERS = ("Excellent", "Good", "Decent", "Neutral", "Bad", "Terrible")
TIER_ADVICE = {
    "Excellent": "always keep, never pair",
    "Good": "safe, good for pairing",
    "Decent": "low risk",
    "Neutral": "acceptable",
    "Bad": "replace when possible",
    "Terrible": "replace first",
}


def _unknown(names, what: str = "rule option") -> ValueError:
    allowed = ", ".join([*OPTION, *ALIASES])
    return ValueError(f"unknown {what}(s) {', '.join(sorted(names))}; allowed: {allowed}")


@dataclass(frozen=True, init=False)
class Rules:
    """The options of one game (spec sections 8 and 12). Frozen and validated at creation.

    ``Rules(rounds=3, wolfpack=True)``: every option by keyword (``OPTIONS``). Besides
    the option names, the seed's spellings are accepted: ``use_jokers``, ``lucky_swing``,
    ``eagle_eye`` (joker modes) and ``flip_on_discard`` (True means ``always``; False
    means ``never`` unless ``flip_mode`` says ``endgame``). An unknown name is a
    ValueError listing the valid ones.
    """

    __annotations__ = {o.name: (o.kind.__name__ + (" | None" if o.optional else "")) for o in OPTIONS}

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(OPTION) - set(ALIASES)
        if unknown:
            raise _unknown(unknown)
        seed = {a: options.pop(a) for a in ALIASES if a in options}
        options["jokers"] = _joker_mode(options.get("jokers"), seed.get("use_jokers"), seed.get("lucky_swing"),
                                        seed.get("eagle_eye"))
        options["flip_mode"] = _flip_mode(options.get("flip_mode"), seed.get("flip_on_discard"))
        set_ = object.__setattr__
        for opt in OPTIONS:
            value = options.get(opt.name)
            if opt.name not in options or (value is None and opt.env):
                value = opt.from_env()  # given as None: the default, like leaving it out
            set_(self, opt.name, opt.check(value))
        set_(self, "_values", _value_table(self))

    # -- conveniences -------------------------------------------------------------
    def replace(self, **changes: Any) -> "Rules":
        """A copy with some options changed (validated like the constructor)."""
        return Rules(**{**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """The options as a plain dict (JSON-ready); ``Rules(**d)`` rebuilds it."""
        return {o.name: getattr(self, o.name) for o in OPTIONS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a mapping of option names to values, got {type(data).__name__}")
        return cls(**data)

    def decks_for(self, players: int) -> int:
        """Decks used with this many players (automatic: 1 for 2-4, 2 for 5-6)."""
        if self.decks is not None:
            return self.decks
        return 1 if players <= 4 else 2

    def changes(self) -> dict[str, Any]:
        """The options that differ from the built-in defaults."""
        return {k: v for k, v in self.to_dict().items() if DEFAULTS[k] != v}

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


def _flip_mode(flip_mode, flip_on_discard) -> "str | None":
    if flip_on_discard is None:
        return flip_mode
    if not isinstance(flip_on_discard, bool):
        raise ValueError(f"flip_on_discard must be True or False, got {flip_on_discard!r}")
    if flip_on_discard:
        if flip_mode not in (None, "always"):
            raise ValueError(
                f"flip_on_discard=True means flip_mode='always', which contradicts flip_mode={flip_mode!r}")
        return "always"
    if flip_mode is None:
        return "never"  # an explicit False wins over DEFAULT_FLIP_MODE
    if flip_mode == "always":
        raise ValueError("flip_on_discard=False contradicts flip_mode='always' (a flip after every discard)")
    return flip_mode


def _joker_mode(jokers, use_jokers, lucky_swing, eagle_eye) -> "str | None":
    for name, value in (("use_jokers", use_jokers), ("lucky_swing", lucky_swing), ("eagle_eye", eagle_eye)):
        if value is not None and not isinstance(value, bool):
            raise ValueError(f"{name} must be True or False, got {value!r}")
    if lucky_swing and eagle_eye:
        raise ValueError("lucky_swing and eagle_eye cannot both be on: choose one joker mode")
    if all(v is None for v in (use_jokers, lucky_swing, eagle_eye)):
        return jokers
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


#: The kind of a one-eyed jack (``JH``, ``JS``) under ``one_eyed_jacks``: a jack (it pairs
#: with any jack) whose value differs from the other jacks'. Every other card's kind is its rank.
ONE_EYED = "J1"
ONE_EYED_SUITS = frozenset("HS")
_JOKER_VALUES = {"none": -2, "standard": -2, "lucky_swing": -5, "eagle_eye": 2}
_BASE_VALUES = {"A": 1, "2": -2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "T": 10, "J": 10, "Q": 10, "K": 0}
_STANDARD = {**_BASE_VALUES, JOKER_RANK: -2, ONE_EYED: 10}


def _value_table(rules: Rules) -> dict[str, int]:
    values = dict(_STANDARD)
    if rules.ten_penny:
        values["T"] = 1
    if rules.super_kings:
        values["K"] = -2
    if rules.one_eyed_jacks:
        values[ONE_EYED] = 0
    values[JOKER_RANK] = _JOKER_VALUES[rules.jokers]
    return values


def card_kind(card: "Card | str", rules: Rules | None = None) -> str:
    """What a card counts as under ``rules``: its rank, or ``ONE_EYED`` for ``JH``/``JS`` under
    ``one_eyed_jacks`` (cards of one kind have one value; cards of one rank pair)."""
    card = Card.parse(card)
    if card.rank == "J" and rules is not None and rules.one_eyed_jacks and card.suit in ONE_EYED_SUITS:
        return ONE_EYED
    return card.rank


def rank_value(rank: str, rules: Rules | None = None) -> int:
    """Points of a rank or kind (``"K"``, ``"JK"``, ``ONE_EYED``...) under ``rules``.

    ``"J"`` is a jack that is not one-eyed; use ``card_value`` for a card.
    """
    table = _STANDARD if rules is None else rules.__dict__["_values"]
    return table[rank]


def card_value(card: "Card | str", rules: Rules | None = None) -> int:
    """Points of one unpaired card under ``rules`` (spec sections 2 and 12).

    A joker under ``jokers="none"`` (only reachable through hand-built hands) counts
    as a standard joker, -2.
    """
    return rank_value(card_kind(card, rules), rules)


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
    """The tier of a card under ``rules``: ``Excellent`` ... ``Terrible`` (by card: a one-eyed
    jack's tier differs from the other jacks' under ``one_eyed_jacks``)."""
    return value_tier(card_value(card, rules))
