"""CSV downloads of the data behind an explorer's charts: ``data:`` links, no server needed."""

from __future__ import annotations

import base64
from html import escape


def csv_href(frame) -> str:
    """A ``data:`` URI holding ``frame`` as CSV (UTF-8, no index)."""
    data = frame.to_csv(index=False).encode("utf-8")
    return "data:text/csv;charset=utf-8;base64," + base64.b64encode(data).decode("ascii")


def csv_link(frame, filename: str, label: str | None = None) -> str:
    """An HTML download link (CSS class ``explorer-csv``) for the data behind a chart."""
    label = label or f"Download {filename}"
    return (f'<a class="explorer-csv" download="{escape(filename)}" href="{csv_href(frame)}" '
            f'style="margin-right:14px">\u2b07 {escape(label)}</a>')


def csv_links(result) -> str:
    """A download link for every frame of an explorer's ``result`` (``name.csv``, named in words)."""
    return "".join(csv_link(frame, f"{name}.csv", f"{name.replace('_', ' ')} (CSV)")
                   for name, frame in result.items() if hasattr(frame, "to_csv"))
