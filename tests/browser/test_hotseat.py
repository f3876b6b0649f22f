"""A hot-seat game played through in the browser (issue 11): Ann and Ben share one screen
against Sofia (CPU), through the CSS hooks only. Between Ann's and Ben's turns the board is
hidden behind "Pass to ..." (``golf-await-pass``, ``golf-hotseat-ready``); the status names
whose turn it is; the game ends with its ranking. A second test seats two people from the
play app's New game settings (``golf-people``, ``golf-person-name-N``, ``golf-cpu-count``),
plays turns, saves the game and resumes it on a fresh page, where it is hot-seat again."""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import nbformat

from tests.browser.board_hooks import download_save, wait_for_rules

ROOT = Path(__file__).resolve().parents[2]
START = ROOT / "binder" / "start"
SOURCE = """from golflab import Rules
from golflab_widgets.table.golf_table import GolfTable
GolfTable(players=["Ann", "Ben", "Sofia"], humans=["Ann", "Ben"], seed=7, rules=Rules(rounds=1))"""
STEP_TIMEOUT = 90_000  # ms
SCREEN = {"width": 1024, "height": 768}  # a classroom projector's


def _notebook(folder: Path) -> Path:
    path = folder / "hotseat.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SOURCE)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def _state(page) -> tuple[str, str]:
    status = page.locator(".golf-status")
    classes = status.get_attribute("class") or ""
    awaiting = next((c[len("golf-await-"):] for c in classes.split() if c.startswith("golf-await-")), "")
    return awaiting, status.inner_text()


def _after(page, before: tuple[str, str]) -> None:
    """Wait until the status changes from ``before`` (the kernel answered the click)."""
    page.wait_for_function(
        """([cls, text]) => { const s = document.querySelector('.golf-status');
             return s && (s.className !== cls || s.innerText !== text); }""",
        arg=[page.locator(".golf-status").get_attribute("class"), before[1]], timeout=STEP_TIMEOUT)


def _cpu_done(page) -> None:
    """Wait until the CPU player has moved (the status no longer awaits the CPU)."""
    page.wait_for_function("() => !document.querySelector('.golf-status').classList.contains('golf-await-cpu')",
                           timeout=STEP_TIMEOUT)


def test_two_people_and_a_cpu_play_a_hot_seat_game_through(browser, server_starter, server_env, tmp_path, app_opener):
    notebook = _notebook(tmp_path)

    def command(port: int) -> list[str]:
        return [str(START), str(Path(sys.executable).with_name("voila")), str(notebook), "--no-browser",
                f"--port={port}", "--Voila.ip=127.0.0.1", "--show_tracebacks=True"]

    with server_starter("voila-hotseat", command, env=server_env(), render_path="") as server:
        context = browser.new_context(viewport=SCREEN)
        page = context.new_page()
        try:
            page.goto(server.base, wait_until="domcontentloaded", timeout=STEP_TIMEOUT)
            page.wait_for_selector(".golf-status", timeout=STEP_TIMEOUT)
            assert _state(page)[1].startswith("Ann, it is your turn.")
            seen: dict[str, int] = {}
            for _ in range(400):
                awaiting, text = _state(page)
                seen[awaiting] = seen.get(awaiting, 0) + 1
                if awaiting == "new-game":
                    break
                if awaiting == "cpu":
                    _cpu_done(page)
                    continue
                if awaiting == "pass":
                    person = "Ann" if "Pass to Ann" in text else "Ben"
                    assert not page.locator(".golf-felt").is_visible(), "the board shows while it is passed on"
                    page.screenshot(path=str(ROOT / "test-artifacts" / "hotseat-pass.png"))
                    page.click(".golf-hotseat-ready")
                    page.wait_for_selector(".golf-felt", state="visible", timeout=STEP_TIMEOUT)
                    # the board and the status line update in separate messages: wait for both
                    page.wait_for_function(
                        "who => (document.querySelector('.golf-status')?.innerText || '').startsWith(who)",
                        arg=f"{person}, it is your turn.", timeout=STEP_TIMEOUT)
                    continue
                if awaiting == "next-round":
                    page.click(".golf-next-round")
                elif awaiting == "draw":
                    page.click(".golf-deck")
                elif awaiting == "place":
                    page.screenshot(path=str(ROOT / "test-artifacts" / "hotseat-drawn.png"))
                    page.click(".golf-action-discard" if page.locator(".golf-action-discard").is_visible()
                               else ".golf-slot.golf-legal >> nth=0")
                else:  # initial_flip or flip
                    page.click(".golf-slot.golf-legal >> nth=0")
                _after(page, (awaiting, text))
            awaiting, text = _state(page)
            page.screenshot(path=str(ROOT / "test-artifacts" / "hotseat-over.png"))
            assert awaiting == "new-game" and text.startswith("Game over:"), (awaiting, text, seen)
            assert seen.get("pass", 0) >= 4 and seen.get("cpu", 0) >= 1, seen
            assert page.locator("text=Error displaying widget").count() == 0
        finally:
            context.close()


# ---------------------------------------------------------------- from the panel, saved and resumed
def _shot(page, name: str) -> None:
    page.screenshot(path=str(ROOT / "test-artifacts" / f"hotseat-panel-{name}.png"))


def _seat_people_in_the_panel(page, names: list[str], cpus: int) -> None:
    """Open New game settings, choose the people at this screen, their names, the CPU count and one hole."""
    page.click(".golf-more >> text=New game settings")
    people = page.locator(".golf-people select")
    people.wait_for(timeout=STEP_TIMEOUT)
    assert not page.locator(".golf-person-name-0").is_visible()  # one learner until more people are chosen
    people.select_option(label=f"{len(names)}: take turns at this screen")
    page.locator(f".golf-person-name-{len(names) - 1} input").wait_for(state="visible", timeout=STEP_TIMEOUT)
    for i, name in enumerate(names):
        page.fill(f".golf-person-name-{i} input", name)
    page.wait_for_function("() => document.querySelector('.golf-cpu-count')?.innerText.includes('CPU players')",
                           timeout=STEP_TIMEOUT)
    page.locator(".golf-cpu-count select").select_option(label=str(cpus))
    page.fill(".golf-seed input", "7")  # one seed: the same deal every run
    holes = page.locator(".golf-rule-rounds input")
    holes.fill("1")
    holes.press("Enter")
    wait_for_rules(page, "1 hole,", scope=".golf-more")  # the kernel has had every value typed above
    page.locator(".golf-people").scroll_into_view_if_needed()
    _shot(page, "settings")


def _play_turns(page, passes: int, people: tuple[str, ...]) -> dict[str, int]:
    """Play through the hooks until the board has been passed on ``passes`` times; checks that a
    drawn card shows only on its drawer's turn, named on the status line and the board."""
    seen: dict[str, int] = {}
    for _ in range(300):
        awaiting, text = _state(page)
        seen[awaiting] = seen.get(awaiting, 0) + 1
        if seen.get("pass", 0) >= passes and awaiting in ("draw", "initial_flip"):
            return seen
        if awaiting == "cpu":
            _cpu_done(page)
            continue
        if awaiting == "pass":
            person = next(p for p in people if f"Pass to {p}" in text)
            assert not page.locator(".golf-felt").is_visible(), "the board shows while it is passed on"
            _shot(page, "pass")
            page.click(".golf-hotseat-ready")
            page.wait_for_function(
                "who => (document.querySelector('.golf-status')?.innerText || '').startsWith(who)",
                arg=f"{person}, it is your turn.", timeout=STEP_TIMEOUT)
            page.wait_for_selector(".golf-felt", state="visible", timeout=STEP_TIMEOUT)
            continue
        person = text.split(",")[0]
        assert person in people, text  # the status names whose turn it is
        assert page.inner_text(".golf-mine-label").startswith(person), "the board shows another seat"
        if awaiting == "draw":
            assert "you drew" not in page.inner_text(".golf-hand")
            page.click(".golf-deck")
        elif awaiting == "place":
            assert "you drew" in page.inner_text(".golf-hand")  # the drawn card, to its drawer
            _shot(page, "drawn")
            page.click(".golf-slot.golf-legal >> nth=0")
        else:  # initial_flip or flip
            page.click(".golf-slot.golf-legal >> nth=0")
        _after(page, (awaiting, text))
    raise AssertionError(f"the board was not passed on {passes} times: {seen}")


def test_a_hot_seat_game_from_the_panel_is_played_saved_and_resumed(shared_context, voila_server, app_opener, tmp_path):
    context = shared_context
    page = context.new_page()
    page.set_viewport_size(SCREEN)
    app_opener(page, voila_server, "play.ipynb")
    _seat_people_in_the_panel(page, ["Teacher", "Class"], cpus=1)
    page.click(".golf-new-game-here")
    page.wait_for_function(
        "() => (document.querySelector('.golf-status')?.innerText || '').startsWith('Teacher, it is your turn.')",
        timeout=STEP_TIMEOUT)
    assert "Hole 1 of 1" in page.inner_text(".golf-rules")
    assert page.inner_text(".golf-mine-label").startswith("Teacher \u00b7 total")
    seen = _play_turns(page, 3, ("Teacher", "Class"))
    assert seen.get("place", 0) >= 1, seen

    saved = download_save(page, tmp_path, STEP_TIMEOUT)
    history = json.loads(saved.read_text())["history"]

    fresh = context.new_page()  # a new learner's page: one learner against the CPU players
    fresh.set_viewport_size(SCREEN)
    app_opener(fresh, voila_server, "play.ipynb")
    assert _state(fresh)[1].startswith("Your turn")
    fresh.click(".golf-more >> text=Save or resume a game")
    with fresh.expect_file_chooser(timeout=STEP_TIMEOUT) as chooser:
        fresh.click(".golf-upload")
    chooser.value.set_files(str(saved))
    fresh.wait_for_function(
        "() => document.querySelector('.golf-status').textContent.includes('Loaded a saved hot-seat game')",
        timeout=STEP_TIMEOUT)
    awaiting, text = _state(fresh)
    assert awaiting == "pass" and "(Teacher and Class at this screen): hole 1 of 1" in text, text
    fresh.click(".golf-more >> text=Save or resume a game")  # close it: the board is in view again
    resumed = _play_turns(fresh, 2, ("Teacher", "Class"))
    assert resumed.get("pass", 0) >= 2, resumed
    fresh.click(".golf-more >> text=Save or resume a game")
    fresh.click(".golf-save")
    fresh.locator("a.golf-download").wait_for(timeout=STEP_TIMEOUT)
    href = fresh.get_attribute("a.golf-download", "href")
    again = json.loads(base64.b64decode(href.split(",", 1)[1]))
    assert again["players"] == ["Teacher", "Class", "Sofia"] and again["history"][:len(history)] == history
    assert len(again["history"]) > len(history)
    assert fresh.locator("text=Error displaying widget").count() == 0
