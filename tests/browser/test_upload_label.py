"""The buttons that choose a saved game read their label alone: ipywidgets' FileUpload wrote the
count of files it held after it, so the table's button read "Resume from a file (0)" for ever
(issue 23, point 11). Choosing a file still resumes the game."""

from __future__ import annotations

from golflab import Game, Rules

TIMEOUT = 90_000  # ms


def test_resume_from_a_file_reads_its_label_and_still_resumes_a_game(page, voila_server, app_opener, tmp_path):
    game = Game(["You", "Sofia", "Maya"], Rules(rounds=3), seed=11)
    game.apply("flip 0").apply("flip 1")
    saved = tmp_path / "saved.json"
    saved.write_text(game.to_json())
    app_opener(page, voila_server, "play.ipynb", ready=".golf-status", timeout=TIMEOUT)
    page.click(".golf-more >> text=Save or resume a game")
    button = page.locator(".golf-upload")
    button.wait_for(timeout=TIMEOUT)
    assert button.inner_text().strip() == "Resume from a file"
    assert button.locator("i.fa-upload").count() == 1
    page.locator(".golf-upload").scroll_into_view_if_needed()
    page.screenshot(path=str(voila_server.log_path.parent / "upload-label.png"))
    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.click(".golf-upload")
    chooser.value.set_files(str(saved))
    # Loaded: the status says so, until the CPU players move on (on a busy machine the page may
    # only ever show the later status); the saved game's own flips in the last moves stay.
    page.wait_for_function("() => { const t = document.body.innerText;"
                           " return t.includes('Loaded a saved game') || (t.includes('You turned up the')"
                           " && t.includes('at top left') && t.includes('at top middle')); }", timeout=TIMEOUT)
    assert "Hole 1 of 3" in page.inner_text(".golf-rules")  # the CPU players move on at once: not the status
    assert button.inner_text().strip() == "Resume from a file"  # emptied for the next file, no count
    page.close(run_before_unload=True)
