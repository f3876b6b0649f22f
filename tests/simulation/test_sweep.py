"""``python -m golflab sweep``: a grid of house rules x lineups into a tidy table that resumes."""

from __future__ import annotations

import pandas as pd
import pytest

from golflab import Rules, sweep
from golflab.cli import main
from golflab.simulation import summarize

ARGS = ["sweep", "--players", "Sofia,Maya", "--players", "Kenji,Sofia,Sofia", "--grid", "flip_mode=never,always",
        "--grid", "rounds=1,2", "--rule", "jokers=standard", "--games", "3", "--seed", "4"]
CELLS = 8


def _sweep(out, *extra) -> int:
    return main([*ARGS, "--out", str(out), *extra])


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run's file."""
    out = tmp_path_factory.mktemp("sweep") / "ref.csv"
    assert _sweep(out) == 0
    return out.read_bytes()


@pytest.fixture
def counted(monkeypatch):
    """The lineups' cells played, as (players, flip_mode, rounds), in order."""
    played = []

    def counting(players, games, rules, **kwargs):
        played.append((tuple(players), rules.flip_mode, rules.rounds))
        return summarize(players, games, rules, **kwargs)

    monkeypatch.setattr(sweep, "summarize", counting)
    return played


def test_the_table_has_one_row_per_personality_per_cell_and_matches_summarize(reference, tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(reference)
    table = pd.read_csv(path)
    assert list(table.columns) == sweep.columns({"flip_mode": 0, "rounds": 0})
    assert len(table) == 4 * 2 + 4 * 2  # Kenji+Sofia+Sofia: two personalities
    assert table["cell"].nunique() == CELLS
    cell = table[table["cell"] == 7]
    assert set(cell["players"]) == {"Kenji+Sofia+Sofia"} and set(cell["flip_mode"]) == {"always"}
    expected = summarize(["Kenji", "Sofia", "Sofia"], 3, Rules(flip_mode="always", rounds=2, jokers="standard"),
                         seed=4, progress=False).summary()
    got = cell[list(expected.columns)].reset_index(drop=True)
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)


def test_an_interrupted_sweep_resumes_without_recomputing_finished_cells(reference, tmp_path, monkeypatch, capsys):
    out = tmp_path / "s.csv"
    calls = []

    def interrupted(players, games, rules, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return summarize(players, games, rules, **kwargs)

    monkeypatch.setattr(sweep, "summarize", interrupted)
    assert _sweep(out) == 130
    assert capsys.readouterr().err.strip().splitlines()[-1] == "golflab: interrupted"
    assert pd.read_csv(out)["cell"].nunique() == 3
    played = []
    monkeypatch.setattr(sweep, "summarize", lambda *a, **k: played.append(a) or summarize(*a, **k))
    assert _sweep(out) == 0
    assert len(played) == CELLS - 3
    assert "3 kept from an earlier run" in capsys.readouterr().out
    assert out.read_bytes() == reference
    assert _sweep(out) == 0 and len(played) == CELLS - 3  # nothing left to play
    assert out.read_bytes() == reference


@pytest.mark.parametrize("cut", ["mid_line", "mid_cell", "mid_header", "header_only"])
def test_a_file_cut_short_anywhere_is_completed_to_the_uninterrupted_file(reference, tmp_path, counted, cut):
    header = reference.index(b"\n") + 1
    cell3 = reference.index(b"\n3,") + 1  # the first row of cell 3 (cells 0-2 are complete before it)
    offsets = {"mid_line": cell3 + 7, "mid_cell": reference.index(b"\n", cell3) + 1, "mid_header": 10,
               "header_only": header}
    out = tmp_path / "s.csv"
    out.write_bytes(reference[:offsets[cut]])
    assert _sweep(out) == 0
    assert out.read_bytes() == reference
    assert len(counted) == {"mid_line": CELLS - 3, "mid_cell": CELLS - 3}.get(cut, CELLS)


@pytest.mark.parametrize("change", [["--seed", "5"], ["--games", "2"], ["--no-analysis"], ["--rule", "ten_penny=true"],
                                    ["--grid", "ten_penny=false"]])
def test_another_sweeps_file_is_refused_and_left_unchanged(reference, tmp_path, capsys, change):
    out = tmp_path / "s.csv"
    out.write_bytes(reference)
    assert main([*ARGS, *change, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds another sweep" in err
    assert out.read_bytes() == reference


def test_worker_processes_and_a_dask_scheduler_address_write_the_same_file(reference, tmp_path):
    import distributed  # the test extra's

    assert _sweep(tmp_path / "p.csv", "--processes", "2") == 0
    assert (tmp_path / "p.csv").read_bytes() == reference
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://")
        assert _sweep(tmp_path / "d.csv", "--scheduler", cluster.scheduler_address) == 0
    assert (tmp_path / "d.csv").read_bytes() == reference


def test_worker_processes_start_once_for_the_whole_sweep_not_once_per_cell(reference, tmp_path, monkeypatch):
    from golflab.sim import pool

    started = []

    def counting(workers):
        started.append(workers)
        return pool.worker_pool(workers)

    monkeypatch.setattr(sweep, "worker_pool", counting)
    assert _sweep(tmp_path / "p.csv", "--processes", "2") == 0
    assert started == [2] and (tmp_path / "p.csv").read_bytes() == reference


def test_progress_is_shown_on_stderr(tmp_path, capsys):
    assert _sweep(tmp_path / "s.csv") == 0
    err = capsys.readouterr().err
    assert "sweeping [" in err and err.endswith(f"] {CELLS * 3}/{CELLS * 3} games\n")


@pytest.mark.parametrize("extra, expected", [
    (["--grid", "flip_moods=never"], "unknown rule 'flip_moods' in --grid: allowed rules are "),
    (["--grid", "flip_mode"], "--grid expects name=value1,value2,..."),
    (["--grid", "ten_penny=true,"], "--grid ten_penny needs comma-separated values with none empty"),
    (["--grid", "ten_penny=true,yes"], "--grid ten_penny repeats a value"),
    (["--grid", "initial_flips=2,7"], "bad cell (Sofia+Maya; flip_mode=never, rounds=1, initial_flips=7): "),
    (["--grid", "rounds=3"], "rule 'rounds' is given twice in --grid"),
    (["--grid", "jokers=none"], "rule 'jokers' is both fixed (--rule) and swept (--grid)"),
    (["--players", "Sofia,Zed"], "unknown personality 'Zed' in --players"),
    (["--scheduler", "tcp://127.0.0.1:1"], "cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'"),
    (["--scheduler", "tcp://x:1", "--processes", "2"], "not allowed with argument"),
])
def test_bad_input_is_one_line_exit_two_and_writes_nothing(tmp_path, capsys, extra, expected):
    out = tmp_path / "s.csv"
    assert _sweep(out, *extra) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("golflab: error: ") and expected in err, err
    assert not out.exists()


def test_parquet_without_pyarrow_is_a_clear_error(tmp_path, capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a))
    assert _sweep(tmp_path / "s.parquet") == 2
    assert "needs pyarrow (not installed): give a .csv file instead" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
