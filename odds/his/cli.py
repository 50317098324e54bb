"""`odds his ...` commands."""
from __future__ import annotations

from ..cli_common import add_engine_flags, engine_kwargs, number, whole


def add_force_flags(p, side: str, required: bool = True, cards: bool = True):
    """--SIDE N and --SIDE-mercenaries/-cavalry/-leader/-power/-card for one side."""
    p.add_argument(f"--{side}", type=whole, required=required, metavar="N", help=f"{side} land units")
    p.add_argument(f"--{side}-mercenaries", type=whole, default=0, metavar="M")
    p.add_argument(f"--{side}-cavalry", type=whole, default=0, metavar="C")
    p.add_argument(f"--{side}-leader", type=whole, default=0, metavar="R", help="best battle rating")
    p.add_argument(f"--{side}-power", default="other", metavar="P")
    if cards:
        p.add_argument(f"--{side}-card", action="append", default=[], metavar="NAME[:POLICY]")


def force_kwargs(args, side: str) -> dict:
    out = {side: getattr(args, side)}
    for key in ("mercenaries", "cavalry", "leader", "power"):
        out[f"{side}_{key}"] = getattr(args, f"{side}_{key}")
    if hasattr(args, f"{side}_card"):
        out[f"{side}_cards"] = getattr(args, f"{side}_card")
    return out


def _field(args):
    from .field import field_battle

    return field_battle(**force_kwargs(args, "attacker"), **force_kwargs(args, "defender"),
                        fortified=args.fortified, withdraw_inside=args.withdraw_inside,
                        **engine_kwargs(args))


def _assault_flags(p, siege: bool):
    add_force_flags(p, "attacker")
    add_force_flags(p, "defender")
    p.add_argument("--gout", type=whole, metavar="R",
                   help="Gout keeps the best attacking leader out: the next-best rating"
                        + (" (first assault only)" if siege else ""))
    if siege:
        p.add_argument("--assaults", type=whole, required=True, metavar="K", help="at most K assaults")
        for side in ("attacker", "defender"):
            p.add_argument(f"--{side}-card-every", action="append", default=[],
                           metavar="NAME[:POLICY]", help=f"a card for every assault (--{side}-card: first only)")
    else:
        p.add_argument("--cancel-probability", type=number, default=0.0, metavar="Q",
                       help="chance Foul Weather cancels the assault")
    p.add_argument("--casualties", default="cavalry-first", help="cavalry-first (default) or infantry-first")
    p.add_argument("--allow-bribed-surprise", action="store_true",
                   help="allow Mercenaries Bribed and Surprise Attack in an assault (as the seed does)")
    add_engine_flags(p)


def _assault_kwargs(args) -> dict:
    return {**force_kwargs(args, "attacker"), **force_kwargs(args, "defender"), "gout": args.gout,
            "casualties": args.casualties, "allow_bribed_surprise": args.allow_bribed_surprise,
            **engine_kwargs(args)}


def _assault(args):
    from .assault import assault

    return assault(**_assault_kwargs(args), cancel_probability=args.cancel_probability)


def _siege(args):
    from .siege import siege

    return siege(**_assault_kwargs(args), assaults=args.assaults,
                 attacker_cards_every=args.attacker_card_every,
                 defender_cards_every=args.defender_card_every)


def register(games):
    his = games.add_parser("his", help="Here I Stand")
    procs = his.add_subparsers(dest="procedure", required=True, parser_class=type(his))
    field = procs.add_parser("field", help="field battle")
    add_force_flags(field, "attacker")
    add_force_flags(field, "defender")
    field.add_argument("--fortified", action="store_true", help="the battle is in a fortified space")
    field.add_argument("--withdraw-inside", type=whole, metavar="K",
                       help="defending survivors that withdraw inside (default: all); implies --fortified")
    add_engine_flags(field)
    field.set_defaults(run=_field)
    assault = procs.add_parser("assault", help="one assault of a besieged fortified space")
    _assault_flags(assault, siege=False)
    assault.set_defaults(run=_assault)
    siege = procs.add_parser("siege", help="a siege: one assault per impulse, at most K")
    _assault_flags(siege, siege=True)
    siege.set_defaults(run=_siege)

    from .naval_cli import add_his

    add_his(procs)
