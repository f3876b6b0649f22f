"""Widgets made with their CSS hooks: the classes that the pages' styles, the browser tests and
the docs find them by (``golf-...``)."""

from __future__ import annotations

import ipywidgets as w


def hooked(widget: w.Widget, *hooks: str) -> w.Widget:
    """``widget`` with the classes ``hooks`` added; the widget itself."""
    for hook in hooks:
        widget.add_class(hook)
    return widget


def hooked_html(hook: str, value: str = "") -> w.HTML:
    """An HTML widget showing ``value``, with the hook ``hook``."""
    return hooked(w.HTML(value), hook)


def hooked_button(text: str, hook: str, style: str = "") -> w.Button:
    """A button as wide as its words (``style``: ipywidgets' button_style), with the hook ``hook``."""
    return hooked(w.Button(description=text, button_style=style, layout=w.Layout(width="auto")), hook)
