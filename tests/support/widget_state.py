"""What a page receives from a widget tree, for tests that check a page never holds a hidden card:
``widget_tree(widget)`` (every widget reachable from it), ``page_state(widget)`` (all their state
as one string) and ``marks(card)`` (every way a board writes a card)."""

from __future__ import annotations

import ipywidgets as w
from golflab_widgets.table.board import card_face

from golflab import words
from golflab.display import card_html


def widget_tree(widget) -> list:
    """Every widget reachable from ``widget`` (children, layouts, styles, any widget trait)."""
    seen, todo = {}, [widget]
    while todo:
        current = todo.pop()
        if id(current) not in seen:
            seen[id(current)] = current
            for name in current.keys:
                value = getattr(current, name, None)
                items = value if isinstance(value, (list, tuple)) else [value]
                todo.extend(v for v in items if isinstance(v, w.Widget))
    return list(seen.values())


def page_state(widget) -> str:
    """Everything the browser receives from the widget tree, as one string."""
    return "\n".join(repr(x.get_state()) for x in widget_tree(widget))


def marks(card) -> list[str]:
    """Every way a board writes a card."""
    return [f'title="{card.code}"', card.pretty, card_face(card)[0], card_html(card), words.card_name(card, suit=True)]
