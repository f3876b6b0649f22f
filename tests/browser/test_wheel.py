"""Issue 39's Done-when: golflab installed as a teacher installs it, from its wheel, serves its apps.

``python -m build`` makes the sdist and the wheel (the wheel from the sdist, as a registry's
builder would), ``twine check`` accepts both, and the wheel goes into a fresh virtualenv outside
the checkout: first alone (``golflab --version``; ``golflab serve`` says in one line that the apps
extra is missing), then with ``[apps]`` from the package registry. ``golflab serve`` runs from an
empty directory with an empty home (its store goes to the user's data directory, named in its
first line), and Chromium opens the landing page and plays a move on ``play.ipynb``; a learner of a
class in that store signs in, keeps a lesson star, and the landing page greets them with it.

One server, one browser: it is the slowest test (a build, an install and a cold server). It writes
what it measured to ``test-artifacts/wheel-figures.txt`` (no timing is asserted).
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

from playwright.sync_api import expect

import golflab
from golflab.classroom import Store
from tests.browser.board_hooks import GOLF, face_down_slots
from tests.browser.conftest import stop_process
from tests.browser.learner_steps import LESSON2, answered_all_but_the_first, earn_the_lesson2_star, sign_in

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
UV = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
SERVE_TIMEOUT = 300  # seconds for a cold server in a new environment to say it listens (pyc, imports)


def _run(*cmd, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done


def _lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line.rstrip("\n"))
    into.put(None)


def _next_line(lines: queue.Queue, timeout: float, log: list[str]) -> str:
    line = lines.get(timeout=timeout)
    assert line is not None, "golflab serve ended:\n" + "\n".join(log)
    log.append(line)
    return line


def test_the_wheel_installed_outside_the_checkout_serves_the_apps(tmp_path, browser):
    figures = {}
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUPYTER_CONFIG_PATH", "JUPYTER_PATH",
                                                           "VIRTUAL_ENV")}
    dist = tmp_path / "dist"
    start = time.perf_counter()
    _run(sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", dist, *(["--installer", "uv"] if UV else []),
         ROOT, cwd=tmp_path, env={**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"})
    figures["build (sdist, then the wheel from it)"] = f"{time.perf_counter() - start:.1f} s"
    wheel, = dist.glob("golflab-*.whl")
    assert wheel.name.startswith(f"golflab-{golflab.__version__}-") and len(list(dist.glob("*.tar.gz"))) == 1
    _run(sys.executable, "-m", "twine", "check", "--strict", *dist.iterdir())
    figures["wheel"] = f"{wheel.stat().st_size / 1e6:.2f} MB"
    names = zipfile.ZipFile(wheel).namelist()
    notebooks = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("golflab_widgets/apps/notebooks/")) == notebooks
    assert "golflab_widgets/apps/voila.json" in names
    assert "golflab_widgets/server/static/golflab.svg" in names  # the launcher card's icon (test_launcher.py)
    entry_points, = (n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "[jupyter_serverproxy_servers]\ngolflab = golflab_widgets.server.launcher:setup" in \
        zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "golflab_widgets/apps/jupyter_config/data/voila/templates/golflab/index.html.j2" in names

    venv, empty, home = tmp_path / "venv", tmp_path / "empty", tmp_path / "home"
    empty.mkdir(), home.mkdir()
    # uv leaves bytecode to the first import (pip compiles it all at install: about ten minutes of this test on
    # a loaded 2-core machine), so the server's first start here compiles what it imports
    installer = [UV, "pip", "install", "--python", venv / "bin" / "python"] if UV else [venv / "bin" / "pip", "install"]
    _run(*([UV, "venv", "--python", sys.executable, venv] if UV else [sys.executable, "-m", "venv", venv]), env=env)
    _run(*installer, wheel, env=env)
    golflab_cmd = venv / "bin" / "golflab"
    server_env = {"PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
                  "XDG_DATA_HOME": str(home / "data"), "GOLFLAB_CPU_DELAY": "0.05", "GOLFLAB_SEED": "7",
                  "PYTHONUNBUFFERED": "1"}
    assert _run(golflab_cmd, "--version", cwd=empty, env=server_env).stdout == f"golflab {golflab.__version__}\n"
    bare = subprocess.run([golflab_cmd, "serve"], cwd=empty, env=server_env, capture_output=True, text=True,
                          timeout=120)
    assert bare.returncode == 1 and bare.stdout == "" and bare.stderr.count("\n") == 1
    assert 'the apps extra is not installed' in bare.stderr and 'pip install "golflab[apps]"' in bare.stderr

    start = time.perf_counter()
    _run(*installer, f"{wheel}[apps]", env=env)
    figures["install of golflab[apps] into a new virtualenv"] = f"{time.perf_counter() - start:.1f} s"
    where = _run(venv / "bin" / "python", "-c", "import golflab, golflab_widgets; print(golflab.__file__); "
                 "print(golflab_widgets.__file__)", cwd=empty, env=server_env).stdout.split()
    assert all(Path(p).is_relative_to(venv) for p in where), where  # the checkout is not seen

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log: list[str] = []
    start = time.perf_counter()
    server = subprocess.Popen([golflab_cmd, "serve", "--ip", "127.0.0.1", "--port", str(port),
                               "--preheat", "index,play"], cwd=empty, env=server_env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(server.stdout, lines), daemon=True).start()
    try:
        store = home / "data" / "golflab" / "golflab.db"
        assert _next_line(lines, SERVE_TIMEOUT, log) == f"golflab: class store sqlite:///{store}"
        while "serving the apps at" not in log[-1]:
            _next_line(lines, SERVE_TIMEOUT, log)
        landing = log[-1].split("serving the apps at ", 1)[1].split()[0]
        assert landing == f"http://127.0.0.1:{port}/voila/render/index.ipynb"
        figures["golflab serve to listening"] = f"{time.perf_counter() - start:.1f} s"

        page = browser.new_page(viewport={"width": 1280, "height": 2000})
        page.goto(landing, timeout=SERVE_TIMEOUT * 1000)
        page.locator("a[href='play.ipynb']").first.wait_for(timeout=SERVE_TIMEOUT * 1000)
        figures["golflab serve to a usable landing page"] = f"{time.perf_counter() - start:.1f} s"
        assert store.exists()
        page.screenshot(path=str(ARTIFACTS / "wheel-landing.png"), full_page=True)

        page.click("a[href='play.ipynb']")
        page.locator(GOLF.selector).wait_for(timeout=SERVE_TIMEOUT * 1000)
        while GOLF.wait_for_learner(page) == "initial_flip":
            GOLF.click_and_wait(page, f".golf-slot-{face_down_slots(page)[0]}")
        assert GOLF.awaiting(page) == "draw", page.inner_text(GOLF.selector)
        down = face_down_slots(page)
        GOLF.click_and_wait(page, ".golf-deck")
        assert GOLF.awaiting(page) == "place"
        GOLF.click_and_wait(page, f".golf-slot-{down[0]}")
        assert face_down_slots(page) == down[1:]  # the drawn card went in, face up
        page.screenshot(path=str(ARTIFACTS / "wheel-play.png"), full_page=True)
        page.close()

        # a learner of a class in the served store signs in and keeps a lesson star
        classes = Store(f"sqlite:///{store}")
        try:
            teacher = classes.create_user("ms_ito", password="teach-pass-1", role="teacher")
            invite = classes.create_invite(classes.create_class("W1", teacher=teacher), by=teacher)
            answered_all_but_the_first(classes, classes.register("ada", "ada-pass-1", invite))
        finally:
            classes.close()
        context = browser.new_context(viewport={"width": 1280, "height": 2000})
        try:
            page = context.new_page()
            sign_in(page, landing.split("/voila/", 1)[0], "ada", "ada-pass-1", f"/voila/render/{LESSON2}")
            earn_the_lesson2_star(page)
            page.goto(landing)
            greeting = page.locator(".golf-greeting")
            expect(greeting).to_contain_text("Welcome back, ada!", timeout=SERVE_TIMEOUT * 1000)
            assert re.search(r"Lesson 2: scoring and pairs\s*:\s*\u2605\u2605\u2605 done", greeting.inner_text())
            page.screenshot(path=str(ARTIFACTS / "wheel-signed-in.png"), full_page=True)
        finally:
            context.close()
    finally:
        stop_process(server, grace=30)
        while not lines.empty():
            log.append(str(lines.get()))
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "wheel-serve.log").write_text("\n".join(log) + "\n")
        report = "".join(f"{name}: {value}\n" for name, value in figures.items())
        (ARTIFACTS / "wheel-figures.txt").write_text(report)
        print(report)
