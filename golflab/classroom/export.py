"""The class's roster as a teacher downloads it (presentation: no database)."""

from __future__ import annotations

import csv
import io


def roster_csv(rows: "list[dict]") -> str:
    """CSV text: a header line of every column any row has (in first-seen order), one line per row;
    a missing or None value is an empty cell."""
    columns = list(dict.fromkeys(k for row in rows for k in row)) or ["name"]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in columns})
    return out.getvalue()
