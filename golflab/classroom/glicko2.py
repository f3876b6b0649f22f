"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), as Lichess rates
puzzles and solvers: a rating, its deviation (how sure it is) and a volatility.

``rate(player, [(opponent, score), ...])`` is one rating period; the module's test reproduces
the paper's worked example (1500/200/0.06 against three opponents -> 1464.06/151.52/0.05999).
``settling(rd)``: whether a rating is still provisional (a new solver's first results move it most).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5  # how fast volatility may change (the paper suggests 0.3-1.2)
EPSILON = 1e-6
DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY = 1500.0, 350.0, 0.06
MIN_RD, MAX_RD = 45.0, 350.0  # a floor keeps ratings moving (Lichess keeps one too)
#: A rating whose deviation is above this is still settling ("provisional", Lichess's threshold):
#: a new solver's first puzzles move it by a hundred points or more, and pages say so.
SETTLED_RD = 110.0


def settling(rd: float) -> bool:
    """Whether a rating with deviation ``rd`` is still settling (moves a lot with each result)."""
    return rd > SETTLED_RD


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, results: "list[tuple[Rating, float]]", *, tau: float = TAU,
         bounded: bool = True) -> Rating:
    """The player's rating after one period of ``results`` (opponent, score 1/0.5/0)."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return _bounded(Rating(player.rating, phi_star * SCALE, sigma), bounded)
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.rd / SCALE
        e = _expected(mu, mu_j, phi_j)
        v_inv += _g(phi_j) ** 2 * e * (1 - e)
        delta_sum += _g(phi_j) * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum
    sigma = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu = mu + phi * phi * delta_sum
    return _bounded(Rating(mu * SCALE + 1500, phi * SCALE, sigma), bounded)


def _bounded(r: Rating, bounded: bool) -> Rating:
    return Rating(r.rating, min(MAX_RD, max(MIN_RD, r.rd)), r.volatility) if bounded else r


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)) - (x - a) / tau ** 2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def duel(a: Rating, b: Rating, a_score: float) -> "tuple[Rating, Rating]":
    """Both sides of one game (a learner against a puzzle): their new ratings."""
    return rate(a, [(b, a_score)]), rate(b, [(a, 1 - a_score)])
