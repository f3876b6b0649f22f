"""The five strategy explorers driven from Python: change a control, the figure's data
changes and agrees with golflab.simulate or the exact computation."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import threading
from pathlib import Path

import pandas as pd
import pytest
from golflab_widgets import HouseRulesLab, PairingExplorer, PersonalityExplorer, TierExplorer, TurnCountExplorer
from golflab_widgets.explorers import precomputed
from golflab_widgets.explorers.cache import LRUCache
from golflab_widgets.explorers.charts import ChartSlot
from golflab_widgets.explorers.downloads import csv_href, csv_link
from golflab_widgets.explorers.explorer import Explorer
from golflab_widgets.explorers.players_control import players_control

from golflab import OPTIONS, Rules, simulate
from golflab.ev import placement_evs
from golflab.strategy import (
    calculator_observation,
    personality_table,
    rank_stats,
    round_robin,
    tier_table,
    turn_distribution,
)

pytestmark = pytest.mark.usefixtures("clean_env")
TABLE = ["Sofia", "Maya", "Priya", "Marcus"]
QUICK = Rules(rounds=3)  # the forms do not show "rounds": short games keep the tests small


def _bar(fig, name):
    return next(t for t in fig.data if t.name == name)


# ------------------------------------------------------------------------------ base
def test_lru_cache_counts_hits_evicts_the_oldest_and_stores_no_failure():
    cache = LRUCache(2)
    assert cache.get("a", lambda: 1) == 1 and cache.get("a", lambda: 99) == 1
    assert (cache.hits, cache.misses) == (1, 1)
    cache.get("b", lambda: 2)
    cache.get("a", lambda: 0)  # a is now the most recent
    cache.get("c", lambda: 3)
    assert "b" not in cache and "a" in cache and len(cache) == 2

    def boom():
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        cache.get("d", boom)
    assert "d" not in cache
    with pytest.raises(ValueError, match="maxsize"):
        LRUCache(0)


def test_csv_link_holds_the_frame():
    frame = pd.DataFrame({"rank": ["K", "2"], "value": [0, -2]})
    link = csv_link(frame, "tiers.csv")
    assert 'class="explorer-csv"' in link and 'download="tiers.csv"' in link
    data = base64.b64decode(csv_href(frame).split(",", 1)[1]).decode()
    assert pd.read_csv(io.StringIO(data), dtype={"rank": str}).equals(frame)


class _Squares(Explorer):
    """A minimal explorer: the square of the seed, recording whether it looked busy."""

    SAMPLE_OPTIONS = (1, 2)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seen_busy = []
        self.children = [self.controls_row(), self.status, self.downloads]

    def inputs(self):
        if self.seed.value == 13:
            raise ValueError("13 is unlucky")
        return (self.seed.value, self.samples.value)

    def compute(self, key):
        self.seen_busy.append(("explorer-computing" in self._dom_classes, "Computing" in self.status.value))
        if key[0] == 7:
            raise RuntimeError("seven failed")
        return {"squares": pd.DataFrame({"x": [key[0]], "y": [key[0] ** 2 * key[1]]})}

    def render(self, result):
        self.shown = result["squares"]


def test_explorer_shows_computing_caches_per_input_and_reports_errors():
    e = _Squares(seed=3)
    e.refresh()
    assert e.seen_busy == [(True, True)] and "explorer-computing" not in e._dom_classes
    assert e.shown["y"].item() == 9 and "squares.csv" in e.downloads.value
    e.seed.value = 4
    assert e.shown["y"].item() == 16 and e.cache.misses == 2
    e.seed.value = 3
    assert e.cache.hits == 1 and e.shown["y"].item() == 9 and "from the cache" in e.status.value
    e.samples.value = 2
    assert e.shown["y"].item() == 18
    e.seed.value = 7  # compute fails: the status says so, the old result stays
    assert "seven failed" in e.status.value and "explorer-error" in e._dom_classes
    assert e.shown["y"].item() == 18 and e.error and "explorer-computing" not in e._dom_classes
    e.seed.value = 13  # bad input
    assert "13 is unlucky" in e.status.value
    e.seed.value = 5
    assert e.error is None and "explorer-error" not in e._dom_classes and e.shown["y"].item() == 50
    with e.batch():
        e.seed.value = 6
        e.samples.value = 1
    assert e.cache.misses == 6  # 3, 4, 3x2, 7, 5x2, 6x1: one compute for the batch
    assert e.shown["y"].item() == 36


class _Gated(_Squares):
    """Its computation for seed 2 waits until the test opens ``gate``."""

    def __init__(self, **kwargs):
        self.computed, self.entered, self.gate = [], threading.Event(), threading.Event()
        super().__init__(**kwargs)

    def compute(self, key):
        self.computed.append(key[0])
        if key[0] == 2:
            self.entered.set()
            assert self.gate.wait(30)
        return super().compute(key)


def test_a_newer_change_replaces_the_one_waiting_behind_a_computation():
    e = _Gated(seed=1, background=True)
    e.refresh()
    e.seed.value = 2  # computes on the worker thread, held at the gate
    assert e.entered.wait(30)
    assert "Computing 1 rounds, seed 2" in e.status.value and "explorer-computing" in e._dom_classes
    e.seed.value = 3  # waits behind seed 2 ...
    assert "latest change is next" in e.status.value
    e.seed.value = 4  # ... and is replaced by this newer change
    e.samples.value = 2
    e.gate.set()
    assert e.idle.wait(30)
    assert e.computed == [1, 2, 4]  # seed 3 (and seed 4 with one round) never computed
    assert e.shown["y"].item() == 32 and "Done: 2 rounds, seed 4" in e.status.value
    assert "explorer-computing" not in e._dom_classes


def test_status_lines_are_words_that_name_what_was_computed():
    e = _Squares(seed=3)
    texts = []
    e.status.observe(lambda c: texts.append(c["new"]), names="value")
    e.refresh()
    e.seed.value = 7
    e.seed.value = 13
    assert [t.split(">")[1].split(" ")[0] for t in texts] == ["Computing", "Done:", "Computing", "Could", "Could"]
    assert "charts appear when it is done" in texts[0]  # the first result: no charts yet
    assert "dimmed charts still show the previous result" in texts[2]
    assert not any(ch in "".join(texts) for ch in "\u2714\u23f3\u26a0\u2705\u274c")
    tiers = TierExplorer(rules=QUICK.replace(super_kings=True), players=TABLE)
    assert "Done: card tiers under super kings and play statistics from 180 simulated holes" in tiers.status.value


def test_chart_sends_its_whole_state_when_it_opens_and_nothing_after(monkeypatch):
    """A chart's page model gets every trace in the message that creates it: the page
    drops later messages to a model whose module loaded slowly (issue 8, defect 2)."""
    import comm
    import plotly.graph_objects as go

    sent = []

    class Recorder(comm.base_comm.BaseComm):
        def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
            sent.append((msg_type, data or {}))

    monkeypatch.setattr(comm, "create_comm", lambda **kw: Recorder(**kw))
    slot = ChartSlot(300, 200, title="t")
    slot.draw([go.Bar(x=["A"], y=[1], name="value")])
    first = slot.figure
    sent.clear()
    slot.draw([go.Bar(x=["A", "K"], y=[1, 0], name="value")], xaxis=dict(categoryorder="array"))
    chart_msgs = [(kind, data) for kind, data in sent if kind == "comm_open" and "_esm" in data.get("state", {})]
    assert len(chart_msgs) == 1
    state = chart_msgs[0][1]["state"]
    opened = [m for m in sent if m[0] == "comm_open"]
    assert [t["x"] for t in state["_widget_data"]] == [["A", "K"]]
    assert state["_widget_layout"]["title"]["text"] == "t" and state["_widget_layout"]["width"] == 300
    updates_to_chart = [d for kind, d in sent[sent.index(opened[-1]) + 1:] if kind == "comm_msg"
                        and d.get("method") == "update" and any(k.startswith("_") for k in d.get("state", {}))]
    assert updates_to_chart == [] and slot.children == (slot.figure,) and first.comm is None  # old one closed
    assert list(slot.data[0].x) == ["A", "K"]
    sent.clear()
    slot.draw([go.Bar(x=["A", "K"], y=[1, 0], name="value")], xaxis=dict(categoryorder="array"))
    assert sent == []  # the same chart again: nothing to send


def test_a_chart_slot_builds_no_chart_before_its_first_drawing(monkeypatch):
    """An app's page must not wait for an empty chart: plotly's import (about a second) and a
    model carrying plotly's 5 MB module, for a chart replaced when the first result comes."""
    import comm
    import plotly.graph_objects as go

    opened = []

    class Recorder(comm.base_comm.BaseComm):
        def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
            if msg_type == "comm_open" and "_esm" in (data or {}).get("state", {}):
                opened.append(data)

    monkeypatch.setattr(comm, "create_comm", lambda **kw: Recorder(**kw))
    slot = ChartSlot(300, 200, title="Value of each rank")
    assert opened == [] and slot.figure is None and slot.data == ()
    assert "Value of each rank" in slot.children[0].value  # the title holds the chart's place
    slot.draw([go.Bar(x=["A"], y=[1])])
    assert len(opened) == 1 and slot.children == (slot.figure,) and list(slot.data[0].x) == ["A"]


def test_an_app_shows_before_its_first_result_and_the_charts_follow(monkeypatch):
    """With ``background`` (the apps) the first result is computed on the worker thread:
    the page shows at once, its status line saying so (issue 12: first render)."""
    entered, gate = threading.Event(), threading.Event()
    compute = TierExplorer.compute

    def gated(self, key):
        entered.set()
        assert gate.wait(10), "the explorer waited for its first result before it could be shown"
        return compute(self, key)

    monkeypatch.setattr(TierExplorer, "compute", gated)
    e = TierExplorer(rules=QUICK, players=TABLE, seed=5, background=True)  # returns before computing
    try:
        assert entered.wait(30) and e.result is None and e.value_fig.figure is None
        assert "Computing" in e.status.value and "charts appear when it is done" in e.status.value
        assert "explorer-computing" in e._dom_classes
    finally:
        gate.set()
    assert e.idle.wait(60) and e.error is None and "Done: card tiers" in e.status.value
    assert "explorer-computing" not in e._dom_classes and len(e.value_fig.data) > 0


def test_players_control_offers_every_removed_personality_back():
    ctl = players_control(["Sofia", "Maya", "Priya", "Marcus"])
    missing = [v for _, v in ctl.add.options if v]
    assert "Sofia" not in missing and "Kenji" in missing
    ctl.value = ["Sofia", "Maya", "Priya"]
    assert "Marcus" in [v for _, v in ctl.add.options]
    ctl.add.value = "Marcus"  # picking it from the menu adds it back at the end
    assert ctl.value == ("Sofia", "Maya", "Priya", "Marcus") and ctl.add.value == ""
    assert "Expert" in missing  # the coach's Expert can be seated too
    everyone = players_control(list(__import__("golflab.ai", fromlist=["CPU_NAMES"]).CPU_NAMES))
    assert everyone.add.disabled and everyone.add.options[0][0] == "All personalities chosen"


def test_explorer_refuses_bad_sample_sizes_and_seeds():
    with pytest.raises(ValueError, match="samples must be one of 1, 2"):
        _Squares(samples=5)
    with pytest.raises(ValueError, match="seed must be a whole number"):
        _Squares(seed=-1)


# ----------------------------------------------------------------------------- tiers
def test_tier_explorer_moves_kings_and_agrees_with_the_engine():
    e = TierExplorer(rules=QUICK, players=TABLE)
    values = dict(zip(e.result["tiers"]["rank"], e.result["tiers"]["value"]))
    assert values["K"] == 0 and "king" in _bar(e.value_fig, "Good").x  # the charts name the cards
    e.rules.controls["super_kings"].value = True
    assert "king" in _bar(e.value_fig, "Excellent").x and "king" not in list(_bar(e.value_fig, "Good").x)
    k = list(_bar(e.value_fig, "Excellent").x).index("king")
    assert _bar(e.value_fig, "Excellent").y[k] == -2
    assert e.result["tiers"].equals(tier_table(QUICK.replace(super_kings=True)))
    expected = rank_stats(TABLE, 180, QUICK.replace(super_kings=True), 0)
    assert list(_bar(e.play_fig, "kept to the end").y) == pytest.approx(list(expected["kept_to_end"]), nan_ok=True)
    assert "king: Good \u2192 Excellent" in e.table.value
    assert e.downloads.value.count('class="explorer-csv"') == 2


def test_the_tier_summary_describes_the_holes_the_charts_show():
    """"What the numbers say" is written from the result on show: the computation it names is the
    status line's, and its figures are the charts' (the notebook quoted a 900-hole sample while the
    page opened with 180 holes)."""
    e = TierExplorer(players=TABLE)
    for seed in (0, 3):
        e.seed.value = seed
        what = e.describe(e.inputs())
        assert f"From {html.escape(what)}:" in e.findings.value and what in e.status.value
        points = dict(zip(_bar(e.points_fig, "mean points").x, _bar(e.points_fig, "mean points").y))
        assert f"A 2 is worth {points['2']:.2f} points on average at the end" in e.findings.value
        kept = dict(zip(_bar(e.play_fig, "kept to the end").x, _bar(e.play_fig, "kept to the end").y))
        low, high = (f"{100 * f(kept[r] for r in ('ace', '2', 'king')):.0f}" for f in (min, max))
        assert f"ace, 2 and king (Excellent to Decent) are kept to the end {low}-{high}%" in e.findings.value
        assert "explorer-result" in e.findings._dom_classes  # dimmed with the charts while computing


def test_the_tiers_notebook_quotes_no_figures_of_its_own():
    """The notebook's text may not describe another sample than the one the page shows."""
    cells = json.loads((Path(__file__).resolve().parents[2] / "notebooks" / "tiers.ipynb").read_text())["cells"]
    text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert "What the numbers say" in text
    assert not re.search(r"\d+(\.\d+)?%|\b\d+ holes\b|-?\d+\.\d\d points", text)


# --------------------------------------------------------------------------- pairing
def test_pairing_calculator_follows_the_drawn_card_and_marks_the_best_move():
    e = PairingExplorer(rules=QUICK, players=TABLE)
    e.drawn.value = "9"  # the grid has a 9 face up at bottom middle: a pair at top middle
    obs = calculator_observation(e.grid, "9", QUICK, 4)
    evs = placement_evs(obs, obs.drawn)
    trace = e.ev_fig.data[0]
    assert list(trace.y) == pytest.approx(list(evs.values()))
    assert "top middle (pair)" in trace.x  # placements as the board names them
    best = min(evs, key=evs.get)
    assert best == "swap 1" and "Best move: put the 9 at top middle" in e.chances.value
    assert e.cache.misses == 2
    e.slots[4].value = "?"  # no 9 left to pair with: the pairing move disappears
    assert not any("(pair)" in x for x in e.ev_fig.data[0].x)
    assert e.study_cache.misses == 1  # the simulated study is not recomputed for a calculator change
    e.drawn.value = "JK"  # no jokers in play: a clear error, the chart stays
    assert "no jokers" in e.status.value and not any("(pair)" in x for x in e.ev_fig.data[0].x)


def test_pairing_study_chart_is_the_strategy_table():
    e = PairingExplorer(rules=QUICK, players=TABLE)
    by_phase = e.result["pairing_by_phase"]
    late = by_phase[by_phase["phase"] == "late"]
    assert list(_bar(e.gain_fig, "late").y) == pytest.approx(list(late["gain"]))
    assert list(e.check_fig.data[1].x) == pytest.approx(list(by_phase["pair_ev"]))


# ----------------------------------------------------------------------------- turns
def test_turn_explorer_compares_initial_flips_like_simulate():
    e = TurnCountExplorer(rules=QUICK, players=TABLE[:3])
    assert [t.name for t in e.hist_fig.data] == ["never", "always", "endgame"]
    e.compare.value = "initial_flips"
    assert [t.name for t in e.cdf_fig.data] == ["0", "1", "2"]
    direct = simulate(TABLE[:3], 60, rules=QUICK.replace(initial_flips=1), seed=0, progress=False,
                      analyze=False).rounds
    dist = turn_distribution(direct)
    one = _bar(e.cdf_fig, "1")
    assert list(one.x) == list(dist["turns"]) and list(one.y) == pytest.approx(list(dist["cdf"]))
    assert "fewer than 4" in e.summary.value


# --------------------------------------------------------------------- personalities
def test_personality_explorer_ranks_the_round_robin():
    one_hole = Rules(rounds=1)
    e = PersonalityExplorer(rules=one_hole)
    expected = personality_table(*round_robin(None, 1, one_hole, 0))
    assert list(e.score_fig.data[0].y) == list(expected["personality"])
    assert list(e.score_fig.data[0].x) == pytest.approx(list(expected["mean_score"]))
    assert len(e.quality_fig.data) == 5
    e.rules.controls["flip_mode"].value = "always"
    again = personality_table(*round_robin(None, 1, one_hole.replace(flip_mode="always"), 0))
    assert list(e.score_fig.data[0].x) == pytest.approx(list(again["mean_score"]))
    assert list(e.score_fig.data[0].x) != pytest.approx(list(expected["mean_score"]))
    e.players.value = ["Sofia", "Maya", "Priya", "Kenji", "Sage"]  # 5 tables of 4
    five = personality_table(*round_robin(e.players.value, 1, one_hole.replace(flip_mode="always"), 0))
    assert sorted(e.score_fig.data[0].y) == sorted(e.players.value)
    assert list(e.score_fig.data[0].x) == pytest.approx(list(five["mean_score"]))
    assert "5 tables" in e.status.value
    e.players.value = ["Sofia", "Maya", "Priya"]
    assert "at least 4 personalities" in e.status.value and len(e.score_fig.data[0].y) == 5


# ----------------------------------------------------------------------- house rules
def test_house_rules_lab_compares_two_rule_sets_like_simulate():
    e = HouseRulesLab(rules_a=QUICK, rules_b=QUICK, players=TABLE)
    a, b = ((list(t.x), list(t.y)) for t in e.score_fig.data)
    assert a == b  # the same rules and seed: the same games
    e.rules_b.controls["super_kings"].value = True
    direct = simulate(TABLE, 90, rules=QUICK.replace(super_kings=True), seed=0, progress=False, analyze=False)
    shares = (direct.rounds["score"] // 2 * 2).value_counts(normalize=True).sort_index()
    bars = e.score_fig.data[1]
    assert [x - 0.5 for x in bars.x] == list(shares.index) and list(bars.y) == pytest.approx(list(shares))
    assert (list(e.score_fig.data[0].x), list(e.score_fig.data[0].y)) == a
    per = e.result["personalities"]
    assert (per.loc[per["rules"] == "A", "delta_edge"] == 0).all()
    assert len(e.gain_fig.data[0].y) == 4


# ------------------------------------------------------------ options from the declaration
#: What each explorer studies, as parts of the game (``golflab.rules.AFFECTS``). This is the
#: test's own statement; the options are read from the declaration, so a new option that
#: affects a study must show in that explorer without editing this test.
HOLE = ("deal", "turn", "card_values", "pairs", "hand_bonus", "round")
STUDIED = {
    TierExplorer: ("card_values",),
    PairingExplorer: ("card_values", "pairs", "hand_bonus"),
    TurnCountExplorer: ("deal", "turn"),
    PersonalityExplorer: HOLE,
    HouseRulesLab: HOLE,
}


def _other_value(opt):
    """A value of ``opt`` that is not its default."""
    if opt.kind is bool:
        return not opt.default
    if opt.kind is str:
        return next(c for c in opt.choices if c != opt.default)
    lo, hi = opt.bounds
    return hi if opt.default != hi else lo


@pytest.mark.parametrize("cls", list(STUDIED), ids=lambda c: c.__name__)
def test_each_explorer_has_a_control_for_every_declared_option_affecting_its_study(cls):
    e = cls(auto=False)
    if isinstance(e, TurnCountExplorer):
        e.compare.value = "players"  # the compared rule's own control is ignored
    forms = [e.rules_a, e.rules_b] if isinstance(e, HouseRulesLab) else [e.rules]
    affecting = [o for o in OPTIONS if set(o.affects) & set(STUDIED[cls])]
    assert affecting
    for form in forms:
        assert [o.name for o in affecting if o.name not in form.controls] == [], "options missing from the form"
        for opt in affecting:  # each control reaches the explorer's inputs
            before = e.inputs()
            form.controls[opt.name].value = _other_value(opt)
            assert getattr(form.rules, opt.name) == _other_value(opt), opt.name
            assert e.inputs() != before, opt.name
            form.set_rules(Rules())


# ---------------------------------------------------------------- computed ahead
@pytest.mark.parametrize("cls", precomputed.explorer_classes(), ids=lambda c: c.__name__)
def test_the_shipped_default_results_are_what_the_explorers_compute(cls):
    """Each app's first result is shipped (``precomputed.json``) only because this test
    recomputes it with the explorer's own code and finds it identical (issue 12)."""
    explorer = cls(auto=False)
    key = explorer.inputs()
    computed = explorer.compute(key)
    shipped = precomputed.shipped().get(cls.__name__)
    regenerate = "regenerate it: .venv/bin/python -m golflab_widgets.explorers.precomputed"
    assert shipped is not None, f"precomputed.json has no {cls.__name__}: {regenerate}"
    assert shipped["inputs"] == repr(key), f"the default inputs changed: {regenerate}"
    assert shipped["result"] == json.loads(json.dumps(precomputed.encode(computed))), f"results differ: {regenerate}"
    loaded = precomputed.lookup(explorer, key)
    assert loaded.keys() == computed.keys()
    for name, frame in computed.items():
        pd.testing.assert_frame_equal(loaded[name], frame, check_exact=True)
        assert loaded[name].attrs == frame.attrs


def test_the_shipped_file_is_exactly_what_the_generator_writes(monkeypatch):
    """The file's text (not only its data) is the generator's, so regenerating it is a no-op."""
    monkeypatch.setattr(precomputed, "entry", lambda cls: precomputed.shipped()[cls.__name__])
    assert precomputed.generate() == precomputed.PATH.read_text(encoding="utf-8")


def test_an_app_shows_its_default_result_without_computing_and_computes_any_other(monkeypatch):
    calls = []
    compute = TierExplorer.compute
    monkeypatch.setattr(TierExplorer, "compute", lambda self, key: calls.append(key) or compute(self, key))
    e = TierExplorer()
    assert calls == [] and "computed ahead" in e.status.value and len(e.value_fig.data) > 0
    e.seed.value = 1
    assert len(calls) == 1 and "computed in" in e.status.value
    e.seed.value = 0
    assert len(calls) == 1 and "from the cache" in e.status.value

    class Mine(TierExplorer):  # a subclass may compute differently: it gets no shipped result
        pass

    assert precomputed.lookup(Mine(auto=False), e.inputs()) is None
    assert not precomputed.available(Mine(auto=False), e.inputs())
    assert precomputed.lookup(e, e.inputs()) is not None and precomputed.available(e, e.inputs())
    assert not precomputed.available(e, (Rules(), tuple(TABLE), 180, 1))


def test_an_app_with_its_shipped_result_draws_it_before_its_cell_ends():
    """The first result is shipped, so it is drawn at once, on the kernel's own thread: no update is
    left in flight when the page connects (one sent as it connects is lost, and the page said
    "Drawing the charts..." for good, seen on a server that rendered the page after its notebook)."""
    threads = threading.active_count()
    e = TierExplorer(background=True)
    assert "Done:" in e.status.value and "computed ahead" in e.status.value and e.result is not None
    assert "explorer-computing" not in e._dom_classes and e.idle.is_set()
    assert threading.active_count() == threads  # no worker thread was started


def test_a_kernel_started_ahead_of_its_page_draws_the_first_result_at_once(monkeypatch):
    """In a kernel Voila preheats (``VOILA_PREHEAT``, the page's request not come yet) the first
    result is drawn before the notebook ends: no update is left in flight when the page
    connects (one sent as it connects is lost, and the page would say "Drawing..." for good)."""
    from golflab_widgets.account import session as classroom_session

    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(classroom_session, "request_seen", False)
    threads = threading.active_count()
    e = TierExplorer(background=True)
    assert "Done:" in e.status.value and "explorer-computing" not in e._dom_classes and e.result is not None
    assert e.idle.is_set() and threading.active_count() == threads  # no worker thread was started
    monkeypatch.setattr(classroom_session, "request_seen", True)  # the page has come: changes run behind it
    e.seed.value = 3
    assert e.idle.wait(60) and "Done:" in e.status.value and "seed 3" in e.status.value


def test_the_first_chart_does_not_build_the_iri_grammars():
    """Drawing the first chart imports plotly (and through it jsonschema) without importing
    rfc3987_syntax, which builds 38 grammars at import (about a second before any chart)."""
    import subprocess
    import sys

    code = ("import sys\nfrom golflab_widgets.explorers.charts import ChartSlot\nChartSlot(title='t').draw([])\n"
            "import jsonschema\nassert 'plotly' in sys.modules and 'jsonschema' in sys.modules\n"
            "print(sys.modules.get('rfc3987_syntax') is None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
