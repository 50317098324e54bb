"""`odds vq naval` and `odds his naval`: thin layers over naval.naval_battle."""
from __future__ import annotations

from ..cli_common import add_engine_flags, engine_kwargs, whole

SHIPS = {"vq": ("galleys", "galleons", "race-built"), "his": ("squadrons",)}


def _add_naval_flags(p, ruleset: str):
    for side in ("attacker", "defender"):
        for kind in SHIPS[ruleset] + ("corsairs",):
            p.add_argument(f"--{side}-{kind}", type=whole, default=0, metavar="N")
        p.add_argument(f"--{side}-leader", type=whole, default=0, metavar="R",
                       help="best naval leader rating")
        p.add_argument(f"--{side}-power", default="other", metavar="P")
        p.add_argument(f"--{side}-card", action="append", default=[], metavar="NAME[:POLICY]")
    if ruleset == "vq":
        p.add_argument("--location", required=True, metavar="mediterranean|atlantic",
                       help="the sea zone (or the zone of the port)")
    p.add_argument("--port", action="store_true", help="the battle is in a port")
    p.add_argument("--dice-per", action="append", default=[], metavar="TYPE=N",
                   help="override dice per ship type, corsair, port bonus or card")
    p.add_argument("--hits-per-ship", type=whole, metavar="K", help="hits that sink a ship (default 2)")
    p.add_argument("--hits-per-corsair", type=whole, metavar="K", help="hits that sink a corsair (default 1)")
    add_engine_flags(p)
    p.set_defaults(run=lambda args: _run(args, ruleset))


def _run(args, ruleset):
    from .naval import naval_battle

    kwargs = {}
    for side in ("attacker", "defender"):
        for kind in SHIPS[ruleset] + ("corsairs",):
            key = f"{side}_{kind.replace('-', '_')}"
            kwargs[key] = getattr(args, key)
        for key in ("leader", "power"):
            kwargs[f"{side}_{key}"] = getattr(args, f"{side}_{key}")
        kwargs[f"{side}_cards"] = getattr(args, f"{side}_card")
    if ruleset == "vq":
        kwargs["location"] = args.location
    return naval_battle(**kwargs, port=args.port, ruleset=ruleset, dice_per=args.dice_per,
                        hits_per_ship=args.hits_per_ship, hits_per_corsair=args.hits_per_corsair,
                        **engine_kwargs(args))


def add_his(procs):
    """`odds his naval` (called from his/cli.py with the `his` subparsers)."""
    _add_naval_flags(procs.add_parser("naval", help="naval combat (squadrons and corsairs)"), "his")


def register(games):
    """`odds vq naval`."""
    vq = games.add_parser("vq", help="The Virgin Queen")
    procs = vq.add_subparsers(dest="procedure", required=True, parser_class=type(vq))
    _add_naval_flags(procs.add_parser("naval", help="naval combat"), "vq")
