"""Names for controls that show no label of their own (issue 38: WCAG 2.1 AA).

A control sitting beside words that say what it is (a card picker in a grid, a dropdown after
"Add a player") still needs a name a screen reader can say. ipywidgets names a control by its
``description`` only, so ``name_control`` gives it one and hides that label from sight alone
(the ``golf-sr-label`` class, styled by the Voila template's ``a11y.html.j2``).
"""

from __future__ import annotations

from typing import TypeVar

import ipywidgets as w

Control = TypeVar("Control", bound=w.DOMWidget)

#: The class that hides a control's own label from sight while a screen reader still reads it.
SR_LABEL = "golf-sr-label"


def name_control(control: Control, name: str) -> Control:
    """``control`` named ``name`` for screen readers without a visible label; returns it."""
    if not name.strip():
        raise ValueError("a control's name must say what it is, got an empty name")
    control.description = name
    control.style.description_width = "0px"
    control.add_class(SR_LABEL)
    return control
