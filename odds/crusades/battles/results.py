"""What crusades answers share: the Result type, the settings that produced it, and the
warnings for a run that tells nothing."""
from __future__ import annotations

import math

from ...core.result import Result
from ...core.outcomes import label
from ...i18n import N_, _, integer, ngettext, percent
from ..scenario import SIDES, Scenario


class BattleResult(Result):
    """A Result whose JSON also carries `battles` and each side's mean units lost, and is
    strict (null, never NaN)."""

    def to_json(self) -> dict:
        """Strict JSON: a number that is undefined (no battle completed) is null."""
        out = super().to_json()
        out["battles"] = self.trials
        for side in SIDES:
            if f"{side}_units_lost" in self.pmfs:
                out[f"{side}_mean_units_lost"] = self.expected(f"{side}_units_lost")
        return _finite(out)


def _finite(value):
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return None if isinstance(value, float) and not math.isfinite(value) else value


def settings_of(sc: Scenario) -> dict:
    """What produced the numbers: every rule setting, the policies, the siege, the army sizes."""
    out = dict(sc.settings)
    out["attacker_policy"], out["defender_policy"] = sc.policies
    siege = sc.siege
    out["siege"] = ((_("turn {turn}, attacker besieged, {port}") if siege["besieged"] == "attacker" else
                     _("turn {turn}, defender besieged, {port}")).format(
        turn=siege["turn"], port=_("port") if siege["port"] else _("no port"))) if siege["on"] else "off"
    eng = sc.engaged()
    out["engaged"] = f"{int(eng[0].sum())} v {int(eng[1].sum())}"
    out["scenario"] = sc.title
    return out


def degenerate(res: Result) -> list:
    """Warnings for a run that tells nothing: every battle ended the same way, or no setting
    changed the answer of a sensitivity run."""
    if not res.trials or res.trials < 2:
        return []
    if res.procedure == "crusades.sensitivity":
        if not res.partial and all(v == res.p for v in res.probabilities.values()):
            return [_("no rule setting changes P(attacker wins) ({p}) in this scenario").format(
                p=percent(res.p, 1))]
        return []
    sure = [k for k, v in res.probabilities.items() if v == 1 and k in
            ("attacker_win", "defender_win", "undecided", "holds", "falls_by_assault",
             "capitulates", "lifted_by_sortie", "besieger_destroyed")]
    what = ngettext("{n} siege", "{n} sieges", res.trials) if res.procedure == "crusades.siege" \
        else ngettext("{n} battle", "{n} battles", res.trials)
    return [_("degenerate scenario: all {what} ended '{outcome}' (100%, no uncertainty): {why}").format(
        what=what.format(n=integer(res.trials)), outcome=label(k), why=cause(res)) for k in sure]


def cause(res: Result) -> str:
    """Why every battle ended alike, as far as the result tells: how they ended (the turn
    limit, a headquarters, a rout) and the forces engaged; else the general advice."""
    p, settings = res.probabilities, res.settings
    engaged = _(" (engaged: {forces})").format(forces=settings["engaged"]) if "engaged" in settings else ""
    if p.get("ended_by_turn_limit") == 1:
        return _("every battle reached the turn limit (turn_limit={limit}) with both sides "
                 "standing: raise rules.turn_limit, or deploy the armies closer").format(
            limit=settings.get("turn_limit"))
    if p.get("ended_by_headquarters") == 1:
        return _("every battle ended with a headquarters taken: check board.attacker_hq and "
                 "board.defender_hq (the defaults are the middle of each edge row) against the "
                 "deployment rows{engaged}").format(engaged=engaged)
    if p.get("ended_by_rout") == 1:
        routed = (N_("the defender was routed in every battle{engaged}: check the armies' sizes "
                     "and units") if p.get("attacker_win") == 1 else
                  N_("the attacker was routed in every battle{engaged}: check the armies' sizes "
                     "and units"))
        return _(routed).format(engaged=engaged)
    return _("check the armies and settings{engaged}").format(engaged=engaged)


def with_warnings(res: Result) -> Result:
    """The Result with `degenerate` warnings added to its notes."""
    return res.with_changes(notes=tuple(res.notes) + tuple(_("warning: {warning}").format(warning=w)
                                                           for w in degenerate(res)))
