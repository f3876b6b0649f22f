"""An explorer reuses what a change leaves as it was (issue 22.3: every refresh within a second)."""

from __future__ import annotations

import golflab_widgets.explorers.house_rules as house
from golflab_widgets import HouseRulesLab

from golflab import Rules

QUICK = Rules(rounds=3)


def test_the_house_rules_lab_simulates_again_only_the_rule_set_that_changed(monkeypatch):
    played = []
    simulate_holes = house.simulate_holes

    def counted(players, holes, rules, seed):
        played.append(rules)
        return simulate_holes(players, holes, rules, seed)

    monkeypatch.setattr(house, "simulate_holes", counted)
    lab = HouseRulesLab(rules_a=QUICK, rules_b=QUICK.replace(flip_mode="always"), players=["Sofia", "Maya"])
    assert played == [QUICK, QUICK.replace(flip_mode="always")]
    before = lab.result["scores"]
    lab.rules_b.controls["super_kings"].value = True
    assert played[2:] == [QUICK.replace(flip_mode="always", super_kings=True)]  # rules A's games are reused
    after = lab.result["scores"]
    assert after.loc[after["rules"] == "A", "score"].tolist() == before.loc[before["rules"] == "A", "score"].tolist()
    lab.rules_b.controls["super_kings"].value = False
    lab.rules_b.controls["flip_mode"].value = "never"
    assert len(played) == 3  # back to rules seen before, and B the same as A: nothing simulated
    scores = lab.result["scores"]
    assert scores.loc[scores["rules"] == "A", "score"].tolist() == scores.loc[scores["rules"] == "B", "score"].tolist()
