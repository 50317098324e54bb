"""Oath: the decision before a campaign, as one small table (docs/rules.md, Oath decision).

Rows are the choices a player makes before committing: attack dice (warbands brought to
roll: 0 to all) and a sacrifice policy (Law of Oath: never, at-most:1, at-most:2,
as-needed; New Foundations: never and the commitment to-beat:25/50/75/100), plus the policy
given. Columns (exact): P(win), expected warbands lost, expected warbands lost per campaign
won (the expected cost of winning), P(win losing at most k) for every k. A `goal` marks the
best row: `max-win` (highest P(win); ties: fewer losses, fewer dice), `min-losses` (fewest
expected losses per win, among rows that can win), `win-within:K` (highest P(win losing at
most K warbands); ties: higher P(win), fewer losses).
"""
from __future__ import annotations

import numpy as np

from ...errors import OddsError
from ...i18n import _, decimal, percent

SACRIFICES = {"law": ("never", "at-most:1", "at-most:2", "as-needed"),
              "new-foundations": ("never", "to-beat:25", "to-beat:50", "to-beat:75",
                                  "to-beat:100")}
GOALS = "max-win, min-losses, win-within:K (K >= 0 warbands)"


def parse_goal(goal) -> tuple[str, int | None]:
    """(name, K) of a goal: 'max-win', 'min-losses' or 'win-within:K' (any case)."""
    text = goal.strip().lower() if isinstance(goal, str) else ""
    name, _sep, arg = text.partition(":")
    if text in ("max-win", "min-losses"):
        return text, None
    if name == "win-within" and arg.isdecimal():  # isdigit takes "²", which int refuses
        return name, int(arg)
    raise OddsError(_("goal: {goal} is not a goal (allowed: {goals})").format(goal=repr(goal), goals=GOALS))


def choices(warbands: int, edition: str, given: str) -> list:
    """(attack dice, sacrifice policy) of every row: the edition's policies and the one given."""
    policies = list(SACRIFICES[edition])
    if given.strip().lower() not in policies:
        policies.append(given.strip().lower())
    return [(n, s) for n in range(warbands + 1) for s in policies]


def row(n: int, sacrifice: str, joint: np.ndarray) -> dict:
    """One row from the campaign's exact joint[win, attacker losses, defender losses]."""
    win = float(joint[1].sum())
    losses = joint.sum(axis=(0, 2))
    expected = float(np.arange(len(losses)) @ losses)
    within = np.cumsum(joint[1].sum(axis=1))
    return {"attack_dice": n, "sacrifice": sacrifice, "attacker_win": win,
            "expected_attacker_losses": expected,
            "losses_per_win": expected / win if win > 0 else None,
            "win_within_losses": [float(p) for p in within]}


def within(r: dict, k: int) -> float:
    """P(win losing at most k warbands) of a row."""
    w = r["win_within_losses"]
    return w[min(k, len(w) - 1)]


def best(rows, goal) -> int:
    """Index of the best row for `goal` (see the module doc); probabilities compared to 1e-12."""
    name, k = parse_goal(goal)
    r12 = lambda x: round(x, 12)
    if name == "max-win":
        key = lambda r: (r12(r["attacker_win"]), -r12(r["expected_attacker_losses"]), -r["attack_dice"])
    elif name == "min-losses":
        key = lambda r: (r["losses_per_win"] is not None,
                         -r12(r["losses_per_win"] or 0.0), -r["attack_dice"])
    else:
        key = lambda r: (r12(within(r, k)), r12(r["attacker_win"]),
                         -r12(r["expected_attacker_losses"]))
    return max(range(len(rows)), key=lambda i: key(rows[i]))


def table_text(rows, goal, mark: int) -> list:
    """The table as lines of text, the best row marked."""
    name, k = parse_goal(goal)
    ks = (k,) if k is not None else (1, 2)
    names = [_("dice"), _("sacrifice"), _("P(win)"), _("E[losses]"), _("losses/win")]
    names += [_("P(win,<={j} lost)").format(j=j) for j in ks]
    w = [max(len(n), m) for n, m in zip(names, (4, 12, 7, 9, 10, *(15 for _j in ks)))]
    head = (f"  {names[0]:>{w[0]}}  {names[1]:<{w[1]}} {names[2]:>{w[2]}}  {names[3]:>{w[3]}}  "
            f"{names[4]:>{w[4]}}  " + "  ".join(f"{n:>{m}}" for n, m in zip(names[5:], w[5:])))
    lines = ["  " + _("decision table (exact), goal {goal}:").format(goal=goal), head]
    for i, r in enumerate(rows):
        per = "-" if r["losses_per_win"] is None else decimal(r["losses_per_win"], 2)
        lines.append(f"  {r['attack_dice']:>{w[0]}}  {r['sacrifice']:<{w[1]}} "
                     f"{percent(r['attacker_win'], 2):>{w[2]}}  "
                     f"{decimal(r['expected_attacker_losses'], 2):>{w[3]}}  {per:>{w[4]}}  "
                     + "  ".join(f"{percent(within(r, j), 2):>{m}}" for j, m in zip(ks, w[5:]))
                     + (_("   <- best") if i == mark else ""))
    return lines
