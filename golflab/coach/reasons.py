"""One plain sentence per option: what the move does, with the points it changes now."""

from __future__ import annotations

from .. import words
from ..actions import Action
from ..ev import draw_ev, take_ev
from ..game import Observation, Phase
from ..model import PARTNER, scoring_model


def _name(card) -> str:
    return words.card_name(card)


def _column_points(model, a, b) -> float | None:
    if a is None or b is None:
        return None
    return model.column_points(model.kind(a), model.kind(b))


def describe(obs: Observation, action: str) -> str:
    """One plain sentence on what ``action`` does, with the points it changes now."""
    model = scoring_model(obs.rules)
    grid = obs.my_grid
    act = Action.parse(action)
    down = obs.face_down()

    def value(card):
        return model.value[model.kind(card)]

    if act.kind == "swap":
        held, pos = obs.drawn, act.pos
        old, partner = grid[pos], grid[PARTNER[pos]]
        pair = partner is not None and partner.rank == held.rank
        also = [f"pairs your {_name(partner)} in the {words.column(pos)}"] if pair else []
        if obs.phase is Phase.PLAYING and down == [pos]:
            also.append("takes you out")
        if old is None:
            return f"Swapping the {_name(held)} into the face-down card at {words.position(pos)} " + and_list(
                ["replaces an unknown card", *also])
        before = _column_points(model, old, partner)
        after = _column_points(model, held, partner)
        if before is None:
            before, after = value(old), value(held)
        saved = before - after
        points = f"{abs(saved)} point{'s' if abs(saved) != 1 else ''}"
        change = "changes no points now" if saved == 0 else f"{'saves' if saved > 0 else 'costs'} {points} now"
        return f"Swapping the {_name(held)} in at {words.position(pos)} " + and_list(
            [f"replaces your {_name(old)}", *also, change])
    if act.kind == "discard":
        return f"Discarding the {_name(obs.drawn)} keeps your cards as they are"
    if act.kind == "draw":
        gain = -draw_ev(obs)
        return (f"Drawing from the pile gives an unknown card you may swap in or discard "
                f"(its best use saves {gain:.1f} points on average)")
    if act.kind == "take":
        top = obs.discard_top
        change, where = take_ev(obs)
        pos = int(where.split()[1])
        old = "a face-down card" if grid[pos] is None else f"your {_name(grid[pos])}"
        word = "saved" if change <= 0 else "lost"
        return (f"Taking the {_name(top)} from the discard pile means swapping it in, best over {old} at "
                f"{words.position(pos)} ({abs(change):.1f} points {word} on average)")
    if act.kind == "flip":
        last = obs.phase is Phase.PLAYING and down == [act.pos]
        whole = " as your whole turn" if obs.awaiting == "draw" else ""
        return f"Flipping your face-down card at {words.position(act.pos)}{whole}" + (" takes you out" if last else
                                                                                " reveals it")
    if act.kind == "knock":
        return f"Knocking turns your {len(down)} face-down card{'s' if len(down) != 1 else ''} up and takes you out"
    if act.kind == "skip":
        return "Skipping the flip keeps your face-down cards hidden"
    return f"Playing {action}"


def and_list(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
