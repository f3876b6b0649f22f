"""An explorer's rule controls, generated from the declaration (``golflab.OPTIONS``).

Each explorer names what it studies as parts of the game (``golflab.rules.AFFECTS``);
``study_options`` gives every declared option that affects them, so a new option appears
in the explorers it concerns without editing them. ``study_form`` keeps the explorer's
layout compact: the first rows show, the rest fold into a collapsed "More house rules" box.
"""

from __future__ import annotations

import ipywidgets as w

from golflab import Rules
from golflab.rules import options_affecting

from ..table.rules_form import RulesForm


def study_options(*parts: str) -> tuple[str, ...]:
    """The names of the declared options that affect any of ``parts``, in declaration order."""
    return options_affecting(*parts)


def study_form(rules: Rules | None, options: tuple[str, ...], shown: int) -> RulesForm:
    """A ``RulesForm`` for ``options``: the first ``shown`` rows visible, the others in a
    collapsed box (CSS class ``explorer-more-rules``) titled "More house rules (N)", two
    rows side by side where they fit (one on a phone) so that opening it moves the charts down
    by half as much."""
    if shown < 0:
        raise ValueError(f"shown must be 0 or more, got {shown}")
    form = RulesForm(rules or Rules(), options=options)
    rows = list(form.children)
    if len(rows) > shown:
        for row in rows[shown:]:  # two to a line where they fit, one on a phone (a row is 300 px at least)
            row.layout.flex, row.layout.min_width = "1 1 45%", "300px"
        grid = w.Box(rows[shown:], layout=w.Layout(flex_flow="row wrap", width="100%"))
        more = w.Accordion(children=[grid], titles=(f"More house rules ({len(rows) - shown})",),
                           selected_index=None, layout=w.Layout(width="100%", max_width="1320px"))
        more.add_class("explorer-more-rules")
        form.children = [*rows[:shown], more]
    return form
