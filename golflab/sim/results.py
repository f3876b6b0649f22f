"""A run's results: its columns (``ROUND_COLUMNS``, ``DECISION_COLUMNS``, ``SUMMARY_COLUMNS``),
its frames (``SimulationResult``) or only running per-personality totals (``Tally``,
``SimulationSummary``), each giving the same summary table and digest.

pandas is needed for the frames and the tables and is imported only where they are built."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..analysis import GRADES, QualityCounters
from ..rules import Rules

ROUND_COLUMNS = ("game", "round", "seat", "player", "personality", "score", "hand_score", "turns",
                 "went_out", "won_hole", "stalled", "final_total", "won_game")
DECISION_COLUMNS = ("game", "round", "seat", "player", "personality", "turn", "type", "action", "quality",
                    "ev", "best_ev", "ev_loss", "best_action", "case", "phase")
#: The grades counted in the summary, and their columns.
COUNT_NAMES = {"BLUNDER": "blunders", "MISTAKE": "mistakes", "QUESTIONABLE": "questionable"}
#: The columns of ``SimulationResult.summary()``, in order.
SUMMARY_COLUMNS = ("personality", "seats", "holes", "mean_round_score", "win_rate", "go_out_rate",
                   "turns_per_round", "game_win_rate", *COUNT_NAMES.values())


class Tally:
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
    def of_frames(cls, rounds, decisions) -> "Tally":
        """The totals of a run's ``rounds`` and ``decisions`` frames."""
        tally = cls()
        tally.add_rounds(rounds[list(ROUND_COLUMNS)].itertuples(index=False, name=None))
        if len(decisions):
            tally.add_grades(decisions.groupby(["personality", "quality"], sort=False).size().items())
        return tally

    def frame(self) -> Any:
        """The summary table (see ``SimulationResult.summary``)."""
        import pandas as pd  # local: pandas is heavy, and only the tables need it

        rows = []
        for personality, t in self.by.items():
            if not t["holes"]:
                continue
            holes, games = t["holes"], t["games"]
            row = {"personality": personality, "seats": len(t["seats"]), "holes": holes,
                   "mean_round_score": t["score"] / holes, "win_rate": t["won_hole"] / holes,
                   "go_out_rate": t["went_out"] / holes, "turns_per_round": t["turns"] / holes,
                   "game_win_rate": t["won_game"] / games}
            for g, column in COUNT_NAMES.items():
                row[column] = t["grades"][g] if self.graded else pd.NA
            rows.append(row)
        return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)

    def grade_counts(self) -> Any:
        """Decisions per personality (rows, in order of first appearance) and grade (columns,
        ``analysis.GRADES`` order)."""
        import pandas as pd  # local: pandas is heavy

        counts = {name: [t["grades"][g] for g in GRADES] for name, t in self.by.items()}
        return pd.DataFrame.from_dict(counts, orient="index", columns=list(GRADES)).rename_axis("personality")


@dataclass
class Digest:
    """A run's settings, which both results carry, and ``to_dict`` over them, the subclass's
    ``quality`` and its ``summary()``."""

    players: list
    rules: Rules
    games: int
    seed: int

    def to_dict(self) -> dict:
        """A JSON-ready digest: settings, summary rows and quality counters."""
        import pandas as pd  # local: pandas is heavy

        rows = [{k: (None if v is pd.NA else plain(v)) for k, v in row.items()}
                for row in self.summary().to_dict("records")]
        return {"players": list(self.players), "games": self.games, "seed": self.seed,
                "rules": self.rules.to_dict(), "summary": rows,
                "quality": self.quality.to_dict() if self.quality.total_decisions else None}


@dataclass
class SimulationResult(Digest):
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

    rounds: Any
    decisions: Any
    quality: QualityCounters = field(default_factory=QualityCounters)

    def summary(self) -> Any:
        """Per personality: seats, holes, mean round score, hole and game win rates, go-out
        rate, turns per hole, and decisions graded BLUNDER / MISTAKE / QUESTIONABLE."""
        return Tally.of_frames(self.rounds, self.decisions).frame()


@dataclass
class SimulationSummary(Digest):
    """What ``summarize`` returns: a run's ``summary()`` and ``quality``, without frames
    (``tally``: the running totals they are read from)."""

    quality: QualityCounters
    tally: Tally = field(repr=False)

    def summary(self) -> Any:
        """The same table as ``SimulationResult.summary()`` of the same run."""
        return self.tally.frame()

    def grade_counts(self) -> Any:
        """Decisions per personality (rows, in order of first appearance) and grade (columns,
        ``analysis.GRADES`` order): ``simulate``'s ``decisions`` counted, without the frame."""
        return self.tally.grade_counts()


def plain(v):
    """A numpy scalar as the Python number it holds (anything else as it is)."""
    if hasattr(v, "item"):
        return v.item()
    return v
