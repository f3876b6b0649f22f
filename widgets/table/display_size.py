"""Large display: the boards readable on a classroom projector (1024x768, from the back row).

One CSS class, ``golf-large``, on a board's outer widget switches it to large cards and
type; ``LARGE_CSS`` (put it once on the page, e.g. in the board's style ``HTML``) holds the
rules for the table (``golf-table``), the score pad (``golf-score-pad``) and the exercises
(``golf-exercise-set``). Any board uses it the same way::

    w.HTML(MY_CSS + LARGE_CSS)            # with the board's own style sheet
    set_large(board, resolve_large(large))  # large=None: the teacher's setting (below)
    size_toggle(board)                    # optional: a "Large" toggle (``golf-large-toggle``)

A teacher turns it on for every board without touching a notebook: ``GOLFLAB_LARGE=1`` in
the server's environment, or ``?large=1`` on a Voila app's URL (Voila hands the page's query
string to its kernel as ``QUERY_STRING``).
"""

from __future__ import annotations

import os

import ipywidgets as w

from ..account.session import requested

LARGE_CLASS = "golf-large"
TOGGLE_CLASS = "golf-large-toggle"
ENV_VAR = "GOLFLAB_LARGE"
URL_PARAM = "large"
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")

LARGE_CSS = """<style>
.golf-large{font-size:20px}
.golf-large.golf-table{max-width:1010px}
.golf-large .golf-rules{font-size:18px}
.golf-large .golf-status{font-size:26px;line-height:1.3;padding:10px 14px}
.golf-large .golf-status .golf-last{font-size:19px}
.golf-large button.golf-card-btn{width:92px !important;height:128px !important;font-size:36px !important}
.golf-large button.golf-card-btn.golf-back{font-size:20px !important}
.golf-large .widget-gridbox{grid-template-columns:repeat(3,100px) !important;width:320px !important}
.golf-large .golf-hand{--gl-w:92px;--gl-h:128px;--gl-f:26px;font-size:17px;min-width:100px}
.golf-large .golf-pile-label{font-size:16px}
.golf-large .golf-mine-label{font-size:22px}
.golf-large .golf-opp{--gl-w:46px;--gl-h:64px;--gl-f:16px;font-size:18px}
.golf-large .golf-opp .golf-style,.golf-large .golf-opp .golf-holding{font-size:16px}
.golf-large .golf-recent,.golf-large .golf-recent h2{font-size:17px}
.golf-large button.golf-action,.golf-large button.golf-hotseat-ready{font-size:21px !important;height:48px !important}
.golf-large .golf-scores table,.golf-large .golf-summary{font-size:19px}
.golf-large .golf-summary h3{font-size:22px}
.golf-large .golf-lesson,.golf-large .golf-exercise-feedback{font-size:20px}
.golf-large .gl-breakdown,.golf-large .gl-grid{--gl-w:64px;--gl-h:90px;--gl-f:22px}
.golf-large .golf-opp .gl-grid{--gl-w:46px;--gl-h:64px;--gl-f:16px}
.golf-large .golf-pos-label{font-size:17px}
.golf-large .golf-card-rank select,.golf-large .golf-card-suit select,.golf-large .golf-card-text input,
.golf-large .golf-exercise-number input{font-size:22px !important;height:38px !important}
.golf-large .golf-exercise-progress{font-size:22px}
.golf-large .golf-exercise b,.golf-large .golf-exercise-choice label{font-size:20px}
.golf-large.golf-exercise-set{max-width:1010px}
.golf-large.golf-exercise-set h3{font-size:28px}
.golf-large .golf-exercise{max-width:990px}
.golf-large .golf-position .gl-held,.golf-large .golf-position .gl-piles,.golf-large .golf-position .gl-name,
.golf-large .golf-exercise .golf-puzzle-feedback{font-size:18px}
.golf-large .widget-button,.golf-large .widget-toggle-button{font-size:18px;height:40px}
.golf-large .golf-speed{display:flex !important;width:auto !important;align-items:center}
.golf-large .golf-speed button{width:auto !important;padding:0 12px !important}
.golf-large .golf-people{width:470px !important}
.golf-large .golf-person-name,.golf-large .golf-cpu-count,.golf-large .golf-your-seat,
.golf-large .golf-seed{width:300px !important}
.golf-large .widget-label,.golf-large .widget-html-content{font-size:inherit}
</style>"""


def _flag(text: str, where: str) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{where} must be one of {', '.join(_TRUE + _FALSE)}, got {text!r}")


def large_default() -> bool:
    """The teacher's setting: ``?large=...`` on the app's URL, else ``GOLFLAB_LARGE``, else off.
    A value that is not a yes/no word is a ValueError naming where it came from."""
    asked = requested(URL_PARAM)  # a preheated kernel waits for its page
    if asked is not None:
        return _flag(asked, f"the URL parameter {URL_PARAM}")
    text = os.environ.get(ENV_VAR, "")
    return _flag(text, f"environment variable {ENV_VAR}") if text.strip() else False


def resolve_large(large: bool | None) -> bool:
    """``large`` itself, or the teacher's setting when None; anything else is a ValueError."""
    if large is None:
        return large_default()
    if not isinstance(large, bool):
        raise ValueError(f"large must be True, False or None (the teacher's setting), got {large!r}")
    return large


def set_large(widget: w.DOMWidget, large: bool) -> None:
    """Show ``widget`` (a board's outer box) large or normal."""
    if large:
        widget.add_class(LARGE_CLASS)
    else:
        widget.remove_class(LARGE_CLASS)


#: A teacher's page on the projector (a class table, a study) while it shows the class: the app's own
#: words stay, the notebook's introduction (its paragraphs; the heading stays) gives it the screen.
PROJECTING = "golf-projecting"
PROJECTING_CSS = "<style>body:has(.golf-projecting) .jp-MarkdownCell p{display:none}</style>"


def set_projecting(widget: w.DOMWidget, on: bool) -> None:
    """Mark ``widget`` (holding ``PROJECTING_CSS``) as on the projector, or no longer."""
    (widget.add_class if on else widget.remove_class)(PROJECTING)


def is_large(widget: w.DOMWidget) -> bool:
    return LARGE_CLASS in widget._dom_classes


def size_toggle(widget: w.DOMWidget) -> w.ToggleButton:
    """A "Large" toggle (``golf-large-toggle``) that switches ``widget`` between the sizes."""
    toggle = w.ToggleButton(value=is_large(widget), description="Large", icon="search-plus",
                            tooltip="Large cards and text, for a projector", layout=w.Layout(width="auto"))
    toggle.add_class(TOGGLE_CLASS)
    toggle.observe(lambda change: set_large(widget, change["new"]), names="value")
    return toggle
