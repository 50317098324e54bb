"""The balance table (odds.crusades.balance) shown: as text (`summary`), as one JSON object
(`to_json`), and as a figure of win rate against budget ratio (`plot`)."""
from __future__ import annotations

import math

from .table import Z


def summary(frame) -> str:
    """The table as text: each matchup's armies, win rates and 50/50 upkeep, then notes."""
    import pandas as pd

    at = frame.attrs
    head = (f"Balance by upkeep: {at['scenario']} (Monte Carlo, {at['battles']:,} battles per point, "
            f"half with each side attacking; seed {at['seed']}{'; PARTIAL' if at['partial'] else ''})")
    pct = lambda v, se: f"{v:.1%} ± {Z * se:.1%}"
    table = [{"matchup": r.matchup, "budget": r.budget, "armies": f"{r.a_army} v {r.b_army}",
              "upkeep": f"{r.a_upkeep} v {r.b_upkeep}", "a wins": pct(r.a_win, r.a_win_se),
              "b wins": pct(r.b_win, r.b_win_se), "undecided": f"{r.draw:.1%}",
              "win/upkeep": f"{r.a_win_per_upkeep:.3f} v {r.b_win_per_upkeep:.3f}"}
             for r in frame.itertuples()]
    done = pd.DataFrame(table).to_string(index=False) if table else "(no matchup done)"
    lines = [head, done, "50/50:"]
    for r in frame.itertuples():
        if math.isnan(r.even_upkeep):
            lines.append(f"  {r.matchup} at {r.budget}: {r.even_note}")
        else:
            lines.append(f"  {r.matchup} at {r.budget}: {r.b} even at {r.even_upkeep:.2f} ± "
                         f"{Z * r.even_se:.2f} upkeep against {r.a_upkeep} of {r.a} "
                         f"({r.even_ratio:.2f}x; ± Monte Carlo {Z * r.even_mc_se:.2f} and whole "
                         f"units {Z * r.even_line_se:.2f}), {r.even_note}")
    lines.append("verdict (each side's worth per upkeep against the others it met, from the 50/50 "
                 "points; 1x: its upkeep is right):")
    lines += [f"  {v['entrant']}: {v['verdict']}" for v in verdicts(frame)]
    lines += [f"  note: {n}" for n in at["notes"]]
    lines.append("  settings: " + ", ".join(f"{k}={v}" for k, v in at["settings"].items()))
    return "\n".join(lines)


def verdicts(frame) -> list:
    """Per entrant: its worth per upkeep against the others it met, the geometric mean over
    its bracketed matchups of the upkeep its opponent needs to draw with it per upkeep of its
    own (b even at X against A of a: a is worth X/A, b A/X), with its 95% error; a verdict."""
    logs = {}
    for r in frame.itertuples():
        if not math.isnan(r.even_upkeep):
            rel = r.even_se / r.even_upkeep  # the error of log(X)
            logs.setdefault(r.a, []).append((math.log(r.even_upkeep / r.a_upkeep), rel))
            logs.setdefault(r.b, []).append((math.log(r.a_upkeep / r.even_upkeep), rel))
    out = []
    for name, got in logs.items():
        mean = sum(v for v, _ in got) / len(got)
        err = Z * math.sqrt(sum(e * e for _, e in got)) / len(got)
        worth, low, high = math.exp(mean), math.exp(mean - err), math.exp(mean + err)
        span = (f"{worth:.2f}x (95%: {low:.2f}-{high:.2f}x, over {len(got)} matchup"
                f"{'s' * (len(got) > 1)} with a 50/50 point)")
        verdict = (f"worth its upkeep at this budget, {span}" if low > 1 else
                   f"not worth its upkeep at this budget, {span}" if high < 1 else
                   f"about worth its upkeep (1x within error), {span}")
        out.append({"entrant": name, "worth": worth, "low": low, "high": high, "verdict": verdict})
    return out


def to_json(frame) -> dict:
    """One JSON object: the rows, the curve, and what produced them (null for undefined)."""
    import json

    at = frame.attrs
    return {"procedure": at["procedure"], "scenario": at["scenario"], "partial": at["partial"],
            "seed": at["seed"], "battles_per_point": at["battles"], "max_ratio": at["max_ratio"],
            "notes": at["notes"], "settings": at["settings"],
            "rows": json.loads(frame.to_json(orient="records")), "verdicts": verdicts(frame),
            "curve": json.loads(at["curve"].to_json(orient="records"))}


def plot(frame, ax=None):
    """Win rate against budget ratio: for each matchup (and budget) the second entrant's score
    (P(win) + half P(undecided)) against its upkeep / the first's (a colour per matchup, a line
    style per budget), 95% error bars, the 50% line, the equal-budget line and the 50/50 points
    (x) with their 95% intervals. Returns the Figure."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(9, 4.5), layout="constrained")
    curve = frame.attrs["curve"]
    colour = {m: f"C{i % 10}" for i, m in enumerate(dict.fromkeys(curve["matchup"]))}
    style = {b: ("-", "--", ":", "-.")[i % 4] for i, b in enumerate(dict.fromkeys(curve["budget"]))}
    for (matchup, budget), g in curve.groupby(["matchup", "budget"], sort=False):
        g = g.sort_values("ratio")
        ax.plot(g["ratio"], g["b_score"], marker="o", ms=4, color=colour[matchup], ls=style[budget],
                label=f"{g['b'].iloc[0]} against {g['a'].iloc[0]} ({budget} upkeep)")
        ax.errorbar(g["ratio"], g["b_score"], yerr=Z * g["b_score_se"], fmt="none",
                    ecolor=colour[matchup], alpha=0.6)
    ax.axhline(0.5, color="grey", ls="--", lw=1, label="50%")
    ax.axvline(1, color="grey", ls=":", lw=1, label="equal budget")
    done = frame[frame["even_ratio"].notna()]
    if len(done):  # each 50/50 point with its 95% interval (Monte Carlo and whole units)
        ax.errorbar(done["even_ratio"], [0.5] * len(done),
                    xerr=Z * done["even_se"] / done["a_upkeep"], fmt="x", color="black",
                    capsize=4, zorder=3, label="50/50 upkeep (95% interval)")
    ax.set_xlabel("budget ratio: the second entrant's upkeep / the first's")
    ax.set_ylabel("second entrant's win rate (undecided = half)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(f"Balance by upkeep: {frame.attrs['scenario']}"
                 + (" (PARTIAL)" if frame.attrs["partial"] else ""), fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax.figure
