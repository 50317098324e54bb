"""What a result's events mean in words. A procedure declares its own `Words` (the headline of
its main probability, the events that partition its outcome, the events that are parts of one,
what an event means where its name does not say it) and hands them to its Procedure and its
Spec; Result.summary, the page and the pictures (odds.tools.plot) read them from there, so no table
here names a procedure's events. The only words here are the common attacker/defender ones."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..i18n import _, pgettext


@dataclass(frozen=True)
class Words:
    """A procedure's events in words.

    `headline`: the main probability in words ("Captured"; default: its name, capitalised).
    `partitions`: sets of events that sum to 1; a result uses the first set it has all of.
    `within`: event -> the outcomes it is a part of (the summary indents it under the first of
    them the partition has); `within_prefix` the same for events named by a prefix.
    `why`: event -> what it means, where its name does not say it.
    """

    headline: str = ""
    partitions: tuple = ()
    within: dict = field(default_factory=dict)
    within_prefix: dict = field(default_factory=dict)
    why: dict = field(default_factory=dict)

    def title(self, main: str, game: str | None = None) -> str:
        """The answer in words for the main probability ("Attacker wins"; `game`: in that game's
        own words where it has them, Oath's «Напавший — триумфатор»)."""
        if self.headline:
            return _(self.headline)
        if main == "attacker_win":
            return own(game, "Attacker wins")
        return label(main, game).capitalize()

    def part_of(self, event: str, outcomes) -> str | None:
        """The outcome among `outcomes` that `event` is a part of, or None."""
        parents = self.within.get(event) or next(
            (v for prefix, v in self.within_prefix.items() if event.startswith(prefix)), ())
        return next((o for o in parents if o in outcomes), None)

    def partition(self, probabilities) -> list:
        """(name, probability) of the events that partition the outcome (they sum to 1): a
        declared set, else attacker wins / defender wins; [] when there is neither."""
        p = probabilities
        for names in self.partitions:
            if all(n in p for n in names):
                return [(n, p[n]) for n in names]
        if "attacker_win" in p:
            return [("attacker_win", p["attacker_win"]), ("defender_win", 1 - p["attacker_win"])]
        return []


PLAIN = Words()  # a procedure that declares none: attacker/defender words only


def label(name: str, game: str | None = None) -> str:
    """A probability's or pmf's name in words, in the language in force ("attacker_win" ->
    "attacker win"; a name ending in a number, "win_within_losses_3", is its words' message
    "win within losses {k}" with k = 3); `game`: in that game's own words where it has them."""
    words = name.replace("_", " ")
    numbered = _NUMBERED.fullmatch(words)
    if numbered:
        message = numbered[1] + " {k}"
        return own(game, message).format(k=numbered[2])
    return own(game, words)


def own(game: str | None, message: str) -> str:
    """`message` in `game`'s own words (its message context) where the catalog has them, else
    in the common ones."""
    if game:
        told = pgettext(game, message)
        if told != message:
            return told
    return _(message)


_NUMBERED = re.compile(r"(.*\D) (\d+)")
