"""Links that open a position on the analysis board: ``analysis.ipynb?position=<text>``.

The analysis board (``analysis.AnalysisBoard``) opens the position its address names; the replay
(any move of a saved game, a kept game or a room's game) and the puzzle board (once answered)
offer the same link for the moment they show, so a teacher can send it to the class.
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote

from golflab import Game, Observation, Position

APP = "analysis.ipynb"
URL_PARAM = "position"
#: The link's hook (``golf-position-link``: the box that holds it).
LINK_CLASS = "golf-position-link"


def position_link(position: "Position | str", app: str = APP) -> str:
    """The address (relative to the apps) that opens ``position`` on the analysis board."""
    return f"{app}?{URL_PARAM}={quote(str(position), safe='')}"


def link_html(source: "Position | Observation | Game | None") -> str:
    """The link to ``source``'s position (a game's: as its seat to move sees it), or "" when there
    is none to give (no game yet, or a moment that is not a position)."""
    if source is None:
        return ""
    try:
        position = source if isinstance(source, Position) else Position.of(source)
    except ValueError:
        return ""
    return (f'<a href="{escape(position_link(position))}" target="_blank">Link to this position</a> '
            "<span>(opens it on the analysis board; copy it to share the position)</span>")


__all__ = ["APP", "LINK_CLASS", "URL_PARAM", "link_html", "position_link"]
