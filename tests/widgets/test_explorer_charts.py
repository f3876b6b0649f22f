"""Issue 22: under Voila the explorers' charts are drawn by plotly.js's basic bundle (shipped beside
``plotly_module``, the installed plotly's plotly.js version), loaded once per page; any other chart
keeps plotly's own module."""

from __future__ import annotations

import hashlib
import re

import plotly.graph_objects as go
import pytest
from golflab_widgets.explorers import plotly_module, precomputed
from golflab_widgets.explorers.charts import ChartSlot

#: The sha256 of ``static/plotly-basic.min.js`` as npm ships it (``static/README.md``).
LIGHT_SHA256 = "99784e3abfb07b142a15e521a439e6d9addceadb3f79553fd24c72774f0649ba"


@pytest.fixture
def voila(monkeypatch):
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")


def test_the_basic_bundle_is_npms_file_and_the_installed_plotlys_plotly_js():
    assert hashlib.sha256(plotly_module.LIGHT_PATH.read_bytes()).hexdigest() == LIGHT_SHA256
    assert plotly_module.LICENSE_PATH.read_text().startswith("MIT License")
    installed = plotly_module.plotlyjs_version(plotly_module.bundle_dir() / "plotly.min.js")
    assert installed is not None and plotly_module.light_bundle() == installed


def test_without_a_matching_basic_bundle_every_chart_uses_plotlys_module(monkeypatch, tmp_path, voila):
    old = tmp_path / plotly_module.LIGHT
    old.write_text("/**\n* plotly.js (basic - minified) v0.0.1\n*/\n")
    monkeypatch.setattr(plotly_module, "LIGHT_PATH", old)
    plotly_module.light_bundle.cache_clear()
    try:
        assert plotly_module.light_bundle() is None and not plotly_module.uses_light(["bar"])
        slot = ChartSlot(title="t")
        slot.draw([go.Bar(x=["A"], y=[1])])
        assert slot.figure._esm == plotly_module.stub(False)
        with pytest.raises(RuntimeError, match="basic bundle"):
            plotly_module.stub.__wrapped__(True)
    finally:
        plotly_module.light_bundle.cache_clear()


def test_bars_and_scatter_are_drawn_by_the_basic_bundle_and_a_heatmap_by_plotlys_module(voila):
    slot = ChartSlot(title="t")
    slot.draw([go.Bar(x=["A"], y=[1.5]), go.Scatter(x=["A"], y=[2.5], mode="markers")])
    light = slot.figure._esm
    assert light == plotly_module.stub(True) and f"/{plotly_module.LIGHT}?v=" in light
    assert plotly_module.BUNDLE not in light and "Plotly.newPlot" in light
    slot.draw([go.Heatmap(z=[[1, 2]])])
    assert slot.figure._esm == plotly_module.stub(False) and plotly_module.ROUTE in slot.figure._esm


def test_outside_voila_a_chart_keeps_plotlys_own_module(monkeypatch):
    monkeypatch.delenv("SERVER_SOFTWARE", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    slot = ChartSlot(title="t")
    slot.draw([go.Bar(x=["A"], y=[1])])
    assert "golflab/plotly" not in slot.figure._esm and len(slot.figure._esm) > 1_000_000


@pytest.mark.parametrize("cls", precomputed.explorer_classes(), ids=lambda c: c.__name__)
def test_every_explorer_chart_is_drawn_by_the_basic_bundle(cls, voila):
    """Every chart of every explorer (at its defaults: the shipped result) is of the basic bundle's
    traces (the house-rules lab drew a plotly histogram, which loaded plotly's whole module)."""
    explorer = cls()
    assert explorer.error is None and explorer.figures()
    for slot in explorer.figures():
        assert slot.data and {t.type for t in slot.data} <= plotly_module.LIGHT_TRACES, slot.base_layout["title"]
        assert slot.figure._esm == plotly_module.stub(True)


def test_the_route_serves_only_the_two_modules():
    routes = plotly_module.handlers("/base/")
    assert [(pattern, kwargs["path"]) for pattern, _cls, kwargs in routes] == [
        ("/base/golflab/plotly/(widgetbundle\\.js)", str(plotly_module.bundle_dir())),
        ("/base/golflab/plotly/(plotly\\-basic\\.min\\.js)", str(plotly_module.LIGHT_PATH.parent))]
    for pattern, *_ in routes:
        assert not re.fullmatch(pattern, "/base/golflab/plotly/plotly.min.js")
