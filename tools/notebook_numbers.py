"""Recompute the numbers quoted in the explorer notebooks and rewrite their 'What the numbers say' cells.

The explorer notebooks quote figures from simulated play as plain text. When the CPU players
change on purpose (the simulation fingerprints in tests/simulation/test_simulation_fingerprint.py move),
run ``.venv/bin/python tools/notebook_numbers.py [pairing turns personalities house_rules]``
and review the rewritten cells before committing.

The lessons (lesson1..5) quote no figures of their own and are not rewritten here: every hand,
score and option value they show is computed by the engine when the page opens (their exercises
come from ``widgets.lesson_sets``, exact one-step values), so nbval re-checks them on each run.
"""
import json
import sys
from pathlib import Path

from golflab import Rules
from golflab.strategy import (
    compare_rules,
    hole_lengths,
    pairing_study,
    pairing_table,
    personality_table,
    round_robin,
    simulate_holes,
    turn_study,
    turn_summary,
)

NB = Path(__file__).resolve().parent.parent / "notebooks"
T = ["Sofia", "Maya", "Priya", "Marcus"]
H = 900

def pct(x, d=0): return f"{100*x:.{d}f}%"
def rng(a, b, f="{:.1f}"):
    a, b = min(a, b), max(a, b)
    return f.format(a) if f.format(a) == f.format(b) else f.format(a) + "-" + f.format(b)

def set_numbers(name, text):
    path = NB / name
    nb = json.loads(path.read_text())
    cell = nb["cells"][-1]
    src = "".join(cell["source"])
    head = src[: src.index("## What the numbers say")]
    import textwrap
    cell["source"] = (head + "## What the numbers say\n\n" + textwrap.dedent(text).strip()).splitlines(keepends=True)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")

WANT = set(sys.argv[1:])


def quoted(sample: str) -> str:
    """The sentence that says which sample the numbers below come from (the page opens with the quick one)."""
    return (f"These numbers come from the **{sample}** sample, not the quick one the page opens with: choose "
            f"*{sample}* in *Sample* (keeping the default players, rules and seed 0) to see them in the charts.")


# tiers.ipynb quotes no numbers: TierExplorer writes its own summary from the result it shows.


def section_pairing():
    sit, part = pairing_study(T, H, Rules(), 0)
    pt = pairing_table(sit)
    def g(ranks):  # cells with enough cases
        return pt[pt["rank"].isin(ranks) & (pt["situations"] >= 20)]

    def grng(ranks, col="gain", f="{:.1f}", scale=1):
        x = g(ranks)[col] * scale
        return rng(x.min(), x.max(), f)
    big = g(["5", "6", "7", "8", "9", "T", "J", "Q"])
    mid = g(["3", "4"])
    set_numbers("pairing.ipynb", f"""
    {quoted(f"{H} holes")}

    Standard rules, four players, seed 0 ({len(sit):,} pairing chances; ranges below are over the phases with
    at least 20 chances):

    * Pairing mid cards pays: completing a pair of 3s saves {grng(['3'])} points over the best alternative (by
      phase), 5s {grng(['5'])}, and 8s to queens {grng(['8','9','T','J','Q'])} points. The CPU players take pairs of 5s
      and up {rng(big.chose_pair.min()*100, big.chose_pair.max()*100, '{:.0f}')}% of the time, of 3s and 4s
      {rng(mid.chose_pair.min()*100, mid.chose_pair.max()*100, '{:.0f}')}%.
    * Never pair 2s: it costs {grng(['2'], scale=-1)} points against putting the 2 elsewhere, and the CPU players
      paired them {pct(g(['2']).chose_pair.max())} of the time.
    * Kings are a closer call: pairing a king is {grng(['K'], scale=-1)} points *worse* than putting it over your worst
      card, because a king is worth 0 anyway. Aces gain a little ({grng(['A'])}).
    * The exact predictions hold up: over all {len(sit):,} chances the predicted change of pairing averaged
      {sit.pair_ev.mean():.2f} points and the realised change {sit.realised.mean():.2f}. Hidden partners matched
      {pct(part.matched.mean(), 1)} of the time against {pct(part.predicted.mean(), 1)} predicted; the per-rank observed
      rates scatter around the prediction more than independent samples would, because the same column is counted at
      every decision until it is turned.
    """)
    print(pt)

if not WANT or 'pairing' in WANT:
    section_pairing()


def section_turns():
    def summ(by, rules=Rules(), players=T):
        return turn_summary(turn_study(players, H, rules, 0, by), by).set_index("group")
    fm, fl, pl, pe = (summ(b) for b in ("flip_mode", "initial_flips", "players", "personality"))
    fla = summ("initial_flips", Rules(flip_mode="always"))
    set_numbers("turns.ipynb", f"""
    {quoted(f"{H} holes per series")}

    Four players (Sofia, Maya, Priya, Marcus), seed 0:

    * **The minimum of 4 holds everywhere with 2 initial flips**: the fewest turns anyone took was {int(fm['min'].min())} in
      every flip mode (4 face-down cards need 4 swaps or flips), and {int(pl['min'].min())} at every table size from 2 to 6. With
      fewer initial flips the minimum rises: {int(fl.loc[1,'min'])} turns with one initial flip and {int(fl.loc[0,'min'])} with none.
    * **"4-8 turns" holds for Speed Golf** (`always`): {pct(fm.loc['always','in_4_8'], 2)} of players took 4-8 turns (median
      {int(fm.loc['always','median'])}, mean {fm.loc['always','mean']:.1f}, longest {int(fm.loc['always','max'])}).
    * **It mostly holds for Standard and Suspense**: {pct(fm.loc['never','in_4_8'], 1)} (`never`) and
      {pct(fm.loc['endgame','in_4_8'], 1)} (`endgame`) within 4-8, median {int(fm.loc['never','median'])}, but
      {pct(fm.loc['never','above_8'], 1)} and {pct(fm.loc['endgame','above_8'], 1)} of players need more than 8 turns and the
      longest holes reach {rng(fm.loc['never','max'], fm.loc['endgame','max'], '{:.0f}')} turns.
    * **It does not hold with fewer initial flips**: with 0 initial flips only {pct(fl.loc[0,'in_4_8'])} of players finish
      within 8 turns (median {int(fl.loc[0,'median'])}), with 1 flip {pct(fl.loc[1,'in_4_8'])}. Under Speed Golf the band holds
      again ({pct(fla.loc[0,'in_4_8'])} with 0 flips).
    * **Fewer players, longer holes**: in Standard play {pct(pl.loc[2,'in_4_8'])} of players are within 4-8 at a 2-player table
      ({pct(pl.loc[2,'above_8'])} take more than 8) against {pct(pl.loc[6,'in_4_8'])} at 6 players: with more opponents someone
      goes out sooner.
    * The personalities at one table differ little (mean {rng(pe['mean'].min(), pe['mean'].max())} turns): the hole ends for
      everyone when one player goes out.
    """)
    print(fm, fl, pl, pe, fla, sep="\n")

if not WANT or 'turns' in WANT:
    section_turns()


def section_personalities():
    r, d = round_robin(None, 3, Rules(), 0)
    t = personality_table(r, d)
    half = ((t.ci_high - t.ci_low) / 2).mean()
    sep = [(a.personality, b.personality) for a in t.itertuples() for b in t.itertuples() if a.ci_high < b.ci_low]
    from collections import defaultdict
    beaten = defaultdict(list)
    for a, b in sep:
        beaten[a].append(b)
    sep_text = ("no two personalities' intervals separate, so this sample cannot rank them with confidence"
                if not sep else "; ".join(f"{a}'s interval lies wholly below those of {', '.join(bs[:-1]) + ' and ' + bs[-1] if len(bs) > 1 else bs[0]}" for a, bs in beaten.items())
                + "; every other pair overlaps")
    w = t.sort_values("win_rate")
    o = t.sort_values("go_out_rate", ascending=False)
    set_numbers("personalities.ipynb", f"""
    {quoted("3 games per table")}

    Standard rules, all eight personalities ({int(t.holes.iloc[0])} holes each), seed 0:

    * The ranking is {', '.join(f'{x.personality} ({x.mean_score:.2f})' for x in t.itertuples())} points per hole.
    * First and last are {t.mean_score.iloc[-1] - t.mean_score.iloc[0]:.2f} points per hole apart and each interval is about
      ±{half:.2f}: {sep_text}. The largest sample narrows the intervals.
    * Win rates run from {pct(w.win_rate.iloc[0])} ({w.personality.iloc[0]}) to {pct(w.win_rate.iloc[-1])} ({w.personality.iloc[-1]});
      {o.personality.iloc[0]} ({pct(o.go_out_rate.iloc[0])}) and {o.personality.iloc[1]} ({pct(o.go_out_rate.iloc[1])}) go out most
      and {o.personality.iloc[-1]} least ({pct(o.go_out_rate.iloc[-1])}).
    * {rng(t.optimal.min()*100, t.optimal.max()*100, '{:.0f}')}% of every personality's decisions are optimal and
      {rng(t.questionable.min()*100, t.questionable.max()*100, '{:.1f}')}% questionable; mistakes and blunders are rare
      (at most {pct((t.mistake + t.blunder).max(), 2)} of a personality's decisions).
    """)
    print(t)

if not WANT or 'personalities' in WANT:
    section_personalities()


def section_house_rules():
    P6 = ("Sofia", "Maya", "Priya", "Marcus", "Kenji", "Diego")
    runs = {k: simulate_holes(P6, H, rules, 0).rounds for k, rules in (("A", Rules()), ("B", Rules(flip_mode="always")))}
    c = compare_rules(runs)
    b = c[c.rules == "B"].sort_values("delta_edge")
    la, lb = (hole_lengths(runs[k]).turns.mean() for k in "AB")
    sa, sb = (runs[k].score.mean() for k in "AB")
    half = ((c.ci_high - c.ci_low) / 2).mean()
    more = "higher" if sb > sa else "lower"
    set_numbers("house_rules.ipynb", f"""
    {quoted(f"{H} holes per rule set")}

    A = standard rules, B = Speed Golf (`flip_mode="always"`), six
    personalities (Sofia, Maya, Priya, Marcus, Kenji, Diego), seed 0:

    * Speed Golf makes holes shorter, {lb:.1f} times round the table instead of {la:.1f}, and scores {more}: {sb:.1f} points per
      player per hole instead of {sa:.1f}: forced flips reveal cards that there is no longer time to replace.
    * {b.personality.iloc[0]} ({b.delta_edge.iloc[0]:+.2f}) and {b.personality.iloc[1]} ({b.delta_edge.iloc[1]:+.2f}) gain most against
      the table under Speed Golf; {b.personality.iloc[-1]} ({b.delta_edge.iloc[-1]:+.2f}) and {b.personality.iloc[-2]}
      ({b.delta_edge.iloc[-2]:+.2f}) lose most. The mean scores' confidence intervals are about ±{half:.2f}, so shifts of
      this size are hints: check them with the larger sample.
    """)
    print(c, la, lb, sa, sb)

if not WANT or 'house_rules' in WANT:
    section_house_rules()
