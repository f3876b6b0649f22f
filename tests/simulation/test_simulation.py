"""golflab.simulate: frames, determinism (also across processes), progress, errors, personalities."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

import golflab
from golflab import Rules
from golflab.analysis import CASES, GRADES
from golflab.simulation import DECISION_COLUMNS, ROUND_COLUMNS, game_seed, seat_names, simulate
from tests.support.kernel_marks import needs_compiled

SHORT = Rules(rounds=2)


@pytest.fixture(scope="module")
def small():
    return simulate(["Sofia", "Maya", "Priya"], 6, SHORT, seed=3, progress=False)


def test_rounds_frame_has_one_row_per_player_per_hole(small):
    r = small.rounds
    assert list(r.columns) == list(ROUND_COLUMNS)
    assert len(r) == 6 * 2 * 3
    assert sorted(r.groupby(["game", "round"]).size().unique()) == [3]
    assert set(r["player"]) == {"Sofia", "Maya", "Priya"}


def test_rounds_frame_is_consistent_with_the_rules(small):
    r = small.rounds
    holes = r.groupby(["game", "round"])
    # at most one finisher per hole, and exactly one unless the hole stalled
    went_out = holes["went_out"].sum()
    stalled = holes["stalled"].first()
    assert ((went_out == 1) | stalled).all() and (went_out <= 1).all()
    # the hole's winners have its lowest score
    low = holes["score"].transform("min")
    assert (r["won_hole"] == (r["score"] == low)).all()
    # default rules: no adjustments, round score = hand score
    assert (r["score"] == r["hand_score"]).all()
    # the final total is the sum of the game's round scores; the game winners have the lowest
    totals = r.groupby(["game", "seat"])["score"].sum()
    assert (r.set_index(["game", "seat"])["final_total"].groupby(level=[0, 1]).first() == totals).all()
    per_game = r.drop_duplicates(["game", "seat"])
    best = per_game.groupby("game")["final_total"].transform("min")
    assert (per_game["won_game"] == (per_game["final_total"] == best)).all()
    assert (r["turns"] >= 1).all()


def test_decisions_frame_grades_every_decision(small):
    d = small.decisions
    assert list(d.columns) == list(DECISION_COLUMNS)
    assert set(d["type"]) <= {"take_discard", "draw", "swap", "discard", "flip", "skip_flip"}
    assert set(d["quality"]) <= set(GRADES)
    assert set(d["phase"]) <= {"early", "mid", "late"}
    assert (d["ev_loss"] >= 0).all()
    assert ((d["ev_loss"] - (d["ev"] - d["best_ev"])).abs() < 1e-9).all()
    assert set(d["case"].dropna()) <= set(CASES)
    # every turn starts with draw or take; turns in the rounds frame count the same turns
    starts = d[d["type"].isin(["draw", "take_discard"])]
    assert len(starts) == small.quality.total_turns == small.rounds["turns"].sum()
    assert small.quality.total_decisions == len(d)
    assert sum(small.quality.grades.values()) == len(d)


def test_same_arguments_same_frames(small):
    again = simulate(["Sofia", "Maya", "Priya"], 6, SHORT, seed=3, progress=False)
    pd.testing.assert_frame_equal(small.rounds, again.rounds)
    pd.testing.assert_frame_equal(small.decisions, again.decisions)
    assert small.quality == again.quality
    other = simulate(["Sofia", "Maya", "Priya"], 6, SHORT, seed=4, progress=False)
    assert not small.rounds.equals(other.rounds)


def test_processes_two_equals_processes_one():
    one = simulate(["Marcus", "Kenji"], 60, Rules(rounds=1), seed=8, progress=False)
    two = simulate(["Marcus", "Kenji"], 60, Rules(rounds=1), seed=8, processes=2, progress=False)
    pd.testing.assert_frame_equal(one.rounds, two.rounds)
    pd.testing.assert_frame_equal(one.decisions, two.decisions)
    assert one.quality == two.quality


def test_a_game_depends_only_on_the_master_seed_and_its_index():
    ten = simulate(["Sofia", "Diego"], 10, Rules(rounds=1), seed=2, progress=False, analyze=False)
    four = simulate(["Sofia", "Diego"], 4, Rules(rounds=1), seed=2, progress=False, analyze=False)
    pd.testing.assert_frame_equal(ten.rounds[ten.rounds["game"] < 4], four.rounds)
    assert len({game_seed(2, i) for i in range(100)}) == 100 and game_seed(2, 0) != game_seed(3, 0)


def test_without_analysis_decisions_are_empty_and_rounds_unchanged(small):
    plain = simulate(["Sofia", "Maya", "Priya"], 6, SHORT, seed=3, progress=False, analyze=False)
    pd.testing.assert_frame_equal(plain.rounds, small.rounds)
    assert plain.decisions.empty and list(plain.decisions.columns) == list(DECISION_COLUMNS)
    assert plain.quality.total_decisions == 0
    assert plain.summary()["blunders"].isna().all()


def test_repeated_personalities_get_distinct_seat_names():
    assert seat_names(["Sofia", "Sofia", "Maya", "Sofia"]) == ["Sofia", "Sofia 2", "Maya", "Sofia 3"]
    res = simulate(["sofia", "Sofia"], 2, Rules(rounds=1), seed=1, progress=False, analyze=False)
    assert res.players == ["Sofia", "Sofia 2"]
    assert set(res.rounds["player"]) == {"Sofia", "Sofia 2"} and set(res.rounds["personality"]) == {"Sofia"}
    summary = res.summary()
    assert list(summary["personality"]) == ["Sofia"] and summary["seats"].iloc[0] == 2


def test_summary_per_personality(small):
    s = small.summary()
    assert list(s["personality"]) == ["Sofia", "Maya", "Priya"]
    for col in ("mean_round_score", "win_rate", "go_out_rate", "turns_per_round", "game_win_rate",
                "blunders", "mistakes", "questionable"):
        assert col in s.columns
    r = small.rounds
    sofia = r[r["personality"] == "Sofia"]
    row = s.set_index("personality").loc["Sofia"]
    assert row["mean_round_score"] == pytest.approx(sofia["score"].mean())
    assert row["go_out_rate"] == pytest.approx(sofia["went_out"].mean())
    assert row["turns_per_round"] == pytest.approx(sofia["turns"].mean())
    d = small.decisions
    assert row["mistakes"] == ((d["personality"] == "Sofia") & (d["quality"] == "MISTAKE")).sum()


def test_progress_callback_reports_every_chunk_up_to_the_total():
    calls = []
    simulate(["Sofia", "Maya"], 60, Rules(rounds=1), seed=1, progress=lambda done, total: calls.append((done, total)),
             analyze=False)
    assert calls[0] == (0, 60) and calls[-1] == (60, 60)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and {t for _, t in calls} == {60}


def test_progress_is_silent_when_stderr_is_not_a_terminal(capfd):
    simulate(["Sofia", "Maya"], 2, Rules(rounds=1), seed=1, analyze=False)
    assert capfd.readouterr().err == ""


def test_progress_true_draws_a_text_bar(capsys):
    simulate(["Sofia", "Maya"], 2, Rules(rounds=1), seed=1, analyze=False, progress=True)
    err = capsys.readouterr().err
    assert "simulating [" in err and "2/2 games" in err


def test_to_dict_is_json_ready(small):
    import json

    data = json.loads(json.dumps(small.to_dict()))
    assert data["games"] == 6 and data["rules"]["rounds"] == 2
    assert [row["personality"] for row in data["summary"]] == ["Sofia", "Maya", "Priya"]
    assert data["quality"]["total_turns"] == small.quality.total_turns


@pytest.mark.parametrize("kwargs,match", [
    (dict(players=["Sofia", "Bob"]), "unknown personality 'Bob': choose from Sofia, Maya"),
    (dict(players=["Sofia"]), "2 to 6 players"),
    (dict(players=["Sofia"] * 7), "2 to 6 players"),
    (dict(games=0), "games must be a whole number >= 1"),
    (dict(games=2.5), "games must be a whole number >= 1"),
    (dict(processes=0), "processes must be a whole number >= 1"),
    (dict(seed="x"), "seed must be a whole number"),
    (dict(rules={"rounds": 1}), "rules must be a golflab.Rules"),
    (dict(progress=5), "progress must be a callable"),
])
def test_bad_arguments_are_clear_errors(kwargs, match):
    args = dict(players=["Sofia", "Maya"], games=1, rules=Rules(rounds=1), progress=False, analyze=False)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        simulate(**args)


def test_simulate_is_reachable_from_golflab_and_golflab_imports_without_pandas():
    assert golflab.simulate is simulate and "simulate" in golflab.__all__
    code = ("import sys; sys.modules['pandas'] = None; import golflab, golflab.ev, golflab.analysis, "
            "golflab.simulation; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "ok", out.stderr


def test_every_option_and_table_size_simulates():
    """A few games under unusual rules and six seats: results stay well formed."""
    rules = Rules(rounds=1, flip_mode="endgame", jokers="eagle_eye", wolfpack=True, knock_penalty=True,
                  underdog_bonus=True, tied_shame=True, blackjack=True, super_kings=True)
    res = simulate(["Sofia", "Maya", "Priya", "Marcus", "Kenji", "Diego"], 4, rules, seed=5, progress=False)
    assert len(res.rounds) == 4 * 6
    assert not res.decisions.empty and res.decisions["ev"].notna().all()


def test_processes_work_from_a_plain_script_without_a_main_guard(tmp_path):
    script = tmp_path / "run.py"
    script.write_text("import golflab\nfrom golflab import Rules\n"
                      "r = golflab.simulate(['Sofia', 'Maya'], 4, Rules(rounds=1), seed=1, processes=2,\n"
                      "                     progress=False)\n"
                      "print(len(r.rounds))\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "8"


def test_analysis_holds_up_under_random_options_and_table_sizes():
    """24 random rule combinations, 2-6 seats, one hole each: every decision graded, values finite."""
    import math
    import random

    from golflab import BOOL_RULES, FLIP_MODES, JOKER_MODES
    from golflab.ai import PROFILES

    rng = random.Random(7)
    for i in range(24):
        options = {b: rng.random() < 0.3 for b in BOOL_RULES}
        rules = Rules(rounds=1, flip_mode=rng.choice(FLIP_MODES), jokers=rng.choice(JOKER_MODES),
                      initial_flips=rng.choice([0, 1, 2]), **options)
        players = rng.choices(list(PROFILES), k=rng.randint(2, 6))
        res = simulate(players, 2, rules, seed=i, progress=False)
        d = res.decisions
        assert len(d) == res.quality.total_decisions > 0
        assert all(math.isfinite(x) for x in d["ev"]) and (d["ev_loss"] >= 0).all()
        assert (d["phase"].isin(["early", "mid", "late"])).all()


def test_custom_profiles_play_under_their_own_name():
    from dataclasses import replace

    from golflab.ai import PROFILES

    bold = replace(PROFILES["Sofia"], name="Bold Sofia", aggression=0.95)
    res = simulate([bold, "Sofia"], 20, Rules(rounds=1), seed=6, progress=False, processes=2)
    assert res.players == ["Bold Sofia", "Sofia"]
    assert set(res.rounds["personality"]) == {"Bold Sofia", "Sofia"}
    assert set(res.decisions["personality"]) == {"Bold Sofia", "Sofia"}
    with pytest.raises(ValueError, match="or pass a golflab.ai.Profile"):
        simulate(["Sofia", 3], 1, progress=False)


def test_an_error_in_the_progress_callback_stops_the_workers_and_propagates():
    def stop(done, total):
        if done >= 4:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        simulate(["Sofia", "Maya"], 400, Rules(rounds=1), seed=1, processes=2, progress=stop, analyze=False)


@pytest.mark.parametrize("players, games, rules, analyze, processes", [
    (["Sofia", "Maya", "Priya"], 6, SHORT, True, 1),
    (["Kenji", "Kenji", "Sage"], 7, Rules(rounds=1, flip_mode="always"), True, 2),
    (["River", "Diego"], 9, SHORT, False, 1),
])
def test_summarize_keeps_running_totals_that_equal_simulate(players, games, rules, analyze, processes):
    from golflab.simulation import summarize

    rows: list = []
    kept = summarize(players, games, rules, seed=4, progress=False, analyze=analyze, processes=processes,
                     rounds=rows.extend)
    full = simulate(players, games, rules, seed=4, progress=False, analyze=analyze)
    pd.testing.assert_frame_equal(kept.summary(), full.summary(), check_exact=True)
    assert kept.to_dict() == full.to_dict() and kept.quality == full.quality
    assert pd.DataFrame(rows, columns=list(ROUND_COLUMNS)).equals(full.rounds)


def test_summarize_memory_does_not_grow_with_games():
    import tracemalloc

    from golflab.simulation import summarize

    def peak(games: int) -> int:
        summarize(["Sofia", "Maya"], 2, Rules(rounds=1), progress=False, analyze=False)  # warm caches
        tracemalloc.start()
        try:
            summarize(["Sofia", "Maya"], games, Rules(rounds=1), progress=False, analyze=False)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    # 1,850 more games: simulate, which keeps every row, needs about 1.4 MB more; the
    # running totals need nothing more (a few hundred KB of garbage-collection noise).
    small, large = peak(150), peak(2000)
    assert large - small < 700_000, (small, large)


@pytest.mark.parametrize("kernel", [False, pytest.param(True, marks=needs_compiled)])
def test_play_games_can_yield_one_stage_only(kernel):
    """``awaiting="place"`` yields just the placements, with their observations, of the same games."""
    from golflab.simulation import play_games

    players, rules = ["Sofia", "Maya"], Rules(rounds=2)

    def decisions(**only):
        played = play_games(players, rules, 4, 0, 3, kernel=kernel, **only)
        return [(i, g.round, str(o.awaiting), a) for kind, i, g, o, a in played if kind == "decision"]

    places = decisions(awaiting="place")
    assert places == [d for d in decisions() if d[2] == "place"] and places
