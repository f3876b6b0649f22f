"""Which valuation should the coach teach: each candidate's regret and the time of one hint.

Candidates (``golflab.coach.valuation.value``, the options raced as a hint races them, within
``hints.HINT_ROLLOUTS``): the rollouts look 2 or 3 table rounds ahead, or to the end of the
hole (``valuation.END_OF_HOLE``), *draw* and *take* valued by the rollout policy's use of the
card (``policy``) or as a chance node over the drawn card, each card by its best use: the best
by one-step EV (``chance, EV use``) or the best of three raced on rollouts (``chance, 3 uses``,
as the Expert's search chose them).

Positions: decisions with a choice from games of four CPU personalities
(``coach_precision.positions``). For each position, references value every option on
determinizations drawn from an independent seed (the observation's seed xor ``REFERENCE_SEED``,
its best uses too): the *same-horizon* reference with the candidate's own horizon and
treatment of *draw* (``--samples`` per option), and the *end-of-hole* reference,
``coach_precision``'s (``END_SAMPLES`` per option, rollouts to the end of the hole with *draw* a
chance node: ``valuation.reference``, the best use of the drawn card, what a player following
the coach then does). Regret: the reference's points lost by the candidate's first option
against the reference's best; ``>=0.5``: positions where that loss is half a point or more;
then the end-of-hole regret by kind of decision (initial flips, draw or take, the card's use).
The reference's own noise is printed above the table (``coach_precision.noise_line``: a second
end-of-hole reference judged by the first). Time: the CPU time of one hint (cache emptied;
median of ``--repeats`` runs), its median and 95th percentile over the positions.

``nice -n 5 python benchmarks/valuation.py --positions 200 --cache refs.json`` (defaults 20
positions and 1,000 samples; ``--seed`` the positions' first game seed, ``--cache FILE`` keeps
the references, shared with ``coach_precision.py --cache``, ``--json FILE`` every number kept,
``--pool A B`` the table of several ``--json`` runs joined). 200 positions take about 25
minutes on one core here, the references most of it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from coach_precision import END_REFERENCES, END_SAMPLES, end_reference, noise_line, pct, positions, references, regret

from golflab.coach import hints, observation_seed, rollouts, valuation

REFERENCE_SEED = 0x5EED_E0D
HORIZONS = (("2 rounds", 2), ("3 rounds", 3), ("end of hole", valuation.END_OF_HOLE))
TREATMENTS = (("policy", 0), ("chance, EV use", 1), ("chance, 3 uses", 3))


def reference(obs, samples: int, horizon: int, chance: int) -> dict[str, float]:
    """Every option's value on ``samples`` determinizations from the independent seed
    (``coach_precision.end_reference`` at ``horizon``)."""
    return end_reference(obs, samples, REFERENCE_SEED, horizon, chance)


def hint_first(obs, horizon: int, chance: int, repeats: int) -> tuple[str, float]:
    """The candidate's first option and the median CPU seconds of one hint (cache emptied)."""
    legal = tuple(a.notation for a in obs.legal_actions)
    times, first = [], None
    for _ in range(repeats):
        hints.clear_cache()
        start = time.process_time()
        first = hints.evaluate(obs, legal, None, hints.HINT_ROLLOUTS, horizon=horizon, chance=chance)[0].action
        times.append(time.process_time() - start)
    return first, statistics.median(times)


def same_kinds(samples: int) -> list:
    """The same-horizon references, one per (horizon, treatment) ((name, make) pairs for
    ``coach_precision.references``). Away from a draw decision the treatments value alike, so
    each horizon's reference is made there once and shared by its treatments."""
    made: dict[tuple, dict[str, float]] = {}

    def make(horizon: int, chance: int):
        def made_for(obs) -> dict[str, float]:
            key = (horizon, chance if valuation.is_chance_node(obs) else 0, observation_seed(obs))
            if key not in made:
                made[key] = reference(obs, samples, *key[:2])
            return made[key]
        return made_for
    return [(f"same {samples} {horizon} {chance}", make(horizon, chance))
            for _, horizon in HORIZONS for _, chance in TREATMENTS]


def measure(count: int, samples: int, repeats: int, seed: int, cache: str | None = None) -> tuple[list, str]:
    """One row per position: its kind, draw flag and, per candidate, choice, regrets and time;
    the reference's own noise (``coach_precision.noise_line``)."""
    obs_list = positions(count, seed)
    rollouts.KERNEL_MIN_ROLLOUTS = 0  # the compiled kernel from the first hint
    hint_first(obs_list[0], 2, False, 1)  # load the kernel before timing
    sames_made = same_kinds(samples)
    ends, seconds, *sames = references(obs_list, [*END_REFERENCES, *sames_made], cache)
    same_of = {name: found for (name, _), found in zip(sames_made, sames)}
    rows, start = [], time.perf_counter()
    for i, obs in enumerate(obs_list):
        row = {"position": i, "kind": obs.awaiting, "draw": valuation.is_chance_node(obs), "candidates": {}}
        for label, horizon in HORIZONS:
            for name, chance in TREATMENTS:
                same = same_of[f"same {samples} {horizon} {chance}"][i]
                choice, cpu = hint_first(obs, horizon, chance, repeats)
                row["candidates"][f"{label}, {name}"] = {
                    "choice": choice, "cpu": cpu, "same": regret(same, choice), "end": regret(ends[i], choice)}
        rows.append(row)
        if i % 20 == 19:
            print(f"hints {i + 1}/{count} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return rows, noise_line(obs_list, ends, seconds)


KINDS = (("initial_flip", "initial flips"), ("draw", "draw or take"), ("place", "the card's use"))


def table(rows: list[dict]) -> str:
    """The table of the module's docstring, one line per candidate."""
    kinds = [(k, label, [r for r in rows if r.get("kind") == k]) for k, label in KINDS]
    kinds = [(k, label, found) for k, label, found in kinds if found]
    heads = ["valuation", "regret, same horizon", ">=0.5", "regret, end of hole", ">=0.5",
             *(f"end, {label} ({len(found)})" for _, label, found in kinds), "CPU ms median", "p95"]
    lines = ["| " + " | ".join(heads) + " |", "|---" * len(heads) + "|"]
    n = len(rows)
    for name in rows[0]["candidates"]:
        got = [r["candidates"][name] for r in rows]
        same, end = [g["same"] for g in got], [g["end"] for g in got]
        cpu = [1000 * g["cpu"] for g in got]
        by_kind = [f"{statistics.mean(r['candidates'][name]['end'] for r in found):.3f}" for _, _, found in kinds]
        cells = [name, f"{statistics.mean(same):.3f}", f"{sum(x >= 0.5 for x in same)}/{n}",
                 f"{statistics.mean(end):.3f}", f"{sum(x >= 0.5 for x in end)}/{n}", *by_kind,
                 f"{statistics.median(cpu):.0f}", f"{pct(cpu, 0.95):.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--samples", type=int, default=1000, help="determinizations per option of a same-horizon "
                        f"reference (the end-of-hole ones: coach_precision.END_SAMPLES, {END_SAMPLES})")
    parser.add_argument("--repeats", type=int, default=1, help="timed runs of each hint (the median is kept)")
    parser.add_argument("--seed", type=int, default=100, help="the first game seed of the positions")
    parser.add_argument("--cache", help="keep the references in this JSON file (coach_precision's --cache)")
    parser.add_argument("--json", help="write every row to this file")
    parser.add_argument("--pool", nargs="+", metavar="FILE", help="print the table of these --json files joined")
    args = parser.parse_args(argv)
    if args.pool:
        pooled = []
        for path in args.pool:
            with open(path) as f:
                pooled += json.load(f)
        print(f"{len(pooled)} positions from {', '.join(args.pool)}")
        print(table(pooled))
        return
    rows, noise = measure(args.positions, args.samples, args.repeats, args.seed, args.cache)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)
    print(f"{args.positions} positions (seed {args.seed}), references: same horizon {args.samples} samples per "
          f"option (seed xor {REFERENCE_SEED:#x}), end of hole {END_SAMPLES} (coach_precision's); hint budget "
          f"{hints.HINT_ROLLOUTS} rollouts; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(noise)
    print(table(rows))


if __name__ == "__main__":
    main()
