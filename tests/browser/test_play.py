"""The play app in a real browser: a full hole played only through the CSS hooks (and the next
hole's card backs blank), and fresh page loads without a widget-load failure. Prints the measured figures (medians)."""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

import pytest

from tests.browser.board_hooks import GOLF, download_save, face_down_slots, play_hole, wait_for_rules
from tests.browser.conftest import OPEN_TIMEOUT, VIEWPORT

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: Fresh loads of the table, timed. The failure they guard against (issue 4: "model not found" on about
#: one load in five, with the ipywidgets versions pyproject now excludes) shows in 4 loads with
#: probability 1 - 0.8**4 = 59%; but every other browser test that opens the table (about 25 loads
#: in a run: test_play, test_kernels, test_classroom, test_hotseat, ...) fails on a widget error too
#: (``open_app``), so a run meets it with probability over 99%. Each load costs about 10 s of CI's time.
LOADS = 4
STATUS, STEP_TIMEOUT = GOLF.selector, GOLF.timeout
#: The play page's CPU players (its default table).
CPU_NAMES = "(Sofia|Maya|Marcus)"
awaiting, click_and_wait, wait_for_learner = GOLF.awaiting, GOLF.click_and_wait, GOLF.wait_for_learner


def test_play_a_full_hole_through_the_css_hooks(page, voila_server, app_opener, widget_error_finder):
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 2200})  # tall enough to show the whole table
    app_opener(page, voila_server, "play.ipynb")
    assert "Hole 1 of 9" in page.inner_text(".golf-rules")
    assert wait_for_learner(page) == "initial_flip"
    assert "click 2 face-down cards" in page.inner_text(STATUS)
    page.screenshot(path=str(ARTIFACTS / "play-start.png"), full_page=True)

    # a click that is not legal changes nothing and says why
    click_and_wait(page, ".golf-deck")
    assert "Flip a card first" in page.inner_text(STATUS)
    timings = play_hole(page, screenshot_at=5)
    assert awaiting(page) == "next-round", page.inner_text(STATUS)
    assert "Hole 1 is over" in page.inner_text(STATUS)
    assert not widget_error_finder(page)

    scores = page.inner_text(".golf-scores")
    assert "Hole 1" in scores and "Total" in scores
    rows = page.eval_on_selector_all(".golf-scores tr", "rs => rs.map(r => r.innerText)")
    hole = [int(x) for x in rows[1].split()[2:]]
    total = [int(x) for x in rows[-1].split()[1:]]
    assert len(hole) == 4 and hole == total  # after one hole, the totals are that hole's scores
    assert "left column" in page.inner_text(".golf-summary")  # columns named as the board shows them
    page.screenshot(path=str(ARTIFACTS / "play-hole-over.png"), full_page=True)

    click_and_wait(page, ".golf-next-round")
    assert "Hole 2 of 9" in page.inner_text(".golf-rules")
    assert_backs_blank(page, "hole 2, dealt")
    assert wait_for_learner(page) == "initial_flip"  # seat 2 starts hole 2; the CPUs flip first
    assert_backs_blank(page, "hole 2, the learner to move")
    page.screenshot(path=str(ARTIFACTS / "play-next-hole-backs.png"), full_page=True)

    # a reload (tablets reload tabs left in the background) resumes the game in play: hole 2, hole 1's scores
    scores = page.inner_text(".golf-scores")
    page.reload(wait_until="domcontentloaded")
    page.locator(f"{STATUS}:has-text('Resumed the game you were playing')").wait_for(timeout=OPEN_TIMEOUT)
    assert "Hole 2 of 9" in page.inner_text(".golf-rules") and page.inner_text(".golf-scores") == scores
    page.screenshot(path=str(ARTIFACTS / "play-resumed.png"), full_page=True)
    assert wait_for_learner(page) == "initial_flip"
    click_and_wait(page, ".golf-new-game")
    assert "Press New game again" in page.inner_text(STATUS)
    click_and_wait(page, ".golf-new-game")
    assert "Hole 1 of 9" in page.inner_text(".golf-rules") and awaiting(page) == "initial_flip"

    _report(f"click-to-update (click until the status line changes): median "
            f"{statistics.median(timings) * 1000:.0f} ms over {len(timings)} clicks")


FACE_TEXT = re.compile(r"10|[A2-9TJQK\u2660\u2665\u2666\u2663\u2605]")  # a rank, a suit or the joker's star


def face_down_texts(page) -> dict[str, str]:
    """The text each face-down slot of the learner shows, by its golf-slot-N class."""
    return page.eval_on_selector_all(
        ".golf-slot.golf-back",
        "els => Object.fromEntries(els.map(e => [[...e.classList].find(c => /^golf-slot-\\d$/.test(c)),"
        " e.textContent]))")


def assert_backs_blank(page, moment: str) -> None:
    """The learner's six cards are face down and none shows a rank or suit (a defect: after Next hole
    a card back kept the label of the card that sat there on the last hole)."""
    texts = face_down_texts(page)
    assert len(texts) == 6, texts  # the learner never starts hole 2 at a table of four
    shown = {slot: text for slot, text in texts.items() if FACE_TEXT.search(text)}
    assert not shown, f"{moment}: face-down cards show {shown}"


def in_view(page, selector: str) -> bool:
    """True when the top of ``selector`` is inside the viewport."""
    return page.eval_on_selector(selector, "el => { const r = el.getBoundingClientRect();"
                                           " return r.top >= 0 && r.top < window.innerHeight; }")


def upload(page, path) -> None:
    """Choose ``path`` with the Resume from a file button."""
    with page.expect_file_chooser(timeout=STEP_TIMEOUT) as chooser:
        page.click(".golf-upload")
    chooser.value.set_files(str(path))


def shot(page, name: str, width: int, full_page: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"table-{width}-{name}.png"), full_page=full_page)


@pytest.mark.parametrize("width", [1366, 768])
def test_the_board_keeps_moves_in_view_and_saves_to_a_file(page, voila_server, app_opener, width, tmp_path):
    """The polish of issue 8, as a learner sees it: opponents' changed cards outlined, the last
    moves beside the board, the log newest first, Holes and automatic decks in the settings
    with their own New game button, Next hole scrolls the table into view, a save is a file; a
    one-hole game from those settings ends in the final ranking."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": width, "height": 900})
    app_opener(page, voila_server, "play.ipynb")
    assert page.get_attribute("a[href='index.ipynb']", "href") == "index.ipynb"
    shot(page, "start", width)
    for _ in range(2):  # the two initial flips; the CPU players then flip theirs
        click_and_wait(page, f".golf-slot-{face_down_slots(page)[0]}")
    assert wait_for_learner(page) == "draw"
    changed = page.eval_on_selector_all(".golf-opp", "els => els.map(e => e.querySelectorAll('.golf-changed').length)")
    assert changed == [1, 1, 1]  # each CPU player's second flip is outlined
    recent = page.eval_on_selector_all(".golf-recent li", "els => els.map(e => e.textContent)")
    assert len(recent) == 6 and recent[0].startswith("Marcus turned up") and recent[-1].startswith("Sofia")
    shot(page, "opponent-changed", width)
    click_and_wait(page, ".golf-deck")
    assert awaiting(page) == "place" and "You drew the" in page.inner_text(".golf-recent li")
    shot(page, "card-drawn", width)

    play_hole(page)
    assert awaiting(page) == "next-round"
    shot(page, "hole-over", width, full_page=True)
    page.locator(".golf-next-round").scroll_into_view_if_needed()
    assert not in_view(page, ".golf-felt")  # the learner scrolled down past the hole's summary
    click_and_wait(page, ".golf-next-round")
    page.wait_for_function("() => { const r = document.querySelector('.golf-rules').getBoundingClientRect();"
                           " return r.top >= 0 && r.top < 60; }", timeout=STEP_TIMEOUT)  # scrolled to the top
    assert in_view(page, ".golf-status") and in_view(page, ".golf-felt")
    assert_backs_blank(page, f"{width} px, after Next hole")
    shot(page, "after-next-hole", width)

    page.click(".golf-more >> text=Move log")
    first = page.locator(".golf-log > div").first  # the newest line in words; notation waits behind Details
    first.wait_for(timeout=STEP_TIMEOUT)
    assert first.inner_text().startswith("Hole 2") and "monospace" not in first.evaluate(
        "e => getComputedStyle(e).fontFamily")
    page.locator(".golf-log-box").scroll_into_view_if_needed()  # the widget: its HTML is redrawn on every move
    shot(page, "move-log", width)

    saved = download_save(page, tmp_path, STEP_TIMEOUT)
    assert saved.name == "golf-7-hole-2.json"
    assert '"format": "golflab.game"' in saved.read_text().replace('":"', '": "')
    bad = tmp_path / "photo.json"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not a game")
    upload(page, bad)
    page.wait_for_function("() => document.querySelector('.golf-status').textContent.includes('Could not load')",
                           timeout=STEP_TIMEOUT)
    assert "photo.json is not a text file" in page.inner_text(STATUS)
    upload(page, saved)
    page.wait_for_function("() => document.querySelector('.golf-status').textContent.includes('Loaded a saved')",
                           timeout=STEP_TIMEOUT)
    shot(page, "saved-and-resumed", width, full_page=True)

    page.click(".golf-more >> text=New game settings")
    page.locator(".golf-rule-decks select").wait_for(timeout=STEP_TIMEOUT)
    assert page.eval_on_selector(".golf-rule-decks select", "s => s.options[s.selectedIndex].text") == "automatic"
    settings = page.inner_text(".golf-more")
    assert "Holes" in settings and not re.search(r"\bRounds?\b", settings)
    page.locator(".golf-new-game-here").scroll_into_view_if_needed()
    shot(page, "settings", width)
    holes = page.locator(".golf-rule-rounds input")
    holes.fill("1")
    holes.press("Enter")
    wait_for_rules(page, "1 hole,", scope=".golf-more")
    click_and_wait(page, ".golf-new-game-here")
    assert "Press New game again" in page.inner_text(STATUS)
    click_and_wait(page, ".golf-new-game-here")
    page.wait_for_function("() => document.querySelector('.golf-rules').textContent.includes('Hole 1 of 1')",
                           timeout=STEP_TIMEOUT)
    play_hole(page)
    assert awaiting(page) == "new-game" and "Game over" in page.inner_text(STATUS)
    assert "Final ranking" in page.inner_text(".golf-ranking")
    assert not page.locator(".golf-next-round").is_visible()
    page.locator(".golf-status").scroll_into_view_if_needed()
    shot(page, "game-over", width)
    shot(page, "game-over-full", width, full_page=True)


def test_with_slow_cpu_players_a_click_during_their_turn_is_refused(page, voila_server, app_opener):
    app_opener(page, voila_server, "play.ipynb")
    page.click(".golf-speed >> text=Slow")  # 1.2 s between CPU moves
    page.wait_for_selector(".golf-speed.speed-applied-slow", timeout=STEP_TIMEOUT)  # the kernel plays at it
    click_and_wait(page, ".golf-slot-0")
    page.click(".golf-slot-1")  # the CPU players now flip, one move at a time
    # The three CPU players flip two cards each, 1.2 s apart: the deck is clicked within those 7 s. Which
    # of them is to move when the click arrives depends on the machine's load, so any of them may be named,
    # and the next CPU move may redraw the status line at once: every line it shows is recorded as it changes.
    page.wait_for_function(
        "([sel, cpu, names]) => { const el = document.querySelector(sel);"
        " return el && el.classList.contains(cpu) && new RegExp(names + \"'s turn\").test(el.textContent); }",
        arg=[STATUS, "golf-await-cpu", CPU_NAMES], timeout=STEP_TIMEOUT)
    page.evaluate("""sel => { window.golfLines = [];
        const record = () => { const el = document.querySelector(sel); if (el) window.golfLines.push(el.textContent); };
        const changes = {childList: true, subtree: true, characterData: true};
        new MutationObserver(record).observe(document.body, changes); }""", STATUS)
    page.click(".golf-deck", timeout=STEP_TIMEOUT)
    page.wait_for_function("re => window.golfLines.some(line => new RegExp(re).test(line))",
                           arg=f"Please wait: it is {CPU_NAMES}'s turn", timeout=STEP_TIMEOUT)
    page.click(".golf-speed >> text=Instant")  # the remaining CPU moves play at once
    assert wait_for_learner(page) == "draw"  # the refused click drew nothing: the learner draws now


def test_the_landing_page_links_every_app(page, voila_server, app_opener):
    app_opener(page, voila_server, "index.ipynb", ready="text=Play golf")
    hrefs = page.eval_on_selector_all("a", "els => els.map(e => e.getAttribute('href'))")
    for name in ("play", "rules", "tiers", "pairing", "turns", "personalities", "house_rules"):
        assert f"{name}.ipynb" in hrefs
    page.click("text=Play golf")
    page.wait_for_selector(".golf-slot-0", timeout=60_000)
    assert page.url.endswith("/voila/render/play.ipynb")


def test_fresh_loads_show_the_board_without_widget_errors(browser, shared_context, voila_server, app_opener):
    """Every other load is a first visit (a context of its own: nothing cached), the others a return
    visit (the shared context: the scripts from the cache, so the page's widgets start sooner)."""
    times, failures = [], []
    for i in range(LOADS):
        first_visit = i % 2 == 0
        context = browser.new_context(viewport=VIEWPORT) if first_visit else shared_context
        page = context.new_page()
        start = time.perf_counter()
        try:
            app_opener(page, voila_server, "play.ipynb", ready=".golf-slot-5")
            page.wait_for_function(
                "() => [...Array(6).keys()].every(i => document.querySelector('.golf-slot-' + i))"
                " && document.querySelector('.golf-deck') && document.querySelector('.golf-status')"
                " && document.querySelector('.golf-status').textContent.includes('Your turn')", timeout=30_000)
            times.append(time.perf_counter() - start)
        except Exception as exc:  # noqa: BLE001 - counted, reported, then asserted below
            failures.append(f"load {i + 1}: {exc}")
            page.screenshot(path=str(ARTIFACTS / f"load-failure-{i + 1}.png"), full_page=True)
        finally:
            (context if first_visit else page).close()
    median = statistics.median(times) if times else float("nan")
    _report(f"page-to-clickable-board: median {median * 1000:.0f} ms over {len(times)} loads; "
            f"widget-load failures: {len(failures)} of {LOADS}")
    assert not failures, "\n".join(failures)


def _report(line: str) -> None:
    print(f"\n[figures] {line}")
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / "browser-figures.txt", "a") as fh:
        fh.write(line + "\n")
