"""The coach at the table, driven from Python: the table's hooks, the toggle, hints, grade
badges after the learner's decisions, the review after a hole, and the replay it opens."""

from __future__ import annotations

import html
import math
import re

import pytest
from golflab_widgets import GolfTable
from golflab_widgets.coach.panel import Coach, hint_html, loss_per_turn
from golflab_widgets.coach.replay import ReplayViewer

from golflab import Game, Phase, Position, Rules, words
from golflab.coach import accuracy, grade, hint


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    for var in ("GOLFLAB_CPU_DELAY", "GOLFLAB_SEED"):
        monkeypatch.delenv(var, raising=False)


def table(seed: int = 5, rounds: int = 2) -> GolfTable:
    return GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=rounds), seed=seed, cpu_delay=0)


def text(widget) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", widget.value)).split())


def outside_details(widget) -> str:
    """What a learner reads before opening *Details*."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<details.*?</details>", "", widget.value,
                                                                  flags=re.DOTALL))).split())


def careless_move(t: GolfTable, n: int) -> None:
    """A careless learner: takes the discard whenever it can and swaps it in at position n % 6."""
    obs = t.game.observation(t.human_seat)
    a = t.awaiting
    if a in ("initial_flip", "flip"):
        t.slots[obs.face_down()[0]].click()
    elif a == "draw":
        (t.discard_button if obs.discard_top is not None else t.deck_button).click()
    elif a == "place":
        t.slots[n % 6].click()


def play_hole(t: GolfTable, coach: Coach | None = None, stop=lambda: False) -> None:
    for n in range(300):
        if t.game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) or stop():
            return
        careless_move(t, n)
    pytest.fail("the hole did not end")


# ------------------------------------------------------------------ the table's hooks
def test_table_without_a_coach_has_empty_slots_and_tells_every_move():
    t = table()
    assert t.coach_slot.children == () and t.review_slot.children == ()
    seen, starts = [], []
    t.on_move(lambda before, action, step: seen.append((before, action, step)))
    t.on_start(lambda: starts.append(t.game.seed))
    play_hole(t)
    assert [a for _, a, _ in seen] == t.game.history
    assert [s for _, _, s in seen] == list(range(len(t.game.history)))
    replayed = Game(list(t.game.players), t.game.rules, t.game.seed)
    for before, action, _ in seen:  # ``before`` is the mover's view just before the move
        assert before == replayed.observation(replayed.current_player)
        replayed.apply(action)
    t.new_game(seed=9)
    assert starts == [9]


# ------------------------------------------------------------------ the coach
def test_coach_attaches_to_the_table_and_the_toggle_hides_it():
    t = table()
    coach = Coach(t)
    assert coach.bar in t.coach_slot.children and coach.review_box in t.review_slot.children
    assert "golf-coach" in coach.toggle._dom_classes and coach.on
    for widget, hook in ((coach.hint_button, "golf-hint"), (coach.hint_text, "golf-hint-text"),
                         (coach.grade_badge, "golf-grade"), (coach.review_button, "golf-review")):
        assert hook in widget._dom_classes
        assert widget.layout.display is None
    coach.toggle.value = False
    assert all(w.layout.display == "none" for w in (coach.hint_button, coach.hint_text, coach.grade_badge))
    play_hole(t)
    assert coach.grades == {} and coach.grade_badge.value == ""  # off: nothing graded
    assert coach.review_box.layout.display == "none"


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="GolfTable"):
        Coach("table")
    with pytest.raises(ValueError, match="True or False"):
        Coach(table(), on="yes")


def test_hint_lists_every_option_best_first_and_marked():
    t = table()
    coach = Coach(t)
    coach.show_hint()
    assert "initial" not in coach.hint_text.value  # the initial flip is a decision too
    t.slots[0].click()
    t.slots[1].click()
    assert t.awaiting == "draw"
    coach.hint_button.click()
    options = hint(t.game.observation(0))
    shown, plain_text = text(coach.hint_text), outside_details(coach.hint_text)
    obs = t.game.observation(0)
    assert plain_text.startswith("\u2605 Best. " + words.describe(obs, options[0].action))
    assert plain_text.index(words.describe(obs, options[0].action)) < plain_text.index(
        words.describe(obs, options[1].action))
    assert "points lost compared with the best move" in plain_text and "\u00b1" not in plain_text
    for o in options:  # the notation, values and standard errors stay under Details
        assert not re.search(r"\b(swap|flip) \d|position \d", plain_text)
        assert f"{o.value:+.1f} \u00b1 {o.se:.1f}" in shown and o.reason in shown
    t.deck_button.click()
    assert coach.hint_text.value == ""  # a hint never outlives the position it was for


def test_a_move_equal_to_the_best_is_said_best_too():
    """The other face-down card under a face-down card is the same move (``Option.same_as``): best
    too, with one value, and said to be an equal place."""
    obs = Position.parse("KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D").observation()
    options = hint(obs)
    assert [(o.action, o.same_as) for o in options[:2]] == [("swap 2", ""), ("swap 5", "swap 2")]
    shown = hint_html(options, obs)
    assert shown.count('class="golf-best"') == 1 and shown.count('class="golf-best-too"') == 1
    plain_text = re.sub(r"<[^>]+>", "", shown.split("<details")[0])
    assert "\u2605 Best too. " + words.describe(obs, "swap 5") in plain_text
    assert plain_text.count("an equal place in your grid") == 1


def test_hint_when_there_is_no_decision_says_so():
    t = table()
    coach = Coach(t)
    play_hole(t)
    coach.hint_button.click()
    assert "when it is your move" in coach.hint_text.value


def test_each_decision_gets_a_grade_badge_and_a_blunder_is_named():
    t = table()
    coach = Coach(t)
    play_hole(t, coach, stop=lambda: any(g.grade == "BLUNDER" for g in coach.grades.values()))
    assert coach.grades, "the careless learner made no decision"
    step = max(coach.grades)
    g = coach.grades[step]
    assert g.grade == "BLUNDER"
    badge = text(coach.grade_badge)
    assert "BLUNDER" in badge and f"{g.ev_loss:.1f} points lost compared with the best move" in badge
    assert g.reason in badge  # the coach's own sentence, under Details
    said = outside_details(coach.grade_badge)
    assert said.count("Better:") == 1 and g.reason not in said
    assert words.rule_for(g.observation, g.action, g.best, g.case) in said
    replayed = Game.replay(list(t.game.players), t.game.rules, t.game.seed, t.game.history[:step])
    assert g == grade(replayed.observation(0), t.game.history[step], step=step)  # the coach's own verdict
    assert all(coach.table.game.history[s] == gr.action for s, gr in coach.grades.items())
    assert coach.errors == [] and t.errors == []


def test_review_after_the_hole():
    t = table()
    coach = Coach(t)
    assert coach.review_box.layout.display == "none"
    play_hole(t)
    assert t.game.phase is Phase.ROUND_OVER
    assert coach.review_box.layout.display is None  # opened by itself after the hole
    graded = coach.review
    losses = [g.ev_loss for g in graded.grades]
    assert len(graded.grades) == len(coach.grades) > 5
    shown = float(re.search(r"golf-accuracy'>([0-9.]+)<", coach.accuracy.value).group(1))
    assert shown == graded.accuracy == accuracy(losses)
    assert "Review after hole 1" in coach.accuracy.value
    for quality, n in graded.counts.items():
        assert f"{quality} {n}" in text(coach.summary)
    rows = coach.costly_box.children[1:]
    assert len(rows) == min(3, sum(x > 0 for x in losses))
    bars = coach.chart.figure.data[0]
    assert math.isclose(sum(bars.y), sum(losses))
    assert coach.chart.figure.layout.width == 720 and coach.chart.figure.layout.height == 280
    coach.review_button.click()
    assert coach.review_box.layout.display == "none"
    coach.review_button.click()
    assert coach.review_box.layout.display is None


def test_a_costly_decision_opens_the_board_as_it_was_with_the_better_move():
    t = table()
    coach = Coach(t)
    play_hole(t)
    worst = coach.review.costliest(1)[0]
    coach.costly_box.children[1].children[0].click()
    viewer = coach.replay_box.children[0]
    assert isinstance(viewer, ReplayViewer)
    assert viewer.step == worst.step and viewer.seat == 0
    assert viewer.state.history == t.game.history[:worst.step]
    assert f"Better: {words.move(worst.observation, worst.best)}." in viewer.text and worst.grade in viewer.text


def test_replay_this_game_and_a_new_game_starts_a_fresh_review():
    t = table()
    coach = Coach(t)
    play_hole(t)
    coach.replay_button.click()
    viewer = coach.replay_box.children[0]
    viewer.last_button.click()
    assert viewer.step == len(t.game.history) and viewer.state.to_json() == t.game.to_json()
    t.new_game(seed=3)
    assert coach.grades == {} and coach.replay_box.children == () and coach.grade_badge.value == ""
    assert coach.review_box.layout.display == "none"


def test_loss_per_turn_adds_each_turns_points():
    t = table()
    coach = Coach(t)
    play_hole(t)
    labels, points, worst = loss_per_turn(coach.review)
    assert labels[0] == "hole 1, flips" and labels[1] == "hole 1, turn 1"
    assert len(labels) == len(set(labels))
    by_turn = {}
    for g in coach.review.grades:
        key = f"hole {g.round}, " + ("flips" if g.turn == 0 else f"turn {g.turn}")
        by_turn[key] = by_turn.get(key, 0.0) + g.ev_loss
    assert dict(zip(labels, points)) == pytest.approx(by_turn)
    assert all(q in ("OPTIMAL", "GOOD", "QUESTIONABLE", "MISTAKE", "BLUNDER") for q in worst)


def test_the_game_end_review_is_titled_so():
    t = table(rounds=1)
    coach = Coach(t)
    play_hole(t)
    assert t.game.phase is Phase.GAME_OVER
    assert "Game review" in coach.accuracy.value and coach.review_box.layout.display is None


def test_on_the_kernels_loop_the_page_says_thinking_before_the_grade_and_the_review_comes_last():
    """In a Voila app the coach computes a moment later, so the page first shows "thinking…";
    the review after the hole waits for every grade asked for before it."""
    import asyncio

    async def play() -> list[str]:
        t = table(rounds=1)
        coach = Coach(t)
        shown = []
        t.slots[0].click()
        shown.append(coach.grade_badge.value)
        await asyncio.sleep(0.5)
        shown.append(coach.grade_badge.value)
        for n in range(300):
            if t.game.phase is Phase.GAME_OVER:
                break
            careless_move(t, n)
            await asyncio.sleep(0)
        for _ in range(300):  # a loaded machine: give the queued grades time
            if "Game review" in coach.accuracy.value:
                break
            await asyncio.sleep(0.1)
        assert coach.review.grades and len(coach.review.grades) == len(coach.grades)
        assert f">{coach.review.accuracy:g}<" in coach.accuracy.value
        shown.append(coach.accuracy.value)
        return shown

    first, graded, review_text = asyncio.run(play())
    assert "thinking" in first and "points lost" in graded and "Game review" in review_text
