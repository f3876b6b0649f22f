"""The compiled cache under faults (issue 23.7), as a user meets them: ``python -m golflab``
and ``python -m golflab.kernel`` in subprocesses, on a temporary copy of the cache
(``NUMBA_CACHE_DIR``), never the real one.

A damaged cache (a truncated ``.nbc``, a garbage ``.nbi``) leaves the games to the Python
reference at once, the same results, with one line on stderr that names the file and the
rebuild command; ``python -m golflab.kernel`` rebuilds it. A read-only complete cache, with
HOME read-only too, is read as it is: nothing is compiled again or written.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from golflab.kernel import cache
from tests.support.kernel_marks import needs_compiled

REBUILD = "python -m golflab.kernel"
PLAY = ["simulate", "--players", "Sofia,Maya", "--games", "100", "--no-analysis"]  # played by engine.play_games
GRADE = ["simulate", "--players", "Sofia,Maya", "--games", "25"]  # played and graded by gradedgames


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("GOLFLAB_KERNEL", cache.NUMBA_ENV, "NUMBA_DEBUG_CACHE")}
    return {**env, **extra}


def _run(args: list[str], env: dict, prefix: tuple = (), module: str = "golflab") -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, sys.executable, "-m", module, *args], capture_output=True, text=True, env=env,
                          timeout=600)


@pytest.fixture(scope="module")
def built_cache() -> Path:
    """The real cache, complete: the setup step run once (it only loads a complete cache)."""
    done = _run([], _env(), module="golflab.kernel")
    assert done.returncode == 0, done.stderr
    return cache.cache_dir()


@pytest.fixture(scope="module")
def reference() -> dict:
    """The Python reference's output of each command (``GOLFLAB_KERNEL=0``)."""
    out = {}
    for args in (PLAY, GRADE):
        done = _run(args, _env(GOLFLAB_KERNEL="0"))
        assert done.returncode == 0 and done.stderr == "", done.stderr
        out[tuple(args)] = done.stdout
    return out


@pytest.fixture
def copy(built_cache, tmp_path) -> Path:
    """A copy of the complete cache, write permission given back at the end."""
    target = tmp_path / "cache"
    shutil.copytree(built_cache, target)
    yield target
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


def _one(root: Path, pattern: str) -> Path:
    found = sorted(root.glob(pattern))
    assert found, f"no {pattern} in the cache"
    return found[0]


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _read_only(*folders: Path) -> None:
    for folder in folders:
        for path in [folder, *folder.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)


def _reader(probe: Path) -> tuple:
    """A command prefix under which file permissions bind (``probe``: a read-only folder):
    none for a user; for root, setpriv without the capabilities that override them."""
    prefix: tuple = ()
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("root without setpriv: a read-only folder cannot be made binding here")
        prefix = (setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner")
    tried = subprocess.run([*prefix, sys.executable, "-c", f"open({str(probe / 'probe')!r}, 'w')"],
                           capture_output=True, text=True)
    if "PermissionError" not in tried.stderr:
        pytest.skip(f"cannot make a folder read-only for this process here: {tried.stderr.strip()[-200:]}")
    return prefix


def _one_line(stderr: str, damaged: Path) -> None:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "damaged" in lines[0] and damaged.name in lines[0] and REBUILD in lines[0], lines[0]
    assert "Traceback" not in stderr


@needs_compiled
@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_truncated_machine_code_file_leaves_the_games_to_the_reference_with_one_line(copy, reference, processes):
    damaged = _one(copy, "kernel_*/engine.play_games-*.nbc")
    _truncate(damaged)
    done = _run([*PLAY, "--processes", processes], _env(NUMBA_CACHE_DIR=str(copy)))
    assert done.returncode == 0, done.stderr
    assert done.stdout == reference[tuple(PLAY)]
    _one_line(done.stderr, damaged)


@needs_compiled
def test_a_garbage_index_leaves_the_grading_to_the_reference_with_one_line(copy, reference):
    damaged = _one(copy, "kernel_*/grade.grade_state-*.nbi")
    damaged.write_bytes(b"garbage\n")
    done = _run(GRADE, _env(NUMBA_CACHE_DIR=str(copy)))
    assert done.returncode == 0, done.stderr
    assert done.stdout == reference[tuple(GRADE)]
    _one_line(done.stderr, damaged)


@needs_compiled
def test_the_setup_step_rebuilds_a_damaged_cache(copy, reference):
    truncated = _one(copy, "kernel_*/pool_ev.pool_sums-*.nbc")
    garbled = _one(copy, "kernel_*/cpu.column_score-*.nbi")
    _truncate(truncated)
    garbled.write_bytes(b"\x80\x05garbage")
    env = _env(NUMBA_CACHE_DIR=str(copy))
    done = _run([], env, module="golflab.kernel")
    assert done.returncode == 0, done.stderr
    assert f"removed 2 damaged file(s) from the compiled cache in {copy}" in done.stderr
    assert cache.damaged(copy) == []
    again = _run(PLAY, env)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert again.stdout == reference[tuple(PLAY)]


@needs_compiled
def test_a_read_only_complete_cache_is_read_as_it_is(copy, reference, tmp_path):
    home, scratch = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    scratch.mkdir()
    _read_only(copy, home)
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    env = _env(NUMBA_CACHE_DIR=str(copy), HOME=str(home), TMPDIR=str(scratch), NUMBA_DEBUG_CACHE="1")
    prefix = _reader(copy)
    done = _run(PLAY, env, prefix)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines(keepends=True)
    assert any(line.startswith("[cache] data loaded") for line in lines)
    assert not any(line.startswith("[cache] data saved") for line in lines)  # nothing compiled again
    assert "".join(line for line in lines if not line.startswith("[cache]")) == reference[tuple(PLAY)]
    setup = _run([], env, prefix, module="golflab.kernel")
    assert setup.returncode == 0, setup.stderr
    assert f"{copy} is read-only: its compiled code was read from a copy" in setup.stderr
    assert "data saved" not in setup.stdout
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before
    assert list(scratch.iterdir()) == []  # the private copies are gone


@needs_compiled
def test_a_read_only_damaged_cache_is_left_to_the_reference_and_refused_repair(copy, reference, tmp_path):
    damaged = _one(copy, "kernel_*/engine.play_games-*.nbc")
    _truncate(damaged)
    _read_only(copy)
    before = damaged.read_bytes()
    prefix = _reader(copy)
    env = _env(NUMBA_CACHE_DIR=str(copy), TMPDIR=str(tmp_path))
    done = _run(PLAY, env, prefix)
    assert done.returncode == 0, done.stderr
    assert done.stdout == reference[tuple(PLAY)]
    _one_line(done.stderr, damaged)
    setup = _run([], env, prefix, module="golflab.kernel")
    assert setup.returncode == 1
    assert f"the compiled cache in {copy} is damaged ({damaged.name}" in setup.stderr
    assert "cannot be repaired" in setup.stderr and "Traceback" not in setup.stderr
    assert damaged.read_bytes() == before


class _Runs:
    """Unpickling this would run its reduce: ``damaged`` must not."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_damaged_reads_every_pickle_through_and_runs_nothing(tmp_path):
    folder = cache.folders(tmp_path)[0]
    folder.mkdir(parents=True)
    marker = tmp_path / "ran"
    good_index = pickle.dumps("0.68.1") + pickle.dumps((b"stamp", {("sig",): "f-1.py311.1.nbc"}))
    (folder / "f-1.py311.nbi").write_bytes(good_index)
    (folder / "f-1.py311.1.nbc").write_bytes(pickle.dumps((_Runs(marker), b"\x00" * 5000)))
    (folder / "g-2.py311.nbi").write_bytes(good_index[:-30])  # its second pickle cut short
    (folder / "g-2.py311.1.nbc").write_bytes(b"garbage")
    (folder / "h-3.py311.nbi").write_bytes(pickle.dumps("0.68.1"))  # the index without its table
    (folder / "notes.txt").write_bytes(b"not numba's")
    found = cache.damaged(tmp_path)
    assert [path.name for path, _ in found] == ["g-2.py311.1.nbc", "g-2.py311.nbi", "h-3.py311.nbi"]
    assert all(why for _, why in found)
    assert not marker.exists()
    assert cache.damaged(tmp_path / "absent") == []
