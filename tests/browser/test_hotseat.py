"""A hot-seat game played through in the browser (issue 11): Ann and Ben share one screen
against Sofia (CPU), through the CSS hooks only. Between Ann's and Ben's turns the board is
hidden behind "Pass to ..." (``golf-await-pass``, ``golf-hotseat-ready``); the status names
whose turn it is; the game ends with its ranking."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
START = ROOT / "binder" / "start"
SOURCE = """from golflab import Rules
from golflab_widgets.table import GolfTable
GolfTable(players=["Ann", "Ben", "Sofia"], humans=["Ann", "Ben"], seed=7, rules=Rules(rounds=1))"""
STEP_TIMEOUT = 90_000  # ms


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


def test_two_people_and_a_cpu_play_a_hot_seat_game_through(browser, server_starter, server_env, tmp_path, app_opener):
    notebook = _notebook(tmp_path)

    def command(port: int) -> list[str]:
        return [str(START), str(Path(sys.executable).with_name("voila")), str(notebook), "--no-browser",
                f"--port={port}", "--Voila.ip=127.0.0.1", "--show_tracebacks=True"]

    with server_starter("voila-hotseat", command, env=server_env(), render_path="") as server:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
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
                    page.wait_for_timeout(200)
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
