"""The hot spots of grading, compiled with numba when it is installed (the ``fast`` extra).

``golflab.kernel.grade`` holds the compiled functions; this module loads them lazily and
turns Python values into their integer arrays. ``golflab.ev`` and ``golflab.analysis`` stay
the reference: the compiled code repeats them in the same order of floating-point
operations, so results are bit-identical (``tests/engine/test_ev.py`` and ``tests/kernel/test_grading.py``
compare them). Kinds are indices into ``model.ALL_KINDS``, ranks into ``model.ALL_RANKS``.

Without numba, with ``GOLFLAB_KERNEL=0`` or under rules the compiled grader does not implement
(``golflab.kernel.use_compiled``, the one switch), ``kernel(rules)`` is None and callers use the
reference. Compiled code is cached on disk (numba's ``cache=True``): only a first run compiles.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable

from .actions import ACTIONS
from .cards import ALL_CARDS, JOKER
from .model import ALL_KINDS, ALL_RANKS, per_rules, scoring_model
from .rules import Rules

#: kind -> its index in ALL_KINDS; rank -> its index in ALL_RANKS
KIND_INDEX = {k: i for i, k in enumerate(ALL_KINDS)}
RANK_INDEX = {r: i for i, r in enumerate(ALL_RANKS)}
#: action notation -> code (``actions.ActionCode``, the compiled code's encoding) and back
ACTION_CODES = {a.notation: a.code for a in ACTIONS}
ACTION_OF_CODE = dict(enumerate(ACTIONS))

_loaded: "ModuleType | None | bool" = False  # False: not tried yet


def kernel(rules: Rules) -> "ModuleType | None":
    """``golflab.kernel.grade`` (compiled on first use) when the one switch lets it grade under
    ``rules`` (``golflab.kernel.use_compiled``, part ``GRADE``), else None: ``GOLFLAB_KERNEL=0``,
    no numba, a damaged cache, or rules it does not implement (a hand bonus): the Python reference."""
    global _loaded
    from . import kernel as compiled  # importing it points numba's cache at golflab's first

    if not compiled.use_compiled(rules, (), compiled.GRADE):
        return None
    if _loaded is False:
        try:
            from .kernel import grade as gradekernel
        except ImportError:
            _loaded = None
        else:
            _loaded = gradekernel
    return _loaded


class Tables:
    """Per-rules arrays for the grader, views of the simulation kernel's rule arrays (the one
    rule-table builder, ``golflab.kernel.tables.rule_arrays``): value per kind, rank index per
    kind, pair points per rank, the deck's kinds in deck order, each card code's kind, and the
    rule flags it needs."""

    def __init__(self, rules: Rules) -> None:
        import numpy as np

        from .kernel.tables import R_COUNTS, R_ORDER, R_PAIR, R_RANK_OF, R_VALUE, rule_arrays

        model = scoring_model(rules)
        R = rule_arrays(rules, 2)[0]
        self.rules = rules
        self.independent = model.columns_independent
        self.flip_always = rules.flip_mode == "always"
        self.value = R[R_VALUE].astype(np.int64)
        self.rank_of = R[R_RANK_OF].copy()
        self.pair = R[R_PAIR][:len(ALL_RANKS)].astype(np.int64)
        self.kind_of_code = {c.code: KIND_INDEX[model.kind(c)] for c in (*ALL_CARDS, JOKER)}
        self.deck_order = R[R_ORDER].copy()
        self._counts = R_COUNTS
        self._decks: dict[int, object] = {}
        self._tables: dict[int, object] = {}

    def deck(self, players: int):
        """Count per kind of the full deck for ``players``."""
        found = self._decks.get(players)
        if found is None:
            from .kernel.tables import rule_arrays

            found = self._decks[players] = rule_arrays(self.rules, players)[0][self._counts].copy()
        return found

    def table(self, players: int):
        """The rows ``kernel.grade.T_*`` in one array (for ``kernel.grade.grade_state``)."""
        found = self._tables.get(players)
        if found is None:
            import numpy as np

            width = len(ALL_KINDS)
            found = np.full((5, width), -1, dtype=np.int64)
            found[0], found[1], found[4] = self.value, self.rank_of, self.deck(players)
            found[2, :len(ALL_RANKS)] = self.pair
            found[3, :len(self.deck_order)] = self.deck_order
            self._tables[players] = found
        return found


tables = per_rules(Tables)


def draw_ev_function(rules: Rules) -> "Callable | None":
    """``f(grid, counts, rules)``: the compiled ``Pool.draw_ev`` (grid: six kinds or None;
    counts: kind -> count, summed in this order), or None when the compiled grader does not
    run under ``rules`` (``kernel``)."""
    global _draw_ev
    k = kernel(rules)
    if k is None:
        return None
    if _draw_ev is None:
        _draw_ev = _make_draw_ev(k)
    return _draw_ev


_draw_ev: "Callable | None" = None


def _make_draw_ev(k: ModuleType) -> Callable:
    import numpy as np

    index = KIND_INDEX.__getitem__
    int64 = np.int64

    def draw_ev(grid, counts, rules):
        t = tables(rules)
        cells = np.array([-1 if c is None else index(c) for c in grid], dtype=int64)
        n = len(counts)
        order = np.fromiter(map(index, counts), int64, n)
        amounts = np.fromiter(counts.values(), int64, n)
        return k.draw_total(cells, order, amounts, t.value, t.rank_of, t.pair)

    return draw_ev
