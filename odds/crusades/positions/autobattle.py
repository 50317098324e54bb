"""The fair auto-battle: one battle played on from a position, its random numbers from the
SHA-256 digest of the position's text and a public draw string the moderator announces
beforehand, so nobody can pick the result and anyone can re-run it."""
from __future__ import annotations

import hashlib
import json
import shlex
from dataclasses import dataclass

from ...errors import OddsError, shown
from ...files import read_text
from ...i18n import _, integer, language, ngettext, percent
from ..battles.narration import OUTCOME_WORDS
from ..simulator import state as S
from ..scenario import MAX_SCENARIO_BYTES, SIDES
from ..battles.battle import ROWS_HEAD
from .from_here import play_on, position_odds
from .position import Position, load_position

MAX_DRAW = 1000  # characters of a draw string
MAX_EVENTS = 200_000


@dataclass(frozen=True)
class AutoBattle:
    """One auto-battle: the digest and seed it was drawn with, how it ended, each side's
    losses from the position round by round, and where it falls in the position's odds."""

    digest: str
    seed: int
    outcome: str
    round: int
    rounds: list  # per round played: {"round": r, "attacker": lost so far, "defender": ...}
    losses: dict  # side -> type -> units lost from the position (as the odds count them:
    # killed, captured, and the fled that do not return)
    percentile: dict  # side -> P(fewer losses) + P(as many) / 2 in the odds' distribution
    p_outcome: float  # P(this winner) in the odds
    command: str
    battles: int  # battles the odds were computed with

    def text(self) -> str:
        outcome = (_(OUTCOME_WORDS[S.OUTCOMES.index(self.outcome)]) if self.outcome in S.OUTCOMES
                   else self.outcome.replace("_", " "))
        lines = [_("auto-battle: {outcome} in round {n}").format(outcome=outcome, n=self.round)]
        for row in self.rounds:
            lines.append("  " + _("after round {n}: killed, captured or fled since the position: "
                                  "attacker {attacker}, defender {defender}").format(
                n=row["round"], attacker=row["attacker"], defender=row["defender"]))
        for side in SIDES:
            kinds = ", ".join(f"{t} {n}" for t, n in self.losses[side].items() if n) or _("none")
            lines.append(_("{side} lost {n} ({kinds}; half the fled return): percentile {nth} of its "
                           "losses in the odds").format(
                side=_(side), n=sum(self.losses[side].values()), kinds=kinds,
                nth=percent(self.percentile[side], 0)))
        lines += [_("this winner's probability in the odds: {p} ({battles})").format(
                      p=percent(self.p_outcome, 1), battles=ngettext(
                          "{n} battle", "{n} battles", self.battles).format(n=integer(self.battles))),
                  _("digest (SHA-256 of the position's text and the draw): {digest}").format(
                      digest=self.digest),
                  _("re-run: {command}").format(command=f"`{self.command}`" if language() != "en"
                                                else self.command)]
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def digest_of(text: str, draw: str) -> str:
    """SHA-256 of the position's text, a separator and the draw string (UTF-8), in hex."""
    return hashlib.sha256(text.encode("utf-8") + b"\n--draw\n" + draw.encode("utf-8")).hexdigest()


def autobattle(position, *, draw: str, battles=None, name: str | None = None, threads=None,
               progress=None) -> AutoBattle:
    """Play the position on once with the stream seeded by `digest_of(its text, draw)`; the
    position is a file's path, its text or a Position read from text (a table is written as
    sorted JSON for the digest).
    The odds it is placed in are `position_odds` with `battles` (default: the position's) and
    `threads`; `progress` as position_odds takes it (a first compile says so)."""
    if not isinstance(draw, str) or not draw.strip() or len(draw) > MAX_DRAW:
        raise OddsError(f"--draw: {shown(draw)} is not a public draw string (allowed: 1 to "
                        f"{MAX_DRAW} characters, announced before the draw)")
    if isinstance(position, Position):
        if not position.text:
            raise OddsError("position: read from a table, it has no text to draw with (give its file)")
        text, path, pos = position.text, name or position.path, position
    elif isinstance(position, dict):
        text, path = json.dumps(position, sort_keys=True), "POSITION.toml"
        pos = load_position(position, name=name)
    elif isinstance(position, str) and "\n" in position:
        text, path = position, name or "POSITION.toml"
        pos = load_position(position, name=name)
    else:
        text, path = read_text(position, "position", MAX_SCENARIO_BYTES), str(position)
        pos = load_position(position)
    digest = digest_of(text, draw)
    seed = int(digest[:16], 16) >> 1  # 63 bits
    hist, final, log = play_on(pos, seed=seed, events=MAX_EVENTS, stream=False, progress=progress)
    code, rnd = int(final[S.NFU, 0]), int(final[S.NFU, 1])
    U = final[:S.NFU, :pos.n]
    odds = position_odds(pos, battles=battles, threads=threads, progress=progress)
    sc, K = pos.scenario, len(pos.scenario.type_names)
    returned = lambda s, k: int(hist[ROWS_HEAD + (s * K + k) * S.N_CAT + 4].argmax())
    losses = {side: {t: int(sc.counts[s, k]) - returned(s, k) for k, t in enumerate(sc.type_names)
                     if sc.counts[s, k]} for s, side in enumerate(SIDES)}
    percentile = {}
    for side in SIDES:
        pmf, lost = odds.pmfs[f"{side}_units_lost"], sum(losses[side].values())
        percentile[side] = float(pmf[:lost].sum() + pmf[lost] / 2) if lost < len(pmf) else 1.0
    winner = "attacker_win" if code in (0, 1) else "defender_win" if code in (2, 3) else "undecided"
    return AutoBattle(digest, seed, S.OUTCOMES[code], rnd, _rounds(log, U, pos.turn), losses,
                      percentile, float(odds[winner]),
                      f"odds crusades autobattle {shlex.quote(path)} --draw {shlex.quote(draw)}",
                      odds.trials)


def _rounds(log, U, turn) -> list:
    """Each side's units lost (killed, captured, left the board) so far, after each round."""
    lost = [0, 0]
    out, rnd = [], turn - 1
    for kind, a, b, c, d, e in log[1:log[0, 0] + 1].tolist():
        if kind == S.EV_TURN and a != rnd:
            if a > turn:
                out.append({"round": rnd, "attacker": lost[0], "defender": lost[1]})
            rnd = a
        elif (kind == S.EV_HIT and d in (S.DEAD, S.CAPTURED)) or kind == S.EV_ESCAPE:
            lost[U[S.USIDE, a]] += 1
    out.append({"round": max(rnd, turn), "attacker": lost[0], "defender": lost[1]})
    return out
