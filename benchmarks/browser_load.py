"""What Chromium spends on an app's page load: a context of its own each time, against a profile kept
on disk (the browser tests' ``shared_context``): medians of CPU seconds and wall seconds per load.

    .venv/bin/python benchmarks/browser_load.py [--loads 7] [--app play]

Starts standalone Voila as the browser tests do (``tests/browser/conftest.py``) and opens the app
``--loads`` times in each of two Chromiums, one page at a time, each load until the app shows
(``first_render.READY``) and the network is idle:

* ``own context``: a fresh context per load (nothing cached: a first visit), as the browser tests
  opened every page until 30 November 2026;
* ``shared profile``: one context on a profile directory (``launch_persistent_context``): after
  the first load the apps' scripts (about 6 MB) come from the HTTP cache and their compiled code
  from V8's code cache.

The CPU is that of the Chromium's processes alone (browser, renderers, GPU and utilities; a
renderer's CPU is read before its page closes). The first load of each is left out of the medians
(the shared profile's is a first visit too). Prints one line per way and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import psutil  # noqa: E402  (ipykernel's dependency)
from conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, app_env, open_app, start_server, voila_command  # noqa: E402
from first_render import READY  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from process_cpu import tree_cpu  # noqa: E402


def chromium_cpu(root: int) -> float:
    """CPU seconds of Chromium's process ``root`` and of its descendants now running."""
    return sum(tree_cpu(root).values())


def chromium_root(before: set[int]) -> int:
    """The Chromium browser process started since ``before`` (this process's descendants then)."""
    new = [p for p in psutil.Process().children(recursive=True) if p.pid not in before and "chrom" in p.name()]
    return min(new, key=lambda p: p.create_time()).pid


def loads(server, app: str, count: int, root: int, new_page, done) -> tuple[list[float], list[float]]:
    """``count`` loads of ``app``, each on a page from ``new_page()``, ``done(page)`` after it: the
    Chromium's (process ``root``) CPU and the wall seconds of each load."""
    cpu, wall = [], []
    for _ in range(count):
        page = new_page()
        start_cpu, start = chromium_cpu(root), time.perf_counter()
        open_app(page, server, f"{app}.ipynb", ready=READY[app])
        page.wait_for_load_state("networkidle")
        cpu.append(chromium_cpu(root) - start_cpu)
        wall.append(time.perf_counter() - start)
        done(page)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=7, help="loads per way (the first is left out of the medians)")
    parser.add_argument("--app", default="play", choices=sorted(READY))
    args = parser.parse_args()
    results = {}
    with start_server("browser-load", lambda port: voila_command(port, ()), env=app_env()) as server, \
            sync_playwright() as pw:
        before = {p.pid for p in psutil.Process().children(recursive=True)}
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        root = chromium_root(before)

        results["own context"] = loads(server, args.app, args.loads, root,
                                       lambda: browser.new_context(viewport=VIEWPORT).new_page(),
                                       lambda page: page.context.close())
        browser.close()
        with tempfile.TemporaryDirectory() as profile:
            before = {p.pid for p in psutil.Process().children(recursive=True)}
            shared = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                           viewport=VIEWPORT)
            root = chromium_root(before)
            results["shared profile"] = loads(server, args.app, args.loads, root, shared.new_page,
                                              lambda page: page.close())
            shared.close()
    medians = {}
    for way, (cpu, wall) in results.items():
        medians[way] = statistics.median(cpu[1:]), statistics.median(wall[1:])
        print(f"{args.app}, {way:14}: Chromium CPU median {medians[way][0]:.2f} s per load, wall median "
              f"{medians[way][1]:.2f} s (first load {cpu[0]:.2f} s CPU; {len(cpu) - 1} loads in the medians)")
    (own_cpu, own_wall), (shared_cpu, shared_wall) = medians["own context"], medians["shared profile"]
    print(f"shared profile / own context: CPU {shared_cpu / own_cpu:.2f}, wall {shared_wall / own_wall:.2f}")


if __name__ == "__main__":
    main()
