"""The Codepiece bids explorer: made-rates by bid and by hand strength with intervals,
from CPU self-play; the same inputs give the same tables; bad settings say what is allowed."""

import pytest
from golflab_widgets.explorers.codepiece_bids import CodepieceBidExplorer, bin_label, strength_bin


def test_the_explorer_charts_made_rates_with_intervals():
    ex = CodepieceBidExplorer(seed=3)
    assert ex.error is None and ex.result is not None
    by_bid, by_strength, deals = ex.result["made_by_bid"], ex.result["made_by_strength"], ex.result["deals"]
    assert len(deals) == 400 and by_bid["deals"].sum() == 400 and by_strength["deals"].sum() == 400
    assert set(by_bid["bid"]) <= set(range(7, 14)) and 7 in set(by_bid["bid"])
    for frame in (by_bid, by_strength):
        assert ((frame["low"] <= frame["rate"]) & (frame["rate"] <= frame["high"])).all()
        assert (frame["made"] == (frame["rate"] * frame["deals"]).round()).all()
    assert list(by_strength["strength"]) == sorted(by_strength["strength"], key=lambda s: int(s.split("-")[0]
                                                                                          .rstrip("+")))
    assert [len(f.data) for f in (ex.bid_fig, ex.strength_fig)] == [1, 1]
    assert list(ex.bid_fig.data[0].y) == list(by_bid["rate"])


def test_the_strength_measure_and_the_cache():
    ex = CodepieceBidExplorer(seed=3)
    first = ex.result["made_by_bid"]
    ex.measure.value = "estimate"
    labels = list(ex.result["made_by_strength"]["strength"])
    assert ex.error is None and all(s.isdigit() or s == "9+" for s in labels) and len(labels) >= 5
    assert ex.result["made_by_bid"].equals(first)  # the deals do not depend on how strength is measured
    hits = ex.cache.hits
    ex.measure.value = "hcp"
    assert ex.cache.hits == hits + 1


def test_bins_and_bad_settings():
    assert [strength_bin(v, 4, 20) for v in (0, 3, 4, 19, 20, 31)] == [0, 0, 4, 16, 20, 20]
    assert strength_bin(6.7, 1, 9) == 6 and bin_label(6, 1, 9) == "6" and bin_label(9, 1, 9) == "9+"
    assert bin_label(8, 4, 20) == "8-11" and bin_label(20, 4, 20) == "20+"
    with pytest.raises(ValueError, match="measure must be one of hcp, estimate"):
        CodepieceBidExplorer(measure="points", auto=False)
    with pytest.raises(ValueError, match="samples must be one of 400, 2000, 10000"):
        CodepieceBidExplorer(samples=50, auto=False)
