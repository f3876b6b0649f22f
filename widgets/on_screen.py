"""The answer on screen goes with its Check click (issue 38, point 5).

ipywidgets sends a control's changes one at a time: while the kernel has not yet acknowledged
one change, the next waits in the page. Arrowing through answer radios (or typing a number)
and pressing Check at once sent the click before the last change, so the kernel graded the
answer before. The Voila template's script (``a11y.html.j2``) therefore writes what the page
shows into the exercise's hidden ``golf-exercise-shown`` box as Check is pressed: that box sends
its value straight away, ahead of the click, and ``answer_on_screen`` reads it.
"""

from __future__ import annotations

import json

import ipywidgets as w

#: The CSS class of the hidden box the page fills with the answer it shows.
SHOWN_CLASS = "golf-exercise-shown"


def shown_box() -> w.Text:
    """The hidden box (CSS class ``golf-exercise-shown``) for one exercise."""
    box = w.Text(value="", layout=w.Layout(display="none"))
    box.add_class(SHOWN_CLASS)
    return box


def answer_on_screen(shown: w.Text, choice: w.RadioButtons | None,
                     number: w.RadioButtons | w.Text | None) -> tuple[str | None, str | None]:
    """(choice, number) as the page showed them when Check was pressed: from ``shown`` where it
    names a value its control offers, else the controls' own values (a kernel-side click, or a
    page without the script)."""
    try:
        seen = json.loads(shown.value) if shown.value else {}
    except ValueError:
        seen = {}
    if not isinstance(seen, dict):
        seen = {}

    def pick(key: str, control) -> str | None:
        if control is None:
            return None
        value = seen.get(key)
        if isinstance(value, str) and (isinstance(control, w.Text) or value in control.options):
            return value
        return control.value

    return pick("choice", choice), pick("number", number)
