"""The plain-words checker every scan of learner-facing text uses (tests/widgets/test_words.py,
tests/widgets/test_explorer_words.py): what a learner reads of an HTML fragment (``seen``) and every
way a text fails plain words (``problems``): notation, position or seat numbers, card codes,
engine output, statistics' jargon, wrong a/an, sentences over ``golflab.words.MAX_WORDS`` words."""

from __future__ import annotations

import html
import re

from golflab import words

NOTATION = [re.compile(p) for p in (
    r"\b(swap|flip) \d", r"\((draw|take|discard|knock|skip|place|flip|swap \d|flip \d)\)", r"\bposition \d",
    r"\bcolumn \d", r"\[|\]|_|'\w*'", r"\bseat \d", r"\bpayoff", r"\bH\d+\b", r"\b(bid|trump)_",
    r"\bD\d+\b", r"\bT\d+\b")]  # D1: a Codepiece deal; T1: a turn
RANK_LETTERS = re.compile(r"\b[AKQJT][\u2660\u2665\u2666\u2663SHDC]\b|\b[2-9][\u2660\u2665\u2666\u2663]|\b[TQKJ]\b"
                          r"|\bJK\b")
#: Statistics' and the puzzle maker's words, too heavy for 10 to 16-year-olds (issue 38 point 7):
#: "ci low", "delta edge", "medium (gap \u2265 2)".
JARGON = [re.compile(p) for p in (r"\bci (low|high)\b", r"\bdelta\b", r"\bedge\b", r"\bgap \u2265")]
#: Buttons that are cards: their face (``J\n\u2665``) is a picture of the card, not words.
CARD_FACES = {"golf-card-btn", "cp-card"}
WRONG_A = re.compile(r"\b[Aa] (8|11\b|18\b|ace\b|eight\b|[aeio])")
WRONG_AN = re.compile(r"\b[Aa]n ([2-79]|1[02-79]|10\b|[bcdfgjklmnpqrstvwxyz])")


def seen(fragment: str) -> str:
    """What a learner reads of an HTML fragment before opening Details (tags, styles removed)."""
    fragment = re.sub(r"<style>.*?</style>|<details.*?</details>", "", fragment, flags=re.DOTALL)
    fragment = re.sub(r'<span class="gl-card[^"]*"[^>]*>(<span[^>]*>[^<]*</span>)*</span>', " ", fragment)  # pictures
    fragment = re.sub(r'<span class="cp-played[^"]*">[^<]*</span>', " ", fragment)  # Codepiece's cards on the felt
    fragment = re.sub(r"</(li|div|h\d|p|tr|td|th)>|<br\s*/?>", "\n", fragment)  # a block or a cell ends a line
    lines = html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split("\n")
    return "\n".join(" ".join(line.split()) for line in lines if line.strip())


def problems(text: str, max_words: int = words.MAX_WORDS) -> list[str]:
    """Every way ``text`` fails plain words (empty: none); sentences may have ``max_words`` words."""
    found = [f"notation {p.pattern!r}" for p in NOTATION if p.search(text)]
    found += [f"jargon {p.pattern!r}" for p in JARGON if p.search(text)]
    if RANK_LETTERS.search(text):
        found.append(f"a single-letter rank: {RANK_LETTERS.search(text).group()!r}")
    for bad in (WRONG_A, WRONG_AN):
        if bad.search(text):
            found.append(f"wrong article: {bad.search(text).group()!r}")
    found += [f"{len(s.split())} words: {s!r}" for s in words.sentences(text) if len(s.split()) > max_words]
    return found


def _chart_texts(figure) -> list[str]:
    """The words of a plotly chart: its title, axis titles, trace names and category labels."""
    layout = figure.layout
    out = [layout.title.text or ""] + [getattr(layout, axis).title.text or "" for axis in ("xaxis", "yaxis")]
    for trace in figure.data:
        out.append(trace.name or "")
        for field in ("x", "y", "text"):
            values = getattr(trace, field, None)
            if values is not None and not isinstance(values, str) and len(values) and isinstance(values[0], str):
                out.append("\n".join(values))  # each label by itself
    return [t for t in out if t]


def _face_said(button, tooltip: str) -> str:
    """A card button's tooltip without its face: the tooltip is the button's name, which says first
    what the button shows (``Q, queen of hearts``: WCAG's label in name, so voice control finds the
    button by what it reads; ``tests/widgets/test_a11y_widgets.py``). That face is the card's
    picture, read aloud, as its description is; the words after it are scanned as any words."""
    face = button.description.split("\n", 1)[0]
    return tooltip.replace(f"{face}, ", "", 1) if face else tooltip


def widget_texts(widget) -> list[str]:
    """Every piece of text a widget tree shows a learner (HTML as ``seen``, descriptions, tooltips,
    placeholders, option labels, tab and accordion titles, plotly charts' words); not what waits
    behind *Details*."""
    import ipywidgets as w

    out: list[str] = []
    if isinstance(widget, w.HTML):
        out.append(seen(widget.value))
    picture = CARD_FACES & set(getattr(widget, "_dom_classes", ()))  # a card's face is its picture
    for name in ("tooltip", "placeholder") if picture else ("description", "tooltip", "placeholder"):
        value = getattr(widget, name, None)
        if isinstance(value, str):
            out.append(_face_said(widget, value) if picture and name == "tooltip" else value)
    out += [str(label) for label in getattr(widget, "_options_labels", ())]
    if isinstance(widget, (w.Accordion, w.Tab)):
        out += [t for t in widget.titles if t]
    if hasattr(widget, "layout") and hasattr(widget, "data") and hasattr(widget, "to_plotly_json"):
        out += _chart_texts(widget)
    for child in getattr(widget, "children", ()):
        out += widget_texts(child)
    return [t for t in out if t and t.strip()]


def widget_problems(widget) -> list[tuple[str, list[str]]]:
    """(text, its problems) for every text of ``widget_texts(widget)`` that fails plain words."""
    return [(t, problems(t)) for t in widget_texts(widget) if problems(t)]


_FENCE = re.compile(r"^\s*```.*?^\s*```[^\n]*$", re.DOTALL | re.MULTILINE)
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_BLOCK_START = re.compile(r"^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|>)")


def _inline(line: str) -> str:
    """A markdown line's words: images and links as their text, no code ticks, emphasis or tags."""
    line = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", line)
    line = re.sub(r"<[^>]+>", " ", line).replace("`", "")
    line = re.sub(r"\*\*|(?<!\w)\*|\*(?!\w)", "", line)
    return html.unescape(re.sub(r"^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s?)", "", line)).strip()


def markdown_seen(source: str) -> str:
    """What a reader reads of a markdown cell, one line per paragraph, heading, list item, table cell or
    item of a `` · `` navigation bar: code fences and a table's header and separator rows are skipped,
    links count as their text."""
    lines = _FENCE.sub("", source).split("\n")
    blocks: list[str] = []
    joining = False  # the previous line continues a paragraph or list item
    for i, line in enumerate(lines):
        if line.lstrip().startswith("|"):
            following = lines[i + 1] if i + 1 < len(lines) else ""
            if not (_TABLE_SEPARATOR.match(line) or _TABLE_SEPARATOR.match(following)):  # a body row
                blocks += [_inline(cell) for cell in line.strip().strip("|").split("|")]
            joining = False
        elif not line.strip():
            joining = False
        elif joining and not _BLOCK_START.match(line):
            blocks[-1] += " " + _inline(line)
        else:
            blocks.append(_inline(line))
            joining = not line.lstrip().startswith("#")
    return "\n".join(item.strip() for b in blocks for item in b.split(" \u00b7 ") if item.strip())


def inline_code(source: str) -> list[str]:
    """The `code` spans of a markdown cell's prose (code fences left out): notation a reader sees."""
    return re.findall(r"`[^`\n]+`", _FENCE.sub("", source))
