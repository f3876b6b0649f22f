"""The eight CPU personalities of the rules spec (section 10)."""

from __future__ import annotations

from dataclasses import dataclass

from .levels import LEVEL_NAMES, LEVELS, Level, get_level


@dataclass(frozen=True)
class Profile:
    """One CPU personality.

    ``swap_threshold``: a face-up card worth at least this is a candidate to replace.
    ``pair_hope`` (0-1): how long the player holds high cards hoping to complete a pair.
    ``aggression`` (0-1): tendency to go out early and close the round.
    ``unpredictability`` (0-1): chance of an unexpected (but never blundering) play.
    """

    name: str
    style: str
    swap_threshold: int
    pair_hope: float
    aggression: float
    unpredictability: float

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"a profile needs a non-empty name, got {self.name!r}")
        if isinstance(self.swap_threshold, bool) or not isinstance(self.swap_threshold, int):
            raise ValueError(f"swap_threshold must be a whole number of points, got {self.swap_threshold!r}")
        for field in ("pair_hope", "aggression", "unpredictability"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise ValueError(f"{field} must be a number from 0 to 1, got {value!r}")


#: The personalities by name, with exactly the spec's parameters.
PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("Sofia", "Calculated & Patient", 4, 0.20, 0.20, 0.02),
        Profile("Maya", "Aggressive Closer", 6, 0.40, 0.85, 0.10),
        Profile("Priya", "Pair Hunter", 7, 0.80, 0.50, 0.05),
        Profile("Marcus", "Steady Eddie", 5, 0.35, 0.40, 0.03),
        Profile("Kenji", "Risk Taker", 8, 0.70, 0.75, 0.12),
        Profile("Diego", "Chaotic Gambler", 6, 0.50, 0.60, 0.28),
        Profile("River", "Adaptive Strategist", 5, 0.45, 0.55, 0.08),
        Profile("Sage", "Sneaky Finisher", 5, 0.30, 0.90, 0.15),
    )
}


#: The Expert: a CPU that plays the coach's best move (``golflab.coach.expert``), not one of the
#: eight personalities (it is not in ``PROFILES``). Its parameters are what the CPU rules use
#: where they still need a personality (none of its moves: they are all the coach's).
EXPERT = Profile("Expert", "Plays the coach's best move", 5, 0.45, 0.55, 0.0)
#: The Classic Expert: the Expert before the hint's options raced (it plays ``coach.hint``'s
#: best option at 160 rollouts a move: ``golflab.coach.expert.CLASSIC_ROLLOUTS``). Accepted by
#: name (``get_profile``, ``personality_names``: the CLI, ``simulate``, the benchmarks) but not
#: in ``CPU_NAMES``, the learners' menus.
CLASSIC_EXPERT = Profile("Classic Expert", "Plays the coach's hint", 5, 0.45, 0.55, 0.0)


def _level_profile(level: Level) -> Profile:
    base = PROFILES[level.base]
    return Profile(level.name, level.summary, base.swap_threshold, base.pair_hope, base.aggression,
                   base.unpredictability)


#: Each level's Profile by name (``golflab.ai.levels``): its base personality's parameters under
#: the level's name; ``CPUPlayer`` adds the level's random moves and search (``level_of``).
LEVEL_PROFILES: dict[str, Profile] = {lv.name: _level_profile(lv) for lv in LEVELS}
#: Every name a CPU player may have: the eight personalities, "Expert", then "Level 1" to "Level 8".
CPU_NAMES: tuple[str, ...] = (*PROFILES, EXPERT.name, *LEVEL_NAMES)
#: ``CPU_NAMES`` as an error message lists them.
CPU_NAMES_TEXT = f"{', '.join((*PROFILES, EXPERT.name))}, or {LEVEL_NAMES[0]} to {LEVEL_NAMES[-1]}"


def level_of(profile: "str | Profile") -> Level | None:
    """The level a name or Profile plays (a ``LEVEL_PROFILES`` Profile itself, not a copy), or None."""
    if isinstance(profile, Profile):
        return get_level(profile.name) if LEVEL_PROFILES.get(profile.name) is profile else None
    return get_level(profile)


def get_profile(name_or_profile: "str | Profile") -> Profile:
    """A Profile itself, or the personality of that name (case-insensitive; "Expert" gives
    ``EXPERT``, "Classic Expert" ``CLASSIC_EXPERT``, "Level 3" the level's ``LEVEL_PROFILES`` entry)."""
    if isinstance(name_or_profile, Profile):
        return name_or_profile
    if isinstance(name_or_profile, str):
        key = name_or_profile.strip().lower()
        for name, profile in (*PROFILES.items(), (EXPERT.name, EXPERT), (CLASSIC_EXPERT.name, CLASSIC_EXPERT)):
            if name.lower() == key:
                return profile
        level = get_level(name_or_profile)
        if level is not None:
            return LEVEL_PROFILES[level.name]
    raise ValueError(
        f"unknown CPU personality {name_or_profile!r}: choose one of {CPU_NAMES_TEXT} or pass a Profile"
    )


def personality_names(names, *, count: "tuple[int, int] | None" = None, distinct: bool = False,
                      profiles: bool = False, what: str = "personalities", where: str = "") -> list:
    """Validate CPU personality names in one place: each a ``CPU_NAMES`` name (the ``PROFILES``,
    "Expert" and "Level 1" to "Level 8") or "Classic Expert", any case, returned as spelled
    there; or a ``Profile`` itself when ``profiles`` is True. ``names`` may be one
    comma-separated string. ``count``: the (lowest, highest) number allowed; ``distinct``: no
    name twice; ``where`` (e.g. `` in --players``) is said after an unknown name. Anything
    else is a ValueError that says what is allowed."""
    if isinstance(names, str):
        names = names.split(",")
    try:
        names = list(names)
    except TypeError:
        raise ValueError(f"{what} must be a list of names from {CPU_NAMES_TEXT}, got {names!r}") from None
    by_lower = {k.lower(): k for k in (*CPU_NAMES, CLASSIC_EXPERT.name)}
    out = []
    for n in names:
        if profiles and isinstance(n, Profile):
            out.append(n)
            continue
        extra = " (or pass a golflab.ai.Profile)" if profiles else ""
        if not isinstance(n, str):
            raise ValueError(f"personality names must be text, got {n!r}; choose from {CPU_NAMES_TEXT}{extra}")
        name = by_lower.get(n.strip().lower())
        if name is None:
            raise ValueError(f"unknown personality {n.strip()!r}{where}: choose from {CPU_NAMES_TEXT}{extra}")
        out.append(name)
    if count is not None and not count[0] <= len(out) <= count[1]:
        raise ValueError(f"choose {count[0]} to {count[1]} {what}, got {len(out)}")
    if distinct:
        seen = [getattr(n, "name", n) for n in out]
        twice = sorted({n for n in seen if seen.count(n) > 1})
        if twice:
            raise ValueError(f"each personality may appear once among the {what}, got {', '.join(twice)} twice")
    return out
