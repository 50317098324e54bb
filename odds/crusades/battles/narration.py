"""`trace`: one battle told round by round (moves, shots, melee, damage, morale tests, who
leaves the board), from the events the kernel records when asked (kernel.note)."""
from __future__ import annotations

from ...config import MAX_TRIALS
from ...errors import check_int
from ..simulator import state as S
from .battle import one_battle, scenario_of, script
from ...i18n import N_, _

MAX_EVENTS = 200_000


def trace(scenario, *, seed=0, index=0, overrides=(), dice=None) -> str:
    """The text of battle `index` (0 to MAX_TRIALS - 1, as in a run of `seed`) of `seed` (or
    with scripted morale `dice`), one line per event."""
    seed = check_int("seed", 0 if seed is None else seed, 0, 2**63 - 1)
    index = check_int("index", index, 0, MAX_TRIALS - 1)
    sc = scenario_of(scenario, overrides)
    _start, final, log = one_battle(sc, script(None if dice is None else list(dice)), seed, index,
                               events=MAX_EVENTS)
    code, rnd, first, ok, n = (int(v) for v in final[S.NFU, :5])
    U = final[:S.NFU, :n]
    name = lambda j: f"{_(SIDE_WORDS[U[S.USIDE, j]])} {sc.type_names[U[S.UTYPE, j]]}#{j}"
    how = (_("scripted dice {dice}").format(dice=list(dice)) if dice is not None else
           _("battle {index} of seed {seed}").format(index=index, seed=seed))
    title = _(sc.title)  # a shipped scenario's title is in the catalog; a user's own stays
    lines = [f"{title}: " + _("{how}, {n} units on the board, {side} moves first").format(
        how=how, n=n, side=_(SIDE_WORDS[first]))]
    side, moving, testing = 0, None, False
    for kind, a, b, c, d, e in log[1:log[0, 0] + 1].tolist():
        if kind == S.EV_MOVE and moving == a:  # the same unit's next cell
            lines[-1] += f", ({b}, {c})"
            continue
        moving, testing = (a if kind == S.EV_MOVE else None), testing and kind == S.EV_MORALE
        if kind == S.EV_TURN:
            side = b
            lines.append(_("round {n}, {side}:").format(n=a, side=_(SIDE_WORDS[b])))
        elif kind == S.EV_MORALE and not testing:
            lines.append("  " + _(MORALE_OF[1 - side]))
        if kind == S.EV_MORALE:
            testing = True
            morale = sc.types[S.TMORALE, U[S.UTYPE, a]]
            lines.append("    " + _(MORALE[bool(e)]).format(unit=name(a), damage=d, roll=b,
                                                           morale=morale, modifier=f"{c:+d}"))
        elif kind in EVENTS:
            indent, message = EVENTS[kind]
            lines.append(indent + _(message).format(
                unit=name(a), x=b, y=c, other=name(b) if kind != S.EV_HIT else "", damage=b,
                health=c, rear=_(" from the rear") if c else "", friendly="" if e else _(" (friendly fire)"),
                fate=_(FATES[d]) if d in FATES else ""))
    lines.append(_("result: {outcome} in round {n}").format(outcome=_(OUTCOME_WORDS[code]), n=rnd))
    return "\n".join(lines)


SIDE_WORDS = (N_("attacker"), N_("defender"))  # scenario.SIDES in words
MORALE_OF = (N_("morale of the attacker after this turn:"), N_("morale of the defender after this turn:"))
MORALE = (N_("{unit} tests morale (took {damage} damage): rolls {roll}, morale {morale}, "
             "modifier {modifier}: holds"),
          N_("{unit} tests morale (took {damage} damage): rolls {roll}, morale {morale}, "
             "modifier {modifier}: flees"))
EVENTS = {S.EV_MOVE: ("  ", N_("{unit} moves to ({x}, {y})")),
          S.EV_SHOT: ("  ", N_("{unit} shoots at {other}")),
          S.EV_MELEE: ("  ", N_("{unit} attacks {other}{rear}")),
          S.EV_HIT: ("    ", N_("{unit} takes {damage} damage{friendly}: health {health}{fate}")),
          S.EV_ESCAPE: ("  ", N_("{unit} leaves the board (fled)"))}
FATES = {S.DEAD: N_(", killed"), S.CAPTURED: N_(", captured (it was fleeing)")}
OUTCOME_WORDS = dict(enumerate((N_("attacker wins by rout"), N_("attacker takes headquarters"),
                                N_("defender wins by rout"), N_("defender takes headquarters"),
                                N_("turn limit"), N_("mutual rout"))))  # S.OUTCOMES in words
