"""Table ratings, as plain values: OpenSkill's Plackett-Luce model over a room's finishing order (a
puzzle's rating is Glicko-2: ``glicko2``). A rating is a ``Rating`` with OpenSkill's mu as
``rating`` and its sigma as ``rd`` (no volatility). OpenSkill is imported at first use."""

from __future__ import annotations

from typing import Sequence

from .glicko2 import Rating

__all__ = ["Rating", "new_table_rating", "rate_table", "table_subject"]


def table_subject(user_id: "int | None", cpu: "str | None" = None) -> str:
    """Whose table rating it is, as the ratings are kept: ``table:user:<id>``, or a CPU personality's
    ``table:cpu:<name>`` (a seat with no user)."""
    return f"table:user:{user_id}" if user_id is not None else f"table:cpu:{cpu}"


def new_table_rating() -> Rating:
    """The rating of a player who has not played at a table yet (the model's mu and sigma)."""
    model = _model()
    return Rating(model.mu, model.sigma, 0.0)


def rate_table(before: "Sequence[Rating]", ranks: "Sequence[int]") -> "list[Rating]":
    """Each seat's rating after one game: ``before`` (one per seat) and the seats' ``ranks`` (1 the
    best; equal ranks are a tie), as the game's ``ranks()`` gives them."""
    if len(before) != len(ranks):
        raise ValueError(f"one rank per seat is needed: {len(before)} ratings, {len(ranks)} ranks")
    model = _model()
    teams = [[model.rating(mu=r.rating, sigma=r.rd)] for r in before]
    return [Rating(r.mu, r.sigma, 0.0) for [r] in model.rate(teams, ranks=list(ranks))]


def _model():
    from openskill.models import PlackettLuce

    return PlackettLuce()
