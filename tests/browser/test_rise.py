"""The lessons as slides in JupyterLab (issue 11): jupyterlab-rise is installed and enabled,
every lesson carries slide metadata with its widgets on slides, and lesson 2 run in JupyterLab
and opened as a RISE slideshow (Alt+R) shows its exercises live on a slide: an answer typed on
the slide is checked by the kernel.

The slideshow is jupyterlab-rise's own app, whose shared modules lack @jupyterlab/console; the
ipywidgets manager needs it, so without ``jupyter_config/labextensions/golflab-rise-console`` every
widget on a slide is its text repr (``Exercises(children=...)``). The Jupyter server serves copies
of the lessons in a temporary folder, so nothing the slideshow saves touches the repository's
notebooks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from traitlets.config.loader import PyFileConfigLoader

from golflab import Game, score_hand

ROOT = Path(__file__).resolve().parents[2]
START = ROOT / "binder" / "start"
LESSONS = sorted((ROOT / "notebooks").glob("lesson*.ipynb"))
LESSON = "lesson2_scoring_and_pairs.ipynb"
TOKEN = "golflab-rise-token"
LOAD_TIMEOUT = 180_000  # ms: JupyterLab's first load on a busy machine
WAIT = 60_000  # ms for the kernel to answer a click on a slide
ARTIFACTS = ROOT / "test-artifacts"
EXERCISES_SLIDE = "Your turn: exercises"  # the heading of lesson 2's exercise slide
FIRST_HAND = Game(players=2, seed=4).grid(0)  # lesson 2's first exercise: ScoreHand.dealt(4)


def test_jupyterlab_rise_is_installed_and_enabled():
    """``jupyter labextension list`` shows it enabled and OK (with this venv's Jupyter)."""
    jupyter = Path(sys.executable).with_name("jupyter")
    listing = subprocess.run([str(jupyter), "labextension", "list"], capture_output=True, text=True, timeout=120,
                             check=False)
    text = re.sub(r"\x1b\[[0-9;]*m", "", listing.stdout + listing.stderr)
    line = next((ln for ln in text.splitlines() if "jupyterlab-rise" in ln), "")
    assert re.search(r"jupyterlab-rise v\S+ enabled +OK", line), text
    assert (Path(sys.prefix) / "etc/jupyter/jupyter_server_config.d/jupyterlab_rise.json").exists()


def test_the_server_config_adds_the_slideshow_fixes():
    """``jupyter_config/`` (on the config path through ``binder/start``) puts golflab-rise-console
    on JupyterLab's extension path, its entry file where its package.json says, and turns on the
    "scroll" setting of the installed jupyterlab-rise plugin (a setting its schema has)."""
    config = ROOT / "jupyter_config"
    loader = PyFileConfigLoader("jupyter_server_config.py", path=str(config))
    paths = loader.load_config().LabServerApp.extra_labextensions_path
    package = json.loads((config / "labextensions" / "golflab-rise-console" / "package.json").read_text())
    assert str(config / "labextensions") in paths
    assert (config / "labextensions" / package["name"] / package["jupyterlab"]["_build"]["load"]).is_file()
    overrides = json.loads((config / "labconfig" / "default_setting_overrides.json").read_text())
    schema = Path(sys.prefix) / "share/jupyter/labextensions/jupyterlab-rise/schemas/jupyterlab-rise/plugin.json"
    assert overrides == {"jupyterlab-rise:plugin": {"scroll": True}}
    assert "scroll" in json.loads(schema.read_text())["properties"]


def test_every_lesson_is_a_slideshow_with_its_widgets_on_slides():
    """The first cell starts a slide (or is skipped before one), every cell says what it is on a
    slide, and no widget cell is skipped (a skipped cell would leave its widget off the slides)."""
    assert len(LESSONS) >= 5
    for path in LESSONS:
        cells = json.loads(path.read_text())["cells"]
        kinds = [c["metadata"].get("slideshow", {}).get("slide_type") for c in cells]
        assert all(kinds), f"{path.name}: cells without slide metadata: {[i for i, k in enumerate(kinds) if not k]}"
        assert set(kinds) <= {"slide", "subslide", "fragment", "-", "skip", "notes"}, (path.name, set(kinds))
        first = next(k for k in kinds if k != "skip")
        assert first == "slide", f"{path.name}: the first shown cell must start a slide, got {first!r}"
        for cell, kind in zip(cells, kinds):
            outputs = cell.get("outputs", [])
            widget = any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
            assert not (widget and kind in ("skip", "notes")), f"{path.name}: a widget cell is left off the slides"


def _lab(folder: Path):
    """JupyterLab on ``folder``, with its workspace and settings beside it (a fresh layout: no
    slideshow panel restored from an earlier run) and no news question over the slides."""
    state = folder.parent / "lab-state"
    notifications = state / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notifications.parent.mkdir(parents=True, exist_ok=True)
    notifications.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))

    def command(port: int) -> list[str]:
        root = ["--allow-root"] if os.geteuid() == 0 else []
        return [str(START), str(Path(sys.executable).with_name("jupyter")), "lab", "--no-browser", f"--port={port}",
                "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={folder}",
                f"--LabApp.workspaces_dir={state / 'workspaces'}", f"--LabApp.user_settings_dir={state / 'settings'}",
                "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", *root]
    return command


def test_lesson2_is_presented_as_slides_with_live_exercises(browser, server_starter, server_env, tmp_path):
    """A teacher runs lesson 2 in JupyterLab (Run All Cells), presses Alt+R and puts the slideshow
    in full screen: one reveal.js section per slide, starting at the lesson's title. On the
    exercise slide the exercises are live widgets, not their text repr: a wrong answer typed on
    the slide is explained, the right one accepted and counted, and the mouse wheel scrolls the
    slide down to the last exercise."""
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(ROOT / "notebooks" / LESSON, folder / LESSON)
    cells = json.loads((folder / LESSON).read_text())["cells"]
    slides_expected = sum(c["metadata"]["slideshow"]["slide_type"] == "slide" for c in cells)
    ARTIFACTS.mkdir(exist_ok=True)
    with server_starter("jupyterlab-rise", _lab(folder), env=server_env(), token=TOKEN,
                        ready_path="/api/status") as server:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        console: list[str] = []
        try:
            page = context.new_page()
            page.on("console", lambda msg: console.append(f"{msg.type}: {msg.text}"))
            page.goto(f"{server.base}/lab/tree/{LESSON}?token={TOKEN}", timeout=LOAD_TIMEOUT)
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=LOAD_TIMEOUT)
            _run_all_cells(page)
            slides = _open_slideshow(page)
            page.screenshot(path=str(ARTIFACTS / "rise-slides.png"))
            shown = slides.evaluate("() => document.querySelectorAll('.reveal .slides > section').length")
            assert shown == slides_expected, (shown, slides_expected)

            _go_to_slide(slides, EXERCISES_SLIDE, slides_expected)
            present = slides.locator(".reveal .slides > section.present")
            box = present.locator(".golf-exercise-0")
            check = box.locator(".golf-exercise-check")
            try:
                check.wait_for(timeout=WAIT)
            except PlaywrightError:
                page.screenshot(path=str(ARTIFACTS / "rise-exercise-slide.png"))
                errors = "\n".join(m[:500] for m in dict.fromkeys(console) if m.startswith("error"))
                pytest.fail(f"no live exercise on the slide; it shows {present.inner_text()[:300]!r}. "
                            f"Browser console errors:\n{errors}")
            assert "widget-button" in check.get_attribute("class")
            assert "Exercises(children=" not in present.locator(".jp-OutputArea").inner_text()  # no text repr
            for part in (present.locator("h2", has_text=EXERCISES_SLIDE), check):  # the slide has slid in
                expect(part).to_be_in_viewport(ratio=1, timeout=WAIT)
            page.screenshot(path=str(ARTIFACTS / "rise-exercise-slide.png"))

            _answer_wrong_then_right(box, score_hand(FIRST_HAND))
            expect(present.locator(".golf-exercise-progress")).to_contain_text(
                re.compile(r"1 of \d+ answered, 0 right at the first try"), timeout=WAIT)
            page.screenshot(path=str(ARTIFACTS / "rise-exercise-answered.png"))

            # The slide is taller than the screen: the mouse wheel scrolls it to the last exercise
            # (RISE's "scroll" setting, on in jupyter_config/labconfig/default_setting_overrides.json).
            last = present.locator(".golf-exercise").last.locator(".golf-exercise-check")
            page.mouse.move(512, 400)
            for _ in range(40):
                if last.evaluate("e => e.getBoundingClientRect().bottom <= innerHeight"):
                    break
                page.mouse.wheel(0, 300)
            expect(last).to_be_in_viewport(timeout=WAIT)
            page.screenshot(path=str(ARTIFACTS / "rise-exercise-last.png"))
        finally:
            context.close()


def _open_slideshow(page):
    """Alt+R on the notebook (RISE saves it and opens the slideshow beside it), then RISE's
    full-screen button, as on a projector; the slideshow's frame, at the lesson's title."""
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.keyboard.press("Alt+r")
    slides = next(f for f in _wait_frames(page) if "/rise/" in f.url)
    slides.wait_for_selector(".reveal .slides section", timeout=LOAD_TIMEOUT)
    slides.locator(".reveal .slides section.present").filter(has_text="Lesson 2").first.wait_for(
        timeout=LOAD_TIMEOUT)
    page.get_by_title("Open the slideshow in full screen").click()
    expect(page.locator("iframe[src*='/rise/']")).to_have_js_property("clientWidth", 1024, timeout=WAIT)
    return slides


def _answer_wrong_then_right(box, right: int) -> None:
    """Score-the-hand exercise ``box``: a wrong score is nudged (not given the answer), then the right one accepted."""
    number = box.locator(".golf-exercise-number input")
    check = box.locator(".golf-exercise-check")
    feedback = box.locator(".golf-exercise-feedback")
    number.fill(str(right + 3))
    check.click()
    box.locator(".golf-exercise-wrong").wait_for(timeout=WAIT)
    assert "column by column" in feedback.inner_text() and str(right) not in feedback.inner_text()
    number.fill(str(right))
    check.click()
    box.locator(".golf-exercise-right").wait_for(timeout=WAIT)
    assert f"Right: the hand scores {right}" in feedback.inner_text()


def _run_all_cells(page) -> None:
    """Run > Run All Cells in JupyterLab once its kernel is up (cells run before would be
    dropped), then wait until the lesson's exercises are shown."""
    toolbar = page.locator(".jp-NotebookPanel-toolbar")
    expect(toolbar.locator(".jp-KernelName")).to_contain_text("Python", timeout=LOAD_TIMEOUT)
    expect(toolbar.locator(".jp-Notebook-ExecutionIndicator")).to_have_attribute("data-status", "idle",
                                                                                   timeout=LOAD_TIMEOUT)
    page.locator(".jp-Notebook .jp-Cell").first.click()  # the notebook is the current widget
    page.locator(".lm-MenuBar-itemLabel").get_by_text("Run", exact=True).click()
    page.locator(".lm-Menu-itemLabel").get_by_text("Run All Cells", exact=True).click(timeout=LOAD_TIMEOUT)
    # attached, not visible: JupyterLab skips rendering cells out of view
    page.locator(".jp-Notebook .golf-exercise-progress").wait_for(state="attached", timeout=LOAD_TIMEOUT)


def _go_to_slide(slides, heading: str, count: int) -> None:
    """Click the slideshow's "next slide" control until the slide with ``heading`` is shown."""
    target = slides.locator(".reveal .slides > section.present", has_text=heading)
    for _ in range(count):
        if target.count():
            return
        slides.locator(".reveal .controls .navigate-right.enabled").click()
    target.wait_for(timeout=WAIT)
def _wait_frames(page):
    for _ in range(200):
        if any("/rise/" in f.url for f in page.frames):
            return page.frames
        page.wait_for_timeout(250)
    pytest.fail("the RISE slideshow frame never appeared")
