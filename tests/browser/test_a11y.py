"""Every child can play (issue 38, WCAG 2.1 AA) in a real browser.

* axe-core (from npm: ``make test`` installs it under ``.venv/axe``) finds no critical and no
  serious violation on any app in the states a learner meets (each app as it opens, with every
  collapsible panel open, each explorer after a house rule was switched; the table holding a card
  and with the hole over; the dashboard with a class); a moderate one only when ``MODERATE`` gives
  the reason.
* A whole hole is played by keyboard alone: the focus is always visible (a 3 px outline or more)
  and lands on the next action; every panel opens by keyboard; a lesson exercise is answered by
  keyboard alone; the Tab presses are printed.
* The table's live region announces each move and whose turn it is, once.
* At 390x844 and 768x1024 with a touch screen no app scrolls sideways, and every control a learner taps
  is at least 44x44 px.

Each app is loaded once (one page per app, shared by its checks). Screenshots: test-artifacts/a11y-*.png.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from golflab import score_hand
from golflab.classroom import Store
from golflab.classroom.identity import COOKIE_NAME
from tests.browser.board_hooks import (
    APP_READY,
    ARTIFACTS,
    EXPLORER_DONE,
    EXPLORERS,
    GOLF,
    LESSON_PROGRESS,
    LESSONS,
    LOAD_TIMEOUT,
    assert_explorer_drawn,
    assert_lesson_opened,
    assert_nothing_from_outside,
    record_requests,
    shoot_whole,
)
from tests.browser.conftest import NEXT_FRAMES, class_tokens, open_app
from tests.browser.learner_steps import FIRST_HAND, LESSON2

AXE = Path(sys.prefix) / "axe" / "node_modules" / "axe-core" / "axe.min.js"

#: The apps and what shows once each has opened.
APPS = {**APP_READY, **{f"lesson{n}": LESSON_PROGRESS for n in range(1, len(LESSONS) + 1)}}
LESSON_FILES = {f"lesson{n}": name for n, name in enumerate(LESSONS, 1)}

#: Moderate axe findings let stand, each with the reason (none: the landmarks, heading order and
#: table headers were fixed).
MODERATE: dict[str, str] = {}
FOCUS_MIN_PX = 3  # the focus outline's width
SMALL_SCREENS = ((390, 844), (768, 1024))  # a phone's and a tablet's viewport (CSS px)
#: A tap target's least width and height on a touch screen (WCAG 2.5.5, the AAA size the issue asks
#: for). A checkbox or radio button is tapped by its whole label, which wraps it (ipywidgets), so the
#: label is measured; a link inside a sentence is exempt (2.5.5's "inline").
MIN_TARGET_PX = 44
#: WCAG 2.2's least target (2.5.8, 24x24 px, or smaller with 24 px of spacing) for the one control
#: held to it: plotly's chart toolbar (``.modebar-btn``). It is drawn only for a mouse: on a touch
#: screen ``plotly_module`` leaves it out (it covered the charts' titles), but these pages open with
#: a mouse and are then turned into touch screens, so the toolbar drawn for the mouse is still there.
MIN_SPACED_PX = 24
SPACED = ".modebar-btn"

#: What sticks out past the right edge ``w`` (not inside a box that scrolls sideways), which visible
#: controls are smaller than MIN_TARGET_PX, which labels are cut off; whether the page sees a touch
#: screen's pointer.
SMALL_SCREEN_CHECK = """w => {
  const scrolls = e => { for (let p = e.parentElement; p && !p.matches('.jp-OutputArea-output'); p = p.parentElement) {
      const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll') return true; } return false; };
  const inline = e => e.matches('a') && getComputedStyle(e).display === 'inline';  // a link in a sentence
  const seen = e => { const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && e.offsetParent !== null; };
  const past = [...document.querySelectorAll('#jp-main-content-panel *')]
    .filter(e => seen(e) && e.getBoundingClientRect().right > w + 1 && !scrolls(e));
  const outer = past.filter(e => !past.includes(e.parentElement));
  const controls = [...document.querySelectorAll('button, select, input, [role=button], a[href]')]
    .filter(e => seen(e) && !inline(e));
  const target = e => (e.matches('input[type=checkbox], input[type=radio]') && e.closest('label')) || e;
  const least = e => e.matches('%s') ? %d : %d;
  const tiny = controls.map(target)
    .filter(e => { const r = e.getBoundingClientRect(); return r.width < least(e) || r.height < least(e); });
  const say = e => (e.className && e.className.baseVal === undefined ? e.className : e.tagName).toString().slice(0, 60)
    + ' "' + e.textContent.trim().slice(0, 24) + '" '
    + Math.round(e.getBoundingClientRect().width) + 'x' + Math.round(e.getBoundingClientRect().height);
  const panel = document.getElementById('jp-main-content-panel');
  const sideways = [document.scrollingElement, panel, ...panel.querySelectorAll('.jp-Cell, .jp-OutputArea')]
    .filter(e => e && e.scrollWidth > e.clientWidth + 1).length;
  // a label cut off with an ellipsis ("Open a saved g…"): a button's, a toggle's, a control's description
  const cut = [...document.querySelectorAll('button, .widget-label, .widget-label-basic span')]
    .filter(e => seen(e) && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow === 'ellipsis');
  // two controls drawn over each other (a 44-px menu in a 28-px row over the next row's): a tap meant
  // for one may reach the other; a control inside another (an input in its label) is one target
  const boxes = controls.map(target).filter((e, i, all) => all.indexOf(e) === i);
  const overlap = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (x > 2 && y > 2) overlap.push(say(a) + ' over ' + say(b));
  }
  return {past_edge: outer.slice(0, 8).map(say), sideways: sideways, tiny: tiny.slice(0, 8).map(say),
          tiny_count: tiny.length, cut: cut.slice(0, 8).map(say), overlap: overlap.slice(0, 8),
          touch: matchMedia('(pointer: coarse)').matches};
}""" % (SPACED, MIN_SPACED_PX, MIN_TARGET_PX)

TEACHER, PASSWORD = "a11y_teacher", "a11y-pass-1"
#: The apps of the per-app axe test (the table is played by keyboard instead), and their notebooks.
AXE_APPS = [a for a in APPS if a != "play.ipynb"]


def notebook(app: str) -> str:
    return LESSON_FILES.get(app, app)


AXE_CHECKED = frozenset(notebook(app) for app in AXE_APPS)


def axe_violations(page) -> list[dict]:
    """axe-core's violations on the page as it stands: id, impact, nodes (HTML and why)."""
    if not AXE.exists():
        pytest.fail(f"axe-core is missing: `npm install --prefix {AXE.parents[2]} axe-core@4` (make test does)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .map(v => ({id: v.id, impact: v.impact,
                    nodes: v.nodes.map(n => n.html.slice(0, 200) + ' :: '
                                            + (n.failureSummary || '').slice(0, 300))}))""")


def assert_accessible(page, where: str) -> None:
    found = axe_violations(page)
    bad = [v for v in found if v["impact"] in ("critical", "serious")
           or (v["impact"] == "moderate" and v["id"] not in MODERATE)]
    assert not bad, f"{where}: " + "\n".join(f"{v['impact']} {v['id']} ({len(v['nodes'])}): {v['nodes'][:3]}"
                                             for v in bad)


def open_every_panel(page) -> int:
    """Open every collapsible panel by keyboard (focus its header, press Enter); how many."""
    headers = page.locator(".jupyter-widget-Collapse-header")
    for i in range(headers.count()):
        header = headers.nth(i)
        if header.get_attribute("aria-expanded") == "true" or not header.is_visible():
            continue
        assert header.get_attribute("tabindex") == "0" and header.get_attribute("role") == "button"
        header.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("h => h.getAttribute('aria-expanded') === 'true'", arg=header.element_handle())
    return headers.count()


@pytest.mark.parametrize("app", AXE_APPS)
def test_every_app_opens_whole_offline_and_accessible(page, voila_server, app):
    """Each app's one page: an explorer draws every chart (``assert_explorer_drawn``), a lesson opens
    with its exercises and links (``assert_lesson_opened``, test_lessons' check); nothing was
    taken from outside the server (issue 8, ``test_offline``'s check); axe finds nothing serious as
    the app opens, with every panel open (by keyboard) and, on an explorer, after a house rule was
    switched (by keyboard) and the result computed again; at 390x844 and 768x1024 nothing sticks
    out sideways and every control can be tapped."""
    requests = record_requests(page)
    open_app(page, voila_server, notebook(app), ready=APPS[app])
    if notebook(app) in EXPLORERS:
        assert_explorer_drawn(page, notebook(app))
    if notebook(app) in LESSONS:
        assert_lesson_opened(page, notebook(app))
    assert_nothing_from_outside(page, voila_server, requests, app)
    assert page.title() and ".ipynb" not in page.title() and "_" not in page.title(), page.title()
    assert_accessible(page, f"{app} as it opens")
    if open_every_panel(page):
        assert_accessible(page, f"{app} with every panel open")
    if notebook(app) in EXPLORERS:
        change_a_house_rule(page)
        assert_accessible(page, f"{app} after a change")
    assert_fits_small_screens(page, app)


#: Notes that the explorer's status line changed (it says "Computing…" as soon as a change is taken).
WATCH_STATUS = """() => { window.golfStatusChanged = false;
    new MutationObserver(() => { window.golfStatusChanged = true; })
        .observe(document.querySelector('.explorer-status'),
                 {subtree: true, childList: true, characterData: true}); }"""


def change_a_house_rule(page) -> None:
    """Switch an explorer's first house rule shown as a checkbox, by keyboard (focus it, Space), and wait
    until the explorer has computed the new result (its status line changed and says Done again)."""
    page.evaluate(WATCH_STATUS)
    box = page.locator(".explorer input[type=checkbox]:enabled").first
    box.focus()
    page.keyboard.press("Space")
    page.wait_for_function("() => window.golfStatusChanged", timeout=LOAD_TIMEOUT)
    page.wait_for_selector(".explorer-computing", state="detached", timeout=LOAD_TIMEOUT)
    page.wait_for_selector(EXPLORER_DONE, timeout=LOAD_TIMEOUT)
    assert "Could not compute" not in page.inner_text("body")


def assert_fits_small_screens(page, app: str) -> None:
    """At a phone's and a tablet's size, with a touch screen (Chromium's touch emulation, so that
    ``(pointer: coarse)`` holds): no element past the right edge (unless inside a box that scrolls
    sideways itself), nothing that scrolls the page sideways, no two controls over each other, and no
    control smaller than
    MIN_TARGET_PX square (a link inside a sentence is exempt, as WCAG exempts it); at those sizes and
    the page's own, no label cut off; a phone screenshot."""
    wide = page.evaluate(SMALL_SCREEN_CHECK, page.viewport_size["width"])
    problems = {"as it stands": {"cut": wide["cut"]}} if wide["cut"] else {}
    touch = page.context.new_cdp_session(page)
    touch.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    for width, height in SMALL_SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => window.innerWidth === w", arg=width)
        page.evaluate(NEXT_FRAMES)
        found = page.evaluate(SMALL_SCREEN_CHECK, width)
        if width == SMALL_SCREENS[0][0]:
            page.screenshot(path=str(ARTIFACTS / f"a11y-phone-{app.split('.')[0]}.png"))
        if found["past_edge"] or found["sideways"] or found["tiny"] or found["cut"] or found["overlap"] \
                or not found["touch"]:
            problems[f"{width}x{height}"] = found
    touch.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
    touch.detach()
    page.set_viewport_size({"width": 1280, "height": 1000})
    assert not problems, f"{app}: {problems}"


def focus_info(page) -> dict:
    return page.evaluate("""() => { const el = document.activeElement; const cs = getComputedStyle(el);
        return {cls: el.className || el.tagName, name: el.getAttribute('aria-label') || el.textContent.trim(),
                outline: cs.outlineStyle === 'none' ? 0 : parseFloat(cs.outlineWidth)}; }""")


def press_tab_until(page, selector: str, backwards: bool = False, limit: int = 60) -> int:
    """Press Tab (Shift+Tab) until the focus is on an element matching ``selector``; the presses."""
    for presses in range(limit + 1):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return presses
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"{selector} not reached in {limit} Tab presses; the focus is on {focus_info(page)}")


def arrow_to_face_down(page) -> None:
    """Inside the learner's grid: arrow keys to a face-down card that can be played."""
    for _ in range(6):
        if page.evaluate("() => document.activeElement.matches('.golf-slot.golf-back.golf-legal')"):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no face-down card to play by the arrow keys; focus on {focus_info(page)}")


def press_and_wait(page, key: str = "Enter") -> None:
    before = GOLF.key(page)
    info = focus_info(page)
    assert info["outline"] >= FOCUS_MIN_PX, f"the focus is not seen: {info}"
    page.keyboard.press(key)
    page.wait_for_function("([s, b]) => { const el = document.querySelector(s);"
                           " return el && el.className + '|' + el.textContent !== b; }",
                           arg=[GOLF.selector, before], timeout=GOLF.timeout)


LISTEN = """() => { window.golfHeard = []; const seen = new WeakSet();
    const hear = el => { const t = el.textContent.trim(); if (t) window.golfHeard.push(t); };
    const watch = () => document.querySelectorAll('[role=status][aria-live=polite]').forEach(el => {
        if (seen.has(el)) return; seen.add(el);
        new MutationObserver(() => hear(el)).observe(el, {childList: true, subtree: true, characterData: true}); });
    watch(); new MutationObserver(watch).observe(document.body, {childList: true, subtree: true}); }"""


def test_a_hole_played_by_keyboard_alone_with_the_moves_announced(page, voila_server):
    open_app(page, voila_server, "play.ipynb", ready=APPS["play.ipynb"])
    page.wait_for_selector(".golf-status[role=status][aria-live=polite]")
    page.evaluate(LISTEN)
    cards = page.eval_on_selector_all(".golf-opp [role=img]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert cards and all(":" in c for c in cards) and "top left: face down" in cards, cards
    grids = page.eval_on_selector_all(".golf-opp .gl-grid", "els => els.map(e => e.getAttribute('aria-label'))")
    assert grids and all(g.startswith("cards of ") for g in grids), grids
    assert page.get_attribute(".golf-slot-0", "aria-label").startswith("top left: face down")

    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("Tab")  # into the page
    tabs, holding_checked, keys = 1, False, 0
    while keys < 100:
        task = GOLF.wait_for_learner(page)
        if task in ("next-round", "new-game"):
            break
        if task in ("initial_flip", "flip"):
            after_grid = page.evaluate("() => !!document.activeElement.closest('.golf-felt')"
                                       " && !document.activeElement.matches('.golf-slot')")
            tabs += press_tab_until(page, ".golf-slot", backwards=after_grid)
            arrow_to_face_down(page)
        elif task == "draw":
            tabs += press_tab_until(page, ".golf-deck")
        elif task == "place":
            if not holding_checked:
                assert_accessible(page, "the table holding a card")
                holding_checked = True
            if page.locator(".golf-slot.golf-back").count():
                tabs += press_tab_until(page, ".golf-slot", backwards=True)
                arrow_to_face_down(page)
            else:
                tabs += press_tab_until(page, ".golf-action-discard")
        else:
            raise AssertionError(f"unexpected state {task!r}")
        press_and_wait(page)
        keys += 1
        if GOLF.wait_for_learner(page) not in ("next-round", "new-game"):  # the next action has the focus
            page.wait_for_function("() => document.activeElement.matches('button.golf-legal')", timeout=GOLF.timeout)
    assert GOLF.awaiting(page) == "next-round", page.inner_text(GOLF.selector)
    page.wait_for_function("() => document.activeElement.matches('.golf-next-round')", timeout=GOLF.timeout)
    assert focus_info(page)["outline"] >= FOCUS_MIN_PX
    print(f"\nA hole by keyboard: {tabs} Tab presses for {keys} moves")
    shoot_whole(page, "a11y-play-hole-over")
    assert_accessible(page, "the table with the hole over")

    heard = page.evaluate("() => window.golfHeard")
    assert any("Your turn" in h for h in heard), heard
    players = page.eval_on_selector_all(".golf-opp .gl-name", "els => els.map(e => e.textContent.split(' \u00b7 ')[0])")
    for name in players:
        said = re.compile(rf"Last moves?: (.*\. )?{re.escape(name)} ")  # one move, or several at once
        assert any(h.startswith(f"{name}") or said.search(h) for h in heard), (name, heard)
    assert all(a != b for a, b in zip(heard, heard[1:])), "an announcement repeated"
    assert any("Hole 1 is over" in h for h in heard), heard

    page.keyboard.press("Enter")  # Next hole, by keyboard: the focus goes on to the first card to flip
    page.wait_for_function("() => document.activeElement.matches('.golf-slot.golf-legal')", timeout=GOLF.timeout)
    opened_panels = open_every_panel(page)
    assert opened_panels == 3
    assert_accessible(page, "the table with every panel open")
    assert_fits_small_screens(page, "play.ipynb")


@pytest.fixture
def teacher_page(shared_context, voila_server, class_store_url):
    store = Store(class_store_url)
    try:
        token = class_tokens(store, TEACHER, ("a11y_kid",), PASSWORD, "A11y class")[TEACHER]
    finally:
        store.close()
    shared_context.add_cookies([{"name": COOKIE_NAME, "value": token, "url": voila_server.base}])
    page = shared_context.new_page()
    open_app(page, voila_server, "class.ipynb", ready=".golf-roster")
    return page


def test_axe_finds_nothing_serious_on_the_dashboard_with_a_class(teacher_page):
    teacher_page.locator(".golf-roster .golf-roster-row").first.wait_for(timeout=120_000)
    assert_accessible(teacher_page, "the class dashboard")
    if open_every_panel(teacher_page):
        assert_accessible(teacher_page, "the class dashboard with every panel open")
    assert_fits_small_screens(teacher_page, "class.ipynb")


def test_a_lesson_exercise_answered_by_keyboard_alone(page, voila_server):
    """Lesson 2's first exercise by keyboard alone: Tab to its answer box, type the hand's score, Tab on
    to Check (its focus visible), Enter: the exercise says the answer is right."""
    open_app(page, voila_server, LESSON2, ready=LESSON_PROGRESS)
    page.evaluate("() => document.activeElement.blur()")
    tabs = press_tab_until(page, ".golf-exercise-0 .golf-exercise-number input", limit=80)
    page.keyboard.type(str(score_hand(FIRST_HAND)))
    tabs += press_tab_until(page, ".golf-exercise-0 .golf-exercise-check")
    assert focus_info(page)["outline"] >= FOCUS_MIN_PX
    page.keyboard.press("Enter")
    page.wait_for_selector(".golf-exercise-0 .golf-exercise-right", timeout=GOLF.timeout)
    print(f"\nA lesson exercise by keyboard: {tabs} Tab presses")
