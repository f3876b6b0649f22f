"""The coach's controls: a widget with its hook class (the tests' and the page's handle), and a
button sized to its label."""

from __future__ import annotations

import ipywidgets as w


def hooked(widget: w.DOMWidget, hook: str) -> w.DOMWidget:
    """``widget`` with the CSS class ``hook``."""
    widget.add_class(hook)
    return widget


def button(description: str, icon: str, hook: str, tooltip: str, **kwargs) -> w.Button:
    """A button as wide as its label, with ``hook`` as its class."""
    return hooked(w.Button(description=description, icon=icon, tooltip=tooltip, layout=w.Layout(width="auto"),
                           **kwargs), hook)
