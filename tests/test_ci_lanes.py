"""``make test``'s lanes (tools/test_lanes.py): between them they run every test file, README
and notebook once, and the reference pass runs the files it names."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lanes():
    spec = importlib.util.spec_from_file_location("test_lanes_tool", ROOT / "tools" / "test_lanes.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _collected_files(args) -> list[str]:
    """The files of the tests pytest collects from ``args`` (one entry per file)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return sorted({line.split("::")[0] for line in done.stdout.splitlines() if "::" in line})


def test_the_lanes_run_every_test_file_once_and_the_reference_pass_names_real_files():
    lanes = _lanes()
    once = [step for steps in lanes.LANES.values() for step in steps if "GOLFLAB_KERNEL" not in dict(step.env)]
    collected = [_collected_files(step.args) for step in once]
    everywhere = [f for files in collected for f in files]
    assert len(everywhere) == len(set(everywhere)), "a file runs in two lanes"
    expected = {"README.md", *(str(p.relative_to(ROOT)) for p in ROOT.glob("tests/**/test_*.py")),
                *(str(p.relative_to(ROOT)) for p in ROOT.glob("notebooks/*.ipynb")),
                *(str(p.relative_to(ROOT)) for p in ROOT.glob("tests/*.ipynb"))}
    assert set(everywhere) == expected, (expected - set(everywhere), set(everywhere) - expected)
    assert _collected_files(lanes.LANES["culling"][0].args) == [lanes.CULLING]  # waiting beside the others
    assert all((ROOT / path).is_file() for path in lanes.REFERENCE_TESTS)
    reference = [step for step in lanes.LANES["engine"] if dict(step.env).get("GOLFLAB_KERNEL") == "0"]
    assert [step.args for step in reference] == [lanes.REFERENCE_TESTS]


def test_a_failing_command_stops_its_lane_and_fails_the_run(tmp_path, monkeypatch, capsys):
    lanes = _lanes()
    failing, passing = tmp_path / "test_fails.py", tmp_path / "test_passes.py"
    failing.write_text("def test_no():\n    assert 1 == 2\n")
    passing.write_text("def test_yes():\n    pass\n")
    monkeypatch.setattr(lanes, "ARTIFACTS", tmp_path / "artifacts")
    monkeypatch.setattr(lanes, "LANES", {
        "one": (lanes.Step((str(failing), "-p", "no:cacheprovider")), lanes.Step((str(passing),))),
        "two": (lanes.Step((str(passing), "-p", "no:cacheprovider")),)})
    assert lanes.main([]) == 1
    out = capsys.readouterr().out
    assert "lane one: FAILED (exit 1)" in out and "lane two: passed" in out
    one = (tmp_path / "artifacts" / "lane-one.log").read_text()
    assert "1 failed" in one and str(passing) not in one  # the lane stopped at its failing command
    assert "1 passed" in (tmp_path / "artifacts" / "lane-two.log").read_text()
    assert one in out  # the first lane printed as it ran
    assert lanes.main(["--lane", "two"]) == 0
    out = capsys.readouterr().out
    assert "lane two: passed" in out and "lane one" not in out
    with pytest.raises(SystemExit):
        lanes.main(["--lane", "three"])
    assert "invalid choice: 'three'" in capsys.readouterr().err
    killed = tmp_path / "test_killed.py"
    killed.write_text("import os, signal\n\ndef test_gone():\n    os.kill(os.getpid(), signal.SIGKILL)\n")
    monkeypatch.setattr(lanes, "LANES", {"two": lanes.LANES["two"],
                                         "three": (lanes.Step((str(killed), "-p", "no:cacheprovider")),)})
    assert lanes.main([]) == 1  # a pytest killed by a signal (code -9) fails the run too
    assert "lane three: FAILED (exit -9)" in capsys.readouterr().out
