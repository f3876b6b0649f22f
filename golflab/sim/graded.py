"""A chunk of a run with analysis, played and graded in compiled code (``golflab.gradedgames``):
the same rows as the reference's (``games.play_reference``). A game in which the compiled
grader meets a position it leaves to the reference (``kernel.grade.FALLBACK``) is played and
graded again, whole, by the reference.

Importing this module compiles with numba (``golflab.gradedgames``): ``tasks`` imports it
only for runs that use it."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from .. import gradedgames
from ..analysis import CASES, DECISION_TYPES, GRADES, PHASES, TURN_TYPES, QualityCounters
from ..fastev import ACTION_OF_CODE
from ..kernel.grade import FALLBACK
from .games import Task, kernel_rounds, personality_name, play_reference, seat_names

#: (action code, at the draw stage) -> decision type (as ``analysis.verdict`` names it)
_TYPES = {(code, at_draw): "flip_turn" if act.kind == "flip" and at_draw else DECISION_TYPES[act.kind]
          for code, act in ACTION_OF_CODE.items() for at_draw in (0, 1)}
_NOTATION = {code: act.notation for code, act in ACTION_OF_CODE.items()}


def decision_rows(task: Task) -> tuple[list, "list | Counter", QualityCounters]:
    """``tasks.play_task(task)`` for a run with analysis, played and graded compiled."""
    played, recs, evs = gradedgames.play(task.personalities, task.rules, task.seed, task.start, task.stop)
    D_GAME, D_CASE = gradedgames.D_GAME, gradedgames.D_CASE
    rounds = kernel_rounds(task, played)
    names = seat_names([personality_name(p) for p in task.personalities])
    kinds = [personality_name(p) for p in task.personalities]
    redo = sorted({int(g) for g in recs[recs[:, D_CASE] == FALLBACK, D_GAME]})
    quality = QualityCounters()
    rows: list = []
    grades: Counter = Counter()
    counts = quality.grades
    keep_rows = task.decision_rows
    redone = {}
    for game in redo:  # positions the kernel leaves to the reference: that whole game by the reference
        index = task.start + game
        redone[game] = play_reference(replace(task, start=index, stop=index + 1, kernel=False))
    previous = -1
    start, types, notation = task.start, _TYPES, _NOTATION
    for (game, rnd, seat, turn, code, at_draw, best, case, phase, q), (ev, best_ev, loss) in zip(recs.tolist(),
                                                                                               evs.tolist()):
        if game in redone:
            if game != previous:
                _, d, counted = redone[game]
                quality = quality + counted
                counts = quality.grades
                if keep_rows:
                    rows += d
                else:
                    grades.update(d)
            previous = game
            continue
        grade = GRADES[q]
        kind = types[code, at_draw]
        name = None
        if case >= 0:
            name = CASES[case]
            setattr(quality, name, getattr(quality, name) + 1)
        quality.total_decisions += 1
        if kind in TURN_TYPES:
            quality.total_turns += 1
        counts[grade] += 1
        if keep_rows:
            rows.append((start + game, rnd, seat, names[seat], kinds[seat], turn, kind, notation[code], grade, ev,
                         best_ev, loss, notation[best], name, PHASES[phase]))
        else:
            grades[kinds[seat], grade] += 1
    return rounds, (rows if keep_rows else grades), quality
