"""Plain words (golflab.words) and a scan of the learner-facing text the widgets produce over
many simulated positions: no notation, no position numbers, no single-letter ranks, right
a/an, sentences of at most 25 words."""

from __future__ import annotations

from collections import Counter

import pytest
from golflab_widgets.coach.panel import hint_html
from golflab_widgets.table import view as table_view
from golflab_widgets.table import words as status

from golflab import Card, Game, Phase, Rules, round_breakdown, words
from golflab.ai import CPUPlayer
from golflab.analysis import CASE_SEVERITY
from golflab.coach import Option
from golflab.ev import action_values
from tests.support.plain_words import problems, seen, widget_texts


# ------------------------------------------------------------------ the pieces
def test_positions_are_named_as_the_board_names_them():
    assert [words.position(i) for i in range(6)] == ["top left", "top middle", "top right", "bottom left",
                                                      "bottom middle", "bottom right"]
    assert [words.column(i) for i in (0, 4, 5)] == ["left column", "middle column", "right column"]
    for bad in (-1, 6, "2", True, 1.0):
        with pytest.raises(ValueError, match="a grid position is a whole number from 0 to 5"):
            words.position(bad)


def test_cards_have_names_never_letters():
    assert [words.card_name(Card(r, "H")) for r in "ATJQK"] == ["ace", "ten", "jack", "queen", "king"]
    assert words.card_name(Card("7", "C")) == "7" and words.card_name(Card("JK")) == "joker"
    assert words.card_name(Card("Q", "H"), suit=True) == "queen of hearts"


@pytest.mark.parametrize(("phrase", "said"), [
    ("8-point card", "an 8-point card"), ("ace", "an ace"), ("7", "a 7"), ("11-point column", "an 11-point column"),
    ("18", "an 18"), ("10-point card", "a 10-point card"), ("unknown card", "an unknown card"),
    ("one", "a one"), ("queen", "a queen"), ("80", "an 80"), ("-2", "a -2")])
def test_articles(phrase, said):
    assert words.with_article(phrase) == said


def test_the_end_of_a_hole_agrees_with_its_subject():
    assert words.hole_over(["You", "Ann"], [0], 1) == "Hole 1 is over: You win it."
    assert words.hole_over(["You", "Ann"], [1], 2) == "Hole 2 is over: Ann wins it."
    assert words.hole_over(["You", "Ann"], [0, 1], 3) == "Hole 3 is over: You and Ann win it."
    assert words.subject_verb("You", "hold") == "You hold" and words.subject_verb("Ann", "hold") == "Ann holds"
    result = round_breakdown([["KH", "5S", "3D", "KC", "AH", "3C"], ["9H", "7S", "8D", "7C", "7H", "8C"]], Rules())
    assert "Hole 1 is over: You win it." in seen(table_view.hole_summary_html(["You", "Ann"], result, 1))


def test_points_lost_are_compared_with_the_best_move():
    assert words.loss_words(3.24) == "3.2 points lost compared with the best move"
    assert words.points(1) == "1 point" and words.points(-2) == "-2 points" and words.points(2.5) == "2.5 points"


def position_with(want, seed: int = 0, limit: int = 400):
    """An observation of seat 0 (from CPU play) for which ``want(obs)`` holds."""
    g = Game(["You", "Sofia"], Rules(rounds=1), seed=seed)
    for _ in range(limit):
        if g.phase is not Phase.PLAYING:
            if g.phase is Phase.INITIAL_FLIP:
                g.apply(g.legal_actions()[0])
                continue
            break
        obs = g.observation(g.current_player)
        if g.current_player == 0 and want(obs):
            return obs
        g.apply(CPUPlayer("Sofia", seed=len(g.history)).choose(obs))
    pytest.fail("no such position")


def test_a_grade_names_the_rule_broken_with_one_better_sentence():
    obs = position_with(lambda o: o.awaiting == "place" and o.drawn is not None)
    worst = max((str(a) for a in obs.legal_actions), key=lambda a: action_values(obs).values[a])
    best = action_values(obs).best_action
    for case, severity in CASE_SEVERITY.items():
        text = words.grade_text(obs, worst, best, severity, 6.0, case)
        assert text.startswith(f"{severity}: 6.0 points lost compared with the best move.")
        assert text.count("Better:") == 1 and not problems(text), (text, problems(text))
        if case in words.RULES:
            assert words.RULES[case] in text
    assert words.grade_text(obs, best, best, "OPTIMAL", 0.0).startswith("OPTIMAL: the best move.")
    assert "Better" not in words.grade_text(obs, best, best, "OPTIMAL", 0.0)


# ------------------------------------------------------------------ the scan
def learner_texts(games: int = 12) -> list[str]:
    """What a learner reads over ``games`` simulated games: the status line, the move narration,
    the end of each hole, a hint's plain part and a grade for every option of every decision."""
    texts: list[str] = []
    for seed in range(games):
        rules = Rules(rounds=2, jokers="standard" if seed % 3 == 0 else "none",
                      flip_mode=("never", "always", "endgame")[seed % 3])
        g = Game(["You", "Sofia", "Maya"], rules, seed=seed)
        for _ in range(2000):
            if g.phase is Phase.GAME_OVER:
                texts.append(status.situation(g, 0))
                break
            if g.phase is Phase.ROUND_OVER:
                texts.append(status.situation(g, 0))
                res = g.round_results[-1]
                texts.append(seen(table_view.hole_summary_html(g.players, res, g.round)))
                g.next_round()
                continue
            seat = g.current_player
            obs = g.observation(seat)
            if seat == 0:
                texts.append(status.prompt(obs))
                if len(obs.legal_actions) > 1 and obs.awaiting != "initial_flip":
                    values = action_values(obs).values
                    ranked = sorted(values, key=values.get)
                    opts = [Option(action=a, value=values[a], se=0.2, samples=16, reason="x") for a in ranked]
                    texts.append(seen(hint_html(opts, obs)))
                    for a in ranked:
                        texts.append(words.grade_text(obs, a, ranked[0], "MISTAKE", values[a] - values[ranked[0]]))
            action = CPUPlayer("Marcus", seed=len(g.history)).choose(obs)
            before = g.observation(0)
            g.apply(action)
            texts.append(status.move_words(g.players[seat], action, before, g.observation(0), seat))
    return texts


def test_learner_facing_text_is_plain_words():
    texts = learner_texts()
    assert len(texts) > 1000
    bad = [(t, problems(t)) for t in texts if problems(t)]
    assert not bad, bad[:5]
    lengths = Counter(len(s.split()) for t in texts for s in words.sentences(t))
    assert max(lengths) <= words.MAX_WORDS
    print("sentence lengths (words: count):", dict(sorted(lengths.items())))


def test_the_scan_finds_what_it_looks_for():
    for text in ("Better: swap 3.", "draw from the deck (draw)", "the card at position 4", "a 10-point T",
                 "a 8-point card", "Q\u2665 is high", "word " * 26 + "."):
        assert problems(text), text
    assert not problems("Put the queen at top left, over your 8: it saves 2 points now.")


def test_the_codepiece_walkthrough_is_told_in_words_not_engine_output():
    from golflab_widgets.codepiece.words import Walkthrough

    walk = Walkthrough()
    said = [walk.deal(), walk.bidding(), walk.follow(), walk.finish()]
    for text in said:
        assert not problems(text), (text, problems(text))
        assert "bid_" not in text and "trump_" not in text and "payoff" not in text
    assert "Player 1 may pass, bid 8" in said[1] and "the 9 of hearts" in said[2] and "Scores: Player 1" in said[3]


# ------------------------------------------------------------------ the table and the room boards
def table_states(table, stops=("place", "next-round", "new-game")):
    """The table's text at each of ``stops`` (mid-turn, hole over, game over), a simple learner playing."""
    from tests.widgets.test_table_widget import play_to

    for stop in stops:
        play_to(table, stop)
        yield stop, widget_texts(table)


def test_the_table_heading_and_move_log_are_words_with_notation_behind_details():
    from golflab_widgets.table.golf_table import GolfTable

    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=2), seed=11, cpu_delay=0)
    for stop, texts in table_states(t):
        assert not [(x, problems(x)) for x in texts if problems(x)], stop
    assert "You \u00b7 total" in seen(t.board.mine_label.value) and "seat" not in t.board.mine_label.value
    log = seen(t.log_box.value)
    assert "Hole 1: Sofia " in log and "Hole 2 dealt: " in log and "H1 " not in log and "seed" not in log
    details = t.log_box.value.split('<details class="golf-details">')[1].split("</details>")[0]
    assert "H1 Sofia: draw" in details or "H1 Sofia: take" in details  # notation stays, behind Details
    assert "seed 11" in details


def test_a_hot_seat_table_names_the_person_at_the_board():
    from golflab_widgets.table.golf_table import GolfTable

    t = GolfTable(players=["Ann", "Ben", "Sofia"], humans=["Ann", "Ben"], rules=Rules(rounds=1), seed=3,
                  cpu_delay=0)
    t.board.ready_button.click()
    label = seen(t.board.mine_label.value)
    assert label.startswith(f"{t.game.players[t.human_seat]} \u00b7 total") and "seat" not in label
    assert not [(x, problems(x)) for x in widget_texts(t) if problems(x)]


def test_the_room_boards_say_words_not_notation(tmp_path):
    from golflab_widgets.rooms.board import GolfRoomBoard, RoomWatch

    from golflab.classroom import Store

    store = Store(f"sqlite:///{tmp_path / 'class.db'}")
    lee = store.create_user("mrs_lee", "a long password 1", role="teacher")
    invite = store.create_invite(store.create_class("Falcons", lee), by=lee)
    ann, bob = (store.register(n, "a long password 1", invite) for n in ("ann", "bob"))
    room = store.create_room(ann, Rules(rounds=1), seats=3, cpus=["Maya"], seed=5)
    store.join_room(room.code, bob)
    room.start(by=ann)
    pages = [GolfRoomBoard(store.room(room.code), s, u, follow=False) for s, u in ((0, ann), (1, bob))]
    watch = RoomWatch(store.room(room.code), follow=False)
    checked = False
    for _ in range(400):  # each page plays its own seat: draw, then swap into a face-down card (else discard)
        for page in pages:
            page.follower.step()
            page.redraw()
        game = pages[0].room.game()
        if game.phase is Phase.ROUND_OVER or game.phase is Phase.GAME_OVER:
            break
        page = pages[game.current_player] if game.current_player < 2 else None
        if page is None:
            continue
        legal = [str(a) for a in game.legal_actions()]
        move = next(a for a in ("draw", *legal) if a in legal)
        page.act(move, "", None)
        watch.follower.step()
        watch.redraw()
        if len(game.history) == 9:  # mid-hole: someone holds a card
            checked = True
            for widget in (*pages, watch):
                assert not [(x, problems(x)) for x in widget_texts(widget) if problems(x)]
    assert checked
    for page in pages:
        page.follower.step()
        page.redraw()
        assert seen(page.board.mine_label.value).startswith(f"{page.room.players[page.seat]} \u00b7 total")
        assert "seed" not in page.log_box.value  # a room's page never learns its seed, even behind Details
    watch.follower.step()
    watch.redraw()
    for widget in (*pages, watch):
        assert not [(x, problems(x)) for x in widget_texts(widget) if problems(x)]
    assert "Hole 1: " in seen(watch.log_box.value) and "H1 " in watch.log_box.value  # notation behind Details
    store.close()
