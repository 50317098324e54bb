"""What to do, in words: the decision a result implies, read from the exact engines.

`siege(chain, timings)`: one held Siege Artillery (sieges/timing.py). First one short sentence
for the decision in front of the player (after the first roll: "Now: play ..." / "Now: keep
..."), then how much the optimal rule raises P(captured within K) over never playing the copy,
then the rule for every assault and situation (a cell that plays in some cases and keeps in
others is told by the forces the roll leaves: yours and the defenders'), and the timings that
tie on P(captured) but differ on the card kept or the losses.
`field_or_siege(...)`: a card that may be played in the field battle or in the siege's first
assault (Landsknechts, Swiss Mercenaries): the whole attack both ways, side by side.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from ...i18n import N_, _, card_name, decimal, ngettext, percent
from ..assaults.rules import resolve
from ..cards import dice as dice_words
from .timing import CARD, SITUATIONS, exact_joint, optimal_table

TIE = 1e-9  # P(captured) closer than this is a tie (the engines agree to ~1e-15)
WHEN = {SITUATIONS[0]: N_("if the roll already takes the space"),
        SITUATIONS[1]: N_("if the roll falls short and its {dice} can still win"),
        SITUATIONS[2]: N_("if the roll falls short and even its {dice} cannot win")}
WHY = {(SITUATIONS[0], "keep"): N_("it is not needed"),
       (SITUATIONS[1], "keep"): N_("playing it now does not raise P(captured)"),
       (SITUATIONS[2], "play"): N_("its hits still weaken the defenders for the next assault"),
       (SITUATIONS[2], "keep"): N_("playing it now does not raise P(captured)")}


def when(situation) -> str:
    """When a cell's rule applies, in words (the card's dice counted)."""
    return _(WHEN[situation]).format(dice=dice_words(CARD.count))


def never_played(chain) -> float:
    """P(captured) with the copy held but never played (the siege without the card)."""
    joint = exact_joint(chain, lambda k, state: np.zeros(len(chain.rows(k, state)[2]), bool))
    return float(joint[0].sum())


def cells(chain) -> dict:
    """(assault, situation) -> {(yours left, defenders left after the roll, card not counted):
    set of decisions (True: play)} over every state and roll the optimal rule decides at."""
    seen = defaultdict(lambda: defaultdict(set))
    for (k, state), best in optimal_table(chain)[0].items():
        ah, dh, pr, able, fail, helps = chain.rows(k, state)
        ua, ud = state[0] + state[1], state[2] + state[3]
        _, al, dl = resolve(ah, dh, ua, ud)
        situation = np.where(~fail, 0, np.where(helps, 1, 2))
        for i in np.flatnonzero(able & (pr > 0)):
            left = (ua - int(al[i]), ud - int(dl[i]))
            seen[(k, SITUATIONS[situation[i]])][left].add(bool(best[i]))
    return seen


def _ranges(values) -> str:
    """'1-3, 5' for {1, 2, 3, 5}."""
    values, out = sorted(values), []
    start = prev = values[0]
    for v in values[1:] + [None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        out.append(f"{start}" if start == prev else f"{start}-{prev}")
        start = prev = v
    return ", ".join(out)


def _forces(pairs) -> str:
    """'4-7 of yours against 1 defender or 0 against 2-4 defenders' for (yours, defenders)
    pairs: neighbouring defender counts with the same units of yours are named together."""
    by_defenders = defaultdict(set)
    for yours, defenders in pairs:
        by_defenders[defenders].add(yours)
    groups = []  # (units of yours, [defender counts])
    for d, yours in sorted(by_defenders.items()):
        if groups and groups[-1][0] == yours and groups[-1][1][-1] == d - 1:
            groups[-1][1].append(d)
        else:
            groups.append((yours, [d]))
    return _(" or ").join(
        (_("{yours} of yours against {defenders}") if i == 0 else _("{yours} against {defenders}")).format(
            yours=_ranges(yours), defenders=ngettext("{n} defender", "{n} defenders", 1 if ds == [1] else 2
                                                     ).format(n=_ranges(ds)))
        for i, (yours, ds) in enumerate(groups))


def split(decisions: dict):
    """(pairs played, pairs kept, pairs where both happen) of one cell."""
    play = {pair for pair, got in decisions.items() if got == {True}}
    keep = {pair for pair, got in decisions.items() if got == {False}}
    return play, keep, set(decisions) - play - keep


def cell(situation, decisions: dict, last: bool) -> str:
    """What the optimal rule does in one (assault, situation) cell, in words."""
    play, keep, mixed = split(decisions)
    if not keep and not mixed:
        why = WHY.get((situation, "play"))
        return _("{when}, play it").format(when=when(situation)) + (f" ({_(why)})" if why else "")
    if not play and not mixed:
        why = N_("there is no next assault") if last and situation == SITUATIONS[2] else WHY.get(
            (situation, "keep"))
        return _("{when}, keep it").format(when=when(situation)) + (f" ({_(why)})" if why else "")
    # told by the forces the roll leaves: the shorter list, the other side 'otherwise'
    told = (_("{when}, play it when the roll leaves {forces}, else keep it") if len(play) <= len(keep)
            else _("{when}, keep it when the roll leaves {forces}, else play it"))
    text = told.format(when=when(situation), forces=_forces(play if len(play) <= len(keep) else keep))
    if mixed:
        text += _(" (with {forces} left it also depends on the cavalry and the forces "
                  "at the roll)").format(forces=_forces(mixed))
    return text


def assault_rules(chain, seen) -> list:
    """([assaults], sentence): one per assault, consecutive assaults with the same rule merged."""
    said = []
    for k in range(chain.assaults):
        parts = [cell(s, seen[(k, s)], k == chain.assaults - 1) for s in SITUATIONS
                 if seen.get((k, s)) and (s, _kind(seen[(k, s)])) != (SITUATIONS[0], "keep")]
        text = "; ".join(parts) if parts else (
            _("keep it (it is not needed)") if seen.get((k, SITUATIONS[0])) else
            _("the copy is never in hand here"))
        if said and said[-1][1] == text:
            said[-1][0].append(k + 1)
        else:
            said.append(([k + 1], text))
    return said


def _kind(decisions) -> str:
    """'play', 'keep', 'mixed' or '' (the cell does not arise)."""
    if not decisions:
        return ""
    play, keep, mixed = split(decisions)
    return "play" if not keep | mixed else "keep" if not play | mixed else "mixed"


SHORT = 25  # words: the first sentence is read at the table


def now(seen) -> str:
    """The first sentence: what to do with the card after the first roll, under SHORT words
    (where the optimal rule's exceptions would make it longer, they stay in the list below)."""
    can, cannot = (seen.get((0, s), {}) for s in SITUATIONS[1:])
    kinds = (_kind(can), _kind(cannot))
    dice = dice_words(CARD.count)
    if kinds in (("play", "play"), ("play", ""), ("", "play")):
        return _("Now: play Siege Artillery if this roll leaves you short.")
    if kinds[0] == "play":
        return _("Now: play Siege Artillery if this roll leaves you short and its {dice} can "
                 "still win.").format(dice=dice)
    if kinds[0] == "mixed":
        play, keep, mixed = split(can)
        told = (_("Now: play Siege Artillery if this roll leaves you short, unless it leaves "
                  "{forces}.").format(forces=_forces(keep | mixed)) if len(keep | mixed) <= len(play)
                else _("Now: play Siege Artillery if this roll leaves you short and {forces}.").format(
                    forces=_forces(play)))
        return told if len(told.split()) < SHORT else (
            _("Now: play Siege Artillery if this roll leaves you short, except as listed below."))
    if kinds[1] in ("play", "mixed"):
        return _("Now: keep Siege Artillery, unless this roll falls short and even its {dice} "
                 "cannot win.").format(dice=dice)
    return _("Now: keep Siege Artillery (play it in a later assault, as below).")


def ties(timings) -> list:
    """Sentences for timings that tie on P(captured) but differ on the card kept or losses."""
    out, rows = [], sorted(timings, key=lambda r: -r["captured"])
    groups = []
    for r in rows:
        if groups and abs(groups[-1][0]["captured"] - r["captured"]) < TIE:
            groups[-1].append(r)
        else:
            groups.append([r])
    for group in groups:
        if len(group) < 2:
            continue
        kept = {round(r["card_kept"], 9) for r in group}
        losses = {round(r["expected_attacker_losses"], 9) for r in group}
        if len(kept) == 1 and len(losses) == 1:
            continue
        names = [r["timing"] for r in group]
        text = _("{names} and {last} tie at P(captured) {p} but differ: card kept {kept}; "
                 "expected losses {losses}").format(
            names=", ".join(names[:-1]), last=names[-1], p=percent(group[0]["captured"], 2),
            kept=", ".join(f"{percent(r['card_kept'], 2)} ({r['timing']})" for r in group),
            losses=", ".join(f"{decimal(r['expected_attacker_losses'], 2)} ({r['timing']})"
                             for r in group))
        out.append(text)
    return out


def siege(chain, timings) -> tuple:
    """The held copy's advice in words (see the module doc); `timings` as siege_timing.compare."""
    best = next(r for r in timings if r["timing"] == "optimal")
    never = never_played(chain)
    seen = cells(chain)
    if best["captured"] - never < TIE:
        return (_("Keep Siege Artillery: playing it does not raise P(captured) ({p}).").format(
            p=percent(never, 2)), *ties(timings))
    lines = [now(seen), _("The rule below raises P(captured within {k}) from {never} (never "
                          "played) to {best}, for {losses} units lost on average.").format(
        k=chain.assaults, never=percent(never, 2), best=percent(best["captured"], 2),
        losses=decimal(best["expected_attacker_losses"], 2))]
    for ks, text in assault_rules(chain, seen):
        which = (_("assault {k}").format(k=ks[0]) if len(ks) == 1 else
                 _("assaults {first}-{last}").format(first=ks[0], last=ks[-1]))
        lines.append(f"{which}: {text}")
    return tuple(lines + ties(timings))


def field_or_siege(card: str, in_field, in_siege) -> str:
    """Whether to play `card` in the field battle or keep it for the siege's first assault,
    from the attack's results both ways (the better P(captured); a tie: the fewer losses)."""
    code = card.partition(":")[0]
    card = card_name(code) if card_name(code) != code else code.replace("-", " ").title()
    pf, ps = in_field.p, in_siege.p
    lf, ls = in_field.expected("attacker_losses"), in_siege.expected("attacker_losses")
    both = _("P(captured) {field} played in the field battle, {siege} kept for the siege; "
             "expected losses {lf} and {ls}").format(field=percent(pf, 2), siege=percent(ps, 2),
                                                     lf=decimal(lf, 2), ls=decimal(ls, 2))
    if abs(pf - ps) < TIE and abs(lf - ls) < TIE:
        return _("{card}: the same either way: {both}").format(card=card, both=both)
    if abs(pf - ps) < TIE:
        return (_("{card}: the same P(captured) either way; play it in the field battle (fewer "
                  "losses): {both}") if lf < ls else
                _("{card}: the same P(captured) either way; keep it for the siege (fewer losses): "
                  "{both}")).format(card=card, both=both)
    if pf > ps:
        return _("Play {card} in the field battle: {both}").format(card=card, both=both)
    return _("Keep {card} for the siege: {both}").format(card=card, both=both)
