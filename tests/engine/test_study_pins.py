"""The studies behind the explorers give exactly what they gave before they were made faster
(issue 22.3): digests of small fixed samples, computed with the code of commit 00419c9."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from golflab import Rules
from golflab.codepiece.selfplay import bid_records
from golflab.strategy import pairing_study, personality_table, rank_stats, round_robin, round_robin_grades

TABLE = ("Sofia", "Maya", "Priya", "Marcus")
RULES = {"standard": {}, "wild": {"one_eyed_jacks": True, "jokers": "standard", "flip_mode": "always"}}
#: per rule set: pairing_study's situations and partners (digest, rows), rank_stats
PINNED = {
    "standard": (("05bdb56e5223e63b", 955), ("825abcd8a2b97935", 7937), "db82cbc34d560d42"),
    "wild": (("e6459be3579db157", 799), ("65db216694be8a8e", 5924), "639a588ba293209d"),
}


def digest(frame) -> str:
    """Every value to the last bit, the column types and the frame's attrs."""
    text = (frame.to_csv(index=False, float_format="%.17g") + repr(sorted(frame.attrs.items()))
            + str(list(frame.dtypes)))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", RULES)
def test_pairing_study_and_rank_stats_are_pinned(name):
    rules = Rules(**RULES[name])
    situations, partners = pairing_study(TABLE, 180, rules, 4)
    (s_digest, s_rows), (p_digest, p_rows), stats = PINNED[name]
    assert (len(situations), len(partners)) == (s_rows, p_rows)
    assert digest(situations) == s_digest
    assert digest(partners) == p_digest
    assert digest(rank_stats(TABLE, 180, rules, 4)) == stats


def test_personality_table_is_pinned():
    rounds, decisions = round_robin((*TABLE, "Kenji"), 2, Rules(), 1)
    assert digest(personality_table(rounds, decisions)) == "0c145c7902131094"


def test_bid_records_are_pinned():
    rows = bid_records(60, 3)
    assert hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()[:16] == "b66c1451850892bb"


def test_a_round_robin_in_a_fresh_process_is_played_by_the_compiled_kernel():
    """Each table's run alone is too small to load the kernel; the whole round robin is not, so a
    fresh kernel's first refresh of the personalities explorer does not play every table in Python."""
    from golflab import kernel

    if not kernel.enabled():
        pytest.skip(f"the compiled kernel is off here: {kernel.off_reason()}")
    code = ("import sys; from golflab import Rules; from golflab.strategy import round_robin; "
            "round_robin(None, 1, Rules(), 0); print('golflab.kernel.engine' in sys.modules)")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True", out.stderr


@pytest.mark.parametrize("options", [{}, {"knock_penalty": True, "jokers": "standard"}])
def test_the_round_robin_counted_ranks_as_the_round_robin_with_every_decision(options):
    """``round_robin_grades`` (decisions counted, not kept) gives the same rounds and the same
    personality table, to the last bit, as ``round_robin`` with its decisions frame."""
    rules = Rules(**options)
    rounds, decisions = round_robin(None, 2, rules, seed=3)
    counted_rounds, grades = round_robin_grades(None, 2, rules, seed=3)
    assert counted_rounds.equals(rounds)
    assert int(grades.to_numpy().sum()) == len(decisions)
    assert personality_table(counted_rounds, grades=grades).equals(personality_table(rounds, decisions))
