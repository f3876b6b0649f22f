"""A class on one Voila server: memory per learner, and bursts of learners opening an app at once.

    .venv/bin/python benchmarks/classroom.py [--learners 30] [--app play.ipynb] [--serve index,play,learn]
    .venv/bin/python benchmarks/classroom.py --bursts 3 [--within 10] [--learners 30] [--app learn.ipynb]
        [--jupyter]

(As a background job, give it ``< /dev/null``: otherwise the pages stalled here after the
first few learners.)

Starts standalone Voila as ``make app`` does (through ``binder/start``, so ``voila.json``'s
culling and ``jupyter_config/`` apply), opens one Chromium tab per learner on the app, waits
until every tab shows it (``.golf-status`` for the table), then prints the kernels running and
the resident memory (RSS) of the server and its kernels: the total and per learner. It starts
once the server is quiet (its preheated kernels, one per notebook, started and waiting: they
count in the server's memory, not as learners' kernels). Then the
tabs close and it prints how long the server took to end their kernels. Chromium's own memory
is the learners' machines' and is not counted. ``tests/browser/test_classroom.py`` runs the same
steps with a few learners.

With ``--bursts N`` it runs N bursts instead: the learners open the app within ``--within``
seconds of each other (evenly spread), nobody reloads, and a page that does not show the app
within ``LOAD_TIMEOUT`` (or shows a widget error) counts as failed. Per burst it prints the
failures, the median and 95th-percentile time to usable (each page's own clock from its
navigation), the peak resident memory of the server and its kernels, and the load average;
then every tab closes and the next burst waits for the kernels to end. ``--jupyter`` serves the
apps through a Jupyter server with Voila as its extension (Binder, JupyterHub) instead of the
standalone Voila.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))  # process_cpu, also when a test imports this file by its path

from conftest import CHROMIUM, CHROMIUM_ARGS, start_server, voila_command  # noqa: E402
from process_cpu import cpu_seconds, kernel_processes, tree_cpu  # noqa: E402

READY = {"play.ipynb": ".golf-status", "learn.ipynb": ".golf-status", "rules.ipynb": ".golf-score-result",
         "puzzles.ipynb": ".golf-puzzle-feedback"}
LOAD_TIMEOUT = 300_000  # ms: 30 kernels starting on a shared 2-core machine take a while
READY_TIMEOUT = 120_000  # ms before a simulated learner reloads a page that does not show the app
MB = 1024 * 1024


@dataclass
class Server:
    """A running Voila: its process and where its API answers."""

    process: subprocess.Popen
    port: int

    def url(self, notebook: str) -> str:
        return f"http://127.0.0.1:{self.port}/voila/render/{notebook}"

    def kernels(self) -> list[int]:
        """Process ids of the kernels the server runs now (standalone Voila has no kernel list
        in its API, only ``/api/kernels/<id>``)."""
        return [proc.pid for proc in kernel_processes(self.process.pid)]

    #: Kernels the server keeps with no page (golflab-voila's preheated ones), once it is quiet.
    pooled: int = 0

    def settle(self, timeout: float = 300) -> int:
        """Wait until the server's kernels stay the same for two seconds while using under 0.1 CPU
        seconds (the kernels of closed pages have ended, the preheated ones wait for a page); notes
        and returns how many run then (``pooled``)."""
        deadline = time.monotonic() + timeout
        before = self._cpu()
        while time.monotonic() < deadline:
            time.sleep(2)
            now = self._cpu()
            if now.keys() == before.keys() and sum(now.values()) - sum(before.values()) < 0.1:
                self.pooled = len(now)
                return self.pooled
            before = now
        raise TimeoutError(f"the server's kernels were still busy after {timeout:.0f} s")

    def _cpu(self) -> dict[int, float]:
        return cpu_seconds(self.kernels())

    def kernel(self, kernel_id: str) -> dict | None:
        """A kernel's model (``connections``...) by its id; None once it is gone."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/kernels/{kernel_id}", timeout=30) as resp:
                return json.load(resp)
        except urllib.error.HTTPError as err:
            if err.code == 404:
                return None
            raise

    def rss_mb(self) -> tuple[float, float]:
        """(server alone, server and every kernel it started) resident memory in MB."""
        proc = psutil.Process(self.process.pid)
        own = proc.memory_info().rss
        children = 0
        for child in proc.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                children += child.memory_info().rss
        return own / MB, (own + children) / MB


def serve_command(port: int, preheat: str) -> list[str]:
    """``golflab serve`` on ``port`` preheating ``preheat`` (its ``--preheat``: names, all or none)."""
    return [sys.executable, "-m", "golflab_widgets", "serve", "--ip=127.0.0.1", f"--port={port}",
            f"--preheat={preheat}"]


@contextlib.contextmanager
def voila(log_name: str, preheat: tuple[str, ...] | None = None, serve: "str | None" = None):
    """Standalone Voila on ``notebooks/`` as ``make app`` runs it (the browser tests' server:
    ``tests/browser/conftest.py``), on a free port, with this environment and its log in
    ``test-artifacts/<log_name>.log``; kernels preheated for every notebook, or for ``preheat`` alone.
    With ``serve`` (``--preheat``'s value): ``golflab serve`` instead, its store in a new data directory."""
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    if serve is not None:
        env["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="golflab-bench-")
    command = (lambda port: serve_command(port, serve)) if serve is not None else (
        lambda port: voila_command(port, preheat))
    with start_server(log_name, command, env=env) as server:
        server = Server(server.process, server.port)
        server.settle()
        yield server


def open_learners(browser, server: Server, learners: int, app: str = "play.ipynb", wave: int = 5,
                  reloads: list[str] | None = None) -> list:
    """One tab per learner (each its own browser context, like separate machines), arriving
    ``wave`` at a time as a class does; returns the pages once every one shows the app.

    A page that does not show the app within ``READY_TIMEOUT`` is reloaded once, as a learner
    would (each reload is noted in ``reloads``, when given, else it is an error); a page that
    still does not show it raises TimeoutError."""
    ready = READY.get(app, "body")
    pages: list = []
    for start in range(0, learners, wave):
        arriving = []
        for _ in range(min(wave, learners - start)):
            page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
            page.goto(server.url(app), wait_until="commit", timeout=LOAD_TIMEOUT)
            arriving.append(page)
        for page in arriving:
            if not _shows(page, ready, READY_TIMEOUT):
                note = f"learner {len(pages) + 1}: {app} did not show {ready!r} in {READY_TIMEOUT // 1000} s" + (
                    " (the page shows a widget error)" if "Error displaying widget" in page.inner_text("body") else "")
                if reloads is None:
                    raise TimeoutError(note)
                reloads.append(note)
                page.reload(wait_until="commit", timeout=LOAD_TIMEOUT)
                if not _shows(page, ready, LOAD_TIMEOUT):
                    raise TimeoutError(f"{note}, nor after a reload")
            pages.append(page)
    return pages


def _shows(page, selector: str, timeout: int) -> bool:
    try:
        page.wait_for_selector(selector, state="visible", timeout=timeout)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError
        return False
    return True


def close_learners(pages) -> None:
    """Close every tab as a learner does (Voila's unload handler asks the server to end its kernel)."""
    for page in pages:
        with page.expect_event("close"):  # with the unload handler, close() returns before the tab is gone
            page.close(run_before_unload=True)
        page.context.close()


def kernels_gone_after(server: Server, seconds: float, kernel_ids=None) -> tuple[int, float]:
    """(pages' kernels still running, seconds waited) once the server runs no more kernels than
    its preheated ones (``pooled``, see ``settle``) or ``seconds`` have passed. Given the pages'
    ``kernel_ids``: once none of those runs (a count alone can miss one while the pool refills)."""

    def left() -> int:
        if kernel_ids is not None:
            return sum(server.kernel(k) is not None for k in kernel_ids)
        return len(server.kernels()) - server.pooled

    start = time.monotonic()
    still = left()
    while still > 0 and time.monotonic() - start < seconds:
        time.sleep(1)
        still = left()
    return max(0, still), time.monotonic() - start


TOKEN = "golflab-classroom-token"


@dataclass
class JupyterServer(Server):
    """A Jupyter server with Voila as its extension (the apps under ``voila/render/notebooks``)."""

    def url(self, notebook: str) -> str:
        return f"http://127.0.0.1:{self.port}/voila/render/notebooks/{notebook}?token={TOKEN}"

    def kernel(self, kernel_id: str) -> dict | None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/kernels/{kernel_id}?token={TOKEN}",
                                        timeout=30) as resp:
                return json.load(resp)
        except urllib.error.HTTPError as err:
            if err.code == 404:
                return None
            raise


@contextlib.contextmanager
def jupyter(log_name: str):
    """A Jupyter server as Binder starts it (``binder/start``: the shipped config) on a free port."""
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    root = ["--allow-root"] if os.geteuid() == 0 else []

    def command(port: int) -> list[str]:
        return [str(ROOT / "binder" / "start"), str(Path(sys.executable).with_name("jupyter")), "server",
                "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}",
                *root]

    with start_server(log_name, command, env=env, token=TOKEN, ready_path="/api/status") as server:
        server = JupyterServer(server.process, server.port)
        server.settle()
        yield server


def kernel_idle(server: Server, kernel_id: str, seconds: float) -> bool:
    """Whether the kernel ``kernel_id`` is idle (has run every request sent to it) within
    ``seconds``, as the server's kernel API reports its ``execution_state``."""
    deadline = time.monotonic() + seconds
    while True:
        if (server.kernel(kernel_id) or {}).get("execution_state") == "idle":
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.25)


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two ``tree_cpu`` readings (a process new since: all of its own)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


#: The page's widget error texts (a page that shows one has failed).
WIDGET_ERROR = "Error displaying widget"


def burst(browser, server: Server, learners: int, app: str, within: float,
          while_open: Callable[[list], None] | None = None) -> dict:
    """``learners`` pages open ``app`` spread over ``within`` seconds, nobody reloading; returns
    ``usable`` (seconds per page that showed the app), ``failed`` (notes), ``peak_mb``, ``span``,
    and the CPU seconds the server with its kernels (``server_cpu``) and the learners' browser
    (``browser_cpu``: Chromium, on the same machine here) spent until the last page showed it
    (``wall``), from the first arrival. ``while_open`` is called with the pages before they close."""
    ready = READY.get(app, "body")
    peak = server.rss_mb()[1]
    # every learner's browser is open first (a blank tab each, its own context), as in a class
    # told to open the app: opening 30 contexts takes longer than the burst on this machine
    pages = [browser.new_context(viewport={"width": 1024, "height": 768}).new_page() for _ in range(learners)]
    cpu_before = tree_cpu(server.process.pid), tree_cpu(os.getpid())
    start = time.monotonic()
    for i, page in enumerate(pages):
        time.sleep(max(0.0, start + i * within / max(1, learners - 1) - time.monotonic()))
        # navigate without waiting for the server's answer, so that arrivals keep to ``within``
        page.evaluate("url => setTimeout(() => { location.href = url; }, 0)", server.url(app))
    span = time.monotonic() - start
    usable: dict[int, float] = {}
    failed: dict[int, str] = {}
    deadline = time.monotonic() + LOAD_TIMEOUT / 1000
    while len(usable) + len(failed) < learners and time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if i in usable or i in failed:
                continue
            if page.locator(ready).first.is_visible():
                usable[i] = page.evaluate("performance.now()") / 1000
            elif page.locator(f"text={WIDGET_ERROR}").count():
                failed[i] = f"learner {i + 1}: the page shows a widget error"
        with contextlib.suppress(psutil.Error):
            peak = max(peak, server.rss_mb()[1])
        time.sleep(0.25)
    wall = time.monotonic() - start
    server_after, mine_after = tree_cpu(server.process.pid), tree_cpu(os.getpid())
    server_cpu = spent(cpu_before[0], server_after)
    # this process's tree less the server's and its own: Chromium and Playwright's driver
    browser = {pid: t for pid, t in mine_after.items() if pid not in server_after and pid != os.getpid()}
    browser_cpu = spent(cpu_before[1], browser)
    for i in range(learners):
        if i not in usable and i not in failed:
            failed[i] = f"learner {i + 1}: {app} did not show {ready!r} within {LOAD_TIMEOUT // 1000} s"
    try:
        if while_open is not None and not failed:
            while_open(pages)
    finally:
        close_learners(pages)
    return {"usable": sorted(usable.values()), "failed": [failed[i] for i in sorted(failed)], "peak_mb": peak,
            "span": span, "wall": wall, "server_cpu": server_cpu, "browser_cpu": browser_cpu}


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` 0.95: the 95th) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)] if ordered else float("nan")


def run_bursts(args) -> None:
    from playwright.sync_api import sync_playwright

    serve = jupyter if args.jupyter else voila
    mode = "a Jupyter server with Voila (Binder, JupyterHub)" if args.jupyter else "one standalone Voila (make app)"
    with serve("classroom-bursts") as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        idle = server.rss_mb()[1]
        print(f"{args.bursts} bursts of {args.learners} learners opening {args.app} within {args.within:.0f} s, "
              f"{mode}; server idle {idle:.0f} MB RSS with {server.pooled} preheated kernels", flush=True)
        every, failures = [], 0
        for n in range(args.bursts):
            load = os.getloadavg()[0]
            result = burst(browser, server, args.learners, args.app, args.within)
            every += result["usable"]
            failures += len(result["failed"])
            print(f"  burst {n + 1}: arrived over {result['span']:.1f} s, {len(result['failed'])} failed; usable "
                  f"median {statistics.median(result['usable'] or [math.nan]):.1f} s, 95th percentile "
                  f"{percentile(result['usable'], 0.95):.1f} s, max {max(result['usable'] or [math.nan]):.1f} s; peak "
                  f"{result['peak_mb']:.0f} MB RSS ({(result['peak_mb'] - idle) / args.learners:.0f} MB per learner); "
                  f"load average {load:.1f} before", flush=True)
            print(f"    CPU until the last page was usable ({result['wall']:.0f} s, {os.cpu_count()} cores): server "
                  f"and kernels {result['server_cpu']:.0f} s, the learners' browser {result['browser_cpu']:.0f} s",
                  flush=True)
            for note in result["failed"]:
                print(f"    {note}")
            left, waited = kernels_gone_after(server, 180)
            if left:
                print(f"    {left} kernels still ran {waited:.0f} s after the tabs closed")
            server.settle()  # the next burst meets a server whose preheated kernels are ready
        print(f"  all bursts: {failures} of {args.bursts * args.learners} pages failed; usable median "
              f"{statistics.median(every or [math.nan]):.1f} s, 95th percentile {percentile(every, 0.95):.1f} s")
        browser.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--app", default=None,
                        help="the notebook every learner opens (play.ipynb; bursts: learn.ipynb)")
    parser.add_argument("--bursts", type=int, default=0, help="bursts of learners arriving at once (0: the class)")
    parser.add_argument("--within", type=float, default=10.0, help="seconds over which a burst's learners arrive")
    parser.add_argument("--jupyter", action="store_true", help="through a Jupyter server with Voila (Binder)")
    parser.add_argument("--serve", metavar="PREHEAT", default=None,
                        help="through golflab serve --preheat PREHEAT (e.g. index,play,learn; all; none)")
    args = parser.parse_args(argv)
    if args.bursts:
        args.app = args.app or "learn.ipynb"
        run_bursts(args)
        return
    args.app = args.app or "play.ipynb"
    from playwright.sync_api import sync_playwright

    with voila("classroom-bench", serve=args.serve) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _, idle_total = server.rss_mb()
        started = time.monotonic()
        reloads: list[str] = []
        pages = open_learners(browser, server, args.learners, args.app, reloads=reloads)
        loaded = time.monotonic() - started
        kernels = len(server.kernels()) - server.pooled
        own, total = server.rss_mb()
        per = (total - idle_total) / args.learners
        how = f"golflab serve --preheat {args.serve}" if args.serve is not None else "make app's settings"
        print(f"{args.learners} learners on {args.app}, one standalone Voila server ({how})")
        print(f"  all pages showing the app after {loaded:.0f} s; pages reloaded: {len(reloads)}")
        for note in reloads:
            print(f"    {note}")
        print(f"  kernels running:            {kernels} (and {server.pooled} preheated)")
        print(f"  server alone, before:       {idle_total:7.0f} MB RSS")
        print(f"  server + kernels, in class: {total:7.0f} MB RSS (server process {own:.0f} MB)")
        print(f"  per learner:                {per:7.1f} MB RSS")
        close_learners(pages)
        left, waited = kernels_gone_after(server, 180)
        print(f"  after every tab closed:     {left} kernels left ({waited:.0f} s)")
        browser.close()


if __name__ == "__main__":
    main()
