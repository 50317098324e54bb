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

from ..errors import OddsError

POLICIES = ("always", "if-needed")
POLICY_CODES = {"always": 1, "if-needed": 2}  # for the kernels; 0 means the card is not held
TIMINGS = ("before", "combat", "after")


@dataclass
class Side:
    """One side's battle setup while cards are applied (mutable; a procedure builds it)."""

    role: str  # "attacker" / "defender"
    power: str
    units: int
    mercenaries: int
    cavalry: int
    dice: int = 0  # dice hitting on 5-6 beyond one per unit: leader, defender's die, cards
    extra: list = field(default_factory=list)  # further (count, threshold) groups from cards
    penalty: int = 0  # dice removed (Tercios against a Hapsburg force)
    surprise: bool = False
    after: list = field(default_factory=list)  # AfterRoll entries, in play order

    @property
    def regulars(self) -> int:
        return self.units - self.mercenaries - self.cavalry

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


@dataclass(frozen=True)
class Card:
    name: str
    timing: str
    procedures: tuple
    effect: Callable  # (me: Side, enemy: Side, procedure: str, policy: str) -> None
    forbidden: Callable = lambda me, enemy: None  # -> reason it may not be played, or None


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


def _dice(n_default, n_strong=None, strong=()):
    def effect(me, enemy, procedure, policy):
        me.dice += n_strong if me.power in strong else n_default
    return effect


def _tercios(me, enemy, procedure, policy):
    if me.power == "hapsburg":
        me.extra.append((3, 4))
    elif enemy.regulars >= 3:
        enemy.penalty += 3


def _janissaries(me, enemy, procedure, policy):
    me.after.append(AfterRoll("janissaries", 4 if procedure == "naval" else 5, 5, policy))


def _only(power):
    return lambda me, enemy: None if me.power == power else f"only the {power} side may play it"


def _not_ottoman_swiss(me, enemy):
    if me.power == "ottoman":
        return "played by the ottoman side its 4 mercenaries are French and cannot join the ottoman force"
    return None


def _no_ottomans(me, enemy):
    if "ottoman" in (me.power, enemy.power):
        return "not usable by or against the ottoman side"
    return None


def _tercios_forbidden(me, enemy):
    if "hapsburg" not in (me.power, enemy.power):
        return "played by the hapsburg side, or against it"
    return None


CARDS: dict[str, Card] = {}


def register(card: Card) -> Card:
    """Add a card to the deck the procedures look cards up in."""
    CARDS[card.name] = card
    return card


for _card in (
    Card("landsknechts", "before", ("field", "assault"), _landsknechts),
    Card("swiss-mercenaries", "before", ("field", "assault"), _swiss, _not_ottoman_swiss),
    Card("mercenaries-bribed", "combat", ("field",), _bribed, _no_ottomans),
    Card("surprise-attack", "combat", ("field",), _surprise),
    Card("arquebusiers", "combat", ("field", "naval"), _dice(2)),
    Card("field-artillery", "combat", ("field",), _dice(2, 3, ("france", "ottoman"))),
    Card("tercios", "combat", ("field",), _tercios, _tercios_forbidden),
    Card("janissaries", "after", ("field", "naval"), _janissaries, _only("ottoman")),
):
    register(_card)


def names_for(procedure: str) -> tuple:
    """The cards a procedure admits, by name."""
    return tuple(sorted(n for n, c in CARDS.items() if procedure in c.procedures))


def help_for(procedure: str) -> str:
    """The cards a procedure admits, with the policies of after-roll cards, for --help."""
    return ", ".join(n + ("[:" + "|".join(POLICIES) + "]" if CARDS[n].timing == "after" else "")
                     for n in names_for(procedure))


def parse(spec: str, field_name: str) -> tuple[Card, str]:
    """'name' or 'name:policy' -> (card, policy); policies only for cards played after the roll."""
    if not isinstance(spec, str):
        raise OddsError(f"{field_name}: {spec!r} is not a card name")
    name, _, policy = spec.strip().lower().partition(":")
    card = CARDS.get(name)
    if card is None:
        raise OddsError(f"{field_name}: unknown card {name!r} (allowed: {', '.join(sorted(CARDS))})")
    if policy and card.timing != "after":
        raise OddsError(f"{field_name}: {spec!r}: {name} takes no policy (it is played before the roll)")
    policy = policy or "always"
    if policy not in POLICIES:
        raise OddsError(f"{field_name}: {spec!r}: unknown policy {policy!r} (allowed: {', '.join(POLICIES)})")
    return card, policy


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


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
                raise OddsError(f"{field_name}: {card.name!r} is named twice (each card exists once in the deck)")
            seen.add(card.name)
            if procedure not in card.procedures and not (allowed and card.name in allowed):
                raise OddsError(f"{field_name}: {card.name!r} cannot be played in {_article(procedure)} {procedure} "
                                f"(allowed: {', '.join(sorted(n for n, c in CARDS.items() if procedure in c.procedures))})")
            reason = card.forbidden(me, enemy)
            if reason:
                raise OddsError(f"{field_name}: {card.name!r} for the {me.power} {me.role}: {reason}")
            chosen.append((card, me, enemy, policy))
    for timing in TIMINGS:
        for card, me, enemy, policy in chosen:
            if card.timing == timing:
                card.effect(me, enemy, procedure, policy)
