"""CPython's ``random.Random`` (MT19937) in compiled code: the same stream, draw for draw.

A generator is a row of ``state`` (625 int64: the 624 words, then the index), filled from
``random.Random(seed).getstate()`` (``state_of``), so seeding stays CPython's. ``random``,
``randbelow``/``choice`` and ``shuffle`` consume the stream exactly as ``random.Random``'s
methods of those names do (Python 3.10+), so a game played here deals and chooses as the
reference does.
"""

from __future__ import annotations

import random as _random

import numpy as np
from numba import njit

N, M = 624, 397
MASK32 = 0xFFFFFFFF
UPPER, LOWER, MATRIX_A = 0x80000000, 0x7FFFFFFF, 0x9908B0DF


def state_of(rng: _random.Random) -> np.ndarray:
    """The generator row of a ``random.Random`` (its words, then its index)."""
    _version, words, _gauss = rng.getstate()
    return np.array(words, dtype=np.int64)


def seeded(seed: int) -> np.ndarray:
    """The generator row of ``random.Random(seed)``."""
    return state_of(_random.Random(seed))


@njit(cache=True)
def _twist(mt) -> None:
    for kk in range(N - M):
        y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER)
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    for kk in range(N - M, N - 1):
        y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER)
        mt[kk] = mt[kk + (M - N)] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    y = (mt[N - 1] & UPPER) | (mt[0] & LOWER)
    mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)


@njit(cache=True)
def genrand(mt) -> int:
    """The next 32-bit word of generator row ``mt``."""
    if mt[N] >= N:
        _twist(mt)
        mt[N] = 0
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK32


@njit(cache=True)
def random(mt) -> float:
    """``random.Random.random()``: 53 random bits as a float in [0, 1)."""
    a = genrand(mt) >> 5
    b = genrand(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def getrandbits(mt, k: int) -> int:
    """``random.Random.getrandbits(k)`` for 0 < k <= 63: 32-bit words, least significant first,
    the last one's low bits dropped."""
    if k <= 32:
        return genrand(mt) >> (32 - k)
    low = genrand(mt)
    return low | ((genrand(mt) >> (64 - k)) << 32)


@njit(cache=True)
def randbelow(mt, n: int) -> int:
    """``random.Random._randbelow(n)`` for 0 < n < 2**32 (the getrandbits method)."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = genrand(mt) >> (32 - k)
    while r >= n:
        r = genrand(mt) >> (32 - k)
    return r


@njit(cache=True)
def shuffle(mt, items, size: int) -> None:
    """``random.Random.shuffle`` of ``items[:size]`` in place."""
    for i in range(size - 1, 0, -1):
        j = randbelow(mt, i + 1)
        items[i], items[j] = items[j], items[i]


def _initial_words() -> np.ndarray:
    """``init_genrand(19650218)``: the words every ``init_by_array`` starts from."""
    mt = [19650218]
    for i in range(1, N):
        mt.append((1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK32)
    return np.array(mt, dtype=np.int64)


#: The start of every seeding (a constant: numba compiles it in).
INITIAL_WORDS = _initial_words()


#: Generators seeded side by side (``seed_many``): their seedings are independent chains of
#: multiplications, so a block of them keeps the processor busy where one chain would make it wait
#: for each word's multiplication before the next (1.3 us a generator instead of 4).
BLOCK = 32


@njit(cache=True)
def seed_many(rows, seeds) -> None:
    """Fill ``rows[k]`` as ``random.Random(seeds[k])`` seeds itself, for 0 <= seed < 2**63: CPython's
    ``init_by_array`` over the seed's 32-bit words (one, or two from 2**32), from ``INITIAL_WORDS``,
    ``BLOCK`` seeds at a time."""
    count = seeds.size
    width = min(BLOCK, count)
    words = np.empty((N, width), dtype=np.int64)  # words[i, c]: word i of the block's generator c
    even = np.empty(width, dtype=np.int64)  # what the key loop adds at its even steps (the low word)
    odd = np.empty(width, dtype=np.int64)  # at its odd steps: the high word + 1, or the low word again
    for first in range(0, count, width):
        m = min(width, count - first)
        for c in range(m):
            seed = seeds[first + c]
            even[c] = seed & MASK32
            odd[c] = (seed >> 32) + 1 if seed >> 32 else seed & MASK32
        for i in range(N):
            for c in range(m):
                words[i, c] = INITIAL_WORDS[i]
        i = 1
        for step in range(N):  # max(N, key length): the key has one or two words
            add = odd if step & 1 else even
            for c in range(m):
                p = words[i - 1, c]
                words[i, c] = ((words[i, c] ^ ((p ^ (p >> 30)) * 1664525)) + add[c]) & MASK32
            i += 1
            if i >= N:
                for c in range(m):
                    words[0, c] = words[N - 1, c]
                i = 1
        for _ in range(N - 1):
            for c in range(m):
                p = words[i - 1, c]
                words[i, c] = ((words[i, c] ^ ((p ^ (p >> 30)) * 1566083941)) - i) & MASK32
            i += 1
            if i >= N:
                for c in range(m):
                    words[0, c] = words[N - 1, c]
                i = 1
        for c in range(m):
            row = rows[first + c]
            row[0] = 0x80000000
            for q in range(1, N):
                row[q] = words[q, c]
            row[N] = N


@njit(cache=True)
def seed_row(row, seed: int) -> None:
    """Fill ``row`` as ``random.Random(seed)`` seeds itself (``seed_many`` of one seed)."""
    seed_many(row.reshape((1, N + 1)), np.array([seed], dtype=np.int64))


@njit(cache=True)
def seed_rows(seeds):
    """Generator rows for a 2-D array of seeds (each 0 <= seed < 2**63): [i, j] -> row."""
    a, b = seeds.shape
    rows = np.empty((a * b, N + 1), dtype=np.int64)
    seed_many(rows, seeds.copy().reshape(a * b))
    return rows.reshape((a, b, N + 1))
