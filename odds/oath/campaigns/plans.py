"""Oath battle plans as composable modifiers of the campaign setup (docs/rules.md, Oath campaign).

A plan is a record: a name, how to read its argument, and `apply(setup, arg) -> setup` on an
immutable `Setup` (dice counts, the two dice's faces, the sacrifice cap). Plans apply in the
order given, then the `late` ones (Mounted Patrol halves the dice "after other plans").
`editions` says which rule sets the card text is checked for: the named cards are the
first-edition (Law of Oath) texts, the generic dice changes apply to both.

A new plan is a few lines:

    register(Plan("stone-skin", lambda s, _: replace(s, defense_dice=s.defense_dice + 3)))
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from ...i18n import _
from ...errors import OddsError
from .dice import ATTACK_DIE, DEFENSE_DIE, rewrite

EDITIONS = ("law", "new-foundations")
SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class Setup:
    """What the dice are after the plans. `sacrifice_cap` None: no limit from a plan."""

    attack_dice: int
    defense_dice: int
    attack_die: tuple = ATTACK_DIE
    defense_die: tuple = DEFENSE_DIE
    sacrifice_cap: int | None = None


def _no_arg(name, text):
    if text is not None:
        raise OddsError(_("plan: {name}:{text} takes no argument (use {plain})").format(
            name=name, text=text, plain=repr(name)))


def _signed(name, text):
    try:
        return int(text)
    except (TypeError, ValueError):
        raise OddsError(_("plan: {plan} needs a whole number of dice, e.g. {name}:+1 or {name}:-2").format(
            plan=name if text is None else f"{name}:{text}", name=name)) from None


def _side(name, text):
    if text not in SIDES:
        raise OddsError(_("plan: {name}:{text} needs a side (allowed: {name}:attacker, {name}:defender)"
                          ).format(name=name, text=text or ""))
    return text


@dataclass(frozen=True)
class Plan:
    name: str
    apply: Callable  # (Setup, arg) -> Setup
    parse: Callable = _no_arg  # (name, text or None) -> arg; raises OddsError
    late: bool = False
    editions: tuple = ("law",)
    help: str = ""
    args: tuple = ()  # the arguments a picker offers (a typed one may be any the parser takes)


PLANS: dict = {}


def register(plan: Plan) -> Plan:
    PLANS[plan.name] = plan
    return plan


def change_attack(s: Setup, n: int) -> Setup:
    """+/-n attack dice; each attack die removed that is not there adds a defense die."""
    missing = max(0, -n - s.attack_dice)
    return replace(s, attack_dice=max(0, s.attack_dice + n), defense_dice=s.defense_dice + missing)


def change_defense(s: Setup, n: int) -> Setup:
    """+/-n defense dice (never below 0)."""
    return replace(s, defense_dice=max(0, s.defense_dice + n))


def war_tortoise(s: Setup, side: str) -> Setup:
    """The chosen side's two-sword (attacker) or two-shield (defender) faces count 0.

    The skull on the attacker's two-sword face still kills: only the swords count 0.
    """
    if side == "attacker":
        return replace(s, attack_die=rewrite(s.attack_die, lambda f: f.swords == 2, swords=0))
    return replace(s, defense_die=rewrite(s.defense_die, lambda f: f.shields == 2, shields=0))


DICE = ("+1", "+2", "+3", "-1", "-2", "-3")
register(Plan("attack", change_attack, _signed, editions=EDITIONS, args=DICE,
              help="attack:+N / attack:-N dice (a missing attack die removed is a defense die)"))
register(Plan("defense", change_defense, _signed, editions=EDITIONS, args=DICE, help="defense:+N / defense:-N dice"))
register(Plan("rusting-ray",
              lambda s, _: replace(s, attack_die=rewrite(s.attack_die, lambda f: f.hollow, hollow=0)),
              help="hollow swords count 0"))
register(Plan("war-tortoise", war_tortoise, _side, args=SIDES,
              help="war-tortoise:attacker|defender: that side's two-sword / two-shield faces count 0"))
register(Plan("mounted-patrol", lambda s, _: replace(s, attack_dice=s.attack_dice // 2), late=True,
              help="the attacker rolls half its attack dice, rounded down, after other plans"))
register(Plan("vow-of-peace", lambda s, _: replace(s, sacrifice_cap=0), help="no sacrifice"))


def parse(spec: str, edition: str = "law"):
    """(Plan, arg) from 'NAME' or 'NAME:ARG', checked against the edition."""
    if not isinstance(spec, str):
        raise OddsError(f"plan: {spec!r} is not a plan name (allowed: {', '.join(PLANS)})")
    name, _sep, text = spec.strip().partition(":")
    plan = PLANS.get(name.lower())
    if plan is None:
        raise OddsError(_("plan: {name} is not a known plan (allowed: {plans})").format(
            name=repr(name), plans=", ".join(PLANS)))
    if edition not in plan.editions:
        raise OddsError(f"plan: {name!r} does not apply to edition {edition!r} "
                        f"(its editions: {', '.join(plan.editions)})")
    return plan, plan.parse(name, text if _sep else None)


def apply_plans(setup: Setup, specs, edition: str = "law") -> Setup:
    """`setup` after every plan in `specs` (names with optional ':ARG'), late plans last."""
    parsed = [parse(spec, edition) for spec in specs]
    for plan, arg in sorted(parsed, key=lambda pa: pa[0].late):
        setup = plan.apply(setup, arg)
    return setup
