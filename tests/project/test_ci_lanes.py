"""``make test``'s lanes (tools/test_lanes.py): the main lane runs every test file, notebook and the
README once, the reference pass runs the files it names, and a failing lane fails the run."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _lanes():
    spec = importlib.util.spec_from_file_location("test_lanes_tool", ROOT / "tools" / "test_lanes.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_main_lane_runs_every_test_file_notebook_and_the_readme_and_the_reference_names_real_files():
    lanes = _lanes()
    compile_step, main = lanes.LANES["main"]
    assert compile_step == lanes.COMPILE and lanes.command("main", compile_step, ["-x"])[1:] == ["-m", "golflab.kernel"]
    assert set(lanes.EVERYTHING) == {"README.md", "tests", "notebooks"}
    assert main.args[-len(lanes.EVERYTHING):] == lanes.EVERYTHING and main.env == ()
    assert not [arg for arg in main.args if arg.startswith(("--ignore", "--deselect", "-k", "-m"))]
    assert ["--dist", "loadfile"] == list(main.args[2:4]) and main.args[:2] == ("-n", str(lanes.WORKERS))
    assert all((ROOT / path).is_file() for path in lanes.REFERENCE_TESTS)
    assert lanes.LANES["reference"] == (lanes.Step(lanes.REFERENCE_TESTS, (("GOLFLAB_KERNEL", "0"),)),)
    assert lanes.lanes(5)["main"][1].args[:2] == ("-n", "5")


def test_files_are_handed_out_longest_first_each_in_its_own_order():
    from tests.scheduling import UNKNOWN_SECONDS, longest_first

    ids = ["README.md::README.md", "tests/a.py::one", "tests/b.py::one", "tests/a.py::two", "tests/c.py::x[1]",
           "tests/b.py::two", "notebooks/n.ipynb::Cell 0"]
    seconds = {"tests/a.py": 3.0, "tests/b.py": 40.0, "notebooks/n.ipynb": 12.0, "README.md": 1.0}
    assert longest_first(ids, seconds) == [2, 5, 6, 4, 1, 3, 0]  # b, n, c (unknown), a, README
    assert UNKNOWN_SECONDS > seconds["tests/a.py"]
    assert longest_first(ids, {}) == [0, 1, 3, 2, 5, 4, 6]  # nothing measured: the files as collected


def test_stored_durations_are_each_files_phases_summed_and_files_gone_are_dropped(tmp_path, monkeypatch):
    from tests import scheduling

    stored = tmp_path / "durations.json"
    stored.write_text(json.dumps({"tests/engine/test_game.py": 9.0, "tests/test_gone.py": 4.0,
                                  "tests/engine/test_ai.py": 2.0}))
    monkeypatch.setattr(scheduling, "DURATIONS", stored)
    recorder = scheduling.DurationRecorder(str(tmp_path / "artifacts" / "measured.json"))
    for nodeid, seconds in (("tests/engine/test_game.py::t[a]", 1.25), ("tests/engine/test_game.py::t[b]", 0.5),
                            ("notebooks/play.ipynb::Cell 3", 2.0)):
        recorder.pytest_runtest_logreport(pytest.TestReport(nodeid, ("", 0, ""), {}, "passed", None, "call", [],
                                                            duration=seconds))
    recorder.pytest_sessionfinish(None)
    assert json.loads(stored.read_text()) == {"notebooks/play.ipynb": 2.0, "tests/engine/test_ai.py": 2.0,
                                              "tests/engine/test_game.py": 1.8}
    assert json.loads((tmp_path / "artifacts" / "measured.json").read_text()) == {
        "notebooks/play.ipynb": 2.0, "tests/engine/test_game.py": 1.8}


#: Stand-ins for pytest commands (the lane tool runs whatever ``command`` gives): each ``Step``'s first
#: argument names what the command does, so the tool's handling is tested without starting pytest.
FAKES = {
    "fails": "print('1 failed'); raise SystemExit(1)",
    "passes": "import sys; sys.stdout.write('dots without a newline ' * 3); sys.stdout.flush(); print('1 passed')",
    "killed": "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",
}


def test_a_failing_command_stops_its_lane_and_fails_the_run(tmp_path, monkeypatch, capsys):
    lanes = _lanes()
    monkeypatch.setattr(lanes, "ARTIFACTS", tmp_path / "artifacts")
    monkeypatch.setattr(lanes, "command", lambda lane, step, extra: [sys.executable, "-c", FAKES[step.args[0]]])
    monkeypatch.setattr(lanes, "LANES", {"one": (lanes.Step(("fails",)), lanes.Step(("passes", "second"))),
                                         "two": (lanes.Step(("passes",)),)})
    assert lanes.main([]) == 1
    out = capsys.readouterr().out
    assert "lane one: FAILED (exit 1)" in out and "lane two: passed" in out
    one = (tmp_path / "artifacts" / "lane-one.log").read_text()
    assert "1 failed" in one and "1 passed" not in one  # the lane stopped at its failing command
    assert "dots without a newline dots" in (tmp_path / "artifacts" / "lane-two.log").read_text()
    two = (tmp_path / "artifacts" / "lane-two.log").read_text()
    # the first lane printed as it ran; the other lane's whole log and result, printed at once as it
    # ended, may stand between two of its chunks
    assert one in re.sub(r"\n== lane two: [^\n]*==\n\n", "", out.replace(two, "", 1), count=1)
    assert lanes.main(["--lane", "two"]) == 0
    out = capsys.readouterr().out
    assert "lane two: passed" in out and "lane one" not in out
    with pytest.raises(SystemExit):
        lanes.main(["--lane", "three"])
    assert "invalid choice: 'three'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        lanes.main(["--workers", "0"])
    assert "--workers must be 1 or more, got 0" in capsys.readouterr().err
    monkeypatch.setattr(lanes, "LANES", {"two": lanes.LANES["two"], "three": (lanes.Step(("killed",)),)})
    assert lanes.main([]) == 1  # a command killed by a signal (code -9) fails the run too
    assert "lane three: FAILED (exit -9)" in capsys.readouterr().out


def test_every_pytest_command_lists_its_slowest_tests_in_its_own_cache():
    lanes = _lanes()
    cmd = lanes.command("main", lanes.LANES["main"][1], ["-x"])
    assert cmd[:3] == [sys.executable, "-m", "pytest"] and "cache_dir=.pytest_cache/main" in cmd
    assert f"--durations={lanes.SLOWEST}" in cmd and cmd[-1] == "-x"


def test_the_lanes_let_python_cache_bytecode_whatever_the_callers_environment(tmp_path, monkeypatch, capsys):
    lanes = _lanes()
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("GOLFLAB_PROBE", "kept")
    module = tmp_path / "probe_module.py"
    module.write_text("X = 1\n")
    probe = ("import os, sys; sys.path.insert(0, sys.argv[1]); import probe_module; "
             "print('flag', sys.flags.dont_write_bytecode, os.environ['GOLFLAB_PROBE'], os.environ['STEP_ENV'])")
    monkeypatch.setattr(lanes, "ARTIFACTS", tmp_path / "artifacts")
    monkeypatch.setattr(lanes, "command", lambda lane, step, extra: [sys.executable, "-c", probe, str(tmp_path)])
    monkeypatch.setattr(lanes, "LANES", {"one": (lanes.Step((), (("STEP_ENV", "mine"),)),)})
    assert lanes.main([]) == 0
    assert "flag 0 kept mine" in capsys.readouterr().out  # the rest of the environment and the step's own stay
    assert list((tmp_path / "__pycache__").glob("probe_module.*.pyc"))
