"""What a learner reads in the explorers and the replay is plain words: each explorer is
rendered (its default inputs, computed ahead, and a variant with house rules that move
cards between tiers) and every text it shows (status line, instructions, "What the numbers
say", tables, chart titles, labels and legends, control labels) is scanned with the checker
tests/widgets/test_words.py uses (tests/support/plain_words.py); so is the replay at every step, from every
view, with grades."""

from __future__ import annotations

from collections import Counter

import pytest
from golflab_widgets.coach.replay import TEACHER, ReplayViewer
from golflab_widgets.explorers.codepiece_bids import CodepieceBidExplorer
from golflab_widgets.explorers.pairing import PairingExplorer
from golflab_widgets.explorers.precomputed import explorer_classes
from golflab_widgets.explorers.tiers import TierExplorer
from golflab_widgets.explorers.turns import TurnCountExplorer

from golflab import Game, Phase, Rules, words
from golflab.ai import CPUPlayer
from golflab.coach import review
from tests.support.plain_words import widget_problems, widget_texts

HOUSE = Rules(jokers="standard", super_kings=True, ten_penny=True, one_eyed_jacks=True)


def assert_plain(widget) -> list[str]:
    """Every text ``widget`` shows, after checking that each is plain words."""
    bad = widget_problems(widget)
    assert not bad, bad[:5]
    return widget_texts(widget)


@pytest.mark.parametrize("cls", explorer_classes(), ids=lambda c: c.__name__)
def test_each_explorer_at_its_default_inputs_speaks_plain_words(cls):
    e = cls()
    assert e.error is None and "Done:" in e.status.value
    texts = assert_plain(e)
    lengths = Counter(len(s.split()) for t in texts for s in words.sentences(t))
    assert max(lengths) <= words.MAX_WORDS


def test_the_tiers_with_house_rules_name_every_card():
    e = TierExplorer(rules=HOUSE, players=("Sofia", "Maya"))
    assert e.error is None
    texts = "\n".join(assert_plain(e))
    assert "one-eyed jacks" in texts and "joker" in texts and "ten" in texts  # names, never J (JH JS), JK, T
    assert "Moved by the house rules" in texts and "What the numbers say" in texts


def test_the_pairing_calculator_says_where_in_words():
    e = PairingExplorer(grid=("Q", "?", "5", "Q", "?", "?"), drawn="5", players=("Sofia", "Maya"))
    assert e.error is None
    texts = "\n".join(assert_plain(e))
    assert [s.description for s in e.slots] == list(words.POSITIONS)  # never [0] ... [5]
    assert "Best move: put the 5 at " in texts and "bottom right (pair)" in texts
    assert "left column" in texts and "queen of" in texts  # the pair chances name columns and cards


def test_the_other_explorers_variants_speak_plain_words():
    assert_plain(TurnCountExplorer(compare="players", players=("Sofia", "Maya", "Priya")))
    assert_plain(CodepieceBidExplorer(measure="estimate"))


def test_a_failed_computation_is_told_in_plain_words():
    e = TurnCountExplorer(players=("Sofia",))
    assert e.error and "choose 2 to 6 players" in e.status.value
    assert_plain(e)


# ------------------------------------------------------------------ the replay
def played(seed: int = 5) -> Game:
    g = Game(["You", "Maya", "Marcus"], Rules(rounds=1, jokers="standard"), seed=seed)
    while g.phase is not Phase.GAME_OVER:
        g.apply(CPUPlayer("Sofia" if g.current_player == 0 else g.players[g.current_player],
                          seed=len(g.history)).choose(g.observation(g.current_player)))
    return g


def test_the_replay_tells_every_step_in_plain_words_from_every_view_with_grades():
    game = played()
    graded = review(game, 0, samples=40)
    assert graded.grades
    viewer = ReplayViewer(game, review=graded)
    for view in (TEACHER, 0, 1):
        viewer.view.value = view
        for step in range(viewer.steps + 1):
            viewer.go(step)
            assert not widget_problems(viewer), (view, step, widget_problems(viewer)[:3])
    viewer.view.value = 0
    graded_steps = [g.step + 1 for g in graded.grades if g.step is not None]
    viewer.go(graded_steps[0])
    assert "golf-replay-grade" in viewer.moves.value  # a grade was among the texts scanned
