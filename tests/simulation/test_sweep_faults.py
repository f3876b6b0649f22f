"""``golflab sweep --out`` under faults and hostile input (issue 23, points 3-6): a sweep only
ever resumes its own file, refuses anything else leaving it exactly as it was, holds a lock
while it runs, and treats Parquet as it treats CSV."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time

import pandas as pd
import pytest

from golflab import sweep
from golflab.cli import main
from golflab.simulation import summarize

ARGS = ["sweep", "--players", "Sofia,Maya", "--grid", "rounds=1,2", "--grid", "flip_mode=never,always", "--games", "2",
        "--seed", "3"]
CELLS = 4


def _sweep(out, *extra) -> int:
    return main([*ARGS, "--out", str(out), *extra])


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> bytes:
    """An uninterrupted run's CSV file."""
    out = tmp_path_factory.mktemp("faults") / "ref.csv"
    assert _sweep(out) == 0
    return out.read_bytes()


@pytest.fixture
def counted(monkeypatch):
    """The cells played, in order."""
    played = []

    def counting(players, games, rules, **kwargs):
        played.append(rules.rounds)
        return summarize(players, games, rules, **kwargs)

    monkeypatch.setattr(sweep, "summarize", counting)
    return played


def _refused(capsys, path, *expected) -> str:
    """The one error line of a refusal, checked to name ``path`` and the ``expected`` words."""
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("golflab: error: ") and str(path) in err, err
    for words in expected:
        assert words in err, err
    return err


# -- point 3: files the sweep did not write ------------------------------------------------

@pytest.mark.parametrize("content", [
    b'{"version": 2, "players": ["Ann", "Bob"]}',  # a golf save: no newline at all
    b"my notes\nabout the sweep\n",
    b"x" * 5_000_000,  # a large blob without a newline
    b"cell,players,rounds,other\n0,Sofia+Maya,1,2\n",  # another sweep's columns
    b"\xff\xfe\x00c\x00e\x00l\x00l",
])
def test_a_file_the_sweep_did_not_write_is_refused_and_left_as_it_was(tmp_path, capsys, counted, content):
    out = tmp_path / "s.csv"
    out.write_bytes(content)
    assert _sweep(out) == 2
    _refused(capsys, out, "choose another file or remove it")
    assert out.read_bytes() == content
    assert counted == [] and sorted(os.listdir(tmp_path)) == ["s.csv"]  # no lock file left either


@pytest.mark.parametrize("name", ["game.json", "results", "table.txt", "s.csv.bak"])
def test_only_csv_or_parquet_is_written(tmp_path, capsys, name):
    out = tmp_path / name
    out.write_bytes(b'{"a": 1}')
    assert _sweep(out) == 2
    _refused(capsys, out, "--out must end in .csv or .parquet")
    assert out.read_bytes() == b'{"a": 1}'
    assert _sweep(tmp_path / "new.dat") == 2 and not (tmp_path / "new.dat").exists()


def test_an_empty_file_or_a_cut_short_header_is_ours_to_complete(reference, tmp_path):
    for content in (b"", reference[:7]):
        out = tmp_path / "s.csv"
        out.write_bytes(content)
        assert _sweep(out) == 0 and out.read_bytes() == reference


# -- point 6: not a regular file ----------------------------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "dev_full", "dev_stdout", "directory"])
def test_what_is_not_a_regular_file_is_refused_at_once(tmp_path, kind):
    """Run as a user does (a FIFO would hang a reader): one line, exit 2, nothing written."""
    out = tmp_path / "s.csv"
    if kind == "fifo":
        os.mkfifo(out)
    elif kind == "directory":
        out.mkdir()
    else:
        out.symlink_to("/dev/full" if kind == "dev_full" else "/dev/stdout")
    proc = subprocess.run([sys.executable, "-m", "golflab", *ARGS, "--out", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [proc.stderr.strip()] and "is not a regular file" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and os.listdir(tmp_path) == ["s.csv"]


@pytest.mark.parametrize("target", ["/dev/full", "/dev/stdout"])
def test_devices_named_directly_are_refused(capsys, target):
    assert _sweep(target) == 2
    _refused(capsys, target, "--out must end in .csv or .parquet")


# -- point 6: rows changed after they were written ---------------------------------------------

def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _mutated(reference: bytes, how: str) -> bytes:
    lines = _lines(reference)
    row = lines[3].decode().split(",")
    if how == "emptied":
        row[-3] = ""
    elif how == "changed_digit":
        row[-5] = row[-5].replace("0", "1", 1) if "0" in row[-5] else row[-5] + "1"
    elif how == "not_a_number":
        row[-4] = "abc"
    if how in ("emptied", "changed_digit", "not_a_number"):
        lines[3] = ",".join(row).encode()
    elif how == "crlf":
        lines[3] += b"\r"
    elif how == "bad_utf8":
        lines[3] = lines[3].replace(b"Maya", b"Ma\xffya")
    elif how == "duplicated":  # two sweeps interleaved
        lines.insert(3, lines[3])
    elif how == "dropped":
        del lines[3]
    elif how == "swapped":
        lines[1], lines[2] = lines[2], lines[1]
    return b"\n".join(lines)


@pytest.mark.parametrize("how, expected", [
    ("emptied", "line 4 (cell 1): it was changed after it was written"),
    ("changed_digit", "line 4 (cell 1): it was changed after it was written"),
    ("not_a_number", "line 4 (cell 1): it was changed after it was written"),
    ("crlf", "line 4 (cell 1): it is not a line as a sweep writes it"),
    ("bad_utf8", "has a line that is not UTF-8 text (line 4)"),
    ("duplicated", "line 5"),
    ("dropped", "line 4"),
    ("swapped", "line 2 (cell 0): it is not the row of Sofia"),
])
def test_a_changed_row_is_refused_naming_the_file_and_line(reference, tmp_path, capsys, counted, how, expected):
    out = tmp_path / "s.csv"
    data = _mutated(reference, how)
    assert data != reference
    out.write_bytes(data)
    assert _sweep(out) == 2
    _refused(capsys, out, expected)
    assert out.read_bytes() == data and counted == []


def test_a_fuzzed_file_is_completed_to_the_reference_or_refused_untouched(reference, tmp_path, capsys, counted):
    """Seeded random corruptions (bytes flipped, removed, inserted, a cut): each run either
    ends with the uninterrupted file (exit 0) or refuses with one line and the file as it was."""
    rng = random.Random(23)
    outcomes = {0: 0, 2: 0}
    for case in range(60):
        data = bytearray(reference)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data))
            kind = rng.choice(["flip", "delete", "insert", "cut"])
            if kind == "flip":
                data[at] = rng.choice(b"0123456789,.-\n\rabc\xff")
            elif kind == "delete":
                del data[at:at + rng.randint(1, 40)]
            elif kind == "insert":
                data[at:at] = bytes(rng.choice(b"0123456789,\n\xffx") for _ in range(rng.randint(1, 5)))
            else:
                del data[at:]
        out = tmp_path / f"f{case}.csv"
        out.write_bytes(bytes(data))
        code = _sweep(out)
        err = capsys.readouterr().err
        assert code in (0, 2), (case, err)
        outcomes[code] += 1
        if code == 0:
            assert out.read_bytes() == reference, case
        else:
            assert err.count("\n") == 1 and str(out) in err, (case, err)
            assert out.read_bytes() == bytes(data), case
        assert not (tmp_path / f"f{case}.csv.lock").exists()
    assert outcomes[0] and outcomes[2]  # both kinds of case were met


# -- point 4: one sweep at a time on one --out -----------------------------------------------

def test_a_second_sweep_on_the_same_out_is_refused_naming_the_holder(reference, tmp_path, capsys, counted):
    out = tmp_path / "s.csv"
    out.write_bytes(reference[:reference.index(b"\n1,") + 1])
    before = out.read_bytes()
    with sweep.locked(str(out)) as lock:
        assert _sweep(out) == 2
        _refused(capsys, out, f"is being written by another sweep (pid {os.getpid()} on {socket.gethostname()}",
                 "wait for it to finish or choose another --out")
        assert out.read_bytes() == before and counted == [] and os.path.exists(lock)
    assert not os.path.exists(lock)
    assert _sweep(out) == 0 and out.read_bytes() == reference  # once released: resumed


def test_the_lock_holds_for_the_file_however_it_is_named(tmp_path, capsys, counted):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "alias.csv").symlink_to(tmp_path / "real" / "s.csv")
    with sweep.locked(str(tmp_path / "real" / "s.csv")):
        for spelling in (tmp_path / "link" / "s.csv", tmp_path / "real" / ".." / "real" / "s.csv",
                         tmp_path / "alias.csv"):
            assert _sweep(spelling) == 2
            _refused(capsys, spelling, "is being written by another sweep")
    assert counted == [] and not (tmp_path / "real" / "s.csv").exists()


def test_a_lock_left_by_a_killed_sweep_does_not_block_the_next(reference, tmp_path):
    out = tmp_path / "s.csv"
    (tmp_path / "s.csv.lock").write_text("999999 somewhere\n")  # its holder is gone: the lock is free
    assert _sweep(out) == 0 and out.read_bytes() == reference
    assert os.listdir(tmp_path) == ["s.csv"]


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32", reason="POSIX signals and flock")
def test_two_real_sweeps_one_is_refused_at_once_and_sigterm_leaves_a_resumable_file(tmp_path):
    out = tmp_path / "s.csv"
    cmd = [sys.executable, "-m", "golflab", "sweep", "--players", "Sofia,Maya", "--grid", "rounds=1,2", "--games",
           "1000000", "--no-analysis", "--out", str(out)]
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lock = tmp_path / "s.csv.lock"
        for _ in range(1200):  # up to two minutes on a loaded machine
            if lock.exists() and lock.read_text().strip():
                break
            assert first.poll() is None, first.communicate()
            time.sleep(0.1)
        assert lock.read_text().split() == [str(first.pid), socket.gethostname()]
        second = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.splitlines() == [
            f"golflab: error: {out} is being written by another sweep (pid {first.pid} on {socket.gethostname()}; "
            f"lock file {lock}): wait for it to finish or choose another --out"]
        first.send_signal(signal.SIGTERM)
        _out, err = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 143 and err.splitlines()[-1] == "golflab: terminated", err
    assert "Traceback" not in err
    assert os.listdir(tmp_path) == ["s.csv"]  # the lock is gone, the file is the header: resumable
    assert out.read_text() == ",".join(sweep.columns({"rounds": 0})) + "\n"


# -- point 5: Parquet resumes and refuses as CSV does -------------------------------------------

@pytest.fixture
def parquet_ready():
    pytest.importorskip("pyarrow")


def test_a_finished_parquet_sweep_is_not_recomputed(reference, tmp_path, capsys, counted, parquet_ready):
    out = tmp_path / "s.parquet"
    assert _sweep(out) == 0 and len(counted) == CELLS
    data = out.read_bytes()
    (tmp_path / "r.csv").write_bytes(reference)
    pd.testing.assert_frame_equal(pd.read_parquet(out),
                                  pd.read_csv(tmp_path / "r.csv", keep_default_na=False, na_values=[""]))
    capsys.readouterr()
    assert _sweep(out) == 0 and len(counted) == CELLS  # nothing recomputed
    assert f"{CELLS} kept from an earlier run" in capsys.readouterr().out
    assert out.read_bytes() == data and sorted(os.listdir(tmp_path)) == ["r.csv", "s.parquet"]


@pytest.mark.parametrize("change", [["--seed", "5"], ["--games", "1"], ["--no-analysis"]])
def test_another_sweeps_parquet_is_refused_and_left_unchanged(tmp_path, capsys, counted, parquet_ready, change):
    out = tmp_path / "s.parquet"
    assert _sweep(out) == 0
    data = out.read_bytes()
    played = len(counted)
    capsys.readouterr()
    assert _sweep(out, *change) == 2
    _refused(capsys, out, "holds another sweep")
    assert out.read_bytes() == data and len(counted) == played


@pytest.mark.parametrize("what", ["plain_table", "garbage", "changed_rows"])
def test_a_parquet_the_sweep_did_not_write_is_refused(tmp_path, capsys, counted, parquet_ready, what):
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "s.parquet"
    if what == "plain_table":
        pd.DataFrame({"a": [1, 2]}).to_parquet(out)
        expected = "has no sweep record"
    elif what == "garbage":
        out.write_bytes(b"PAR1 but not really")
        expected = "not a readable parquet file"
    else:
        assert _sweep(out) == 0
        table = pq.read_table(out)
        changed = table.set_column(table.schema.get_field_index("mean_round_score"), "mean_round_score",
                                   pa.array([0.0] * len(table)))
        pq.write_table(changed.replace_schema_metadata(table.schema.metadata), out)
        expected = "has rows that differ from its sweep record"
    data = out.read_bytes()
    played = len(counted)
    capsys.readouterr()
    assert _sweep(out) == 2
    _refused(capsys, out, expected)
    assert out.read_bytes() == data and len(counted) == played


def test_an_interrupted_parquet_sweep_resumes_from_its_partial_csv(reference, tmp_path, monkeypatch, capsys,
                                                                   parquet_ready):
    out = tmp_path / "s.parquet"
    calls = []

    def interrupted(players, games, rules, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return summarize(players, games, rules, **kwargs)

    monkeypatch.setattr(sweep, "summarize", interrupted)
    assert _sweep(out) == 130
    assert sorted(os.listdir(tmp_path)) == ["s.parquet.partial.csv"]
    assert (tmp_path / "s.parquet.partial.csv").read_bytes() == reference[:reference.index(b"\n2,") + 1]
    monkeypatch.setattr(sweep, "summarize", summarize)
    assert _sweep(out) == 0 and "2 kept from an earlier run" in capsys.readouterr().out
    assert sorted(os.listdir(tmp_path)) == ["s.parquet"]
    (tmp_path / "r.csv").write_bytes(reference)
    pd.testing.assert_frame_equal(pd.read_parquet(out),
                                  pd.read_csv(tmp_path / "r.csv", keep_default_na=False, na_values=[""]))


def test_a_corrupted_parquet_partial_is_refused_like_a_csv(reference, tmp_path, capsys, parquet_ready):
    partial = tmp_path / "s.parquet.partial.csv"
    data = _mutated(reference, "emptied")
    partial.write_bytes(data)
    assert _sweep(tmp_path / "s.parquet") == 2
    _refused(capsys, partial, "it was changed after it was written")
    assert partial.read_bytes() == data and sorted(os.listdir(tmp_path)) == ["s.parquet.partial.csv"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("rows", [1, 4, 7])
def test_a_sweep_killed_with_sigkill_resumes_to_the_uninterrupted_file(reference, tmp_path, rows):
    """Killed once it has written at least ``rows`` lines (its lock file stays behind), the
    rerun keeps what is complete and ends with the uninterrupted file."""
    out = tmp_path / "s.csv"
    proc = subprocess.Popen([sys.executable, "-m", "golflab", *ARGS, "--out", str(out)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(1200):  # up to two minutes on a loaded machine
            if proc.poll() is not None or (out.exists() and out.read_bytes().count(b"\n") >= rows):
                break
            time.sleep(0.01)
    finally:
        proc.kill()
        proc.wait()
    assert _sweep(out) == 0
    assert out.read_bytes() == reference and os.listdir(tmp_path) == ["s.csv"]
