"""Simulating many games between CPU personalities, with every decision graded.

``simulate(players, games, rules, seed)`` plays ``games`` complete games between the
personalities named in ``players`` (keys of ``golflab.ai.PROFILES``; a name may repeat:
the seats are then called "Sofia", "Sofia 2", ...). Game ``i`` is seeded from the master
``seed`` and ``i`` alone (and each CPU from the game seed and its seat), so a run is
reproducible and its games are the same whatever ``processes`` is.

pandas is needed for the result frames and is imported only here.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .analysis import QualityCounters, grade
from .ev import Pool, unseen_counts
from .game import Game, Phase
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
    """Each player as a ``PROFILES`` name (matched case-insensitively) or an ``ai.Profile``
    given as is (a custom personality); anything else is a ValueError."""
    from .ai import PROFILES, Profile

    if isinstance(players, str):
        players = players.split(",")
    by_lower = {k.lower(): k for k in PROFILES}
    out = []
    for p in players:
        if isinstance(p, Profile):
            out.append(p)
            continue
        name = by_lower.get(p.strip().lower()) if isinstance(p, str) else None
        if name is None:
            raise ValueError(
                f"unknown personality {p!r}: choose from {', '.join(PROFILES)} (or pass a golflab.ai.Profile)")
        out.append(name)
    if not 2 <= len(out) <= 6:
        raise ValueError(f"golf is for 2 to 6 players, got {len(out)} personalities")
    return out


def _name(personality) -> str:
    return personality if isinstance(personality, str) else personality.name


@dataclass(frozen=True)
class _Task:
    personalities: tuple
    rules: Rules
    seed: int
    start: int
    stop: int
    analyze: bool


def play_games(personalities: Sequence, rules: Rules, seed: int, start: int, stop: int):
    """Play games ``start..stop-1`` of a ``simulate`` run and yield each step.

    Yields ``("decision", index, game, obs, action)`` before the CPU's action is applied
    (``obs`` is the acting seat's observation; do not change ``game``), and
    ``("hole_over", index, game, None, None)`` once each hole is scored (after the last
    hole ``game.is_over``). ``personalities`` are names or ``ai.Profile``s, one per seat.
    """
    names = seat_names([_name(p) for p in personalities])
    round_over, game_over = Phase.ROUND_OVER, Phase.GAME_OVER
    for index in range(start, stop):
        gseed = game_seed(seed, index)
        game = Game(names, rules, seed=gseed)
        choosers = [bot.choose for bot in cpu_players(personalities, gseed)]
        observe, apply = game.observation, game.apply
        while True:
            phase = game._phase  # the hot loop reads the game's own fields (no property calls)
            if phase is round_over or phase is game_over:
                yield ("hole_over", index, game, None, None)
                if phase is game_over:
                    break
                game.next_round()
                continue
            seat = game._current
            obs = observe(seat)
            action = choosers[seat](obs)
            yield ("decision", index, game, obs, action)
            apply(action)


def _play_games(task: _Task) -> tuple[list, list, QualityCounters]:
    """Play games ``start..stop-1``; plain tuples so worker results pickle cheaply."""
    names = seat_names([_name(p) for p in task.personalities])
    kinds = [_name(p) for p in task.personalities]
    rounds: list[list] = []
    decisions: list[tuple] = []
    quality = QualityCounters()
    n = len(names)
    analyze = task.analyze
    first_row = 0
    for kind, index, game, obs, action in play_games(task.personalities, task.rules, task.seed,
                                                     task.start, task.stop):
        if kind == "decision":
            if analyze:
                seat = obs.seat
                g = grade(obs, action, kinds[seat], Pool(unseen_counts(obs), task.rules))
                quality.add(g)
                decisions.append((index, game.round, seat, names[seat], kinds[seat],
                                  obs.turns[seat] + 1, g.type, g.action, g.quality, g.ev, g.best_ev, g.ev_loss,
                                  g.best_action, g.case, g.phase))
            continue
        if game.round == 1:
            first_row = len(rounds)
        result = game.round_results[-1]
        turns = game.turns
        for s in range(n):
            rounds.append([index, game.round, s, names[s], kinds[s], result.scores[s],
                           result.hand_scores[s], turns[s], result.finisher == s, s in result.winners,
                           result.finisher is None])
        if game.is_over:
            totals = game.totals
            winners = set(game.winners)
            for row in rounds[first_row:]:
                row += [totals[row[2]], row[2] in winners]
    return [tuple(r) for r in rounds], decisions, quality


class _TextBar:
    """A one-line text progress bar on stderr (redrawn at most every 1%)."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        pct = 100 * done // total if total else 100
        if pct == self.shown and done != total:
            return
        self.shown = pct
        filled = pct * 30 // 100
        end = "\n" if done >= total else ""
        self.stream.write(f"\rsimulating [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games{end}")
        self.stream.flush()


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
        return _TextBar() if (interactive or progress is True) else None
    if not callable(progress):
        raise ValueError(f"progress must be a callable(done, total), True, False or None, got {progress!r}")
    return progress


@dataclass
class SimulationResult:
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
        import pandas as pd

        r = self.rounds
        per_game = r.drop_duplicates(["game", "seat"])
        out = r.groupby("personality", sort=False).agg(
            seats=("seat", "nunique"), holes=("score", "size"), mean_round_score=("score", "mean"),
            win_rate=("won_hole", "mean"), go_out_rate=("went_out", "mean"), turns_per_round=("turns", "mean"))
        out["game_win_rate"] = per_game.groupby("personality", sort=False)["won_game"].mean()
        d = self.decisions
        for g in ("BLUNDER", "MISTAKE", "QUESTIONABLE"):
            if len(d):
                counts = d[d["quality"] == g].groupby("personality").size()
                out[_COUNT_NAMES[g]] = counts.reindex(out.index, fill_value=0).astype(int)
            else:
                out[_COUNT_NAMES[g]] = pd.NA
        return out.reset_index()

    def to_dict(self) -> dict:
        """A JSON-ready digest: settings, summary rows and quality counters."""
        summary = self.summary()
        import pandas as pd

        rows = [{k: (None if v is pd.NA else _plain(v)) for k, v in row.items()}
                for row in summary.to_dict("records")]
        return {"players": list(self.players), "games": self.games, "seed": self.seed,
                "rules": self.rules.to_dict(), "summary": rows,
                "quality": self.quality.to_dict() if self.quality.total_decisions else None}


def _plain(v):
    if hasattr(v, "item"):
        return v.item()
    return v


def simulate(
    players: Sequence[str],
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    processes: int = 1,
    progress: "Progress | bool | None" = None,
    analyze: bool = True,
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
    """
    import pandas as pd

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
    report = _auto_progress(progress)
    chunk = max(1, min(CHUNK, games // 50))  # about 50 progress steps, at most CHUNK games each
    tasks = [_Task(tuple(personalities), rules, seed, a, min(a + chunk, games), bool(analyze))
             for a in range(0, games, chunk)]
    rounds: list = []
    decisions: list = []
    quality = QualityCounters()
    done = 0
    if report:
        report(0, games)
    if processes == 1 or len(tasks) == 1:
        results = map(_play_games, tasks)
        pool = None
    else:
        import multiprocessing

        pool = multiprocessing.get_context(_start_method()).Pool(min(processes, len(tasks)))
        results = pool.imap(_play_games, tasks)
    try:
        for task, (r, d, q) in zip(tasks, results):
            rounds += r
            decisions += d
            quality = quality + q
            done += task.stop - task.start
            if report:
                report(done, games)
    except BaseException:  # an interrupt or an error: stop the workers at once
        if pool is not None:
            pool.terminate()
        raise
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return SimulationResult(
        players=seat_names([_name(p) for p in personalities]), rules=rules, games=games, seed=seed,
        rounds=pd.DataFrame(rounds, columns=list(ROUND_COLUMNS)),
        decisions=pd.DataFrame(decisions, columns=list(DECISION_COLUMNS)),
        quality=quality,
    )


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


__all__ = ["SimulationResult", "game_seed", "resolve_players", "seat_names", "simulate"]
