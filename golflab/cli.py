"""The command line: ``python -m golflab simulate ...`` and ``python -m golflab rules``.

Bad input (an unknown personality, a bad rule name or value, a bad number, argparse's
own complaints) is one line on stderr naming what is wrong and what is allowed, with
exit code 2 and no traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from .rules import RULE_HELP, Rules

EXIT_USAGE = 2
_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors: one line, exit 2
        raise UsageError(f"{message} (see {self.prog} --help)")


def parse_rule_value(text: str):
    """A ``--rule`` value: true/false/yes/no/on/off -> bool, whole numbers -> int,
    auto/automatic -> None (automatic decks), anything else stays a string."""
    low = text.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    if low in ("auto", "automatic"):
        return None
    try:
        return int(low)
    except ValueError:
        return text.strip()


def parse_rules(items: Sequence[str]) -> Rules:
    """Rules from ``name=value`` items; a bad name or value is a UsageError."""
    options = {}
    for item in items:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--rule expects name=value (for example flip_mode=always), got {item!r}")
        if name not in RULE_HELP:
            raise UsageError(f"unknown rule {name!r}: allowed rules are {', '.join(RULE_HELP)}")
        value = parse_rule_value(raw)
        if name == "decks" and isinstance(value, str) and value.lower() == "none":
            value = None
        options[name] = value
    try:
        return Rules(**options)
    except ValueError as exc:
        raise UsageError(f"bad rule: {exc}") from None


def _positive(name: str):
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number >= 1, got {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number >= 1, got {value}")
        return value

    return convert


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="golflab", description="6-Card Golf: simulate CPU personalities, list the rules.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sim = sub.add_parser("simulate", help="play many games between CPU personalities and summarise them",
                         description="Play GAMES complete games between CPU personalities and print a "
                                     "per-personality summary (mean round score, win rates, go-out rate, "
                                     "turns per round, blunders and mistakes).")
    sim.add_argument("--players", required=True,
                     help="2-6 comma-separated personalities, e.g. Sofia,Maya (a name may repeat)")
    sim.add_argument("--games", type=_positive("--games"), default=100, help="number of games (default 100)")
    sim.add_argument("--seed", type=_whole, default=0, help="master seed (default 0)")
    sim.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                     help="a rule option, repeatable: e.g. flip_mode=always, rounds=1, knock_bonus=true "
                          "(see `golflab rules`)")
    sim.add_argument("--processes", type=_positive("--processes"), default=1, help="worker processes (default 1)")
    sim.add_argument("--json", action="store_true", help="print the summary and quality counters as JSON")
    sim.add_argument("--csv", metavar="FILE", help="also write one row per player per hole to FILE (CSV)")
    sim.add_argument("--no-analysis", action="store_true", help="skip grading decisions (faster)")
    sub.add_parser("rules", help="list the rule options with their help text",
                   description="List the rule options (for --rule) with defaults and help text.")
    return parser


def _rules_text() -> str:
    defaults = Rules().to_dict()
    width = max(map(len, RULE_HELP))
    return "\n".join(f"{name:<{width}}  default {defaults[name]!s:<6}  {text}" for name, text in RULE_HELP.items())


def _simulate(args) -> int:
    from .simulation import resolve_players, simulate

    from .ai import PROFILES

    rules = parse_rules(args.rule)
    known = {k.lower() for k in PROFILES}
    for name in args.players.split(","):
        if name.strip().lower() not in known:
            raise UsageError(f"unknown personality {name.strip()!r} in --players: choose from {', '.join(PROFILES)}")
    try:
        players = resolve_players(args.players.split(","))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        result = simulate(players, args.games, rules=rules, seed=args.seed, processes=args.processes,
                          analyze=not args.no_analysis)
    except ValueError as exc:  # e.g. a deck too small for the table
        raise UsageError(str(exc)) from None
    if args.csv:
        try:
            result.rounds.to_csv(args.csv, index=False)
        except OSError as exc:
            raise UsageError(f"cannot write --csv {args.csv}: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    summary = result.summary().dropna(axis=1, how="all")  # no grade counts without analysis
    print(f"{args.games} games · {', '.join(result.players)} · seed {args.seed} · {rules.describe()}")
    print(summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    if result.quality.total_decisions:
        q = result.quality
        rates = q.rates()
        print(f"\n{q.total_turns} turns, {q.total_decisions} decisions graded: "
              + ", ".join(f"{n.lower()} {c}" for n, c in q.grades.items()))
        print("named cases per turn: " + ", ".join(f"{k} {getattr(q, k)} ({v:.3%})" for k, v in rates.items()))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0, or 2 for bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command == "rules":
            print(_rules_text())
            code = 0
        elif args.command == "simulate":
            code = _simulate(args)
        else:
            parser.print_help()
            code = EXIT_USAGE
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except UsageError as exc:
        print(f"golflab: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (e.g. `golflab rules | head -1`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
