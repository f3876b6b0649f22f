"""A class on one Voila server (issues 11 and 22), CI-sized: five learners open learn within a few
seconds, each page shows the app with a kernel of its own that stays while the page is open, and
every kernel is gone once the learners close their tabs. ``benchmarks/classroom.py`` runs the same
steps with 30 learners and prints the memory per learner."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEARNERS = 5
CULLING = json.loads((ROOT / "voila.json").read_text())["MappingKernelManager"]
#: Seconds: closed tabs end their kernels at once; a tab whose shutdown request was lost leaves
#: its kernel to the culling, which ends it within the idle timeout and the next two checks.
GONE_WITHIN = CULLING["cull_idle_timeout"] + 2 * CULLING["cull_interval"]
#: Seconds for a kernel to finish a page, and then for a first flip (the coach's hint: about a
#: second of CPU) on a machine that four other learners' pages and two other test lanes keep busy.
FLIP_WITHIN = 120


def _classroom():
    spec = importlib.util.spec_from_file_location("classroom_bench", ROOT / "benchmarks" / "classroom.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_a_class_arriving_at_once_gets_a_page_and_a_kernel_each_and_leaves_no_kernel(browser):
    """Issue 22, CI-sized: learners open learn.ipynb within a few seconds of each other and nobody
    reloads; every page shows the app (at 30 learners 2 pages stayed blank: an IOPub timeout).
    Each page has a kernel of its own, connected, while it is open; one learner plays and the
    others' tables stay their own; once the tabs close, none of their kernels runs."""
    classroom = _classroom()
    with classroom.voila("voila-classroom", preheat=("learn.ipynb",)) as server:
        assert len(server.kernels()) == server.pooled == 1  # golflab-voila's preheated kernel (learn's alone)
        kernel_ids: list[str] = []

        def while_open(pages) -> None:
            kernel_ids.extend(p.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data')"
                                         ".textContent).kernelId") for p in pages)
            assert len(set(kernel_ids)) == LEARNERS, kernel_ids
            assert len(server.kernels()) >= LEARNERS + server.pooled - 1  # the pool refills as it is used
            for kernel_id in kernel_ids:
                assert (server.kernel(kernel_id) or {}).get("connections", 0) >= 1, kernel_id
            # a learner plays once their kernel has run the whole page (a click is queued behind
            # the page's last cell, which waits for the page's request), then the coach values the
            # flip: the others' tables are their own
            idle = classroom.kernel_idle(server, kernel_ids[0], FLIP_WITHIN)
            assert idle, f"learner 1's kernel was still busy {FLIP_WITHIN} s after their page showed the app"
            pages[0].click(".golf-slot-0")
            pages[0].locator(".golf-slot-0:not(.golf-back)").first.wait_for(timeout=FLIP_WITHIN * 1000)
            assert pages[1].locator(".golf-slot-0.golf-back").count() == 1
            _, total = server.rss_mb()
            print(f"\n{LEARNERS} learners: {len(server.kernels())} kernels, {total:.0f} MB RSS server and kernels")

        result = classroom.burst(browser, server, LEARNERS, "learn.ipynb", within=3, while_open=while_open)
        print(f"{LEARNERS} learners within 3 s: usable after {[round(t, 1) for t in result['usable']]} s, "
              f"peak {result['peak_mb']:.0f} MB RSS")
        assert result["failed"] == [], result["failed"]
        assert len(result["usable"]) == LEARNERS and len(kernel_ids) == LEARNERS
        left, waited = classroom.kernels_gone_after(server, GONE_WITHIN, kernel_ids)
        assert left == 0, f"{left} of the pages' kernels still run {waited:.0f} s after the tabs closed"
        assert all(server.kernel(k) is None for k in kernel_ids)
