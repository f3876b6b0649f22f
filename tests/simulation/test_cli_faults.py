"""The command line under faults and odd input (issue 23, points 9 and 10): output that
cannot be written, closed streams, signals, and inputs that were silently ignored or
accepted in one place and refused in another."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
import weakref

import pytest

from golflab import Rules
from golflab.cli import main, parse_rule
from golflab.cli_output import Terminated, check_terminated, on_sigterm, sigterm_held, watching
from golflab.sweep import parse_grid

GOLFLAB = [sys.executable, "-m", "golflab"]
QUICK = ["--players", "Sofia,Maya", "--games", "2", "--rule", "rounds=1"]


def _one_error_line(proc, code: int, *expected: str) -> None:
    assert proc.returncode == code, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("golflab: error: "), proc.stderr
    for words in expected:
        assert words in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


# -- point 9: no tracebacks when the output cannot be written -------------------------------

@pytest.mark.parametrize("args", [["rules"], ["--help"], ["simulate", *QUICK], ["simulate", *QUICK, "--json"]])
def test_a_full_disk_on_stdout_is_one_line_exit_one(args):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*GOLFLAB, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    _one_error_line(proc, 1, "cannot write the output: No space left on device")


@pytest.mark.parametrize("args", [["rules"], ["sweep", "--help"], ["simulate", *QUICK]])
def test_a_closed_stdout_is_one_line_exit_one(args):
    proc = subprocess.run(" ".join([*GOLFLAB, *args]) + " >&-", shell=True, stderr=subprocess.PIPE, text=True,
                          timeout=120)
    _one_error_line(proc, 1, "cannot write the output: standard output is closed")


def test_a_closed_stderr_still_gives_the_exit_code_and_prints_nothing_on_stdout():
    proc = subprocess.run(" ".join([*GOLFLAB, "simulate", "--players", "Sofia,Nobody"]) + " 2>&-", shell=True,
                          stdout=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""


@pytest.mark.parametrize("command", [["simulate", *QUICK], ["sweep", "--players", "Sofia,Maya", "--grid", "rounds=1,2",
                                                          "--games", "1", "--out", "s.csv"]])
def test_stderr_on_a_full_disk_does_not_stop_the_work(tmp_path, command):
    """The progress bar and messages go to stderr: a full one loses them, not the run."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*GOLFLAB, *command], stdout=subprocess.PIPE, stderr=full, text=True, timeout=120,
                              cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout
    if command[0] == "sweep":
        assert len((tmp_path / "s.csv").read_text().splitlines()) == 1 + 2 * 2


# -- point 10: small inconsistencies ---------------------------------------------------------

def test_a_5000_digit_seed_is_refused_saying_how_many_digits_are_allowed(capsys):
    limit = sys.get_int_max_str_digits()
    assert main(["simulate", *QUICK, "--seed", "9" * 5000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"seed must be a whole number of at most {limit} digits, got one of 5000 digits" in err
    assert "9" * 50 not in err  # the number itself is not echoed


def test_a_huge_bad_number_is_quoted_short(capsys):
    assert main(["simulate", *QUICK, "--seed", "x" * 100_000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seed must be a whole number, got 'xxxx" in err and len(err) < 300


def test_the_largest_allowed_seed_runs(capsys):
    seed = "9" * sys.get_int_max_str_digits()
    assert main(["simulate", *QUICK, "--seed", seed, "--no-analysis"]) == 0
    assert capsys.readouterr().out.startswith("2 games")


@pytest.mark.parametrize("args, expected", [
    (["simulate", *QUICK, "--csv", ""], "argument --csv: --csv needs a file name, got ''"),
    (["simulate", *QUICK, "--csv", "  "], "argument --csv: --csv needs a file name, got '  '"),
    (["sweep", "--players", "Sofia,Maya", "--out", "s.csv", "--scheduler", ""],
     "argument --scheduler: --scheduler needs an address, got ''"),
    (["sweep", "--players", "Sofia,Maya", "--out", ""], "argument --out: --out needs a file name, got ''"),
    (["simulate", *QUICK, "--csv", "a\x00b.csv"], "--csv needs a file name without a NUL character"),
    (["sweep", "--players", "Sofia,Maya", "--out", "a\x00b.csv"], "--out needs a file name without a NUL character"),
])
def test_an_empty_file_name_or_address_is_refused_not_ignored(tmp_path, monkeypatch, capsys, args, expected):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("text", ["none", "None", "auto", "automatic", "AUTO"])
def test_decks_none_means_automatic_in_rule_and_grid_alike(text):
    assert parse_rule("decks", text) is None
    assert parse_grid([f"decks={text},2"], parse_rule) == {"decks": [None, 2]}
    assert parse_rule("jokers", "none") == "none"  # a choice named none stays a choice


def test_a_sweep_over_decks_none_runs(tmp_path, capsys):
    out = tmp_path / "d.csv"
    assert main(["sweep", "--players", "Sofia,Maya", "--grid", "decks=none,2", "--rule", "rounds=1", "--games", "1",
                 "--no-analysis", "--out", str(out)]) == 0
    assert [line.split(",")[2] for line in out.read_text().splitlines()[1:]] == ["auto", "auto", "2", "2"]
    assert main(["simulate", "--players", "Sofia,Maya", "--rule", "decks=none", "--rule", "rounds=1", "--games",
                 "1", "--no-analysis"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("var", ["DEFAULT_ROUNDS", "DEFAULT_INITIAL_FLIPS", "DEFAULT_USE_JOKERS", "DEFAULT_FLIP_MODE"])
@pytest.mark.parametrize("blank", ["", "  "])
def test_an_empty_default_variable_means_the_built_in_default_for_every_one(monkeypatch, var, blank):
    for name in ("DEFAULT_ROUNDS", "DEFAULT_INITIAL_FLIPS", "DEFAULT_USE_JOKERS", "DEFAULT_FLIP_MODE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(var, blank)
    assert (Rules().rounds, Rules().initial_flips, Rules().jokers, Rules().flip_mode) == (9, 2, "none", "never")


def test_an_empty_default_rounds_on_the_command_line_is_the_built_in_nine():
    env = {**os.environ, "DEFAULT_ROUNDS": "", "DEFAULT_USE_JOKERS": ""}
    proc = subprocess.run([*GOLFLAB, "rules"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.splitlines()[0].split()[:3] == ["rounds", "default", "9"]


# -- point 10: no hidden .partial left by a killed simulate --csv ---------------------------

def _wait_for(predicate, proc, what: str) -> None:
    for _ in range(1200):  # up to two minutes on a loaded machine
        if predicate():
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _partials(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".partial"))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("processes", ["1", "2"])
def test_sigterm_ends_simulate_cleanly_leaving_nothing(tmp_path, processes):
    target = tmp_path / "rounds.csv"
    proc = subprocess.Popen([*GOLFLAB, "simulate", "--players", "Sofia,Maya", "--games", "1000000", "--processes",
                             processes, "--csv", str(target)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        _wait_for(lambda: _partials(tmp_path), proc, "the partial file")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (proc.returncode, out) == (143, ""), err
    assert err.splitlines() == ["golflab: terminated"], err
    assert os.listdir(tmp_path) == []


def test_a_sigterm_while_the_csv_file_is_being_made_leaves_nothing(tmp_path, monkeypatch):
    """The partial file exists before ``CsvRounds`` returns: SIGTERM's Terminated raised then
    (seen in a fresh-clone run: the test's signal came as soon as the file appeared) removes it."""
    from golflab import cli_output

    def terminated(*_args):
        raise cli_output.Terminated

    monkeypatch.setattr(cli_output.os, "chmod", terminated)
    with pytest.raises(cli_output.Terminated):
        cli_output.CsvRounds(str(tmp_path / "rounds.csv"))
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_sigterm_inside_a_held_block_is_raised_as_the_outermost_block_ends():
    """Between ``CsvRounds`` making its partial file and ``simulate`` holding it, a SIGTERM left
    the file behind (2 runs in 150 on a loaded machine): in ``sigterm_held`` it waits."""
    restore = on_sigterm()
    steps = []
    try:
        with pytest.raises(Terminated):
            with sigterm_held():
                with sigterm_held():
                    signal.raise_signal(signal.SIGTERM)
                    steps.append("inner")
                steps.append("outer")  # the inner block's end does not raise: the outer still holds
            steps.append("after")
    finally:
        restore()
    assert steps == ["inner", "outer"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_sigterm_during_an_import_is_raised_once_the_import_is_done(tmp_path, monkeypatch):
    """Raised inside numpy's import, SIGTERM's Terminated left its C core half made; the import
    that followed failed ("cannot load module more than once per process": exit 1, not 143).
    Now the module is finished first, and the signal, sent again, raises right after."""
    (tmp_path / "signalled_module.py").write_text(
        "import signal\nsignal.raise_signal(signal.SIGTERM)\nFINISHED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    restore = on_sigterm()
    waited = []
    try:
        with pytest.raises(Terminated):
            import signalled_module  # noqa: F401  (its body gets the signal)

            for _ in range(3000):  # the resent signal raises within a few RESEND_AFTER, here
                waited.append(time.sleep(0.01))
            pytest.fail("SIGTERM came during an import and was never raised")
        assert sys.modules["signalled_module"].FINISHED
        assert len(waited) < 3000
        with pytest.raises(Terminated):
            check_terminated()  # the flag stays: a later check raises too
    finally:
        restore()
        sys.modules.pop("signalled_module", None)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_sigterm_python_drops_is_raised_at_the_next_chunk_without_a_traceback(capsys):
    """SIGTERM's Terminated raised inside a callback Python calls itself (here a weakref's; in
    CI, one of importlib's during an import) is dropped, and the run went on to its end."""
    hook, handling = sys.unraisablehook, signal.getsignal(signal.SIGTERM)
    shown = []
    restore = on_sigterm()
    try:
        report = watching(lambda done, total: shown.append(done))
        report(1, 4)

        class Thing:
            pass

        thing = Thing()
        ref = weakref.ref(thing, lambda _: signal.raise_signal(signal.SIGTERM))
        del thing  # the callback runs now; the handler's raise inside it is dropped
        assert ref() is None
        with pytest.raises(Terminated):
            report(2, 4)
    finally:
        restore()
    assert shown == [1]
    assert capsys.readouterr().err == ""  # no "Exception ignored" traceback
    assert (sys.unraisablehook, signal.getsignal(signal.SIGTERM)) == (hook, handling)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_partial_left_by_a_killed_run_names_it_and_the_next_run_removes_it(tmp_path):
    target = tmp_path / "rounds.csv"
    proc = subprocess.Popen([*GOLFLAB, "simulate", "--players", "Sofia,Maya", "--games", "1000000", "--csv",
                             str(target)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for(lambda: _partials(tmp_path), proc, "the partial file")
    finally:
        proc.kill()  # SIGKILL: nothing can clean up
        proc.communicate()
    (left,) = _partials(tmp_path)
    assert left.startswith(f".rounds.csv.golflab-{socket.gethostname()}-{proc.pid}-")
    alive = f".rounds.csv.golflab-{socket.gethostname()}-{os.getpid()}-abc.partial"  # a run still going
    elsewhere = f".rounds.csv.golflab-another-host-{proc.pid}-abc.partial"  # not ours to judge
    other = f".other.csv.golflab-{socket.gethostname()}-{proc.pid}-abc.partial"  # another file's
    for name in (alive, elsewhere, other):
        (tmp_path / name).write_text("x")
    done = subprocess.run([*GOLFLAB, "simulate", *QUICK, "--no-analysis", "--csv", str(target)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _partials(tmp_path) == sorted([alive, elsewhere, other])
    assert target.read_text().startswith("game,")


# -- fuzz: hostile command lines never end in a traceback -----------------------------------

HOSTILE = ["", " ", "-1", "0", "9" * 5000, "x" * 10_000, "a\x00b", "é", "=", ",", "none", "auto", "decks=none",
           "rounds=", "=3", "flip_mode=never,,always", "ten_penny=true,true", "--rule", "--grid", "--out", "--csv",
           "--seed", "--games", "Sofia,,Maya", "Sofia,Sofia,Sofia,Sofia,Sofia,Sofia,Sofia", "s.json", "s.csv",
           "/dev/full", "d.csv/", "sub/../s.parquet"]
BASES = [
    ["simulate", "--players", "Sofia,Maya", "--games", "1", "--rule", "rounds=1", "--no-analysis", "--seed", "2"],
    ["sweep", "--players", "Sofia,Maya", "--grid", "rounds=1,2", "--games", "1", "--no-analysis", "--out", "s.csv"],
    ["rules"],
]


def test_fuzzed_command_lines_end_in_an_exit_code_and_at_most_one_error_line(tmp_path, monkeypatch, capsys):
    """Seeded mutations of valid command lines (a token replaced, dropped, doubled, or a
    hostile one inserted): each returns 0 or 2 from main, and a refusal is one line."""
    monkeypatch.chdir(tmp_path)
    rng = random.Random(23)
    codes = {0: 0, 2: 0}
    for case in range(300):
        args = list(rng.choice(BASES))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(args) + 1)
            how = rng.choice(["replace", "drop", "double", "insert"])
            if how == "replace" and at < len(args):
                args[at] = rng.choice(HOSTILE)
            elif how == "drop" and at < len(args):
                del args[at]
            elif how == "double" and at < len(args):
                args.insert(at, args[at])
            else:
                args.insert(at, rng.choice(HOSTILE))
        code = main(args)
        out, err = capsys.readouterr()
        assert code in codes, (case, args, err)
        codes[code] += 1
        if code == 2:
            lines = [line for line in err.splitlines() if not line.startswith(("usage:", "sweeping ["))]
            assert len(lines) == 1 and lines[0].startswith("golflab: error: ") and len(lines[0]) < 600, (case, args,
                                                                                                       err)
    assert codes[0] and codes[2]


OPTIONS = {"simulate": ["--players", "--games", "--seed", "--rule", "--csv", "--processes"],
           "sweep": ["--players", "--grid", "--rule", "--games", "--seed", "--out"]}


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_every_option_given_every_hostile_value_ends_in_an_exit_code_and_one_line(tmp_path, monkeypatch, capsys,
                                                                                   command):
    monkeypatch.chdir(tmp_path)
    base = {"simulate": BASES[0], "sweep": BASES[1]}[command]
    for option in OPTIONS[command]:
        for value in HOSTILE:
            args = [*base, option, value]
            code = main(args)
            err = capsys.readouterr().err
            assert code in (0, 2), (args, err)
            if code == 2:
                lines = [line for line in err.splitlines() if not line.startswith("sweeping [")]
                assert len(lines) == 1 and lines[0].startswith("golflab: error: ") and len(lines[0]) < 600, (args, err)
