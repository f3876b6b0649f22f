"""The command line, run as a user runs it: ``python -m golflab ...`` in a subprocess."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from golflab.cli import parse_rule_value

QUICK = ["--games", "3", "--rule", "rounds=1"]


def run(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "golflab", *args], capture_output=True, text=True, timeout=timeout)


def test_simulate_prints_a_summary_table():
    out = run("simulate", "--players", "Sofia,Maya", "--seed", "1", "--rule", "flip_mode=always", *QUICK)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "3 games" in lines[0] and "flip: always" in lines[0]
    header = lines[1].split()
    for col in ("personality", "mean_round_score", "win_rate", "go_out_rate", "turns_per_round", "blunders"):
        assert col in header
    assert lines[2].split()[0] == "Sofia" and lines[3].split()[0] == "Maya"
    assert out.stderr == ""  # no progress bar when stderr is not a terminal


def test_simulate_json_parses_and_matches_the_arguments():
    out = run("simulate", "--players", "Priya,marcus,Priya", "--json", "--seed", "4", *QUICK)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["players"] == ["Priya", "Marcus", "Priya 2"]
    assert data["games"] == 3 and data["seed"] == 4 and data["rules"]["rounds"] == 1
    assert {row["personality"] for row in data["summary"]} == {"Priya", "Marcus"}
    assert data["quality"]["total_turns"] > 0 and "rates" in data["quality"]


def test_simulate_is_deterministic_and_processes_do_not_change_it():
    args = ("simulate", "--players", "Kenji,Sage", "--json", "--seed", "2", "--games", "30", "--rule", "rounds=1")
    a, b = run(*args), run(*args, "--processes", "2")
    assert a.returncode == b.returncode == 0
    assert json.loads(a.stdout) == json.loads(b.stdout)


def test_simulate_writes_rounds_csv(tmp_path):
    target = tmp_path / "rounds.csv"
    out = run("simulate", "--players", "Sofia,Maya", "--csv", str(target), "--no-analysis", *QUICK)
    assert out.returncode == 0, out.stderr
    with target.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 3 * 1 * 2
    assert {"game", "round", "player", "score", "turns", "went_out"} <= set(rows[0])


@pytest.mark.parametrize("args,expected", [
    (["simulate", "--players", "Sofia,Bob"], "unknown personality 'Bob' in --players: choose from Sofia, Maya, Priya"),
    (["simulate", "--players", "Sofia"], "2 to 6 players"),
    (["simulate", "--players", "Sofia,Maya", "--rule", "colour=red"], "unknown rule 'colour': allowed rules are"),
    (["simulate", "--players", "Sofia,Maya", "--rule", "flip_mode=sometimes"],
     "flip_mode must be one of never, always, endgame, got 'sometimes'"),
    (["simulate", "--players", "Sofia,Maya", "--rule", "rounds=40"], "rounds must be from 1 to 18, got 40"),
    (["simulate", "--players", "Sofia,Maya", "--rule", "knock_bonus=maybe"], "knock_bonus must be True or False"),
    (["simulate", "--players", "Sofia,Maya", "--rule", "rounds"], "--rule expects name=value"),
    (["simulate", "--players", "Sofia,Maya", "--games", "ten"], "--games must be a whole number >= 1, got 'ten'"),
    (["simulate", "--players", "Sofia,Maya", "--games", "0"], "--games must be a whole number >= 1, got 0"),
    (["simulate", "--players", "Sofia,Maya", "--processes", "-1"], "--processes must be a whole number >= 1"),
    (["simulate", "--players", "Sofia,Maya", "--seed", "x"], "seed must be a whole number, got 'x'"),
    (["simulate"], "the following arguments are required: --players"),
    (["simulate", "--players", "Sofia,Maya", "--bogus"], "unrecognized arguments: --bogus"),
    (["fly"], "invalid choice: 'fly'"),
    (["simulate", "--players", "Sofia,Maya", "--csv", "/nonexistent-dir/x.csv", "--games", "1",
      "--rule", "rounds=1"], "cannot write --csv /nonexistent-dir/x.csv"),
])
def test_bad_input_is_one_line_exit_two_no_traceback(args, expected):
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("golflab: error: ") and expected in lines[0]
    assert "Traceback" not in out.stderr


def test_help_and_rules_listing():
    top = run("--help")
    assert top.returncode == 0 and "simulate" in top.stdout and "rules" in top.stdout
    sim = run("simulate", "--help")
    assert sim.returncode == 0 and "--players" in sim.stdout and "--rule" in sim.stdout
    rules = run("rules")
    assert rules.returncode == 0
    names = [line.split()[0] for line in rules.stdout.splitlines()]
    assert names[:3] == ["rounds", "initial_flips", "flip_mode"] and "wolfpack" in names
    assert "Tens are worth 1 instead of 10." in rules.stdout


def test_no_command_is_usage_and_one_error_line_on_stderr_exit_two():
    out = run()
    assert out.returncode == 2 and out.stdout == ""
    usage, error = out.stderr.splitlines()
    assert usage.startswith("usage: golflab") and "COMMAND" in usage
    assert error == "golflab: error: a command is required: simulate, sweep or rules (see golflab --help)"


@pytest.mark.parametrize("args", [["rules"], ["simulate", "--players", "Sofia,Maya", "--games", "1"]])
def test_a_bad_default_in_the_environment_is_one_line_exit_two(args):
    env = {**os.environ, "DEFAULT_ROUNDS": "abc"}
    out = subprocess.run([sys.executable, "-m", "golflab", *args], capture_output=True, text=True, timeout=120,
                         env=env)
    assert out.returncode == 2 and out.stdout == "", out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("golflab: error: ") and "DEFAULT_ROUNDS" in lines[0], out.stderr


def _children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def _as_a_terminal_starts_it() -> None:
    """Ctrl-C as a terminal's foreground job has it: a job started in the background by a script
    (``nohup make test &``) inherits SIGINT ignored, and Python then keeps ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads worker processes from /proc (Linux)")
@pytest.mark.parametrize("games", ["100000", "1000000000000"])
def test_a_huge_run_starts_at_once_and_ctrl_c_exits_130_with_one_line_and_no_workers(tmp_path, games):
    """Even --games 10**12 starts its workers without building the run in memory first;
    a Ctrl-C (SIGINT to the process group, as a terminal sends it) ends it cleanly."""
    target = tmp_path / "rounds.csv"
    proc = subprocess.Popen([sys.executable, "-m", "golflab", "simulate", "--players", "Sofia,Maya", "--games",
                             games, "--processes", "2", "--csv", str(target)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_as_a_terminal_starts_it)
    try:
        workers: list[int] = []
        for _ in range(1200):  # up to two minutes on a loaded machine
            workers = _children(proc.pid)
            if len(workers) >= 2 or proc.poll() is not None:
                break
            assert _rss_mb(proc.pid) < 1000, "the run grabs memory before it starts"
            time.sleep(0.1)
        assert len(workers) >= 2, "no worker processes started"
        peak = _rss_mb(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130 and out == ""
    assert err.splitlines() == ["golflab: interrupted"], err
    assert peak < 500
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")], "worker processes were left running"
    assert not target.exists() and os.listdir(tmp_path) == []  # no half-written CSV


def test_summary_json_and_csv_match_the_in_memory_simulation(tmp_path):
    """The CLI keeps only running totals and streams the CSV: its output is what
    golflab.simulate's result gives for the same run."""
    from golflab import Rules
    from golflab.simulation import simulate

    target = tmp_path / "rounds.csv"
    out = run("simulate", "--players", "Sofia,Maya,Sofia", "--games", "6", "--seed", "5", "--rule", "rounds=2",
              "--json", "--csv", str(target), "--processes", "2")
    assert out.returncode == 0, out.stderr
    result = simulate(["Sofia", "Maya", "Sofia"], 6, Rules(rounds=2), seed=5, progress=False)
    assert json.loads(out.stdout) == json.loads(json.dumps(result.to_dict()))
    assert target.read_text() == result.rounds.to_csv(index=False)
    text = run("simulate", "--players", "Sofia,Maya,Sofia", "--games", "6", "--seed", "5", "--rule", "rounds=2")
    assert text.stdout.splitlines()[1:] == (
        result.summary().to_string(index=False, float_format=lambda x: f"{x:.3f}").splitlines()
        + text.stdout.splitlines()[-3:])


@pytest.mark.parametrize("text,value", [
    ("true", True), ("Yes", True), ("off", False), ("3", 3), ("-1", -1), ("always", "always"),
    ("auto", None), ("eagle_eye", "eagle_eye"),
])
def test_rule_values_parse_as_int_bool_or_str(text, value):
    assert parse_rule_value(text) == value and type(parse_rule_value(text)) is type(value)


def test_main_is_callable_in_process(capsys):
    from golflab.__main__ import main

    assert main(["rules"]) == 0
    assert "max_turns" in capsys.readouterr().out
    assert main(["simulate", "--players", "Sofia,Nobody"]) == 2
    assert "unknown personality 'Nobody'" in capsys.readouterr().err


def test_a_closed_pipe_is_not_an_error():
    cmd = f"{sys.executable} -m golflab rules | head -1"
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60)
    assert out.stdout.startswith("rounds") and "Traceback" not in out.stderr
