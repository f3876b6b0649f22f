"""Driving a board in the browser through its status line and CSS hooks, shared by the
browser tests (``from tests.browser.board_hooks import GOLF``: the tests import their helpers as packages, the
repository on ``sys.path`` by pyproject's pytest ``pythonpath``).

A board's status line carries a ``<prefix>await-<what>`` class naming what the board waits
for (``golf-await-draw``, ``cp-await-cpu``, ...); a click is done when the line changes.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout


@dataclass(frozen=True)
class StatusLine:
    """A board's status line: its CSS selector, its await-class prefix and how long (ms) one
    click may take to show its result (CPU moves included, on a busy machine)."""

    selector: str
    prefix: str
    timeout: int

    def awaiting(self, page) -> str:
        """What the board waits for: the ``<what>`` of its await class ("" for none)."""
        classes = page.get_attribute(self.selector, "class") or ""
        found = [c[len(self.prefix):] for c in classes.split() if c.startswith(self.prefix)]
        return found[0] if found else ""

    def key(self, page) -> str:
        """The line's classes and text: it changes whenever the board moves on."""
        return page.eval_on_selector(self.selector, "el => el.className + '|' + el.textContent")

    def click_and_wait(self, page, selector: str) -> float:
        """Click, then wait until the status line changes; the seconds it took."""
        before = self.key(page)
        start = time.perf_counter()
        page.click(selector, timeout=self.timeout)
        page.wait_for_function(
            "([sel, before]) => { const el = document.querySelector(sel);"
            " return el && (el.className + '|' + el.textContent) !== before; }",
            arg=[self.selector, before], timeout=self.timeout)
        return time.perf_counter() - start

    def wait_for_learner(self, page) -> str:
        """Wait while the CPU players move; what the board waits for next."""
        page.wait_for_function(
            "([sel, cpu]) => { const el = document.querySelector(sel);"
            " return el && !el.classList.contains(cpu); }",
            arg=[self.selector, f"{self.prefix}cpu"], timeout=self.timeout)
        return self.awaiting(page)


def wait_for_rules(page, *parts: str, scope: str = "", timeout: int = 60_000) -> None:
    """Wait until the rules form's summary (written by the kernel after each change) names every
    one of ``parts`` (``"1 hole"``, ``"knock early"`` ...): the changes made in the page have reached
    the kernel. ``scope``: a selector for the form's container when a page has several."""
    selector = f"{scope} .golf-rules-summary".strip()
    try:
        page.wait_for_function(
            "([sel, parts]) => { const el = document.querySelector(sel);"
            " return el && el.textContent.startsWith('Chosen: ') && parts.every(p => el.textContent.includes(p)); }",
            arg=[selector, list(parts)], timeout=timeout)
    except PlaywrightTimeout:
        shown = page.locator(selector).first.text_content() if page.locator(selector).count() else "(no summary)"
        raise AssertionError(f"the kernel never took the settings: after {timeout / 1000:.0f} s the rules form "
                             f"says {shown!r}, not {list(parts)}") from None


def enabled_hooks(page, selector: str, prefix: str) -> list[str]:
    """The hook classes (``prefix`` + something) of the enabled buttons matching ``selector``."""
    return page.eval_on_selector_all(
        selector, "(els, p) => els.filter(e => !e.disabled).map(e => [...e.classList].find(c => c.startsWith(p)))",
        prefix)


GOLF = StatusLine(".golf-status", "golf-await-", 30_000)
CODEPIECE = StatusLine(".cp-status", "cp-await-", 60_000)


def face_down_slots(page) -> list[int]:
    """The learner's face-down grid positions on the golf table, in order."""
    classes = page.eval_on_selector_all(".golf-slot", "els => els.map(e => e.className)")
    out = []
    for cls in classes:
        names = cls.split()
        if "golf-back" in names:
            out += [int(n[len("golf-slot-"):]) for n in names if n[len("golf-slot-"):].isdigit()]
    return sorted(out)


def download_save(page, folder, timeout: float = 90_000):
    """Save the golf table's game (*Save or resume a game* → *Save game*), download the file the
    page offers into ``folder`` and return its path (named as the page suggests)."""
    page.click(".golf-more >> text=Save or resume a game")
    page.click(".golf-save")
    link = page.locator("a.golf-download")
    link.wait_for(timeout=timeout)
    with page.expect_download(timeout=timeout) as info:
        link.click()
    saved = folder / info.value.suggested_filename
    info.value.save_as(saved)
    return saved


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def shoot_whole(page, name: str) -> None:
    """A screenshot of the whole app into ``test-artifacts/<name>.png`` (the viewport grown to
    the page's height for the shot, then put back)."""
    size = page.viewport_size
    height = page.evaluate("Math.max(...[...document.querySelectorAll('*')].map(e => e.scrollHeight))")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(height, 12000))})
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.set_viewport_size(size)


def connected_kernel(page, server, notebook: str, timeout: float) -> str:
    """The id of the kernel of the Voila page ``page`` (on ``server``), once the page is
    connected to it (Voila's unload handler is set by then); waits up to ``timeout`` ms."""
    page.wait_for_selector("#jupyter-config-data", state="attached", timeout=timeout)
    kernel_id = page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    deadline = time.monotonic() + timeout / 1000
    while (server.kernel(kernel_id) or {}).get("connections", 0) < 1:
        assert time.monotonic() < deadline, f"{notebook}: kernel {kernel_id} never connected\n{server.log_tail()}"
        time.sleep(0.25)
    return kernel_id


def play_hole(page, screenshot_at: int | None = None) -> list[float]:
    """Play the learner's side of one hole through the hooks: flip face-down cards, draw
    from the deck, swap into a face-down card (else discard). Returns the click timings."""
    timings: list[float] = []
    while len(timings) < 200:
        task = GOLF.wait_for_learner(page)
        if task in ("next-round", "new-game"):
            return timings
        down = face_down_slots(page)
        if task in ("initial_flip", "flip"):
            target = f".golf-slot-{down[0]}"
        elif task == "draw":
            target = ".golf-deck"
        elif task == "place":
            target = f".golf-slot-{down[0]}" if down else ".golf-action-discard"
            if len(timings) == screenshot_at:
                page.screenshot(path=str(ARTIFACTS / "play-holding.png"), full_page=True)
        else:
            raise AssertionError(f"unexpected state {task!r}: {page.inner_text(GOLF.selector)}")
        timings.append(GOLF.click_and_wait(page, target))
    raise AssertionError("the hole did not end within 200 clicks")


#: Each app (but the lessons) and what shows once it has opened.
APP_READY = {
    "index.ipynb": "text=Play golf", "play.ipynb": ".golf-status", "learn.ipynb": ".golf-status",
    "rules.ipynb": ".golf-score-result", "puzzles.ipynb": ".golf-puzzle-options",
    "replay.ipynb": ".golf-replay-step", "codepiece.ipynb": ".cp-status",
    "codepiece_bids.ipynb": ".explorer-status", "tiers.ipynb": ".explorer-status",
    "pairing.ipynb": ".explorer-status", "turns.ipynb": ".explorer-status",
    "personalities.ipynb": ".explorer-status", "house_rules.ipynb": ".explorer-status",
}

#: Each explorer notebook and the number of charts it draws (``test_explorers`` loads each one).
EXPLORERS = {"tiers.ipynb": 3, "pairing.ipynb": 4, "turns.ipynb": 2, "personalities.ipynb": 3, "house_rules.ipynb": 3}

#: A loader of a script or stylesheet from another site, in a page's HTML.
REMOTE_LOADER = re.compile(r"""<(?:script|link)\b[^>]*?\b(?:src|href)=["'](https?://[^"']+)"""
                           r"""|import\(\s*["'](https?://[^"']+)""")


def is_outside(url: str, server) -> bool:
    """Whether a request leaves the server (data: and about: URLs stay in the page)."""
    scheme = url.split(":", 1)[0]
    if scheme in ("data", "about"):
        return False
    if scheme == "blob":
        url = url[len("blob:"):]
    return not url.startswith(server.base + "/")


def record_requests(page) -> list[str]:
    """The URLs ``page`` requests from now on (the list grows as it loads); the page's own listener, so
    that nothing is left listening on a context that outlives the test (``shared_context``)."""
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    return requests


LOAD_TIMEOUT = 120_000  # ms: an app's page loading completely on a loaded machine
EXPLORER_DONE = ".explorer-status :text('Done:')"
#: How many of an explorer's charts have something drawn (bars, points or lines in their SVG).
CHARTS_DRAWN = ("() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(p => p.querySelectorAll("
                "'.trace path, .trace .point').length)")


def assert_explorer_drawn(page, notebook: str) -> None:
    """A strategy explorer has finished: its status line says so, each of its EXPLORERS[notebook]
    charts is drawn with data (each reaches the page as its own model, after the status line),
    its CSV links are there and no computation failed; a whole-page screenshot."""
    page.wait_for_selector(EXPLORER_DONE, timeout=LOAD_TIMEOUT)
    page.wait_for_function(f"({CHARTS_DRAWN})().filter(n => n > 0).length >= {EXPLORERS[notebook]}",
                           timeout=LOAD_TIMEOUT)
    assert all(n > 0 for n in page.evaluate(CHARTS_DRAWN))
    assert page.locator(".js-plotly-plot").count() == EXPLORERS[notebook]
    links = page.locator("a.explorer-csv")
    assert links.count() >= 1
    assert links.first.get_attribute("href").startswith("data:text/csv")
    assert "Could not compute" not in page.inner_text("body")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"explorer-{notebook.replace('.ipynb', '')}.png"), full_page=True)


#: The lessons, in their order (each links the next; the last links the puzzles).
LESSONS = ("lesson1_deal_and_turn.ipynb", "lesson2_scoring_and_pairs.ipynb", "lesson3_which_card_to_replace.ipynb",
           "lesson4_when_to_go_out.ipynb", "lesson5_house_rules.ipynb")
#: A lesson's exercise progress line: it shows once the lesson has opened.
LESSON_PROGRESS = ".golf-exercise-progress"


def assert_lesson_opened(page, notebook: str) -> None:
    """A lesson has opened with nothing answered, 8-12 exercises each with Check and Show the answer,
    and links to the landing page and to the next lesson (the puzzles after the last); a whole-page
    screenshot."""
    assert re.search(r"0 of \d+ answered, 0 right at the first try", page.locator(LESSON_PROGRESS).inner_text())
    assert 8 <= page.locator(".golf-exercise-check").count() <= 12
    assert page.locator(".golf-exercise-reveal").count() == page.locator(".golf-exercise-check").count()
    hrefs = [a.get_attribute("href") or "" for a in page.locator("a").all()]
    assert any(h.endswith("index.ipynb") for h in hrefs)
    index = LESSONS.index(notebook)
    following = LESSONS[index + 1] if index + 1 < len(LESSONS) else "puzzles.ipynb"
    assert any(h.endswith(following) for h in hrefs), (notebook, following, hrefs)
    shoot_whole(page, f"lesson{index + 1}")


def assert_nothing_from_outside(page, server, requests: list[str], where: str) -> None:
    """Once ``page`` has drawn everything (no request for half a second, the explorers' charts
    drawn): it requested something (``requests``, from ``record_requests``), all from ``server``,
    and its HTML holds no loader for another site."""
    page.wait_for_load_state("networkidle", timeout=LOAD_TIMEOUT)
    if page.locator(".explorer-status").count():
        page.wait_for_selector(EXPLORER_DONE, timeout=LOAD_TIMEOUT)
        page.wait_for_function("document.querySelectorAll('.js-plotly-plot .trace').length > 0", timeout=LOAD_TIMEOUT)
        page.wait_for_load_state("networkidle", timeout=LOAD_TIMEOUT)
    outside, loaders = outside_the_server(page, server, requests)
    assert not outside, f"{where} requested from outside the server: {outside}"
    assert not loaders, f"{where} can load from outside the server: {loaders}"
    assert requests, f"{where}: no request was recorded"


def outside_the_server(page, server, requests: list[str]) -> tuple[list[str], list[str]]:
    """What a page took from outside ``server``: the URLs it requested, and the loaders in its HTML
    that could (issue 8, defect 4: the apps need nothing from the internet)."""
    outside = sorted({url for url in requests if is_outside(url, server)})
    loaders = sorted({url for a, b in REMOTE_LOADER.findall(page.content()) if is_outside(url := a or b, server)})
    return outside, loaders
