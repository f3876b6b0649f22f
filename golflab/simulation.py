"""Simulating many games between CPU personalities, with every decision graded.

``simulate(players, games, rules, seed)`` plays ``games`` complete games between the
personalities named in ``players`` (keys of ``golflab.ai.PROFILES``; a name may repeat:
the seats are then called "Sofia", "Sofia 2", ...). Game ``i`` is seeded from the master
``seed`` and ``i`` alone (and each CPU from the game seed and its seat), so a run is
reproducible and its games are the same whatever ``processes`` or ``executor`` is.

Scale-out uses existing engines: ``executor=`` takes any ``concurrent.futures``-style
executor (``submit(fn, arg)`` returning futures with ``result()``/``cancel()``), e.g. a
``ProcessPoolExecutor`` or a Dask distributed ``Client`` as it is.

pandas is needed for the result frames and is imported only here.
"""

from __future__ import annotations

import random
import signal
import sys
from collections import Counter, deque
from contextlib import closing
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from .actions import Action
from .analysis import QualityCounters
from .game import Game, Phase
from .grading import fast_grade
from .rules import Rules

ROUND_COLUMNS = ("game", "round", "seat", "player", "personality", "score", "hand_score", "turns",
                 "went_out", "won_hole", "stalled", "final_total", "won_game")
DECISION_COLUMNS = ("game", "round", "seat", "player", "personality", "turn", "type", "action", "quality",
                    "ev", "best_ev", "ev_loss", "best_action", "case", "phase")
#: Most games per task handed to a worker process (results are merged in game order).
CHUNK = 25

Progress = Callable[[int, int], Any]
_COUNT_NAMES = {"BLUNDER": "blunders", "MISTAKE": "mistakes", "QUESTIONABLE": "questionable"}


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with master ``seed`` (stable across processes)."""
    return random.Random(f"golflab.simulate:{seed}:{index}").getrandbits(63)


def cpu_players(personalities: Sequence, gseed: int) -> list:
    """The CPU players of one simulated game, each seeded from the game's seed and its seat."""
    from .ai import CPUPlayer

    return [CPUPlayer(p, seed=random.Random(f"{gseed}:{s}").getrandbits(63)) for s, p in enumerate(personalities)]


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
    from .ai import personality_names

    return personality_names(players, count=(2, 6), profiles=True, what="players")


def personality_name(personality) -> str:
    """A seat's personality as its name (a name stays as it is; a ``Profile`` gives its ``name``)."""
    return personality if isinstance(personality, str) else personality.name


@dataclass(frozen=True)
class Task:
    """One chunk of a run, as a worker plays it (``play_task``): games ``start..stop-1``."""

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
    from . import kernel

    parsed: dict = {}
    return [[parsed.get(a) or parsed.setdefault(a, Action.parse(a)) for a in actions]
            for actions in kernel.play(personalities, rules, seed, start, stop, history=True).actions]


#: Fewest games a run hands to the compiled kernel while it is not yet loaded in this
#: process (loading takes about a second; the Python reference plays some 100 games a second).
KERNEL_MIN_GAMES = 100


def uses_kernel(personalities, rules: Rules, games: int, analyze: bool) -> bool:
    """Whether the compiled kernel (``golflab.kernel``) plays a run: when the one switch says it
    may (``kernel.use_compiled``: enabled here, these rules and seats implemented), and when it
    is already loaded here or the run is big enough to pay for loading it (with ``analyze`` the
    kernel gives the actions and the reference replays them, to grade each decision). Either
    way the games are the same."""
    from . import kernel

    if not kernel.use_compiled(rules, personalities):
        return False
    return "golflab.kernel.engine" in sys.modules or games >= (KERNEL_MIN_GAMES // 4 if analyze else KERNEL_MIN_GAMES)


def kernel_rounds(task: Task, played=None) -> list[tuple]:
    """The round rows of ``play_task`` for games the kernel played (``played``: its
    ``KernelGames`` when already played, e.g. graded by ``golflab.gradedgames``)."""
    from . import kernel

    if played is None:
        played = kernel.play(task.personalities, task.rules, task.seed, task.start, task.stop)
    names = seat_names([personality_name(p) for p in task.personalities])
    kinds = [personality_name(p) for p in task.personalities]
    rows = []
    for k, game in enumerate(zip(played.scores.tolist(), played.hand_scores.tolist(), played.turns.tolist(),
                                 played.finishers.tolist())):
        holes = [(score, hand, turn, None if finisher < 0 else finisher) for score, hand, turn, finisher in zip(*game)]
        rows += _game_rows(task.start + k, names, kinds, holes)
    return rows


def _game_rows(index: int, names: list, kinds: list, holes: list) -> list[tuple]:
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


def compiled_grading(rules: Rules) -> bool:
    """Whether ``golflab.gradedgames`` grades a kernel run under ``rules`` (else the kernel
    gives the actions and the reference replays and grades them): the one switch's ``GRADE``
    part (``kernel.use_compiled``, through ``fastev.kernel``)."""
    from .fastev import kernel

    return kernel(rules) is not None


def play_task(task: Task) -> tuple[list, "list | Counter", QualityCounters]:
    """Play games ``start..stop-1``; plain tuples so worker results pickle cheaply.
    Returns the round rows, the decision rows (or, without ``decision_rows``, a Counter
    of ``(personality, quality)``) and the quality counters."""
    if task.kernel:
        from . import kernel

        if not kernel.use_compiled(task.rules, task.personalities):  # e.g. a worker without numba or with
            task = replace(task, kernel=False)  # GOLFLAB_KERNEL=0: the same games in Python
    if task.kernel and not task.analyze:
        return kernel_rounds(task), ([] if task.decision_rows else Counter()), QualityCounters()
    if task.kernel and compiled_grading(task.rules):  # played and graded in compiled code, the same rows
        from . import gradedgames

        return gradedgames.decision_rows(task)
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
            rounds += _game_rows(index, names, kinds, holes)
            holes = []
    return rounds, (decisions if rows else grades), quality


class TextBar:
    """A one-line text progress bar on stderr (redrawn at most every 1%)."""

    def __init__(self, stream=None, label: str = "simulating", unit: str = "games") -> None:
        self.stream = stream or sys.stderr
        self.shown = -1
        self.label, self.unit = label, unit
        self.open = False

    def __call__(self, done: int, total: int) -> None:
        pct = 100 * done // total if total else 100
        if pct == self.shown and done != total:
            return
        self.shown = pct
        filled = pct * 30 // 100
        end = "\n" if done >= total else ""
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {self.unit}{end}")
        self.stream.flush()
        self.open = not end

    def close(self) -> None:
        """End a bar left unfinished (e.g. by an interrupt), so the next line starts clean."""
        if self.open:
            self.stream.write("\n")
            self.open = False


def _in_notebook() -> bool:
    """True inside a Jupyter kernel (its stderr shows in the cell, redrawn on carriage returns)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def _auto_progress(progress) -> Progress | None:
    if progress is False:
        return None
    if progress is None or progress is True:
        interactive = _in_notebook() or getattr(sys.stderr, "isatty", lambda: False)()
        return TextBar() if (interactive or progress is True) else None
    if not callable(progress):
        raise ValueError(f"progress must be a callable(done, total), True, False or None, got {progress!r}")
    return progress


class _Tally:
    """Running per-personality totals of a run: all that its summary table needs."""

    def __init__(self) -> None:
        self.by: dict[str, dict] = {}  # personality -> totals, in order of first appearance
        self.graded = False

    def _of(self, personality: str) -> dict:
        t = self.by.get(personality)
        if t is None:
            t = self.by[personality] = {"seats": set(), "holes": 0, "score": 0, "won_hole": 0, "went_out": 0,
                                        "turns": 0, "games": 0, "won_game": 0, "grades": Counter()}
        return t

    def add_rounds(self, rows) -> None:
        """Round rows in ``ROUND_COLUMNS`` order."""
        for (_game, rnd, seat, _player, personality, score, _hand, turns, went_out, won_hole, _stalled,
             _final, won_game) in rows:
            t = self._of(personality)
            t["seats"].add(seat)
            t["holes"] += 1
            t["score"] += score
            t["won_hole"] += won_hole
            t["went_out"] += went_out
            t["turns"] += turns
            if rnd == 1:  # one row per seat and game
                t["games"] += 1
                t["won_game"] += won_game

    def add_grades(self, counts) -> None:
        """``((personality, quality), count)`` pairs of graded decisions."""
        for (personality, quality), count in counts:
            self._of(personality)["grades"][quality] += count
            self.graded = self.graded or count > 0

    @classmethod
    def of_frames(cls, rounds, decisions) -> "_Tally":
        tally = cls()
        tally.add_rounds(rounds[list(ROUND_COLUMNS)].itertuples(index=False, name=None))
        if len(decisions):
            tally.add_grades(decisions.groupby(["personality", "quality"], sort=False).size().items())
        return tally

    def frame(self) -> Any:
        """The summary table (see ``SimulationResult.summary``)."""
        import pandas as pd

        rows = []
        for personality, t in self.by.items():
            if not t["holes"]:
                continue
            holes, games = t["holes"], t["games"]
            row = {"personality": personality, "seats": len(t["seats"]), "holes": holes,
                   "mean_round_score": t["score"] / holes, "win_rate": t["won_hole"] / holes,
                   "go_out_rate": t["went_out"] / holes, "turns_per_round": t["turns"] / holes,
                   "game_win_rate": t["won_game"] / games}
            for g, column in _COUNT_NAMES.items():
                row[column] = t["grades"][g] if self.graded else pd.NA
            rows.append(row)
        return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


#: The columns of ``SimulationResult.summary()``, in order.
SUMMARY_COLUMNS = ("personality", "seats", "holes", "mean_round_score", "win_rate", "go_out_rate",
                   "turns_per_round", "game_win_rate", *_COUNT_NAMES.values())


class _Digest:
    """``to_dict`` for a run's result (``players``, ``games``, ``seed``, ``rules``,
    ``quality`` and ``summary()``)."""

    def to_dict(self) -> dict:
        """A JSON-ready digest: settings, summary rows and quality counters."""
        import pandas as pd

        rows = [{k: (None if v is pd.NA else plain(v)) for k, v in row.items()}
                for row in self.summary().to_dict("records")]
        return {"players": list(self.players), "games": self.games, "seed": self.seed,
                "rules": self.rules.to_dict(), "summary": rows,
                "quality": self.quality.to_dict() if self.quality.total_decisions else None}


@dataclass
class SimulationResult(_Digest):
    """What ``simulate`` returns.

    * ``rounds``: one row per player per hole (``ROUND_COLUMNS``): game, round, seat,
      player (seat name), personality, score (round score after adjustments),
      hand_score, turns (that seat's turns in the hole), went_out, won_hole (lowest
      round score, ties included), stalled (nobody went out), final_total, won_game.
    * ``decisions``: one row per decision (``DECISION_COLUMNS``; empty without analysis):
      type, action, quality, ev, best_ev, ev_loss, best_action, case (a named case of
      ``golflab.analysis``), phase, with game, round, seat, player, personality and
      turn (the seat's turn number in the hole; initial flips belong to turn 1).
    * ``quality``: ``QualityCounters`` over the run.
    """

    players: list
    rules: Rules
    games: int
    seed: int
    rounds: Any
    decisions: Any
    quality: QualityCounters = field(default_factory=QualityCounters)

    def summary(self) -> Any:
        """Per personality: seats, holes, mean round score, hole and game win rates, go-out
        rate, turns per hole, and decisions graded BLUNDER / MISTAKE / QUESTIONABLE."""
        return _Tally.of_frames(self.rounds, self.decisions).frame()


@dataclass
class SimulationSummary(_Digest):
    """What ``summarize`` returns: a run's ``summary()`` and ``quality``, without frames."""

    players: list
    rules: Rules
    games: int
    seed: int
    quality: QualityCounters
    _tally: _Tally = field(repr=False)

    def summary(self) -> Any:
        """The same table as ``SimulationResult.summary()`` of the same run."""
        return self._tally.frame()

    def grade_counts(self) -> Any:
        """Decisions per personality (rows, in order of first appearance) and grade (columns,
        ``analysis.GRADES`` order): ``simulate``'s ``decisions`` counted, without the frame."""
        import pandas as pd

        from .analysis import GRADES

        counts = {name: [t["grades"][g] for g in GRADES] for name, t in self._tally.by.items()}
        return pd.DataFrame.from_dict(counts, orient="index", columns=list(GRADES)).rename_axis("personality")


def plain(v):
    """A numpy scalar as the Python number it holds (anything else as it is)."""
    if hasattr(v, "item"):
        return v.item()
    return v


def _checked(players, games, rules, seed, processes, progress, executor=None):
    """``simulate``'s arguments, checked: personalities, rules, executor, progress."""
    personalities = resolve_players(players)
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")
    for name, value, lo in (("games", games, 1), ("processes", processes, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < lo:
            raise ValueError(f"{name} must be a whole number >= {lo}, got {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    if executor is not None:
        if not callable(getattr(executor, "submit", None)):
            raise ValueError("executor must have submit(fn, *args), as a concurrent.futures executor or a "
                             f"dask.distributed Client has; got {type(executor).__name__}")
        if processes != 1:
            raise ValueError(f"give processes or executor, not both (processes={processes})")
    return personalities, rules, _auto_progress(progress)


def _run(personalities, games, rules, seed, processes, report, analyze, decision_rows, consume,
         executor=None) -> None:
    """Play the games in chunks (here, in worker processes or on ``executor``) and pass each
    chunk's ``play_task`` result to ``consume`` in game order, reporting progress. Tasks are
    made as they are handed out and only a few per worker wait, so memory does not grow with
    ``games``."""
    chunk = max(1, min(CHUNK, games // 50))  # about 50 progress steps, at most CHUNK games each
    kernel = uses_kernel(personalities, rules, games, analyze)
    tasks = (Task(tuple(personalities), rules, seed, a, min(a + chunk, games), bool(analyze), decision_rows, kernel)
             for a in range(0, games, chunk))
    done = 0

    def take(task: Task, result) -> None:
        nonlocal done
        consume(result)
        done += task.stop - task.start
        if report:
            report(done, games)

    if report:
        report(0, games)
    workers = min(processes, -(-games // chunk))
    if executor is not None:
        with closing(in_order(executor, play_task, tasks)) as results:  # cancels what is left on an error
            for task, result in results:
                take(task, result)
    elif workers == 1:
        for task in tasks:
            take(task, play_task(task))
    else:
        _in_pool(tasks, workers, take)


def in_order(executor, fn: Callable, items, window: int = 64):
    """Yield ``(item, fn(item))`` for each of ``items`` in order, computed on ``executor``
    (``submit(fn, item)``; futures with ``result()`` and ``cancel()``: ``concurrent.futures``
    or a Dask ``Client``), with at most ``window`` submitted and not yet taken. If the
    caller stops early or an error is raised, the pending futures are cancelled (the
    executor itself stays up: it is the caller's)."""
    waiting: deque = deque()
    try:
        for item in items:
            waiting.append((item, executor.submit(fn, item)))
            if len(waiting) >= window:
                item, future = waiting.popleft()
                yield item, future.result()
        while waiting:
            item, future = waiting.popleft()
            yield item, future.result()
    finally:
        for _item, future in waiting:
            future.cancel()


def _in_pool(tasks, workers: int, take) -> None:
    """``take(task, result)`` for each task, played in worker processes, in task order,
    with at most 4 tasks per worker queued. An error or an interrupt (here or in ``take``)
    terminates the workers at once.

    Workers ignore Ctrl-C (the parent terminates them): SIGINT and SIGTERM are blocked while
    they start, so none is lost by the parent (a SIGTERM raised inside the pool's start would
    leave a half-built pool nobody terminates, and the run hanging) or caught by a worker
    before its initializer ignores it."""
    import multiprocessing

    blocked = _sigint_mask(signal.SIG_BLOCK)
    pool = None
    try:
        pool = multiprocessing.get_context(_start_method()).Pool(workers, initializer=_ignore_interrupts)
        _sigint_mask(signal.SIG_SETMASK, blocked)  # a Ctrl-C or SIGTERM that came meanwhile is raised here
        blocked = None
        waiting: deque = deque()
        for task in tasks:
            waiting.append((task, pool.apply_async(play_task, (task,))))
            if len(waiting) >= 4 * workers:
                task, pending = waiting.popleft()
                take(task, pending.get())
        while waiting:
            task, pending = waiting.popleft()
            take(task, pending.get())
    except BaseException:
        if pool is not None:
            pool.terminate()
        raise
    finally:
        _sigint_mask(signal.SIG_SETMASK, blocked)
        if pool is not None:
            pool.close()
            pool.join()


def _sigint_mask(how, mask=None):
    """Block or unblock SIGINT and SIGTERM in this thread (``how``: SIG_BLOCK, SIG_UNBLOCK, or
    SIG_SETMASK to ``mask``); returns the previous mask. Does nothing where signal masks do not
    exist, or for SIG_SETMASK without a mask."""
    if not hasattr(signal, "pthread_sigmask") or (how == signal.SIG_SETMASK and mask is None):
        return None
    return signal.pthread_sigmask(how, mask if how == signal.SIG_SETMASK else {signal.SIGINT, signal.SIGTERM})


def _ignore_interrupts() -> None:
    """A worker's initializer: ignore Ctrl-C, then take SIGINT and SIGTERM off the mask it was
    started with (the parent ends its workers with SIGTERM)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _sigint_mask(signal.SIG_UNBLOCK)


def simulate(
    players: Sequence[str],
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    processes: int = 1,
    progress: "Progress | bool | None" = None,
    analyze: bool = True,
    executor: Any = None,
) -> SimulationResult:
    """Play ``games`` complete games between CPU personalities and collect the results.

    ``players``: 2-6 personality names (``golflab.ai.PROFILES`` keys, any case; may
    repeat) or ``golflab.ai.Profile`` values for custom personalities (give them names of
    their own: frames and the summary group by personality name). ``rules``: a ``Rules``
    (default ``Rules()``). ``seed``: the master seed; same arguments give the same
    result, whatever ``processes``. ``processes`` > 1 plays
    chunks of games in worker processes (``multiprocessing``) and merges them in game
    order. ``progress``: a ``callable(done, total)`` called as games finish; None shows a
    text bar on stderr when it is a terminal or a Jupyter kernel (silent otherwise);
    False never shows one. ``analyze``: grade every decision (``golflab.analysis``);
    without it ``decisions`` is empty and simulation runs several times faster.
    ``executor``: play the chunks on an existing engine instead (anything with
    ``submit(fn, arg)``: a ``concurrent.futures`` executor, a Dask distributed ``Client``);
    the result is the same. It is not shut down here.
    """
    import pandas as pd

    personalities, rules, report = _checked(players, games, rules, seed, processes, progress, executor)
    rounds: list = []
    decisions: list = []
    quality = QualityCounters()

    def consume(result) -> None:
        nonlocal quality
        r, d, q = result
        rounds.extend(r)
        decisions.extend(d)
        quality = quality + q

    _run(personalities, games, rules, seed, processes, report, analyze, True, consume, executor)
    return SimulationResult(
        players=seat_names([personality_name(p) for p in personalities]), rules=rules, games=games, seed=seed,
        rounds=pd.DataFrame(rounds, columns=list(ROUND_COLUMNS)),
        decisions=pd.DataFrame(decisions, columns=list(DECISION_COLUMNS)),
        quality=quality,
    )


def summarize(
    players: Sequence[str],
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    processes: int = 1,
    progress: "Progress | bool | None" = None,
    analyze: bool = True,
    rounds: "Callable[[list], Any] | None" = None,
    executor: Any = None,
) -> SimulationSummary:
    """``simulate`` for runs of any length: the same games, but only running totals are
    kept, so memory does not grow with ``games``. Its ``summary()``, ``quality`` and
    ``to_dict()`` equal those of ``simulate`` with the same arguments. ``rounds``: a
    callable given each chunk's round rows (tuples in ``ROUND_COLUMNS`` order, game
    order), e.g. to write them out as they come. ``executor``: as for ``simulate``."""
    personalities, rules, report = _checked(players, games, rules, seed, processes, progress, executor)
    tally = _Tally()
    quality = QualityCounters()

    def consume(result) -> None:
        nonlocal quality
        r, grades, q = result
        tally.add_rounds(r)
        tally.add_grades(grades.items())
        quality = quality + q
        if rounds is not None:
            rounds(r)

    _run(personalities, games, rules, seed, processes, report, analyze, False, consume, executor)
    return SimulationSummary(players=seat_names([personality_name(p) for p in personalities]), rules=rules, games=games,
                             seed=seed, quality=quality, _tally=tally)


def _start_method() -> str:
    """fork when this process runs no other threads (fast, and scripts need no
    ``if __name__ == "__main__"`` guard); otherwise (a Jupyter kernel, a GUI) forkserver,
    which is safe with threads; spawn where neither exists."""
    import multiprocessing
    import threading

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


__all__ = ["SimulationResult", "SimulationSummary", "game_seed", "resolve_players", "seat_names", "simulate",
           "summarize"]
