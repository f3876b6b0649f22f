"""The columns of a simulation's frames: its rounds, its decisions and its summary."""

from __future__ import annotations

ROUND_COLUMNS = ("game", "round", "seat", "player", "personality", "score", "hand_score", "turns",
                 "went_out", "won_hole", "stalled", "final_total", "won_game")
DECISION_COLUMNS = ("game", "round", "seat", "player", "personality", "turn", "type", "action", "quality",
                    "ev", "best_ev", "ev_loss", "best_action", "case", "phase")
#: The grades counted in the summary, and their columns.
COUNT_NAMES = {"BLUNDER": "blunders", "MISTAKE": "mistakes", "QUESTIONABLE": "questionable"}
#: The columns of ``SimulationResult.summary()``, in order.
SUMMARY_COLUMNS = ("personality", "seats", "holes", "mean_round_score", "win_rate", "go_out_rate",
                   "turns_per_round", "game_win_rate", *COUNT_NAMES.values())
