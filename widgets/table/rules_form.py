"""A form with one control per golf rule option, each with its one-line explanation.

Used by the table's new-game panel and by the strategy explorers, so every place that
asks for rules asks the same way and validates through ``golflab.Rules``.
"""

from __future__ import annotations

from html import escape
from typing import Callable, Iterable

import ipywidgets as w

from golflab import OPTIONS, Rules
from golflab.words import rules_words

#: Every rule option, in the declaration's order (``golflab.OPTIONS``).
ALL_OPTIONS = tuple(o.name for o in OPTIONS)
_LABELS = {o.name: o.label for o in OPTIONS}
_OPTION = {o.name: o for o in OPTIONS}
# A Dropdown shows nothing for the value None, so an option's None (automatic decks) is
# the control's 0, translated both ways here.
AUTO_DECKS = 0


def _to_control(name: str, value):
    return AUTO_DECKS if _OPTION[name].optional and value is None else value


def _from_control(name: str, value):
    return None if _OPTION[name].optional and value == AUTO_DECKS else value


def _control(name: str, value):
    """The control of an option, chosen from its declaration: a checkbox (bool), buttons for
    a few whole numbers, a bounded number box for many, a dropdown of choices (with the
    ``none_label`` entry when the option may be None). Its label is its own description, so a
    screen reader names the control by it (bold; before the control, after a checkbox)."""
    opt = _OPTION[name]
    label = {"description": f"<b>{escape(_LABELS[name])}</b>", "description_allow_html": True}
    labelled = {**label, "style": {"description_width": "130px"}}
    if opt.kind is bool:
        return w.Checkbox(value=value, indent=False, layout=w.Layout(width="auto", min_width="160px"), **label)
    if opt.kind is str:
        return w.Dropdown(options=[(opt.choice_label(c), c) for c in opt.choices], value=value,
                          layout=w.Layout(width="270px"), **labelled)
    lo, hi = opt.bounds
    if opt.optional:
        return w.Dropdown(options=[(opt.none_label, AUTO_DECKS), *((str(i), i) for i in range(lo, hi + 1))],
                          value=_to_control(name, value), layout=w.Layout(width="270px"), **labelled)
    if hi - lo <= 2:
        return w.ToggleButtons(options=list(range(lo, hi + 1)), value=value, **label,
                               style={"button_width": "40px", "description_width": "130px"})
    return w.BoundedIntText(value=value, min=lo, max=hi, layout=w.Layout(width="210px"), **labelled)


class RulesForm(w.VBox):
    """Controls for some or all rule options; ``form.rules`` is the validated ``Rules``.

    ``options`` picks which options to show (default: all of them); the others keep the
    values of ``base``. Each control carries the CSS class ``golf-rule-<option>``. Below them,
    ``summary`` (CSS class ``golf-rules-summary``) says in one line the rules the controls make,
    or why they are not allowed; the kernel writes it after every change, so a page (and a test)
    can see that a change has arrived.
    """

    def __init__(self, base: Rules | None = None, options: Iterable[str] = ALL_OPTIONS, **kwargs) -> None:
        self._base = base or Rules()
        options = tuple(options)
        unknown = [o for o in options if o not in ALL_OPTIONS]
        if unknown:
            raise ValueError(f"unknown rule option(s) {unknown}; allowed: {', '.join(ALL_OPTIONS)}")
        values = self._base.to_dict()
        self.controls = {name: _control(name, values[name]) for name in options}
        rows = []
        for name, ctl in self.controls.items():
            ctl.add_class(f"golf-rule-{name}")
            hint = w.HTML(f"<span style='color:#555;font-size:12px'>{_OPTION[name].help_in_words()}</span>")
            rows.append(w.HBox([ctl, hint], layout=w.Layout(align_items="center", flex_flow="row wrap")))
            ctl.observe(lambda _change: self._summarize(), names="value")
        self.summary = w.HTML()
        self.summary.add_class("golf-rules-summary")
        self._summarize()
        super().__init__([*rows, self.summary], **kwargs)

    def _summarize(self) -> None:
        try:
            rules = self.rules
            holes = f"{rules.rounds} hole{'s' if rules.rounds != 1 else ''}, " if "rounds" in self.controls else ""
            text = f"Chosen: {holes}{rules_words(rules, self.controls)}"
        except ValueError as exc:
            text = f"Not allowed: {exc}"
        self.summary.value = f"<span style='font-size:12px'>{escape(text)}</span>"

    @property
    def rules(self) -> Rules:
        """The rules the controls describe (a ValueError if the combination is not allowed)."""
        return self._base.replace(**{name: _from_control(name, ctl.value) for name, ctl in self.controls.items()})

    def set_rules(self, rules: Rules) -> None:
        """Show ``rules`` in the controls."""
        values = rules.to_dict()
        self._base = rules
        for name, ctl in self.controls.items():
            ctl.value = _to_control(name, values[name])

    def on_change(self, callback: Callable[[Rules], None]) -> None:
        """Call ``callback(rules)`` whenever a control changes to a valid rule set."""

        def handler(_change) -> None:
            try:
                rules = self.rules
            except ValueError:
                return
            callback(rules)

        for ctl in self.controls.values():
            ctl.observe(handler, names="value")
