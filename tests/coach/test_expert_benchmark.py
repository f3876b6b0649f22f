"""``benchmarks/expert.py`` and the command line with the Expert: what they write and print. Run
once, with the compiled kernel: the Python reference pass (``tools/test_lanes.py``) checks the
Expert's moves themselves in ``test_expert.py``, and these files do not depend on the kernel."""

from __future__ import annotations

import subprocess
import sys

import pytest

from golflab import Rules, simulate


def test_simulate_and_the_cli_accept_the_expert_and_the_classic_expert():
    result = simulate(["Expert", "Sofia"], 1, rules=Rules(rounds=1), seed=1, processes=1)
    assert set(result.rounds.personality) == {"Expert", "Sofia"}
    out = subprocess.run([sys.executable, "-m", "golflab", "simulate", "--players", "classic expert,Sofia",
                          "--games", "1", "--rule", "rounds=1", "--processes", "1"],
                         check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert any(line.split()[:2] == ["Classic", "Expert"] for line in out.stdout.splitlines())


def _expert_bench():
    """``benchmarks/expert.py`` as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "expert.py"
    spec = importlib.util.spec_from_file_location("expert_bench", path)
    bench = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_the_benchmark_writes_each_deal_so_runs_pool_exactly(small_search, tmp_path, capsys):
    import csv

    bench = _expert_bench()
    out = tmp_path / "deals.csv"
    assert bench.main(["--versus", "marcus", "--rounds", "4", "--seed", "3", "4", "--report", "1",
                       "--csv", str(out)]) == 0
    rows = list(csv.reader(out.open()))
    assert tuple(rows[0]) == bench.CSV_HEADER
    assert [r[:3] for r in rows[1:]] == [["marcus", s, d] for s in ("3", "4") for d in ("0", "1")]
    margins = [float(r[5]) for r in rows[1:]]
    assert all(abs(float(r[3]) - float(r[4]) - float(r[5])) < 1e-3 for r in rows[1:])
    printed = capsys.readouterr().out
    assert "an interval needs 2 deals" in printed  # the first report, after one deal
    assert "seeds 3, 4 pooled: Expert v marcus (2 v 2): 8 rounds (4 deals)" in printed
    assert f"margin {sum(margins) / 4:+.2f}" in printed.split("pooled:")[1]
    with pytest.raises(SystemExit):
        bench.main(["--csv", str(tmp_path / "no" / "such" / "dir.csv")])
    assert "--csv cannot write" in capsys.readouterr().err


def test_the_benchmark_goes_on_from_a_deal_and_pools_the_runs_as_one(small_search, tmp_path, capsys):
    import csv

    bench = _expert_bench()
    whole, head, tail = (tmp_path / f"{name}.csv" for name in ("whole", "head", "tail"))
    run = ["--versus", "marcus", "--seed", "3", "--report", "4"]
    assert bench.main([*run, "--rounds", "8", "--csv", str(whole)]) == 0
    assert bench.main([*run, "--rounds", "4", "--csv", str(head)]) == 0
    assert bench.main([*run, "--rounds", "4", "--first-deal", "2", "--csv", str(tail)]) == 0
    printed = capsys.readouterr().out
    assert "seed 3, 4 rounds per matchup, from deal 2" in printed

    def deals(path):
        return list(csv.reader(path.open()))[1:]

    assert [row[2] for row in deals(tail)] == ["2", "3"]
    assert deals(head) + deals(tail) == deals(whole)  # the same deals, whichever run plays them
    whole_figures = next(line for line in printed.splitlines() if "8 rounds (4 deals)" in line)
    assert bench.main(["--pool", str(head), str(tail)]) == 0
    pooled = capsys.readouterr().out
    assert f"{head}, {tail} pooled: " + whole_figures.split("; Expert move")[0] in pooled
    for paths, says in (([head, whole], "deal 0 of seed 3 against marcus is also in"),
                        ([tmp_path / "none.csv"], "No such file"),
                        ([tmp_path / "pooled.txt"], "is not a --csv file of this benchmark")):
        (tmp_path / "pooled.txt").write_text(pooled)
        with pytest.raises(SystemExit):
            bench.main(["--pool", *map(str, paths)])
        assert says in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bench.main(["--first-deal", "-1"])
    assert "--first-deal must be 0 or more, got -1" in capsys.readouterr().err


def test_two_versions_of_the_expert_are_compared_deal_by_deal(tmp_path, capsys):
    """``--compare``: the change of margin on the deals both runs played, its interval from the
    per-deal changes; files that share no deal, or are no --csv file, are refused."""
    bench = _expert_bench()
    header = ",".join(bench.CSV_HEADER)
    before, after, other = (tmp_path / f"{name}.csv" for name in ("before", "after", "other"))
    before.write_text(f"{header}\nmarcus,0,0,8,6,2\nmarcus,0,1,9,6,3\nmarcus,0,2,10,6,4\n")
    after.write_text(f"{header}\nmarcus,0,0,9,6,3\nmarcus,0,1,9,5,4\nmarcus,0,3,9,9,0\n")  # deal 3: not in before
    other.write_text(f"{header}\nmarcus,1,0,9,6,3\n")  # another seed
    assert bench.main(["--compare", str(before), str(after)]) == 0
    said = capsys.readouterr().out
    assert "Expert v marcus, 2 deals (4 rounds) in both: margin +2.50 before, +3.50 after; change +1.00" in said
    assert "(95% interval +1.00 to +1.00)" in said  # both deals changed by exactly one point
    for paths, says in (([str(before), str(other)], "share no deal"),
                        ([str(before), str(tmp_path / "none.csv")], "No such file")):
        with pytest.raises(SystemExit):
            bench.main(["--compare", *paths])
        assert says in capsys.readouterr().err
