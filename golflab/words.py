"""Plain words for everything a learner reads: positions as the board names them, card
names, articles, moves, grades and values.

No notation (``swap 3``), no position numbers, no single-letter ranks: those stay in the
*Details* a learner may open (``details_rows``). Every sentence is short (at most
``MAX_WORDS`` words). No Jupyter imports: widgets and notebooks call these.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .actions import Action
from .cards import Card
from .game import Observation, Phase
from .rules import OPTIONS, Rules, card_value

__all__ = ["BETTER", "LOSS_DEFINITION", "MAX_WORDS", "POSITIONS", "RULES", "card_name", "column", "describe",
           "details_rows", "grade_text", "hole_over", "loss_words", "move", "points", "position", "rank_name",
           "rank_label", "rule_for", "sentences", "subject_verb", "with_article"]

MAX_WORDS = 25
POSITIONS = ("top left", "top middle", "top right", "bottom left", "bottom middle", "bottom right")
COLUMNS = ("left column", "middle column", "right column")
RANK_NAMES = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "JK": "joker"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
BETTER = "Better: "
LOSS_DEFINITION = ("Points lost compared with the best move: how many more points you can expect at the end of "
                   "the hole, from simulated play-outs (lower is better; \u00b1 is one standard error).")

#: The rule each of the spec's named cases breaks (golf-rules.md section 11), one short sentence.
RULES = {
    "discarded_jokers": "Keep jokers: never throw one away.",
    "discarded_twos": "Keep 2s: a 2 is worth minus 2 points.",
    "took_bad_card_without_pair": "Take a 10-point card only when it completes a pair.",
    "paired_negative_cards": "Never pair cards worth less than nothing: the pair scores 0.",
    "discarded_kings": "Keep kings: a king is a safe 0.",
    "swapped_good_for_bad": "Never swap a good card for a worse one.",
}


def position(pos: int) -> str:
    """``top left`` ... ``bottom right`` for grid index ``pos`` (0-5)."""
    if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos < 6:
        raise ValueError(f"a grid position is a whole number from 0 to 5, got {pos!r}")
    return POSITIONS[pos]


def column(pos: int) -> str:
    """``left column``, ``middle column`` or ``right column`` of grid index ``pos``."""
    return COLUMNS[POSITIONS.index(position(pos)) % 3]


def rank_name(rank: str) -> str:
    """``queen``, ``ten``, ``ace``, ``joker``; number ranks stay digits (``7``)."""
    return RANK_NAMES.get(rank, rank)


def card_name(card: Card, suit: bool = False) -> str:
    """``queen`` (``queen of hearts`` with ``suit``); a joker is ``joker``."""
    name = rank_name(card.rank)
    return f"{name} of {SUIT_NAMES[card.suit]}" if suit and card.suit in SUIT_NAMES else name


def _article(phrase: str) -> str:
    first = phrase.split()[0].lower() if phrase.split() else ""
    lead = re.match(r"[-\u2212]?(\d+)", first)
    if lead:
        digits = lead.group(1)
        if first.startswith(("-", "\u2212")):
            return "a"  # "a minus 2 ..." is read "a minus"
        return "an" if digits.startswith("8") or digits in ("11", "18") or (
            len(digits) in (5, 6) and digits[:2] in ("11", "18")) else "a"
    if first.startswith(("one", "uni", "use", "eu")):
        return "a"
    if first.startswith(("hour", "honest")):
        return "an"
    return "an" if first[:1] in "aeiou" else "a"


def with_article(phrase: str) -> str:
    """``an 8-point card``, ``an ace``, ``a 7``, ``a unique one``."""
    return f"{_article(phrase)} {phrase}"


def points(n: float) -> str:
    """``1 point``, ``3 points``, ``2.5 points``, ``-2 points``."""
    text = f"{n:g}" if isinstance(n, int) or float(n).is_integer() else f"{n:.1f}"
    return f"{text} point{'' if text in ('1', '-1') else 's'}"


def subject_verb(subject: str, verb: str) -> str:
    """``You win`` but ``Ann wins``; ``Ann and Ben win``; ``You hold`` but ``Ann holds``."""
    if subject == "You" or " and " in subject:
        return f"{subject} {verb}"
    return f"{subject} {verb}es" if verb.endswith(("s", "sh", "ch", "x")) else f"{subject} {verb}s"


def hole_over(players: Sequence[str], winners: Sequence[int], hole: int) -> str:
    """``Hole 1 is over: You win it.`` (``Ann and You win it.`` when shared)."""
    who = " and ".join(players[s] for s in winners)
    return f"Hole {hole} is over: {subject_verb(who, 'win')} it."


def _column_points(a: Card | None, b: Card | None, rules: Rules) -> int | None:
    if a is None or b is None:
        return None
    if a.rank == b.rank:
        return -4 if a.rank == "JK" and rules.jokers == "eagle_eye" else 0
    return card_value(a, rules) + card_value(b, rules)


def _point_card(card: Card, rules: Rules) -> str:
    """``queen (10 points)``."""
    return f"{card_name(card)} ({points(card_value(card, rules))})"


def move(obs: Observation, action: str | Action) -> str:
    """The move in words, as an instruction: ``draw from the deck``, ``put the queen at top left``."""
    act = Action.parse(action)
    if act.kind == "draw":
        return "draw from the deck"
    if act.kind == "take":
        top = obs.discard_top
        return f"take the {card_name(top)} from the discard pile" if top is not None else "take the discard"
    if act.kind == "swap":
        held = obs.drawn if obs.drawn is not None else obs.discard_top
        card = f"the {card_name(held)}" if held is not None else "your card"
        return f"put {card} at {position(act.pos)}"
    if act.kind == "discard":
        return f"discard the {card_name(obs.drawn)}" if obs.drawn is not None else "discard the drawn card"
    if act.kind == "flip":
        return f"turn up the card at {position(act.pos)}"
    if act.kind == "knock":
        return "knock: turn up your last face-down cards"
    return "skip the flip"


def describe(obs: Observation, action: str | Action) -> str:
    """One short sentence on what the move does now, for a hint's row."""
    act = Action.parse(action)
    rules, grid = obs.rules, obs.my_grid
    down = [i for i, c in enumerate(grid) if c is None]
    out = obs.phase is Phase.PLAYING and len(down) == 1
    if act.kind == "swap":
        held, pos = obs.drawn, act.pos
        old, partner = grid[pos], grid[(pos + 3) % 6]
        text = f"Put the {card_name(held)} at {position(pos)}"
        extra = []
        if partner is not None and partner.rank == held.rank:
            extra.append(f"it pairs your {card_name(partner)} in the {column(pos)}")
        if out and down == [pos]:
            extra.append("it takes you out")
        if old is None:
            return f"{text}, over a face-down card" + (f": {' and '.join(extra)}." if extra else ".")
        before = _column_points(old, partner, rules)
        after = _column_points(held, partner, rules)
        if before is None:
            before, after = card_value(old, rules), card_value(held, rules)
        saved = before - after
        change = ("no points change now" if saved == 0 else
                  f"it {'saves' if saved > 0 else 'costs'} {points(abs(saved))} now")
        return f"{text}, over your {card_name(old)}: {' and '.join([*extra, change])}."
    if act.kind == "discard":
        return f"Discard the {card_name(obs.drawn)} and keep your cards as they are."
    if act.kind == "draw":
        return "Draw an unknown card from the deck, then swap it in or discard it."
    if act.kind == "take":
        return f"Take the {_point_card(obs.discard_top, rules)} and swap it for one of your cards."
    if act.kind == "flip":
        return f"Turn up the card at {position(act.pos)}" + (": it takes you out." if down == [act.pos] and out
                                                           else ".")
    if act.kind == "knock":
        return f"Knock: turn up your last face-down card{'s' if len(down) != 1 else ''} and go out."
    return "Skip the flip and keep your face-down cards hidden."


def loss_words(loss: float) -> str:
    """``3.2 points lost compared with the best move``."""
    return f"{loss:.1f} points lost compared with the best move"


def rule_for(obs: Observation, action: str | Action, best: str | Action, case: str | None = None) -> str:
    """The rule the move broke, in one sentence: the spec's named case when there is one, else
    the rule of thumb the better move follows."""
    act, good = Action.parse(action), Action.parse(best)
    if case in RULES:
        return RULES[case]
    if case == "questionable_moves":
        if act.kind == "draw":
            return "Take a low card (3 to 5) from the discard pile when it helps."
        if act.kind == "discard":
            return "Swap in a 4, 5 or 6 rather than discard it when a swap gains points."
        return "Go out only with a low score, about 10 or less."
    grid, held = obs.my_grid, obs.drawn if obs.drawn is not None else obs.discard_top
    if good.kind == "swap" and held is not None:
        partner = grid[(good.pos + 3) % 6]
        if partner is not None and partner.rank == held.rank:
            return "Complete a pair when you can: a pair scores 0."
        up = [c for c in grid if c is not None]
        old = grid[good.pos]
        if old is not None and up and card_value(old, obs.rules) == max(card_value(c, obs.rules) for c in up):
            return "Replace your highest face-up card first."
        if old is None:
            return "A low card is safest over a face-down card."
        return "Swap a card for one worth fewer points."
    if good.kind == "take":
        return "Take the discard when it lowers your score."
    if good.kind == "draw":
        return "Leave a discard that does not help and draw instead."
    if good.kind == "discard":
        return "Discard a card that would not lower your score."
    if good.kind in ("knock", "flip") and act.kind not in ("knock", "flip"):
        return "Go out when you are confident your score is lowest."
    return "Pick the move that leaves you the fewest points."


def grade_text(obs: Observation, action: str | Action, best: str | Action, grade: str, loss: float,
               case: str | None = None) -> str:
    """The grade of one decision in plain words: the grade word, the points lost, the rule it
    broke and ONE ``Better: ...`` sentence (``Best move.`` when it was the best)."""
    act, good = Action.parse(action), Action.parse(best)
    if act == good or loss <= 0.05 and case is None:
        return f"{grade}: the best move. You chose to {move(obs, act)}."
    text = f"{grade}: {loss_words(loss)}. {rule_for(obs, act, good, case)}"
    if act != good:
        text += f" {BETTER}{move(obs, good)}."
    return text


def details_rows(options: Sequence[Any]) -> list[tuple[str, str, str]]:
    """The notation behind a hint, for *Details*: (move notation, value ± standard error, loss)."""
    if not options:
        return []
    best = options[0].value
    return [(o.action, f"{o.value:+.1f} \u00b1 {o.se:.1f}", f"{max(0.0, o.value - best):.1f}") for o in options]


def sentences(text: str) -> list[str]:
    """The sentences of plain ``text`` (split after . ! ? \u2026 followed by a space, and at line ends)."""
    return [s.strip() for s in re.split(r"(?<=[.!?\u2026])\s+|\n", text.strip()) if s.strip()]


def as_sentence(text: str) -> str:
    """``text`` (an error's message, say) as a sentence: a capital first and a full stop last."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) or not text else ".")


#: How a study's chart labels the two kinds of jack under one-eyed jacks (``golflab.strategy``).
JACK_KINDS = {"J (JH JS)": "one-eyed jacks", "J (JD JC)": "other jacks"}


def rank_label(label: str) -> str:
    """A chart's rank label in words: ``T`` -> ``ten``, ``JK`` -> ``joker``, ``J (JH JS)`` ->
    ``one-eyed jacks``; number ranks stay digits."""
    return JACK_KINDS.get(label, rank_name(label))


def rules_words(rules: Rules, options: Sequence[str] | None = None, none: str = "standard rules") -> str:
    """The house rules of ``rules`` that differ from the standard ones, in words, as the rules
    form names them ("super kings, jokers: lucky swing, initial flips 1"); only ``options`` when
    given, the number of holes never; ``none`` when no rule differs."""
    standard = Rules()
    parts = []
    for option in OPTIONS:
        if option.name == "rounds" or (options is not None and option.name not in options):
            continue
        value = getattr(rules, option.name)
        if value == getattr(standard, option.name):
            continue
        label = option.label.lower()
        if value is True or value is False:
            parts.append(label if value else f"no {label}")
        elif value is None:
            parts.append(f"{label} {option.none_label}")
        elif option.choices:
            parts.append(f"{label}: {option.choice_label(value).lower()}")
        else:
            parts.append(f"{label} {value}")
    return ", ".join(parts) if parts else none
