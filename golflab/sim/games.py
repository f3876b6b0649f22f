"""The games of a run: who sits where (``resolve_players``, ``seat_names``, ``cpu_players``),
which engine plays them (``uses_kernel``, ``compiled_grading``: the Python reference or the
compiled kernel, as the one switch ``kernel.use_compiled`` allows; either way the games are the
same), the reference's loop (``play_games``), a run's chunk (``Task``) and its rows (plain tuples,
cheap to pickle) from the reference (``play_reference``) or from the kernel's games
(``kernel_rounds``). Rows from the compiled grader: ``graded``."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from .. import fastev, kernel
from ..actions import Action
from ..ai import CPUPlayer, personality_names
from ..analysis import QualityCounters
from ..game import Game, Phase
from ..grading import fast_grade
from ..rules import Rules
from ..seeding import game_seed, seat_seed


def cpu_players(personalities: Sequence, gseed: int) -> list:
    """The CPU players of one simulated game, each seeded from the game's seed and its seat."""
    return [CPUPlayer(p, seed=seat_seed(gseed, s)) for s, p in enumerate(personalities)]


def seat_names(players: Sequence[str]) -> list[str]:
    """Distinct seat names for personalities: ``["Sofia", "Sofia"]`` -> ``["Sofia", "Sofia 2"]``."""
    seen: dict[str, int] = {}
    names = []
    for p in players:
        seen[p] = seen.get(p, 0) + 1
        names.append(p if seen[p] == 1 else f"{p} {seen[p]}")
    return names


def resolve_players(players: Sequence) -> list:
    """Each player as a ``CPU_NAMES`` name (the personalities or "Expert", any case) or an ``ai.Profile``
    given as is (a custom personality); anything else is a ValueError."""
    return personality_names(players, count=(2, 6), profiles=True, what="players")


def personality_name(personality) -> str:
    """A seat's personality as its name (a name stays as it is; a ``Profile`` gives its ``name``)."""
    return personality if isinstance(personality, str) else personality.name


#: Fewest games a run hands to the compiled kernel while it is not yet loaded in this
#: process (loading takes about a second; the Python reference plays some 100 games a second).
KERNEL_MIN_GAMES = 100


def uses_kernel(personalities, rules: Rules, games: int, analyze: bool) -> bool:
    """Whether the compiled kernel (``golflab.kernel``) plays a run: when the one switch says it
    may (``kernel.use_compiled``: enabled here, these rules and seats implemented), and when it
    is already loaded here or the run is big enough to pay for loading it (with ``analyze`` the
    kernel gives the actions and the reference replays them, to grade each decision). Either
    way the games are the same."""
    if not kernel.use_compiled(rules, personalities):
        return False
    return "golflab.kernel.engine" in sys.modules or games >= (KERNEL_MIN_GAMES // 4 if analyze else KERNEL_MIN_GAMES)


def compiled_grading(rules: Rules) -> bool:
    """Whether ``golflab.gradedgames`` grades a kernel run under ``rules`` (else the kernel
    gives the actions and the reference replays and grades them): the one switch's ``GRADE``
    part (``kernel.use_compiled``, through ``fastev.kernel``)."""
    return fastev.kernel(rules) is not None


@dataclass(frozen=True)
class Task:
    """One chunk of a run, as a worker plays it (``run.play_task``): games ``start..stop-1``."""

    personalities: tuple
    rules: Rules
    seed: int
    start: int
    stop: int
    analyze: bool
    decision_rows: bool = True  # False: only count the grades per personality (summarize)
    kernel: bool = False  # played by the compiled kernel (``uses_kernel``)


def play_games(personalities: Sequence, rules: Rules, seed: int, start: int, stop: int, kernel: bool | None = None,
               awaiting: str | None = None):
    """Play games ``start..stop-1`` of a ``simulate`` run and yield each step.

    Yields ``("decision", index, game, obs, action)`` before the CPU's action is applied
    (``obs`` is the acting seat's observation; do not change ``game``), and
    ``("hole_over", index, game, None, None)`` once each hole is scored (after the last
    hole ``game.is_over``). ``personalities`` are names or ``ai.Profile``s, one per seat.
    ``kernel``: take the CPU players' actions from the compiled kernel (the same actions,
    faster) instead of asking each ``CPUPlayer``; None decides as ``simulate`` does.
    ``awaiting`` (e.g. ``"place"``): yield only the decisions of that stage; with the
    kernel's actions the others are played without building an observation.
    """
    names = seat_names([personality_name(p) for p in personalities])
    round_over, game_over = Phase.ROUND_OVER, Phase.GAME_OVER
    if kernel is None:
        kernel = uses_kernel(personalities, rules, stop - start, analyze=False)
    played = _kernel_actions(personalities, rules, seed, start, stop) if kernel else None
    for index in range(start, stop):
        gseed = game_seed(seed, index)
        game = Game(names, rules, seed=gseed)
        if played is None:
            choosers = [bot.choose for bot in cpu_players(personalities, gseed)]
        else:
            choosers = [lambda _obs, actions=iter(played[index - start]): next(actions)] * len(names)
        observe, apply = game.observation, game.apply
        while True:
            phase = game.phase
            if phase is round_over or phase is game_over:
                yield ("hole_over", index, game, None, None)
                if phase is game_over:
                    break
                game.next_round()
                continue
            seat = game.current_player
            wanted = awaiting is None or game.awaiting == awaiting
            obs = observe(seat) if wanted or played is None else None
            action = choosers[seat](obs)
            if wanted:
                yield ("decision", index, game, obs, action)
            apply(action)


def _kernel_actions(personalities, rules: Rules, seed: int, start: int, stop: int) -> list[list]:
    """Each game's actions (``Action``s) as the compiled kernel plays them."""
    parsed: dict = {}
    return [[parsed.get(a) or parsed.setdefault(a, Action.parse(a)) for a in actions]
            for actions in kernel.play(personalities, rules, seed, start, stop, history=True).actions]


def kernel_rounds(task: Task, played=None) -> list[tuple]:
    """The round rows of ``task`` for games the kernel played (``played``: its
    ``KernelGames`` when already played, e.g. graded by ``golflab.gradedgames``)."""
    if played is None:
        played = kernel.play(task.personalities, task.rules, task.seed, task.start, task.stop)
    names = seat_names([personality_name(p) for p in task.personalities])
    kinds = [personality_name(p) for p in task.personalities]
    rows = []
    for k, game in enumerate(zip(played.scores.tolist(), played.hand_scores.tolist(), played.turns.tolist(),
                                 played.finishers.tolist())):
        holes = [(score, hand, turn, None if finisher < 0 else finisher) for score, hand, turn, finisher in zip(*game)]
        rows += game_rows(task.start + k, names, kinds, holes)
    return rows


def game_rows(index: int, names: list, kinds: list, holes: list) -> list[tuple]:
    """The ``ROUND_COLUMNS`` rows of game ``index`` from its holes, each (round scores, hand
    scores, turns, the seat that went out or None), whoever played it."""
    totals = [sum(col) for col in zip(*(hole[0] for hole in holes))]
    best = min(totals)
    rows = []
    for number, (score, hand, turns, finisher) in enumerate(holes, start=1):
        low = min(score)
        rows += [(index, number, s, names[s], kinds[s], score[s], hand[s], turns[s], finisher == s, score[s] == low,
                  finisher is None, totals[s], totals[s] == best) for s in range(len(names))]
    return rows


def play_reference(task: Task) -> tuple[list, "list | Counter", QualityCounters]:
    """``run.play_task(task)`` by the reference: its games played by ``Game`` (with the CPU
    players' actions from the kernel when ``task.kernel``) and each decision graded by
    ``grading.fast_grade``."""
    names = seat_names([personality_name(p) for p in task.personalities])
    kinds = [personality_name(p) for p in task.personalities]
    rounds: list[tuple] = []
    holes: list[tuple] = []
    decisions: list[tuple] = []
    grades: Counter = Counter()
    quality = QualityCounters()
    analyze, rows = task.analyze, task.decision_rows
    for kind, index, game, obs, action in play_games(task.personalities, task.rules, task.seed,
                                                     task.start, task.stop, kernel=task.kernel):
        if kind == "decision":
            if analyze:
                seat = obs.seat
                g = fast_grade(obs, action, kinds[seat])
                quality.add(g)
                if not rows:
                    grades[kinds[seat], g.quality] += 1
                    continue
                decisions.append((index, game.round, seat, names[seat], kinds[seat],
                                  obs.turns[seat] + 1, g.type, g.action, g.quality, g.ev, g.best_ev, g.ev_loss,
                                  g.best_action, g.case, g.phase))
            continue
        result = game.round_results[-1]
        holes.append((result.scores, result.hand_scores, game.turns, result.finisher))
        if game.is_over:
            rounds += game_rows(index, names, kinds, holes)
            holes = []
    return rounds, (decisions if rows else grades), quality
