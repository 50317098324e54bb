"""Here I Stand / Virgin Queen cards as data.

A card is a record: when it is played (`before` the dice are counted, as a `combat` card, or
`after` the roll), where it may be played, who may play it, and what it does to the battle
setup. Cards played after the roll add dice groups and carry a policy: `always`, or
`if-needed` (only when the player's side would not otherwise get what it wants; each
procedure says what that is). Each card exists once in the deck, so a card may be named once
per battle.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .. import i18n
from ..errors import OddsError, nearest
from ..i18n import as_setting, native

POLICIES = ("always", "if-needed")
DEFAULT_POLICY = "if-needed"  # a player holding an after-roll card plays it when it is needed
TIMINGS = ("before", "combat", "after")
NO_CARD, ALWAYS, IF_NEEDED = 0, 1, 2  # policy codes the engines read
POLICY_CODES = {"always": ALWAYS, "if-needed": IF_NEEDED}  # for the kernels


def plays(policy, needed):
    """Whether an after-roll card is played: policy code (NO_CARD, ALWAYS, IF_NEEDED) and whether
    its side needs it as the dice stand (bools or bool arrays; the kernels compile it too)."""
    return (policy == ALWAYS) | ((policy == IF_NEEDED) & needed)


@dataclass
class Side:
    """One side's battle setup while cards are applied (mutable; a procedure builds it)."""

    role: str  # "attacker" / "defender"
    power: str
    units: int
    mercenaries: int
    cavalry: int
    dice: int = 0  # dice hitting on `hit_on` beyond one per unit: leader, defender's die, cards
    extra: list = field(default_factory=list)  # further (count, threshold) groups from cards
    penalty: int = 0  # dice removed (Tercios against a Hapsburg force)
    surprise: bool = False
    after: list = field(default_factory=list)  # AfterRoll entries, in play order
    notes: list = field(default_factory=list)  # what a card did not do, in words
    parts: list = field(default_factory=list)  # (why, dice) of every change to the dice
    hit_on: int = 5  # the number the main roll's dice hit on (a field battle's setting)

    @property
    def regulars(self) -> int:
        return self.units - self.mercenaries - self.cavalry

    def add_dice(self, why: str, n: int):
        """`n` more dice hitting on 5-6 (fewer if negative), recorded with the reason."""
        if n:
            self.dice += n
            self.parts.append((why, n))

    def story(self, rolled: str) -> str:
        """The dice this side rolls and why, in words: `rolled` says the main roll's dice."""
        _ = i18n._
        on = "" if self.hit_on == 5 else (_(" (hitting on {n}-6)") if self.hit_on < 6 else
                                          _(" (hitting on {n}s)")).format(n=self.hit_on)
        words = [rolled + on] + [f"{'+' if n > 0 else '-'} {i18n.card_name(_(why))} {abs(n)}"
                                 for why, n in self.parts]
        words += [_("+ tercios {dice} on {t}-6").format(dice=dice(n), t=t) for n, t in self.extra]
        text = _("{role} rolls {dice}").format(role=_(self.role), dice=" ".join(words))
        for card in self.after:
            text += _("; then {card} ({dice}) {policy}").format(
                card=i18n.card_name(card.card), dice=dice(card.count), policy=_(card.policy.replace("-", " ")))
        return text

    def add_mercenaries(self, n: int):
        self.units += n
        self.mercenaries += n


@dataclass(frozen=True)
class AfterRoll:
    """Dice a card adds after both rolls, with the policy deciding whether it is played."""

    card: str
    count: int
    threshold: int
    policy: str


ROLES = ("attacker", "defender")
N_ = i18n.N_
WHY = (N_("leader"), N_("defending"), N_("tercios against it"), N_("if needed"), N_("always"),
       N_("attacker"), N_("defender"))  # the words of a side's story, translated where it is told


def dice(n: int) -> str:
    """'5 dice' in Here I Stand's words («5 костей»)."""
    return i18n.npgettext("his", "{n} die", "{n} dice", n).format(n=n)


def units(n: int) -> str:
    """'5 units' in Here I Stand's words («5 отрядов»)."""
    return i18n.npgettext("his", "{n} unit", "{n} units", n).format(n=n)


@dataclass(frozen=True)
class Card:
    """A card: when it is played, its effect, its rule in one line, and who may play it where.

    Legality is data: `procedures` where it may be played; `roles` per procedure (default:
    either side); `powers` that may play it (empty: any); `not_by` / `not_against` powers
    that may not play it or face it; `needs` a power that must be one of the two sides.
    """

    name: str
    timing: str
    procedures: tuple
    effect: Callable  # (me: Side, enemy: Side, procedure: str, policy: str) -> None
    text: str
    roles: dict = field(default_factory=dict)
    powers: tuple = ()
    not_by: tuple = ()
    not_against: tuple = ()
    needs: str | None = None

    def illegal(self, procedure: str, role: str, power: str, enemy: str) -> str | None:
        """Why this card may not be played by `role` of `power` against `enemy` in
        `procedure`, or None if it may."""
        _ = i18n._
        if procedure not in self.procedures:
            return _("cannot be played in {battle}").format(battle=_battle(procedure))
        if role not in self.roles.get(procedure, ROLES):
            return _("only the {roles} may play it in {battle}").format(
                roles=_(" or ").join(_(r) for r in self.roles[procedure]), battle=_battle(procedure))
        if self.powers and power not in self.powers:
            return _("only the {powers} side may play it").format(powers=_(" or ").join(self.powers))
        if power in self.not_by:
            return _("the {power} side may not play it").format(power=power)
        if enemy in self.not_against:
            return _("it cannot be played against {enemy}").format(enemy=enemy)
        if self.needs and self.needs not in (power, enemy):
            return _("it is played by {power} or against {power}").format(power=self.needs)
        return None


def _landsknechts(me, enemy, procedure, policy):
    if me.power == "ottoman":
        removed = min(2, enemy.mercenaries)
        enemy.units -= removed
        enemy.mercenaries -= removed
    else:
        me.add_mercenaries(4 if me.power == "hapsburg" else 2)


def _swiss(me, enemy, procedure, policy):
    me.add_mercenaries(4 if me.power == "france" else 2)


def _bribed(me, enemy, procedure, policy):
    moved = -(-enemy.mercenaries // 2)
    enemy.units -= moved
    enemy.mercenaries -= moved
    me.add_mercenaries(moved)


def _surprise(me, enemy, procedure, policy):
    me.surprise = True


def _dice(name, n_default, n_strong=None, strong=()):
    def effect(me, enemy, procedure, policy):
        me.add_dice(name, n_strong if me.power in strong else n_default)
    return effect


def _tercios(me, enemy, procedure, policy):
    if me.power == "hapsburg":
        me.extra.append((3, 4))
    elif enemy.regulars >= 3:
        enemy.penalty += 3
        enemy.parts.append(("tercios against it", -3))
    else:
        me.notes.append(f"tercios had no effect: the Hapsburg force has {enemy.regulars} "
                        "regulars (it costs 3 dice only to a force of 3 or more)")


def _janissaries(me, enemy, procedure, policy):
    me.after.append(AfterRoll("janissaries", 4 if procedure == "naval" else 5, 5, policy))


def _siege_mining(me, enemy, procedure, policy):
    me.add_dice("siege-mining", 3)


def _restless(me, enemy, procedure, policy):
    enemy.units -= enemy.mercenaries
    enemy.mercenaries = 0


def _after_card(name, count, threshold=5):
    def effect(me, enemy, procedure, policy):
        me.after.append(AfterRoll(name, count, threshold, policy))
    return effect


NOT_BESIEGED = {"assault": ("attacker",)}  # "not in a stack under siege"
ATTACKER = {"assault": ("attacker",)}

# The whole deck, whichever procedure is imported: a card named in the wrong procedure is
# refused as such, not as unknown. Naval dice and thresholds are defaults only:
# naval.fleets.setup sets them from the ruleset after `play`.
CARDS: dict[str, Card] = {card.name: card for card in (
    Card("landsknechts", "before", ("field", "assault"), _landsknechts,
         "Hapsburg +4 mercenaries, other powers +2; the Ottomans remove 2 enemy mercenaries",
         roles=NOT_BESIEGED),
    Card("swiss-mercenaries", "before", ("field", "assault"), _swiss,
         "France +4 mercenaries, other powers +2 (French mercenaries: not for the Ottomans)",
         roles=NOT_BESIEGED, not_by=("ottoman",)),
    Card("mercenaries-bribed", "combat", ("field",), _bribed,
         "half the enemy's mercenaries, rounded up, change sides",
         not_by=("ottoman",), not_against=("ottoman",)),
    Card("surprise-attack", "combat", ("field",), _surprise,
         "roll first; the enemy counts its dice after its losses"),
    Card("arquebusiers", "combat", ("field", "naval"), _dice("arquebusiers", 2), "+2 dice"),
    Card("field-artillery", "combat", ("field",), _dice("field-artillery", 2, 3, ("france", "ottoman")),
         "+2 dice, +3 for France or the Ottomans"),
    Card("tercios", "combat", ("field",), _tercios,
         "Hapsburg: +3 dice hitting on 4-6; against 3+ Hapsburg regulars: they roll 3 fewer",
         needs="hapsburg"),
    Card("janissaries", "after", ("field", "naval"), _janissaries,
         "after the roll: +5 dice (4 at sea)", powers=("ottoman",)),
    Card("siege-mining", "combat", ("assault",), _siege_mining, "+3 dice", roles=ATTACKER),
    Card("mercenaries-grow-restless", "combat", ("assault",), _restless,
         "every mercenary leaves the assaulting force", roles={"assault": ("defender",)}),
    Card("siege-artillery", "after", ("assault",), _after_card("siege-artillery", 2, 3),
         "after the roll: 2 dice hitting on 3-6", roles=ATTACKER),
    Card("galleasses", "after", ("naval",), _after_card("galleasses", 3),
         "after the roll: +3 dice (Mediterranean only)"),
    Card("professional-rowers", "after", ("naval",), _after_card("professional-rowers", 3),
         "after the roll: +3 dice at sea; +2 / -2 on an interception roll"),
)}


def names_for(procedure: str, side: str | None = None) -> tuple:
    """The cards a procedure admits, by name; with `side`, only those that side may play there."""
    return tuple(sorted(n for n, c in CARDS.items() if procedure in c.procedures
                        and (side is None or side in c.roles.get(procedure, (side,)))))


def only_with(procedure: str, names, role: str, powers: tuple, side: str | None = None) -> dict:
    """Param.only_with of a side's cards: card -> the ways (`{power keyword: powers}`) the
    side may play it by its `powers`, `not_by`, `not_against` and `needs` (the rules
    Card.illegal applies); `side` names the power keywords (default: `role`'s). A card any
    power may play against any is left out."""
    side = side or role
    mine, theirs = f"{side}_power", f"{'defender' if side == 'attacker' else 'attacker'}_power"
    out = {}
    for name in names:
        card = CARDS[name]
        by = tuple(p for p in powers if (not card.powers or p in card.powers) and p not in card.not_by)
        against = tuple(p for p in powers if p not in card.not_against)
        ways = [{mine: by, theirs: against}]
        if card.needs:  # played by that power or against it
            ways = [{mine: tuple(p for p in by if p == card.needs), theirs: against},
                    {mine: by, theirs: tuple(p for p in against if p == card.needs)}]
        ways = [{k: v for k, v in way.items() if set(v) != set(powers)} for way in ways]
        if all(ways):
            out[name] = tuple(ways)
    return out


def help_for(procedure: str, names=None) -> str:
    """The cards a procedure admits (or `names`), each with the policies of an after-roll card
    and its effect in a few words, for --help."""
    return "; ".join(f"{n}{'[:' + '|'.join(POLICIES) + ']' if CARDS[n].timing == 'after' else ''}"
                     f" ({CARDS[n].text})" for n in (names or names_for(procedure)))


def canonical(spec, field_name: str) -> str:
    """The card as the result records it: 'name', or 'name:policy' for after-roll cards (the
    policy a player holding it would use, if-needed, when none is given)."""
    card, policy = parse(spec, field_name)
    return f"{card.name}:{policy}" if card.timing == "after" else card.name


def parse(spec: str, field_name: str) -> tuple[Card, str]:
    """'name' or 'name:policy' -> (card, policy); policies only for cards played after the roll
    (default if-needed); names in any case."""
    if not isinstance(spec, str):
        raise OddsError(i18n._("{field}: {value} is not a card name").format(field=field_name, value=repr(spec)))
    name, _sep, policy = spec.strip().lower().partition(":")
    name, policy = native(name, CARDS) or name, native(policy, POLICIES + ("first", "if-it-helps",
                                                                          "optimal")) or policy
    card = CARDS.get(name)
    if card is None and as_setting(name):
        raise OddsError(i18n._("{field}: {name} is not a card here: give {setting}").format(
            field=field_name, name=repr(name), setting=as_setting(name)))
    if card is None:
        raise OddsError(i18n._("{field}: unknown card {name}{nearest} (allowed: {allowed})").format(
            field=field_name, name=repr(name), nearest=nearest(name, sorted(CARDS)),
            allowed=", ".join(sorted(CARDS))))
    if policy and card.timing != "after":
        raise OddsError(i18n._("{field}: {spec}: {name} takes no policy (it is played before the "
                               "roll)").format(field=field_name, spec=repr(spec), name=name))
    policy = policy or DEFAULT_POLICY
    if policy not in POLICIES:
        raise OddsError(i18n._("{field}: {spec}: unknown policy {policy}{nearest} (allowed: {allowed})"
                               ).format(field=field_name, spec=repr(spec), policy=repr(policy),
                                        nearest=nearest(policy, POLICIES), allowed=", ".join(POLICIES)))
    return card, policy


def _battle(procedure: str) -> str:
    """'a field battle', 'an assault', 'a naval battle': the procedure in words."""
    return i18n._(BATTLES.get(procedure, procedure))


BATTLES = {"field": N_("a field battle"), "naval": N_("a naval battle"), "assault": N_("an assault")}


def play(procedure: str, attacker: Side, defender: Side, attacker_cards, defender_cards,
         allowed=None):
    """Apply both sides' cards in game order: responses, then combat cards, attacker first.

    `allowed` overrides which cards a procedure accepts (e.g. a setting admitting more).
    """
    chosen, seen = [], set()
    for me, enemy, specs in ((attacker, defender, attacker_cards), (defender, attacker, defender_cards)):
        for spec in specs:
            field_name = f"{me.role}_cards"
            card, policy = parse(spec, field_name)
            if card.name in seen:
                raise OddsError(i18n._("{field}: {card} is named twice (each card exists once in the "
                                       "deck)").format(field=field_name, card=repr(card.name)))
            seen.add(card.name)
            admitted = allowed and card.name in allowed
            reason = card.illegal(card.procedures[0] if admitted else procedure, me.role,
                                  me.power, enemy.power)
            if reason:
                allowed_here = ", ".join(n for n in names_for(procedure)
                                         if not CARDS[n].illegal(procedure, me.role, me.power, enemy.power))
                raise OddsError(i18n._("{field}: {card} for the {role} ({power}): {reason} (allowed: "
                                       "{allowed})").format(field=field_name, card=repr(card.name),
                                                            role=i18n._(me.role), power=me.power, reason=reason,
                                                            allowed=allowed_here or i18n._("none")))
            chosen.append((card, me, enemy, policy))
    for timing in TIMINGS:
        for card, me, enemy, policy in chosen:
            if card.timing == timing:
                card.effect(me, enemy, procedure, policy)


def page() -> dict:
    """For the web page: each card's policies (the default first; none for a card played
    before the roll)."""
    return {"cards": {name: {"policies": sorted(POLICIES, key=lambda x: x != DEFAULT_POLICY)
                                 if card.timing == "after" else []}
                      for name, card in sorted(CARDS.items())}}
