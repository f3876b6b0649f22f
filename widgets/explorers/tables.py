"""``table_html``: an explorer's data as a compact HTML table."""

from __future__ import annotations

#: The studies' column names a learner (10 to 16 years old) would stumble on, in plain words; any
#: other name reads with its underscores as spaces (``mean_score``: ``mean score``).
PLAIN_HEADINGS = {
    "ci_low": "likely from", "ci_high": "likely to",  # the 95% interval around the average
    "edge": "vs the table", "delta_edge": "change from A",  # score minus the table's; B's minus A's
    "rank": "place", "win_rate": "holes won", "go_out_rate": "went out",
}


def table_html(frame, float_format: str = "{:.3g}", max_rows: int = 60) -> str:
    """A compact HTML table of ``frame`` (numbers formatted, no index, headings in words:
    ``PLAIN_HEADINGS``, else ``mean_score`` reads ``mean score``)."""
    shown = frame.head(max_rows).rename(columns=lambda c: PLAIN_HEADINGS.get(str(c), str(c).replace("_", " ")))
    formatters = {c: float_format.format for c in shown.columns if shown[c].dtype.kind == "f"}
    return ("<div style='overflow-x:auto'>" +
            shown.to_html(index=False, border=0, classes="explorer-table", formatters=formatters, escape=True) +
            "</div><style>.explorer-table{border-collapse:collapse;font:12px system-ui,sans-serif}"
            ".explorer-table th,.explorer-table td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;"
            "overflow-wrap:normal}"  # a narrow screen scrolls the table sideways, never breaks "10.52" or "Maya"
            ".explorer-table td{white-space:nowrap}"
            ".explorer-table th{background:#f3f3f3}</style>")
