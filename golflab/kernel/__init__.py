"""The compiled simulation kernel: CPU games at compiled speed, decision for decision the
games of the Python reference (``golflab.game`` with ``golflab.ai``).

One switch decides whether compiled code runs, here: ``use_compiled(rules, seats, part)``,
True when this process can run it (``enabled``: numba is installed, the ``fast`` extra,
``GOLFLAB_KERNEL`` is not ``0`` and the compiled cache is readable) and it implements the
rules and seats (``refusal``: every rule option is declared in ``IMPLEMENTED``, every kind of
hand bonus and round adjustment in play in ``KINDS``, the seat kinds in ``SEAT_KINDS``;
anything else is refused, fail-closed). It is used for games of the
eight personalities and custom profiles: ``simulate`` (its runs of 100 games or more, 25
with analysis, or any once it is loaded; with analysis the decisions are graded in the same
compiled loop by ``golflab.gradedgames``), ``simulation.play_games``, the studies
(``place_records``) and the coach's rollouts (``rollout_values``). Everything else runs the
reference. The reference stays the single source of truth: the kernel reads its rule tables
from ``golflab.model`` and ``golflab.rules`` (``tables``), and ``tests/kernel/test_kernel.py`` replays kernel games
move by move through ``Game`` and the ``CPUPlayer``s on every rule option, while the simulation
fingerprints pin the results both ways. Compiled code is cached on disk (``cache_dir``)
after its first use; ``python -m golflab.kernel`` compiles it ahead and repairs a damaged
cache, which until then is left to the reference (one line on stderr says so). A read-only
cache is read from a private copy (``golflab.kernel.cache``).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
import threading
from dataclasses import dataclass
from typing import Sequence

from ..ai import CLASSIC_EXPERT, EXPERT, PROFILES, get_profile, level_of
from ..model import HAND_BONUSES, ROUND_ADJUSTMENTS, scoring_model
from ..rules import OPTIONS, Rules
from ..seeding import game_seed, seat_seed
from . import cache, layout
from .cache import cache_dir  # noqa: F401  (public here, as before)

ENV = "GOLFLAB_KERNEL"

# numba's cache root, set before any of golflab's compiled modules is imported (``cache.prepare``
# may move it to a writable copy when the kernel is first asked for)
cache.point_numba_at(cache.cache_root())


@functools.cache
def installed() -> bool:
    """True when numba (the ``fast`` extra) is installed (found, not imported: importing it
    takes most of a second, which a run too small for the kernel need not pay)."""
    return importlib.util.find_spec("numba") is not None


def switched_on() -> bool:
    """The ``GOLFLAB_KERNEL`` switch: True when it is unset or ``1``, False for ``0`` (the
    Python reference). Any other value is a ValueError."""
    setting = os.environ.get(ENV, "1").strip()
    if setting not in ("0", "1"):
        raise ValueError(f"{ENV} must be 0 (the Python reference) or 1 (the compiled kernel when installed), "
                         f"got {setting!r}")
    return setting == "1"


def enabled() -> bool:
    """True when the compiled code may be used (``off_reason`` is None). Every compiled path
    asks this; when it is False the Python reference plays, with the same results."""
    return off_reason() is None


def off_reason() -> str | None:
    """Why the compiled code is not used in this process, or None when it is: ``GOLFLAB_KERNEL``
    is ``0`` (``switched_on``), numba is not installed, or its cache is unusable (``cache_problem``)."""
    if not switched_on():
        return f"{ENV}=0 turns the compiled code off"
    if not installed():
        return "numba (the fast extra) is not installed"
    return cache_problem()


_decided: dict = {}  # this process's cache_location and cache_problem, decided once
_deciding = threading.RLock()


def cache_location() -> cache.Location:
    """Where numba reads and writes golflab's compiled code in this process (``cache.prepare``)."""
    with _deciding:
        if "location" not in _decided:
            _decided["location"] = cache.prepare()
        return _decided["location"]


def cache_problem(recheck: bool = False) -> str | None:
    """Why the compiled cache cannot be used in this process (no folder numba may write, or
    damaged files), or None. Decided once (``recheck``: again, after a repair); the main
    process says why in one line on stderr, and the Python reference plays instead."""
    with _deciding:
        if recheck or "problem" not in _decided:
            _decided["problem"] = _find_problem()
        return _decided["problem"]


def _find_problem() -> str | None:
    where = cache_location()
    if where.used is None:
        why = f"golflab: the compiled kernel cannot be used: {where.error}"
    else:
        bad = cache.damaged(where.root)
        if not bad:
            return None
        path, error = bad[0]
        more = f" and {len(bad) - 1} more file(s)" if len(bad) > 1 else ""
        why = (f"golflab: the compiled kernel's cache is damaged ({path}: {error}{more}); rebuild it with "
               f"`{cache.REBUILD}`")
    import multiprocessing

    if multiprocessing.parent_process() is None:  # once, not again in each worker
        print(f"{why}. The Python reference plays instead (the same results, slower).", file=sys.stderr)
    return why


#: What the compiled code implements of every rule option (``rules.OPTIONS``), by part:
#: ``True``, every value; a tuple, only these values (any other is played by the reference).
#: An option missing here is refused whatever its value (``tests/kernel/test_kernel_switch.py``
#: requires each option to be declared). ``PLAY``: the games, the studies' records and the
#: coach's rollouts (``engine``, ``records``, ``rollout``); ``GRADE``: the grader
#: (``golflab.kernel.grade``, ``golflab.gradedgames``).
PLAY, GRADE = "play", "grade"
IMPLEMENTED: dict[str, dict[str, "bool | tuple"]] = {
    PLAY: {
        "rounds": True, "initial_flips": True, "flip_mode": True, "jokers": True, "super_kings": True,
        "ten_penny": True, "one_eyed_jacks": True, "negative_pairs_keep_value": True, "flip_as_action": True,
        "knock_early": True, "decks": True, "max_turns": True,
        # the hand bonuses and round adjustments: each read as the model declares it (``tables``),
        # when the compiled code computes its kind (``KINDS``)
        **{b.rule: True for b in HAND_BONUSES}, **{a.rule: True for a in ROUND_ADJUSTMENTS},
    },
}
IMPLEMENTED[GRADE] = dict(IMPLEMENTED[PLAY])
#: The kinds of hand bonus (``model.BONUS_KINDS``) and of round adjustment (its *who*,
#: ``model.WHO_SEATS``) the compiled code computes, by part: rules with a bonus or adjustment of
#: any other kind in play are refused. The grader values hands column by column: no hand bonus.
BONUS, WHO = "hand bonus", "round adjustment"
KINDS: dict[str, dict[str, tuple[str, ...]]] = {
    PLAY: {BONUS: layout.BONUS_COMPUTED, WHO: layout.WHO_COMPUTED},
    GRADE: {BONUS: (), WHO: layout.WHO_COMPUTED},
}
#: The seat kinds the compiled code plays (``seat_kind``): the eight personalities and custom
#: ``ai.Profile``s (a plain level among them); not the Experts nor a level with random moves or
#: search. The one place that says which seats the kernel plays.
SEAT_KINDS = ("personality", "profile")


def seat_kind(seat) -> str:
    """``"personality"`` (one of the eight, by name or Profile), ``"profile"`` (a custom
    ``ai.Profile``, or a level that plays its base personality alone: ``Level.plain``),
    ``"expert"`` (the Expert or the Classic Expert: the coach's rollouts) or ``"level"`` (a level
    with random moves or search); any other name is the ValueError of ``ai.get_profile``."""
    profile = get_profile(seat)
    if profile is EXPERT or profile is CLASSIC_EXPERT:
        return "expert"
    level = level_of(profile)
    if level is not None and not level.plain:
        return "level"
    return "personality" if PROFILES.get(profile.name) == profile else "profile"


_verdicts: dict = {}  # (id(rules), part) -> (rules, rules_refusal): asked per decision graded, kept cheap


def rules_refusal(rules: Rules, part: str = PLAY) -> str | None:
    """``refusal``'s verdict on the rules alone, remembered per rules object (after changing
    ``IMPLEMENTED``, as a test does, call ``forget_verdicts()``)."""
    known = _verdicts.get((id(rules), part))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_verdicts) > 512:
        _verdicts.clear()
    why = _verdicts[id(rules), part] = (rules, _rules_refusal(rules, part))
    return why[1]


def forget_verdicts() -> None:
    """Forget the remembered ``rules_refusal`` verdicts (after ``IMPLEMENTED``, ``KINDS`` or the
    model's declarations changed)."""
    _verdicts.clear()
    _rules_refusal.cache_clear()


@functools.lru_cache(maxsize=256)
def _rules_refusal(rules: Rules, part: str) -> str | None:
    declared = IMPLEMENTED[part]
    for option in OPTIONS:
        value = getattr(rules, option.name)
        done = declared.get(option.name)
        if done is None:
            return f"the compiled code does not declare the rule option {option.name!r}"
        if done is not True and value not in (done or ()):
            return f"the compiled code does not implement {option.name}={value!r}"
    return _kinds_refusal(rules, part)


def _kinds_refusal(rules: Rules, part: str) -> str | None:
    """Why ``part`` does not compute a hand bonus or round adjustment in play under ``rules``
    (``KINDS``), or None."""
    model = scoring_model(rules)
    in_play = [(BONUS, b.rule, b.kind) for b in model.bonuses] + [(WHO, a.rule, a.who) for a in model.adjustments]
    for what, rule, kind in in_play:
        if kind not in KINDS[part][what]:
            return f"the compiled code does not compute the {what} {rule} (its kind {kind!r})"
    return None


def refusal(rules: Rules, seats: Sequence = (), part: str = PLAY) -> str | None:
    """Why compiled code must not run ``part`` (``PLAY`` or ``GRADE``) of games under ``rules``
    between ``seats`` (names or ``ai.Profile``s), or None when it may: the rules and seats
    must be declared implemented (``IMPLEMENTED``, ``SEAT_KINDS``). Says nothing of this
    process (``off_reason``)."""
    if part not in IMPLEMENTED:
        raise ValueError(f"part must be one of {', '.join(IMPLEMENTED)}, got {part!r}")
    why = rules_refusal(rules, part)
    if why is None:
        kinds = [seat_kind(s) for s in seats]
        wrong = [k for k in kinds if k not in SEAT_KINDS]
        if wrong:
            why = f"the compiled code does not play the seat kind {wrong[0]!r} (it plays {', '.join(SEAT_KINDS)})"
    return why


def use_compiled(rules: Rules, seats: Sequence = (), part: str = PLAY) -> bool:
    """The one switch: True when compiled code runs ``part`` of games under ``rules`` between
    ``seats``: it is enabled here (``off_reason``) and implements them (``refusal``). Every
    compiled path asks this; when it is False the Python reference runs, with the same results."""
    return off_reason() is None and refusal(rules, seats, part) is None


def check(rules: Rules, seats: Sequence = (), part: str = PLAY) -> None:
    """A ValueError saying why when the compiled code does not implement ``rules`` or ``seats``
    (``refusal``): the entry points of compiled play call it, so nothing runs half-implemented."""
    why = refusal(rules, seats, part)
    if why is not None:
        raise ValueError(f"{why}; the Python reference plays these games")


def supports(personalities: Sequence) -> bool:
    """True when the kernel can play these seats (``SEAT_KINDS``): every one a personality
    (names or ``ai.Profile``s), none the Expert (which plays the coach's rollouts)."""
    return all(seat_kind(p) in SEAT_KINDS for p in personalities)


@dataclass(frozen=True)
class KernelGames:
    """Games ``start..stop-1`` of a run as the kernel played them: ``hand_scores``,
    ``scores`` and ``turns`` by [game, hole, seat], ``finishers`` by [game, hole] (-1: the
    hole stalled), and ``actions`` (each game's action notations) when asked for."""

    start: int
    hand_scores: "object"
    scores: "object"
    turns: "object"
    finishers: "object"
    actions: "list[list[str]] | None"


def game_seeds(seed: int, start: int, stop: int, players: int):
    """The seeds of games ``start..stop-1`` of a run with master ``seed``, as ``simulate``
    seeds them: per game (a row) the game's seed, then each seat's CPU seed."""
    import numpy as np

    seeds = np.empty((stop - start, players + 1), dtype=np.int64)
    for k, index in enumerate(range(start, stop)):
        gseed = game_seed(seed, index)
        seeds[k, 0] = gseed
        for s in range(players):
            seeds[k, s + 1] = seat_seed(gseed, s)
    return seeds


def play(personalities: Sequence, rules: Rules, seed: int, start: int, stop: int,
         history: bool = False) -> KernelGames:
    """Play games ``start..stop-1`` of a ``simulate`` run with master ``seed``: the same
    games ``simulation.play_games`` plays (same seeds per game and per seat)."""
    check(rules, personalities)  # first: a refusal needs no compiled code
    from . import engine  # local, as below: these compile with numba on import
    from .mt19937 import seed_rows
    from .tables import profile_rows, rule_arrays

    n = len(personalities)
    seeds = game_seeds(seed, start, stop, n)
    R, deck = rule_arrays(rules, n)
    profiles = profile_rows([get_profile(p) for p in personalities])
    cap = 20000 if history else 0
    hand, score, turns, finishers, actions, played = engine.play_games(R, deck, profiles, seed_rows(seeds), cap)
    names = None
    if history:
        if int(played.max(initial=0)) > cap:
            raise RuntimeError(f"a game played more than {cap} actions")
        names = [[layout.ACTION_NAMES[a] for a in actions[k, :played[k]]] for k in range(stop - start)]
    return KernelGames(start, hand, score, turns, finishers, names)


def place_records(personalities: Sequence, rules: Rules, seed: int, start: int, stop: int):
    """Every placement decision of games ``start..stop-1`` of a ``simulate`` run, as the kernel
    plays them: ``(records, counts)``, see ``golflab.kernel.records`` for the columns."""
    check(rules, personalities)
    from . import records  # local: compiled with numba on import
    from .mt19937 import seed_rows
    from .tables import profile_rows, rule_arrays

    R, deck = rule_arrays(rules, len(personalities))
    profiles = profile_rows([get_profile(p) for p in personalities])
    return records.place_records(R, deck, profiles, seed_rows(game_seeds(seed, start, stop, len(personalities))))


_STAGES = {None: layout.STAGE_NONE, "initial_flip": layout.STAGE_INITIAL_FLIP, "draw": layout.STAGE_DRAW,
           "place": layout.STAGE_PLACE, "flip": layout.STAGE_FLIP}
_SOURCES = {None: layout.SRC_NONE, "draw": layout.SRC_DRAW, "take": layout.SRC_TAKE}
_PHASES = ("initial_flip", "playing", "final_turn", "round_over", "game_over")  # layout.PHASE_* in order


def world_generators(world_seeds: Sequence[int], bot_seeds: Sequence[int], players: int):
    """The generators of rollout worlds, as ``rollout_values`` seeds them: world w's own
    (``world_seeds[w]``) and each seat's CPU (``bot_seeds[w] + s``), one array row each."""
    import numpy as np

    from .rollout import generator_rows  # local: compiled with numba on import

    return generator_rows(np.asarray(world_seeds, dtype=np.int64), np.asarray(bot_seeds, dtype=np.int64), players)


def deal_arrays(deals: Sequence, draw_size: int) -> tuple:
    """Deals (every seat's six cards, the draw pile in order, the world's seed) as the kernel's
    arrays: card indices of every grid, of every draw pile (``draw_size`` cards, padded to at
    least one), the world seeds."""
    import numpy as np

    from .tables import card_index

    grids = np.array([[[card_index(c) for c in grid] for grid in deal[0]] for deal in deals], dtype=np.int64)
    draws = np.zeros((len(deals), max(draw_size, 1)), dtype=np.int64)
    for w, deal in enumerate(deals):
        draws[w, :len(deal[1])] = [card_index(c) for c in deal[1]]
    return grids, draws, np.array([deal[2] for deal in deals], dtype=np.int64)


def rollout_values(obs, deals: Sequence, bot_seeds: Sequence[int], profiles: Sequence, action: str,
                   stop: int, generators=None) -> list[float]:
    """``coach``'s rollouts of ``action`` from the position ``obs`` shows, compiled: for each deal
    (every seat's six cards, the draw pile in order, the world's seed) the seat's hole score
    relative to the table, or its leaf value after ``stop`` turns. ``bot_seeds[w] + s`` seeds
    seat s's CPU in world w; ``profiles`` play the seats. ``deals`` may also be the kernel's
    arrays already: (card indices of every grid, of every draw pile padded to at least one,
    world seeds). ``generators``: the worlds' generators already seeded (``world_generators``
    of these seeds), which a caller valuing several options in the same worlds seeds once.
    A caller that values several batches from one position prepares it once (``rollouts_from``)."""
    return rollouts_from(obs, profiles, stop)(action, deals, bot_seeds, generators)


def rollouts_from(obs, profiles: Sequence, stop: int, correction=None):
    """``rollout_values`` from the position ``obs`` shows with ``profiles`` and ``stop`` (the leaf
    corrected by ``correction``, a ``coach.leaf.LeafCorrection``, when given), the position's
    arrays built and checked once: a function of ``(action, deals, bot_seeds, generators=None)``
    returning the same values (a race asks for a few worlds at a time, and building the position
    took a quarter of a search's time)."""
    import numpy as np

    from .rollout import rollout_values as compiled  # local: compiled with numba on import
    from .tables import card_index, leaf_array, profile_rows, rule_arrays

    check(obs.rules, profiles)
    n = len(obs.players)
    R, deck = rule_arrays(obs.rules, n)
    size = deck.size
    draw_n = obs.draw_pile_size
    up = np.array([[c is not None for c in grid] for grid in obs.grids], dtype=np.bool_)
    discard = np.zeros(size, dtype=np.int64)
    discard[:len(obs.discard_pile)] = [card_index(c) for c in obs.discard_pile]
    st = np.zeros(layout.N_SCALARS, dtype=np.int64)
    st[layout.S_DRAW_N], st[layout.S_DISC_N] = draw_n, len(obs.discard_pile)
    st[layout.S_CURRENT], st[layout.S_STAGE] = obs.current_player, _STAGES[obs.awaiting]
    st[layout.S_PHASE] = _PHASES.index(str(obs.phase))
    st[layout.S_HELD] = layout.NONE if obs.drawn is None else card_index(obs.drawn)
    counters = obs.counters()
    st[layout.S_HELD_SRC] = _SOURCES[counters.held_source]
    st[layout.S_FINISHER] = layout.NONE if obs.finisher is None else obs.finisher
    st[layout.S_FIRST], st[layout.S_ROUND] = obs.first_player, obs.round
    st[layout.S_OPTIONAL] = counters.flip_optional
    st[layout.S_FLIPS_DONE], st[layout.S_SEATS_FLIPPED] = counters.flips_done, counters.seats_flipped
    pending = np.zeros(n, dtype=np.int64)
    pending[:len(counters.pending)] = counters.pending
    st[layout.S_PEND_N] = len(counters.pending)
    pair_by_rank = np.array([int(R[1][k]) for k in range(14)], dtype=np.int64)
    rows = profile_rows([get_profile(p) for p in profiles])
    turns = np.array(obs.turns, dtype=np.int64)
    corr = leaf_array(correction)

    def values(action: str, deals: Sequence, bot_seeds: Sequence[int], generators=None) -> list[float]:
        # a tuple is the kernel's arrays already (grids, draws, world seeds); else deals to convert
        grids, draws, worlds = deals if isinstance(deals, tuple) else deal_arrays(deals, draw_n)
        return compiled(R, pair_by_rank, rows, grids, draws, draw_n, up, discard, len(obs.discard_pile), st, turns,
                        pending, world_generators(worlds, bot_seeds, n) if generators is None else generators,
                        layout.ACTION_NAMES.index(action), obs.seat, stop, corr).tolist()

    return values
