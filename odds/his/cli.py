"""`odds his ...` commands."""
from __future__ import annotations

from ..cli_common import add_engine_flags, engine_kwargs, whole


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
    from .naval_cli import add_his

    add_his(procs)
