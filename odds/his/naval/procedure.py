"""Naval combat (docs/rules.md, Naval combat): Virgin Queen fleets (`vq`) and the Here I Stand variant (`his`):
`naval_battle()`, its keywords and its two specs.

The modules beside it: naval/ruleset.py (the rule sets as data), naval/fleets.py (the fleets
and the battle after the cards), naval/rules.py (the casualty rule, numpy only),
naval/exact.py (the exact engine), naval/result.py (summary and result), naval/kernel.py.

Casualties, our reading of the casualty step (docs/rules.md, Naval combat), for the hits H
taken by a side with S ships (galleys, galleons, race-built or squadrons) and C corsairs,
with k hits per ship:
1. English race-built galleons in an Atlantic sea zone (not a port) first cancel one enemy
   hit rolled as a 5 each: H = hits - min(race-built, enemy fives). The winner is decided on
   the uncancelled hits.
2. Ships: min(S, H // k) ships sink.
3. If that sank every ship, each hit left sinks one corsair (hits_per_corsair each), the
   odd hit included, win or lose; further hits are lost.
4. Otherwise a left-over hit (H mod k > 0) sinks one more ship if the side lost the battle
   and is ignored if it won.
5. Both sides destroyed (no ship and no corsair left): the side that rolled more dice (card
   dice included) keeps one unit, a ship if it had any, else a corsair; equal dice: the
   defender.

Post-roll cards resolve in order, the attacker's before the defender's; `if-needed` plays a
card only when its side would not win as the dice stand at that moment.

Outcome joint: ``joint[code, attacker ships lost, defender ships lost, attacker corsairs
lost, defender corsairs lost]``, bit 0 of `code` "the attacker won", bit 1 "both sides were
destroyed and the rule gave one side a unit back". The exact engine (naval/exact.py) and the
kernel (naval/kernel.py) fill the same joint.
"""
from __future__ import annotations

from ...core.engine import McOptions, Procedure, solve
from ...core.outcomes import Words
from ...core.readings import Reading
from ...errors import OddsError, check_bool, check_choice
from ...i18n import _, card_name, npgettext, pgettext
from ...registry import Example, Param, Spec, register
from .. import leaders
from ..cards import help_for, only_with, parse
from ..leaders import MAX_LEADER, Leader
from .exact import exact_joint
from .fleets import MAX_SHIPS, Battle, Fleet, setup
from .result import NavalResult, summarise
from .ruleset import CORSAIR, HIT, LEADER, PORT, RULESETS, Ruleset, _dice_items, at_sea, get_ruleset
from .cost import cost as naval_cost

MAX_NAVAL_DICE = 300  # dice one side rolls in a naval combat, cards included (~3 s exact)
LOCATIONS = ("mediterranean", "atlantic")
WORDS = Words(within={"defender_retreats": ("attacker_win",)}, why={
    "both_destroyed_rule": "both fleets destroyed: the side that rolled more dice kept one ship, "
                           "the defender on equal dice"})


def _assumptions(*fleets) -> tuple:
    """What a naval answer rests on beside its readings (VQ_READINGS): the leaders' table."""
    return (_(leaders.ASSUMPTION),) if any(f.leader_name for f in fleets) else ()


def _typed_dice(call: dict) -> list:
    """The call's dice_per as 'TYPE=N' items (none when malformed: the call refuses it)."""
    try:
        return [f"{k}={v}" for k, v in _dice_items(call["dice_per"])]
    except OddsError:
        return []


def _open(call: dict) -> list:
    """The ship types (and corsairs) of this battle whose dice the call left to the ruleset."""
    typed = {item.split("=")[0].split("@")[0] for item in _typed_dice(call)}
    counts = {kind: sum(call.get(f"{side}_{keyword}") or 0 for side in ("attacker", "defender"))
              for kind, keyword in (("galley", "galleys"), ("galleon", "galleons"),
                                    ("race_built", "race_built"), (CORSAIR, "corsairs"))}
    return [k for k, n in counts.items() if n and k not in typed]


def _ship_dice(call: dict) -> list:
    """Each open ship type at 1 and 3 dice a ship, corsairs at 2."""
    tried = {CORSAIR: (2,)}
    return [(f"dice_per {k}={n}", {"dice_per": _typed_dice(call) + [f"{k}={n}"]})
            for k in _open(call) for n in tried.get(k, (1, 3))]


def _galleasses(call: dict) -> bool:
    return (any(str(c).lower().startswith("galleasses") for side in ("attacker", "defender")
                for c in call.get(f"{side}_cards") or ())
            and "galleasses" not in {item.split("=")[0] for item in _typed_dice(call)})


VQ_READINGS = (
    Reading("dice_per", "the Virgin Queen dice per ship", "2 per galley, galleon and race-built "
            "galleon, 1 per corsair, +1 in a port", "the sources omit the Virgin Queen's table: "
            "the Here I Stand numbers (docs/rules.md, Naval combat)", keywords=("dice_per",),
            when=lambda call: bool(_open(call)), given_by=lambda call, given: False,
            points=_ship_dice, tried="each ship type in the battle at 1 and 3 dice a ship "
            "(unless dice_per gives it), corsairs at 2",
            shown=lambda call: ", ".join(f"{k} {RULESETS['vq'].dice_per[k]}" for k in _open(call))),
    Reading("galleasses", "Galleasses' dice", "3 dice hitting on 5-6", "the card gives \"a chance "
            "of additional hits\"; read as 3 dice hitting on 5-6", keywords=("dice_per",),
            marks=("dice_per",), when=_galleasses, given_by=lambda call, given: False,
            shown=lambda call: 3,
            points=lambda call: [(f"dice_per galleasses={n}", {"dice_per": _typed_dice(call) + [
                f"galleasses={n}"]}) for n in (2, 4)], tried="2 or 4 dice"),
)


def _kernel_args(b):
    from .kernel import kernel_args

    return kernel_args(b)


def naval_battle(*, attacker_galleys=0, attacker_galleons=0, attacker_race_built=0,
                 attacker_squadrons=0, attacker_corsairs=0, attacker_leader=0,
                 attacker_power="other", attacker_cards=(),
                 defender_galleys=0, defender_galleons=0, defender_race_built=0,
                 defender_squadrons=0, defender_corsairs=0, defender_leader=0,
                 defender_power="other", defender_cards=(),
                 location="mediterranean", port=False, ruleset="vq", dice_per=None,
                 hit_on=None, hits_per_ship=None, hits_per_corsair=None,
                 method="auto", trials=None, seed=None, precision=None, max_trials=10**9,
                 threads=None, progress=None):
    """Odds of a Virgin Queen (`ruleset="vq"`) or Here I Stand (`"his"`) naval combat.

    Counts of ships per type (vq: galleys, galleons, race-built galleons; his: squadrons) and
    corsairs (Ottomans only); leaders are the best naval rating; cards are names with
    ':always' or ':if-needed' for those played after the roll. `location` is the sea zone
    (or the zone of the port, with `port=True`). `dice_per` ({"galley": 1} or ["galley=1"])
    overrides dice per ship type, corsair, port bonus or card; `hit_on` ({"race_built": 4}:
    race-built galleons hit on 4-6; {"attacker_galley": 6}: the attacker's galleys on 6s
    only) the number a ship type's, corsair's, port's, leader's or card's dice hit on, for
    both sides or one (default 5, a card's own). Returns a Result:
    attacker_win, attacker/defender_destroyed (leaders to the turn track), both_destroyed_rule,
    attacker/defender_retreats, and pmfs of ships and of corsairs each side loses.
    """
    location = check_choice("location", location, LOCATIONS)
    rules = get_ruleset(ruleset).override(at_sea(dice_per, location, LOCATIONS), hits_per_ship,
                                          hits_per_corsair, at_sea(hit_on, location, LOCATIONS, "hit_on"))
    port = check_bool("port", port)
    att = Fleet.make("attacker", rules, {"galley": attacker_galleys, "galleon": attacker_galleons,
                                         "race_built": attacker_race_built,
                                         "squadron": attacker_squadrons},
                     attacker_corsairs, attacker_leader, attacker_power, attacker_cards)
    dfn = Fleet.make("defender", rules, {"galley": defender_galleys, "galleon": defender_galleons,
                                         "race_built": defender_race_built,
                                         "squadron": defender_squadrons},
                     defender_corsairs, defender_leader, defender_power, defender_cards)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    b = setup(att, dfn, rules, location, port)
    for side, dice, after in (("attacker", b.a_dice, b.a_after), ("defender", b.d_dice, b.d_after)):
        total = dice + sum(c.count for c in after)
        if total > MAX_NAVAL_DICE:
            raise OddsError(f"{side}: {total} dice with cards (allowed: at most {MAX_NAVAL_DICE} "
                            "per side; fewer ships or fewer dice_per)")
    settings = {"ruleset": rules.name, "location": location, "port": port,
                "attacker_power": att.power, "defender_power": dfn.power,
                "attacker_leader": str(Leader(att.leader, att.leader_name)),
                "defender_leader": str(Leader(dfn.leader, dfn.leader_name)),
                "attacker_cards": list(att.cards), "defender_cards": list(dfn.cards),
                "attacker_dice": b.a_dice, "defender_dice": b.d_dice, **rules.numbers()}
    cards = [("attacker", c.card) for c in b.a_after] + [("defender", c.card) for c in b.d_after]
    proc = Procedure(f"{rules.name}.naval", b.shape, lambda j: summarise(j, port, cards),
                     "attacker_win",
                     lambda: exact_joint(b), ("odds.his.naval.kernel", "naval_lane"),
                     lambda: _kernel_args(b), settings, NavalResult, _assumptions(att, dfn),
                     notes=sum((leaders.power_note(f.leader_name, f.power, leaders.NAVAL)
                                for f in (att, dfn)), ()),
                     explain=explain(b, rules, att, dfn, port), cost=lambda: naval_cost(b), words=WORDS)
    return solve(proc, method, mc)


def explain(b: Battle, rules: Ruleset, att: Fleet, dfn: Fleet, port: bool) -> tuple:
    """The dice each side rolls and why, in words."""
    lines = []
    for fleet, dice, after in ((att, b.a_dice, b.a_after), (dfn, b.d_dice, b.d_after)):
        on = lambda kind: {5: "", 6: _(" on 6s")}.get(rules.hit(fleet.side, kind), _(" on {n}-6").format(
            n=rules.hit(fleet.side, kind)))
        words = [_("{n} {ship} x {dice}").format(n=n, ship=card_name(kind).replace("_", "-"),
                                                 dice=rules.dice_per[kind]) + on(kind)
                 for kind, n in fleet.ships.items() if n]
        words += [_("{n} corsairs").format(n=fleet.corsairs) + f" x {rules.dice_per[CORSAIR]}{on(CORSAIR)}"] if fleet.corsairs else []
        leader = pgettext("vq", "leader") if rules.name == "vq" else _("leader")
        words += [f"{leader} {card_name(fleet.leader_name or '')} {fleet.leader}{on(LEADER)}".replace("  ", " ")] if fleet.leader else []
        words += [f"{_('port')} {rules.dice_per[PORT]}{on(PORT)}"] if port and fleet.side == "defender" else []
        words += [f"{card_name(c)} {rules.dice_per[c]}{on(c)}" for c in fleet.cards if parse(c, "")[0].timing != "after"]
        game = rules.name if rules.name in ("his", "vq") else "his"
        n_dice = (npgettext("vq", "{n} die", "{n} dice", dice) if game == "vq" else
                  npgettext("his", "{n} die", "{n} dice", dice)).format(n=dice)
        text = _("{role} rolls {dice}").format(role=_(fleet.side), dice=f"{n_dice}: " + " + ".join(words))
        for card in after:
            count = (npgettext("vq", "{n} die", "{n} dice", card.count) if game == "vq" else
                     npgettext("his", "{n} die", "{n} dice", card.count)).format(n=card.count)
            text += _("; then {card} ({dice}) {policy}").format(
                card=card_name(card.card), dice=count + on(card.card), policy=_(card.policy.replace("-", " ")))
        lines.append(text)
    return tuple(lines)


SHIP_KEYWORDS = {"vq": ("galleys", "galleons", "race_built"), "his": ("squadrons",)}
SHIP_HELP = {"galleys": "galleys", "galleons": "galleons",
             "race_built": "race-built galleons (England only)", "squadrons": "naval squadrons"}


def _cards_only_with(ruleset: str, side: str) -> dict:
    """Param.only_with of a side's naval cards: by power (cards.only_with), Galleasses in the
    Mediterranean only (Virgin Queen)."""
    rules = RULESETS[ruleset]
    out = dict(only_with("naval", rules.cards, side, rules.powers))
    if "galleasses" in rules.cards and ruleset == "vq":
        out["galleasses"] = tuple({**way, "location": ("mediterranean",)}
                                  for way in out.get("galleasses", ({},)))
    return out


def naval_params(ruleset: str) -> tuple:
    """The keywords of a naval combat under `ruleset`: ships by type, corsairs, leader, power,
    cards per side, then the place and the ruleset's numbers."""
    rules = RULESETS[ruleset]
    out = []
    for side in ("attacker", "defender"):
        out += [Param(f"{side}_{kind}", "int", f"{side}'s {SHIP_HELP[kind]}", low=0,
                      high=MAX_SHIPS, metavar="N") for kind in SHIP_KEYWORDS[ruleset]]
        out += [Param(f"{side}_corsairs", "int", "corsairs (Ottoman only)", low=0, high=MAX_SHIPS,
                      metavar="N"),
                Param(f"{side}_leader", "leader", "the best naval leader: a rating (0: none) or "
                      "a name", low=0, high=MAX_LEADER, choices=leaders.choices(leaders.NAVAL),
                      metavar="R|NAME"),
                Param(f"{side}_power", "choice", "the major power", choices=rules.powers,
                      metavar="POWER"),
                Param(f"{side}_cards", "cards", f"a card the {side} plays, repeatable: "
                      f"{help_for('naval', rules.cards)}", choices=rules.cards, flag=f"{side}-card",
                      metavar="CARD[:POLICY]", only_with=_cards_only_with(ruleset, side))]
    if ruleset == "vq":
        out.append(Param("location", "choice", "the sea zone (or the zone of the port); the "
                         "command line asks for it, since Galleasses and race-built galleons "
                         "depend on it", choices=LOCATIONS, cli={"required": True}))
    return tuple(out) + (
        Param("port", "bool", "the battle is in a port (the defender's bonus die; the attacker "
              "retreats)"),
        Param("dice_per", "pairs", "dice per ship type, corsair, port bonus or card, "
              "repeatable (a number for one sea only: e.g. galley@atlantic=1): "
              + ", ".join(f"{k}={v}" for k, v in rules.dice_per.items()),
              metavar="TYPE=N"),
        Param("hit_on", "pairs", "the number a die hits on (N: N-6), per ship type, corsair, "
              "port, leader or card, for both sides or one (attacker_TYPE=N, defender_TYPE=N), "
              "in one sea only (e.g. galley@atlantic=6), "
              "repeatable: " + ", ".join(f"{k}={rules.card_hit_on.get(k, HIT)}" for k in (
                  *rules.ships, CORSAIR, PORT, LEADER, *rules.cards)), metavar="TYPE=N"),
        Param("hits_per_ship", "int", f"hits that sink a ship (default {rules.hits_per_ship})",
              low=1, high=20, metavar="K"),
        Param("hits_per_corsair", "int", f"hits that sink a corsair (default "
              f"{rules.hits_per_corsair})", low=1, high=20, metavar="K"))


def _omitted(ruleset: str) -> tuple:
    others = {k for r, kinds in SHIP_KEYWORDS.items() if r != ruleset for k in kinds}
    return tuple(f"{side}_{k}" for side in ("attacker", "defender") for k in sorted(others)) + \
        (("location",) if ruleset == "his" else ())


VQ_SPEC = register(Spec(
    "vq.naval", naval_battle, naval_params("vq"), "naval combat (Virgin Queen fleets)",
    ("vq", "naval"), "attacker_win", kernels=("odds.his.naval.kernel",), preset={"ruleset": "vq"},
    readings=VQ_READINGS,
    rolled="odds.his.naval.rolled:read",
    omit=_omitted("vq"), start={"attacker_galleys": 3, "defender_galleys": 3},
    examples=(
        Example("race-built atlantic", dict(attacker_race_built=3, attacker_leader=1,
                                            attacker_power="england", defender_galleons=4,
                                            defender_power="spain", location="atlantic"),
                "Virgin Queen naval combat in the Atlantic: 3 English race-built galleons + "
                "leader 1 attack 4 Spanish galleons", demo=True),
        Example("4v4 galleys", dict(attacker_galleys=4, defender_galleys=4,
                                    location="mediterranean")),
        Example("race-built mixed", dict(attacker_race_built=3, attacker_galleons=1,
                                         attacker_leader=1, attacker_power="england",
                                         defender_galleons=3, defender_galleys=2,
                                         location="atlantic")),
        Example("race-built both sides, cards", dict(
            attacker_race_built=2, attacker_power="england", defender_race_built=1,
            defender_galleons=1, defender_power="england", location="atlantic",
            defender_cards=["arquebusiers"])),
        Example("galleasses port", dict(attacker_galleys=3, defender_galleys=2,
                                        defender_corsairs=2, defender_power="ottoman", port=True,
                                        defender_cards=["galleasses:always"],
                                        location="mediterranean")),
    ), words=WORDS))

HIS_SPEC = register(Spec(
    "his.naval", naval_battle, naval_params("his"), "naval combat (squadrons and corsairs)",
    ("his", "naval"), "attacker_win", kernels=("odds.his.naval.kernel",),
    preset={"ruleset": "his"}, omit=_omitted("his"), rolled="odds.his.naval.rolled:read",
    start={"attacker_squadrons": 3, "defender_squadrons": 3},
    examples=(
        Example("ottoman port", dict(attacker_squadrons=3, attacker_leader=1, defender_squadrons=2,
                                     defender_corsairs=2, defender_power="ottoman",
                                     defender_cards=["janissaries:if-needed"], port=True),
                "Here I Stand naval combat: 3 squadrons + leader 1 attack 2 Ottoman squadrons "
                "+ 2 corsairs in port (Janissaries if needed), Monte Carlo", demo=True,
                mc={"method": "mc", "seed": 1}),
        Example("ottomans lose all ships", dict(attacker_squadrons=5, attacker_leader=2,
                                                defender_squadrons=1, defender_corsairs=4,
                                                defender_power="ottoman",
                                                defender_cards=["janissaries:if-needed"],
                                                attacker_cards=["professional-rowers:if-needed"])),
        Example("corsairs only, both destroyed", dict(attacker_corsairs=2,
                                                      attacker_power="ottoman",
                                                      defender_squadrons=1)),
    ), words=WORDS))
