"""The compiled kernel's inputs, derived from the one rule declaration and scoring model:
the rule arrays (values, pair points, tiers, twins, hand bonuses, the deck) and the
personalities as float rows. Nothing here is declared again: every number is read from
``golflab.model``, ``golflab.rules``, ``golflab.ev`` and ``golflab.ai``."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..ai import Profile
from ..ai.decisions import turn_marks
from ..ai.evaluate import rule_table
from ..cards import ALL_CARDS, JOKER, build_deck
from ..ev import deck_counts
from ..model import HAND_BONUSES, RANK_OF, ROUND_ADJUSTMENTS
from ..rules import OPTIONS, Rules
from . import layout as L

_KIND = {k: i for i, k in enumerate(L.KINDS)}
_CARD = {c: i for i, c in enumerate(ALL_CARDS)} | {JOKER: L.JOKER_CARD}


def card_index(card) -> int:
    """A Card's index in the kernel (``cards.ALL_CARDS`` order, the joker 52)."""
    return _CARD[card]


def card_of(index: int):
    """The Card of a kernel card index."""
    return JOKER if index == L.JOKER_CARD else ALL_CARDS[index]


#: The rule options ``rule_arrays`` turns into the kernel's arrays: a rule option not here is a
#: ValueError, never silently ignored (a new option is added here once the kernel implements it).
#: The hand bonuses and round adjustments are read as the model declares them, so a new one of a
#: kind the kernel computes (``layout.BONUS_COMPUTED``, ``layout.WHO_COMPUTED``) is read with no
#: change here; one of another kind is refused (``kind_code``).
READS = frozenset({"rounds", "initial_flips", "flip_mode", "jokers", "super_kings", "ten_penny", "one_eyed_jacks",
                   "negative_pairs_keep_value", "flip_as_action", "knock_early", "decks", "max_turns"}
                  | {b.rule for b in HAND_BONUSES} | {a.rule for a in ROUND_ADJUSTMENTS})


#: positions in the rule tuple (``rule_arrays(...)[0]``) of the arrays read outside the kernel
R_VALUE, R_PAIR, R_COUNTS, R_ORDER, R_RANK_OF = 0, 1, 5, 6, 9


@lru_cache(maxsize=64)
def rule_arrays(rules: Rules, players: int) -> tuple:
    """The rule tuple the kernel reads (its layout is indexed by position in ``cpu`` and ``engine``).
    A ValueError for rules it does not know (``READS``) or the kernel does not implement
    (``golflab.kernel.refusal``)."""
    unknown = [o.name for o in OPTIONS if o.name not in READS]
    if unknown:
        raise ValueError(f"the compiled kernel's rule arrays do not know the rule option(s) {', '.join(unknown)}: "
                         "play these games with the Python reference")
    from . import check  # here, not above: the compiled cache's key (``cache.key_sources``) follows module imports

    check(rules)
    table = rule_table(rules)
    model = table.model
    value = np.array([table.value[k] for k in L.KINDS], dtype=np.float64)
    pair = np.array([table.pair[k] for k in L.KINDS], dtype=np.float64)
    twin = np.array([_KIND[table.twin[k]] if k in table.twin else L.NONE for k in L.KINDS], dtype=np.int64)
    tier = np.array([L.TIERS.index(table.tier[k]) for k in L.KINDS], dtype=np.int64)
    counts = deck_counts(rules, players)  # kind -> count, in the deck's order (the CPU iterates it so)
    count_arr = np.array([counts.get(k, 0) for k in L.KINDS], dtype=np.int64)
    order = np.array([_KIND[k] for k in counts], dtype=np.int64)
    kind_of = np.array([_KIND[model.kind(card_of(i))] for i in range(53)], dtype=np.int64)
    # one row a hand bonus in play: its kind, the rank it needs (-1: any rank), its points
    bonus = np.array([(kind_code(b.kind, L.BONUS_COMPUTED, b.rule), L.KINDS.index(b.rank) if b.rank is not None
                       else L.NONE, b.points) for b in model.bonuses], dtype=np.int64).reshape(len(model.bonuses), 3)
    rank_of = np.array([_KIND[RANK_OF[k]] for k in L.KINDS], dtype=np.int64)
    _, total, points = table.deck(players)
    pressure, progress, stall = turn_marks(rules.max_turns)
    flags = np.zeros(L.N_FLAGS, dtype=np.int64)
    flags[L.F_EAGLE] = table.eagle
    flags[L.F_BLACKJACK] = rules.blackjack
    flags[L.F_KNOCK_BONUS] = rules.knock_bonus
    flags[L.F_KNOCK_PENALTY] = rules.knock_penalty
    flags[L.F_FLIP_MODE] = L.FLIP_MODES.index(rules.flip_mode)
    flags[L.F_KNOCK_EARLY] = rules.knock_early
    flags[L.F_FLIP_ACTION] = rules.flip_as_action
    flags[L.F_MAX_TURNS] = rules.max_turns
    flags[L.F_INITIAL_FLIPS] = rules.initial_flips
    flags[L.F_ROUNDS] = rules.rounds
    flags[L.F_PRESSURE_START], flags[L.F_PROGRESS], flags[L.F_STALL] = pressure, progress, stall
    flags[L.F_DECK_TOTAL], flags[L.F_DECK_POINTS] = total, points
    deck = np.array([card_index(c) for c in build_deck(rules.decks_for(players), rules.jokers)], dtype=np.int64)
    flags[L.F_DECK_SIZE] = deck.size
    # after the flags, the round adjustments as declared, in order, ``L.ADJ_WIDTH`` numbers each: who
    # gets it (its kind's code), its points, the score it needs (score_is). They ride in the flags
    # array, not an array of their own: every array of the rule tuple is passed (and reference
    # counted) on each compiled call, and each one more made kernel.play about 3.5% slower.
    adjust = [(kind_code(a.who, L.WHO_COMPUTED, a.rule), a.points, 0 if a.score is None else a.score)
              for a in model.adjustments]
    flags = np.concatenate([flags, np.array(adjust, dtype=np.int64).reshape(-1)])
    arrays = (value, pair, twin, tier, flags, count_arr, order, kind_of, bonus, rank_of)
    for arr in (*arrays, deck):
        arr.setflags(write=False)
    return arrays, deck


def leaf_array(correction) -> np.ndarray:
    """The coach's leaf correction (``coach.leaf.LeafCorrection``) as the kernel reads it:
    ``[top kind + 1, bottom kind + 1, the seat's face-down cards, the table's fewest]`` (kind -1:
    face down), every entry the correction's own ``column``; a single zero when there is none."""
    if correction is None:
        return np.zeros((1, 1, 1, 1))
    return _leaf_array(correction)


@lru_cache(maxsize=8)
def _leaf_array(correction) -> np.ndarray:
    names = (None, *L.KINDS)
    out = np.empty((len(names), len(names), 7, correction.fewest_cap + 1))
    for i, top in enumerate(names):
        for j, bottom in enumerate(names):
            for down in range(7):
                for fewest in range(correction.fewest_cap + 1):
                    out[i, j, down, fewest] = correction.column(top, bottom, down, fewest)
    return out


def kind_code(kind: str, computed: tuple[str, ...], rule: str) -> int:
    """The code of a hand bonus's or round adjustment's ``kind`` among those the kernel ``computed``;
    a ValueError for any other (the switch refuses such rules first: ``golflab.kernel.KINDS``)."""
    if kind not in computed:
        raise ValueError(f"the compiled kernel does not compute {rule}'s kind {kind!r} (it computes "
                         f"{', '.join(computed)}): play these games with the Python reference")
    return computed.index(kind)


def profile_rows(profiles: "list[Profile]") -> np.ndarray:
    """Each personality as (swap_threshold, pair_hope, aggression, unpredictability)."""
    return np.array([(p.swap_threshold, p.pair_hope, p.aggression, p.unpredictability) for p in profiles],
                    dtype=np.float64)
