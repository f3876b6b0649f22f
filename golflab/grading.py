"""Fast grading: ``fast_grade(obs, action, personality)`` returns exactly ``golflab.analysis.grade``'s
Grade, its numbers computed by the compiled kernel (``golflab.kernel.grade``, through
``golflab.fastev``) from the observation turned into integer arrays.

The reference grades the decision itself when the one switch says so (``golflab.kernel.use_compiled``,
part ``GRADE``: numba missing, ``GOLFLAB_KERNEL=0``, or a hand bonus on: ``wolfpack``,
``four_of_a_kind``, hands do not score column by column), when a named case applies (rare;
its reason names cards) and whenever the kernel cannot value the position (e.g. more face-down
cards than unseen ones). ``simulate`` grades with it when the reference plays;
``tests/kernel/test_grading.py`` checks it against the reference, decision for decision, on every
simulation fingerprint case and on random positions.
"""

from __future__ import annotations

from .actions import Action
from .analysis import PHASES, Grade, verdict
from .analysis import grade as reference_grade
from .fastev import ACTION_CODES, ACTION_OF_CODE, kernel, tables

_AWAITING = {"draw": 1, "place": 2}
_NO_CASE = (None, "OPTIMAL", "")


def fast_grade(obs, action, personality: str | None = None) -> Grade:
    """``golflab.analysis.grade(obs, action, personality)``, faster (same Grade, bit for bit)."""
    k = kernel(obs.rules)
    if k is None:  # the one switch (golflab.kernel.use_compiled): off here, or e.g. a hand bonus on
        return reference_grade(obs, action, personality)
    t = tables(obs.rules)
    act = Action.parse(action)
    code = ACTION_CODES[act.notation]
    legal = [ACTION_CODES[a.notation] for a in obs.legal_actions]
    if code not in legal:
        return reference_grade(obs, act, personality)  # raises the clear error
    kind = t.kind_of_code
    grids, pile, held = obs.grids, obs.discard_pile, obs.drawn if obs.taken is None else obs.taken
    state = [obs.seat, _AWAITING.get(obs.awaiting, 0), code, obs.phase == "playing", t.flip_always,
             obs.draw_pile_size, -1 if held is None else kind[held.code], obs.finisher is not None, len(grids),
             len(pile), len(legal)]
    state += [-1 if c is None else kind[c.code] for g in grids for c in g]
    state += [kind[c.code] for c in pile]
    state += legal
    ev, best_ev, best, case, phase = k.grade_list(state, t.table(len(obs.players)))
    if case != -1:  # a named case (its reason names cards) or a position the kernel leaves to the reference
        return reference_grade(obs, act, personality)
    return verdict(obs, act, ev, best_ev, ACTION_OF_CODE[best].notation, _NO_CASE, personality, PHASES[phase])

