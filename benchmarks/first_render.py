"""How long each app takes to be usable in Voila, and each explorer to draw its charts: medians.

    .venv/bin/python benchmarks/first_render.py [--runs 5] [--apps play tiers ...] [--baseline DIR]

Starts standalone Voila as the browser tests do (``tests/browser/conftest.py``: through
``binder/start``, on a free port) and opens each app in headless Chromium, one page at a
time: a fresh browser context per load, closed (which shuts its kernel down) before the next.
For each load it measures, from the start of the navigation (the page's ``performance.now()``):

* ``usable``: the app's first control a learner uses is on the page and live (``READY``: the
  board's cards, an explorer's status line beside its controls, the landing page's links, a
  lesson's exercises (at its end: the whole lesson is computed by then); the goal: 2 s or less);
* ``charts`` (explorers): the charts are drawn: every chart slot (``.explorer-chart``) holds a plotly
  chart with drawn data and the status line says ``Done:`` (the goal: 3 s or less);
* ``kernel cpu``: CPU seconds the page's kernel used from the navigation until then (start-up,
  imports, the notebook and the first result; for a kernel started ahead, ``golflab-voila``'s
  preheating, only what it ran after the page's request). Unlike the wall clock it does not grow
  when other processes share the CPU.

A page's kernel that still runs 60 s after the page closed is stopped, and its line says so.
Before each load it waits until every server is quiet: no kernel of a closed page left, and its
preheated kernels (if any) started and waiting for a page, as a learner finds a server that has
been up for a while.

Prints one line per app: the medians and every load's ``charts`` time. With ``--baseline
DIR`` (a copy of the repository at another commit, e.g. ``git archive <commit> | tar -x -C
DIR``) a second Voila serves DIR's apps (DIR first on ``PYTHONPATH``; the script links
``DIR/golflab_widgets`` to ``DIR/widgets``) and its loads alternate with this checkout's, so
both meet the same load from other processes; a ``baseline`` line follows each app's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import psutil  # noqa: E402  (ipykernel's dependency)
from board_hooks import connected_kernel  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, app_env, open_app, start_server, voila_command  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from process_cpu import cpu_seconds, kernel_processes  # noqa: E402

LESSONS = ("lesson1_deal_and_turn", "lesson2_scoring_and_pairs", "lesson3_which_card_to_replace",
           "lesson4_when_to_go_out", "lesson5_house_rules")  # usable: their exercises are live
EXPLORERS = ("tiers", "pairing", "turns", "personalities", "house_rules", "codepiece_bids")
#: Each app and what shows it usable (the selector its browser tests wait for).
READY = {"index": "a[href*='play.ipynb']", "play": ".golf-slot-5", "learn": ".golf-status",
         "codepiece": ".cp-status", "replay": ".golf-replay-step", "rules": ".golf-score-result",
         "puzzles": "[class*=golf-puzzle-option-]", **{app: ".explorer-status" for app in EXPLORERS},
         **{lesson: ".golf-exercise-progress" for lesson in LESSONS}}
APPS = tuple(READY)
#: The page's clock (ms since the navigation started) once every chart is drawn, else false.
CHARTS_DRAWN = """() => {
  const status = document.querySelector('.explorer-status');
  const slots = Array.from(document.querySelectorAll('.explorer-chart'));
  const drawn = slots.length > 0 && slots.every(s => s.querySelector('.js-plotly-plot .trace path, '
                                                                    + '.js-plotly-plot .trace .point'));
  return drawn && status && status.innerText.includes('Done:') && performance.now();
}"""
PAGE_TIMEOUT = 180_000  # ms: a loaded machine is slow, and a slow load is a figure, not an error


def kernels(server) -> list[psutil.Process]:
    """The server's kernel processes (its ``ipykernel`` children)."""
    return kernel_processes(server.process.pid)


def cpu_by_pid(server) -> dict[int, float]:
    """User + system CPU seconds of each of the server's kernels, by process id."""
    return cpu_seconds(proc.pid for proc in kernels(server))


def kernel_process(server, kernel_id: str) -> "psutil.Process | None":
    """The process of the kernel ``kernel_id`` (its connection file is named after it)."""
    for proc in kernels(server):
        with contextlib.suppress(psutil.Error):
            if kernel_id in " ".join(proc.cmdline()):
                return proc
    return None


def wait_quiet(servers, timeout: float = 180) -> None:
    """Wait until each server runs the same kernels for a second while they use under 0.05 CPU
    seconds: the kernels of closed pages have ended and the preheated ones wait for a page."""
    deadline = time.monotonic() + timeout
    before = {id(s): cpu_by_pid(s) for s in servers}
    while time.monotonic() < deadline:
        time.sleep(1)
        now = {id(s): cpu_by_pid(s) for s in servers}
        if all(now[k].keys() == before[k].keys() and sum(now[k].values()) - sum(before[k].values()) < 0.05
               for k in now):
            return
        before = now
    raise RuntimeError(f"the servers' kernels were still busy after {timeout:.0f} s")


def page_kernel(page) -> str:
    """The id of the page's kernel (in Voila's page config)."""
    return page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def wait_gone(server, kernel_id: str, timeout: float = 60) -> bool:
    """Wait until the kernel of a closed page has ended (its page's unload shuts it down): True.
    A kernel still running ``timeout`` seconds later is stopped (and False returned), so that it
    does not weigh on the next loads; Voila would cull it only once idle (``voila.json``)."""
    deadline = time.monotonic() + timeout
    while (proc := kernel_process(server, kernel_id)) is not None:
        if time.monotonic() > deadline:
            with contextlib.suppress(psutil.Error):
                proc.terminate()
                proc.wait(10)
            return False
        time.sleep(0.25)
    return True


def load_once(browser, servers, server, app: str) -> dict:
    wait_quiet(servers.values())
    before = cpu_by_pid(server)
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    try:
        open_app(page, server, f"{app}.ipynb", ready=READY[app], timeout=PAGE_TIMEOUT)
        shown = page.evaluate("performance.now()")
        charts = (page.wait_for_function(CHARTS_DRAWN, timeout=PAGE_TIMEOUT, polling=50).json_value()
                  if app in EXPLORERS else float("nan"))
        proc = kernel_process(server, page_kernel(page))
        cpu = cpu_by_pid(server).get(proc.pid, float("nan")) - before.get(proc.pid, 0.0) if proc else float("nan")
        # a page usable before its kernel is connected (the landing page's links) is left once it
        # is: unloading the app then shuts its kernel down
        kernel_id = connected_kernel(page, server, f"{app}.ipynb", PAGE_TIMEOUT)
        page.goto("about:blank")
    finally:
        context.close()
    ended = wait_gone(server, kernel_id)
    return {"shown": shown / 1000, "charts": charts / 1000, "cpu": cpu, "outlived": not ended}


def baseline_server(copy: Path):
    """Standalone Voila on ``copy``'s notebooks, importing ``copy``'s golflab and widgets."""
    copy = copy.resolve()
    if not (copy / "notebooks").is_dir() or not (copy / "widgets").is_dir():
        raise SystemExit(f"--baseline {copy}: not a copy of the repository (no notebooks/ or widgets/)")
    link = copy / "golflab_widgets"
    if not link.exists():
        link.symlink_to("widgets")  # the installed name of widgets/ (pyproject's package-dir)

    def command(port: int) -> list[str]:
        return [str(copy / "binder" / "start"), *(str(copy / "notebooks") if a == "notebooks" else a
                                                  for a in voila_command(port)[1:])]

    return start_server("first-render-baseline", command, env=app_env(PYTHONPATH=str(copy)))


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def report(label: str, loads: list[dict]) -> None:
    med = {k: statistics.median(x[k] for x in loads) for k in ("shown", "charts", "cpu")}
    every = " ".join(f"{x['shown']:.2f}/{x['charts']:.2f}" for x in loads)
    outlived = sum(x["outlived"] for x in loads)
    note = f"   ({outlived} kernel(s) still ran 60 s after their page closed: stopped)" if outlived else ""
    print(f"{label:<40}{med['shown']:8.2f}{med['charts']:8.2f}{med['cpu']:12.2f}   {every}{note}", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads per app (the median is printed)")
    parser.add_argument("--apps", nargs="+", default=list(APPS), choices=APPS, help="which apps")
    parser.add_argument("--baseline", type=Path, help="a copy of the repository to compare with, load for load")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a kill stops Voila and its kernels too
    with contextlib.ExitStack() as stack:
        servers = {"": stack.enter_context(start_server("first-render", voila_command))}
        if args.baseline:
            servers[" baseline"] = stack.enter_context(baseline_server(args.baseline))
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for server in servers.values():  # warm-up: the first page also fills the server's caches
            load_once(browser, servers, server, args.apps[0])
        print(f"first render in standalone Voila, median of {args.runs} loads (seconds from navigation), "
              f"load average {load()}\n")
        print(f"{'app':<40}{'usable':>8}{'charts':>8}{'kernel cpu':>12}   every load's usable/charts")
        for app in args.apps:
            loads: dict[str, list] = {label: [] for label in servers}
            for _ in range(args.runs):
                for label, server in servers.items():
                    loads[label].append(load_once(browser, servers, server, app))
            for label in servers:
                report(app + label, loads[label])
            print(f"{'':<40}(load average {load()})", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
